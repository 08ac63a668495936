//! Rendering a [`Document`] to the bytes of a robots.txt body.

use super::document::*;

/// The body's bytes.
pub fn render(doc: &Document) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for item in doc.items.iter() {
        match item {
            DocItem::DocRecord(record) => record_lines(record, &mut lines),
            DocItem::Blank(blank) => lines.push(blank_line(*blank)),
            DocItem::Comment(comment, indent) => lines.push(comment_line(comment, *indent)),
            DocItem::FieldLine(line) => lines.push(field_line(line)),
        }
    }
    let mut body = Vec::new();
    if matches!(doc.bom, Bom::Present) {
        body.extend_from_slice("\u{feff}".as_bytes());
    }
    let count = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        body.extend_from_slice(&line);
        if i + 1 < count || matches!(doc.last, LastLine::Terminated) {
            body.extend_from_slice(ending(&doc.endings, i));
        }
    }
    body
}

fn ending(endings: &Endings, index: usize) -> &'static [u8] {
    match endings {
        Endings::Lf => b"\n",
        Endings::CrLf => b"\r\n",
        Endings::Cr => b"\r",
        Endings::Mixed(list) if list.is_empty() => b"\n",
        Endings::Mixed(list) => list[index % list.len()].bytes(),
    }
}

fn record_lines(record: &DocRecord, lines: &mut Vec<Vec<u8>>) {
    for agent in std::iter::once(&record.agent).chain(record.more_agents.iter()) {
        lines.push(agent_line(agent));
    }
    for line in record.lines.iter() {
        lines.push(match line {
            RecordLine::Rule(line) => field_line(line),
            RecordLine::Comment(comment, indent) => comment_line(comment, *indent),
            RecordLine::Agent(agent) => agent_line(agent),
            RecordLine::Blank(blank) => blank_line(*blank),
        });
    }
    match record.gap {
        Gap::Blank => lines.push(Vec::new()),
        Gap::Nothing => {}
        Gap::TwoBlanks => lines.extend([Vec::new(), Vec::new()]),
        Gap::Whitespace => lines.push(b"  ".to_vec()),
        Gap::Comment => lines.push(b"# next".to_vec()),
    }
}

fn blank_line(blank: Blank) -> Vec<u8> {
    match blank {
        Blank::Empty => Vec::new(),
        Blank::Spaces => b"   ".to_vec(),
        Blank::Tab => b"\t".to_vec(),
    }
}

fn comment_text(comment: &Comment) -> Vec<u8> {
    match comment {
        Comment::Plain => b"# comment".to_vec(),
        Comment::Bare => b"#".to_vec(),
        Comment::Tight => b"#x".to_vec(),
        Comment::WithField => b"# Disallow: /".to_vec(),
        Comment::Raw(bytes) => {
            let mut text = b"#".to_vec();
            text.extend(bytes.iter());
            text
        }
    }
}

fn comment_line(comment: &Comment, indent: Indent) -> Vec<u8> {
    let mut text = match indent {
        Indent::None => Vec::new(),
        Indent::Space => b" ".to_vec(),
        Indent::Tab => b"\t".to_vec(),
    };
    text.extend(comment_text(comment));
    text
}

fn agent_line(agent: &AgentLine) -> Vec<u8> {
    styled("User-agent", &agent_value(&agent.value), &agent.style)
}

fn field_line(line: &FieldLine) -> Vec<u8> {
    let name: Vec<u8> = match &line.field {
        Field::Disallow => b"Disallow".to_vec(),
        Field::Allow => b"Allow".to_vec(),
        Field::Sitemap => b"Sitemap".to_vec(),
        Field::CrawlDelay => b"Crawl-delay".to_vec(),
        Field::Misspelt(m) => m.text().as_bytes().to_vec(),
        Field::Other(word) => format!("X-{}", word.text()).into_bytes(),
        Field::Raw(bytes) => bytes.to_vec(),
    };
    let value = match (&line.field, &line.value) {
        (Field::CrawlDelay, PathValue::One(_)) => b"10".to_vec(),
        (Field::Sitemap, value) => {
            let mut url = b"http://example.com".to_vec();
            url.extend(path_value(value));
            url
        }
        (_, value) => path_value(value),
    };
    styled_bytes(&name, &value, &line.style)
}

fn styled(name: &str, value: &[u8], style: &Style) -> Vec<u8> {
    styled_bytes(name.as_bytes(), value, style)
}

fn styled_bytes(name: &[u8], value: &[u8], style: &Style) -> Vec<u8> {
    let style = match style {
        Style::Plain => &PLAIN,
        Style::Odd(odd) => odd.as_ref(),
    };
    let mut text = space(style.leading, false).to_vec();
    text.extend(name.iter().enumerate().map(|(i, &b)| match style.case {
        LetterCase::Canonical => b,
        LetterCase::Lower => b.to_ascii_lowercase(),
        LetterCase::Upper => b.to_ascii_uppercase(),
        LetterCase::Alternating if i % 2 == 0 => b.to_ascii_uppercase(),
        LetterCase::Alternating => b.to_ascii_lowercase(),
    }));
    text.extend_from_slice(space(style.before_colon, false));
    match style.colon {
        Colon::Colon => text.push(b':'),
        Colon::Missing => {}
        Colon::Double => text.extend_from_slice(b"::"),
    }
    if !value.is_empty() || !matches!(style.after_colon, Space::Canonical) {
        text.extend_from_slice(space(style.after_colon, true));
    }
    text.extend_from_slice(value);
    text.extend_from_slice(space(style.trailing, false));
    if let Some(comment) = &style.comment {
        text.push(b' ');
        text.extend(comment_text(comment));
    }
    text
}

const PLAIN: Odd = Odd {
    case: LetterCase::Canonical,
    after_colon: Space::Canonical,
    before_colon: Space::Canonical,
    leading: Space::Canonical,
    trailing: Space::Canonical,
    colon: Colon::Colon,
    comment: None,
};

/// The canonical choice is one space after the colon and none elsewhere.
fn space(space: Space, after_colon: bool) -> &'static [u8] {
    match (space, after_colon) {
        (Space::Canonical, true) | (Space::Other, false) => b" ",
        (Space::Canonical, false) | (Space::Other, true) => b"",
        (Space::Tab, _) => b"\t",
        (Space::Two, _) => b"  ",
        (Space::FormFeed, _) => b"\x0c",
        (Space::NoBreak, _) => "\u{a0}".as_bytes(),
    }
}

fn agent_value(value: &AgentValue) -> Vec<u8> {
    let text = match value {
        AgentValue::Star => "*".to_owned(),
        AgentValue::Name(n) => n.text().to_owned(),
        AgentValue::Versioned(n, v) => format!("{}/{}", n.text(), v.text()),
        AgentValue::Lower(n) => n.text().to_ascii_lowercase(),
        AgentValue::Upper(n) => n.text().to_ascii_uppercase(),
        AgentValue::Prefix(n) => n.text()[..3].to_owned(),
        AgentValue::Extended(n) => format!("{}-Image", n.text()),
        AgentValue::Empty => String::new(),
        AgentValue::Two(a, b) => format!("{} {}", a.text(), b.text()),
        AgentValue::StarWord(n) => format!("{}*", &n.text()[..3]),
        AgentValue::Browser(n) => format!("Mozilla/5.0 (compatible; {}/2.1)", n.text()),
        AgentValue::Raw(bytes) => return bytes.to_vec(),
    };
    text.into_bytes()
}

fn path_value(value: &PathValue) -> Vec<u8> {
    let text = match value {
        PathValue::Root => "/".to_owned(),
        PathValue::One(w) => format!("/{}", w.text()),
        PathValue::Two(a, b) => format!("/{}/{}", a.text(), b.text()),
        PathValue::Dir(w) => format!("/{}/", w.text()),
        PathValue::Empty => String::new(),
        PathValue::Query(w) => format!("/{}?x=1", w.text()),
        PathValue::Star(w) => format!("/{}*", w.text()),
        PathValue::StarInside(a, b) => format!("/{}*{}", a.text(), b.text()),
        PathValue::Dollar(w) => format!("/{}$", w.text()),
        PathValue::Upper(w) => format!("/{}", w.text().to_ascii_uppercase()),
        PathValue::Encoded(w) => {
            let mut text = "/".to_owned();
            for b in w.text().bytes() {
                text.push_str(&format!("%{b:02X}"));
            }
            text
        }
        PathValue::Tilde => "/~a".to_owned(),
        PathValue::EncodedTilde => "/%7Ea".to_owned(),
        PathValue::EncodedSlash(a, b) => format!("/{}%2F{}", a.text(), b.text()),
        PathValue::NonAscii => "/café".to_owned(),
        PathValue::Space(w) => format!("/{} x", w.text()),
        PathValue::FullUrl(w) => format!("http://example.com/{}", w.text()),
        PathValue::NoSlash(w) => w.text().to_owned(),
        PathValue::Long(w, n) => format!("/{}", w.text().repeat(1 + usize::from(*n) * 8)),
        PathValue::Punct(w, p) => format!("/{}{}", w.text(), p.text()),
        PathValue::Raw(bytes) => return bytes.to_vec(),
    };
    text.into_bytes()
}
