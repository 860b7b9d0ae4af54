//! [`interval`]: `0, 1, 2, ...`, one value every period, forever.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use std::time::Duration;

/// An observable that emits `0, 1, 2, ...` (as `u64`), the first one `period` after the
/// subscription and each next one `period` after the previous. It never completes; end it with
/// an operator such as `take`, or dispose its handle.
///
/// Each due time is computed from the previous due time, not from when the previous value was
/// delivered, so the sequence does not drift however long delivery takes. When delivery falls
/// behind by more than a period, the missed values are emitted back to back until the sequence
/// is on time again (tokio's `MissedTickBehavior::Burst`); none is skipped.
///
/// ```text
/// interval(10): -0-1-2-3-4-5-...
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
/// let handle = rx::source::interval(Duration::from_secs(1), scheduler.clone())
///     .subscribe_observer(observer.clone());
///
/// scheduler.advance_by(Duration::from_millis(3500));
/// observer.assert_values(&[0, 1, 2]);
///
/// handle.dispose();
/// scheduler.advance_by(Duration::from_secs(10));
/// observer.assert_values(&[0, 1, 2]);
/// observer.assert_not_terminated();
/// ```
///
/// # Scheduler
///
/// One task on a worker of `scheduler` emits every value: it asks to run again at its next
/// due time, and stops as soon as its observer reports that it is disposed, so
/// `interval(..).take(3)` stops right after the third value. The handle returned by
/// `subscribe` is that task's handle: disposing it cancels the task and drops the observer.
///
/// # Zero period
///
/// `interval(Duration::ZERO, scheduler)` emits as fast as the scheduler runs it, as in
/// RxJava, Rx.NET and RxJS: each next value is due at once, the task asking to run again
/// after no delay. On [`Immediate`](crate::schedulers::Immediate) that is a loop, so end it
/// with `take` or another operator that disposes it; on a queue, tasks due earlier still run
/// between its values. Neither reads the clock for it.
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::Immediate;
/// use rx::testing::TestObserver;
/// use std::time::Duration;
///
/// let observer = TestObserver::new();
/// rx::source::interval(Duration::ZERO, Immediate)
///     .take(3)
///     .subscribe_observer(observer.clone());
/// observer.assert_values(&[0, 1, 2]);
/// observer.assert_completed();
/// ```
///
/// # Performance
///
/// One task scheduled per subscription, which reschedules itself without allocating. The
/// clock is read once at subscription, to compute the first due time, and then only by the
/// scheduler, to wait for each next one; with a zero period not at all.
pub fn interval<Sch: Scheduler>(period: Duration, scheduler: Sch) -> Interval<Sch> {
    interval_after(period, period, scheduler)
}

/// An observable that emits `0, 1, 2, ...` (as `u64`), the first one `delay` after the
/// subscription and each next one `period` after the previous (RxJS's `timer(delay,
/// period)`, RxJava's `interval(initialDelay, period)`). It never completes.
///
/// [`interval`] is `interval_after(period, period, ..)`; what it says of drift, of missed
/// values and of a zero period holds here. A zero `delay` emits `0` as soon as the
/// scheduler runs the task.
///
/// ```text
/// interval_after(30, 10): ---0-1-2-3-...
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
/// rx::source::interval_after(Duration::from_secs(3), Duration::from_secs(1), scheduler.clone())
///     .take(3)
///     .subscribe_observer(observer.clone());
///
/// scheduler.advance_by(Duration::from_millis(2999));
/// observer.assert_values(&[]);
/// scheduler.advance_by(Duration::from_millis(1));
/// observer.assert_values(&[0]);
/// scheduler.advance_by(Duration::from_secs(2));
/// observer.assert_values(&[0, 1, 2]);
/// observer.assert_completed();
/// ```
///
/// # Scheduler
///
/// As for [`interval`]: one task on a worker of `scheduler`, whose handle `subscribe`
/// returns.
///
/// # Performance
///
/// As for [`interval`]: one task scheduled per subscription, which reschedules itself
/// without allocating; the clock is read once, at subscription.
#[doc(alias = "timer")]
#[doc(alias = "initialDelay")]
pub fn interval_after<Sch: Scheduler>(
    delay: Duration,
    period: Duration,
    scheduler: Sch,
) -> Interval<Sch> {
    Interval {
        delay,
        period,
        scheduler,
    }
}

/// Emits `0, 1, 2, ...` periodically; built by [`interval`] and [`interval_after`].
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Interval<Sch> {
    delay: Duration,
    period: Duration,
    scheduler: Sch,
}

impl<Sch> Observable for Interval<Sch> {
    type Item = u64;
    type Flavour = crate::sync::Shared;
}

impl<Sch, O> Subscribe<O> for Interval<Sch>
where
    Sch: Scheduler,
    O: Observer<u64> + crate::schedulers::MaybeSend + 'static,
{
    type Subscription = <Sch::Worker as Worker>::TaskHandle;

    fn subscribe_observer(self, mut observer: O) -> Self::Subscription {
        // As for `timer`, the worker handle is not kept: the task alone keeps it alive.
        let worker = self.scheduler.worker();
        let period = self.period;
        let mut count: u64 = 0;
        if period.is_zero() && self.delay.is_zero() {
            // Every value is due at once: no due time to compute, no clock to read.
            return worker.schedule(move || {
                if observer.is_disposed() {
                    return Reschedule::Done;
                }
                observer.on_next(count);
                if observer.is_disposed() {
                    return Reschedule::Done;
                }
                count += 1;
                Reschedule::After(Duration::ZERO)
            });
        }
        let mut due = worker.now() + self.delay;
        worker.schedule_at(due, move || {
            if observer.is_disposed() {
                return Reschedule::Done;
            }
            observer.on_next(count);
            if observer.is_disposed() {
                return Reschedule::Done;
            }
            count += 1;
            due += period;
            Reschedule::At(due)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::interval;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::{
        CurrentThread, Immediate, Reschedule, Scheduler, TestScheduler, Worker,
    };
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn ticks_at_every_multiple_of_the_period() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(100), sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(ms(450));
        o.assert_timeline(&[
            (ms(100), Next(0)),
            (ms(200), Next(1)),
            (ms(300), Next(2)),
            (ms(400), Next(3)),
        ]);
    }

    #[test]
    fn advancing_in_uneven_steps_does_not_shift_the_ticks() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(100), sch.clone()).subscribe_observer(o.clone());
        for step in [30, 70, 1, 149, 50, 33] {
            sch.advance_by(ms(step));
        }
        o.assert_timeline(&[(ms(100), Next(0)), (ms(200), Next(1)), (ms(300), Next(2))]);
    }

    #[test]
    fn disposing_the_handle_stops_the_ticks() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(ms(25));
        handle.dispose();
        sch.advance_by(ms(100));
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }

    #[test]
    fn take_stops_the_task_right_after_the_last_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .take(3)
            .subscribe_observer(o.clone());
        sch.advance_by(ms(30));
        o.assert_timeline(&[
            (ms(10), Next(0)),
            (ms(20), Next(1)),
            (ms(30), Next(2)),
            (ms(30), Completed),
        ]);
        // The task ended with the third value: nothing is left on the scheduler.
        assert!(sch.is_empty());
    }

    #[test]
    fn disposed_downstream_stops_before_the_next_value() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(ms(20));
        o.dispose();
        sch.advance_by(ms(10));
        o.assert_values(&[0, 1]);
        assert!(sch.is_empty());
    }

    #[test]
    fn a_zero_period_emits_at_once_on_every_scheduler() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        sch.advance_by(ms(5));
        interval(Duration::ZERO, sch.clone())
            .take(3)
            .subscribe_observer(o.clone());
        sch.advance_by(Duration::ZERO);
        o.assert_timeline(&[
            (ms(5), Next(0)),
            (ms(5), Next(1)),
            (ms(5), Next(2)),
            (ms(5), Completed),
        ]);
        assert!(sch.is_empty());

        for values in [
            {
                let o = TestObserver::new();
                interval(Duration::ZERO, Immediate)
                    .take(4)
                    .subscribe_observer(o.clone());
                o
            },
            {
                let o = TestObserver::new();
                interval(Duration::ZERO, CurrentThread)
                    .take(4)
                    .subscribe_observer(o.clone());
                o
            },
        ] {
            values.assert_values(&[0, 1, 2, 3]);
            values.assert_completed();
        }
    }

    #[test]
    fn a_zero_period_lets_tasks_due_earlier_run_between_its_values() {
        // On the trampoline, a zero-period interval queued behind a task yields to tasks
        // queued before each of its next values.
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        worker.schedule(move || {
            let l2 = l.clone();
            interval(Duration::ZERO, CurrentThread)
                .take(3)
                .subscribe(move |v| l2.lock().unwrap().push(v as i64));
            let l3 = l.clone();
            w.schedule(move || {
                l3.lock().unwrap().push(-1);
                Reschedule::Done
            });
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [0, -1, 1, 2]);
    }

    #[test]
    fn a_late_immediate_interval_bursts_without_reading_the_clock_per_value() {
        // 1 ns: each value is overdue by the time the previous one is delivered, so the
        // values come back to back (the burst), in order, and none is skipped.
        let o = TestObserver::new();
        interval(Duration::from_nanos(1), Immediate)
            .take(5)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2, 3, 4]);
        o.assert_completed();
    }
}
