//! The `_delay_error` forms against RxJava 3's own cases (`ObservableMergeDelayErrorTest`,
//! the delay-error cases of `ObservableConcatMapTest`, `ObservableFlatMapTest`,
//! `ObservableZipTest` and `ObservableCombineLatestTest`): one test per case, named after the RxJava test it mirrors, with
//! our own code. RxJava's sources that fail on a `null` value are sources that fail with an
//! error named after it here; its `CompositeException` is `rx::error::CompositeError`. The
//! cases on threads (`errorDelayed4WithThreading`, `errorInParentObservableDelayed`) are in
//! `higher_races`.

use rx::Error;
use rx::error::CompositeError;
use rx::prelude::*;
use rx::source::{from_iter, just, throw};
use rx::testing::TestObserver;

type Boxed = rx::BoxedObservable<'static, &'static str>;

/// RxJava's `TestErrorObservable`: emits `values` and, if `fails`, then fails (where RxJava's
/// would meet a `null`).
fn source(values: &[&'static str], fails: Option<&'static str>) -> Boxed {
    let values = from_iter(values.to_vec());
    match fails {
        Some(message) => values.concat_with(throw(Error::msg(message))).boxed(),
        None => values.boxed(),
    }
}

fn observe<T: Clone + Send + 'static, S: Subscribe<TestObserver<T>>>(s: S) -> TestObserver<T> {
    let o = TestObserver::new();
    s.subscribe_observer(o.clone());
    o
}

#[track_caller]
fn composite_of(o: &TestObserver<impl Clone>) -> Vec<String> {
    let error = o.error().expect("an error");
    let composite = error
        .downcast_ref::<CompositeError>()
        .expect("a CompositeError");
    composite.iter().map(|e| e.to_string()).collect()
}

// ------------------------------------------------------- ObservableMergeDelayErrorTest

#[test]
fn error_delayed1() {
    let o = observe(
        from_iter([
            source(&["four"], Some("npe")),
            source(&["one", "two", "three"], None),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&["four", "one", "two", "three"]);
    o.assert_error("npe");
}

#[test]
fn error_delayed2() {
    let o = observe(
        from_iter([
            source(&["one", "two", "three"], None),
            source(&["four"], Some("npe four")),
            source(&["seven", "eight"], Some("npe eight")),
            source(&["nine"], None),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&["one", "two", "three", "four", "seven", "eight", "nine"]);
    assert_eq!(composite_of(&o), ["npe four", "npe eight"]);
}

#[test]
fn error_delayed3() {
    let o = observe(
        from_iter([
            source(&["one", "two", "three"], None),
            source(&["four", "five", "six"], None),
            source(&["seven", "eight"], Some("npe")),
            source(&["nine"], None),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&[
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ]);
    o.assert_error("npe");
}

#[test]
fn error_delayed4() {
    let o = observe(
        from_iter([
            source(&["one", "two", "three"], None),
            source(&["four", "five", "six"], None),
            source(&["seven", "eight"], None),
            source(&["nine"], Some("npe")),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&[
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ]);
    o.assert_error("npe");
}

#[test]
fn composite_error_delayed1() {
    let o = observe(
        from_iter([
            source(&["four"], Some("npe a")),
            source(&["one", "two"], Some("npe b")),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&["four", "one", "two"]);
    assert_eq!(composite_of(&o), ["npe a", "npe b"]);
}

#[test]
fn composite_error_delayed2() {
    let o = observe(
        from_iter([
            source(&["four"], Some("npe a")),
            source(&["one", "two"], Some("npe b")),
        ])
        .merge_delay_error(),
    );
    assert_eq!(composite_of(&o).len(), 2);
}

#[test]
fn merge_observable_of_observables() {
    let o = observe(
        from_iter([source(&["hello"], None), source(&["hello"], None)]).merge_delay_error(),
    );
    o.assert_values(&["hello", "hello"]);
    o.assert_completed();
}

#[test]
fn synchronous_error() {
    let o = observe(throw::<Boxed>(Error::msg("unit test")).merge_delay_error());
    o.assert_error("unit test");
    assert_eq!(o.value_count(), 0);
}

#[test]
fn error_in_parent_observable() {
    let o = observe(
        from_iter([throw(Error::msg("parent's first")).boxed(), just(1).boxed()])
            .concat_with(just(just(2).boxed()))
            .merge_delay_error(),
    );
    o.assert_values(&[1, 2]);
    o.assert_error("parent's first");
}

#[test]
fn merge_delay_error_with_error() {
    let o = observe(
        from_iter([
            just(1).concat_with(throw(Error::msg("test"))).boxed(),
            just(2).boxed(),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&[1, 2]);
    o.assert_error("test");
}

#[test]
fn merge_delay_error3_with_error() {
    let o = observe(
        from_iter([
            just(1).boxed(),
            just(2).concat_with(throw(Error::msg("test"))).boxed(),
            just(3).boxed(),
        ])
        .merge_delay_error(),
    );
    o.assert_values(&[1, 2, 3]);
    o.assert_error("test");
}

// ------------------------------------------------- ObservableConcatMapTest (delay errors)

#[test]
fn main_error_delayed() {
    let o =
        observe(throw::<i32>(Error::msg("test")).concat_map_delay_error(|v| from_iter(v..v + 2)));
    o.assert_notifications(&[rx::Notification::Error(Error::msg("test"))]);
}

#[test]
fn inner_error_delay_error() {
    let o = observe(just(1).concat_map_delay_error(|_| throw::<i32>(Error::msg("test"))));
    o.assert_notifications(&[rx::Notification::Error(Error::msg("test"))]);
}

#[test]
fn normal_delay_errors_till_the_end() {
    let o = observe(just(1).concat_map_delay_error(|v| from_iter(v..v + 2)));
    o.assert_values(&[1, 2]);
    o.assert_completed();
}

#[test]
fn concat_delay_error_runs_every_inner_after_a_failure() {
    // `concatDelayError` over `concat(just(1), error), just(2)`.
    let o = observe(
        from_iter([
            just(1).concat_with(throw(Error::msg("test"))).boxed(),
            just(2).boxed(),
        ])
        .concat_delay_error(),
    );
    o.assert_values(&[1, 2]);
    o.assert_error("test");
}

// ------------------------------------------------- ObservableFlatMapTest (delay errors)

#[test]
fn flat_map_delay_errors_main_and_inner() {
    // `flatMap(f, true)` where the main source and one inner fail: both errors, in order.
    let o = observe(
        from_iter([1, 2])
            .concat_with(throw(Error::msg("main")))
            .flat_map_delay_error(|v| {
                if v == 1 {
                    throw(Error::msg("inner")).boxed()
                } else {
                    just(v).boxed()
                }
            }),
    );
    o.assert_values(&[2]);
    assert_eq!(composite_of(&o), ["inner", "main"]);
}

// ------------------------------------------------------ ObservableZipTest (delay errors)

#[test]
fn zip2_delay_error() {
    let o = observe(
        just(1)
            .concat_with(throw(Error::msg("test")))
            .zip_delay_error(just(2))
            .map(|(a, b)| format!("{a}{b}")),
    );
    o.assert_values(&["12".to_string()]);
    o.assert_error("test");
}

#[test]
fn zip2_delay_error_prefetch() {
    let o = observe(
        from_iter(1..=9)
            .concat_with(throw(Error::msg("test")))
            .zip_delay_error(from_iter(21..=29))
            .map(|(a, b)| format!("{a}{b}"))
            .skip(8),
    );
    o.assert_values(&["929".to_string()]);
    o.assert_error("test");
}

#[test]
fn zip_delay_error_of_both_sources_is_a_composite() {
    // Not an RxJava case: both fail, each with a value waiting for the other.
    let o = observe(
        just(1)
            .concat_with(throw(Error::msg("left")))
            .zip_delay_error(throw::<i32>(Error::msg("right"))),
    );
    o.assert_values(&[]);
    assert_eq!(composite_of(&o), ["left", "right"]);
}

// ----------------------------------------------- ObservableCombineLatestTest (delay errors)

#[test]
fn combine_latest_delay_error_of_sources() {
    let o = observe(just(1).combine_latest_delay_error(just(2)));
    o.assert_values(&[(1, 2)]);
    o.assert_completed();
}

#[test]
fn combine_latest_delay_error_of_sources_with_error() {
    let o =
        observe(just(1).combine_latest_delay_error(just(2).concat_with(throw(Error::msg("test")))));
    o.assert_values(&[(1, 2)]);
    o.assert_error("test");
}

#[test]
fn combine_latest_error_delayed() {
    let o = observe(throw::<i32>(Error::msg("test")).combine_latest_delay_error(just(1)));
    o.assert_notifications(&[rx::Notification::Error(Error::msg("test"))]);
}

#[test]
fn combine_latest_error_delayed2() {
    let o = observe(
        just(1)
            .concat_with(throw(Error::msg("test")))
            .combine_latest_delay_error(rx::source::empty::<i32>()),
    );
    o.assert_notifications(&[rx::Notification::Error(Error::msg("test"))]);
}
