//! With `Immediate`, `observe_on` and `subscribe_on` cost nothing: no allocation, no thread.
//! Neither do the operators that only read a scheduler's clock.

use rx::prelude::*;
use rx::schedulers::Immediate;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Counts the allocations made by the current thread, so the test harness's own threads do
/// not disturb the count.
struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator, under the same contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

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
