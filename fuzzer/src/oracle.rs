//! The oracle: is another parser's verdict a scored disagreement with the reference?
//!
//! The reference decides under the profile the parser claims when the reference has it, and under
//! `norobots-1994` otherwise, as the corpus scores checks. A verdict that differs from the
//! reference's is a disagreement only when the decision is settled by that profile's text: where
//! it depends on an open point ([`robotstxt_reference::open_points`]) any answer is acceptable,
//! just as an `unspecified` check is never scored.

use std::fmt;

use robotstxt_reference::open_points::{open_points, OpenPoint};
use robotstxt_reference::{Profile, Robots, Verdict};

use robotstxt_suite::engine::{ClaimedProfile, Handshake, Query};
use robotstxt_suite::visible::Outside;

/// Judges verdicts against the reference under one profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Oracle {
    pub profile: Profile,
}

/// The oracle's word on one verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    Agree,
    /// Different, but on a point the profile leaves open.
    Open(Vec<OpenPoint>),
    /// A scored disagreement.
    Disagree {
        reference: Verdict,
        theirs: Verdict,
    },
}

/// What identifies a disagreement: the parser, the query, and both verdicts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// The adapter's handshake name, outside text.
    pub adapter: Outside,
    pub agent: String,
    pub path: String,
    pub reference: Verdict,
    pub theirs: Verdict,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: agent `{}`, path `{}`: reference {}, {} {}",
            self.adapter, self.agent, self.path, self.reference, self.adapter, self.theirs
        )
    }
}

impl Oracle {
    pub fn new(profile: Profile) -> Oracle {
        Oracle { profile }
    }

    /// The oracle for an engine: its claimed profile when the reference has it, else 1994.
    pub fn for_engine(handshake: &Handshake) -> Oracle {
        Oracle::new(handshake.claimed_profile().unwrap_or(Profile::Norobots1994))
    }

    /// The reference's verdicts on `body`, parsed once.
    pub fn verdicts(&self, body: &[u8], queries: &[Query]) -> Vec<Verdict> {
        let robots = Robots::parse(self.profile, body);
        queries
            .iter()
            .map(|q| verdict(robots.is_allowed(&q.agent, &q.path)))
            .collect()
    }

    /// Judges `theirs` for one query, given the reference's verdict on it.
    pub fn judge(
        &self,
        body: &[u8],
        query: &Query,
        reference: Verdict,
        theirs: Verdict,
    ) -> Judgement {
        if reference == theirs {
            return Judgement::Agree;
        }
        let open = open_points(self.profile, body, &query.agent, &query.path);
        if open.is_empty() {
            Judgement::Disagree { reference, theirs }
        } else {
            Judgement::Open(open)
        }
    }

    /// Judges one query from scratch: parses `body` for it.
    pub fn judge_one(&self, body: &[u8], query: &Query, theirs: Verdict) -> Judgement {
        let reference = self.verdicts(body, std::slice::from_ref(query))[0];
        self.judge(body, query, reference, theirs)
    }
}

pub fn verdict(allowed: bool) -> Verdict {
    if allowed {
        Verdict::Allowed
    } else {
        Verdict::Disallowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(agent: &str, path: &str) -> Query {
        Query {
            agent: agent.to_owned(),
            path: path.to_owned(),
        }
    }

    #[test]
    fn settled_open_and_agreeing_verdicts() {
        let oracle = Oracle::new(Profile::Norobots1994);
        let body = b"User-agent: *\nAllow: /a\nDisallow: /\n";
        assert_eq!(
            oracle.judge_one(body, &q("FooBot", "/a"), Verdict::Allowed),
            Judgement::Disagree {
                reference: Verdict::Disallowed,
                theirs: Verdict::Allowed
            }
        );
        assert_eq!(
            oracle.judge_one(body, &q("FooBot", "/a"), Verdict::Disallowed),
            Judgement::Agree
        );
        let open = b"\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a\n";
        assert!(matches!(
            oracle.judge_one(open, &q("FooBot", "/a"), Verdict::Allowed),
            Judgement::Open(_)
        ));
    }
}
