//! Archives given to `survey --corpus`: every tar header that carries data counts against the
//! member cap, so a long-name header that claims a gigabyte is refused unread.

use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};

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

/// One member of a generated archive: how its name is given, the name, and the member's size
/// (its data is zeros; past the member cap it is skipped unread).
#[derive(Clone, Copy)]
enum Naming {
    /// A GNU long-name (`L`) header before the member.
    LongName,
    /// A PAX (`x`) header whose `path` record names the member.
    Pax,
}

/// A `.tar.xz` of `count` members, each named by a `naming` header `name_bytes` long (the
/// name `NNNN/` then `fill`), each `size` bytes of zeros.
fn named_archive(
    path: &std::path::Path,
    count: usize,
    naming: Naming,
    name_bytes: usize,
    fill: &[u8],
    size: u64,
) {
    let file = fs::File::create(path).unwrap();
    let mut out = std::io::BufWriter::new(xz2::write::XzEncoder::new(file, 1));
    let pad = |out: &mut dyn Write, len: u64| {
        let rest = (512 - len % 512) % 512;
        out.write_all(&vec![0u8; rest as usize]).unwrap();
    };
    for i in 0..count {
        let mut name = format!("{i:04}/").into_bytes();
        while name.len() < name_bytes {
            name.extend_from_slice(fill);
        }
        name.truncate(name_bytes);
        let data = match naming {
            Naming::LongName => name.clone(),
            Naming::Pax => {
                // A PAX record is `LEN path=VALUE\n`, LEN counting the whole record.
                let body = name.len() + " path=\n".len();
                let mut len = body + body.to_string().len();
                if len.to_string().len() != body.to_string().len() {
                    len += 1;
                }
                let mut record = format!("{len} path=").into_bytes();
                record.extend_from_slice(&name);
                record.push(b'\n');
                record
            }
        };
        let mut header = tar::Header::new_gnu();
        header.set_path("././@LongLink").unwrap();
        header.set_entry_type(match naming {
            Naming::LongName => tar::EntryType::GNULongName,
            Naming::Pax => tar::EntryType::XHeader,
        });
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        out.write_all(header.as_bytes()).unwrap();
        out.write_all(&data).unwrap();
        pad(&mut out, data.len() as u64);
        let mut member = tar::Header::new_gnu();
        member.set_path(format!("{i:04}/robots.txt")).unwrap();
        member.set_size(size);
        member.set_mode(0o644);
        member.set_cksum();
        out.write_all(member.as_bytes()).unwrap();
        let body = b"User-agent: *\nDisallow: /x\n";
        if size == body.len() as u64 {
            out.write_all(body).unwrap();
        } else {
            std::io::copy(&mut std::io::repeat(0).take(size), &mut out).unwrap();
        }
        pad(&mut out, size);
    }
    out.write_all(&[0u8; 1024]).unwrap();
    out.into_inner()
        .map_err(|e| e.into_error())
        .unwrap()
        .finish()
        .unwrap();
}

/// Peak memory of a survey over an archive whose every member is named by a header near the
/// member cap, in MiB; and the most its `survey.json` and `survey.md` may hold together.
const NAMES_MIB: f64 = 200.0;
const NAMES_REPORTS: u64 = 20 << 20;

/// A cap per header is not a budget: a hundred members each named by a header just under the
/// member cap once took a survey to 2 GB and wrote 419 MB each of `survey.json` and `survey.md`.
/// Its siblings too: PAX names, members skipped for their size (named up to a hundred, the rest
/// counted), and names of controls and bytes that are not UTF-8.
#[test]
fn names_from_headers_are_bounded_for_the_whole_archive() {
    let near_cap = (4 << 20) - 64;
    let small = 27;
    let big = (4 << 20) + 1;
    /// What a sibling is, how many members, how they are named, how long a name, of what, how
    /// large a member.
    type Sibling<'a> = (&'a str, usize, Naming, usize, &'a [u8], u64);
    let siblings: [Sibling<'_>; 5] = [
        (
            "long names near the cap",
            100,
            Naming::LongName,
            near_cap,
            b"a",
            small,
        ),
        (
            "PAX names near the cap",
            60,
            Naming::Pax,
            near_cap,
            b"b/",
            small,
        ),
        (
            "oversized members, long names",
            130,
            Naming::LongName,
            64 << 10,
            b"c",
            big,
        ),
        (
            "escapes in names",
            20,
            Naming::LongName,
            5000,
            b"\x1b]0;x\x07\n\xff",
            small,
        ),
        (
            "short names, many",
            3000,
            Naming::LongName,
            200,
            b"d",
            small,
        ),
    ];
    for (what, count, naming, name_bytes, fill, size) in siblings {
        let dir = tempfile::tempdir().unwrap();
        named_archive(
            &dir.path().join("c.tar.xz"),
            count,
            naming,
            name_bytes,
            fill,
            size,
        );
        let cmd = hostile_cmd("plain", dir.path());
        let args = [
            "survey",
            "--corpus",
            "c.tar.xz",
            "--adapter-cmd",
            &cmd,
            "--out",
            "out",
        ];
        let ran = run(dir.path(), &args);
        assert_eq!(ran.code, 0, "{what}: {}", ran.stderr);
        assert!(
            ran.peak_mib < NAMES_MIB,
            "{what}: peak {:.0} MiB",
            ran.peak_mib
        );
        let json = fs::read(dir.path().join("out/survey.json")).unwrap();
        let md = fs::read_to_string(dir.path().join("out/survey.md")).unwrap();
        let written = (json.len() + md.len()) as u64;
        assert!(
            written < NAMES_REPORTS,
            "{what}: {written} bytes of reports"
        );
        assert!(
            !md.contains(['\x1b', '\x07']),
            "{what}: a raw escape in survey.md"
        );
        assert!(
            !ran.stderr.contains(['\x1b', '\x07']),
            "{what}: a raw escape on stderr"
        );
        assert!(
            ran.stderr.len() < 1 << 20,
            "{what}: {} bytes on stderr",
            ran.stderr.len()
        );
        let survey: serde_json::Value = serde_json::from_slice(&json).unwrap();
        if size == small {
            assert_eq!(survey["files"], count, "{what}");
        } else {
            let named = survey["oversized"].as_array().unwrap().len();
            assert_eq!(named, 100, "{what}");
            assert_eq!(survey["oversized_unnamed"], count - 100, "{what}");
            assert!(
                ran.stderr
                    .contains(&format!("and {} more not named", count - 100)),
                "{what}: {}",
                ran.stderr
            );
        }
        if name_bytes > 1 << 10 && size != small {
            assert!(md.contains(" bytes]…"), "{what}: the cut is said");
        }
    }
}
