//! What a fuzzing run found, by bug rather than by input: each scored disagreement goes into the
//! group `run` would put it in (its [`Cause`], read from the document and the parser's answer by
//! [`robotstxt_suite::cause::of_answer`]), and each fault is kept with the document it came on.

use std::collections::BTreeMap;

use robotstxt_suite::cause::Cause;
use robotstxt_suite::engine::Fault;
use robotstxt_suite::visible::Outside;

/// What became of a group in this run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// The adapter's expectations file lists checks of this group: a known bug, not saved.
    Listed,
    /// A finding of this group (or of the very shape its first document reduced to) was saved
    /// by an earlier run, in the output folder.
    Earlier,
    /// Saved by this run, as the case of this name (the first document that showed it, reduced).
    Saved(String),
}

/// One group: how many documents showed it, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub documents: u64,
    pub fate: Fate,
}

/// The groups of a run, by cause.
pub type Groups = BTreeMap<Cause, Tally>;

/// The groups largest first (ties by label), as the summary lists them.
pub fn by_size(groups: &Groups) -> Vec<(Cause, &Tally)> {
    let mut list: Vec<(Cause, &Tally)> = groups.iter().map(|(c, t)| (*c, t)).collect();
    list.sort_by(|a, b| (b.1.documents, a.0.label()).cmp(&(a.1.documents, b.0.label())));
    list
}

/// A document the adapter gave no answer for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultSeen {
    /// The document's number in the run, from 0: `--seed` and this number give it again.
    pub document: u64,
    pub kind: Fault,
    /// What the engine said of it: for an adapter process, the end of its stderr.
    pub detail: Outside,
}

/// How many faults are kept with their document; the count goes on past it.
pub const FAULTS_KEPT: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_group_comes_first() {
        let mut groups = Groups::new();
        let tally = |documents| Tally {
            documents,
            fate: Fate::Listed,
        };
        groups.insert(Cause::LoneCr, tally(2));
        groups.insert(Cause::SpaceBeforeColon, tally(9));
        groups.insert(Cause::Nul, tally(2));
        let order: Vec<Cause> = by_size(&groups).into_iter().map(|(c, _)| c).collect();
        assert_eq!(order, [Cause::SpaceBeforeColon, Cause::LoneCr, Cause::Nul]);
    }
}
