//! The census of damaged and plain WARC files, and of parts: records that cannot be read are
//! skipped and the reading goes on; shards and plans (an engine's parts) add up to the whole.

mod census_common;

use std::collections::BTreeMap;
use std::path::Path;

use census_common::*;
use robotstxt_reference::Profile;
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_suite::engine::ReferenceEngine;
use robotstxt_survey::census::{self, census_part};
use robotstxt_survey::hosts::{Capture, Plan, PlanEntry, PlanHeader, PLAN_FORMAT};
use robotstxt_survey::warc::{Item, Place};
use robotstxt_survey::{merge::merge, Options, Shard, Survey};

/// One record of a plain WARC file, with the `Content-Length` given (so that it may lie).
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
            Item::Skipped(f) => format!("{} {}", f.kind.name(), f.target.unwrap_or_default()),
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
                Item::Skipped(f) => f.kind.name().to_owned(),
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
        let entries = (last.values().filter(|c| c.warc == warc))
            .map(|c| {
                let hosts = bodies
                    .values()
                    .find(|(_, at)| *at == (warc.clone(), c.place))
                    .map(|b| b.0);
                PlanEntry {
                    place: c.place,
                    status: c.status,
                    hosts,
                }
            })
            .collect();
        let header = PlanHeader {
            plan: PLAN_FORMAT.to_owned(),
            name: "hard".to_owned(),
            warc,
            part: k + 1,
            parts: files.len(),
            unreadable: None,
        };
        let (recording, _) = Recording::new(PLAIN);
        let mut engines: Vec<Box<dyn Lifecycle>> = vec![
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
    part.shards = Some(robotstxt_survey::Shards {
        count: 2,
        included: vec![1],
    });
    corpus.shards = Some(robotstxt_survey::Shards {
        count: 2,
        included: vec![2],
    });
    assert!(merge(vec![part, corpus])
        .unwrap_err()
        .to_string()
        .contains("census"));
}
