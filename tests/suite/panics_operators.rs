//! A panic in a user closure, in each kind of operator: it unwinds to whoever drove the
//! notification (the design's policy: a panic is not turned into `on_error`), or, on a
//! scheduler's thread, is reported and the thread goes on. Afterwards nothing is left locked:
//! other subscribers are not blocked, and the next use of the same subject, merge or
//! scheduler works. Every test runs under a watchdog, so a lock left held fails it instead
//! of hanging.

use crate::support;

use rx::prelude::*;
use rx::schedulers::{Reschedule, Scheduler, TestScheduler, ThreadPool, Worker};
use rx::source::from_iter;
use rx::subjects::{BehaviorSubject, PublishSubject, ReplaySubject};
use rx::testing::TestObserver;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, mpsc};
use std::time::Duration;
use support::watchdog::within;

const LIMIT: Duration = Duration::from_secs(60);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// The panic `f` raises, as text.
fn panics(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

#[test]
fn stateless_operator_panic_unwinds_to_the_subscriber_after_the_values_before_it() {
    let o = TestObserver::new();
    let message = panics(|| {
        from_iter(0..5)
            .map(|v| if v == 2 { panic!("map at 2") } else { v })
            .filter(|_| true)
            .subscribe_observer(o.clone());
    });
    assert_eq!(message, "map at 2");
    o.assert_values(&[0, 1]);
    o.assert_not_terminated();
}

#[test]
fn buffering_operator_panic_unwinds_and_the_chain_can_run_again() {
    let chain = from_iter(0..6).buffer(2).scan(0usize, |acc, b| {
        assert!(acc < 2, "scan saw too much");
        acc + b.len() / 2
    });
    let o = TestObserver::new();
    assert_eq!(
        panics(|| {
            chain.clone().subscribe_observer(o.clone());
        }),
        "scan saw too much"
    );
    o.assert_values(&[1, 2]);
    // The chain is a value: a second subscription starts from scratch and panics the same.
    let again = TestObserver::new();
    let _ = panics(|| {
        chain.subscribe_observer(again.clone());
    });
    again.assert_values(&[1, 2]);
}

#[test]
fn merging_operator_panic_leaves_the_merge_usable() {
    within(LIMIT, "merge after a panic", || {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let merged = a.observable().merge_with(b.observable());
        merged.clone().subscribe(|v: i32| assert_ne!(v, 2, "two"));
        let mut ia = a.observer();
        ia.on_next(1);
        assert!(panics(|| ia.on_next(2)).contains("two"));
        // The other source of the same merge still gets through, and does not block.
        let mut ib = b.observer();
        ib.on_next(3);
        // A new subscription to the same merge works in full.
        let o = TestObserver::new();
        merged.subscribe_observer(o.clone());
        ia.on_next(4);
        ib.on_next(5);
        ia.on_completed();
        ib.on_completed();
        o.assert_values(&[4, 5]);
        o.assert_completed();
    });
}

#[test]
fn flattening_operator_panic_in_the_projection_leaves_the_source_usable() {
    within(LIMIT, "flat_map after a panic", || {
        let subject = PublishSubject::new();
        let seen = TestObserver::new();
        subject
            .observable()
            .flat_map(|v: i32| {
                assert_ne!(v, 0, "zero");
                from_iter([v, v])
            })
            .subscribe_observer(seen.clone());
        let mut input = subject.observer();
        input.on_next(1);
        assert!(panics(|| input.on_next(0)).contains("zero"));
        let o = TestObserver::new();
        subject
            .observable()
            .switch_map(|v| from_iter([v]))
            .subscribe_observer(o.clone());
        input.on_next(7);
        input.on_completed();
        o.assert_values(&[7]);
        o.assert_completed();
        assert_eq!(&seen.values()[..2], &[1, 1]);
    });
}

#[test]
fn a_panicking_subject_subscriber_blocks_neither_the_others_nor_the_next_use() {
    within(LIMIT, "subjects after a panic", || {
        let publish = PublishSubject::new();
        let behavior = BehaviorSubject::new(0);
        let replay = ReplaySubject::new();
        let kinds = [
            (publish.observable(), publish.observer()),
            (behavior.observable(), behavior.observer()),
            (replay.observable(), replay.observer()),
        ];
        for (observable, mut input) in kinds {
            let other = TestObserver::new();
            observable.clone().subscribe_observer(other.clone());
            observable
                .clone()
                .subscribe(|v: i32| assert_ne!(v, 1, "one"));
            assert!(panics(|| input.on_next(1)).contains("one"));
            // Not blocked: the subject takes the next value, on this thread and another.
            input.on_next(2);
            let mut remote = input.clone();
            std::thread::spawn(move || remote.on_next(3))
                .join()
                .unwrap();
            let late = TestObserver::new();
            observable.subscribe_observer(late.clone());
            input.on_next(4);
            input.on_completed();
            assert!(other.values().ends_with(&[2, 3, 4]), "{:?}", other.values());
            assert!(late.values().ends_with(&[4]), "{:?}", late.values());
            late.assert_completed();
        }
    });
}

#[test]
fn share_subscriber_panic_leaves_the_share_usable() {
    within(LIMIT, "share after a panic", || {
        let subject = PublishSubject::new();
        let shared = subject.observable().share();
        let calm = TestObserver::new();
        shared.clone().subscribe_observer(calm.clone());
        shared.clone().subscribe(|v: i32| assert_ne!(v, 1, "one"));
        let mut input = subject.observer();
        let _ = panics(|| input.on_next(1));
        input.on_next(2);
        input.on_completed();
        assert!(calm.values().ends_with(&[2]));
        calm.assert_completed();
    });
}

#[test]
fn time_operator_panic_unwinds_from_advance_and_the_scheduler_goes_on() {
    within(LIMIT, "test scheduler after a panic", || {
        let sch = TestScheduler::new();
        rx::source::interval(ms(1), sch.clone())
            .debounce(ms(0), sch.clone())
            .take(5)
            .subscribe(|v| assert_ne!(v, 2, "tick two"));
        assert!(panics(|| sch.advance_by(ms(10))).contains("tick two"));
        // The same scheduler runs new work, and the rest of the old.
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        sch.worker().schedule_after(ms(1), move || {
            r.fetch_add(1, SeqCst);
            Reschedule::Done
        });
        let o = TestObserver::new();
        rx::source::timer(ms(2), sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(ms(10));
        assert_eq!(ran.load(SeqCst), 1);
        o.assert_values(&[0]);
        o.assert_completed();
    });
}

#[test]
fn scheduler_task_panic_through_observe_on_leaves_the_pool_working() {
    within(LIMIT, "thread pool after a panic", || {
        let pool = ThreadPool::new(1);
        let subject = PublishSubject::new();
        subject
            .observable()
            .observe_on(pool.clone())
            .subscribe(|v: i32| assert_ne!(v, 1, "one on the pool"));
        subject.observer().on_next(1);
        // The pool's one thread reported the panic and goes on with other work.
        let (done, finished) = mpsc::channel();
        rx::source::just(5)
            .observe_on(pool)
            .subscribe(move |v| done.send(v).unwrap());
        assert_eq!(finished.recv_timeout(Duration::from_secs(10)), Ok(5));
    });
}
