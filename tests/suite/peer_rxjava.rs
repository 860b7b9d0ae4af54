//! The documented edge cases of RxJava 3's operator tests, for the operators used most: one
//! test per case, named after the RxJava test it mirrors (a comment gives the class), with
//! our own code and, where time matters, marble diagrams. Where rx deliberately differs
//! (it follows RxJS where the two disagree), the test says so and asserts rx's behaviour.

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::source::{empty, from_iter, just, never, throw};
use rx::subjects::PublishSubject;
use rx::testing::TestObserver;
use rx::testing::marbles::Marbles;
use rx::{Error, Notification};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

fn boom() -> Error {
    Error::msg("boom")
}

fn observe<T: Clone + Send + 'static, S: Subscribe<TestObserver<T>>>(s: S) -> TestObserver<T> {
    let o = TestObserver::new();
    s.subscribe_observer(o.clone());
    o
}

fn marbles() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

// ------------------------------------------------------------------------ take, skip

#[test]
fn take1() {
    // ObservableTakeTest.take1
    let o = observe(from_iter(["one", "two", "three"]).take(2));
    o.assert_values(&["one", "two"]);
    o.assert_completed();
}

#[test]
fn take_with_error() {
    // ObservableTakeTest.takeWithError: the error after the limit is never seen.
    let o = observe(from_iter([1, 2, 3]).concat_with(throw(boom())).take(1));
    o.assert_values(&[1]);
    o.assert_completed();
}

#[test]
fn take_zero() {
    // ObservableTakeTest.takeZero
    let (_, m) = marbles();
    let source = m.cold("-a-b-|");
    m.expect(source.clone().take(0)).to_be("|");
    source.assert_subscriptions(&["(^!)"]);
}

#[test]
fn unsubscribe_from_synchronous_infinite_observable() {
    // ObservableTakeTest.unsubscribeFromSynchronousInfiniteObservable
    let pulled = Arc::new(AtomicUsize::new(0));
    let p = pulled.clone();
    let o = observe(
        from_iter((0..).inspect(move |_| {
            p.fetch_add(1, SeqCst);
        }))
        .take(10),
    );
    assert_eq!(o.value_count(), 10);
    assert_eq!(pulled.load(SeqCst), 10);
}

#[test]
fn error_after_limit_reached() {
    // ObservableTakeTest.errorAfterLimitReached
    let (_, m) = marbles();
    let source = m.cold("-a-#");
    m.expect(source.clone().take(1)).to_be("-(a|)");
    source.assert_subscriptions(&["^!"]);
}

#[test]
fn skip_zero_elements() {
    // ObservableSkipTest.skipZeroElements
    let o = observe(from_iter(["one", "two", "three"]).skip(0));
    o.assert_values(&["one", "two", "three"]);
    o.assert_completed();
}

#[test]
fn skip_two_elements() {
    // ObservableSkipTest.skipTwoElements
    let o = observe(from_iter(["one", "two", "three"]).skip(2));
    o.assert_values(&["three"]);
}

#[test]
fn skip_empty_stream() {
    // ObservableSkipTest.skipEmptyStream
    let o = observe(empty::<i32>().skip(1));
    o.assert_values(&[]);
    o.assert_completed();
}

#[test]
fn skip_error() {
    // ObservableSkipTest.skipError
    let o = observe(from_iter([1, 2]).concat_with(throw(boom())).skip(1));
    o.assert_values(&[2]);
    o.assert_error("boom");
}

#[test]
fn take_last_empty() {
    // ObservableTakeLastTest.takeLastEmpty
    let o = observe(empty::<i32>().take_last(2));
    o.assert_values(&[]);
    o.assert_completed();
}

#[test]
fn take_last2() {
    // ObservableTakeLastTest.takeLast2: fewer values than asked for.
    let o = observe(just("one").take_last(10));
    o.assert_values(&["one"]);
    o.assert_completed();
}

#[test]
fn take_last_with_zero_count() {
    // ObservableTakeLastTest.takeLastWithZeroCount
    let o = observe(just("one").take_last(0));
    o.assert_values(&[]);
    o.assert_completed();
}

// ------------------------------------------------------------------------ scan, reduce, distinct

#[test]
fn scan_integers_with_initial_value() {
    // ObservableScanTest.scanIntegersWithInitialValue. RxJava emits the seed first; rx, as
    // RxJS and Rx.NET, does not, and `start_with(seed)` gives RxJava's output.
    let o = observe(from_iter([1, 2, 3]).scan(0, |acc, v| acc + v));
    o.assert_values(&[1, 3, 6]);
    let rxjava = observe(from_iter([1, 2, 3]).scan(0, |acc, v| acc + v).start_with(0));
    rxjava.assert_values(&[0, 1, 3, 6]);
}

#[test]
fn scan_function_throws_and_upstream_errors_does_not_result_in_two_terminal_events() {
    // ObservableScanTest.scanFunctionThrowsAndUpstreamErrorsDoesNotResultInTwoTerminalEvents,
    // with the fallible step written as `try_map` after the fold.
    let o = observe(
        from_iter([1, 2])
            .concat_with(throw(Error::msg("upstream")))
            .scan(0, |acc, v| acc + v)
            .try_map(|v| if v == 1 { Err(boom()) } else { Ok(v) }),
    );
    o.assert_rules();
    o.assert_error("boom");
}

#[test]
fn aggregate_as_int_sum() {
    // ObservableReduceTest.aggregateAsIntSum
    let o = observe(
        from_iter(["1", "2", "3", "4", "5"]).reduce(0, |acc, s| acc + s.parse::<i32>().unwrap()),
    );
    o.assert_values(&[15]);
    o.assert_completed();
}

#[test]
fn aggregate_as_int_sum_source_throws() {
    // ObservableReduceTest.aggregateAsIntSumSourceThrows
    let o = observe(
        from_iter([1, 2])
            .concat_with(throw(boom()))
            .reduce(0, |a, v| a + v),
    );
    o.assert_values(&[]);
    o.assert_error("boom");
}

#[test]
fn distinct_until_changed_of_none() {
    // ObservableDistinctUntilChangedTest.distinctUntilChangedOfNone
    let o = observe(empty::<&str>().distinct_until_changed());
    o.assert_values(&[]);
    o.assert_completed();
}

#[test]
fn distinct_until_changed_of_normal_source() {
    // ObservableDistinctUntilChangedTest.distinctUntilChangedOfNormalSource
    let o =
        observe(from_iter(["a", "b", "c", "c", "c", "b", "b", "a", "e"]).distinct_until_changed());
    o.assert_values(&["a", "b", "c", "b", "a", "e"]);
}

#[test]
fn distinct_until_changed_of_normal_source_with_key_selector() {
    // ObservableDistinctUntilChangedTest.distinctUntilChangedOfNormalSourceWithKeySelector
    let o = observe(
        from_iter(["a", "b", "c", "C", "c", "B", "b", "a", "e"])
            .distinct_until_key_changed(|s| s.to_lowercase()),
    );
    o.assert_values(&["a", "b", "c", "B", "a", "e"]);
}

#[test]
fn default_if_empty() {
    // ObservableDefaultIfEmptyTest.defaultIfEmpty
    observe(from_iter([1, 2, 3]).default_if_empty(10)).assert_values(&[1, 2, 3]);
}

#[test]
fn default_if_empty_with_empty() {
    // ObservableDefaultIfEmptyTest.defaultIfEmptyWithEmpty
    let o = observe(empty().default_if_empty(10));
    o.assert_values(&[10]);
    o.assert_completed();
}

#[test]
fn element_at_with_index_out_of_bounds() {
    // ObservableElementAtTest.elementAtWithIndexOutOfBounds (the `OrError` form)
    let o = observe(from_iter([1, 2]).element_at(2));
    o.assert_values(&[]);
    assert!(o.error().is_some(), "an out-of-range index fails");
}

#[test]
fn last_with_empty() {
    // ObservableLastTest.lastOrErrorNoElement
    let o = observe(empty::<i32>().last());
    assert!(o.error().is_some());
}

#[test]
fn last_or_default_with_empty() {
    // ObservableLastTest.lastOrDefaultWithEmpty
    let o = observe(empty().last_or(2));
    o.assert_values(&[2]);
    o.assert_completed();
}

// ------------------------------------------------------------------------ buffer

#[test]
fn skip_and_count_overlapping_buffers() {
    // ObservableBufferTest.skipAndCountOverlappingBuffers
    let o = observe(from_iter(["one", "two", "three", "four", "five"]).buffer_with_skip(3, 1));
    o.assert_values(&[
        vec!["one", "two", "three"],
        vec!["two", "three", "four"],
        vec!["three", "four", "five"],
        vec!["four", "five"],
        vec!["five"],
    ]);
}

#[test]
fn skip_and_count_gapless_buffers() {
    // ObservableBufferTest.skipAndCountGaplessBuffers
    let o = observe(from_iter(["one", "two", "three", "four", "five"]).buffer_with_skip(3, 3));
    o.assert_values(&[vec!["one", "two", "three"], vec!["four", "five"]]);
}

#[test]
fn skip_and_count_buffers_with_gaps() {
    // ObservableBufferTest.skipAndCountBuffersWithGaps
    let o = observe(from_iter(["one", "two", "three", "four", "five"]).buffer_with_skip(2, 3));
    o.assert_values(&[vec!["one", "two"], vec!["four", "five"]]);
}

// ------------------------------------------------------------------------ merge, concat, switch

#[test]
fn merge_array() {
    // ObservableMergeTest.mergeArray
    let (_, m) = marbles();
    let (a, b) = (m.cold("-a--b-|"), m.cold("--c--d|"));
    m.expect(rx::source::merge([a, b])).to_be("-ac-bd|");
}

#[test]
fn error1() {
    // ObservableMergeTest.error1: an error from one source stops the merge and the others.
    let (_, m) = marbles();
    let (a, b) = (m.cold("-a---b-|"), m.cold("--#"));
    m.expect(a.clone().merge_with(b)).to_be("-a#");
    a.assert_subscriptions(&["^-!"]);
}

#[test]
fn merge_observable_of_observables() {
    // ObservableMergeTest.mergeObservableOfObservables
    let (_, m) = marbles();
    let (x, y) = (m.cold("a--b|"), m.cold("c-d|"));
    let outer = m.cold_with("x-y|", [('x', x), ('y', y)]);
    m.expect(outer.merge()).to_be("a-cbd|");
}

#[test]
fn concat_observable_of_observables() {
    // ObservableConcatTest.concatObservableOfObservables
    let (_, m) = marbles();
    let (x, y) = (m.cold("a-b|"), m.cold("c-d|"));
    let outer = m.cold_with("xy|", [('x', x), ('y', y.clone())]);
    m.expect(outer.concat()).to_be("a-bc-d|");
    y.assert_subscriptions(&["---^--!"]);
}

#[test]
fn concat_with_error_stops_before_the_next() {
    // ObservableConcatTest.concat, with the first source failing: the second is never
    // subscribed.
    let (_, m) = marbles();
    let (a, b) = (m.cold("-a#"), m.cold("-b|"));
    m.expect(a.concat_with(b.clone())).to_be("-a#");
    b.assert_subscriptions(&[]);
}

#[test]
fn switch_when_outer_complete_before_inner() {
    // ObservableSwitchTest.switchWhenOuterCompleteBeforeInner
    let (_, m) = marbles();
    let inner = m.cold("--a--b--c|");
    let outer = m.cold_with("x|", [('x', inner)]);
    m.expect(outer.switch_on_next()).to_be("--a--b--c|");
}

#[test]
fn switch_when_inner_complete_before_outer() {
    // ObservableSwitchTest.switchWhenInnerCompleteBeforeOuter
    let (_, m) = marbles();
    let (x, y) = (m.cold("ab|"), m.cold("cd|"));
    let outer = m.cold_with("x---y-----|", [('x', x), ('y', y)]);
    m.expect(outer.switch_on_next()).to_be("ab--cd----|");
}

#[test]
fn switch_with_complete() {
    // ObservableSwitchTest.switchWithComplete: a newer inner replaces an unfinished one.
    let (_, m) = marbles();
    let (x, y) = (m.cold("a---b---|"), m.cold("c-d|"));
    let outer = m.cold_with("x-y----|", [('x', x.clone()), ('y', y)]);
    m.expect(outer.switch_on_next()).to_be("a-c-d--|");
    x.assert_subscriptions(&["^-!"]);
}

#[test]
fn switch_with_error() {
    // ObservableSwitchTest.switchWithError: the outer's error ends everything.
    let (_, m) = marbles();
    let x = m.cold("a-----b|");
    let outer = m.cold_with("x--#", [('x', x.clone())]);
    m.expect(outer.switch_on_next()).to_be("a--#");
    x.assert_subscriptions(&["^--!"]);
}

#[test]
fn switch_with_subsequence_error() {
    // ObservableSwitchTest.switchWithSubsequenceError: an inner's error ends everything.
    let (_, m) = marbles();
    let (x, y) = (m.cold("a|"), m.cold("-#"));
    let outer = m.cold_with("x-y-----|", [('x', x), ('y', y)]);
    m.expect(outer.switch_on_next()).to_be("a--#");
}

#[test]
fn merge_error() {
    // ObservableFlatMapTest.mergeError
    let o = observe(from_iter([1, 2]).flat_map(|v| {
        if v == 1 {
            throw(boom()).boxed()
        } else {
            just(v).boxed()
        }
    }));
    o.assert_values(&[]);
    o.assert_error("boom");
}

// ------------------------------------------------------------------------ zip, combine, with latest

#[test]
fn startping_different_length_observable_sequences1() {
    // ObservableZipTest.startpingDifferentLengthObservableSequences1
    let o = observe(from_iter([1, 2, 3]).zip(from_iter([1, 2, 3, 4])));
    o.assert_values(&[(1, 1), (2, 2), (3, 3)]);
    o.assert_completed();
}

#[test]
fn aggregator_early_completion() {
    // ObservableZipTest.aggregatorEarlyCompletion: a side that completes with nothing
    // buffered ends the zip at once.
    let (a, b) = (PublishSubject::new(), PublishSubject::new());
    let o = observe(a.observable().zip(b.observable()));
    a.observer().on_next("one");
    a.observer().on_next("two");
    a.observer().on_completed();
    b.observer().on_next("A");
    o.assert_values(&[("one", "A")]);
    b.observer().on_next("B");
    o.assert_values(&[("one", "A"), ("two", "B")]);
    o.assert_completed();
}

#[test]
fn first_completes_then_second_infinite() {
    // ObservableZipTest.firstCompletesThenSecondInfinite
    let (_, m) = marbles();
    let first = m.cold("a-b|");
    let second = m.cold("-1-2-3-4-5");
    m.expect(
        first
            .zip(second.clone())
            .map(|(a, b)| if a == 'a' { b } else { 'x' }),
    )
    .to_be("-1-(x|)");
    second.assert_subscriptions(&["^--!"]);
}

#[test]
fn start_empty_observables() {
    // ObservableZipTest.startEmptyObservables
    let o = observe(empty::<i32>().zip(empty::<i32>()));
    o.assert_values(&[]);
    o.assert_completed();
}

#[test]
fn combine_latest_different_length_observable_sequences1() {
    // ObservableCombineLatestTest.combineLatestDifferentLengthObservableSequences1
    let (_, m) = marbles();
    let (a, b) = (m.cold("a---b---c|"), m.cold("-1-2|"));
    m.expect(
        a.combine_latest(b)
            .map(|(x, y)| if y == '2' { x.to_ascii_uppercase() } else { x }),
    )
    .to_be("-a-AB---C|");
}

#[test]
fn first_never_produces() {
    // ObservableCombineLatestTest.firstNeverProduces
    let o = observe(never::<i32>().combine_latest(from_iter([1, 2])));
    o.assert_values(&[]);
    o.assert_not_terminated();
}

#[test]
fn simple() {
    // ObservableWithLatestFromTest.simple
    let (_, m) = marbles();
    let main = m.hot("-a--b-c---d-|");
    let other = m.hot("--1----2-3---|");
    m.expect(
        main.with_latest_from(other)
            .map(|(a, n)| if n == '1' { a } else { a.to_ascii_uppercase() }),
    )
    .to_be("----b-c---D-|");
}

#[test]
fn empty_other() {
    // ObservableWithLatestFromTest.emptyOther: nothing to pair with, so nothing comes out.
    let o = observe(from_iter([1, 2]).with_latest_from(empty::<i32>()));
    o.assert_values(&[]);
    o.assert_completed();
}

#[test]
fn other_throws() {
    // ObservableWithLatestFromTest.otherThrows
    let (_, m) = marbles();
    let main = m.hot("-a--b-|");
    let other = m.hot("1--#");
    m.expect(main.clone().with_latest_from(other))
        .to_be_with("-x-#", [('x', ('a', '1'))]);
    main.assert_subscriptions(&["^--!"]);
}

// ------------------------------------------------------------------------ take_until

#[test]
fn take_until_source_completed() {
    // ObservableTakeUntilTest.takeUntilSourceCompleted
    let (_, m) = marbles();
    let (source, other) = (m.hot("-a-b-|"), m.hot("--------x"));
    m.expect(source.take_until(other.clone())).to_be("-a-b-|");
    other.assert_subscriptions(&["^----!"]);
}

#[test]
fn take_until_source_error() {
    // ObservableTakeUntilTest.takeUntilSourceError
    let (_, m) = marbles();
    let (source, other) = (m.hot("-a-#"), m.hot("------x"));
    m.expect(source.take_until(other.clone())).to_be("-a-#");
    other.assert_subscriptions(&["^--!"]);
}

#[test]
fn take_until_other_error() {
    // ObservableTakeUntilTest.takeUntilOtherError
    let (_, m) = marbles();
    let (source, other) = (m.hot("-a-b-c-|"), m.hot("----#"));
    m.expect(source.clone().take_until(other)).to_be("-a-b#");
    source.assert_subscriptions(&["^---!"]);
}

#[test]
fn take_until_other_completed() {
    // ObservableTakeUntilTest.takeUntilOtherCompleted: as in RxJava 3 (and unlike RxJS), a
    // notifier that completes without a value completes the sequence too.
    let (_, m) = marbles();
    let (source, other) = (m.hot("-a-b-c-|"), m.hot("--|"));
    m.expect(source.clone().take_until(other)).to_be("-a|");
    source.assert_subscriptions(&["^-!"]);
}

// ------------------------------------------------------------------------ retry, repeat

#[test]
fn retry_fail() {
    // ObservableRetryTest.retryFail
    let (_, m) = marbles();
    let source = m.cold("-a#");
    m.expect(source.clone().retry(1)).to_be("-a-a#");
    source.assert_subscriptions(&["^-!", "--^-!"]);
}

#[test]
fn retry_success() {
    // ObservableRetryTest.retrySuccess: the attempt that succeeds ends the sequence.
    let attempts = Arc::new(AtomicUsize::new(0));
    let a = attempts.clone();
    let flaky = rx::source::defer(move || {
        if a.fetch_add(1, SeqCst) < 2 {
            from_iter([1]).concat_with(throw(boom())).boxed()
        } else {
            from_iter([1, 2]).boxed()
        }
    });
    let o = observe(flaky.retry(5));
    o.assert_values(&[1, 1, 1, 2]);
    o.assert_completed();
    assert_eq!(attempts.load(SeqCst), 3);
}

#[test]
fn source_observable_retry0() {
    // ObservableRetryTest.sourceObservableRetry0
    let o = observe(from_iter([1]).concat_with(throw(boom())).retry(0));
    o.assert_values(&[1]);
    o.assert_error("boom");
}

#[test]
fn repetition() {
    // ObservableRepeatTest.repetition
    let o = observe(from_iter([1, 2]).repeat(3));
    o.assert_values(&[1, 2, 1, 2, 1, 2]);
    o.assert_completed();
}

#[test]
fn repeat_zero() {
    // ObservableRepeatTest.repeatZero
    let (_, m) = marbles();
    let source = m.cold("a|");
    m.expect(source.clone().repeat(0)).to_be("|");
    source.assert_subscriptions(&[]);
}

#[test]
fn repeat_error() {
    // ObservableRepeatTest.repeatError
    let o = observe(from_iter([1]).concat_with(throw(boom())).repeat(10));
    o.assert_values(&[1]);
    o.assert_error("boom");
}

#[test]
fn repeat_take() {
    // ObservableRepeatTest.repeatTake
    let o = observe(from_iter([1, 2]).repeat_forever().take(5));
    o.assert_values(&[1, 2, 1, 2, 1]);
    o.assert_completed();
}

// ------------------------------------------------------------------------ time

#[test]
fn debounce_with_completed() {
    // ObservableDebounceTest.debounceWithCompleted: the value waiting goes out at completion.
    let (sch, m) = marbles();
    m.expect(m.cold("a-b---c-|").debounce(ms(3), sch))
        .to_be("-----b--(c|)");
}

#[test]
fn debounce_never_emits() {
    // ObservableDebounceTest.debounceNeverEmits: values always followed too soon.
    let (sch, m) = marbles();
    m.expect_subscribed(
        m.cold("a-b-c-d-e-f").debounce(ms(3), sch),
        "^---------------!",
    )
    .to_be("-------------f");
}

#[test]
fn debounce_with_error() {
    // ObservableDebounceTest.debounceWithError: the error drops the value waiting.
    let (sch, m) = marbles();
    m.expect(m.cold("a-----b-#").debounce(ms(3), sch))
        .to_be("---a----#");
}

#[test]
fn debounce_on_empty() {
    // ObservableDebounceTest.debounceOnEmpty
    let (sch, m) = marbles();
    m.expect(m.cold("---|").debounce(ms(2), sch)).to_be("---|");
}

#[test]
fn throttling_with_completed() {
    // ObservableThrottleFirstTest.throttlingWithCompleted
    let (sch, m) = marbles();
    m.expect(m.cold("a-b-c---d-e|").throttle(ms(5), sch))
        .to_be("a-------d--|");
}

#[test]
fn throttling_with_error() {
    // ObservableThrottleFirstTest.throttlingWithError
    let (sch, m) = marbles();
    m.expect(m.cold("a-b-#").throttle(ms(5), sch))
        .to_be("a---#");
}

#[test]
fn sample() {
    // ObservableSampleTest.sample: the latest value at each tick, none when none arrived.
    let (sch, m) = marbles();
    m.expect(m.cold("a-b------c---|").sample(ms(4), sch))
        .to_be("----b-------c|");
}

#[test]
fn should_not_timeout_if_on_next_within_timeout() {
    // ObservableTimeoutTests.shouldNotTimeoutIfOnNextWithinTimeout
    let (sch, m) = marbles();
    m.expect(m.cold("--a--b--|").timeout(ms(4), sch))
        .to_be("--a--b--|");
}

#[test]
fn should_timeout_if_on_next_not_within_timeout() {
    // ObservableTimeoutTests.shouldTimeoutIfOnNextNotWithinTimeout
    let (sch, m) = marbles();
    let source = m.cold("--a------b|");
    let timeline = m.expect(source.clone().timeout(ms(4), sch)).timeline();
    assert_eq!(timeline[0], (ms(2), Notification::Next('a')));
    assert!(matches!(timeline[1], (t, Notification::Error(_)) if t == ms(6)));
    assert_eq!(timeline.len(), 2);
    source.assert_subscriptions(&["^-----!"]);
}

#[test]
fn should_complete_if_underlying_comletes() {
    // ObservableTimeoutTests.shouldCompleteIfUnderlyingComletes
    let (sch, m) = marbles();
    m.expect(m.cold("-a-|").timeout(ms(5), sch)).to_be("-a-|");
}

#[test]
fn should_error_if_underlying_errors() {
    // ObservableTimeoutTests.shouldErrorIfUnderlyingErrors
    let (sch, m) = marbles();
    m.expect(m.cold("-a-#").timeout(ms(5), sch)).to_be("-a-#");
}

#[test]
fn delay() {
    // ObservableDelayTest.delay: values and completion shifted alike.
    let (sch, m) = marbles();
    m.expect(m.cold("a-b--|").delay(ms(3), sch))
        .to_be("---a-b--|");
}

#[test]
fn delay_with_error() {
    // ObservableDelayTest.delayWithError: the error is not delayed and drops what waits.
    let (sch, m) = marbles();
    m.expect(m.cold("a--b#").delay(ms(3), sch)).to_be("---a#");
}
