//! `robotstxt-protocol`: the adapter wire protocol of robotstxt-test, the JSON lines a parser's
//! adapter and the harness exchange (`adapters/PROTOCOL.md`).
//!
//! It holds the messages both sides share: for now the [`Handshake`], an adapter's answer to
//! `hello`. This crate lives under `adapters/` because the Rust adapters are built from the copy
//! of `adapters/` the harness carries, and it goes with them.

use serde::{Deserialize, Serialize};

/// What an engine says about itself: the adapter protocol's handshake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handshake {
    pub name: String,
    pub parser: String,
    pub version: String,
    pub language: String,
    pub homepage: String,
    /// `norobots-1994`, `rfc9309` or `other`: what the parser claims to implement.
    pub profile: String,
}

/// Every profile a parser may claim: one the reference implements, or `other` for a parser that
/// follows neither text (it is scored under each, and claims no ranking).
pub const CLAIMABLE_PROFILES: [&str; 3] = ["norobots-1994", "rfc9309", "other"];

impl Handshake {
    /// Why the claimed profile is not one a parser may claim (`rfc-9309`, a typo, must not be
    /// scored silently as a parser that claims nothing).
    pub fn profile_problem(&self) -> Option<String> {
        (!CLAIMABLE_PROFILES.contains(&self.profile.as_str())).then(|| {
            format!(
                "profile `{}` is not one of {}",
                self.profile,
                CLAIMABLE_PROFILES.join(", ")
            )
        })
    }
}
