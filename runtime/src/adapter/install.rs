//! Whether an adapter can run here, and installing what it needs into its cache (see
//! [`crate::cache`] for where that is).
//!
//! System programs (`requires`, `probe`) are only checked, never installed: the manifest's
//! `install_hint` says what a person runs. Setup steps (venvs, npm prefixes, cargo, Go and Maven
//! builds) are run here, idempotently: a step whose marker in the cache matches is not run again.
//!
//! One adapter installs in one process at a time: [`install`] holds the adapter's
//! [`InstallLock`], so a `report` that needs an adapter while `adapters install` sets it up waits
//! for it (saying so) and then finds the steps done. An install cut short (killed, power lost)
//! leaves `.installing` in the cache folder; the next install says so and runs the unfinished
//! steps again over what is there, removing nothing else.

use robotstxt_suite::visible::path_shown;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;

use super::manifest::{Adapter, SetupStep};
use crate::cache::{InstallLock, LockError};
use crate::{child, signals};
use robotstxt_suite::input;
use robotstxt_suite::limits::MANIFEST;

/// Present in an adapter's cache folder while its steps run.
const INSTALLING: &str = ".installing";

/// Whether an adapter can be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    Ready,
    /// Its setup steps have not all run yet; `install` will do it.
    NeedsSetup,
    /// A system program or package is missing; the reason says what to install.
    Unavailable(String),
}

/// Checks `requires`, `probe` and the setup markers, in that order.
pub fn availability(adapter: &Adapter) -> Availability {
    if let Some(reason) = &adapter.broken {
        return Availability::Unavailable(reason.clone());
    }
    if adapter.in_process {
        return Availability::Ready;
    }
    let hint = adapter
        .manifest
        .install_hint
        .as_deref()
        .map_or(String::new(), |h| format!("; install it with: {h}"));
    for program in &adapter.manifest.requires {
        if find_program(program).is_none() {
            return Availability::Unavailable(format!("`{program}` is not on PATH{hint}"));
        }
    }
    if let Some(probe) = &adapter.manifest.probe {
        if !probe_passes(probe) {
            return Availability::Unavailable(format!(
                "the probe `{}` failed{hint}",
                probe.join(" ")
            ));
        }
    }
    if !interrupted(adapter) && adapter.manifest.setup.iter().all(|s| step_done(adapter, s)) {
        Availability::Ready
    } else {
        Availability::NeedsSetup
    }
}

/// Runs a probe once per process: it starts an interpreter, and its answer does not change while
/// a command runs (choosing adapters, then starting them, both ask).
fn probe_passes(probe: &[String]) -> bool {
    static PROBED: Mutex<BTreeMap<Vec<String>, bool>> = Mutex::new(BTreeMap::new());
    if let Some(known) = PROBED.lock().ok().and_then(|p| p.get(probe).copied()) {
        return known;
    }
    let passes = probe.split_first().is_some_and(|(program, args)| {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        child::spawn(command).is_ok_and(|(mut probe, running)| {
            let status = probe.wait();
            signals::release(running);
            status.is_ok_and(|s| s.success())
        })
    });
    if let Ok(mut probed) = PROBED.lock() {
        probed.insert(probe.to_vec(), passes);
    }
    passes
}

/// Why an adapter could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// A system program or package is missing; the reason says what to install.
    #[error("{0}")]
    Unavailable(String),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("cannot start {command}: {source}")]
    Start { command: String, source: io::Error },
    /// A setup step's command failed; `tail` is the end of what it printed.
    #[error("{command} failed ({status}):\n{tail}")]
    Failed {
        command: String,
        status: ExitStatus,
        tail: String,
    },
}

/// An [`InstallError::Io`] at `path`, for `map_err`.
fn io_at(path: &Path) -> impl FnOnce(io::Error) -> InstallError {
    let path = path.to_owned();
    move |source| InstallError::Io { path, source }
}

/// Runs every setup step not yet done (all of them with `force`), reporting each by `log`, under
/// the adapter's install lock. Another process installing the same adapter is waited for, with a
/// line on stderr.
pub fn install(
    adapter: &Adapter,
    force: bool,
    log: &mut dyn FnMut(&str),
) -> Result<(), InstallError> {
    if let Availability::Unavailable(reason) = availability(adapter) {
        return Err(InstallError::Unavailable(reason));
    }
    if adapter.in_process || adapter.manifest.setup.is_empty() {
        return Ok(());
    }
    let lock = InstallLock::acquire(&adapter.install_lock(), &mut |line| {
        eprintln!("{}: {line}", adapter.name());
    })?;
    std::fs::create_dir_all(&adapter.cache).map_err(io_at(&adapter.cache))?;
    let installing = adapter.cache.join(INSTALLING);
    if installing.exists() {
        // On stderr rather than through `log`, which a progress bar may not show.
        eprintln!(
            "{}: {} was left half-written by an interrupted install; running its steps again",
            adapter.name(),
            path_shown(&adapter.cache)
        );
    }
    std::fs::write(&installing, b"").map_err(io_at(&adapter.cache))?;
    // A line as it starts and one as it ends, with the time it took: a toolchain's install can
    // take minutes, and a user must see which one is under way.
    let steps = (adapter.manifest.setup.iter())
        .filter(|step| force || !step_done(adapter, step))
        .count();
    if steps == 0 {
        return std::fs::remove_file(&installing).map_err(io_at(&adapter.cache));
    }
    log(&format!(
        "{}: installing ({steps} setup {})",
        adapter.name(),
        if steps == 1 { "step" } else { "steps" }
    ));
    let started = std::time::Instant::now();
    let result = run_steps(adapter, force, &lock, log);
    let elapsed = started.elapsed().as_secs_f64();
    match &result {
        Ok(()) => log(&format!("{}: installed in {elapsed:.1} s", adapter.name())),
        Err(_) => log(&format!(
            "{}: install failed after {elapsed:.1} s",
            adapter.name()
        )),
    }
    result?;
    std::fs::remove_file(&installing).map_err(io_at(&adapter.cache))
}

/// Whether an install into `adapter`'s cache was cut short and not run again since.
pub fn interrupted(adapter: &Adapter) -> bool {
    adapter.cache.join(INSTALLING).exists()
}

fn run_steps(
    adapter: &Adapter,
    force: bool,
    lock: &InstallLock,
    log: &mut dyn FnMut(&str),
) -> Result<(), InstallError> {
    for step in &adapter.manifest.setup {
        if !force && step_done(adapter, step) {
            continue;
        }
        log(&format!("{}:   {}", adapter.name(), describe(step)));
        match step {
            SetupStep::PythonVenv { packages } => {
                let venv = adapter.cache.join("venv");
                let mut make = Command::new("python3");
                make.arg("-m").arg("venv");
                if force {
                    // Forced: a fresh venv, so that a damaged package is installed again (pip
                    // leaves one that is "already satisfied" as it is).
                    make.arg("--clear");
                }
                run(lock, make.arg(&venv))?;
                if !packages.is_empty() {
                    run(
                        lock,
                        Command::new(venv.join("bin/pip"))
                            .args(["install", "--disable-pip-version-check", "--no-input", "-q"])
                            .args(packages),
                    )?;
                }
            }
            SetupStep::Npm { packages } => {
                let modules = adapter.cache.join("node/node_modules");
                if force && modules.exists() {
                    // Forced: installed afresh, for the same reason as a venv.
                    std::fs::remove_dir_all(&modules).map_err(io_at(&modules))?;
                }
                run(
                    lock,
                    Command::new("npm")
                        .arg("install")
                        .arg("--prefix")
                        .arg(adapter.cache.join("node"))
                        .args(["--no-audit", "--no-fund", "--loglevel=error"])
                        .args(packages),
                )?;
            }
            SetupStep::CargoBuild { package } => {
                let binary = adapter.target.join("release").join(package);
                if force && binary.exists() {
                    // Cargo trusts a binary newer than its sources, damaged or not; without it,
                    // cargo links it again.
                    std::fs::remove_file(&binary).map_err(io_at(&binary))?;
                }
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
                run(
                    lock,
                    Command::new(cargo)
                        .current_dir(&adapter.workspace)
                        .args(["build", "--release", "--quiet", "-p", package])
                        .env("CARGO_TARGET_DIR", &adapter.target),
                )?;
            }
            SetupStep::GoBuild { output } => {
                let gopath = adapter.cache.join("go");
                // go.sum is committed: -mod=readonly refuses to build anything it does not pin.
                // GOTOOLCHAIN=local: never fetch another Go toolchain on go.mod's say.
                run(
                    lock,
                    Command::new("go")
                        .current_dir(&adapter.dir)
                        .args([
                            "build",
                            "-mod=readonly",
                            "-modcacherw",
                            "-buildvcs=false",
                            "-o",
                        ])
                        .arg(adapter.cache.join(output))
                        .arg(".")
                        .env("GOPATH", &gopath)
                        .env("GOMODCACHE", gopath.join("pkg/mod"))
                        .env("GOCACHE", gopath.join("cache"))
                        .env("GOTOOLCHAIN", "local"),
                )?;
            }
            SetupStep::Maven { source } => {
                let maven = adapter.cache.join("maven");
                let lib = maven.join("lib");
                // A fresh lib/ and classes/, so a changed pin leaves no old jar on the classpath.
                for dir in [&lib, &maven.join("classes")] {
                    if dir.exists() {
                        std::fs::remove_dir_all(dir).map_err(io_at(dir))?;
                    }
                }
                run(
                    lock,
                    Command::new("mvn")
                        .args(["--batch-mode", "--quiet", "--file"])
                        .arg(adapter.dir.join("pom.xml"))
                        .arg(format!(
                            "-Dmaven.repo.local={}",
                            maven.join("repository").display()
                        ))
                        .arg(format!("-DoutputDirectory={}", lib.display()))
                        .arg("dependency:copy-dependencies"),
                )?;
                run(
                    lock,
                    Command::new("javac")
                        .arg("-d")
                        .arg(maven.join("classes"))
                        .arg("-cp")
                        .arg(lib.join("*"))
                        .arg(adapter.dir.join(source)),
                )?;
            }
        }
        if let Some((marker, content)) = marker(adapter, step) {
            let folder = marker.parent().unwrap_or(&adapter.cache);
            std::fs::create_dir_all(folder).map_err(io_at(folder))?;
            std::fs::write(&marker, content).map_err(io_at(&marker))?;
        }
    }
    Ok(())
}

/// A one-line description of a step, for progress output.
pub fn describe(step: &SetupStep) -> String {
    match step {
        SetupStep::PythonVenv { packages } => format!("python venv with {}", packages.join(" ")),
        SetupStep::Npm { packages } => format!("npm install {}", packages.join(" ")),
        SetupStep::CargoBuild { package } => format!("cargo build --release -p {package}"),
        SetupStep::GoBuild { output } => format!("go build -o {output}"),
        SetupStep::Maven { source } => format!("maven dependencies and javac {source}"),
    }
}

fn step_done(adapter: &Adapter, step: &SetupStep) -> bool {
    match (step, marker(adapter, step)) {
        (SetupStep::CargoBuild { package }, _) => {
            adapter.target.join("release").join(package).is_file()
        }
        (_, Some((marker, content))) => {
            std::fs::read_to_string(marker).is_ok_and(|found| found == content)
        }
        (_, None) => true,
    }
}

/// The marker file a finished step leaves, and what it holds: the exact packages installed, or
/// for a build the files it was built from.
fn marker(adapter: &Adapter, step: &SetupStep) -> Option<(PathBuf, String)> {
    match step {
        SetupStep::PythonVenv { packages } => Some((
            adapter.cache.join("venv/.robotstxt-test-installed"),
            packages.join("\n"),
        )),
        SetupStep::Npm { packages } => Some((
            adapter.cache.join("node/.robotstxt-test-installed"),
            packages.join("\n"),
        )),
        SetupStep::CargoBuild { .. } => None,
        SetupStep::GoBuild { output } => Some((
            adapter.cache.join("go/.robotstxt-test-installed"),
            format!(
                "{output}\n{}",
                sources(&adapter.dir, |name| {
                    name.ends_with(".go") || name == "go.mod" || name == "go.sum"
                })
            ),
        )),
        SetupStep::Maven { source } => Some((
            adapter.cache.join("maven/.robotstxt-test-installed"),
            sources(&adapter.dir, |name| name == source || name == "pom.xml"),
        )),
    }
}

/// The names and contents of the files in `dir` that `wanted` picks, in name order: a build
/// whose sources or pins change is not done any more. An unreadable file reads as empty.
fn sources(dir: &Path, wanted: impl Fn(&str) -> bool) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| wanted(name))
        .collect();
    names.sort();
    names
        .iter()
        .map(|name| {
            // Through the one reader: an adapter folder may come from anyone (a FIFO named
            // `requirements.txt` is refused, not waited on).
            let bytes = input::read_bytes(&dir.join(name), MANIFEST.max_bytes).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            format!("== {name}\n{text}")
        })
        .collect()
}

/// Runs one setup step to its end, through [`child::spawn_holding`]: under a supervisor that
/// ends the step with everything it started (an interrupt asks it to; the harness's death, even
/// by SIGKILL, too), and keeps the install lock until that tree is gone. On failure, the error
/// holds the tail of what it printed.
fn run(lock: &InstallLock, command: &mut Command) -> Result<(), InstallError> {
    let shown = format!("{command:?}");
    // Taken whole (the callers build it in place), to be handed to the starter thread.
    let mut step = std::mem::replace(command, Command::new(""));
    step.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start_error = |source| InstallError::Start {
        command: shown.clone(),
        source,
    };
    let (child, running) = child::spawn_holding(step, &[lock.as_fd()]).map_err(start_error)?;
    let output = child.wait_with_output();
    signals::release(running);
    let output = output.map_err(start_error)?;
    if output.status.success() {
        return Ok(());
    }
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    let tail: Vec<&str> = text.lines().rev().take(15).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    Err(InstallError::Failed {
        command: shown,
        status: output.status,
        tail: tail.join("\n"),
    })
}

/// The program's path, looked up on `PATH` the way a shell would (a name with a `/` is taken as
/// a path); only an executable file counts.
pub fn find_program(program: &str) -> Option<PathBuf> {
    which::which(program).ok()
}
