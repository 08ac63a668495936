//! The one engine loop behind `run`, `report`, `survey` and `compare`: every item to every engine,
//! each engine on its own thread, taking turns ([`crate::turns`]); and the corpus run on it
//! ([`run_engines`]), scored as [`robotstxt_suite::run`] scores one engine.

use std::sync::mpsc::sync_channel;
use std::sync::Arc;
use std::time::{Duration, Instant};

use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::{Engine, Failure, Reply, SharedRequest};
use robotstxt_suite::run::{queries_of, score_handed, CheckResult, Scoring};

use crate::lifecycle::Lifecycle;
use crate::turns::Turns;

/// Runs every case against each engine, each engine on its own thread (see [`side_by_side`]).
/// Results come back in engine order; `progress` is called with (engine index, cases done, total).
pub fn run_engines(
    cases: &[Case],
    engines: &mut [Box<dyn Lifecycle>],
    scoring: &(dyn Fn(&dyn Engine) -> Scoring + Sync),
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Vec<Vec<CheckResult>> {
    run_engines_recorded(cases, engines, scoring, progress)
        .into_iter()
        .map(|run| run.results)
        .collect()
}

/// One engine's run over the corpus, with every reply as it came.
pub struct RecordedRun {
    /// The results, scored as [`run_engines`] scores them.
    pub results: Vec<CheckResult>,
    /// Per case, in corpus order, the reply and how long it took: what a report scores again
    /// under every other profile without asking the adapter twice.
    pub replies: Vec<(Result<Reply, Failure>, Duration)>,
}

/// As [`run_engines`], keeping every reply and the time it took.
pub fn run_engines_recorded(
    cases: &[Case],
    engines: &mut [Box<dyn Lifecycle>],
    scoring: &(dyn Fn(&dyn Engine) -> Scoring + Sync),
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Vec<RecordedRun> {
    struct Cases<'p> {
        engine: usize,
        total: usize,
        scoring: Scoring,
        run: RecordedRun,
        progress: &'p (dyn Fn(usize, usize, usize) + Sync),
    }
    impl<'c> Worker<(usize, &'c Case, SharedRequest)> for Cases<'_> {
        fn item(
            &mut self,
            engine: &mut dyn Lifecycle,
            (index, case, request): &(usize, &'c Case, SharedRequest),
        ) {
            let started = Instant::now();
            let reply = engine.check_shared(&case.id, &case.robots, &queries_of(case), request);
            let took = started.elapsed();
            let form = engine.agent_form();
            let results = score_handed(*index, case, &reply, self.scoring, form);
            self.run.results.extend(results);
            self.run.replies.push((reply, took));
            (self.progress)(self.engine, index + 1, self.total);
        }
    }
    let workers = (0..engines.len())
        .map(|engine| Cases {
            engine,
            total: cases.len(),
            scoring: scoring(engines[engine].as_ref()),
            run: RecordedRun {
                results: Vec::new(),
                replies: Vec::new(),
            },
            progress,
        })
        .collect();
    let items = cases
        .iter()
        .enumerate()
        .map(|(index, case)| (index, case, SharedRequest::new()));
    side_by_side(items, engines, workers)
        .into_iter()
        .map(|w| w.run)
        .collect()
}

/// What one engine does with each item of a [`side_by_side`] run, and once at the end.
pub trait Worker<T>: Send {
    /// Handles one item with this worker's engine.
    fn item(&mut self, engine: &mut dyn Lifecycle, item: &T);

    /// Called once after the last item, still on the engine's thread.
    fn finish(&mut self, _engine: &mut dyn Lifecycle) {}
}

/// Items buffered per engine: how far a fast engine may run ahead of the slowest.
const AHEAD: usize = 128;

/// Feeds every item to every engine, in order, each engine with its own worker on its own thread.
/// This is the one engine loop behind `run`, `report` and `survey`: adapters spend their time in
/// their own processes, so they overlap well even on few cores, and they take [`crate::turns`] so
/// that only as many compute at once as there are cores. Items are produced on the calling
/// thread as the engines take them (a corpus can stream from disk); `workers` come back in engine
/// order. `workers` holds one worker per engine.
pub fn side_by_side<T, W>(
    items: impl IntoIterator<Item = T>,
    engines: &mut [Box<dyn Lifecycle>],
    workers: Vec<W>,
) -> Vec<W>
where
    T: Send + Sync,
    W: Worker<T>,
{
    assert_eq!(engines.len(), workers.len(), "one worker per engine");
    let turns = Turns::per_core();
    std::thread::scope(|scope| {
        let mut senders = Vec::new();
        let handles: Vec<_> = engines
            .iter_mut()
            .zip(workers)
            .map(|(engine, mut worker)| {
                let (sender, receiver) = sync_channel::<Arc<T>>(AHEAD);
                senders.push(sender);
                let turns = &turns;
                scope.spawn(move || {
                    while let Ok(first) = receiver.recv() {
                        let turn = turns.take();
                        worker.item(engine.as_mut(), &first);
                        turn.progressed();
                        // The rest of the turn: the items already waiting, up to a channel's worth.
                        for _ in 1..AHEAD {
                            let Ok(item) = receiver.try_recv() else { break };
                            worker.item(engine.as_mut(), &item);
                            turn.progressed();
                        }
                    }
                    worker.finish(engine.as_mut());
                    worker
                })
            })
            .collect();
        for item in items {
            let item = Arc::new(item);
            for sender in &senders {
                // A worker that panicked has dropped its receiver; its join below reports it.
                let _ = sender.send(Arc::clone(&item));
            }
        }
        drop(senders);
        handles
            .into_iter()
            .map(|h| h.join().expect("an engine thread panicked"))
            .collect()
    })
}
