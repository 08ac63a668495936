//! `results.csv`: every result of a report, one row per adapter, profile and check, for a
//! spreadsheet or a notebook: the same answers `results.json` holds, scored under each profile
//! of [`Profile::ALL`] (falling back per check to `norobots-1994`, as the totals do).
//!
//! Fields are quoted as RFC 4180 says (a field holding a comma, a quote or a line break is put in
//! quotes, its quotes doubled). Text from outside (an adapter's name or version) is made visible
//! first, and a field a spreadsheet would take for a formula (one that starts with `=`, `+`,
//! `-` or `@`) is preceded by `'`, so that opening the file runs nothing.

use std::fmt::Write as _;

use robotstxt_reference::Profile;
use robotstxt_suite::engine::ClaimedProfile;

use super::{matrix, Report};
use crate::grouping;

/// The header row.
pub const HEADER: &str = "adapter,version,profile,claimed,check,expected,actual,outcome,group";

/// The whole file.
pub fn document(report: &Report) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str(HEADER);
    out.push_str("\r\n");
    for run in &report.adapters {
        let name = field(&run.handshake.name.shown());
        let version = field(&run.handshake.version.shown());
        let claimed = run.handshake.claimed_profile();
        for &profile in Profile::ALL {
            let results = run.results(Some(profile));
            // The group of each non-pass: its cause, as `run` and the pages group them.
            let mut group = vec![None; results.len()];
            for g in grouping::group(&report.cases, results) {
                for &i in &g.results {
                    group[i] = Some(g.cause.label());
                }
            }
            for (result, group) in results.iter().zip(group) {
                let case = &report.cases[result.case];
                let expected = result.expected.map(|r| r.to_string()).unwrap_or_default();
                let _ = write!(
                    out,
                    "{name},{version},{},{},{},{},{},{},{}\r\n",
                    profile.name(),
                    if claimed == Some(profile) {
                        "yes"
                    } else {
                        "no"
                    },
                    field(&format!("{}#{}", case.id, result.check)),
                    field(&expected),
                    matrix::answer(result),
                    result.outcome.as_str(),
                    field(group.unwrap_or_default()),
                );
            }
        }
    }
    out
}

/// One field, quoted when it must be and kept from reading as a formula.
fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::field;

    #[test]
    fn fields_are_quoted_and_never_formulas() {
        assert_eq!(field("python-urllib"), "python-urllib");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=1+1"), "'=1+1");
        assert_eq!(field("@SUM(A1),x"), "\"'@SUM(A1),x\"");
        assert_eq!(field("line\nbreak"), "\"line\nbreak\"");
    }
}
