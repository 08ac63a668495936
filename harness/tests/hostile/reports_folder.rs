//! The reports folder `report --out` rebuilds: a link to it is kept and the folder it names is
//! written, the current folder can be the reports folder, the folder keeps its mode, and an
//! adapter's page never takes the name of a page kept there.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::support::{drive, names_in, scratch};

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
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(fs::read_to_string(out.join("survey.md")).unwrap(), "kept");
    assert!(
        names_in(&out).contains(&"survey-2.md".to_owned()),
        "{:?}",
        names_in(&out)
    );
}
