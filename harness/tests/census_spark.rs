//! The census on Apache Spark in local mode: `survey/spark/census.py` over WARC files generated
//! from the real-world corpus (`scripts/census-warc.py`, split into 4 files) gives the same
//! `survey.json` as one `survey --warc` process over the same files (causes, excerpts and reduced
//! examples included; only the words saying why a file could not be read may differ), with a retried task,
//! a file that cannot be read named in both, and two files fetched over HTTP (from a server on
//! the loopback address).
//!
//! Spark runs for real: pyspark, at the version `survey/spark/requirements.txt` pins, is
//! installed into `<target>/spark-venv` on first use (the machine's `python3` and Java 17), and a
//! failure to install it fails the test. The real-world corpus is `$ROBOTSTXT_REALWORLD_CORPUS`
//! or `<target>/realworld-robots.tar.xz` (README: "The real-world corpus"); without it the WARC
//! files are built from the case corpus's bodies instead, and the test says so on stderr: the
//! comparison of Spark with one process holds on either.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{checkout, target_dir};

/// Bodies of the corpus the WARC files are built from: enough for every kind of record and for
/// disagreements in every shard, few enough for a test of about a minute.
const BODIES: &str = "4000";

fn run(command: &mut Command) -> std::process::Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    output
}

/// The pinned pyspark in `<target>/spark-venv`, installed if it is not there.
fn spark_venv() -> PathBuf {
    let requirements = checkout().join("survey/spark/requirements.txt");
    let pin = std::fs::read_to_string(&requirements).unwrap();
    let version = pin
        .lines()
        .find_map(|l| l.trim().strip_prefix("pyspark=="))
        .expect("requirements.txt pins pyspark")
        .to_owned();
    let venv = target_dir().join("spark-venv");
    let python = venv.join("bin/python");
    let installed = |python: &Path| {
        Command::new(python)
            .args(["-c", "import pyspark; print(pyspark.__version__)"])
            .output()
            .is_ok_and(|o| {
                o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == version
            })
    };
    if !installed(&python) {
        eprintln!("installing pyspark {version} into {}", venv.display());
        let made = run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
        assert!(
            made.status.success(),
            "python3 -m venv: {}",
            String::from_utf8_lossy(&made.stderr)
        );
        let pip = run(Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "-r"])
            .arg(&requirements));
        assert!(
            pip.status.success() && installed(&python),
            "pyspark {version} could not be installed into {} (it comes from PyPI): {}",
            venv.display(),
            String::from_utf8_lossy(&pip.stderr)
        );
    }
    let java = Command::new("java").arg("-version").output();
    assert!(
        java.is_ok_and(|o| o.status.success()),
        "Spark needs `java` (17) on PATH"
    );
    venv
}

/// The real-world corpus, or else an archive of the case corpus's bodies.
fn corpus(scratch: &Path) -> PathBuf {
    let named = std::env::var_os("ROBOTSTXT_REALWORLD_CORPUS").map(PathBuf::from);
    let candidates = named
        .into_iter()
        .chain([target_dir().join("realworld-robots.tar.xz")]);
    for candidate in candidates {
        if candidate.is_file() {
            return candidate;
        }
    }
    eprintln!(
        "note: no real-world corpus (ROBOTSTXT_REALWORLD_CORPUS, {}): the WARC files are built \
         from the case corpus's bodies",
        target_dir().join("realworld-robots.tar.xz").display()
    );
    let cases = robotstxt_suite::cases::load_corpus(&[checkout().join("cases")]).unwrap();
    let mut tar = tar::Builder::new(Vec::new());
    for (i, case) in cases.iter().enumerate() {
        let mut header = tar::Header::new_gnu();
        header.set_size(case.robots.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        let name = format!("realworld/files/case{i}.example");
        tar.append_data(&mut header, name, &case.robots[..])
            .unwrap();
    }
    let mut xz = xz2::write::XzEncoder::new(Vec::new(), 1);
    xz.write_all(&tar.into_inner().unwrap()).unwrap();
    let path = scratch.join("cases.tar.xz");
    std::fs::write(&path, xz.finish().unwrap()).unwrap();
    path
}

/// The whole survey, causes, excerpts and reduced examples included, with unreadable files by
/// name only (each side says why in its own words).
fn totals(path: &Path) -> serde_json::Value {
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    for unreadable in value["census"]["unreadable"].as_array_mut().unwrap() {
        unreadable["error"] = serde_json::Value::Null;
    }
    value
}

/// `python3 -m http.server` serving a folder on the loopback address, stopped when dropped.
struct Server {
    child: std::process::Child,
    url: String,
}

impl Server {
    fn start(folder: &Path) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
            ])
            .arg("--directory")
            .arg(folder)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Serving once it accepts a connection.
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Server {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_spark_job_in_local_mode_gives_the_single_process_totals() {
    let venv = spark_venv();
    let scratch = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let warcs = scratch.path().join("warc");
    let built = run(Command::new("python3")
        .arg(checkout().join("scripts/census-warc.py"))
        .arg(corpus(scratch.path()))
        .args(["--files", "4", "--bodies", BODIES, "--out"])
        .arg(&warcs));
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&warcs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 4);
    // A fifth file that is not there: both name it, neither stops.
    paths.push(scratch.path().join("CC-MAIN-missing-00004.warc.gz"));
    // The job fetches the last two files over HTTP, from a server on the loopback address.
    let server = Server::start(&warcs);
    let listing = scratch.path().join("warc.paths");
    let lines: Vec<String> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| match i {
            2 | 3 => format!(
                "{}/{}",
                server.url,
                p.file_name().unwrap().to_string_lossy()
            ),
            _ => p.display().to_string(),
        })
        .collect();
    std::fs::write(&listing, lines.join("\n") + "\n").unwrap();
    let retried = paths[1].file_name().unwrap().to_string_lossy().into_owned();
    let binary = env!("CARGO_BIN_EXE_robotstxt-test");
    let adapters = ["--adapter", "reference", "--adapter", "python-urllib"];

    let spark_out = scratch.path().join("spark");
    let spark = run(Command::new(venv.join("bin/spark-submit"))
        .current_dir(checkout())
        .env("PYSPARK_PYTHON", venv.join("bin/python"))
        .args(["--master", "local[2,2]", "--conf", "spark.ui.enabled=false"])
        .arg(checkout().join("survey/spark/census.py"))
        .arg(&listing)
        .arg("--out")
        .arg(&spark_out)
        .args(["--binary", binary])
        .args(adapters)
        .args(["--fail-first-attempt", &retried]));
    drop(server);
    let spark_err = String::from_utf8_lossy(&spark.stderr);
    assert_eq!(
        spark.status.code(),
        Some(2),
        "exit 2 for the missing file\n{spark_err}"
    );
    // What the job says of itself: the task on `retried` failed once in each stage and was
    // retried; the missing file was tried twice, then named.
    let job: serde_json::Value =
        serde_json::from_slice(&std::fs::read(spark_out.join("census-job.json")).unwrap()).unwrap();
    assert_eq!(
        job["retried"],
        serde_json::json!([
            {"warc": retried, "stage": "captures", "attempts": 2},
            {"warc": retried, "stage": "survey", "attempts": 2},
        ]),
        "{job}"
    );
    assert_eq!(
        job["unreadable"][0]["warc"],
        "CC-MAIN-missing-00004.warc.gz"
    );
    assert_eq!(job["unreadable"][0]["attempts"], 2);
    assert!(
        spark_err.contains("first attempt failed on purpose"),
        "{spark_err}"
    );

    let single_out = scratch.path().join("single");
    let single = run(Command::new(binary)
        .current_dir(checkout())
        .args(["survey", "--warc"])
        .args(&paths)
        .args(adapters)
        .arg("--out")
        .arg(&single_out));
    let single_err = String::from_utf8_lossy(&single.stderr);
    assert_eq!(single.status.code(), Some(2), "{single_err}");

    let spark_totals = totals(&spark_out.join("survey.json"));
    let single_totals = totals(&single_out.join("survey.json"));
    assert!(
        spark_totals == single_totals,
        "Spark and one process differ"
    );
    let causes = &single_totals["adapters"][1]["causes"];
    assert!(
        causes.as_array().unwrap().len() >= 2,
        "several causes to compare: {causes}"
    );
    // What the totals hold: four files read, the fifth named, hosts and bodies, disagreements.
    let census = &single_totals["census"];
    assert_eq!(census["warc_files"], 4);
    assert_eq!(
        census["unreadable"][0]["warc"],
        "CC-MAIN-missing-00004.warc.gz"
    );
    let hosts = census["hosts"]["success"].as_u64().unwrap();
    let fetches = census["fetches"]["success"].as_u64().unwrap();
    let bodies = single_totals["files"].as_u64().unwrap();
    assert!(fetches > hosts && hosts > bodies && bodies > 0, "{census}");
    let urllib = &single_totals["adapters"][1];
    assert_eq!(urllib["adapter"], "python-urllib");
    assert!(urllib["disagreements"]["files"].as_u64().unwrap() > 0);
    assert!(urllib["hosts"]["disagreements"].as_u64().unwrap() > 0);
    assert_eq!(single_totals["shards"], serde_json::Value::Null);
    let md = std::fs::read_to_string(spark_out.join("survey.md")).unwrap();
    assert!(md.contains("### Fetches and hosts by status"), "{md}");
    assert!(md.contains("could not be read"), "{md}");
}
