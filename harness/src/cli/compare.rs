//! `robotstxt-test compare`: one robots.txt asked of every parser, side by side with the reference.

use std::path::PathBuf;

use robotstxt_runtime::adapter;
use robotstxt_suite::engine::{check_agent, Query};
use robotstxt_suite::local_url;
use robotstxt_suite::visible::json_escaped;
use robotstxt_test::compare::{render, Comparison, Mark};

use super::check::read_body;
use super::error::print;
use super::select::AdapterArgs;
use super::{Error, Exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// An aligned table, the reference's explanations and where adapters differ.
    Human,
    /// One JSON document.
    Json,
    /// The same as Markdown, for a bug report or a CI job summary.
    Markdown,
}

/// How will different parsers read this robots.txt? One table: a row per query (agent × path), a
/// column per adapter.
///
/// Each answer is judged against the reference under the profile its adapter claims: a cell that
/// differs is marked `✗`, and one whose decision rests on a point that profile leaves open is
/// marked `~` (not scored). Under the table: the reference's explanation under both profiles,
/// and for each differing cell the open point or the clause involved.
///
/// Exit codes: 0 every scored cell agrees; 1 one differs; 2 usage or input error; 3 an adapter
/// unavailable or broken.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("where").required(true).multiple(true).args(["paths", "urls"])))]
pub struct Args {
    /// The robots.txt file (`-` reads standard input).
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// A local URL to ask about: a path starting with `/`, with an optional `?query`. Repeatable.
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A full URL to ask about; its path and query are asked, as `run` asks a case's path.
    /// Repeatable.
    #[arg(long = "url", value_name = "URL")]
    urls: Vec<String>,
    /// The robot's name, as the robot gives it. Repeatable. Default: `FooBot`.
    #[arg(long = "agent", value_name = "NAME")]
    agents: Vec<String>,
    #[arg(long, value_enum, default_value_t = CompareFormat::Human)]
    format: CompareFormat,
    /// Adapters to ask (default: every adapter already installed; the others are named with the
    /// command that installs them).
    #[command(flatten)]
    select: AdapterArgs,
}

pub fn execute(mut args: Args) -> Result<Exit, Error> {
    let queries = queries(&args)?;
    let body = read_body(&args.robots)?;
    if !args.select.any() {
        // Installed adapters only: installing every toolchain behind the user's back takes a
        // fresh cache twenty minutes. What is left out is named, with the command that adds it.
        let (ready, missing) = args.select.installed()?;
        if !missing.is_empty() {
            eprint!("{}", install_hint(ready.len(), &missing));
        }
        args.select.adapters = ready;
    }
    let opened = args.select.open_with_dirs(true)?;
    let hints: Vec<Option<String>> = opened.iter().map(|o| o.check_hint.clone()).collect();
    let mut engines: Vec<_> = opened.into_iter().map(|o| o.engine).collect();
    if engines.is_empty() {
        // `all` left out every adapter this machine cannot run, and that was every one.
        return Err(Error::Adapter(format!(
            "no adapter to compare in {}",
            args.select.source()?.shown
        )));
    }
    let comparison = Comparison::new(&body, queries, &mut engines);
    adapter::stop_all(engines);
    print(&match args.format {
        // Every line fits a terminal of 120 columns.
        CompareFormat::Human => {
            robotstxt_test::output::fit::block(&render::human(&comparison), None)
        }
        CompareFormat::Markdown => render::markdown(&comparison),
        CompareFormat::Json => {
            let json = serde_json::to_string_pretty(&render::json(&comparison));
            json_escaped(json.map_err(|e| Error::Stdout(e.into()))?) + "\n"
        }
    })?;
    // What to try for an adapter that gave no answer, on stderr, as `run` says it: one that
    // never started is installed again; one that broke on a query is checked step by step.
    for (column, hint) in comparison.columns.iter().zip(&hints) {
        let name = &column.handshake.name;
        if column.unavailable.is_some() && hint.is_some() {
            eprintln!("{name}: {}", super::run::next_step(&column.handshake));
        } else if let Some(hint) = hint
            .as_ref()
            .filter(|_| column.cells.iter().any(|c| c.mark == Mark::Broken))
        {
            eprintln!("{name}: {hint}");
        }
    }
    let tally = comparison.tally();
    Ok(if tally.broken > 0 {
        Exit::Unavailable
    } else if tally.differ > 0 {
        Exit::Failures
    } else {
        Exit::Ok
    })
}

/// Every agent with every path, in the order given (`--path`s, then `--url`s).
fn queries(args: &Args) -> Result<Vec<Query>, Error> {
    let mut paths = Vec::new();
    for path in &args.paths {
        local_url::check_local(path).map_err(|e| Error::flag("--path", e))?;
        paths.push(path.clone());
    }
    for url in &args.urls {
        paths.push(local_url::from_full_url(url).map_err(|e| Error::flag("--url", e))?);
    }
    let agents = if args.agents.is_empty() {
        vec!["FooBot".to_owned()]
    } else {
        args.agents.clone()
    };
    for agent in &agents {
        check_agent(agent).map_err(|e| Error::flag("--agent", e))?;
    }
    Ok(agents
        .iter()
        .flat_map(|agent| {
            paths.iter().map(|path| Query {
                agent: agent.clone(),
                path: path.clone(),
            })
        })
        .collect())
}

/// What `compare` says when adapters are left out because they are not installed: the command
/// that installs them on lines of its own, continued with `\` so that it pastes whole, every
/// line within 120 columns.
fn install_hint(ready: usize, missing: &[String]) -> String {
    let command: Vec<String> = (["robotstxt-test", "adapters", "install"].into_iter())
        .map(str::to_owned)
        .chain(missing.iter().cloned())
        .collect();
    let wrapped = robotstxt_test::output::grouped::wrapped("  ", &command);
    let lines: Vec<String> = (wrapped.lines())
        .map(|l| l.replace(", ", " ").trim_end_matches(',').to_owned())
        .collect();
    format!(
        "compare: asking the {ready} installed {}; {} more can be installed (or name one with \
         --adapter NAME,\nwhich installs it):\n{}\n",
        if ready == 1 { "adapter" } else { "adapters" },
        missing.len(),
        lines.join(" \\\n")
    )
}

#[cfg(test)]
mod tests {
    use super::install_hint;

    #[test]
    fn the_install_hint_fits_120_columns_and_pastes_whole() {
        let missing: Vec<String> = (0..30).map(|i| format!("some-adapter-name-{i}")).collect();
        let hint = install_hint(3, &missing);
        assert!(hint.lines().all(|l| l.chars().count() <= 120), "{hint}");
        let command: String = (hint.lines().skip(2))
            .map(|l| l.trim_end_matches('\\').trim())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(command.starts_with("robotstxt-test adapters install some-adapter-name-0 "));
        assert!(command.ends_with(" some-adapter-name-29"), "{command}");
        assert_eq!(command.split(' ').count(), 33, "{command}");
    }
}
