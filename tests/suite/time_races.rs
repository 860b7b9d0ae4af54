//! The newer time operators on real threads: upstream on one thread races the operator's
//! timer on another. Whatever the interleaving, the Rx rules hold (no overlapping calls,
//! nothing after the end) and values keep their order. Every bound on wall-clock time is
//! generous: these tests check what happens, and only that it happens in a sane time.

use rx::operators::ThrottleConfig;
use rx::prelude::*;
use rx::schedulers::NewThread;
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

fn tiny(round: u64) -> Duration {
    Duration::from_micros(20 + round * 10)
}

#[test]
fn throttle_with_trailing_racing_upstream() {
    let both = ThrottleConfig {
        leading: true,
        trailing: true,
    };
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .throttle_with(tiny(round), both, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let values = o.values();
        assert!(values.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            values.last(),
            Some(&1999),
            "the last value is a trailing one"
        );
    }
}

#[test]
fn audit_racing_upstream() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .audit(tiny(round), NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let values = o.values();
        assert!(values.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            values.last(),
            Some(&1999),
            "the last window emits before completion"
        );
    }
}

#[test]
fn delay_subscription_disposed_while_it_subscribes() {
    for round in 0..40 {
        let o = TestObserver::new();
        let handle = rx::source::from_iter(0..1_000_000)
            .delay_subscription(tiny(round), NewThread)
            .subscribe_observer(o.clone());
        thread::sleep(tiny(round));
        handle.dispose();
        assert!(handle.is_disposed());
        // A synchronous source running on the worker sees the disposal and stops.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let count = o.value_count();
            thread::sleep(Duration::from_millis(5));
            if o.value_count() == count {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "values kept coming after dispose"
            );
        }
        o.assert_rules();
        assert!(o.value_count() < 1_000_000 || o.is_completed());
    }
}

#[test]
fn sample_with_and_buffer_with_racing_their_notifier() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .sample_with(rx::source::interval(tiny(round), NewThread))
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        assert!(o.values().windows(2).all(|w| w[0] < w[1]));

        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .buffer_with(rx::source::interval(tiny(round), NewThread))
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        assert_eq!(o.values().concat(), (0..2000).collect::<Vec<_>>());
    }
}

#[test]
fn buffer_with_time_or_count_racing_upstream() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .buffer_with_time_or_count(tiny(round), 7, NewThread)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let buffers = o.values();
        assert!(buffers.iter().all(|b| b.len() <= 7));
        assert_eq!(buffers.concat(), (0..2000).collect::<Vec<_>>());
    }
}

#[test]
fn window_with_skip_windows_taken_on_other_threads() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .window_with_skip(5, 3)
            .flat_map(|w| w.to_vec().observe_on(NewThread))
            .take(200 + round as usize)
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let windows = o.values();
        assert_eq!(windows.len(), 200 + round as usize);
        for w in &windows {
            assert_eq!(w.len(), 5, "window {w:?}");
            assert_eq!(w[0] % 3, 0);
            assert!(w.windows(2).all(|p| p[1] == p[0] + 1));
        }
    }
}

#[test]
fn timer_at_on_a_thread_fires_once_not_early() {
    let scheduler = NewThread;
    for _ in 0..20 {
        let due = Instant::now() + Duration::from_millis(2);
        let o = TestObserver::new();
        rx::source::timer_at(due, scheduler)
            .map(move |v| (v, Instant::now() >= due))
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_values(&[(0, true)]);
        o.assert_completed();
    }
}

#[test]
fn debounce_with_durations_racing_upstream() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .debounce_with(move |_| rx::source::timer(tiny(round), NewThread))
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let values = o.values();
        assert!(values.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            values.last(),
            Some(&1999),
            "the last value goes out on completion"
        );
    }
}

#[test]
fn group_by_with_groups_taken_on_other_threads() {
    for _ in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .group_by_with(|v| v % 3, |v| v * 10)
            .flat_map(|g| {
                let key = *g.key();
                g.observe_on(NewThread).to_vec().map(move |v| (key, v))
            })
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        let mut groups = o.values();
        groups.sort();
        assert_eq!(groups.len(), 3);
        for (key, values) in groups {
            let expected: Vec<i32> = (0..2000).filter(|v| v % 3 == key).map(|v| v * 10).collect();
            assert_eq!(values, expected);
        }
    }
}

#[test]
fn group_by_until_durations_ending_groups_on_other_threads() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .group_by_until(
                |v| v % 3,
                move |_| rx::source::timer(tiny(round), NewThread),
            )
            .flat_map(|g| {
                let key = *g.key();
                g.to_vec().map(move |v| (key, v))
            })
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        // However the durations cut them, the groups of each key hold its values, each once.
        for key in 0..3 {
            let values: Vec<i32> = o
                .values()
                .into_iter()
                .filter(|(k, _)| *k == key)
                .flat_map(|(_, v)| v)
                .collect();
            let mut sorted = values.clone();
            sorted.sort();
            assert_eq!(
                sorted,
                (0..2000).filter(|v| v % 3 == key).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn window_with_time_ticks_racing_upstream() {
    for round in 0..20 {
        let o = TestObserver::new();
        rx::source::from_iter(0..2000)
            .subscribe_on(NewThread)
            .window_with_time(tiny(round), NewThread)
            .flat_map(|w| w.to_vec())
            .subscribe_observer(o.clone());
        wait_terminated(&o);
        o.assert_rules();
        o.assert_completed();
        assert_eq!(o.values().concat(), (0..2000).collect::<Vec<_>>());
    }
}
