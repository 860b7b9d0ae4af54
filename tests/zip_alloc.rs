//! Allocations per subscription of zip, combine_latest, with_latest_from, group_by and
//! window on synchronous sources, and proof that everything allocated is freed once the
//! subscription has ended: a counting global allocator tracks, per thread, allocations made
//! and blocks still live.

use rx::prelude::*;
use rx::source::{from_iter, just};
use std::hint::black_box;

mod support;

use support::alloc::{allocations, live_blocks};

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

/// Runs `f` and returns how many allocations it made; asserts that it freed all of them.
#[track_caller]
fn allocations_in(f: impl FnOnce()) -> usize {
    let (before, live_before) = (allocations(), live_blocks());
    f();
    let (after, live_after) = (allocations(), live_blocks());
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
    // Sources that finish inside `subscribe` are combined in state on the stack.
    assert_eq!(
        n, 0,
        "no shared state for sources that finish inside subscribe"
    );

    let n = allocations_in(|| {
        just(black_box(1))
            .zip_with(just(black_box(2)), |a, b| a + b)
            .subscribe(|v| {
                black_box(v);
            });
    });
    assert_eq!(n, 0);
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
    assert_eq!(
        n, 0,
        "no shared state for sources that finish inside subscribe"
    );
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
    assert_eq!(
        n, 0,
        "no shared state for sources that finish inside subscribe"
    );
}

#[test]
fn buffering_allocates_only_beyond_one_value_per_source() {
    // Each source holds one value until the last one pairs them: nothing allocated.
    let short = allocations_in(|| {
        rx::source::zip((just(1), just(2), just(3), just(4))).subscribe(|v| {
            black_box(v);
        });
    });
    println!("zip((just, just, just, just)).subscribe(..): {short} allocation(s)");
    assert_eq!(short, 0);

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
    assert!(n <= 8, "a queue growing by doubling: {n}");
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

#[test]
fn combine_latest_all_of_synchronous_sources_allocates_only_its_rows() {
    // Sources that finish inside `subscribe` are combined on the stack: no shared state, one
    // `Vec` per row.
    let n = allocations_in(|| {
        rx::source::combine_latest_all(vec![just(black_box(1)), just(black_box(2))]).subscribe(
            |v| {
                black_box(v);
            },
        );
    });
    println!("combine_latest_all(vec![just, just]).subscribe(..): {n} allocation(s)");
    assert_eq!(n, 2, "the Vec of sources and the one row");

    let n = allocations_in(|| {
        rx::source::combine_latest_all(vec![
            from_iter(black_box(0..3)),
            from_iter(black_box(0..3)),
        ])
        .subscribe(|v| {
            black_box(v);
        });
    });
    assert_eq!(n, 4, "the Vec of sources and three rows, nothing else");
}
