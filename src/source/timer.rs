//! [`timer`]: one value after a delay, then completion.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use std::time::Duration;

/// An observable that emits `0` once `delay` has passed on `scheduler`, then completes.
///
/// The value is a `u64` zero, as RxJava's `timer` emits `0L` and RxJS's emits `0`, so a timer
/// has the item type of [`interval`](crate::source::interval) and the two compose.
///
/// ```text
/// timer(30): ---(0|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::TestObserver;
/// use std::time::Duration;
///
/// let scheduler = TestScheduler::new();
/// let observer = TestObserver::new();
/// rx::source::timer(Duration::from_secs(1), scheduler.clone()).subscribe_observer(observer.clone());
///
/// scheduler.advance_by(Duration::from_millis(999));
/// observer.assert_values(&[]);
/// scheduler.advance_by(Duration::from_millis(1));
/// observer.assert_values(&[0]);
/// observer.assert_completed();
/// ```
///
/// # Scheduler
///
/// The value and the completion are delivered by a task on a worker of `scheduler`. The
/// handle returned by `subscribe` is that task's handle: disposing it cancels the task, which
/// then never runs, and drops the observer.
///
/// # Performance
///
/// One task scheduled per subscription; nothing else is allocated.
pub fn timer<Sch: Scheduler>(delay: Duration, scheduler: Sch) -> Timer<Sch> {
    Timer { delay, scheduler }
}

/// Emits `0` after a delay and completes; built by [`timer`].
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Timer<Sch> {
    delay: Duration,
    scheduler: Sch,
}

impl<Sch> Observable for Timer<Sch> {
    type Item = u64;
    type Flavour = crate::sync::Shared;
}

impl<Sch, O> Subscribe<O> for Timer<Sch>
where
    Sch: Scheduler,
    O: Observer<u64> + crate::schedulers::MaybeSend + 'static,
{
    type Subscription = <Sch::Worker as Worker>::TaskHandle;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        // The worker handle is not kept: once the task has run (or its handle has cancelled
        // it) nothing holds the worker, so a thread-backed worker can end.
        let worker = self.scheduler.worker();
        worker.schedule_after(self.delay, fire_once(observer))
    }
}

/// The task of a timer: `0` then completion, to an observer that still wants them.
pub(crate) fn fire_once<O>(
    observer: O,
) -> impl FnMut() -> Reschedule + crate::schedulers::MaybeSend + 'static
where
    O: Observer<u64> + crate::schedulers::MaybeSend + 'static,
{
    let mut observer = Some(observer);
    move || {
        if let Some(mut observer) = observer.take()
            && !observer.is_disposed()
        {
            observer.on_next(0);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
        Reschedule::Done
    }
}

#[cfg(test)]
mod tests {
    use super::timer;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn emits_zero_then_completes_at_the_delay() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        timer(ms(250), sch.clone()).subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(250), Next(0)), (ms(250), Completed)]);
    }

    #[test]
    fn zero_delay_fires_on_the_first_advance() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        timer(Duration::ZERO, sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(Duration::ZERO);
        o.assert_timeline(&[(ms(0), Next(0)), (ms(0), Completed)]);
    }

    #[test]
    fn disposing_the_handle_cancels_the_timer() {
        let sch = TestScheduler::new();
        let o = TestObserver::<u64>::new();
        let handle = timer(ms(100), sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(ms(50));
        handle.dispose();
        assert!(handle.is_disposed());
        sch.run();
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_observer_gets_nothing() {
        let sch = TestScheduler::new();
        let o = TestObserver::<u64>::new();
        timer(ms(100), sch.clone()).subscribe_observer(o.clone());
        o.dispose();
        sch.run();
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn each_subscription_has_its_own_timer() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = timer(ms(100), sch.clone());
        source.clone().subscribe_observer(o.clone());
        sch.advance_by(ms(30));
        let late = TimedObserver::new(&sch);
        source.subscribe_observer(late.clone());
        sch.run();
        o.assert_timeline(&[(ms(100), Next(0)), (ms(100), Completed)]);
        late.assert_timeline(&[(ms(100), Next(0)), (ms(100), Completed)]);
    }
}
