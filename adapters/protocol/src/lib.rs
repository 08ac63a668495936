//! `robotstxt-protocol`: the adapter wire protocol of robotstxt-test (`adapters/PROTOCOL.md`), the
//! JSON lines a parser's adapter and the harness exchange, and a kit that speaks it for a Rust
//! parser.
//!
//! - [`text`]: outside text ([`Outside`], the type of a handshake's fields), shown made visible
//!   and read exactly on request, and the characters a one-line field may not hold.
//! - [`agents`]: the three forms of a robot's name an adapter may hand its parser.
//! - [`wire`]: every message as a serde type. The harness encodes and decodes through them, and
//!   `adapters/protocol.schema.json` is generated from them (module `schema`, behind the
//!   `schema` feature).
//! - [`serve`](serve()) and [`serve_batch`]: the adapter kit. A Rust adapter is its handshake
//!   and its call into the parser; the kit does the rest.
//! - module `build` (the `build` feature) and [`handshake!`]: a Rust adapter of this repository
//!   answers its hello with what its own `adapter.yaml` says, read by its build script.
//!
//! The crate lives under `adapters/` because the Rust adapters are built from the copy of
//! `adapters/` the harness carries, and it goes with them. Without features it depends on
//! serde, serde_json, base64 and thiserror only.

#![forbid(unsafe_code)]

pub mod agents;
pub mod serve;
pub mod text;
pub mod wire;

#[cfg(feature = "build")]
pub mod build;
#[cfg(feature = "schema")]
pub mod schema;

pub use agents::{is_product_token, product_token, robot_name, AgentForm};
pub use serve::{check_guarded, per_query, serve, serve_batch, serve_on, QueryAnswer};
pub use text::{is_bidi_control, is_control_or_bidi, Outside};
pub use wire::{
    Answer, CheckReply, CheckRequest, Handshake, Query, Refusal, ReplyError, Request,
    UnsupportedProtocol, Verdict, CLAIMABLE_PROFILES, ORIGIN, PROTOCOL_VERSION,
};

/// The handshake of the adapter being compiled, as its `adapter.yaml` gives it: its `build.rs`
/// calls `robotstxt_protocol::build::handshake_from_manifest()` (with this crate as a
/// build-dependency, feature `build`), which reads the manifest and checks the parser's pin.
#[macro_export]
macro_rules! handshake {
    () => {
        $crate::Handshake {
            name: env!(
                "ROBOTSTXT_ADAPTER_NAME",
                "build.rs must call robotstxt_protocol::build::handshake_from_manifest()"
            )
            .into(),
            parser: env!("ROBOTSTXT_ADAPTER_PARSER").into(),
            version: env!("ROBOTSTXT_ADAPTER_VERSION").into(),
            language: env!("ROBOTSTXT_ADAPTER_LANGUAGE").into(),
            homepage: env!("ROBOTSTXT_ADAPTER_HOMEPAGE").into(),
            profile: env!("ROBOTSTXT_ADAPTER_PROFILE").into(),
        }
    };
}
