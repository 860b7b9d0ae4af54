//! With `Immediate`, `observe_on` and `subscribe_on` cost nothing: no allocation, no thread.
//! Neither do the operators that only read a scheduler's clock.

use rx::prelude::*;
use rx::schedulers::Immediate;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

mod support;

use support::alloc::allocations_in;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

static SUM: AtomicU64 = AtomicU64::new(0);
static ON_CALLER: AtomicU64 = AtomicU64::new(0);

#[test]
fn observe_on_and_subscribe_on_immediate_allocate_nothing_and_stay_on_the_thread() {
    let caller = std::thread::current().id();
    // The thread's own bookkeeping (its id, the thread-local) is set up before counting.
    let allocations = allocations_in(|| {
        let handle = rx::source::from_iter(1..=100u64)
            .subscribe_on(Immediate)
            .map(|v| v * 2)
            .observe_on(Immediate)
            .subscribe_on(Immediate)
            .observe_on(Immediate)
            .subscribe(move |v| {
                SUM.fetch_add(v, Ordering::Relaxed);
                if std::thread::current().id() == caller {
                    ON_CALLER.fetch_add(1, Ordering::Relaxed);
                }
            });
        assert!(handle.is_disposed());
    });
    assert_eq!(allocations, 0);
    assert_eq!(SUM.load(Ordering::Relaxed), 2 * (1..=100).sum::<u64>());
    assert_eq!(ON_CALLER.load(Ordering::Relaxed), 100);
}

#[test]
fn clock_reading_operators_allocate_nothing_on_any_scheduler() {
    let mut seen = 0;
    let allocations = allocations_in(|| {
        rx::source::from_iter(0..50)
            .timestamp(Immediate)
            .map(|(_, v)| v)
            .time_interval(Immediate)
            .map(|(_, v)| v)
            .throttle(Duration::from_secs(3600), Immediate)
            .subscribe(|_| seen += 1);
    });
    assert_eq!(allocations, 0);
    assert_eq!(seen, 1);
}
