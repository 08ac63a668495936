//! `robotstxt-test minimize`: reduce one given disagreement and print it as a case file.

use robotstxt_suite::visible::path_shown;
use std::path::PathBuf;

use robotstxt_fuzzer::reduce::DEFAULT_BUDGET;
use robotstxt_fuzzer::session::finding_case;
use robotstxt_fuzzer::{reduce, Candidate, EngineJudge, Judgement, Oracle};
use robotstxt_reference::Verdict;
use robotstxt_suite::engine::{Query, Reply};

use super::error::print;
use super::select::AdapterArgs;
use super::{Error, Exit};

/// Reduce a disagreement between an adapter and the reference to a small case, printed as YAML.
///
/// The robots.txt file, agent and path must show a scored disagreement: the adapter's verdict
/// differs from the reference's under the profile the adapter claims (or norobots-1994), on a
/// point that profile settles. Exit code 3 when the adapter is unavailable or breaks down.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    select: AdapterArgs,
    /// The robots.txt body, as a file (read as bytes).
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    #[arg(long, value_name = "AGENT")]
    agent: String,
    #[arg(long, value_name = "PATH")]
    path: String,
    /// Candidates the reducer may try.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET)]
    budget: usize,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    let body = super::check::read_body(&args.robots)?;
    let mut engines = args.select.open(false)?;
    if engines.len() != 1 {
        return Err(Error::usage(
            "minimize drives exactly one adapter: give one --adapter or --adapter-cmd",
        ));
    }
    let engine = engines[0].as_mut();
    if let Some(why) = engine.unavailable() {
        eprintln!("{}: unavailable: {}", engine.handshake().name, why);
        return Ok(Exit::Unavailable);
    }
    let handshake = engine.handshake().clone();
    let oracle = Oracle::for_engine(&handshake);
    let query = Query {
        agent: args.agent.clone(),
        path: args.path.clone(),
    };
    // A wrong number of answers breaks the protocol; a rejection or a refusal is the parser's
    // answer, and leaves nothing to reduce.
    let wrong_count = || Error::Adapter("the adapter answered the wrong number of results".into());
    let theirs = match engine.check("minimize", &body, std::slice::from_ref(&query)) {
        Ok(Reply::Verdicts(v)) if v.len() == 1 => v[0],
        Ok(Reply::Verdicts(_)) => return Err(wrong_count()),
        Ok(Reply::Rejected(why)) => {
            return Err(Error::usage(format!("the adapter rejects the file: {why}")))
        }
        Ok(Reply::Refused(answers)) => match answers.first() {
            Some(Ok(verdict)) if answers.len() == 1 => *verdict,
            Some(Err(why)) => {
                return Err(Error::usage(format!(
                    "the adapter refuses the query: {why}"
                )))
            }
            _ => return Err(wrong_count()),
        },
        Err(failure) => {
            eprintln!(
                "error: {}: {}: {}",
                handshake.name,
                failure.fault.as_str(),
                failure.detail
            );
            return Ok(Exit::Unavailable);
        }
    };
    let reference: Verdict = match oracle.judge_one(&body, &query, theirs) {
        Judgement::Agree => {
            return Err(Error::usage(format!(
                "no disagreement: {} and the reference both say {theirs}",
                handshake.name
            )))
        }
        Judgement::Open(points) => {
            let names: Vec<&str> = points.iter().map(|p| p.name()).collect();
            return Err(Error::usage(format!(
                "not a scored disagreement: under {} the decision depends on open points ({})",
                oracle.profile,
                names.join(", ")
            )));
        }
        Judgement::Disagree { reference, .. } => reference,
    };
    let start = Candidate {
        body: body.clone(),
        agent: args.agent,
        path: args.path,
    };
    let mut judge = EngineJudge::new(&mut *engine, oracle, reference, theirs);
    let reduced = reduce(start, &mut judge, args.budget);
    if let Some(why) = engine.unavailable() {
        eprintln!(
            "error: {}: broke down while reducing: {}",
            handshake.name, why
        );
        return Ok(Exit::Unavailable);
    }
    let origin = format!(
        "Reduced by `robotstxt-test minimize` against {} {} ({}) from {} ({} bytes, to {} bytes)",
        handshake.name,
        handshake.version,
        handshake.parser,
        path_shown(&args.robots),
        body.len(),
        reduced.body.len()
    );
    let case = finding_case(&handshake, oracle, &reduced, reference, theirs, &origin);
    print(&case.to_yaml())?;
    Ok(Exit::Ok)
}
