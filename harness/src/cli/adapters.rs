//! `robotstxt-test adapters`: list the adapters and install what they need.

use robotstxt_suite::visible::path_shown;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_runtime::adapter::{self, install, Availability};
use robotstxt_suite::visible::Outside;

use super::error::print_line;
use super::select::AdapterArgs;
use super::{Error, Exit};

/// List adapters (available or not, and why), or install them.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// A folder of adapters. Default: the checkout's `adapters/` inside a checkout of this
    /// repository, else the adapters this binary carries.
    #[arg(
        long = "adapters",
        visible_alias = "adapters-dir",
        value_name = "DIR",
        global = true
    )]
    adapters_dir: Option<PathBuf>,
    /// Where adapters install. Default: `target/` inside a checkout, else
    /// `$XDG_CACHE_HOME/robotstxt-test` (the platform's cache folder).
    #[arg(long, value_name = "DIR", global = true)]
    cache_dir: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List every adapter: available or not (and why), parser version, language, claimed profile.
    List,
    /// Run the setup steps of the named adapters (all when none is named) into their cache:
    /// `target/adapters/` in a checkout, else the cache folder. An adapter already installed is
    /// left as it is. With `--force`, every step runs again and, outside a checkout, the copy of
    /// the carried adapters in the cache is checked and mended.
    Install {
        names: Vec<String>,
        /// Run every step again, even those already done; outside a checkout, also check the
        /// cache's copy of the carried adapters file by file and write again what differs.
        #[arg(long)]
        force: bool,
    },
    Check(super::adapters_check::Args),
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    let mut select = AdapterArgs {
        adapters: vec!["all".to_owned()],
        adapter_cmds: Vec::new(),
        adapters_dir: args.adapters_dir,
        cache_dir: args.cache_dir,
        timeout: 5.0,
    };
    match args.action.unwrap_or(Action::List) {
        Action::List => list(&select),
        Action::Install { names, force } => {
            if !names.is_empty() {
                select.adapters = names;
            }
            install_all(&select, force)
        }
        Action::Check(check) => {
            super::adapters_check::execute(check, select.adapters_dir, select.cache_dir)
        }
    }
}

fn list(select: &AdapterArgs) -> Result<Exit, Error> {
    let source = select.source()?;
    let all = adapter::manifest::discover_at(&source.dir, &source.places)?;
    // Availability probes start interpreters: ask them side by side.
    let statuses = adapter::availabilities(&all);
    let rows: Vec<[String; 6]> = all
        .iter()
        .zip(statuses)
        .map(|(a, availability)| {
            let m = &a.manifest;
            let status = match availability {
                Availability::Ready => "available".to_owned(),
                Availability::NeedsSetup => "available (installs on first use)".to_owned(),
                Availability::Unavailable(why) => format!("unavailable: {why}"),
            };
            [
                m.name.clone(),
                m.profile.clone(),
                m.parser.clone(),
                m.package.version.clone(),
                m.language.clone(),
                status,
            ]
        })
        .collect();
    let header = [
        "adapter", "profile", "parser", "version", "language", "status",
    ]
    .map(String::from);
    // Each column as wide as its widest cell, so that long names keep the table aligned.
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            std::iter::once(&header)
                .chain(&rows)
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(&widths) {
            line.push_str(&format!("{cell:<width$} "));
        }
        line.push_str(&row[5]);
        print_line(&line)?;
    }
    Ok(Exit::Ok)
}

fn install_all(select: &AdapterArgs, force: bool) -> Result<Exit, Error> {
    if force && select.uses_carried_suite() {
        repair_suite(select)?;
    }
    let adapters = select.manifests(false)?;
    let bar = ProgressBar::new(adapters.len() as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} adapters {elapsed}  {wide_msg}")
            .expect("valid template"),
    );
    let mut exit = Exit::Ok;
    for a in &adapters {
        if !force && adapter::availability(a) == Availability::Ready {
            let why = if a.in_process || a.manifest.setup.is_empty() {
                "nothing to install".to_owned()
            } else {
                format!(
                    "already installed in {}; nothing to do",
                    path_shown(&a.cache)
                )
            };
            say(&bar, format!("ok      {}: {why}", a.name()))?;
            bar.inc(1);
            continue;
        }
        bar.set_message(a.name().to_owned());
        let result = install::install(a, force, &mut |line| {
            super::progress_line(&bar, &format!("  {line}"));
        });
        bar.inc(1);
        match result {
            Ok(()) => say(&bar, format!("ok      {}", a.name()))?,
            Err(why) => {
                say(&bar, format!("FAILED  {}: {why}", a.name()))?;
                exit = Exit::Unavailable;
            }
        }
    }
    bar.finish_and_clear();
    Ok(exit)
}

/// `--force` outside a checkout: the copy of the carried adapters in the cache folder is checked
/// file by file against this binary's, and what differs is written again, so that a damaged
/// adapter script is mended rather than reported as a parser that crashes.
fn repair_suite(select: &AdapterArgs) -> Result<(), Error> {
    let cache = robotstxt_runtime::cache::root(select.cache_dir.as_deref())?;
    let repaired = robotstxt_runtime::suite::repair(&cache)?;
    let dir = Outside::new(repaired.dir.display().to_string());
    if repaired.rewritten.is_empty() {
        print_line(&format!(
            "ok      suite copy: {} files as this binary carries them, in {dir}",
            repaired.checked
        ))?;
        return Ok(());
    }
    print_line(&format!(
        "repaired suite copy: {} of {} files differed and were written again, in {dir}:",
        repaired.rewritten.len(),
        repaired.checked
    ))?;
    for path in &repaired.rewritten {
        print_line(&format!("  {}", Outside::new(path.display().to_string())))?;
    }
    Ok(())
}

/// A line on stdout, shown whether or not the progress bar is drawn.
/// `line` names adapters and says why one cannot run in their words: outside text, shown
/// visibly.
fn say(bar: &ProgressBar, line: String) -> Result<(), Error> {
    bar.suspend(|| print_line(&robotstxt_suite::visible::shown(&line)))
}
