//! Showing an adapter's repeated error once: a parser that refuses every body with the same
//! message, or a process that fails the same way on every check, would otherwise fill a report
//! with one copy per check.

use std::borrow::Cow;
use std::collections::HashMap;

use robotstxt_suite::cases::Case;
use robotstxt_suite::run::CheckResult;
use robotstxt_suite::visible::Outside;

/// The details already shown for one engine, each with the check that showed it first.
#[derive(Debug, Default)]
pub struct ShownOnce {
    first: HashMap<Outside, String>,
}

impl ShownOnce {
    /// `result` as it is when its detail is new; otherwise with the detail replaced by a pointer
    /// to the check that showed it first.
    pub fn result<'r>(&mut self, case: &Case, result: &'r CheckResult) -> Cow<'r, CheckResult> {
        let Some(detail) = &result.detail else {
            return Cow::Borrowed(result);
        };
        let id = format!("{}#{}", case.id, result.check);
        match self.first.get(detail) {
            Some(first) => {
                let mut shorter = result.clone();
                shorter.detail = Some(format!("the same as for {first}").into());
                Cow::Owned(shorter)
            }
            None => {
                self.first.insert(detail.clone(), id);
                Cow::Borrowed(result)
            }
        }
    }
}
