//! What a census records beside the survey of its bodies: the records read and skipped, the
//! status of every fetch, and how they add up across parts and shards.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::warc::{Item, Place, Skipped};
use crate::weights::{sum, Overflow};

/// Skipped records named per kind; the rest are counted.
pub const MAX_FAULT_EXAMPLES: usize = 10;

/// What a census read, beside the survey of its bodies.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Census {
    /// WARC files read.
    pub warc_files: u64,
    /// Files that could not be read, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<Unreadable>,
    /// Records read, by `WARC-Type`; a skipped record is not here but under `faults`.
    pub records: BTreeMap<String, u64>,
    /// Records skipped, by the kind of fault.
    pub faults: BTreeMap<String, u64>,
    /// The first skipped records of each kind, by file name and place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fault_examples: Vec<FaultExample>,
    /// Every response read (every fetch), by what RFC 9309 makes of its status.
    pub fetches: StatusCounts,
    /// Every host (`scheme://host[:port]`) once, by its last capture.
    pub hosts: StatusCounts,
    /// Distinct bodies longer than RFC 9309's 500 KiB parse limit, surveyed cut there.
    pub cut: u64,
}

/// A WARC file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unreadable {
    pub warc: String,
    pub error: String,
}

/// A skipped record, named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultExample {
    pub warc: String,
    #[serde(flatten)]
    pub fault: Skipped,
}

impl FaultExample {
    fn key(&self) -> (&str, &str, Place) {
        (self.fault.kind.name(), &self.warc, self.fault.place)
    }
}

/// Responses by RFC 9309 §2.3.1: what a crawler does with each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCounts {
    /// 2xx: the body is parsed.
    pub success: u64,
    /// 3xx: a redirect to follow.
    pub redirect: u64,
    /// 4xx: "unavailable", the crawler may access any resource.
    pub unavailable: u64,
    /// 5xx: "unreachable", the crawler must assume complete disallow.
    pub unreachable: u64,
    /// Any other status (1xx, or beyond 599).
    pub other: u64,
}

impl StatusCounts {
    pub fn count(&mut self, status: u16) {
        let slot = match status {
            200..=299 => &mut self.success,
            300..=399 => &mut self.redirect,
            400..=499 => &mut self.unavailable,
            500..=599 => &mut self.unreachable,
            _ => &mut self.other,
        };
        *slot = slot.saturating_add(1);
    }

    pub fn total(&self) -> u64 {
        [
            self.success,
            self.redirect,
            self.unavailable,
            self.unreachable,
            self.other,
        ]
        .iter()
        .fold(0u64, |a, &b| a.saturating_add(b))
    }

    fn add(&mut self, other: &StatusCounts) -> Result<(), Overflow> {
        self.success = sum(self.success, other.success)?;
        self.redirect = sum(self.redirect, other.redirect)?;
        self.unavailable = sum(self.unavailable, other.unavailable)?;
        self.unreachable = sum(self.unreachable, other.unreachable)?;
        self.other = sum(self.other, other.other)?;
        Ok(())
    }
}

impl Census {
    /// Counts one record of the file `warc`.
    pub(crate) fn count(&mut self, warc: &str, item: &Item) {
        let bump = |map: &mut BTreeMap<String, u64>, key: &str| {
            let n = map.entry(key.to_owned()).or_default();
            *n = n.saturating_add(1);
        };
        match item {
            Item::Response(r) => {
                bump(&mut self.records, "response");
                self.fetches.count(r.status);
            }
            Item::Other { kind, .. } => bump(&mut self.records, kind),
            Item::Skipped(fault) => {
                bump(&mut self.faults, fault.kind.name());
                self.fault_examples.push(FaultExample {
                    warc: warc.to_owned(),
                    fault: fault.clone(),
                });
                if self.fault_examples.len() > 4 * MAX_FAULT_EXAMPLES {
                    self.keep_examples();
                }
            }
        }
    }

    /// The first [`MAX_FAULT_EXAMPLES`] of each kind: the same whatever order parts came in.
    pub(crate) fn keep_examples(&mut self) {
        self.fault_examples.sort_by(|a, b| a.key().cmp(&b.key()));
        let mut kept: BTreeMap<&'static str, usize> = BTreeMap::new();
        self.fault_examples.retain(|e| {
            let n = kept.entry(e.fault.kind.name()).or_default();
            *n += 1;
            *n <= MAX_FAULT_EXAMPLES
        });
    }

    /// Adds a part's census in, every count checked.
    pub fn add(&mut self, other: Census) -> Result<(), Overflow> {
        self.warc_files = sum(self.warc_files, other.warc_files)?;
        self.unreadable.extend(other.unreadable);
        self.unreadable.sort_by(|a, b| a.warc.cmp(&b.warc));
        for (mine, theirs) in [
            (&mut self.records, other.records),
            (&mut self.faults, other.faults),
        ] {
            for (key, n) in theirs {
                let slot = mine.entry(key).or_default();
                *slot = sum(*slot, n)?;
            }
        }
        self.fault_examples.extend(other.fault_examples);
        self.keep_examples();
        self.fetches.add(&other.fetches)?;
        self.hosts.add(&other.hosts)?;
        self.cut = sum(self.cut, other.cut)?;
        Ok(())
    }
}
