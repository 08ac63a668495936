//! `run`'s selection: by topic (a case file's group), by case (its id, or one check as `id#N`)
//! and by group of non-passes (a cause, by its id or its label). A run filtered so is partial:
//! its score still names the suite version, marked as partial, and it writes no expectation file.

use std::str::FromStr;

use robotstxt_reference::{Profile, Verdict};
use robotstxt_suite::cases::Case;
use robotstxt_suite::cause::{self, BodyMarks, Cause};
use robotstxt_suite::run::{CheckResult, Outcome};

use super::Error;

/// The filters of `run`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct FilterArgs {
    /// Run only the cases of this topic (a case file's group: `records`, `comments`...);
    /// repeatable. The result is marked partial.
    #[arg(long = "topic", id = "topic_filter", value_name = "TOPIC")]
    pub topics: Vec<String>,
    /// Run only this case (`records/blank-line`), or one check of it (`records/blank-line#1`);
    /// repeatable. The result is marked partial.
    #[arg(long = "case", id = "case_filter", value_name = "ID[#N]")]
    pub cases: Vec<String>,
    /// Keep only the checks of this group, as `run` heads its groups (the label, or its id:
    /// `allow-decides`); repeatable. A check that passes is kept when it would fall in the group
    /// were it failed. The result is marked partial.
    #[arg(long = "group", id = "group_filter", value_name = "GROUP", value_parser = parse_group)]
    pub groups: Vec<Cause>,
}

fn parse_group(text: &str) -> Result<Cause, String> {
    Cause::from_str(text).map_err(|_| {
        let known: Vec<String> = Cause::ALL.iter().map(|c| c.id().to_owned()).collect();
        format!(
            "no such group; a group is a label `run` heads its groups with, or its id:\n{}",
            robotstxt_test::output::grouped::wrapped("  ", &known).trim_end()
        )
    })
}

impl FilterArgs {
    /// Whether any filter is given: the run is then partial.
    pub fn any(&self) -> bool {
        !self.topics.is_empty() || !self.cases.is_empty() || !self.groups.is_empty()
    }

    /// The cases of `cases` that the topic and case filters keep, each with only the checks
    /// `id#N` names (all of them otherwise), in corpus order. An unknown topic or case is an
    /// error naming those there are.
    pub fn cases(&self, cases: Vec<Case>) -> Result<Vec<Case>, Error> {
        for topic in &self.topics {
            if !cases.iter().any(|c| &c.group == topic) {
                let mut known: Vec<&str> = cases.iter().map(|c| c.group.as_str()).collect();
                known.dedup();
                return Err(Error::usage(format!(
                    "--topic {topic}: no such topic; the topics are: {}",
                    known.join(", ")
                )));
            }
        }
        let wanted: Vec<(&str, Option<usize>)> = (self.cases.iter())
            .map(|c| match c.rsplit_once('#') {
                Some((id, n)) => match n.parse() {
                    Ok(n) => Ok((id, Some(n))),
                    Err(_) => Err(Error::usage(format!(
                        "--case {c}: `{n}` is no check number (checks are numbered from 0)"
                    ))),
                },
                None => Ok((c.as_str(), None)),
            })
            .collect::<Result<_, _>>()?;
        for (id, check) in &wanted {
            match cases.iter().find(|c| c.id == *id) {
                None => {
                    return Err(Error::usage(format!(
                        "--case {id}: no such case (`robotstxt-test cases` lists them)"
                    )))
                }
                Some(case) if check.is_some_and(|n| n >= case.checks.len()) => {
                    return Err(Error::usage(format!(
                        "--case {id}#{}: the case has {} checks, numbered from 0",
                        check.unwrap_or_default(),
                        case.checks.len()
                    )))
                }
                Some(_) => {}
            }
        }
        let mut kept = Vec::new();
        for mut case in cases {
            if !self.topics.is_empty() && !self.topics.contains(&case.group) {
                continue;
            }
            if !wanted.is_empty() {
                let named: Vec<Option<usize>> = (wanted.iter())
                    .filter(|(id, _)| *id == case.id)
                    .map(|(_, n)| *n)
                    .collect();
                if named.is_empty() {
                    continue;
                }
                if !named.contains(&None) {
                    let mut index = 0;
                    case.checks.retain(|_| {
                        index += 1;
                        named.contains(&Some(index - 1))
                    });
                }
            }
            if !self.groups.is_empty() && !self.may_hold_group(&case) {
                continue;
            }
            kept.push(case);
        }
        if kept.is_empty() {
            return Err(Error::usage(
                "the filters keep no case: --topic, --case and --group together select nothing",
            ));
        }
        Ok(kept)
    }

    /// Whether a case may hold a check of the groups asked for: any group of how an adapter
    /// fails (a crash, a timeout...) may come from any case; a group of what decided is looked
    /// up under every profile, and so is a misreading, as the one that would explain the other
    /// verdict.
    fn may_hold_group(&self, case: &Case) -> bool {
        if self.groups.iter().any(|g| g.is_adapter_fault()) {
            return true;
        }
        let marks = BodyMarks::of(&case.robots);
        case.checks.iter().any(|check| {
            Profile::ALL.iter().any(|&profile| {
                let robots = robotstxt_reference::Robots::parse(profile, &case.robots);
                let decision = robots.decide(&check.agent, &check.path);
                let other = if robots.is_allowed(&check.agent, &check.path) {
                    Verdict::Disallowed
                } else {
                    Verdict::Allowed
                };
                let misread = cause::misreadings::explaining(
                    profile,
                    &case.robots,
                    &check.agent,
                    &check.path,
                    other,
                );
                misread.is_some_and(|m| self.groups.contains(&m))
                    || (self.groups).contains(&cause::of_decision(&marks, &check.path, &decision))
            })
        })
    }

    /// Keeps the results of the groups asked for (all of them without `--group`): a non-pass by
    /// its cause, any other scored check by the cause it would have as a failure.
    pub fn results(&self, cases: &[Case], results: &mut Vec<CheckResult>) {
        if self.groups.is_empty() {
            return;
        }
        results.retain(|r| self.groups.contains(&group_of(&cases[r.case], r)));
    }

    /// What the filters are, for a partial run's documents: `topic records, case a/b#1`.
    pub fn described(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.topics.iter().map(|t| format!("topic {t}")));
        parts.extend(self.cases.iter().map(|c| format!("case {c}")));
        parts.extend(self.groups.iter().map(|g| format!("group {}", g.id())));
        parts.join(", ")
    }
}

/// The group a check falls in: its cause when it did not pass, else the cause it would have
/// had as a failure.
fn group_of(case: &Case, result: &CheckResult) -> Cause {
    if crate_grouped(result) {
        return cause::of_result(case, result);
    }
    let failed = CheckResult {
        outcome: Outcome::Fail,
        ..result.clone()
    };
    cause::of_result(case, &failed)
}

fn crate_grouped(result: &CheckResult) -> bool {
    robotstxt_test::grouping::is_grouped(result)
}
