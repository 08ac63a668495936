//! The reports folder `report --out` rebuilds: a link to it is kept and the folder it names is
//! written, the current folder can be the reports folder, the folder keeps its mode, an
//! adapter's page never takes the name of a page kept there, and `survey` and `report` take the
//! same lock on it, so that neither loses the other's files.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::support::{cases_yaml, drive, names_in, scratch};

#[test]
fn a_link_given_as_out_is_kept_and_its_folder_written() {
    let (dir, cmd) = scratch(2, "x", "plain");
    fs::create_dir(dir.path().join("real")).unwrap();
    std::os::unix::fs::symlink("real", dir.path().join("reports")).unwrap();
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let link = dir.path().join("reports").symlink_metadata().unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a folder"
    );
    assert!(names_in(&dir.path().join("real")).contains(&"README.md".to_owned()));
}

#[test]
fn the_current_folder_can_be_the_reports_folder() {
    let (dir, cmd) = scratch(2, "x", "plain");
    let ran = drive(dir.path(), "report", &cmd, &["--out", "."]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let names = names_in(dir.path());
    assert!(names.contains(&"README.md".to_owned()), "{names:?}");
    assert!(names.contains(&"cases.yaml".to_owned()), "{names:?}");
}

/// A bind mount given as `--out` has the device of its parent, so only its mount flag tells that
/// it cannot be exchanged: its files are replaced one by one, and the run does not end in
/// "Device or resource busy". The mount is made in a mount namespace of the test's own
/// (`unshare --mount --map-root-user`), which needs no privileges where user namespaces are on.
#[test]
fn a_bind_mount_given_as_out_is_written_in_place() {
    let (dir, cmd) = scratch(2, "x", "plain");
    for folder in ["real", "mounted"] {
        fs::create_dir(dir.path().join(folder)).unwrap();
    }
    fs::write(dir.path().join("real/kept.txt"), "mine").unwrap();
    let script = "mount --bind real mounted || exit 99\n\
                  exec \"$BINARY\" report --cases cases.yaml --adapter-cmd \"$ADAPTER\" --out mounted";
    let ran = std::process::Command::new("unshare")
        .args(["--mount", "--map-root-user", "sh", "-c", script])
        .current_dir(dir.path())
        .env("BINARY", env!("CARGO_BIN_EXE_robotstxt-test"))
        .env("ADAPTER", &cmd)
        .output()
        .expect("unshare(1) (util-linux) runs");
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_ne!(ran.status.code(), Some(99), "no bind mount: {stderr}");
    assert_eq!(ran.status.code(), Some(0), "{stderr}");
    let names = names_in(&dir.path().join("real"));
    for name in ["README.md", "index.html", "kept.txt"] {
        assert!(names.contains(&name.to_owned()), "{name}: {names:?}");
    }
}

#[test]
fn the_folder_keeps_its_mode() {
    let (dir, cmd) = scratch(2, "x", "plain");
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o700)).unwrap();
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let mode = fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{mode:o}");
}

#[test]
fn an_adapter_named_like_a_kept_page_does_not_overwrite_it() {
    let (dir, cmd) = scratch(2, "x", "named-survey");
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("survey.md"), "kept").unwrap();
    fs::write(out.join("survey-2.md"), "kept too").unwrap();
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(fs::read_to_string(out.join("survey.md")).unwrap(), "kept");
    assert_eq!(
        fs::read_to_string(out.join("survey-2.md")).unwrap(),
        "kept too"
    );
    assert!(
        names_in(&out).contains(&"adapter-survey.md".to_owned()),
        "{:?}",
        names_in(&out)
    );
}

/// A folder with a one-case corpus for `survey`, the small case file for `report`, and `out/`.
fn survey_and_report_place() -> tempfile::TempDir {
    let (dir, _) = scratch(2, "x", "plain");
    fs::create_dir(dir.path().join("corpus")).unwrap();
    fs::write(
        dir.path().join("corpus/robots.txt"),
        "User-agent: *\nDisallow: /a\n",
    )
    .unwrap();
    fs::create_dir(dir.path().join("out")).unwrap();
    dir
}

const SURVEY: [&str; 7] = [
    "survey",
    "--corpus",
    "corpus",
    "--adapter",
    "reference",
    "--out",
    "out",
];
const REPORT: [&str; 7] = [
    "report",
    "--cases",
    "cases.yaml",
    "--adapter",
    "reference",
    "--out",
    "out",
];

fn start(dir: &std::path::Path, args: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// `survey` and `report` both wait for the lock on the folder they write into (the file
/// `.out.lock` beside it): while another holds it, neither writes a file there; once it is
/// released, both finish.
#[test]
fn survey_and_report_wait_for_the_folder_lock() {
    use rustix::fs::{flock, FlockOperation};
    let dir = survey_and_report_place();
    let out = dir.path().join("out");
    let held = fs::File::create(dir.path().join(".out.lock")).unwrap();
    flock(&held, FlockOperation::LockExclusive).unwrap();
    let mut survey = start(dir.path(), &SURVEY);
    let mut report = start(dir.path(), &REPORT);
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert!(
        survey.try_wait().unwrap().is_none(),
        "the survey did not wait"
    );
    assert!(
        report.try_wait().unwrap().is_none(),
        "the report did not wait"
    );
    assert_eq!(names_in(&out), Vec::<String>::new());
    drop(held);
    for mut child in [survey, report] {
        assert!(child.wait().unwrap().success());
    }
    let names = names_in(&out);
    for name in ["survey.json", "survey.md", "README.md", "index.html"] {
        assert!(names.contains(&name.to_owned()), "{name}: {names:?}");
    }
}

/// A survey and a report writing into one folder at the same moment, 10 times, at staggered
/// starts: each keeps its output.
#[test]
fn a_survey_racing_a_report_keeps_its_output() {
    for trial in 0..10u64 {
        let dir = survey_and_report_place();
        let mut report = start(dir.path(), &REPORT);
        std::thread::sleep(std::time::Duration::from_millis(25 * trial));
        let mut survey = start(dir.path(), &SURVEY);
        assert!(report.wait().unwrap().success(), "trial {trial}");
        assert!(survey.wait().unwrap().success(), "trial {trial}");
        let names = names_in(&dir.path().join("out"));
        for name in ["survey.json", "survey.md", "README.md", "index.html"] {
            assert!(
                names.contains(&name.to_owned()),
                "trial {trial}: {name}: {names:?}"
            );
        }
    }
}

/// Two reports and a survey into one folder at the same moment, 6 times: the folder the reports
/// exchange away does not take the survey's output with it (the lock is beside the folder).
#[test]
fn two_reports_and_a_survey_into_one_folder_keep_the_survey() {
    for trial in 0..6u64 {
        let dir = survey_and_report_place();
        let mut first = start(dir.path(), &REPORT);
        let mut survey = start(dir.path(), &SURVEY);
        std::thread::sleep(std::time::Duration::from_millis(20 * trial));
        let mut second = start(dir.path(), &REPORT);
        for child in [&mut first, &mut survey, &mut second] {
            assert!(child.wait().unwrap().success(), "trial {trial}");
        }
        let names = names_in(&dir.path().join("out"));
        for name in ["survey.json", "survey.md", "README.md", "index.html"] {
            assert!(
                names.contains(&name.to_owned()),
                "trial {trial}: {name}: {names:?}"
            );
        }
    }
}

/// `report --history` with a history folder that cannot be kept (a file stands in its place)
/// fails before any adapter starts.
#[test]
fn a_bad_history_folder_fails_before_any_adapter_runs() {
    let (dir, cmd) = scratch(2, "x", "plain");
    fs::write(dir.path().join("history"), "a file").unwrap();
    let ran = drive(
        dir.path(),
        "report",
        &cmd,
        &["--out", "reports", "--history", "history"],
    );
    // Exit 5: a place that cannot be written.
    assert_eq!(ran.code, 5, "{}", ran.stderr);
    assert!(ran.stderr.contains("history"), "{}", ran.stderr);
    assert!(
        !dir.path().join("pids").exists(),
        "an adapter was started: {}",
        ran.stderr
    );
    assert!(!dir.path().join("reports").exists());
}

/// SIGTERM to `report` at 16 moments spread over its run, the write of the folder included:
/// whenever it comes, no staging folder is left beside the reports folder, and the folder holds
/// the old set or the new one whole.
#[test]
fn an_interrupt_at_any_moment_leaves_no_staging_folder() {
    use rustix::process::{kill_process, Pid, Signal};
    let dir = survey_and_report_place();
    let out = dir.path().join("out");
    let mut finished = start(dir.path(), &REPORT);
    let began = std::time::Instant::now();
    assert!(finished.wait().unwrap().success());
    let whole = began.elapsed();
    let old = fs::read_to_string(out.join("README.md")).unwrap();
    for trial in 0..16u32 {
        let mut report = start(dir.path(), &REPORT);
        std::thread::sleep(whole * trial / 14);
        let _ = kill_process(Pid::from_child(&report), Signal::TERM);
        let status = report.wait().unwrap();
        // Before the handler is installed, the signal ends it outright (nothing written yet).
        use std::os::unix::process::ExitStatusExt;
        assert!(
            matches!(status.code(), Some(0 | 130)) || status.signal() == Some(15),
            "trial {trial}: {status:?}"
        );
        let beside: Vec<String> = names_in(dir.path())
            .into_iter()
            .filter(|n| n.starts_with(".out.new-"))
            .collect();
        assert_eq!(beside, Vec::<String>::new(), "trial {trial}");
        let names = names_in(&out);
        assert!(
            names.iter().all(|n| !n.contains(".tmp-")),
            "trial {trial}: {names:?}"
        );
        let readme = fs::read_to_string(out.join("README.md")).unwrap();
        // The date line changes between runs; the rest of the page is the same set.
        assert_eq!(readme.lines().count(), old.lines().count(), "trial {trial}");
    }
}

/// A full disk behind a mount point: the reports folder is a small file system of its own
/// (`tmpfs` in a mount namespace of the test's own), nearly full, so the second report runs out
/// of space part way. It fails, and the folder still holds the first report's files, every one
/// as it was, with no temporary left.
#[test]
fn a_full_disk_behind_a_mount_point_leaves_the_previous_set_whole() {
    let (dir, cmd) = scratch(2, "x", "plain");
    fs::create_dir(dir.path().join("mounted")).unwrap();
    // The second report differs from the first whenever it runs (three cases, not two).
    fs::write(dir.path().join("more.yaml"), cases_yaml(3, "x")).unwrap();
    let script = "mount -t tmpfs -o size=2m tmpfs mounted || exit 99\n\
                  \"$BINARY\" report --cases cases.yaml --adapter-cmd \"$ADAPTER\" --out mounted \
                  2>/dev/null || exit 98\n\
                  cp -r mounted before\n\
                  dd if=/dev/zero of=mounted/filler bs=4k 2>/dev/null\n\
                  truncate -s -24K mounted/filler\n\
                  \"$BINARY\" report --cases more.yaml --adapter-cmd \"$ADAPTER\" --out mounted\n\
                  echo \"second=$?\"\n\
                  rm mounted/filler\n\
                  diff -r before mounted && echo same\n\
                  ls -a mounted";
    let ran = std::process::Command::new("unshare")
        .args(["--mount", "--map-root-user", "sh", "-c", script])
        .current_dir(dir.path())
        .env("BINARY", env!("CARGO_BIN_EXE_robotstxt-test"))
        .env("ADAPTER", &cmd)
        .output()
        .expect("unshare(1) (util-linux) runs");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_ne!(ran.status.code(), Some(99), "no tmpfs: {stderr}");
    assert_ne!(ran.status.code(), Some(98), "the first report failed");
    // Exit 5: the folder could not be written.
    assert!(stdout.contains("second=5"), "{stdout}{stderr}");
    assert!(stderr.contains("No space left"), "{stderr}");
    assert!(stdout.contains("same"), "{stdout}");
    assert!(!stdout.contains(".tmp-"), "{stdout}");
}
