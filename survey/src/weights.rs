//! Counts weighted by hosts: in a census of WARC files each distinct body is surveyed once and
//! stands for every host that serves it, so beside the per-body counts every adapter gets the
//! same counts per host, and a disagreement on a body that 40,000 hosts serve says so.
//!
//! Everything here adds exactly across shards: per-host counts and per-set host counts are sums,
//! and the bodies served by the most hosts are kept in an order that does not depend on the
//! order they were met in ([`Served::order`]).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Bodies served by the most hosts kept per adapter, among those it disagrees on.
pub const SERVED: usize = 10;

/// An adapter's outcomes counted per host: each body counted as many times as hosts serve it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostRates {
    /// Hosts whose body the adapter answered with verdicts.
    pub answered: u64,
    /// Hosts whose body holds a scored disagreement.
    pub disagreements: u64,
    /// Hosts whose body holds an open-point disagreement.
    pub open_points: u64,
    /// Hosts whose body holds a difference of either kind.
    pub differing: u64,
    /// Hosts whose body the parser refused, or that was lost to a fault or never asked.
    pub not_answered: u64,
}

impl HostRates {
    /// Adds `other` in, or says which count would overflow.
    pub fn add(&mut self, other: &HostRates) -> Result<(), Overflow> {
        for (a, b) in [
            (&mut self.answered, other.answered),
            (&mut self.disagreements, other.disagreements),
            (&mut self.open_points, other.open_points),
            (&mut self.differing, other.differing),
            (&mut self.not_answered, other.not_answered),
        ] {
            *a = a.checked_add(b).ok_or(Overflow)?;
        }
        Ok(())
    }
}

/// A count that does not fit in 64 bits: only a forged or corrupted `survey.json` gets there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a count does not fit in 64 bits")]
pub struct Overflow;

/// `a + b`, checked.
pub fn sum(a: u64, b: u64) -> Result<u64, Overflow> {
    a.checked_add(b).ok_or(Overflow)
}

/// A body an adapter disagrees on (scored), with the hosts that serve it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Served {
    /// The body's name: the robots.txt URL of the first host (in URL order) whose last capture
    /// served it.
    pub body: String,
    pub hosts: u64,
    /// Its scored disagreeing checks.
    pub checks: usize,
    /// The first of its signatures, in signature order.
    pub signature: String,
}

impl Served {
    /// Most hosts first, then by name: an order independent of the order bodies are met in.
    pub fn order(a: &Served, b: &Served) -> Ordering {
        b.hosts.cmp(&a.hosts).then_with(|| a.body.cmp(&b.body))
    }
}

/// Keeps `list` to the [`SERVED`] first in [`Served::order`].
pub fn keep_most_served(list: &mut Vec<Served>) {
    list.sort_by(Served::order);
    list.truncate(SERVED);
}

/// One adapter's weighted tally while a survey runs: signature indices are those of the
/// survey's own first-seen order, renumbered at the end like its file sets.
#[derive(Debug, Default)]
pub struct Weights {
    pub rates: HostRates,
    /// Hosts per set of first-seen signature indices.
    pub sets: BTreeMap<Vec<usize>, u64>,
    /// Hosts per first-seen signature index.
    pub signatures: Vec<u64>,
    pub served: Vec<Served>,
}

impl Weights {
    /// A body of `hosts` hosts that the adapter did not answer with verdicts.
    pub fn not_answered(&mut self, hosts: u64) {
        self.rates.not_answered = self.rates.not_answered.saturating_add(hosts);
    }

    /// A body of `hosts` hosts answered: `open` and `scored` are its disagreeing checks,
    /// `signatures` the first-seen indices of its scored ones (sorted), `first` the first of
    /// their texts in signature order.
    pub fn answered(
        &mut self,
        body: &str,
        hosts: u64,
        (open, scored): (usize, usize),
        signatures: &[usize],
        first: Option<&str>,
    ) {
        // Saturating: a tally adds at most one weight per body read, which no input makes
        // overflow; `survey merge`, which adds numbers read from files, checks every sum.
        let add = |count: &mut u64| *count = count.saturating_add(hosts);
        add(&mut self.rates.answered);
        if open > 0 {
            add(&mut self.rates.open_points);
        }
        if open + scored > 0 {
            add(&mut self.rates.differing);
        }
        if signatures.is_empty() {
            return;
        }
        add(&mut self.rates.disagreements);
        add(self.sets.entry(signatures.to_vec()).or_default());
        for &index in signatures {
            if self.signatures.len() <= index {
                self.signatures.resize(index + 1, 0);
            }
            add(&mut self.signatures[index]);
        }
        self.served.push(Served {
            body: body.to_owned(),
            hosts,
            checks: scored,
            signature: first.unwrap_or_default().to_owned(),
        });
        if self.served.len() > 4 * SERVED {
            keep_most_served(&mut self.served);
        }
    }
}
