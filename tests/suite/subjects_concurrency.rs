//! Subjects and multicasting under threads: serialised delivery, no gap or duplicate for
//! subscribers that come and go during emission, one terminal notification, nothing leaked.

use rx::Notification;
use rx::prelude::*;
use rx::subjects::{BehaviorSubject, PublishSubject, ReplaySubject};
use rx::testing::TestObserver;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;

const THREADS: usize = 8;
const PER_THREAD: usize = 2_000;

#[test]
fn on_next_from_many_threads_is_delivered_serialised_and_in_order_per_thread() {
    let subject = PublishSubject::<(usize, usize)>::new();
    let observers: Vec<_> = (0..3).map(|_| TestObserver::new()).collect();
    for o in &observers {
        subject.observable().subscribe_observer(o.clone());
    }
    let barrier = Arc::new(Barrier::new(THREADS));
    let senders: Vec<_> = (0..THREADS)
        .map(|t| {
            let (subject, barrier) = (subject.clone(), barrier.clone());
            thread::spawn(move || {
                let mut input = subject.observer();
                barrier.wait();
                for i in 0..PER_THREAD {
                    input.on_next((t, i));
                }
            })
        })
        .collect();
    for s in senders {
        s.join().unwrap();
    }
    subject.observer().on_completed();

    for o in &observers {
        o.assert_completed(); // also asserts that no two on_next overlapped
        let values = o.values();
        assert_eq!(values.len(), THREADS * PER_THREAD);
        let mut next = [0; THREADS];
        for (t, i) in values {
            assert_eq!(i, next[t], "values of thread {t} out of order");
            next[t] += 1;
        }
    }
}

#[test]
fn one_terminal_notification_when_terminals_race_values() {
    for _ in 0..50 {
        let subject = PublishSubject::<usize>::new();
        let o = TestObserver::new();
        subject.observable().subscribe_observer(o.clone());
        let barrier = Arc::new(Barrier::new(4));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let (subject, barrier) = (subject.clone(), barrier.clone());
                thread::spawn(move || {
                    let mut input = subject.observer();
                    barrier.wait();
                    for i in 0..200 {
                        input.on_next(i);
                    }
                    if t % 2 == 0 {
                        input.on_completed();
                    } else {
                        input.on_error(rx::Error::msg("racing error"));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        o.assert_rules();
        let notifications = o.notifications();
        assert_eq!(notifications.iter().filter(|n| n.is_terminal()).count(), 1);
        assert!(notifications.last().unwrap().is_terminal());
        let late = TestObserver::new();
        subject.observable().subscribe_observer(late.clone());
        assert_eq!(
            late.notifications(),
            [notifications.last().unwrap().clone()]
        );
    }
}

/// The values a subscriber of a single ordered producer received must be consecutive: it is
/// registered between two values and removed at once.
fn assert_consecutive(values: &[usize]) {
    for pair in values.windows(2) {
        assert_eq!(pair[1], pair[0] + 1, "a gap or a duplicate: {pair:?}");
    }
}

#[test]
fn subscribers_coming_and_going_during_emission_see_a_contiguous_run() {
    const N: usize = 20_000;
    let subject = PublishSubject::<usize>::new();
    let done = Arc::new(AtomicBool::new(false));
    let producer = {
        let (subject, done) = (subject.clone(), done.clone());
        thread::spawn(move || {
            let mut input = subject.observer();
            for i in 0..N {
                input.on_next(i);
            }
            input.on_completed();
            done.store(true, Ordering::SeqCst);
        })
    };
    let churners: Vec<_> = (0..3)
        .map(|_| {
            let (subject, done) = (subject.clone(), done.clone());
            thread::spawn(move || {
                let mut seen = Vec::new();
                while !done.load(Ordering::SeqCst) {
                    let o = TestObserver::new();
                    let handle = subject.observable().subscribe_observer(o.clone());
                    thread::yield_now();
                    handle.dispose();
                    // At most one call that was already running when `dispose` returned.
                    let count = o.value_count();
                    thread::yield_now();
                    assert!(
                        o.value_count() <= count + 1,
                        "values after dispose returned"
                    );
                    o.assert_rules();
                    seen.push(o);
                }
                seen
            })
        })
        .collect();
    producer.join().unwrap();
    let observers: Vec<_> = churners
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    for o in observers {
        assert_consecutive(&o.values());
    }
    assert!(!subject.has_observers());
}

#[test]
fn replay_subscribers_during_emission_get_everything_exactly_once() {
    const N: usize = 5_000;
    let subject = ReplaySubject::<usize>::new();
    let start = Arc::new(Barrier::new(4));
    let producer = {
        let (subject, start) = (subject.clone(), start.clone());
        thread::spawn(move || {
            let mut input = subject.observer();
            start.wait();
            for i in 0..N {
                input.on_next(i);
            }
            input.on_completed();
        })
    };
    let subscribers: Vec<_> = (0..3)
        .map(|k| {
            let (subject, start) = (subject.clone(), start.clone());
            thread::spawn(move || {
                start.wait();
                (0..20)
                    .map(|i| {
                        if (i + k) % 3 == 0 {
                            thread::yield_now();
                        }
                        let o = TestObserver::new();
                        subject.observable().subscribe_observer(o.clone());
                        o
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    producer.join().unwrap();
    // Every thread is joined before checking: a subscriber's replay may be delivered by
    // another subscribing thread that holds the delivery role.
    let observers: Vec<_> = subscribers
        .into_iter()
        .flat_map(|s| s.join().unwrap())
        .collect();
    let expected: Vec<usize> = (0..N).collect();
    for o in observers {
        o.assert_completed();
        assert_eq!(o.values(), expected);
    }
}

#[test]
fn behavior_subscribers_during_emission_start_at_the_latest_without_gaps() {
    const N: usize = 10_000;
    let subject = BehaviorSubject::new(0usize);
    let done = Arc::new(AtomicBool::new(false));
    let producer = {
        let (subject, done) = (subject.clone(), done.clone());
        thread::spawn(move || {
            let mut input = subject.observer();
            for i in 1..=N {
                input.on_next(i);
            }
            done.store(true, Ordering::SeqCst);
        })
    };
    let mut observers = Vec::new();
    // Bounded: every observer stays to the end and records everything after it joined.
    while !done.load(Ordering::SeqCst) && observers.len() < 200 {
        let o = TestObserver::new();
        subject.observable().subscribe_observer(o.clone());
        observers.push(o);
        thread::yield_now();
    }
    producer.join().unwrap();
    subject.observer().on_completed();
    for o in observers {
        o.assert_completed();
        let values = o.values();
        assert_consecutive(&values);
        assert_eq!(*values.last().unwrap(), N);
    }
}

#[test]
fn on_next_from_inside_a_callback_on_many_threads_does_not_deadlock() {
    // Two subjects feed each other from their callbacks, driven from two threads: with a
    // blocking lock per subject this is the classic lock-order deadlock.
    let a = PublishSubject::<usize>::new();
    let b = PublishSubject::<usize>::new();
    let (a_seen, b_seen) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    {
        let (b, seen) = (b.clone(), a_seen.clone());
        a.observable().subscribe(move |v: usize| {
            seen.fetch_add(1, Ordering::SeqCst);
            if v.is_multiple_of(2) {
                b.observer().on_next(v + 1);
            }
        });
    }
    {
        let (a, seen) = (a.clone(), b_seen.clone());
        b.observable().subscribe(move |v: usize| {
            seen.fetch_add(1, Ordering::SeqCst);
            if v.is_multiple_of(2) {
                a.observer().on_next(v + 1);
            }
        });
    }
    let ta = {
        let a = a.clone();
        thread::spawn(move || (0..10_000).step_by(2).for_each(|v| a.observer().on_next(v)))
    };
    let tb = {
        let b = b.clone();
        thread::spawn(move || (0..10_000).step_by(2).for_each(|v| b.observer().on_next(v)))
    };
    ta.join().unwrap();
    tb.join().unwrap();
    assert_eq!(a_seen.load(Ordering::SeqCst), 10_000);
    assert_eq!(b_seen.load(Ordering::SeqCst), 10_000);
}

#[test]
fn share_with_subscribers_from_many_threads_disconnects_when_all_left() {
    let input = PublishSubject::<usize>::new();
    let subscriptions = Arc::new(AtomicUsize::new(0));
    let s = subscriptions.clone();
    let i = input.clone();
    let shared = rx::source::defer(move || {
        s.fetch_add(1, Ordering::SeqCst);
        i.observable()
    })
    .share();
    let emitting = Arc::new(AtomicBool::new(true));
    let producer = {
        let (input, emitting) = (input.clone(), emitting.clone());
        // Bounded, and yielding now and then: whoever holds the delivery role drains what
        // arrives meanwhile, so a producer that never pauses could keep a subscribing
        // thread draining for as long as it runs.
        thread::spawn(move || {
            let mut n = 0;
            while emitting.load(Ordering::SeqCst) && n < 1_000_000 {
                input.observer().on_next(n);
                n += 1;
                if n % 64 == 0 {
                    thread::yield_now();
                }
            }
        })
    };
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let shared = shared.clone();
            thread::spawn(move || {
                for _ in 0..500 {
                    let o = TestObserver::new();
                    let handle = shared.clone().subscribe_observer(o.clone());
                    thread::yield_now();
                    handle.dispose();
                    o.assert_rules();
                    assert_consecutive(&o.values());
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    emitting.store(false, Ordering::SeqCst);
    producer.join().unwrap();
    assert!(
        !input.has_observers(),
        "every subscriber left, so the source is disconnected"
    );
    assert!(subscriptions.load(Ordering::SeqCst) >= 1);
}

/// A value that counts how many of its copies are alive.
struct Tracked(Arc<AtomicIsize>);

impl Tracked {
    fn new(live: &Arc<AtomicIsize>) -> Self {
        live.fetch_add(1, Ordering::SeqCst);
        Tracked(live.clone())
    }
}

impl Clone for Tracked {
    fn clone(&self) -> Self {
        Tracked::new(&self.0)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn everything_is_freed_once_every_handle_is_dropped() {
    let live = Arc::new(AtomicIsize::new(0));
    let observer_probe = Arc::new(());
    {
        let subject = ReplaySubject::new();
        let probe = observer_probe.clone();
        let kept = subject.observable().subscribe(move |_: Tracked| {
            let _ = &probe;
        });
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (subject, live) = (subject.clone(), live.clone());
                thread::spawn(move || {
                    let mut input = subject.observer();
                    for _ in 0..100 {
                        input.on_next(Tracked::new(&live));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(
            live.load(Ordering::SeqCst),
            400,
            "the replay buffer keeps every value"
        );
        drop(kept);
    }
    assert_eq!(
        live.load(Ordering::SeqCst),
        0,
        "the buffer was freed with the subject"
    );
    assert_eq!(
        Arc::strong_count(&observer_probe),
        1,
        "the observer was freed with the subject"
    );

    // A connection that ended frees the subject it fed.
    let connectable = rx::source::from_iter((0..3).map({
        let live = live.clone();
        move |_| Tracked::new(&live)
    }))
    .replay(2);
    connectable.connect();
    assert_eq!(live.load(Ordering::SeqCst), 2);
    drop(connectable);
    assert_eq!(live.load(Ordering::SeqCst), 0);
}

#[test]
fn notifications_from_threads_reach_a_late_replay_subscriber_in_full() {
    let subject = ReplaySubject::with_capacity(4);
    let t = {
        let subject = subject.clone();
        thread::spawn(move || {
            let mut input = subject.observer();
            for v in 0..10 {
                input.on_next(v);
            }
            input.on_completed();
        })
    };
    t.join().unwrap();
    let o = TestObserver::new();
    subject.observable().subscribe_observer(o.clone());
    o.assert_notifications(&[
        Notification::Next(6),
        Notification::Next(7),
        Notification::Next(8),
        Notification::Next(9),
        Notification::Completed,
    ]);
}
