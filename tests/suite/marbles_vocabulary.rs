//! Aggregates, creation sources, resources and lifecycle hooks checked against their peers'
//! own specs: RxJS's marble tests where RxJS has the operator (`spec/operators/*-spec.ts`,
//! `spec/observables/*-spec.ts`, with the same diagrams, one frame a millisecond), RxJava's
//! or Rx.NET's tests otherwise. Where rx differs from the peer on purpose, the test says so.

use rx::Error;
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

// ============================================================ interval_after (timer(due, period))

fn ticks<const N: usize>(names: [char; N]) -> Vec<(char, u64)> {
    names.into_iter().zip(0..).collect()
}

fn frames(n: u64) -> std::time::Duration {
    std::time::Duration::from_millis(n)
}

#[test]
fn interval_after_emits_periodically_after_its_delay() {
    let (sch, m) = setup();
    let source = rx::source::interval_after(frames(6), frames(2), sch.clone())
        .take(4)
        .concat_with(rx::source::never());
    m.expect(source)
        .to_be_with("------a-b-c-d-", ticks(['a', 'b', 'c', 'd']));
}

#[test]
fn interval_after_starts_after_its_delay_then_every_period() {
    let (sch, m) = setup();
    let source = rx::source::interval_after(frames(4), frames(2), sch.clone()).take(5);
    m.expect(source)
        .to_be_with("----a-b-c-d-(e|)", ticks(['a', 'b', 'c', 'd', 'e']));
}

#[test]
fn interval_after_a_zero_delay_starts_at_once() {
    let (sch, m) = setup();
    let source = rx::source::interval_after(frames(0), frames(3), sch.clone()).take(5);
    m.expect(source)
        .to_be_with("a--b--c--d--(e|)", ticks(['a', 'b', 'c', 'd', 'e']));
}

#[test]
fn interval_after_stops_when_the_subscription_is_disposed() {
    let (sch, m) = setup();
    let source = rx::source::interval_after(frames(0), frames(3), sch.clone());
    m.expect_subscribed(source, "^------------!")
        .to_be_with("a--b--c--d--e", ticks(['a', 'b', 'c', 'd', 'e']));
}

#[test]
fn interval_after_an_endless_period_emits_once() {
    // RxJS's `timer(4, Infinity)`: the longest `Duration` the scheduler can add to now.
    let (sch, m) = setup();
    let source = rx::source::interval_after(frames(4), frames(u32::MAX as u64), sch.clone());
    m.expect_subscribed(source, "^-----!")
        .to_be_with("----a-", ticks(['a']));
}

#[test]
fn interval_after_a_zero_period_emits_back_to_back() {
    let (sch, m) = setup();
    let source = rx::source::interval_after(frames(4), frames(0), sch.clone()).take(5);
    m.expect(source)
        .to_be_with("----(abcde|)", ticks(['a', 'b', 'c', 'd', 'e']));
}

// ============================================================================= iif (iif)

#[test]
fn iif_subscribes_then_when_the_condition_holds() {
    let (_, m) = setup();
    let source = rx::source::iif(|| true, rx::source::just('a'), rx::source::empty());
    m.expect(source).to_be("(a|)");
}

#[test]
fn iif_subscribes_otherwise_when_it_does_not() {
    let (_, m) = setup();
    let source = rx::source::iif(|| false, rx::source::just('a'), rx::source::just('b'));
    m.expect(source).to_be("(b|)");
}

#[test]
fn iif_completes_with_an_empty_otherwise() {
    let (_, m) = setup();
    let source = rx::source::iif(|| false, rx::source::just('a'), rx::source::empty());
    m.expect(source).to_be("|");
}

#[test]
fn iif_subscribes_only_the_chosen_cold_source_at_its_frame() {
    let (_, m) = setup();
    let (a, b) = (m.cold("-a-|"), m.cold("--b|"));
    m.expect_subscribed(rx::source::iif(|| false, a.clone(), b.clone()), "--^")
        .to_be("----b|");
    a.assert_subscriptions(&[]);
    b.assert_subscriptions(&["--^--!"]);
}

#[test]
fn iif_over_futures_as_rxjs_over_promises() {
    // RxJS's "should accept resolved promise as thenSource" and its three siblings.
    let resolved =
        || rx::source::from_future_result(async { Ok::<_, Error>(42) }, rx::schedulers::Immediate);
    let rejected = || {
        rx::source::from_future_result(
            async { Err::<i32, _>(Error::msg("42")) },
            rx::schedulers::Immediate,
        )
    };
    for (condition, failing) in [(true, false), (false, false), (false, true), (true, true)] {
        let o = TestObserver::new();
        let (then, otherwise) = if failing == condition {
            (rejected().boxed_once(), resolved().boxed_once())
        } else {
            (resolved().boxed_once(), rejected().boxed_once())
        };
        let _handle =
            rx::source::iif(move || condition, then, otherwise).subscribe_observer(o.clone());
        if failing {
            o.assert_values(&[]);
            o.assert_error("42");
        } else {
            o.assert_values(&[42]);
            o.assert_completed();
        }
    }
}

// ====================================================================== generate (Generate)

// Rx.NET's `Generate_Finite`, `Generate_LongRunning1` and `Generate_LongRunning2` (an endless
// loop, ended here by `take` as there by disposal).

#[test]
fn generate_a_finite_loop() {
    let o = TestObserver::new();
    rx::source::generate(0, |x| *x <= 3, |x| x + 1, |x| x + 1).subscribe_observer(o.clone());
    o.assert_values(&[1, 2, 3, 4]);
    o.assert_completed();
}

#[test]
fn generate_a_long_loop() {
    let o = TestObserver::new();
    rx::source::generate(0, |x| *x < 100, |x| x + 1, |x| *x).subscribe_observer(o.clone());
    o.assert_values(&(0..100).collect::<Vec<_>>());
    o.assert_completed();
}

#[test]
fn generate_an_endless_loop_ends_at_disposal() {
    let (_, m) = setup();
    let source = rx::source::generate(
        0u8,
        |_| true,
        |x| x.wrapping_add(1),
        |x| char::from(b'a' + x % 26),
    );
    m.expect(source.take(3)).to_be("(abc|)");
}

// ================================== tap_subscribe, tap_dispose (tap({ subscribe, unsubscribe }))

// RxJS's "lifecycle handlers" of `tap`: `subscribe` is `tap_subscribe`, `next`, `error` and
// `complete` are `tap_with`, `unsubscribe` is `tap_dispose` and `finalize` is `finally`.

type Log = std::rc::Rc<std::cell::RefCell<Vec<String>>>;

/// The observer `subscribe_with` makes of three plain functions.
type Handlers = rx::observer::FnObserver<fn(i32), fn(Error), fn()>;

fn lifecycle(
    subject: &rx::subjects::local::PublishSubject<i32>,
    log: &Log,
) -> impl Subscribe<Handlers, Item = i32> {
    let push = |log: &Log, line: &str| log.borrow_mut().push(line.to_string());
    let (l1, l2, l3, l4, l5, l6) = (
        log.clone(),
        log.clone(),
        log.clone(),
        log.clone(),
        log.clone(),
        log.clone(),
    );
    subject
        .observable()
        .tap_dispose(move || push(&l1, "unsubscribe"))
        .finally(move || push(&l2, "finalize"))
        .tap_with(
            move |v| l3.borrow_mut().push(format!("next {v}")),
            move |e| l4.borrow_mut().push(format!("error: {e}")),
            move || push(&l5, "complete"),
        )
        .tap_subscribe(move || push(&l6, "subscribe"))
}

#[test]
fn tap_dispose_fires_before_finally_at_disposal() {
    let subject = rx::subjects::local::PublishSubject::new();
    let log = Log::default();
    let handle = lifecycle(&subject, &log).subscribe_with(|_| {}, |_| {}, || {});
    subject.on_next(1);
    subject.on_next(2);
    assert_eq!(*log.borrow(), ["subscribe", "next 1", "next 2"]);
    handle.dispose();
    assert_eq!(
        *log.borrow(),
        ["subscribe", "next 1", "next 2", "unsubscribe", "finalize"]
    );
}

#[test]
fn tap_dispose_does_not_fire_when_the_source_completes() {
    let subject = rx::subjects::local::PublishSubject::new();
    let log = Log::default();
    let handle = lifecycle(&subject, &log).subscribe_with(|_| {}, |_| {}, || {});
    subject.on_next(1);
    subject.on_next(2);
    subject.on_completed();
    handle.dispose();
    assert_eq!(
        *log.borrow(),
        ["subscribe", "next 1", "next 2", "complete", "finalize"]
    );
}

#[test]
fn tap_dispose_does_not_fire_when_the_source_errors() {
    let subject = rx::subjects::local::PublishSubject::new();
    let log = Log::default();
    let handle = lifecycle(&subject, &log).subscribe_with(|_| {}, |_| {}, || {});
    subject.on_next(1);
    subject.on_next(2);
    subject.on_error(Error::msg("bad"));
    handle.dispose();
    assert_eq!(
        *log.borrow(),
        ["subscribe", "next 1", "next 2", "error: bad", "finalize"]
    );
}

#[test]
fn tap_subscribe_and_tap_dispose_at_their_frames() {
    // The subscription log of the source shows where each hook fired.
    let (sch, m) = setup();
    let e1 = m.hot("-a-^-b-c-d-e-|");
    let subscribed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (s1, s2, clock1, clock2) = (
        subscribed.clone(),
        subscribed.clone(),
        sch.clone(),
        sch.clone(),
    );
    let source = e1
        .clone()
        .tap_dispose(move || s1.lock().unwrap().push(("dispose", clock1.now())))
        .tap_subscribe(move || s2.lock().unwrap().push(("subscribe", clock2.now())));
    let zero = sch.now();
    m.expect_subscribed(source, "--^---!").to_be("--b-c-");
    e1.assert_subscriptions(&["--^---!"]);
    let at: Vec<_> = subscribed
        .lock()
        .unwrap()
        .iter()
        .map(|(what, when)| (*what, (*when - zero).as_millis()))
        .collect();
    assert_eq!(at, [("subscribe", 2), ("dispose", 6)]);
}

// ============================================================================ using (using)

/// Sets its flag when dropped, as RxJS's resource `Subscription(() => disposed = true)`.
struct Resource(std::rc::Rc<std::cell::Cell<bool>>);

impl Drop for Resource {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

#[test]
fn using_releases_the_resource_when_the_subscription_is_disposed() {
    let disposed = std::rc::Rc::new(std::cell::Cell::new(false));
    let flag = disposed.clone();
    rx::source::using(move || Resource(flag), |_| rx::source::range(0, 3))
        .take(2)
        .subscribe(|_| {});
    assert!(disposed.get());
}

#[test]
fn using_a_factory_of_a_resolved_or_rejected_future() {
    /// A resource that can go with its observer to another thread.
    struct Flag(std::sync::Arc<std::sync::atomic::AtomicBool>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
    let disposed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = disposed.clone();
    let o = TestObserver::new();
    rx::source::using(
        move || Flag(flag),
        |_| rx::source::from_future_result(async { Ok::<_, Error>(42) }, rx::schedulers::Immediate),
    )
    .subscribe_observer(o.clone());
    o.assert_values(&[42]);
    o.assert_completed();
    assert!(disposed.load(std::sync::atomic::Ordering::SeqCst));

    let o = TestObserver::<i32>::new();
    rx::source::using(
        || (),
        |_| {
            rx::source::from_future_result(
                async { Err::<i32, _>(Error::msg("42")) },
                rx::schedulers::Immediate,
            )
        },
    )
    .subscribe_observer(o.clone());
    o.assert_error("42");
}

#[test]
fn using_at_the_frames_of_its_source() {
    // Rx.NET's `Using_Complete` and `Using_Dispose`, in frames: the resource is made at the
    // subscription and released at the source's end, or at disposal.
    let (sch, m) = setup();
    let released = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    struct Timed(
        TestScheduler,
        std::sync::Arc<std::sync::Mutex<Vec<std::time::Instant>>>,
    );
    impl Drop for Timed {
        fn drop(&mut self) {
            self.1.lock().unwrap().push(self.0.now());
        }
    }
    let zero = sch.now();
    let e1 = m.cold("--a-b-|");
    let (s, r, cold) = (sch.clone(), released.clone(), e1.clone());
    let completing = rx::source::using(move || Timed(s, r), move |_| cold);
    let e2 = m.cold("--a-b-c-d");
    let (s, r, cold) = (sch.clone(), released.clone(), e2.clone());
    let disposed = rx::source::using(move || Timed(s, r), move |_| cold);
    let first = m.expect_subscribed(completing, "-^");
    let second = m.expect_subscribed(disposed, "--^---!");
    first.to_be("---a-b-|");
    second.to_be("----a-");
    e1.assert_subscriptions(&["-^-----!"]);
    e2.assert_subscriptions(&["--^---!"]);
    let at: Vec<_> = released
        .lock()
        .unwrap()
        .iter()
        .map(|when| (*when - zero).as_millis())
        .collect();
    assert_eq!(at, [6, 7]);
}
