//! Every quote of an access case is part of the section it names, in the texts kept beside the
//! checkout (`ROBOTSTXT_SPEC_DIR`, or a `shared/spec` folder beside or above it). The sections of
//! RFC 9309 that copy leaves out (2.3.1.1 to 2.3.1.4) are listed here: their quotes cannot be
//! checked against it, and no other section may be missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use robotstxt_crawl::case::{self, AccessSpec};
use robotstxt_reference::Profile;
use robotstxt_suite::quotes::{clauses, normalize, profile_of};

const NOT_IN_THE_COPY: [&str; 4] = ["2.3.1.1", "2.3.1.2", "2.3.1.3", "2.3.1.4"];

fn spec_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_SPEC_DIR") {
        return Some(PathBuf::from(dir));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("../../shared/spec"),
        root.join("../../../shared/spec"),
    ]
    .into_iter()
    .find(|d| d.join("rfc9309.md").is_file())
}

/// A text's sections by the label a spec gives them: `2.3` for RFC 9309, `Method`, `Format`,
/// `User-agent`, `Disallow` for the 1994 text; each normalized.
fn sections(text: &str, profile: Profile) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current = String::new();
    for line in text.lines() {
        if let Some(title) = line
            .trim_start_matches('#')
            .strip_prefix(' ')
            .filter(|_| line.starts_with('#'))
        {
            let title = title.split(" {#").next().unwrap_or(title);
            current = match profile {
                Profile::Rfc9309 => title.split(". ").next().unwrap_or(title).to_owned(),
                Profile::Norobots1994 => title.split(' ').next_back().unwrap_or(title).to_owned(),
            };
            continue;
        }
        let section = out.entry(current.clone()).or_default();
        section.push(' ');
        section.push_str(line);
    }
    out.into_iter().map(|(k, v)| (k, normalize(&v))).collect()
}

#[test]
fn every_quote_is_part_of_its_section() {
    let Some(dir) = spec_dir() else {
        eprintln!("the texts are not at hand (set ROBOTSTXT_SPEC_DIR): quotes not checked");
        return;
    };
    let texts: BTreeMap<Profile, BTreeMap<String, String>> = [
        (Profile::Rfc9309, "rfc9309.md"),
        (Profile::Norobots1994, "norobots-1994.md"),
    ]
    .into_iter()
    .map(|(p, file)| {
        (
            p,
            sections(&std::fs::read_to_string(dir.join(file)).unwrap(), p),
        )
    })
    .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/access");
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for case in case::load(&root).unwrap() {
        let specs: Vec<(Profile, String)> = match &case.spec {
            AccessSpec::Plain(text) => vec![(profile_of(text), text.clone())],
            AccessSpec::PerProfile(map) => map
                .iter()
                .map(|(p, t)| (p.parse().unwrap(), t.clone()))
                .collect(),
        };
        for (profile, text) in specs {
            for clause in clauses(profile, &text).unwrap() {
                let Some(section) = texts[&profile].get(&clause.section) else {
                    missing.insert(clause.section.clone());
                    continue;
                };
                for fragment in &clause.fragments {
                    assert!(
                        section.contains(fragment.as_str()),
                        "{}: `{fragment}` is not in {}",
                        case.id,
                        clause.section
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "{checked}");
    let allowed: BTreeSet<String> = NOT_IN_THE_COPY.iter().map(|s| s.to_string()).collect();
    assert!(missing.is_subset(&allowed), "{missing:?}");
}
