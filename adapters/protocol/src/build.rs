//! For a Rust adapter's build script (the `build` feature): its handshake read from its own
//! `adapter.yaml`, so that the manifest the harness reads is the one place that says what the
//! adapter wraps, and [`handshake!`](crate::handshake) answers with exactly that.
//!
//! The parser's version is the manifest's pin. What the adapter runs is what its `Cargo.toml`
//! pins, so for a crate from crates.io the build fails unless `Cargo.toml` pins that crate at
//! exactly that version (`"=x.y.z"`): the handshake can then not report a version other than the
//! one compiled in. (The harness refuses, too, an adapter whose handshake disagrees with its
//! manifest; this says so when the adapter is built, naming both files.)

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Handshake;

/// The names of the variables the build script sets for the adapter's code, by field.
pub const VARIABLES: [(&str, &str); 6] = [
    ("name", "ROBOTSTXT_ADAPTER_NAME"),
    ("parser", "ROBOTSTXT_ADAPTER_PARSER"),
    ("version", "ROBOTSTXT_ADAPTER_VERSION"),
    ("language", "ROBOTSTXT_ADAPTER_LANGUAGE"),
    ("homepage", "ROBOTSTXT_ADAPTER_HOMEPAGE"),
    ("profile", "ROBOTSTXT_ADAPTER_PROFILE"),
];

/// Why the handshake cannot be read from the manifest.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Yaml {
        path: PathBuf,
        source: serde_yaml::Error,
    },
    #[error("{}: {source}", path.display())]
    Toml {
        path: PathBuf,
        source: toml::de::Error,
    },
    #[error(
        "{}: [dependencies] asks for `{crate_name}` {}, but {} says package.version \
         \"{version}\": pin it as `{crate_name} = \"={version}\"`, or change the manifest",
        cargo_toml.display(),
        requirement.as_ref().map_or("at no version".to_owned(), |r| format!("as \"{r}\"")),
        manifest.display()
    )]
    Pin {
        cargo_toml: PathBuf,
        manifest: PathBuf,
        crate_name: String,
        requirement: Option<String>,
        version: String,
    },
    #[error("{}: {problem}", path.display())]
    Handshake { path: PathBuf, problem: String },
}

/// The part of `adapter.yaml` a handshake comes from (the harness reads the whole of it).
#[derive(Deserialize)]
struct Manifest {
    name: String,
    parser: String,
    language: String,
    homepage: String,
    profile: String,
    package: Package,
}

#[derive(Deserialize)]
struct Package {
    name: String,
    version: String,
    registry: String,
}

/// The handshake that the adapter in `dir` (holding `adapter.yaml` and `Cargo.toml`) answers.
pub fn handshake_in(dir: &Path) -> Result<Handshake, ManifestError> {
    let manifest_path = dir.join("adapter.yaml");
    let manifest: Manifest =
        serde_yaml::from_str(&read(&manifest_path)?).map_err(|source| ManifestError::Yaml {
            path: manifest_path.clone(),
            source,
        })?;
    if manifest.package.registry == "crates.io" {
        let cargo_toml = dir.join("Cargo.toml");
        let package: toml::Table =
            read(&cargo_toml)?
                .parse()
                .map_err(|source| ManifestError::Toml {
                    path: cargo_toml.clone(),
                    source,
                })?;
        let requirement = package
            .get("dependencies")
            .and_then(|deps| deps.get(&manifest.package.name))
            .and_then(|dep| dep.as_str().or_else(|| dep.get("version")?.as_str()));
        let exact = format!("={}", manifest.package.version);
        if requirement != Some(exact.as_str()) {
            return Err(ManifestError::Pin {
                cargo_toml,
                manifest: manifest_path,
                crate_name: manifest.package.name,
                requirement: requirement.map(str::to_owned),
                version: manifest.package.version,
            });
        }
    }
    let handshake = Handshake {
        name: manifest.name.into(),
        parser: manifest.parser.into(),
        version: manifest.package.version.into(),
        language: manifest.language.into(),
        homepage: manifest.homepage.into(),
        profile: manifest.profile.into(),
    };
    match handshake.problems().into_iter().next() {
        Some(problem) => Err(ManifestError::Handshake {
            path: manifest_path,
            problem,
        }),
        None => Ok(handshake),
    }
}

/// What a Rust adapter's `build.rs` calls: reads the handshake of the package being built from
/// its `adapter.yaml` and hands it to the package's code, where [`handshake!`](crate::handshake)
/// picks it up. A manifest that cannot give one fails the build, saying why.
pub fn handshake_from_manifest() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    for file in ["adapter.yaml", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={}", dir.join(file).display());
    }
    let handshake = handshake_in(&dir).unwrap_or_else(|e| panic!("{e}"));
    let values = [
        &handshake.name,
        &handshake.parser,
        &handshake.version,
        &handshake.language,
        &handshake.homepage,
        &handshake.profile,
    ];
    for ((field, variable), value) in VARIABLES.iter().zip(values) {
        // The exact text: the adapter answers with what its manifest says.
        let value = value.raw();
        assert!(
            !value.contains(['\n', '\r']),
            "{}: `{field}` spans lines",
            dir.join("adapter.yaml").display()
        );
        println!("cargo:rustc-env={variable}={value}");
    }
}

fn read(path: &Path) -> Result<String, ManifestError> {
    std::fs::read_to_string(path).map_err(|source| ManifestError::Read {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(manifest: &str, cargo_toml: &str) -> tempfile::TempDir {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("adapter.yaml"), manifest).unwrap();
        std::fs::write(folder.path().join("Cargo.toml"), cargo_toml).unwrap();
        folder
    }

    const MANIFEST: &str =
        "name: rust-x\nparser: x\nlanguage: Rust\nhomepage: https://example.org\n\
        profile: rfc9309\npackage:\n  name: x_crate\n  version: \"1.2.3\"\n  registry: crates.io\n\
        input: bytes\nrun: [\"{target}/release/adapter-rust-x\"]\n";

    #[test]
    fn the_handshake_is_the_manifest_and_its_pin() {
        let folder = adapter(MANIFEST, "[dependencies]\nx_crate = \"=1.2.3\"\n");
        let handshake = handshake_in(folder.path()).unwrap();
        assert_eq!(
            handshake,
            Handshake {
                name: "rust-x".into(),
                parser: "x".into(),
                version: "1.2.3".into(),
                language: "Rust".into(),
                homepage: "https://example.org".into(),
                profile: "rfc9309".into(),
            }
        );
        let table =
            "[dependencies]\nx_crate = { version = \"=1.2.3\", default-features = false }\n";
        assert!(handshake_in(adapter(MANIFEST, table).path()).is_ok());
    }

    #[test]
    fn a_pin_other_than_the_manifests_fails_naming_both_files() {
        for cargo_toml in [
            "[dependencies]\nx_crate = \"=1.2.4\"\n",
            "[dependencies]\nx_crate = \"1.2.3\"\n",
            "[dependencies]\nother = \"1\"\n",
        ] {
            let folder = adapter(MANIFEST, cargo_toml);
            let error = handshake_in(folder.path()).unwrap_err().to_string();
            assert!(
                error.contains("Cargo.toml: [dependencies] asks for `x_crate` ")
                    && error.contains("adapter.yaml says package.version \"1.2.3\""),
                "{error}"
            );
        }
    }

    #[test]
    fn a_bad_manifest_fails_naming_the_file_and_the_field() {
        let pinned = "[dependencies]\nx_crate = \"=1.2.3\"\n";
        let folder = adapter(&MANIFEST.replace("rfc9309", "rfc-9309"), pinned);
        let error = handshake_in(folder.path()).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "adapter.yaml: profile `rfc-9309` is not one of norobots-1994, rfc9309, other"
            ),
            "{error}"
        );
        let folder = adapter(&MANIFEST.replace("parser: x\n", ""), pinned);
        let error = handshake_in(folder.path()).unwrap_err().to_string();
        assert!(
            error.contains("adapter.yaml: missing field `parser`"),
            "{error}"
        );
    }
}
