//! RxJava 3's tests of its time-bounded operators that RxJS lacks (`take(time)`,
//! `skip(time)`, `takeLast(time)`, `skipLast(time)`), one test per case, named after the
//! RxJava test it mirrors (a comment gives the class), with our own code on virtual time.
//! RxJava's `delayError` variants are left out: rx has no such flag on these operators.

use rx::Error;
use rx::Notification::{Completed, Error as Failed, Next};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::source::{from_iter, just, range};
use rx::subjects::PublishSubject;
use rx::testing::TestObserver;
use std::time::Duration;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn boom() -> Error {
    Error::msg("boom")
}

/// A subject observed through `chain`, with its test scheduler and the observer.
fn setup<F, S>(chain: F) -> (TestScheduler, PublishSubject<i32>, TestObserver<i32>)
where
    F: FnOnce(rx::subjects::SubjectObservable<i32>, TestScheduler) -> S,
    S: Subscribe<TestObserver<i32>>,
{
    let sch = TestScheduler::new();
    let source = PublishSubject::new();
    let o = TestObserver::new();
    chain(source.observable(), sch.clone()).subscribe_observer(o.clone());
    (sch, source, o)
}

// --------------------------------------------------------------------------- take(time)

#[test]
fn take_timed() {
    // ObservableTakeTimedTest.takeTimed
    let (sch, source, o) = setup(|s, sch| s.take_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(1000));
    source.on_next(4);
    o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    assert!(!source.has_observers());
}

#[test]
fn take_timed_error_before_time() {
    // ObservableTakeTimedTest.takeTimedErrorBeforeTime
    let (sch, source, o) = setup(|s, sch| s.take_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    source.on_error(boom());
    sch.advance_by(ms(1000));
    source.on_next(4);
    o.assert_notifications(&[Next(1), Next(2), Next(3), Failed(boom())]);
    assert!(sch.is_empty());
}

#[test]
fn take_timed_error_after_time() {
    // ObservableTakeTimedTest.takeTimedErrorAfterTime
    let (sch, source, o) = setup(|s, sch| s.take_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(1000));
    source.on_next(4);
    source.on_error(boom());
    o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
}

#[test]
fn timed_default_scheduler() {
    // ObservableTakeTimedTest.timedDefaultScheduler: a synchronous source ends first.
    let o = TestObserver::new();
    range(1, 5)
        .take_with_time(Duration::from_secs(60), TestScheduler::new())
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Next(1), Next(2), Next(3), Next(4), Next(5), Completed]);
}

// --------------------------------------------------------------------------- skip(time)

#[test]
fn skip_timed() {
    // ObservableSkipTimedTest.skipTimed
    let (sch, source, o) = setup(|s, sch| s.skip_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(1000));
    (4..=6).for_each(|v| source.on_next(v));
    source.on_completed();
    o.assert_notifications(&[Next(4), Next(5), Next(6), Completed]);
}

#[test]
fn skip_timed_finish_before_time() {
    // ObservableSkipTimedTest.skipTimedFinishBeforeTime
    let (sch, source, o) = setup(|s, sch| s.skip_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    source.on_completed();
    sch.advance_by(ms(1000));
    o.assert_notifications(&[Completed]);
    assert!(sch.is_empty());
}

#[test]
fn skip_timed_error_before_time() {
    // ObservableSkipTimedTest.skipTimedErrorBeforeTime
    let (sch, source, o) = setup(|s, sch| s.skip_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    source.on_error(boom());
    sch.advance_by(ms(1000));
    o.assert_notifications(&[Failed(boom())]);
}

#[test]
fn skip_timed_error_after_time() {
    // ObservableSkipTimedTest.skipTimedErrorAfterTime
    let (sch, source, o) = setup(|s, sch| s.skip_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(1000));
    (4..=6).for_each(|v| source.on_next(v));
    source.on_error(boom());
    o.assert_notifications(&[Next(4), Next(5), Next(6), Failed(boom())]);
}

#[test]
fn skip_timed_default_scheduler() {
    // ObservableSkipTimedTest.skipTimedDefaultScheduler
    let o = TestObserver::new();
    just(1)
        .skip_with_time(Duration::from_secs(60), TestScheduler::new())
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Completed]);
}

// ----------------------------------------------------------------------- takeLast(time)

/// Values 1 to 5, 250 ms apart from 0, then `end` after another `tail`.
fn five_quarters(sch: &TestScheduler, source: &PublishSubject<i32>, tail: u64) {
    for v in 1..=5 {
        if v > 1 {
            sch.advance_by(ms(250));
        }
        source.on_next(v);
    }
    sch.advance_by(ms(tail));
}

#[test]
fn take_last_timed() {
    // ObservableTakeLastTimedTest.takeLastTimed: completion at 1250 keeps 250 and later.
    let (sch, source, o) = setup(|s, sch| s.take_last_with_time(ms(1000), sch));
    five_quarters(&sch, &source, 250);
    source.on_completed();
    o.assert_notifications(&[Next(2), Next(3), Next(4), Next(5), Completed]);
}

#[test]
fn take_last_timed_delay_completion() {
    // ObservableTakeLastTimedTest.takeLastTimedDelayCompletion
    let (sch, source, o) = setup(|s, sch| s.take_last_with_time(ms(1000), sch));
    five_quarters(&sch, &source, 1250);
    source.on_completed();
    o.assert_notifications(&[Completed]);
}

#[test]
fn take_last_timed_with_capacity() {
    // ObservableTakeLastTimedTest.takeLastTimedWithCapacity: RxJava's `takeLast(2, time)`.
    let (sch, source, o) = setup(|s, sch| s.take_last_with_time(ms(1000), sch).take_last(2));
    five_quarters(&sch, &source, 250);
    source.on_completed();
    o.assert_notifications(&[Next(4), Next(5), Completed]);
}

#[test]
fn take_last_timed_throwing_source() {
    // ObservableTakeLastTimedTest.takeLastTimedThrowingSource
    let (sch, source, o) = setup(|s, sch| s.take_last_with_time(ms(1000), sch));
    five_quarters(&sch, &source, 250);
    source.on_error(boom());
    o.assert_notifications(&[Failed(boom())]);
}

#[test]
fn take_last_timed_with_zero_capacity() {
    // ObservableTakeLastTimedTest.takeLastTimedWithZeroCapacity
    let (sch, source, o) = setup(|s, sch| s.take_last_with_time(ms(1000), sch).take_last(0));
    five_quarters(&sch, &source, 250);
    source.on_completed();
    o.assert_notifications(&[Completed]);
}

#[test]
fn take_last_time_and_size() {
    // ObservableTakeLastTimedTest.takeLastTimeAndSize
    let o = TestObserver::new();
    from_iter([1, 2])
        .take_last_with_time(Duration::from_secs(60), TestScheduler::new())
        .take_last(1)
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Next(2), Completed]);
}

#[test]
fn take_last_time() {
    // ObservableTakeLastTimedTest.takeLastTime
    let o = TestObserver::new();
    from_iter([1, 2])
        .take_last_with_time(Duration::from_secs(60), TestScheduler::new())
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Next(1), Next(2), Completed]);
}

#[test]
fn take_last_timed_observe_on() {
    // ObservableTakeLastTimedTest.observeOn: a downstream that quits half-way.
    let o = TestObserver::new();
    range(1, 1000)
        .take_last_with_time(Duration::from_secs(86_400), TestScheduler::new())
        .take(500)
        .subscribe_observer(o.clone());
    assert_eq!(o.value_count(), 500);
    o.assert_completed();
}

#[test]
fn take_last_timed_disposed() {
    // ObservableTakeLastTimedTest.disposed
    let (_, source, o) = setup(|s, sch| s.take_last_with_time(ms(1000), sch));
    source.on_next(1);
    o.dispose();
    source.on_completed();
    o.assert_notifications(&[]);
}

// ----------------------------------------------------------------------- skipLast(time)

#[test]
fn skip_last_timed() {
    // ObservableSkipLastTimedTest.skipLastTimed: 1 to 3 are a span old at the completion.
    let (sch, source, o) = setup(|s, sch| s.skip_last_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(500));
    (4..=6).for_each(|v| source.on_next(v));
    sch.advance_by(ms(950));
    source.on_completed();
    o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
}

#[test]
fn skip_last_timed_error_before_time() {
    // ObservableSkipLastTimedTest.skipLastTimedErrorBeforeTime
    let (sch, source, o) = setup(|s, sch| s.skip_last_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    source.on_error(boom());
    sch.advance_by(ms(1050));
    o.assert_notifications(&[Failed(boom())]);
}

#[test]
fn skip_last_timed_complete_before_time() {
    // ObservableSkipLastTimedTest.skipLastTimedCompleteBeforeTime
    let (sch, source, o) = setup(|s, sch| s.skip_last_with_time(ms(1000), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(500));
    source.on_completed();
    o.assert_notifications(&[Completed]);
}

#[test]
fn skip_last_timed_when_all_elements_are_valid() {
    // ObservableSkipLastTimedTest.skipLastTimedWhenAllElementsAreValid
    let (sch, source, o) = setup(|s, sch| s.skip_last_with_time(ms(1), sch));
    (1..=3).for_each(|v| source.on_next(v));
    sch.advance_by(ms(500));
    source.on_completed();
    o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
}

#[test]
fn skip_last_timed_default_scheduler() {
    // ObservableSkipLastTimedTest.skipLastTimedDefaultScheduler
    let sch = TestScheduler::new();
    let o = TestObserver::new();
    just(1)
        .concat_with(just(2).delay(ms(500), sch.clone()))
        .skip_last_with_time(ms(300), sch.clone())
        .subscribe_observer(o.clone());
    sch.run();
    o.assert_notifications(&[Next(1), Completed]);
}

#[test]
fn skip_last_timed_take() {
    // ObservableSkipLastTimedTest.take
    let o = TestObserver::new();
    just(1)
        .skip_last_with_time(Duration::ZERO, TestScheduler::new())
        .take(1)
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Next(1), Completed]);
}

#[test]
fn skip_last_timed_dispose() {
    // ObservableSkipLastTimedTest.dispose
    let (sch, source, o) = setup(|s, sch| s.skip_last_with_time(ms(1), sch));
    source.on_next(1);
    sch.advance_by(ms(5));
    o.dispose();
    source.on_next(2);
    source.on_completed();
    o.assert_notifications(&[]);
}

// ------------------------------------------- timeout(firstTimeoutIndicator, itemTimeoutIndicator)
//
// ObservableTimeoutWithSelectorTest. rx's `timeout_when` fails with `TimedOut` at the
// deadline: the cases where RxJava switches to a fallback observable assert that error in its
// place, and those of a selector that throws are left out (a panic is not an `on_error` in rx).

fn timed_out() -> Error {
    Error::new(rx::operators::TimedOut)
}

#[test]
fn timeout_selector_normal1() {
    // ObservableTimeoutWithSelectorTest.timeoutSelectorNormal1
    let source = PublishSubject::new();
    let timeout = PublishSubject::<i32>::new();
    let (first, each) = (timeout.observable(), timeout.observable());
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(first, move |_| each.clone())
        .subscribe_observer(o.clone());
    (1..=3).for_each(|v| source.on_next(v));
    timeout.on_next(1);
    o.assert_notifications(&[Next(1), Next(2), Next(3), Failed(timed_out())]);
    assert!(!source.has_observers() && !timeout.has_observers());
}

#[test]
fn timeout_selector_timeout_first() {
    // ObservableTimeoutWithSelectorTest.timeoutSelectorTimeoutFirst
    let timeout = PublishSubject::<i32>::new();
    let each = timeout.observable();
    let o = TestObserver::<i32>::new();
    rx::source::never()
        .timeout_when(timeout.observable(), move |_| each.clone())
        .subscribe_observer(o.clone());
    timeout.on_next(1);
    o.assert_notifications(&[Failed(timed_out())]);
}

#[test]
fn timeout_selector_first_observable_throws() {
    // ObservableTimeoutWithSelectorTest.timeoutSelectorFirstObservableThrows
    let source = PublishSubject::<i32>::new();
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(rx::source::throw::<i32>(boom()), |_| {
            rx::source::never::<i32>()
        })
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Failed(boom())]);
}

#[test]
fn timeout_selector_subsequent_observable_throws() {
    // ObservableTimeoutWithSelectorTest.timeoutSelectorSubsequentObservableThrows
    let source = PublishSubject::new();
    let timeout = PublishSubject::<i32>::new();
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(timeout.observable(), |_| rx::source::throw::<i32>(boom()))
        .subscribe_observer(o.clone());
    source.on_next(1);
    o.assert_notifications(&[Next(1), Failed(boom())]);
}

#[test]
fn timeout_selector_with_first_timeout_first_and_no_other_observable() {
    // ObservableTimeoutWithSelectorTest.timeoutSelectorWithFirstTimeoutFirstAndNoOtherObservable
    let source = PublishSubject::<i32>::new();
    let timeout = PublishSubject::<i32>::new();
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(timeout.observable(), |_| {
            PublishSubject::<i32>::new().observable()
        })
        .subscribe_observer(o.clone());
    timeout.on_next(1);
    o.assert_notifications(&[Failed(timed_out())]);
}

#[test]
fn timeout_selector_with_timeout_first_and_no_other_observable() {
    // ObservableTimeoutWithSelectorTest.timeoutSelectorWithTimeoutFirstAndNoOtherObservable
    let source = PublishSubject::new();
    let timeout = PublishSubject::<i32>::new();
    let each = timeout.observable();
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(PublishSubject::<i32>::new().observable(), move |_| {
            each.clone()
        })
        .subscribe_observer(o.clone());
    source.on_next(1);
    timeout.on_next(1);
    o.assert_notifications(&[Next(1), Failed(timed_out())]);
}

#[test]
fn timeout_selector_empty_and_error() {
    // ObservableTimeoutWithSelectorTest.empty, .error and .withOtherMainError
    let o = TestObserver::<i32>::new();
    rx::source::empty()
        .timeout_when(rx::source::never::<()>(), |_| rx::source::never::<()>())
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Completed]);
    let o = TestObserver::<i32>::new();
    rx::source::throw(boom())
        .timeout_when(rx::source::never::<()>(), |_| rx::source::never::<()>())
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Failed(boom())]);
}

#[test]
fn timeout_selector_empty_inner() {
    // ObservableTimeoutWithSelectorTest.emptyInner: a deadline that completes has come.
    let source = PublishSubject::new();
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(rx::source::never::<()>(), |_| rx::source::empty::<()>())
        .subscribe_observer(o.clone());
    source.on_next(1);
    o.assert_notifications(&[Next(1), Failed(timed_out())]);
}

#[test]
fn timeout_selector_take() {
    // ObservableTimeoutWithSelectorTest.selectorTake
    let source = PublishSubject::new();
    let o = TestObserver::new();
    source
        .observable()
        .timeout_when(rx::source::never::<()>(), |_| rx::source::never::<()>())
        .take(1)
        .subscribe_observer(o.clone());
    assert!(source.has_observers());
    source.on_next(1);
    assert!(!source.has_observers());
    o.assert_notifications(&[Next(1), Completed]);
}

#[test]
fn timeout_selector_disposed() {
    // ObservableTimeoutWithSelectorTest.dispose and .disposedUpfront
    let source = PublishSubject::<i32>::new();
    let first = PublishSubject::<()>::new();
    let handle = source
        .observable()
        .timeout_when(first.observable(), |_| rx::source::never::<()>())
        .subscribe_observer(TestObserver::new());
    handle.dispose();
    assert!(!source.has_observers() && !first.has_observers());

    let o = TestObserver::<i32>::new();
    o.dispose();
    source
        .observable()
        .timeout_when(first.observable(), |_| rx::source::never::<()>())
        .subscribe_observer(o.clone());
    assert!(!source.has_observers() && !first.has_observers());
}
