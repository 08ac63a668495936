//! Where each cause comes from: the clause of the profile's text that settles what the reference
//! does about it, quoted exactly, and the point the text leaves open there, if it does.

use robotstxt_reference::open_points::OpenPoint;
use robotstxt_reference::Profile;

use super::Cause;

/// A clause of one profile's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileClause {
    pub profile: Profile,
    /// The section, as case files name it: `Format`, `User-agent`, `Disallow`, `RFC 9309 2.2.2`.
    pub section: &'static str,
    /// The words of the text, exactly.
    pub quote: &'static str,
    /// The point the text leaves open here, if it does: the reference's choice on it is argued in
    /// `reference/README.md`.
    pub open_point: Option<OpenPoint>,
}

impl ProfileClause {
    /// The clause as a case's `spec` says it: `RFC 9309 2.2.2: "The most specific ..."`.
    pub fn spec(&self) -> String {
        format!("{}: \"{}\"", self.section, self.quote)
    }
}

const fn text(profile: Profile, section: &'static str, quote: &'static str) -> ProfileClause {
    ProfileClause {
        profile,
        section,
        quote,
        open_point: None,
    }
}

const fn open(
    profile: Profile,
    section: &'static str,
    quote: &'static str,
    point: OpenPoint,
) -> ProfileClause {
    ProfileClause {
        profile,
        section,
        quote,
        open_point: Some(point),
    }
}

use Profile::{Norobots1994 as N1994, Rfc9309 as Rfc};

// The 1994 text.
const LINE_ENDS_1994: ProfileClause = text(
    N1994,
    "Format",
    "separated by one or more blank lines (terminated by CR,CR/NL, or NL)",
);
const FIELD_FORM: ProfileClause = text(
    N1994,
    "Format",
    "Each record contains lines of the form \"<field>:<optionalspace><value><optionalspace>\"",
);
const COMMENTS_1994: ProfileClause = text(
    N1994,
    "Format",
    "the '#' character is used to indicate that preceding space (if any) and the remainder of the \
     line up to the line termination is discarded",
);
const UNRECOGNISED: ProfileClause = text(N1994, "Format", "Unrecognised headers are ignored.");
const RECORD_STARTS: ProfileClause = text(
    N1994,
    "Format",
    "The record starts with one or more User-agent lines, followed by one or more Disallow lines",
);
const BLANK_LINES: ProfileClause = text(
    N1994,
    "Format",
    "records separated by one or more blank lines",
);
const ROBOT_NAME: ProfileClause = text(
    N1994,
    "User-agent",
    "The value of this field is the name of the robot the record is describing access policy for.",
);
const SUBSTRING: ProfileClause = text(
    N1994,
    "User-agent",
    "A case insensitive substring match of the name without version information is recommended.",
);
const STAR_RECORD: ProfileClause = text(
    N1994,
    "User-agent",
    "the default access policy for any robot that has not not matched any of the other records",
);
const PREFIX: ProfileClause = text(
    N1994,
    "Disallow",
    "any URL that starts with this value will not be retrieved",
);
const EMPTY_DISALLOW: ProfileClause = text(
    N1994,
    "Disallow",
    "Any empty value, indicates that all URLs can be retrieved.",
);

// RFC 9309.
const LINE_ENDS_9309: ProfileClause = text(Rfc, "RFC 9309 2.2", "NL = %x0D / %x0A / %x0D.0A");
const WS: ProfileClause = text(Rfc, "RFC 9309 2.2", "WS = %x20 / %x09");
const EOL: ProfileClause = text(Rfc, "RFC 9309 2.2", "EOL = *WS [comment] NL");
const NO_CONTROLS: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2",
    "UTF8-1-noctl = %x21 / %x22 / %x24-7F ; excluding control, space, \"#\"",
);
const GROUP: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2",
    "group = startgroupline *(startgroupline / emptyline) *(rule / emptyline)",
);
const RULE: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2",
    "rule = *WS (\"allow\" / \"disallow\") *WS \":\" *WS (path-pattern / empty-pattern) EOL",
);
const PATH_PATTERN: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2",
    "path-pattern = \"/\" *UTF8-char-noctl ; valid URI path pattern",
);
const TERMINATED: ProfileClause = text(
    Rfc,
    "RFC 9309 2.1",
    "The group is terminated by a user-agent line or end of file.",
);
const PRODUCT_TOKEN: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.1",
    "Crawlers set their own name, which is called a product token, to find relevant groups.",
);
const MATCHING_GROUP: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.1",
    "Crawlers MUST use case-insensitive matching to find the group that matches the product token",
);
const COMBINED: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.1",
    "If there is more than one group matching the user-agent, the matching groups' rules MUST be \
     combined into one group",
);
const STAR_GROUP: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.1",
    "If no matching group exists, crawlers MUST obey the group with a user-agent line with the \
     \"*\" value, if present.",
);
const NO_GROUP: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.1",
    "If no group matches the product token and there is no group with a user-agent line with the \
     \"*\" value, or no groups are present at all, no rules apply.",
);
const ALLOW_DISALLOW: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "These lines indicate whether accessing a URI that matches the corresponding path is allowed \
     or disallowed.",
);
const MATCH_THE_URI: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "a crawler MUST match the paths in \"allow\" and \"disallow\" rules against the URI",
);
const LONGEST: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "The most specific match found MUST be used. The most specific match is the match that has \
     the most octets.",
);
const IMPLICIT: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "The /robots.txt URI is implicitly allowed.",
);
const PERCENT: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "MUST be percent-encoded as defined by [RFC3986] prior to comparison.",
);
const OCTETS: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "The match evaluates positively if and only if the end of the path from the rule is reached \
     before a difference in octets is encountered.",
);
const OUTSIDE: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.2",
    "The crawler SHOULD ignore \"disallow\" and \"allow\" rules that are not in any group",
);
const WILDCARDS: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.3",
    "* Designates 0 or more instances of any character.",
);
const OTHER_RECORDS: ProfileClause = text(
    Rfc,
    "RFC 9309 2.2.4",
    "Parsing of other records MUST NOT interfere with the parsing of explicitly defined records",
);
const UTF8: ProfileClause = text(Rfc, "RFC 9309 2.3", "The file MUST be UTF-8 encoded");
const PARSEABLE: ProfileClause = text(
    Rfc,
    "RFC 9309 2.3.1.5",
    "Crawlers MUST try to parse each line of the robots.txt file. Crawlers MUST use the parseable \
     rules.",
);

impl Cause {
    /// The clause this cause comes from under `profile`, the profile the check is scored by;
    /// `None` for an adapter that gave no answer, which no text speaks of. A cause that can only
    /// arise under one profile (the implicit `/robots.txt`, an Allow rule deciding) gives that
    /// profile's clause.
    pub fn clause(self, profile: Profile) -> Option<ProfileClause> {
        use OpenPoint as P;
        let either = |old: ProfileClause, new: ProfileClause| match profile {
            N1994 => old,
            Rfc => new,
        };
        let clause = match self {
            Cause::RejectsNotUtf8
            | Cause::RejectsBody
            | Cause::RefusesQuery
            | Cause::Crashes
            | Cause::TimesOut
            | Cause::BreaksProtocol
            | Cause::Unstable => return None,
            Cause::CommentLineRead | Cause::CommentKeptInValue | Cause::CommentEndsAgentLines => {
                either(COMMENTS_1994, EOL)
            }
            Cause::FieldNameMatchedLoosely => either(UNRECOGNISED, OTHER_RECORDS),
            Cause::EncodedWildcardDecoded => either(PREFIX, PERCENT),
            Cause::SpaceBeforeColon => either(FIELD_FORM, RULE),
            Cause::MisspelledUserAgent | Cause::OtherFieldEndsAgentLines => {
                either(UNRECOGNISED, OTHER_RECORDS)
            }
            Cause::OtherLineBreaks => either(LINE_ENDS_1994, LINE_ENDS_9309),
            Cause::TabInValueDropped => either(PREFIX, OCTETS),
            Cause::EmptyQueryDropped | Cause::PathParamsDropped | Cause::QueryDropped => {
                either(PREFIX, MATCH_THE_URI)
            }
            Cause::StarInAgentName | Cause::PartOfTokenNamesRobot => {
                either(SUBSTRING, MATCHING_GROUP)
            }
            Cause::AllowIgnored => ALLOW_DISALLOW,
            Cause::FirstMatchWins | Cause::AllowRead => either(UNRECOGNISED, LONGEST),
            Cause::PercentDecoded | Cause::PercentNotDecoded => either(PREFIX, PERCENT),
            Cause::LoneCr => either(LINE_ENDS_1994, LINE_ENDS_9309),
            Cause::ByteOrderMark => match profile {
                N1994 => open(N1994, "Format", FIELD_FORM.quote, P::ByteOrderMark),
                Rfc => open(Rfc, UTF8.section, UTF8.quote, P::ByteOrderMark),
            },
            Cause::Nul => match profile {
                N1994 => LINE_ENDS_1994,
                Rfc => open(Rfc, NO_CONTROLS.section, NO_CONTROLS.quote, P::Nul),
            },
            Cause::NotUtf8 => match profile {
                N1994 => open(N1994, "Format", FIELD_FORM.quote, P::NotUtf8),
                Rfc => open(Rfc, UTF8.section, UTF8.quote, P::NotUtf8),
            },
            Cause::HtmlPage => either(FIELD_FORM, PARSEABLE),
            Cause::ImplicitRobotsTxt => IMPLICIT,
            Cause::WildcardDecides | Cause::WildcardRule => either(PREFIX, WILDCARDS),
            Cause::AllowDecides => ALLOW_DISALLOW,
            Cause::LongestMatch => LONGEST,
            Cause::PercentEncoding => either(PREFIX, PERCENT),
            Cause::AllowMatches => either(UNRECOGNISED, LONGEST),
            Cause::QueryString => either(PREFIX, MATCH_THE_URI),
            Cause::AgentVersion => match profile {
                N1994 => SUBSTRING,
                Rfc => open(
                    Rfc,
                    PRODUCT_TOKEN.section,
                    PRODUCT_TOKEN.quote,
                    P::ProductToken,
                ),
            },
            Cause::SeveralRecords(_) => COMBINED,
            Cause::OtherWhiteSpace | Cause::OtherWhiteSpaceTrimmed => match profile {
                N1994 => open(N1994, "Format", FIELD_FORM.quote, P::OtherWhiteSpace),
                Rfc => open(Rfc, WS.section, WS.quote, P::OtherWhiteSpace),
            },
            Cause::StarPassedOver(_) | Cause::StarRecord(_) => either(STAR_RECORD, STAR_GROUP),
            Cause::PartOfName => SUBSTRING,
            Cause::OtherField(_) => either(UNRECOGNISED, OTHER_RECORDS),
            Cause::BlankLine(_) => either(BLANK_LINES, GROUP),
            Cause::EmptyRule => either(EMPTY_DISALLOW, RULE),
            Cause::RuleNotAPath => match profile {
                N1994 => open(N1994, PREFIX.section, PREFIX.quote, P::ValueNotAPath),
                Rfc => open(
                    Rfc,
                    PATH_PATTERN.section,
                    PATH_PATTERN.quote,
                    P::PatternNotAPath,
                ),
            },
            Cause::RuleOutside(_) => match profile {
                N1994 => open(
                    N1994,
                    RECORD_STARTS.section,
                    RECORD_STARTS.quote,
                    P::DisallowOutsideRecord,
                ),
                Rfc => OUTSIDE,
            },
            Cause::DotSegments => either(PREFIX, OCTETS),
            Cause::UserAgentAfterRule(_) => match profile {
                N1994 => open(
                    N1994,
                    RECORD_STARTS.section,
                    RECORD_STARTS.quote,
                    P::UserAgentAfterDisallow,
                ),
                Rfc => TERMINATED,
            },
            Cause::NamedRecord(_) => either(ROBOT_NAME, MATCHING_GROUP),
            Cause::NoRecord(_) => either(ROBOT_NAME, NO_GROUP),
        };
        Some(clause)
    }
}
