//! The census of WARC files: what every record of the hand-made `hard.warc.gz` becomes, and
//! hosts counted once by their last capture, bodies once with their hosts, in the report.
//!
//! `tests/data/census/make_hard.py` builds `hard.warc.gz`; `census_common` has its bodies.

mod census_common;

use std::collections::BTreeMap;

use census_common::*;
use robotstxt_survey::census;
use robotstxt_survey::hosts::Capture;
use robotstxt_survey::http::MAX_BODY;
use robotstxt_survey::warc::{FaultKind, Item};
use robotstxt_survey::write;

#[test]
fn every_record_of_the_hard_warc_becomes_what_it_should() {
    let items = items(&hard());
    let mut kinds = BTreeMap::new();
    let mut responses = BTreeMap::new();
    let mut faults = Vec::new();
    for item in items {
        match item {
            Item::Other { kind, .. } => *kinds.entry(kind).or_insert(0) += 1,
            Item::Response(r) => {
                responses
                    .entry(r.host.clone())
                    .or_insert_with(Vec::new)
                    .push(r);
            }
            Item::Skipped(f) => faults.push(f),
        }
    }
    let kinds: Vec<(&str, i32)> = kinds.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(
        kinds,
        [("metadata", 1), ("request", 14), ("warcinfo", 1)],
        "a request per fetch, the truncated fetch's request included"
    );
    let body = |host: &str, nth: usize| {
        let r = &responses[host][nth];
        (r.status, r.body.as_ref().map(|b| (b.bytes.clone(), b.cut)))
    };
    // 200 plain, twice over https (two captures), once over http.
    assert_eq!(responses["https://plain.example"].len(), 2);
    assert_eq!(
        body("https://plain.example", 0),
        (200, Some((PLAIN.to_vec(), false)))
    );
    assert_eq!(
        body("https://plain.example", 1),
        (200, Some((PLAIN_LATER.to_vec(), false)))
    );
    assert_eq!(
        body("http://plain.example", 0),
        (200, Some((PLAIN.to_vec(), false)))
    );
    // The chunked transfer coding and the gzip content coding removed, alone and together.
    assert_eq!(
        body("https://chunked.example", 0),
        (200, Some((CHUNKED.to_vec(), false)))
    );
    assert_eq!(
        body("https://gzip.example", 0),
        (200, Some((GZIPPED.to_vec(), false)))
    );
    assert_eq!(
        body("https://both.example", 0),
        (200, Some((BOTH.to_vec(), false)))
    );
    // WARC 1.1's fractional date.
    assert_eq!(
        responses["https://gzip.example"][0].time,
        "2024-03-01T00:00:03.250000000Z"
    );
    // 404, 503 and 301 keep no body: RFC 9309 does not parse them.
    assert_eq!(body("https://missing.example", 0), (404, None));
    assert_eq!(body("https://down.example", 0), (503, None));
    assert_eq!(body("http://moved.example", 0), (301, None));
    // The oversized body is cut at the parse limit; the Latin-1 one is kept byte for byte.
    let big = big();
    assert!(big.len() > MAX_BODY);
    assert_eq!(
        body("https://big.example", 0),
        (200, Some((big[..MAX_BODY].to_vec(), true)))
    );
    assert_eq!(
        body("https://latin1.example", 0),
        (200, Some((LATIN1.to_vec(), false)))
    );
    // The truncated member and the lying Content-Length: skipped, named, the reading goes on.
    assert!(!responses.contains_key("https://truncated.example"));
    assert!(!responses.contains_key("https://liar.example"));
    let named: Vec<(FaultKind, Option<&str>, Option<&str>)> = faults
        .iter()
        .map(|f| (f.kind, f.record_id.as_deref(), f.target.as_deref()))
        .collect();
    assert_eq!(
        named,
        [
            (
                FaultKind::TruncatedMember,
                Some("urn:uuid:00000000-0000-4000-8000-000000000017"),
                None
            ),
            (
                FaultKind::BadLength,
                Some("urn:uuid:00000000-0000-4000-8000-000000000023"),
                Some("https://liar.example/robots.txt")
            ),
        ],
        "{faults:#?}"
    );
    assert!(
        faults[1].detail.contains("Content-Length"),
        "{}",
        faults[1].detail
    );
    // Captures name each response by its member's offset, with its body's digest.
    let mut lines = Vec::new();
    census::captures(&hard(), &mut lines).unwrap();
    let captures: Vec<Capture> = String::from_utf8(lines)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(captures.len(), 12);
    let chunked = captures
        .iter()
        .find(|c| c.host == "https://chunked.example")
        .unwrap();
    assert_eq!(chunked.digest.as_deref(), Some(sha256(CHUNKED).as_str()));
    assert_eq!(chunked.warc, "hard.warc.gz");
    let big_capture = captures
        .iter()
        .find(|c| c.host == "https://big.example")
        .unwrap();
    assert_eq!(
        big_capture.digest.as_deref(),
        Some(sha256(&big[..MAX_BODY]).as_str())
    );
}

#[test]
fn hosts_count_once_by_their_last_capture_and_bodies_once_with_their_hosts() {
    let (s, asked) = run_census(&[hard()], None);
    let c = s.census.as_ref().unwrap();
    assert_eq!(c.warc_files, 1);
    let records: Vec<(&str, u64)> = c.records.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(
        records,
        [
            ("metadata", 1),
            ("request", 14),
            ("response", 12),
            ("warcinfo", 1)
        ]
    );
    let faults: Vec<(&str, u64)> = c.faults.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(faults, [("bad-length", 1), ("truncated-member", 1)]);
    assert_eq!(c.fault_examples.len(), 2);
    // Fetches: every response. Hosts: https://plain.example was fetched twice and counts once.
    let f = &c.fetches;
    assert_eq!(
        (f.success, f.redirect, f.unavailable, f.unreachable, f.other),
        (9, 1, 1, 1, 0)
    );
    let h = &c.hosts;
    assert_eq!(
        (h.success, h.redirect, h.unavailable, h.unreachable, h.other),
        (8, 1, 1, 1, 0)
    );
    assert_eq!(c.cut, 1);
    // Seven distinct bodies, each asked once: https://plain.example's by its last capture, and
    // the body it served before, now served by http://plain.example and https://shared.example,
    // under the name of the first of their captures in the file.
    assert_eq!(s.files, 7);
    let expected: BTreeMap<String, Vec<u8>> = [
        ("https://plain.example/robots.txt", PLAIN_LATER.to_vec()),
        ("http://plain.example/robots.txt", PLAIN.to_vec()),
        ("https://chunked.example/robots.txt", CHUNKED.to_vec()),
        ("https://gzip.example/robots.txt", GZIPPED.to_vec()),
        ("https://both.example/robots.txt", BOTH.to_vec()),
        ("https://big.example/robots.txt", big()[..MAX_BODY].to_vec()),
        ("https://latin1.example/robots.txt", LATIN1.to_vec()),
    ]
    .into_iter()
    .map(|(n, b)| (n.to_owned(), b))
    .collect();
    assert_eq!(asked, expected);
    // The recording engine disagrees on PLAIN alone: one body, two hosts.
    let a = &s.adapters[0];
    assert_eq!((a.files, a.disagreements.files), (7, 1));
    let r = a.hosts.unwrap();
    assert_eq!(
        (r.answered, r.disagreements, r.differing, r.not_answered),
        (8, 2, 2, 0)
    );
    assert_eq!(a.served.len(), 1);
    assert_eq!(
        (a.served[0].body.as_str(), a.served[0].hosts),
        ("http://plain.example/robots.txt", 2)
    );
    assert!(a
        .signatures
        .iter()
        .all(|s| s.hosts == Some(2) && s.example.hosts == Some(2)));
    assert!(
        a.causes.iter().all(|c| c.hosts == Some(2)),
        "{:#?}",
        a.causes
    );
    assert_eq!(a.host_sets.values().sum::<u64>(), 2);
    // The report gives the status shares and both rates.
    let md = write::markdown(&s);
    for line in [
        "| 2xx | success: the body is parsed | 9 | 75.0% | 8 | 72.7% |",
        "| 4xx | unavailable: any resource may be accessed | 1 | 8.3% | 1 | 9.1% |",
        "| 5xx | unreachable: complete disallow assumed | 1 | 8.3% | 1 | 9.1% |",
        "| 3xx | redirect: followed (at least five hops) | 1 | 8.3% | 1 | 9.1% |",
        "| recording | 7 | 1 | 14.3% | 8 | 2 | 25.0% |",
        "`http://plain.example/robots.txt` body, served by 2 hosts",
        "| truncated-member | `hard.warc.gz` |",
        "| bad-length | `hard.warc.gz` |",
    ] {
        assert!(md.contains(line), "{line}\n{md}");
    }
}
