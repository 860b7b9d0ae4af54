//! Allocation counts of subjects and multicasting, measured by a counting global allocator.
//! Counts are per thread, so tests running in parallel do not disturb each other.

use rx::prelude::*;
use rx::subjects::{BehaviorSubject, PublishSubject, ReplaySubject};
use std::cell::Cell;

mod support;

use support::alloc::allocations_in as allocations;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

#[test]
fn publish_on_next_with_one_subscriber_does_not_allocate() {
    let subject = PublishSubject::new();
    let mut sum = 0u64;
    let sum_ref = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let s = sum_ref.clone();
    subject.observable().subscribe(move |v: u64| {
        s.fetch_add(v, std::sync::atomic::Ordering::Relaxed);
    });
    let mut input = subject.observer();
    input.on_next(0); // warm-up
    let n = allocations(|| {
        for v in 1..=1000 {
            input.on_next(v);
            sum += v;
        }
    });
    assert_eq!(n, 0);
    assert_eq!(sum_ref.load(std::sync::atomic::Ordering::Relaxed), sum);
}

#[test]
fn publish_on_next_with_a_hundred_subscribers_does_not_allocate() {
    let subject = PublishSubject::new();
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for _ in 0..100 {
        let c = count.clone();
        subject.observable().subscribe(move |_: u32| {
            c.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
    }
    let mut input = subject.observer();
    input.on_next(0); // the first delivery registers the subscribers
    let n = allocations(|| {
        for v in 0..100 {
            input.on_next(v);
        }
    });
    assert_eq!(n, 0);
    assert_eq!(count.load(std::sync::atomic::Ordering::Relaxed), 101 * 100);
}

#[test]
fn behavior_and_bounded_replay_do_not_allocate_per_value() {
    let behavior = BehaviorSubject::new(0);
    behavior.observable().subscribe(|_: i32| {});
    let replay = ReplaySubject::with_capacity(8);
    replay.observable().subscribe(|_: i32| {});
    let (mut b, mut r) = (behavior.observer(), replay.observer());
    for v in 0..16 {
        b.on_next(v);
        r.on_next(v);
    }
    let n = allocations(|| {
        for v in 0..1000 {
            b.on_next(v);
            r.on_next(v);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn share_does_not_allocate_per_value() {
    let input = PublishSubject::new();
    let shared = input.observable().map(|v: i32| v + 1).share();
    shared.clone().subscribe(|_| {});
    shared.clone().subscribe(|_| {});
    let mut feed = input.observer();
    feed.on_next(0);
    let n = allocations(|| {
        for v in 0..1000 {
            feed.on_next(v);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn subscribing_allocates_only_an_observer_too_large_to_keep_in_place() {
    let subject = PublishSubject::<i32>::new();
    // Warm up: the inbox's queues and the registry keep their capacity once grown (twice,
    // as the queues are swapped with the delivering thread's spares).
    for _ in 0..2 {
        subject.observable().subscribe(|_| {}).dispose();
    }
    let n = allocations(|| {
        let handle = subject.observable().subscribe(|_| {});
        handle.dispose();
    });
    assert_eq!(n, 0);
    // Three words of captures are kept in the subject's table, and a fourth is boxed.
    assert_eq!(allocations(|| subscribe_capturing!(subject, 3)), 0);
    assert_eq!(allocations(|| subscribe_capturing!(subject, 4)), 1);
}

/// Subscribes to a subject a closure capturing that many words, and disposes it.
macro_rules! subscribe_capturing {
    ($subject:expr, $words:expr) => {{
        let captured = [5usize; $words];
        $subject
            .observable()
            .subscribe(move |v: i32| assert!(v as usize != captured[$words - 1]))
            .dispose();
    }};
}
use subscribe_capturing;

// ---- the local flavour: the same counts, with `Rc` state in the subscribers

#[test]
fn local_publish_on_next_does_not_allocate() {
    use std::rc::Rc;
    let subject = rx::subjects::local::PublishSubject::new();
    let sum = Rc::new(Cell::new(0u64));
    for _ in 0..100 {
        let s = sum.clone();
        subject
            .observable()
            .subscribe(move |v: Rc<u64>| s.set(s.get() + *v));
    }
    subject.on_next(Rc::new(0)); // warm-up
    let value = Rc::new(1);
    let n = allocations(|| {
        for _ in 0..1000 {
            subject.on_next(value.clone());
        }
    });
    assert_eq!(n, 0);
    assert_eq!(sum.get(), 100 * 1000);
}

#[test]
fn local_behavior_and_bounded_replay_do_not_allocate_per_value() {
    let behavior = rx::subjects::local::BehaviorSubject::new(0);
    behavior.observable().subscribe(|_: i32| {});
    let replay = rx::subjects::local::ReplaySubject::with_capacity(8);
    replay.observable().subscribe(|_: i32| {});
    for v in 0..16 {
        behavior.on_next(v);
        replay.on_next(v);
    }
    let n = allocations(|| {
        for v in 0..1000 {
            behavior.on_next(v);
            replay.on_next(v);
        }
    });
    assert_eq!(n, 0);
    assert_eq!(behavior.value(), Some(999));
}

#[test]
fn share_local_does_not_allocate_per_value() {
    let input = rx::subjects::local::PublishSubject::new();
    let shared = input.observable().map(|v: i32| v + 1).share_local();
    let seen = std::rc::Rc::new(Cell::new(0));
    for _ in 0..2 {
        let seen = seen.clone();
        shared.clone().subscribe(move |_| seen.set(seen.get() + 1));
    }
    input.on_next(0);
    let n = allocations(|| {
        for v in 0..1000 {
            input.on_next(v);
        }
    });
    assert_eq!(n, 0);
    assert_eq!(seen.get(), 2 * 1001);
}

#[test]
fn local_subscribing_allocates_only_an_observer_too_large_to_keep_in_place() {
    let subject = rx::subjects::local::PublishSubject::<i32>::new();
    for _ in 0..2 {
        subject.observable().subscribe(|_| {}).dispose();
    }
    let n = allocations(|| {
        let captured = std::rc::Rc::new(5);
        let handle = subject
            .observable()
            .subscribe(move |v| assert!(v != *captured));
        handle.dispose();
    });
    // The `Rc` allocates; the observer holding it is kept in place.
    assert_eq!(n, 1);
    assert_eq!(allocations(|| subscribe_capturing!(subject, 4)), 1);
}
