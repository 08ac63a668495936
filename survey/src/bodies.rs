//! The engine-facing core of every survey: bodies in, each adapter's tally out. A survey of a
//! corpus feeds it files; a census of WARC files feeds it distinct bodies with the hosts that
//! serve them.

use std::collections::BTreeMap;

use super::{
    compared_under, probes, weights, AdapterSurvey, CorpusFile, Disagreements, Job, Options,
    ProbeSettings, ProfileDifferences, Shards, Survey, Tally, FORMAT,
};
use robotstxt_runtime::side_by_side::side_by_side;
use robotstxt_suite::engine::Engine;

/// Surveys `bodies` against `engines`: everything a survey does but finding its bodies. In a
/// census (`weighted`) each body comes with the number of hosts that serve it. The result names
/// no corpus and no census; the caller fills them in.
pub(crate) fn survey_bodies(
    bodies: impl Iterator<Item = (CorpusFile, Option<u64>)>,
    engines: &mut [Box<dyn Engine>],
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
        profiles,
        adapters: tallies.into_iter().map(Tally::into_survey).collect(),
        census: None,
    }
}
