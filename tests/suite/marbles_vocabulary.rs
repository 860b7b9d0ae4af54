//! Aggregates, creation sources, resources and lifecycle hooks checked against their peers'
//! own specs: RxJS's marble tests where RxJS has the operator (`spec/operators/*-spec.ts`,
//! `spec/observables/*-spec.ts`, with the same diagrams, one frame a millisecond), RxJava's
//! or Rx.NET's tests otherwise. Where rx differs from the peer on purpose, the test says so.

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::TestObserver;
use rx::testing::marbles::Marbles;
use std::cmp::Ordering;

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

/// RxJS's constant comparer `() => 42`: every pair compares as greater.
fn constant(_: &char, _: &char) -> Ordering {
    Ordering::Greater
}

// ============================================================ min_by, max_by (min(comparer))

#[test]
fn min_by_a_constant_comparer_on_an_empty_hot_source_completes() {
    let (_, m) = setup();
    let e1 = m.hot("-x-^---|");
    m.expect(e1.clone().min_by(constant)).to_be("----|");
    e1.assert_subscriptions(&["^---!"]);
    let (_, m) = setup();
    let e1 = m.hot("-x-^---|");
    m.expect(e1.clone().max_by(constant)).to_be("----|");
    e1.assert_subscriptions(&["^---!"]);
}

#[test]
fn min_by_a_constant_comparer_on_a_never_hot_source_never_emits() {
    let (_, m) = setup();
    let e1 = m.hot("-x-^----");
    m.expect(e1.clone().min_by(constant)).to_be("-----");
    e1.assert_subscriptions(&["^----"]);
    let (_, m) = setup();
    let e1 = m.hot("-x-^----");
    m.expect(e1.clone().max_by(constant)).to_be("-----");
    e1.assert_subscriptions(&["^----"]);
}

#[test]
fn min_by_a_constant_comparer_on_a_single_value_emits_it() {
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^-a-|", [('x', 0), ('a', 1)]);
    m.expect(e1.clone().min_by(|_, _| Ordering::Greater))
        .to_be_with("----(w|)", [('w', 1)]);
    e1.assert_subscriptions(&["^---!"]);
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^-a-|", [('x', 0), ('a', 1)]);
    m.expect(e1.clone().max_by(|_, _| Ordering::Greater))
        .to_be_with("----(w|)", [('w', 1)]);
    e1.assert_subscriptions(&["^---!"]);
}

#[test]
fn min_by_unsubscribed_explicitly_and_early_emits_nothing() {
    let (_, m) = setup();
    let e1 = m.hot("-x-^-a-b-c-d-e-f-g-|");
    m.expect_subscribed(e1.clone().min_by(constant), "-------!")
        .to_be("--------");
    e1.assert_subscriptions(&["^------!"]);
    let (_, m) = setup();
    let e1 = m.hot("-x-^-a-b-c-d-e-f-g-|");
    m.expect_subscribed(e1.clone().max_by(constant), "-------!")
        .to_be("--------");
    e1.assert_subscriptions(&["^------!"]);
}

#[test]
fn min_by_does_not_break_unsubscription_chains() {
    let (_, m) = setup();
    let e1 = m.hot("-x-^-a-b-c-d-e-f-g-|");
    let result = e1
        .clone()
        .flat_map(rx::source::just)
        .min_by(constant)
        .flat_map(rx::source::just);
    m.expect_subscribed(result, "-------!").to_be("--------");
    e1.assert_subscriptions(&["^------!"]);
    let (_, m) = setup();
    let e1 = m.hot("-x-^-a-b-c-d-e-f-g-|");
    let result = e1
        .clone()
        .flat_map(rx::source::just)
        .max_by(constant)
        .flat_map(rx::source::just);
    m.expect_subscribed(result, "-------!").to_be("--------");
    e1.assert_subscriptions(&["^------!"]);
}

/// RxJS's `(x, y) => x > y ? -1 : 1`: the reverse order, so `min` finds the largest.
fn reverse<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    if a > b {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

#[test]
fn min_by_a_reverse_comparer_finds_the_largest_and_max_by_the_smallest() {
    let values = [('a', 42), ('b', -1), ('c', 0), ('d', 666)];
    let (_, m) = setup();
    let e1 = m.hot_with("-a-^-b--c--d-|", values);
    m.expect(e1.clone().min_by(reverse))
        .to_be_with("----------(w|)", [('w', 666)]);
    e1.assert_subscriptions(&["^---------!"]);
    let (_, m) = setup();
    let e1 = m.hot_with("-a-^-b--c--d-|", values);
    m.expect(e1.clone().max_by(reverse))
        .to_be_with("----------(w|)", [('w', -1)]);
    e1.assert_subscriptions(&["^---------!"]);
}

#[test]
fn min_by_a_reverse_comparer_over_strings() {
    let (_, m) = setup();
    let e1 = m.hot("-a-^-b--c--d-|");
    m.expect(e1.clone().min_by(reverse)).to_be("----------(d|)");
    e1.assert_subscriptions(&["^---------!"]);
    let (_, m) = setup();
    let e1 = m.hot("-a-^-b--c--d-|");
    m.expect(e1.clone().max_by(reverse)).to_be("----------(b|)");
    e1.assert_subscriptions(&["^---------!"]);
}

#[test]
fn min_by_a_constant_comparer_on_a_failing_source_fails() {
    let (_, m) = setup();
    let e1 = m.hot("-1-^---#");
    m.expect(e1.clone().min_by(constant)).to_be("----#");
    e1.assert_subscriptions(&["^---!"]);
    let (_, m) = setup();
    let e1 = m.hot("-1-^---#");
    m.expect(e1.clone().max_by(constant)).to_be("----#");
    e1.assert_subscriptions(&["^---!"]);
}

// ======================================================== min_by_key, max_by_key (MinBy, MaxBy)

// Rx.NET's `MinBy`/`MaxBy` tests (`Tests.Aggregate.cs`), whose operators emit the list of every
// value with the extreme key: rx emits one value, the first minimum or the last maximum, as
// `Iterator::min_by_key` and `max_by_key` do.

#[test]
fn min_by_key_of_an_empty_source_completes_without_a_value() {
    let (_, m) = setup();
    let e1 = m.hot("-x-^---|");
    m.expect(e1.clone().min_by_key(|c| *c as u32))
        .to_be("----|");
    let (_, m) = setup();
    let e1 = m.hot("-x-^---|");
    m.expect(e1.clone().max_by_key(|c| *c as u32))
        .to_be("----|");
}

#[test]
fn min_by_key_and_max_by_key_over_keyed_pairs() {
    // Rx.NET's `MinBy_Some` / `MaxBy_Some`: (key, name) pairs with repeated extreme keys.
    let pairs = [
        ('a', (3, "b")),
        ('b', (2, "c")),
        ('c', (4, "d")),
        ('d', (2, "e")),
        ('e', (4, "f")),
    ];
    let (_, m) = setup();
    let e1 = m.hot_with("-^-a-b-c-d-e-|", pairs);
    m.expect(e1.clone().min_by_key(|(k, _)| *k))
        .to_be_with("------------(w|)", [('w', (2, "c"))]);
    e1.assert_subscriptions(&["^-----------!"]);
    let (_, m) = setup();
    let e1 = m.hot_with("-^-a-b-c-d-e-|", pairs);
    m.expect(e1.clone().max_by_key(|(k, _)| *k))
        .to_be_with("------------(w|)", [('w', (4, "f"))]);
    e1.assert_subscriptions(&["^-----------!"]);
}

#[test]
fn min_by_key_passes_an_error_on() {
    // Rx.NET's `MinBy_Throw`.
    let (_, m) = setup();
    let e1 = m.hot("-x-^-a-#");
    m.expect(e1.clone().min_by_key(|c| *c as u32))
        .to_be("----#");
    e1.assert_subscriptions(&["^---!"]);
}

// ============================================================ to_map, to_multimap, collect

// RxJava's `ObservableToMapTest`, `ObservableToMultimapTest` and `ObservableCollectTest`.

#[test]
fn to_map_by_length() {
    let o = TestObserver::new();
    rx::source::from_iter(["a", "bb", "ccc", "dddd"])
        .to_map(|s| s.len())
        .subscribe_observer(o.clone());
    o.assert_values(&[std::collections::HashMap::from([
        (1, "a"),
        (2, "bb"),
        (3, "ccc"),
        (4, "dddd"),
    ])]);
    o.assert_completed();
}

#[test]
fn to_map_with_a_value_selector_is_map_then_collect() {
    let o = TestObserver::new();
    rx::source::from_iter(["a", "bb", "ccc", "dddd"])
        .map(|s| (s.len(), s.repeat(2)))
        .collect::<std::collections::HashMap<_, _>>()
        .subscribe_observer(o.clone());
    o.assert_values(&[std::collections::HashMap::from([
        (1, "aa".to_string()),
        (2, "bbbb".to_string()),
        (3, "cccccc".to_string()),
        (4, "dddddddd".to_string()),
    ])]);
}

#[test]
fn to_multimap_by_length() {
    let o = TestObserver::new();
    rx::source::from_iter(["a", "b", "cc", "dd"])
        .to_multimap(|s| s.len())
        .subscribe_observer(o.clone());
    o.assert_values(&[std::collections::HashMap::from([
        (1, vec!["a", "b"]),
        (2, vec!["cc", "dd"]),
    ])]);
    o.assert_completed();
}

#[test]
fn to_map_and_to_multimap_at_the_source_completion_frame() {
    let (_, m) = setup();
    let e1 = m.hot("-^-a-b-a-|");
    m.expect(e1.clone().to_multimap(|c| *c).map(|map| map[&'a'].len()))
        .to_be_with("--------(w|)", [('w', 2)]);
    e1.assert_subscriptions(&["^-------!"]);
    let (_, m) = setup();
    let e1 = m.hot("-^-a-b-a-#");
    m.expect(e1.clone().to_map(|c| *c).map(|map| map.len()))
        .to_be("--------#");
    e1.assert_subscriptions(&["^-------!"]);
}

#[test]
fn collect_into_a_string_and_a_set() {
    let o = TestObserver::new();
    rx::source::from_iter(["1", "2", "3"])
        .collect::<String>()
        .subscribe_observer(o.clone());
    o.assert_values(&["123".to_string()]);
    let o = TestObserver::new();
    rx::source::from_iter([1, 2, 1, 3])
        .collect::<std::collections::BTreeSet<_>>()
        .subscribe_observer(o.clone());
    o.assert_values(&[std::collections::BTreeSet::from([1, 2, 3])]);
}

// ======================================================================= average (Average)

// Rx.NET's `Average_*` tests: empty, one value, several values, an error, never. Rx.NET's
// empty case fails with `InvalidOperationException`; rx completes without a value, as its
// `min` and `max` do.

#[test]
fn average_of_an_empty_source_completes_without_a_value() {
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^---|", [('x', 1)]);
    m.expect(e1.clone().average())
        .to_be_with("----|", [('w', 0.0)]);
}

#[test]
fn average_of_one_and_of_several_values() {
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^-a-|", [('x', 1), ('a', 2)]);
    m.expect(e1.average()).to_be_with("----(w|)", [('w', 2.0)]);
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^-a-b-c-|", [('x', 1), ('a', 3), ('b', 4), ('c', 2)]);
    m.expect(e1.average())
        .to_be_with("--------(w|)", [('w', 3.0)]);
}

#[test]
fn average_passes_an_error_and_never_ends_with_a_never_source() {
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^-a-#", [('x', 1), ('a', 2)]);
    m.expect(e1.average()).to_be_with("----#", [('w', 0.0)]);
    let (_, m) = setup();
    let e1 = m.hot_with("-x-^-a---", [('x', 1), ('a', 2)]);
    m.expect(e1.average()).to_be_with("--------", [('w', 0.0)]);
}
