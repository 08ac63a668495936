//! The bounds held against hostile input files, in one place so that the documentation
//! (`cases/README.md`, the README) and the code agree. A case file, an expectation file or a
//! manifest may come from anyone; whatever it holds, memory and time stay bounded. Every one is
//! read through [`crate::input`] under its [`Bounds`]. (The bounds on adapters are the runtime's,
//! those on a survey corpus, `survey.json` and the command line the application's.)

use crate::input::Bounds;

/// Largest case file read, in bytes. The biggest file of the corpus is a few dozen KiB.
pub const MAX_CASE_FILE: u64 = 4 << 20;
/// Deepest nesting of YAML collections in a case file. The format needs six levels (the file's
/// mapping, `cases`, a case, `checks`, a check, a per-profile `expect`).
pub const MAX_CASE_DEPTH: usize = 16;

/// A case file.
pub const CASE_FILE: Bounds = Bounds {
    what: "case file",
    max_bytes: MAX_CASE_FILE,
    max_depth: MAX_CASE_DEPTH,
    hint: "; a case file writes such bytes with robots_base64",
};

/// An expectation file: at most one entry per check of the corpus (a few thousand), a few
/// hundred bytes each; the largest of this repository is about 100 KiB. Three levels deep (the
/// file's mapping, `expectations`, an entry).
pub const EXPECTATION_FILE: Bounds = Bounds {
    what: "expectation file",
    max_bytes: 4 << 20,
    max_depth: 8,
    hint: "",
};

/// An adapter's `adapter.yaml`: a page of fields, five levels deep at most (`setup`, a step, its
/// options, a list of packages).
pub const MANIFEST: Bounds = Bounds {
    what: "manifest",
    max_bytes: 1 << 20,
    max_depth: 8,
    hint: "",
};

/// A corpus's release record (`cases/suite-version.json`): one line per case, a few hundred bytes
/// each, three levels deep.
pub const RELEASE_RECORD: Bounds = Bounds {
    what: "release record",
    max_bytes: 64 << 20,
    max_depth: 8,
    hint: "",
};

/// Largest corpus changelog (`cases/CHANGELOG.md`) read, in bytes: a line per changed case.
pub const MAX_CHANGELOG: u64 = 16 << 20;

/// The list of sentences the corpus may quote (`reference/sentences.yaml`): profile, section,
/// sentences.
pub const SENTENCES: Bounds = Bounds {
    what: "list of sentences",
    max_bytes: 4 << 20,
    max_depth: 8,
    hint: "",
};

/// Largest robots.txt file read from the command line (`check`, `compare`, `minimize`) or from
/// standard input, in bytes: as large as a case file may be, far past RFC 9309's 500 KiB.
pub const MAX_ROBOTS_FILE: u64 = MAX_CASE_FILE;
