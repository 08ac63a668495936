//! The 1994 text's open points (the choices table of `reference/README.md`), as readings.

use std::rc::Rc;

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
    let outside: Vec<u32> = robots.disallows_outside().collect();
    (records, index(&outside))
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
        // The reference folds ASCII case only; a robot may fold Unicode case too.
        let values = agent_lines.clone();
        found.reading(
            OpenPoint::NonAsciiAgent,
            vec![Box::new(move |l: &mut Layout| {
                l.agent = l.agent.to_lowercase();
                for &i in &values {
                    if let Ok(v) = std::str::from_utf8(value(l, i)) {
                        let v = v.to_lowercase();
                        l.set_value(i, v.as_bytes());
                    }
                }
            })],
        );
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
    // Only the value `*` is the default record ("If the value is '*', the record describes the
    // default access policy"); `Foo*` is a name like any other, settled by the substring rule.
    records_points(layout, found, &name);
    rule_values(layout, found);
}

/// Leading white space before a field, white space before the colon, and lines of only spaces
/// and tabs. The other readings: such a field is not recognised, such a blank line is not blank.
fn loose_syntax(layout: &Layout, found: &mut Found) {
    let mut loose = Vec::new();
    let mut blank = Vec::new();
    for (i, line) in layout.lines.iter().enumerate() {
        let text = line.text();
        let leading = text.first().is_some_and(|&b| is_space(b));
        match layout.kind(i) {
            LineKind::Blank if !text.is_empty() => blank.push(i),
            LineKind::Field { .. } => {
                let colon = text.iter().position(|&b| b == b':').unwrap_or(0);
                if leading || (colon > 0 && is_space(text[colon - 1])) {
                    loose.push(i);
                }
            }
            // "the '#' character is used to indicate that preceding space (if any) and the
            // remainder of the line up to the line termination is discarded": an indented comment
            // line is a comment line, which the text settles.
            _ => {}
        }
    }
    if !loose.is_empty() {
        found.reading(
            OpenPoint::LooseFieldSyntax,
            vec![Box::new(move |l: &mut Layout| {
                for &i in &loose {
                    l.prefix(i, b'x');
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
    let lines_naming = |test: &dyn Fn(&[u8]) -> bool| -> Vec<Vec<usize>> {
        records
            .iter()
            .map(|r| {
                r.agents
                    .iter()
                    .copied()
                    .filter(|&i| test(value(layout, i)))
                    .collect::<Vec<usize>>()
            })
            .filter(|lines| !lines.is_empty())
            .collect()
    };
    let naming = lines_naming(&|v| names(v, name));
    let stars = lines_naming(&|v| v == b"*");
    // Which record applies: the reference takes the first; any other one alone is a reading.
    // Taking them all together disallows exactly what one of them disallows, so it adds nothing.
    if naming.len() >= 2 {
        found.reading(
            OpenPoint::SeveralMatchingRecords,
            only_one_of(naming.clone()),
        );
    }
    if naming.is_empty() && stars.len() >= 2 {
        found.reading(OpenPoint::SeveralStarRecords, only_one_of(stars));
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
    let joined: Vec<std::ops::Range<usize>> = blocks
        .into_iter()
        .filter(|block| {
            agents_after_disallows(layout, block.clone())
                .next()
                .is_some()
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
                        let late: Vec<usize> = agents_after_disallows(l, block.clone()).collect();
                        late.into_iter().for_each(|i| l.drop_line(i));
                    }
                }),
                Box::new(move |l: &mut Layout| {
                    for block in &joined {
                        let (agents, others): (Vec<usize>, Vec<usize>) =
                            block.clone().partition(|&i| is_agent(l, i));
                        let texts: Vec<Rc<[u8]>> = agents
                            .iter()
                            .chain(&others)
                            .map(|&i| Rc::from(l.lines[i].text()))
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
    if !bare.is_empty() {
        found.reading(
            OpenPoint::RecordWithoutDisallow,
            // Or the record is not one, and `*` applies to its robots. (That blank lines end it
            // is settled: "records separated by one or more blank lines".)
            vec![Box::new(move |l: &mut Layout| {
                bare.iter().for_each(|&i| l.drop_line(i))
            })],
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

/// Readings in which only the `k`-th of several records applies (`k` > 0), each record given by
/// its User-agent lines that reach the robot: the others' lines are made to name nobody.
fn only_one_of(records: Vec<Vec<usize>>) -> Vec<Edit> {
    (1..records.len())
        .map(|k| {
            let records = records.clone();
            Box::new(move |l: &mut Layout| {
                for (j, lines) in records.iter().enumerate() {
                    if j != k {
                        lines.iter().for_each(|&i| l.set_value(i, NOBODY));
                    }
                }
            }) as Edit
        })
        .collect()
}

/// The User-agent lines of a block (lines between blank ones) that come after the Disallow lines
/// of a record: a User-agent line, then a Disallow line, then this one.
fn agents_after_disallows(
    layout: &Layout,
    block: std::ops::Range<usize>,
) -> impl Iterator<Item = usize> + '_ {
    let field = move |i: usize, f: &str| matches!(layout.kind(i), LineKind::Field { name, .. } if field_is(name, f));
    let (mut agent, mut disallow) = (false, false);
    block.filter(move |&i| {
        let late = disallow && field(i, "user-agent");
        disallow |= agent && field(i, "disallow");
        agent |= field(i, "user-agent");
        late
    })
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
    found.reading(
        OpenPoint::ValueNotAPath,
        not_a_path_readings(not_path, false),
    );
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
