//! The reference implementation speaking the adapter protocol (`adapters/PROTOCOL.md`), so it
//! can be run, timed and compared exactly like any real parser. The first argument picks the
//! profile (default `norobots-1994`).

use std::process::ExitCode;

use robotstxt_protocol::Query;
use robotstxt_reference::Profile;

fn main() -> ExitCode {
    let profile: Profile = match std::env::args().nth(1).map(|p| p.parse()) {
        None => Profile::Norobots1994,
        Some(Ok(profile)) => profile,
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let check =
        |body: &[u8], queries: &[Query<'_>]| adapter_reference::check_under(profile, body, queries);
    match robotstxt_protocol::serve_batch(adapter_reference::handshake(profile), check) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
