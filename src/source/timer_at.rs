//! [`timer_at`]: one value at an instant, then completion.

use super::timer::fire_once;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{Scheduler, Worker};
use crate::time::Instant;

/// An observable that emits `0` at the instant `due` on `scheduler`'s clock, then completes:
/// the absolute form of [`timer`](crate::source::timer) (RxJS's `timer(date)`). An instant
/// already past fires as soon as the worker runs it.
///
/// ```text
/// timer_at(t+30): ---(0|)
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
/// let due = scheduler.now() + Duration::from_secs(1);
/// rx::source::timer_at(due, scheduler.clone()).subscribe_observer(observer.clone());
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
/// As [`timer`](crate::source::timer): the value and the completion are delivered by a task
/// on a worker of `scheduler`, and the handle is that task's.
///
/// # Performance
///
/// One task scheduled per subscription; nothing else is allocated.
#[doc(alias = "timer")]
pub fn timer_at<Sch: Scheduler>(due: Instant, scheduler: Sch) -> TimerAt<Sch> {
    TimerAt { due, scheduler }
}

/// Emits `0` at an instant and completes; built by [`timer_at`].
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct TimerAt<Sch> {
    due: Instant,
    scheduler: Sch,
}

impl<Sch> Observable for TimerAt<Sch> {
    type Item = u64;
    type Flavour = crate::sync::Shared;
}

impl<Sch, O> Subscribe<O> for TimerAt<Sch>
where
    Sch: Scheduler,
    O: Observer<u64> + crate::schedulers::MaybeSend + 'static,
{
    type Subscription = <Sch::Worker as Worker>::TaskHandle;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        // As `timer`, the worker handle is not kept.
        self.scheduler
            .worker()
            .schedule_at(self.due, fire_once(observer))
    }
}

#[cfg(test)]
mod tests {
    use super::timer_at;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn fires_at_the_instant_whenever_it_is_subscribed() {
        let sch = TestScheduler::new();
        let due = sch.now() + ms(250);
        sch.advance_by(ms(100));
        let o = TimedObserver::new(&sch);
        timer_at(due, sch.clone()).subscribe_observer(o.clone());
        sch.run();
        // The observer's clock starts at 100.
        o.assert_timeline(&[(ms(150), Next(0)), (ms(150), Completed)]);
    }

    #[test]
    fn an_instant_past_fires_at_once_on_the_worker() {
        let sch = TestScheduler::new();
        let due = sch.now();
        sch.advance_by(ms(100));
        let o = TimedObserver::new(&sch);
        timer_at(due, sch.clone()).subscribe_observer(o.clone());
        o.assert_timeline(&[]);
        sch.advance_by(Duration::ZERO);
        o.assert_timeline(&[(ms(0), Next(0)), (ms(0), Completed)]);
    }

    #[test]
    fn disposing_the_handle_cancels_it() {
        let sch = TestScheduler::new();
        let o = TestObserver::<u64>::new();
        let handle = timer_at(sch.now() + ms(10), sch.clone()).subscribe_observer(o.clone());
        handle.dispose();
        sch.run();
        o.assert_values(&[]);
        o.assert_not_terminated();
        assert!(sch.is_empty());
    }
}
