//! The forms of a robot's name that adapters are handed (`adapters/PROTOCOL.md`, "2. Checks").
//!
//! A check gives the agent as the robot gives it (`FooBot/2.1`, `MJ12bot`, a browser-style
//! string). Parsers' APIs take one of three forms of it, and an adapter's manifest says which
//! ([`AgentForm`]); every query carries all three, each derived by one rule stated here, and the
//! harness shows in every failure block which form an adapter was handed, so that a convention
//! problem is visible at first sight rather than passing for a parser's bug.

use serde::{Deserialize, Serialize};

/// Which form of the robot's name an adapter passes its parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AgentForm {
    /// The query's `agent`, as the robot gives it (`FooBot/2.1`).
    AsGiven,
    /// The query's `product_token` (`FooBot`), for an API documented to take the crawler's
    /// product token (the Google-family matchers).
    ProductToken,
    /// The query's `name` (`FooBot`), for an API documented to take the robot's bare name without
    /// its version (crawler-commons).
    Name,
}

impl AgentForm {
    /// What an adapter of this form hands its parser for `agent`.
    pub fn handed(self, agent: &str) -> &str {
        match self {
            AgentForm::AsGiven => agent,
            AgentForm::ProductToken => product_token(agent),
            AgentForm::Name => robot_name(agent),
        }
    }

    /// The manifest's spelling (`as-given`, `product-token`, `name`).
    pub fn as_str(self) -> &'static str {
        match self {
            AgentForm::AsGiven => "as-given",
            AgentForm::ProductToken => "product-token",
            AgentForm::Name => "name",
        }
    }
}

/// The agent's product token: its leading product as HTTP writes one (RFC 9110 §10.1.5,
/// `product = token ["/" product-version]`), which is what RFC 9309 §2.2.1 calls the crawler's
/// product token, read as the reference reads an agent under `rfc9309`: leading SP/HT skipped,
/// then the leading run of HTTP token characters (digits included), a letter or digit outside
/// ASCII continuing it. `FooBot/2.1` gives `FooBot`, `MJ12bot/v1.4` gives `MJ12bot`,
/// `Jävla-Foobot` stays whole, and `Mozilla/5.0 (compatible; FooBot/2.1)` gives `Mozilla`.
/// (`robotstxt-suite` holds this rule to the reference's own.)
pub fn product_token(agent: &str) -> &str {
    let agent = agent.trim_start_matches([' ', '\t']);
    let end = agent
        .find(|c: char| !(is_token_char(c) || (!c.is_ascii() && c.is_alphanumeric())))
        .unwrap_or(agent.len());
    &agent[..end]
}

/// HTTP's `tchar` (RFC 9110 §5.6.2).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The robot's name without version information, as the 1994 text has a robot match records:
/// the agent up to its first `/` or white space (SP, HT), leading white space skipped, case kept
/// (the parser folds case, not the harness). `FooBot/2.1` gives `FooBot`, `MJ12bot` stays
/// `MJ12bot`, `5emeRue` stays `5emeRue`.
pub fn robot_name(agent: &str) -> &str {
    let agent = agent.trim_start_matches([' ', '\t']);
    let end = agent.find(['/', ' ', '\t']).unwrap_or(agent.len());
    &agent[..end]
}

/// Whether `agent` is a product token as RFC 9309 §2.2.1 allows one: "only uppercase and
/// lowercase letters ("a-z" and "A-Z"), underscores ("_"), and hyphens ("-")".
pub fn is_product_token(agent: &str) -> bool {
    !agent.is_empty()
        && agent
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_form_drops_a_digit_or_a_letter_outside_ascii() {
        for (agent, token, name) in [
            ("FooBot", "FooBot", "FooBot"),
            ("FooBot/2.1", "FooBot", "FooBot"),
            ("MJ12bot", "MJ12bot", "MJ12bot"),
            ("bot149", "bot149", "bot149"),
            ("5emeRue", "5emeRue", "5emeRue"),
            ("Jävla-Foobot", "Jävla-Foobot", "Jävla-Foobot"),
            ("foo_bot-x 1.0", "foo_bot-x", "foo_bot-x"),
            (" FooBot/1", "FooBot", "FooBot"),
            ("Mozilla/5.0 (compatible; FooBot/2.1)", "Mozilla", "Mozilla"),
            // Where HTTP's token ends before the name does.
            ("Foo;Bot/1.0", "Foo", "Foo;Bot"),
        ] {
            assert_eq!(product_token(agent), token, "{agent}");
            assert_eq!(robot_name(agent), name, "{agent}");
            assert_eq!(AgentForm::ProductToken.handed(agent), token);
            assert_eq!(AgentForm::Name.handed(agent), name);
            assert_eq!(AgentForm::AsGiven.handed(agent), agent);
        }
    }

    #[test]
    fn a_product_token_holds_letters_underscores_and_hyphens_only() {
        for (agent, is) in [
            ("FooBot", true),
            ("Foo_Bot-x", true),
            ("FooBot/2.1", false),
            ("MJ12bot", false),
            ("jävla-fanbot", false),
            ("", false),
        ] {
            assert_eq!(is_product_token(agent), is, "{agent}");
        }
    }
}
