//! `adapter.yaml`: what an adapter wraps, how to install it, and how to start it.
//! The schema is documented in `adapters/PROTOCOL.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cache::Places;
use crate::located::LocatedError;

/// An adapter's manifest, as written in its folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub name: String,
    pub parser: String,
    pub language: String,
    pub homepage: String,
    /// `norobots-1994`, `rfc9309` or `other`.
    pub profile: String,
    pub package: Package,
    /// How the raw bytes reach the parser.
    pub input: String,
    /// Programs that must be on `PATH`.
    #[serde(default)]
    pub requires: Vec<String>,
    /// A command whose success shows the parser is installed (for system packages).
    #[serde(default)]
    pub probe: Option<Vec<String>>,
    /// What a person runs to provide `requires` and `probe`.
    #[serde(default)]
    pub install_hint: Option<String>,
    /// Written as single-key maps (`- python-venv: { packages: [...] }`).
    #[serde(default, with = "serde_yaml::with::singleton_map_recursive")]
    pub setup: Vec<SetupStep>,
    /// The command, as an argv list with `{dir}`, `{cache}` and `{target}` placeholders.
    pub run: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub name: String,
    pub version: String,
    /// `pypi`, `npm`, `crates.io`, `go`, `maven`, `debian`, `stdlib` or `workspace`.
    pub registry: String,
}

/// One install step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum SetupStep {
    /// A venv in `{cache}/venv` with these pip requirements.
    PythonVenv { packages: Vec<String> },
    /// An npm prefix in `{cache}/node` with these packages.
    Npm { packages: Vec<String> },
    /// A release build of this workspace package.
    CargoBuild { package: String },
    /// `go build` of the adapter folder's main package (its go.mod and go.sum pin every module)
    /// into `{cache}/<output>`, with every Go path inside `{cache}/go`.
    GoBuild { output: String },
    /// The dependencies of the adapter folder's `pom.xml`, resolved by Maven into
    /// `{cache}/maven/lib`, and `source` (a `.java` file in the folder) compiled against them
    /// into `{cache}/maven/classes`.
    Maven { source: String },
}

/// A manifest and where it lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adapter {
    pub manifest: Manifest,
    /// The adapter's folder.
    pub dir: PathBuf,
    /// Its install cache: `<caches>/<name>` (see [`crate::cache`]).
    pub cache: PathBuf,
    /// The cargo target folder of the workspace it belongs to.
    pub target: PathBuf,
    /// The workspace root (where `cargo build` runs).
    pub workspace: PathBuf,
    /// Served by this binary itself rather than a process: see [`Adapter::load_at`].
    pub in_process: bool,
}

const PROFILES: [&str; 3] = ["norobots-1994", "rfc9309", "other"];
const REGISTRIES: [&str; 8] = [
    "pypi",
    "npm",
    "crates.io",
    "go",
    "maven",
    "debian",
    "stdlib",
    "workspace",
];

impl Adapter {
    /// Loads `<dir>/adapter.yaml`. `workspace` is the root whose `target/` holds caches and builds.
    pub fn load(dir: &Path, workspace: &Path) -> Result<Adapter, LocatedError> {
        Adapter::load_at(dir, &Places::checkout(workspace))
    }

    /// Loads `<dir>/adapter.yaml`, installing and building in `places`.
    ///
    /// Outside a checkout there is no workspace to build the reference's adapter in (it depends
    /// on the reference crate by path); this binary carries the reference, so an embedded adapter
    /// wrapping the workspace package `robotstxt-reference` is served in-process, under the
    /// manifest's profile, with the same handshake the adapter program gives.
    pub fn load_at(dir: &Path, places: &Places) -> Result<Adapter, LocatedError> {
        let file = dir.join("adapter.yaml");
        let text = std::fs::read_to_string(&file)
            .map_err(|e| LocatedError::new(&file, None, format!("cannot read: {e}")))?;
        let manifest: Manifest =
            serde_yaml::from_str(&text).map_err(|e| LocatedError::from_yaml(&file, &e))?;
        let field_error = |field: &str, message: String| {
            let line = text
                .lines()
                .position(|l| l.starts_with(&format!("{field}:")))
                .map(|i| i + 1);
            LocatedError::new(&file, line, format!("{field}: {message}"))
        };
        let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if folder.as_deref() != Some(manifest.name.as_str()) {
            return Err(field_error(
                "name",
                format!("`{}` must be the folder's name", manifest.name),
            ));
        }
        if !PROFILES.contains(&manifest.profile.as_str()) {
            return Err(field_error(
                "profile",
                format!(
                    "`{}` is not one of {}",
                    manifest.profile,
                    PROFILES.join(", ")
                ),
            ));
        }
        if !REGISTRIES.contains(&manifest.package.registry.as_str()) {
            return Err(field_error(
                "package",
                format!(
                    "registry `{}` is not one of {}",
                    manifest.package.registry,
                    REGISTRIES.join(", ")
                ),
            ));
        }
        if manifest.run.is_empty() {
            return Err(field_error("run", "the command is empty".to_owned()));
        }
        let in_process = places.embedded
            && manifest.package.registry == "workspace"
            && manifest.package.name == REFERENCE_PACKAGE;
        Ok(Adapter {
            cache: places.caches.join(&manifest.name),
            dir: dir.to_owned(),
            target: places.target.clone(),
            workspace: places.workspace.clone(),
            in_process,
            manifest,
        })
    }

    /// The run command with its placeholders filled in.
    pub fn argv(&self) -> Vec<String> {
        let vars = BTreeMap::from([
            ("{dir}", &self.dir),
            ("{cache}", &self.cache),
            ("{target}", &self.target),
        ]);
        self.manifest
            .run
            .iter()
            .map(|arg| {
                vars.iter().fold(arg.clone(), |arg, (key, path)| {
                    arg.replace(key, &path.to_string_lossy())
                })
            })
            .collect()
    }

    pub fn name(&self) -> &str {
        &self.manifest.name
    }

    /// The lock held while this adapter installs: next to its cache folder, so that removing
    /// the cache folder leaves no stale lock inside it.
    pub fn install_lock(&self) -> PathBuf {
        self.cache.with_extension("lock")
    }
}

/// The package name of the reference implementation, which this binary links.
const REFERENCE_PACKAGE: &str = "robotstxt-reference";

/// Every adapter folder (a sub-folder holding `adapter.yaml`) under `adapters_dir`, by name.
pub fn discover(adapters_dir: &Path, workspace: &Path) -> Result<Vec<Adapter>, LocatedError> {
    discover_at(adapters_dir, &Places::checkout(workspace))
}

/// As [`discover`], installing and building in `places`.
pub fn discover_at(adapters_dir: &Path, places: &Places) -> Result<Vec<Adapter>, LocatedError> {
    let entries = std::fs::read_dir(adapters_dir)
        .map_err(|e| LocatedError::new(adapters_dir, None, format!("cannot list adapters: {e}")))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("adapter.yaml").is_file())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|dir| Adapter::load_at(dir, places))
        .collect()
}
