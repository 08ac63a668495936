//! `robotstxt-test adapters`: list the adapters and install what they need.

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_test::adapter::{self, install, Availability};

use super::select::{workspace_of, AdapterArgs};
use super::Exit;

/// List adapters (available or not, and why), or install them.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// The adapters folder.
    #[arg(long, value_name = "DIR", default_value = "adapters", global = true)]
    adapters_dir: std::path::PathBuf,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List every adapter: available or not (and why), parser version, language, claimed profile.
    List,
    /// Run the setup steps of the named adapters (all when none is named) into `target/adapters/`.
    Install {
        names: Vec<String>,
        /// Run every step again, even those already done.
        #[arg(long)]
        force: bool,
    },
    Check(super::adapters_check::Args),
}

pub fn execute(args: Args) -> Result<Exit, String> {
    match args.action.unwrap_or(Action::List) {
        Action::List => list(&args.adapters_dir),
        Action::Install { names, force } => {
            let names = if names.is_empty() {
                vec!["all".to_owned()]
            } else {
                names
            };
            let select = AdapterArgs {
                adapters: names,
                adapter_cmds: Vec::new(),
                adapters_dir: args.adapters_dir,
                timeout: 5.0,
            };
            install_all(&select, force)
        }
        Action::Check(check) => super::adapters_check::execute(check, args.adapters_dir),
    }
}

fn list(adapters_dir: &std::path::Path) -> Result<Exit, String> {
    let all =
        adapter::discover(adapters_dir, &workspace_of(adapters_dir)).map_err(|e| e.to_string())?;
    println!(
        "{:<22} {:<14} {:<28} {:<10} {:<14} status",
        "adapter", "profile", "parser", "version", "language"
    );
    for a in &all {
        let m = &a.manifest;
        let status = match adapter::availability(a) {
            Availability::Ready => "available".to_owned(),
            Availability::NeedsSetup => "available (installs on first use)".to_owned(),
            Availability::Unavailable(why) => format!("unavailable: {why}"),
        };
        println!(
            "{:<22} {:<14} {:<28} {:<10} {:<14} {status}",
            m.name, m.profile, m.parser, m.package.version, m.language
        );
    }
    Ok(Exit::Ok)
}

fn install_all(select: &AdapterArgs, force: bool) -> Result<Exit, String> {
    let adapters = select.manifests(false)?;
    let steps: usize = adapters.iter().map(|a| a.manifest.setup.len()).sum();
    let bar = ProgressBar::new(steps as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} steps  {wide_msg}")
            .expect("valid template"),
    );
    let mut exit = Exit::Ok;
    for a in &adapters {
        bar.set_message(a.name().to_owned());
        let result = install::install(a, force, &mut |line| {
            bar.println(format!("  {line}"));
            bar.inc(1);
        });
        match result {
            Ok(()) => bar.println(format!("ok      {}", a.name())),
            Err(why) => {
                bar.println(format!("FAILED  {}: {why}", a.name()));
                exit = Exit::Unavailable;
            }
        }
    }
    bar.finish_and_clear();
    Ok(exit)
}
