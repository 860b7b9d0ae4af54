//! What `concat_map`, `retry_when`, `fork_join` and `combine_latest_all` allocate on the
//! synchronous path: a fixed number of allocations per subscription, and none per value or
//! per attempt, except the row `combine_latest_all` emits, a `Vec` it hands downstream.

use rx::Error;
use rx::prelude::*;
use rx::source::{combine_latest_all, empty, fork_join, from_iter, just, throw};
use std::hint::black_box;

mod support;

use support::alloc::allocations_in;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

#[test]
fn concat_map_allocates_its_state_once_and_nothing_per_value() {
    for n in [1i64, 10, 1000] {
        let (mut calls, mut count) = (0, 0);
        let allocations = allocations_in(|| {
            from_iter(0..black_box(n))
                .concat_map(|v| {
                    calls += 1;
                    from_iter([v, v])
                })
                .subscribe(|_| count += 1);
        });
        assert_eq!((calls, count), (n, 2 * n));
        // The sources finish inside `subscribe`, so the state lives on the stack.
        assert_eq!(allocations, 0, "{n} values");
    }
}

#[test]
fn fork_join_allocates_its_state_once_and_nothing_per_value() {
    for n in [1i64, 10, 1000] {
        let mut last = None;
        let allocations = allocations_in(|| {
            fork_join((
                from_iter(0..black_box(n)),
                from_iter(0..black_box(n)),
                just(black_box(1i64)),
            ))
            .subscribe(|v| last = Some(v));
        });
        assert_eq!(last, Some((n - 1, n - 1, 1)));
        assert_eq!(allocations, 1, "{n} values a source");
    }
}

#[test]
fn combine_latest_all_allocates_only_the_rows_it_emits() {
    for n in [1i64, 10, 1000] {
        let mut rows = 0;
        let allocations = allocations_in(|| {
            combine_latest_all(vec![from_iter(0..black_box(n)), from_iter(0..black_box(n))])
                .subscribe(|row| {
                    rows += 1;
                    black_box(row);
                });
        });
        // The first source runs to its end before the second starts: one row per value of
        // the second.
        assert_eq!(rows, n as usize);
        // The `Vec` of sources (synchronous sources are combined on the stack, with no
        // shared state), then each row's `Vec`.
        assert_eq!(allocations, 1 + rows, "{n} values a source");
    }
}

#[test]
fn retry_when_allocates_nothing_per_value() {
    let error = Error::msg("failed");
    for n in [1i64, 10, 1000] {
        let mut count = 0;
        let allocations = allocations_in(|| {
            from_iter(0..black_box(n))
                .retry_when(|_, _| empty::<()>())
                .subscribe(|_| count += 1);
        });
        assert_eq!(count, n);
        // The source and the notifier finish inside `subscribe`: the state is on the stack.
        assert_eq!(allocations, 0, "no error, {n} values");

        for attempts in [1u32, 3, 300] {
            let mut count = 0;
            let allocations = allocations_in(|| {
                from_iter(0..black_box(n))
                    .concat_with(throw(error.clone()))
                    .retry_when(|_, attempt| from_iter((attempt <= attempts).then_some(())))
                    .subscribe(|_| count += 1);
            });
            assert_eq!(count, n * (i64::from(attempts) + 1));
            // Each resubscription allocates twice today, whatever the number of values.
            assert_eq!(
                allocations,
                3 + 2 * attempts as usize,
                "{n} values, {attempts} attempts"
            );
        }
    }
}
