//! The time operators on real threads. Every bound on wall-clock time is generous: these
//! tests check what happens, and only that it happens in a sane time.

use rx::operators::TimeoutError;
use rx::prelude::*;
use rx::schedulers::{NewThread, ThreadPool};
use rx::testing::TestObserver;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Waits for `observer` to terminate; fails after 10 s.
#[track_caller]
fn wait_terminated<T>(observer: &TestObserver<T>) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !observer.is_terminated() {
        assert!(
            Instant::now() < deadline,
            "no terminal notification after 10 s"
        );
        thread::sleep(ms(1));
    }
}

#[test]
fn observe_on_new_thread_delivers_everything_in_order_one_at_a_time() {
    let observer = TestObserver::new();
    rx::source::from_iter(0..20_000)
        .observe_on(NewThread)
        .subscribe_observer(observer.clone());
    wait_terminated(&observer);
    observer.assert_completed();
    assert_eq!(observer.values(), (0..20_000).collect::<Vec<_>>());
}

#[test]
fn observe_on_moves_delivery_off_the_emitting_thread() {
    let emitting = Arc::new(Mutex::new(Vec::new()));
    let delivering = Arc::new(Mutex::new(Vec::new()));
    let (e, d) = (emitting.clone(), delivering.clone());
    let observer = TestObserver::new();
    rx::source::interval(ms(1), NewThread)
        .take(20)
        .tap(move |_| e.lock().unwrap().push(thread::current().id()))
        .observe_on(ThreadPool::new(2))
        .tap(move |_| d.lock().unwrap().push(thread::current().id()))
        .subscribe_observer(observer.clone());
    wait_terminated(&observer);
    observer.assert_completed();
    assert_eq!(observer.values(), (0..20).collect::<Vec<_>>());

    // One worker: one thread, which is neither the emitting one nor this one.
    let delivering = delivering.lock().unwrap();
    assert!(delivering.iter().all(|thread| *thread == delivering[0]));
    assert!(!emitting.lock().unwrap().contains(&delivering[0]));
    assert_ne!(delivering[0], thread::current().id());
}

#[test]
fn observe_on_error_arrives_after_the_values() {
    let observer = TestObserver::new();
    rx::source::from_iter((0..1000).map(|v| {
        if v < 999 {
            Ok(v)
        } else {
            Err(rx::Error::msg("last"))
        }
    }))
    .try_map(|r| r)
    .observe_on(NewThread)
    .subscribe_observer(observer.clone());
    wait_terminated(&observer);
    observer.assert_error("last");
    assert_eq!(observer.values(), (0..999).collect::<Vec<_>>());
}

#[test]
fn subscribe_on_runs_the_subscription_on_the_worker() {
    let caller = thread::current().id();
    let threads = rx::source::from_iter(0..3)
        .map(|_| thread::current().id())
        .subscribe_on(NewThread)
        .as_blocking()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert_eq!(threads.len(), 3);
    assert!(threads.iter().all(|t| *t == threads[0] && *t != caller));
}

#[test]
fn as_blocking_iterates_values_from_another_thread_and_surfaces_errors() {
    let values: Vec<_> = rx::source::interval(ms(1), NewThread)
        .take(5)
        .as_blocking()
        .into_iter()
        .collect();
    assert_eq!(values, [0, 1, 2, 3, 4].map(Ok));

    let mut seen = Vec::new();
    let outcome = rx::source::interval(ms(1), NewThread)
        .try_map(|v| {
            if v < 3 {
                Ok(v)
            } else {
                Err(rx::Error::msg("three"))
            }
        })
        .as_blocking()
        .subscribe(|v| seen.push(v));
    assert_eq!(outcome, Err(rx::Error::msg("three")));
    assert_eq!(seen, [0, 1, 2]);
}

#[test]
fn as_blocking_stops_the_source_when_the_iterator_is_dropped() {
    let emitted = Arc::new(Mutex::new(0));
    let e = emitted.clone();
    let mut items = rx::source::interval(ms(1), NewThread)
        .tap(move |_| *e.lock().unwrap() += 1)
        .as_blocking()
        .into_iter();
    assert_eq!(items.next(), Some(Ok(0)));
    drop(items);
    let after_drop = *emitted.lock().unwrap();
    thread::sleep(ms(50));
    // At most a value in flight at the moment of the drop.
    assert!(*emitted.lock().unwrap() <= after_drop + 1);
}

#[test]
fn timeout_fires_on_a_silent_source() {
    let started = Instant::now();
    let outcome = rx::source::timer(Duration::from_secs(3600), NewThread)
        .timeout(ms(20), NewThread)
        .as_blocking()
        .subscribe(|_| {});
    let error = outcome.unwrap_err();
    assert_eq!(
        error.downcast_ref::<TimeoutError>().unwrap().timeout(),
        ms(20)
    );
    assert!(started.elapsed() >= ms(20));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn interval_does_not_drift_when_delivery_is_slow() {
    // Each delivery takes half a period. Scheduled from the previous due time, the eighth
    // value comes at about 8 periods; scheduled from the end of each delivery, it would come
    // at about 12.
    let period = ms(50);
    let start = Instant::now();
    let times = rx::source::interval(period, NewThread)
        .take(8)
        .tap(move |_| thread::sleep(period / 2))
        .map(move |_| start.elapsed())
        .as_blocking()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    for (k, at) in times.iter().enumerate() {
        // Never early: value k is due at (k + 1) periods, and is seen after its delivery.
        assert!(
            *at >= period * (k as u32 + 1) + period / 2,
            "value {k} at {at:?}"
        );
    }
    assert!(
        times[7] < period * 10,
        "the eighth value came at {:?}",
        times[7]
    );
}

/// Races upstream, on one thread, against the operator's timer, on another: whatever the
/// interleaving, the Rx rules hold (no overlapping calls, nothing after the end) and values
/// stay in order.
#[test]
fn timers_racing_upstream_keep_the_rules() {
    for round in 0..20 {
        let tiny = Duration::from_micros(20 + round * 10);

        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .debounce(tiny, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_completed();
        let values = o.values();
        assert!(values.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            values.last(),
            Some(&1999),
            "the last value goes out on completion"
        );

        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .sample(tiny, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_completed();
        assert!(o.values().windows(2).all(|w| w[0] < w[1]));

        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .timeout(tiny, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        assert_eq!(o.values(), (0..o.value_count() as i32).collect::<Vec<_>>());
        if let Some(error) = o.error() {
            assert!(error.is::<TimeoutError>());
        }

        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .buffer_with_time(tiny, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_completed();
        assert_eq!(o.values().concat(), (0..2000).collect::<Vec<_>>());

        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .delay(tiny, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_completed();
        assert_eq!(o.values(), (0..2000).collect::<Vec<_>>());
    }
}

#[test]
fn disposing_while_values_flow_stops_delivery() {
    for _ in 0..20 {
        let o = TestObserver::new();
        let handle = rx::source::interval(Duration::from_micros(100), NewThread)
            .observe_on(NewThread)
            .delay(Duration::from_micros(50), NewThread)
            .subscribe_observer(o.clone());
        thread::sleep(ms(5));
        handle.dispose();
        assert!(handle.is_disposed());
        // A delivery under way when `dispose` was called may still finish; then nothing.
        thread::sleep(ms(2));
        let count = o.value_count();
        thread::sleep(ms(20));
        assert_eq!(o.value_count(), count);
        o.assert_not_terminated();
    }
}
