//! One persistent adapter process, driven through the JSON-lines protocol of
//! `adapters/PROTOCOL.md`, behind the [`Engine`] trait.
//!
//! Nothing the adapter does can hang the harness or exhaust its memory: its stdin and stdout are
//! non-blocking and waited on with poll(2) against a deadline (a request the pipe cannot take yet
//! is kept and written while the answer is awaited), lines are capped in length, stderr keeps
//! only its tail, and a faulty process is killed with its whole process group and reaped, then
//! started again for the next batch. After several faults in a row the adapter is given up on
//! ("broken") and answers every later batch as unavailable.
//!
//! Requests and answers go through the pipes on the thread that asks, not through reader and
//! writer threads: a survey exchanges hundreds of thousands of messages, and handing each one
//! from thread to thread cost more CPU in wake-ups than the messages themselves.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use base64::Engine as _;
use robotstxt_reference::Verdict;
use serde::Serialize;
use serde_json::Value;

use super::holders;
use crate::engine::{Engine, Failure, Fault, Handshake, Query, Reply, SharedRequest};
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

/// How much is read from stdout at a time.
const READ_CHUNK: usize = 64 << 10;

/// The process, its pipes, and the thread that keeps its stderr.
pub(crate) struct Live {
    child: Child,
    /// `None` once a write failed: the process closed its input.
    stdin: Option<ChildStdin>,
    /// Request bytes the pipe could not take yet, from `written` on.
    outgoing: Vec<u8>,
    written: usize,
    stdout: ChildStdout,
    /// Where each read from stdout lands: allocated once, where growing `input` by a zeroed
    /// [`READ_CHUNK`] for every read cost more than the answers it read.
    chunk: Box<[u8]>,
    /// Bytes read from stdout and not yet returned as lines; none of `input[..scanned]` is `\n`.
    input: Vec<u8>,
    scanned: usize,
    /// The process closed its output (or reading it failed).
    closed: bool,
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
    name: &'a str,
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
        self.check_shared(id, robots, queries, &SharedRequest::new())
    }

    fn check_shared(
        &mut self,
        id: &str,
        robots: &[u8],
        queries: &[Query],
        shared: &SharedRequest,
    ) -> Result<Reply, Failure> {
        if self.broken.is_some() {
            // Nothing is sent: no need to encode.
            return self.check_encoded(id, &[], queries.len());
        }
        let request = shared.get_or_encode(|| encode_check(id, robots, queries));
        self.check_encoded(id, request, queries.len())
    }

    fn unavailable(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// The next batch starts a new process (`exchange` starts one when none is live).
    fn fresh_start(&mut self) {
        self.stop_live();
    }
}

/// The protocol's `check` message for one batch.
fn encode_check(id: &str, robots: &[u8], queries: &[Query]) -> Vec<u8> {
    let request = CheckRequest {
        r#type: "check",
        id,
        robots_b64: base64::engine::general_purpose::STANDARD.encode(robots),
        queries: queries
            .iter()
            .map(|q| WireQuery {
                agent: &q.agent,
                product_token: crate::agents::product_token(&q.agent),
                name: crate::agents::robot_name(&q.agent),
                path: &q.path,
                url: crate::local_url::full_url(&q.path),
            })
            .collect(),
    };
    serde_json::to_vec(&request).expect("plain data serializes")
}

impl AdapterProcess {
    /// Sends one encoded `check` message of `queries` queries and reads the answer; counts
    /// faults in a row, and gives the adapter up after too many.
    fn check_encoded(
        &mut self,
        id: &str,
        request: &[u8],
        queries: usize,
    ) -> Result<Reply, Failure> {
        if let Some(reason) = &self.broken {
            return Err(Failure {
                fault: Fault::Unavailable,
                detail: format!("adapter broken: {reason}"),
            });
        }
        match self.exchange(id, request, queries) {
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
        let tail = Arc::clone(&stderr);
        thread::spawn(move || keep_tail(stderr_pipe, tail));
        let nonblocking = set_nonblocking(&stdin).and_then(|()| set_nonblocking(&stdout));
        let live = Live {
            child,
            stdin: Some(stdin),
            outgoing: Vec::new(),
            written: 0,
            stdout,
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
            input: Vec::new(),
            scanned: 0,
            closed: false,
            stderr,
            transcript,
            running,
        };
        if let Err(e) = nonblocking {
            let failure = Failure {
                fault: Fault::Unavailable,
                detail: format!(
                    "cannot make the pipes of `{}` non-blocking: {e}",
                    argv.join(" ")
                ),
            };
            live.kill();
            return Err(failure);
        }
        Ok(live)
    }

    /// Sends one line: writes what the pipe takes now, and keeps the rest to write while an answer
    /// is awaited. False when the process had already closed its input.
    pub(crate) fn send(&mut self, request: &[u8]) -> bool {
        if let Some(transcript) = &self.transcript {
            transcript.record(Direction::ToAdapter, request);
        }
        if self.stdin.is_none() {
            return false;
        }
        if self.written == self.outgoing.len() {
            self.outgoing.clear();
            self.written = 0;
        }
        self.outgoing.extend_from_slice(request);
        self.outgoing.push(b'\n');
        self.write_some();
        true
    }

    /// Writes as much of `outgoing` as the pipe takes without blocking. A failed write means the
    /// process closed its input: what is left is dropped, and the next `send` says so.
    fn write_some(&mut self) {
        let Some(stdin) = self.stdin.as_mut() else {
            return;
        };
        loop {
            if self.written == self.outgoing.len() {
                self.outgoing.clear();
                self.written = 0;
                return;
            }
            match stdin.write(&self.outgoing[self.written..]) {
                Ok(0) => return,
                Ok(n) => self.written += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.stdin = None;
                    self.outgoing.clear();
                    self.written = 0;
                    return;
                }
            }
        }
    }

    /// The next thing read from stdout, waiting at most `timeout`; `None` when nothing came.
    /// Requests still waiting for room in the pipe are written meanwhile.
    pub(crate) fn next_line(&mut self, timeout: Duration) -> Option<ReadEvent> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(event) = self.buffered() {
                if let (ReadEvent::Line(line), Some(transcript)) = (&event, &self.transcript) {
                    transcript.record(Direction::FromAdapter, line);
                }
                return Some(event);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let ready = self.wait(left);
            if ready.output {
                self.read_some();
            }
            if ready.input {
                self.write_some();
            }
            if !(ready.output || ready.input) && Instant::now() >= deadline {
                return None;
            }
        }
    }

    /// A whole line, or the end of output, from what has been read so far.
    fn buffered(&mut self) -> Option<ReadEvent> {
        if let Some(at) = memchr_newline(&self.input[self.scanned..]) {
            let end = self.scanned + at;
            let mut line: Vec<u8> = self.input.drain(..=end).collect();
            line.pop();
            self.scanned = 0;
            return Some(ReadEvent::Line(line));
        }
        self.scanned = self.input.len();
        if self.input.len() > MAX_LINE {
            return Some(ReadEvent::TooLong);
        }
        // A last line without its `\n` is not an answer.
        self.closed.then_some(ReadEvent::Closed)
    }

    /// Reads what stdout holds now, at most [`READ_CHUNK`] bytes.
    fn read_some(&mut self) {
        let result = loop {
            match self.stdout.read(&mut self.chunk) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        match result {
            Ok(0) => self.closed = true,
            Ok(n) => self.input.extend_from_slice(&self.chunk[..n]),
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(_) => self.closed = true,
        }
    }

    /// Waits at most `timeout` until stdout has something to read (or was closed), or stdin can
    /// take more of a pending request.
    fn wait(&mut self, timeout: Duration) -> Ready {
        let pending = self.stdin.is_some() && self.written < self.outgoing.len();
        let mut fds = [
            libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.stdin.as_ref().map_or(-1, AsRawFd::as_raw_fd),
                events: if pending { libc::POLLOUT } else { 0 },
                revents: 0,
            },
        ];
        let count: libc::nfds_t = if pending { 2 } else { 1 };
        // Rounded up, so that a wait never ends just short of its deadline.
        let millis = timeout.as_nanos().div_ceil(1_000_000);
        let millis = libc::c_int::try_from(millis).unwrap_or(libc::c_int::MAX);
        // SAFETY: poll(2) on `count` initialised pollfd structs that outlive the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), count, millis) };
        if n <= 0 {
            // Nothing ready, or interrupted by a signal: the caller looks at its deadline.
            return Ready::default();
        }
        let any = libc::POLLIN | libc::POLLHUP | libc::POLLERR | libc::POLLNVAL;
        Ready {
            output: fds[0].revents & any != 0,
            input: pending && fds[1].revents & (libc::POLLOUT | libc::POLLERR | libc::POLLHUP) != 0,
        }
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

/// Which of an adapter's pipes poll(2) found ready.
#[derive(Default)]
struct Ready {
    /// stdout has bytes, or was closed.
    output: bool,
    /// stdin takes more of a pending request (or was closed).
    input: bool,
}

/// Sets `O_NONBLOCK` on a pipe: reads and writes then never wait, and poll(2) does the waiting.
fn set_nonblocking(fd: &impl AsRawFd) -> std::io::Result<()> {
    let fd = fd.as_raw_fd();
    // SAFETY: fcntl(2) on a descriptor this process owns.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
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
