//! The `differential_rust` target: the generator's documents against the reference and the Rust
//! parser crates, judged by the harness's oracle.
//!
//! A disagreement is not a crash: libFuzzer would stop at the first one, and the crates disagree
//! often. Each scored disagreement with a new signature is reduced in process and, when the
//! environment variable `ROBOTSTXT_FUZZ_FINDINGS` names a folder, written there as a case file
//! (in `<folder>/<parser>/`). A parser's panic is recorded the same way, as a refusal. The target
//! itself fails only on a bug of the harness (a panic in the generator, oracle or reducer).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Mutex;

use robotstxt_fuzzer::session::finding_case;
use robotstxt_fuzzer::{reduce, sample_with, Candidate, EngineJudge, Judgement, Oracle, Signature};
use robotstxt_suite::engine::{Engine, Reply};
use robotstxt_suite::visible::Outside;

use crate::engines::{Robotstxt, TextingRobots};

/// Queries asked per input.
const MAX_QUERIES: usize = 12;

/// Candidates the reducer may try per finding: enough for the generator's small documents.
const BUDGET: usize = 2_000;

/// Signatures already reported by this process.
static SEEN: Mutex<Option<HashSet<Signature>>> = Mutex::new(None);

/// What one input turned up.
#[derive(Debug, Clone, Default)]
pub struct InputOutcome {
    /// Scored disagreements with a new signature, reduced, as case files.
    pub findings: Vec<String>,
    /// Bodies a parser refused (an error or a caught panic), with its message.
    pub refused: Vec<(Outside, String)>,
}

pub fn differential_rust(data: &[u8]) -> InputOutcome {
    // Fewer queries than out of process: here every parse is paid per input, not per message.
    let s = sample_with(data, MAX_QUERIES);
    let mut outcome = InputOutcome::default();
    if s.queries.is_empty() {
        return outcome;
    }
    let engines: [Box<dyn Engine>; 2] = [
        Box::new(TextingRobots::default()),
        Box::new(Robotstxt::default()),
    ];
    for mut engine in engines {
        let oracle = Oracle::for_engine(engine.handshake());
        let name = engine.handshake().name.clone();
        let theirs = match engine.check("differential", &s.body, &s.queries) {
            Ok(Reply::Verdicts(v)) => v,
            Ok(Reply::Rejected(message)) => {
                outcome.refused.push((name, message.into_raw()));
                continue;
            }
            Ok(Reply::Refused(answers)) => {
                let why = answers
                    .into_iter()
                    .find_map(Result::err)
                    .unwrap_or_default();
                outcome
                    .refused
                    .push((name, format!("a query is refused: {why}")));
                continue;
            }
            Err(failure) => panic!("an in-process engine cannot fail: {failure:?}"),
        };
        let reference = oracle.verdicts(&s.body, &s.queries);
        for (i, query) in s.queries.iter().enumerate() {
            if reference[i] == theirs[i] {
                continue;
            }
            // Known signatures first: judging open points costs more than the parsers.
            let signature = Signature {
                adapter: name.clone(),
                agent: query.agent.clone(),
                path: query.path.clone(),
                reference: reference[i],
                theirs: theirs[i],
            };
            if SEEN
                .lock()
                .unwrap()
                .get_or_insert_with(HashSet::new)
                .contains(&signature)
            {
                continue;
            }
            let Judgement::Disagree { reference, theirs } =
                oracle.judge(&s.body, query, reference[i], theirs[i])
            else {
                continue;
            };
            SEEN.lock()
                .unwrap()
                .get_or_insert_with(HashSet::new)
                .insert(signature);
            let start = Candidate {
                body: s.body.clone(),
                agent: query.agent.clone(),
                path: query.path.clone(),
            };
            let handshake = engine.handshake().clone();
            let mut judge = EngineJudge::new(engine.as_mut(), oracle, reference, theirs);
            let reduced = reduce(start, &mut judge, BUDGET);
            let origin = format!(
                "Found by the differential_rust fuzz target against {} {} ({} bytes, reduced to {} bytes)",
                handshake.name,
                handshake.version,
                s.body.len(),
                reduced.body.len()
            );
            let case = finding_case(&handshake, oracle, &reduced, reference, theirs, &origin);
            if let Some(dir) = std::env::var_os("ROBOTSTXT_FUZZ_FINDINGS").map(PathBuf::from) {
                let dir = dir.join(handshake.name.raw());
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::fs::write(dir.join(format!("{}.yaml", case.name)), case.to_yaml());
            }
            outcome.findings.push(case.to_yaml());
        }
    }
    outcome
}
