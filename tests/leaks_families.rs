//! Leaks, family by family: subscribe, run to completion, to an error, or dispose midway,
//! then every byte allocated is freed (a counting global allocator) and every thread started
//! has ended (`/proc/self/status`).
//!
//! One test runs every scenario in turn, so nothing else in the process allocates or starts
//! threads meanwhile. Each scenario runs once to warm up (lazily made statics, such as the
//! computational pool, are allocated for good the first time), then again measured.
//! `RX_LEAKS_REPEAT=N` measures N runs (a leak grows with N; a one-off does not) and
//! `RX_LEAKS_ONLY=family` runs one family.

use rx::prelude::*;
use rx::schedulers::{NewThread, TestScheduler, ThreadPool};
use rx::source::{from_iter, interval, never, throw};
use rx::subjects::{BehaviorSubject, PublishSubject, ReplaySubject};
use rx::testing::TestObserver;
use rx::{BoxedObservable, Error};
use std::time::{Duration, Instant};

mod support;

use support::alloc::process_live_bytes;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a Threads: line")
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Waits (a few seconds at most) for the bytes and threads to come back to where they were.
fn settles(bytes: isize, thread_count: usize) -> (isize, usize) {
    let start = Instant::now();
    loop {
        let now = (process_live_bytes(), threads());
        if now == (bytes, thread_count) || start.elapsed() > Duration::from_secs(5) {
            return now;
        }
        std::thread::sleep(ms(2));
    }
}

/// The bytes and threads once they have stopped changing: what a warm-up left behind may
/// take a moment to go (threads ending, their last frees).
fn quiet() -> (isize, usize) {
    let mut last = (process_live_bytes(), threads());
    let mut same = 0;
    let start = Instant::now();
    while same < 5 && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(ms(10));
        let now = (process_live_bytes(), threads());
        same = if now == last { same + 1 } else { 0 };
        last = now;
    }
    last
}

/// How a scenario ends.
#[derive(Clone, Copy, Debug)]
enum End {
    Complete,
    Fail,
    Dispose,
}

/// A finite source that ends as `end` says (or never, for `Dispose`).
fn source(end: End) -> BoxedObservable<'static, i64> {
    let values = from_iter(0..20i64);
    match end {
        End::Complete => values.boxed(),
        End::Fail => values.concat_with(throw(Error::msg("boom"))).boxed(),
        End::Dispose => values.concat_with(never()).boxed(),
    }
}

/// Subscribes, runs `drive` (virtual time, subjects), ends as told, and waits for the end.
fn run<S>(observable: S, end: End, drive: impl FnOnce())
where
    S: Subscribe<TestObserver<i64>>,
{
    let o = TestObserver::new();
    let subscription = observable.subscribe_observer(o.clone());
    drive();
    if let End::Dispose = end {
        subscription.dispose();
    } else {
        let start = Instant::now();
        while !o.is_terminated() {
            assert!(start.elapsed() < Duration::from_secs(10), "never ended");
            std::thread::sleep(ms(1));
        }
    }
    o.assert_rules();
    drop(subscription);
}

type Scenario = (&'static str, Box<dyn Fn(End)>);

fn scenarios() -> Vec<Scenario> {
    vec![
        (
            "stateless",
            Box::new(|e| run(source(e).map(|v| v + 1).filter(|v| v % 2 == 0), e, || {})),
        ),
        (
            "buffering",
            Box::new(|e| {
                run(
                    source(e)
                        .buffer(3)
                        .map(|b| b.len() as i64)
                        .scan(0, |a, v| a + v),
                    e,
                    || {},
                )
            }),
        ),
        (
            "aggregating",
            Box::new(|e| run(source(e).to_vec().map(|v| v.len() as i64), e, || {})),
        ),
        (
            "merging",
            Box::new(|e| {
                run(
                    source(e)
                        .flat_map(|v| from_iter([v, v]))
                        .merge_with(source(e)),
                    e,
                    || {},
                )
            }),
        ),
        (
            "switching",
            Box::new(|e| run(source(e).switch_map(|v| from_iter(0..v % 3)), e, || {})),
        ),
        (
            "zipping",
            Box::new(|e| run(source(e).zip(source(e)).map(|(a, b)| a + b), e, || {})),
        ),
        (
            "combining",
            Box::new(|e| {
                run(
                    source(e).combine_latest(source(e)).map(|(a, b)| a * b),
                    e,
                    || {},
                )
            }),
        ),
        (
            "grouping",
            Box::new(|e| run(source(e).group_by(|v| v % 3).flat_map(|g| g), e, || {})),
        ),
        (
            "windowing",
            Box::new(|e| run(source(e).window(4).concat(), e, || {})),
        ),
        (
            "resubscribing",
            Box::new(|e| {
                run(
                    rx::source::defer(move || source(e))
                        .retry(2)
                        .on_error_resume_next(|_| from_iter([1]))
                        .concat_with(rx::source::defer(move || source(e)).repeat(2)),
                    e,
                    || {},
                )
            }),
        ),
        (
            "subjects",
            Box::new(|e| {
                let publish = PublishSubject::new();
                let replay = ReplaySubject::new();
                let behavior = BehaviorSubject::new(0);
                let merged = publish
                    .observable()
                    .merge_with(replay.observable())
                    .merge_with(behavior.observable());
                run(merged, e, || {
                    for input in [publish.observer(), replay.observer(), behavior.observer()] {
                        let mut input = input;
                        input.on_next(1);
                        match e {
                            End::Complete => input.on_completed(),
                            End::Fail => input.on_error(Error::msg("boom")),
                            End::Dispose => {}
                        }
                    }
                });
            }),
        ),
        (
            "sharing",
            Box::new(|e| {
                let subject = PublishSubject::new();
                let shared = subject.observable().share();
                let other = TestObserver::new();
                let second = shared.clone().subscribe_observer(other.clone());
                run(shared, e, || {
                    let mut input = subject.observer();
                    input.on_next(1);
                    match e {
                        End::Complete => input.on_completed(),
                        End::Fail => input.on_error(Error::msg("boom")),
                        End::Dispose => {}
                    }
                });
                second.dispose();
            }),
        ),
        (
            "time",
            Box::new(|e| {
                let sch = TestScheduler::new();
                let ticks = interval(ms(1), sch.clone()).take(30).map(|v| v as i64);
                let ticks = match e {
                    End::Complete => ticks.boxed(),
                    End::Fail => ticks.concat_with(throw(Error::msg("boom"))).boxed(),
                    End::Dispose => ticks.concat_with(never()).boxed(),
                };
                let s = sch.clone();
                let chain = ticks
                    .debounce(ms(2), sch.clone())
                    .merge_with(interval(ms(3), sch.clone()).take(5).map(|v| v as i64))
                    .delay(ms(1), sch.clone())
                    .sample(ms(4), sch.clone())
                    .timeout(ms(50), sch.clone())
                    .buffer_with_time(ms(5), sch.clone())
                    .map(|b| b.len() as i64);
                run(chain, e, move || s.advance_by(ms(100)));
                sch.advance_by(ms(100));
            }),
        ),
        (
            "threads",
            Box::new(|e| {
                // Pools of its own: the global computational pool keeps its queues' capacity.
                let (pool, inner) = (ThreadPool::new(2), ThreadPool::new(1));
                run(
                    source(e)
                        .subscribe_on(pool.clone())
                        .observe_on(NewThread)
                        .flat_map(move |v| rx::source::just(v).observe_on(inner.clone()))
                        .observe_on(pool),
                    e,
                    || std::thread::sleep(ms(20)),
                );
            }),
        ),
    ]
}

/// Runs of each scenario measured: `RX_LEAKS_REPEAT` to tell a leak per run from a one-off.
fn repeats() -> usize {
    std::env::var("RX_LEAKS_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// parking_lot sizes its global table of parked threads to the most threads alive at once
/// and never shrinks it (by design: it is shared by the whole process). Grow it once, for
/// more threads than any scenario has, so that it cannot grow during a measurement.
fn grow_parking_lot_table() {
    let lock = std::sync::Arc::new((parking_lot::Mutex::new(()), parking_lot::Condvar::new()));
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(64));
    let parked: Vec<_> = (0..64)
        .map(|_| {
            let (lock, barrier) = (lock.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut guard = lock.0.lock();
                lock.1.wait_for(&mut guard, ms(1));
            })
        })
        .collect();
    for t in parked {
        t.join().unwrap();
    }
}

#[test]
fn every_family_frees_every_byte_and_ends_every_thread() {
    grow_parking_lot_table();
    let mut failures = Vec::new();
    let only = std::env::var("RX_LEAKS_ONLY").ok();
    for (name, scenario) in scenarios() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        for end in [End::Complete, End::Fail, End::Dispose] {
            scenario(end);
            let (bytes, thread_count) = quiet();
            for _ in 0..repeats() {
                scenario(end);
            }
            let after = settles(bytes, thread_count);
            if after != (bytes, thread_count) {
                failures.push(format!(
                    "{name} ({end:?}): {} bytes and {} threads left",
                    after.0 - bytes,
                    after.1 as isize - thread_count as isize
                ));
            }
        }
    }
    assert!(failures.is_empty(), "leaks:\n{}", failures.join("\n"));
}
