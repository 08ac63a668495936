//! Non-passes grouped by what causes them, computed once, as data, for every format that shows a
//! run: the terminal (`run`), the Markdown report and its adapter pages, the HTML page; the same
//! [`Cause`] is what `--update-expectations` writes into each entry, so an expectation file reads
//! by cause.
//!
//! Each check's cause is read by [`robotstxt_suite::cause`]: where the parser's answer is the one
//! a known misreading gives, the cause names the fix ("strip a whole-line comment", "accept white
//! space before the colon"); otherwise what decided ("an Allow line decides"). The groups are
//! shown by its label, the same in every format.

use std::collections::BTreeMap;

use robotstxt_suite::cases::Case;
use robotstxt_suite::cause::{self, Cause};
use robotstxt_suite::run::{CheckResult, Outcome};

/// The non-passes of one cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// What causes them.
    pub cause: Cause,
    /// Indexes into the results, in result (corpus) order.
    pub results: Vec<usize>,
    /// The one shown in full: the member whose case has the shortest body, so it reads fastest.
    pub representative: usize,
    /// How many distinct cases those results come from.
    pub cases: usize,
}

impl Group {
    /// `CR-only line endings: 14 checks in 6 cases`.
    pub fn heading(&self) -> String {
        let checks = self.results.len();
        let (s, cs) = (plural(checks, "check"), plural(self.cases, "case"));
        format!("{}: {checks} {s} in {} {cs}", self.cause, self.cases)
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// Whether a result is a non-pass the grouping covers: everything but a pass, an open check and
/// a check never asked.
pub fn is_grouped(result: &CheckResult) -> bool {
    !matches!(
        result.outcome,
        Outcome::Pass | Outcome::Unspecified | Outcome::Skipped
    )
}

/// The non-passes of `results` (one engine's, over `cases`) grouped by cause: the largest group
/// first, ties by cause.
pub fn group(cases: &[Case], results: &[CheckResult]) -> Vec<Group> {
    let mut by_cause: BTreeMap<Cause, Vec<usize>> = BTreeMap::new();
    for (i, result) in results.iter().enumerate() {
        if is_grouped(result) {
            by_cause
                .entry(cause::of_result(&cases[result.case], result))
                .or_default()
                .push(i);
        }
    }
    let mut groups: Vec<Group> = by_cause
        .into_iter()
        .map(|(cause, members)| {
            let mut seen: Vec<usize> = members.iter().map(|&i| results[i].case).collect();
            seen.dedup();
            seen.sort_unstable();
            seen.dedup();
            let representative = *members
                .iter()
                .min_by_key(|&&i| cases[results[i].case].robots.len())
                .expect("a group has members");
            Group {
                cause,
                cases: seen.len(),
                results: members,
                representative,
            }
        })
        .collect();
    // Ties by label, as people read them.
    groups.sort_by(|a, b| {
        (b.results.len(), a.cause.label()).cmp(&(a.results.len(), b.cause.label()))
    });
    groups
}

/// The cause of a result that `run` groups, as [`crate::grouping`] reads it: the one
/// place results files take it from, so that `diff` groups as `run` does.
pub fn cause_of(case: &Case, result: &CheckResult) -> Option<Cause> {
    is_grouped(result).then(|| cause::of_result(case, result))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use robotstxt_reference::Profile;
    use robotstxt_reference::Verdict::{Allowed, Disallowed};
    use robotstxt_suite::cases::parse_file;
    use robotstxt_suite::engine::{Failure, Fault, Reply};
    use robotstxt_suite::run::{score, Scoring};

    const CORPUS: &str = r#"
cases:
  - name: cr-only
    spec: t
    robots: "User-agent: *\rDisallow: /a\r"
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
      - { agent: FooBot, path: /a/b, expect: disallowed }
  - name: allow
    spec: t
    robots: "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
    checks:
      - { agent: FooBot, path: /a/b, expect: { norobots-1994: disallowed, rfc9309: allowed } }
  - name: star
    spec: t
    robots: "User-agent: FooBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /a\n"
    checks:
      - { agent: BarBot, path: /a, expect: disallowed }
"#;

    #[test]
    fn non_passes_group_by_cause_largest_first() {
        let cases = parse_file(CORPUS, Path::new("t.yaml"), "t").unwrap();
        let scoring = Scoring::Claimed(Some(Profile::Rfc9309));
        let replies = [
            Ok(Reply::Verdicts(vec![Allowed, Allowed])),
            Ok(Reply::Verdicts(vec![Disallowed])),
            Err(Failure {
                fault: Fault::Crash,
                detail: "gone".into(),
            }),
        ];
        let results: Vec<CheckResult> = (cases.iter().zip(&replies).enumerate())
            .flat_map(|(i, (case, reply))| score(i, case, reply, scoring))
            .collect();
        let groups = group(&cases, &results);
        let headings: Vec<String> = groups.iter().map(Group::heading).collect();
        assert_eq!(
            headings,
            [
                "CR-only line endings: 2 checks in 1 case",
                // The parser's answer is the one a parser that passes over Allow lines gives.
                "read Allow lines, not Disallow lines alone: 1 check in 1 case",
                "the adapter crashes: 1 check in 1 case",
            ]
        );
        assert_eq!(groups[0].results, [0, 1]);
    }
}
