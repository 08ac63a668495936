//! `robotstxt-test check`: one question to the reference, answered with its explanation.

use std::path::{Path, PathBuf};

use robotstxt_reference::lines::{self, LineKind};
use robotstxt_reference::{Profile, Robots};
use robotstxt_suite::engine::check_agent;
use robotstxt_suite::input;
use robotstxt_suite::limits::MAX_ROBOTS_FILE;
use robotstxt_suite::local_url;
use robotstxt_suite::visible::{is_control_or_bidi, shown};

use super::error::print;
use super::{parse_profile, Error, Exit};

/// Ask the reference whether an agent may fetch a path, and why.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The robots.txt file (`-` reads standard input).
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// The robot's name, as the robot gives it (`FooBot`, `FooBot/2.1`).
    #[arg(long, value_name = "NAME")]
    agent: String,
    /// The local URL (a path starting with `/`, with an optional `?query`), or a full URL, whose
    /// path and query are asked about exactly as written, as `run` gives them to adapters.
    #[arg(long, value_name = "PATH|URL")]
    path: String,
    /// The text to decide by: `norobots-1994` (the 1994 "A Standard for Robot Exclusion":
    /// User-agent and Disallow, plain prefixes) or `rfc9309` (RFC 9309: Allow, `*` and `$`, the
    /// longest match). Lines the chosen one does not read are named under the answer.
    #[arg(long, value_name = "PROFILE", default_value = "norobots-1994", value_parser = parse_profile)]
    profile: Profile,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    // As `compare` and the corpus hold them: a line feed in either would forge a line of the
    // explanation, which quotes both.
    check_agent(&args.agent).map_err(|e| Error::flag("--agent", e))?;
    if args.path.chars().any(is_control_or_bidi) {
        return Err(Error::usage(format!(
            "--path {:?} holds a control or bidirectional character; percent-encode it",
            args.path
        )));
    }
    let path = local_path(&args.path).map_err(|e| Error::flag("--path", e))?;
    let body = read_body(&args.robots)?;
    let decision = Robots::parse(args.profile, &body).decide(&args.agent, &path);
    // The explanation quotes the file's lines: its control bytes are shown, not obeyed.
    let mut out = format!(
        "{}\n{}\n",
        decision.verdict,
        shown(&decision.explanation.to_string())
    );
    for note in not_read(args.profile, &body) {
        out.push_str(&format!("note: {}\n", shown(&note)));
    }
    print(&out)?;
    Ok(Exit::Ok)
}

/// What the chosen profile does not read as the other one does, line by line: under
/// norobots-1994 an `Allow` line (the 1994 text knows only User-agent and Disallow) and a `*` or
/// `$` in a Disallow value (a plain character there, a wildcard under RFC 9309). A reader who
/// wrote those for RFC 9309 learns why the answer ignores them.
fn not_read(profile: Profile, body: &[u8]) -> Vec<String> {
    if profile != Profile::Norobots1994 {
        return Vec::new();
    }
    let mut notes = Vec::new();
    for line in lines::lines(body) {
        let LineKind::Field { name, value } = line.kind else {
            continue;
        };
        let n = line.number;
        if lines::field_is(name, "allow") {
            notes.push(format!(
                "line {n}, Allow, is not part of norobots-1994; --profile rfc9309 reads it"
            ));
        } else if lines::field_is(name, "disallow") {
            let special: Vec<String> = (value.iter())
                .filter(|b| matches!(b, b'*' | b'$'))
                .map(|&b| format!("`{}`", b as char))
                .fold(Vec::new(), |mut seen, c| {
                    if !seen.contains(&c) {
                        seen.push(c);
                    }
                    seen
                });
            if !special.is_empty() {
                let readings: Vec<&str> = (special.iter())
                    .map(|c| match c.as_str() {
                        "`*`" => "`*` as any characters",
                        _ => "`$` as the end of the path",
                    })
                    .collect();
                notes.push(format!(
                    "line {n}, Disallow: {} {} a plain character under norobots-1994; \
                     --profile rfc9309 reads {}",
                    special.join(" and "),
                    if special.len() == 1 { "is" } else { "are each" },
                    readings.join(" and ")
                ));
            }
        }
    }
    notes
}

/// The local URL `--path` asks about: itself when it starts with `/` (any bytes: the reference
/// answers for any path), else a full URL's path and query.
fn local_path(given: &str) -> Result<String, local_url::FullUrlError> {
    if given.starts_with('/') {
        Ok(given.to_owned())
    } else {
        local_url::from_full_url(given)
    }
}

/// Reads a file's bytes exactly, through the one reader: a regular file of at most
/// [`MAX_ROBOTS_FILE`] bytes; `-` is standard input, read up to the same cap.
pub fn read_body(path: &Path) -> Result<Vec<u8>, Error> {
    let result = if path.as_os_str() == "-" {
        input::read_capped(std::io::stdin().lock(), MAX_ROBOTS_FILE)
    } else {
        input::read_bytes(path, MAX_ROBOTS_FILE)
    };
    result.map_err(|e| Error::unreadable(path)(e.into()))
}
