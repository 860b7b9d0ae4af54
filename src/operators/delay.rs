//! [`ObservableExt::delay`](crate::ObservableExt::delay).

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::collections::VecDeque;
use std::fmt;
use std::mem;
use std::time::Duration;

/// Shifts each value and the completion later in time; built by
/// [`ObservableExt::delay`](crate::ObservableExt::delay) and
/// [`ObservableExt::delay_until`](crate::ObservableExt::delay_until).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Delay<S, Sch> {
    source: S,
    delay: Shift,
    scheduler: Sch,
}

/// How far a notification is shifted: by a fixed delay, or to an instant (never earlier
/// than it arrived). Either way due times only grow, which the queue relies on.
#[derive(Clone, Copy, Debug)]
enum Shift {
    By(Duration),
    Until(Instant),
}

impl Shift {
    fn due(self, now: Instant) -> Instant {
        match self {
            Shift::By(delay) => now + delay,
            Shift::Until(at) => at.max(now),
        }
    }
}

impl<S, Sch> Delay<S, Sch> {
    pub(crate) fn new(source: S, delay: Duration, scheduler: Sch) -> Self {
        Delay {
            source,
            delay: Shift::By(delay),
            scheduler,
        }
    }

    pub(crate) fn until(source: S, at: Instant, scheduler: Sch) -> Self {
        Delay {
            source,
            delay: Shift::Until(at),
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for Delay<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Delay<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<DelayObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let state = DelayState {
            queue: VecDeque::new(),
            completed_at: None,
            error: None,
            now: worker.now(),
            armed: false,
        };
        let drain = Arc::new(Drain::new(worker, observer, state));
        let upstream = self.source.subscribe_observer(DelayObserver {
            drain: drain.clone(),
            delay: self.delay,
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

/// What waits to be delivered. The due times only grow, so the queue is in due order.
struct DelayState<T> {
    queue: VecDeque<(Instant, T)>,
    completed_at: Option<Instant>,
    error: Option<Error>,
    /// When the delivering task runs: what is due by then is ready.
    now: Instant,
    /// A task is scheduled or running; it re-arms itself while anything waits.
    armed: bool,
}

impl<T> DelayState<T> {
    fn next_due(&self) -> Option<Instant> {
        self.queue
            .front()
            .map(|(due, _)| *due)
            .or(self.completed_at)
    }
}

impl<T> Ready<T> for DelayState<T> {
    fn next_ready(&mut self) -> Option<Notification<T>> {
        if let Some(error) = self.error.take() {
            return Some(Notification::Error(error));
        }
        match self.queue.front() {
            Some((due, _)) if *due <= self.now => {
                self.queue.pop_front().map(|(_, v)| Notification::Next(v))
            }
            Some(_) => None,
            None => match self.completed_at {
                Some(due) if due <= self.now => {
                    self.completed_at = None;
                    Some(Notification::Completed)
                }
                _ => None,
            },
        }
    }
}

type DelayDrain<W, O, T> = Drain<W, O, DelayState<T>>;

/// Schedules the one task that delivers everything due, if it is not already scheduled.
fn arm<W, O, T>(
    drain: &Arc<DelayDrain<W, O, T>>,
    due: Instant,
    update: impl FnOnce(&mut DelayState<T>),
) where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    let start = drain.with(|state| {
        update(state);
        !mem::replace(&mut state.armed, true)
    });
    if start {
        // Outside the lock: a worker that runs tasks inline runs this one right here.
        let task_drain = drain.clone();
        drain
            .worker()
            .schedule_at(due, move || deliver_due(&task_drain));
    }
}

/// The task: delivers what is due, then sleeps until the next due time or ends when nothing
/// waits (the next value schedules a new one).
fn deliver_due<W, O, T>(drain: &DelayDrain<W, O, T>) -> Reschedule
where
    W: Worker,
    O: Observer<T>,
{
    let now = drain.worker().now();
    drain.drain_with(|state| state.now = now);
    drain.with(|state| {
        if drain.is_closed() {
            return Reschedule::Done;
        }
        match state.next_due() {
            Some(due) => Reschedule::At(due),
            None => {
                state.armed = false;
                Reschedule::Done
            }
        }
    })
}

/// The observer [`Delay`] subscribes upstream.
pub struct DelayObserver<W, O, T> {
    drain: Arc<DelayDrain<W, O, T>>,
    delay: Shift,
}

impl<W, O, T> Observer<T> for DelayObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let due = self.delay.due(self.drain.worker().now());
        arm(&self.drain, due, |state| {
            state.queue.push_back((due, value))
        });
    }

    fn on_error(self, error: Error) {
        // Not delayed: the error overtakes the values still waiting, which are dropped, as
        // with RxJava's default (`delayError = false`), Rx.NET and RxJS.
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            state.completed_at = None;
            mem::take(&mut state.queue)
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        let due = self.delay.due(self.drain.worker().now());
        arm(&self.drain, due, |state| state.completed_at = Some(due));
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for DelayObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DelayObserver")
            .field("delay", &self.delay)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn shifts_values_and_completion_keeping_their_spacing() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(0)),
                (ms(30), Next(2)),
                (ms(60), Next(5)),
                (ms(70), Completed),
            ],
        )
        .delay(ms(100), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(110), Next(0)),
            (ms(130), Next(2)),
            (ms(160), Next(5)),
            (ms(170), Completed),
        ]);
    }

    #[test]
    fn synchronous_source_arrives_all_at_once_after_the_delay() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        from_iter([1, 2, 3])
            .delay(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(49));
        o.assert_timeline(&[]);
        sch.advance_by(ms(1));
        o.assert_timeline(&[
            (ms(50), Next(1)),
            (ms(50), Next(2)),
            (ms(50), Next(3)),
            (ms(50), Completed),
        ]);
    }

    #[test]
    fn empty_source_completes_after_the_delay() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<i32, _>::new(&sch);
        empty()
            .delay(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(50), Completed)]);
    }

    #[test]
    fn error_is_not_delayed_and_drops_waiting_values() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let bad = Error::msg("bad");
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(20), Next(2)),
                (ms(40), Error(bad.clone())),
            ],
        )
        .delay(ms(25), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(35), Next(1)), (ms(40), Error(bad))]);
    }

    #[test]
    fn synchronous_error_arrives_at_once() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .delay(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_error("bad");
        assert!(sch.is_empty());
    }

    #[test]
    fn disposing_the_handle_drops_what_waits() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .delay(ms(15), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(35));
        o.assert_values(&[0, 1]);
        handle.dispose();
        assert!(handle.is_disposed());
        // Upstream and the delivering task are both cancelled.
        assert!(sch.is_empty());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .delay(ms(5), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(25));
        o.assert_values(&[0, 1]);
        o.dispose();
        // The next upstream value finds the subscription unwanted and ends it: the interval
        // task stops, so the scheduler runs dry.
        sch.run();
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }

    #[test]
    fn delay_until_holds_what_comes_before_the_instant_and_passes_the_rest() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let at = sch.now() + ms(50);
        cold(
            &sch,
            [
                (ms(10), Next('a')),
                (ms(30), Next('b')),
                (ms(70), Next('c')),
                (ms(80), Completed),
            ],
        )
        .delay_until(at, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(50), Next('a')),
            (ms(50), Next('b')),
            (ms(70), Next('c')),
            (ms(80), Completed),
        ]);
    }

    #[test]
    fn delay_until_an_early_completion_waits_for_the_instant() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let at = sch.now() + ms(40);
        cold(&sch, [(ms(10), Next(1)), (ms(20), Completed)])
            .delay_until(at, sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(40), Next(1)), (ms(40), Completed)]);
        assert!(sch.is_empty());
    }
}
