//! Whether a survey names the sites it quotes (`--hosts named`, the default) or not (`--hosts
//! hidden`).
//!
//! Hidden, every file name that names a host (a corpus file is named by its host; a census body
//! by its robots.txt URL) becomes `site-` and the first 12 hex digits of the SHA-256 of that name,
//! and every place the host's name appears in an excerpt is replaced by the same token. The hash
//! is stable (the same name gives the same token in every survey, so two surveys can be compared)
//! and salted by nothing secret: it keeps a name from being read off the page, not from someone
//! who guesses the name and hashes it. The lines quoted from a file may still name other sites
//! (a Sitemap URL of another host, a comment).
//!
//! Applied to the survey as written, after any merge: the examples were chosen by the real names.

use sha2::{Digest, Sha256};

use super::Survey;

/// How a survey's pages name the sites they quote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HostNames {
    /// By their host names, as the corpus names them.
    #[default]
    Named,
    /// By a stable token: see the module docs.
    Hidden,
}

/// The token that stands for `name`.
pub fn token(name: &str) -> String {
    let digest = Sha256::digest(name.as_bytes());
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("site-{hex}")
}

/// The host a file's name names: the authority of a URL, else the last part of a path.
fn host_of(name: &str) -> &str {
    match name.split_once("://") {
        Some((_, rest)) => rest.split(['/', '?', '#']).next().unwrap_or(rest),
        None => name.rsplit(['/', '\\']).next().unwrap_or(name),
    }
}

/// Replaces every site's name in `survey` by its token, as [`HostNames::Hidden`] says.
pub fn hide_hosts(survey: &mut Survey) {
    for oversized in &mut survey.oversized {
        oversized.name = token(host_of(&oversized.name));
    }
    if let Some(census) = &mut survey.census {
        for example in &mut census.fault_examples {
            if let Some(target) = &mut example.fault.target {
                *target = token(host_of(target));
            }
        }
    }
    for adapter in &mut survey.adapters {
        for signature in &mut adapter.signatures {
            let example = &mut signature.example;
            let host = host_of(&example.file).to_owned();
            let hidden = token(&host);
            if !host.is_empty() {
                for line in &mut example.lines {
                    *line = line.replace(&host, &hidden);
                }
            }
            example.file = hidden;
        }
        for served in &mut adapter.served {
            served.body = token(host_of(&served.body));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_found_and_hashed_stably() {
        assert_eq!(host_of("realworld/files/500apps.com"), "500apps.com");
        assert_eq!(
            host_of("https://a.example:8443/robots.txt"),
            "a.example:8443"
        );
        assert_eq!(token("500apps.com"), token("500apps.com"));
        assert_ne!(token("500apps.com"), token("500apps.org"));
        assert_eq!(token("x").len(), "site-".len() + 12);
    }
}
