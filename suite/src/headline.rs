//! The one score a result is cited by: the share of *decided* checks passed (those resting on no
//! reading, see [`crate::readings`]) under the profile the checks were scored under, with the
//! corpus's suite version. `run` (every format), `report` (Markdown, HTML, `results.json`), the
//! badge and `--version` all print it through [`Headline`], so the number, its label and its
//! rounding are the same everywhere.

use crate::run::{CheckResult, Outcome};

/// What the percentage counts, as every output says it.
pub const LABEL: &str = "of decided checks";

/// The headline score of one engine's results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headline {
    /// Decided checks passed.
    pub passed: usize,
    /// Decided checks scored (every outcome but unspecified and skipped).
    pub decided: usize,
    /// The profile the checks were scored under: `rfc9309`, `norobots-1994`.
    pub profile: String,
    /// The corpus's suite version as a result cites it (`1.0.0`, `1.0.0+changes`).
    pub suite_version: String,
    /// Whether only part of the corpus was run (a filtered run): the score is then no citation
    /// of the suite.
    pub partial: bool,
}

impl Headline {
    /// The headline of `results`, scored under `profile`, of the corpus at `suite_version`.
    pub fn of(results: &[CheckResult], profile: &str, suite_version: &str) -> Headline {
        let decided = results
            .iter()
            .filter(|r| r.rests_on.is_empty() && r.outcome.is_scored());
        let (mut passed, mut scored) = (0, 0);
        for r in decided {
            scored += 1;
            passed += usize::from(r.outcome == Outcome::Pass);
        }
        Headline {
            passed,
            decided: scored,
            profile: profile.to_owned(),
            suite_version: suite_version.to_owned(),
            partial: false,
        }
    }

    /// The same score, marked as of part of the corpus.
    pub fn partial(mut self, partial: bool) -> Headline {
        self.partial = partial;
        self
    }

    /// The share passed, in percent, when any decided check was scored.
    pub fn ratio(&self) -> Option<f64> {
        (self.decided > 0).then(|| 100.0 * self.passed as f64 / self.decided as f64)
    }

    /// `95.4%` (one decimal, cut rather than rounded so that 99.96% never shows as 100.0%), or
    /// `–` when nothing decided was scored.
    pub fn percent(&self) -> String {
        percent_of(self.passed, self.decided)
    }

    /// `95.4% of decided checks (rfc9309)`.
    pub fn label(&self) -> String {
        format!("{} {LABEL} ({})", self.percent(), self.profile)
    }

    /// `95.4% of decided checks (rfc9309), suite 1.0.0`, with `partial run` when filtered.
    pub fn with_suite(&self) -> String {
        let partial = if self.partial { ", partial run" } else { "" };
        format!("{}, suite {}{partial}", self.label(), self.suite_version)
    }

    /// The line to cite: `passes robotstxt-test suite 1.0.0: 95.4% of decided checks (rfc9309)`.
    /// A partial run's line says so, so that it is never cited as the suite's.
    pub fn citation(&self) -> String {
        let partial = if self.partial { " (partial run)" } else { "" };
        citation_form(&self.suite_version, &self.label()) + partial
    }
}

/// `passed` of `scored` as the headline shows a share: `95.4%`, cut to a tenth in integer
/// arithmetic (so that no float rounding differs between outputs), `–` when nothing was scored.
pub fn percent_of(passed: usize, scored: usize) -> String {
    if scored == 0 {
        return "–".to_owned();
    }
    let tenths = passed * 1000 / scored;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// The citation form with its score as given: `--version` shows it with placeholders.
pub fn citation_form(suite_version: &str, label: &str) -> String {
    format!("passes robotstxt-test suite {suite_version}: {label}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::{Reading, Readings};

    fn result(outcome: Outcome, rests_on: Readings) -> CheckResult {
        CheckResult {
            case: 0,
            check: 0,
            scored_under: None,
            expected: None,
            actual: None,
            outcome,
            detail: None,
            open_fault: None,
            rests_on,
            handed: None,
        }
    }

    #[test]
    fn counts_decided_checks_alone_and_cuts_to_a_tenth() {
        let mut results = vec![result(Outcome::Pass, Readings::NONE); 1815];
        results.extend(vec![result(Outcome::Fail, Readings::NONE); 87]);
        // Resting on a reading, or not scored: not counted.
        let mut reading = Readings::NONE;
        reading.insert(Reading::ALL[0]);
        results.push(result(Outcome::Fail, reading));
        results.push(result(Outcome::Unspecified, Readings::NONE));
        results.push(result(Outcome::Skipped, Readings::NONE));
        let headline = Headline::of(&results, "rfc9309", "1.0.0");
        assert_eq!((headline.passed, headline.decided), (1815, 1902));
        assert_eq!(headline.percent(), "95.4%");
        assert_eq!(
            headline.citation(),
            "passes robotstxt-test suite 1.0.0: 95.4% of decided checks (rfc9309)"
        );
        let all_but_one = Headline::of(
            &[
                vec![result(Outcome::Pass, Readings::NONE); 9999],
                vec![result(Outcome::Fail, Readings::NONE)],
            ]
            .concat(),
            "rfc9309",
            "1.0.0",
        );
        assert_eq!(all_but_one.percent(), "99.9%");
        assert!(Headline::of(&[], "rfc9309", "1.0.0").percent() == "–");
        assert!(headline.partial(true).citation().contains("partial run"));
    }
}
