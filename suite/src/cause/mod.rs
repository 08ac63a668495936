//! What causes a parser to answer otherwise than the reference: one typed [`Cause`], the same in
//! every place that names one (`run`'s groups, the reports, the `cause` of an expectation entry,
//! the survey and the fuzzer's findings).
//!
//! A cause is read from what the reference already worked out ([`of_result`], [`of_decision`]):
//! how the adapter failed when it gave no answer, what is unusual about the body ([`BodyMarks`]),
//! and the reference's [`Explanation`](robotstxt_reference::Explanation) of its decision, which
//! lists the lines of the chosen records as the profile read them. Each cause comes from a clause
//! of a text, or from a point a text leaves open ([`Cause::clause`]).
//!
//! Every cause has a stable kebab-case [`id`](Cause::id) and a short label, its `Display`, which
//! reads as the cause ("CR-only line endings", "an Allow line decides"). Both parse back
//! ([`Cause::from_str`](std::str::FromStr)), so an expectation file may carry either; files carry
//! the label, which is what people read. Labels that name the record say `record` under the 1994
//! text and `group` under RFC 9309, so those causes carry their profile.
//!
//! The labels that only say which record applied ([`Cause::is_record_fallback`]) are the last
//! resort: a check gets one only when nothing more precise is true of it.

mod classify;
mod clauses;
mod marks;
pub mod misreadings;

use std::fmt;
use std::str::FromStr;

use robotstxt_reference::Profile;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use classify::{allow_matches, of_answer, of_decision, of_result};
pub use clauses::ProfileClause;
pub use marks::BodyMarks;

use Profile::{Norobots1994 as N1994, Rfc9309 as Rfc};

/// Why a check did not pass: see the module docs. Variants are grouped as
/// [`of_result`] reads them, most telling first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    // How the adapter failed, when it gave no answer.
    /// It rejected a body that holds bytes that are not UTF-8.
    RejectsNotUtf8,
    /// It rejected the body.
    RejectsBody,
    /// It (or its URL building) refused the query.
    RefusesQuery,
    Crashes,
    TimesOut,
    BreaksProtocol,
    /// Its answer changed when the check was asked again.
    Unstable,

    // What the parser misreads, where its answer shows it (see [`misreadings`]): named as the
    // fix.
    /// A line that is only a comment read as the field it holds.
    CommentLineRead,
    /// A comment after a rule's value kept as part of it.
    CommentKeptInValue,
    /// A line holding only a comment between User-agent lines taken to end them.
    CommentEndsAgentLines,
    /// A field read by a name it only holds, or written inside another's value.
    FieldNameMatchedLoosely,
    /// A rule's `%2A` and `%24` decoded, then read as a wildcard and an anchor.
    EncodedWildcardDecoded,
    /// A field with white space before its colon not recognised.
    SpaceBeforeColon,
    /// A misspelt User-agent field (`User agent`, `Useragent`) read as one.
    MisspelledUserAgent,
    /// Form feed, NEL, U+2028 and the like taken for line ends.
    OtherLineBreaks,
    /// Form feed, no-break space and the like trimmed as white space.
    OtherWhiteSpaceTrimmed,
    /// A tab inside a rule's value dropped.
    TabInValueDropped,
    /// A `?` with nothing after it dropped from a rule or the path.
    EmptyQueryDropped,
    /// The path's `;parameters` dropped before matching.
    PathParamsDropped,
    /// The path's query string dropped before matching.
    QueryDropped,
    /// `*` inside a User-agent value read as a wildcard.
    StarInAgentName,
    /// A product token that is a part of the robot's taken to name it.
    PartOfTokenNamesRobot,
    /// A field other than a rule after User-agent lines taken to end them.
    OtherFieldEndsAgentLines,
    /// Allow lines passed over.
    AllowIgnored,
    /// Rules read in file order, the first that matches deciding, Allow lines included.
    FirstMatchWins,
    /// Under the 1994 text, which has no Allow: Allow lines read as rules.
    AllowRead,
    /// Rules and the path decoded to one normal form where the 1994 text compares them as written.
    PercentDecoded,
    /// `%XX` compared as written where RFC 9309 compares the octets.
    PercentNotDecoded,

    // What is unusual about the body.
    /// Lines ended by a lone CR.
    LoneCr,
    ByteOrderMark,
    Nul,
    NotUtf8,
    /// The body is an HTML page (a server's error page served as robots.txt).
    HtmlPage,

    // What decided, in the reference's own terms.
    /// RFC 9309 §2.2.2: the path is `/robots.txt`.
    ImplicitRobotsTxt,
    /// The deciding rule holds `*` or `$`.
    WildcardDecides,
    /// The deciding rule is an Allow rule.
    AllowDecides,
    /// Several rules match and the longest decides.
    LongestMatch,
    /// The deciding rule or the path holds percent-encoding (or, found later in the order,
    /// any rule of the chosen record does, or octets that are percent-encoded before comparing).
    PercentEncoding,
    /// An Allow line of the chosen record(s) matches the path, without deciding.
    AllowMatches,
    /// The deciding rule or the path holds a `?`.
    QueryString,
    /// The robot's name carries a version or more words (`FooBot/2.1`).
    AgentVersion,
    /// Several records name the robot, combined (RFC 9309 §2.2.1).
    SeveralRecords(Profile),

    // What else the body holds that a parser may read otherwise.
    /// White space other than SP and HT, or a character some parsers end a line at.
    OtherWhiteSpace,
    /// A rule of the chosen record(s) holds `*` or `$` and does not decide.
    WildcardRule,
    /// A `*` record is there, but one names the robot.
    StarPassedOver(Profile),
    /// The record names the robot by a part of its name (the 1994 substring match).
    PartOfName,
    /// A field the profile does not read, inside the chosen record.
    OtherField(Profile),
    /// A blank line: inside the chosen group (RFC 9309), or ending the chosen record (1994).
    BlankLine(Profile),
    /// A rule of the chosen record(s) with an empty value.
    EmptyRule,
    /// A rule of the chosen record(s) whose value does not start with `/`.
    RuleNotAPath,
    /// A rule outside every record that would match the path.
    RuleOutside(Profile),
    /// Dot segments (`/./`, `/../`) or an empty one (`//`) in the path or a rule, which URL
    /// libraries rewrite and the texts compare as they are.
    DotSegments,
    /// A User-agent line right after a rule, with no blank line between, begins the chosen record
    /// or the one after it.
    UserAgentAfterRule(Profile),

    // Which record applied: the fallback, when nothing above is true.
    /// A record naming the robot applies.
    NamedRecord(Profile),
    /// The `*` record applies.
    StarRecord(Profile),
    /// No record applies.
    NoRecord(Profile),
}

impl Cause {
    /// Every cause, each profile's variant apart.
    pub const ALL: [Cause; 65] = [
        Cause::RejectsNotUtf8,
        Cause::RejectsBody,
        Cause::RefusesQuery,
        Cause::Crashes,
        Cause::TimesOut,
        Cause::BreaksProtocol,
        Cause::Unstable,
        Cause::CommentLineRead,
        Cause::CommentKeptInValue,
        Cause::CommentEndsAgentLines,
        Cause::FieldNameMatchedLoosely,
        Cause::EncodedWildcardDecoded,
        Cause::SpaceBeforeColon,
        Cause::MisspelledUserAgent,
        Cause::OtherLineBreaks,
        Cause::OtherWhiteSpaceTrimmed,
        Cause::TabInValueDropped,
        Cause::EmptyQueryDropped,
        Cause::PathParamsDropped,
        Cause::QueryDropped,
        Cause::StarInAgentName,
        Cause::PartOfTokenNamesRobot,
        Cause::OtherFieldEndsAgentLines,
        Cause::AllowIgnored,
        Cause::FirstMatchWins,
        Cause::AllowRead,
        Cause::PercentDecoded,
        Cause::PercentNotDecoded,
        Cause::LoneCr,
        Cause::ByteOrderMark,
        Cause::Nul,
        Cause::NotUtf8,
        Cause::HtmlPage,
        Cause::ImplicitRobotsTxt,
        Cause::WildcardDecides,
        Cause::AllowDecides,
        Cause::LongestMatch,
        Cause::PercentEncoding,
        Cause::AllowMatches,
        Cause::QueryString,
        Cause::AgentVersion,
        Cause::SeveralRecords(N1994),
        Cause::SeveralRecords(Rfc),
        Cause::OtherWhiteSpace,
        Cause::WildcardRule,
        Cause::StarPassedOver(N1994),
        Cause::StarPassedOver(Rfc),
        Cause::PartOfName,
        Cause::OtherField(N1994),
        Cause::OtherField(Rfc),
        Cause::BlankLine(N1994),
        Cause::BlankLine(Rfc),
        Cause::EmptyRule,
        Cause::RuleNotAPath,
        Cause::RuleOutside(N1994),
        Cause::RuleOutside(Rfc),
        Cause::DotSegments,
        Cause::UserAgentAfterRule(N1994),
        Cause::UserAgentAfterRule(Rfc),
        Cause::NamedRecord(N1994),
        Cause::NamedRecord(Rfc),
        Cause::StarRecord(N1994),
        Cause::StarRecord(Rfc),
        Cause::NoRecord(N1994),
        Cause::NoRecord(Rfc),
    ];

    /// The stable kebab-case name: what `survey.json` stores, and what an expectation file may
    /// carry in place of the label.
    pub fn id(self) -> &'static str {
        match self {
            Cause::RejectsNotUtf8 => "rejects-not-utf8",
            Cause::RejectsBody => "rejects-body",
            Cause::RefusesQuery => "refuses-query",
            Cause::Crashes => "crashes",
            Cause::TimesOut => "times-out",
            Cause::BreaksProtocol => "breaks-protocol",
            Cause::Unstable => "unstable",
            Cause::CommentLineRead => "comment-line-read",
            Cause::CommentKeptInValue => "comment-kept-in-value",
            Cause::CommentEndsAgentLines => "comment-ends-agent-lines",
            Cause::FieldNameMatchedLoosely => "field-name-matched-loosely",
            Cause::EncodedWildcardDecoded => "encoded-wildcard-decoded",
            Cause::SpaceBeforeColon => "space-before-colon",
            Cause::MisspelledUserAgent => "misspelled-user-agent",
            Cause::OtherLineBreaks => "other-line-breaks",
            Cause::OtherWhiteSpaceTrimmed => "other-white-space-trimmed",
            Cause::TabInValueDropped => "tab-in-value-dropped",
            Cause::EmptyQueryDropped => "empty-query-dropped",
            Cause::PathParamsDropped => "path-params-dropped",
            Cause::QueryDropped => "query-dropped",
            Cause::StarInAgentName => "star-in-agent-name",
            Cause::PartOfTokenNamesRobot => "part-of-token-names-robot",
            Cause::OtherFieldEndsAgentLines => "other-field-ends-agent-lines",
            Cause::AllowIgnored => "allow-ignored",
            Cause::FirstMatchWins => "first-match-wins",
            Cause::AllowRead => "allow-read",
            Cause::PercentDecoded => "percent-decoded",
            Cause::PercentNotDecoded => "percent-not-decoded",
            Cause::LoneCr => "lone-cr",
            Cause::ByteOrderMark => "byte-order-mark",
            Cause::Nul => "nul",
            Cause::NotUtf8 => "not-utf8",
            Cause::HtmlPage => "html-page",
            Cause::ImplicitRobotsTxt => "implicit-robots-txt",
            Cause::WildcardDecides => "wildcard-decides",
            Cause::AllowDecides => "allow-decides",
            Cause::LongestMatch => "longest-match",
            Cause::PercentEncoding => "percent-encoding",
            Cause::AllowMatches => "allow-matches",
            Cause::QueryString => "query-string",
            Cause::AgentVersion => "agent-version",
            Cause::SeveralRecords(p) => by_profile(p, "several-records", "several-groups"),
            Cause::OtherWhiteSpace => "other-white-space",
            Cause::WildcardRule => "wildcard-rule",
            Cause::StarPassedOver(p) => {
                by_profile(p, "star-record-passed-over", "star-group-passed-over")
            }
            Cause::PartOfName => "part-of-name",
            Cause::OtherField(p) => by_profile(p, "other-field-in-record", "other-field-in-group"),
            Cause::BlankLine(p) => by_profile(p, "blank-line-ends-record", "blank-line-in-group"),
            Cause::EmptyRule => "empty-rule",
            Cause::RuleNotAPath => "rule-not-a-path",
            Cause::RuleOutside(p) => by_profile(p, "rule-outside-records", "rule-outside-groups"),
            Cause::DotSegments => "dot-segments",
            Cause::UserAgentAfterRule(p) => by_profile(
                p,
                "user-agent-after-rule-begins-record",
                "user-agent-after-rule-begins-group",
            ),
            Cause::NamedRecord(p) => by_profile(p, "named-record", "named-group"),
            Cause::StarRecord(p) => by_profile(p, "star-record", "star-group"),
            Cause::NoRecord(p) => by_profile(p, "no-record", "no-group"),
        }
    }

    /// The short sentence people read: the same in every format. Labels of causes that stood
    /// before this type existed are unchanged.
    pub fn label(self) -> &'static str {
        match self {
            Cause::RejectsNotUtf8 => "rejects a body that is not UTF-8",
            Cause::RejectsBody => "rejects the body",
            Cause::RefusesQuery => "refuses the query (or its URL)",
            Cause::Crashes => "the adapter crashes",
            Cause::TimesOut => "no answer in time",
            Cause::BreaksProtocol => "the adapter breaks the protocol",
            Cause::Unstable => "the answer varies from run to run",
            Cause::CommentLineRead => "strip a whole-line comment: `# User-agent: ...` is no field",
            Cause::CommentKeptInValue => "strip the comment after a value (`Disallow: /a # note`)",
            Cause::CommentEndsAgentLines => "a comment line between User-agent lines ends nothing",
            Cause::FieldNameMatchedLoosely => "read a field only by its exact name (`XDisallow`, `X-Rule: Disallow:` are no rules)",
            Cause::EncodedWildcardDecoded => "match `%2A` and `%24` as the characters `*` and `$`, not as a wildcard or an anchor",
            Cause::SpaceBeforeColon => "accept white space before the colon (`Disallow : /a`)",
            Cause::MisspelledUserAgent => {
                "read only `User-agent`, not `User agent` or `Useragent`, as the field"
            }
            Cause::OtherLineBreaks => {
                "end lines only at CR and LF, not at form feed, NEL or U+2028"
            }
            Cause::OtherWhiteSpaceTrimmed => {
                "trim only space and tab, not form feed or no-break space"
            }
            Cause::TabInValueDropped => "keep a tab inside a value (URL parsing drops it)",
            Cause::EmptyQueryDropped => "keep a `?` with nothing after it (`Disallow: /a?`)",
            Cause::PathParamsDropped => "keep the path's `;parameters` (`/a;b`) when matching",
            Cause::QueryDropped => "match the query string (`?a=b`) too, not the path alone",
            Cause::StarInAgentName => {
                "read `*` inside a User-agent value as itself (`Foo*` names no robot)"
            }
            Cause::PartOfTokenNamesRobot => {
                "name the robot by its whole product token only (`Foo` is not `FooBot`)"
            }
            Cause::OtherFieldEndsAgentLines => {
                "keep reading User-agent lines past other fields (`Crawl-delay`, ...)"
            }
            Cause::AllowIgnored => "read Allow lines, not Disallow lines alone",
            Cause::FirstMatchWins => "the longest matching rule decides, not the first in the file",
            Cause::AllowRead => "pass over Allow lines: the 1994 text knows only Disallow",
            Cause::PercentDecoded => {
                "compare `%XX` as written (1994): do not decode or re-encode it"
            }
            Cause::PercentNotDecoded => {
                "decode `%XX` of the rule and the path before comparing (RFC 9309)"
            }
            Cause::LoneCr => "CR-only line endings",
            Cause::ByteOrderMark => "a byte-order mark",
            Cause::Nul => "NUL bytes",
            Cause::NotUtf8 => "bytes that are not UTF-8",
            Cause::HtmlPage => "an HTML page",
            Cause::ImplicitRobotsTxt => "/robots.txt is implicitly allowed",
            Cause::WildcardDecides => "a rule with `*` or `$` decides",
            Cause::AllowDecides => "an Allow line decides",
            Cause::LongestMatch => "several rules match: the longest decides, not the first",
            Cause::PercentEncoding => "percent-encoding in the rule or the path",
            Cause::AllowMatches => "an Allow line matches the path too",
            Cause::QueryString => "a query string (`?`) in the rule or the path",
            Cause::AgentVersion => {
                "the robot's name carries a version or more words (`FooBot/2.1`)"
            }
            Cause::SeveralRecords(p) => by_profile(
                p,
                "several records for the robot, combined",
                "several groups for the robot, combined",
            ),
            Cause::OtherWhiteSpace => {
                "white space other than space and tab (form feed, U+2028, ...)"
            }
            Cause::WildcardRule => "a rule with `*` or `$` that does not decide",
            Cause::StarPassedOver(p) => by_profile(
                p,
                "the robot's own record applies, not the `*` one",
                "the robot's own group applies, not the `*` one",
            ),
            Cause::PartOfName => "the record names the robot by a part of its name (`Foo`)",
            Cause::OtherField(p) => by_profile(
                p,
                "an unrecognised field (`Allow`, `Crawl-delay`, ...) inside the record",
                "another field (`Crawl-delay`, `Sitemap`, ...) inside the group",
            ),
            Cause::BlankLine(p) => by_profile(
                p,
                "a blank line ends the record",
                "a blank line inside the group",
            ),
            Cause::EmptyRule => "a rule with an empty value",
            Cause::RuleNotAPath => "a rule that does not start with `/`",
            Cause::RuleOutside(p) => by_profile(
                p,
                "a rule outside every record",
                "a rule outside every group",
            ),
            Cause::DotSegments => "`.`, `..` or `//` in the path or a rule",
            Cause::UserAgentAfterRule(p) => by_profile(
                p,
                "a User-agent line right after a rule begins a record",
                "a User-agent line right after a rule begins a group",
            ),
            Cause::NamedRecord(p) => by_profile(
                p,
                "a record naming the robot applies",
                "a group naming the robot applies",
            ),
            Cause::StarRecord(p) => {
                by_profile(p, "the `*` record applies", "the `*` group applies")
            }
            Cause::NoRecord(p) => by_profile(
                p,
                "no record applies to the robot",
                "no group applies to the robot",
            ),
        }
    }

    /// Whether this is one of the labels that only say which record applied: true of every
    /// check that reaches a record, so given only where nothing more precise is.
    pub fn is_record_fallback(self) -> bool {
        matches!(
            self,
            Cause::NamedRecord(_) | Cause::StarRecord(_) | Cause::NoRecord(_)
        )
    }

    /// Whether the adapter gave no answer (it rejected, crashed, timed out...): a cause no text
    /// speaks of, so one without a [clause](Cause::clause).
    pub fn is_adapter_fault(self) -> bool {
        self.clause(Profile::Norobots1994).is_none()
    }
}

/// The words for the 1994 text's records or RFC 9309's groups.
fn by_profile(profile: Profile, record: &'static str, group: &'static str) -> &'static str {
    match profile {
        N1994 => record,
        Rfc => group,
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A cause that is neither the id nor the label of any [`Cause`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown cause `{0}`: a cause is one of the labels `run` groups checks under, or its id \
     ({ids}); --update-expectations writes them",
    ids = Cause::ALL.iter().map(|c| c.id()).collect::<Vec<_>>().join(", ")
)]
pub struct UnknownCause(pub String);

impl FromStr for Cause {
    type Err = UnknownCause;

    /// A cause by its id or its label.
    fn from_str(text: &str) -> Result<Cause, UnknownCause> {
        let text = text.trim();
        Cause::ALL
            .into_iter()
            .find(|c| c.id() == text || c.label() == text)
            .ok_or_else(|| UnknownCause(text.to_owned()))
    }
}

impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Cause {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cause, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
