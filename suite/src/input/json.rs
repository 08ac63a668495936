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
}
