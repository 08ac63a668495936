//! The wire types against the protocol's spelling of each message.

use super::*;

fn encoded(request: &Request) -> String {
    serde_json::to_string(request).unwrap()
}

#[test]
fn requests_are_encoded_as_the_protocol_spells_them() {
    assert_eq!(encoded(&Request::HELLO), r#"{"type":"hello","protocol":1}"#);
    assert_eq!(encoded(&Request::Stop), r#"{"type":"stop"}"#);
    let check = Request::Check(CheckRequest {
        id: "a/b".into(),
        robots: Cow::Borrowed(b"User-agent: *\r"),
        queries: vec![Query::new("FooBot/2.1", "/x?y")],
    });
    let line = encoded(&check);
    assert_eq!(
        line,
        r#"{"type":"check","id":"a/b","robots_b64":"VXNlci1hZ2VudDogKg0=","queries":[{"agent":"FooBot/2.1","product_token":"FooBot","name":"FooBot","path":"/x?y","url":"http://example.com/x?y"}]}"#
    );
    assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), check);
}

#[test]
fn answers_decode_as_results_or_refusals() {
    let results = CheckReply::decode(
        br#"{"id":"x","results":["allowed",{"error":"bad URI"},"disallowed"]}"#,
        "x",
        3,
    )
    .unwrap();
    assert_eq!(
        results,
        CheckReply::Results {
            id: "x".into(),
            results: vec![
                Answer::Verdict(Verdict::Allowed),
                Answer::Refused {
                    error: "bad URI".into()
                },
                Answer::Verdict(Verdict::Disallowed),
            ],
        }
    );
    // An error that is not a string is kept as its JSON text; it wins over `results`.
    let refusal = CheckReply::decode(br#"{"results":[],"error":{"a":1},"id":"x"}"#, "x", 1);
    assert_eq!(
        refusal.unwrap(),
        CheckReply::Refusal {
            id: "x".into(),
            error: r#"{"a":1}"#.into()
        }
    );
}

#[test]
fn a_line_that_is_no_answer_says_why() {
    let why = |line: &[u8], queries| {
        CheckReply::decode(line, "x", queries)
            .unwrap_err()
            .to_string()
    };
    assert!(why(b"{oops", 1).starts_with("not JSON ("));
    assert_eq!(why(br#""this is not an answer""#, 1), "not a JSON object");
    assert_eq!(
        why(br#"{"id":"y","results":["allowed"]}"#, 1),
        r#"expected id "x", got "y""#
    );
    assert_eq!(
        why(br#"{"id":"x","results":["allowed"]}"#, 2),
        "1 results for 2 queries"
    );
    assert!(why(br#"{"id":"x"}"#, 1).contains("neither `results` nor `error`"));
    assert!(why(br#"{"results":["allowed"]}"#, 1).contains("missing field `id`"));
    assert!(why(br#"{"id":"x","results":["maybe"]}"#, 1)
        .contains(r#"result "maybe" is not "allowed", "disallowed" or {"error": ...}"#));
    assert!(why(br#"{"id":"x","results":[{"error":"e","also":1}]}"#, 1)
        .contains("holds `error` and nothing else"));
    assert!(why(br#"{"id":"x","results":[true]}"#, 1).contains("invalid type: boolean"));
}

#[test]
fn a_handshake_names_its_empty_fields_and_a_profile_no_one_may_claim() {
    let mut handshake = Handshake {
        name: "x".into(),
        parser: "p".into(),
        version: "1".into(),
        language: "L".into(),
        homepage: Outside::default(),
        profile: "other".into(),
    };
    assert!(handshake.problems().is_empty());
    handshake.version = " ".into();
    handshake.profile = "rfc-9309".into();
    assert_eq!(
        handshake.problems(),
        [
            "`version` is empty",
            "profile `rfc-9309` is not one of norobots-1994, rfc9309, other"
        ]
    );
}

#[test]
fn a_handshakes_fields_are_plain_strings_on_the_wire_and_shown_visibly() {
    let line = r#"{"name":"x\u001b[2J","parser":"::add-mask::p","version":"1","language":"L","homepage":"","profile":"other"}"#;
    let handshake: Handshake = serde_json::from_str(line).unwrap();
    assert_eq!(handshake.name.raw(), "x\x1b[2J");
    assert_eq!(handshake.name.to_string(), "x␛[2J");
    assert_eq!(handshake.parser.to_string(), "\\::add-mask::p");
    assert_eq!(
        handshake.hidden_characters().as_deref(),
        Some("`name` holds a control or bidirectional character")
    );
    let plain = Handshake {
        name: "x".into(),
        ..handshake
    };
    assert_eq!(
        serde_json::to_string(&plain).unwrap(),
        line.replace(r"x\u001b[2J", "x")
    );
}
