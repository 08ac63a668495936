//! One started adapter process: spawned in a process group of its own with its pipes, its stderr
//! tail kept by a thread, asked one line at a time against a deadline, and killed with its whole
//! group and reaped.
//!
//! A process that exits while something it started keeps its stdout open sends no end of output:
//! its exit is then the crash, [`EXIT_GRACE`] later.

use std::collections::VecDeque;
use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use robotstxt_suite::engine::{Failure, Fault, Handshake};

use super::codec;
use super::holders;
use super::pipes::{Pipes, ReadEvent, MAX_LINE};
use super::transcript::Transcript;
use crate::child;
use crate::signals::{self, Running};

/// How much of an adapter's stderr is kept.
const STDERR_TAIL: usize = 16 << 10;
/// How often a wait for an answer looks whether the process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);
/// How long after its exit a process's last line may still arrive.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// The process, its pipes, and the thread that keeps its stderr.
pub(crate) struct Live {
    child: Child,
    pipes: Pipes,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Registered for the interrupt handler, which stops it if the run is interrupted.
    running: Running,
}

impl Live {
    /// Starts `argv` and performs the handshake within `timeout`.
    pub(crate) fn start(
        argv: &[String],
        timeout: Duration,
        transcript: Option<Transcript>,
    ) -> Result<(Live, Handshake), Failure> {
        let mut live = Live::spawn(argv, transcript)?;
        let answer = match live.ask(&codec::hello(), timeout) {
            Ok(answer) => answer,
            Err(failure) => {
                live.kill();
                return Err(failure);
            }
        };
        match codec::handshake(&answer) {
            Ok(handshake) => Ok((live, handshake)),
            Err(problem) => {
                let failure = live.failure(Fault::ProtocolError, problem.to_string());
                live.kill();
                Err(failure)
            }
        }
    }

    /// Starts `argv` with its threads, before any message.
    pub(crate) fn spawn(argv: &[String], transcript: Option<Transcript>) -> Result<Live, Failure> {
        let (program, args) = argv.split_first().ok_or_else(|| Failure {
            fault: Fault::Unavailable,
            detail: "the run command is empty".into(),
        })?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        signals::find_pipe_holders_with(holders::holding_pipe);
        // In its own process group, so that a kill also reaches anything it started.
        let (mut child, running) = child::spawn(command).map_err(|e| Failure {
            fault: Fault::Unavailable,
            detail: format!("cannot start `{}`: {e}", argv.join(" ")).into(),
        })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || keep_tail(stderr_pipe, tail));
        match Pipes::new(stdin, stdout, transcript) {
            Ok(pipes) => Ok(Live {
                child,
                pipes,
                stderr,
                running,
            }),
            Err(e) => {
                kill_group(&mut child, running);
                Err(Failure {
                    fault: Fault::Unavailable,
                    detail: format!(
                        "cannot make the pipes of `{}` non-blocking: {e}",
                        argv.join(" ")
                    )
                    .into(),
                })
            }
        }
    }

    /// Sends one line without waiting for an answer. False when the process had already closed
    /// its input.
    pub(crate) fn send(&mut self, request: &[u8]) -> bool {
        self.pipes.send(request)
    }

    /// The next thing read from stdout, waiting at most `timeout`; `None` when nothing came.
    pub(crate) fn next_line(&mut self, timeout: Duration) -> Option<ReadEvent> {
        self.pipes.next_line(timeout)
    }

    /// Sends one line and waits for one line back: a crash when the process closes its output or
    /// exits first, a timeout when nothing comes within `timeout`, a protocol error for a line
    /// longer than [`MAX_LINE`].
    pub(crate) fn ask(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, Failure> {
        if !self.pipes.send(request) {
            return Err(self.failure(Fault::Crash, "its standard input is closed".to_owned()));
        }
        let deadline = Instant::now() + timeout;
        let mut exited: Option<(Instant, String)> = None;
        loop {
            let slice = deadline
                .saturating_duration_since(Instant::now())
                .min(EXIT_POLL);
            match self.pipes.next_line(slice) {
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
    pub(crate) fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
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
        Failure {
            fault,
            detail: detail.into(),
        }
    }

    /// Kills the whole process group and reaps the child: no zombie is left behind.
    pub(crate) fn kill(mut self) {
        kill_group(&mut self.child, self.running);
    }
}

/// Kills the process group of `child` (and whatever holds its output) and reaps `child`.
fn kill_group(child: &mut Child, running: Running) {
    signals::stop(running);
    let _ = child.kill();
    let _ = child.wait();
    signals::release(running);
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
