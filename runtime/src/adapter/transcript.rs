//! A record of every line sent to an adapter and read from it, in order, across restarts: what a
//! test checks the protocol's messages against.

use std::sync::{Arc, Mutex};

/// Every line both ways, shared by the process and whoever reads it.
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
    pub(crate) fn record(&self, direction: Direction, line: &[u8]) {
        if let Ok(mut lines) = self.0.lock() {
            lines.push((direction, line.to_vec()));
        }
    }

    /// The lines so far.
    pub fn lines(&self) -> Vec<TranscriptLine> {
        self.0.lock().map(|l| l.clone()).unwrap_or_default()
    }
}
