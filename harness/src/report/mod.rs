//! Compatibility reports (`robotstxt-test report`): every adapter over the whole corpus, written
//! as a Markdown matrix, a self-contained HTML page, one Markdown page per adapter,
//! `results.json` and `results.csv`.
//!
//! [`collect`] asks each adapter once per case, through the same run loop as `run`
//! ([`side_by_side::run_engines`]), and scores that one reply under the adapter's claimed profile
//! and under every profile of [`Profile::ALL`] with [`run::score`]. [`matrix`] turns the results
//! into the numbers and groupings every page shows, and [`versions`] the checks that changed
//! between each version of one parser and the next; [`markdown`], [`html`] and [`json`] render
//! them, with [`chart`] drawing the scores over versions and over time ([`history`]), and
//! [`badges`] a badge per adapter. Each release step's diff is written under `diffs/`.
//! [`write()`] renders everything in memory first and only then replaces the folder in one step
//! ([`robotstxt_runtime::swap`]), so a run that fails leaves the previous reports as they were.

pub mod badges;
pub mod chart;
pub mod crawlers;
pub mod csv;
pub mod history;
pub mod html;
pub mod json;
pub mod markdown;
pub mod matrix;
pub mod reference;
pub mod reported;
pub mod versions;

use std::path::{Path, PathBuf};
use std::time::Duration;

use robotstxt_reference::Profile;
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::side_by_side;
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::{ClaimedProfile, Engine, Handshake};
use robotstxt_suite::expectations::ExpectationFile;
use robotstxt_suite::reask::CONFIRMING_ROUNDS;
use robotstxt_suite::run::{self, CheckResult, Outcome, Scoring};
use robotstxt_suite::visible::Outside;

use crate::settle;
use robotstxt_runtime::swap::replace_files;

/// Everything a report shows.
#[derive(Debug, Clone)]
pub struct Report {
    /// `git rev-parse HEAD` of the suite, or `unknown`.
    pub suite_commit: String,
    /// Whether the suite's files differed from that commit.
    pub suite_modified: bool,
    pub tool_version: String,
    /// The corpus's suite version and digest, which results files carry.
    pub corpus: robotstxt_suite::release::CorpusId,
    /// The command that made the report, as typed (`robotstxt-test report --adapter-cmd ...`).
    pub command: String,
    /// When the report was made: UTC, ISO 8601, to the second.
    pub date: String,
    pub cases: Vec<Case>,
    pub adapters: Vec<AdapterRun>,
    /// The carried crawlers over the access cases, when the report ran them.
    pub crawl: Option<robotstxt_crawl::app::CrawlReport>,
    /// Earlier results kept with `report --history DIR`, oldest first (this report's own
    /// results among them), for the charts over time.
    pub history: Vec<crate::diff::ResultsFile>,
}

/// One adapter over the corpus.
#[derive(Debug, Clone)]
pub struct AdapterRun {
    pub handshake: Handshake,
    /// How the adapter calls its parser, when it has an adapter folder.
    pub about: Option<About>,
    /// Why the adapter could not run, or broke down part way, if so.
    pub unavailable: Option<Outside>,
    /// Time spent waiting for answers, per case, in corpus order.
    pub case_times: Vec<Duration>,
    /// Scored under the claimed profile (falling back per check to norobots-1994).
    pub claimed: Vec<CheckResult>,
    /// The same answers scored under each profile of [`Profile::ALL`], in that order.
    pub by_profile: Vec<(Profile, Vec<CheckResult>)>,
}

/// What an adapter's manifest says about how it calls its parser (adapters/PROTOCOL.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct About {
    /// How the raw bytes reach the parser.
    pub input: String,
    /// Anything else a reader needs, such as how it differs from another adapter of the same
    /// library.
    pub note: Option<String>,
    /// Which form of the robot's name the adapter hands its parser.
    pub agent: robotstxt_suite::engine::AgentForm,
}

impl AdapterRun {
    /// Whether the adapter answered anything at all: an adapter that never ran has no data,
    /// which the pages show as such rather than as a score of 0.
    pub fn has_data(&self) -> bool {
        self.claimed
            .iter()
            .any(|r| r.outcome != run::Outcome::Skipped)
    }

    /// The headline score: the decided checks under the claimed profile, of the corpus at
    /// `suite_version`, as `run` prints it.
    pub fn headline(&self, suite_version: &str) -> robotstxt_suite::headline::Headline {
        robotstxt_suite::headline::Headline::of(
            &self.claimed,
            self.handshake.profile.raw(),
            suite_version,
        )
    }

    /// Total time spent waiting for answers.
    pub fn wall(&self) -> Duration {
        self.case_times.iter().sum()
    }

    /// The results under `scoring`: `None` for the claimed profile.
    pub fn results(&self, profile: Option<Profile>) -> &[CheckResult] {
        match profile {
            None => &self.claimed,
            Some(p) => self
                .by_profile
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(&[][..], |(_, r)| r),
        }
    }
}

/// What [`collect`] asks again before it scores (see [`crate::settle`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Asking<'a> {
    /// Per engine, the checks (`case id`, index) already known to vary: asked again even when
    /// their first answer passed, so that a published report shows them as what they are.
    pub known_unstable: &'a [Vec<(String, usize)>],
    /// Per engine, the checks its expectation file lists as timeouts or crashes: asked again once
    /// with more time, not twice ([`settle::patient_timeouts_for_report`]).
    pub known_timeouts: &'a [Vec<(String, usize)>],
    /// When expectation files are written from this run: per engine, the file being replaced
    /// (if there is one). The corpus is then asked again whole and every suspect settled as an
    /// update settles it.
    pub update: Option<&'a [Option<ExpectationFile>]>,
}

/// What [`collect`] is doing, for a progress display: a phase begins with how many steps it
/// takes, and each step done is reported as it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A phase begins, of `steps` steps.
    Phase(Phase, usize),
    /// One step of the current phase is done.
    Step,
}

/// The phases of [`collect`], in order (the confirming rounds only when expectation files are
/// written from the run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Every engine over the corpus, side by side: one step per case and engine.
    Corpus,
    /// The corpus again, for expectation files: one step per case, engine and round.
    Confirming,
    /// Timeouts asked again with more time, then non-passes for stability: one step per
    /// engine settled.
    Settling,
}

impl Phase {
    /// What the phase does, as a progress display says it.
    pub fn doing(self) -> &'static str {
        match self {
            Phase::Corpus => "asking the corpus (case runs)",
            Phase::Confirming => "asking the corpus again (case runs)",
            Phase::Settling => "asking timeouts and non-passes again (adapters settled)",
        }
    }
}

/// Runs every engine over `cases` (side by side) and scores each answer under every profile.
/// Each run's `about` is left for the caller, which knows the adapters' manifests.
/// `progress` hears of each phase as it begins and of each of its steps (see [`Progress`]).
pub fn collect(
    cases: &[Case],
    engines: Vec<Box<dyn Lifecycle>>,
    asking: Asking<'_>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<AdapterRun> {
    let mut engines = engines;
    let claimed = |e: &dyn Engine| Scoring::Claimed(e.handshake().claimed_profile());
    let step = |_: usize, _: usize, _: usize| progress(Progress::Step);
    progress(Progress::Phase(Phase::Corpus, cases.len() * engines.len()));
    // Every reply kept as it came (and how long it took), so that each can be scored again
    // under other profiles without asking the adapter twice.
    let (mut results, mut logs): (Vec<_>, Vec<_>) =
        side_by_side::run_engines_recorded(cases, &mut engines, &claimed, &step)
            .into_iter()
            .map(|run| (run.results, run.replies))
            .unzip();
    let rounds = match asking.update {
        Some(_) => {
            let steps = CONFIRMING_ROUNDS * cases.len() * engines.len();
            progress(Progress::Phase(Phase::Confirming, steps));
            settle::confirming_rounds(cases, &mut engines, &claimed, &step)
        }
        None => vec![Vec::new(); engines.len()],
    };
    // Then each engine settles its run in a thread of its own, all at the same time: its
    // timeouts first, asked again alone with more time, then every non-pass asked again for
    // stability, so that an answer that varies from one process to the next is shown as
    // unstable rather than as whichever answer came first. Nearly every timeout is a parser that
    // never answers that case (a matcher that backtracks without end): waiting them out one
    // engine after another cost a report minutes on one core, while the other engines could
    // settle meanwhile. The reply a timeout gets is scored under every profile below.
    progress(Progress::Phase(Phase::Settling, engines.len()));
    std::thread::scope(|scope| {
        for (i, (((engine, results), log), rounds)) in (engines.iter_mut())
            .zip(&mut results)
            .zip(&mut logs)
            .zip(&rounds)
            .enumerate()
        {
            let known = asking.known_unstable.get(i).map_or(&[][..], Vec::as_slice);
            let hanging = asking.known_timeouts.get(i).map_or(&[][..], Vec::as_slice);
            let previous = asking.update.and_then(|files| files.get(i)?.as_ref());
            let update = asking.update.is_some();
            scope.spawn(move || {
                let scoring = claimed(engine.as_ref());
                let patient = settle::patient_timeouts_for_report(
                    engine.as_mut(),
                    cases,
                    results,
                    scoring,
                    hanging,
                );
                for (case, reply) in patient.replies {
                    if let Some(entry) = log.get_mut(case) {
                        entry.0 = reply;
                    }
                }
                if update {
                    settle::stable_for_update(
                        engine.as_mut(),
                        cases,
                        results,
                        scoring,
                        rounds,
                        previous,
                    );
                } else {
                    settle::stable_for_report(engine.as_mut(), cases, results, scoring, known);
                }
                progress(Progress::Step);
            });
        }
    });
    engines
        .iter()
        .zip(results)
        .zip(logs)
        .map(|((engine, claimed), log)| {
            let unstable: std::collections::HashMap<(usize, usize), &CheckResult> = (claimed
                .iter())
            .filter(|r| r.outcome == Outcome::Unstable)
            .map(|r| ((r.case, r.check), r))
            .collect();
            let by_profile = Profile::ALL
                .iter()
                .map(|&profile| {
                    let scored = cases
                        .iter()
                        .zip(&log)
                        .enumerate()
                        .flat_map(|(i, (case, (reply, _)))| {
                            let forced = Scoring::Forced(profile);
                            run::score_handed(i, case, reply, forced, engine.agent_form())
                        })
                        .map(|mut r| {
                            let seen = unstable.get(&(r.case, r.check));
                            if let Some(seen) = seen.filter(|_| r.outcome.is_scored()) {
                                r.outcome = Outcome::Unstable;
                                r.detail.clone_from(&seen.detail);
                            }
                            r
                        })
                        .collect();
                    (profile, scored)
                })
                .collect();
            AdapterRun {
                handshake: engine.handshake().clone(),
                about: None,
                unavailable: engine.unavailable().cloned(),
                case_times: log.iter().map(|(_, t)| *t).collect(),
                claimed,
                by_profile,
            }
        })
        .collect()
}

/// The suite's commit and whether its files differ from it, from `git` in `dir`; `unknown`
/// when there is no git or no repository (a source tarball). Started as every process is
/// (`robotstxt_runtime::child`): what git starts (a file-system monitor) ends with it.
pub fn suite_commit(dir: &Path) -> (String, bool) {
    let git = |args: &[&str]| {
        let mut command = std::process::Command::new("git");
        command
            .args(args)
            .current_dir(dir)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        let (child, running) = robotstxt_runtime::child::spawn(command).ok()?;
        let output = child.wait_with_output();
        robotstxt_runtime::signals::release(running);
        output
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            let modified = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            (commit, modified)
        }
        _ => ("unknown".to_owned(), false),
    }
}

/// Now, in UTC, as ISO 8601 to the second (`2024-05-01T12:00:00Z`).
pub fn utc_now() -> String {
    iso8601(jiff::Timestamp::now())
}

/// A moment as an ISO 8601 UTC timestamp, to the second.
fn iso8601(moment: jiff::Timestamp) -> String {
    moment.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Renders every page of `report` and writes them into `out` (created if missing), replacing the
/// folder in one step so that no reader sees old pages beside new ones (see [`robotstxt_runtime::swap`]).
/// Returns the files written.
pub fn write(report: &Report, out: &Path) -> std::io::Result<Vec<PathBuf>> {
    let names = markdown::page_names(&report.adapters);
    // The page and results.json take the longest to render: each on a thread of its own while
    // the Markdown pages are rendered here, in the order the files are listed.
    let crawl = report.crawl.as_ref();
    let (page, results, markdown) = std::thread::scope(|scope| {
        let page = scope.spawn(|| crawlers::into_page(html::page(report), crawl));
        let results = scope.spawn(|| json::document(report));
        let mut pages: Vec<(String, Vec<u8>)> = Vec::new();
        for (adapter, name) in report.adapters.iter().zip(&names) {
            let page = markdown::adapter_page(report, adapter);
            pages.push((format!("{name}.md"), page.into_bytes()));
        }
        pages.extend(badges::files(
            &report.adapters,
            &names,
            &report.corpus.version_shown(),
        ));
        pages.extend(crawl.map(crawlers::files).unwrap_or_default());
        for pair in versions::pairs(report) {
            let page = markdown::step_page(report, &pair);
            pages.push((format!("diffs/{}", pair.page(report)), page.into_bytes()));
        }
        let readme = markdown::readme(report, &names) + &crawlers::readme_section(crawl);
        let csv = csv::document(report);
        (
            page.join().expect("rendering index.html panicked"),
            results.join().expect("rendering results.json panicked"),
            (readme, pages, csv),
        )
    });
    let (readme, pages, csv) = markdown;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("README.md".to_owned(), readme.into_bytes()),
        ("index.html".to_owned(), page.into_bytes()),
        ("results.json".to_owned(), results?.into_bytes()),
        ("SCHEMA.md".to_owned(), json::SCHEMA.as_bytes().to_vec()),
        ("results.csv".to_owned(), csv.into_bytes()),
    ];
    files.extend(pages);
    replace_files(out, &files)?;
    Ok(files.into_iter().map(|(name, _)| out.join(name)).collect())
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn dates() {
        let at = |seconds| iso8601(jiff::Timestamp::from_second(seconds).unwrap());
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(951_868_800), "2000-03-01T00:00:00Z");
        assert_eq!(at(1_709_208_000), "2024-02-29T12:00:00Z");
        assert_eq!(at(1_735_689_599), "2024-12-31T23:59:59Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
    }
}
