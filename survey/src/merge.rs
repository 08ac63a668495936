//! `survey merge`: shard results added up into the survey of the whole corpus.
//!
//! Counts add; signatures merge by their text, keeping the example from the smallest file (by
//! size, then name), with the excerpt and reduced case its shard worked out; `file_sets` are renumbered and added; causes are grouped again. Merging shards 1..N of
//! one corpus gives exactly what one run over the whole corpus gives. In a census the per-host
//! counts and sets add the same way, and the census itself adds up ([`super::census`]). Every
//! sum is checked: the files merged may come from anywhere.

use std::collections::BTreeMap;

use robotstxt_suite::visible::Outside;

use super::cause::{self, parse_set_key, set_key, SignatureCount};
use super::weights::{self, Overflow};
use super::{AdapterSurvey, Disagreements, Shards, Survey, FORMAT};

/// Why surveys cannot be added up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("nothing to merge")]
    Nothing,
    #[error("format {found:?} is not {FORMAT:?}: survey again with this version")]
    Format { found: String },
    #[error("the surveys derived their probes differently")]
    Probes,
    #[error("the surveys are of different corpora: {0} and {1}")]
    Corpora(Outside, Outside),
    #[error("a survey of the whole corpus cannot be merged with anything")]
    Whole,
    #[error("shards of {0} and of {1} do not split the corpus the same way")]
    ShardCounts(usize, usize),
    #[error("shard {index}/{count} is there twice")]
    ShardTwice { index: usize, count: usize },
    #[error("shard {index}/{count} is not a shard: K/N needs 1 <= K <= N")]
    ShardNumber { index: usize, count: usize },
    #[error("the surveys asked different adapters: {0:?} and {1:?}")]
    Adapters(Vec<(Outside, Outside)>, Vec<(Outside, Outside)>),
    #[error("{adapter} was compared under {first} and under {second}")]
    ComparedUnder {
        adapter: Outside,
        first: Outside,
        second: Outside,
    },
    #[error("{adapter}: bad file set {key:?}")]
    BadFileSet { adapter: Outside, key: String },
    #[error("{adapter}: file set {key:?} out of range")]
    FileSetOutOfRange { adapter: Outside, key: String },
    #[error("a census of WARC files cannot be merged with a survey of a corpus")]
    CensusWithCorpus,
    #[error("{0}: counted per host in one survey only")]
    HostsInOne(Outside),
    #[error(transparent)]
    Overflow(#[from] Overflow),
}

/// `*a += b`, or an error naming the overflow.
fn add_to(a: &mut usize, b: usize) -> Result<(), MergeError> {
    *a = a.checked_add(b).ok_or(Overflow)?;
    Ok(())
}

/// `*a += b` for 64-bit counts.
fn add_u64(a: &mut u64, b: u64) -> Result<(), MergeError> {
    *a = weights::sum(*a, b)?;
    Ok(())
}

/// Adds `surveys` (shards of one corpus, surveyed with the same adapters and probe settings) up.
pub fn merge(surveys: Vec<Survey>) -> Result<Survey, MergeError> {
    let numbered = surveys.into_iter().enumerate();
    merge_named(numbered).map_err(|failure| failure.source)
}

/// A survey that could not be added to the ones before it: its name (a file, in `survey
/// merge`), and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {source}")]
pub struct MergeFailure<N: std::fmt::Display + std::fmt::Debug> {
    pub name: N,
    pub source: MergeError,
}

/// [`merge`], naming the survey that could not be added (the first one, when there is none).
pub fn merge_named<N: std::fmt::Display + std::fmt::Debug + Default>(
    surveys: impl IntoIterator<Item = (N, Survey)>,
) -> Result<Survey, MergeFailure<N>> {
    let mut surveys = surveys.into_iter();
    let Some((name, mut merged)) = surveys.next() else {
        return Err(MergeFailure {
            name: N::default(),
            source: MergeError::Nothing,
        });
    };
    check_format(&merged)
        .and_then(|()| check_shards(&merged))
        .map_err(|source| MergeFailure { name, source })?;
    for (name, survey) in surveys {
        check_format(&survey)
            .and_then(|()| check_shards(&survey))
            .and_then(|()| add(&mut merged, survey))
            .map_err(|source| MergeFailure { name, source })?;
    }
    if let Some(shards) = &merged.shards {
        // Whole only when every shard 1..=N is there (each is there once, in range: checked).
        if shards.included.iter().copied().eq(1..=shards.count) {
            merged.shards = None;
        }
    }
    for adapter in &mut merged.adapters {
        adapter.causes = cause::causes(&adapter.signatures, &adapter.file_sets, &adapter.host_sets);
    }
    Ok(merged)
}

/// Every shard a survey says it holds is one of its count, once: a `survey.json` may come from
/// anywhere, and shard 0 of 8 beside shards 2 to 8 would otherwise read as the whole.
fn check_shards(survey: &Survey) -> Result<(), MergeError> {
    let Some(shards) = &survey.shards else {
        return Ok(());
    };
    let count = shards.count;
    if let Some(&index) = (shards.included.iter()).find(|&&k| k == 0 || k > count) {
        return Err(MergeError::ShardNumber { index, count });
    }
    let mut sorted = shards.included.clone();
    sorted.sort_unstable();
    match sorted.windows(2).find(|pair| pair[0] == pair[1]) {
        Some(pair) => Err(MergeError::ShardTwice {
            index: pair[0],
            count,
        }),
        None => Ok(()),
    }
}

fn check_format(survey: &Survey) -> Result<(), MergeError> {
    if survey.format == FORMAT {
        Ok(())
    } else {
        Err(MergeError::Format {
            found: survey.format.clone(),
        })
    }
}

fn add(into: &mut Survey, other: Survey) -> Result<(), MergeError> {
    if into.probes != other.probes {
        return Err(MergeError::Probes);
    }
    if into.corpus != other.corpus {
        return Err(MergeError::Corpora(
            into.corpus.clone().into(),
            other.corpus.into(),
        ));
    }
    into.shards = Some(add_shards(into.shards.take(), other.shards.clone())?);
    let names = |s: &Survey| -> Vec<(Outside, Outside)> {
        s.adapters
            .iter()
            .map(|a| (a.adapter.clone(), a.handshake.version.clone()))
            .collect()
    };
    if names(into) != names(&other) {
        return Err(MergeError::Adapters(names(into), names(&other)));
    }
    add_to(&mut into.files, other.files)?;
    add_u64(&mut into.bytes, other.bytes)?;
    add_to(&mut into.queries, other.queries)?;
    // Every shard reads the whole corpus, so each names the same oversized files: keep one.
    into.oversized.extend(other.oversized);
    into.oversized.sort_by(|a, b| a.name.cmp(&b.name));
    into.oversized.dedup();
    // The first named by each shard are the same files too; past them, the same count.
    let named = crate::limits::MAX_OVERSIZED_NAMED;
    if into.oversized.len() > named {
        let past = (into.oversized.len() - named) as u64;
        into.oversized.truncate(named);
        into.oversized_unnamed = into.oversized_unnamed.saturating_add(past);
    }
    into.oversized_unnamed = into.oversized_unnamed.max(other.oversized_unnamed);
    add_to(&mut into.profiles.files, other.profiles.files)?;
    add_to(&mut into.profiles.checks, other.profiles.checks)?;
    into.census = match (into.census.take(), other.census) {
        (None, None) => None,
        (Some(mut a), Some(b)) => {
            a.add(b)?;
            Some(a)
        }
        _ => return Err(MergeError::CensusWithCorpus),
    };
    for (a, b) in into.adapters.iter_mut().zip(other.adapters) {
        add_adapter(a, b)?;
    }
    Ok(())
}

fn add_shards(a: Option<Shards>, b: Option<Shards>) -> Result<Shards, MergeError> {
    let (Some(mut a), Some(b)) = (a, b) else {
        return Err(MergeError::Whole);
    };
    if a.count != b.count {
        return Err(MergeError::ShardCounts(a.count, b.count));
    }
    for k in b.included {
        if a.included.contains(&k) {
            return Err(MergeError::ShardTwice {
                index: k,
                count: a.count,
            });
        }
        a.included.push(k);
    }
    a.included.sort_unstable();
    Ok(a)
}

fn add_counts(a: &mut Disagreements, b: &Disagreements) -> Result<(), MergeError> {
    add_to(&mut a.files, b.files)?;
    add_to(&mut a.checks, b.checks)
}

fn add_adapter(a: &mut AdapterSurvey, b: AdapterSurvey) -> Result<(), MergeError> {
    if a.compared_under != b.compared_under {
        return Err(MergeError::ComparedUnder {
            adapter: a.adapter.clone(),
            first: a.compared_under.clone().into(),
            second: b.compared_under.into(),
        });
    }
    add_to(&mut a.files, b.files)?;
    add_to(&mut a.checks, b.checks)?;
    add_counts(&mut a.disagreements, &b.disagreements)?;
    add_counts(&mut a.open_points, &b.open_points)?;
    add_counts(&mut a.differing, &b.differing)?;
    add_counts(&mut a.norobots_1994, &b.norobots_1994)?;
    for (point, checks) in b.open_points_by_point {
        add_to(a.open_points_by_point.entry(point).or_default(), checks)?;
    }
    add_to(&mut a.errors, b.errors)?;
    add_to(&mut a.crashes, b.crashes)?;
    add_to(&mut a.timeouts, b.timeouts)?;
    add_to(&mut a.protocol_errors, b.protocol_errors)?;
    add_to(&mut a.skipped, b.skipped)?;
    a.unavailable = a.unavailable.take().or(b.unavailable);
    a.hosts = match (a.hosts.take(), b.hosts) {
        (None, None) => None,
        (Some(mut x), Some(y)) => {
            x.add(&y)?;
            Some(x)
        }
        _ => return Err(MergeError::HostsInOne(a.adapter.clone())),
    };
    a.served.extend(b.served);
    weights::keep_most_served(&mut a.served);

    // Signatures by text; then both sides' file sets renumbered into the merged order.
    let a_names = names_of(&a.signatures);
    let b_names = names_of(&b.signatures);
    let mut merged: BTreeMap<String, SignatureCount> = BTreeMap::new();
    for s in a.signatures.drain(..).chain(b.signatures) {
        match merged.get_mut(&s.signature) {
            None => {
                merged.insert(s.signature.clone(), s);
            }
            Some(m) => {
                add_to(&mut m.files, s.files)?;
                add_to(&mut m.checks, s.checks)?;
                m.hosts = match (m.hosts, s.hosts) {
                    (Some(x), Some(y)) => Some(weights::sum(x, y)?),
                    (x, y) => x.or(y),
                };
                if (s.example.bytes, &s.example.file) < (m.example.bytes, &m.example.file) {
                    m.example = s.example;
                }
            }
        }
    }
    let position: BTreeMap<&str, usize> = merged
        .keys()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let renumber = |signatures: &[String], key: &str| -> Result<String, MergeError> {
        let set = parse_set_key(key).ok_or_else(|| MergeError::BadFileSet {
            adapter: a.adapter.clone(),
            key: key.to_owned(),
        })?;
        let mut renumbered = set
            .iter()
            .map(|&i| {
                signatures
                    .get(i)
                    .and_then(|name| position.get(name.as_str()).copied())
                    .ok_or_else(|| MergeError::FileSetOutOfRange {
                        adapter: a.adapter.clone(),
                        key: key.to_owned(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        renumbered.sort_unstable();
        Ok(set_key(&renumbered))
    };
    let mut sets = BTreeMap::new();
    for (signatures, file_sets) in [(&a_names, &a.file_sets), (&b_names, &b.file_sets)] {
        for (key, &files) in file_sets {
            add_to(sets.entry(renumber(signatures, key)?).or_default(), files)?;
        }
    }
    let mut host_sets = BTreeMap::new();
    for (signatures, from) in [(&a_names, &a.host_sets), (&b_names, &b.host_sets)] {
        for (key, &hosts) in from {
            add_u64(
                host_sets.entry(renumber(signatures, key)?).or_default(),
                hosts,
            )?;
        }
    }
    a.file_sets = sets;
    a.host_sets = host_sets;
    a.signatures = merged.into_values().collect();
    Ok(())
}

fn names_of(signatures: &[SignatureCount]) -> Vec<String> {
    signatures.iter().map(|s| s.signature.clone()).collect()
}
