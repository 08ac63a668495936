//! `cases export` is all or nothing: a write that fails part way (here, past a file-size limit,
//! as on a full disk) leaves no partial corpus, so a second export succeeds.

use std::process::Command;

#[test]
fn an_export_cut_short_leaves_nothing_a_rerun_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_robotstxt-test");
    // `ulimit -f 1`: no file past one block; the first larger case file fails to be written.
    let cut = Command::new("sh")
        .args(["-c", "ulimit -f 1; exec \"$0\" cases export out", binary])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!cut.status.success(), "the limited export succeeded");
    assert!(
        !dir.path().join("out").exists(),
        "a partial corpus was left at `out`"
    );
    let again = Command::new(binary)
        .args(["cases", "export", "out"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.starts_with("wrote "), "{text}");
}
