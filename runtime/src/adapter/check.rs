//! A quick check that an adapter speaks protocol v1 (`adapters/PROTOCOL.md`), for its author:
//! `robotstxt-test adapters check`.
//!
//! A few seconds of messages, each chosen to catch one way of getting the protocol wrong: the
//! handshake's fields and values, an answer's id, count and order, a refused body answered with
//! `error` while the process goes on, bodies with NUL bytes, lone CRs and bytes that are not
//! UTF-8, a 1 MB body, a clean stop, and nothing on stdout but answers. Each [`CheckFinding`] names
//! the section of PROTOCOL.md a failure breaks and quotes what the adapter sent.
//!
//! What a message may hold is not restated here: an answer is decoded through the types of
//! `robotstxt_protocol::wire`, as a run decodes it, and then held to what encoding those types
//! gives back, so that a field the protocol does not name, or an `error` that is not a string,
//! is flagged where a run would let it pass.

use std::time::Duration;

use robotstxt_protocol::{CheckReply, Handshake, ReplyError};
use robotstxt_suite::engine::{Failure, Fault, Query, Reply};

use robotstxt_suite::visible::Outside;

use super::codec;
use super::departures::departures;
use super::live::Live;
use super::manifest::Manifest;
use super::pipes::ReadEvent;
use super::{disagreement, Limits};

/// The sections of PROTOCOL.md a finding can cite, spelt as their headings.
pub mod section {
    pub const LINES: &str = "Lines and streams";
    pub const HANDSHAKE: &str = "1. Handshake";
    pub const CHECKS: &str = "2. Checks";
    pub const STOP: &str = "3. Stop";
    pub const FAULTS: &str = "What the harness does with faults";
    pub const MANIFEST: &str = "The manifest: `adapter.yaml`";
    pub const ALL: [&str; 6] = [LINES, HANDSHAKE, CHECKS, STOP, FAULTS, MANIFEST];
}

/// How long to watch stdout after an answer for lines nobody asked for.
const QUIET: Duration = Duration::from_millis(40);
/// How many lines after a restarted process's handshake are passed over, at most.
const STRAY_LINES: usize = 16;
/// Longest quote of an adapter's line in a finding.
const QUOTE: usize = 300;

/// One thing checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckFinding {
    /// What was checked.
    pub what: String,
    pub status: CheckStatus,
    /// On a pass, what was seen; on a failure, what is wrong, quoting the adapter's message:
    /// outside text.
    pub message: Outside,
    /// The PROTOCOL.md section a failure breaks (one of [`section::ALL`]).
    pub section: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckStatus {
    Passed,
    Failed,
    /// Nothing to check: for example, no body was refused.
    NotApplicable,
}

/// Checks the adapter started by `argv`. With its manifest, the handshake is also held against
/// `adapter.yaml`.
pub fn check(argv: &[String], manifest: Option<&Manifest>, limits: Limits) -> Vec<CheckFinding> {
    let mut checker = Checker {
        argv,
        limits,
        live: None,
        findings: Vec::new(),
        refusals: 0,
    };
    if checker.handshake(manifest) {
        checker.checks();
        checker.stop();
    }
    checker.findings
}

/// A message to send and how to judge the answer.
struct Exchange {
    id: String,
    body: Vec<u8>,
    queries: Vec<Query>,
}

impl Exchange {
    fn new(id: &str, body: impl Into<Vec<u8>>, paths: &[&str]) -> Exchange {
        Exchange {
            id: id.to_owned(),
            body: body.into(),
            queries: (paths.iter())
                .map(|path| Query {
                    agent: "FooBot".to_owned(),
                    path: (*path).to_owned(),
                })
                .collect(),
        }
    }

    /// The `check` line, as a run encodes it.
    fn request(&self) -> Vec<u8> {
        codec::check(&self.id, &self.body, &self.queries)
    }
}

struct Checker<'a> {
    argv: &'a [String],
    limits: Limits,
    live: Option<Live>,
    findings: Vec<CheckFinding>,
    refusals: usize,
}

fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(QUOTE)]).into_owned();
    if line.len() > QUOTE {
        format!("{text}… ({} bytes)", line.len())
    } else {
        text
    }
}

fn section_of(failure: &Failure) -> &'static str {
    match failure.fault {
        Fault::Timeout => section::FAULTS,
        Fault::ProtocolError if failure.detail.raw().starts_with("a line longer") => {
            section::FAULTS
        }
        _ => section::CHECKS,
    }
}

impl Checker<'_> {
    fn pass(&mut self, what: &str, message: impl Into<Outside>) {
        self.record(what, CheckStatus::Passed, message, section::CHECKS);
    }

    fn fail(&mut self, what: &str, message: impl Into<Outside>, section: &'static str) {
        self.record(what, CheckStatus::Failed, message, section);
    }

    fn record(
        &mut self,
        what: &str,
        status: CheckStatus,
        message: impl Into<Outside>,
        section: &'static str,
    ) {
        self.findings.push(CheckFinding {
            what: what.to_owned(),
            status,
            message: message.into(),
            section,
        });
    }

    /// Starts the process and sends the hello; false when there is no usable process.
    fn handshake(&mut self, manifest: Option<&Manifest>) -> bool {
        const WHAT: &str = "handshake";
        let mut live = match Live::spawn(self.argv, None) {
            Ok(live) => live,
            Err(failure) => {
                self.fail("start", failure.detail, section::MANIFEST);
                return false;
            }
        };
        let answer = match live.ask(&codec::hello(), self.limits.start_timeout) {
            Ok(answer) => answer,
            Err(failure) => {
                let section = section_of(&failure);
                self.fail(WHAT, failure.detail, section);
                live.kill();
                return false;
            }
        };
        self.live = Some(live);
        match handshake_problems(&answer, manifest) {
            Ok(handshake) => {
                let shown = format!(
                    "{} wraps {} {} ({}), profile {}",
                    handshake.name,
                    handshake.parser,
                    handshake.version,
                    handshake.language,
                    handshake.profile
                );
                self.record(WHAT, CheckStatus::Passed, shown, section::HANDSHAKE);
            }
            Err((problem, section)) => {
                self.fail(WHAT, format!("{problem}: {}", quote(&answer)), section)
            }
        }
        self.quiet(WHAT);
        true
    }

    fn checks(&mut self) {
        let plain = b"User-agent: *\nDisallow: /private\n".to_vec();
        let paths = ["/private/x", "/public", "/private", "/", "/privately?q=1"];
        let forward = self.exchange(
            "answer count and order",
            &Exchange::new("order/forward \"ü\" 1", plain.clone(), &paths),
        );
        let mut reversed_paths = paths;
        reversed_paths.reverse();
        let backward = self.exchange(
            "answer count and order (queries reversed)",
            &Exchange::new("order/backward 2", plain, &reversed_paths),
        );
        self.order(forward, backward);
        let bodies: [(&str, &[u8]); 3] = [
            (
                "a body with NUL bytes",
                b"User-agent: *\0\nDisallow: /a\0b\n",
            ),
            (
                "a body with CR-only line endings",
                b"User-agent: *\rDisallow: /a\r",
            ),
            (
                "a body that is not UTF-8",
                b"User-agent: *\nDisallow: /\xff\xfe\xc3\n",
            ),
        ];
        for (i, (what, body)) in bodies.into_iter().enumerate() {
            let exchange = Exchange::new(&format!("binary/{i}"), body, &["/a", "/ab"]);
            self.exchange(what, &exchange);
        }
        // A long message, not a hard one: a record, then comment lines up to 1 MiB.
        let mut big = b"User-agent: *\nDisallow: /private\n".to_vec();
        while big.len() < 1 << 20 {
            big.extend_from_slice(b"# a comment line that makes the body long, nothing more\n");
        }
        self.exchange(
            "a 1 MB body",
            &Exchange::new("big/1mb", big, &["/private/x", "/other"]),
        );
        if self.refusals == 0 {
            self.record(
                "a refused body answered with `error`, then the next check",
                CheckStatus::NotApplicable,
                "no body above was refused".to_owned(),
                section::CHECKS,
            );
        }
    }

    /// The answers to the same queries in reverse order must be the reverse.
    fn order(&mut self, forward: Option<Vec<String>>, backward: Option<Vec<String>>) {
        const WHAT: &str = "answers in query order";
        let (Some(forward), Some(mut backward)) = (forward, backward) else {
            return;
        };
        backward.reverse();
        if forward == backward {
            self.pass(WHAT, format!("{forward:?}"));
        } else {
            self.fail(
                WHAT,
                format!("asked in reverse, the answers were not reversed: {forward:?} then (reversed back) {backward:?}"),
                section::CHECKS,
            );
        }
    }

    /// Sends one check and judges the answer; the results, when it gave some.
    fn exchange(&mut self, what: &str, exchange: &Exchange) -> Option<Vec<String>> {
        let live = self.live.as_mut()?;
        let line = match live.ask(&exchange.request(), self.limits.timeout) {
            Ok(line) => line,
            Err(failure) => {
                let section = section_of(&failure);
                self.fail(
                    what,
                    format!("{}: {}", failure.fault.as_str(), failure.detail.raw()),
                    section,
                );
                self.restart();
                return None;
            }
        };
        let results = match reply_problems(&line, exchange) {
            Ok(Reply::Verdicts(verdicts)) => {
                let results: Vec<String> = verdicts.iter().map(|v| v.to_string()).collect();
                self.pass(
                    what,
                    format!("{} results: {}", results.len(), results.join(", ")),
                );
                Some(results)
            }
            Ok(Reply::Rejected(message)) => {
                self.refused(what, exchange, message.raw());
                None
            }
            Ok(Reply::Refused(answers)) => {
                let results: Vec<String> = (answers.iter())
                    .map(|a| match a {
                        Ok(v) => v.to_string(),
                        Err(why) => format!("query refused ({why})"),
                    })
                    .collect();
                self.pass(
                    what,
                    format!("{} results: {}", results.len(), results.join(", ")),
                );
                Some(results)
            }
            Err((problem, section)) => {
                self.fail(what, problem, section);
                self.restart();
                return None;
            }
        };
        self.quiet(what);
        results
    }

    /// A refusal is fine (the parser refused the input), except of a plain body; either way the
    /// process must go on answering.
    fn refused(&mut self, what: &str, exchange: &Exchange, message: &str) {
        self.refusals += 1;
        if exchange.id.starts_with("order/") {
            self.fail(
                what,
                format!("a plain robots.txt was refused (`error` is for the parser refusing the input): {message:?}"),
                section::CHECKS,
            );
        } else {
            self.pass(what, format!("refused with `error`: {message:?}"));
        }
        const AFTER: &str = "a refused body answered with `error`, then the next check";
        let next = Exchange::new(
            "after-refusal",
            b"User-agent: *\nDisallow: /x\n".to_vec(),
            &["/x"],
        );
        let Some(live) = self.live.as_mut() else {
            return;
        };
        match live.ask(&next.request(), self.limits.timeout) {
            Ok(line) => match reply_problems(&line, &next) {
                Ok(_) => self.pass(AFTER, format!("then: {}", quote(&line))),
                Err((problem, section)) => {
                    self.fail(AFTER, format!("after the refusal: {problem}"), section);
                }
            },
            Err(failure) => {
                let detail = format!(
                    "after the refusal: {}: {}",
                    failure.fault.as_str(),
                    failure.detail.raw()
                );
                self.fail(AFTER, detail, section::CHECKS);
                self.restart();
            }
        }
    }

    /// Fails `after` when stdout carries a line nobody asked for.
    fn quiet(&mut self, after: &str) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if let Some(ReadEvent::Line(line)) = live.next_line(QUIET) {
            let message = format!(
                "a line nobody asked for, after the answer: {}",
                quote(&line)
            );
            self.fail(
                &format!("nothing else on stdout ({after})"),
                message,
                section::LINES,
            );
            self.restart();
        }
    }

    /// After a fault: a new process, with its handshake, for the checks still to come. Lines it
    /// prints after its handshake were flagged the first time (`quiet`): they are passed over
    /// here, or each later check would read one in place of its answer.
    fn restart(&mut self) {
        if let Some(live) = self.live.take() {
            live.kill();
        }
        let Ok(mut live) = Live::spawn(self.argv, None) else {
            return;
        };
        match live.ask(&codec::hello(), self.limits.start_timeout) {
            Ok(_) => {
                for _ in 0..STRAY_LINES {
                    if !matches!(live.next_line(QUIET), Some(ReadEvent::Line(_))) {
                        break;
                    }
                }
                self.live = Some(live);
            }
            Err(_) => live.kill(),
        }
    }

    /// `stop` ends the process with status 0, without a line.
    fn stop(&mut self) {
        const WHAT: &str = "stop";
        let Some(mut live) = self.live.take() else {
            return;
        };
        live.send(&codec::stop());
        let extra = match live.next_line(self.limits.timeout) {
            Some(ReadEvent::Line(line)) => Some(quote(&line)),
            Some(ReadEvent::TooLong) => Some("a line too long to keep".to_owned()),
            Some(ReadEvent::Closed) | None => None,
        };
        let status = live.wait_exit(self.limits.timeout);
        match (extra, status) {
            (Some(line), _) => {
                self.fail(WHAT, format!("it answered `stop`: {line}"), section::STOP)
            }
            (None, Some(status)) if status.success() => {
                self.record(
                    WHAT,
                    CheckStatus::Passed,
                    "exited with status 0".to_owned(),
                    section::STOP,
                );
            }
            (None, Some(status)) => {
                self.fail(WHAT, format!("it ended with {status}"), section::STOP)
            }
            (None, None) => self.fail(
                WHAT,
                format!(
                    "still running {:.1} s after `stop`",
                    self.limits.timeout.as_secs_f64()
                ),
                section::STOP,
            ),
        }
        live.kill();
    }
}

/// The handshake's fields and values: the parsed handshake, or what is wrong and where. A line
/// that is not JSON at all is stray output, not a handshake.
fn handshake_problems(
    answer: &[u8],
    manifest: Option<&Manifest>,
) -> Result<Handshake, (String, &'static str)> {
    let handshake: Handshake = serde_json::from_slice(answer).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => (format!("not a handshake ({e})"), section::HANDSHAKE),
        _ => (stray(&e), section::LINES),
    })?;
    let mut problems = handshake.problems();
    problems.extend(departures(answer, &handshake));
    if !problems.is_empty() {
        return Err((problems.join("; "), section::HANDSHAKE));
    }
    if let Some(why) = manifest.and_then(|m| disagreement(m, &handshake)) {
        return Err((why, section::MANIFEST));
    }
    Ok(handshake)
}

/// An answer to a check: its reply, or what is wrong with it and where, quoting the line. What a
/// run holds it to, and nothing the protocol's types would not give back.
fn reply_problems(line: &[u8], exchange: &Exchange) -> Result<Reply, (String, &'static str)> {
    let reply =
        CheckReply::decode(line, &exchange.id, exchange.queries.len()).map_err(|e| match &e {
            ReplyError::NotJson(json) => {
                (format!("{}: {}", stray(json), quote(line)), section::LINES)
            }
            _ => (format!("{e}: {}", quote(line)), section::CHECKS),
        })?;
    let departures = departures(line, &reply);
    if !departures.is_empty() {
        let problem = format!("{}: {}", departures.join("; "), quote(line));
        return Err((problem, section::CHECKS));
    }
    Ok(codec::into_reply(reply))
}

/// What a line that is not JSON, read where a message was due, is taken for: output that
/// belongs on stderr.
fn stray(error: &serde_json::Error) -> String {
    format!("a line that is not JSON where an answer was due ({error}; stdout carries protocol lines only)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cited_section_is_a_heading_of_the_protocol() {
        let protocol = include_str!("../../../adapters/PROTOCOL.md");
        for name in section::ALL {
            assert!(
                protocol.lines().any(|l| l == format!("## {name}")),
                "PROTOCOL.md has no heading `## {name}`"
            );
        }
    }

    #[test]
    fn a_handshake_is_held_to_its_fields_and_its_manifest() {
        let good = br#"{"name":"x","parser":"p","version":"1","language":"L","homepage":"","profile":"other"}"#;
        assert!(handshake_problems(good, None).is_ok());
        let missing = br#"{"name":"x","parser":"p","version":"1","language":"L","profile":"rfc"}"#;
        let (why, section) = handshake_problems(missing, None).unwrap_err();
        assert_eq!(section, section::HANDSHAKE);
        assert!(why.contains("missing field `homepage`"), "{why}");
        let odd = br#"{"name":"x","parser":"p","version":"","language":"L","homepage":"","profile":"rfc","extra":1}"#;
        let (why, section) = handshake_problems(odd, None).unwrap_err();
        assert_eq!(section, section::HANDSHAKE);
        assert_eq!(
            why,
            "`version` is empty; profile `rfc` is not one of norobots-1994, rfc9309, other; \
             unknown field `extra`"
        );
        let (why, section) = handshake_problems(b"loading model...", None).unwrap_err();
        assert_eq!(section, section::LINES, "{why}");
    }

    #[test]
    fn an_answer_is_held_to_what_the_protocols_types_give_back() {
        let exchange = Exchange::new("x", b"".to_vec(), &["/a", "/b"]);
        let problem = |line: &[u8]| reply_problems(line, &exchange).unwrap_err();
        assert!(reply_problems(
            br#"{"id":"x","results":["allowed",{"error":"e"}]}"#,
            &exchange
        )
        .is_ok());
        let (why, section) = problem(br#"{"id":"x","results":["allowed","allowed"],"error":"e"}"#);
        assert!(why.starts_with("unknown field `results`"), "{why}");
        assert_eq!(section, section::CHECKS);
        let (why, _) = problem(br#"{"id":"x","error":{"a":1}}"#);
        assert!(
            why.starts_with(r#"`error` is {"a":1}, not a string"#),
            "{why}"
        );
        let (why, _) = problem(br#"{"id":"x","results":["allowed",{"error":5}]}"#);
        assert!(
            why.starts_with("`results[1].error` is 5, not a string"),
            "{why}"
        );
        let (why, section) = problem(b"debug: answered");
        assert_eq!(section, section::LINES, "{why}");
        assert!(why.ends_with(": debug: answered"), "{why}");
        let (why, section) = problem(br#""this is not an answer""#);
        assert_eq!(section, section::CHECKS, "{why}");
        assert!(why.starts_with("not a JSON object: "), "{why}");
    }
}
