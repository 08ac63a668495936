//! Screening a case file's text before it is deserialized, so that hostile YAML fails fast, in
//! bounded memory, with a line: bytes that are not UTF-8 or that YAML forbids (a NUL), more than
//! one document, anchors and aliases (whose expansion can multiply a small file into gigabytes),
//! and nesting deeper than [`MAX_CASE_DEPTH`].
//!
//! The screen walks the YAML event stream once, keeping only a depth counter. Syntax errors it
//! leaves to the deserializer, which reports them with their own line.

use yaml_rust2::parser::{Event, Parser};

use crate::limits::MAX_CASE_DEPTH;

/// Where a problem is (1-based line and column) and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The file's text, when it passes the screen.
pub fn screen(bytes: &[u8]) -> Result<&str, Refusal> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = position(bytes, e.valid_up_to());
        Refusal {
            line,
            column,
            message: format!(
                "not UTF-8 (byte 0x{:02x}); write bytes that are not UTF-8 with robots_base64",
                bytes[e.valid_up_to()]
            ),
        }
    })?;
    if let Some((at, c)) = text.char_indices().find(|&(_, c)| forbidden(c)) {
        let (line, column) = position(bytes, at);
        return Err(Refusal {
            line,
            column,
            message: format!(
                "the character U+{:04X} may not appear in YAML; write it as an escape in a \
                 double-quoted string (`\\x{:02x}`) or use robots_base64",
                c as u32, c as u32
            ),
        });
    }
    walk_events(text)?;
    Ok(text)
}

/// The characters YAML 1.2 does not allow in a stream (outside escapes): C0 controls other than
/// tab, line feed and carriage return, DEL, C1 controls other than NEL, and U+FFFE / U+FFFF.
fn forbidden(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b' | '\x0c' | '\x0e'..='\x1f' | '\x7f')
        || (('\u{80}'..='\u{9f}').contains(&c) && c != '\u{85}')
        || matches!(c, '\u{fffe}' | '\u{ffff}')
}

fn walk_events(text: &str) -> Result<(), Refusal> {
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    let mut documents = 0usize;
    loop {
        let (event, mark) = match parser.next_token() {
            Ok(next) => next,
            // The scanner caps flow nesting (`[[[[...`) itself.
            Err(e) if e.info().contains("recursion limit") => {
                return Err(Refusal {
                    line: e.marker().line(),
                    column: e.marker().col() + 1,
                    message: format!("nested more than {MAX_CASE_DEPTH} levels deep"),
                })
            }
            // Any other syntax error is left to the deserializer, which names the field too.
            Err(_) => return Ok(()),
        };
        let refuse = |message: String| Refusal {
            line: mark.line(),
            column: mark.col() + 1,
            message,
        };
        let anchored = match &event {
            Event::StreamEnd => return Ok(()),
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(refuse(
                        "a second YAML document; a case file holds exactly one".to_owned(),
                    ));
                }
                0
            }
            Event::Alias(_) => {
                return Err(refuse(
                    "an alias (`*name`); case files may not use anchors or aliases: write the \
                     value out"
                        .to_owned(),
                ))
            }
            Event::Scalar(_, _, anchor, _) => *anchor,
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                depth += 1;
                if depth > MAX_CASE_DEPTH {
                    return Err(refuse(format!(
                        "nested more than {MAX_CASE_DEPTH} levels deep"
                    )));
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
            return Err(Refusal {
                line,
                column,
                message: "an anchor (`&name`); case files may not use anchors or aliases"
                    .to_owned(),
            });
        }
    }
}

/// The 1-based line and column (in characters) of byte `at`.
fn position(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &[u8]) -> Refusal {
        match screen(text) {
            Ok(_) => panic!(
                "not refused: {:?}",
                String::from_utf8_lossy(&text[..text.len().min(60)])
            ),
            Err(refusal) => refusal,
        }
    }

    #[test]
    fn a_nul_is_placed_on_its_line() {
        let r = refused(b"cases:\n  - name: a\n    spec: \"x\0\"\n");
        assert_eq!((r.line, r.column), (3, 13), "{r:?}");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_placed() {
        let r = refused(b"cases:\n\n  - name: \xff\n");
        assert_eq!((r.line, r.column), (3, 11), "{r:?}");
    }

    #[test]
    fn aliases_anchors_documents_and_depth() {
        let r = refused(b"cases:\n  - checks: &k []\n");
        assert!(r.message.contains("anchor") && r.line == 2, "{r:?}");
        let r = refused(b"a: &x [1]\nb: *x\n");
        assert!(
            r.message.contains("alias") || r.message.contains("anchor"),
            "{r:?}"
        );
        let r = refused(b"cases: []\n---\ncases: []\n");
        assert!(r.message.contains("second") && r.line == 2, "{r:?}");
        let deep = format!("cases: {}{}", "[".repeat(100_000), "]".repeat(100_000));
        let r = refused(deep.as_bytes());
        assert!(r.message.contains("nested") && r.line == 1, "{r:?}");
    }

    #[test]
    fn ordinary_files_pass() {
        let text = "cases:\n  - name: a\n    robots: \"User-agent: *\\x00\\n\"\n";
        assert_eq!(screen(text.as_bytes()), Ok(text));
    }
}
