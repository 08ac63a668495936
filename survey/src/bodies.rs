//! The engine-facing core of every survey: bodies in, each adapter's tally out. A survey of a
//! corpus feeds it files; a census of WARC files feeds it distinct bodies with the hosts that
//! serve them.

use std::collections::BTreeMap;

use std::sync::OnceLock;

use robotstxt_reference::open_points::open_points;
use robotstxt_reference::{Profile, Robots, Verdict};
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::side_by_side::{side_by_side, Worker};
use robotstxt_suite::cause::{self as causes, BodyMarks};
use robotstxt_suite::engine::{Fault, Query, Reply, SharedRequest};

use crate::cause::{self, Example};
use crate::corpus::CorpusFile;
use crate::model::{
    compared_under, AdapterSurvey, Disagreements, Options, ProbeSettings, ProfileDifferences,
    Shards, Survey, FORMAT,
};
use crate::probes::{self, Probe};
use crate::weights;

/// Surveys `bodies` against `engines`: everything a survey does but finding its bodies. In a
/// census (`weighted`) each body comes with the number of hosts that serve it. The result names
/// no corpus and no census; the caller fills them in.
pub(crate) fn survey_bodies(
    bodies: impl Iterator<Item = (CorpusFile, Option<u64>)>,
    engines: &mut [Box<dyn Lifecycle>],
    options: &Options,
    weighted: bool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Survey {
    let max_queries = options.max_queries.max(1);
    let workers: Vec<Tally> = engines
        .iter()
        .enumerate()
        .map(|(engine, e)| {
            let handshake = e.handshake().clone();
            let compared = compared_under(&handshake);
            Tally {
                engine,
                compared,
                survey: AdapterSurvey {
                    adapter: handshake.name.clone(),
                    handshake,
                    compared_under: compared.name().to_owned(),
                    files: 0,
                    checks: 0,
                    disagreements: Disagreements::default(),
                    open_points: Disagreements::default(),
                    differing: Disagreements::default(),
                    open_points_by_point: BTreeMap::new(),
                    norobots_1994: Disagreements::default(),
                    errors: 0,
                    crashes: 0,
                    timeouts: 0,
                    protocol_errors: 0,
                    skipped: 0,
                    unavailable: None,
                    causes: Vec::new(),
                    signatures: Vec::new(),
                    file_sets: BTreeMap::new(),
                    hosts: None,
                    host_sets: BTreeMap::new(),
                    served: Vec::new(),
                },
                index: BTreeMap::new(),
                found: Vec::new(),
                sets: BTreeMap::new(),
                bodies: Vec::new(),
                done: 0,
                progress,
                weights: weighted.then(weights::Weights::default),
            }
        })
        .collect();
    let mut totals = (0usize, 0u64, 0usize);
    let mut profiles = ProfileDifferences::default();
    let jobs = bodies.map(|(file, hosts)| {
        let job = Job::new(file, hosts, max_queries);
        totals.0 += 1;
        totals.1 += job.body.len() as u64;
        totals.2 += job.queries.len();
        let differing = (0..job.queries.len())
            .filter(|&q| job.reference.iter().any(|r| r[q] != job.reference[0][q]))
            .count();
        if differing > 0 {
            profiles.files += 1;
            profiles.checks += differing;
        }
        job
    });
    let tallies = side_by_side(jobs, engines, workers);
    let (files, bytes, queries) = totals;
    Survey {
        format: FORMAT.to_owned(),
        corpus: String::new(),
        shards: options.shard.map(|s| Shards {
            count: s.count,
            included: vec![s.index],
        }),
        probes: ProbeSettings {
            max_queries_per_file: max_queries,
            max_agents_per_file: probes::MAX_AGENTS,
            max_rules_per_file: probes::MAX_RULES,
            generic_agent: probes::GENERIC_AGENT.to_owned(),
        },
        files,
        bytes,
        queries,
        oversized: Vec::new(),
        oversized_unnamed: 0,
        profiles,
        adapters: tallies.into_iter().map(Tally::into_survey).collect(),
        census: None,
    }
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
    fn item(&mut self, engine: &mut dyn Lifecycle, job: &Job) {
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
                let unkept = self.compare(job, &verdicts);
                self.ask_now(engine, job, &unkept);
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

    fn finish(&mut self, engine: &mut dyn Lifecycle) {
        self.reduce(engine);
        self.survey.unavailable = engine.unavailable().cloned();
    }
}

/// A body worth keeping until the end, to reduce its example: reducing a larger one against a
/// process takes too long. Larger examples get their excerpt as soon as they are chosen.
fn reducible(body: &[u8]) -> Option<Vec<u8>> {
    (body.len() <= cause::MAX_REDUCED_BODY).then(|| body.to_vec())
}

impl Tally<'_> {
    /// Completes every signature's example against the adapter, signature by signature in
    /// signature order: its excerpt (the adapter's deciding lines) and its reduced case. Every
    /// example is done, whatever how often its signature occurred, so that a survey in shards
    /// completes the same examples as one in one process.
    fn reduce(&mut self, engine: &mut dyn Lifecycle) {
        if engine.unavailable().is_some() {
            return;
        }
        let mut order: Vec<usize> = (0..self.found.len()).collect();
        order.sort_by(|&a, &b| self.found[a].signature.cmp(&self.found[b].signature));
        for index in order {
            let Some(body) = self.bodies[index].take() else {
                continue;
            };
            let found = &mut self.found[index];
            found
                .example
                .ask_adapter(engine, self.compared, found.cause, &body);
            found.example.reduced = cause::reduce(engine, self.compared, body, &found.example);
        }
    }

    /// Gives the examples in `chosen`, whose bodies are too large to keep, their excerpts now.
    fn ask_now(&mut self, engine: &mut dyn Lifecycle, job: &Job, chosen: &[usize]) {
        for &index in chosen {
            let found = &mut self.found[index];
            found
                .example
                .ask_adapter(engine, self.compared, found.cause, &job.body);
        }
    }

    /// Compares an adapter's `verdicts` with the reference's on `job`; returns the signatures
    /// whose example is now this file's and whose body is not kept (see [`reducible`]).
    fn compare(&mut self, job: &Job, verdicts: &[Verdict]) -> Vec<usize> {
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
        let mut unkept = Vec::new();
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
                    if self.bodies[self.found.len() - 1].is_none() {
                        unkept.push(self.found.len() - 1);
                    }
                    self.found.len() - 1
                }
            };
            let entry = &mut self.found[index];
            entry.checks += 1;
            scored_checks += 1;
            if !signatures.contains(&index) {
                entry.files += 1;
                signatures.push(index);
                let size = job.body.len() as u64;
                if (size, &job.name) < (entry.example.bytes, &entry.example.file) {
                    entry.example = Example {
                        hosts: job.hosts,
                        ..example()
                    };
                    self.bodies[index] = reducible(&job.body);
                    if self.bodies[index].is_none() {
                        unkept.push(index);
                    }
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
        unkept
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
