use crate::Error;
use crate::notification::Notification::*;
use crate::observable::Subscribe;
use crate::prelude::*;
use crate::source::{defer, empty, from_iter, just, throw};
use crate::testing::TestObserver;
use std::cell::Cell;

use crate::test_kit::inline::{Later, both, inline};

#[test]
fn the_constant_follows_the_sources() {
    assert!(inline(&just(1).map(|v| v + 1).filter(|_| true).take(3)));
    assert!(inline(&from_iter(0..3).merge_with(rx_range())));
    assert!(!inline(&Later(just(1)).merge_with(just(2))));
    assert!(!inline(&just(1).merge_with(crate::source::never())));
    assert!(!inline(&just(1).flat_map(|v| Later(just(v)))));
    assert!(inline(&defer(|| just(1))));
    assert!(!inline(&defer(|| Later(just(1)))));
}

fn rx_range() -> crate::source::Range<i32> {
    crate::source::range(0, 2)
}

#[test]
fn merge_with_gives_the_same_notifications_on_both_paths() {
    both(
        just(1).merge_with(from_iter([2, 3])),
        Later(just(1)).merge_with(from_iter([2, 3])),
        &[Next(1), Next(2), Next(3), Completed],
    );
    both(
        empty().merge_with(just(1)),
        empty().merge_with(Later(just(1))),
        &[Next(1), Completed],
    );
    both(
        empty::<i32>().merge_with(empty()),
        Later(empty::<i32>()).merge_with(empty()),
        &[Completed],
    );
    both(
        just(1).merge_with(throw(Error::msg("second"))),
        just(1).merge_with(Later(throw(Error::msg("second")))),
        &[Next(1), Error(Error::msg("second"))],
    );
    // Nested: the inner merge is inline itself.
    both(
        just(1)
            .merge_with(just(2))
            .merge_with(just(3).merge_with(just(4))),
        just(1)
            .merge_with(just(2))
            .merge_with(Later(just(3).merge_with(just(4)))),
        &[Next(1), Next(2), Next(3), Next(4), Completed],
    );
}

#[test]
fn merge_with_stops_at_a_downstream_take_and_at_an_error_on_both_paths() {
    for take in [1, 2, 3, 4] {
        let subscribed = Cell::new(0);
        let second = || {
            defer(|| {
                subscribed.set(subscribed.get() + 1);
                from_iter([3, 4])
            })
        };
        let expected: Vec<_> = [1, 2, 3, 4]
            .into_iter()
            .take(take)
            .map(Next)
            .chain([Completed])
            .collect();
        both(
            from_iter([1, 2]).merge_with(second()).take(take),
            Later(from_iter([1, 2])).merge_with(second()).take(take),
            &expected,
        );
        // The second source is subscribed only when the first left values to take.
        assert_eq!(
            subscribed.get(),
            if take > 2 { 2 } else { 0 },
            "take({take})"
        );
    }
    let subscribed = Cell::new(0);
    let second = || {
        defer(|| {
            subscribed.set(subscribed.get() + 1);
            just(2)
        })
    };
    both(
        throw(Error::msg("first")).merge_with(second()),
        Later(throw(Error::msg("first"))).merge_with(second()),
        &[Error(Error::msg("first"))],
    );
    assert_eq!(subscribed.get(), 0);
}

#[test]
fn endless_sources_stop_when_the_downstream_is_done() {
    both(
        from_iter(0..).merge_with(from_iter(0..)).take(3),
        Later(from_iter(0..)).merge_with(from_iter(0..)).take(3),
        &[Next(0), Next(1), Next(2), Completed],
    );
    both(
        from_iter(0..).flat_map(|v| from_iter([v, v])).take(3),
        Later(from_iter(0..))
            .flat_map(|v| from_iter([v, v]))
            .take(3),
        &[Next(0), Next(0), Next(1), Completed],
    );
}

#[test]
fn flat_map_gives_the_same_notifications_on_both_paths() {
    let expected = [Next(10), Next(20), Next(21), Next(30), Next(31), Next(32)];
    let with_completion: Vec<_> = expected.iter().cloned().chain([Completed]).collect();
    both(
        from_iter(1..=3).flat_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        from_iter(1..=3).flat_map(|v| Later(from_iter(0..v).map(move |i| v * 10 + i))),
        &with_completion,
    );
    both(
        from_iter(1..=3).concat_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        Later(from_iter(1..=3)).concat_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        &with_completion,
    );
    both(
        from_iter(1..=3).switch_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        Later(from_iter(1..=3)).switch_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        &with_completion,
    );
    both(
        from_iter(1..=3).exhaust_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        Later(from_iter(1..=3)).exhaust_map(|v| from_iter(0..v).map(move |i| v * 10 + i)),
        &with_completion,
    );
    // Empty outer, empty inners.
    both(
        empty::<i32>().flat_map(just),
        Later(empty::<i32>()).flat_map(just),
        &[Completed],
    );
    both(
        from_iter(0..3).flat_map(|_| empty::<i32>()),
        from_iter(0..3).flat_map(|_| Later(empty::<i32>())),
        &[Completed],
    );
}

#[test]
fn nested_flat_maps_give_the_same_notifications_on_both_paths() {
    // 1 -> [0] -> [0]; 2 -> [0, 1] -> [0], [0, 1].
    let expected = [Next(0), Next(0), Next(0), Next(1), Completed];
    both(
        from_iter(1..=2).flat_map(|v| from_iter(0..v).flat_map(|w| from_iter(0..=w))),
        from_iter(1..=2).flat_map(|v| from_iter(0..v).flat_map(|w| Later(from_iter(0..=w)))),
        &expected,
    );
}

#[test]
fn an_inner_or_outer_error_ends_everything_on_both_paths() {
    let projected = Cell::new(0);
    let project = |v: i32| {
        projected.set(projected.get() + 1);
        just(v).try_map(|v| {
            if v == 1 {
                Err(Error::msg("inner"))
            } else {
                Ok(v)
            }
        })
    };
    both(
        from_iter(0..5).flat_map(project),
        Later(from_iter(0..5)).flat_map(project),
        &[Next(0), Error(Error::msg("inner"))],
    );
    // The outer stopped at the error, on both paths.
    assert_eq!(projected.get(), 4);
    both(
        just(1)
            .merge_with(throw(Error::msg("outer")))
            .flat_map(just),
        Later(just(1).merge_with(throw(Error::msg("outer")))).flat_map(just),
        &[Next(1), Error(Error::msg("outer"))],
    );
}

#[test]
fn merge_and_switch_on_next_give_the_same_notifications_on_both_paths() {
    let inners = || [from_iter(vec![1, 2]), from_iter(vec![]), from_iter(vec![3])];
    both(
        from_iter(inners()).merge(),
        Later(from_iter(inners())).merge(),
        &[Next(1), Next(2), Next(3), Completed],
    );
    both(
        from_iter(inners()).switch_on_next(),
        Later(from_iter(inners())).switch_on_next(),
        &[Next(1), Next(2), Next(3), Completed],
    );
    both(
        from_iter(inners()).switch_on_next().take(2),
        Later(from_iter(inners())).switch_on_next().take(2),
        &[Next(1), Next(2), Completed],
    );
}

#[test]
fn a_disposed_downstream_gets_nothing_on_both_paths() {
    let a = TestObserver::<i32>::new();
    a.dispose();
    just(1).merge_with(just(2)).subscribe_observer(a.clone());
    just(1).flat_map(just).subscribe_observer(a.clone());
    a.assert_notifications(&[]);
}
