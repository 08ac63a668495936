//! Choosing engines from the command line: `--adapter NAME|all`, `--adapter-cmd CMD`.
//! Shared by every subcommand that drives adapters.

use robotstxt_suite::visible::path_shown;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_runtime::adapter::{self, Adapter, Limits};
use robotstxt_runtime::cache::{self, Places};
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::suite;
use robotstxt_suite::{embedded, visible};
use robotstxt_test::limits::{self, SecondsError};
use robotstxt_test::report::About;

use super::Error;

/// A started engine, with what its adapter folder says of it (nothing for a bare `--adapter-cmd`
/// command).
pub struct Opened {
    pub engine: Box<dyn Lifecycle>,
    /// The adapter's expectation file.
    pub expectations: Option<PathBuf>,
    /// How the adapter calls its parser, from its manifest.
    pub about: Option<About>,
    /// What to try when it breaks down: `try: robotstxt-test adapters check ...` with the name
    /// or command it was chosen by (none for the reference).
    pub check_hint: Option<String>,
}

impl Opened {
    /// An engine with no adapter folder.
    pub fn bare(engine: Box<dyn Lifecycle>) -> Opened {
        Opened {
            engine,
            expectations: None,
            about: None,
            check_hint: None,
        }
    }
}

/// `try: robotstxt-test adapters check --adapter NAME` (or `--adapter-cmd CMD`, quoted for a
/// shell): the step by step look at an adapter that broke down.
pub fn check_hint(flag: &str, value: &str) -> String {
    let quoted = shlex::try_quote(value).unwrap_or_else(|_| value.into());
    format!("try: robotstxt-test adapters check {flag} {quoted}")
}

/// Which adapters to drive, and how.
#[derive(Debug, Clone, clap::Args)]
pub struct AdapterArgs {
    /// An adapter under the adapters folder, by name; `all` for every available one. Repeatable.
    #[arg(long = "adapter", value_name = "NAME")]
    pub adapters: Vec<String>,
    /// An adapter outside this repository: a command (split like a shell would, but run without
    /// one), or the path of an `adapter.yaml`. Repeatable.
    #[arg(long = "adapter-cmd", value_name = "CMD")]
    pub adapter_cmds: Vec<String>,
    /// A folder of adapters (one sub-folder with an `adapter.yaml` each). Default: the
    /// checkout's `adapters/` inside a checkout of this repository, else the adapters this binary
    /// carries.
    #[arg(long = "adapters", visible_alias = "adapters-dir", value_name = "DIR")]
    pub adapters_dir: Option<PathBuf>,
    /// Where adapters install (venvs, npm prefixes, cargo builds). Default: `target/` inside a
    /// checkout, else `$XDG_CACHE_HOME/robotstxt-test` (the platform's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Seconds an adapter may take to answer one message.
    #[arg(long, value_name = "SECS", default_value_t = 5.0, value_parser = seconds_in_range)]
    pub timeout: f64,
}

impl AdapterArgs {
    pub fn any(&self) -> bool {
        !self.adapters.is_empty() || !self.adapter_cmds.is_empty()
    }

    pub fn limits(&self) -> Result<Limits, SecondsError> {
        Ok(Limits {
            timeout: limits::seconds("--timeout", self.timeout)?,
            ..Limits::default()
        })
    }

    /// Whether the adapters are the ones this binary carries, written into the cache folder (no
    /// `--adapters`, and not inside a checkout).
    pub fn uses_carried_suite(&self) -> bool {
        self.adapters_dir.is_none() && suite::current_checkout().is_none()
    }

    /// The adapters folder and where its adapters install: `--adapters`, else the checkout's,
    /// else the embedded ones written into the cache folder. Says which on stderr.
    pub fn source(&self) -> Result<AdapterSource, Error> {
        let checkout = suite::current_checkout();
        let source = match (&self.adapters_dir, &checkout) {
            (Some(dir), _) => {
                let has_manifest = std::fs::read_dir(dir)
                    .map_err(Error::unreadable(dir))?
                    .filter_map(Result::ok)
                    .any(|entry| entry.path().join("adapter.yaml").is_file());
                if !has_manifest {
                    return Err(Error::usage(format!(
                        "{}: no adapters here (no <name>/adapter.yaml)",
                        path_shown(dir)
                    )));
                }
                AdapterSource {
                    places: self.places_for(&workspace_of(dir))?,
                    dir: dir.clone(),
                    shown: dir.display().to_string(),
                }
            }
            (None, Some(root)) => AdapterSource {
                places: self.places_for(root)?,
                dir: root.join("adapters"),
                shown: root.join("adapters").display().to_string(),
            },
            (None, None) => {
                let cache = cache::root(self.cache_dir.as_deref())?;
                let materialised = suite::materialise(&cache)?;
                AdapterSource {
                    places: Places::in_cache(&cache, &materialised, true),
                    dir: materialised.join("adapters"),
                    shown: format!(
                        "{}, in {}",
                        embedded::embedded_description(),
                        path_shown(&cache)
                    ),
                }
            }
        };
        // Said once, however many times a command looks the adapters up.
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| eprintln!("adapters: {}", source.shown));
        Ok(source)
    }

    /// Where the adapters of `workspace` install: `--cache-dir`, else the checkout's `target/`
    /// inside a checkout, else the cache folder.
    fn places_for(&self, workspace: &Path) -> Result<Places, Error> {
        match (&self.cache_dir, suite::current_checkout()) {
            (None, Some(_)) => Ok(Places::checkout(workspace)),
            (explicit, _) => Ok(Places::in_cache(
                &cache::root(explicit.as_deref())?,
                workspace,
                false,
            )),
        }
    }

    /// The adapters named on the command line, by manifest. `all` expands to every adapter; with
    /// `only_available`, to every one this machine can run (the others are named on stderr).
    pub fn manifests(&self, only_available: bool) -> Result<Vec<Adapter>, Error> {
        let mut chosen = Vec::new();
        if !self.adapters.is_empty() {
            let source = self.source()?;
            for name in &self.adapters {
                if name == "all" {
                    let all = adapter::manifest::discover_at(&source.dir, &source.places)?;
                    let availabilities = adapter::availabilities(&all);
                    for (adapter, availability) in all.into_iter().zip(availabilities) {
                        match availability {
                            adapter::Availability::Unavailable(why) if only_available => {
                                eprintln!(
                                    "note: skipping {}: {}",
                                    visible::shown(adapter.name()),
                                    visible::shown(&why.to_string())
                                );
                            }
                            _ => chosen.push(adapter),
                        }
                    }
                } else {
                    chosen.push(adapter::load_at(&source.dir, name, &source.places)?);
                }
            }
        }
        for cmd in &self.adapter_cmds {
            let path = Path::new(cmd);
            if path.file_name().is_some_and(|n| n == "adapter.yaml") && path.is_file() {
                let dir = path.parent().unwrap_or(Path::new("."));
                let workspace = suite::current_checkout().unwrap_or_else(|| workspace_of(dir));
                let places = self.places_for(&workspace)?;
                chosen.push(Adapter::load_at(dir, &places)?);
            }
        }
        chosen.dedup_by(|a, b| a.name() == b.name());
        Ok(chosen)
    }

    /// The names of the adapters ready to start without an install, and of those this machine
    /// could run after one.
    pub fn installed(&self) -> Result<(Vec<String>, Vec<String>), Error> {
        let source = self.source()?;
        let all = adapter::manifest::discover_at(&source.dir, &source.places)?;
        let availabilities = adapter::availabilities(&all);
        let (mut ready, mut missing) = (Vec::new(), Vec::new());
        for (adapter, availability) in all.iter().zip(availabilities) {
            match availability {
                adapter::Availability::Ready => ready.push(adapter.name().to_owned()),
                adapter::Availability::NeedsSetup => missing.push(adapter.name().to_owned()),
                adapter::Availability::Unavailable(_) => {}
            }
        }
        Ok((ready, missing))
    }

    /// Starts every chosen engine (installing what is missing), all at once, and gives them back
    /// in command-line order. With
    /// `only_available`, `all` leaves out the adapters this machine cannot run.
    pub fn open(&self, only_available: bool) -> Result<Vec<Box<dyn Lifecycle>>, Error> {
        let engines = self.open_with_dirs(only_available)?;
        Ok(engines.into_iter().map(|opened| opened.engine).collect())
    }

    /// As [`AdapterArgs::open`], with each engine's expectation file and manifest's description.
    pub fn open_with_dirs(&self, only_available: bool) -> Result<Vec<Opened>, Error> {
        let limits = self.limits()?;
        let manifests = self.manifests(only_available)?;
        let bar = ProgressBar::new((manifests.len() + self.adapter_cmds.len()) as u64).with_style(
            ProgressStyle::with_template("{spinner} starting adapters {pos}/{len} {wide_msg}")
                .expect("valid template"),
        );
        let started = adapter::open_all(
            &manifests,
            limits,
            &|line| super::progress_line(&bar, line),
            &|name| {
                bar.set_message(name.to_owned());
                bar.inc(1);
            },
        );
        let mut engines: Vec<Opened> = started
            .into_iter()
            .zip(&manifests)
            .map(|(engine, adapter)| Opened {
                engine,
                expectations: Some(adapter.expectations.clone()),
                about: Some(About {
                    input: adapter.manifest.input.clone(),
                    note: adapter.manifest.note.clone(),
                    agent: adapter.manifest.agent,
                }),
                // Chosen by its adapter.yaml (`--adapter-cmd DIR/adapter.yaml`), or by name.
                check_hint: Some(
                    match (self.adapter_cmds.iter())
                        .find(|c| Path::new(c).parent() == Some(adapter.dir.as_path()))
                    {
                        Some(cmd) => check_hint("--adapter-cmd", cmd),
                        None => check_hint("--adapter", adapter.name()),
                    },
                ),
            })
            .collect();
        for cmd in &self.adapter_cmds {
            if cmd.ends_with("adapter.yaml") && Path::new(cmd).is_file() {
                continue;
            }
            let mut opened = Opened::bare(adapter::open_command(split_command(cmd)?, limits));
            opened.check_hint = Some(check_hint("--adapter-cmd", cmd));
            engines.push(opened);
            bar.inc(1);
        }
        bar.finish_and_clear();
        Ok(engines)
    }
}

/// An `--adapter-cmd` command as its arguments, split as a shell would split them.
pub fn split_command(cmd: &str) -> Result<Vec<String>, Error> {
    shlex::split(cmd)
        .filter(|argv| !argv.is_empty())
        .ok_or_else(|| {
            Error::usage(format!(
                "--adapter-cmd {cmd:?}: cannot split into arguments"
            ))
        })
}

/// A value of a seconds flag that is not a number of seconds it takes.
#[derive(Debug, thiserror::Error)]
pub enum BadSeconds {
    #[error("{text:?} is not a number of seconds: {source}")]
    NotANumber {
        text: String,
        source: std::num::ParseFloatError,
    },
    #[error(transparent)]
    OutOfRange(#[from] SecondsError),
}

/// A number of seconds from the command line, checked against [`limits::seconds`] while the
/// arguments are parsed, so that an out-of-range value is a usage error whatever else is given.
pub fn seconds_in_range(text: &str) -> Result<f64, BadSeconds> {
    let value: f64 = text.parse().map_err(|source| BadSeconds::NotANumber {
        text: text.to_owned(),
        source,
    })?;
    limits::seconds("the value", value)?;
    Ok(value)
}

/// An adapters folder, where its adapters install, and how to name it.
pub struct AdapterSource {
    pub dir: PathBuf,
    pub places: Places,
    pub shown: String,
}

/// The workspace root for an adapters folder: the folder's parent.
pub fn workspace_of(adapters_dir: &Path) -> PathBuf {
    let absolute = std::fs::canonicalize(adapters_dir).unwrap_or_else(|_| adapters_dir.to_owned());
    absolute
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_owned)
}
