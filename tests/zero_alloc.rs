//! Synchronous chains of operators whose state has a fixed size perform no heap allocation,
//! from building the chain to the end of `subscribe`.

use rx::prelude::*;
use rx::source::{from_iter, just};
use std::hint::black_box;

mod support;

use support::alloc::allocations_in;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

#[test]
fn fixed_size_operators_do_not_allocate() {
    let mut sum = 0i64;
    let n = allocations_in(|| {
        from_iter(black_box([1i64, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
            .map(|v| v * 2)
            .filter(|v| v % 3 != 0)
            .filter_map(|v| (v > 2).then_some(v + 1))
            .skip(1)
            .take(6)
            .take_while(|v| *v < 100)
            .skip_while(|v| *v < 5)
            .scan(0i64, |acc, v| acc + v)
            .distinct_until_changed()
            .start_with(-1)
            .end_with(1000)
            .tap(|v| sum += v)
            .reduce(0i64, |a, v| a + v)
            .subscribe(|v| {
                black_box(v);
            });
    });
    assert_eq!(n, 0);
    assert_ne!(sum, 0);

    let n = allocations_in(|| {
        just(black_box(7)).map(|v| v + 1).first().subscribe(|v| {
            black_box(v);
        });
        from_iter(black_box(1..=5)).last().subscribe(|v| {
            black_box(v);
        });
        from_iter(black_box(1..=5)).element_at(2).subscribe(|v| {
            black_box(v);
        });
        from_iter(black_box(1..=5)).count().subscribe(|v| {
            black_box(v);
        });
        from_iter(black_box(0..))
            .map(|v: u64| v * 3)
            .take(4)
            .subscribe(|v| {
                black_box(v);
            });
    });
    assert_eq!(n, 0);
}

#[test]
fn the_subscription_of_a_synchronous_chain_is_zero_sized() {
    let handle = just(1)
        .map(|v| v * 2)
        .filter(|_| true)
        .take(1)
        .subscribe(|v| {
            black_box(v);
        });
    assert_eq!(std::mem::size_of_val(&handle), 0);
    assert!(handle.is_disposed());
}

#[test]
fn resubscribing_a_source_that_finishes_inside_subscribe_does_not_allocate() {
    let error = rx::Error::msg("cut");
    // Sized up front: its growth would be the only allocation.
    let mut seen = Vec::with_capacity(8);
    let n = allocations_in(|| {
        just(black_box(1)).repeat(3).subscribe(|v| seen.push(v));
        rx::source::throw::<i32>(error.clone())
            .retry(2)
            .subscribe_with(|_| {}, |e| drop(black_box(e)), || {});
        from_iter([Ok(2), Err(error.clone())])
            .try_map(|r| r)
            .retry_when(|_, n| from_iter((n < 2).then_some(())))
            .subscribe(|v| seen.push(v));
    });
    assert_eq!(n, 0);
    assert_eq!(seen, [1, 1, 1, 2, 2]);
}
