//! A census of robots.txt files from WARC files, as Common Crawl publishes them with every crawl:
//! `survey --warc`.
//!
//! Only `response` records count. Each response is classed by what RFC 9309 §2.3.1 makes of it
//! (2xx parsed, 3xx a redirect, 4xx unavailable, 5xx unreachable), counted once per fetch and
//! once per host by the host's last capture ([`super::hosts`]). The 2xx bodies of the hosts' last
//! captures are surveyed, each distinct body once and weighted by its hosts. Records that cannot
//! be read are counted by kind, the first few of each kind named ([`MAX_FAULT_EXAMPLES`]), and
//! skipped; a file that cannot be read at all is named.
//!
//! One process reads every file twice: once to find each host's last capture, once to survey.
//! On an engine, `survey captures` is the first read of one file, the engine's shuffle by host
//! makes a plan per file, and `survey --warc FILE --plan PLAN` surveys one file's part; `survey
//! merge` adds the parts up into what one process gives.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Mutex;
use std::thread;

use super::bodies::survey_bodies;
use super::corpus::CorpusFile;
use super::hosts::{Capture, Hosts, Plan, PlanEntries, PlanError};
use super::warc::{read_warc, Item, WarcError};
use super::{Options, Shards, Survey};
pub use crate::census_record::{
    Census, FaultExample, StatusCounts, Unreadable, MAX_FAULT_EXAMPLES,
};
use robotstxt_runtime::lifecycle::Lifecycle;

/// Bodies read ahead of the survey: with the engines' own queues, what bounds the bodies held.
const BODIES_AHEAD: usize = 8;
/// Why a census stopped.
#[derive(Debug, thiserror::Error)]
pub enum CensusError {
    #[error(transparent)]
    Warc(#[from] WarcError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("two WARC files are named {0}: a census tells files apart by name")]
    SameName(String),
    #[error("no WARC file to read")]
    NoFiles,
    #[error("{warc}: the plan names {missing} captures this file does not hold where it says: it was made from another file")]
    Mismatch { warc: String, missing: usize },
    #[error("{file}: the plan is for `{plan}`, another file (a plan names its WARC file)")]
    PlanForAnother { plan: String, file: String },
    #[error("{warc}: the capture at offset {offset} has status {found}, the plan says {planned}: it was made from another file")]
    StatusMismatch {
        warc: String,
        offset: u64,
        planned: u16,
        found: u16,
    },
    #[error("writing the captures: {0}")]
    Output(io::Error),
    #[error("a WARC reader thread panicked")]
    Panicked,
}

/// A WARC file's name in a census: its file name, without the folder.
pub fn warc_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The name a census goes by unless given one: the file's name, or how many files.
pub fn default_name(files: &[PathBuf]) -> String {
    match files {
        [one] => warc_name(one),
        _ => format!("{} WARC files", files.len()),
    }
}

/// `survey captures`: one JSON line per response of `file` (see [`Capture`]). Returns how many.
pub fn captures(file: &Path, out: &mut dyn Write) -> Result<u64, CensusError> {
    let name = warc_name(file);
    let mut written = 0u64;
    let mut failed = None;
    read_warc(file, &mut |item| {
        let Item::Response(response) = item else {
            return true;
        };
        let line =
            serde_json::to_string(&Capture::of(&name, &response)).expect("a capture serialises");
        let line = robotstxt_suite::visible::json_escaped(line);
        match writeln!(out, "{line}") {
            Ok(()) => {
                written += 1;
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    })?;
    match failed {
        Some(e) => Err(CensusError::Output(e)),
        None => Ok(written),
    }
}

/// One file's share of a census: where it is, what to count in it.
struct Part {
    path: PathBuf,
    name: String,
    entries: PlanEntries,
    /// Whether this survey counts the file's records (with a shard, one shard does).
    records: bool,
    unreadable: Option<String>,
}

/// `survey --warc FILE...`: the whole census in this process, or with `options.shard` one
/// shard of it (every shard reads every file; each counts its share exactly once).
pub fn census(
    files: &[PathBuf],
    name: &str,
    engines: &mut [Box<dyn Lifecycle>],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Survey, CensusError> {
    let names: Vec<String> = files.iter().map(|f| warc_name(f)).collect();
    let mut sorted = names.clone();
    sorted.sort();
    if let Some(twice) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(CensusError::SameName(twice[0].clone()));
    }
    if files.is_empty() {
        return Err(CensusError::NoFiles);
    }
    let (hosts, mut unreadable) = last_captures(files, &names)?;
    let mut plans = hosts.plans(name, options.shard);
    let parts = files
        .iter()
        .zip(&names)
        .map(|(path, warc)| Part {
            path: path.clone(),
            name: warc.clone(),
            entries: plans.remove(warc).map(|p| p.entries).unwrap_or_default(),
            records: options.shard.is_none_or(|s| s.holds(warc.as_bytes())),
            unreadable: unreadable.remove(warc),
        })
        .collect();
    let shards = options.shard.map(|s| Shards {
        count: s.count,
        included: vec![s.index],
    });
    run(parts, name, shards, engines, options, progress)
}

/// `survey --warc FILE --plan PLAN`: one file's part of a census an engine planned.
pub fn census_part(
    file: &Path,
    plan: Plan,
    engines: &mut [Box<dyn Lifecycle>],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Survey, CensusError> {
    let header = plan.header;
    // The plan's status and places are checked against the file as it is read (`survey_part`).
    if header.unreadable.is_none() && warc_name(file) != header.warc {
        return Err(CensusError::PlanForAnother {
            plan: header.warc,
            file: file.display().to_string(),
        });
    }
    let part = Part {
        path: file.to_owned(),
        name: header.warc.clone(),
        entries: plan.entries,
        records: true,
        unreadable: header.unreadable.clone(),
    };
    let shards = Some(Shards {
        count: header.parts,
        included: vec![header.part],
    });
    run(vec![part], &header.name, shards, engines, options, progress)
}

/// The first read: every file's responses, in parallel over the files, into the host table.
/// Files that cannot be read come back by name, with why.
fn last_captures(
    files: &[PathBuf],
    names: &[String],
) -> Result<(Hosts, BTreeMap<String, String>), CensusError> {
    let hosts = Mutex::new(Hosts::new(names));
    let unreadable = Mutex::new(BTreeMap::new());
    let next = Mutex::new(files.iter().zip(names));
    let threads = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let Some((path, name)) = next.lock().expect("not poisoned").next() else {
                    return;
                };
                // Responses are gathered a few at a time, so the lock is taken seldom.
                let mut batch = Vec::new();
                let flush = |batch: &mut Vec<_>| {
                    let mut hosts = hosts.lock().expect("not poisoned");
                    for response in batch.drain(..) {
                        hosts.add(name, &response);
                    }
                };
                let read = read_warc(path, &mut |item| {
                    if let Item::Response(mut response) = item {
                        // The table keeps the digest, not the body.
                        if let Some(body) = &mut response.body {
                            body.bytes = Vec::new();
                        }
                        batch.push(response);
                        if batch.len() == 256 {
                            flush(&mut batch);
                        }
                    }
                    true
                });
                flush(&mut batch);
                if let Err(e) = read {
                    let mut unreadable = unreadable.lock().expect("not poisoned");
                    unreadable.insert(name.clone(), e.to_string());
                }
            });
        }
    });
    let hosts = hosts.into_inner().map_err(|_| CensusError::Panicked)?;
    let unreadable = unreadable.into_inner().map_err(|_| CensusError::Panicked)?;
    Ok((hosts, unreadable))
}

/// The second read and the survey: each part's records counted, its planned captures counted per
/// host, and the bodies standing for their hosts surveyed, while the engines answer.
fn run(
    parts: Vec<Part>,
    name: &str,
    shards: Option<Shards>,
    engines: &mut [Box<dyn Lifecycle>],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Survey, CensusError> {
    let (sender, bodies) = sync_channel::<(CorpusFile, Option<u64>)>(BODIES_AHEAD);
    let reader = thread::spawn(move || {
        let mut census = Census::default();
        for part in parts {
            if !read_part(part, &mut census, &sender)? {
                break;
            }
        }
        census.keep_examples();
        Ok::<Census, CensusError>(census)
    });
    let mut survey = survey_bodies(bodies.into_iter(), engines, options, true, progress);
    let census = reader.join().map_err(|_| CensusError::Panicked)??;
    survey.corpus = name.to_owned();
    survey.shards = shards;
    survey.census = Some(census);
    Ok(survey)
}

/// Reads one part; `false` once the survey stopped taking bodies.
fn read_part(
    part: Part,
    census: &mut Census,
    sender: &SyncSender<(CorpusFile, Option<u64>)>,
) -> Result<bool, CensusError> {
    let unreadable = |census: &mut Census, error: String| {
        if part.records {
            census.unreadable.push(Unreadable {
                warc: part.name.clone(),
                error,
            });
        }
    };
    if let Some(error) = &part.unreadable {
        unreadable(census, error.clone());
        return Ok(true);
    }
    let mut met = 0usize;
    let mut open = true;
    let mut misplaced = false;
    let mut wrong_status = None;
    let read = read_warc(&part.path, &mut |item| {
        if part.records {
            census.count(&part.name, &item);
        }
        let Item::Response(response) = item else {
            return true;
        };
        let Some(entry) = part.entries.get(&response.place) else {
            return true;
        };
        if entry.status != response.status {
            wrong_status = Some((response.place.offset, entry.status, response.status));
            return false;
        }
        met += 1;
        census.hosts.count(entry.status);
        let Some(hosts) = entry.hosts else {
            return true;
        };
        let Some(body) = response.body else {
            misplaced = true;
            return false;
        };
        if body.cut {
            census.cut = census.cut.saturating_add(1);
        }
        let file = CorpusFile {
            name: response.target,
            body: body.bytes,
        };
        open = sender.send((file, Some(hosts))).is_ok();
        open
    });
    if let Err(e) = read {
        unreadable(census, e.to_string());
        return Ok(true);
    }
    if let Some((offset, planned, found)) = wrong_status {
        return Err(CensusError::StatusMismatch {
            warc: part.name,
            offset,
            planned,
            found,
        });
    }
    if part.records {
        census.warc_files = census.warc_files.saturating_add(1);
    }
    if open && (misplaced || met != part.entries.len()) {
        return Err(CensusError::Mismatch {
            warc: part.name,
            missing: part.entries.len().saturating_sub(met).max(1),
        });
    }
    Ok(open)
}

/// This process's peak resident memory (`VmHWM` of `/proc/self/status`), in bytes; `None` where
/// there is no such file.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}
