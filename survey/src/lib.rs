//! Surveys: every parser over a corpus of real robots.txt files that come with no expectations.
//!
//! Each file ([`corpus`]) gets probe queries derived from its own text ([`probes`]). The reference
//! answers them in-process under every profile; every adapter answers them as one batch per file,
//! all adapters side by side ([`robotstxt_runtime::side_by_side`]). An adapter's answer is compared with
//! the reference under the profile the adapter claims (`norobots-1994` when it claims neither), and
//! also under `norobots-1994` for every adapter. A disagreement whose reference verdict hinges on a
//! point the profile leaves open is set aside as an open point, not counted as a disagreement.
//! Disagreements are grouped by cause ([`cause`]). Results per adapter are small counters, so a
//! corpus of any size streams through.
//!
//! `--shard K/N` keeps the files whose content hash is `K-1` modulo `N`; [`merge`] adds shard
//! results up into what one run over the whole corpus gives (every count and signature exactly;
//! when an adapter has more than [`cause::REDUCTIONS`] signatures, which examples were reduced, and
//! so how signatures group into causes, follows each shard's most common signatures);
//! [`write`](mod@write) writes `survey.json` and `survey.md`.
//!
//! A census ([`census`]) surveys WARC files instead: the bodies of the hosts' last captures, each
//! distinct body once, weighted by the hosts that serve it ([`weights`]).

mod bodies;
pub mod cause;
pub mod census;
pub mod census_write;
pub mod corpus;
pub mod hosts;
pub mod limits;
mod markdown;
pub mod http;
pub mod merge;
pub mod probes;
pub mod warc;
mod warc_fields;
pub mod weights;
pub mod write;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::sync::OnceLock;
use std::thread;

use robotstxt_reference::open_points::open_points;
use robotstxt_reference::{Profile, Robots, Verdict};
use serde::{Deserialize, Serialize};

use robotstxt_runtime::side_by_side::Worker;
use robotstxt_suite::cause::{self as causes, BodyMarks};
use robotstxt_suite::engine::{
    ClaimedProfile, Engine, Fault, Handshake, Query, Reply, SharedRequest,
};
use robotstxt_suite::visible::Outside;

use self::cause::Example;
use self::corpus::{read_corpus, CorpusError, CorpusFile};
use self::probes::Probe;

/// The `format` field of `survey.json`.
pub const FORMAT: &str = "robotstxt-test survey 3";

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
    pub adapter: String,
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

/// One corpus file with its probes and the reference's answers, shared by every engine's thread.
struct Job {
    name: String,
    body: Vec<u8>,
    marks: BodyMarks,
    probes: Vec<Probe>,
    queries: Vec<Query>,
    /// The reference's verdicts, per profile in [`Profile::ALL`] order.
    reference: Vec<Vec<Verdict>>,
    /// Open points per profile and query, worked out once, by the first thread that needs them.
    open: Vec<Vec<OnceLock<Vec<&'static str>>>>,
    /// The protocol message asking this file's probes, encoded once for every adapter.
    request: SharedRequest,
    /// In a census: the hosts that serve this body.
    hosts: Option<u64>,
}

impl Job {
    fn new(file: CorpusFile, hosts: Option<u64>, max_queries: usize) -> Job {
        let probes = probes::probes(&file.body, max_queries);
        let queries: Vec<Query> = probes.iter().map(|p| p.query.clone()).collect();
        let reference = Profile::ALL
            .iter()
            .map(|&profile| {
                let robots = Robots::parse(profile, &file.body);
                queries
                    .iter()
                    .map(|q| verdict(robots.is_allowed(&q.agent, &q.path)))
                    .collect()
            })
            .collect();
        let open = Profile::ALL
            .iter()
            .map(|_| queries.iter().map(|_| OnceLock::new()).collect())
            .collect();
        Job {
            marks: BodyMarks::of(&file.body),
            name: file.name,
            body: file.body,
            probes,
            queries,
            reference,
            open,
            request: SharedRequest::new(),
            hosts,
        }
    }

    fn reference(&self, profile: Profile) -> &[Verdict] {
        &self.reference[profile_index(profile)]
    }

    fn open_points(&self, profile: Profile, query: usize) -> &[&'static str] {
        self.open[profile_index(profile)][query].get_or_init(|| {
            let q = &self.queries[query];
            open_points(profile, &self.body, &q.agent, &q.path)
                .into_iter()
                .map(|p| p.name())
                .collect()
        })
    }
}

fn profile_index(profile: Profile) -> usize {
    Profile::ALL
        .iter()
        .position(|&p| p == profile)
        .expect("every profile is in Profile::ALL")
}

fn verdict(allowed: bool) -> Verdict {
    if allowed {
        Verdict::Allowed
    } else {
        Verdict::Disallowed
    }
}

/// The profile an adapter's answers are compared under.
pub fn compared_under(handshake: &Handshake) -> Profile {
    handshake.claimed_profile().unwrap_or(Profile::Norobots1994)
}

/// One adapter's tally, built on its own thread.
struct Tally<'p> {
    engine: usize,
    compared: Profile,
    survey: AdapterSurvey,
    /// Signature → index in `found`, and the signatures with their counts, in first-seen order.
    index: BTreeMap<String, usize>,
    found: Vec<cause::SignatureCount>,
    /// Sets of first-seen indices → files.
    sets: BTreeMap<Vec<usize>, usize>,
    /// The body of each signature's example, while small enough to reduce.
    bodies: Vec<Option<Vec<u8>>>,
    done: usize,
    progress: &'p (dyn Fn(usize, usize) + Sync),
    /// In a census: the same tally per host.
    weights: Option<weights::Weights>,
}

impl Worker<Job> for Tally<'_> {
    fn item(&mut self, engine: &mut dyn Engine, job: &Job) {
        let reply = engine.check_shared(&job.name, &job.body, &job.queries, &job.request);
        let s = &mut self.survey;
        let answered = matches!(&reply, Ok(Reply::Verdicts(v)) if v.len() == job.queries.len());
        if let (false, Some(weights), Some(hosts)) = (answered, &mut self.weights, job.hosts) {
            weights.not_answered(hosts);
        }
        match reply {
            Ok(Reply::Verdicts(verdicts)) if verdicts.len() == job.queries.len() => {
                s.files += 1;
                s.checks += verdicts.len();
                self.compare(job, &verdicts);
            }
            Ok(Reply::Verdicts(_)) => s.protocol_errors += 1,
            Ok(Reply::Rejected(_) | Reply::Refused(_)) => s.errors += 1,
            Err(failure) => match failure.fault {
                Fault::Crash => s.crashes += 1,
                Fault::Timeout => s.timeouts += 1,
                Fault::ProtocolError => s.protocol_errors += 1,
                Fault::Unavailable => s.skipped += 1,
            },
        }
        self.done += 1;
        (self.progress)(self.engine, self.done);
    }

    fn finish(&mut self, engine: &mut dyn Engine) {
        self.reduce(engine);
        self.survey.unavailable = engine.unavailable().cloned();
    }
}

/// A body worth keeping for reduction: reducing a larger one against a process takes too long.
fn reducible(body: &[u8]) -> Option<Vec<u8>> {
    (body.len() <= cause::MAX_REDUCED_BODY).then(|| body.to_vec())
}

impl Tally<'_> {
    /// Reduces the examples of the most common signatures (see [`cause::REDUCTIONS`]).
    fn reduce(&mut self, engine: &mut dyn Engine) {
        if engine.unavailable().is_some() {
            return;
        }
        let mut order: Vec<usize> = (0..self.found.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&self.found[a], &self.found[b]);
            b.files.cmp(&a.files).then(a.signature.cmp(&b.signature))
        });
        for index in order.into_iter().take(cause::REDUCTIONS) {
            let Some(body) = self.bodies[index].take() else {
                continue;
            };
            let example = &mut self.found[index].example;
            example.reduced = cause::reduce(engine, self.compared, body, example);
        }
    }
    fn compare(&mut self, job: &Job, verdicts: &[Verdict]) {
        let s = &mut self.survey;
        let differing = |profile| {
            job.reference(profile)
                .iter()
                .zip(verdicts)
                .filter(|(r, a)| r != a)
                .count()
        };
        let under_1994 = differing(Profile::Norobots1994);
        if under_1994 > 0 {
            s.norobots_1994.files += 1;
            s.norobots_1994.checks += under_1994;
        }
        let expected = job.reference(self.compared);
        let mut parsed = None;
        let mut signatures = Vec::new();
        let mut open_checks = 0;
        let mut scored_checks = 0;
        for (query, (&reference, &actual)) in expected.iter().zip(verdicts).enumerate() {
            if reference == actual {
                continue;
            }
            let points = job.open_points(self.compared, query);
            if !points.is_empty() {
                open_checks += 1;
                for point in points {
                    *s.open_points_by_point
                        .entry((*point).to_owned())
                        .or_default() += 1;
                }
                continue;
            }
            let robots = parsed.get_or_insert_with(|| Robots::parse(self.compared, &job.body));
            let probe = &job.probes[query];
            let decision = robots.decide(&probe.query.agent, &probe.query.path);
            let others: Vec<Profile> = Profile::ALL
                .iter()
                .copied()
                .filter(|&p| p != self.compared && job.reference(p)[query] == actual)
                .collect();
            let cause = causes::of_decision(&job.marks, &probe.query.path, &decision);
            let signature = cause::signature(cause, &job.marks, probe, &decision, actual, &others);
            let example = || Example::of(&job.name, &job.body, probe, &decision, actual);
            let index = match self.index.get(&signature) {
                Some(&index) => index,
                None => {
                    self.index.insert(signature.clone(), self.found.len());
                    self.found.push(cause::SignatureCount {
                        cause,
                        signature,
                        files: 0,
                        checks: 0,
                        hosts: None,
                        example: Example {
                            hosts: job.hosts,
                            ..example()
                        },
                    });
                    self.bodies.push(reducible(&job.body));
                    self.found.len() - 1
                }
            };
            let entry = &mut self.found[index];
            entry.checks += 1;
            scored_checks += 1;
            if !signatures.contains(&index) {
                entry.files += 1;
                signatures.push(index);
                if job.name < entry.example.file {
                    entry.example = Example {
                        hosts: job.hosts,
                        ..example()
                    };
                    self.bodies[index] = reducible(&job.body);
                }
            }
        }
        if let (Some(weights), Some(hosts)) = (&mut self.weights, job.hosts) {
            signatures.sort_unstable();
            let first = signatures
                .iter()
                .map(|&i| self.found[i].signature.as_str())
                .min();
            let checks = (open_checks, scored_checks);
            weights.answered(&job.name, hosts, checks, &signatures, first);
        }
        if open_checks > 0 {
            s.open_points.files += 1;
            s.open_points.checks += open_checks;
        }
        s.disagreements.checks += scored_checks;
        if open_checks + scored_checks > 0 {
            s.differing.files += 1;
            s.differing.checks += open_checks + scored_checks;
        }
        if !signatures.is_empty() {
            s.disagreements.files += 1;
            signatures.sort_unstable();
            *self.sets.entry(signatures).or_default() += 1;
        }
    }

    /// The finished document: signatures in signature order, sets renumbered to match, causes.
    fn into_survey(self) -> AdapterSurvey {
        let mut survey = self.survey;
        let mut order: Vec<usize> = (0..self.found.len()).collect();
        order.sort_by(|&a, &b| self.found[a].signature.cmp(&self.found[b].signature));
        let mut renumber = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old] = new;
        }
        let mut found = self.found;
        let renumbered = |set: Vec<usize>| {
            let mut set: Vec<usize> = set.into_iter().map(|i| renumber[i]).collect();
            set.sort_unstable();
            cause::set_key(&set)
        };
        if let Some(weights) = self.weights {
            for (i, signature) in found.iter_mut().enumerate() {
                signature.hosts = Some(weights.signatures.get(i).copied().unwrap_or(0));
            }
            for (set, hosts) in weights.sets {
                *survey.host_sets.entry(renumbered(set)).or_default() += hosts;
            }
            survey.hosts = Some(weights.rates);
            survey.served = weights.served;
            weights::keep_most_served(&mut survey.served);
        }
        survey.signatures = order.iter().map(|&i| found[i].clone()).collect();
        for (set, files) in self.sets {
            *survey.file_sets.entry(renumbered(set)).or_default() += files;
        }
        survey.causes = cause::causes(&survey.signatures, &survey.file_sets, &survey.host_sets);
        survey
    }
}

/// Surveys the corpus at `corpus` (a folder, `.tar` or `.tar.xz`) against `engines`.
/// `progress` is called with (engine index, files that engine has answered).
pub fn survey(
    corpus: &Path,
    engines: &mut [Box<dyn Engine>],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Survey, CorpusError> {
    corpus::Layout::of(corpus)?;
    let shard = options.shard;
    let (sender, files) = sync_channel::<CorpusFile>(64);
    let path = corpus.to_owned();
    let reader = thread::spawn(move || {
        read_corpus(&path, &mut |file| {
            if shard.is_some_and(|s| !s.holds(&file.body)) {
                return true;
            }
            // A closed channel means the survey stopped taking files.
            sender.send(file).is_ok()
        })
    });
    let bodies = files.into_iter().map(|file| (file, None));
    let mut survey = bodies::survey_bodies(bodies, engines, options, false, progress);
    // A panic while reading is a bug: it goes on as one, with its own message.
    let reading = reader
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    survey.corpus = corpus.file_name().map_or_else(
        || corpus.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    survey.oversized = reading.oversized;
    Ok(survey)
}
