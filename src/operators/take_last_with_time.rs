//! [`ObservableExt::take_last_with_time`](crate::ObservableExt::take_last_with_time).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::time::Instant;
use std::collections::VecDeque;
use std::time::Duration;

/// Emits, when the source completes, the values that arrived within a span of time before;
/// built by [`ObservableExt::take_last_with_time`](crate::ObservableExt::take_last_with_time).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "takeLast")]
pub struct TakeLastWithTime<S, Sch> {
    source: S,
    span: Duration,
    scheduler: Sch,
}

impl<S, Sch> TakeLastWithTime<S, Sch> {
    pub(crate) fn new(source: S, span: Duration, scheduler: Sch) -> Self {
        TakeLastWithTime {
            source,
            span,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for TakeLastWithTime<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for TakeLastWithTime<S, Sch>
where
    S: Subscribe<TakeLastWithTimeObserver<O, <S as Observable>::Item, Sch>>,
    Sch: Scheduler,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TakeLastWithTimeObserver {
            observer,
            span: self.span,
            scheduler: self.scheduler,
            values: VecDeque::new(),
        })
    }
}

/// The observer [`TakeLastWithTime`] subscribes upstream.
#[derive(Debug)]
pub struct TakeLastWithTimeObserver<O, T, Sch> {
    observer: O,
    span: Duration,
    scheduler: Sch,
    /// The values of the last `span`, oldest first, with the instant each arrived.
    values: VecDeque<(Instant, T)>,
}

impl<O, T, Sch: Scheduler> TakeLastWithTimeObserver<O, T, Sch> {
    /// Drops the values that arrived more than `span` before `now`: they cannot be among the
    /// last any more, whenever the source completes.
    fn trim(&mut self, now: Instant) {
        while self
            .values
            .front()
            .is_some_and(|(at, _)| now.saturating_duration_since(*at) > self.span)
        {
            self.values.pop_front();
        }
    }
}

impl<T, O: Observer<T>, Sch: Scheduler> Observer<T> for TakeLastWithTimeObserver<O, T, Sch> {
    #[inline]
    fn on_next(&mut self, value: T) {
        let now = self.scheduler.now();
        self.trim(now);
        self.values.push_back((now, value));
    }

    #[inline]
    fn on_error(self, error: Error) {
        // As in RxJava, an error discards the values: they are not known to be last.
        drop(self.values);
        self.observer.on_error(error)
    }

    fn on_completed(mut self) {
        // The span is measured back from the completion, read once (RxJava's
        // `lastWindowIsFixedInTime`): a slow downstream does not shorten it.
        let now = self.scheduler.now();
        self.trim(now);
        let mut observer = self.observer;
        for (_, value) in self.values {
            if observer.is_disposed() {
                return;
            }
            observer.on_next(value);
        }
        if !observer.is_disposed() {
            observer.on_completed();
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
    use crate::source::{empty, from_iter, interval};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn emits_the_values_of_the_last_span_at_completion() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Values at 10, 20, ..., 60; completion at 60; the span reaches back to 35.
        interval(ms(10), sch.clone())
            .take(6)
            .take_last_with_time(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(60), Next(3)),
            (ms(60), Next(4)),
            (ms(60), Next(5)),
            (ms(60), Completed),
        ]);
    }

    #[test]
    fn a_value_exactly_one_span_old_is_kept() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .take(3)
            .take_last_with_time(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn a_synchronous_source_keeps_everything() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=3)
            .take_last_with_time(ms(1), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
        let o = TestObserver::<i32>::new();
        empty()
            .take_last_with_time(ms(1), sch)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn a_downstream_that_quits_mid_way_gets_nothing_more() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=5)
            .take_last_with_time(ms(1), sch)
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }
}
