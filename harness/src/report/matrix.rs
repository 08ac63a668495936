//! The numbers and groupings the report pages share: per-group cells (passed / scored), totals,
//! rows that behave identically, and the cases where parsers split.

use std::collections::BTreeMap;

use robotstxt_reference::Profile;

use robotstxt_suite::cases::Case;
use robotstxt_suite::readings::Reading;
use robotstxt_suite::run::{CheckResult, Outcome};

use super::{AdapterRun, Report};

/// A case group (a topic file) and its cases' indices, in corpus order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicGroup {
    pub name: String,
    pub cases: Vec<usize>,
}

/// The groups of the corpus, in the order their first case appears.
pub fn groups(cases: &[Case]) -> Vec<TopicGroup> {
    let mut groups: Vec<TopicGroup> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match groups.iter_mut().find(|g| g.name == case.group) {
            Some(group) => group.cases.push(i),
            None => groups.push(TopicGroup {
                name: case.group.clone(),
                cases: vec![i],
            }),
        }
    }
    groups
}

/// One cell of the matrix: how many of the scored checks passed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cell {
    pub passed: usize,
    /// Checks that count: every outcome but unspecified and skipped.
    pub scored: usize,
    /// Checks not run because the adapter was unavailable or broken.
    pub skipped: usize,
}

impl Cell {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a CheckResult>) -> Cell {
        let mut cell = Cell::default();
        for r in results {
            if r.outcome == Outcome::Skipped {
                cell.skipped += 1;
            } else if r.outcome.is_scored() {
                cell.scored += 1;
                cell.passed += usize::from(r.outcome == Outcome::Pass);
            }
        }
        cell
    }

    /// The decided checks among `results`: those that rest on no reading (see
    /// [`robotstxt_suite::readings`]). The headline and the ranking count these alone.
    pub fn decided<'a>(results: impl IntoIterator<Item = &'a CheckResult>) -> Cell {
        Cell::of(results.into_iter().filter(|r| r.rests_on.is_empty()))
    }

    /// The checks among `results` that rest on `reading`: how far the adapter agrees with it.
    pub fn on_reading<'a>(
        results: impl IntoIterator<Item = &'a CheckResult>,
        reading: Reading,
    ) -> Cell {
        Cell::of(results.into_iter().filter(|r| r.rests_on.contains(reading)))
    }

    /// `passed/scored`, or `–` when nothing in it was scored.
    pub fn shown(&self) -> String {
        if self.scored == 0 {
            "–".to_owned()
        } else {
            format!("{}/{}", self.passed, self.scored)
        }
    }

    /// The share passed, in percent, when anything was scored.
    pub fn percent(&self) -> Option<f64> {
        (self.scored > 0).then(|| 100.0 * self.passed as f64 / self.scored as f64)
    }
}

/// An adapter's cell for each group, under `profile` (`None`: the claimed one), counting the
/// decided checks.
pub fn cells(run: &AdapterRun, groups: &[TopicGroup], profile: Option<Profile>) -> Vec<Cell> {
    let results = run.results(profile);
    groups
        .iter()
        .map(|g| {
            Cell::decided(
                results
                    .iter()
                    .filter(|r| g.cases.binary_search(&r.case).is_ok()),
            )
        })
        .collect()
}

/// The scorings every page shows totals for: the claimed profile, then each of [`Profile::ALL`].
pub fn scorings() -> Vec<(String, Option<Profile>)> {
    std::iter::once(("claimed".to_owned(), None))
        .chain(Profile::ALL.iter().map(|p| (p.name().to_owned(), Some(*p))))
        .collect()
}

/// What an adapter answered to one check, independent of any expectation: `allowed`,
/// `disallowed`, or what went wrong (`error`, `crash`, `timeout`, `protocol-error`, `skipped`).
pub fn answer(result: &CheckResult) -> &'static str {
    match result.actual {
        Some(verdict) => verdict.as_str(),
        None => result.open_fault.unwrap_or(result.outcome).as_str(),
    }
}

/// One letter per answer, for compact summaries: `A`, `D`, `E`rror, `Q`uery error, `C`rash, `T`imeout,
/// `P`rotocol error, `S`kipped.
pub fn letter(answer: &str) -> char {
    match answer {
        "allowed" => 'A',
        "disallowed" => 'D',
        "error" => 'E',
        "query-error" => 'Q',
        "crash" => 'C',
        "timeout" => 'T',
        "protocol-error" => 'P',
        _ => 'S',
    }
}

/// The adapters (indices) grouped so that those giving the same answer to every check share a
/// group, never across profiles; groups ranked within the profile their adapters claim
/// ([`profile_rank`]: RFC 9309 first), by their claimed total, adapters with no data last.
/// Scores under different profiles are never ranked against each other.
pub fn identical_rows(report: &Report) -> Vec<Vec<usize>> {
    let mut by_answers: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, run) in report.adapters.iter().enumerate() {
        let key: String = if run.has_data() {
            let answers: String = run.claimed.iter().map(|r| letter(answer(r))).collect();
            format!("{} {answers}", run.handshake.profile.raw())
        } else {
            format!("no data {i}")
        };
        by_answers.entry(key).or_default().push(i);
    }
    let mut rows: Vec<Vec<usize>> = by_answers.into_values().collect();
    let rank = |group: &Vec<usize>| {
        let run = &report.adapters[group[0]];
        let total = Cell::decided(&run.claimed);
        (
            !run.has_data(),
            profile_rank(run.handshake.profile.raw()),
            std::cmp::Reverse((total.percent().unwrap_or(0.0) * 1000.0) as u64),
            run.handshake.name.clone(),
        )
    };
    rows.sort_by_key(rank);
    rows
}

/// Where the adapters claiming `profile` stand among the profiles: the newest text first (RFC
/// 9309, then the 1994 text), any other claim last.
pub fn profile_rank(profile: &str) -> usize {
    let all = Profile::ALL;
    all.iter()
        .rev()
        .position(|p| p.name() == profile)
        .unwrap_or(all.len())
}

/// A case the adapters with data do not all answer alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub case: usize,
    /// The distinct answer strings (one letter per check), each with its adapters' indices,
    /// most common first.
    pub answers: Vec<(String, Vec<usize>)>,
}

/// Every case where the adapters with data split, in corpus order.
pub fn splits(report: &Report) -> Vec<Split> {
    let with_data: Vec<usize> = (0..report.adapters.len())
        .filter(|&i| report.adapters[i].has_data())
        .collect();
    let mut by_case: Vec<BTreeMap<String, Vec<usize>>> = vec![BTreeMap::new(); report.cases.len()];
    for &a in &with_data {
        let run = &report.adapters[a];
        let mut per_case: Vec<String> = vec![String::new(); report.cases.len()];
        for r in &run.claimed {
            per_case[r.case].push(letter(answer(r)));
        }
        for (case, answers) in per_case.into_iter().enumerate() {
            // Checks skipped because the adapter broke down part way say nothing about the parser.
            if !answers.contains('S') {
                by_case[case].entry(answers).or_default().push(a);
            }
        }
    }
    by_case
        .into_iter()
        .enumerate()
        .filter(|(_, answers)| answers.len() > 1)
        .map(|(case, answers)| {
            let mut answers: Vec<(String, Vec<usize>)> = answers.into_iter().collect();
            answers.sort_by_key(|(s, who)| (std::cmp::Reverse(who.len()), s.clone()));
            Split { case, answers }
        })
        .collect()
}

/// A case's expected answers under `profile` (falling back per check to norobots-1994), one
/// letter per check: `A`, `D`, or `?` where the profile leaves it open or names nothing.
pub fn expected_letters(case: &Case, profile: Profile) -> String {
    case.checks
        .iter()
        .map(|c| match c.expect.scored_under(Some(profile)) {
            Some((_, robotstxt_suite::cases::Ruling::Is(v))) => letter(v.as_str()),
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use robotstxt_reference::Verdict::{Allowed, Disallowed};

    use super::*;
    use robotstxt_suite::cases::parse_file;
    use robotstxt_suite::engine::{Failure, Fault, Handshake, Reply};
    use robotstxt_suite::run::{score, Scoring};

    const CORPUS: &str = r#"cases:
  - name: one
    spec: test
    robots: "User-agent: *\nDisallow: /a\n"
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
      - { agent: FooBot, path: /b, expect: allowed }
  - name: two
    spec: test
    robots: ""
    checks:
      - { agent: FooBot, path: /a, expect: { norobots-1994: unspecified } }
"#;

    /// An adapter that gave `replies` (one per case).
    fn adapter(name: &str, cases: &[Case], replies: &[Result<Reply, Failure>]) -> AdapterRun {
        let scored = |scoring| {
            cases
                .iter()
                .zip(replies)
                .enumerate()
                .flat_map(|(i, (case, reply))| score(i, case, reply, scoring))
                .collect::<Vec<_>>()
        };
        let unavailable = replies
            .iter()
            .any(|r| matches!(r, Err(f) if f.fault == Fault::Unavailable))
            .then(|| "not installed".to_owned());
        AdapterRun {
            handshake: Handshake {
                name: name.into(),
                parser: name.into(),
                version: "1".into(),
                language: "Rust".into(),
                homepage: Default::default(),
                profile: "norobots-1994".into(),
            },
            about: None,
            unavailable: unavailable.map(Into::into),
            case_times: vec![Duration::ZERO; cases.len()],
            claimed: scored(Scoring::Claimed(Some(Profile::Norobots1994))),
            by_profile: Profile::ALL
                .iter()
                .map(|&p| (p, scored(Scoring::Forced(p))))
                .collect(),
        }
    }

    #[test]
    fn decided_checks_and_readings_are_counted_apart() {
        let corpus = "cases:\n  - name: one\n    spec: test\n    robots: \"User-agent: *\\nDisallow:\\n\"\n    checks:\n      - { agent: FooBot, path: /a, expect: allowed, reading: empty-rule-matches-nothing }\n      - { agent: FooBot, path: /a, expect: { norobots-1994: allowed } }\n";
        let cases = parse_file(corpus, Path::new("t.yaml"), "t").unwrap();
        let reply = Ok(Reply::Verdicts(vec![Disallowed, Allowed]));
        let claimed = score(
            0,
            &cases[0],
            &reply,
            Scoring::Claimed(Some(Profile::Rfc9309)),
        );
        // Under rfc9309 the first check rests on the reading; the second falls back to 1994.
        assert_eq!(Cell::decided(&claimed).shown(), "1/1");
        assert_eq!(
            Cell::on_reading(&claimed, Reading::EmptyRuleMatchesNothing).shown(),
            "0/1"
        );
        assert_eq!(
            Cell::on_reading(&claimed, Reading::WholeTokenMatch).shown(),
            "–"
        );
        // Under 1994 the reading does not apply: both checks are decided.
        let forced = score(0, &cases[0], &reply, Scoring::Forced(Profile::Norobots1994));
        assert_eq!(Cell::decided(&forced).shown(), "1/2");
    }

    #[test]
    fn cells_groups_and_splits() {
        let cases = parse_file(CORPUS, Path::new("t.yaml"), "t").unwrap();
        let right = Ok(Reply::Verdicts(vec![Disallowed, Allowed]));
        let wrong = Ok(Reply::Verdicts(vec![Allowed, Allowed]));
        let open = Ok(Reply::Verdicts(vec![Allowed]));
        let gone = Err(Failure {
            fault: Fault::Unavailable,
            detail: "adapter unavailable: not installed".into(),
        });
        let report = Report {
            suite_commit: "unknown".to_owned(),
            suite_modified: false,
            tool_version: "0".to_owned(),
            corpus: robotstxt_suite::release::CorpusId::of(&cases, None),
            command: "robotstxt-test report".to_owned(),
            date: "1970-01-01T00:00:00Z".to_owned(),
            adapters: vec![
                adapter("missing", &cases, &[gone.clone(), gone]),
                adapter("bad", &cases, &[wrong, open.clone()]),
                adapter("good", &cases, &[right.clone(), open.clone()]),
                adapter("also-good", &cases, &[right, open]),
            ],
            cases,
            crawl: None,
            history: Vec::new(),
        };
        let groups = groups(&report.cases);
        assert_eq!(
            groups,
            [TopicGroup {
                name: "t".to_owned(),
                cases: vec![0, 1]
            }]
        );
        // The unspecified check is not scored; the unavailable adapter has no data at all.
        let good = cells(&report.adapters[2], &groups, None);
        assert_eq!(
            good,
            [Cell {
                passed: 2,
                scored: 2,
                skipped: 0
            }]
        );
        assert_eq!(good[0].shown(), "2/2");
        let missing = &report.adapters[0];
        assert!(!missing.has_data());
        assert_eq!(Cell::of(&missing.claimed).shown(), "–");
        assert_eq!(Cell::of(&report.adapters[1].claimed).shown(), "1/2");
        // Identical rows together, best first, no data last.
        assert_eq!(identical_rows(&report), [vec![2, 3], vec![1], vec![0]]);
        // Only the first case splits; the adapter without data takes no part.
        let splits = splits(&report);
        assert_eq!(
            splits,
            [Split {
                case: 0,
                answers: vec![("DA".to_owned(), vec![2, 3]), ("AA".to_owned(), vec![1])]
            }]
        );
        assert_eq!(
            expected_letters(&report.cases[1], Profile::Norobots1994),
            "?"
        );
    }
}
