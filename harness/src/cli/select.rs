//! Choosing engines from the command line: `--adapter NAME|all`, `--adapter-cmd CMD`.
//! Shared by every subcommand that drives adapters.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_test::adapter::{self, Adapter, Limits};
use robotstxt_test::engine::Engine;

/// A started engine and its adapter's expectation file, if it has an adapter folder.
pub type Opened = (Box<dyn Engine>, Option<PathBuf>);

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
    /// The adapters folder.
    #[arg(long, value_name = "DIR", default_value = "adapters")]
    pub adapters_dir: PathBuf,
    /// Seconds an adapter may take to answer one message.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    pub timeout: f64,
}

impl AdapterArgs {
    pub fn any(&self) -> bool {
        !self.adapters.is_empty() || !self.adapter_cmds.is_empty()
    }

    pub fn limits(&self) -> Result<Limits, String> {
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(format!(
                "--timeout {} must be a positive number",
                self.timeout
            ));
        }
        Ok(Limits {
            timeout: Duration::from_secs_f64(self.timeout),
            ..Limits::default()
        })
    }

    /// The workspace the adapters folder belongs to: its parent.
    pub fn workspace(&self) -> PathBuf {
        workspace_of(&self.adapters_dir)
    }

    /// The adapters named on the command line, by manifest. `all` expands to every adapter; with
    /// `only_available`, to every one this machine can run (the others are named on stderr).
    pub fn manifests(&self, only_available: bool) -> Result<Vec<Adapter>, String> {
        let workspace = self.workspace();
        let mut chosen = Vec::new();
        for name in &self.adapters {
            if name == "all" {
                let all =
                    adapter::discover(&self.adapters_dir, &workspace).map_err(|e| e.to_string())?;
                for adapter in all {
                    match adapter::availability(&adapter) {
                        adapter::Availability::Unavailable(why) if only_available => {
                            eprintln!("note: skipping {}: {why}", adapter.name());
                        }
                        _ => chosen.push(adapter),
                    }
                }
            } else {
                chosen.push(adapter::load(&self.adapters_dir, name, &workspace)?);
            }
        }
        for cmd in &self.adapter_cmds {
            let path = Path::new(cmd);
            if path.file_name().is_some_and(|n| n == "adapter.yaml") && path.is_file() {
                let dir = path.parent().unwrap_or(Path::new("."));
                chosen.push(Adapter::load(dir, &workspace).map_err(|e| e.to_string())?);
            }
        }
        chosen.dedup_by(|a, b| a.name() == b.name());
        Ok(chosen)
    }

    /// Starts every chosen engine (installing what is missing), all at once, and gives them back
    /// in command-line order. With
    /// `only_available`, `all` leaves out the adapters this machine cannot run.
    pub fn open(&self, only_available: bool) -> Result<Vec<Box<dyn Engine>>, String> {
        let engines = self.open_with_dirs(only_available)?;
        Ok(engines.into_iter().map(|(engine, _)| engine).collect())
    }

    /// As [`AdapterArgs::open`], with each engine's own expectation file (`None` for a bare
    /// `--adapter-cmd` command).
    pub fn open_with_dirs(&self, only_available: bool) -> Result<Vec<Opened>, String> {
        let limits = self.limits()?;
        let manifests = self.manifests(only_available)?;
        let bar = ProgressBar::new((manifests.len() + self.adapter_cmds.len()) as u64).with_style(
            ProgressStyle::with_template("{spinner} starting adapters {pos}/{len} {wide_msg}")
                .expect("valid template"),
        );
        let started = adapter::open_all(&manifests, limits, &|line| bar.println(line), &|name| {
            bar.set_message(name.to_owned());
            bar.inc(1);
        });
        let mut engines: Vec<Opened> = started
            .into_iter()
            .zip(&manifests)
            .map(|(engine, adapter)| (engine, Some(adapter.expectations.clone())))
            .collect();
        for cmd in &self.adapter_cmds {
            if cmd.ends_with("adapter.yaml") && Path::new(cmd).is_file() {
                continue;
            }
            let argv = shlex::split(cmd)
                .filter(|argv| !argv.is_empty())
                .ok_or_else(|| format!("--adapter-cmd {cmd:?}: cannot split into arguments"))?;
            engines.push((adapter::open_command(argv, limits), None));
            bar.inc(1);
        }
        bar.finish_and_clear();
        Ok(engines)
    }
}

/// The workspace root for an adapters folder: the folder's parent.
pub fn workspace_of(adapters_dir: &Path) -> PathBuf {
    let absolute = std::fs::canonicalize(adapters_dir).unwrap_or_else(|_| adapters_dir.to_owned());
    absolute
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_owned)
}
