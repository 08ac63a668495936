//! The protocol's messages as the harness writes and reads them, through the types of
//! `robotstxt_protocol::wire`: the rules of what a message holds are there, not here. Here is only
//! what the harness makes of them: a reply as the suite's [`Reply`], every error text capped.

use std::borrow::Cow;

use robotstxt_protocol::{Answer, CheckReply, CheckRequest, Handshake, ReplyError, Request};
use robotstxt_reference::Verdict;
use robotstxt_suite::engine::{Query, Reply};
use robotstxt_suite::visible::Outside;

use crate::limits::cap_text;

/// Longest quote of an adapter's line in a failure's detail.
const QUOTE: usize = 300;

/// The `hello` line of the protocol version the harness speaks.
pub(crate) fn hello() -> Vec<u8> {
    encode(&Request::HELLO)
}

/// The `stop` line.
pub(crate) fn stop() -> Vec<u8> {
    encode(&Request::Stop)
}

/// The `check` line for one batch: the body in base64, each query with its product token and
/// full URL. Sized up front: a body of a survey can be megabytes, and growing the line by
/// doubling would copy it again and again.
pub(crate) fn check(id: &str, robots: &[u8], queries: &[Query]) -> Vec<u8> {
    let request = Request::Check(CheckRequest {
        id: Cow::Borrowed(id),
        robots: Cow::Borrowed(robots),
        queries: queries
            .iter()
            .map(|q| robotstxt_protocol::Query::new(&q.agent, &q.path))
            .collect(),
    });
    let queried: usize = queries
        .iter()
        .map(|q| 2 * (q.agent.len() + q.path.len()))
        .sum();
    let mut line =
        Vec::with_capacity(robots.len().div_ceil(3) * 4 + queried + 128 * (queries.len() + 1));
    serde_json::to_writer(&mut line, &request).expect("a request serializes");
    line
}

fn encode(request: &Request) -> Vec<u8> {
    serde_json::to_vec(request).expect("a request serializes")
}

/// Why an adapter's hello is not one the harness can run it with.
#[derive(Debug, thiserror::Error)]
pub enum HandshakeError {
    #[error("bad handshake ({source}): {quoted}")]
    Invalid {
        source: serde_json::Error,
        quoted: String,
    },
    #[error("bad handshake: {0}")]
    Values(String),
}

/// The adapter's hello, held to what a run needs of it: its fields, no control or bidirectional
/// character in any of them (each is shown as it is everywhere), and a profile a parser may
/// claim. The error quotes the line: it is shown made visible, as a failure's detail.
pub(crate) fn handshake(line: &[u8]) -> Result<Handshake, HandshakeError> {
    let handshake: Handshake =
        serde_json::from_slice(line).map_err(|source| HandshakeError::Invalid {
            source,
            quoted: quote(line),
        })?;
    let problems: Vec<String> = (handshake.hidden_characters().into_iter())
        .chain(handshake.profile_problem())
        .collect();
    if problems.is_empty() {
        Ok(handshake)
    } else {
        Err(HandshakeError::Values(format!(
            "{}: {}",
            problems.join("; "),
            quote(line)
        )))
    }
}

/// An answer line to the check `id` of `queries` queries, as the suite's [`Reply`].
pub(crate) fn reply(line: &[u8], id: &str, queries: usize) -> Result<Reply, ReplyError> {
    CheckReply::decode(line, id, queries).map(into_reply)
}

/// A decoded answer as the suite's [`Reply`].
pub(crate) fn into_reply(reply: CheckReply) -> Reply {
    match reply {
        // Capped: the text is kept per check and shown in reports.
        CheckReply::Refusal { error, .. } => Reply::Rejected(cap_text(&error).into()),
        CheckReply::Results { results, .. } => {
            let answers: Vec<Result<Verdict, Outside>> = results.into_iter().map(answer).collect();
            if answers.iter().all(Result::is_ok) {
                Reply::Verdicts(answers.into_iter().flatten().collect())
            } else {
                Reply::Refused(answers)
            }
        }
    }
}

fn answer(answer: Answer) -> Result<Verdict, Outside> {
    match answer {
        Answer::Verdict(robotstxt_protocol::Verdict::Allowed) => Ok(Verdict::Allowed),
        Answer::Verdict(robotstxt_protocol::Verdict::Disallowed) => Ok(Verdict::Disallowed),
        Answer::Refused { error } => Err(cap_text(&error).into()),
    }
}

/// The start of an adapter's line, as a failure quotes it.
pub(crate) fn quote(line: &[u8]) -> String {
    String::from_utf8_lossy(&line[..line.len().min(QUOTE)]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_becomes_verdicts_or_refusals_with_capped_texts() {
        let line = br#"{"id":"x","results":["allowed","disallowed"]}"#;
        assert_eq!(
            reply(line, "x", 2).unwrap(),
            Reply::Verdicts(vec![Verdict::Allowed, Verdict::Disallowed])
        );
        let line = br#"{"id":"x","results":["allowed",{"error":"bad URI"}]}"#;
        assert_eq!(
            reply(line, "x", 2).unwrap(),
            Reply::Refused(vec![Ok(Verdict::Allowed), Err("bad URI".into())])
        );
        let long = format!(r#"{{"id":"x","error":"{}"}}"#, "e".repeat(10_000));
        let Reply::Rejected(text) = reply(long.as_bytes(), "x", 1).unwrap() else {
            panic!("not a refusal")
        };
        assert!(
            text.raw().len() < 5_000 && text.raw().ends_with("bytes cut)"),
            "{text}"
        );
    }

    #[test]
    fn a_check_line_is_the_protocols() {
        let queries = [Query {
            agent: "FooBot/2.1".into(),
            path: "/a".into(),
        }];
        let line = check("id", b"User-agent: *\n", &queries);
        assert_eq!(
            String::from_utf8(line).unwrap(),
            r#"{"type":"check","id":"id","robots_b64":"VXNlci1hZ2VudDogKgo=","queries":[{"agent":"FooBot/2.1","product_token":"FooBot","name":"FooBot","path":"/a","url":"http://example.com/a"}]}"#
        );
        assert_eq!(hello(), br#"{"type":"hello","protocol":1}"#);
        assert_eq!(stop(), br#"{"type":"stop"}"#);
    }

    #[test]
    fn a_handshake_with_a_profile_no_one_may_claim_is_refused() {
        let line = br#"{"name":"x","parser":"p","version":"1","language":"L","homepage":"","profile":"rfc-9309"}"#;
        let error = handshake(line).unwrap_err().to_string();
        assert!(
            error.starts_with(
                "bad handshake: profile `rfc-9309` is not one of norobots-1994, rfc9309, other: "
            ),
            "{error}"
        );
        let line = br#"{"name":"x\u001b]0;t\u0007","parser":"p","version":"1\u202e","language":"L","homepage":"","profile":"rfc9309"}"#;
        let error = handshake(line).unwrap_err().to_string();
        assert!(
            error.starts_with(
                "bad handshake: `name`, `version` hold a control or bidirectional character"
            ),
            "{error}"
        );
        let error = handshake(b"{}").unwrap_err().to_string();
        assert!(
            error.starts_with("bad handshake (missing field `name`"),
            "{error}"
        );
    }
}
