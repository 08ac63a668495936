//! The bounds held against what an adapter sends, in one place so that the documentation
//! (`adapters/PROTOCOL.md`, the README) and the code agree. An adapter may come from anyone;
//! whatever it sends, memory stays bounded. (The longest line accepted is
//! [`crate::adapter::MAX_LINE`].)

/// Longest error text kept from an adapter's `error` answer, in bytes.
pub const MAX_ERROR_TEXT: usize = 4 << 10;

/// `text` cut to at most [`MAX_ERROR_TEXT`] bytes (on a character boundary), with
/// `… (N bytes cut)` appended when anything was cut.
pub fn cap_text(text: &str) -> String {
    cap_text_at(text, MAX_ERROR_TEXT)
}

fn cap_text_at(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes cut)", &text[..end], text.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        assert_eq!(cap_text("short"), "short");
        let long = "é".repeat(5000);
        let cut = cap_text(&long);
        assert!(
            cut.ends_with(&format!("… ({} bytes cut)", 10_000 - 4096)),
            "{}",
            &cut[4090..]
        );
        assert!(cut.len() < 4200);
    }
}
