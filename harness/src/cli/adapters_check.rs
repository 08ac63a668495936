//! `robotstxt-test adapters check`: does an adapter speak the protocol? For adapter authors,
//! before a first run.

use std::time::Duration;

use robotstxt_runtime::adapter::check::{check, CheckFinding, CheckStatus};
use robotstxt_runtime::adapter::{self, Limits};
use robotstxt_suite::visible;

use super::error::print;
use super::select::{split_command, AdapterArgs};
use super::{Error, Exit};

/// Check that an adapter speaks protocol v1, in a few seconds: the handshake, answer count and
/// order, refused bodies, binary and 1 MB bodies, a clean stop, nothing else on stdout.
///
/// Prints each check; a failure quotes what the adapter sent and names the section of
/// adapters/PROTOCOL.md it breaks. Exit codes: 0 every check passed; 1 one failed; 2 usage error;
/// 3 the adapter could not be made ready (missing interpreter, failed install).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seconds the adapter may take to answer one message.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    timeout: f64,
    /// The adapter under the adapters folder, by name.
    #[arg(long = "adapter", value_name = "NAME", conflicts_with = "adapter_cmd")]
    adapter: Option<String>,
    /// An adapter outside this repository: a command (split like a shell would, but run without
    /// one), or the path of an `adapter.yaml`.
    #[arg(
        long = "adapter-cmd",
        value_name = "CMD",
        required_unless_present = "adapter"
    )]
    adapter_cmd: Option<String>,
}

pub fn execute(
    args: Args,
    adapters_dir: Option<std::path::PathBuf>,
    cache_dir: Option<std::path::PathBuf>,
) -> Result<Exit, Error> {
    let select = AdapterArgs {
        adapters: args.adapter.iter().cloned().collect(),
        adapter_cmds: args.adapter_cmd.iter().cloned().collect(),
        adapters_dir,
        cache_dir,
        timeout: args.timeout,
    };
    let limits = Limits {
        start_timeout: Duration::from_secs(30),
        ..select.limits()?
    };
    let manifests = select.manifests(false)?;
    let (argv, manifest, shown) = match manifests.first() {
        Some(adapter) => {
            let mut print = |line: &str| eprintln!("  {}", visible::shown(line));
            if let Err(why) = adapter::prepare(adapter, &mut print) {
                let why = why.to_string();
                eprintln!(
                    "{}: cannot run: {}",
                    visible::shown(adapter.name()),
                    visible::shown(&why)
                );
                return Ok(Exit::Unavailable);
            }
            (
                adapter.argv(),
                Some(&adapter.manifest),
                adapter.name().to_owned(),
            )
        }
        None => {
            let cmd = args.adapter_cmd.unwrap_or_default();
            (split_command(&cmd)?, None, cmd)
        }
    };
    print(&format!(
        "checking {shown} against adapters/PROTOCOL.md (protocol 1)\n"
    ))?;
    let findings = check(&argv, manifest, limits);
    for finding in &findings {
        print(&show(finding))?;
    }
    let count = |status| findings.iter().filter(|f| f.status == status).count();
    let failed = count(CheckStatus::Failed);
    print(&format!(
        "{} passed, {failed} failed, {} not applicable\n",
        count(CheckStatus::Passed),
        count(CheckStatus::NotApplicable)
    ))?;
    Ok(if failed == 0 {
        Exit::Ok
    } else {
        Exit::Failures
    })
}

fn show(finding: &CheckFinding) -> String {
    match finding.status {
        CheckStatus::Passed => format!("  ok    {}: {}\n", finding.what, finding.message),
        CheckStatus::NotApplicable => format!("  n/a   {}: {}\n", finding.what, finding.message),
        CheckStatus::Failed => {
            let message = finding.message.to_string().replace('\n', "\n          ");
            format!(
                "  FAIL  {}\n        {message}\n        breaks adapters/PROTOCOL.md, section \"{}\"\n",
                finding.what, finding.section
            )
        }
    }
}
