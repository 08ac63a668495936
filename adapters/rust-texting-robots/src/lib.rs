//! The `texting_robots` crate called as its users call it. The adapter's protocol loop
//! (`main.rs`), the fuzz targets and the benchmarks all call [`check`], so the crate's version is
//! pinned in this folder's Cargo.toml alone.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use texting_robots::Robot;

/// Must match the `=x.y.z` pin in Cargo.toml and `package.version` in adapter.yaml (tested).
pub const PARSER_VERSION: &str = "0.2.2";

/// Answers each `(agent, path)` query about `body`: `true` when allowed.
///
/// The API binds one agent per `Robot`, built from the bytes, so the body is parsed once per
/// distinct agent. An error building it is the parser refusing the body; so is a panic.
pub fn check(body: &[u8], queries: &[(&str, &str)]) -> Result<Vec<bool>, String> {
    let run = || {
        let mut robots: HashMap<&str, Robot> = HashMap::new();
        let mut answers = Vec::with_capacity(queries.len());
        for &(agent, path) in queries {
            if !robots.contains_key(agent) {
                let robot = Robot::new(agent, body).map_err(|e| format!("anyhow::Error: {e:#}"))?;
                robots.insert(agent, robot);
            }
            answers.push(robots[agent].allowed(&format!("http://example.com{path}")));
        }
        Ok(answers)
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|payload| {
        let message = (payload.downcast_ref::<&str>().copied().map(str::to_owned))
            .or_else(|| payload.downcast_ref::<String>().cloned());
        Err(format!(
            "panic: {}",
            message.as_deref().unwrap_or("non-string payload")
        ))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_version_is_pinned_alike_in_cargo_toml_and_adapter_yaml() {
        let version = super::PARSER_VERSION;
        assert!(include_str!("../Cargo.toml").contains(&format!("texting_robots = \"={version}\"")));
        assert!(include_str!("../adapter.yaml").contains(&format!("version: \"{version}\"")));
    }

    #[test]
    fn answers_each_query() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let answers = super::check(body, &[("FooBot", "/private/x"), ("BarBot", "/x")]);
        assert_eq!(answers, Ok(vec![false, true]));
    }
}
