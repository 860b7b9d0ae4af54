//! `timeout_with`, `exhaust_all` and `expand` on real threads: upstreams on several threads
//! race each other and the operator's timer. Whatever the interleaving, the Rx rules hold (no
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
