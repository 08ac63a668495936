//! The expectation options of `run`: which file judges which adapter, loading and checking those
//! files before anything runs, and rewriting them after (`--update-expectations`).
//! The comparison itself is the library's `expectations::gate`.

use robotstxt_suite::visible::path_shown;
use std::path::{Path, PathBuf};

use robotstxt_runtime::atomic::write_atomic;
use robotstxt_suite::cases::Case;
use robotstxt_suite::expectations::{gate, ExpectationFile};
use robotstxt_suite::run::CheckResult;

use super::select::Opened;
use super::Error;

#[derive(Debug, Clone, clap::Args)]
pub struct GateArgs {
    /// Judge the run against this expectation file (the checks expected not to pass): exit 0 when
    /// every check comes out as listed, 1 on a regression. One adapter only.
    #[arg(long, value_name = "FILE")]
    pub expectations: Option<PathBuf>,
    /// Judge each adapter against `expectations.yaml` in its own folder (`expectations@VERSION.yaml`
    /// for another version its manifest lists; a missing file lists nothing: every non-pass is
    /// then a regression).
    #[arg(long, conflicts_with = "expectations")]
    pub expectations_from_adapters: bool,
    /// Fail (exit 1) on an unexpected pass too: a listed check that now passes.
    #[arg(long)]
    pub strict: bool,
    /// Write the expectation file from this run instead of judging it, keeping the reasons and
    /// issues of checks already listed. Without FILE: the --expectations file, or with
    /// --expectations-from-adapters every adapter's own file.
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    pub update_expectations: Option<Option<PathBuf>>,
}

/// What happens to one engine's run.
#[derive(Debug, Clone, Default)]
pub struct GatePlan {
    /// The file the run is judged against, loaded and checked before the run.
    pub judge: Option<ExpectationFile>,
    /// The file to rewrite after the run.
    pub update: Option<PathBuf>,
}

impl GateArgs {
    pub fn active(&self) -> bool {
        self.expectations.is_some()
            || self.expectations_from_adapters
            || self.update_expectations.is_some()
    }

    /// Loads and checks every file before anything runs, so a bad file costs no adapter time.
    /// `engines` pairs each engine with its adapter folder.
    pub fn plan(&self, engines: &[Opened], cases: &[Case]) -> Result<Vec<GatePlan>, Error> {
        if !self.active() {
            return Ok(vec![GatePlan::default(); engines.len()]);
        }
        if !self.expectations_from_adapters && engines.len() != 1 {
            return Err(Error::usage(format!(
                "an expectation file is for one adapter, and {} are being run; \
                 use --expectations-from-adapters to judge each against its own file",
                engines.len()
            )));
        }
        let update = self.update_expectations.as_ref();
        if let (Some(Some(file)), true) = (update, engines.len() > 1) {
            return Err(Error::usage(format!(
                "--update-expectations {}: one file cannot hold {} adapters' expectations; \
                 give no FILE with --expectations-from-adapters to write each adapter's own",
                path_shown(file),
                engines.len()
            )));
        }
        let mut plans = Vec::new();
        for Opened {
            engine,
            expectations: own_file,
            ..
        } in engines
        {
            let name = &engine.handshake().name;
            let own = || {
                own_file.clone().ok_or_else(|| {
                    Error::usage(format!("--expectations-from-adapters: `{name}` has no adapter folder (give its adapter.yaml to --adapter-cmd, or use --expectations FILE)"))
                })
            };
            let judged = match (&self.expectations, self.expectations_from_adapters) {
                (Some(file), _) => Some(file.clone()),
                (None, true) => Some(own()?),
                (None, false) => None,
            };
            let target = match update {
                Some(Some(file)) => Some(file.clone()),
                Some(None) => Some(judged.clone().ok_or_else(|| Error::usage(
                    "--update-expectations needs a FILE, or --expectations FILE, or --expectations-from-adapters",
                ))?),
                None => None,
            };
            let judge = match (&target, judged) {
                // Updating: the old file only lends its reasons; stale entries are fine.
                (Some(target), judged) => {
                    let previous = [Some(target.clone()), judged]
                        .into_iter()
                        .flatten()
                        .find(|f| f.is_file());
                    previous.map(|f| ExpectationFile::load(&f)).transpose()?
                }
                // An adapter that could not start gave no name to hold the file against: it fails
                // the run as unavailable (exit 3), with its reason, before any file matters.
                (None, Some(_)) if engine.unavailable().is_some() => None,
                (None, Some(file)) => {
                    Some(load_checked(&file, name.raw(), cases, own_file.is_some())?)
                }
                (None, None) => None,
            };
            plans.push(GatePlan {
                judge,
                update: target,
            });
        }
        Ok(plans)
    }
}

/// Loads a file to judge by and checks it against the adapter and the corpus. A missing file in
/// an adapter's folder lists nothing.
fn load_checked(
    file: &Path,
    adapter: &str,
    cases: &[Case],
    in_adapter_folder: bool,
) -> Result<ExpectationFile, Error> {
    if in_adapter_folder && !file.exists() {
        eprintln!(
            "note: {} does not exist: every non-pass of {adapter} counts as a regression",
            path_shown(file)
        );
        let mut empty = ExpectationFile::empty(adapter);
        empty.file = file.to_owned();
        return Ok(empty);
    }
    let expectations = ExpectationFile::load(file)?;
    expectations.check_adapter(adapter)?;
    expectations
        .resolve(cases)
        .map_err(|errors| Error::Problems {
            heading: format!("{} problem(s) in {}", errors.len(), path_shown(file)),
            problems: errors,
        })?;
    Ok(expectations)
}

/// Rewrites `target` from a run, keeping what `previous` says about checks still listed.
/// Returns the new file, which the run is then judged against (so it is as expected).
pub fn update(
    target: &Path,
    previous: Option<&ExpectationFile>,
    adapter: &str,
    cases: &[Case],
    results: &[CheckResult],
    slow: &Slow<'_>,
) -> Result<ExpectationFile, Error> {
    let mut next = gate::updated(adapter, previous, cases, results);
    next.file = target.to_owned();
    next.written_by = Some(portable(&super::invocation()));
    let text = with_slow_checks(&next.to_yaml(), &slow.comment(cases, results));
    write_atomic(target, text.as_bytes())?;
    let changes =
        gate::Changes::between(previous.unwrap_or(&ExpectationFile::empty(adapter)), &next);
    eprintln!(
        "wrote {}: {} checks listed; {}",
        path_shown(target),
        next.entries.len(),
        changes.describe()
    );
    Ok(next)
}

/// The checks of an update that timed out and answered when asked again alone: how long each
/// took, and the deadline the run had.
#[derive(Debug, Default)]
pub struct Slow<'a> {
    pub answered: &'a [usize],
    pub took: Option<&'a std::collections::BTreeMap<usize, std::time::Duration>>,
    pub timeout: Option<f64>,
}

impl Slow<'_> {
    /// The comment lines an expectation file carries about them, or nothing.
    fn comment(&self, cases: &[Case], results: &[CheckResult]) -> String {
        if self.answered.is_empty() {
            return String::new();
        }
        let deadline = self
            .timeout
            .map_or_else(String::new, |t| format!(" at {t} s"));
        let mut out =
            format!(
            "# Slow: {} {} timed out{deadline} and answered when asked again alone (listed by\n\
             # its answer, not as a timeout); a gate asks them again alone too:\n",
            self.answered.len(),
            if self.answered.len() == 1 { "check" } else { "checks" },
        );
        let mut longest: f64 = 0.0;
        // By case, its checks together: a case is asked again whole, in one time.
        let mut by_case: Vec<(usize, Vec<String>, Option<f64>)> = Vec::new();
        for &i in self.answered {
            let r = &results[i];
            let took = self.took.and_then(|t| t.get(&i)).map(|d| d.as_secs_f64());
            longest = longest.max(took.unwrap_or(0.0));
            match by_case.last_mut() {
                Some((case, checks, _)) if *case == r.case => checks.push(r.check.to_string()),
                _ => by_case.push((r.case, vec![r.check.to_string()], took)),
            }
        }
        for (case, checks, took) in by_case {
            let took = took.map_or_else(String::new, |t| format!(": {t:.1} s alone"));
            out.push_str(&format!(
                "#   {}#{}{took}\n",
                cases[case].id,
                checks.join(",")
            ));
        }
        if self.timeout.is_some() && longest > 0.0 {
            out.push_str(&format!(
                "#   (--timeout {} lets every one answer the first time)\n",
                robotstxt_test::output::enough_timeout(longest)
            ));
        }
        out
    }
}

/// `yaml` with `comment` before its `adapter:` line (the end of its header).
fn with_slow_checks(yaml: &str, comment: &str) -> String {
    match yaml.find("\nadapter:") {
        Some(at) if !comment.is_empty() => {
            format!("{}\n{comment}{}", &yaml[..at], &yaml[at + 1..])
        }
        _ => yaml.to_owned(),
    }
}

/// A command line as a committed file may carry it: the current folder's path cut from absolute
/// paths under it, and the home folder written `~`, so that no file names the machine it was
/// written on.
pub fn portable(command: &str) -> String {
    let mut text = command.to_owned();
    if let Ok(cwd) = std::env::current_dir() {
        let cwd = cwd.display().to_string();
        if cwd.len() > 1 {
            text = text.replace(&format!("{cwd}/"), "").replace(&cwd, ".");
        }
    }
    if let Some(home) = std::env::var_os("HOME").map(|h| h.to_string_lossy().into_owned()) {
        if home.len() > 1 {
            text = text.replace(&home, "~");
        }
    }
    text
}
