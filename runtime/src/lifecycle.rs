//! What the runtime does to an engine beyond asking it: whether it can answer at all, a fresh
//! start, more time. An engine is what answers ([`Engine`]: a handshake and answers); a process
//! also starts, breaks down and is given more time, and that is this trait's. The loops of the
//! runtime drive `Box<dyn Lifecycle>`; whoever asks a check again (`robotstxt_suite::reask`)
//! is handed these as a [`Between`] ([`between`]).

use robotstxt_suite::engine::{Engine, ReferenceEngine};
use robotstxt_suite::reask::Between;
use robotstxt_suite::visible::Outside;

/// An engine the runtime drives. Every method is required: an engine that wraps another would
/// otherwise answer for it by default.
pub trait Lifecycle: Engine {
    /// Why the engine cannot answer at all (it could not start, or broke down), if so: it
    /// quotes what the adapter said, so it is outside text.
    fn unavailable(&self) -> Option<&Outside>;

    /// Forgets any state kept between batches, as a new process would: the next batch is
    /// answered after a fresh start.
    fn fresh_start(&mut self);

    /// Gives every later batch `times` its usual time to answer (`1` restores the usual time).
    /// A check that timed out is asked again, alone, with more time before it counts as a
    /// timeout (see `robotstxt_suite::reask::ask_patiently`): on a loaded machine a slow answer
    /// is not a changed parser. While `times` is above 1 a fault does not count toward giving
    /// the engine up: the check asked again is judged by its own answer.
    fn set_patience(&mut self, times: u32);
}

/// What asking again does between rounds to an engine of the runtime (`dyn Lifecycle`, or one
/// kind of engine).
pub fn between<E: Lifecycle + ?Sized>() -> Between<E> {
    Between {
        fresh_start: |engine| engine.fresh_start(),
        set_patience: |engine, times| engine.set_patience(times),
        unavailable: |engine| engine.unavailable(),
    }
}

/// An engine in-process (the reference, or a test's own): always there, nothing kept between
/// batches, no deadline. Saying so is all it takes to be driven by the runtime.
pub trait InProcess: Engine {}

impl<E: InProcess> Lifecycle for E {
    fn unavailable(&self) -> Option<&Outside> {
        None
    }

    fn fresh_start(&mut self) {}

    fn set_patience(&mut self, _times: u32) {}
}

/// The reference (the `reference` adapter, or `run` without one).
impl InProcess for ReferenceEngine {}
