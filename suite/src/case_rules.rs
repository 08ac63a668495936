//! The rules that tie a case's fields together beyond what each field's own parsing checks:
//! where a reading may be named, and which checks of a reported case test what was reported.
//! Each returns a [`RuleError`], which [`crate::cases`] reports at the case's or the check's line.

use robotstxt_reference::{Profile, Verdict};

use crate::expected::{Expected, Ruling};
use crate::readings::{Reading, Readings};

/// What the reported behaviour does on a check that tests it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reported {
    /// It answers this.
    Answer(Verdict),
    /// It gives no answer: the parser crashes, stalls or refuses the file.
    Fault,
}

impl Reported {
    /// The spelling case files use: `allowed`, `disallowed` or `fault`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reported::Answer(v) => v.as_str(),
            Reported::Fault => "fault",
        }
    }

    /// Whether a parser behaving as reported fails the check where it is scored as `ruling`.
    pub fn fails(self, ruling: Ruling) -> bool {
        match (self, ruling) {
            (_, Ruling::Unspecified) => false,
            (Reported::Fault, Ruling::Is(_)) => true,
            (Reported::Answer(answer), Ruling::Is(expected)) => answer != expected,
        }
    }
}

/// A case or check whose fields do not hold together, as [`crate::cases`] reports it at the case's
/// or the check's line.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    #[error("check (agent `{agent}`, path `{path}`): reading `{reading}` belongs to {profile}, which does not score this check")]
    ReadingNotScored {
        agent: String,
        path: String,
        reading: Reading,
        profile: Profile,
    },
    #[error("check (agent `{agent}`, path `{path}`): reported `{given}`: write what the reported behaviour gives here, `allowed`, `disallowed` or `fault`")]
    BadReportedAnswer {
        agent: String,
        path: String,
        given: String,
    },
    #[error(
        "case `{case}`: reading `{reading}` belongs to {profile} and no check is scored under it"
    )]
    ReadingAppliesNowhere {
        case: String,
        reading: Reading,
        profile: Profile,
    },
    #[error("case `{0}`: a `reported` case marks the checks that test the reported behaviour with what it gives there (`reported: allowed`, `disallowed` or `fault`)")]
    ReportedUnmarked(String),
    #[error(
        "case `{0}`: a check gives a `reported` answer but the case gives no `reported` thread"
    )]
    MarkedUnreported(String),
}

/// A check's own `reading` and `reported` fields: every reading it names must belong to a profile
/// that scores it (one that does not could never apply), and `reported` says which answer the
/// reported behaviour gives. Gives the check's readings and that answer.
pub(crate) fn check_fields(
    expect: &Expected,
    readings: Readings,
    reported: Option<&str>,
    (agent, path): (&str, &str),
) -> Result<(Readings, Option<Reported>), RuleError> {
    for reading in readings.iter() {
        if !expect.is_scored_under(reading.profile()) {
            return Err(RuleError::ReadingNotScored {
                agent: agent.to_owned(),
                path: path.to_owned(),
                reading,
                profile: reading.profile(),
            });
        }
    }
    let reported = match reported {
        None => None,
        Some("allowed") => Some(Reported::Answer(Verdict::Allowed)),
        Some("disallowed") => Some(Reported::Answer(Verdict::Disallowed)),
        Some("fault") => Some(Reported::Fault),
        Some(other) => {
            return Err(RuleError::BadReportedAnswer {
                agent: agent.to_owned(),
                path: path.to_owned(),
                given: other.to_owned(),
            })
        }
    };
    Ok((readings, reported))
}

/// A case's own `reading`: each reading applies to the case's checks that its profile scores,
/// and at least one must be.
pub(crate) fn case_readings<'a>(
    case: &str,
    readings: Readings,
    checks: impl Iterator<Item = (&'a Expected, &'a mut Readings)>,
) -> Result<(), RuleError> {
    let mut checks: Vec<_> = checks.collect();
    for reading in readings.iter() {
        let mut applies = false;
        for (expect, named) in &mut checks {
            if expect.is_scored_under(reading.profile()) {
                named.insert(reading);
                applies = true;
            }
        }
        if !applies {
            return Err(RuleError::ReadingAppliesNowhere {
                case: case.to_owned(),
                reading,
                profile: reading.profile(),
            });
        }
    }
    Ok(())
}

/// A reported case marks the checks that test the reported behaviour with the answer that
/// behaviour gives there, so that a report can tell a parser still showing it from one failing
/// something else; only a reported case may mark any.
pub(crate) fn reported_marks(case: &str, has_thread: bool, marked: bool) -> Result<(), RuleError> {
    match (has_thread, marked) {
        (true, false) => Err(RuleError::ReportedUnmarked(case.to_owned())),
        (false, true) => Err(RuleError::MarkedUnreported(case.to_owned())),
        _ => Ok(()),
    }
}
