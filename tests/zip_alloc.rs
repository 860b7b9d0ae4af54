//! Allocations per subscription of zip, combine_latest, with_latest_from, group_by and
//! window on synchronous sources, and proof that everything allocated is freed once the
//! subscription has ended: a counting global allocator tracks, per thread, allocations made
//! and blocks still live.

use rx::prelude::*;
use rx::source::{from_iter, just};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

struct CountingAllocator;

thread_local! {
    // Const-initialised, so reading them from inside the allocator does not allocate.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn count(allocated: usize, live: isize) {
    // `try_with`: the allocator may run while thread-locals are torn down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + allocated));
    let _ = LIVE.try_with(|c| c.set(c.get() + live));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counters are
// thread-local `Cell`s that need no allocation.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(1, 1);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, -1);
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(1, 0);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Runs `f` and returns how many allocations it made; asserts that it freed all of them.
#[track_caller]
fn allocations_in(f: impl FnOnce()) -> usize {
    let (before, live_before) = (ALLOCATIONS.with(Cell::get), LIVE.with(Cell::get));
    f();
    let (after, live_after) = (ALLOCATIONS.with(Cell::get), LIVE.with(Cell::get));
    assert_eq!(live_after, live_before, "blocks leaked");
    after - before
}

#[test]
fn zip_of_two_justs() {
    let n = allocations_in(|| {
        just(black_box(1)).zip(just(black_box(2))).subscribe(|v| {
            black_box(v);
        });
    });
    println!("just(1).zip(just(2)).subscribe(..): {n} allocation(s)");
    assert_eq!(n, 1, "the shared state only");

    let n = allocations_in(|| {
        just(black_box(1))
            .zip_with(just(black_box(2)), |a, b| a + b)
            .subscribe(|v| {
                black_box(v);
            });
    });
    assert_eq!(n, 1);
}

#[test]
fn with_latest_from_of_two_justs() {
    let n = allocations_in(|| {
        just(black_box(1))
            .with_latest_from(just(black_box(2)))
            .subscribe(|v| {
                black_box(v);
            });
    });
    println!("just(1).with_latest_from(just(2)).subscribe(..): {n} allocation(s)");
    assert_eq!(n, 1, "the shared state only");
}

#[test]
fn combine_latest_of_two_justs() {
    let n = allocations_in(|| {
        just(black_box(1))
            .combine_latest(just(black_box(2)))
            .subscribe(|v| {
                black_box(v);
            });
    });
    println!("just(1).combine_latest(just(2)).subscribe(..): {n} allocation(s)");
    assert_eq!(n, 1, "the shared state only");
}

#[test]
fn buffering_allocates_only_beyond_one_value_per_source() {
    // Each source holds one value until the last one pairs them: nothing but the shared state.
    let short = allocations_in(|| {
        rx::source::zip((just(1), just(2), just(3), just(4))).subscribe(|v| {
            black_box(v);
        });
    });
    println!("zip((just, just, just, just)).subscribe(..): {short} allocation(s)");
    assert_eq!(short, 1);

    // A synchronous first source runs to its end before the second is subscribed, so all its
    // values are buffered: the queue grows by doubling.
    let n = allocations_in(|| {
        from_iter(black_box(0..100))
            .zip(from_iter(black_box(0..100)))
            .subscribe(|v| {
                black_box(v);
            });
    });
    println!("from_iter(0..100).zip(from_iter(0..100)).subscribe(..): {n} allocation(s)");
    assert!(
        n <= 1 + 8,
        "one shared state and a queue growing by doubling: {n}"
    );
}

#[test]
fn window_and_group_by() {
    let n = allocations_in(|| {
        just(black_box(1)).window(2).subscribe(|w| {
            w.subscribe(|v| {
                black_box(v);
            });
        });
    });
    println!("just(1).window(2).subscribe(|w| w.subscribe(..)): {n} allocation(s)");
    assert!(
        n <= 3,
        "reference count, window state, boxed subscriber: {n}"
    );

    let n = allocations_in(|| {
        from_iter(black_box(0..10))
            .group_by(|v| v % 2)
            .subscribe(|g| {
                g.subscribe(|v| {
                    black_box(v);
                });
            });
    });
    println!("from_iter(0..10).group_by(odd).subscribe(..): {n} allocation(s)");
}
