//! The bounds held against hostile case files, in one place so that the documentation
//! (`cases/README.md`, the README) and the code agree. A case file may come from anyone; whatever
//! it holds, memory and time stay bounded. (The bounds on adapters are the runtime's, those on a
//! survey corpus and the command line the application's.)

/// Largest case file read, in bytes. The biggest file of the corpus is a few dozen KiB.
pub const MAX_CASE_FILE: u64 = 4 << 20;
/// Deepest nesting of YAML collections in a case file. The format needs six levels (the file's
/// mapping, `cases`, a case, `checks`, a check, a per-profile `expect`).
pub const MAX_CASE_DEPTH: usize = 16;
