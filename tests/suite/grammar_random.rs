//! The Rx grammar under random composition.
//!
//! proptest builds chains of 40 to 56 operators drawn from every family (stateless,
//! counting, buffering, aggregating, error handling, resubscribing, combining, flattening,
//! sharing, `observe_on`/`subscribe_on` on real thread schedulers, and the time operators on
//! a `TestScheduler`), over random sources: values, values then an error, `never`, `empty`,
//! ticks of an interval, and a subject fed from threads. The chain runs while the driver
//! advances virtual time, and is disposed at a random round or once it has ended. Then:
//!
//! - what reached the end is `on_next* (on_error | on_completed)?`, at most one terminal;
//! - no two `on_next` calls overlapped, at the end nor between any two operators;
//! - once `dispose()` has returned and the calls in flight have drained, nothing arrives
//!   (virtual time is advanced further on this thread to give timers their chance);
//! - every source subscribed has ended: completed, failed, disposed, or found its observer
//!   disposed.
//!
//! `RX_PROPTEST_CASES` sets the number of cases (3000 by default). A case that hangs fails
//! through a watchdog that prints the chain.

use crate::support;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm};
use rx::{Error, Observer, Subscribe, Subscription};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use support::chains::{self, Env, Plan, Source};

/// What reached the end of the chain.
#[derive(Default)]
struct Record {
    values: usize,
    terminals: usize,
    /// Set when `dispose()` has returned and nothing was in flight any more.
    closed: Option<Instant>,
    violations: Vec<String>,
}

#[derive(Default)]
struct Shared {
    record: Mutex<Record>,
    ended: Condvar,
    in_flight: AtomicUsize,
    /// The thread that drives the case: a call on it after `closed` cannot be a call that
    /// was already on its way.
    driver: Mutex<Option<std::thread::ThreadId>>,
    events: AtomicU64,
    lost_interest: AtomicBool,
}

/// How long a thread that had already decided to deliver may take to arrive after disposal
/// has returned; beyond it, a late notification is a violation.
const GRACE: Duration = Duration::from_millis(100);

impl Shared {
    fn enter(&self, what: &str) {
        if self.in_flight.fetch_add(1, SeqCst) != 0 {
            self.violation(format!("{what} overlapped another call"));
        }
        self.events.fetch_add(1, SeqCst);
        let mut r = self.record.lock().unwrap();
        if r.terminals > 0 {
            r.violations.push(format!("{what} after the terminal"));
        }
        if let Some(closed) = r.closed {
            let on_driver = *self.driver.lock().unwrap() == Some(std::thread::current().id());
            if on_driver || closed.elapsed() > GRACE {
                r.violations.push(format!(
                    "{what} {:?} after dispose returned{}",
                    closed.elapsed(),
                    if on_driver {
                        ", on the disposing thread"
                    } else {
                        ""
                    }
                ));
            }
        }
    }

    fn leave(&self) {
        self.in_flight.fetch_sub(1, SeqCst);
    }

    fn violation(&self, v: String) {
        self.record.lock().unwrap().violations.push(v);
    }
}

struct Checker(Arc<Shared>);

impl Observer<i64> for Checker {
    fn on_next(&mut self, _: i64) {
        self.0.enter("on_next");
        self.0.record.lock().unwrap().values += 1;
        self.0.leave();
    }
    fn on_error(self, _: Error) {
        self.0.enter("on_error");
        self.0.record.lock().unwrap().terminals += 1;
        self.0.leave();
        self.0.ended.notify_all();
    }
    fn on_completed(self) {
        self.0.enter("on_completed");
        self.0.record.lock().unwrap().terminals += 1;
        self.0.leave();
        self.0.ended.notify_all();
    }
    fn is_disposed(&self) -> bool {
        self.0.lost_interest.load(SeqCst)
    }
}

/// Polls `done` until it holds or `limit` passes.
fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_micros(50));
    }
    true
}

const ROUNDS: u32 = 24;
const STEP: Duration = Duration::from_millis(8);

/// Runs one chain; `stop` is the round to dispose at (`ROUNDS` or more: only once ended).
fn run(plan: Plan, stop: u32) -> Result<(), String> {
    let env = Env::new();
    let shared = Arc::new(Shared::default());
    *shared.driver.lock().unwrap() = Some(std::thread::current().id());
    let threads = plan.uses_threads();
    let plan = Arc::new(plan);
    let watchdog = support::watchdog::Watchdog::start(Duration::from_secs(30), {
        let text = plan.to_string();
        move || format!("a chain hung:\n{text}")
    });

    let subscription = chains::build(&plan, &env).subscribe_observer(Checker(shared.clone()));
    let ended = |s: &Shared| s.record.lock().unwrap().terminals > 0;
    for round in 0..ROUNDS {
        if round == stop || ended(&shared) {
            break;
        }
        env.test.advance_by(STEP);
        if threads {
            // Threads get a moment to catch up with virtual time: until the end arrives,
            // or until nothing has arrived for a little while.
            let mut seen = shared.events.load(SeqCst);
            let r = shared.record.lock().unwrap();
            let (_r, _) = shared
                .ended
                .wait_timeout_while(r, Duration::from_micros(150), |r| {
                    let now = shared.events.load(SeqCst);
                    let busy = now != seen;
                    seen = now;
                    r.terminals == 0 && !busy
                })
                .unwrap();
        }
    }

    subscription.dispose();
    if !eventually(Duration::from_secs(5), || {
        shared.in_flight.load(SeqCst) == 0
    }) {
        return Err("a call in flight never returned after dispose".into());
    }
    shared.record.lock().unwrap().closed = Some(Instant::now());
    // Timers that disposal should have cancelled get their chance, on this thread.
    env.test.advance_by(STEP * ROUNDS);
    // Without threads, everything has happened on this one by now: a source still open is
    // open for good, and waiting for it would only slow down shrinking.
    let settle = if threads {
        Duration::from_secs(5)
    } else {
        Duration::ZERO
    };
    let all_ended = eventually(settle, || env.open_sources().is_empty());
    // Feeding threads stop once their subject has ended or lost its subscribers.
    env.join();
    watchdog.stop();

    let r = shared.record.lock().unwrap();
    let mut problems = r.violations.clone();
    if r.terminals > 1 {
        problems.push(format!("{} terminals", r.terminals));
    }
    if !all_ended {
        problems.push(format!(
            "sources never unsubscribed: {:?}",
            env.open_sources()
        ));
    }
    for op in env.overlaps() {
        problems.push(format!("two on_next at once out of {op}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\nafter {} values, {} terminal(s), {} source subscriptions, in:\n{plan}",
            problems.join("\n"),
            r.values,
            r.terminals,
            env.subscriptions()
        ))
    }
}

fn cases() -> u32 {
    std::env::var("RX_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

proptest! {
    #![proptest_config(Config {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/grammar_random.txt",
        ))),
        // ChaCha, the default, dominates the run time of an unoptimised test build.
        rng_algorithm: RngAlgorithm::XorShift,
        // A failing case with threads takes seconds (it waits for its sources to end):
        // shrinking is bounded, so that a failure is reported within minutes, not hours.
        max_shrink_time: 120_000,
        max_shrink_iters: 2_000,
        ..Config::default()
    })]

    #[test]
    fn random_chains_keep_the_grammar(plan in chains::plan(40..=56), stop in 0u32..ROUNDS * 2) {
        prop_assert!(plan.len() >= 40);
        if let Err(problem) = run(plan, stop) {
            return Err(TestCaseError::fail(problem));
        }
    }
}

/// A chain whose sources are all synchronous values: the plan's own tests of the driver.
#[test]
fn the_driver_sees_a_plain_chain_end() {
    let plan = Plan {
        source: Source::Values(vec![1, 2, 3]),
        ops: vec![chains::Op::Map(1); 40],
    };
    run(plan, ROUNDS).unwrap();
}

/// The first failure the property found, kept: `never` drops its observer at once, which
/// must count as its end (the log first waited for a disposal that need not come).
#[test]
fn never_inside_with_latest_from_counts_as_ended() {
    let never = || {
        Box::new(Plan {
            source: Source::Never,
            ops: vec![],
        })
    };
    let mut ops = vec![chains::Op::WithLatestFrom(never()), chains::Op::Share];
    ops.extend(vec![chains::Op::Tap; 38]);
    run(
        Plan {
            source: Source::Values(vec![17, 8]),
            ops,
        },
        ROUNDS,
    )
    .unwrap();
}

/// A failure the property found (`proptest-regressions/grammar_random.txt`): `repeat` kept
/// the handle of a `never()` attempt, which holds the attempt's observer and so the repeat's
/// own state, and reported itself disposed because that handle does; the merge core then
/// dropped the repeat's handle without disposing it, and the `never` and everything above it
/// stayed alive in a cycle.
#[test]
fn never_repeated_inside_take_until_is_released() {
    let never = Box::new(Plan {
        source: Source::Never,
        ops: vec![chains::Op::Repeat(1)],
    });
    for stop in [0, 3, ROUNDS] {
        run(
            Plan {
                source: Source::Values(vec![1]),
                ops: vec![chains::Op::TakeUntil(never.clone())],
            },
            stop,
        )
        .unwrap();
    }
}

/// A failure the property found: `is_empty` (or `take`) had its fill inside the merge's
/// `on_next`, and the merge went on holding its upstreams until a next value, which a
/// `concat_with(never())` upstream never sends; `flat_map` dropped the finished outer handle,
/// so nothing ever disposed the `never`, kept in a cycle through the merge.
#[test]
fn a_merge_whose_downstream_has_its_fill_releases_a_never() {
    use chains::Op::{ConcatWith, FlatMap, IsEmpty, MergeWith, Take};
    let plan = |last: fn() -> chains::Op| {
        let inner = |source| {
            Box::new(Plan {
                source,
                ops: vec![],
            })
        };
        Plan {
            source: Source::Empty,
            ops: vec![
                ConcatWith(inner(Source::Never)),
                MergeWith(inner(Source::Values(vec![1]))),
                last(),
                FlatMap(inner(Source::Values(vec![0]))),
            ],
        }
    };
    for stop in [0, ROUNDS] {
        run(plan(|| IsEmpty), stop).unwrap();
        run(plan(|| Take(1)), stop).unwrap();
    }
}

/// A failure the property found: `element_at(0)` had its fill from `start_with` before the
/// `debounce` above `never()` was subscribed; the debounce subscribed `never` anyway, with an
/// observer that did not report the loss of interest, and `never` kept it; the error that
/// ended the chain inside `subscribe` let `combine_latest` drop the finished handle, and the
/// debounce stayed alive in a cycle through `never`.
#[test]
fn a_time_operator_subscribed_for_nobody_releases_a_never() {
    use chains::Op::{CombineLatest, ConcatWith, Debounce, ElementAt, StartWith};
    let inner = |source| {
        Box::new(Plan {
            source,
            ops: vec![],
        })
    };
    for stop in [0, ROUNDS] {
        run(
            Plan {
                source: Source::Never,
                ops: vec![
                    Debounce(4),
                    StartWith(0),
                    ElementAt(0),
                    ConcatWith(inner(Source::FailAfter(vec![1]))),
                    CombineLatest(inner(Source::Values(vec![1]))),
                ],
            },
            stop,
        )
        .unwrap();
    }
}
