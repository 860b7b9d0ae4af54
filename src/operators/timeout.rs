//! [`ObservableExt::timeout`](crate::ObservableExt::timeout) and [`TimeoutError`].

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{DeferringScheduler, Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

/// Fails with a [`TimeoutError`] when the source goes quiet for too long; built by
/// [`ObservableExt::timeout`](crate::ObservableExt::timeout).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Timeout<S, Sch> {
    source: S,
    timeout: Duration,
    scheduler: Sch,
}

impl<S, Sch: DeferringScheduler> Timeout<S, Sch> {
    pub(crate) fn new(source: S, timeout: Duration, scheduler: Sch) -> Self {
        Timeout {
            source,
            timeout,
            scheduler,
        }
    }
}

/// The error a [`timeout`](crate::ObservableExt::timeout) terminates with: the source
/// signalled nothing for the whole timeout. Reach it through
/// [`Error::downcast_ref`](crate::Error::downcast_ref).
///
/// ```
/// use rx::operators::TimeoutError;
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::TestObserver;
/// use std::time::Duration;
///
/// let scheduler = TestScheduler::new();
/// let observer = TestObserver::new();
/// rx::source::timer(Duration::from_secs(5), scheduler.clone())
///     .timeout(Duration::from_secs(1), scheduler.clone())
///     .subscribe_observer(observer.clone());
/// scheduler.run();
///
/// let error = observer.error().expect("timed out");
/// let timeout = error.downcast_ref::<TimeoutError>().expect("a TimeoutError");
/// assert_eq!(timeout.timeout(), Duration::from_secs(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutError {
    timeout: Duration,
}

impl TimeoutError {
    /// How long the source stayed silent: the timeout it was given.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

impl fmt::Display for TimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the source signalled nothing for {:?}", self.timeout)
    }
}

impl std::error::Error for TimeoutError {}

impl<S: Observable, Sch> Observable for Timeout<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Timeout<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<TimeoutObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        Box::new(subscribe_timeout(
            self.source,
            self.timeout,
            worker,
            observer,
            Fail,
        ))
    }
}

/// What a timeout does once its deadline has passed with nothing new: the one point where
/// [`timeout`](crate::ObservableExt::timeout) (fail) and
/// [`timeout_with`](crate::ObservableExt::timeout_with) (switch to a fallback) differ. The
/// timer, the deadline and the delivery are [`subscribe_timeout`]'s, shared by both.
pub(crate) trait Expire<W, O, T>: Send + 'static {
    /// What [`store_upstream`](Expire::store_upstream) needs to reach the source's handle.
    type Store;

    /// Called before the source is subscribed, so that closing the drain reaches whatever
    /// the source's handle will be kept in.
    fn attach(&self, drain: &TimeoutDrain<W, O, T>) -> Self::Store;

    /// Keeps the source's handle, once its `subscribe` has returned.
    fn store_upstream<U: Subscription + Send + 'static>(
        store: Self::Store,
        drain: &TimeoutDrain<W, O, T>,
        upstream: U,
    );

    /// Runs once, on the timer, after the deadline passed; the source's later signals are
    /// already being dropped.
    fn expire(&mut self, drain: &Arc<TimeoutDrain<W, O, T>>, timeout: Duration);
}

/// [`Expire`] for [`timeout`](crate::ObservableExt::timeout): end with a [`TimeoutError`].
#[derive(Debug)]
pub(crate) struct Fail;

impl<W, O, T> Expire<W, O, T> for Fail
where
    W: Worker,
    O: Observer<T> + Send + 'static,
    T: Send + 'static,
{
    type Store = ();

    fn attach(&self, _drain: &TimeoutDrain<W, O, T>) {}

    fn store_upstream<U: Subscription + Send + 'static>(
        _store: (),
        drain: &TimeoutDrain<W, O, T>,
        upstream: U,
    ) {
        drain.set_upstream(upstream);
    }

    fn expire(&mut self, drain: &Arc<TimeoutDrain<W, O, T>>, timeout: Duration) {
        // The drain cancels upstream before it delivers this.
        drain.drain_with(|state| {
            if state.terminal.is_none() {
                let error = Error::new(TimeoutError { timeout });
                state.terminal = Some(Notification::Error(error));
            }
        });
    }
}

/// Subscribes `source` through a timeout of `timeout` on `worker`, which `expire` ends.
pub(crate) fn subscribe_timeout<S, W, O, A>(
    source: S,
    timeout: Duration,
    worker: W,
    observer: O,
    expire: A,
) -> Arc<TimeoutDrain<W, O, <S as Observable>::Item>>
where
    W: Worker,
    S: Subscribe<TimeoutObserver<W, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
    A: Expire<W, O, <S as Observable>::Item>,
{
    let deadline = worker.now() + timeout;
    let state = TimeoutState {
        values: VecDeque::new(),
        deadline,
        expired: false,
        terminal: None,
    };
    let unwanted = observer.is_disposed();
    let drain = Arc::new(Drain::new(worker, observer, state));
    if unwanted {
        // A downstream that is already disposed gets nothing: no timer, and no source.
        drain.close();
        return drain;
    }
    let store = expire.attach(&drain);
    // Armed before upstream is subscribed, as in RxJava, so a source that never answers
    // is caught; one timer serves the whole subscription.
    let timer_drain = drain.clone();
    let mut expire = expire;
    drain
        .worker()
        .schedule_at(deadline, move || fire(&timer_drain, timeout, &mut expire));
    let upstream = source.subscribe_observer(TimeoutObserver {
        drain: drain.clone(),
        timeout,
    });
    A::store_upstream(store, &drain, upstream);
    drain
}

pub(crate) struct TimeoutState<T> {
    /// Values on their way through: they wait here only while another delivery is under way.
    values: VecDeque<T>,
    /// When the timer fires unless a value moves it.
    deadline: Instant,
    /// The deadline passed: what the source signals from then on is dropped.
    expired: bool,
    /// The end of the sequence: upstream's, the fallback's, or the timeout error.
    terminal: Option<Notification<T>>,
}

impl<T> TimeoutState<T> {
    /// Queues a value for delivery unless the sequence has ended.
    pub(crate) fn push(&mut self, value: T) {
        if self.terminal.is_none() {
            self.values.push_back(value);
        }
    }

    /// Records the end of the sequence unless it has ended already.
    pub(crate) fn end(&mut self, terminal: Notification<T>) {
        if self.terminal.is_none() {
            self.terminal = Some(terminal);
        }
    }
}

impl<T> Ready<T> for TimeoutState<T> {
    fn next_ready(&mut self) -> Option<Notification<T>> {
        match self.values.pop_front() {
            Some(value) => Some(Notification::Next(value)),
            None => self.terminal.take(),
        }
    }
}

pub(crate) type TimeoutDrain<W, O, T> = Drain<W, O, TimeoutState<T>>;

/// The timer task: hands over to `expire` once the deadline has passed with nothing new, or
/// sleeps until the deadline the latest value set.
fn fire<W, O, T, A>(
    drain: &Arc<TimeoutDrain<W, O, T>>,
    timeout: Duration,
    expire: &mut A,
) -> Reschedule
where
    W: Worker,
    O: Observer<T>,
    A: Expire<W, O, T>,
{
    let now = drain.worker().now();
    let verdict = drain.with(|state| {
        if state.terminal.is_some() || state.expired {
            None
        } else if now < state.deadline {
            Some(Some(state.deadline))
        } else {
            state.expired = true;
            Some(None)
        }
    });
    match verdict {
        Some(Some(deadline)) if !drain.is_closed() => Reschedule::At(deadline),
        Some(None) if !drain.is_closed() => {
            expire.expire(drain, timeout);
            Reschedule::Done
        }
        _ => Reschedule::Done,
    }
}

/// The observer [`Timeout`] subscribes upstream.
pub struct TimeoutObserver<W, O, T> {
    drain: Arc<TimeoutDrain<W, O, T>>,
    timeout: Duration,
}

impl<W, O, T> Observer<T> for TimeoutObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let deadline = self.drain.worker().now() + self.timeout;
        self.drain.drain_with(|state| {
            // Once the timer has fired, a late value is dropped.
            if !state.expired {
                state.deadline = deadline;
                state.push(value);
            }
        });
    }

    fn on_error(self, error: Error) {
        self.drain.drain_with(|state| {
            if !state.expired {
                state.end(Notification::Error(error));
            }
        });
    }

    fn on_completed(self) {
        self.drain.drain_with(|state| {
            if !state.expired {
                state.end(Notification::Completed);
            }
        });
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for TimeoutObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TimeoutObserver")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::TimeoutError;
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::observable::{Observable, Subscribe};
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval};
    use crate::subscription::FlagSubscription;
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn timed_out(after: u64) -> Error {
        Error::new(TimeoutError { timeout: ms(after) })
    }

    #[test]
    fn values_in_time_pass_and_silence_fails_once() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(40), Next(1)),
                (ms(90), Next(2)),
                (ms(140), Next(3)),
                (ms(300), Next(4)), // too late: the timer fired at 190
                (ms(310), Completed),
            ],
        )
        .timeout(ms(50), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(40), Next(1)),
            (ms(90), Next(2)),
            (ms(140), Next(3)),
            (ms(190), Error(timed_out(50))),
        ]);
    }

    #[test]
    fn the_first_value_is_timed_from_the_subscription() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<i32, _>::new(&sch);
        cold(&sch, [(ms(100), Next(1))])
            .timeout(ms(60), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(60), Error(timed_out(60)))]);
        let error = o.timeline()[0].1.clone();
        let Error(error) = error else { unreachable!() };
        assert_eq!(
            error.downcast_ref::<TimeoutError>().unwrap().timeout(),
            ms(60)
        );
        assert_eq!(error.to_string(), "the source signalled nothing for 60ms");
    }

    #[test]
    fn completion_and_error_in_time_pass_and_cancel_the_timer() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(&sch, [(ms(10), Next(1)), (ms(20), Completed)])
            .timeout(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(20), Completed)]);
        assert_eq!(sch.elapsed(), ms(20));

        let o = TestObserver::<i32>::new();
        cold(&sch, [(ms(10), Error(Error::msg("bad")))])
            .timeout(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_error("bad");
        assert_eq!(sch.elapsed(), ms(30));
    }

    #[test]
    fn synchronous_sources_beat_any_timeout() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2])
            .timeout(Duration::ZERO, sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        empty()
            .timeout(ms(1), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_completed();
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

    #[test]
    fn firing_disposes_upstream() {
        let sch = TestScheduler::new();
        let upstream = FlagSubscription::new();
        let o = TestObserver::new();
        let handle = Silent(upstream.clone())
            .timeout(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        assert!(!upstream.is_disposed());
        sch.run();
        assert!(upstream.is_disposed());
        assert!(handle.is_disposed());
        assert!(o.error().unwrap().is::<TimeoutError>());
    }

    #[test]
    fn a_stream_in_time_never_fires() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .timeout(ms(11), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(1000));
        assert_eq!(o.value_count(), 100);
        o.assert_not_terminated();
    }

    #[test]
    fn disposing_the_handle_disposes_upstream_and_the_timer() {
        let sch = TestScheduler::new();
        let upstream = FlagSubscription::new();
        let o = TestObserver::new();
        let handle = Silent(upstream.clone())
            .timeout(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(upstream.is_disposed());
        assert!(sch.is_empty());
        o.assert_not_terminated();
    }

    #[test]
    fn chained_time_operators_end_each_other() {
        // The inner timeout delivers to the outer one, whose downstream ends after two values:
        // the outer subscription closes, disposing the inner one from inside its delivery.
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .timeout(ms(50), sch.clone())
            .timeout(ms(50), sch.clone())
            .take(2)
            .subscribe_observer(o.clone());
        sch.advance_by(ms(20));
        o.assert_values(&[0, 1]);
        o.assert_completed();
        assert!(sch.is_empty());
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .timeout(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(20));
        o.dispose();
        sch.advance_by(ms(10));
        assert!(sch.is_empty());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }
}
