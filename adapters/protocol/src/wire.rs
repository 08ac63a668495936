//! Every message of protocol v1 (`adapters/PROTOCOL.md`) as a Rust type: what the harness sends
//! ([`Request`]: hello, check, stop) and what an adapter answers ([`Handshake`],
//! [`UnsupportedProtocol`], [`CheckReply`]: results or a refusal). The harness encodes and
//! decodes through these types, the adapter kit ([`mod@crate::serve`]) speaks them, and
//! `adapters/protocol.schema.json` is generated from them (the `schema` feature).
//!
//! Decoding is as lenient as the harness has always been with a run: a field the protocol does
//! not name is passed over, and an `error` that is not a string is kept as its JSON text. What
//! the protocol admits exactly is what encoding these types gives back; `adapters check` holds an
//! adapter to that.

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::agents::{product_token, robot_name};
use crate::text::{is_control_or_bidi, Outside};

/// The protocol version these types describe.
pub const PROTOCOL_VERSION: u32 = 1;

/// The origin of every query's full URL (`url`).
pub const ORIGIN: &str = "http://example.com";

/// Every profile a parser may claim: one the reference implements, or `other` for a parser that
/// follows neither text (it is scored under each, and claims no ranking).
pub const CLAIMABLE_PROFILES: [&str; 3] = ["norobots-1994", "rfc9309", "other"];

/// A message from the harness to an adapter: one line, told apart by its `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Request<'a> {
    /// Harness to adapter, first: which protocol version the harness speaks (1. Handshake).
    Hello {
        #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
        protocol: u32,
    },
    /// Harness to adapter: one robots.txt body and the queries about it (2. Checks).
    Check(#[serde(borrow)] CheckRequest<'a>),
    /// Harness to adapter: exit with status 0 without answering (3. Stop).
    Stop,
}

impl Request<'_> {
    /// The `hello` of the protocol version these types describe.
    pub const HELLO: Request<'static> = Request::Hello {
        protocol: PROTOCOL_VERSION,
    };
}

/// One robots.txt body and the queries about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckRequest<'a> {
    /// Opaque; echoed in the answer.
    #[serde(borrow)]
    pub id: Cow<'a, str>,
    /// The exact bytes of the body, standard base64 with padding.
    #[serde(rename = "robots_b64", with = "base64_body")]
    #[cfg_attr(
        feature = "schema",
        schemars(
            with = "String",
            regex(pattern = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"),
            extend("contentEncoding" = "base64")
        )
    )]
    pub robots: Cow<'a, [u8]>,
    /// The questions about that one body, answered in this order.
    #[serde(borrow)]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub queries: Vec<Query<'a>>,
}

/// One question about the body: may this robot fetch this URL?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Query<'a> {
    /// The robot's name as given; it may carry a version or be a browser-style string.
    #[serde(borrow)]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub agent: Cow<'a, str>,
    /// The agent's product token: its leading product as HTTP writes one (`product = token
    /// ["/" product-version]`), as the reference reads an agent under rfc9309: the leading run
    /// of HTTP token characters, digits included, a letter or digit outside ASCII continuing it.
    /// `FooBot/2.1` gives `FooBot`, `MJ12bot` stays `MJ12bot`.
    #[serde(borrow)]
    #[cfg_attr(
        feature = "schema",
        schemars(regex(pattern = r"^[-!#$%&'*+.^_`|~0-9A-Za-z\u0080-\uffff]*$"))
    )]
    pub product_token: Cow<'a, str>,
    /// The robot's name without version information: `agent` up to its first `/` or white
    /// space, case kept. `FooBot/2.1` gives `FooBot`.
    #[serde(borrow)]
    #[cfg_attr(feature = "schema", schemars(regex(pattern = r"^[^/\u0009\u0020]*$")))]
    pub name: Cow<'a, str>,
    /// The local URL: starts with `/`, may carry `?query`.
    #[serde(borrow)]
    #[cfg_attr(
        feature = "schema",
        schemars(regex(pattern = r"^/[^\u0000-\u0020\u007f]*$"))
    )]
    pub path: Cow<'a, str>,
    /// `path` on `http://example.com`.
    #[serde(borrow)]
    #[cfg_attr(
        feature = "schema",
        schemars(regex(pattern = r"^http://example\.com/[^\u0000-\u0020\u007f]*$"))
    )]
    pub url: Cow<'a, str>,
}

impl<'a> Query<'a> {
    /// The query for `agent` and the local URL `path`, its other fields derived by the
    /// protocol's rules: the product token and the bare name of `agent`, and `path` on
    /// [`ORIGIN`].
    pub fn new(agent: &'a str, path: &'a str) -> Query<'a> {
        Query {
            agent: Cow::Borrowed(agent),
            product_token: Cow::Borrowed(product_token(agent)),
            name: Cow::Borrowed(robot_name(agent)),
            path: Cow::Borrowed(path),
            url: Cow::Owned(format!("{ORIGIN}{path}")),
        }
    }
}

/// Adapter to harness, the answer to hello: what the adapter wraps (1. Handshake).
// Every field is outside text: shown made visible, read exactly with `Outside::raw` (the doc
// comment above is the schema's description, so this note is not part of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Handshake {
    /// The adapter's name: its folder's name under adapters/.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub name: Outside,
    /// The parser's package or module name.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub parser: Outside,
    /// The parser's version as the package reports it at run time.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub version: Outside,
    /// The language the parser is written in or used from.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub language: Outside,
    /// Where a person reads about the parser.
    pub homepage: Outside,
    /// What the parser claims to implement.
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::profile"))]
    pub profile: Outside,
}

impl Handshake {
    /// Why the claimed profile is not one a parser may claim (`rfc-9309`, a typo, must not be
    /// scored silently as a parser that claims nothing).
    pub fn profile_problem(&self) -> Option<String> {
        (!CLAIMABLE_PROFILES.contains(&self.profile.raw())).then(|| {
            format!(
                "profile `{}` is not one of {}",
                self.profile,
                CLAIMABLE_PROFILES.join(", ")
            )
        })
    }

    /// The fields holding a control character or a bidirectional control: every field is one
    /// line of plain text. Shown, such a character would be made visible (the fields are
    /// [`Outside`]), but a name or a version that needs it is no name to file results under, so
    /// the handshake is refused.
    pub fn hidden_characters(&self) -> Option<String> {
        let fields = [
            ("name", &self.name),
            ("parser", &self.parser),
            ("version", &self.version),
            ("language", &self.language),
            ("homepage", &self.homepage),
            ("profile", &self.profile),
        ];
        let named: Vec<String> = (fields.iter())
            .filter(|(_, value)| value.raw().chars().any(is_control_or_bidi))
            .map(|(field, _)| format!("`{field}`"))
            .collect();
        (!named.is_empty()).then(|| {
            format!(
                "{} {} a control or bidirectional character",
                named.join(", "),
                if named.len() == 1 { "holds" } else { "hold" }
            )
        })
    }

    /// Everything the protocol asks of a handshake's values that its fields' types do not say:
    /// no field empty but `homepage`, no control or bidirectional character, and a claimable
    /// profile. A run holds an adapter to its profile and its characters only
    /// ([`Handshake::profile_problem`], [`Handshake::hidden_characters`]); `adapters check` to
    /// all of it.
    pub fn problems(&self) -> Vec<String> {
        let required = [
            ("name", &self.name),
            ("parser", &self.parser),
            ("version", &self.version),
            ("language", &self.language),
        ];
        let mut problems: Vec<String> = required
            .iter()
            .filter(|(_, value)| value.raw().trim().is_empty())
            .map(|(field, _)| format!("`{field}` is empty"))
            .collect();
        problems.extend(self.hidden_characters());
        problems.extend(self.profile_problem());
        problems
    }
}

/// Adapter to harness, the answer to a hello of another protocol version; the adapter then exits
/// (1. Handshake).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UnsupportedProtocol {
    /// `unsupported protocol N`.
    #[cfg_attr(
        feature = "schema",
        schemars(regex(pattern = "^unsupported protocol "))
    )]
    pub error: String,
}

impl UnsupportedProtocol {
    /// The answer to a hello of `protocol`.
    pub fn new(protocol: impl fmt::Display) -> UnsupportedProtocol {
        UnsupportedProtocol {
            error: format!("unsupported protocol {protocol}"),
        }
    }
}

/// A parser's answer to one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allowed,
    Disallowed,
}

impl Verdict {
    /// `Allowed` when `allowed`, as most parsers' APIs answer.
    pub fn from_allowed(allowed: bool) -> Verdict {
        if allowed {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        }
    }
}

/// Adapter to harness: the answer to a check (2. Checks). Encoded as one of two messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum CheckReply<'a> {
    /// Adapter to harness: one result per query, in query order: a verdict, or an object saying
    /// why the parser (or the adapter's URL building) refused that query (2. Checks).
    Results {
        id: Cow<'a, str>,
        results: Vec<Answer>,
    },
    /// Adapter to harness: the parser itself refused the body (2. Checks).
    Refusal {
        id: Cow<'a, str>,
        /// What the parser said.
        error: String,
    },
}

impl CheckReply<'_> {
    /// The `id` the answer echoes.
    pub fn id(&self) -> &str {
        match self {
            CheckReply::Results { id, .. } | CheckReply::Refusal { id, .. } => id,
        }
    }
}

/// The answer to one query: a verdict, or why that query was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Answer {
    Verdict(Verdict),
    Refused {
        /// Why the query was refused.
        error: String,
    },
}

impl From<Result<Verdict, Refusal>> for Answer {
    fn from(answer: Result<Verdict, Refusal>) -> Answer {
        match answer {
            Ok(verdict) => Answer::Verdict(verdict),
            Err(Refusal(error)) => Answer::Refused { error },
        }
    }
}

/// Why a parser refused a query or a whole body, in its own words: the text a refusal's `error`
/// carries to the harness (2. Checks). `?` turns a `String` or a `&str` into one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl From<String> for Refusal {
    fn from(text: String) -> Refusal {
        Refusal(text)
    }
}

impl From<&str> for Refusal {
    fn from(text: &str) -> Refusal {
        Refusal(text.to_owned())
    }
}

/// Why a line is not the answer to the check that was sent.
#[derive(Debug, thiserror::Error)]
pub enum ReplyError {
    #[error("not JSON ({0})")]
    NotJson(serde_json::Error),
    #[error("not a JSON object")]
    NotAnObject,
    #[error("not an answer to a check ({0})")]
    Invalid(serde_json::Error),
    #[error("expected id {expected:?}, got {got:?}")]
    WrongId { expected: String, got: String },
    #[error("{got} results for {expected} queries")]
    WrongCount { got: usize, expected: usize },
}

impl<'a> CheckReply<'a> {
    /// Decodes `line` as the answer to the check `id` of `queries` queries: the id echoed, one
    /// result per query.
    pub fn decode(line: &'a [u8], id: &str, queries: usize) -> Result<CheckReply<'a>, ReplyError> {
        let reply: CheckReply = serde_json::from_slice(line).map_err(|e| match e.classify() {
            serde_json::error::Category::Data if !starts_an_object(line) => ReplyError::NotAnObject,
            serde_json::error::Category::Data => ReplyError::Invalid(e),
            _ => ReplyError::NotJson(e),
        })?;
        if reply.id() != id {
            return Err(ReplyError::WrongId {
                expected: id.to_owned(),
                got: reply.id().to_owned(),
            });
        }
        match &reply {
            CheckReply::Results { results, .. } if results.len() != queries => {
                Err(ReplyError::WrongCount {
                    got: results.len(),
                    expected: queries,
                })
            }
            _ => Ok(reply),
        }
    }
}

fn starts_an_object(line: &[u8]) -> bool {
    line.trim_ascii_start().starts_with(b"{")
}

/// Read in one pass: `id`, then `results` or `error` (`error` wins when both are there, as the
/// harness has always read them); any other field is passed over.
impl<'de: 'a, 'a> Deserialize<'de> for CheckReply<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(expecting = "a JSON object")]
        struct Envelope<'a> {
            #[serde(borrow)]
            id: Cow<'a, str>,
            results: Option<Vec<Answer>>,
            #[serde(default, deserialize_with = "any_error_text")]
            error: Option<String>,
        }
        let envelope = Envelope::deserialize(deserializer)?;
        match (envelope.error, envelope.results) {
            (Some(error), _) => Ok(CheckReply::Refusal {
                id: envelope.id,
                error,
            }),
            (None, Some(results)) => Ok(CheckReply::Results {
                id: envelope.id,
                results,
            }),
            (None, None) => Err(de::Error::custom("neither `results` nor `error`")),
        }
    }
}

/// `"allowed"`, `"disallowed"`, or an object holding `error` alone.
impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AnswerVisitor;

        const EXPECTED: &str = r#""allowed", "disallowed" or {"error": ...}"#;

        impl<'de> Visitor<'de> for AnswerVisitor {
            type Value = Answer;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECTED)
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Answer, E> {
                match text {
                    "allowed" => Ok(Answer::Verdict(Verdict::Allowed)),
                    "disallowed" => Ok(Answer::Verdict(Verdict::Disallowed)),
                    other => Err(E::custom(format!("result {other:?} is not {EXPECTED}"))),
                }
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Answer, M::Error> {
                let mut error = None;
                let mut others = 0;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if key == "error" && error.is_none() {
                        error = Some(map.next_value::<AnyErrorText>()?.0);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                        others += 1;
                    }
                }
                match error {
                    Some(error) if others == 0 => Ok(Answer::Refused { error }),
                    _ => Err(de::Error::custom(format!(
                        "a result object holds `error` and nothing else: {EXPECTED}"
                    ))),
                }
            }
        }

        deserializer.deserialize_any(AnswerVisitor)
    }
}

/// An error text: a string, or any other JSON value taken as its JSON text (PROTOCOL.md,
/// "Limits").
struct AnyErrorText(String);

impl<'de> Deserialize<'de> for AnyErrorText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(AnyErrorText(
            match serde_json::Value::deserialize(deserializer)? {
                serde_json::Value::String(text) => text,
                other => other.to_string(),
            },
        ))
    }
}

fn any_error_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(Some(AnyErrorText::deserialize(deserializer)?.0))
}

/// A body on the wire: standard base64 with padding, written straight into the message as it is
/// encoded (no base64 string is built first: the harness encodes every body of a survey).
mod base64_body {
    use super::*;

    const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

    pub fn serialize<S: Serializer>(body: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&base64::display::Base64Display::new(body, &BASE64))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Cow<'de, [u8]>, D::Error> {
        deserializer.deserialize_str(Base64Visitor)
    }

    /// Decodes the text where it lies, borrowed or not: a body can be megabytes.
    struct Base64Visitor;

    impl Visitor<'_> for Base64Visitor {
        type Value = Cow<'static, [u8]>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a body in standard base64")
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
            BASE64
                .decode(text)
                .map(Cow::Owned)
                .map_err(|e| E::custom(format!("robots_b64: {e}")))
        }
    }
}

#[cfg(test)]
mod tests;
