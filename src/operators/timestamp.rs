//! [`ObservableExt::timestamp`](crate::ObservableExt::timestamp).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::time::Instant;

/// Pairs each value with the instant it arrived; built by
/// [`ObservableExt::timestamp`](crate::ObservableExt::timestamp).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Timestamp<S, Sch> {
    source: S,
    scheduler: Sch,
}

impl<S, Sch> Timestamp<S, Sch> {
    pub(crate) fn new(source: S, scheduler: Sch) -> Self {
        Timestamp { source, scheduler }
    }
}

impl<S: Observable, Sch> Observable for Timestamp<S, Sch> {
    type Item = (Instant, S::Item);
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Timestamp<S, Sch>
where
    S: Subscribe<TimestampObserver<O, Sch>>,
    Sch: Scheduler,
    O: Observer<(Instant, <S as Observable>::Item)>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TimestampObserver {
            observer,
            scheduler: self.scheduler,
        })
    }
}

/// The observer [`Timestamp`] subscribes upstream.
#[derive(Debug)]
pub struct TimestampObserver<O, Sch> {
    observer: O,
    scheduler: Sch,
}

impl<T, O, Sch> Observer<T> for TimestampObserver<O, Sch>
where
    O: Observer<(Instant, T)>,
    Sch: Scheduler,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next((self.scheduler.now(), value))
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

    #[test]
    fn stamps_each_value_with_the_scheduler_clock() {
        let sch = TestScheduler::new();
        let start = sch.now();
        let o = TestObserver::new();
        interval(Duration::from_millis(100), sch.clone())
            .timestamp(sch.clone())
            .map(move |(at, v)| (at - start, v))
            .subscribe_observer(o.clone());
        sch.advance_by(Duration::from_millis(300));
        o.assert_values(&[
            (Duration::from_millis(100), 0),
            (Duration::from_millis(200), 1),
            (Duration::from_millis(300), 2),
        ]);
    }

    #[test]
    fn synchronous_source_gets_one_instant() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2])
            .timestamp(sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[(sch.now(), 1), (sch.now(), 2)]);
        o.assert_completed();
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::new();
        throw::<i32>(Error::msg("bad"))
            .timestamp(TestScheduler::new())
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .timestamp(TestScheduler::new())
            .map(|(_, v)| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
    }
}
