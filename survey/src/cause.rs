//! Why an adapter and the reference disagree: a signature per disagreeing check, and causes that
//! group signatures.
//!
//! A signature is worked out from the disagreement alone, in-process: its [`Cause`] (read by
//! [`robotstxt_suite::cause`] from the reference's explanation, as `run` reads one), the two
//! verdicts, whether the adapter answered as another profile of the reference would, how the
//! reference chose the record (a named one, the `*` one, none), the rule line that decided and
//! what it holds (`*`, `$`, `%`, `?`, non-ASCII octets), the kind of probe and the rule it came
//! from, and what is unusual about the file ([`BodyMarks`]). Being a function of one check, it
//! counts exactly, and shards add up; it starts with its cause's label, so a signature has one
//! cause.
//!
//! A cause of the survey ([`CauseCount`]) is a group of signatures with the same shape: the shape
//! of the example's reduced case (the signature itself when the example could not be reduced), so
//! signatures that reduce to the same small case are one cause. Its [`Cause`] is that of the
//! reduced case, the plainest evidence there is (else that of the signature). Per-cause file
//! counts come from the adapter's `file_sets` (how many files disagree with exactly which
//! signatures), so a file is counted once per cause whatever the grouping.

use std::collections::BTreeMap;

use robotstxt_reference::lines::raw_lines;
use robotstxt_reference::{
    Decision, GroupChoice, MatchedBy, Profile, RuleChoice, RuleKind, Verdict,
};
use robotstxt_suite::blocks::visible_text;
use robotstxt_suite::cause::{allow_matches, BodyMarks, Cause};
use robotstxt_suite::engine::Engine;
use serde::{Deserialize, Serialize};

use robotstxt_fuzzer::{Candidate, CandidateJudge as _, EngineJudge, Oracle};

use super::excerpt;
use super::probes::{Probe, ProbeKind};

/// What a rule value holds beyond plain path characters: `with *, $` and so on; empty when plain.
fn value_marks(value: &str) -> String {
    let marks: Vec<&str> = [
        (value.contains('*'), "*"),
        (value.ends_with('$'), "$"),
        (value.contains('%'), "%"),
        (value.contains('?'), "?"),
        (!value.is_ascii(), "non-ASCII"),
    ]
    .into_iter()
    .filter_map(|(on, text)| on.then_some(text))
    .collect();
    if marks.is_empty() {
        String::new()
    } else {
        format!(" with {}", marks.join(" "))
    }
}

/// The signature of one disagreeing check, of cause `cause`: see the module docs. `others` are
/// the profiles of the reference whose verdict the adapter gave.
pub fn signature(
    cause: Cause,
    marks: &BodyMarks,
    probe: &Probe,
    decision: &Decision,
    actual: Verdict,
    others: &[Profile],
) -> String {
    let explanation = &decision.explanation;
    let (record, records) = explanation.profile.group_words();
    let mut parts = vec![
        cause.label().to_owned(),
        format!("reference {}, adapter {}", decision.verdict, actual),
    ];
    for other in others {
        parts.push(format!("as {other} says"));
    }
    parts.push(match &explanation.groups {
        GroupChoice::NoGroups => format!("no {records}"),
        GroupChoice::NoneMatched { .. } => format!("no {record} applies"),
        GroupChoice::Chosen { groups, by } => {
            let several = if groups.len() > 1 { " (combined)" } else { "" };
            match by {
                MatchedBy::Name => format!("a {record} naming the robot{several}"),
                MatchedBy::Star => format!("the * {record}{several}"),
            }
        }
    });
    let mut deciding = None;
    match &explanation.rule {
        RuleChoice::NotReached => {}
        RuleChoice::ImplicitRobotsTxt => parts.push("/robots.txt implicitly allowed".to_owned()),
        RuleChoice::NoRuleMatched { rules: 0, .. } => parts.push("no rules".to_owned()),
        RuleChoice::NoRuleMatched { .. } => parts.push("no rule matches".to_owned()),
        RuleChoice::Matched {
            kind, value, line, ..
        } => {
            let kind = match kind {
                RuleKind::Allow => "Allow",
                RuleKind::Disallow => "Disallow",
            };
            parts.push(format!("{kind}{} decides", value_marks(value)));
            deciding = Some(*line);
        }
    }
    let allow_decided = matches!(
        explanation.rule,
        RuleChoice::Matched {
            kind: RuleKind::Allow,
            ..
        }
    );
    if !allow_decided && allow_matches(explanation, &probe.query.path) {
        parts.push("an Allow line matches too".to_owned());
    }
    if probe.kind == ProbeKind::Cased {
        parts.push("case-swapped path".to_owned());
    }
    if probe.line.is_some() && probe.line != deciding {
        if let Some(marks) = probe
            .value
            .as_deref()
            .map(value_marks)
            .filter(|m| !m.is_empty())
        {
            parts.push(format!("probing a rule{marks}"));
        }
    }
    let file = marks.describe();
    if !file.is_empty() {
        parts.push(format!("file: {}", file.join(", ")));
    }
    parts.join("; ")
}

/// One disagreement, shown in full: the file, the query, both verdicts, the reference's reasons
/// and the lines of the file that matter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    pub file: String,
    /// The file's size: examples are chosen smallest first.
    pub bytes: u64,
    pub agent: String,
    pub path: String,
    pub probe: ProbeKind,
    pub reference: String,
    pub adapter: String,
    pub explanation: String,
    /// The excerpt: every line that decided either verdict ([`crate::excerpt`]), numbered, with
    /// invisible bytes made visible and each run of lines left out marked.
    pub lines: Vec<String>,
    /// Whether the excerpt holds the lines the adapter's verdict rests on, found by asking it;
    /// false when it shows the reference's deciding lines only (the adapter was unavailable, or
    /// answered the whole file otherwise when asked again, or the file is larger than
    /// [`excerpt::MAX_EXCERPT_BODY`]).
    pub adapter_lines: bool,
    /// The same disagreement reduced to a small case, when it was reduced.
    pub reduced: Option<Reduced>,
    /// In a census: the hosts that serve this body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<u64>,
}

/// A disagreement reduced to a small canonical case by the fuzzer's reducer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reduced {
    /// The body, line by line, numbered, with invisible bytes made visible.
    pub robots: Vec<String>,
    pub agent: String,
    pub path: String,
    /// What causes the disagreement, read from the reduced case: little else is left in it.
    pub cause: Cause,
}

impl Reduced {
    /// The reduced case as one line of text: what causes are grouped by.
    pub fn shape(&self) -> String {
        let lines: Vec<&str> = self
            .robots
            .iter()
            .map(|l| l.split_once(" │ ").map_or(l.as_str(), |(_, text)| text))
            .collect();
        format!(
            "{} ⏎ {} asks for {}",
            lines.join(" ⏎ "),
            self.agent,
            self.path
        )
    }
}

/// Candidates one reduction may try: each is a body asked of the adapter, and every signature's
/// example is reduced, so this bounds the time a survey spends reducing.
pub const REDUCTION_BUDGET: usize = 400;
/// Examples in larger files are not reduced.
pub const MAX_REDUCED_BODY: usize = 32 << 10;

/// Reduces `example` (found in `body`) against `engine` under `profile`: the reduced case keeps
/// both verdicts and stays settled by the profile's text.
pub fn reduce(
    engine: &mut dyn Engine,
    profile: Profile,
    body: Vec<u8>,
    example: &Example,
) -> Option<Reduced> {
    let (reference, theirs) = (verdict(&example.reference)?, verdict(&example.adapter)?);
    let start = Candidate {
        body,
        agent: example.agent.clone(),
        path: example.path.clone(),
    };
    let mut judge = EngineJudge::new(engine, Oracle::new(profile), reference, theirs);
    if judge.keeps(std::slice::from_ref(&start)) != [true] {
        return None;
    }
    let reduced = robotstxt_fuzzer::reduce(start, &mut judge, REDUCTION_BUDGET);
    let every: Vec<u32> = raw_lines(&reduced.body).map(|line| line.number).collect();
    Some(Reduced {
        robots: numbered_lines(&reduced.body, &every),
        cause: robotstxt_fuzzer::case::cause_of(profile, &reduced),
        agent: reduced.agent,
        path: reduced.path,
    })
}

impl Example {
    /// The example of a disagreement on `probe` in `file`, showing the reference's deciding lines
    /// until [`Example::ask_adapter`] adds the adapter's.
    pub fn of(
        file: &str,
        body: &[u8],
        probe: &Probe,
        decision: &Decision,
        actual: Verdict,
    ) -> Example {
        let explanation = &decision.explanation;
        let wanted = excerpt::pinned(decision, &probe.query.path, probe.line);
        Example {
            file: file.to_owned(),
            bytes: body.len() as u64,
            agent: probe.query.agent.clone(),
            path: probe.query.path.clone(),
            probe: probe.kind,
            reference: decision.verdict.as_str().to_owned(),
            adapter: actual.as_str().to_owned(),
            explanation: explanation.to_string(),
            lines: excerpt::excerpt(body, &wanted),
            adapter_lines: false,
            reduced: None,
            hosts: None,
        }
    }

    /// Asks `engine` which lines of `body` (this example's file) its verdict rests on, and shows
    /// them beside the reference's: see [`crate::excerpt`]. Left as it was when the engine no
    /// longer gives its verdict on the whole file.
    pub fn ask_adapter(
        &mut self,
        engine: &mut dyn Engine,
        profile: Profile,
        cause: Cause,
        body: &[u8],
    ) {
        let (Some(reference), Some(theirs)) = (verdict(&self.reference), verdict(&self.adapter))
        else {
            return;
        };
        if body.len() > excerpt::MAX_EXCERPT_BODY {
            return;
        }
        // Until now the excerpt shows the reference's deciding lines: they stay.
        let pinned = excerpt::shown_numbers(&self.lines);
        let mut judge = EngineJudge::new(engine, Oracle::new(profile), reference, theirs);
        let found = excerpt::deciding_lines(
            &mut judge,
            profile,
            cause,
            body,
            &self.agent,
            &self.path,
            &pinned,
        );
        if let Some(lines) = found {
            self.lines = excerpt::excerpt(body, &lines);
            self.adapter_lines = true;
        }
    }
}

/// A verdict as `survey.json` spells it.
fn verdict(text: &str) -> Option<Verdict> {
    match text {
        "allowed" => Some(Verdict::Allowed),
        "disallowed" => Some(Verdict::Disallowed),
        _ => None,
    }
}

/// The lines numbered `wanted` (ascending), as `  12 │ text`, numbered by [`raw_lines`] as the
/// reference numbers them; a leading byte-order mark is shown.
pub fn numbered_lines(body: &[u8], wanted: &[u32]) -> Vec<String> {
    let last = wanted.last().copied().unwrap_or(0);
    raw_lines(body)
        .take_while(|line| line.number <= last)
        .filter(|line| wanted.binary_search(&line.number).is_ok())
        .map(|line| format!("{:>5} │ {}", line.number, visible_text(line.text)))
        .collect()
}

/// A signature, how often it occurred, and its example: the disagreement in the smallest file,
/// by (size, name), so that shards merge into exactly the whole run's choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignatureCount {
    /// The cause its signature starts with.
    pub cause: Cause,
    pub signature: String,
    /// Files with at least one check of this signature.
    pub files: usize,
    pub checks: usize,
    /// In a census: the hosts serving those files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<u64>,
    pub example: Example,
}

/// A group of signatures with one shape, and the cause they share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CauseCount {
    /// The cause of the reduced case they share (or of the one signature, unreduced).
    pub cause: Cause,
    pub shape: String,
    /// Files with at least one check of the cause.
    pub files: usize,
    pub checks: usize,
    /// In a census: the hosts serving those files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<u64>,
    /// Its signatures (the first one's example stands for the cause).
    pub signatures: Vec<String>,
}

/// A set of signature indices as `file_sets` spells it: `0,3,7`.
pub fn set_key(set: &[usize]) -> String {
    set.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The indices of a `file_sets` key; `None` when it is malformed.
pub fn parse_set_key(key: &str) -> Option<Vec<usize>> {
    key.split(',').map(|i| i.parse().ok()).collect()
}

/// The cause and the shape a signature is grouped under: its reduced case's, else its own.
fn shape_of(signature: &SignatureCount) -> (Cause, String) {
    match &signature.example.reduced {
        Some(reduced) => (reduced.cause, reduced.shape()),
        None => (signature.cause, signature.signature.clone()),
    }
}

/// Groups `signatures` into causes, most files first, and counts each cause's files from
/// `file_sets` so that a file is counted once per cause; in a census, its hosts from `host_sets`
/// the same way.
pub fn causes(
    signatures: &[SignatureCount],
    file_sets: &BTreeMap<String, usize>,
    host_sets: &BTreeMap<String, u64>,
) -> Vec<CauseCount> {
    let mut by_shape: BTreeMap<(Cause, String), Vec<usize>> = BTreeMap::new();
    for (index, signature) in signatures.iter().enumerate() {
        by_shape.entry(shape_of(signature)).or_default().push(index);
    }
    let sets: Vec<(Vec<usize>, usize)> = file_sets
        .iter()
        .filter_map(|(key, &files)| parse_set_key(key).map(|set| (set, files)))
        .collect();
    let host_sets: Vec<(Vec<usize>, u64)> = host_sets
        .iter()
        .filter_map(|(key, &hosts)| parse_set_key(key).map(|set| (set, hosts)))
        .collect();
    let mut causes: Vec<CauseCount> = by_shape
        .into_iter()
        .map(|((cause, shape), mut members)| {
            // The member with the most files stands first; its example shows the cause.
            members.sort_by(|&a, &b| {
                signatures[b]
                    .files
                    .cmp(&signatures[a].files)
                    .then(signatures[a].signature.cmp(&signatures[b].signature))
            });
            let files = sets
                .iter()
                .filter(|(set, _)| set.iter().any(|i| members.contains(i)))
                .map(|(_, files)| files)
                .sum();
            // Saturating: these sums were checked when the sets were added up.
            let hosts = (!host_sets.is_empty()).then(|| {
                host_sets
                    .iter()
                    .filter(|(set, _)| set.iter().any(|i| members.contains(i)))
                    .fold(0u64, |sum, (_, hosts)| sum.saturating_add(*hosts))
            });
            CauseCount {
                cause,
                shape,
                files,
                hosts,
                checks: members.iter().map(|&i| signatures[i].checks).sum(),
                signatures: members
                    .iter()
                    .map(|&i| signatures[i].signature.clone())
                    .collect(),
            }
        })
        .collect();
    causes.sort_by(|a, b| {
        b.files
            .cmp(&a.files)
            .then(b.checks.cmp(&a.checks))
            .then(a.shape.cmp(&b.shape))
            .then(a.cause.cmp(&b.cause))
    });
    causes
}
