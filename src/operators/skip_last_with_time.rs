//! [`ObservableExt::skip_last_with_time`](crate::ObservableExt::skip_last_with_time).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::time::Instant;
use std::collections::VecDeque;
use std::time::Duration;

/// Drops the values that arrive within a span of time before the source completes; built by
/// [`ObservableExt::skip_last_with_time`](crate::ObservableExt::skip_last_with_time).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "skipLast")]
pub struct SkipLastWithTime<S, Sch> {
    source: S,
    span: Duration,
    scheduler: Sch,
}

impl<S, Sch> SkipLastWithTime<S, Sch> {
    pub(crate) fn new(source: S, span: Duration, scheduler: Sch) -> Self {
        SkipLastWithTime {
            source,
            span,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for SkipLastWithTime<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for SkipLastWithTime<S, Sch>
where
    S: Subscribe<SkipLastWithTimeObserver<O, <S as Observable>::Item, Sch>>,
    Sch: Scheduler,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(SkipLastWithTimeObserver {
            observer,
            span: self.span,
            scheduler: self.scheduler,
            values: VecDeque::new(),
        })
    }
}

/// The observer [`SkipLastWithTime`] subscribes upstream.
#[derive(Debug)]
pub struct SkipLastWithTimeObserver<O, T, Sch> {
    observer: O,
    span: Duration,
    scheduler: Sch,
    /// The values younger than `span`, oldest first, with the instant each arrived.
    values: VecDeque<(Instant, T)>,
}

impl<O, T, Sch: Scheduler> SkipLastWithTimeObserver<O, T, Sch> {
    /// Emits the values that arrived `span` or more before `now`: they cannot be among the
    /// last any more (RxJava lets them go at the next notification, as here; no timer).
    fn emit_old(&mut self, now: Instant)
    where
        O: Observer<T>,
    {
        while self
            .values
            .front()
            .is_some_and(|(at, _)| now.saturating_duration_since(*at) >= self.span)
        {
            if self.observer.is_disposed() {
                self.values.clear();
                return;
            }
            if let Some((_, value)) = self.values.pop_front() {
                self.observer.on_next(value);
            }
        }
    }
}

impl<T, O: Observer<T>, Sch: Scheduler> Observer<T> for SkipLastWithTimeObserver<O, T, Sch> {
    #[inline]
    fn on_next(&mut self, value: T) {
        let now = self.scheduler.now();
        self.values.push_back((now, value));
        self.emit_old(now);
    }

    #[inline]
    fn on_error(self, error: Error) {
        drop(self.values);
        self.observer.on_error(error)
    }

    fn on_completed(mut self) {
        let now = self.scheduler.now();
        self.emit_old(now);
        drop(self.values);
        if !self.observer.is_disposed() {
            self.observer.on_completed();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_value_goes_once_it_is_a_span_old_at_a_later_notification() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Values at 10, 20, ..., 60, completion at 60: each value goes when one 20 younger
        // arrives; those of 50 and 60 are among the last 20 and dropped.
        interval(ms(10), sch.clone())
            .take(6)
            .skip_last_with_time(ms(20), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(30), Next(0)),
            (ms(40), Next(1)),
            (ms(50), Next(2)),
            (ms(60), Next(3)),
            (ms(60), Completed),
        ]);
    }

    #[test]
    fn a_synchronous_source_emits_nothing() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=3)
            .skip_last_with_time(ms(1), sch)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn a_zero_span_drops_nothing() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=3)
            .skip_last_with_time(Duration::ZERO, sch)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn a_downstream_that_quits_mid_way_gets_nothing_more() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=5)
            .skip_last_with_time(Duration::ZERO, sch)
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }
}
