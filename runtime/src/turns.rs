//! Turns: how many engines of a side-by-side run compute at once.
//!
//! Every engine of a [`crate::side_by_side`] run has its own thread, and nearly every one
//! drives a process of its own. Left alone, all of them answer as soon as their next item comes:
//! with twenty-odd adapters on two cores, all are runnable together, the kernel switches between
//! them every item or two, and each comes back to caches the others have emptied. On a tenth of
//! the real-world survey with 27 adapters that cost about a sixth of the CPU time.
//!
//! So engines take turns. At most `permits` turns (one per core) run at once, given out first
//! come, first served. A turn lasts for a run of items: those already waiting for the engine, up
//! to a channel's worth (see the loop in `side_by_side`). It is not cut short after some time,
//! because the slowest engine, which holds every other one back, needs long turns to keep up:
//! with turns cut at 50 ms the same survey took 17.2 s, against 16.5 s with no turns and 13.7 to
//! 14.1 s with turns left whole.
//!
//! A turn whose engine has gone [`STALL`] without finishing an item stops keeping others out. Such
//! an engine is most often on its way to the per-message timeout, which counts wall time from
//! the message: making others wait for it only lengthens the run. With eight adapters timing out
//! on one case of the corpus, a one-second stall made the run three seconds longer than no turns
//! at all (11.2 s against 8.2 s); with a quarter second it took 8.0 to 8.7 s, and a hung adapter
//! holds the others up for no longer than that.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a turn keeps other engines out without finishing an item.
pub const STALL: Duration = Duration::from_millis(250);

/// The turns of one side-by-side run.
#[derive(Debug)]
pub struct Turns {
    permits: usize,
    stall: Duration,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Tickets given out, and the next one allowed in.
    issued: u64,
    next_in: u64,
    /// The turns running now: their ticket and when each last finished an item (or began).
    running: Vec<(u64, Instant)>,
}

impl State {
    /// Turns that still keep others out at `now`.
    fn holding(&self, now: Instant, stall: Duration) -> usize {
        self.running
            .iter()
            .filter(|(_, last)| now.duration_since(*last) < stall)
            .count()
    }

    /// When the next running turn stops keeping others out, unless it finishes an item first.
    fn next_stall(&self, stall: Duration) -> Option<Instant> {
        self.running.iter().map(|(_, last)| *last + stall).min()
    }
}

/// A running turn; it ends when dropped.
#[derive(Debug)]
pub struct Turn<'t> {
    turns: &'t Turns,
    ticket: u64,
}

impl Turns {
    /// At most `permits` turns at once (at least 1), each keeping others out while its engine
    /// finishes an item at least every `stall`.
    pub fn new(permits: usize, stall: Duration) -> Turns {
        Turns {
            permits: permits.max(1),
            stall,
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        }
    }

    /// One permit per core this process may use, and [`STALL`].
    pub fn per_core() -> Turns {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Turns::new(cores, STALL)
    }

    /// Waits for a turn, after every engine that asked earlier.
    pub fn take(&self) -> Turn<'_> {
        let mut state = self.lock();
        let ticket = state.issued;
        state.issued += 1;
        loop {
            let now = Instant::now();
            if state.next_in == ticket && state.holding(now, self.stall) < self.permits {
                state.next_in += 1;
                state.running.push((ticket, now));
                // The next ticket may fit too.
                self.changed.notify_all();
                return Turn {
                    turns: self,
                    ticket,
                };
            }
            state = match state.next_stall(self.stall) {
                Some(stall) if state.next_in == ticket => {
                    let wait = stall.saturating_duration_since(now);
                    self.changed
                        .wait_timeout(state, wait)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
                _ => self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }

    /// A panic elsewhere leaves the counts consistent: every change is made in one step.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Turn<'_> {
    /// Marks an item done: the turn keeps others out for another `stall`.
    pub fn progressed(&self) {
        let mut state = self.turns.lock();
        if let Some(entry) = state.running.iter_mut().find(|(t, _)| *t == self.ticket) {
            entry.1 = Instant::now();
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut state = self.turns.lock();
        state.running.retain(|(ticket, _)| *ticket != self.ticket);
        self.turns.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::channel;
    use std::thread;

    use super::*;

    const LONG: Duration = Duration::from_secs(60);

    #[test]
    fn no_more_turns_run_at_once_than_there_are_permits() {
        let turns = Turns::new(2, LONG);
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..20 {
                        let _turn = turns.take();
                        let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(running, Ordering::SeqCst);
                        thread::sleep(Duration::from_micros(200));
                        now.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(turns.lock().running.len(), 0);
    }

    /// Waits until `waiting` tickets are queued behind the running turns.
    fn until_waiting(turns: &Turns, waiting: u64) {
        while {
            let state = turns.lock();
            state.issued - state.next_in < waiting
        } {
            thread::yield_now();
        }
    }

    #[test]
    fn turns_are_given_in_the_order_they_were_asked_for() {
        let turns = Turns::new(1, LONG);
        let order = Mutex::new(Vec::new());
        thread::scope(|scope| {
            let first = turns.take();
            for (queued, name) in (1..).zip(["second", "third", "fourth"]) {
                let (turns, order) = (&turns, &order);
                scope.spawn(move || {
                    let _turn = turns.take();
                    order.lock().unwrap().push(name);
                });
                until_waiting(turns, queued);
            }
            drop(first);
        });
        assert_eq!(*order.lock().unwrap(), ["second", "third", "fourth"]);
    }

    #[test]
    fn a_stalled_turn_keeps_nobody_out() {
        let turns = Turns::new(1, Duration::from_millis(20));
        let _stalled = turns.take();
        let (sent, got) = channel();
        thread::scope(|scope| {
            scope.spawn(|| {
                let next = turns.take();
                sent.send(next.ticket).unwrap();
            });
            let ticket = got.recv_timeout(Duration::from_secs(30));
            assert_eq!(ticket, Ok(1), "the second turn waited on a stalled one");
        });
    }

    #[test]
    fn a_turn_that_keeps_finishing_items_keeps_the_others_out_until_it_ends() {
        let stall = Duration::from_secs(2);
        let turns = Turns::new(1, stall);
        let first = turns.take();
        let (sent, got) = channel();
        thread::scope(|scope| {
            scope.spawn(|| {
                let _next = turns.take();
                sent.send(()).unwrap();
            });
            until_waiting(&turns, 1);
            // Past one `stall` since the turn began, but never one since its last item.
            for _ in 0..3 {
                thread::sleep(stall * 4 / 10);
                first.progressed();
            }
            assert!(
                got.try_recv().is_err(),
                "a turn in progress was passed over"
            );
            drop(first);
            assert!(got.recv_timeout(Duration::from_secs(30)).is_ok());
        });
    }
}
