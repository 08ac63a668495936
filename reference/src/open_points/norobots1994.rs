//! The 1994 text's open points (the choices table of `reference/README.md`), as readings.

use super::layout::{value, Layout};
use super::{missing_colon, not_a_path_readings, Edit, Found, OpenPoint};
use crate::lines::{contains_ci, field_is, is_space, LineKind};
use crate::norobots1994::{names, robot_name, without_version as stripped, Robots};

/// A value that names no robot: robot names come from agent strings, which hold no controls.
const NOBODY: &[u8] = b"\x01";

/// A record as the reference builds it, by line indices of the layout.
struct Record {
    agents: Vec<usize>,
    disallows: Vec<usize>,
}

/// The records, and the Disallow lines outside any record, as `norobots1994` groups them: its
/// own structure, read back by line index.
fn records(layout: &Layout) -> (Vec<Record>, Vec<usize>) {
    let index = |numbers: &[u32]| numbers.iter().map(|&n| n as usize - 1).collect();
    let robots = Robots::from_lines(layout.lines_read());
    let records = robots
        .records()
        .map(|r| Record {
            agents: index(&r.agents),
            disallows: index(&r.disallows),
        })
        .collect();
    (records, index(robots.disallows_outside()))
}

/// Whether `pattern`, with `*` standing for any run of characters, matches all of `name`.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|i| glob(rest, &name[i..])),
        Some((c, rest)) => name
            .split_first()
            .is_some_and(|(n, tail)| n.eq_ignore_ascii_case(c) && glob(rest, tail)),
    }
}

pub(super) fn find(layout: &Layout, found: &mut Found) {
    let name = robot_name(&layout.agent).into_bytes();
    let count = layout.lines.len();
    let agent_lines: Vec<usize> = (0..count)
        .filter(|&i| matches!(layout.kind(i), LineKind::Field { name, .. } if field_is(name, "user-agent")))
        .collect();
    missing_colon(layout, found);
    loose_syntax(layout, found);
    if !layout.agent.is_ascii() {
        found.touch(OpenPoint::NonAsciiAgent);
    }
    // Which part of the agent string is the name: the whole string, or any one of its words.
    if layout.agent.trim().to_ascii_lowercase().as_bytes() != name.as_slice() {
        let mut edits: Vec<Edit> = vec![Box::new(|l: &mut Layout| {
            l.agent = l.agent.replace('/', "\u{2044}");
        })];
        // A browser-style string: any of its words could be taken for the name. `FooBot/2.1`
        // is not one: its version is plainly not a name.
        let browser = layout.agent.contains([' ', '(', ';']);
        let mut words: Vec<String> = layout
            .agent
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .filter(|w| browser && !w.is_empty())
            .map(str::to_owned)
            .collect();
        words.dedup();
        for word in words.into_iter().take(6) {
            edits.push(Box::new(move |l: &mut Layout| l.agent = word.clone()));
        }
        found.reading(OpenPoint::RobotName, edits);
    }
    let empty: Vec<usize> = agent_lines
        .iter()
        .copied()
        .filter(|&i| stripped(value(layout, i)).is_empty())
        .collect();
    if !empty.is_empty() {
        let same = empty.clone();
        found.reading(
            OpenPoint::EmptyUserAgent,
            vec![
                Box::new(move |l: &mut Layout| {
                    let name = robot_name(&l.agent);
                    for &i in &same {
                        l.set_value(i, name.as_bytes());
                    }
                }),
                Box::new(move |l: &mut Layout| empty.iter().for_each(|&i| l.drop_line(i))),
            ],
        );
    }
    let versioned: Vec<usize> = agent_lines
        .iter()
        .copied()
        .filter(|&i| {
            let v = value(layout, i);
            v.contains(&b'/') && !stripped(v).is_empty()
        })
        .collect();
    if !versioned.is_empty() {
        let same = versioned.clone();
        found.reading(
            OpenPoint::VersionInValue,
            vec![
                Box::new(move |l: &mut Layout| same.iter().for_each(|&i| l.set_value(i, NOBODY))),
                Box::new(move |l: &mut Layout| {
                    let agent = l.agent.clone().into_bytes();
                    let name = robot_name(&l.agent);
                    for &i in &versioned {
                        if contains_ci(&agent, value(l, i)) {
                            l.set_value(i, name.as_bytes());
                        } else {
                            l.set_value(i, NOBODY);
                        }
                    }
                }),
            ],
        );
    }
    // "A case insensitive substring match [...] is recommended": a robot may also match exactly,
    // or look for its name inside the value. Either reading differs wherever a value and the
    // name are related by a proper substring, in either direction.
    let related: Vec<usize> = agent_lines
        .iter()
        .copied()
        .filter(|&i| {
            let v = stripped(value(layout, i));
            !v.is_empty()
                && v != b"*"
                && !name.is_empty()
                && !v.eq_ignore_ascii_case(&name)
                && (contains_ci(v, &name) || contains_ci(&name, v))
        })
        .collect();
    if !related.is_empty() {
        let same = related.clone();
        found.reading(
            OpenPoint::SubstringDirection,
            vec![
                Box::new(move |l: &mut Layout| {
                    let name = robot_name(&l.agent);
                    same.iter().for_each(|&i| l.set_value(i, name.as_bytes()));
                }),
                Box::new(move |l: &mut Layout| {
                    related.iter().for_each(|&i| l.set_value(i, NOBODY))
                }),
            ],
        );
    }
    let starry: Vec<usize> = agent_lines
        .iter()
        .copied()
        .filter(|&i| {
            let v = value(layout, i);
            v != b"*" && v.contains(&b'*')
        })
        .collect();
    if !starry.is_empty() {
        let same = starry.clone();
        found.reading(
            OpenPoint::StarInValue,
            vec![
                Box::new(move |l: &mut Layout| same.iter().for_each(|&i| l.set_value(i, b"*"))),
                Box::new(move |l: &mut Layout| {
                    let name = robot_name(&l.agent);
                    for &i in &starry {
                        if glob(stripped(value(l, i)), name.as_bytes()) {
                            l.set_value(i, name.as_bytes());
                        }
                    }
                }),
            ],
        );
    }
    records_points(layout, found, &name);
    rule_values(layout, found);
}

/// Leading white space before a field or a comment, white space before the colon, and lines of
/// only spaces and tabs. The other readings: such a field is not recognised, such a comment line
/// is blank, such a blank line is not blank.
fn loose_syntax(layout: &Layout, found: &mut Found) {
    let mut loose = Vec::new();
    let mut blank = Vec::new();
    for (i, line) in layout.lines.iter().enumerate() {
        let text = &line.text;
        let leading = text.first().is_some_and(|&b| is_space(b));
        match layout.kind(i) {
            LineKind::Blank if !text.is_empty() => blank.push(i),
            LineKind::Field { .. } => {
                let colon = text.iter().position(|&b| b == b':').unwrap_or(0);
                if leading || (colon > 0 && is_space(text[colon - 1])) {
                    loose.push(i);
                }
            }
            LineKind::CommentOnly if leading => loose.push(i),
            _ => {}
        }
    }
    if !loose.is_empty() {
        found.reading(
            OpenPoint::LooseFieldSyntax,
            vec![Box::new(move |l: &mut Layout| {
                for &i in &loose {
                    if l.kind(i) == LineKind::CommentOnly {
                        l.set(i, Vec::new());
                    } else {
                        l.lines[i].text.insert(0, b'x');
                    }
                }
            })],
        );
    }
    if !blank.is_empty() {
        found.reading(
            OpenPoint::WhitespaceOnlyLine,
            vec![Box::new(move |l: &mut Layout| {
                blank.iter().for_each(|&i| l.drop_line(i))
            })],
        );
    }
}

/// The points about how lines make records.
fn records_points(layout: &Layout, found: &mut Found, name: &[u8]) {
    let (records, outside) = records(layout);
    let naming = records
        .iter()
        .filter(|r| r.agents.iter().any(|&i| names(value(layout, i), name)))
        .count();
    let stars = records
        .iter()
        .filter(|r| r.agents.iter().any(|&i| value(layout, i) == b"*"))
        .count();
    if naming >= 2 {
        found.touch(OpenPoint::SeveralMatchingRecords);
    }
    if naming == 0 && stars >= 2 {
        found.touch(OpenPoint::SeveralStarRecords);
    }
    // Read as part of some record, such a line can only disallow the paths it is a prefix of.
    let path = layout.path.as_bytes();
    if outside.iter().any(|&i| {
        let v = value(layout, i);
        !v.is_empty() && path.len() >= v.len() && path[..v.len()].eq_ignore_ascii_case(v)
    }) {
        found.touch(OpenPoint::DisallowOutsideRecord);
    }
    // A User-agent line after Disallow lines: the other reading joins it to the record above, as
    // if the block's User-agent lines all came first.
    let mut blocks = Vec::new();
    let mut start = 0;
    for i in 0..=layout.lines.len() {
        if i == layout.lines.len() || layout.kind(i) == LineKind::Blank {
            if i > start {
                blocks.push(start..i);
            }
            start = i + 1;
        }
    }
    let is_agent = |l: &Layout, i: usize| matches!(l.kind(i), LineKind::Field { name, .. } if field_is(name, "user-agent"));
    let is_disallow = |l: &Layout, i: usize| matches!(l.kind(i), LineKind::Field { name, .. } if field_is(name, "disallow"));
    let joined: Vec<std::ops::Range<usize>> = blocks
        .into_iter()
        .filter(|block| {
            let mut seen_disallow = false;
            block.clone().any(|i| {
                seen_disallow |= is_disallow(layout, i);
                seen_disallow && is_agent(layout, i)
            })
        })
        .collect();
    if !joined.is_empty() {
        let ignored = joined.clone();
        found.reading(
            OpenPoint::UserAgentAfterDisallow,
            vec![
                Box::new(move |l: &mut Layout| {
                    // Or such a User-agent line is ignored, its Disallow lines joining the record.
                    for block in &ignored {
                        let mut seen_disallow = false;
                        for i in block.clone() {
                            seen_disallow |= is_disallow(l, i);
                            if seen_disallow && is_agent(l, i) {
                                l.drop_line(i);
                            }
                        }
                    }
                }),
                Box::new(move |l: &mut Layout| {
                    for block in &joined {
                        let (agents, others): (Vec<usize>, Vec<usize>) =
                            block.clone().partition(|&i| is_agent(l, i));
                        let texts: Vec<Vec<u8>> = agents
                            .iter()
                            .chain(&others)
                            .map(|&i| l.lines[i].text.clone())
                            .collect();
                        for (i, text) in block.clone().zip(texts) {
                            l.set(i, text);
                        }
                    }
                }),
            ],
        );
    }
    let bare: Vec<usize> = records
        .iter()
        .filter(|r| r.disallows.is_empty())
        .flat_map(|r| r.agents.iter().copied())
        .collect();
    // Or the blank lines after such a record do not end it: it runs on into the next one.
    let gaps: Vec<usize> = records
        .iter()
        .filter(|r| r.disallows.is_empty())
        .filter_map(|r| r.agents.last())
        .flat_map(|&last| {
            (last + 1..layout.lines.len())
                .take_while(|&i| matches!(layout.kind(i), LineKind::Blank | LineKind::CommentOnly))
        })
        .collect();
    if !bare.is_empty() {
        found.reading(
            OpenPoint::RecordWithoutDisallow,
            vec![
                Box::new(move |l: &mut Layout| bare.iter().for_each(|&i| l.drop_line(i))),
                Box::new(move |l: &mut Layout| gaps.iter().for_each(|&i| l.drop_line(i))),
            ],
        );
    }
    let cancelled: Vec<usize> = records
        .iter()
        .filter(|r| {
            let empty = r
                .disallows
                .iter()
                .filter(|&&i| value(layout, i).is_empty())
                .count();
            empty > 0 && empty < r.disallows.len()
        })
        .flat_map(|r| r.disallows.iter().copied())
        .filter(|&i| !value(layout, i).is_empty())
        .collect();
    if !cancelled.is_empty() {
        found.reading(
            OpenPoint::EmptyAndNonEmptyDisallow,
            vec![Box::new(move |l: &mut Layout| {
                cancelled.iter().for_each(|&i| l.drop_line(i))
            })],
        );
    }
}

/// Disallow values that are not local paths, or hold octets outside ASCII.
fn rule_values(layout: &Layout, found: &mut Found) {
    let disallows: Vec<usize> = (0..layout.lines.len())
        .filter(|&i| matches!(layout.kind(i), LineKind::Field { name, .. } if field_is(name, "disallow")))
        .collect();
    let not_path: Vec<usize> = disallows
        .iter()
        .copied()
        .filter(|&i| value(layout, i).first().is_some_and(|&b| b != b'/'))
        .collect();
    found.reading(OpenPoint::ValueNotAPath, not_a_path_readings(not_path));
    let non_ascii: Vec<usize> = disallows
        .into_iter()
        .filter(|&i| !value(layout, i).is_ascii())
        .collect();
    if !non_ascii.is_empty() {
        let same = non_ascii.clone();
        found.reading(
            OpenPoint::NonAsciiValue,
            vec![
                Box::new(move |l: &mut Layout| same.iter().for_each(|&i| encode(l, i, true))),
                Box::new(move |l: &mut Layout| non_ascii.iter().for_each(|&i| encode(l, i, false))),
            ],
        );
    }
}

/// Percent-encodes the octets outside ASCII of a field's value.
fn encode(layout: &mut Layout, i: usize, upper: bool) {
    let mut v = Vec::new();
    for &b in value(layout, i) {
        if b.is_ascii() {
            v.push(b);
        } else if upper {
            v.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            v.extend_from_slice(format!("%{b:02x}").as_bytes());
        }
    }
    layout.set_value(i, &v);
}
