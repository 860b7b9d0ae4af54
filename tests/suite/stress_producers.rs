//! Eight producer threads for a bounded time through merge, the subjects, `observe_on`,
//! `ThreadPool` and `share`: nothing lost, nothing duplicated, each producer's order kept,
//! exactly one terminal per subscriber, never two `on_next` at once (the `TestObserver`
//! checks it), and no deadlock: every test runs under a watchdog that fails it instead of
//! hanging. Disposing from another thread mid-stream stops delivery within a bounded time.
//!
//! Each load runs for `RX_STRESS_MS` milliseconds (300 by default; minutes behind the
//! variable for a soak run).

use crate::support;

use rx::prelude::*;
use rx::schedulers::{Reschedule, Scheduler, ThreadPool, Worker};
use rx::subjects::{BehaviorSubject, PublishSubject, ReplaySubject, SubjectObserver};
use rx::testing::TestObserver;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use support::watchdog::within;

const PRODUCERS: usize = 8;
/// How long a test may take before it counts as hung.
const LIMIT: Duration = Duration::from_secs(120);

fn load() -> Duration {
    Duration::from_millis(
        std::env::var("RX_STRESS_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300),
    )
}

type Item = (usize, u64);

/// Starts `PRODUCERS` threads, each sending `(producer, 0..)` to its input until `load()`
/// has passed or the input is disposed; returns how many each sent.
fn produce(inputs: Vec<SubjectObserver<Item>>) -> Vec<u64> {
    let barrier = Arc::new(Barrier::new(inputs.len()));
    let deadline = Instant::now() + load();
    let threads: Vec<_> = inputs
        .into_iter()
        .enumerate()
        .map(|(p, mut input)| {
            let barrier = barrier.clone();
            thread::spawn(move || {
                barrier.wait();
                let mut sent = 0;
                while Instant::now() < deadline && !input.is_disposed() {
                    // A burst between clock reads keeps the clock off the hot path.
                    for _ in 0..64 {
                        input.on_next((p, sent));
                        sent += 1;
                    }
                }
                sent
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// Everything each producer sent arrived once, in its order, and then one completion.
fn assert_complete_and_ordered(observer: &TestObserver<Item>, sent: &[u64]) {
    observer.assert_completed();
    assert_ordered(observer.values(), sent);
}

fn assert_ordered(values: Vec<Item>, sent: &[u64]) {
    let mut next = vec![0u64; sent.len()];
    for (p, i) in values {
        assert_eq!(
            i, next[p],
            "producer {p}: a value lost, duplicated or out of order"
        );
        next[p] += 1;
    }
    assert_eq!(next, sent, "values lost at the end");
}

#[test]
fn merge_of_eight_producers() {
    within(LIMIT, "merge of eight producers", || {
        let subjects: Vec<_> = (0..PRODUCERS).map(|_| PublishSubject::new()).collect();
        let observer = TestObserver::new();
        rx::source::merge(subjects.iter().map(|s| s.observable()).collect::<Vec<_>>())
            .subscribe_observer(observer.clone());
        let sent = produce(subjects.iter().map(|s| s.observer()).collect());
        for s in &subjects {
            s.observer().on_completed();
        }
        assert_complete_and_ordered(&observer, &sent);
    });
}

#[test]
fn every_subject_kind_with_eight_producers() {
    within(LIMIT, "subjects with eight producers", || {
        let publish = PublishSubject::new();
        let behavior = BehaviorSubject::new((usize::MAX, 0));
        let replay = ReplaySubject::new();
        let kinds: [(
            &str,
            rx::subjects::SubjectObservable<Item>,
            SubjectObserver<Item>,
        ); 3] = [
            ("publish", publish.observable(), publish.observer()),
            ("behavior", behavior.observable(), behavior.observer()),
            ("replay", replay.observable(), replay.observer()),
        ];
        for (kind, observable, input) in kinds {
            let observers: Vec<TestObserver<Item>> = (0..3).map(|_| TestObserver::new()).collect();
            for o in &observers {
                observable.clone().subscribe_observer(o.clone());
            }
            let sent = produce(vec![input.clone(); PRODUCERS]);
            input.on_completed();
            for o in &observers {
                o.assert_completed();
                let mut values = o.values();
                if kind == "behavior" {
                    // The seed comes first; the producers' values follow it.
                    assert_eq!(values.remove(0), (usize::MAX, 0), "{kind}");
                }
                assert_ordered(values, &sent);
            }
        }
    });
}

#[test]
fn observe_on_a_thread_pool_after_a_merge_of_eight_producers() {
    within(LIMIT, "observe_on after merge", || {
        let pool = ThreadPool::new(2);
        let subjects: Vec<_> = (0..PRODUCERS).map(|_| PublishSubject::new()).collect();
        let observer = TestObserver::new();
        rx::source::merge(subjects.iter().map(|s| s.observable()).collect::<Vec<_>>())
            .observe_on(pool.clone())
            .subscribe_observer(observer.clone());
        let sent = produce(subjects.iter().map(|s| s.observer()).collect());
        for s in &subjects {
            s.observer().on_completed();
        }
        while !observer.is_terminated() {
            thread::sleep(Duration::from_millis(1));
        }
        assert_complete_and_ordered(&observer, &sent);
    });
}

#[test]
fn share_with_three_subscribers_and_eight_producers() {
    within(LIMIT, "share", || {
        let subject = PublishSubject::new();
        let shared = subject.observable().share();
        let observers: Vec<TestObserver<Item>> = (0..3).map(|_| TestObserver::new()).collect();
        for o in &observers {
            shared.clone().subscribe_observer(o.clone());
        }
        let sent = produce(vec![subject.observer(); PRODUCERS]);
        subject.observer().on_completed();
        for o in &observers {
            assert_complete_and_ordered(o, &sent);
        }
    });
}

#[test]
fn thread_pool_runs_every_task_of_eight_producers_once_in_order_per_worker() {
    within(LIMIT, "thread pool", || {
        let pool = ThreadPool::new(3);
        let log: Arc<Mutex<Vec<Vec<u64>>>> = Arc::new(Mutex::new(vec![Vec::new(); PRODUCERS]));
        let queued = Arc::new(AtomicU64::new(0));
        let ran = Arc::new(AtomicU64::new(0));
        let deadline = Instant::now() + load();
        let producers: Vec<_> = (0..PRODUCERS)
            .map(|p| {
                let (pool, log, queued, ran) =
                    (pool.clone(), log.clone(), queued.clone(), ran.clone());
                thread::spawn(move || {
                    let worker = pool.worker();
                    let mut i = 0;
                    while Instant::now() < deadline {
                        for _ in 0..32 {
                            let (log, ran) = (log.clone(), ran.clone());
                            worker.schedule(move || {
                                log.lock().unwrap()[p].push(i);
                                ran.fetch_add(1, SeqCst);
                                Reschedule::Done
                            });
                            i += 1;
                        }
                        queued.fetch_add(32, SeqCst);
                        // Bounded queues: let the pool keep up.
                        while queued.load(SeqCst) - ran.load(SeqCst) > 50_000 {
                            thread::yield_now();
                        }
                    }
                    // The worker is kept until its tasks have run: dropping it would not
                    // cancel them, but the count is what we wait for.
                    while log.lock().unwrap()[p].len() < i as usize {
                        thread::sleep(Duration::from_millis(1));
                    }
                    drop(worker);
                    i
                })
            })
            .collect();
        let sent: Vec<u64> = producers.into_iter().map(|t| t.join().unwrap()).collect();
        let log = log.lock().unwrap();
        for (p, ran) in log.iter().enumerate() {
            assert_eq!(
                ran.len() as u64,
                sent[p],
                "worker {p}: tasks lost or run twice"
            );
            assert!(
                ran.iter().enumerate().all(|(i, v)| *v == i as u64),
                "worker {p}: out of order"
            );
        }
    });
}

#[test]
fn disposing_from_another_thread_stops_delivery_promptly() {
    within(LIMIT, "dispose mid-stream", || {
        let subjects: Vec<_> = (0..PRODUCERS).map(|_| PublishSubject::new()).collect();
        let received = Arc::new(AtomicUsize::new(0));
        let r = received.clone();
        let subscription =
            rx::source::merge(subjects.iter().map(|s| s.observable()).collect::<Vec<_>>())
                .subscribe(move |_: Item| {
                    r.fetch_add(1, SeqCst);
                });
        let stop = Arc::new(AtomicBool::new(false));
        let producers: Vec<_> = subjects
            .iter()
            .enumerate()
            .map(|(p, s)| {
                let (mut input, stop) = (s.observer(), stop.clone());
                thread::spawn(move || {
                    let mut i = 0;
                    while !stop.load(SeqCst) {
                        input.on_next((p, i));
                        i += 1;
                    }
                })
            })
            .collect();
        while received.load(SeqCst) < 10_000 {
            thread::yield_now();
        }
        let disposer = thread::spawn(move || subscription.dispose());
        disposer.join().unwrap();
        // Whatever was in flight lands within the first pause; nothing after it.
        thread::sleep(Duration::from_millis(100));
        let settled = received.load(SeqCst);
        thread::sleep(Duration::from_millis(200));
        assert_eq!(
            received.load(SeqCst),
            settled,
            "values still delivered after dispose"
        );
        for s in &subjects {
            assert!(
                !s.has_observers(),
                "a source still has the merge subscribed"
            );
        }
        stop.store(true, SeqCst);
        for p in producers {
            p.join().unwrap();
        }
    });
}

// ------------------------------------------------------------------------ liveness

/// How long the other threads keep emitting while the one under test makes its call.
const BUSY: Duration = Duration::from_secs(1);
/// What the call under test may take while they do.
const BOUNDED: Duration = Duration::from_millis(500);

/// The most values one of those threads sends, so that what is queued when they stop
/// drains in well under a second.
const AT_MOST: u64 = 20_000;

/// What a liveness run measured.
struct Held {
    /// How long the call under test took.
    call: Duration,
    /// The longest any single `on_next` of the other threads took.
    longest_emit: Duration,
}

/// Runs `call` on this thread while `inputs.len()` threads emit into `inputs` (for `BUSY`,
/// `AT_MOST` values each) to a subscriber slow enough that there is always something to
/// drain.
fn while_others_emit(inputs: Vec<SubjectObserver<u64>>, call: impl FnOnce()) -> Held {
    let stop = Arc::new(AtomicBool::new(false));
    let started = Arc::new(Barrier::new(inputs.len() + 1));
    let producers: Vec<_> = inputs
        .into_iter()
        .map(|mut input| {
            let (stop, started) = (stop.clone(), started.clone());
            thread::spawn(move || {
                started.wait();
                let mut longest = Duration::ZERO;
                for i in 0..AT_MOST {
                    if stop.load(SeqCst) {
                        break;
                    }
                    let begin = Instant::now();
                    input.on_next(i);
                    longest = longest.max(begin.elapsed());
                }
                longest
            })
        })
        .collect();
    started.wait();
    thread::sleep(Duration::from_millis(20));
    let begin = Instant::now();
    call();
    let took = begin.elapsed();
    thread::sleep(BUSY.saturating_sub(begin.elapsed()));
    stop.store(true, SeqCst);
    let longest_emit = producers
        .into_iter()
        .map(|p| p.join().unwrap())
        .max()
        .unwrap_or_default();
    Held {
        call: took,
        longest_emit,
    }
}

/// The call under test did not take long; with `every_emit`, no single `on_next` of the
/// others did either (each is a thread that emits once, as far as that call goes).
fn assert_bounded(what: &str, call: &str, held: Held, every_emit: bool) {
    eprintln!(
        "{what}: {call} took {:?}; the longest on_next {:?}",
        held.call, held.longest_emit
    );
    assert!(
        held.call < BOUNDED,
        "{what}: {call} took {:?} while others emitted",
        held.call
    );
    assert!(
        !every_emit || held.longest_emit < BOUNDED,
        "{what}: an on_next was held {:?} delivering others' values",
        held.longest_emit
    );
}

/// A subscriber that takes a little while per value, so a queue builds up behind it.
fn slow_subscriber() -> impl FnMut(u64) + Send + 'static {
    |v| {
        std::hint::black_box(v);
        for _ in 0..200 {
            std::hint::spin_loop();
        }
    }
}

/// Spins about as long as `rounds` calls of the slow subscriber, so rates set in these units
/// keep their ratio on any machine and under any load.
fn spin(rounds: u32) {
    for _ in 0..rounds {
        for _ in 0..200 {
            std::hint::spin_loop();
        }
    }
}

/// How long each of the other threads waits between two of its values, in slow subscriber
/// calls. The six of them not delivering send one value per four calls each, half as fast
/// again as one thread delivers: the queue never runs dry, so a holder that stayed would be
/// held until they stop, and it grows slowly enough that what is left when they stop drains
/// in a fraction of a second.
const PACE: u32 = 4;

/// How long the other threads keep emitting in a paced liveness run.
const KEEP_EMITTING: Duration = Duration::from_secs(4);
/// What one `on_next` may take in a paced liveness run. A holder hands the role over as soon as
/// another thread records a value after its batch: within milliseconds, or up to 150 ms
/// measured on two cores shared with other builds, where the threads wait for the scheduler;
/// a holder kept by the others' values would stay until they stop, over
/// `KEEP_EMITTING - HELD_AT_MOST` later.
const HELD_AT_MOST: Duration = Duration::from_millis(1500);

/// What a paced liveness run measured.
struct Paced {
    /// How long the call under test took.
    call: Duration,
    /// The longest `on_next` of the other threads among those that began at least
    /// `HELD_AT_MOST` before they stopped: the one that drains what is left when they stop is not one of
    /// them, and a holder kept by their values is.
    longest_emit: Duration,
    /// How many values the other threads sent.
    sent: u64,
}

/// Runs `call` on this thread while `inputs.len()` threads keep emitting into `inputs`, each
/// at a steady pace, to a slow subscriber, for `KEEP_EMITTING`.
fn while_others_keep_emitting(inputs: Vec<SubjectObserver<u64>>, call: impl FnOnce()) -> Paced {
    let started = Arc::new(Barrier::new(inputs.len() + 1));
    let start = Instant::now() + Duration::from_millis(20);
    let (until, measured_until) = (start + KEEP_EMITTING, start + KEEP_EMITTING - HELD_AT_MOST);
    let producers: Vec<_> = inputs
        .into_iter()
        .map(|mut input| {
            let started = started.clone();
            thread::spawn(move || {
                started.wait();
                let (mut longest, mut sent) = (Duration::ZERO, 0);
                loop {
                    let begin = Instant::now();
                    if begin >= until {
                        break;
                    }
                    input.on_next(sent);
                    sent += 1;
                    if begin < measured_until {
                        longest = longest.max(begin.elapsed());
                    }
                    spin(PACE);
                }
                (longest, sent)
            })
        })
        .collect();
    started.wait();
    // Into the thick of it: the others have been at it for a while.
    thread::sleep(Duration::from_millis(200));
    let begin = Instant::now();
    call();
    let took = begin.elapsed();
    let (mut longest_emit, mut sent) = (Duration::ZERO, 0);
    for p in producers {
        let (longest, count) = p.join().unwrap();
        longest_emit = longest_emit.max(longest);
        sent += count;
    }
    Paced {
        call: took,
        longest_emit,
        sent,
    }
}

#[test]
fn a_subject_thread_that_emits_once_returns_while_others_keep_emitting() {
    within(LIMIT, "emit once into a busy subject", || {
        let subject = PublishSubject::new();
        let received = Arc::new(AtomicU64::new(0));
        let r = received.clone();
        let mut slow = slow_subscriber();
        subject.observable().subscribe(move |v| {
            slow(v);
            r.fetch_add(1, SeqCst);
        });
        let mut mine = subject.observer();
        let held = while_others_keep_emitting(vec![subject.observer(); PRODUCERS - 1], move || {
            mine.on_next(u64::MAX)
        });
        eprintln!(
            "subject: emitting once took {:?}; the longest on_next of the others {:?}; {} sent",
            held.call, held.longest_emit, held.sent
        );
        assert!(
            held.call < HELD_AT_MOST,
            "emitting once took {:?} while others emitted",
            held.call
        );
        assert!(
            held.longest_emit < HELD_AT_MOST,
            "an on_next was held {:?} delivering others' values",
            held.longest_emit
        );
        // Every value arrived: the hand-over loses none.
        assert_eq!(received.load(SeqCst), held.sent + 1);
    });
}

#[test]
fn a_subject_thread_that_only_subscribes_returns_while_others_keep_emitting() {
    within(LIMIT, "subscribe to a busy subject", || {
        let subject = PublishSubject::new();
        subject.observable().subscribe(slow_subscriber());
        let observable = subject.observable();
        let held = while_others_emit(vec![subject.observer(); PRODUCERS - 1], move || {
            let _subscription = observable.subscribe(|_| {});
        });
        assert_bounded("subject", "subscribing", held, false);
    });
}

/// The merge's liveness run: its producers are paced by how far they are ahead of the
/// subscriber, not by the clock, and the values queued when they stop are not counted.
mod merge_liveness {
    use super::*;

    /// How far the producers of [`while_others_keep_emitting`] may run ahead of the subscriber:
    /// enough that there is always a queue to drain, few enough that the queue stays small.
    const LAG: u64 = 20_000;

    /// How long the others keep emitting in [`while_others_keep_emitting`], and what a call may
    /// be held of it: a caller held for the whole time fails by a wide margin, while one handed
    /// over in time passes with as wide a margin on a loaded machine.
    const KEEP_EMITTING: Duration = Duration::from_secs(2);
    const HELD_AT_MOST: Duration = Duration::from_millis(1_000);

    /// Runs `call` on this thread while `inputs.len()` threads keep emitting into `inputs` (for
    /// `KEEP_EMITTING`, and for as long as `call` takes) towards the subscriber that `subscribe` is
    /// given, which is slow while they do. A producer held in an `on_next` counts only for the
    /// time the others kept emitting: the values left queued when they stop drain, fast, in
    /// whichever call holds the delivery role then, which is what that role owes and no hostage.
    /// The producers stay at most `LAG` values ahead of the subscriber (they wait, by
    /// themselves, outside `on_next`), so there is always a queue but never a large one.
    fn while_others_keep_emitting(
        inputs: Vec<SubjectObserver<u64>>,
        subscribe: impl FnOnce(Box<dyn FnMut(u64) + Send>),
        call: impl FnOnce(),
    ) -> Held {
        let base = Instant::now();
        // When the producers were told to stop, in nanoseconds after `base`; 0 while they emit.
        let stopped = Arc::new(AtomicU64::new(0));
        let sent = Arc::new(AtomicU64::new(0));
        let delivered = Arc::new(AtomicU64::new(0));
        subscribe(Box::new({
            let (stopped, delivered) = (stopped.clone(), delivered.clone());
            move |v| {
                std::hint::black_box(v);
                if stopped.load(SeqCst) == 0 {
                    for _ in 0..200 {
                        std::hint::spin_loop();
                    }
                }
                delivered.fetch_add(1, SeqCst);
            }
        }));
        let started = Arc::new(Barrier::new(inputs.len() + 1));
        let producers: Vec<_> = inputs
            .into_iter()
            .map(|mut input| {
                let (stopped, sent, delivered, started) = (
                    stopped.clone(),
                    sent.clone(),
                    delivered.clone(),
                    started.clone(),
                );
                thread::spawn(move || {
                    started.wait();
                    let mut longest = Duration::ZERO;
                    let mut i = 0;
                    while stopped.load(SeqCst) == 0 {
                        if sent.load(SeqCst).saturating_sub(delivered.load(SeqCst)) > LAG {
                            thread::yield_now();
                            continue;
                        }
                        sent.fetch_add(1, SeqCst);
                        let begin = Instant::now();
                        input.on_next(i);
                        let end = match stopped.load(SeqCst) {
                            0 => Instant::now(),
                            at => (base + Duration::from_nanos(at)).max(begin),
                        };
                        longest = longest.max(end - begin);
                        i += 1;
                    }
                    longest
                })
            })
            .collect();
        started.wait();
        thread::sleep(Duration::from_millis(20));
        let begin = Instant::now();
        call();
        let took = begin.elapsed();
        thread::sleep(KEEP_EMITTING.saturating_sub(begin.elapsed()));
        stopped.store(base.elapsed().as_nanos().max(1) as u64, SeqCst);
        let longest_emit = producers
            .into_iter()
            .map(|p| p.join().unwrap())
            .max()
            .unwrap_or_default();
        Held {
            call: took,
            longest_emit,
        }
    }

    #[test]
    fn a_merge_source_that_emits_once_returns_while_others_keep_emitting() {
        within(LIMIT, "emit once into a busy merge", || {
            let subjects: Vec<PublishSubject<u64>> =
                (0..PRODUCERS).map(|_| PublishSubject::new()).collect();
            let merged =
                rx::source::merge(subjects.iter().map(|s| s.observable()).collect::<Vec<_>>());
            let mut mine = subjects[0].observer();
            let others = subjects[1..].iter().map(|s| s.observer()).collect();
            let held = while_others_keep_emitting(
                others,
                |subscriber| {
                    merged.subscribe(subscriber);
                },
                move || mine.on_next(u64::MAX),
            );
            eprintln!(
                "merge: emitting once took {:?}; the longest on_next {:?}",
                held.call, held.longest_emit
            );
            assert!(
                held.call < HELD_AT_MOST,
                "emitting once took {:?}",
                held.call
            );
            assert!(
                held.longest_emit < HELD_AT_MOST,
                "an on_next was held {:?} delivering others' values",
                held.longest_emit
            );
        });
    }
}
