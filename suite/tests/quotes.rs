//! Every scored check rests on a sentence its case quotes, or names the readings it rests on
//! (`cases/README.md`, "Quotes and readings"): the corpus's rule, held here both ways.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use robotstxt_reference::Profile;
use robotstxt_suite::cases::{load_corpus, Case};
use robotstxt_suite::quotes::{clauses, normalize, profile_of, Sentences};
use robotstxt_suite::readings::Reading;
use robotstxt_suite::rivals::rival_differs;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> Vec<Case> {
    load_corpus(&[workspace().join("cases")]).expect("the corpus loads")
}

fn sentences() -> Sentences {
    Sentences::load(&workspace().join("reference/sentences.yaml")).expect("the list loads")
}

/// Every (case index, check index, profile) where the check is scored under the profile.
fn scored(cases: &[Case]) -> impl Iterator<Item = (usize, usize, Profile)> + '_ {
    cases.iter().enumerate().flat_map(|(c, case)| {
        case.checks.iter().enumerate().flat_map(move |(i, check)| {
            Profile::ALL
                .iter()
                .copied()
                .filter(|p| check.expect.is_scored_under(*p))
                .map(move |p| (c, i, p))
        })
    })
}

#[test]
fn every_scored_check_quotes_a_sentence_or_names_a_reading() {
    let cases = corpus();
    let sentences = sentences();
    let mut problems = Vec::new();
    let (mut decided, mut on_readings) = (0, 0);
    for (c, i, profile) in scored(&cases) {
        let case = &cases[c];
        if !case.checks[i].readings.under(profile).is_empty() {
            on_readings += 1;
            continue;
        }
        decided += 1;
        let Some(spec) = case.spec_for(profile) else {
            problems.push(format!(
                "{}#{i}: scored under {profile}, names no reading, and the case quotes nothing of {profile}'s text",
                case.id
            ));
            continue;
        };
        if profile_of(spec) != profile {
            problems.push(format!(
                "{}#{i}: scored under {profile}, but its spec quotes {}'s text",
                case.id,
                profile_of(spec)
            ));
            continue;
        }
        match clauses(profile, spec) {
            Err(e) => problems.push(format!("{}#{i}: {e}", case.id)),
            Ok(clauses) => {
                for clause in clauses {
                    for fragment in &clause.fragments {
                        if sentences
                            .holds(profile, &clause.section, fragment)
                            .is_none()
                        {
                            problems.push(format!(
                                "{}: \"{fragment}\" is no part of a sentence of {profile}'s {} listed in reference/sentences.yaml",
                                case.id, clause.section
                            ));
                        }
                    }
                }
            }
        }
    }
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        decided > 3500 && on_readings > 100,
        "{decided} decided, {on_readings} on readings"
    );
}

#[test]
fn every_listed_sentence_is_quoted_by_some_case() {
    let cases = corpus();
    let mut quoted = BTreeSet::new();
    let sentences = sentences();
    for case in &cases {
        for &profile in Profile::ALL {
            let Some(spec) = case.spec_for(profile).filter(|s| profile_of(s) == profile) else {
                continue;
            };
            for clause in clauses(profile, spec).unwrap_or_default() {
                for fragment in &clause.fragments {
                    if let Some(sentence) = sentences.holds(profile, &clause.section, fragment) {
                        quoted.insert((profile, sentence.to_owned()));
                    }
                }
            }
        }
    }
    for (profile, sections) in &sentences.0 {
        for listed in sections.values().flatten() {
            assert!(
                quoted.contains(&(*profile, listed.clone())),
                "reference/sentences.yaml lists a sentence of {profile} that no case quotes: {listed}"
            );
        }
    }
}

/// A reading is named exactly where its rival gives another verdict: no scored check hides one,
/// and none names one it does not rest on.
#[test]
fn readings_are_named_exactly_where_the_rival_reading_decides_otherwise() {
    let cases = corpus();
    let mut problems = Vec::new();
    let mut named = 0;
    for (c, i, profile) in scored(&cases) {
        let (case, check) = (&cases[c], &cases[c].checks[i]);
        for reading in Reading::ALL.into_iter().filter(|r| r.profile() == profile) {
            let rests = rival_differs(reading, &case.robots, &check.agent, &check.path);
            let names = check.readings.contains(reading);
            named += usize::from(names);
            if rests != names {
                problems.push(format!(
                    "{}#{i}: {} `{reading}` (its rival {})",
                    case.id,
                    if names { "names" } else { "does not name" },
                    if rests {
                        "decides otherwise"
                    } else {
                        "gives the same verdict"
                    }
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(named > 100, "{named}");
}

/// Where the texts themselves are at hand (`ROBOTSTXT_SPEC_DIR`, or a `shared/spec` folder beside
/// or above the checkout), every listed sentence is a whole sentence of the section it is listed
/// under: a sentence of prose, a rule of the ABNF, a row of a figure or a line of an example.
#[test]
fn listed_sentences_are_sentences_of_the_texts() {
    let Some(dir) = spec_dir() else {
        eprintln!("the texts are not at hand (set ROBOTSTXT_SPEC_DIR): sentences not checked");
        return;
    };
    for (profile, sections) in &sentences().0 {
        let file = dir.join(format!("{}.md", profile.name()));
        let text = std::fs::read_to_string(&file).expect("the text reads");
        let units = spec_text::units(&text, *profile);
        for (section, listed) in sections {
            let Some(found) = units.iter().find(|(s, _)| s == section) else {
                panic!("{profile} has no section `{section}`");
            };
            for sentence in listed {
                assert!(
                    found.1.contains(sentence),
                    "{profile} {section}: not a sentence of the text: {sentence}"
                );
            }
        }
    }
}

fn spec_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_SPEC_DIR") {
        return Some(PathBuf::from(dir));
    }
    [Path::new("../shared/spec"), Path::new("../../shared/spec")]
        .into_iter()
        .map(|p| workspace().join(p))
        .find(|p| p.join("rfc9309.md").is_file())
}

/// The texts as `shared/spec` keeps them (Markdown), cut into the units a quote is taken from.
mod spec_text {
    use super::*;

    /// Per section, in order: its units.
    pub fn units(text: &str, profile: Profile) -> Vec<(String, Vec<String>)> {
        let text = strip_comments(text);
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        let mut paragraph: Vec<&str> = Vec::new();
        let mut in_code = false;
        let push = |out: &mut Vec<(String, Vec<String>)>, unit: String| {
            if let Some(last) = out.last_mut() {
                last.1.push(unit);
            }
        };
        let flush = |out: &mut Vec<(String, Vec<String>)>, paragraph: &mut Vec<&str>| {
            let joined = normalize(&paragraph.join(" "));
            let joined = joined.strip_prefix("- ").unwrap_or(&joined).to_owned();
            for sentence in sentences_of(&joined) {
                push(out, sentence);
            }
            paragraph.clear();
        };
        for line in text.lines() {
            if line.starts_with("```") {
                flush(&mut out, &mut paragraph);
                in_code = !in_code;
                continue;
            }
            if in_code {
                code_line(&mut out, line, profile);
                continue;
            }
            if let Some(heading) = line.strip_prefix('#').map(|h| h.trim_start_matches('#')) {
                flush(&mut out, &mut paragraph);
                out.push((section_name(heading, profile), Vec::new()));
                continue;
            }
            if line.starts_with("    ") && paragraph.is_empty() && profile == Profile::Rfc9309 {
                let unit = normalize(line);
                if !unit.is_empty() {
                    push(&mut out, unit);
                }
                continue;
            }
            if line.starts_with('|') {
                flush(&mut out, &mut paragraph);
                let row = normalize(line.trim().trim_matches('|'));
                if !row.chars().all(|c| matches!(c, '-' | '|' | ' ')) {
                    push(&mut out, row);
                }
                continue;
            }
            if line.trim().is_empty() || line.starts_with("- ") {
                flush(&mut out, &mut paragraph);
            }
            if !line.trim().is_empty() {
                paragraph.push(line);
            }
        }
        flush(&mut out, &mut paragraph);
        out
    }

    fn strip_comments(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("<!--") {
            out.push_str(&rest[..start]);
            rest = rest[start..]
                .find("-->")
                .map_or("", |end| &rest[start + end + 3..]);
        }
        out.push_str(rest);
        out
    }

    /// A heading's section: RFC 9309's number (`2.2.1`), or the 1994 text's title without its
    /// anchor and a leading "The".
    fn section_name(heading: &str, profile: Profile) -> String {
        let heading = heading.trim();
        let heading = heading.split(" {#").next().unwrap_or(heading).trim();
        match profile {
            Profile::Rfc9309 => heading.split(". ").next().unwrap_or(heading).to_owned(),
            Profile::Norobots1994 => heading.strip_prefix("The ").unwrap_or(heading).to_owned(),
        }
    }

    /// A line of a code block: under RFC 9309 the ABNF, comments dropped and continuation lines
    /// joined to the rule they continue; under the 1994 text an example's line as it is.
    fn code_line(out: &mut [(String, Vec<String>)], line: &str, profile: Profile) {
        let Some((_, units)) = out.last_mut() else {
            return;
        };
        if profile == Profile::Norobots1994 {
            let unit = normalize(line);
            if !unit.is_empty() {
                units.push(unit);
            }
            return;
        }
        let unit = normalize(line.split(';').next().unwrap_or_default());
        if unit.is_empty() {
            return;
        }
        let starts_rule = unit
            .split_once(" = ")
            .is_some_and(|(name, _)| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        match units.last_mut() {
            Some(last) if !starts_rule => {
                last.push(' ');
                last.push_str(&unit);
            }
            _ => units.push(unit),
        }
    }

    /// A paragraph cut after each `.`, `!` or `?` that a space and a capital letter, a quote or
    /// a parenthesis follow.
    fn sentences_of(paragraph: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut start = 0;
        let chars: Vec<(usize, char)> = paragraph.char_indices().collect();
        for w in chars.windows(3) {
            let [(_, end), (space, ' '), (_, next)] = w else {
                continue;
            };
            if matches!(end, '.' | '!' | '?') && (next.is_uppercase() || matches!(next, '"' | '('))
            {
                out.push(paragraph[start..*space].to_owned());
                start = space + 1;
            }
        }
        if start < paragraph.len() {
            out.push(paragraph[start..].to_owned());
        }
        out.retain(|s| !s.is_empty());
        out
    }
}
