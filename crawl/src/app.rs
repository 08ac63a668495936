//! The `crawl` and `crawlers` commands, behind the application's thin flag parsing: which cases
//! and crawlers, installing what is missing, running, printing, and the gate.

use robotstxt_suite::visible::path_shown;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use robotstxt_reference::Profile;
use robotstxt_runtime::adapter::install::{self, Availability};
use robotstxt_runtime::cache::{self, Places};
use robotstxt_runtime::suite::{self, current_checkout};
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::visible::Outside;

use crate::case::{self, AccessCase};
use crate::command::CommandTemplate;
use crate::crawler::{load_all, Carried};
use crate::expectations::{judge, Expectations};
use crate::output::{self, CrawlFormat};
use crate::runner::{run_crawlers, CrawlerRun, CrawlerUnderTest};
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
    /// The crawlers folder; default the checkout's `crawlers/`, else the ones the binary carries.
    pub crawlers_dir: Option<PathBuf>,
    /// Where crawlers install outside a checkout (`--cache-dir`); default the platform's cache
    /// folder.
    pub cache_dir: Option<PathBuf>,
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

/// The carried crawlers and where they install: the folder `dir` names, else the checkout's
/// `crawlers/`, else the copy this binary carries, written into the cache folder beside the
/// carried adapters (`cache_dir`, else the platform's). Says once on stderr which.
pub fn carried(dir: Option<&Path>, cache_dir: Option<&Path>) -> Result<Vec<Carried>, AppError> {
    let checkout = current_checkout();
    let places_for = |workspace: &Path| match (cache_dir, &checkout) {
        (None, Some(_)) => Ok(Places::checkout(workspace)),
        (explicit, _) => cache_root(explicit).map(|c| Places::in_cache(&c, workspace, false)),
    };
    let (root, places, adapters) = match (dir, &checkout) {
        (Some(dir), _) => {
            // Absolute: a crawler runs in a folder of its own, and `{dir}` must still find its
            // scripts.
            let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
            let workspace = checkout.clone().unwrap_or_else(|| root.join(".."));
            (root, places_for(&workspace)?, workspace.join("adapters"))
        }
        (None, Some(workspace)) => (
            workspace.join("crawlers"),
            places_for(workspace)?,
            workspace.join("adapters"),
        ),
        (None, None) => {
            let cache = cache_root(cache_dir)?;
            let materialised = suite::materialise(&cache)
                .map_err(|e| AppError::Usage(format!("the carried crawlers: {e}")))?;
            (
                materialised.join("crawlers"),
                Places::in_cache(&cache, &materialised, true),
                materialised.join("adapters"),
            )
        }
    };
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| eprintln!("crawlers: {}", path_shown(&root)));
    load_all(&root, &places, &adapters).map_err(|problems| AppError::Problems {
        heading: format!("{} problem(s) in the crawler manifests", problems.len()),
        problems,
    })
}

fn cache_root(explicit: Option<&Path>) -> Result<PathBuf, AppError> {
    cache::root(explicit).map_err(|e| AppError::Usage(e.to_string()))
}

/// `crawlers`: each carried crawler, its package, its parser, and whether it can run here.
pub fn list(
    dir: Option<&Path>,
    cache_dir: Option<&Path>,
    out: &mut dyn Write,
) -> Result<u8, AppError> {
    let mut text = String::new();
    for crawler in carried(dir, cache_dir)? {
        let m = &crawler.manifest;
        let state = match install::availability(&crawler.install_as()) {
            Availability::Ready => "ready".to_owned(),
            Availability::NeedsSetup => "needs setup (installed on first use)".to_owned(),
            Availability::Unavailable(why) => format!("unavailable: {why}"),
        };
        let parser = match &m.robots_parser.adapter {
            Some(adapter) => format!("{} (adapter {adapter})", m.robots_parser.name),
            None => m.robots_parser.name.to_string(),
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
            name: "crawler-cmd".into(),
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
    let all = carried(
        options.crawlers_dir.as_deref(),
        options.cache_dir.as_deref(),
    )?;
    let wanted = select(&all, &options.crawlers)?;
    let (ready, unavailable) = install_each(&wanted, options.profile, &|line| {
        eprintln!("{}", robotstxt_suite::visible::shown(line))
    });
    for (name, why) in &unavailable {
        eprintln!("{name}: unavailable: {why}");
    }
    Ok((ready, !unavailable.is_empty()))
}

/// The carried crawlers `names` name (`all` for every one), in the order of `all`.
fn select<'a>(all: &'a [Carried], names: &[String]) -> Result<Vec<&'a Carried>, AppError> {
    if names.iter().any(|c| c == "all") {
        return Ok(all.iter().collect());
    }
    let mut wanted = Vec::new();
    for name in names {
        let found = all
            .iter()
            .find(|c| c.manifest.name.raw() == name)
            .ok_or_else(|| {
                let names: Vec<String> = all.iter().map(|c| c.manifest.name.to_string()).collect();
                AppError::Usage(format!(
                    "no crawler `{name}`: the carried ones are {}",
                    names.join(", ")
                ))
            })?;
        wanted.push(found);
    }
    Ok(wanted)
}

/// Installs each of `wanted` (through the runtime's install code, cache and lock), one after
/// another; returns those ready to run, and the name of each that cannot run here with why.
fn install_each(
    wanted: &[&Carried],
    profile: Option<Profile>,
    say: &(dyn Fn(&str) + Sync),
) -> (Vec<CrawlerUnderTest>, Vec<(Outside, Outside)>) {
    let (mut ready, mut unavailable) = (Vec::new(), Vec::new());
    for crawler in wanted {
        let adapter = crawler.install_as();
        match install::install(&adapter, false, &mut |line| say(line)) {
            Ok(()) => ready.push(crawler.under_test(profile)),
            Err(e) => unavailable.push((crawler.manifest.name.clone(), e.to_string().into())),
        }
    }
    (ready, unavailable)
}

/// What `report` shows of the crawlers: every carried crawler that can run here over the access
/// cases, and those that cannot, with why.
#[derive(Debug, Clone)]
pub struct CrawlReport {
    pub cases: Vec<AccessCase>,
    /// The carried crawlers, run or not, for what the pages say about each.
    pub carried: Vec<Carried>,
    pub runs: Vec<CrawlerRun>,
    /// Crawlers that could not run here: name, and why.
    pub unavailable: Vec<(Outside, Outside)>,
    /// Wall-clock seconds of the whole crawl (installs included).
    pub seconds: f64,
}

/// Where [`gather`] looks and how it runs.
#[derive(Debug, Clone, Default)]
pub struct GatherOptions {
    /// Carried crawlers by name; empty or `all` for every one.
    pub crawlers: Vec<String>,
    pub crawlers_dir: Option<PathBuf>,
    pub cache_dir: Option<PathBuf>,
    pub bounds: CaseBounds,
    /// (crawler, case) pairs run at once.
    pub jobs: usize,
}

/// Cases run at once by `report`, over every crawler: most of a case is spent waiting on a
/// stall or a crawler's timeout, so they overlap well beyond the number of cores.
pub const REPORT_JOBS: usize = 16;

/// Every crawler of `options` over the default access cases, all at once: for `report`, which
/// runs this beside its adapters. `say` gets each line of progress (installs, and one line per
/// crawler done).
pub fn gather(
    options: &GatherOptions,
    say: &(dyn Fn(&str) + Sync),
) -> Result<CrawlReport, AppError> {
    let started = std::time::Instant::now();
    let cases = load_cases(&[])?;
    let carried = carried(
        options.crawlers_dir.as_deref(),
        options.cache_dir.as_deref(),
    )?;
    let names = if options.crawlers.is_empty() {
        vec!["all".to_owned()]
    } else {
        options.crawlers.clone()
    };
    let wanted = select(&carried, &names)?;
    let (ready, unavailable) = install_each(&wanted, None, say);
    let left: Vec<AtomicUsize> = (ready.iter())
        .map(|_| AtomicUsize::new(cases.len()))
        .collect();
    let progress = |crawler: &CrawlerUnderTest, _: &crate::session::CaseRun| {
        let Some(i) = ready.iter().position(|c| c.name == crawler.name) else {
            return;
        };
        if left[i].fetch_sub(1, Ordering::SeqCst) == 1 {
            say(&format!(
                "crawler {}: {} access cases done at {:.1} s",
                crawler.name,
                cases.len(),
                started.elapsed().as_secs_f64()
            ));
        }
    };
    let runs = run_crawlers(&ready, &cases, options.bounds, options.jobs, &progress);
    Ok(CrawlReport {
        cases,
        carried,
        runs,
        unavailable,
        seconds: started.elapsed().as_secs_f64(),
    })
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
    let total = cases.len();
    let done: Vec<AtomicUsize> = (crawlers.iter()).map(|_| AtomicUsize::new(0)).collect();
    let started = std::time::Instant::now();
    let progress = |crawler: &CrawlerUnderTest, run: &crate::session::CaseRun| {
        let Some(i) = crawlers.iter().position(|c| c.name == crawler.name) else {
            return;
        };
        let n = done[i].fetch_add(1, Ordering::SeqCst) + 1;
        if options.verbose {
            eprintln!(
                "{}: {n}/{total} {} ({:.1} s)",
                crawler.name, run.case_id, run.seconds
            );
        }
        if n == total {
            eprintln!(
                "{}: {total} cases done at {:.1} s",
                crawler.name,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let runs = run_crawlers(&crawlers, &cases, options.bounds, options.jobs, &progress);
    if crawlers.len() > 1 {
        eprintln!(
            "{} crawlers, {total} cases each, in {:.1} s",
            crawlers.len(),
            started.elapsed().as_secs_f64()
        );
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
            carried(
                options.crawlers_dir.as_deref(),
                options.cache_dir.as_deref(),
            )?
        };
        crate::pages::write_pages(dir, &runs, &cases, &described)
            .map_err(|e| AppError::Output(format!("{}: {e}", dir.display())))?;
        eprintln!("wrote the crawl pages into {}", path_shown(dir));
    }
    if let Some(path) = &options.update_expectations {
        let written = Expectations::from_runs(&runs).to_yaml();
        std::fs::write(path, written)
            .map_err(|e| AppError::Output(format!("{}: {e}", path.display())))?;
        eprintln!("wrote {}", path_shown(path));
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
