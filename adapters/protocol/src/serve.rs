//! The adapter kit: the whole protocol loop for a Rust parser, so that its adapter is only the
//! call into the parser.
//!
//! [`serve`] takes a function that answers one query about a body; [`serve_batch`] one that is
//! handed the body and all of its queries at once, for a parser that parses a body once and then
//! answers many queries (or keeps one parse per agent). Either way the kit answers `hello` (and
//! refuses another protocol version), decodes the base64 body, catches a panic in the parser and
//! answers it as the parser refusing the body, writes and flushes one line per answer, and
//! returns on `stop` or at the end of input.
//!
//! A request that is not protocol v1 is a bug in whatever sent it: `serve` returns an error
//! naming it, and the adapter exits (the harness records a crash), as the protocol asks of an
//! adapter that meets something it cannot answer.

use std::any::Any;
use std::io::{self, BufRead, BufWriter, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde::Serialize;

use crate::wire::{
    Answer, CheckReply, CheckRequest, Handshake, Query, Refusal, Request, UnsupportedProtocol,
    Verdict, PROTOCOL_VERSION,
};

/// What a parser says about one query: its verdict, or why it refused that query (the body was
/// read; this URL could not be asked).
pub type QueryAnswer = Result<Verdict, Refusal>;

/// Serves the protocol on stdin and stdout, asking `ask` about each query in turn: `Ok` with the
/// verdict, or `Err` with why the parser refused that query. A panic in `ask` is answered as the
/// parser refusing the body.
///
/// ```no_run
/// use robotstxt_protocol::{serve, Handshake, Verdict};
///
/// fn main() -> std::io::Result<()> {
///     let handshake = Handshake {
///         name: "my-parser".into(),
///         parser: "my_parser".into(),
///         version: "1.2.3".into(),
///         language: "Rust".into(),
///         homepage: "https://example.org/my-parser".into(),
///         profile: "rfc9309".into(),
///     };
///     serve(handshake, |body, query| {
///         let text = String::from_utf8_lossy(body);
///         Ok(Verdict::from_allowed(!text.contains(&*query.path)))
///     })
/// }
/// ```
pub fn serve(
    handshake: Handshake,
    ask: impl FnMut(&[u8], &Query) -> QueryAnswer,
) -> io::Result<()> {
    serve_batch(handshake, per_query(ask))
}

/// A function of [`serve_batch`]'s kind that asks `ask` about each query in turn.
pub fn per_query(
    mut ask: impl FnMut(&[u8], &Query) -> QueryAnswer,
) -> impl FnMut(&[u8], &[Query]) -> Result<Vec<QueryAnswer>, Refusal> {
    move |body, queries| Ok(queries.iter().map(|query| ask(body, query)).collect())
}

/// Serves the protocol on stdin and stdout, handing `check` each body with all of its queries:
/// `Ok` with one answer per query, in query order, or `Err` when the parser refused the body. A
/// panic in `check` is answered as the parser refusing the body.
pub fn serve_batch(
    handshake: Handshake,
    check: impl FnMut(&[u8], &[Query]) -> Result<Vec<QueryAnswer>, Refusal>,
) -> io::Result<()> {
    let output = BufWriter::new(io::stdout().lock());
    serve_on(&handshake, io::stdin().lock(), output, check)
}

/// As [`serve_batch`], reading requests from `input` and writing answers to `output`.
///
/// # Panics
///
/// When `check` gives another number of answers than there were queries: that is a bug in the
/// adapter, and the process must end (the harness records a crash).
pub fn serve_on(
    handshake: &Handshake,
    mut input: impl BufRead,
    mut output: impl Write,
    mut check: impl FnMut(&[u8], &[Query]) -> Result<Vec<QueryAnswer>, Refusal>,
) -> io::Result<()> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let request: Request = serde_json::from_str(&line).map_err(|e| {
            let shown: String = line.trim_end().chars().take(200).collect();
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not a request of protocol {PROTOCOL_VERSION} ({e}): {shown}"),
            )
        })?;
        match request {
            Request::Hello {
                protocol: PROTOCOL_VERSION,
            } => send(&mut output, handshake)?,
            Request::Hello { protocol } => {
                return send(&mut output, &UnsupportedProtocol::new(protocol));
            }
            Request::Check(request) => send(&mut output, &answer(&request, &mut check))?,
            Request::Stop => return Ok(()),
        }
    }
}

/// The reply to one check: the parser's answers, or its refusal of the body.
fn answer<'a>(
    request: &'a CheckRequest,
    check: &mut impl FnMut(&[u8], &[Query]) -> Result<Vec<QueryAnswer>, Refusal>,
) -> CheckReply<'a> {
    let id = request.id.as_ref().into();
    match check_guarded(check, &request.robots, &request.queries) {
        Ok(answers) => {
            assert_eq!(
                answers.len(),
                request.queries.len(),
                "the adapter gave {} answers for {} queries",
                answers.len(),
                request.queries.len()
            );
            CheckReply::Results {
                id,
                results: answers.into_iter().map(Answer::from).collect(),
            }
        }
        Err(Refusal(error)) => CheckReply::Refusal { id, error },
    }
}

/// Asks `check` about `body` as the kit does: a panic in it is the parser refusing the body
/// (`panic: ...`). For whoever calls an adapter's parser function in-process (a fuzz target, a
/// benchmark) and must meet its panics as the adapter's harness would.
pub fn check_guarded(
    check: &mut impl FnMut(&[u8], &[Query]) -> Result<Vec<QueryAnswer>, Refusal>,
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, Refusal> {
    catch_unwind(AssertUnwindSafe(|| check(body, queries))).unwrap_or_else(|payload| {
        Err(Refusal(format!(
            "panic: {}",
            panic_message(payload.as_ref())
        )))
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    (payload.downcast_ref::<&str>().copied())
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-string payload")
}

/// One message, on a line of its own, flushed.
fn send(output: &mut impl Write, message: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *output, message)?;
    output.write_all(b"\n")?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handshake() -> Handshake {
        Handshake {
            name: "kit".into(),
            parser: "kit".into(),
            version: "1".into(),
            language: "Rust".into(),
            homepage: crate::Outside::default(),
            profile: "other".into(),
        }
    }

    /// Every line the kit writes for `input`, with what `serve_on` returned.
    fn exchange(
        input: &str,
        check: impl FnMut(&[u8], &[Query]) -> Result<Vec<QueryAnswer>, Refusal>,
    ) -> (Vec<String>, io::Result<()>) {
        let mut output = Vec::new();
        let ended = serve_on(&handshake(), input.as_bytes(), &mut output, check);
        let text = String::from_utf8(output).unwrap();
        (text.lines().map(str::to_owned).collect(), ended)
    }

    fn disallow_private(body: &[u8], queries: &[Query]) -> Result<Vec<QueryAnswer>, Refusal> {
        assert_eq!(body, b"User-agent: *\nDisallow: /private\n");
        Ok(queries
            .iter()
            .map(|q| match &*q.path {
                "/refused" => Err("bad URL".into()),
                path => Ok(Verdict::from_allowed(!path.starts_with("/private"))),
            })
            .collect())
    }

    const CHECK: &str = r#"{"type":"check","id":"c1","robots_b64":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3ByaXZhdGUK","queries":[{"agent":"FooBot/2.1","product_token":"FooBot","name":"FooBot","path":"/private/x","url":"http://example.com/private/x"},{"agent":"FooBot","product_token":"FooBot","name":"FooBot","path":"/refused","url":"http://example.com/refused"},{"agent":"FooBot","product_token":"FooBot","name":"FooBot","path":"/","url":"http://example.com/"}]}"#;

    #[test]
    fn a_session_is_answered_line_by_line_until_stop() {
        let input = format!(
            "{{\"type\":\"hello\",\"protocol\":1}}\n\n{CHECK}\n{{\"type\":\"stop\"}}\n{CHECK}\n"
        );
        let (lines, ended) = exchange(&input, disallow_private);
        ended.unwrap();
        assert_eq!(
            lines,
            [
                r#"{"name":"kit","parser":"kit","version":"1","language":"Rust","homepage":"","profile":"other"}"#,
                r#"{"id":"c1","results":["disallowed",{"error":"bad URL"},"allowed"]}"#,
            ]
        );
    }

    #[test]
    fn another_protocol_version_is_refused_and_ends_the_session() {
        let (lines, ended) = exchange(
            "{\"type\":\"hello\",\"protocol\":2}\n{\"type\":\"hello\",\"protocol\":1}\n",
            disallow_private,
        );
        ended.unwrap();
        assert_eq!(lines, [r#"{"error":"unsupported protocol 2"}"#]);
    }

    #[test]
    fn a_refusal_or_a_panic_in_the_parser_is_an_error_for_the_body() {
        let (lines, _) = exchange(&format!("{CHECK}\n"), |_, _| Err("ValueError".into()));
        assert_eq!(lines, [r#"{"id":"c1","error":"ValueError"}"#]);
        let (lines, _) = exchange(&format!("{CHECK}\n{CHECK}\n"), |_, queries| {
            if queries.len() == 3 {
                panic!("index out of range");
            }
            Ok(Vec::new())
        });
        let refused = r#"{"id":"c1","error":"panic: index out of range"}"#;
        assert_eq!(lines, [refused, refused]);
    }

    #[test]
    fn one_query_at_a_time_the_answers_keep_their_order() {
        let mut asked = Vec::new();
        let ask = |body: &[u8], query: &Query| {
            asked.push(query.url.to_string());
            disallow_private(body, std::slice::from_ref(query))?.remove(0)
        };
        let (lines, _) = exchange(&format!("{CHECK}\n"), per_query(ask));
        assert_eq!(
            lines,
            [r#"{"id":"c1","results":["disallowed",{"error":"bad URL"},"allowed"]}"#]
        );
        assert_eq!(
            asked,
            [
                "http://example.com/private/x",
                "http://example.com/refused",
                "http://example.com/"
            ]
        );
    }

    #[test]
    fn what_is_not_a_request_ends_the_session_with_an_error() {
        let (lines, ended) = exchange("{\"type\":\"dance\"}\n", disallow_private);
        assert!(lines.is_empty());
        let error = ended.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("dance"), "{error}");
        let bad_body = CHECK.replace("VXNl", "!!!!");
        let (_, ended) = exchange(&bad_body, disallow_private);
        assert!(ended.unwrap_err().to_string().contains("robots_b64"));
    }

    #[test]
    #[should_panic(expected = "the adapter gave 1 answers for 3 queries")]
    fn an_adapter_that_loses_answers_dies() {
        let _ = exchange(&format!("{CHECK}\n"), |_, _| Ok(vec![Ok(Verdict::Allowed)]));
    }
}
