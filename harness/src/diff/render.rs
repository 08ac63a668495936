//! Two results files compared adapter by adapter ([`Differences`]), and the three ways `diff`
//! shows it: text that fits a screen, Markdown to paste into a pull request, and JSON.

use std::fmt::Write as _;

use serde::Serialize;

use robotstxt_suite::visible::{shown, Outside};

use super::{compare, AdapterDiff, ChangeDirection, Moved, ResultsFile};

/// How many checks of one group the text and Markdown list before saying how many more.
pub const LISTED: usize = 8;

/// One side of the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    pub file: String,
    pub suite_version: Option<Outside>,
    pub corpus_digest: Option<Outside>,
    #[serde(skip)]
    pub corpus_shown: String,
}

impl Side {
    fn of(file: &ResultsFile) -> Side {
        Side {
            file: file.path.display().to_string(),
            suite_version: file.suite_version.clone(),
            corpus_digest: file.corpus_digest.clone(),
            corpus_shown: file.corpus_shown(),
        }
    }
}

/// Everything `diff` found.
#[derive(Debug, Clone, Serialize)]
pub struct Differences {
    pub old: Side,
    pub new: Side,
    /// Whether both files ran the same corpus; `None` when either does not say.
    pub same_corpus: Option<bool>,
    pub adapters: Vec<AdapterDiff>,
    /// Adapters in one file only, and adapters without data in either.
    pub only_in_old: Vec<Outside>,
    pub only_in_new: Vec<Outside>,
    pub without_data: Vec<Outside>,
}

impl Differences {
    /// Compares every adapter both files have, or, with `pair`, the adapter named first in
    /// `old` with the one named second in `new`. Two files of one adapter each are compared
    /// whatever the adapters are called (one parser at two versions).
    pub fn of(old: &ResultsFile, new: &ResultsFile, pair: Option<(&str, &str)>) -> Differences {
        let mut comparison = Differences {
            old: Side::of(old),
            new: Side::of(new),
            same_corpus: match (&old.corpus_digest, &new.corpus_digest) {
                (Some(a), Some(b)) => Some(a == b),
                _ => None,
            },
            adapters: Vec::new(),
            only_in_old: Vec::new(),
            only_in_new: Vec::new(),
            without_data: Vec::new(),
        };
        let pairs: Vec<(&super::AdapterResults, &super::AdapterResults)> = match pair {
            Some((a, b)) => old.adapter(a).zip(new.adapter(b)).into_iter().collect(),
            None if old.adapters.len() == 1 && new.adapters.len() == 1 => {
                vec![(&old.adapters[0], &new.adapters[0])]
            }
            None => {
                for a in &old.adapters {
                    if new.adapter(a.name.raw()).is_none() {
                        comparison.only_in_old.push(a.name.clone());
                    }
                }
                for a in &new.adapters {
                    if old.adapter(a.name.raw()).is_none() {
                        comparison.only_in_new.push(a.name.clone());
                    }
                }
                (old.adapters.iter())
                    .filter_map(|a| new.adapter(a.name.raw()).map(|b| (a, b)))
                    .collect()
            }
        };
        for (a, b) in pairs {
            if a.has_data && b.has_data {
                comparison.adapters.push(compare(a, b));
            } else {
                comparison.without_data.push(b.name.clone());
            }
        }
        comparison
    }

    /// Whether any check broke.
    pub fn broke(&self) -> bool {
        self.adapters
            .iter()
            .any(|a| a.count(ChangeDirection::Broken) > 0)
    }

    fn not_comparable(&self) -> usize {
        self.adapters.iter().map(|a| a.not_comparable).sum()
    }

    fn nothing_moved(&self) -> bool {
        self.adapters.iter().all(|a| a.moved.is_empty())
    }
}

/// `python-protego 0.1.16 → 0.7.0`, or `python-protego@0.1.16 (0.1.16) → python-protego (0.7.0)`
/// when the two runs are two adapters.
fn title(diff: &AdapterDiff) -> String {
    let (old, new) = (diff.old_name.shown(), diff.new_name.shown());
    let (v_old, v_new) = (diff.old_version.shown(), diff.new_version.shown());
    match (old == new, v_old == v_new) {
        (true, true) => format!("{new} {v_new}"),
        (true, false) => format!("{new} {v_old} → {v_new}"),
        (false, _) => format!("{old} ({v_old}) → {new} ({v_new})"),
    }
}

/// `12 fixed, 1 broken, 3 changed`, then what was not compared, if anything.
pub fn counts(diff: &AdapterDiff) -> String {
    let mut out = format!(
        "{} fixed, {} broken, {} changed",
        diff.count(ChangeDirection::Fixed),
        diff.count(ChangeDirection::Broken),
        diff.count(ChangeDirection::Changed)
    );
    for (n, what) in [
        (
            diff.count(ChangeDirection::TimedOut),
            "timed out in one run only (slowness, not a change of verdict)",
        ),
        (diff.new_in_suite, "new in the suite"),
        (diff.removed, "removed from the suite"),
        (
            diff.not_comparable,
            "not comparable (the check differs between the files)",
        ),
    ] {
        if n > 0 {
            let _ = write!(out, "; {n} {what}");
        }
    }
    out
}

fn group_heading(
    direction: ChangeDirection,
    cause: Option<robotstxt_suite::cause::Cause>,
    n: usize,
) -> String {
    // A results file records the cause of every check that does not pass and of every open
    // point answered; a file written before open points had theirs says so.
    let cause = cause.map_or_else(|| "cause not recorded".to_owned(), |c| c.label().to_owned());
    let checks = if n == 1 { "check" } else { "checks" };
    format!("{} — {cause}: {n} {checks}", direction.as_str())
}

fn moved_line(m: &Moved) -> String {
    format!("{}: {} → {}", m.id, m.old.shown(), m.new.shown())
}

/// Lines common to the text and the Markdown: the corpus, and what could not be compared.
fn preamble(c: &Differences) -> Vec<String> {
    let mut lines = vec![format!(
        "old: {} ({})\nnew: {} ({})",
        shown(&c.old.file),
        c.old.corpus_shown,
        shown(&c.new.file),
        c.new.corpus_shown
    )];
    match c.same_corpus {
        Some(false) => lines.push(format!(
            "the corpora differ: checks are compared only where they are the same; {} could \
             not be compared",
            c.not_comparable()
        )),
        None => lines.push(
            "a file does not record its corpus digest: checks are compared by id alone".to_owned(),
        ),
        Some(true) => {}
    }
    for (names, what) in [
        (&c.only_in_old, "only in old"),
        (&c.only_in_new, "only in new"),
        (&c.without_data, "without data, not compared"),
    ] {
        if !names.is_empty() {
            let names: Vec<String> = names.iter().map(Outside::to_string).collect();
            lines.push(format!("{what}: {}", names.join(", ")));
        }
    }
    lines
}

/// The text: a few lines per adapter, broken checks first.
pub fn text(c: &Differences) -> String {
    text_listing(c, LISTED)
}

/// The text, each group listing up to `listed` checks (`usize::MAX`: every one).
pub fn text_listing(c: &Differences, listed: usize) -> String {
    let mut out = preamble(c).join("\n");
    out.push('\n');
    if c.nothing_moved() {
        out.push_str("no change\n");
    }
    for diff in &c.adapters {
        let _ = writeln!(out, "\n{}: {}", title(diff), counts(diff));
        for direction in ChangeDirection::ALL {
            for (cause, members) in diff.groups(direction) {
                let _ = writeln!(out, "  {}", group_heading(direction, cause, members.len()));
                for m in members.iter().take(listed) {
                    let _ = writeln!(out, "    {}", moved_line(m));
                }
                if members.len() > listed {
                    let _ = writeln!(
                        out,
                        "    … and {} more (--all lists every one)",
                        members.len() - listed
                    );
                }
            }
        }
    }
    out
}

/// The Markdown: a table of counts, then the groups of each adapter under a `<details>`, each
/// listing its first few checks.
pub fn markdown(c: &Differences) -> String {
    markdown_listing(c, LISTED, None)
}

/// The Markdown, each group listing up to `listed` checks (`usize::MAX`: every one). With
/// `page` (the address of a report's `index.html`, relative or whole), each check id links to
/// its cell there: `page#adapter=NAME&check=ID`, the anchor the page opens.
pub fn markdown_listing(c: &Differences, listed: usize, page: Option<&str>) -> String {
    use robotstxt_runtime::markup::{html, md, md_code};
    let cell = |s: &str| md(s);
    let mut out = String::from("## robotstxt-test diff\n\n");
    for line in preamble(c) {
        for part in line.lines() {
            let _ = writeln!(out, "{}  ", cell(part));
        }
    }
    out.push('\n');
    if c.nothing_moved() {
        out.push_str("No change.\n");
    }
    if c.adapters.is_empty() {
        return out;
    }
    out.push_str(
        "| Adapter | Fixed | Broken | Changed | Not compared |\n|---|---:|---:|---:|---:|\n",
    );
    for diff in &c.adapters {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&title(diff)),
            diff.count(ChangeDirection::Fixed),
            diff.count(ChangeDirection::Broken),
            diff.count(ChangeDirection::Changed),
            diff.new_in_suite + diff.removed + diff.not_comparable
        );
    }
    for diff in c.adapters.iter().filter(|d| !d.moved.is_empty()) {
        let _ = write!(
            out,
            "\n<details><summary>{}: {}</summary>\n\n",
            html(&title(diff)),
            html(&counts(diff))
        );
        for direction in ChangeDirection::ALL {
            for (cause, members) in diff.groups(direction) {
                let _ = writeln!(
                    out,
                    "**{}**\n",
                    cell(&group_heading(direction, cause, members.len()))
                );
                for m in members.iter().take(listed) {
                    let id = match page {
                        Some(page) => format!(
                            "[{}](<{}>)",
                            md_code(m.id.raw()),
                            cell_anchor(page, diff.new_name.raw(), m.id.raw())
                        ),
                        None => md_code(m.id.raw()),
                    };
                    let _ = writeln!(out, "- {id}: {} → {}", m.old.shown(), m.new.shown());
                }
                if members.len() > listed {
                    let _ = writeln!(
                        out,
                        "- … and {} more (`--all` lists every one)",
                        members.len() - listed
                    );
                }
                out.push('\n');
            }
        }
        out.push_str("</details>\n");
    }
    out
}

/// `page#adapter=NAME&check=ID`, both parts percent-encoded as the page reads them.
fn cell_anchor(page: &str, adapter: &str, check: &str) -> String {
    let encode = |text: &str| {
        let mut out = String::new();
        for b in text.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                out.push(b as char);
            } else {
                let _ = write!(out, "%{b:02X}");
            }
        }
        out
    };
    format!("{page}#adapter={}&check={}", encode(adapter), encode(check))
}

/// The JSON: the whole comparison, every moved check.
pub fn json(c: &Differences) -> String {
    robotstxt_suite::visible::json_text(c).expect("a comparison serializes") + "\n"
}
