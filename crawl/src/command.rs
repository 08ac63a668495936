//! The command line that starts a crawler, with `{url}`, `{agent}`, `{timeout}` and `{workdir}`
//! filled in: in each argument of a carried crawler's `run` list as they are, or in a
//! `--crawler-cmd` line shell-quoted, which `sh -c` then runs.

use std::path::Path;

/// A crawler's command, before a case fills it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandTemplate {
    /// An argv list (a manifest's `run`), each argument filled in as it is.
    Argv(Vec<String>),
    /// A shell command line (`--crawler-cmd`), each value shell-quoted.
    Shell(String),
}

impl CommandTemplate {
    /// The argv that starts the crawler on `url`.
    pub fn argv(&self, url: &str, agent: &str, timeout: u32, workdir: &Path) -> Vec<String> {
        let workdir = workdir.to_string_lossy();
        let timeout = timeout.to_string();
        let values = [
            ("{url}", url),
            ("{agent}", agent),
            ("{timeout}", timeout.as_str()),
            ("{workdir}", &workdir),
        ];
        match self {
            CommandTemplate::Argv(args) => args
                .iter()
                .map(|arg| fill(arg, &values, |v| v.to_owned()))
                .collect(),
            CommandTemplate::Shell(line) => {
                let quote = |v: &str| {
                    shlex::try_quote(v).map_or_else(|_| "''".to_owned(), |q| q.into_owned())
                };
                vec!["sh".to_owned(), "-c".to_owned(), fill(line, &values, quote)]
            }
        }
    }
}

/// `template` with each placeholder replaced by its value through `quote`, in one pass (a value
/// holding `{agent}` is not filled in again).
fn fill(template: &str, values: &[(&str, &str)], quote: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = template;
    'scan: while !rest.is_empty() {
        for (placeholder, value) in values {
            if let Some(after) = rest.strip_prefix(placeholder) {
                out.push_str(&quote(value));
                rest = after;
                continue 'scan;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_line_gets_its_values_quoted_once() {
        let template =
            CommandTemplate::Shell("crawl --ua {agent} --dir {workdir} {url}".to_owned());
        let argv = template.argv(
            "http://127.0.0.1:1/",
            "Bot {url} $(x)",
            3,
            Path::new("/tmp/a b"),
        );
        assert_eq!(argv[..2], ["sh", "-c"]);
        assert_eq!(
            argv[2],
            "crawl --ua 'Bot {url} $(x)' --dir '/tmp/a b' http://127.0.0.1:1/"
        );
    }

    #[test]
    fn an_argv_gets_its_values_as_they_are() {
        let template = CommandTemplate::Argv(vec![
            "w".into(),
            "--timeout={timeout}".into(),
            "{url}".into(),
        ]);
        let argv = template.argv("http://h/", "A", 7, Path::new("/w"));
        assert_eq!(argv, ["w", "--timeout=7", "http://h/"]);
    }
}
