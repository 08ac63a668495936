//! One persistent adapter process behind the [`Engine`] trait, driven through the JSON-lines
//! protocol of `adapters/PROTOCOL.md`.
//!
//! Nothing the adapter does can hang the harness or exhaust its memory (`live` and
//! `pipes` see to that): a faulty process is killed with its whole process group and
//! reaped, then started again for the next batch. After several faults in a row the adapter is
//! given up on ("broken") and answers every later batch as unavailable; so is an adapter that
//! cannot keep a process alive: one whose processes, [`SHORT_LIVES`] in a row, each ended in a
//! fault after at most one answer (answering once per process resets the faults in a row, and
//! would otherwise be restarted for every other check, for ever).

use std::time::Duration;

use robotstxt_suite::engine::{
    AgentForm, Engine, Failure, Fault, Handshake, Query, Reply, SharedRequest,
};
use robotstxt_suite::visible::Outside;

use super::codec;
use super::live::Live;
use super::transcript::Transcript;
use crate::lifecycle::Lifecycle;

/// How many processes in a row may end in a fault after at most one answer each before the
/// adapter is given up on.
pub const SHORT_LIVES: usize = 5;

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
    /// Answers of the live process so far.
    answered_by_live: usize,
    /// Processes in a row that ended in a fault after at most one answer.
    short_lives: usize,
    /// Why it was given up on, quoting the adapter.
    broken: Option<Outside>,
    transcript: Option<Transcript>,
    /// How many times [`Limits::timeout`] a check may take (see [`Lifecycle::set_patience`]).
    patience: u32,
    /// The form of the agent the adapter hands its parser, as its manifest says.
    agent_form: Option<AgentForm>,
}

impl AdapterProcess {
    /// Starts `argv` and performs the handshake. An error here means the adapter is unavailable.
    pub fn start(argv: Vec<String>, limits: Limits) -> Result<AdapterProcess, Failure> {
        AdapterProcess::start_recorded(argv, limits, None)
    }

    /// The same process, saying it hands its parser the agent in `form` (its manifest says which;
    /// the adapter process does not).
    pub fn handing(mut self, form: AgentForm) -> AdapterProcess {
        self.agent_form = Some(form);
        self
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
            answered_by_live: 0,
            short_lives: 0,
            broken: None,
            transcript,
            patience: 1,
            agent_form: None,
        })
    }

    fn exchange(&mut self, id: &str, request: &[u8], queries: usize) -> Result<Reply, Failure> {
        if self.live.is_none() {
            self.answered_by_live = 0;
            let (live, _) = Live::start(
                &self.argv,
                self.limits.start_timeout,
                self.transcript.clone(),
            )?;
            self.live = Some(live);
        }
        let live = self.live.as_mut().expect("started above");
        let line = live.ask(request, self.limits.timeout * self.patience)?;
        codec::reply(&line, id, queries).map_err(|problem| {
            let detail = format!("{problem}: {}", codec::quote(&line));
            live.failure(Fault::ProtocolError, detail)
        })
    }

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
                detail: format!("adapter broken: {}", reason.raw()).into(),
            });
        }
        match self.exchange(id, request, queries) {
            Ok(reply) => {
                self.consecutive_faults = 0;
                self.answered_by_live += 1;
                if self.answered_by_live > 1 {
                    self.short_lives = 0;
                }
                Ok(reply)
            }
            Err(failure) => {
                if let Some(live) = self.live.take() {
                    live.kill();
                }
                // A check asked again with more time is judged by its own answer (see
                // `Lifecycle::set_patience`): its fault does not give the adapter up.
                if self.patience > 1 {
                    return Err(failure);
                }
                self.consecutive_faults += 1;
                if self.answered_by_live <= 1 {
                    self.short_lives += 1;
                }
                if self.short_lives >= SHORT_LIVES {
                    self.broken = Some(
                        format!(
                            "it cannot keep a process alive: {} processes in a row each ended \
                             in a fault after at most one answer, the last: {}: {}",
                            self.short_lives,
                            failure.fault.as_str(),
                            failure.detail.raw()
                        )
                        .into(),
                    );
                } else if self.consecutive_faults >= self.limits.max_consecutive_faults {
                    // The whole detail, stderr tail included: what a breakdown is reported with.
                    self.broken = Some(
                        format!(
                            "{} faults in a row, the last: {}: {}",
                            self.consecutive_faults,
                            failure.fault.as_str(),
                            failure.detail.raw()
                        )
                        .into(),
                    );
                }
                Err(failure)
            }
        }
    }

    /// Asks the adapter to stop, and kills it if it has not within half a second.
    fn stop_live(&mut self) {
        if let Some(mut live) = self.live.take() {
            live.send(&codec::stop());
            live.wait_exit(Duration::from_millis(500));
            live.kill();
        }
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
        let request = shared.get_or_encode(|| codec::check(id, robots, queries));
        self.check_encoded(id, request, queries.len())
    }

    fn agent_form(&self) -> Option<AgentForm> {
        self.agent_form
    }
}

impl Lifecycle for AdapterProcess {
    fn unavailable(&self) -> Option<&Outside> {
        self.broken.as_ref()
    }

    /// The next batch starts a new process (`exchange` starts one when none is live).
    fn fresh_start(&mut self) {
        self.stop_live();
    }

    fn set_patience(&mut self, times: u32) {
        self.patience = times.max(1);
    }
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        self.stop_live();
    }
}
