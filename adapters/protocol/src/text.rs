//! What a one-line field may hold. The messages of [`crate::wire`] and every reader above them
//! hold outside text to this.

/// The bidirectional formatting characters (marks, embeddings, overrides and isolates), which
/// reorder what a terminal or a page shows around them: a handshake may hold none.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// A character no one-line field may hold: a control character (a line feed included) or a
/// bidirectional control. What a handshake, a manifest's fields, an agent and a case file's name
/// are held to.
pub fn is_control_or_bidi(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}
