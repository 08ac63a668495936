//! The reference under every profile it implements. Its adapter runs one profile (the 1994 text,
//! as its manifest claims), so a report that ranks each profile apart would show it under RFC
//! 9309 at what its 1994 answers score there. The report adds a row per other profile instead:
//! the same library, in-process, answering under that profile, named `reference-<profile>`.

use robotstxt_reference::Profile;
use robotstxt_runtime::lifecycle::{InProcess, Lifecycle};
use robotstxt_suite::engine::{
    AgentForm, ClaimedProfile, Engine, Failure, Handshake, Query, ReferenceEngine, Reply,
};

/// The parser name the reference's handshake gives.
pub const PARSER: &str = "robotstxt-reference";

/// The reference answering under one profile, in a row of its own.
#[derive(Debug, Clone)]
pub struct ReferenceUnder {
    engine: ReferenceEngine,
    handshake: Handshake,
}

impl ReferenceUnder {
    /// The reference under `profile`, described as `adapter` (the reference's own row) is, but
    /// named for the profile.
    pub fn new(profile: Profile, adapter: &Handshake, form: Option<AgentForm>) -> ReferenceUnder {
        let engine = ReferenceEngine::new(profile);
        let engine = match form {
            Some(form) => engine.handing(form),
            None => engine,
        };
        let handshake = Handshake {
            name: format!("{}-{}", adapter.name.raw(), profile.name()).into(),
            profile: profile.name().into(),
            ..adapter.clone()
        };
        ReferenceUnder { engine, handshake }
    }
}

impl Engine for ReferenceUnder {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        self.engine.check(id, robots, queries)
    }

    fn agent_form(&self) -> Option<AgentForm> {
        self.engine.agent_form()
    }
}

impl InProcess for ReferenceUnder {}

/// For the reference among `engines` (the one whose parser is [`PARSER`]), an engine for each
/// profile it does not claim, with the index of the row it joins.
pub fn other_profiles(engines: &[Box<dyn Lifecycle>]) -> Vec<(usize, Box<dyn Lifecycle>)> {
    let Some(at) = engines
        .iter()
        .position(|e| e.handshake().parser == PARSER && e.unavailable().is_none())
    else {
        return Vec::new();
    };
    let adapter = engines[at].handshake();
    let claimed = adapter.claimed_profile();
    (Profile::ALL.iter())
        .filter(|&&p| Some(p) != claimed)
        .map(|&p| {
            let engine = ReferenceUnder::new(p, adapter, engines[at].agent_form());
            (at, Box::new(engine) as Box<dyn Lifecycle>)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_joins_every_profile_it_does_not_claim() {
        let ours: Vec<Box<dyn Lifecycle>> = vec![Box::new(ReferenceEngine::new(Profile::ALL[0]))];
        let added = other_profiles(&ours);
        assert_eq!(added.len(), Profile::ALL.len() - 1);
        for (at, engine) in &added {
            assert_eq!(*at, 0);
            let h = engine.handshake();
            assert_eq!(h.parser, PARSER);
            assert_eq!(h.name.raw(), format!("reference-{}", h.profile));
            assert_ne!(h.claimed_profile(), Some(Profile::ALL[0]));
        }
        let none: Vec<Box<dyn Lifecycle>> = Vec::new();
        assert!(other_profiles(&none).is_empty());
    }
}
