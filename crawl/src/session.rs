//! One case against one crawler: the site started, the crawler started fresh in a folder of its
//! own, watched until it ends, is stopped (its time is up, or it floods the site) and everything
//! it started is gone; then the log is scored.

use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use robotstxt_reference::Profile;
use robotstxt_suite::visible::Outside;
use serde::Serialize;

use crate::case::AccessCase;
use crate::command::CommandTemplate;
use crate::process::Crawler;
use crate::score::{has_control, score, AccessResult};
use crate::site::{LoggedRequest, Site};

/// How long a case may take and how much it may ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseBounds {
    /// The crawler's own timeout per request, handed to it as `{timeout}` (seconds).
    pub request_timeout: u32,
    /// The case's wall-clock limit: the crawler is stopped past it.
    pub case_limit: Duration,
    /// Requests the site answers before it counts as flooded.
    pub max_requests: usize,
}

impl Default for CaseBounds {
    fn default() -> CaseBounds {
        CaseBounds {
            request_timeout: 3,
            case_limit: Duration::from_secs(40),
            max_requests: 300,
        }
    }
}

/// The User-agent string every crawler is told to send, and its product token.
pub const AGENT: &str = "RobotsTxtTestBot/1.0";
pub const TOKEN: &str = "RobotsTxtTestBot";

/// Why a crawler was stopped, or how it ended badly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum CaseFault {
    /// Still running at the case's wall-clock limit.
    Timeout { seconds: u64 },
    /// Asked more than the site answers.
    Flood { requests: usize },
    /// Processes it started were still running after it ended.
    LeftBehind { processes: usize },
    /// Ended with a failure status before fetching the control.
    ExitedPartWay { status: String },
    /// Could not be started at all.
    NotStarted { error: String },
}

impl CaseFault {
    pub fn shown(&self) -> String {
        match self {
            CaseFault::Timeout { seconds } => format!("still running after {seconds} s: stopped"),
            CaseFault::Flood { requests } => {
                format!("flooded the site (more than {requests} requests): stopped")
            }
            CaseFault::LeftBehind { processes } => {
                format!("left {processes} process(es) running after it ended: killed")
            }
            CaseFault::ExitedPartWay { status } => {
                format!("exited ({status}) before fetching the control")
            }
            CaseFault::NotStarted { error } => format!("could not be started: {error}"),
        }
    }
}

/// What one crawler did on one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseRun {
    pub case_id: String,
    pub profile: String,
    pub seconds: f64,
    pub exit: Option<String>,
    pub faults: Vec<CaseFault>,
    /// Whether the control was fetched: the case has data.
    pub data: bool,
    pub log: Vec<LoggedRequest>,
    /// The end of what the crawler printed on stderr.
    pub stderr_tail: Outside,
    pub checks: Vec<AccessResult>,
}

/// Runs `case` with the crawler `template` starts, scored under `profile`.
pub fn run_case(
    case: &AccessCase,
    template: &CommandTemplate,
    profile: Profile,
    bounds: CaseBounds,
) -> CaseRun {
    let started = Instant::now();
    let mut faults = Vec::new();
    let mut exit = None;
    let workdir = tempfile::Builder::new()
        .prefix("robotstxt-crawl-")
        .tempdir();
    let (log, stderr_tail) = match (Site::start(case, TOKEN, bounds.max_requests), workdir) {
        (Ok(site), Ok(workdir)) => {
            robotstxt_runtime::signals::guard_temporary(workdir.path());
            let argv = template.argv(
                &site.seed_url(),
                AGENT,
                bounds.request_timeout,
                workdir.path(),
            );
            match Crawler::start(&argv, workdir.path()) {
                Ok(crawler) => {
                    exit = watch(crawler, &site, bounds, &mut faults);
                    park_if_interrupted();
                }
                Err(e) => faults.push(CaseFault::NotStarted {
                    error: e.to_string(),
                }),
            }
            let log = site.stop();
            let tail = stderr_tail(workdir.path());
            robotstxt_runtime::signals::release_temporary(workdir.path());
            (log, tail)
        }
        (Err(e), _) | (_, Err(e)) => {
            faults.push(CaseFault::NotStarted {
                error: format!("the site or its folder: {e}"),
            });
            (Vec::new(), Outside::default())
        }
    };
    let data = has_control(&log);
    if !data && !log.is_empty() {
        if let Some(status) = exit.as_ref().filter(|s| s.as_str() != "exit status: 0") {
            faults.push(CaseFault::ExitedPartWay {
                status: status.clone(),
            });
        }
    }
    // Children left behind after a clean crawl are a fault of the process, not of what it
    // fetched; a hang or a flood taints the fetches themselves.
    let checks = score(case, &log, profile, was_stopped(&faults));
    CaseRun {
        case_id: case.id.clone(),
        profile: profile.name().to_owned(),
        seconds: started.elapsed().as_secs_f64(),
        exit,
        faults,
        data,
        log,
        stderr_tail,
        checks,
    }
}

/// After an interrupt the handler stops every crawler and exits with its own code: a case whose
/// crawler it killed must not go on to be scored and printed as if the crawler had ended, so its
/// thread waits here for the exit. The stop begins (and no start passes the gate) before any
/// crawler is killed, so a crawler ended by it is always seen here.
fn park_if_interrupted() {
    if robotstxt_runtime::signals::start_gate().is_none() {
        loop {
            thread::park();
        }
    }
}

/// Whether the crawler was stopped for a hang or a flood, which taints what it fetched.
pub fn was_stopped(faults: &[CaseFault]) -> bool {
    faults
        .iter()
        .any(|f| matches!(f, CaseFault::Timeout { .. } | CaseFault::Flood { .. }))
}

impl CaseRun {
    /// The same fetches scored under another profile.
    pub fn rescored(&self, case: &AccessCase, profile: Profile) -> Vec<AccessResult> {
        score(case, &self.log, profile, was_stopped(&self.faults))
    }
}

/// Waits for the crawler to end, stopping it at the limit or on a flood; returns its exit
/// status, if it exited by itself.
fn watch(
    mut crawler: Crawler,
    site: &Site,
    bounds: CaseBounds,
    faults: &mut Vec<CaseFault>,
) -> Option<String> {
    let started = Instant::now();
    let status = loop {
        if let Some(status) = crawler.try_wait() {
            break Some(status.to_string());
        }
        if site.flooded() {
            faults.push(CaseFault::Flood {
                requests: bounds.max_requests,
            });
            break None;
        }
        if started.elapsed() >= bounds.case_limit {
            faults.push(CaseFault::Timeout {
                seconds: bounds.case_limit.as_secs(),
            });
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let left = crawler.stop();
    if status.is_some() && left > 0 {
        faults.push(CaseFault::LeftBehind { processes: left });
    }
    status
}

/// The last lines of the crawler's stderr, read from at most its last 64 KiB: a crawler may
/// write gigabytes there.
fn stderr_tail(workdir: &Path) -> Outside {
    use std::io::{Read, Seek, SeekFrom};
    const TAIL: u64 = 64 * 1024;
    let mut bytes = Vec::new();
    if let Ok(mut file) = std::fs::File::open(workdir.join("stderr.txt")) {
        let length = file.metadata().map_or(0, |m| m.len());
        let _ = file.seek(SeekFrom::Start(length.saturating_sub(TAIL)));
        let _ = file.take(TAIL).read_to_end(&mut bytes);
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(15)..].join("\n");
    Outside::new(robotstxt_suite::visible::cut_middle(&tail, 3000))
}
