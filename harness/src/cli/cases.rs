//! `robotstxt-test cases export DIR`: the corpus this binary carries, as files.

use std::path::PathBuf;

use robotstxt_suite::embedded;

use super::error::print_line;
use super::{Error, Exit};

/// The case corpus this binary carries.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Write the embedded corpus into DIR (new or empty), byte for byte as the suite's `cases/`,
    /// to read, grep and diff.
    Export { dir: PathBuf },
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    match args.action {
        Action::Export { dir } => {
            let written = embedded::export_cases(&dir)?;
            print_line(&format!(
                "wrote {written} files of the {} corpus into {}",
                embedded::embedded_description(),
                dir.display()
            ))?;
            Ok(Exit::Ok)
        }
    }
}
