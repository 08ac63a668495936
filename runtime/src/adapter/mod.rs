//! Adapters: real parsers behind the JSON-lines protocol of `adapters/PROTOCOL.md`.
//!
//! [`manifest`] reads `adapter.yaml`; [`install`] checks what a machine has and fills the
//! adapter's cache; [`process`] drives the running process as an [`Engine`], through `live`
//! (spawning, asking against a deadline, killing), `pipes` (non-blocking lines) and `codec`
//! (the protocol's messages, as `robotstxt-protocol` types them); [`check`] holds a new adapter
//! to the protocol. The harness knows nothing of any one parser: everything parser-specific is in
//! the adapter's folder.

pub mod check;
mod codec;
mod departures;
pub mod holders;
pub mod install;
mod live;
pub mod manifest;
mod pipes;
pub mod process;
mod transcript;

use robotstxt_suite::visible::path_shown;
use std::path::{Path, PathBuf};

use robotstxt_suite::engine::{
    AgentForm, Engine, Failure, Fault, Handshake, Query, ReferenceEngine, Reply,
};
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::visible::Outside;

pub use codec::HandshakeError;
pub use install::{availability, Availability, InstallError};
pub use manifest::{discover, Adapter, Manifest};
pub use pipes::MAX_LINE;
pub use process::{AdapterProcess, Limits};
pub use transcript::{Direction, Transcript, TranscriptLine};

use crate::cache::Places;
use crate::lifecycle::Lifecycle;

/// Starts an adapter, installing its setup steps first when they are missing. When it cannot
/// run, the result is an engine that answers every batch as unavailable, with the reason, so that
/// a run reports its checks as skipped rather than failing. Every engine says which form of the
/// agent it hands its parser, as the manifest says.
pub fn open(adapter: &Adapter, limits: Limits, log: &mut dyn FnMut(&str)) -> Box<dyn Lifecycle> {
    let form = adapter.manifest.agent;
    let unavailable = |reason: String| -> Box<dyn Lifecycle> {
        Box::new(Unavailable::new(handshake_of(&adapter.manifest), reason.into()).handing(form))
    };
    if adapter.in_process {
        return match adapter.manifest.profile.parse() {
            Ok(profile) => Box::new(ReferenceEngine::new(profile).handing(form)),
            Err(e) => unavailable(format!(
                "{}: {e}",
                path_shown(&adapter.dir.join("adapter.yaml"))
            )),
        };
    }
    if let Err(reason) = prepare(adapter, log) {
        return unavailable(reason.to_string());
    }
    match AdapterProcess::start(adapter.argv(), limits) {
        Ok(process) => match disagreement(&adapter.manifest, process.handshake()) {
            Some(why) => unavailable(format!("{}: {why}", Fault::ProtocolError.as_str())),
            None => Box::new(process.handing(form)),
        },
        Err(failure) => unavailable(format!(
            "{}: {}",
            failure.fault.as_str(),
            failure.detail.raw()
        )),
    }
}

/// Why an adapter cannot be made ready to start.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// A system program or package is missing; the reason says what to install.
    #[error("{0}")]
    Unavailable(String),
    #[error("install failed: {0}")]
    Install(#[from] InstallError),
}

/// Makes an adapter ready to start: installs its setup steps when they are missing. The error
/// says why it cannot run.
pub fn prepare(adapter: &Adapter, log: &mut dyn FnMut(&str)) -> Result<(), PrepareError> {
    match availability(adapter) {
        Availability::Unavailable(reason) => Err(PrepareError::Unavailable(reason)),
        Availability::NeedsSetup => Ok(install::install(adapter, false, log)?),
        Availability::Ready => Ok(()),
    }
}

/// Starts every adapter at once, each on its own thread, as [`open`] does one: an interpreter's
/// start-up (a Python venv, Node, Ruby) is mostly waiting, and twenty of them one after the other
/// add up to seconds. `log` gets install progress, `started` each adapter's name once it answered
/// its handshake (or failed to). The engines come back in the order of `adapters`.
pub fn open_all(
    adapters: &[Adapter],
    limits: Limits,
    log: &(dyn Fn(&str) + Sync),
    started: &(dyn Fn(&str) + Sync),
) -> Vec<Box<dyn Lifecycle>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = adapters
            .iter()
            .map(|adapter| {
                scope.spawn(move || {
                    let engine = open(adapter, limits, &mut |line| log(line));
                    started(adapter.name());
                    engine
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("starting an adapter does not panic"))
            .collect()
    })
}

/// Stops every engine side by side: each waits for its process to exit, so one after another
/// a dozen would add up their waits.
pub fn stop_all(engines: Vec<Box<dyn Lifecycle>>) {
    std::thread::scope(|scope| {
        for engine in engines {
            scope.spawn(move || drop(engine));
        }
    });
}

/// [`availability`] of every adapter, side by side: a probe starts an interpreter.
pub fn availabilities(adapters: &[Adapter]) -> Vec<Availability> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = adapters
            .iter()
            .map(|adapter| scope.spawn(move || availability(adapter)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("probing an adapter panicked"))
            .collect()
    })
}

/// Where an adapter's hello contradicts its `adapter.yaml` on name, profile or a pinned version,
/// naming both values: a run must not score a parser under a profile it was not meant to be scored
/// under, file its results under another adapter's name, or publish them for a release that did
/// not answer them.
pub fn disagreement(manifest: &Manifest, hello: &Handshake) -> Option<String> {
    let mut differences = Vec::new();
    if hello.name.raw() != manifest.name {
        differences.push(format!(
            "name `{}` in its hello but `{}` in adapter.yaml",
            hello.name, manifest.name
        ));
    }
    if manifest.package.pins_version() && hello.version.raw() != manifest.package.version {
        differences.push(format!(
            "version `{}` in its hello but `{}` pinned in adapter.yaml",
            hello.version, manifest.package.version
        ));
    }
    if hello.profile.raw() != manifest.profile {
        differences.push(format!(
            "profile `{}` in its hello but `{}` in adapter.yaml",
            hello.profile, manifest.profile
        ));
    }
    (!differences.is_empty()).then(|| differences.join("; "))
}

/// Starts an adapter that is only a command (`--adapter-cmd "python3 my_adapter.py"`).
pub fn open_command(argv: Vec<String>, limits: Limits) -> Box<dyn Lifecycle> {
    // The command stands in for the name the adapter did not give; as a handshake's name it is
    // outside text, shown made visible wherever it is printed.
    let command = argv.join(" ");
    match AdapterProcess::start(argv, limits) {
        Ok(process) => Box::new(process),
        Err(failure) => Box::new(Unavailable::new(
            Handshake {
                name: command.into(),
                parser: "unknown".into(),
                version: "unknown".into(),
                language: "unknown".into(),
                homepage: Outside::default(),
                profile: "other".into(),
            },
            format!("{}: {}", failure.fault.as_str(), failure.detail.raw()).into(),
        )),
    }
}

/// What the manifest says, standing in for a handshake the adapter could not give.
pub fn handshake_of(manifest: &Manifest) -> Handshake {
    Handshake {
        name: manifest.name.clone().into(),
        parser: manifest.parser.clone().into(),
        version: manifest.package.version.clone().into(),
        language: manifest.language.clone().into(),
        homepage: manifest.homepage.clone().into(),
        profile: manifest.profile.clone().into(),
    }
}

/// Why an adapter named on the command line could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no adapter `{name}` in {} (known: {known})", dir.display())]
    Unknown {
        name: String,
        dir: PathBuf,
        /// The names of the adapters that are there, joined by `, `.
        known: String,
    },
    #[error(transparent)]
    Manifest(#[from] LocatedError),
}

/// Loads an adapter by name: the folder `adapters_dir/name`, or `name@version` for one of the
/// other versions its manifest lists.
pub fn load(adapters_dir: &Path, name: &str, workspace: &Path) -> Result<Adapter, LoadError> {
    load_at(adapters_dir, name, &Places::checkout(workspace))
}

/// As [`load`], installing and building in `places`. `name@version` names one of a folder's
/// versions.
pub fn load_at(adapters_dir: &Path, name: &str, places: &Places) -> Result<Adapter, LoadError> {
    let folder = name.split_once('@').map_or(name, |(folder, _)| folder);
    let dir = adapters_dir.join(folder);
    let unknown = || LoadError::Unknown {
        name: name.to_owned(),
        dir: adapters_dir.to_owned(),
        known: manifest::discover_at(adapters_dir, places)
            .map(|all| all.into_iter().map(|a| a.manifest.name).collect::<Vec<_>>())
            .unwrap_or_default()
            .join(", "),
    };
    if !dir.join("adapter.yaml").is_file() {
        return Err(unknown());
    }
    Adapter::load_versions(&dir, places)?
        .into_iter()
        .find(|a| a.name() == name)
        .ok_or_else(unknown)
}

/// An engine that could not be started: every batch is answered as unavailable.
pub struct Unavailable {
    handshake: Handshake,
    /// Why, quoting what the adapter or its install said.
    pub reason: Outside,
    agent_form: Option<AgentForm>,
}

impl Unavailable {
    pub fn new(handshake: Handshake, reason: Outside) -> Unavailable {
        Unavailable {
            handshake,
            reason,
            agent_form: None,
        }
    }

    /// The same engine, saying which form of the agent its adapter would hand its parser.
    pub fn handing(self, form: AgentForm) -> Unavailable {
        Unavailable {
            agent_form: Some(form),
            ..self
        }
    }
}

impl Engine for Unavailable {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, _: &str, _: &[u8], _: &[Query]) -> Result<Reply, Failure> {
        Err(Failure {
            fault: Fault::Unavailable,
            detail: format!("adapter unavailable: {}", self.reason.raw()).into(),
        })
    }

    fn agent_form(&self) -> Option<AgentForm> {
        self.agent_form
    }
}

impl Lifecycle for Unavailable {
    fn unavailable(&self) -> Option<&Outside> {
        Some(&self.reason)
    }

    fn fresh_start(&mut self) {}

    fn set_patience(&mut self, _times: u32) {}
}
