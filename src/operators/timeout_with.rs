//! [`ObservableExt::timeout_with`](crate::ObservableExt::timeout_with).
//!
//! The timer, the deadline and the delivery are [`timeout`](super::timeout)'s; what is here
//! is what happens at the deadline: the source is disposed and the fallback subscribed in
//! its place. Both handles live in one [`Switch`], the handle the drain keeps, so a disposal
//! reaches whichever runs, and a handle that arrives after its turn is disposed at once.

use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::operators::timeout::{Expire, TimeoutDrain, TimeoutObserver, subscribe_timeout};
use crate::primitive::{Arc, Mutex};
use crate::schedulers::{DeferringScheduler, Scheduler, ThreadObserver, Worker};
use crate::subscription::Subscription;
use std::fmt;
use std::time::Duration;

/// Switches to a fallback observable when the source goes quiet for too long; built by
/// [`ObservableExt::timeout_with`](crate::ObservableExt::timeout_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "timeout")]
#[doc(alias = "timeoutWith")]
pub struct TimeoutWith<S, F, Sch> {
    source: S,
    timeout: Duration,
    fallback: F,
    scheduler: Sch,
}

impl<S, F, Sch: DeferringScheduler> TimeoutWith<S, F, Sch> {
    pub(crate) fn new(source: S, timeout: Duration, fallback: F, scheduler: Sch) -> Self {
        TimeoutWith {
            source,
            timeout,
            fallback,
            scheduler,
        }
    }
}

impl<S: Observable, F, Sch> Observable for TimeoutWith<S, F, Sch> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, F, Sch, O> Subscribe<O> for TimeoutWith<S, F, Sch>
where
    Sch: Scheduler,
    S: Subscribe<TimeoutObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    F: Subscribe<TimeoutWithObserver<Sch::Worker, O, <S as Observable>::Item>>
        + Observable<Item = <S as Observable>::Item>
        + Send
        + 'static,
    <F as Subscribe<TimeoutWithObserver<Sch::Worker, O, <S as Observable>::Item>>>::Subscription:
        Send + 'static,
    O: Observer<<S as Observable>::Item> + ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let expire = SwitchToFallback {
            fallback: Some(self.fallback),
            switch: Arc::new(Switch {
                state: Mutex::new(SwitchState::Source(None)),
            }),
        };
        Box::new(subscribe_timeout(
            self.source,
            self.timeout,
            worker,
            observer,
            expire,
        ))
    }
}

/// [`Expire`] for [`TimeoutWith`]: dispose the source, then subscribe the fallback.
struct SwitchToFallback<F> {
    /// Taken when the deadline passes.
    fallback: Option<F>,
    switch: Arc<Switch>,
}

impl<W, O, T, F> Expire<W, O, T> for SwitchToFallback<F>
where
    W: Worker,
    O: Observer<T> + ThreadObserver,
    T: Send + 'static,
    F: Subscribe<TimeoutWithObserver<W, O, T>> + Send + 'static,
    F::Subscription: Send + 'static,
{
    type Store = Arc<Switch>;

    fn attach(&self, drain: &TimeoutDrain<W, O, T>) -> Arc<Switch> {
        drain.set_upstream(self.switch.clone());
        self.switch.clone()
    }

    fn store_upstream<U: Subscription + Send + 'static>(
        store: Arc<Switch>,
        _drain: &TimeoutDrain<W, O, T>,
        upstream: U,
    ) {
        store.keep(Turn::Source, Box::new(upstream));
    }

    fn expire(&mut self, drain: &Arc<TimeoutDrain<W, O, T>>, _timeout: Duration) {
        let Some(fallback) = self.fallback.take() else {
            return;
        };
        // The source is disposed before the fallback is subscribed, as RxJS and RxJava do.
        if !self.switch.to_fallback() {
            return;
        }
        let handle = fallback.subscribe_observer(TimeoutWithObserver {
            drain: drain.clone(),
        });
        self.switch.keep(Turn::Fallback, Box::new(handle));
    }
}

type Handle = Box<dyn Subscription + Send>;

/// The handle of whichever runs, the source or the fallback.
struct Switch {
    state: Mutex<SwitchState>,
}

enum SwitchState {
    /// The source runs; its handle once its `subscribe` has returned.
    Source(Option<Handle>),
    /// The fallback runs; its handle once its `subscribe` has returned.
    Fallback(Option<Handle>),
    Disposed,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Turn {
    Source,
    Fallback,
}

impl Switch {
    /// Keeps `handle` if it is the handle of what runs; disposes it otherwise (its turn has
    /// passed while its `subscribe` ran).
    fn keep(&self, turn: Turn, handle: Handle) {
        let mut state = self.state.lock();
        match (&mut *state, turn) {
            (SwitchState::Source(slot @ None), Turn::Source)
            | (SwitchState::Fallback(slot @ None), Turn::Fallback) => *slot = Some(handle),
            _ => {
                drop(state);
                handle.dispose();
            }
        }
    }

    /// Disposes the source and makes way for the fallback; false if everything was disposed.
    fn to_fallback(&self) -> bool {
        let mut state = self.state.lock();
        let SwitchState::Source(source) = &mut *state else {
            return false;
        };
        let source = source.take();
        *state = SwitchState::Fallback(None);
        drop(state);
        if let Some(source) = source {
            source.dispose();
        }
        true
    }
}

impl Subscription for Switch {
    fn dispose(&self) {
        let state = std::mem::replace(&mut *self.state.lock(), SwitchState::Disposed);
        // Disposed outside the lock: a handle's `dispose` may reach back here.
        match state {
            SwitchState::Source(Some(handle)) | SwitchState::Fallback(Some(handle)) => {
                handle.dispose()
            }
            _ => {}
        }
    }

    fn is_disposed(&self) -> bool {
        matches!(*self.state.lock(), SwitchState::Disposed)
    }
}

/// The observer [`TimeoutWith`] subscribes its fallback with.
pub struct TimeoutWithObserver<W, O, T> {
    drain: Arc<TimeoutDrain<W, O, T>>,
}

impl<W, O, T> Observer<T> for TimeoutWithObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if !self.drain.is_closed() {
            self.drain.drain_with(|state| state.push(value));
        }
    }

    fn on_error(self, error: Error) {
        self.drain
            .drain_with(|state| state.end(Notification::Error(error)));
    }

    fn on_completed(self) {
        self.drain
            .drain_with(|state| state.end(Notification::Completed));
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for TimeoutWithObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TimeoutWithObserver")
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::observable::{Observable, Subscribe};
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval, just, throw};
    use crate::subscription::FlagSubscription;
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn switches_to_the_fallback_when_a_gap_is_too_long() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let fallback = cold(
            &sch,
            [(ms(5), Next(10)), (ms(15), Next(20)), (ms(20), Completed)],
        );
        cold(
            &sch,
            [(ms(40), Next(1)), (ms(90), Next(2)), (ms(300), Next(3))],
        )
        .timeout_with(ms(60), fallback, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        // The gap after 90 reaches 60 at 150; the fallback is timed from there.
        o.assert_timeline(&[
            (ms(40), Next(1)),
            (ms(90), Next(2)),
            (ms(155), Next(10)),
            (ms(165), Next(20)),
            (ms(170), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn the_first_value_is_timed_from_the_subscription() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(&sch, [(ms(100), Next(1))])
            .timeout_with(ms(30), just(7), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(30), Next(7)), (ms(30), Completed)]);
    }

    #[test]
    fn a_source_in_time_never_subscribes_the_fallback() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let subscribed = Arc::new(Mutex::new(0));
        let count = subscribed.clone();
        let fallback = crate::source::defer(move || {
            *count.lock().unwrap() += 1;
            just(0)
        });
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(20), Next(2)), (ms(30), Completed)],
        )
        .timeout_with(ms(15), fallback, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(20), Next(2)), (ms(30), Completed)]);
        assert_eq!(*subscribed.lock().unwrap(), 0);
        assert_eq!(sch.elapsed(), ms(30));
    }

    #[test]
    fn errors_pass_from_the_source_in_time_and_from_the_fallback() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        cold(&sch, [(ms(10), Error(Error::msg("source")))])
            .timeout_with(ms(50), just(1), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_error("source");

        let o = TestObserver::<i32>::new();
        cold(&sch, [(ms(100), Next(1))])
            .timeout_with(ms(50), throw(Error::msg("fallback")), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_error("fallback");
    }

    #[test]
    fn synchronous_sources_beat_any_timeout() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2])
            .timeout_with(Duration::ZERO, just(9), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert!(sch.is_empty());
    }

    /// A source that never emits and whose handle tells whether it was disposed.
    #[derive(Clone)]
    struct Silent(FlagSubscription);

    impl Observable for Silent {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O> Subscribe<O> for Silent {
        type Subscription = FlagSubscription;
        fn subscribe_observer(self, _observer: O) -> FlagSubscription {
            self.0
        }
    }

    /// A fallback that records whether the source was disposed when it was subscribed.
    #[derive(Clone)]
    struct Checking {
        source: FlagSubscription,
        handle: FlagSubscription,
        saw_source_disposed: Arc<Mutex<Option<bool>>>,
    }

    impl Observable for Checking {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O> Subscribe<O> for Checking {
        type Subscription = FlagSubscription;
        fn subscribe_observer(self, _observer: O) -> FlagSubscription {
            *self.saw_source_disposed.lock().unwrap() = Some(self.source.is_disposed());
            self.handle
        }
    }

    #[test]
    fn the_source_is_disposed_before_the_fallback_is_subscribed() {
        let sch = TestScheduler::new();
        let source = FlagSubscription::new();
        let fallback = Checking {
            source: source.clone(),
            handle: FlagSubscription::new(),
            saw_source_disposed: Arc::default(),
        };
        let o = TestObserver::new();
        let handle = Silent(source.clone())
            .timeout_with(ms(10), fallback.clone(), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(9));
        assert_eq!(*fallback.saw_source_disposed.lock().unwrap(), None);
        sch.advance_by(ms(1));
        assert_eq!(*fallback.saw_source_disposed.lock().unwrap(), Some(true));
        assert!(!fallback.handle.is_disposed());
        o.assert_not_terminated();
        // Disposing now reaches the fallback, which is what runs.
        handle.dispose();
        assert!(fallback.handle.is_disposed());
        assert!(handle.is_disposed());
    }

    #[test]
    fn disposing_before_the_deadline_cancels_the_timer_and_the_source() {
        let sch = TestScheduler::new();
        let source = FlagSubscription::new();
        let o = TestObserver::new();
        let handle = Silent(source.clone())
            .timeout_with(ms(10), just(1), sch.clone())
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(source.is_disposed());
        assert!(sch.is_empty());
        sch.run();
        o.assert_not_terminated();
        assert_eq!(o.value_count(), 0);
    }

    #[test]
    fn an_endless_fallback_is_ended_by_downstream() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        Silent(FlagSubscription::new())
            .timeout_with(
                ms(10),
                interval(ms(5), sch.clone()).map(|v| v as i32),
                sch.clone(),
            )
            .take(2)
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(15), Next(0)), (ms(20), Next(1)), (ms(20), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn the_error_form_is_the_same_timer() {
        // `timeout` and `timeout_with` given a failing fallback end alike.
        let sch = TestScheduler::new();
        let a = TimedObserver::<i32, _>::new(&sch);
        let b = TimedObserver::<i32, _>::new(&sch);
        let error = Error::msg("the source signalled nothing for 25ms");
        cold(&sch, [(ms(10), Next(1)), (ms(100), Next(2))])
            .timeout(ms(25), sch.clone())
            .subscribe_observer(a.clone());
        cold(&sch, [(ms(10), Next(1)), (ms(100), Next(2))])
            .timeout_with(ms(25), throw(error), sch.clone())
            .subscribe_observer(b.clone());
        sch.run();
        b.assert_timeline(&a.timeline());
        assert_eq!(a.timeline().len(), 2);
    }
}

/// Models of the switch between the source's and the fallback's handles. Run with
/// `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom`.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::{Switch, SwitchState, Turn};
    use crate::primitive::{Arc, Mutex, thread};
    use crate::subscription::{FlagSubscription, Subscription};

    fn switch() -> Arc<Switch> {
        Arc::new(Switch {
            state: Mutex::new(SwitchState::Source(None)),
        })
    }

    #[test]
    fn loom_dispose_racing_the_switch_leaves_nothing_running() {
        loom::model(|| {
            let switch = switch();
            let (source, fallback) = (FlagSubscription::new(), FlagSubscription::new());
            // The source's `subscribe` returns while the timer switches on another thread.
            let (timer_switch, timer_fallback) = (switch.clone(), fallback.clone());
            let timer = thread::spawn(move || {
                if timer_switch.to_fallback() {
                    timer_switch.keep(Turn::Fallback, Box::new(timer_fallback));
                    true
                } else {
                    false
                }
            });
            switch.keep(Turn::Source, Box::new(source.clone()));
            let dispose_switch = switch.clone();
            let disposing = thread::spawn(move || dispose_switch.dispose());
            let switched = timer.join().unwrap();
            disposing.join().unwrap();
            assert!(switch.is_disposed());
            assert!(source.is_disposed(), "the source outlived the switch");
            if switched {
                assert!(fallback.is_disposed(), "the fallback outlived the disposal");
            }
        });
    }

    #[test]
    fn loom_a_late_source_handle_is_disposed_after_the_switch() {
        loom::model(|| {
            let switch = switch();
            let source = FlagSubscription::new();
            let timer_switch = switch.clone();
            let timer = thread::spawn(move || timer_switch.to_fallback());
            switch.keep(Turn::Source, Box::new(source.clone()));
            assert!(timer.join().unwrap());
            // Whichever came first, the source's handle does not survive the switch.
            assert!(source.is_disposed());
            assert!(!switch.is_disposed());
        });
    }
}
