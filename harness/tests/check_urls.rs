//! `check --path` takes a local URL or a full URL; a full URL is asked about by its path and
//! query exactly as written, as `run` gives queries to adapters.

use std::process::Command;

fn check(dir: &std::path::Path, path: &str) -> (i32, String, String) {
    let ran = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args([
            "check",
            "--robots",
            "robots.txt",
            "--agent",
            "FooBot",
            "--path",
            path,
        ])
        .args(["--profile", "rfc9309"])
        .current_dir(dir)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .output()
        .unwrap();
    (
        ran.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&ran.stdout).into_owned(),
        String::from_utf8_lossy(&ran.stderr).into_owned(),
    )
}

#[test]
fn a_full_url_is_asked_about_by_its_path_and_query() {
    let dir = tempfile::tempdir().unwrap();
    let body = "User-agent: *\nDisallow: /private\nDisallow: /*?q=1$\n";
    std::fs::write(dir.path().join("robots.txt"), body).unwrap();
    for (url, local, verdict) in [
        ("https://example.com/private", "/private", "disallowed"),
        ("https://example.com/public", "/public", "allowed"),
        ("http://example.com:8080/a?q=1#top", "/a?q=1", "disallowed"),
        ("https://example.com", "/", "allowed"),
        ("https://example.com/%70rivate", "/%70rivate", "disallowed"),
    ] {
        let (code, by_url, stderr) = check(dir.path(), url);
        assert_eq!(code, 0, "{url}: {stderr}");
        assert_eq!(by_url.lines().next(), Some(verdict), "{url}: {by_url}");
        let (_, by_path, _) = check(dir.path(), local);
        assert_eq!(by_url, by_path, "{url} against {local}");
    }
}

#[test]
fn what_is_neither_a_path_nor_a_full_url_is_refused_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("robots.txt"), "User-agent: *\n").unwrap();
    let (code, stdout, stderr) = check(dir.path(), "example.com/private");
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.contains("--path") && stderr.contains("not a full URL"),
        "{stderr}"
    );
}
