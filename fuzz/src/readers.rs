//! The readers' targets: each of the tool's readers of outside files given any bytes. Each must
//! end with a value or an error naming a line (never a panic), and stay within its memory
//! budget, which the targets assert with a counting allocator (`fuzz_targets/budget.rs`): the
//! most bytes held at once while the reader ran, beyond what was held before. The budgets are
//! for the whole input, not per item: a constant for the streaming readers (an archive, a plan,
//! a results-like JSON stream), a small multiple of the input for those that hold a file whole.

use std::io::Write;
use std::path::Path;

use robotstxt_suite::input::json::{screen, StreamScreen};
use robotstxt_suite::input::Bounds;
use robotstxt_suite::visible::{is_control_or_bidi, is_hidden};
use robotstxt_survey::corpus::read_tar_stream;
use robotstxt_survey::http::{MAX_BODY, MAX_HTTP_HEADER};
use robotstxt_survey::limits::{MAX_FILE_NAME, MAX_OVERSIZED_NAMED, MAX_SURVEY_FILE};
use robotstxt_survey::warc::{read_warc, Item, MAX_WARC_HEADER};

/// The case-file reader holds the text, its screen and what it deserializes to.
pub fn case_file_budget(len: usize) -> usize {
    64 * len + (1 << 20)
}

/// Any bytes as a case file: parsed, or refused with a line.
pub fn case_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = robotstxt_suite::cases::parse_file(text, Path::new("fuzz.yaml"), "fuzz") {
        assert!(!e.to_string().is_empty());
    }
}

/// The expectation-file reader, as the case-file reader.
pub fn expectation_file_budget(len: usize) -> usize {
    64 * len + (1 << 20)
}

/// Any bytes as an expectation file: parsed, or refused with a line.
pub fn expectation_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = robotstxt_suite::expectations::ExpectationFile::parse(text, Path::new("e.yaml"));
    if let Err(e) = parsed {
        assert!(e.line.is_some(), "{e}");
    }
}

const STREAM_BOUNDS: Bounds = Bounds {
    what: "fuzzed file",
    max_bytes: 1 << 30,
    max_depth: 8,
    hint: "",
};

/// The stream screen holds one piece and a cut character, whatever it is fed.
pub fn json_stream_budget(_len: usize) -> usize {
    2 * (MAX_PIECE + 4)
}

const MAX_PIECE: usize = 64;

/// Any bytes as JSON, screened whole and fed a piece at a time (the piece size from the first
/// byte): both refuse the same text at the same place, or both pass it.
pub fn json_stream(data: &[u8]) {
    let Some((&size, text)) = data.split_first() else {
        return;
    };
    let size = usize::from(size) % MAX_PIECE + 1;
    let mut stream = StreamScreen::new(STREAM_BOUNDS);
    let fed = (text.chunks(size))
        .try_for_each(|piece| stream.feed(piece))
        .and_then(|()| stream.finish());
    if let Ok(whole) = std::str::from_utf8(text) {
        assert_eq!(fed, screen(whole, STREAM_BOUNDS), "pieces of {size}");
    } else {
        // Refused: for the bad byte, or for what comes before it (nesting past the bounds is
        // met first when it is earlier in the text).
        let refusal = fed.expect_err("bytes that are not UTF-8 are refused");
        let valid = std::str::from_utf8(text)
            .map_err(|e| e.valid_up_to())
            .unwrap_err();
        if !refusal.message.starts_with("not UTF-8") {
            let prefix = std::str::from_utf8(&text[..valid]).expect("valid up to there");
            assert_eq!(
                Err(refusal),
                screen(prefix, STREAM_BOUNDS),
                "pieces of {size}"
            );
        }
    }
}

/// The archive reader holds one member's body (capped) and one data-carrying header (capped),
/// and keeps at most [`MAX_OVERSIZED_NAMED`] names of [`MAX_FILE_NAME`] bytes (with their cut
/// note): a constant, whatever the archive holds.
pub fn tar_budget(_len: usize) -> usize {
    2 * MAX_SURVEY_FILE as usize + MAX_OVERSIZED_NAMED * (MAX_FILE_NAME + 64) + (1 << 20)
}

/// Any bytes as a tar stream: every member visited is within the member cap and named within
/// the name cap, and what is kept of skipped members is bounded.
pub fn tar(data: &[u8]) {
    let read = read_tar_stream(data, &mut |file| {
        assert!(file.body.len() as u64 <= MAX_SURVEY_FILE);
        assert!(file.name.len() <= MAX_FILE_NAME + 32, "{}", file.name.len());
        true
    });
    if let Ok(read) = read {
        assert!(read.oversized.len() <= MAX_OVERSIZED_NAMED);
        assert!(read
            .oversized
            .iter()
            .all(|o| o.name.len() <= MAX_FILE_NAME + 32));
    }
}

/// The plan reader holds a line (capped at 64 KiB), its read buffer, and 24 bytes per capture
/// kept (a capture's line is at least 24 bytes): about the input's size, never its text.
pub fn census_plan_budget(len: usize) -> usize {
    2 * len + (256 << 10)
}

/// Any bytes as a census plan (written to a file, as the reader reads files): read, or refused
/// naming a line.
pub fn census_plan(data: &[u8], dir: &Path) {
    let path = dir.join("plan.jsonl");
    write(&path, data);
    if let Err(e) = robotstxt_survey::hosts::read_plan(&path) {
        let text = e.to_string();
        assert!(text.contains("plan.jsonl"), "{text}");
    }
}

/// `survey.json` is read whole, then deserialized.
pub fn survey_json_budget(len: usize) -> usize {
    64 * len + (1 << 20)
}

/// Any bytes as a `survey.json` to merge: read, or refused naming the file.
pub fn survey_json(data: &[u8], dir: &Path) {
    let path = dir.join("survey.json");
    write(&path, data);
    if let Err(e) = robotstxt_survey::write::read(&path) {
        assert!(e.to_string().contains("survey.json"), "{e}");
    }
}

/// The results-file reader keeps what `diff` compares of each check (its id, digest, answer and
/// cause), never the file's text nor a tree of its values; but a record a few bytes long in the
/// file still takes its fixed-size slot, and a vector or a table holds up to twice what it uses
/// while it grows. Measured on files of one shape repeated, 4 KB to 290 KB: at most 21.5 bytes
/// held per input byte (a crawler's outcomes as one map of short distinct keys, just after its
/// table grew; a report's check ids with no digest 17.6, a run's rows 1.8), over 74 KB held
/// whatever the input (the screen's buffers). A tree of the file's values takes 83 bytes per
/// byte of `[{"a":0},...]` (a map node per small object) and 57 per byte of a report's check ids,
/// past this budget within 8 KiB.
pub fn results_file_budget(len: usize) -> usize {
    32 * len + (128 << 10)
}

/// Any bytes as a results file (a report's `results.json` or a run's `--format json`): read, or
/// refused naming the file. What is read is shown visibly: the file's words hold no control
/// character once shown, and its corpus line none and no line feed.
pub fn results_file(data: &[u8], dir: &Path) {
    let path = dir.join("results.json");
    write(&path, data);
    match robotstxt_results::load(&path) {
        Ok(file) => {
            assert!(!file.corpus_shown().chars().any(is_control_or_bidi));
            for adapter in &file.adapters {
                let shown = format!("{} {}", adapter.name, adapter.version);
                assert!(!shown.chars().any(is_hidden), "{shown:?}");
            }
        }
        Err(e) => assert!(e.to_string().contains("results.json"), "{e}"),
    }
}

/// The WARC reader holds its read buffer (256 KiB), a gzip member's decoder and its buffer
/// (64 KiB), a WARC and an HTTP header block (each capped), and one record's body (capped at
/// [`MAX_BODY`] after its codings are removed, read with one byte more, so that its vector may
/// hold twice that): a constant, whatever the file holds or inflates to. Measured: 263 KB for a
/// plain record, 372 KB gzipped, 947 KB at most (a body that inflates past its cap, with both
/// header blocks near theirs).
pub fn warc_budget(_len: usize) -> usize {
    (256 << 10) + (64 << 10) + MAX_WARC_HEADER + MAX_HTTP_HEADER + 2 * (MAX_BODY + 1) + (256 << 10)
}

/// Any bytes as a WARC file, gzip members or plain: read to the end (a fault skips a record,
/// never ends the reading), every body kept within its cap.
pub fn warc(data: &[u8], dir: &Path) {
    let path = dir.join("crawl.warc");
    write(&path, data);
    let read = read_warc(&path, &mut |item| {
        match item {
            Item::Response(response) => {
                let body = response.body.as_ref();
                assert!(body.is_none_or(|b| b.bytes.len() <= MAX_BODY));
            }
            Item::Skipped(skipped) => assert!(!skipped.detail.is_empty()),
            Item::Other { .. } => {}
        }
        true
    });
    read.expect("a regular file is read to its end");
}

fn write(path: &Path, data: &[u8]) {
    let mut file = std::fs::File::create(path).expect("a scratch file");
    file.write_all(data).expect("written");
}
