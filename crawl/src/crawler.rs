//! Carried crawlers: one folder per crawler under `crawlers/`, each with a `crawler.yaml` (the
//! format is in `crawlers/README.md`). A crawler installs through the runtime's install code,
//! cache and lock, exactly as an adapter does: its manifest is also read as an adapter
//! manifest ([`Carried::install_as`]), whose setup steps, `requires` and `probe` the runtime runs
//! and checks. Its cache folder is `crawler-<name>` beside the adapters' caches.

use robotstxt_suite::visible::path_shown;
use std::path::{Path, PathBuf};

use robotstxt_reference::Profile;
use robotstxt_runtime::adapter::manifest::{Adapter, AgentForm, Manifest, Package, SetupStep};
use robotstxt_runtime::cache::Places;
use robotstxt_suite::input::{read_bytes, Format, Input};
use robotstxt_suite::limits::MANIFEST;
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::visible::{is_control_or_bidi, Outside};
use serde::{Deserialize, Serialize};

use crate::command::CommandTemplate;
use crate::runner::CrawlerUnderTest;

/// The manifest's file name in a crawler's folder.
pub const MANIFEST_FILE: &str = "crawler.yaml";

/// Registries a crawler may come from.
const REGISTRIES: [&str; 6] = ["debian", "pypi", "npm", "go", "maven", "stdlib"];

/// The robots.txt parser a crawler uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotsParser {
    /// What it is: a library and version, or "its own, in src/res.c".
    pub name: Outside,
    /// The suite's adapter of that parser, when it carries one (a folder under `adapters/`).
    #[serde(default)]
    pub adapter: Option<String>,
}

/// A flag that departs from the crawler's defaults, and why it is there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Departure {
    pub flag: String,
    pub why: Outside,
}

/// `crawler.yaml`. What is shown of it (its names, homepage, note, the why of a departure) is
/// outside text; what is run or matched (`run`, `profile`, a departure's flag) is checked here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrawlerManifest {
    pub name: Outside,
    /// The crawler's own name, as its users know it.
    pub crawler: Outside,
    pub language: Outside,
    pub homepage: Outside,
    /// The text it claims to follow: `norobots-1994` or `rfc9309`.
    pub profile: String,
    pub package: Package,
    pub robots_parser: RobotsParser,
    #[serde(default)]
    pub requires: Vec<String>,
    #[serde(default)]
    pub probe: Option<Vec<String>>,
    #[serde(default)]
    pub install_hint: Option<String>,
    #[serde(default, with = "serde_yaml::with::singleton_map_recursive")]
    pub setup: Vec<SetupStep>,
    /// argv, with `{url}`, `{agent}`, `{timeout}`, `{workdir}` (per case) and `{dir}`, `{cache}`
    /// (the folder and the install cache).
    pub run: Vec<String>,
    #[serde(default)]
    pub departures: Vec<Departure>,
    #[serde(default)]
    pub note: Option<Outside>,
}

/// A crawler as carried: its manifest, its folder and its install cache.
#[derive(Debug, Clone)]
pub struct Carried {
    pub manifest: CrawlerManifest,
    pub dir: PathBuf,
    pub cache: PathBuf,
    places: Places,
}

impl Carried {
    /// Loads `<dir>/crawler.yaml`; `adapters` is the adapters folder its parser's adapter must be
    /// in, when it names one.
    pub fn load(dir: &Path, places: &Places, adapters: &Path) -> Result<Carried, LocatedError> {
        let file = dir.join(MANIFEST_FILE);
        let input = Input::read(&file, Format::Yaml, MANIFEST)?;
        // Every string of a manifest reaches a page, a terminal or an argv: none may hold a
        // control or bidirectional character but the prose fields' line feeds (checked below).
        robotstxt_suite::input::yaml::refuse_hidden(&input)?;
        let manifest: CrawlerManifest = input.parse()?;
        let text = input.text();
        let at = |field: &str, message: String| {
            let key = field.split('.').next().unwrap_or(field);
            let line = text
                .lines()
                .position(|l| l.trim_start().starts_with(&format!("{key}:")))
                .map(|i| i + 1);
            LocatedError::new(&file, line, format!("{field}: {message}"))
        };
        let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if folder.as_deref() != Some(manifest.name.raw()) {
            return Err(at(
                "name",
                format!("`{}` must be the folder's name", manifest.name),
            ));
        }
        if manifest.profile.parse::<Profile>().is_err() {
            return Err(at(
                "profile",
                format!("`{}` is not norobots-1994 or rfc9309", manifest.profile),
            ));
        }
        if !REGISTRIES.contains(&manifest.package.registry.as_str()) {
            return Err(at(
                "package.registry",
                format!(
                    "`{}` is not one of {}",
                    manifest.package.registry,
                    REGISTRIES.join(", ")
                ),
            ));
        }
        if !manifest.run.iter().any(|a| a.contains("{url}")) {
            return Err(at("run", "must pass `{url}` to the crawler".to_owned()));
        }
        if let Some(adapter) = &manifest.robots_parser.adapter {
            if !adapters.join(adapter).join("adapter.yaml").is_file() {
                return Err(at(
                    "robots_parser.adapter",
                    format!(
                        "`{adapter}` is not an adapter folder in {}",
                        path_shown(adapters)
                    ),
                ));
            }
        }
        let scripts = folder_texts(dir);
        for departure in &manifest.departures {
            let flag = departure.flag.split('=').next().unwrap_or(&departure.flag);
            let in_command = (manifest.run.iter())
                .chain(setup_texts(&manifest.setup).iter())
                .chain(scripts.iter())
                .any(|a| a.contains(flag));
            if !in_command || departure.why.raw().trim().is_empty() {
                return Err(at(
                    "departures",
                    format!(
                        "`{}` must be in `run` or a file of the folder, and say why",
                        departure.flag
                    ),
                ));
            }
        }
        let shown = [
            manifest.name.raw(),
            manifest.crawler.raw(),
            manifest.homepage.raw(),
            &manifest.package.version,
        ];
        if shown
            .iter()
            .any(|v| v.is_empty() || v.chars().any(is_control_or_bidi))
        {
            return Err(at(
                "name",
                "name, crawler, homepage and package.version must be one non-empty line each"
                    .to_owned(),
            ));
        }
        let cache = places
            .caches
            .join(format!("crawler-{}", manifest.name.raw()));
        Ok(Carried {
            manifest,
            dir: dir.to_owned(),
            cache,
            places: places.clone(),
        })
    }

    /// The same crawler as an adapter manifest, for the runtime's install code, cache and lock.
    pub fn install_as(&self) -> Adapter {
        let m = &self.manifest;
        Adapter {
            manifest: Manifest {
                name: format!("crawler-{}", m.name.raw()),
                parser: m.robots_parser.name.raw().to_owned(),
                language: m.language.raw().to_owned(),
                homepage: m.homepage.raw().to_owned(),
                profile: m.profile.clone(),
                package: m.package.clone(),
                versions: Vec::new(),
                input: "a crawler: it fetches robots.txt itself".to_owned(),
                note: m.note.clone().map(Outside::into_raw),
                agent: AgentForm::AsGiven,
                requires: m.requires.clone(),
                probe: m.probe.clone(),
                install_hint: m.install_hint.clone(),
                setup: m.setup.clone(),
                run: m.run.clone(),
            },
            broken: None,
            dir: self.dir.clone(),
            cache: self.cache.clone(),
            target: self.places.target.clone(),
            workspace: self.places.workspace.clone(),
            expectations: self.dir.join("expectations.yaml"),
            in_process: false,
        }
    }

    /// The crawler ready to run: its command with the folder and cache filled in.
    pub fn under_test(&self, profile: Option<Profile>) -> CrawlerUnderTest {
        let dir = self.dir.to_string_lossy();
        let cache = self.cache.to_string_lossy();
        let run = (self.manifest.run.iter())
            .map(|a| a.replace("{dir}", &dir).replace("{cache}", &cache))
            .collect();
        CrawlerUnderTest {
            name: self.manifest.name.clone(),
            profile: profile.unwrap_or_else(|| {
                self.manifest
                    .profile
                    .parse()
                    .unwrap_or(Profile::Norobots1994)
            }),
            command: CommandTemplate::Argv(run),
            departures: (self.manifest.departures.iter())
                .map(|d| Outside::new(format!("{}: {}", d.flag, d.why.raw())))
                .collect(),
        }
    }
}

/// The text of each file in the crawler's folder but its manifest (the scripts that set a
/// crawler's options), each read up to a cap.
fn folder_texts(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut texts = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if path.file_name().is_some_and(|n| n == MANIFEST_FILE) {
            continue;
        }
        if let Ok(bytes) = read_bytes(&path, SCRIPT_CAP) {
            texts.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    texts
}

/// Largest script read when looking for a departure's flag.
const SCRIPT_CAP: u64 = 1 << 20;

fn setup_texts(steps: &[SetupStep]) -> Vec<String> {
    steps
        .iter()
        .flat_map(|s| match s {
            SetupStep::PythonVenv { packages } | SetupStep::Npm { packages } => packages.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// Every crawler folder under `root`, sorted by name; every manifest that does not load is an
/// error naming its file and line.
pub fn load_all(
    root: &Path,
    places: &Places,
    adapters: &Path,
) -> Result<Vec<Carried>, Vec<LocatedError>> {
    let entries = std::fs::read_dir(root).map_err(|e| {
        vec![LocatedError::new(
            root,
            None,
            format!("cannot read the crawlers folder: {e}"),
        )]
    })?;
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(MANIFEST_FILE).is_file())
        .collect();
    dirs.sort();
    let (mut carried, mut errors) = (Vec::new(), Vec::new());
    for dir in dirs {
        match Carried::load(&dir, places, adapters) {
            Ok(c) => carried.push(c),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(carried)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"name: wget
crawler: GNU Wget
language: C
homepage: https://www.gnu.org/software/wget/
profile: norobots-1994
package: { name: wget, version: "1.21.4", registry: debian }
robots_parser: { name: "its own (src/res.c)" }
requires: [wget]
run: [wget, --tries=1, "{url}"]
departures:
  - { flag: --tries=1, why: "one try, so that a case ends" }
"#;

    fn load_text(text: &str) -> Result<Carried, LocatedError> {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("wget");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join(MANIFEST_FILE), text).unwrap();
        let places = Places::checkout(dir.path());
        Carried::load(&folder, &places, &dir.path().join("adapters"))
    }

    #[test]
    fn a_good_manifest_loads_and_installs_under_its_own_cache_name() {
        let carried = load_text(GOOD).unwrap();
        assert_eq!(carried.install_as().manifest.name, "crawler-wget");
        assert!(carried.cache.ends_with("crawler-wget"));
        let test = carried.under_test(None);
        assert_eq!(test.profile, Profile::Norobots1994);
        assert_eq!(test.departures, ["--tries=1: one try, so that a case ends"]);
    }

    #[test]
    fn a_departure_not_in_the_command_is_refused_at_its_line() {
        let error = load_text(&GOOD.replace("run: [wget, --tries=1,", "run: [wget,"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("crawler.yaml:10: departures: `--tries=1` must be in `run`"),
            "{error}"
        );
    }

    #[test]
    fn an_unknown_adapter_and_an_unknown_field_are_refused() {
        let error = load_text(&GOOD.replace("src/res.c)\" }", "src/res.c)\", adapter: nope }"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("robots_parser.adapter: `nope`"), "{error}");
        let error = load_text(&format!("{GOOD}colour: red\n"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("unknown field `colour`"), "{error}");
    }
}
