//! The survey over a small generated corpus: counts, causes, faults, shards and their merge,
//! archives, and the written reports.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use robotstxt_reference::{Profile, Verdict};
use robotstxt_runtime::lifecycle::{InProcess, Lifecycle};
use robotstxt_suite::cause::Cause;
use robotstxt_suite::engine::{Engine, Failure, Fault, Handshake, Query, ReferenceEngine, Reply};
use robotstxt_survey as survey;
use robotstxt_survey::corpus::CorpusError;
use robotstxt_survey::merge::{merge, MergeError};
use robotstxt_survey::{write, Options, Shard, Survey};

/// The reference under RFC 9309 claiming to implement the 1994 text: it disagrees with the
/// reference exactly where the two profiles differ.
struct RfcClaiming1994 {
    inner: ReferenceEngine,
    handshake: Handshake,
}

impl RfcClaiming1994 {
    fn new() -> RfcClaiming1994 {
        let inner = ReferenceEngine::new(Profile::Rfc9309);
        let mut handshake = inner.handshake().clone();
        handshake.name = "rfc-as-1994".into();
        handshake.profile = "norobots-1994".into();
        RfcClaiming1994 { inner, handshake }
    }
}

impl Engine for RfcClaiming1994 {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        self.inner.check(id, robots, queries)
    }
}

impl InProcess for RfcClaiming1994 {}

/// The 1994 reference, except that it refuses, crashes on or times out on files by name.
struct Faulty {
    inner: ReferenceEngine,
    handshake: Handshake,
}

impl Faulty {
    fn new() -> Faulty {
        let inner = ReferenceEngine::new(Profile::Norobots1994);
        let mut handshake = inner.handshake().clone();
        handshake.name = "faulty".into();
        handshake.profile = "other".into();
        Faulty { inner, handshake }
    }
}

impl Engine for Faulty {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        let fault = |fault| {
            Err(Failure {
                fault,
                detail: "test".into(),
            })
        };
        match id {
            "empty.txt" => Ok(Reply::Rejected("empty".into())),
            "html.txt" => fault(Fault::Crash),
            "plain.txt" => fault(Fault::Timeout),
            _ => self.inner.check(id, robots, queries),
        }
    }
}

impl InProcess for Faulty {}

/// Bodies with known differences between the profiles, and some without.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = vec![
        // RFC 9309 reads Allow; the 1994 text ignores it: /public and three neighbours differ.
        ("allow.txt", "User-agent: *\nAllow: /public\nDisallow: /\n"),
        // RFC 9309 wildcards: /x.gif differs, nothing else does.
        ("wild.txt", "User-agent: *\nDisallow: /*.gif$\n"),
        ("plain.txt", "User-agent: *\nDisallow: /tmp/\n"),
        ("empty.txt", ""),
        ("html.txt", "<html><body>Not found</body></html>\n"),
        // Lone CR line endings, in a folder: the `*` group's Allow differs for /bar/open.
        (
            "sub/cr-only.txt",
            "User-agent: BarBot\rDisallow: /bar\r\rUser-agent: *\rAllow: /bar/open\rDisallow: /bar\r",
        ),
    ]
    .into_iter()
    .map(|(name, body)| (name.to_owned(), body.as_bytes().to_vec()))
    .collect();
    // More of the Allow kind, so that every shard holds some.
    for i in 0..12 {
        let body = format!("User-agent: *\nAllow: /p{i}\nDisallow: /\n");
        files.push((format!("more/allow-{i:02}.txt"), body.into_bytes()));
    }
    files
}

fn write_folder(dir: &Path) {
    for (name, body) in corpus() {
        let path = dir.join(&name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, body).unwrap();
    }
}

fn run(corpus: &Path, shard: Option<Shard>) -> Survey {
    let mut engines: Vec<Box<dyn Lifecycle>> = vec![
        Box::new(RfcClaiming1994::new()),
        Box::new(Faulty::new()),
        Box::new(ReferenceEngine::new(Profile::Rfc9309)),
    ];
    let options = Options {
        shard,
        ..Options::default()
    };
    survey::survey(corpus, &mut engines, &options, &|_, _| {}).unwrap()
}

fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_folder(dir.path());
    dir
}

#[test]
fn counts_disagreements_faults_and_causes() {
    let dir = folder();
    let s = run(dir.path(), None);
    assert_eq!(s.files, 18);
    assert_eq!(
        s.bytes,
        corpus().iter().map(|(_, b)| b.len() as u64).sum::<u64>()
    );
    // allow.txt and the twelve like it: 4 checks each; wild.txt 1; cr-only 4.
    assert_eq!((s.profiles.files, s.profiles.checks), (15, 13 * 4 + 1 + 4));

    let [rfc, faulty, reference] = &s.adapters[..] else {
        panic!("three engines")
    };
    assert_eq!(rfc.adapter, "rfc-as-1994");
    assert_eq!(rfc.compared_under, "norobots-1994");
    assert_eq!(
        (rfc.files, rfc.errors, rfc.crashes, rfc.timeouts),
        (18, 0, 0, 0)
    );
    assert_eq!(
        (rfc.disagreements.files, rfc.disagreements.checks),
        (15, 57)
    );
    assert_eq!(rfc.norobots_1994, rfc.disagreements);
    assert_eq!(rfc.open_points.checks, 0);
    assert_eq!(rfc.differing, rfc.disagreements);

    // Signatures: the Allow files, the lone-CR file with its Allow, and the wildcard.
    let signatures: BTreeMap<&str, (usize, usize)> = rfc
        .signatures
        .iter()
        .map(|s| (s.signature.as_str(), (s.files, s.checks)))
        .collect();
    // Each starts with its cause, as `run` reads causes.
    let allowing = "reference disallowed, adapter allowed; as rfc9309 says; the * record; \
                    Disallow decides; an Allow line matches too";
    let allow = format!("an Allow line matches the path too; {allowing}");
    let allow = allow.as_str();
    let cr = format!("CR-only line endings; {allowing}; file: CR-only line endings");
    let wild = "a rule with `*` or `$` that does not decide; reference allowed, adapter \
                disallowed; as rfc9309 says; the * record; no rule matches; probing a rule with * $";
    assert_eq!(signatures[allow], (13, 52), "{signatures:#?}");
    assert_eq!(signatures[&*cr], (1, 4));
    assert_eq!(signatures[wild], (1, 1));
    assert_eq!(signatures.len(), 3);
    let cause_of = |text: &str| {
        rfc.signatures
            .iter()
            .find(|s| s.signature == text)
            .unwrap()
            .cause
    };
    assert_eq!(cause_of(&cr), Cause::LoneCr);
    // Causes: the reducer takes the first two to one case, so they are one cause of 14 files,
    // named by what causes the reduced case: the lone CRs were not it.
    let [first, second] = &rfc.causes[..] else {
        panic!("two causes: {:#?}", rfc.causes)
    };
    assert_eq!(
        first.shape,
        "User-agent: * ⏎ Allow: / ⏎ Disallow: / ⏎ FooBot asks for /"
    );
    assert_eq!(first.cause, Cause::AllowMatches);
    assert_eq!((first.files, first.checks), (14, 56));
    assert_eq!(first.signatures, [allow, cr.as_str()]);
    assert_eq!(
        second.shape,
        "User-agent: * ⏎ Disallow: * ⏎ FooBot asks for /"
    );
    assert_eq!(second.cause, Cause::WildcardRule);
    assert_eq!(
        (second.files, second.checks, &second.signatures[..]),
        (1, 1, &[wild.to_owned()][..])
    );
    // The example is the smallest file (then by name), with every line that decided: the
    // record's User-agent line and the rule that matched for the reference, the Allow line the
    // adapter obeyed.
    let example = &rfc
        .signatures
        .iter()
        .find(|x| x.signature == allow)
        .unwrap()
        .example;
    assert_eq!(
        (example.file.as_str(), example.bytes),
        ("more/allow-00.txt", 37)
    );
    assert_eq!(
        (example.agent.as_str(), example.path.as_str()),
        ("FooBot", "/p0")
    );
    assert_eq!(
        (example.reference.as_str(), example.adapter.as_str()),
        ("disallowed", "allowed")
    );
    assert_eq!(
        example.lines,
        [
            "    1 │ User-agent: *",
            "    2 │ Allow: /p0",
            "    3 │ Disallow: /"
        ]
    );
    assert!(example.adapter_lines);

    // Faults are counted per file and never as disagreements.
    assert_eq!(faulty.compared_under, "norobots-1994");
    assert_eq!(
        (faulty.files, faulty.errors, faulty.crashes, faulty.timeouts),
        (15, 1, 1, 1)
    );
    assert_eq!(faulty.disagreements.files, 0);

    // The reference under RFC 9309 claims it and agrees; against 1994 it differs as the profiles do.
    assert_eq!(reference.compared_under, "rfc9309");
    assert_eq!(reference.disagreements.files, 0);
    assert_eq!(
        (
            reference.norobots_1994.files,
            reference.norobots_1994.checks
        ),
        (s.profiles.files, s.profiles.checks)
    );
}

/// The 1994 reference with every verdict turned around: it differs from the reference on every
/// check, so each check is either a scored disagreement or an open-point one.
struct Contrary {
    inner: ReferenceEngine,
    handshake: Handshake,
}

impl Engine for Contrary {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        match self.inner.check(id, robots, queries)? {
            Reply::Verdicts(v) => Ok(Reply::Verdicts(
                v.into_iter()
                    .map(|v| match v {
                        Verdict::Allowed => Verdict::Disallowed,
                        Verdict::Disallowed => Verdict::Allowed,
                    })
                    .collect(),
            )),
            other => Ok(other),
        }
    }
}

impl InProcess for Contrary {}

#[test]
fn scored_and_open_point_disagreements_are_counted_apart() {
    let dir = tempfile::tempdir().unwrap();
    // A byte-order mark is an open point under norobots-1994: whether FooBot's record holds
    // `Disallow: /a` hinges on it, so checks of /a are open, while `/` is allowed either way.
    fs::write(
        dir.path().join("bom.txt"),
        b"\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("plain.txt"),
        b"User-agent: *\nDisallow: /tmp/\n",
    )
    .unwrap();
    let inner = ReferenceEngine::new(Profile::Norobots1994);
    let mut handshake = inner.handshake().clone();
    handshake.name = "contrary".into();
    let mut engines: Vec<Box<dyn Lifecycle>> = vec![Box::new(Contrary { inner, handshake })];
    let s = survey::survey(dir.path(), &mut engines, &Options::default(), &|_, _| {}).unwrap();
    let a = &s.adapters[0];
    assert_eq!(a.compared_under, "norobots-1994");
    // Every check differs, and each is counted once: scored or open.
    assert_eq!(a.checks, s.queries);
    assert_eq!(a.differing.checks, a.checks);
    assert_eq!(
        a.disagreements.checks + a.open_points.checks,
        a.differing.checks
    );
    assert!(
        a.open_points.checks > 0 && a.disagreements.checks > 0,
        "{a:#?}"
    );
    // bom.txt holds both kinds: it counts in both columns, once among the files differing.
    assert_eq!(a.open_points.files, 1);
    assert_eq!(a.disagreements.files, 2);
    assert_eq!(a.differing.files, 2);
    assert_eq!(a.norobots_1994.checks, a.differing.checks);
    let md = write::markdown(&s);
    let row = format!(
        "| contrary | robotstxt-reference 0.1.0 | norobots-1994 | norobots-1994 | 2 | 2 (100.0%) | {} | 1 (50.0%) | {} | 2 (100.0%) |",
        a.disagreements.checks, a.open_points.checks
    );
    assert!(md.contains(&row), "{row}\n{md}");
    assert!(md.contains("| scored disagreements: files | checks | open-point disagreements: files | checks | differing at all: files |"), "{md}");
}

#[test]
fn shards_merge_into_the_whole_survey() {
    let dir = folder();
    let whole = run(dir.path(), None);
    let one = run(dir.path(), Some(Shard::parse("1/2").unwrap()));
    let two = run(dir.path(), Some(Shard::parse("2/2").unwrap()));
    assert!(one.files > 0 && two.files > 0, "both shards hold files");
    assert_eq!(one.files + two.files, whole.files);
    assert!(one.adapters[0].disagreements.files > 0 && two.adapters[0].disagreements.files > 0);
    let merged = merge(vec![two.clone(), one.clone()]).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(
        serde_json::to_string(&merged).unwrap(),
        serde_json::to_string(&whole).unwrap()
    );
    // A shard twice, a whole survey, or a different split is refused.
    assert_eq!(
        merge(vec![one.clone(), one.clone()]).unwrap_err(),
        MergeError::ShardTwice { index: 1, count: 2 }
    );
    assert_eq!(
        merge(vec![one.clone(), whole.clone()]).unwrap_err(),
        MergeError::Whole
    );
    let three = run(dir.path(), Some(Shard::parse("1/3").unwrap()));
    assert!(merge(vec![one.clone(), three]).is_err());
    // A `survey.json` naming shard 0 (or one past its count, or one twice) is refused, so that
    // shard 0 beside shard 2 never reads as the whole of two.
    for included in [vec![0], vec![3], vec![2, 2]] {
        let mut forged = one.clone();
        forged.shards.as_mut().unwrap().included = included.clone();
        let refused = merge(vec![forged.clone(), two.clone()]).unwrap_err();
        let index = included[0];
        let expected = if index == 2 {
            MergeError::ShardTwice { index, count: 2 }
        } else {
            MergeError::ShardNumber { index, count: 2 }
        };
        assert_eq!(refused, expected, "{included:?}");
        assert_eq!(merge(vec![two.clone(), forged]).unwrap_err(), expected);
    }
    // Only part of the shards: still marked as such.
    assert_eq!(merge(vec![one]).unwrap().shards.unwrap().included, [1]);
    for bad in ["0/2", "3/2", "2", "a/b", "1/0"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn archives_read_like_the_folder() {
    let dir = folder();
    let whole = run(dir.path(), None);
    let archives = tempfile::tempdir().unwrap();
    let tar_path = archives.path().join("corpus.tar");
    let mut builder = tar::Builder::new(Vec::new());
    builder.append_dir_all(".", dir.path()).unwrap();
    let tar = builder.into_inner().unwrap();
    fs::write(&tar_path, &tar).unwrap();
    let xz_path = archives.path().join("corpus.tar.xz");
    let mut encoder = xz2::write::XzEncoder::new(Vec::new(), 6);
    std::io::Write::write_all(&mut encoder, &tar).unwrap();
    fs::write(&xz_path, encoder.finish().unwrap()).unwrap();
    for path in [&tar_path, &xz_path] {
        let mut from_archive = run(path, None);
        assert_eq!(from_archive.files, 18);
        from_archive.corpus = whole.corpus.clone();
        assert_eq!(from_archive, whole, "{}", path.display());
    }
    // Shards of an archive merge like shards of the folder.
    let parts: Vec<Survey> = (1..=3)
        .map(|k| run(&xz_path, Some(Shard { index: k, count: 3 })))
        .collect();
    let mut merged = merge(parts).unwrap();
    merged.corpus = whole.corpus.clone();
    assert_eq!(merged, whole);
    // Not a corpus.
    let bad = archives.path().join("corpus.zip");
    fs::write(&bad, b"PK").unwrap();
    let mut engines: Vec<Box<dyn Lifecycle>> =
        vec![Box::new(ReferenceEngine::new(Profile::Rfc9309))];
    let error = survey::survey(&bad, &mut engines, &Options::default(), &|_, _| {}).unwrap_err();
    assert!(
        matches!(error, CorpusError::NotACorpus(ref path) if *path == bad),
        "{error}"
    );
    assert!(error.to_string().contains("corpus.zip"), "{error}");
}

#[test]
fn reports_are_written_atomically_and_read_back() {
    let dir = folder();
    let s = run(dir.path(), None);
    let out = tempfile::tempdir().unwrap();
    let reports = out.path().join("reports");
    write::write(&s, &reports).unwrap();
    assert_eq!(write::read(&reports.join("survey.json")).unwrap(), s);
    let md = fs::read_to_string(reports.join("survey.md")).unwrap();
    // Scored disagreements, open-point ones and files differing at all, each in its own columns.
    assert!(md.contains("| rfc-as-1994 | robotstxt-reference 0.1.0 | norobots-1994 | norobots-1994 | 18 | 15 (83.3%) | 57 | 0 (0.0%) | 0 | 15 (83.3%) |"), "{md}");
    assert!(md.contains("2 │ Allow: /p0"), "{md}");
    // Writing again replaces both files and leaves nothing else behind.
    let mut other = s.clone();
    other.corpus = "other".to_owned();
    write::write(&other, &reports).unwrap();
    assert_eq!(
        write::read(&reports.join("survey.json")).unwrap().corpus,
        "other"
    );
    let mut names: Vec<String> = fs::read_dir(&reports)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["survey.csv", "survey.html", "survey.json", "survey.md"]
    );
    // A survey.json that cannot be written keeps what was there.
    let blocked = out.path().join("blocked");
    fs::create_dir_all(blocked.join("survey.json")).unwrap();
    assert!(write::write(&s, &blocked).is_err());
    assert!(blocked.join("survey.json").is_dir());
    assert!(!blocked.join("survey.md").exists());
}

#[test]
fn hidden_hosts_leave_no_file_name_in_the_survey() {
    let dir = folder();
    let mut s = run(dir.path(), None);
    survey::naming::hide_hosts(&mut s);
    let json = serde_json::to_string(&s).unwrap();
    for (name, _) in corpus() {
        let file = name.rsplit('/').next().unwrap();
        assert!(!json.contains(file), "{file} in {json}");
    }
    let examples: Vec<&str> = s
        .adapters
        .iter()
        .flat_map(|a| &a.signatures)
        .map(|x| x.example.file.as_str())
        .collect();
    assert!(!examples.is_empty());
    for file in examples {
        assert!(file.starts_with("site-") && file.len() == 17, "{file}");
    }
    assert_eq!(
        survey::naming::token("allow.txt"),
        survey::naming::token("allow.txt")
    );
}
