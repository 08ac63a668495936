//! An adapter's stdin and stdout as lines that never block: both pipes are non-blocking and
//! waited on with poll(2) against a deadline, a request the pipe cannot take yet is kept and
//! written while the answer is awaited, and a line longer than [`MAX_LINE`] is given up on rather
//! than read on without end.
//!
//! Requests and answers go through the pipes on the thread that asks, not through reader and
//! writer threads: a survey exchanges hundreds of thousands of messages, and handing each one
//! from thread to thread cost more CPU in wake-ups than the messages themselves.

use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::AsFd;
use std::process::{ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};

use super::transcript::{Direction, Transcript};

/// Longest line accepted from an adapter.
pub const MAX_LINE: usize = 64 << 20;
/// How much is read from stdout at a time.
const READ_CHUNK: usize = 64 << 10;

/// What the next read from an adapter's stdout came to.
pub(crate) enum ReadEvent {
    Line(Vec<u8>),
    TooLong,
    Closed,
}

/// The two pipes of one adapter process, with what is still to write and what was read but is not
/// yet a whole line.
pub(crate) struct Pipes {
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
    transcript: Option<Transcript>,
}

/// Which of an adapter's pipes poll(2) found ready.
#[derive(Default)]
struct Ready {
    /// stdout has bytes, or was closed.
    output: bool,
    /// stdin takes more of a pending request (or was closed).
    input: bool,
}

impl Pipes {
    /// The pipes, made non-blocking: reads and writes then never wait, and poll(2) does the
    /// waiting.
    pub(crate) fn new(
        stdin: ChildStdin,
        stdout: ChildStdout,
        transcript: Option<Transcript>,
    ) -> io::Result<Pipes> {
        set_nonblocking(&stdin)?;
        set_nonblocking(&stdout)?;
        Ok(Pipes {
            stdin: Some(stdin),
            outgoing: Vec::new(),
            written: 0,
            stdout,
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
            input: Vec::new(),
            scanned: 0,
            closed: false,
            transcript,
        })
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
        if let Some(at) = self.input[self.scanned..].iter().position(|&b| b == b'\n') {
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
        let pending = self.written < self.outgoing.len();
        let stdin = self.stdin.as_ref().filter(|_| pending);
        // On the stack, two at most: a wait comes with every answer.
        let mut fds = [
            PollFd::new(&self.stdout, PollFlags::IN),
            match stdin {
                Some(stdin) => PollFd::new(stdin, PollFlags::OUT),
                None => PollFd::new(&self.stdout, PollFlags::empty()),
            },
        ];
        let count = if stdin.is_some() { 2 } else { 1 };
        // Rounded up to whole milliseconds, as poll(2) counts them, so that a wait never ends
        // just short of its deadline; a day at most (the caller waits again).
        let millis = timeout.as_nanos().div_ceil(1_000_000).min(86_400_000);
        let timeout = Timespec::try_from(Duration::from_millis(millis as u64))
            .expect("a day is a valid timespec");
        match poll(&mut fds[..count], Some(&timeout)) {
            // Nothing ready, or interrupted by a signal: the caller looks at its deadline.
            Ok(0) | Err(_) => Ready::default(),
            Ok(_) => {
                let any = PollFlags::IN | PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
                let writable = PollFlags::OUT | PollFlags::ERR | PollFlags::HUP;
                Ready {
                    output: fds[0].revents().intersects(any),
                    input: count == 2 && fds[1].revents().intersects(writable),
                }
            }
        }
    }
}

/// Sets `O_NONBLOCK` on a pipe.
fn set_nonblocking(pipe: &impl AsFd) -> io::Result<()> {
    let flags = fcntl_getfl(pipe)?;
    fcntl_setfl(pipe, flags | OFlags::NONBLOCK)?;
    Ok(())
}
