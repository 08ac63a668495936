//! The bounds a survey holds against hostile input: a corpus file, a `survey.json` to merge, a
//! census plan. A corpus may come from anyone; whatever it holds, memory and time stay bounded.

use robotstxt_suite::input::Bounds;

/// Largest corpus file a survey reads, in bytes. RFC 9309 asks parsers to read at least 500 KiB;
/// a file much larger than that is not a robots.txt file.
pub const MAX_SURVEY_FILE: u64 = 4 << 20;
/// Longest corpus file name kept, in bytes: a longer one (a tar long-name or PAX header may give
/// a member a name of megabytes) is cut in the middle, and the rest of its header is read past,
/// not kept. A path on Linux is at most 4 KiB.
pub const MAX_FILE_NAME: usize = 1 << 10;
/// Files left out for their size that a survey names; past these it counts them. With
/// [`MAX_FILE_NAME`], what a survey keeps of them is at most about 100 KiB, whatever the corpus.
pub const MAX_OVERSIZED_NAMED: usize = 100;
/// A `survey.json` to merge: a survey's counts and a few hundred signatures, well under a MiB;
/// read through the one reader with room to spare.
pub const SURVEY_JSON: Bounds = Bounds {
    what: "survey.json",
    max_bytes: 64 << 20,
    max_depth: 32,
    hint: "",
};
/// A census plan (`survey census plan`): one line per planned capture, a few dozen bytes each,
/// read a line at a time and kept as 24 bytes per capture. 256 MiB is about 7 million captures,
/// ten times the robots.txt responses of a Common Crawl WARC file; kept, under 200 MiB.
pub const CENSUS_PLAN: Bounds = Bounds {
    what: "census plan",
    max_bytes: 256 << 20,
    max_depth: 8,
    hint: "",
};
/// Longest line of a census plan, in bytes: its header names the census, the WARC file and why
/// the file could not be read; an entry is a few dozen bytes.
pub const MAX_PLAN_LINE: usize = 64 << 10;
/// Largest WARC header block read, in bytes.
pub const MAX_WARC_HEADER: usize = 64 << 10;

/// Causes shown per adapter in `survey.md` and `survey.html`, each with its example;
/// `survey.json` has them all.
pub const TOP_CAUSES: usize = 10;
