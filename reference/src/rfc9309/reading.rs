//! The lines of the chosen groups as this profile read them, for [`Explanation`]s: built only by
//! [`Robots::decide`], never on the path of [`Robots::is_allowed`].
//!
//! [`Explanation`]: crate::Explanation

use super::{pattern, Group, Names, Robots, RuleLine};
use crate::explain::{in_file_order, Boundary, LineMeaning, LineReading, MatchedBy};
use crate::lines::{Line, LineKind};

impl Robots<'_> {
    /// Every line of the groups that apply to `token` (chosen `by`), in file order, as
    /// [`crate::Explanation::lines`] lists them.
    pub(super) fn read_groups(&self, token: &[u8], by: MatchedBy, uri: &[u8]) -> Vec<LineReading> {
        let mut lines = Vec::new();
        for group in &self.groups {
            if self.applying_agent(group, token, by).is_none() {
                continue;
            }
            let agents = self.agents[group.agents.clone()].iter().map(|a| {
                let applies = match by {
                    MatchedBy::Name => a.names.names(token),
                    MatchedBy::Star => a.names == Names::Star,
                };
                LineReading {
                    line: a.line,
                    reading: LineMeaning::Agent {
                        value: lossy(a.value),
                        applies,
                    },
                }
            });
            let rules = self.rules[group.rules.clone()]
                .iter()
                .map(|r| reading(r, uri));
            let passed_over = self.passed_over_in(group).map(|l| LineReading {
                line: l.number,
                reading: LineMeaning::passed_over(l.kind),
            });
            // Groups come in file order and do not overlap.
            lines.extend(in_file_order([
                agents.collect(),
                rules.collect(),
                passed_over.collect(),
            ]));
        }
        lines
    }

    /// The lines passed over between a group's first and last lines.
    fn passed_over_in(&self, group: &Group) -> impl Iterator<Item = &Line<'_>> + '_ {
        let (first, last) = (group.first_line, group.last_line);
        let start = (self.passed_over).partition_point(|l| l.number < first);
        self.passed_over[start..]
            .iter()
            .take_while(move |l| l.number <= last)
    }

    /// What stands between group `index - 1` and group `index` (the file's edge when either is
    /// not there): a blank line, or the user-agent line right after the rule.
    pub(super) fn boundary_before(&self, index: usize) -> Boundary {
        let (Some(before), Some(after)) = (
            index.checked_sub(1).and_then(|i| self.groups.get(i)),
            self.groups.get(index),
        ) else {
            return Boundary::File;
        };
        let start = (self.passed_over).partition_point(|l| l.number <= before.last_line);
        let blank = self.passed_over[start..]
            .iter()
            .take_while(|l| l.number < after.first_line)
            .any(|l| l.kind == LineKind::Blank);
        if blank {
            Boundary::BlankLine
        } else {
            Boundary::UserAgent
        }
    }

    /// The rules outside every group (before the first user-agent line), each with whether it
    /// would match.
    pub(super) fn read_outside(&self, uri: &[u8]) -> Vec<LineReading> {
        self.outside.iter().map(|r| reading(r, uri)).collect()
    }

    /// The `*` user-agent lines of groups that do not apply because a group names the crawler.
    pub(super) fn star_passed_over(&self, token: &[u8], by: Option<MatchedBy>) -> Vec<u32> {
        if by != Some(MatchedBy::Name) {
            return Vec::new();
        }
        (self.groups.iter())
            .filter(|g| self.applying_agent(g, token, MatchedBy::Name).is_none())
            .flat_map(|g| &self.agents[g.agents.clone()])
            .filter(|a| a.names == Names::Star)
            .map(|a| a.line)
            .collect()
    }
}

/// A rule line and whether it matches `uri`, as `Robots::best_rule` matches: its path in normal
/// form, an empty one matching nothing.
fn reading(rule: &RuleLine<'_>, uri: &[u8]) -> LineReading {
    let pattern = rule.pattern();
    LineReading {
        line: rule.line,
        reading: LineMeaning::Rule {
            kind: rule.kind,
            value: lossy(rule.value),
            matches: !pattern.is_empty() && pattern::matches(pattern, uri),
        },
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
