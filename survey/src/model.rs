//! What a survey records: the types `survey.json` holds, and how a run is split into shards.

use std::collections::BTreeMap;

use robotstxt_reference::Profile;
use robotstxt_suite::engine::{ClaimedProfile, Handshake};
use robotstxt_suite::visible::Outside;
use serde::{Deserialize, Serialize};

use crate::cause;
use crate::census_record as census;
use crate::{corpus, probes, weights};

/// The `format` field of `survey.json`.
pub const FORMAT: &str = "robotstxt-test survey 4";

/// Which part of a corpus to survey: `K/N`, the files whose content hash is `K-1` modulo `N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

/// A `--shard` value that is not `K/N` with `1 <= K <= N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--shard {0:?}: expected K/N with 1 <= K <= N, for example 2/8")]
pub struct BadShard(pub String);

impl Shard {
    /// Parses `K/N` with `1 <= K <= N`.
    pub fn parse(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(text.to_owned());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard holds the file with this body.
    pub fn holds(self, body: &[u8]) -> bool {
        fnv1a(body) % self.count as u64 == (self.index - 1) as u64
    }
}

/// FNV-1a, 64 bits: a stable hash, the same on every machine and toolchain.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// How a survey runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub shard: Option<Shard>,
    /// Probe queries per file.
    pub max_queries: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            shard: None,
            max_queries: probes::MAX_QUERIES,
        }
    }
}

/// A survey's results: the document `survey.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Survey {
    pub format: String,
    /// The corpus's file or folder name.
    pub corpus: String,
    /// The shards this holds; `null` for the whole corpus.
    pub shards: Option<Shards>,
    pub probes: ProbeSettings,
    /// Files surveyed, their bytes, and probe queries asked of each engine.
    pub files: usize,
    pub bytes: u64,
    pub queries: usize,
    /// Files left out for being larger than the survey's size cap.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub oversized: Vec<corpus::Oversized>,
    /// Files left out for their size past the first
    /// [`crate::limits::MAX_OVERSIZED_NAMED`], counted, not named.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub oversized_unnamed: u64,
    /// The reference's profiles compared with each other on the same probes.
    pub profiles: ProfileDifferences,
    pub adapters: Vec<AdapterSurvey>,
    /// For a survey of WARC files: the records read, those skipped, and the hosts by status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub census: Option<census::Census>,
}

/// Shards `included` of `count`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shards {
    pub count: usize,
    /// 1-based, ascending.
    pub included: Vec<usize>,
}

/// How probes were derived.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeSettings {
    pub max_queries_per_file: usize,
    pub max_agents_per_file: usize,
    pub max_rules_per_file: usize,
    pub generic_agent: String,
}

/// Where `rfc9309` and `norobots-1994` answer the same probe differently.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileDifferences {
    pub files: usize,
    pub checks: usize,
}

/// Files and checks on which an adapter and the reference disagree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disagreements {
    pub files: usize,
    pub checks: usize,
}

/// One adapter over the corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdapterSurvey {
    /// Its handshake's name.
    pub adapter: Outside,
    pub handshake: Handshake,
    /// The profile its answers are compared under: the one it claims, else `norobots-1994`.
    pub compared_under: String,
    /// Files it answered with verdicts, and the checks in them.
    pub files: usize,
    pub checks: usize,
    /// Scored disagreements: against the reference under `compared_under`, open points set
    /// aside.
    pub disagreements: Disagreements,
    /// Open-point disagreements: checks (and files holding them) where it differs from the
    /// reference only on a point the profile leaves open.
    pub open_points: Disagreements,
    /// Every difference from the reference under `compared_under`, scored or open: `checks` is
    /// the sum of the two above, `files` the files holding either kind. Kept because a file may
    /// hold both, so the union is not the sum, and without it the scored share reads as the
    /// share of files that differ at all.
    pub differing: Disagreements,
    /// Open-point checks by the point they hinge on (a check may hinge on several).
    pub open_points_by_point: BTreeMap<String, usize>,
    /// Against the reference under `norobots-1994`, every difference counted.
    pub norobots_1994: Disagreements,
    /// Files the parser refused (an `error` answer), and files lost to faults.
    pub errors: usize,
    pub crashes: usize,
    pub timeouts: usize,
    pub protocol_errors: usize,
    /// Files not asked because the adapter was unavailable or broken.
    pub skipped: usize,
    /// Why it was unavailable or given up on, if it was.
    pub unavailable: Option<Outside>,
    /// Disagreements grouped by cause, most files first (derived from `signatures` and
    /// `file_sets`).
    pub causes: Vec<cause::CauseCount>,
    /// Every disagreement signature seen, in signature order.
    pub signatures: Vec<cause::SignatureCount>,
    /// How many files disagree with exactly this set of signatures (indices into `signatures`,
    /// comma-separated): what makes per-cause file counts exact after any grouping and merge.
    pub file_sets: BTreeMap<String, usize>,
    /// In a census: the counts above per host, each body counted for every host serving it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<weights::HostRates>,
    /// In a census: how many hosts serve a body with exactly this set of signatures.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub host_sets: BTreeMap<String, u64>,
    /// In a census: the disagreeing bodies served by the most hosts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub served: Vec<weights::Served>,
}
/// The profile an adapter's answers are compared under.
pub fn compared_under(handshake: &Handshake) -> Profile {
    handshake.claimed_profile().unwrap_or(Profile::Norobots1994)
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
