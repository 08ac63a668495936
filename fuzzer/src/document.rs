//! The generator's document model: records, user-agent lines, rules, other lines, comments and
//! blank lines, and how each is spelt.
//!
//! Everything derives [`Arbitrary`]. The first variant of every choice is the canonical one (LF
//! endings, `Name: value` with one space, canonical field spelling, bare names, short paths), and
//! `arbitrary` picks the first variant once its input runs out, so a short input decodes to a
//! short, plain document and odd spellings cost input bytes. Lists ([`List`]) go on while input
//! lasts, up to a cap, unless a byte says stop: a zero byte (the canonical choice everywhere
//! else) continues them, so input rich in zeros decodes to plain documents of some length.

use arbitrary::{Arbitrary, Unstructured};

/// A list of at most `MAX` elements: continued by any byte but one in three.
#[derive(Debug, Clone, Default)]
pub struct List<T, const MAX: usize>(pub Vec<T>);

impl<'a, T: Arbitrary<'a>, const MAX: usize> Arbitrary<'a> for List<T, MAX> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut items = Vec::new();
        while items.len() < MAX && !u.is_empty() {
            if u8::arbitrary(u)? % 3 == 2 {
                break;
            }
            items.push(T::arbitrary(u)?);
        }
        Ok(List(items))
    }
}

impl<T, const MAX: usize> std::ops::Deref for List<T, MAX> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

/// A robots.txt body, before rendering.
#[derive(Debug, Clone, Arbitrary)]
pub struct Document {
    pub items: List<DocItem, 10>,
    pub endings: Endings,
    pub last: LastLine,
    pub bom: Bom,
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Bom {
    None,
    Present,
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum LastLine {
    Terminated,
    Unterminated,
}

/// How lines end: one kind throughout, or a mix.
#[derive(Debug, Clone, Arbitrary)]
pub enum Endings {
    Lf,
    CrLf,
    Cr,
    /// Cycles through the list (an empty list is LF).
    Mixed(List<Ending, 4>),
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Ending {
    Lf,
    CrLf,
    Cr,
}

impl Ending {
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Ending::Lf => b"\n",
            Ending::CrLf => b"\r\n",
            Ending::Cr => b"\r",
        }
    }
}

/// What stands between records and around them.
#[derive(Debug, Clone, Arbitrary)]
pub enum DocItem {
    DocRecord(DocRecord),
    Blank(Blank),
    Comment(Comment, Indent),
    FieldLine(FieldLine),
}

/// User-agent lines, then the record's other lines, then what separates it from the next item.
#[derive(Debug, Clone, Arbitrary)]
pub struct DocRecord {
    pub agent: AgentLine,
    pub more_agents: List<AgentLine, 2>,
    pub lines: List<RecordLine, 5>,
    pub gap: Gap,
}

#[derive(Debug, Clone, Arbitrary)]
pub struct AgentLine {
    pub value: AgentValue,
    pub style: Style,
}

/// A line inside a record, after its User-agent lines.
#[derive(Debug, Clone, Arbitrary)]
pub enum RecordLine {
    Rule(FieldLine),
    Comment(Comment, Indent),
    Agent(AgentLine),
    Blank(Blank),
}

/// What follows a record.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Gap {
    Blank,
    Nothing,
    TwoBlanks,
    Whitespace,
    Comment,
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Blank {
    Empty,
    Spaces,
    Tab,
}

/// A field line: its field, value and spelling.
#[derive(Debug, Clone, Arbitrary)]
pub struct FieldLine {
    pub field: Field,
    pub value: PathValue,
    pub style: Style,
}

#[derive(Debug, Clone, Arbitrary)]
pub enum Field {
    Disallow,
    Allow,
    Sitemap,
    CrawlDelay,
    /// `Disalow`, `User agent`, `useragent`, ...
    Misspelt(Misspelling),
    /// A made-up field name.
    Other(Word),
    /// Bytes of the fuzzer's choosing as the field name.
    Raw(List<u8, 24>),
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Misspelling {
    Disalow,
    UserAgentSpace,
    Useragent,
    UserUnderscoreAgent,
    Dissallow,
    Allowed,
}

impl Misspelling {
    pub fn text(self) -> &'static str {
        match self {
            Misspelling::Disalow => "Disalow",
            Misspelling::UserAgentSpace => "User agent",
            Misspelling::Useragent => "Useragent",
            Misspelling::UserUnderscoreAgent => "User_agent",
            Misspelling::Dissallow => "Dissallow",
            Misspelling::Allowed => "Allowed",
        }
    }
}

/// How a field line is written: plainly, or with some oddity.
#[derive(Debug, Clone, Arbitrary)]
pub enum Style {
    Plain,
    Odd(Box<Odd>),
}

/// How an odd field line is written around its name, colon and value.
#[derive(Debug, Clone, Arbitrary)]
pub struct Odd {
    pub case: LetterCase,
    pub after_colon: Space,
    pub before_colon: Space,
    pub leading: Space,
    pub trailing: Space,
    pub colon: Colon,
    pub comment: Option<Comment>,
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum LetterCase {
    Canonical,
    Lower,
    Upper,
    Alternating,
}

/// White space; after the colon, the canonical choice is one space, elsewhere none.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Space {
    Canonical,
    Other,
    Tab,
    Two,
    FormFeed,
    NoBreak,
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Colon {
    Colon,
    Missing,
    Double,
}

#[derive(Debug, Clone, Arbitrary)]
pub enum Comment {
    Plain,
    Bare,
    Tight,
    WithField,
    Raw(List<u8, 24>),
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Indent {
    None,
    Space,
    Tab,
}

/// A robot's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub enum Name {
    FooBot,
    BarBot,
    BazBot,
    QuxBot,
}

impl Name {
    pub fn text(self) -> &'static str {
        match self {
            Name::FooBot => "FooBot",
            Name::BarBot => "BarBot",
            Name::BazBot => "BazBot",
            Name::QuxBot => "QuxBot",
        }
    }
}

/// A User-agent value.
#[derive(Debug, Clone, Arbitrary)]
pub enum AgentValue {
    Name(Name),
    Star,
    Versioned(Name, Version),
    Lower(Name),
    Upper(Name),
    /// The first half of the name: `Foo`.
    Prefix(Name),
    /// The name and a suffix: `FooBot-Image`.
    Extended(Name),
    Empty,
    Two(Name, Name),
    StarWord(Name),
    Browser(Name),
    Raw(List<u8, 24>),
}

#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Version {
    Short,
    Long,
    Word,
}

impl Version {
    pub fn text(self) -> &'static str {
        match self {
            Version::Short => "1.0",
            Version::Long => "2.1.3",
            Version::Word => "beta",
        }
    }
}

/// A path segment.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Word {
    A,
    B,
    C,
    Tmp,
    Private,
    CgiBin,
    Index,
}

impl Word {
    pub fn text(self) -> &'static str {
        match self {
            Word::A => "a",
            Word::B => "b",
            Word::C => "c",
            Word::Tmp => "tmp",
            Word::Private => "private",
            Word::CgiBin => "cgi-bin",
            Word::Index => "index.html",
        }
    }
}

/// A rule's value (also used for the other fields' values).
#[derive(Debug, Clone, Arbitrary)]
pub enum PathValue {
    One(Word),
    Root,
    Two(Word, Word),
    Dir(Word),
    Empty,
    Query(Word),
    Star(Word),
    StarInside(Word, Word),
    Dollar(Word),
    Upper(Word),
    Encoded(Word),
    Tilde,
    EncodedTilde,
    EncodedSlash(Word, Word),
    NonAscii,
    Space(Word),
    FullUrl(Word),
    NoSlash(Word),
    Long(Word, u8),
    /// A word then punctuation that URL libraries treat specially (see [`Punct`]).
    Punct(Word, Punct),
    Raw(List<u8, 24>),
}

/// Punctuation after a path word. Each is one a URL library may rewrite before a parser compares
/// (an empty query dropped, a backslash turned into `/`, a dot segment removed, a character
/// percent-encoded on one side only), written plainly so that a finding stays readable.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Punct {
    /// `?`: an empty query.
    EmptyQuery,
    Semicolon,
    Comma,
    Exclamation,
    Apostrophe,
    Parentheses,
    Colon,
    At,
    Equals,
    Ampersand,
    Plus,
    Brackets,
    Pipe,
    Caret,
    Backslash,
    Braces,
    Backtick,
    Quote,
    /// `/.`: a dot segment.
    Dot,
    /// `/..`: a parent segment.
    DotDot,
}

impl Punct {
    pub fn text(self) -> &'static str {
        match self {
            Punct::EmptyQuery => "?",
            Punct::Semicolon => ";",
            Punct::Comma => ",",
            Punct::Exclamation => "!",
            Punct::Apostrophe => "'",
            Punct::Parentheses => "()",
            Punct::Colon => ":",
            Punct::At => "@",
            Punct::Equals => "=",
            Punct::Ampersand => "&",
            Punct::Plus => "+",
            Punct::Brackets => "[]",
            Punct::Pipe => "|",
            Punct::Caret => "^",
            Punct::Backslash => "\\",
            Punct::Braces => "{}",
            Punct::Backtick => "`",
            Punct::Quote => "\"",
            Punct::Dot => "/.",
            Punct::DotDot => "/..",
        }
    }
}
