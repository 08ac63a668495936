//! `cases/CHANGELOG.md`: for each version of the corpus, the cases added, changed, rescored and
//! removed, each with the reason; and [`unlogged`], which holds the corpus to it.
//!
//! ```markdown
//! ## Unreleased
//!
//! ### Added
//!
//! - `agents/new-case`: why it was added
//!
//! ## 1.0.0 (2026-11-26)
//! ```
//!
//! A `## ` heading opens a version: `Unreleased`, or a version number followed by anything (a
//! date). Under it, `### Added`, `### Changed`, `### Rescored` and `### Removed` list one case per
//! item, `` - `case/id`: reason ``; other `###` headings and prose are for readers.

use std::path::{Path, PathBuf};

use semver::Version;

use super::record::{Bump, CaseChange, ChangeKind, Record};
use crate::located::LocatedError;

/// The changelog's file name, at the root of the corpus.
pub const CHANGELOG_FILE: &str = "CHANGELOG.md";

/// The parsed changelog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changelog {
    pub file: PathBuf,
    pub sections: Vec<Section>,
}

/// One `## ` heading and its entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// `None` for `Unreleased`.
    pub version: Option<Version>,
    pub line: usize,
    pub entries: Vec<Logged>,
}

/// One logged case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    pub case: String,
    pub kind: ChangeKind,
    pub reason: String,
    pub line: usize,
}

impl Changelog {
    /// Parses the changelog's text; `file` names it in errors.
    pub fn parse(text: &str, file: &Path) -> Result<Changelog, LocatedError> {
        let at = |line: usize, message: String| LocatedError::new(file, Some(line), message);
        let mut sections: Vec<Section> = Vec::new();
        let mut kind: Option<ChangeKind> = None;
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            if let Some(title) = line.strip_prefix("## ") {
                let first = title.split_whitespace().next().unwrap_or("");
                let version = if first == "Unreleased" {
                    None
                } else {
                    Some(Version::parse(first).map_err(|e| {
                        at(
                            number,
                            format!(
                                "`## {title}`: a version heading is `Unreleased` or a version \
                                 number ({e})"
                            ),
                        )
                    })?)
                };
                if let Some(twice) = sections.iter().find(|s| s.version == version) {
                    let message = format!(
                        "`## {title}`: this version has a heading already, at line {}",
                        twice.line
                    );
                    return Err(at(number, message));
                }
                sections.push(Section {
                    version,
                    line: number,
                    entries: Vec::new(),
                });
                kind = None;
            } else if let Some(title) = line.strip_prefix("### ") {
                kind = ChangeKind::ALL
                    .into_iter()
                    .find(|k| k.heading() == title.trim());
            } else if let (Some(kind), Some(item)) = (kind, line.strip_prefix("- ")) {
                let Some(section) = sections.last_mut() else {
                    return Err(at(
                        number,
                        "an entry before any `## ` version heading".into(),
                    ));
                };
                section
                    .entries
                    .push(entry(item, kind).map_err(|m| at(number, m))?);
                if let Some(logged) = section.entries.last_mut() {
                    logged.line = number;
                }
            }
        }
        Ok(Changelog {
            file: file.to_owned(),
            sections,
        })
    }

    /// The section of `version`, if it has a heading.
    pub fn section(&self, version: &Version) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.version.as_ref() == Some(version))
    }
}

/// `` `case/id`: reason `` under a heading of `kind`.
fn entry(item: &str, kind: ChangeKind) -> Result<Logged, String> {
    let shape = || {
        format!(
            "under `### {}`, an entry is `` - `case/id`: the reason ``, not `- {item}`",
            kind.heading()
        )
    };
    let rest = item.strip_prefix('`').ok_or_else(shape)?;
    let (case, reason) = rest.split_once('`').ok_or_else(shape)?;
    let reason = reason.strip_prefix(':').ok_or_else(shape)?.trim();
    if reason.is_empty() {
        return Err(format!("`{case}`: the entry gives no reason"));
    }
    Ok(Logged {
        case: case.to_owned(),
        kind,
        reason: reason.to_owned(),
        line: 0,
    })
}

/// The step from one version to the next, as [`Bump`] names it (a 0.x version's minor step is
/// its major one, as semver has it).
pub fn step(from: &Version, to: &Version) -> Option<Bump> {
    if to <= from {
        return None;
    }
    Some(
        if to.major != from.major || (from.major == 0 && to.minor != from.minor) {
            Bump::Major
        } else if to.minor != from.minor || (from.major == 0 && to.patch != from.patch) {
            Bump::Minor
        } else {
            Bump::Patch
        },
    )
}

/// The step `changes` ask for: the largest of theirs.
pub fn required_step(changes: &[CaseChange]) -> Bump {
    changes.iter().map(|c| c.bump).max().unwrap_or(Bump::Patch)
}

/// Everything in the way of the corpus being the record's version plus the changes the
/// changelog names: each change since `record` must be logged, with its kind, under `Unreleased`
/// or under a version after the record's; a version being prepared must be a large enough step
/// for them; the record's own version must have a heading; and nothing may be logged there for
/// a case that has not changed. Empty when the corpus is in order.
pub fn unlogged(record: &Record, changes: &[CaseChange], log: &Changelog) -> Vec<LocatedError> {
    let at = |line: Option<usize>, message: String| LocatedError::new(&log.file, line, message);
    let mut problems = Vec::new();
    let released = &record.version;
    if log.section(released).is_none() {
        problems.push(at(
            Some(1),
            format!("no `## {released}` heading: the released version is not logged"),
        ));
    }
    let open: Vec<&Section> = (log.sections.iter())
        .filter(|s| s.version.as_ref().is_none_or(|v| v > released))
        .collect();
    for change in changes {
        let logged: Vec<&Logged> = (open.iter())
            .flat_map(|s| &s.entries)
            .filter(|e| e.case == change.case)
            .collect();
        match logged.first() {
            None => problems.push(at(
                None,
                format!(
                    "`{}` is {} since {released}, and no entry says so: add \
                     `- `{}`: the reason` under `### {}` of `## Unreleased` (or of the version \
                     being prepared)",
                    change.case,
                    change.kind,
                    change.case,
                    change.kind.heading()
                ),
            )),
            Some(entry) if entry.kind != change.kind => problems.push(at(
                Some(entry.line),
                format!(
                    "`{}` is logged under `### {}`, but it is {} since {released}",
                    change.case,
                    entry.kind.heading(),
                    change.kind
                ),
            )),
            Some(_) => {}
        }
    }
    for section in &open {
        for entry in &section.entries {
            if !changes.iter().any(|c| c.case == entry.case) {
                problems.push(at(
                    Some(entry.line),
                    format!(
                        "`{}` is logged as {}, but it has not changed since {released}",
                        entry.case, entry.kind
                    ),
                ));
            }
        }
        let Some(prepared) = &section.version else {
            continue;
        };
        let needed = required_step(changes);
        if step(released, prepared).is_some_and(|s| s < needed) {
            problems.push(at(
                Some(section.line),
                format!(
                    "`## {prepared}` is too small a step from {released}: the changes since ask \
                     for a {} version (a rescored, changed or removed check is a major change; \
                     an added case or check a minor one)",
                    match needed {
                        Bump::Major => "major",
                        Bump::Minor => "minor",
                        Bump::Patch => "patch",
                    }
                ),
            ));
        }
    }
    problems
}

/// What stands in the way of releasing the corpus as `version` (`cases freeze --version`): it
/// must follow the record's version by a large enough step, have a heading, and every change
/// since the record must be logged under that heading with its kind (not under `Unreleased`,
/// which the release closes). Empty when it can be released.
pub fn release_problems(
    record: &Record,
    changes: &[CaseChange],
    log: &Changelog,
    version: &Version,
) -> Vec<LocatedError> {
    let at = |line: Option<usize>, message: String| LocatedError::new(&log.file, line, message);
    let released = &record.version;
    let Some(section) = log.section(version) else {
        return vec![at(
            None,
            format!("no `## {version}` heading: log the release's changes under it first"),
        )];
    };
    let mut problems = Vec::new();
    match step(released, version) {
        None => problems.push(at(
            Some(section.line),
            format!("{version} does not come after the released {released}"),
        )),
        Some(step) if step < required_step(changes) => problems.push(at(
            Some(section.line),
            format!(
                "{version} is too small a step from {released} for the changes since (a                  rescored, changed or removed check is a major change)"
            ),
        )),
        Some(_) => {}
    }
    for change in changes {
        match section.entries.iter().find(|e| e.case == change.case) {
            Some(entry) if entry.kind == change.kind => {}
            Some(entry) => problems.push(at(
                Some(entry.line),
                format!(
                    "`{}` is logged under `### {}`, but it is {}",
                    change.case,
                    entry.kind.heading(),
                    change.kind
                ),
            )),
            None => problems.push(at(
                Some(section.line),
                format!(
                    "`{}` is {} since {released}: log it under `### {}` of `## {version}`",
                    change.case,
                    change.kind,
                    change.kind.heading()
                ),
            )),
        }
    }
    for entry in &section.entries {
        if !changes.iter().any(|c| c.case == entry.case) {
            problems.push(at(
                Some(entry.line),
                format!(
                    "`{}` is logged, but it has not changed since {released}",
                    entry.case
                ),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(case: &str, kind: ChangeKind, bump: Bump) -> CaseChange {
        CaseChange {
            case: case.to_owned(),
            kind,
            bump,
        }
    }

    fn record() -> Record {
        Record {
            version: Version::new(1, 0, 0),
            corpus_digest: String::new(),
            checks: Default::default(),
        }
    }

    fn problems(text: &str, changes: &[CaseChange]) -> Vec<String> {
        let log = Changelog::parse(text, Path::new("CHANGELOG.md")).unwrap();
        unlogged(&record(), changes, &log)
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    const LOGGED: &str = "# Changelog\n\n## Unreleased\n\n### Added\n\n- `a/new`: a new reading\n\n\
                          ### Rescored\n\n- `a/old`: the RFC says otherwise\n\n## 1.0.0 (2026-11-26)\n\n\
                          ### Files\n\n- `agents.yaml`: 12 cases\n";

    #[test]
    fn changes_logged_under_unreleased_pass() {
        let changes = [
            change("a/new", ChangeKind::Added, Bump::Minor),
            change("a/old", ChangeKind::Rescored, Bump::Major),
        ];
        assert_eq!(problems(LOGGED, &changes), Vec::<String>::new());
    }

    #[test]
    fn an_unlogged_change_a_wrong_kind_and_a_stale_entry_are_named() {
        let changes = [
            change("a/new", ChangeKind::Added, Bump::Minor),
            change("a/old", ChangeKind::Changed, Bump::Major),
            change("a/quiet", ChangeKind::Removed, Bump::Major),
        ];
        let text = LOGGED.replace(
            "## Unreleased",
            "## Unreleased\n\n### Added\n\n- `a/same`: nothing",
        );
        let found = problems(&text, &changes);
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(
            found[0].starts_with("CHANGELOG.md: `a/old` is logged under `### Rescored`")
                || found[0].contains("`a/old` is logged under `### Rescored`, but it is changed"),
            "{found:#?}"
        );
        assert!(
            found.iter().any(|p| p.starts_with(
                "CHANGELOG.md: `a/quiet` is removed since 1.0.0, and no entry says so"
            )),
            "{found:#?}"
        );
        assert!(
            found.iter().any(|p| p.starts_with(
                "CHANGELOG.md:7: `a/same` is logged as added, but it has not changed"
            )),
            "{found:#?}"
        );
    }

    #[test]
    fn a_prepared_version_must_be_a_large_enough_step() {
        let text = LOGGED.replace("## Unreleased", "## 1.1.0");
        let changes = [
            change("a/new", ChangeKind::Added, Bump::Minor),
            change("a/old", ChangeKind::Rescored, Bump::Major),
        ];
        let found = problems(&text, &changes);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].starts_with("CHANGELOG.md:3: `## 1.1.0` is too small a step from 1.0.0"),
            "{found:#?}"
        );
        assert!(problems(&LOGGED.replace("## Unreleased", "## 2.0.0"), &changes).is_empty());
    }

    #[test]
    fn headings_and_entries_are_read_strictly() {
        let bad = |text: &str| {
            Changelog::parse(text, Path::new("C.md"))
                .unwrap_err()
                .to_string()
        };
        assert!(
            bad("## next\n").starts_with("C.md:1: `## next`: a version heading"),
            "{}",
            bad("## next\n")
        );
        assert!(bad("## Unreleased\n### Added\n- a/b: x\n")
            .starts_with("C.md:3: under `### Added`, an entry is"));
        assert!(bad("## Unreleased\n### Added\n- `a/b`:\n")
            .starts_with("C.md:3: `a/b`: the entry gives no reason"));
        assert!(bad("## 1.0.0\n## 1.0.0 again\n").contains("has a heading already, at line 1"));
        assert!(problems("## 0.9.0\n", &[])
            .iter()
            .any(|p| p.contains("no `## 1.0.0` heading")));
    }

    #[test]
    fn a_release_needs_every_change_under_its_own_heading() {
        let changes = [
            change("a/new", ChangeKind::Added, Bump::Minor),
            change("a/old", ChangeKind::Rescored, Bump::Major),
        ];
        let release = |text: &str, version: &str| -> Vec<String> {
            let log = Changelog::parse(text, Path::new("CHANGELOG.md")).unwrap();
            let version = Version::parse(version).unwrap();
            release_problems(&record(), &changes, &log, &version)
                .into_iter()
                .map(|e| e.to_string())
                .collect()
        };
        let prepared = LOGGED.replace("## Unreleased", "## 2.0.0");
        assert!(release(&prepared, "2.0.0").is_empty());
        assert_eq!(
            release(&prepared, "3.0.0"),
            ["CHANGELOG.md: no `## 3.0.0` heading: log the release's changes under it first"]
        );
        let small = release(&LOGGED.replace("## Unreleased", "## 1.1.0"), "1.1.0");
        assert_eq!(small.len(), 1, "{small:#?}");
        assert!(
            small[0].contains("1.1.0 is too small a step from 1.0.0"),
            "{small:#?}"
        );
        let under_unreleased = release(&format!("## 2.0.0\n\n{LOGGED}"), "2.0.0");
        assert_eq!(under_unreleased.len(), 2, "{under_unreleased:#?}");
        assert!(under_unreleased[0]
            .contains("`a/new` is added since 1.0.0: log it under `### Added` of `## 2.0.0`"));
    }

    #[test]
    fn steps() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert_eq!(step(&v("1.0.0"), &v("2.0.0")), Some(Bump::Major));
        assert_eq!(step(&v("1.0.0"), &v("1.1.0")), Some(Bump::Minor));
        assert_eq!(step(&v("1.0.0"), &v("1.0.1")), Some(Bump::Patch));
        assert_eq!(step(&v("0.1.0"), &v("0.2.0")), Some(Bump::Major));
        assert_eq!(step(&v("1.1.0"), &v("1.0.0")), None);
    }
}
