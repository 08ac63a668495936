//! Archives given to `survey --corpus`: every tar header that carries data counts against the
//! member cap, so a long-name header that claims a gigabyte is refused unread.

use std::fs;
use std::io::{Seek, SeekFrom, Write};

use crate::support::{assert_nothing_left, hostile_cmd, run};

/// Peak memory of a survey over the long-name bomb, in MiB: far below the gigabyte it claims.
const BOMB_MIB: f64 = 100.0;
/// What the bomb's long-name header claims to carry.
const CLAIMED: u64 = 1 << 30;

/// A `.tar` whose first header is a GNU long name (`L`) of [`CLAIMED`] bytes, written sparse (so
/// it takes no room on disk), followed by one ordinary member.
fn long_name_bomb(path: &std::path::Path) {
    let mut file = fs::File::create(path).unwrap();
    let mut long = tar::Header::new_gnu();
    long.set_path("././@LongLink").unwrap();
    long.set_entry_type(tar::EntryType::GNULongName);
    long.set_size(CLAIMED);
    long.set_mode(0o644);
    long.set_cksum();
    file.write_all(long.as_bytes()).unwrap();
    file.seek(SeekFrom::Start(512 + CLAIMED)).unwrap();
    let body = b"User-agent: *\nDisallow: /x\n";
    let mut member = tar::Header::new_gnu();
    member.set_path("a/robots.txt").unwrap();
    member.set_size(body.len() as u64);
    member.set_mode(0o644);
    member.set_cksum();
    file.write_all(member.as_bytes()).unwrap();
    file.write_all(body).unwrap();
    file.write_all(&[0u8; 512 * 3][..512 - body.len() + 1024])
        .unwrap();
}

#[test]
fn a_long_name_header_past_the_member_cap_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    long_name_bomb(&dir.path().join("bomb.tar"));
    let cmd = hostile_cmd("plain", dir.path());
    let args = [
        "survey",
        "--corpus",
        "bomb.tar",
        "--adapter-cmd",
        &cmd,
        "--out",
        "out",
    ];
    let ran = run(dir.path(), &args);
    assert!(ran.peak_mib < BOMB_MIB, "peak {:.0} MiB", ran.peak_mib);
    assert_ne!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("bomb.tar") && ran.stderr.contains("past the cap"),
        "{}",
        ran.stderr
    );
    if dir.path().join("pids").exists() {
        assert_nothing_left(dir.path());
    }
}
