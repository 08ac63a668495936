//! Counting hosts and bodies, not fetches. One crawl fetches a host's robots.txt many times, and
//! many hosts serve the same body; a census counts each host once, by its last capture, and
//! surveys each distinct body once, weighted by the hosts whose last capture served it.
//!
//! The work is split so that an engine can do the one step that sees every file at once, the
//! shuffle by host: [`Capture`] is one line per response of one file (`survey captures`); the
//! last capture of every host, and for every distinct body its host count and the capture that
//! stands for it, make one [`Plan`] per file; a survey of a file with its plan counts its part.
//! [`Hosts`] does the shuffle in this process for `survey --warc`, with the same rules the Spark
//! job (`survey/spark/census.py`) applies: a host's last capture is the one with the greatest
//! (time, file name, offset, index), and the capture standing for a body the least (file name,
//! offset, index) among the last captures serving it.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use robotstxt_suite::input::lines::JsonLines;
use robotstxt_suite::located::LocatedError;
use serde::{Deserialize, Serialize};

use crate::limits::{CENSUS_PLAN, MAX_PLAN_LINE};
pub use crate::plan_entries::{PlanEntries, PlanEntry};

use super::warc::{Place, Response};
use super::Shard;

/// The first field of a plan's first line.
pub const PLAN_FORMAT: &str = "robotstxt-test census plan 1";

/// One response capture, as `survey captures` writes it, one JSON object per line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    /// `scheme://host[:port]`.
    pub host: String,
    /// `WARC-Date`, normalised so that text order is time order.
    pub time: String,
    /// The WARC file's name (without its folder).
    pub warc: String,
    #[serde(flatten)]
    pub place: Place,
    pub status: u16,
    /// `sha256:` and the hex digest of the decoded body, for a 2xx response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl Capture {
    pub fn of(warc: &str, response: &Response) -> Capture {
        Capture {
            host: response.host.clone(),
            time: response.time.clone(),
            warc: warc.to_owned(),
            place: response.place,
            status: response.status,
            digest: response.body.as_ref().map(|b| digest_text(&b.sha256)),
        }
    }
}

/// `sha256:<hex>`.
pub fn digest_text(sha256: &[u8; 32]) -> String {
    let hex: String = sha256.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The plan's first line: which file, which part of how many, and the census's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanHeader {
    pub plan: String,
    /// The census's name, the same in every part.
    pub name: String,
    pub warc: String,
    /// 1-based, of `parts`: one part per WARC file.
    pub part: usize,
    pub parts: usize,
    /// Set when the file could not be read: the part then only names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
}

/// What a survey of one WARC file counts: its captures that are their host's last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub header: PlanHeader,
    pub entries: PlanEntries,
}

/// Why a plan could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}:{line}: {why}")]
    Bad {
        path: String,
        line: usize,
        why: String,
    },
}

/// Reads a plan: a [`PlanHeader`] line, then [`PlanEntry`] lines. The plan is read a line at a
/// time through the one reader (a regular file, capped, each line capped and screened), and
/// only its entries are kept, packed ([`PlanEntries`]): what a plan takes is about 24 bytes per
/// capture, not the file's text and a map of it.
pub fn read_plan(path: &Path) -> Result<Plan, PlanError> {
    let shown = robotstxt_suite::visible::path_shown(path).into_raw();
    let bad = |line, why: String| PlanError::Bad {
        path: shown.clone(),
        line,
        why,
    };
    let located = |e: LocatedError| {
        let why = match e.column {
            Some(column) => format!("column {column}: {}", e.message),
            None => e.message,
        };
        bad(e.line.unwrap_or(1), why)
    };
    let mut lines = JsonLines::open(path, CENSUS_PLAN, MAX_PLAN_LINE).map_err(located)?;
    let header: PlanHeader = match lines.next(false) {
        Some(read) => read.map_err(located)?.1,
        None => return Err(bad(1, "an empty file: no plan header".to_owned())),
    };
    if header.plan != PLAN_FORMAT {
        return Err(bad(1, format!("not a plan of the format {PLAN_FORMAT:?}")));
    }
    if header.part == 0 || header.part > header.parts {
        return Err(bad(1, format!("part {} of {}", header.part, header.parts)));
    }
    let mut entries = PlanEntries::default();
    while let Some(read) = lines.next::<PlanEntry>(true) {
        let (number, entry) = read.map_err(located)?;
        if entry.hosts == Some(0) {
            return Err(bad(
                number,
                "`hosts` is 0: a body stands for one host or more".to_owned(),
            ));
        }
        entries.push(&entry);
    }
    let entries = entries.sorted().map_err(|twice| {
        let line = planned_twice_at(path, twice.0).unwrap_or(1);
        let place = twice.0;
        bad(
            line,
            format!(
                "a capture planned twice (offset {}, record {} of its member)",
                place.offset,
                place.index + 1
            ),
        )
    })?;
    Ok(Plan { header, entries })
}

/// The line of the second entry at `place` in the plan at `path`, read again for the error (the
/// entries kept do not carry their lines).
fn planned_twice_at(path: &Path, place: Place) -> Option<usize> {
    let mut lines = JsonLines::open(path, CENSUS_PLAN, MAX_PLAN_LINE).ok()?;
    lines.next::<serde::de::IgnoredAny>(false)?.ok()?;
    let mut seen = false;
    while let Some(Ok((number, entry))) = lines.next::<PlanEntry>(true) {
        if entry.place == place {
            if seen {
                return Some(number);
            }
            seen = true;
        }
    }
    None
}

/// The last capture of one host, as kept in memory: about 100 bytes with its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Last {
    /// The normalised time's digits, as a number: its order is the text's order.
    time: u128,
    /// Index into the file names, which are given in name order.
    warc: u32,
    place: Place,
    status: u16,
    sha256: Option<[u8; 32]>,
}

impl Last {
    fn key(&self) -> (u128, u32, Place) {
        (self.time, self.warc, self.place)
    }
}

/// The digits of a normalised `WARC-Date` as one number.
fn time_number(time: &str) -> u128 {
    time.bytes()
        .filter(u8::is_ascii_digit)
        .fold(0u128, |n, d| n * 10 + u128::from(d - b'0'))
}

/// The shuffle by host, in this process: every capture of every file in, one plan per file out.
#[derive(Debug, Default)]
pub struct Hosts {
    /// The WARC files' names, in name order.
    names: Vec<String>,
    last: HashMap<String, Last>,
}

impl Hosts {
    /// `names` are the WARC files' names; they must be distinct.
    pub fn new(names: &[String]) -> Hosts {
        let mut names = names.to_vec();
        names.sort();
        Hosts {
            names,
            last: HashMap::new(),
        }
    }

    /// One response of the file `warc` (one of the names given).
    pub fn add(&mut self, warc: &str, response: &Response) {
        let warc = self
            .names
            .binary_search_by(|n| n.as_str().cmp(warc))
            .expect("a file named when the census began");
        let capture = Last {
            time: time_number(&response.time),
            warc: u32::try_from(warc).expect("fewer than 4 billion files"),
            place: response.place,
            status: response.status,
            sha256: response.body.as_ref().map(|b| b.sha256),
        };
        match self.last.get_mut(&response.host) {
            Some(last) if last.key() >= capture.key() => {}
            Some(last) => *last = capture,
            None => {
                self.last.insert(response.host.clone(), capture);
            }
        }
    }

    /// Hosts seen.
    pub fn len(&self) -> usize {
        self.last.len()
    }

    pub fn is_empty(&self) -> bool {
        self.last.is_empty()
    }

    /// One plan per file (by name), of `name`'s census; with a shard, only the captures that
    /// shard counts: a 2xx capture by its body's digest, any other by its host.
    pub fn plans(self, name: &str, shard: Option<Shard>) -> HashMap<String, Plan> {
        let parts = self.names.len();
        let mut plans: HashMap<String, Plan> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, warc)| {
                let header = PlanHeader {
                    plan: PLAN_FORMAT.to_owned(),
                    name: name.to_owned(),
                    warc: warc.clone(),
                    part: i + 1,
                    parts,
                    unreadable: None,
                };
                let plan = Plan {
                    header,
                    entries: PlanEntries::default(),
                };
                (warc.clone(), plan)
            })
            .collect();
        // Per distinct body: its hosts, and the least (file, place) among its captures. Every
        // plan's entries are in before any is sorted, then the hosts are set on the sorted ones.
        let mut bodies: HashMap<[u8; 32], (u64, (u32, Place))> = HashMap::new();
        for (host, last) in &self.last {
            let held = match &last.sha256 {
                Some(sha256) => shard.is_none_or(|s| s.holds(sha256)),
                None => shard.is_none_or(|s| s.holds(host.as_bytes())),
            };
            if !held {
                continue;
            }
            if let Some(sha256) = last.sha256 {
                let at = (last.warc, last.place);
                let body = bodies.entry(sha256).or_insert((0, at));
                body.0 += 1;
                body.1 = body.1.min(at);
            }
            let entry = PlanEntry {
                place: last.place,
                status: last.status,
                hosts: None,
            };
            let warc = &self.names[last.warc as usize];
            let plan = plans.get_mut(warc).expect("a plan per file");
            plan.entries.push(&entry);
        }
        for plan in plans.values_mut() {
            let entries = std::mem::take(&mut plan.entries);
            plan.entries = entries
                .sorted()
                .expect("a host's last capture is one place");
        }
        for (hosts, (warc, place)) in bodies.into_values() {
            let plan = plans
                .get_mut(&self.names[warc as usize])
                .expect("a plan per file");
            plan.entries.set_hosts(&place, hosts);
        }
        plans
    }
}
