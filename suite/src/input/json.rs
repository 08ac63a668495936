//! The JSON screen: a file's text refused before it is deserialized when its arrays and objects
//! nest deeper than its bounds allow. One pass over the bytes, keeping a depth counter and
//! whether it is inside a string; anything else wrong is left to the deserializer, which reports
//! it with its line and column.

use super::{position, Bounds, InputRefusal};

/// Passes `text` when it may be deserialized under `bounds`.
pub fn screen(text: &str, bounds: Bounds) -> Result<(), InputRefusal> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > bounds.max_depth {
                    let (line, column) = position(bytes, at);
                    return Err(InputRefusal {
                        line,
                        column,
                        message: format!("nested more than {} levels deep", bounds.max_depth),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The screen fed a piece at a time, for a file screened as it is read and never held whole:
/// the same refusals as [`screen`] (and a byte that is not UTF-8), at the same places.
#[derive(Debug, Clone)]
pub struct StreamScreen {
    bounds: Bounds,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// 1-based line of the next byte, and the characters before it on its line.
    line: usize,
    column: usize,
    /// The start of a character cut by the end of the last piece.
    carry: Vec<u8>,
}

impl StreamScreen {
    pub fn new(bounds: Bounds) -> StreamScreen {
        StreamScreen {
            bounds,
            depth: 0,
            in_string: false,
            escaped: false,
            line: 1,
            column: 0,
            carry: Vec::new(),
        }
    }

    fn refusal(&self, message: String) -> InputRefusal {
        InputRefusal {
            line: self.line,
            column: self.column + 1,
            message,
        }
    }

    /// The next piece of the text.
    pub fn feed(&mut self, piece: &[u8]) -> Result<(), InputRefusal> {
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.extend_from_slice(piece);
        let valid = match std::str::from_utf8(&bytes) {
            Ok(_) => bytes.len(),
            // A character cut by the end of the piece: kept for the next one.
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(e) => {
                let at = e.valid_up_to();
                self.scan(&bytes[..at])?;
                let message = format!("not UTF-8 (byte 0x{:02x}){}", bytes[at], self.bounds.hint);
                return Err(self.refusal(message));
            }
        };
        self.scan(&bytes[..valid])?;
        self.carry = bytes[valid..].to_vec();
        Ok(())
    }

    /// The end of the text: a character cut by it is not UTF-8.
    pub fn finish(&self) -> Result<(), InputRefusal> {
        match self.carry.first() {
            Some(&b) => Err(self.refusal(format!("not UTF-8 (byte 0x{b:02x})"))),
            None => Ok(()),
        }
    }

    fn scan(&mut self, bytes: &[u8]) -> Result<(), InputRefusal> {
        for &b in bytes {
            if self.in_string {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
            } else {
                match b {
                    b'"' => self.in_string = true,
                    b'[' | b'{' => {
                        self.depth += 1;
                        if self.depth > self.bounds.max_depth {
                            let message =
                                format!("nested more than {} levels deep", self.bounds.max_depth);
                            return Err(self.refusal(message));
                        }
                    }
                    b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
            }
            if b == b'\n' {
                self.line += 1;
                self.column = 0;
            } else if b & 0xc0 != 0x80 {
                self.column += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        what: "test file",
        max_bytes: 1 << 20,
        max_depth: 3,
        hint: "",
    };

    #[test]
    fn brackets_inside_strings_do_not_count() {
        assert_eq!(screen(r#"{"a": ["[[[[\"{{{{"]}"#, BOUNDS), Ok(()));
        assert_eq!(screen("[[[]],[[]]]", BOUNDS), Ok(()));
        let refusal = screen("[[[[]]]]", BOUNDS).unwrap_err();
        assert_eq!((refusal.line, refusal.column), (1, 4));
    }

    /// Fed in pieces of every size, the stream screen refuses what the whole screen refuses,
    /// at the same place, and a byte that is not UTF-8 where it is.
    #[test]
    fn the_stream_screen_agrees_with_the_whole_one() {
        let texts = [
            "{\"é\": [\"[[[[\\\"{{{{\"]}",
            "[\n [[]],\n [[]]]",
            "[\n  \"ü\",\n [[[]]]]",
            "{\"a\": [{\"b\": [1]}]}",
        ];
        for text in texts {
            for size in 1..8 {
                let mut stream = StreamScreen::new(BOUNDS);
                let fed = (text.as_bytes().chunks(size))
                    .try_for_each(|piece| stream.feed(piece))
                    .and_then(|()| stream.finish());
                assert_eq!(fed, screen(text, BOUNDS), "{text:?} in pieces of {size}");
            }
        }
        let mut stream = StreamScreen::new(BOUNDS);
        stream.feed(b"[\n \"\xc3").unwrap();
        assert_eq!(stream.finish().unwrap_err().line, 2);
        let mut stream = StreamScreen::new(BOUNDS);
        let refusal = stream.feed(b"[\n \"a\xff\"]").unwrap_err();
        assert_eq!((refusal.line, refusal.column), (2, 4), "{refusal:?}");
    }
}
