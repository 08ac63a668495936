//! Memory stays bounded whatever the WARC's size: a census of a generated 1 GB WARC file keeps
//! the survey process under [`BOUND`], whatever its records claim.
//!
//! The file is built here, in Common Crawl's layout (a gzip member per record), from records
//! that test the bound: 2 MiB bodies (cut at the 500 KiB parse limit), gzip bombs (16 MiB of
//! zeros in 16 KiB), a body in one 1 MiB chunk, and many small fetches of 50,000 hosts, each
//! fetched twice. Few distinct bodies, so that the survey itself is quick: what is measured is
//! the reading. The process reports its peak resident memory (`VmHWM`) on stderr.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::Command;

use flate2::write::GzEncoder;
use flate2::Compression;

/// The stated bound (README, limits; reports/census.md): the survey process's peak memory on
/// this file.
const BOUND_MIB: f64 = 64.0;
const SIZE: u64 = 1 << 30;
const HOSTS: usize = 50_000;

fn member(out: &mut impl Write, record: &[u8], level: Compression) {
    let mut encoder = GzEncoder::new(Vec::new(), level);
    encoder.write_all(record).unwrap();
    out.write_all(&encoder.finish().unwrap()).unwrap();
}

fn response(serial: usize, url: &str, date: &str, http: &[u8]) -> Vec<u8> {
    let mut record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: {date}\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{serial:012}>\r\n\
         Content-Type: application/http; msgtype=response\r\nWARC-Target-URI: {url}\r\n\
         Content-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    record.extend_from_slice(http);
    record.extend_from_slice(b"\r\n\r\n");
    record
}

/// Bytes that do not compress, from a seed.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed * 2 + 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn generate(path: &Path) -> (u64, usize) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).unwrap());
    let mut written = 0u64;
    let bigs: Vec<Vec<u8>> = (1..=4u64)
        .map(|seed| {
            let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n".to_vec();
            http.extend(noise(seed, 2 << 20));
            http
        })
        .collect();
    let bomb = {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(&vec![0u8; 16 << 20]).unwrap();
        let mut http = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        http.extend(encoder.finish().unwrap());
        http
    };
    let chunk = {
        let mut http = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n".to_vec();
        http.extend(std::iter::repeat_n(b'#', 1 << 20));
        http.extend(b"\r\n0\r\n\r\n");
        http
    };
    let smalls: Vec<Vec<u8>> = (0..16)
        .map(|i| format!("HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /p{i}/\n").into_bytes())
        .collect();
    let mut serial = 0;
    let mut fetches = 0;
    let mut round = 0usize;
    let mut record = |out: &mut BufWriter<File>, url: &str, http: &[u8], level, round: usize| {
        serial += 1;
        let date = format!(
            "2024-03-01T{:02}:{:02}:{:02}Z",
            round / 3600 % 24,
            round / 60 % 60,
            round % 60
        );
        let mut counted = Counter(out, 0);
        member(&mut counted, &response(serial, url, &date, http), level);
        counted.1
    };
    while written < SIZE {
        let big = &bigs[round % bigs.len()];
        written += record(
            &mut out,
            &format!("https://big{}.example/robots.txt", round % 64),
            big,
            Compression::none(),
            round,
        );
        written += record(
            &mut out,
            &format!("https://bomb{round}.example/robots.txt"),
            &bomb,
            Compression::fast(),
            round,
        );
        if round % 16 == 0 {
            written += record(
                &mut out,
                &format!("http://chunk{round}.example/robots.txt"),
                &chunk,
                Compression::fast(),
                round,
            );
        }
        for i in 0..200 {
            let host = (round * 200 + i) % HOSTS;
            let http = &smalls[host % smalls.len()];
            written += record(
                &mut out,
                &format!("https://h{host}.example/robots.txt"),
                http,
                Compression::fast(),
                round,
            );
            fetches += 1;
        }
        fetches += 2;
        round += 1;
    }
    out.flush().unwrap();
    (written, fetches)
}

/// Counts what goes through.
struct Counter<'a, W: Write>(&'a mut W, u64);

impl<W: Write> Write for Counter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(buf)?;
        self.1 += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[test]
fn a_census_of_a_gigabyte_warc_stays_under_the_memory_bound() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let warc = dir.path().join("CC-MAIN-big.warc.gz");
    let (size, fetches) = generate(&warc);
    assert!(size >= 1_000_000_000, "{size}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out = dir.path().join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root)
        .args(["survey", "--warc"])
        .arg(&warc)
        .args(["--adapter", "reference", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let peak: f64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak memory (VmHWM): "))
        .and_then(|l| l.strip_suffix(" MiB"))
        .expect("the survey reports its peak memory")
        .parse()
        .unwrap();
    eprintln!("{size} bytes, {fetches} small fetches: peak memory {peak} MiB");
    assert!(
        peak < BOUND_MIB,
        "peak memory {peak} MiB over the bound of {BOUND_MIB} MiB"
    );
    let survey: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("survey.json")).unwrap()).unwrap();
    let census = &survey["census"];
    assert_eq!(census["faults"], serde_json::json!({}), "{census}");
    // Every 2 MiB body, bomb and chunk is cut at the parse limit; they are 4, 1 and 1 bodies.
    assert_eq!(census["cut"], 6, "{survey}");
    assert_eq!(survey["files"], 4 + 1 + 1 + 16);
    assert!(census["hosts"]["success"].as_u64().unwrap() >= HOSTS as u64);
}
