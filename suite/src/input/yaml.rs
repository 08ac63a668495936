//! The YAML screen: a file's text refused before it is deserialized when it holds characters
//! YAML forbids (a NUL), more than one document, anchors or aliases (whose expansion can multiply
//! a small file into gigabytes), or nesting deeper than its bounds allow.
//!
//! The screen walks the YAML event stream once, keeping only a depth counter. Syntax errors it
//! leaves to the deserializer, which reports them with their own line and the field.

use yaml_rust2::parser::{Event, Parser};

use super::{position, Bounds, InputRefusal};

/// Passes `text` when it may be deserialized under `bounds`.
pub fn screen(text: &str, bounds: Bounds) -> Result<(), InputRefusal> {
    if let Some((at, c)) = text.char_indices().find(|&(_, c)| forbidden(c)) {
        let (line, column) = position(text.as_bytes(), at);
        return Err(InputRefusal {
            line,
            column,
            message: format!(
                "the character U+{:04X} may not appear in YAML; write it as an escape in a \
                 double-quoted string (`\\x{:02x}`){}",
                c as u32, c as u32, bounds.hint
            ),
        });
    }
    walk_events(text, bounds)
}

/// The characters YAML 1.2 does not allow in a stream (outside escapes): C0 controls other than
/// tab, line feed and carriage return, DEL, C1 controls other than NEL, and U+FFFE / U+FFFF.
fn forbidden(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b' | '\x0c' | '\x0e'..='\x1f' | '\x7f')
        || (('\u{80}'..='\u{9f}').contains(&c) && c != '\u{85}')
        || matches!(c, '\u{fffe}' | '\u{ffff}')
}

fn walk_events(text: &str, bounds: Bounds) -> Result<(), InputRefusal> {
    let Bounds {
        what, max_depth, ..
    } = bounds;
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    let mut documents = 0usize;
    loop {
        let (event, mark) = match parser.next_token() {
            Ok(next) => next,
            // The scanner caps flow nesting (`[[[[...`) itself.
            Err(e) if e.info().contains("recursion limit") => {
                return Err(InputRefusal {
                    line: e.marker().line(),
                    column: e.marker().col() + 1,
                    message: format!("nested more than {max_depth} levels deep"),
                })
            }
            // Any other syntax error is left to the deserializer, which names the field too.
            Err(_) => return Ok(()),
        };
        let refuse = |message: String| InputRefusal {
            line: mark.line(),
            column: mark.col() + 1,
            message,
        };
        let anchored = match &event {
            Event::StreamEnd => return Ok(()),
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(refuse(format!(
                        "a second YAML document; a {what} holds exactly one"
                    )));
                }
                0
            }
            Event::Alias(_) => {
                return Err(refuse(format!(
                    "an alias (`*name`); a {what} may not use anchors or aliases: write the \
                     value out"
                )))
            }
            Event::Scalar(_, _, anchor, _) => *anchor,
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                depth += 1;
                if depth > max_depth {
                    return Err(refuse(format!("nested more than {max_depth} levels deep")));
                }
                *anchor
            }
            Event::SequenceEnd | Event::MappingEnd => {
                depth = depth.saturating_sub(1);
                0
            }
            _ => 0,
        };
        if anchored != 0 {
            // A collection's event is placed at its first item; the anchor is the last `&`
            // before it.
            let at = text
                .char_indices()
                .nth(mark.index())
                .map_or(text.len(), |(at, _)| at);
            let anchor = text[..at].rfind('&').unwrap_or(at);
            let (line, column) = position(text.as_bytes(), anchor);
            return Err(InputRefusal {
                line,
                column,
                message: format!("an anchor (`&name`); a {what} may not use anchors or aliases"),
            });
        }
    }
}

/// Refuses a YAML file whose every string is shown as it is (a manifest) when one of them, a
/// value or a key, holds a control or bidirectional character other than a line feed: checking
/// the whole tree refuses the field nobody listed too. The error names the file, the line of the
/// top-level key the string sits under, and its place (`probe[0]`, `package.name`, or the key
/// itself, shown).
pub fn refuse_hidden(input: &super::Input) -> Result<(), crate::located::LocatedError> {
    let tree: serde_yaml::Value = input.parse()?;
    let Some((path, key)) = first_hidden(&tree, "") else {
        return Ok(());
    };
    let top = path.split(['.', '[']).next().unwrap_or("");
    let line = (input.text().lines())
        .position(|l| !top.is_empty() && l.starts_with(&format!("{top}:")))
        .map(|i| i + 1);
    let place = match (path.is_empty(), key) {
        (_, None) => path.clone(),
        (true, Some(key)) => format!("the key `{key}`"),
        (false, Some(key)) => format!("{path}: the key `{key}`"),
    };
    let message = format!("{place}: holds a control or bidirectional character");
    Err(crate::located::LocatedError::new(
        input.path(),
        line,
        message,
    ))
}

/// The first string below `path` holding a hidden character: a value's path, or the path of the
/// mapping holding such a key with the key shown on one line.
fn first_hidden(value: &serde_yaml::Value, path: &str) -> Option<(String, Option<String>)> {
    use serde_yaml::Value;
    let hidden = |s: &str| s.chars().any(crate::visible::is_hidden);
    match value {
        Value::String(s) if hidden(s) => Some((path.to_owned(), None)),
        Value::Sequence(items) => (items.iter().enumerate())
            .find_map(|(i, item)| first_hidden(item, &format!("{path}[{i}]"))),
        Value::Mapping(map) => map.iter().find_map(|(key, item)| match key.as_str() {
            Some(name) if hidden(name) => Some((
                path.to_owned(),
                Some(crate::visible::shown_line(name).into_owned()),
            )),
            Some(name) if path.is_empty() => first_hidden(item, name),
            Some(name) => first_hidden(item, &format!("{path}.{name}")),
            None => first_hidden(item, path),
        }),
        Value::Tagged(tagged) => first_hidden(&tagged.value, path),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::CASE_FILE;

    fn refused(text: &str) -> InputRefusal {
        match screen(text, CASE_FILE) {
            Ok(()) => panic!("not refused: {:?}", &text[..text.len().min(60)]),
            Err(refusal) => refusal,
        }
    }

    #[test]
    fn a_nul_is_placed_on_its_line() {
        let r = refused("cases:\n  - name: a\n    spec: \"x\0\"\n");
        assert_eq!((r.line, r.column), (3, 13), "{r:?}");
    }

    #[test]
    fn aliases_anchors_documents_and_depth() {
        let r = refused("cases:\n  - checks: &k []\n");
        assert!(r.message.contains("anchor") && r.line == 2, "{r:?}");
        let r = refused("a: &x [1]\nb: *x\n");
        assert!(
            r.message.contains("alias") || r.message.contains("anchor"),
            "{r:?}"
        );
        let r = refused("cases: []\n---\ncases: []\n");
        assert!(r.message.contains("second") && r.line == 2, "{r:?}");
        let deep = format!("cases: {}{}", "[".repeat(100_000), "]".repeat(100_000));
        let r = refused(&deep);
        assert!(r.message.contains("nested") && r.line == 1, "{r:?}");
    }

    #[test]
    fn ordinary_files_pass() {
        let text = "cases:\n  - name: a\n    robots: \"User-agent: *\\x00\\n\"\n";
        assert_eq!(screen(text, CASE_FILE), Ok(()));
    }

    #[test]
    fn a_hidden_character_is_refused_wherever_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("adapter.yaml");
        for (text, expected) in [
            (
                "name: a\nprobe: [\"x\", \"y\\e\"]\n",
                "adapter.yaml:2: probe[1]: holds",
            ),
            (
                "name: a\npackage:\n  name: \"p\\u202e\"\n",
                "adapter.yaml:2: package.name: holds",
            ),
            (
                "name: a\npackage: {\"k\\a\": 1}\n",
                "adapter.yaml:2: package: the key `k␇`: holds",
            ),
            ("\"k\\a\": 1\n", "adapter.yaml: the key `k␇`: holds"),
            ("note: \"two\\nlines\"\n", ""),
        ] {
            std::fs::write(&file, text).unwrap();
            let input = super::super::Input::read(
                &file,
                super::super::Format::Yaml,
                crate::limits::MANIFEST,
            )
            .unwrap();
            let refused = refuse_hidden(&input)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            let refused = refused
                .rsplit_once('/')
                .map_or(refused.as_str(), |(_, r)| r);
            assert!(refused.starts_with(expected), "{text:?}: {refused}");
        }
    }
}
