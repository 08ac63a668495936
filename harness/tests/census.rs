//! The census of WARC files: what every record of the hand-made `hard.warc.gz` becomes, hosts
//! counted once by their last capture, bodies once with their hosts, plain files, damaged files,
//! shards and plans adding up to the whole, and the report.
//!
//! `tests/data/census/make_hard.py` builds `hard.warc.gz`; the bodies below are its bodies.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use robotstxt_reference::{Profile, Verdict};
use robotstxt_test::engine::{Engine, Failure, Handshake, Query, ReferenceEngine, Reply};
use robotstxt_test::survey::census::{self, census, census_part};
use robotstxt_test::survey::hosts::{Capture, Plan, PlanEntry, PlanHeader, PLAN_FORMAT};
use robotstxt_test::survey::http::MAX_BODY;
use robotstxt_test::survey::warc::{read_warc, FaultKind, Item, Place};
use robotstxt_test::survey::{merge::merge, write, Options, Shard, Survey};
use sha2::{Digest, Sha256};

const PLAIN: &[u8] = b"User-agent: *\nDisallow: /private/\n";
const PLAIN_LATER: &[u8] = b"User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n";
const CHUNKED: &[u8] = b"User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
const GZIPPED: &[u8] = b"User-agent: *\nDisallow: /search\nAllow: /search/about\n";
const BOTH: &[u8] = b"User-agent: *\nDisallow: /*.pdf$\n";
const LATIN1: &[u8] = b"User-agent: *\nDisallow: /caf\xe9/\n# \xe9t\xe9\n";

fn big() -> Vec<u8> {
    let mut body = b"User-agent: *\n".to_vec();
    for _ in 0..25000 {
        body.extend_from_slice(b"Disallow: /private-area/\n");
    }
    body
}

fn hard() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/census/hard.warc.gz")
}

fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

fn items(path: &Path) -> Vec<Item> {
    let mut items = Vec::new();
    read_warc(path, &mut |item| {
        items.push(item);
        true
    })
    .unwrap();
    items
}

/// The bodies an engine was asked about, by name.
type Asked = Arc<Mutex<BTreeMap<String, Vec<u8>>>>;

/// The reference under norobots-1994, answering the other way round for one body: every check
/// of that body is a disagreement, and it records every body it was asked about.
struct Recording {
    inner: ReferenceEngine,
    handshake: Handshake,
    contrary_on: Vec<u8>,
    asked: Asked,
}

impl Recording {
    fn new(contrary_on: &[u8]) -> (Recording, Asked) {
        let inner = ReferenceEngine::new(Profile::Norobots1994);
        let mut handshake = inner.handshake().clone();
        handshake.name = "recording".to_owned();
        let asked = Arc::new(Mutex::new(BTreeMap::new()));
        let engine = Recording {
            inner,
            handshake,
            contrary_on: contrary_on.to_vec(),
            asked: Arc::clone(&asked),
        };
        (engine, asked)
    }
}

impl Engine for Recording {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        // The survey names a body by its URL; the reducer asks its own candidates.
        if id.contains("://") {
            let previous = self
                .asked
                .lock()
                .unwrap()
                .insert(id.to_owned(), robots.to_vec());
            assert!(previous.is_none(), "{id} asked twice");
        }
        let reply = self.inner.check(id, robots, queries)?;
        match reply {
            Reply::Verdicts(v) if robots == self.contrary_on => Ok(Reply::Verdicts(
                v.into_iter()
                    .map(|v| match v {
                        Verdict::Allowed => Verdict::Disallowed,
                        Verdict::Disallowed => Verdict::Allowed,
                    })
                    .collect(),
            )),
            other => Ok(other),
        }
    }
}

fn run_census(files: &[PathBuf], shard: Option<Shard>) -> (Survey, BTreeMap<String, Vec<u8>>) {
    let (recording, asked) = Recording::new(PLAIN);
    let mut engines: Vec<Box<dyn Engine>> = vec![
        Box::new(recording),
        Box::new(ReferenceEngine::new(Profile::Rfc9309)),
    ];
    let options = Options {
        shard,
        ..Options::default()
    };
    let survey = census(files, "hard", &mut engines, &options, &|_, _| {}).unwrap();
    let asked = asked.lock().unwrap().clone();
    (survey, asked)
}

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
            Item::Fault(f) => faults.push(f),
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

/// A plain (uncompressed) WARC with records `make` builds, and one broken in `broken` ways.
fn plain_record(kind: &str, uri: &str, date: &str, content: &[u8], length: usize) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{uri}>\r\nWARC-Date: {date}\r\n\
         WARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {length}\r\n\r\n"
    )
    .into_bytes();
    out.extend_from_slice(content);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

#[test]
fn plain_files_and_damaged_files_read_on() {
    let dir = tempfile::tempdir().unwrap();
    let ok = |uri: &str, body: &[u8]| {
        let content = [b"HTTP/1.1 200 OK\r\n\r\n".as_slice(), body].concat();
        plain_record(
            "response",
            uri,
            "2024-03-01T00:00:00Z",
            &content,
            content.len(),
        )
    };
    let content = [b"HTTP/1.1 200 OK\r\n\r\n".as_slice(), PLAIN].concat();
    let mut file = ok("https://a.example/robots.txt", PLAIN);
    // Content-Length too long: it swallows the next record, which is found again.
    file.extend(plain_record(
        "response",
        "https://long.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &content,
        content.len() + 200,
    ));
    file.extend(ok("https://b.example/robots.txt", GZIPPED));
    // Garbage between records, then a record with no status line.
    file.extend(b"garbage\r\nmore garbage\r\n");
    file.extend(plain_record(
        "response",
        "https://html.example/robots.txt",
        "2024-03-01T00:00:00Z",
        b"<html></html>\r\n\r\n",
        17,
    ));
    // Not http(s), and a date that is not one.
    file.extend(ok("ftp://c.example/robots.txt", PLAIN));
    file.extend(plain_record(
        "response",
        "https://d.example/robots.txt",
        "yesterday",
        &content,
        content.len(),
    ));
    file.extend(ok("https://e.example/robots.txt", BOTH));
    // Content-Length too short, at the end of the file.
    file.extend(plain_record(
        "response",
        "https://short.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &content,
        10,
    ));
    let path = dir.path().join("plain.warc");
    std::fs::write(&path, &file).unwrap();
    let mut seen = Vec::new();
    for item in items(&path) {
        seen.push(match item {
            Item::Response(r) => format!("{} {}", r.host, r.status),
            Item::Other { kind, .. } => kind,
            Item::Fault(f) => format!("{} {}", f.kind.name(), f.target.unwrap_or_default()),
        });
    }
    assert_eq!(
        seen,
        [
            "https://a.example 200",
            "bad-length https://long.example/robots.txt",
            "https://b.example 200",
            "bad-header ",
            "bad-http https://html.example/robots.txt",
            "bad-target ftp://c.example/robots.txt",
            "bad-header https://d.example/robots.txt",
            "https://e.example 200",
            "bad-length https://short.example/robots.txt",
        ]
    );

    // A gzip file cut inside its last member: that record is a truncated member, the rest reads.
    let whole = std::fs::read(hard()).unwrap();
    let cut = dir.path().join("cut.warc.gz");
    std::fs::write(&cut, &whole[..whole.len() - 300]).unwrap();
    let (s, _) = run_census(std::slice::from_ref(&cut), None);
    let c = s.census.unwrap();
    assert_eq!(c.faults["truncated-member"], 2);
    assert_eq!(c.fetches.success, 8, "the last fetch is lost");

    // The same records gzipped a member each read as the plain file does.
    let gz = dir.path().join("plain.warc.gz");
    let mut members = Vec::new();
    let mut at = 0;
    // Split the plain file at its record starts and compress each part on its own.
    let starts: Vec<usize> = (0..file.len())
        .filter(|&i| file[i..].starts_with(b"WARC/1.1\r\n"))
        .chain([file.len()])
        .collect();
    for pair in starts.windows(2) {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut encoder, &file[pair[0]..pair[1]]).unwrap();
        members.extend(encoder.finish().unwrap());
        at += 1;
    }
    assert_eq!(at, 8);
    std::fs::write(&gz, &members).unwrap();
    let names = |path: &Path| -> Vec<String> {
        items(path)
            .into_iter()
            .map(|item| match item {
                Item::Response(r) => {
                    format!("{} {} {:?}", r.host, r.status, r.body.map(|b| b.sha256))
                }
                Item::Other { kind, .. } => kind,
                Item::Fault(f) => f.kind.name().to_owned(),
            })
            .collect()
    };
    let (plain, gzipped) = (names(&path), names(&gz));
    // Garbage before a record is its own fault in a plain file; gzipped, it rides in the member
    // before it, whose record is then followed by bytes that are no record.
    assert_eq!(
        plain.iter().filter(|n| n.contains("example 200")).count(),
        3
    );
    assert_eq!(
        gzipped
            .iter()
            .filter(|n| n.contains("example 200"))
            .collect::<Vec<_>>(),
        plain
            .iter()
            .filter(|n| n.contains("example 200"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn shards_and_plans_add_up_to_the_whole_census() {
    let dir = tempfile::tempdir().unwrap();
    // Two files: the hard one, and the hard one again under another name with later dates, so
    // every host's last capture is in the second.
    let first = hard();
    let second = dir.path().join("later.warc.gz");
    std::fs::copy(&first, &second).unwrap();
    let files = vec![first.clone(), second.clone()];
    let (whole, _) = run_census(&files, None);
    let c = whole.census.as_ref().unwrap();
    assert_eq!(c.warc_files, 2);
    assert_eq!(c.fetches.success, 18);
    // Same dates in both: the tie goes to the file whose name sorts last.
    assert_eq!(c.hosts.success, 8);
    assert_eq!(whole.files, 7);

    let parts: Vec<Survey> = (1..=3)
        .map(|k| run_census(&files, Some(Shard { index: k, count: 3 })).0)
        .collect();
    let merged = merge(parts).unwrap();
    assert_eq!(totals(&merged), totals(&whole));

    // Plans made by hand from the captures, as an engine makes them: a part per file.
    let mut captures = Vec::new();
    for file in &files {
        let mut lines = Vec::new();
        census::captures(file, &mut lines).unwrap();
        captures.extend(
            String::from_utf8(lines)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Capture>(l).unwrap()),
        );
    }
    let mut last: BTreeMap<String, Capture> = BTreeMap::new();
    for c in captures {
        let key = |c: &Capture| (c.time.clone(), c.warc.clone(), c.place);
        match last.get(&c.host) {
            Some(l) if key(l) >= key(&c) => {}
            _ => {
                last.insert(c.host.clone(), c);
            }
        }
    }
    let mut bodies: BTreeMap<String, (u64, (String, Place))> = BTreeMap::new();
    for c in last.values() {
        if let Some(d) = &c.digest {
            let at = (c.warc.clone(), c.place);
            let e = bodies.entry(d.clone()).or_insert((0, at.clone()));
            e.0 += 1;
            e.1 = e.1.clone().min(at);
        }
    }
    let mut parts = Vec::new();
    for (k, file) in files.iter().enumerate() {
        let warc = census::warc_name(file);
        let mut entries = std::collections::HashMap::new();
        for c in last.values().filter(|c| c.warc == warc) {
            let hosts = bodies
                .values()
                .find(|(_, at)| *at == (warc.clone(), c.place))
                .map(|b| b.0);
            entries.insert(
                c.place,
                PlanEntry {
                    place: c.place,
                    status: c.status,
                    hosts,
                },
            );
        }
        let header = PlanHeader {
            plan: PLAN_FORMAT.to_owned(),
            name: "hard".to_owned(),
            warc,
            part: k + 1,
            parts: files.len(),
            unreadable: None,
        };
        let (recording, _) = Recording::new(PLAIN);
        let mut engines: Vec<Box<dyn Engine>> = vec![
            Box::new(recording),
            Box::new(ReferenceEngine::new(Profile::Rfc9309)),
        ];
        let plan = Plan { header, entries };
        parts.push(census_part(file, plan, &mut engines, &Options::default(), &|_, _| {}).unwrap());
    }
    assert_eq!(
        parts[0].files, 0,
        "every last capture is in the second file"
    );
    let merged = merge(parts).unwrap();
    assert_eq!(totals(&merged), totals(&whole));
    assert_eq!(merged.shards, None);

    // A census and a corpus survey do not merge.
    let mut corpus = whole.clone();
    corpus.census = None;
    let mut part = whole.clone();
    part.shards = Some(robotstxt_test::survey::Shards {
        count: 2,
        included: vec![1],
    });
    corpus.shards = Some(robotstxt_test::survey::Shards {
        count: 2,
        included: vec![2],
    });
    assert!(merge(vec![part, corpus]).unwrap_err().contains("census"));
}

/// Everything of a survey that adds up: all but the causes and which examples were reduced.
pub fn totals(s: &Survey) -> serde_json::Value {
    let mut value = serde_json::to_value(s).unwrap();
    for adapter in value["adapters"].as_array_mut().unwrap() {
        adapter.as_object_mut().unwrap().remove("causes");
        for signature in adapter["signatures"].as_array_mut().unwrap() {
            signature["example"]
                .as_object_mut()
                .unwrap()
                .remove("reduced");
        }
    }
    value
}
