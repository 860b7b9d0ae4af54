//! The newer multicasting operators with subscribers racing on real threads: whatever the
//! interleaving, the source runs as often as it should and every subscriber keeps the Rx
//! rules.

use rx::prelude::*;
use rx::testing::TestObserver;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

#[test]
fn auto_connect_with_racing_subscribers_connects_once() {
    for _ in 0..50 {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = rx::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            rx::source::from_iter(0..100)
        })
        .replay(100)
        .auto_connect(4);
        let observers: Vec<TestObserver<i32>> = (0..4).map(|_| TestObserver::new()).collect();
        let threads: Vec<_> = observers
            .iter()
            .map(|o| {
                let (shared, o) = (shared.clone(), o.clone());
                thread::spawn(move || {
                    shared.subscribe_observer(o);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        for o in &observers {
            o.assert_rules();
            o.assert_completed();
            assert_eq!(o.values(), (0..100).collect::<Vec<_>>());
        }
    }
}

#[test]
fn share_replay_retained_with_subscribers_coming_and_going_subscribes_once() {
    for _ in 0..20 {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = rx::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            rx::source::interval(
                std::time::Duration::from_micros(50),
                rx::schedulers::NewThread,
            )
            .take(200)
        })
        .share_replay_retained(3);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let shared = shared.clone();
                thread::spawn(move || {
                    for _ in 0..20 {
                        let o = TestObserver::new();
                        let handle = shared.clone().subscribe_observer(o.clone());
                        thread::yield_now();
                        handle.dispose();
                        o.assert_rules();
                        let values = o.values();
                        assert!(values.windows(2).all(|w| w[0] + 1 == w[1]), "{values:?}");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        // However the subscribers came and went, the source was subscribed once, and a late
        // subscriber gets the end of the one run.
        let late = TestObserver::new();
        shared.clone().subscribe_observer(late.clone());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !late.is_terminated() {
            assert!(
                std::time::Instant::now() < deadline,
                "no completion after 10 s"
            );
            thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        late.assert_completed();
        let values = late.values();
        assert_eq!(values.last(), Some(&199));
    }
}

// Subscribers coming and going on four threads, while the source delivers on its own: each
// disposal must count its subscriber out before it returns, or the connection outlives the
// last of them and the late subscriber below joins it instead of starting a run.
#[test]
fn share_with_resets_on_ref_count_zero_under_racing_subscribers() {
    for _ in 0..20 {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = rx::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            rx::source::interval(
                std::time::Duration::from_micros(50),
                rx::schedulers::NewThread,
            )
        })
        .share_with(rx::operators::ShareConfig::new(
            rx::subjects::PublishSubject::new,
        ));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let shared = shared.clone();
                thread::spawn(move || {
                    for _ in 0..20 {
                        let o = TestObserver::new();
                        let handle = shared.clone().subscribe_observer(o.clone());
                        thread::yield_now();
                        handle.dispose();
                        o.assert_rules();
                        o.assert_not_terminated();
                        let values = o.values();
                        assert!(values.windows(2).all(|w| w[0] + 1 == w[1]), "{values:?}");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        // Each connection is a run of its own; with everyone gone the next subscriber
        // starts one more, from the beginning.
        let before = runs.load(Ordering::SeqCst);
        assert!((1..=80).contains(&before), "{before} runs");
        let late = TestObserver::new();
        let handle = shared.clone().subscribe_observer(late.clone());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while late.value_count() < 3 {
            assert!(std::time::Instant::now() < deadline, "no values after 10 s");
            thread::sleep(std::time::Duration::from_millis(1));
        }
        handle.dispose();
        assert_eq!(runs.load(Ordering::SeqCst), before + 1);
        assert_eq!(late.values()[..3], [0, 1, 2]);
    }
}

#[test]
fn ref_count_min_with_racing_subscribers_connects_once_and_all_see_everything() {
    for _ in 0..50 {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let input = rx::subjects::PublishSubject::<i32>::new();
        let source = input.observable();
        let shared = rx::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            source.clone()
        })
        .publish()
        .ref_count_min(4);
        let observers: Vec<TestObserver<i32>> = (0..4).map(|_| TestObserver::new()).collect();
        let threads: Vec<_> = observers
            .iter()
            .map(|o| {
                let (shared, o) = (shared.clone(), o.clone());
                thread::spawn(move || shared.subscribe_observer(o))
            })
            .collect();
        let handles: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        input.on_next(1);
        input.on_completed();
        for o in &observers {
            o.assert_rules();
            o.assert_values(&[1]);
            o.assert_completed();
        }
        drop(handles);
    }
}
