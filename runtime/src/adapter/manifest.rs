//! `adapter.yaml`: what an adapter wraps, how to install it, and how to start it.
//! The schema is documented in `adapters/PROTOCOL.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use robotstxt_suite::engine::CLAIMABLE_PROFILES;
use robotstxt_suite::input::yaml::refuse_hidden;
use robotstxt_suite::input::{Format, Input};
use robotstxt_suite::limits::MANIFEST;
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::visible::{is_control_or_bidi, is_hidden};
use serde::{Deserialize, Serialize};

use crate::cache::Places;

/// Whether a field may not hold a character.
type IsHidden = fn(char) -> bool;

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
    /// Other released versions of the same package, each run as its own adapter
    /// `<name>@<version>` (see [`Adapter::load_versions`]).
    #[serde(default)]
    pub versions: Vec<String>,
    /// How the raw bytes reach the parser.
    pub input: String,
    /// Anything else a reader of the adapter's report page needs to know about how the parser is
    /// called: for a second adapter of the same library, how the two differ.
    #[serde(default)]
    pub note: Option<String>,
    /// Which form of the robot's name the parser's API takes: the agent as given, its product
    /// token, or its bare name (adapters/PROTOCOL.md, "2. Checks").
    pub agent: AgentForm,
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
    /// The command, as an argv list with `{dir}`, `{cache}`, `{target}`, `{name}` and
    /// `{version}` placeholders.
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

/// Which form of the robot's name an adapter passes its parser (defined with the forms
/// themselves).
pub use robotstxt_suite::engine::AgentForm;

/// Registries whose package is whatever the system provides, not installed by the adapter: the
/// manifest's version is the one last seen, and the handshake says which one ran.
pub const SYSTEM_REGISTRIES: [&str; 2] = ["stdlib", "debian"];

impl Package {
    /// Whether the adapter installs exactly `version` (every registry but the system's), so that
    /// its handshake must report that version.
    pub fn pins_version(&self) -> bool {
        !SYSTEM_REGISTRIES.contains(&self.registry.as_str())
    }
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

impl Manifest {
    /// This manifest for one of its versions, under `name`: `{version}` filled in in `setup`
    /// and `run`, `{name}` in `run`.
    fn at_version(&self, name: &str, version: &str) -> Manifest {
        let fill = |args: &[String]| -> Vec<String> {
            args.iter()
                .map(|a| a.replace("{version}", version).replace("{name}", name))
                .collect()
        };
        let setup = self
            .setup
            .iter()
            .map(|step| match step {
                SetupStep::PythonVenv { packages } => SetupStep::PythonVenv {
                    packages: fill(packages),
                },
                SetupStep::Npm { packages } => SetupStep::Npm {
                    packages: fill(packages),
                },
                other => other.clone(),
            })
            .collect();
        Manifest {
            name: name.to_owned(),
            package: Package {
                version: version.to_owned(),
                ..self.package.clone()
            },
            versions: Vec::new(),
            setup,
            run: fill(&self.run),
            ..self.clone()
        }
    }
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
    /// Its expectation file: `expectations.yaml` in its folder, `expectations@<version>.yaml`
    /// for a version from `versions`.
    pub expectations: PathBuf,
    /// Served by this binary itself rather than a process: see [`Adapter::load_versions`].
    pub in_process: bool,
    /// Why it cannot be used at all: its `adapter.yaml` could not be read (`file:line: why`).
    /// Its manifest is then a placeholder named after its folder (see [`Adapter::unreadable`]).
    pub broken: Option<String>,
}

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
    /// Loads `<dir>/adapter.yaml` at its pinned version. `workspace` is the root whose `target/`
    /// holds caches and builds.
    pub fn load(dir: &Path, workspace: &Path) -> Result<Adapter, LocatedError> {
        Adapter::load_at(dir, &Places::checkout(workspace))
    }

    /// As [`Adapter::load`], installing and building in `places`.
    pub fn load_at(dir: &Path, places: &Places) -> Result<Adapter, LocatedError> {
        let mut all = Adapter::load_versions(dir, places)?;
        Ok(all.swap_remove(0))
    }

    /// Loads `<dir>/adapter.yaml` once per version: first the pinned `package.version` under
    /// the manifest's name, then each of `versions` as `<name>@<version>`, with its own cache
    /// and expectation file, and `{version}` in `setup` and `run` (and `{name}` in `run`)
    /// filled in. One folder, one program: the versions cannot drift apart. Installs and builds
    /// go to `places`.
    ///
    /// Outside a checkout there is no workspace to build the reference's adapter in (it depends
    /// on the reference crate by path); this binary carries the reference, so an embedded adapter
    /// wrapping the workspace package `robotstxt-reference` is served in-process, under the
    /// manifest's profile, with the same handshake the adapter program gives.
    pub fn load_versions(dir: &Path, places: &Places) -> Result<Vec<Adapter>, LocatedError> {
        let file = dir.join("adapter.yaml");
        let input = Input::read(&file, Format::Yaml, MANIFEST)?;
        let text = input.text();
        // Every string of a manifest reaches a page, a terminal or an argv: none may hold a
        // control or bidirectional character but the prose fields' line feeds (checked below).
        refuse_hidden(&input)?;
        let manifest: Manifest = input.parse()?;
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
        if !CLAIMABLE_PROFILES.contains(&manifest.profile.as_str()) {
            return Err(field_error(
                "profile",
                format!(
                    "`{}` is not one of {}",
                    manifest.profile,
                    CLAIMABLE_PROFILES.join(", ")
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
        if manifest.input.trim().is_empty() {
            return Err(field_error(
                "input",
                "say how the bytes reach the parser".to_owned(),
            ));
        }
        if manifest
            .note
            .as_deref()
            .is_some_and(|n| n.trim().is_empty())
        {
            return Err(field_error(
                "note",
                "empty; leave the field out instead".to_owned(),
            ));
        }
        // Shown as they are on every page and on the terminal: one line of plain text each (the
        // prose fields may hold line feeds, nothing else hidden).
        let (one_line, prose): (IsHidden, IsHidden) = (is_control_or_bidi, is_hidden);
        let shown_fields: [(&str, Option<&String>, IsHidden); 8] = [
            ("name", Some(&manifest.name), one_line),
            ("parser", Some(&manifest.parser), one_line),
            ("language", Some(&manifest.language), one_line),
            ("homepage", Some(&manifest.homepage), one_line),
            ("package", Some(&manifest.package.version), one_line),
            ("input", Some(&manifest.input), prose),
            ("note", manifest.note.as_ref(), prose),
            ("install_hint", manifest.install_hint.as_ref(), prose),
        ];
        for (field, value, hidden) in shown_fields {
            if value.is_some_and(|v| v.chars().any(hidden)) {
                return Err(field_error(
                    field,
                    "holds a control or bidirectional character".to_owned(),
                ));
            }
        }
        let mut seen = vec![manifest.package.version.as_str()];
        for version in &manifest.versions {
            if version.is_empty()
                || version.contains(['/', '\\', '@'])
                || version.chars().any(is_control_or_bidi)
                || seen.contains(&version.as_str())
            {
                return Err(field_error(
                    "versions",
                    format!(
                        "`{version}` must be a version not listed yet, without `/`, `\\` or `@`"
                    ),
                ));
            }
            seen.push(version);
        }
        let uses_version = |args: &[String]| args.iter().any(|a| a.contains("{version}"));
        let installs_version = manifest.setup.iter().any(|step| match step {
            SetupStep::PythonVenv { packages } | SetupStep::Npm { packages } => {
                uses_version(packages)
            }
            SetupStep::CargoBuild { .. } | SetupStep::GoBuild { .. } | SetupStep::Maven { .. } => {
                false
            }
        });
        if !manifest.versions.is_empty() && !installs_version {
            return Err(field_error(
                "versions",
                "a setup step must install `{version}`, or every version would run the same package".to_owned(),
            ));
        }
        let in_process = places.embedded
            && manifest.package.registry == "workspace"
            && manifest.package.name == REFERENCE_PACKAGE;
        let pinned = manifest.package.version.clone();
        let versions = std::iter::once((
            manifest.name.clone(),
            pinned,
            "expectations.yaml".to_owned(),
        ))
        .chain(manifest.versions.iter().map(|v| {
            (
                format!("{}@{v}", manifest.name),
                v.clone(),
                format!("expectations@{v}.yaml"),
            )
        }));
        Ok(versions
            .map(|(name, version, expectations)| Adapter {
                cache: places.caches.join(&name),
                dir: dir.to_owned(),
                target: places.target.clone(),
                workspace: places.workspace.clone(),
                expectations: dir.join(expectations),
                in_process,
                manifest: manifest.at_version(&name, &version),
                broken: None,
            })
            .collect())
    }

    /// The adapter of `dir`, whose manifest could not be read (`error`): listed, under its
    /// folder's name, as unusable for that reason, so that one bad manifest does not hide the
    /// other adapters of its folder.
    pub fn unreadable(dir: &Path, places: &Places, error: &LocatedError) -> Adapter {
        let name = dir.file_name().map_or_else(
            || "adapter".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        );
        Adapter {
            cache: places.caches.join(&name),
            dir: dir.to_owned(),
            target: places.target.clone(),
            workspace: places.workspace.clone(),
            expectations: dir.join("expectations.yaml"),
            in_process: false,
            manifest: Manifest {
                name: name.clone(),
                parser: String::new(),
                language: String::new(),
                homepage: String::new(),
                profile: "other".to_owned(),
                package: Package {
                    name,
                    version: String::new(),
                    registry: "workspace".to_owned(),
                },
                versions: Vec::new(),
                input: String::new(),
                note: None,
                agent: AgentForm::AsGiven,
                requires: Vec::new(),
                probe: None,
                install_hint: None,
                setup: Vec::new(),
                run: Vec::new(),
            },
            broken: Some(format!("its adapter.yaml cannot be read: {error}")),
        }
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
    /// the cache folder leaves no stale lock inside it. Appended rather than set as an
    /// extension: a versioned name such as `x@2.1.1` already holds dots.
    pub fn install_lock(&self) -> PathBuf {
        let mut name = self.cache.as_os_str().to_owned();
        name.push(".lock");
        PathBuf::from(name)
    }
}

/// The package name of the reference implementation, which this binary links.
const REFERENCE_PACKAGE: &str = "robotstxt-reference";

/// Every adapter folder (a sub-folder holding `adapter.yaml`) under `adapters_dir`, by name, each
/// folder's versions side by side.
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
    let mut all = Vec::new();
    for dir in &dirs {
        match Adapter::load_versions(dir, places) {
            Ok(versions) => all.extend(versions),
            Err(error) => all.push(Adapter::unreadable(dir, places, &error)),
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"name: node-x
parser: x
language: JavaScript
homepage: https://example.org/x
profile: rfc9309
package: { name: x, version: "3.0.1", registry: npm }
versions: ["2.1.1"]
input: bytes
agent: as-given
setup:
  - npm: { packages: ["x@{version}", "y@1.0"] }
run: ["node", "{dir}/adapter.js", "{cache}/node_modules", "{name}"]
"#;

    fn folder(manifest: &str) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("node-x")).unwrap();
        std::fs::write(root.path().join("node-x/adapter.yaml"), manifest).unwrap();
        root
    }

    #[test]
    fn every_version_is_its_own_adapter() {
        let root = folder(MANIFEST);
        let dir = root.path().join("node-x");
        let all = Adapter::load_versions(&dir, &Places::checkout(root.path())).unwrap();
        let names: Vec<&str> = all.iter().map(Adapter::name).collect();
        assert_eq!(names, ["node-x", "node-x@2.1.1"]);
        let older = &all[1];
        assert_eq!(older.manifest.package.version, "2.1.1");
        assert!(older.manifest.versions.is_empty());
        assert_eq!(
            older.manifest.setup,
            [SetupStep::Npm {
                packages: vec!["x@2.1.1".to_owned(), "y@1.0".to_owned()]
            }]
        );
        assert!(older.cache.ends_with("adapters/node-x@2.1.1"));
        assert_eq!(older.expectations, dir.join("expectations@2.1.1.yaml"));
        assert_eq!(older.argv()[3], "node-x@2.1.1");
        let pinned = Adapter::load(&dir, root.path()).unwrap();
        assert_eq!(pinned, all[0]);
        assert_eq!(pinned.expectations, dir.join("expectations.yaml"));
        assert_eq!(pinned.argv()[3], "node-x");
        assert!(pinned.argv()[2].ends_with("adapters/node-x/node_modules"));
    }

    #[test]
    fn versions_must_install_and_differ() {
        for (from, to, says) in [
            (
                "x@{version}",
                "x@3.0.1",
                "a setup step must install `{version}`",
            ),
            (
                r#"["2.1.1"]"#,
                r#"["2.1.1", "2.1.1"]"#,
                "`2.1.1` must be a version not listed yet",
            ),
            (
                r#"["2.1.1"]"#,
                r#"["3.0.1"]"#,
                "`3.0.1` must be a version not listed yet",
            ),
            (r#"["2.1.1"]"#, r#"["../2"]"#, "without `/`"),
        ] {
            let root = folder(&MANIFEST.replace(from, to));
            let error =
                Adapter::load_versions(&root.path().join("node-x"), &Places::checkout(root.path()))
                    .unwrap_err()
                    .to_string();
            assert!(
                error.contains("adapter.yaml:7") && error.contains(says),
                "{error}"
            );
        }
    }

    #[test]
    fn a_note_is_read_and_empty_descriptions_are_refused() {
        let noted = MANIFEST.replace(
            "agent:",
            "note: >-\n  unlike node-y,\n  it reads str\nagent:",
        );
        let root = folder(&noted);
        let adapter = Adapter::load(&root.path().join("node-x"), root.path()).unwrap();
        assert_eq!(
            adapter.manifest.note.as_deref(),
            Some("unlike node-y, it reads str")
        );
        for (from, to, line) in [
            ("input: bytes", "input: \" \"", 8),
            ("agent:", "note: \"\"\nagent:", 9),
        ] {
            let root = folder(&MANIFEST.replace(from, to));
            let error = Adapter::load(&root.path().join("node-x"), root.path())
                .unwrap_err()
                .to_string();
            let field = to.split(':').next().unwrap();
            assert!(
                error.contains(&format!("adapter.yaml:{line}: {field}:")),
                "{error}"
            );
        }
    }

    #[test]
    fn a_folder_without_a_manifest_is_not_an_adapter() {
        // `adapters/protocol` is the protocol crate, carried beside the adapters: a Cargo package
        // with no `adapter.yaml`, which discovery passes over.
        let root = folder(MANIFEST);
        let protocol = root.path().join("protocol");
        std::fs::create_dir_all(protocol.join("src")).unwrap();
        std::fs::write(protocol.join("Cargo.toml"), "[package]\nname = \"p\"\n").unwrap();
        std::fs::write(protocol.join("src/lib.rs"), "").unwrap();
        let found = discover(root.path(), root.path()).unwrap();
        let names: Vec<&str> = found.iter().map(Adapter::name).collect();
        assert_eq!(names, ["node-x", "node-x@2.1.1"]);

        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        assert!(checkout.join("adapters/protocol/Cargo.toml").is_file());
        let carried = discover(&checkout.join("adapters"), &checkout).unwrap();
        assert!(!carried.is_empty());
        assert!(carried.iter().all(|a| !a.dir.ends_with("protocol")));
    }

    /// One bad manifest marks its own adapter unusable, naming the file and line; the other
    /// adapters of the folder are found as before.
    #[test]
    fn a_bad_manifest_marks_only_its_own_adapter() {
        let root = folder(MANIFEST);
        let bad = root.path().join("a-bad");
        std::fs::create_dir(&bad).unwrap();
        std::fs::write(
            bad.join("adapter.yaml"),
            MANIFEST
                .replace("name: node-x", "name: a-bad")
                .replace("rfc9309", "rfc-9309"),
        )
        .unwrap();
        let found = discover(root.path(), root.path()).unwrap();
        let names: Vec<&str> = found.iter().map(Adapter::name).collect();
        assert_eq!(names, ["a-bad", "node-x", "node-x@2.1.1"]);
        let reason = found[0].broken.as_deref().unwrap();
        assert!(
            reason.contains("a-bad/adapter.yaml:5: profile: `rfc-9309`"),
            "{reason}"
        );
        assert_eq!(
            crate::adapter::availability(&found[0]),
            crate::adapter::Availability::Unavailable(reason.to_owned())
        );
        assert!(found[1..].iter().all(|a| a.broken.is_none()));
    }
}
