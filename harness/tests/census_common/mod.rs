//! What the census tests share: the bodies of `tests/data/census/hard.warc.gz` (its script,
//! `make_hard.py`, writes the same), an engine that records what it was asked and disagrees on
//! one body, and the census run with it.

#![allow(dead_code)] // each test file uses its own part of this

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use robotstxt_reference::{Profile, Verdict};
use robotstxt_runtime::lifecycle::{InProcess, Lifecycle};
use robotstxt_suite::engine::{Engine, Failure, Handshake, Query, ReferenceEngine, Reply};
use robotstxt_survey::census::census;
use robotstxt_survey::warc::{read_warc, Item};
use robotstxt_survey::{Options, Shard, Survey};
use sha2::{Digest, Sha256};

pub const PLAIN: &[u8] = b"User-agent: *\nDisallow: /private/\n";
pub const PLAIN_LATER: &[u8] = b"User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n";
pub const CHUNKED: &[u8] = b"User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
pub const GZIPPED: &[u8] = b"User-agent: *\nDisallow: /search\nAllow: /search/about\n";
pub const BOTH: &[u8] = b"User-agent: *\nDisallow: /*.pdf$\n";
pub const LATIN1: &[u8] = b"User-agent: *\nDisallow: /caf\xe9/\n# \xe9t\xe9\n";

pub fn big() -> Vec<u8> {
    let mut body = b"User-agent: *\n".to_vec();
    for _ in 0..25000 {
        body.extend_from_slice(b"Disallow: /private-area/\n");
    }
    body
}

pub fn hard() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/census/hard.warc.gz")
}

pub fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

pub fn items(path: &Path) -> Vec<Item> {
    let mut items = Vec::new();
    read_warc(path, &mut |item| {
        items.push(item);
        true
    })
    .unwrap();
    items
}

/// The bodies an engine was asked about, by name.
pub type Asked = Arc<Mutex<BTreeMap<String, Vec<u8>>>>;

/// The reference under norobots-1994, answering the other way round for one body: every check
/// of that body is a disagreement, and it records every body it was asked about.
pub struct Recording {
    inner: ReferenceEngine,
    handshake: Handshake,
    contrary_on: Vec<u8>,
    asked: Asked,
}

impl Recording {
    pub fn new(contrary_on: &[u8]) -> (Recording, Asked) {
        let inner = ReferenceEngine::new(Profile::Norobots1994);
        let mut handshake = inner.handshake().clone();
        handshake.name = "recording".into();
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

impl InProcess for Recording {}

pub fn run_census(files: &[PathBuf], shard: Option<Shard>) -> (Survey, BTreeMap<String, Vec<u8>>) {
    let (recording, asked) = Recording::new(PLAIN);
    let mut engines: Vec<Box<dyn Lifecycle>> = vec![
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

/// The whole survey as `survey.json` holds it: every count, and the causes, excerpts and reduced
/// examples too, which merged parts give exactly as one process does.
pub fn totals(s: &Survey) -> serde_json::Value {
    serde_json::to_value(s).unwrap()
}
