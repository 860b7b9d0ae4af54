//! `timeout_with`, `exhaust_all`, `expand`, `retry_when`, `repeat_when`, `fork_join`,
//! `combine_latest_all` and `zip_all` on real threads: upstreams on several threads race each
//! other and the operator's timer or notifier. Whatever the interleaving, the Rx rules hold (no
//! overlapping calls, nothing after the end), nothing is lost or duplicated, and values of
//! one upstream keep their order. Bounds on wall-clock time are generous: these tests check
//! what happens, and only that it happens in a sane time.

use rx::prelude::*;
use rx::schedulers::{NewThread, ThreadPool};
use rx::testing::TestObserver;
use std::thread;
use std::time::{Duration, Instant};

/// Waits for `observer` to terminate; fails after 10 s.
#[track_caller]
fn wait_terminated<T>(observer: &TestObserver<T>) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !observer.is_terminated() {
        assert!(
            Instant::now() < deadline,
            "no terminal notification after 10 s"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn timeout_with_switch_racing_upstream() {
    for round in 0..40u64 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000i64)
            .subscribe_on(NewThread)
            .timeout_with(
                Duration::from_micros(5 + round * 5),
                rx::source::from_iter([-1, -2]),
                NewThread,
            )
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let values = o.values();
        // A prefix of the source, then the whole fallback if the timer won.
        let prefix = values.iter().take_while(|v| **v >= 0).count();
        assert!(values[..prefix].iter().copied().eq(0..prefix as i64));
        match &values[prefix..] {
            [] => assert_eq!(prefix, 2000),
            [-1, -2] => {}
            rest => panic!("unexpected tail {rest:?}"),
        }
    }
}

#[test]
fn timeout_with_disposed_while_it_switches() {
    for round in 0..40u64 {
        let o = TestObserver::new();
        let handle = rx::source::never::<i64>()
            .timeout_with(
                Duration::from_micros(20 + round * 10),
                rx::source::interval(Duration::from_micros(50), NewThread).map(|v| v as i64),
                NewThread,
            )
            .subscribe_observer(o.clone());
        thread::sleep(Duration::from_micros(20 + round * 10));
        handle.dispose();
        assert!(handle.is_disposed());
        let count = o.value_count();
        thread::sleep(Duration::from_millis(2));
        // A delivery under way when `dispose` ran may finish; nothing comes after it.
        assert!(o.value_count() <= count + 1);
        let settled = o.value_count();
        thread::sleep(Duration::from_millis(2));
        assert_eq!(o.value_count(), settled);
        o.assert_rules();
        o.assert_not_terminated();
    }
}

#[test]
fn exhaust_all_inners_on_other_threads() {
    let pool = ThreadPool::new(2);
    for _ in 0..20 {
        let o = TestObserver::new();
        let inner_pool = pool.clone();
        rx::source::from_iter(0..200i64)
            .subscribe_on(pool.clone())
            .map(move |i| {
                rx::source::from_iter(i * 10..i * 10 + 10).subscribe_on(inner_pool.clone())
            })
            .exhaust_all()
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        // Each inner taken is taken whole; the first always is.
        let values = o.values();
        assert_eq!(values.len() % 10, 0);
        assert_eq!(values[..10], (0..10).collect::<Vec<_>>()[..]);
        let mut last_block = -1;
        for block in values.chunks(10) {
            let i = block[0] / 10;
            assert!(i > last_block);
            assert!(block.iter().copied().eq(i * 10..i * 10 + 10));
            last_block = i;
        }
    }
}

#[test]
fn expand_a_tree_grown_on_other_threads() {
    let pool = ThreadPool::new(2);
    for _ in 0..10 {
        let o = TestObserver::new();
        let inner_pool = pool.clone();
        // A binary tree in heap order: node n has children 2n and 2n + 1, down to 1023.
        rx::source::just(1u32)
            .subscribe_on(pool.clone())
            .expand(move |&n| {
                let children = if n < 512 {
                    vec![2 * n, 2 * n + 1]
                } else {
                    vec![]
                };
                rx::source::from_iter(children).subscribe_on(inner_pool.clone())
            })
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let mut values = o.values();
        // Every parent comes before its children.
        let position = |n: u32| values.iter().position(|v| *v == n).unwrap();
        for n in 2..=1023 {
            assert!(position(n / 2) < position(n));
        }
        values.sort_unstable();
        assert!(values.iter().copied().eq(1..=1023));
    }
}

#[test]
fn expand_disposed_while_projections_run_on_other_threads() {
    let pool = ThreadPool::new(2);
    for round in 0..20u64 {
        let o = TestObserver::new();
        let inner_pool = pool.clone();
        let handle = rx::source::just(0u64)
            .expand(move |&n| rx::source::just(n + 1).subscribe_on(inner_pool.clone()))
            .subscribe_observer(o.clone());
        thread::sleep(Duration::from_micros(50 + round * 20));
        handle.dispose();
        let count = o.value_count();
        thread::sleep(Duration::from_millis(2));
        assert!(o.value_count() <= count + 1);
        o.assert_rules();
        o.assert_not_terminated();
        let values = o.values();
        assert!(values.iter().copied().eq(0..values.len() as u64));
    }
}

#[test]
fn retry_when_attempts_and_notifiers_on_other_threads() {
    let pool = ThreadPool::new(2);
    for round in 0..20u32 {
        let o = TestObserver::new();
        let attempts = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let a = attempts.clone();
        // Each attempt emits its number on a pool thread, then fails; the notifier fires on
        // another pool thread. The fifth error ends it.
        let source = rx::source::defer(move || {
            let n = a.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            rx::source::just(i64::from(n))
                .concat_with(rx::source::throw(rx::Error::msg("flaky")))
                .subscribe_on(NewThread)
        });
        let timers = pool.clone();
        source
            .retry_when(move |error, attempt| {
                if attempt < 5 {
                    rx::source::timer(Duration::from_micros(u64::from(round)), timers.clone())
                        .map(|_| ())
                        .boxed()
                } else {
                    rx::source::throw(error.clone()).boxed()
                }
            })
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_values(&[0, 1, 2, 3, 4]);
        o.assert_error("flaky");
        assert_eq!(attempts.load(std::sync::atomic::Ordering::SeqCst), 5);
    }
}

#[test]
fn retry_when_disposed_while_its_notifier_fires() {
    for round in 0..40u64 {
        let o = TestObserver::<i64>::new();
        let subscriptions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let s = subscriptions.clone();
        let handle = rx::source::defer(move || {
            s.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            rx::source::throw::<i64>(rx::Error::msg("down"))
        })
        .retry_when(|_, _| rx::source::timer(Duration::from_micros(20), NewThread))
        .subscribe_observer(o.clone());
        thread::sleep(Duration::from_micros(20 + round * 10));
        handle.dispose();
        let settled = subscriptions.load(std::sync::atomic::Ordering::SeqCst);
        thread::sleep(Duration::from_millis(2));
        // An attempt under way when `dispose` ran may still subscribe once; none after it.
        let after = subscriptions.load(std::sync::atomic::Ordering::SeqCst);
        assert!(after <= settled + 1, "{settled} then {after}");
        thread::sleep(Duration::from_millis(2));
        assert_eq!(
            subscriptions.load(std::sync::atomic::Ordering::SeqCst),
            after
        );
        o.assert_rules();
        o.assert_not_terminated();
    }
}

#[test]
fn repeat_when_resubscribes_on_pool_threads() {
    let pool = ThreadPool::new(2);
    for round in 0..20u32 {
        let o = TestObserver::new();
        let runs = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let r = runs.clone();
        let work = pool.clone();
        // Each run emits its number on a pool thread and completes; the notifier fires on
        // another pool thread. The fifth completion's notifier completes empty, ending it.
        let source = rx::source::defer(move || {
            let n = r.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            rx::source::just(i64::from(n)).subscribe_on(work.clone())
        });
        let timers = pool.clone();
        source
            .repeat_when(move |attempt| {
                if attempt < 5 {
                    rx::source::timer(Duration::from_micros(u64::from(round)), timers.clone())
                        .map(|_| ())
                        .boxed()
                } else {
                    rx::source::empty::<()>().boxed()
                }
            })
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_values(&[0, 1, 2, 3, 4]);
        o.assert_completed();
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 5);
    }
}

#[test]
fn repeat_when_disposed_while_its_notifier_fires() {
    for round in 0..40u64 {
        let o = TestObserver::<i64>::new();
        let subscriptions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let s = subscriptions.clone();
        let handle = rx::source::defer(move || {
            s.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            rx::source::just(7i64)
        })
        .repeat_when(|_| rx::source::timer(Duration::from_micros(20), NewThread))
        .subscribe_observer(o.clone());
        thread::sleep(Duration::from_micros(20 + round * 10));
        handle.dispose();
        let settled = subscriptions.load(std::sync::atomic::Ordering::SeqCst);
        thread::sleep(Duration::from_millis(2));
        // A run under way when `dispose` ran may still subscribe once; none after it.
        let after = subscriptions.load(std::sync::atomic::Ordering::SeqCst);
        assert!(after <= settled + 1, "{settled} then {after}");
        thread::sleep(Duration::from_millis(2));
        assert_eq!(
            subscriptions.load(std::sync::atomic::Ordering::SeqCst),
            after
        );
        o.assert_rules();
        o.assert_not_terminated();
        // Every run delivered its one value, and nothing came after the last run.
        assert!(o.values().iter().all(|v| *v == 7));
        assert!(o.values().len() <= after);
    }
}

/// `n` sources of `len` values each, every one on a thread of its own.
fn threaded_sources(n: i64, len: i64) -> Vec<rx::BoxedObservable<'static, i64>> {
    (0..n)
        .map(|k| {
            rx::source::from_iter(k * 1000..k * 1000 + len)
                .subscribe_on(NewThread)
                .boxed()
        })
        .collect()
}

#[test]
fn fork_join_of_sources_on_other_threads() {
    for _ in 0..20 {
        let o = TestObserver::new();
        rx::source::fork_join_all(threaded_sources(4, 300)).subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_values(&[vec![299, 1299, 2299, 3299]]);
        o.assert_completed();
        let o = TestObserver::new();
        let [a, b, c]: [_; 3] = threaded_sources(3, 300).try_into().ok().unwrap();
        rx::source::fork_join((a, b, c)).subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_values(&[(299, 1299, 2299)]);
        o.assert_completed();
    }
}

#[test]
fn combine_latest_all_of_sources_on_other_threads() {
    for _ in 0..20 {
        let o = TestObserver::new();
        rx::source::combine_latest_all(threaded_sources(3, 300)).subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let rows = o.values();
        // Rows move forward one source at a time, and end with the last value of each.
        assert_eq!(rows.last().unwrap(), &vec![299, 1299, 2299]);
        for pair in rows.windows(2) {
            let changed = pair[0].iter().zip(&pair[1]).filter(|(a, b)| a != b).count();
            assert_eq!(changed, 1, "{pair:?}");
            assert!(pair[0].iter().zip(&pair[1]).all(|(a, b)| a <= b));
        }
    }
}

#[test]
fn zip_all_of_sources_on_other_threads() {
    for _ in 0..20 {
        let o = TestObserver::new();
        rx::source::zip_all(threaded_sources(3, 300)).subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let rows = o.values();
        assert_eq!(rows.len(), 300);
        for (v, row) in (0..).zip(&rows) {
            assert_eq!(row, &[v, 1000 + v, 2000 + v]);
        }
    }
}
