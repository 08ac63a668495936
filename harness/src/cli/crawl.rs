//! `robotstxt-test crawl` and `robotstxt-test crawlers`: flags only; the crawl mode lives in
//! `robotstxt-crawl`.

use std::path::PathBuf;
use std::time::Duration;

use robotstxt_crawl::app::{self, CrawlOptions};
use robotstxt_crawl::output::CrawlFormat;
use robotstxt_crawl::session::CaseBounds;
use robotstxt_reference::Profile;

use super::{parse_profile, Error, Exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CrawlFormatFlag {
    /// The counts, then the failures grouped by cause, one case of each in full with the
    /// server's request log.
    Human,
    Json,
    Junit,
    Markdown,
    /// GitHub Actions annotations: an error per failed check, on its case's line.
    Github,
}

/// Run the access cases against real crawlers: a loopback site per case, a fresh crawler process
/// per case, scored on what it fetched.
///
/// Exit codes: 0 every scored check passed (with expectations: as listed); 1 failures (with
/// expectations: regressions); 2 usage or input error; 3 a crawler unavailable, or with no data
/// in any case (it never fetched the control); 5 the output could not be written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder of access cases, or one file; repeat to run several. Default: the checkout's
    /// `cases/access/`, else the copy this binary carries.
    #[arg(long = "cases", value_name = "PATH")]
    cases: Vec<PathBuf>,
    /// A carried crawler (`robotstxt-test crawlers` lists them), or `all`; repeatable.
    #[arg(long = "crawler", value_name = "NAME")]
    crawler: Vec<String>,
    /// Your own crawler: a shell command line in which {url} (the seed), {agent} (the User-agent
    /// to send), {timeout} (seconds per request) and {workdir} (a fresh folder) are replaced,
    /// shell-quoted. Needs --profile.
    #[arg(long = "crawler-cmd", value_name = "CMD")]
    crawler_cmd: Option<String>,
    /// Score under this profile instead of the one each crawler claims.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile)]
    profile: Option<Profile>,
    #[arg(long, value_enum, default_value_t = CrawlFormatFlag::Human)]
    format: CrawlFormatFlag,
    /// Every failed case in full, and a line per case as it ends.
    #[arg(long, short)]
    verbose: bool,
    /// A gate: pass when every check comes out as this file lists.
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// Write the checks not passed today into FILE.
    #[arg(long = "update-expectations", value_name = "FILE")]
    update_expectations: Option<PathBuf>,
    /// Seconds a crawler is told to wait for one answer ({timeout}).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=60))]
    request_timeout: u32,
    /// Seconds a case may take before its crawler is stopped.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(2..=600))]
    case_limit: u64,
    /// Cases run at once, over every crawler named: the crawlers run side by side.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=32))]
    jobs: u64,
    /// The folder of carried crawlers. Default: the checkout's `crawlers/`, else the crawlers
    /// this binary carries.
    #[arg(long = "crawlers", value_name = "DIR")]
    crawlers_dir: Option<PathBuf>,
    /// Where crawlers install (venvs, npm prefixes, Go and Maven builds). Default: `target/`
    /// inside a checkout, else `$XDG_CACHE_HOME/robotstxt-test` (the platform's cache folder).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Also write the published pages into DIR: crawlers.md, crawlers/<name>.md (every failure
    /// with the site's request log) and crawl-results.json.
    #[arg(long, value_name = "DIR")]
    pages: Option<PathBuf>,
    /// Run only the access cases of this topic (`faults` for `access/faults/...`); repeatable.
    /// The run is partial.
    #[arg(long = "topic", value_name = "TOPIC")]
    topics: Vec<String>,
    /// Run only this access case (`access/faults/reset-before-status`); repeatable. The run is
    /// partial.
    #[arg(long = "case", value_name = "ID")]
    case_ids: Vec<String>,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    let options = CrawlOptions {
        cases: args.cases,
        crawlers: args.crawler,
        crawler_cmd: args.crawler_cmd,
        profile: args.profile,
        format: match args.format {
            CrawlFormatFlag::Human => CrawlFormat::Text,
            CrawlFormatFlag::Json => CrawlFormat::Json,
            CrawlFormatFlag::Junit => CrawlFormat::Junit,
            CrawlFormatFlag::Markdown => CrawlFormat::Markdown,
            CrawlFormatFlag::Github => CrawlFormat::Github,
        },
        verbose: args.verbose,
        expectations: args.expectations,
        update_expectations: args.update_expectations,
        bounds: CaseBounds {
            request_timeout: args.request_timeout,
            case_limit: Duration::from_secs(args.case_limit),
            ..CaseBounds::default()
        },
        jobs: usize::try_from(args.jobs).unwrap_or(12),
        crawlers_dir: args.crawlers_dir,
        cache_dir: args.cache_dir,
        pages: args.pages,
        topics: args.topics,
        case_ids: args.case_ids,
    };
    let code = app::crawl(&options, &mut std::io::stdout().lock())?;
    Ok(exit_of(code))
}

/// List the carried crawlers: package, robots.txt parser, and whether each can run here.
#[derive(Debug, clap::Args)]
pub struct CrawlersArgs {
    /// The folder of carried crawlers. Default: the checkout's `crawlers/`, else the crawlers
    /// this binary carries.
    #[arg(long = "crawlers", value_name = "DIR")]
    crawlers_dir: Option<PathBuf>,
    /// Where crawlers install. Default: `target/` inside a checkout, else the platform's cache
    /// folder.
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

pub fn list(args: CrawlersArgs) -> Result<Exit, Error> {
    let code = app::list(
        args.crawlers_dir.as_deref(),
        args.cache_dir.as_deref(),
        &mut std::io::stdout().lock(),
    )?;
    Ok(exit_of(code))
}

fn exit_of(code: u8) -> Exit {
    match code {
        app::EXIT_OK => Exit::Ok,
        app::EXIT_FAILURES => Exit::Failures,
        app::EXIT_NO_DATA => Exit::Unavailable,
        _ => Exit::Output,
    }
}
