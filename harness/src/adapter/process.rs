//! One persistent adapter process, driven through the JSON-lines protocol of
//! `adapters/PROTOCOL.md`, behind the [`Engine`] trait.
//!
//! Nothing the adapter does can hang the harness or exhaust its memory: every read has a
//! deadline (a reader thread feeds a bounded channel), every write happens on a writer thread,
//! lines are capped in length, stderr keeps only its tail, and a faulty process is killed with its
//! whole process group and reaped, then started again for the next batch. After several faults in
//! a row the adapter is given up on ("broken") and answers every later batch as unavailable.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use base64::Engine as _;
use robotstxt_reference::Verdict;
use serde::Serialize;
use serde_json::Value;

use super::holders;
use crate::engine::{Engine, Failure, Fault, Handshake, Query, Reply};
use crate::limits::cap_text;
use crate::signals::{self, Running};

/// The protocol version this harness speaks.
pub const PROTOCOL_VERSION: u32 = 1;
/// Longest line accepted from an adapter.
pub const MAX_LINE: usize = 64 << 20;
/// How much of an adapter's stderr is kept.
const STDERR_TAIL: usize = 16 << 10;
/// How often a wait for an answer looks whether the process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);
/// How long after its exit a process's last line may still arrive.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// Limits for one adapter process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long one check may take.
    pub timeout: Duration,
    /// How long the process may take to start and answer the handshake.
    pub start_timeout: Duration,
    /// Faults in a row after which the adapter is marked broken.
    pub max_consecutive_faults: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: Duration::from_secs(5),
            start_timeout: Duration::from_secs(30),
            max_consecutive_faults: 3,
        }
    }
}

/// A running (or restartable) adapter.
pub struct AdapterProcess {
    argv: Vec<String>,
    limits: Limits,
    handshake: Handshake,
    live: Option<Live>,
    consecutive_faults: usize,
    broken: Option<String>,
    transcript: Option<Transcript>,
}

/// Every line sent to an adapter and read from it, in order, across restarts: what a test
/// checks the protocol's messages against.
#[derive(Debug, Clone, Default)]
pub struct Transcript(Arc<Mutex<Vec<TranscriptLine>>>);

/// One line of a [`Transcript`], without its `\n`.
pub type TranscriptLine = (Direction, Vec<u8>);

/// Which way a line of a [`Transcript`] went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ToAdapter,
    FromAdapter,
}

impl Transcript {
    fn record(&self, direction: Direction, line: &[u8]) {
        if let Ok(mut lines) = self.0.lock() {
            lines.push((direction, line.to_vec()));
        }
    }

    /// The lines so far.
    pub fn lines(&self) -> Vec<TranscriptLine> {
        self.0.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

/// The process and the threads that talk to it.
pub(crate) struct Live {
    child: Child,
    requests: mpsc::Sender<Vec<u8>>,
    lines: Receiver<ReadEvent>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    transcript: Option<Transcript>,
    /// Registered for the interrupt handler, which stops it if the run is interrupted.
    running: Running,
}

pub(crate) enum ReadEvent {
    Line(Vec<u8>),
    TooLong,
    Closed,
}

#[derive(Serialize)]
struct CheckRequest<'a> {
    r#type: &'static str,
    id: &'a str,
    robots_b64: String,
    queries: Vec<WireQuery<'a>>,
}

#[derive(Serialize)]
struct WireQuery<'a> {
    agent: &'a str,
    product_token: &'a str,
    path: &'a str,
    url: String,
}

impl AdapterProcess {
    /// Starts `argv` and performs the handshake. An error here means the adapter is unavailable.
    pub fn start(argv: Vec<String>, limits: Limits) -> Result<AdapterProcess, Failure> {
        AdapterProcess::start_recorded(argv, limits, None)
    }

    /// As [`AdapterProcess::start`], recording every line both ways into `transcript`.
    pub fn start_recorded(
        argv: Vec<String>,
        limits: Limits,
        transcript: Option<Transcript>,
    ) -> Result<AdapterProcess, Failure> {
        let (live, handshake) = Live::start(&argv, limits.start_timeout, transcript.clone())?;
        Ok(AdapterProcess {
            argv,
            limits,
            handshake,
            live: Some(live),
            consecutive_faults: 0,
            broken: None,
            transcript,
        })
    }

    fn exchange(&mut self, id: &str, request: &[u8], queries: usize) -> Result<Reply, Failure> {
        if self.live.is_none() {
            let (live, _) = Live::start(
                &self.argv,
                self.limits.start_timeout,
                self.transcript.clone(),
            )?;
            self.live = Some(live);
        }
        let live = self.live.as_mut().expect("started above");
        let line = live.ask(request, self.limits.timeout)?;
        parse_reply(&line, id, queries).map_err(|detail| live.failure(Fault::ProtocolError, detail))
    }
}

impl Engine for AdapterProcess {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        if let Some(reason) = &self.broken {
            return Err(Failure {
                fault: Fault::Unavailable,
                detail: format!("adapter broken: {reason}"),
            });
        }
        let request = CheckRequest {
            r#type: "check",
            id,
            robots_b64: base64::engine::general_purpose::STANDARD.encode(robots),
            queries: queries
                .iter()
                .map(|q| WireQuery {
                    agent: &q.agent,
                    product_token: crate::engine::product_token(&q.agent),
                    path: &q.path,
                    url: crate::local_url::full_url(&q.path),
                })
                .collect(),
        };
        let request = serde_json::to_vec(&request).expect("plain data serializes");
        match self.exchange(id, &request, queries.len()) {
            Ok(reply) => {
                self.consecutive_faults = 0;
                Ok(reply)
            }
            Err(failure) => {
                if let Some(live) = self.live.take() {
                    live.kill();
                }
                self.consecutive_faults += 1;
                if self.consecutive_faults >= self.limits.max_consecutive_faults {
                    self.broken = Some(format!(
                        "{} faults in a row, the last: {} ({})",
                        self.consecutive_faults,
                        failure.fault.as_str(),
                        first_line(&failure.detail)
                    ));
                }
                Err(failure)
            }
        }
    }

    fn unavailable(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// The next batch starts a new process (`exchange` starts one when none is live).
    fn fresh_start(&mut self) {
        self.stop_live();
    }
}

impl AdapterProcess {
    /// Asks the adapter to stop, and kills it if it has not within half a second.
    fn stop_live(&mut self) {
        if let Some(mut live) = self.live.take() {
            live.send(br#"{"type":"stop"}"#);
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = live.child.try_wait() {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
            live.kill();
        }
    }
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        self.stop_live();
    }
}

impl Live {
    fn start(
        argv: &[String],
        timeout: Duration,
        transcript: Option<Transcript>,
    ) -> Result<(Live, Handshake), Failure> {
        let mut live = Live::spawn(argv, transcript)?;
        let hello = format!(r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#);
        let answer = match live.ask(hello.as_bytes(), timeout) {
            Ok(answer) => answer,
            Err(failure) => {
                live.kill();
                return Err(failure);
            }
        };
        let handshake = serde_json::from_slice::<Handshake>(&answer);
        match handshake.as_ref().map(Handshake::profile_problem) {
            Ok(None) => Ok((live, handshake.expect("parsed above"))),
            Ok(Some(problem)) => {
                let failure =
                    live.failure(Fault::ProtocolError, format!("bad handshake: {problem}"));
                live.kill();
                Err(failure)
            }
            Err(e) => {
                let failure = live.failure(
                    Fault::ProtocolError,
                    format!(
                        "bad handshake ({e}): {}",
                        String::from_utf8_lossy(&answer[..answer.len().min(300)])
                    ),
                );
                live.kill();
                Err(failure)
            }
        }
    }

    /// Starts `argv` with its threads, before any message.
    pub(crate) fn spawn(argv: &[String], transcript: Option<Transcript>) -> Result<Live, Failure> {
        let (program, args) = argv.split_first().ok_or_else(|| Failure {
            fault: Fault::Unavailable,
            detail: "the run command is empty".to_owned(),
        })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so that a kill also reaches anything it started.
            .process_group(0)
            .spawn()
            .map_err(|e| Failure {
                fault: Fault::Unavailable,
                detail: format!("cannot start `{}`: {e}", argv.join(" ")),
            })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let running = Running {
            group: i32::try_from(child.id()).unwrap_or(i32::MAX),
            pipe: holders::pipe_inode(&stdout),
        };
        signals::adopt(running);
        let stderr_pipe = child.stderr.take().expect("piped");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let (line_tx, lines) = mpsc::sync_channel(4);
        thread::spawn(move || read_lines(stdout, line_tx));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || keep_tail(stderr_pipe, tail));
        let (requests, request_rx) = mpsc::channel();
        thread::spawn(move || write_lines(stdin, request_rx));
        Ok(Live {
            child,
            requests,
            lines,
            stderr,
            transcript,
            running,
        })
    }

    /// Sends one line; false when the writer has stopped (the process closed its input).
    pub(crate) fn send(&mut self, request: &[u8]) -> bool {
        if let Some(transcript) = &self.transcript {
            transcript.record(Direction::ToAdapter, request);
        }
        self.requests.send(request.to_vec()).is_ok()
    }

    /// The next thing read from stdout, waiting at most `timeout`; `None` when nothing came.
    pub(crate) fn next_line(&mut self, timeout: Duration) -> Option<ReadEvent> {
        let event = match self.lines.recv_timeout(timeout) {
            Ok(event) => event,
            Err(RecvTimeoutError::Disconnected) => ReadEvent::Closed,
            Err(RecvTimeoutError::Timeout) => return None,
        };
        if let (ReadEvent::Line(line), Some(transcript)) = (&event, &self.transcript) {
            transcript.record(Direction::FromAdapter, line);
        }
        Some(event)
    }

    /// Sends one line and waits for one line back.
    pub(crate) fn ask(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, Failure> {
        if !self.send(request) {
            return Err(self.failure(Fault::Crash, "its standard input is closed".to_owned()));
        }
        let deadline = Instant::now() + timeout;
        let mut exited: Option<(Instant, String)> = None;
        loop {
            let slice = deadline
                .saturating_duration_since(Instant::now())
                .min(EXIT_POLL);
            match self.next_line(slice) {
                Some(ReadEvent::Line(line)) => return Ok(line),
                Some(ReadEvent::TooLong) => {
                    return Err(self.failure(
                        Fault::ProtocolError,
                        format!("a line longer than {MAX_LINE} bytes"),
                    ))
                }
                Some(ReadEvent::Closed) => {
                    let status = self.exit_status(Duration::from_millis(500));
                    return Err(
                        self.failure(Fault::Crash, format!("it closed its output ({status})"))
                    );
                }
                None if Instant::now() >= deadline => {
                    return Err(self.failure(
                        Fault::Timeout,
                        format!("no answer within {:.1} s", timeout.as_secs_f64()),
                    ))
                }
                None => {}
            }
            // The process may have exited while something it started keeps its output open:
            // no end of output comes then, so its exit is the crash.
            match &exited {
                None => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        exited = Some((Instant::now(), status.to_string()));
                    }
                }
                Some((when, status)) if when.elapsed() >= EXIT_GRACE => {
                    let what = format!(
                        "it exited ({status}) while a process it started still held its output"
                    );
                    return Err(self.failure(Fault::Crash, what));
                }
                Some(_) => {}
            }
        }
    }

    fn exit_status(&mut self, wait: Duration) -> String {
        self.wait_exit(wait)
            .map_or_else(|| "still running".to_owned(), |status| status.to_string())
    }

    /// How the process ended, if it ends within `wait`.
    pub(crate) fn wait_exit(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// A failure whose detail ends with the tail of the adapter's stderr.
    pub(crate) fn failure(&self, fault: Fault, what: String) -> Failure {
        // Give the stderr thread a moment to collect what the process printed last.
        thread::sleep(Duration::from_millis(20));
        let tail = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        let tail = String::from_utf8_lossy(&tail.into_iter().collect::<Vec<u8>>()).into_owned();
        let detail = if tail.trim().is_empty() {
            what
        } else {
            format!("{what}\nstderr (tail):\n{}", tail.trim_end())
        };
        Failure { fault, detail }
    }

    /// Kills the whole process group and reaps the child: no zombie is left behind.
    pub(crate) fn kill(mut self) {
        signals::stop(self.running);
        let _ = self.child.kill();
        let _ = self.child.wait();
        signals::release(self.running);
    }
}

impl Fault {
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::ProtocolError => "protocol-error",
            Fault::Unavailable => "unavailable",
        }
    }
}

/// Reads stdout line by line into `lines`, never holding more than [`MAX_LINE`] bytes.
fn read_lines(stdout: impl Read, lines: SyncSender<ReadEvent>) {
    let mut reader = BufReader::with_capacity(64 << 10, stdout);
    let mut line = Vec::new();
    loop {
        let buffer = match reader.fill_buf() {
            Ok([]) | Err(_) => {
                let _ = lines.send(ReadEvent::Closed);
                return;
            }
            Ok(buffer) => buffer,
        };
        let (taken, complete) = match memchr_newline(buffer) {
            Some(end) => (end + 1, true),
            None => (buffer.len(), false),
        };
        line.extend_from_slice(&buffer[..taken - usize::from(complete)]);
        reader.consume(taken);
        if line.len() > MAX_LINE {
            let _ = lines.send(ReadEvent::TooLong);
            return;
        }
        if complete {
            let done = std::mem::take(&mut line);
            if lines.send(ReadEvent::Line(done)).is_err() {
                return;
            }
        }
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// Keeps the last [`STDERR_TAIL`] bytes of stderr.
fn keep_tail(mut stderr: impl Read, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut chunk = [0u8; 8192];
    while let Ok(n @ 1..) = stderr.read(&mut chunk) {
        if let Ok(mut tail) = tail.lock() {
            tail.extend(&chunk[..n]);
            let excess = tail.len().saturating_sub(STDERR_TAIL);
            tail.drain(..excess);
        }
    }
}

/// Writes each request as one line; ends when the channel or the pipe closes.
fn write_lines(mut stdin: ChildStdin, requests: Receiver<Vec<u8>>) {
    for mut request in requests {
        request.push(b'\n');
        if stdin
            .write_all(&request)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Checks one answer line against the protocol.
pub(crate) fn parse_reply(line: &[u8], id: &str, queries: usize) -> Result<Reply, String> {
    let shown = || String::from_utf8_lossy(&line[..line.len().min(300)]).into_owned();
    let value: Value =
        serde_json::from_slice(line).map_err(|e| format!("not JSON ({e}): {}", shown()))?;
    let object = value
        .as_object()
        .ok_or_else(|| format!("not a JSON object: {}", shown()))?;
    if object.get("id").and_then(Value::as_str) != Some(id) {
        return Err(format!("expected id {id:?}, got: {}", shown()));
    }
    if let Some(message) = object.get("error") {
        // Capped: the text is kept per check and shown in reports.
        let message = match message.as_str() {
            Some(text) => cap_text(text),
            None => cap_text(&message.to_string()),
        };
        return Ok(Reply::Rejected(message));
    }
    let results = object
        .get("results")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("neither `results` nor `error`: {}", shown()))?;
    if results.len() != queries {
        return Err(format!(
            "{} results for {queries} queries: {}",
            results.len(),
            shown()
        ));
    }
    // Each result is a verdict, or `{"error": ...}` for a query the parser (or the adapter's URL
    // building) refused.
    let answers = results
        .iter()
        .map(|r| match (r.as_str(), r.get("error")) {
            (Some("allowed"), _) => Ok(Ok(Verdict::Allowed)),
            (Some("disallowed"), _) => Ok(Ok(Verdict::Disallowed)),
            (None, Some(why)) if r.as_object().is_some_and(|o| o.len() == 1) => {
                Ok(Err(match why.as_str() {
                    Some(text) => cap_text(text),
                    None => cap_text(&why.to_string()),
                }))
            }
            _ => Err(format!(
                "result {r} is not \"allowed\", \"disallowed\" or {{\"error\": ...}}"
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if answers.iter().all(Result::is_ok) {
        Ok(Reply::Verdicts(answers.into_iter().flatten().collect()))
    } else {
        Ok(Reply::Refused(answers))
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}
