//! Engines: anything that answers "may this robot fetch this path?" for a robots.txt body.
//!
//! The reference (under one profile) is an engine; so is every adapter process. `run`, `report`,
//! `fuzz` and `survey` all drive engines through this one trait, batch by batch: one body, many
//! queries.

use std::sync::OnceLock;

use robotstxt_reference::{Profile, Robots, Verdict};
use serde::{Deserialize, Serialize};

use crate::visible::{is_control_or_bidi, Outside};

/// One question about a body.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Query {
    pub agent: String,
    /// The local URL: a path starting with `/`, with an optional `?query`.
    pub path: String,
}

/// The forms of a robot's name an adapter may be handed are the protocol's (`robotstxt-protocol`'s
/// `agents`); these are used here and by the corpus's rules. RFC 9309 says what a token may hold,
/// not how a caller derives one, so a check whose agent is not a token itself is never scored
/// under rfc9309.
pub use robotstxt_protocol::{is_product_token, product_token, robot_name, AgentForm};
/// Why an agent cannot be asked about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadAgent {
    #[error("agent must not be empty")]
    Empty,
    #[error("agent {0:?} holds a control or bidirectional character")]
    Hidden(String),
}

/// Whether `agent` is a robot's name a query can carry: not empty, no control character (a line
/// feed would forge a line of whatever shows it) and no bidirectional control. The corpus, `check`
/// and `compare` all hold agents to this.
pub fn check_agent(agent: &str) -> Result<(), BadAgent> {
    if agent.is_empty() {
        Err(BadAgent::Empty)
    } else if agent.chars().any(is_control_or_bidi) {
        Err(BadAgent::Hidden(agent.to_owned()))
    } else {
        Ok(())
    }
}

pub use robotstxt_protocol::{Handshake, CLAIMABLE_PROFILES};

/// The profile a handshake claims, when it is one the reference implements.
pub trait ClaimedProfile {
    /// The claimed profile, when it is one the reference implements.
    fn claimed_profile(&self) -> Option<Profile>;
}

impl ClaimedProfile for Handshake {
    fn claimed_profile(&self) -> Option<Profile> {
        self.profile.raw().parse().ok()
    }
}

/// An engine's answer to one batch of queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// One verdict per query, in query order.
    Verdicts(Vec<Verdict>),
    /// The parser itself refused the body, in the adapter's words.
    Rejected(Outside),
    /// Per query, in query order: its verdict, or why the parser (or the adapter's URL building)
    /// refused that query, in the adapter's words. The body was read; some queries could not be
    /// asked.
    Refused(Vec<Result<Verdict, Outside>>),
}

/// Why an engine gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    /// The process died or closed its output.
    Crash,
    /// No answer within the time limit.
    Timeout,
    /// An answer that is not valid protocol.
    ProtocolError,
    /// The engine could not be started, or failed too often and was given up on.
    Unavailable,
}

impl Fault {
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::ProtocolError => "protocol-error",
            Fault::Unavailable => "unavailable",
        }
    }
}

/// A [`Fault`] and what is known about it (the adapter's stderr tail, the bad line, ...): text
/// from outside, shown made visible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub fault: Fault,
    pub detail: Outside,
}

/// Something that answers queries about robots.txt bodies: a handshake and answers, nothing else.
/// What happens to an engine between answers when it is a process (whether it broke down, a fresh
/// start, more time) is the runtime's (`robotstxt_runtime::lifecycle`), handed to whoever asks
/// again as a [`crate::reask::Between`]. `Send`, so that several engines can be driven side by
/// side.
pub trait Engine: Send {
    fn handshake(&self) -> &Handshake;

    /// Answers every query about `robots`. `id` names the batch in the engine's logs.
    /// A `Reply::Verdicts` holds exactly one verdict per query.
    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure>;

    /// As [`Engine::check`], for a batch asked of several engines side by side. An engine that
    /// sends the batch as a protocol message takes its encoding from `shared`, where the first
    /// engine to need it left it: encoding a body as base64 inside JSON once per adapter was
    /// work done again by every adapter for the same bytes. Others just answer the batch.
    fn check_shared(
        &mut self,
        id: &str,
        robots: &[u8],
        queries: &[Query],
        shared: &SharedRequest,
    ) -> Result<Reply, Failure> {
        let _ = shared;
        self.check(id, robots, queries)
    }

    /// Which form of each query's agent the engine hands its parser, when known (an adapter's
    /// manifest says; a bare command does not): shown beside the agent in failure blocks.
    fn agent_form(&self) -> Option<AgentForm> {
        None
    }
}

/// The protocol message of one batch, encoded by the first engine that needs it and shared by
/// every engine asked the same batch (see [`Engine::check_shared`]).
#[derive(Debug, Default)]
pub struct SharedRequest(OnceLock<Vec<u8>>);

impl SharedRequest {
    pub fn new() -> SharedRequest {
        SharedRequest::default()
    }

    /// The encoded message, made by `encode` if no engine has made it yet.
    pub fn get_or_encode(&self, encode: impl FnOnce() -> Vec<u8>) -> &[u8] {
        self.0.get_or_init(encode)
    }
}

/// The reference implementation under one profile.
#[derive(Debug, Clone)]
pub struct ReferenceEngine {
    profile: Profile,
    handshake: Handshake,
    agent_form: Option<AgentForm>,
}

impl ReferenceEngine {
    pub fn new(profile: Profile) -> ReferenceEngine {
        ReferenceEngine {
            profile,
            handshake: Handshake {
                name: "reference".into(),
                parser: "robotstxt-reference".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                language: "Rust".into(),
                homepage: "reference/README.md".into(),
                profile: profile.name().into(),
            },
            agent_form: None,
        }
    }

    /// The same engine, saying it hands its parser the agent in `form` (as the reference's
    /// adapter manifest says when the runtime runs it in-process).
    pub fn handing(self, form: AgentForm) -> ReferenceEngine {
        ReferenceEngine {
            agent_form: Some(form),
            ..self
        }
    }

    pub fn profile(&self) -> Profile {
        self.profile
    }
}

impl Engine for ReferenceEngine {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, _id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        let parsed = Robots::parse(self.profile, robots);
        let verdicts = queries
            .iter()
            .map(|q| {
                if parsed.is_allowed(&q.agent, &q.path) {
                    Verdict::Allowed
                } else {
                    Verdict::Disallowed
                }
            })
            .collect();
        Ok(Reply::Verdicts(verdicts))
    }

    fn agent_form(&self) -> Option<AgentForm> {
        self.agent_form
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The protocol states its product-token rule on its own (adapters depend on it, not on the
    /// reference); here it is held to the reference's reading of an agent under rfc9309, on
    /// every string of up to four characters over an alphabet of the cases that matter.
    #[test]
    fn the_protocols_product_token_is_the_references() {
        let alphabet = [
            'a', 'Z', '0', '_', '-', '.', '/', ' ', '\t', ';', 'ä', '\u{a0}', '€', '😀',
        ];
        let mut strings = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..4 {
            strings = strings
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(strings.iter().cloned());
        }
        for agent in all {
            let reference = robotstxt_reference::rfc9309::product_token(agent.as_bytes());
            assert_eq!(product_token(&agent).as_bytes(), reference, "{agent:?}");
        }
    }

    #[test]
    fn a_shared_request_is_encoded_once_whoever_asks() {
        let shared = SharedRequest::new();
        let mut encoded = 0;
        let first = shared
            .get_or_encode(|| {
                encoded += 1;
                b"first".to_vec()
            })
            .to_vec();
        let second = shared.get_or_encode(|| {
            encoded += 1;
            b"second".to_vec()
        });
        assert_eq!((first.as_slice(), second), (&b"first"[..], &b"first"[..]));
        assert_eq!(encoded, 1);
    }

    #[test]
    fn an_engine_without_a_wire_form_answers_a_shared_batch_as_any_other() {
        let mut engine = ReferenceEngine::new(Profile::Norobots1994);
        let queries = [Query {
            agent: "FooBot".to_owned(),
            path: "/private/x".to_owned(),
        }];
        let body = b"User-agent: *\nDisallow: /private\n";
        let shared = SharedRequest::new();
        assert_eq!(
            engine.check_shared("a", body, &queries, &shared),
            engine.check("a", body, &queries)
        );
        assert_eq!(
            engine.check("a", body, &queries),
            Ok(Reply::Verdicts(vec![Verdict::Disallowed]))
        );
    }
}
