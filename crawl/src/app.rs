//! The `crawl` and `crawlers` commands, behind the application's thin flag parsing: which cases
//! and crawlers, installing what is missing, running, printing, and the gate.

use std::io::Write;
use std::path::{Path, PathBuf};

use robotstxt_reference::Profile;
use robotstxt_runtime::adapter::install::{self, Availability};
use robotstxt_runtime::cache::Places;
use robotstxt_runtime::suite::current_checkout;
use robotstxt_suite::located::LocatedError;

use crate::case::{self, AccessCase};
use crate::command::CommandTemplate;
use crate::crawler::{load_all, Carried};
use crate::expectations::{judge, Expectations};
use crate::output::{self, CrawlFormat};
use crate::runner::{run_crawler, CrawlerRun, CrawlerUnderTest};
use crate::session::CaseBounds;

/// Exit codes, as `run` uses them.
pub const EXIT_OK: u8 = 0;
pub const EXIT_FAILURES: u8 = 1;
pub const EXIT_NO_DATA: u8 = 3;
pub const EXIT_OUTPUT: u8 = 5;

/// What `crawl` was asked.
#[derive(Debug, Clone)]
pub struct CrawlOptions {
    /// Access case folders or files; default the checkout's `cases/access`, else the embedded.
    pub cases: Vec<PathBuf>,
    /// Carried crawlers by name, or `all`.
    pub crawlers: Vec<String>,
    pub crawler_cmd: Option<String>,
    pub profile: Option<Profile>,
    pub format: CrawlFormat,
    pub verbose: bool,
    pub expectations: Option<PathBuf>,
    pub update_expectations: Option<PathBuf>,
    pub bounds: CaseBounds,
    pub jobs: usize,
    /// The crawlers folder; default the checkout's `crawlers/`.
    pub crawlers_dir: Option<PathBuf>,
    /// Write the published pages (`crawlers.md`, `crawlers/<name>.md`, `crawl-results.json`) here.
    pub pages: Option<PathBuf>,
    /// Run only the access cases of these topics (their file's name: `faults` for
    /// `access/faults/...`); all when empty.
    pub topics: Vec<String>,
    /// Run only these access cases, by id (`access/faults/reset-before-status`); all when empty.
    pub case_ids: Vec<String>,
}

/// The cases `options` selects by topic and id; an unknown one is a usage error naming those
/// there are.
fn selected(options: &CrawlOptions, cases: Vec<AccessCase>) -> Result<Vec<AccessCase>, AppError> {
    let topic = |c: &AccessCase| c.id.split('/').nth(1).unwrap_or_default().to_owned();
    for wanted in &options.topics {
        if !cases.iter().any(|c| &topic(c) == wanted) {
            let mut known: Vec<String> = cases.iter().map(topic).collect();
            known.dedup();
            return Err(AppError::Usage(format!(
                "--topic {wanted}: no such access topic; the topics are: {}",
                known.join(", ")
            )));
        }
    }
    for wanted in &options.case_ids {
        if !cases.iter().any(|c| &c.id == wanted) {
            return Err(AppError::Usage(format!(
                "--case {wanted}: no such access case (ids are `access/<topic>/<name>`)"
            )));
        }
    }
    Ok(cases
        .into_iter()
        .filter(|c| options.topics.is_empty() || options.topics.contains(&topic(c)))
        .filter(|c| options.case_ids.is_empty() || options.case_ids.contains(&c.id))
        .collect())
}

/// Why `crawl` could not run: bad input (exit 2) or output not written (exit 5).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    Usage(String),
    #[error("{heading}:\n{}", .problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Problems {
        heading: String,
        problems: Vec<LocatedError>,
    },
    #[error("{0}")]
    Output(String),
}

/// Loads the access cases `paths` name, or the default ones.
pub fn load_cases(paths: &[PathBuf]) -> Result<Vec<AccessCase>, AppError> {
    let problems = |problems: Vec<LocatedError>| AppError::Problems {
        heading: format!("{} problem(s) in the access cases", problems.len()),
        problems,
    };
    if !paths.is_empty() {
        let mut cases = Vec::new();
        for path in paths {
            cases.extend(case::load(path).map_err(problems)?);
        }
        return Ok(cases);
    }
    if let Some(root) = current_checkout() {
        let mut cases = case::load(&root.join("cases/access")).map_err(problems)?;
        // Named from the checkout's root, as the published pages show them.
        for case in &mut cases {
            if let Ok(relative) = case.file.strip_prefix(&root) {
                case.file = relative.to_owned();
            }
        }
        return Ok(cases);
    }
    let mut cases = Vec::new();
    for (path, bytes) in robotstxt_suite::embedded::case_files() {
        if !path.starts_with("cases/access") || path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let group = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        cases.extend(case::parse(&text, path, &group).map_err(|e| problems(vec![e]))?);
    }
    Ok(cases)
}

/// The carried crawlers and where they install.
pub fn carried(dir: Option<&Path>) -> Result<Vec<Carried>, AppError> {
    let checkout = current_checkout();
    let root = match (dir, &checkout) {
        (Some(dir), _) => dir.to_owned(),
        (None, Some(root)) => root.join("crawlers"),
        (None, None) => {
            return Err(AppError::Usage(
                "the carried crawlers are read from a checkout of robotstxt-test: run inside one, or name the folder with --crawlers DIR".to_owned(),
            ))
        }
    };
    // Absolute: a crawler runs in a folder of its own, and `{dir}` must still find its scripts.
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let workspace = checkout.clone().unwrap_or_else(|| root.join(".."));
    let places = Places::checkout(&workspace);
    load_all(&root, &places, &workspace.join("adapters")).map_err(|problems| AppError::Problems {
        heading: format!("{} problem(s) in the crawler manifests", problems.len()),
        problems,
    })
}

/// `crawlers`: each carried crawler, its package, its parser, and whether it can run here.
pub fn list(dir: Option<&Path>, out: &mut dyn Write) -> Result<u8, AppError> {
    let mut text = String::new();
    for crawler in carried(dir)? {
        let m = &crawler.manifest;
        let state = match install::availability(&crawler.install_as()) {
            Availability::Ready => "ready".to_owned(),
            Availability::NeedsSetup => "needs setup (installed on first use)".to_owned(),
            Availability::Unavailable(why) => format!("unavailable: {why}"),
        };
        let parser = match &m.robots_parser.adapter {
            Some(adapter) => format!("{} (adapter {adapter})", m.robots_parser.name),
            None => m.robots_parser.name.clone(),
        };
        text.push_str(&format!(
            "{:<14} {} {} ({}, {}); robots.txt: {parser}; {}: {state}\n",
            m.name, m.crawler, m.package.version, m.package.registry, m.profile, m.language
        ));
    }
    out.write_all(text.as_bytes())
        .map_err(|e| AppError::Output(format!("standard output: {e}")))?;
    Ok(EXIT_OK)
}

/// The crawlers `options` name, installed; those that cannot run here are named on stderr and
/// make the run exit 3.
fn crawlers_under_test(options: &CrawlOptions) -> Result<(Vec<CrawlerUnderTest>, bool), AppError> {
    if let Some(cmd) = &options.crawler_cmd {
        if !options.crawlers.is_empty() {
            return Err(AppError::Usage(
                "--crawler and --crawler-cmd do not go together".to_owned(),
            ));
        }
        let profile = options.profile.ok_or_else(|| {
            AppError::Usage("--crawler-cmd needs --profile norobots-1994 or rfc9309: the text the crawler claims to follow".to_owned())
        })?;
        if !cmd.contains("{url}") {
            return Err(AppError::Usage(
                "--crawler-cmd must hold {url}, where the seed URL goes".to_owned(),
            ));
        }
        let test = CrawlerUnderTest {
            name: "crawler-cmd".to_owned(),
            profile,
            command: CommandTemplate::Shell(cmd.clone()),
            departures: Vec::new(),
        };
        return Ok((vec![test], false));
    }
    if options.crawlers.is_empty() {
        return Err(AppError::Usage(
            "name a crawler: --crawler NAME, --crawler all or --crawler-cmd CMD".to_owned(),
        ));
    }
    let all = carried(options.crawlers_dir.as_deref())?;
    let wanted: Vec<&Carried> = if options.crawlers.iter().any(|c| c == "all") {
        all.iter().collect()
    } else {
        let mut wanted = Vec::new();
        for name in &options.crawlers {
            let found = all
                .iter()
                .find(|c| &c.manifest.name == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = all.iter().map(|c| c.manifest.name.as_str()).collect();
                    AppError::Usage(format!(
                        "no crawler `{name}`: the carried ones are {}",
                        names.join(", ")
                    ))
                })?;
            wanted.push(found);
        }
        wanted
    };
    let mut missing = false;
    let mut ready = Vec::new();
    for crawler in wanted {
        let adapter = crawler.install_as();
        match install::install(&adapter, false, &mut |line| eprintln!("{line}")) {
            Ok(()) => ready.push(crawler.under_test(options.profile)),
            Err(e) => {
                eprintln!("{}: unavailable: {e}", crawler.manifest.name);
                missing = true;
            }
        }
    }
    Ok((ready, missing))
}

/// `crawl`: runs, prints, gates; returns the exit code.
pub fn crawl(options: &CrawlOptions, out: &mut dyn Write) -> Result<u8, AppError> {
    let partial = !options.topics.is_empty() || !options.case_ids.is_empty();
    if partial && options.update_expectations.is_some() {
        return Err(AppError::Usage(
            "--update-expectations writes the whole file: run it without --topic or --case"
                .to_owned(),
        ));
    }
    let cases = selected(options, load_cases(&options.cases)?)?;
    if cases.is_empty() {
        return Err(AppError::Usage(
            "no access case found: a run of zero cases would pass any gate".to_owned(),
        ));
    }
    let expected = match &options.expectations {
        Some(path) => Some(Expectations::load(path).map_err(|e| AppError::Problems {
            heading: "the expectation file".to_owned(),
            problems: vec![e],
        })?),
        None => None,
    };
    let (crawlers, missing) = crawlers_under_test(options)?;
    eprintln!(
        "access cases: {} ({} checks){}",
        cases.len(),
        cases.iter().map(|c| c.checks.len()).sum::<usize>(),
        if partial {
            ", a partial run (--topic, --case)"
        } else {
            ""
        }
    );
    let mut runs: Vec<CrawlerRun> = Vec::new();
    for crawler in &crawlers {
        let total = cases.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        let progress = |run: &crate::session::CaseRun| {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            if options.verbose {
                eprintln!(
                    "{}: {n}/{total} {} ({:.1} s)",
                    crawler.name, run.case_id, run.seconds
                );
            }
        };
        let started = std::time::Instant::now();
        let run = run_crawler(crawler, &cases, options.bounds, options.jobs, &progress);
        eprintln!(
            "{}: {} cases in {:.1} s",
            crawler.name,
            total,
            started.elapsed().as_secs_f64()
        );
        runs.push(run);
    }
    let text = match options.format {
        CrawlFormat::Text => output::text(&runs, &cases, options.verbose),
        CrawlFormat::Json => output::json(&runs),
        CrawlFormat::Junit => output::junit(&runs, &cases),
        CrawlFormat::Markdown => output::markdown(&runs),
        CrawlFormat::Github => output::github(&runs, &cases),
    };
    out.write_all(text.as_bytes())
        .map_err(|e| AppError::Output(format!("standard output: {e}")))?;
    if let Some(dir) = &options.pages {
        let described = if options.crawler_cmd.is_some() {
            Vec::new()
        } else {
            carried(options.crawlers_dir.as_deref())?
        };
        crate::pages::write_pages(dir, &runs, &cases, &described)
            .map_err(|e| AppError::Output(format!("{}: {e}", dir.display())))?;
        eprintln!("wrote the crawl pages into {}", dir.display());
    }
    if let Some(path) = &options.update_expectations {
        let written = Expectations::from_runs(&runs).to_yaml();
        std::fs::write(path, written)
            .map_err(|e| AppError::Output(format!("{}: {e}", path.display())))?;
        eprintln!("wrote {}", path.display());
    }
    let no_data = missing || runs.iter().any(CrawlerRun::has_no_data);
    let failed = match &expected {
        Some(expected) => {
            let judged = judge(expected, &runs);
            for line in &judged.fixed {
                eprintln!("fixed: {line}");
            }
            for line in &judged.regressions {
                eprintln!("regression: {line}");
            }
            !judged.regressions.is_empty()
        }
        None => runs.iter().any(|r| {
            let c = r.counts();
            c.fail + c.fault > 0
        }),
    };
    Ok(if no_data {
        EXIT_NO_DATA
    } else if failed && options.update_expectations.is_none() {
        EXIT_FAILURES
    } else {
        EXIT_OK
    })
}
