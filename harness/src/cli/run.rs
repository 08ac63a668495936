//! `robotstxt-test run`: the corpus against the reference or adapters, scored.

use robotstxt_suite::visible::path_shown;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_reference::Profile;
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::side_by_side::run_engines;
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::{ClaimedProfile, Engine, ReferenceEngine};
use robotstxt_suite::expectations::gate::{judge, Judged};
use robotstxt_suite::headline::Headline;
use robotstxt_suite::reask::CONFIRMING_ROUNDS;
use robotstxt_suite::release::CorpusId;
use robotstxt_suite::run::{Outcome, Scoring};
use robotstxt_suite::visible::{cut_middle, json_escaped, shown, Outside};
use robotstxt_test::grouping::is_grouped;
use robotstxt_test::output::grouped::human_grouped;
use robotstxt_test::output::{human, human_gated, slow_text, EngineRun, GateDocument, RunDocument};
use robotstxt_test::output::{junit, summary};
use robotstxt_test::settle;

use super::corpus;
use super::error::print;
use super::filter::FilterArgs;
use super::gate::{self, GateArgs};
use super::select::{AdapterArgs, Opened};
use super::{parse_profile, Error, Exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RunFormat {
    /// The counts, then the checks not passed grouped by cause, one of each shown in full.
    Human,
    /// Every check not passed in full, then a summary line per engine (as `--verbose`).
    Long,
    /// One JSON document per engine (an array when there are several).
    Json,
    /// JUnit XML: one testcase per check, named by its id.
    Junit,
    /// A short summary for a CI job summary.
    Markdown,
    /// GitHub Actions annotations: each regression an `::error file=...,line=...` on the
    /// expectation file's entry, then a summary line per engine.
    Github,
}

/// Run the case corpus and score every check.
///
/// Without `--adapter`, runs the reference under `--profile` (default norobots-1994). With
/// adapters, scores each under the profile it claims unless `--profile` forces one.
/// With `--format json`, prints one JSON document per engine (an array when there are several).
///
/// With `--expectations FILE` (or `--expectations-from-adapters`), the run is a regression gate:
/// it passes when every check comes out as the file lists (see adapters/README.md).
///
/// Exit codes: 0 every scored check as expected; 1 failures (with expectations: regressions, or
/// under --strict unexpected passes); 2 usage or input error; 3 an adapter unavailable or broken;
/// 4 with expectations, no regression but an unstable check (its answer changed when asked again
/// after a fresh start of the adapter); 5 the output or an expectation file could not be written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder of case files, or one case file; repeat to run several. Default: the checkout's
    /// `cases/` inside a checkout of this repository, else the corpus this binary carries.
    #[arg(long = "cases", value_name = "PATH")]
    cases: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = RunFormat::Human)]
    format: RunFormat,
    /// Also write this one run in another format into a file, as `FORMAT=FILE` (repeat for
    /// several: `--also-write junit=junit.xml --also-write markdown=summary.md`), so that a CI
    /// job's status, its JUnit and its summary come from the same answers.
    #[arg(long = "also-write", value_name = "FORMAT=FILE", value_parser = parse_also_write)]
    also_write: Vec<(RunFormat, PathBuf)>,
    /// Show every check not passed in full, in corpus order (`--format long`), instead of
    /// grouped by cause.
    #[arg(long, short)]
    verbose: bool,
    /// Score under this profile instead of the one each engine claims: `norobots-1994` (the 1994
    /// "A Standard for Robot Exclusion") or `rfc9309` (RFC 9309).
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile)]
    profile: Option<Profile>,
    #[command(flatten)]
    select: AdapterArgs,
    #[command(flatten)]
    gate: GateArgs,
    #[command(flatten)]
    filter: FilterArgs,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    let loaded = corpus::load(&args.cases)?;
    let (whole, corpus_id) = (loaded.cases, loaded.id);
    let partial = args.filter.any();
    if partial && args.gate.update_expectations.is_some() {
        return Err(Error::usage(
            "--update-expectations writes the whole file: run it without --topic, --case or --group",
        ));
    }
    let opened = if args.select.any() {
        // A gate must not pass because an adapter quietly went missing: with expectations, `all`
        // keeps the adapters this machine cannot run, and they fail the run as unavailable.
        args.select.open_with_dirs(!args.gate.active())?
    } else if args.gate.active() {
        return Err(Error::usage(
            "expectations are for adapters: add --adapter NAME, --adapter all or --adapter-cmd CMD",
        ));
    } else {
        let profile = args.profile.unwrap_or(Profile::Norobots1994);
        vec![Opened::bare(Box::new(ReferenceEngine::new(profile)))]
    };
    // Expectations are resolved against the whole corpus; the run asks what the filters keep.
    let mut plans = args.gate.plan(&opened, &whole)?;
    let cases = if partial {
        args.filter.cases(whole)?
    } else {
        whole
    };
    let hints: Vec<Option<String>> = opened.iter().map(|o| o.check_hint.clone()).collect();
    let mut engines: Vec<Box<dyn Lifecycle>> = opened.into_iter().map(|o| o.engine).collect();
    let forced = args.profile;
    let scoring = move |engine: &dyn Engine| match forced {
        Some(p) => Scoring::Forced(p),
        None => Scoring::Claimed(engine.handshake().claimed_profile()),
    };
    let updating = plans.iter().any(|p| p.update.is_some());
    let rounds = if updating { 1 + CONFIRMING_ROUNDS } else { 1 };
    let bar = progress_bar(rounds * cases.len() * engines.len());
    let mut all_results = run_engines(&cases, &mut engines, &scoring, &|_, _, _| bar.inc(1));
    for results in &mut all_results {
        args.filter.results(&cases, results);
    }
    // A file is written from steady answers: the corpus is asked again whole first.
    let confirming = if updating {
        settle::confirming_rounds(&cases, &mut engines, &scoring, &|_, _, _| bar.inc(1))
    } else {
        vec![Vec::new(); engines.len()]
    };
    bar.finish_and_clear();

    let mut exit = Exit::Ok;
    let mut judged: Vec<Option<Judged>> = Vec::new();
    let mut slow: Vec<Vec<usize>> = Vec::new();
    // Per engine, how long each timeout that answered took when asked alone.
    let mut took: Vec<BTreeMap<usize, Duration>> = Vec::new();
    // Engine after engine: a timeout is asked again alone (see `settle`).
    for (((engine, results), plan), rounds) in engines
        .iter_mut()
        .zip(&mut all_results)
        .zip(&mut plans)
        .zip(&confirming)
    {
        let name = engine.handshake().name.clone();
        let scored = scoring(engine.as_ref());
        if let Some(why) = engine.unavailable() {
            let never_answered = results.iter().all(|r| r.outcome == Outcome::Skipped);
            // On a terminal the run's text says it; other formats say it here, in one line.
            if !matches!(args.format, RunFormat::Human | RunFormat::Long) {
                let what = if never_answered {
                    "unavailable"
                } else {
                    "broke down part way"
                };
                let why = why.raw().trim_start_matches("unavailable: ");
                let first = why.lines().next().unwrap_or_default();
                eprintln!("{name}: {what}: {}", shown(&cut_middle(first, 300)));
            }
            exit = exit.max(Exit::Unavailable);
            if let Some(target) = &plan.update {
                eprintln!("{name}: {} left as it was", path_shown(target));
            }
            judged.push(plan.judge.as_ref().map(|e| judge(e, &cases, results)));
            slow.push(Vec::new());
            took.push(BTreeMap::new());
        } else if let Some(target) = &plan.update {
            let patient = settle::patient_timeouts(engine.as_mut(), &cases, results, scored);
            let previous = plan.judge.as_ref();
            settle::stable_for_update(engine.as_mut(), &cases, results, scored, rounds, previous);
            let alone = gate::Slow {
                answered: &patient.answered,
                took: Some(&patient.took),
                timeout: Some(args.select.timeout),
            };
            let next = gate::update(target, previous, name.raw(), &cases, results, &alone)?;
            judged.push(Some(judge(&next, &cases, results)));
            plan.judge = Some(next);
            slow.push(patient.answered);
            took.push(patient.took);
        } else if let Some(expectations) = &plan.judge {
            let strict = args.gate.strict;
            let (settled, alone) = settle::judged(
                engine.as_mut(),
                &cases,
                results,
                scored,
                expectations,
                strict,
            );
            slow.push(settled.slow.clone());
            judged.push(Some(settled));
            took.push(alone);
        } else {
            // No file: a timeout is still asked again before it counts as a failure.
            let patient = settle::patient_timeouts(engine.as_mut(), &cases, results, scored);
            judged.push(None);
            slow.push(patient.answered);
            took.push(patient.took);
        }
    }
    let headlines: Vec<Headline> = (engines.iter().zip(&all_results))
        .map(|(engine, results)| {
            let profile = args.profile.map_or_else(
                || engine.handshake().profile.raw().to_owned(),
                |p| p.name().to_owned(),
            );
            Headline::of(results, &profile, &corpus_id.version_shown()).partial(partial)
        })
        .collect();
    let runs: Vec<EngineRun<'_>> = (engines.iter().zip(&all_results).enumerate())
        .map(|(i, (engine, results))| EngineRun {
            headline: &headlines[i],
            handshake: engine.handshake(),
            results,
            unavailable: engine.unavailable(),
            gate: plans[i].judge.as_ref().zip(judged[i].as_ref()),
            slow: &slow[i],
            took: &took[i],
            timeout: args.select.any().then_some(args.select.timeout),
            check_hint: hints[i].as_deref(),
        })
        .collect();
    for run in &runs {
        let failed = match run.gate {
            Some((_, judged)) => judged.fails(args.gate.strict),
            None => run.answered().iter().any(is_grouped),
        };
        let tally = run.gate.map(|(_, judged)| judged.tally());
        let unstable_only = tally.is_some_and(|t| t.unstable > 0 && t.regressions == 0);
        exit = match (exit, failed, unstable_only) {
            // Unavailable outranks failures, which outrank an unstable answer.
            (Exit::Unavailable, _, _) | (_, false, _) => exit,
            (_, true, true) if exit == Exit::Ok => Exit::Unstable,
            (_, true, true) => exit,
            (_, true, false) => Exit::Failures,
        };
    }
    // The files first: a closed standard output must not lose them.
    for (format, path) in &args.also_write {
        let text = render(&args, *format, &runs, &cases, &corpus_id)?;
        robotstxt_runtime::atomic::write_atomic(path, text.as_bytes())?;
    }
    print(&render(&args, args.format, &runs, &cases, &corpus_id)?)?;
    Ok(exit)
}

/// `--also-write`'s `FORMAT=FILE`.
fn parse_also_write(value: &str) -> Result<(RunFormat, PathBuf), String> {
    use clap::ValueEnum;
    let (format, file) = value
        .split_once('=')
        .ok_or_else(|| format!("expected FORMAT=FILE, such as junit=junit.xml, not {value:?}"))?;
    let format = RunFormat::from_str(format, true).map_err(|_| {
        format!("unknown format {format:?}: one of human, long, json, junit, markdown, github")
    })?;
    if file.is_empty() {
        return Err("the file after FORMAT= is empty".to_owned());
    }
    Ok((format, PathBuf::from(file)))
}

/// The run in the format asked for.
fn render(
    args: &Args,
    format: RunFormat,
    runs: &[EngineRun<'_>],
    cases: &[Case],
    corpus_id: &CorpusId,
) -> Result<String, Error> {
    let strict = args.gate.strict;
    Ok(match format {
        RunFormat::Human | RunFormat::Long => {
            // Colours on a terminal, unless `NO_COLOR` (or `CLICOLOR=0`, `TERM=dumb`) says
            // otherwise, or `CLICOLOR_FORCE` asks for them anyway.
            // Never into a file (`--also-write`).
            let color = format == args.format
                && anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never;
            let long = args.verbose || format == RunFormat::Long;
            let text: String = runs
                .iter()
                .map(|run| match run.gate {
                    _ if run.never_answered() => run.unavailable_text(&next_step(run.handshake)),
                    Some((expectations, judged)) => {
                        human_gated(*run, expectations, judged, cases, strict, long)
                    }
                    None => {
                        let text = if long {
                            human(run.handshake, run.headline, cases, run.answered(), color)
                        } else {
                            human_grouped(run.handshake, run.headline, cases, run.answered())
                        };
                        text + &slow_text(run, cases) + &run.breakdown_text(cases)
                    }
                })
                .collect();
            // Every line fits a terminal of 120 columns.
            robotstxt_test::output::fit::block(&text, None)
        }
        RunFormat::Json => {
            let documents: Vec<RunDocument> = runs
                .iter()
                .map(|run| {
                    let mut doc = RunDocument::new(run, args.profile, corpus_id, cases);
                    doc.partial = args.filter.any().then(|| args.filter.described());
                    doc.gate = run
                        .gate
                        .map(|(e, judged)| GateDocument::new(e, judged, cases, run.results));
                    doc
                })
                .collect();
            let json = if documents.len() == 1 {
                serde_json::to_string_pretty(&documents[0])
            } else {
                serde_json::to_string_pretty(&documents)
            };
            // The exact texts, with bidi controls written as JSON escapes.
            json_escaped(json.map_err(|e| Error::Stdout(e.into()))?) + "\n"
        }
        RunFormat::Junit => junit::document(runs, cases, strict),
        RunFormat::Markdown => summary::markdown(runs, cases, strict),
        RunFormat::Github => robotstxt_test::output::github::annotations(runs, cases, strict),
    })
}

/// What to try when an adapter never answered: check a command step by step, or install a named
/// adapter again (it was installed, or the run would have installed it first: `--force` runs its
/// steps again and mends its files).
pub(super) fn next_step(handshake: &robotstxt_suite::engine::Handshake) -> String {
    let name = &handshake.name;
    if name.raw().contains([' ', '/']) {
        // Quoted as typed, then shown: the command is outside text too.
        let quoted = shlex::try_quote(name.raw()).unwrap_or_else(|_| name.raw().into());
        format!(
            "try: robotstxt-test adapters check --adapter-cmd {}",
            Outside::new(quoted)
        )
    } else {
        format!(
            "try: robotstxt-test adapters install --force {name} (robotstxt-test adapters lists \
             what this machine can run)"
        )
    }
}

/// A progress bar over every (engine, case) pair, on stderr, hidden when stderr is not a terminal.
fn progress_bar(total: usize) -> ProgressBar {
    ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} case runs {elapsed}")
            .expect("valid template"),
    )
}
