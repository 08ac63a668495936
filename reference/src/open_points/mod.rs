//! Open points: whether one decision depends on something the profile's text leaves open.
//!
//! The corpus marks such checks `unspecified` by hand. A fuzzer needs the same judgement for
//! bodies nobody wrote, so [`open_points`] answers, for one body and one query, which of the
//! points listed in `reference/README.md` ("What the text leaves open: the choices") the
//! reference's verdict depends on. A disagreement with a parser on such a query is not scored.
//!
//! How: each point present in the body (or the query) comes with the readings a parser could
//! reasonably give it besides the reference's choice, written as edits of the body (the `layout`
//! module). The verdict is recomputed under every alternative reading, alone and, while the
//! number of combinations stays small, in combination; a point whose readings change the verdict
//! is reported. Points for which no rewrite expresses the other readings are reported whenever
//! they are present and could reach the query (for example two `*` records while no record names
//! the robot). The answer is conservative: it may call a decision open that a finer analysis
//! would settle, never the reverse for the readings listed here.

mod layout;
mod norobots1994;
mod rfc9309;

use std::fmt;

use self::layout::Layout;
use crate::{Profile, Robots};

/// A point a text leaves open, as named in `reference/README.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpenPoint {
    // Both profiles.
    /// A UTF-8 byte-order mark (at the start, dropped; elsewhere, kept).
    ByteOrderMark,
    /// NUL bytes.
    Nul,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// White space other than SP and HT where a field name or value is trimmed.
    OtherWhiteSpace,
    /// A line without a colon.
    MissingColon,
    // The 1994 text.
    /// Leading white space before a field, or white space between the field name and the colon.
    LooseFieldSyntax,
    /// A line of only spaces and tabs.
    WhitespaceOnlyLine,
    /// An empty User-agent value.
    EmptyUserAgent,
    /// A User-agent value with a version (`FooBot/1.0`).
    VersionInValue,
    /// Which part of the robot's agent string is its name.
    RobotName,
    /// A User-agent value that contains the robot's name without occurring in it.
    SubstringDirection,
    /// Several `*` records (or groups) while nothing names the robot.
    SeveralStarRecords,
    /// Several records naming the same robot.
    SeveralMatchingRecords,
    /// A User-agent line right after Disallow lines, with no blank line between.
    UserAgentAfterDisallow,
    /// A Disallow line outside any record.
    DisallowOutsideRecord,
    /// A record with User-agent lines but no Disallow line.
    RecordWithoutDisallow,
    /// An empty Disallow value next to non-empty ones in one record.
    EmptyAndNonEmptyDisallow,
    /// A Disallow value that is not a local path (`http://...`, `a/b`).
    ValueNotAPath,
    /// Octets outside ASCII in a Disallow value, compared with a percent-encoded path.
    NonAsciiValue,
    /// An agent string outside ASCII (case folding).
    NonAsciiAgent,
    // RFC 9309.
    /// A misspelt `user-agent`, `allow` or `disallow` (§2.2.4: crawlers MAY be lenient).
    Misspelling,
    /// A body past the 500 KiB a crawler may stop parsing at (§2.5).
    ParsingLimit,
    /// An agent string that is not itself a product token (§2.2.1 says what a token holds, not
    /// how a caller derives one from `FooBot/2.1`).
    ProductToken,
    /// A user-agent value that is neither `*` nor a product token.
    UserAgentValue,
    /// Rules of both kinds matching, one with `*`, `$` or percent-encoding: how to count octets.
    MatchLength,
    /// Percent-encoding choices (reserved characters, the query's delimiters, stray `%`, hex
    /// case, octets a URI has no place for).
    PercentEncoding,
    /// A `$` that is not the last character of a rule.
    DollarInside,
    /// A rule that starts with neither `/` nor `*`.
    PatternNotAPath,
    /// A path that starts with `/robots.txt` without being exactly it.
    RobotsTxtLike,
    /// Space, tab or another control character inside a rule's value.
    SpaceInValue,
}

impl OpenPoint {
    /// A short kebab-case name, for notes and logs.
    pub fn name(self) -> &'static str {
        use OpenPoint::*;
        match self {
            ByteOrderMark => "byte-order-mark",
            Nul => "nul",
            NotUtf8 => "not-utf8",
            OtherWhiteSpace => "other-white-space",
            MissingColon => "missing-colon",
            LooseFieldSyntax => "loose-field-syntax",
            WhitespaceOnlyLine => "whitespace-only-line",
            EmptyUserAgent => "empty-user-agent",
            VersionInValue => "version-in-value",
            RobotName => "robot-name",
            SubstringDirection => "substring-direction",
            SeveralStarRecords => "several-star-records",
            SeveralMatchingRecords => "several-matching-records",
            UserAgentAfterDisallow => "user-agent-after-disallow",
            DisallowOutsideRecord => "disallow-outside-record",
            RecordWithoutDisallow => "record-without-disallow",
            EmptyAndNonEmptyDisallow => "empty-and-non-empty-disallow",
            ValueNotAPath => "value-not-a-path",
            NonAsciiValue => "non-ascii-value",
            NonAsciiAgent => "non-ascii-agent",
            Misspelling => "misspelling",
            ParsingLimit => "parsing-limit",
            ProductToken => "product-token",
            UserAgentValue => "user-agent-value",
            MatchLength => "match-length",
            PercentEncoding => "percent-encoding",
            DollarInside => "dollar-inside",
            PatternNotAPath => "pattern-not-a-path",
            RobotsTxtLike => "robots-txt-like",
            SpaceInValue => "space-in-value",
        }
    }
}

impl fmt::Display for OpenPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One alternative reading: an edit of the layout.
type Edit = Box<dyn Fn(&mut Layout)>;

/// What one profile's analysis found in a body, for one query.
#[derive(Default)]
pub(crate) struct Found {
    /// Points that reach the query whatever the readings: reported as they are.
    present: Vec<OpenPoint>,
    /// Points with their alternative readings, to be tried.
    readings: Vec<(OpenPoint, Vec<Edit>)>,
}

impl Found {
    fn touch(&mut self, point: OpenPoint) {
        if !self.present.contains(&point) {
            self.present.push(point);
        }
    }

    fn reading(&mut self, point: OpenPoint, edits: Vec<Edit>) {
        if !edits.is_empty() {
            self.readings.push((point, edits));
        }
    }
}

/// Combinations of readings tried before every remaining point is reported unchecked.
const MAX_COMBINATIONS: usize = 64;

/// The open points that the decision for `agent` and `path` on `body` depends on under `profile`,
/// in a stable order. Empty when the decision is settled by the text.
pub fn open_points(profile: Profile, body: &[u8], agent: &str, path: &str) -> Vec<OpenPoint> {
    let original = Layout::new(body, agent, path);
    let settled = Robots::parse(profile, body).is_allowed(agent, path);
    let mut points = depends(profile, &original, settled, 1, Wanted::Every);
    points.sort();
    points.dedup();
    points
}

fn find(profile: Profile, layout: &Layout) -> Found {
    let mut found = Found::default();
    shared(layout, &mut found);
    match profile {
        Profile::Norobots1994 => norobots1994::find(layout, &mut found),
        Profile::Rfc9309 => {
            nul(layout, &mut found);
            rfc9309::find(layout, &mut found);
        }
    }
    found
}

/// How much of an answer [`depends`] must give.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wanted {
    /// Every point the verdict depends on.
    Every,
    /// Whether there is any: the search stops at the first one found.
    Any,
}

/// The points on which the verdict for `layout` can differ from `settled`. A reading that keeps
/// the verdict but leads to another open point (a kept byte-order mark leaving a Disallow line
/// outside any record) counts too, `depth` readings deep.
///
/// With [`Wanted::Any`], at most one point is returned: what the chained readings ask, and the
/// most costly part of the analysis on a long body, since every reading is tried again there.
fn depends(
    profile: Profile,
    original: &Layout,
    settled: bool,
    depth: usize,
    wanted: Wanted,
) -> Vec<OpenPoint> {
    let found = find(profile, original);
    let enough = |points: &[OpenPoint]| wanted == Wanted::Any && !points.is_empty();
    if enough(&found.present) {
        return found.present;
    }
    let original_body = original.render();
    let changes = |layout: &Layout| {
        let body = layout.render();
        Robots::parse(profile, &body).is_allowed(&layout.agent, &layout.path) != settled
            // Readings of the agent string are not chained: a name read another way is then
            // matched as the text says.
            || (depth > 0
                && layout.agent == original.agent
                && (layout.path != original.path || body != original_body)
                && !depends(profile, layout, settled, depth - 1, Wanted::Any).is_empty())
    };
    let mut points = found.present;
    let readings = found.readings;
    // Each point alone.
    for (point, edits) in &readings {
        if edits.iter().any(|edit| {
            let mut layout = original.clone();
            edit(&mut layout);
            changes(&layout)
        }) {
            points.push(*point);
            if enough(&points) {
                return points;
            }
        }
    }
    // Combinations of the points not yet reported: readings can interact.
    let rest: Vec<&(OpenPoint, Vec<Edit>)> = readings
        .iter()
        .filter(|(p, _)| !points.contains(p))
        .collect();
    if rest.len() >= 2 {
        let combinations = rest
            .iter()
            .try_fold(1usize, |n, (_, e)| n.checked_mul(e.len() + 1));
        match combinations {
            Some(n) if n <= MAX_COMBINATIONS => {
                for mut index in 0..n {
                    let mut layout = original.clone();
                    let mut used = Vec::new();
                    for (point, edits) in &rest {
                        let choice = index % (edits.len() + 1);
                        index /= edits.len() + 1;
                        if choice > 0 {
                            edits[choice - 1](&mut layout);
                            used.push(*point);
                        }
                    }
                    if used.len() >= 2 && changes(&layout) {
                        points.extend(used);
                        if enough(&points) {
                            return points;
                        }
                    }
                }
            }
            _ => points.extend(rest.iter().map(|(p, _)| *p)),
        }
    }
    points
}

/// Whether the decision is settled by the profile's text: no open point reaches it.
pub fn is_settled(profile: Profile, body: &[u8], agent: &str, path: &str) -> bool {
    open_points(profile, body, agent, path).is_empty()
}

/// Points shared by both profiles, from the line layer's choices.
fn shared(layout: &Layout, found: &mut Found) {
    let body = layout.render();
    if layout.bom {
        // Kept, the mark glues itself to the first field name, which is then unrecognised.
        found.reading(
            OpenPoint::ByteOrderMark,
            vec![Box::new(|l: &mut Layout| {
                l.bom = false;
                if !l.lines.is_empty() {
                    l.prefix(0, b'x');
                }
            })],
        );
    }
    if layout.lines.iter().any(|l| contains(l.text(), layout::BOM)) {
        found.reading(
            OpenPoint::ByteOrderMark,
            vec![Box::new(|l: &mut Layout| {
                for i in 0..l.lines.len() {
                    let text = l.lines[i].text();
                    if contains(text, layout::BOM) {
                        let text = replace(text, layout::BOM, b"");
                        l.set(i, text);
                    }
                }
            })],
        );
    }
    if std::str::from_utf8(&body).is_err() {
        found.reading(
            OpenPoint::NotUtf8,
            vec![
                Box::new(|l: &mut Layout| {
                    l.rewrites
                        .push(|b| String::from_utf8_lossy(&b).into_owned().into_bytes())
                }),
                Box::new(|l: &mut Layout| {
                    l.rewrites.push(|b| {
                        b.iter()
                            .map(|&x| x as char)
                            .collect::<String>()
                            .into_bytes()
                    })
                }),
                Box::new(|l: &mut Layout| {
                    l.rewrites.push(|b| {
                        String::from_utf8_lossy(&b)
                            .replace('\u{fffd}', "")
                            .into_bytes()
                    })
                }),
            ],
        );
    }
    // White space other than SP/HT at the edge of a field name or value, or making up a line.
    let odd: Vec<usize> = (0..layout.lines.len())
        .filter(|&i| {
            let text = layout.lines[i].text();
            match layout::field(layout, i) {
                Some((name, value)) => {
                    layout::has_other_space_edge(name) || layout::has_other_space_edge(value)
                }
                None => {
                    layout::trim_any_space(text).is_empty() && !crate::lines::trim(text).is_empty()
                }
            }
        })
        .collect();
    if !odd.is_empty() {
        found.reading(
            OpenPoint::OtherWhiteSpace,
            vec![Box::new(move |l: &mut Layout| {
                for &i in &odd {
                    match layout::field(l, i) {
                        Some((name, value)) => {
                            let mut text = layout::trim_any_space(name).to_vec();
                            text.extend_from_slice(b": ");
                            text.extend_from_slice(layout::trim_any_space(value));
                            l.set(i, text);
                        }
                        None => l.set(i, Vec::new()),
                    }
                }
            })],
        );
    }
}

/// NUL bytes, open under RFC 9309 alone: its grammar has no control characters, while the 1994
/// text ends lines only at CR and NL and gives NUL no other meaning.
fn nul(layout: &Layout, found: &mut Found) {
    let body = layout.render();
    if body.contains(&0) {
        found.reading(
            OpenPoint::Nul,
            vec![
                Box::new(|l: &mut Layout| {
                    l.rewrites
                        .push(|b| b.into_iter().filter(|&x| x != 0).collect())
                }),
                Box::new(|l: &mut Layout| {
                    l.rewrites.push(|b| {
                        b.into_iter()
                            .map(|x| if x == 0 { b'\n' } else { x })
                            .collect()
                    })
                }),
                Box::new(|l: &mut Layout| {
                    l.rewrites.push(|mut b| {
                        let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
                        b.truncate(end);
                        b
                    })
                }),
            ],
        );
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn replace(haystack: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(needle) {
            out.extend_from_slice(with);
            i += needle.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

/// The readings of rule values that do not start like a path (`a/b`, `http://x/a`): a full URL
/// read as its path, and, with `slash`, a `/` put in front. No readings when `lines` is empty.
///
/// Under the 1994 text a value is "a partial URL" that a URL "starts with": a value such as
/// `tmp/` is a prefix of no URL, which settles it, while a full URL names the URL it is a prefix
/// of. RFC 9309's grammar wants a path starting with `/`, and what a line outside it means is
/// open: read as written, or with the `/` its author forgot.
fn not_a_path_readings(lines: Vec<usize>, slash: bool) -> Vec<Edit> {
    if lines.is_empty() {
        return Vec::new();
    }
    let same = lines.clone();
    let mut readings: Vec<Edit> = Vec::new();
    if slash {
        readings.push(Box::new(move |l: &mut Layout| {
            for &i in &same {
                let mut v = b"/".to_vec();
                v.extend_from_slice(layout::value(l, i));
                l.set_value(i, &v);
            }
        }));
    }
    readings.push(Box::new(move |l: &mut Layout| {
        for &i in &lines {
            let v = layout::value(l, i).to_vec();
            if let Some(scheme) = v.windows(3).position(|w| w == b"://") {
                let rest = &v[scheme + 3..];
                let path = rest
                    .iter()
                    .position(|&b| b == b'/')
                    .map_or(&b"/"[..], |p| &rest[p..]);
                l.set_value(i, path);
            }
        }
    }));
    readings
}

/// Lines without a colon, as a reading: read as a field split at the first space (`Disallow /a`
/// as `Disallow: /a`). Never as a blank line: a line with text on it is not blank under either
/// text, so it does not end a record or a group.
fn missing_colon(layout: &Layout, found: &mut Found) {
    let lines: Vec<usize> = (0..layout.lines.len())
        .filter(|&i| {
            matches!(layout.kind(i), crate::lines::LineKind::NoColon(text)
                if !layout::trim_any_space(text).is_empty())
        })
        .collect();
    if lines.is_empty() {
        return;
    }
    let split = lines.clone();
    let edits: Vec<Edit> = vec![Box::new(move |l: &mut Layout| {
        for &i in &split {
            if let crate::lines::LineKind::NoColon(text) = l.kind(i) {
                // `Disallow /a` read as `Disallow: /a`, and a bare `Disallow` as `Disallow:`.
                let cut = text
                    .iter()
                    .position(|&b| b == b' ' || b == b'\t')
                    .unwrap_or(text.len());
                let mut new = text[..cut].to_vec();
                new.push(b':');
                new.push(b' ');
                new.extend_from_slice(text.get(cut + 1..).unwrap_or_default());
                l.set(i, new);
            }
        }
    })];
    found.reading(OpenPoint::MissingColon, edits);
}

#[cfg(test)]
mod tests;
