//! Surveys: every parser over a corpus of real robots.txt files that come with no expectations.
//!
//! Each file ([`corpus`]) gets probe queries derived from its own text ([`probes`]). The reference
//! answers them in-process under every profile; every adapter answers them as one batch per file,
//! all adapters side by side ([`robotstxt_runtime::side_by_side`]). An adapter's answer is compared with
//! the reference under the profile the adapter claims (`norobots-1994` when it claims neither), and
//! also under `norobots-1994` for every adapter. A disagreement whose reference verdict hinges on a
//! point the profile leaves open is set aside as an open point, not counted as a disagreement.
//! Disagreements are grouped by cause ([`cause`]). Results per adapter are small counters, so a
//! corpus of any size streams through.
//!
//! `--shard K/N` keeps the files whose content hash is `K-1` modulo `N`; [`merge`] adds shard
//! results up into what one run over the whole corpus gives, byte for byte: every count, every
//! signature, and every signature's example, which is the disagreement in the smallest file (by
//! size, then name), its excerpt ([`excerpt`]) and its reduced case, so causes group alike;
//! [`write`](mod@write) writes `survey.json` and `survey.md`, [`publish`] `survey.csv` and
//! `survey.html`.
//!
//! A census ([`census`]) surveys WARC files instead: the bodies of the hosts' last captures, each
//! distinct body once, weighted by the hosts that serve it ([`weights`]).

#![forbid(unsafe_code)]

mod bodies;
pub mod cause;
pub mod census;
mod census_record;
pub mod census_write;
pub mod corpus;
pub mod excerpt;
pub mod hosts;
pub mod http;
pub mod limits;
mod markdown;
pub mod merge;
mod model;
pub mod naming;
pub mod plan_entries;
pub mod probes;
pub mod publish;
pub mod warc;
mod warc_fields;
pub mod weights;
pub mod write;

use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::thread;

use robotstxt_runtime::lifecycle::Lifecycle;

use self::corpus::{read_corpus, CorpusError, CorpusFile};
pub use self::model::{
    compared_under, AdapterSurvey, BadShard, Disagreements, Options, ProbeSettings,
    ProfileDifferences, Shard, Shards, Survey, FORMAT,
};

/// Surveys the corpus at `corpus` (a folder, `.tar` or `.tar.xz`) against `engines`.
/// `progress` is called with (engine index, files that engine has answered).
pub fn survey(
    corpus: &Path,
    engines: &mut [Box<dyn Lifecycle>],
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Survey, CorpusError> {
    corpus::Layout::of(corpus)?;
    let shard = options.shard;
    let (sender, files) = sync_channel::<CorpusFile>(64);
    let path = corpus.to_owned();
    let reader = thread::spawn(move || {
        read_corpus(&path, &mut |file| {
            if shard.is_some_and(|s| !s.holds(&file.body)) {
                return true;
            }
            // A closed channel means the survey stopped taking files.
            sender.send(file).is_ok()
        })
    });
    let bodies = files.into_iter().map(|file| (file, None));
    let mut survey = bodies::survey_bodies(bodies, engines, options, false, progress);
    // A panic while reading is a bug: it goes on as one, with its own message.
    let reading = reader
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    survey.corpus = corpus.file_name().map_or_else(
        || corpus.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    survey.oversized = reading.oversized;
    survey.oversized_unnamed = reading.oversized_unnamed;
    Ok(survey)
}
