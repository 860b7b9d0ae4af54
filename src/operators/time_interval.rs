//! [`ObservableExt::time_interval`](crate::ObservableExt::time_interval).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::time::Instant;
use std::time::Duration;

/// Pairs each value with the time elapsed since the previous one; built by
/// [`ObservableExt::time_interval`](crate::ObservableExt::time_interval).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "timeInterval")]
pub struct TimeInterval<S, Sch> {
    source: S,
    scheduler: Sch,
}

impl<S, Sch> TimeInterval<S, Sch> {
    pub(crate) fn new(source: S, scheduler: Sch) -> Self {
        TimeInterval { source, scheduler }
    }
}

impl<S: Observable, Sch> Observable for TimeInterval<S, Sch> {
    type Item = (Duration, S::Item);
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for TimeInterval<S, Sch>
where
    S: Subscribe<TimeIntervalObserver<O, Sch>>,
    Sch: Scheduler,
    O: Observer<(Duration, <S as Observable>::Item)>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        // The first interval is measured from the subscription, as in RxJava and Rx.NET.
        let last = self.scheduler.now();
        self.source.subscribe_observer(TimeIntervalObserver {
            observer,
            scheduler: self.scheduler,
            last,
        })
    }
}

/// The observer [`TimeInterval`] subscribes upstream.
#[derive(Debug)]
pub struct TimeIntervalObserver<O, Sch> {
    observer: O,
    scheduler: Sch,
    last: Instant,
}

impl<T, O, Sch> Observer<T> for TimeIntervalObserver<O, Sch>
where
    O: Observer<(Duration, T)>,
    Sch: Scheduler,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let now = self.scheduler.now();
        let elapsed = now.saturating_duration_since(self.last);
        self.last = now;
        self.observer.on_next((elapsed, value))
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
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval, throw};
    use crate::testing::TestObserver;
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn measures_from_the_subscription_then_between_values() {
        let sch = TestScheduler::new();
        sch.advance_by(ms(1000));
        let o = TestObserver::new();
        interval(ms(100), sch.clone())
            .time_interval(sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(300));
        o.assert_values(&[(ms(100), 0), (ms(100), 1), (ms(100), 2)]);
    }

    #[test]
    fn uneven_gaps() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        // 10, 30, 60: the gaps of a filtered interval.
        interval(ms(10), sch.clone())
            .filter(|v| matches!(v, 0 | 2 | 5))
            .time_interval(sch.clone())
            .map(|(gap, _)| gap)
            .subscribe_observer(o.clone());
        sch.advance_by(ms(60));
        o.assert_values(&[ms(10), ms(20), ms(30)]);
    }

    #[test]
    fn synchronous_source_has_zero_gaps() {
        let o = TestObserver::new();
        from_iter(['a', 'b'])
            .time_interval(TestScheduler::new())
            .subscribe_observer(o.clone());
        o.assert_values(&[(Duration::ZERO, 'a'), (Duration::ZERO, 'b')]);
        o.assert_completed();
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::new();
        throw::<i32>(Error::msg("bad"))
            .time_interval(TestScheduler::new())
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }
}
