//! [`ObservableExt::throttle`](crate::ObservableExt::throttle).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::time::Instant;
use std::time::Duration;

/// Emits the first value of each window and drops the rest; built by
/// [`ObservableExt::throttle`](crate::ObservableExt::throttle).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "throttleFirst")]
#[doc(alias = "throttleTime")]
pub struct Throttle<S, Sch> {
    source: S,
    window: Duration,
    scheduler: Sch,
}

impl<S, Sch> Throttle<S, Sch> {
    pub(crate) fn new(source: S, window: Duration, scheduler: Sch) -> Self {
        Throttle {
            source,
            window,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for Throttle<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Throttle<S, Sch>
where
    S: Subscribe<ThrottleObserver<O, Sch>>,
    Sch: Scheduler,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ThrottleObserver {
            observer,
            window: self.window,
            scheduler: self.scheduler,
            closed_until: None,
        })
    }
}

/// The observer [`Throttle`] subscribes upstream.
#[derive(Debug)]
pub struct ThrottleObserver<O, Sch> {
    observer: O,
    window: Duration,
    scheduler: Sch,
    /// The end of the current window; values up to it, itself included, are dropped.
    closed_until: Option<Instant>,
}

impl<T, O, Sch> Observer<T> for ThrottleObserver<O, Sch>
where
    O: Observer<T>,
    Sch: Scheduler,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        // Comparing with the window's end is what a timer reopening the gate at that instant
        // would do (RxJava schedules one per window), without a task or a thread. A value at
        // the very end is still inside: in RxJS and RxJava 3 the source's notification of that
        // instant comes before the window's timer.
        let now = self.scheduler.now();
        if self.closed_until.is_none_or(|end| now > end) {
            self.closed_until = Some(now + self.window);
            self.observer.on_next(value);
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval, throw};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn first_value_of_each_window() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Values at 10, 20, ..., 100; windows of 35 open at 10, 50 and 90.
        interval(ms(10), sch.clone())
            .throttle(ms(35), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(100));
        o.assert_timeline(&[(ms(10), Next(0)), (ms(50), Next(4)), (ms(90), Next(8))]);
    }

    #[test]
    fn a_value_exactly_at_the_window_end_is_dropped() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Windows of 20 open at 10 and 40: the values at 30 and 60 fall on their ends.
        interval(ms(10), sch.clone())
            .throttle(ms(20), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(70));
        o.assert_timeline(&[(ms(10), Next(0)), (ms(40), Next(3)), (ms(70), Next(6))]);
    }

    #[test]
    fn synchronous_burst_keeps_only_the_first() {
        let o = TestObserver::new();
        from_iter(1..=5)
            .throttle(ms(1), TestScheduler::new())
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_completed();
    }

    #[test]
    fn zero_window_keeps_one_value_per_instant() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .throttle(Duration::ZERO, TestScheduler::new())
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_completed();

        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .throttle(Duration::ZERO, sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(20));
        o.assert_timeline(&[(ms(10), Next(0)), (ms(20), Next(1))]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::new();
        throw::<i32>(Error::msg("bad"))
            .throttle(ms(1), TestScheduler::new())
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn borrows_from_the_stack() {
        let sch = TestScheduler::new();
        let mut seen = Vec::new();
        from_iter([1, 2])
            .throttle(ms(5), sch)
            .subscribe(|v| seen.push(v));
        assert_eq!(seen, [1]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        o.dispose();
        from_iter(0..)
            .throttle(ms(5), sch)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
    }
}
