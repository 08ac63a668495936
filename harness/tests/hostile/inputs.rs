//! Expectation files, adapter manifests and case folders get the case files' guards: each is read
//! through the one reader, so an alias bomb, deep nesting, a FIFO, `/dev/zero`, a file of many
//! entries or a lattice of links all end fast, in bounded memory, naming the file.

use std::fs;
use std::path::Path;
use std::time::Duration;

use crate::support::{hostile_cmd, run, Ran};

/// Peak memory any refused input may cost, in MiB.
const INPUT_MIB: f64 = 100.0;

fn bounded(ran: &Ran, what: &str) {
    assert!(
        ran.peak_mib < INPUT_MIB,
        "{what}: peak {:.0} MiB",
        ran.peak_mib
    );
    assert!(
        ran.elapsed < Duration::from_secs(10),
        "{what}: {:?}",
        ran.elapsed
    );
}

/// `run --cases cases.yaml --adapter-cmd <hostile plain> --expectations FILE`.
fn gate_with(dir: &Path, file: &str) -> Ran {
    fs::write(dir.join("cases.yaml"), crate::support::cases_yaml(2, "x")).unwrap();
    let cmd = hostile_cmd("plain", dir);
    let args = [
        "run",
        "--cases",
        "cases.yaml",
        "--adapter-cmd",
        &cmd,
        "--expectations",
        file,
    ];
    run(dir, &args)
}

const HEAD: &str = "adapter: hostile-plain\nexpectations:\n";

#[test]
fn an_expectation_alias_bomb_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = format!(
        "{HEAD}- check: cases/case-0#0\n  outcome: fail\n  reason: &r '{}'\n",
        "x".repeat(1 << 20)
    );
    for i in 1..3000 {
        yaml.push_str(&format!(
            "- {{ check: 'cases/case-0#{i}', outcome: fail, reason: *r }}\n"
        ));
    }
    fs::write(dir.path().join("bomb.yaml"), yaml).unwrap();
    let ran = gate_with(dir.path(), "bomb.yaml");
    bounded(&ran, "alias bomb");
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("bomb.yaml:5:") && ran.stderr.contains("anchor"),
        "{}",
        ran.stderr
    );
}

#[test]
fn deep_nesting_in_an_expectation_file_is_refused_fast() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = format!("{HEAD}{}{}\n", "[".repeat(200_000), "]".repeat(200_000));
    fs::write(dir.path().join("deep.yaml"), yaml).unwrap();
    let ran = gate_with(dir.path(), "deep.yaml");
    bounded(&ran, "nesting");
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("deep.yaml:3:") && ran.stderr.contains("nested"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_fifo_or_a_device_as_an_expectation_file_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.yaml");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.yaml")).unwrap();
    for name in ["fifo.yaml", "zero.yaml"] {
        let ran = gate_with(dir.path(), name);
        bounded(&ran, name);
        assert_eq!(ran.code, 2, "{}", ran.stderr);
        assert!(
            ran.stderr.contains(name) && ran.stderr.contains("not a regular file"),
            "{}",
            ran.stderr
        );
    }
}

/// 20 000 entries (2.2 MB) are read in one pass: placing each entry's line used to rescan the
/// whole text for each one (108 s).
#[test]
fn an_expectation_file_of_many_entries_is_read_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = String::from(HEAD);
    for i in 0..20_000 {
        yaml.push_str(&format!(
            "- check: cases/case-{i}#0\n  outcome: fail\n  reason: 'a reason long enough to weigh like a real one, {i}'\n"
        ));
    }
    assert!(yaml.len() > 2_000_000);
    fs::write(dir.path().join("many.yaml"), yaml).unwrap();
    let ran = gate_with(dir.path(), "many.yaml");
    bounded(&ran, "many entries");
    // Every id but the first two names no check of the corpus: refused, each at its line.
    assert!(
        ran.stderr.contains("many.yaml:"),
        "{}",
        &ran.stderr[..ran.stderr.len().min(2000)]
    );
}

#[test]
fn a_manifest_alias_bomb_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let adapter = dir.path().join("adapters/bomb");
    fs::create_dir_all(&adapter).unwrap();
    let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        yaml.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    yaml.push_str("name: bomb\n");
    fs::write(adapter.join("adapter.yaml"), yaml).unwrap();
    let ran = run(dir.path(), &["adapters", "list", "--adapters", "adapters"]);
    bounded(&ran, "manifest bomb");
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        all.contains("adapter.yaml:1:") && all.contains("anchor"),
        "{all}"
    );
}

/// Folder `d0` holds `a` and `b`, both links to `d1`, which holds two links to `d2`, and so on
/// for 20 levels: a million paths lead to the one case file at the bottom, walked once.
#[test]
fn a_lattice_of_links_is_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    let levels = 20;
    for level in 0..=levels {
        fs::create_dir(dir.path().join(format!("d{level}"))).unwrap();
    }
    for level in 0..levels {
        for link in ["a", "b"] {
            let target = format!("../d{}", level + 1);
            std::os::unix::fs::symlink(target, dir.path().join(format!("d{level}/{link}")))
                .unwrap();
        }
    }
    let cases = crate::support::cases_yaml(1, "x");
    fs::write(dir.path().join(format!("d{levels}/one.yaml")), cases).unwrap();
    let ran = run(dir.path(), &["run", "--cases", "d0"]);
    bounded(&ran, "lattice");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.elapsed < Duration::from_secs(2), "{:?}", ran.elapsed);
}

/// The JSON document in the file at `path`.
fn json_at(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// `survey merge` adds counts with checked arithmetic (a count near 2^64 plus another is an
/// error naming the file, not a count that wrapped round), and reads its inputs through the one
/// reader (a FIFO or an oversized file is refused unread).
#[test]
fn survey_merge_refuses_overflowing_counts_and_unbounded_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    fs::create_dir(&corpus).unwrap();
    for name in ["a.txt", "b.txt", "c.txt"] {
        fs::write(corpus.join(name), "User-agent: *\nDisallow: /a\n").unwrap();
    }
    for shard in ["1/2", "2/2"] {
        let out = format!("s{}", &shard[..1]);
        let args = [
            "survey",
            "--corpus",
            "corpus",
            "--adapter",
            "reference",
            "--shard",
            shard,
            "--out",
            &out,
        ];
        let ran = run(dir.path(), &args);
        assert_eq!(ran.code, 0, "{}", ran.stderr);
    }
    let merge = |first: &str| {
        let args = ["survey", "merge", first, "s2/survey.json", "--out", "m"];
        run(dir.path(), &args)
    };
    let whole = merge("s1/survey.json");
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let merged = json_at(&dir.path().join("m/survey.json"));
    assert_eq!(merged["files"], 3);

    // Shard 1 claims 2^64 - 1 files: added to shard 2's, the sum does not fit.
    let mut forged = json_at(&dir.path().join("s1/survey.json"));
    forged["files"] = serde_json::json!(u64::MAX);
    fs::write(dir.path().join("forged.json"), forged.to_string()).unwrap();
    let ran = merge("forged.json");
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("s2/survey.json: a count does not fit in 64 bits"),
        "{}",
        ran.stderr
    );
    let merged = json_at(&dir.path().join("m/survey.json"));
    assert_eq!(merged["files"], 3, "the earlier merge is left as it was");

    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        dir.path().join("fifo.json"),
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .unwrap();
    let big = fs::File::create(dir.path().join("big.json")).unwrap();
    big.set_len(65 << 20).unwrap();
    for input in ["fifo.json", "big.json"] {
        let ran = merge(input);
        bounded(&ran, input);
        assert_eq!(ran.code, 2, "{input}: {}", ran.stderr);
        assert!(
            ran.stderr.contains(&format!("{input}:1:")),
            "{}",
            ran.stderr
        );
    }
}

/// `compare` caps the robots.txt body as `check` and `run` do: 20 MB given to every adapter is
/// refused before any adapter is started.
#[test]
fn compare_refuses_a_body_past_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let big = fs::File::create(dir.path().join("robots.txt")).unwrap();
    big.set_len(20 << 20).unwrap();
    let cmd = hostile_cmd("plain", dir.path());
    let args = [
        "compare",
        "--robots",
        "robots.txt",
        "--path",
        "/a",
        "--adapter-cmd",
        &cmd,
    ];
    let ran = run(dir.path(), &args);
    bounded(&ran, "compare");
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("robots.txt: longer than the limit of 4194304 bytes"),
        "{}",
        ran.stderr
    );
    assert!(!dir.path().join("pids").exists(), "no adapter was started");
}
