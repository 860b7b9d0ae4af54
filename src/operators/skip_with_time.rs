//! [`ObservableExt::skip_with_time`](crate::ObservableExt::skip_with_time): a
//! [`skip_until`](crate::ObservableExt::skip_until) whose notifier is a [`timer`] started at
//! the subscription, as RxJava builds its `skip(time)`.

use super::skip_until::SkipUntil;
use crate::observable::{Observable, Subscribe};
use crate::schedulers::Scheduler;
use crate::source::{Timer, timer};
use std::time::Duration;

/// Drops the values of its source that arrive within a span of time from the subscription;
/// built by [`ObservableExt::skip_with_time`](crate::ObservableExt::skip_with_time).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "skip")]
pub struct SkipWithTime<'a, S, Sch>(SkipUntil<'a, S, Timer<Sch>>);

impl<S, Sch: Scheduler> SkipWithTime<'_, S, Sch> {
    pub(crate) fn new(source: S, span: Duration, scheduler: Sch) -> Self {
        SkipWithTime(SkipUntil::new(source, timer(span, scheduler)))
    }
}

impl<'a, S: Observable, Sch> Observable for SkipWithTime<'a, S, Sch>
where
    SkipUntil<'a, S, Timer<Sch>>: Observable<Item = S::Item>,
{
    type Item = S::Item;
    type Flavour = <SkipUntil<'a, S, Timer<Sch>> as Observable>::Flavour;
}

impl<'a, S: Observable, Sch, O> Subscribe<O> for SkipWithTime<'a, S, Sch>
where
    SkipUntil<'a, S, Timer<Sch>>: Subscribe<O> + Observable<Item = S::Item>,
{
    type Subscription = <SkipUntil<'a, S, Timer<Sch>> as Subscribe<O>>::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.0.subscribe_observer(observer)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval, never, throw};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn emits_what_arrives_after_the_span() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .take(5)
            .skip_with_time(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(30), Next(2)),
            (ms(40), Next(3)),
            (ms(50), Next(4)),
            (ms(50), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn a_synchronous_source_ends_before_the_span_and_cancels_the_timer() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=3)
            .skip_with_time(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(sch.is_empty());
    }

    #[test]
    fn an_error_within_the_span_passes() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .skip_with_time(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_error("bad");
        assert!(sch.is_empty());
    }

    #[test]
    fn disposing_cancels_the_timer() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        let handle = never()
            .skip_with_time(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(sch.is_empty());
        sch.run();
        o.assert_not_terminated();
    }
}
