//! An adapter that cannot keep a process alive is given up on after a few restarts: one that
//! answers once per process, then exits, and ignores SIGTERM, would otherwise be restarted for
//! every other check (the answer resets the faults in a row). Written into a temporary folder.

use std::fs;

use crate::support::{cases_yaml, run};

/// Records its pid in `pids`, ignores SIGTERM, answers the handshake and one check, then exits
/// on the next.
const ONCE_PER_PROCESS: &str = r#"import json, os, signal, sys
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open("pids", "a") as f:
    f.write("%d\n" % os.getpid())
answered = 0
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello":
        reply = {"name": "once", "parser": "x", "version": "1", "language": "Python",
                 "homepage": "", "profile": "norobots-1994"}
    elif answered:
        os._exit(1)
    else:
        reply = {"id": request["id"], "results": ["allowed"] * len(request["queries"])}
        answered += 1
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
"#;

#[test]
fn an_adapter_answering_once_per_process_is_broken_after_a_few_restarts() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("once.py"), ONCE_PER_PROCESS).unwrap();
    fs::write(dir.path().join("cases.yaml"), cases_yaml(400, "x")).unwrap();
    let ran = run(
        dir.path(),
        &[
            "run",
            "--cases",
            "cases.yaml",
            "--adapter-cmd",
            "python3 once.py",
        ],
    );
    let starts = fs::read_to_string(dir.path().join("pids"))
        .unwrap()
        .lines()
        .count();
    let shown = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        shown.contains("cannot keep a process alive"),
        "{}: {shown}",
        ran.code
    );
    // The first start, then one restart after each fault until the fifth short life.
    assert_eq!(
        starts,
        robotstxt_runtime::adapter::process::SHORT_LIVES,
        "{shown}"
    );
    eprintln!(
        "given up on after {starts} processes, in {:.1} s",
        ran.elapsed.as_secs_f64()
    );
}
