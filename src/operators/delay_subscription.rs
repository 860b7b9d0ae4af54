//! [`ObservableExt::delay_subscription`](crate::ObservableExt::delay_subscription) and
//! [`ObservableExt::delay_subscription_until`](crate::ObservableExt::delay_subscription_until).

use super::subscribe_on::Start;
use crate::observable::{Observable, Subscribe};
use crate::operators::SubscribeOn;
use crate::schedulers::Scheduler;
use crate::time::Instant;
use std::time::Duration;

/// Subscribes to the source only after a delay, or at an instant; built by
/// [`ObservableExt::delay_subscription`](crate::ObservableExt::delay_subscription) and
/// [`ObservableExt::delay_subscription_until`](crate::ObservableExt::delay_subscription_until).
///
/// It is [`SubscribeOn`] with a due time: the subscribing task waits for it on the worker.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "delaySubscription")]
pub struct DelaySubscription<S, Sch>(SubscribeOn<S, Sch>);

impl<S, Sch: Scheduler> DelaySubscription<S, Sch> {
    pub(crate) fn after(source: S, delay: Duration, scheduler: Sch) -> Self {
        DelaySubscription(SubscribeOn::starting(
            source,
            scheduler,
            Start::After(delay),
        ))
    }

    pub(crate) fn at(source: S, due: Instant, scheduler: Sch) -> Self {
        DelaySubscription(SubscribeOn::starting(source, scheduler, Start::At(due)))
    }
}

impl<S: Observable, Sch> Observable for DelaySubscription<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for DelaySubscription<S, Sch>
where
    S: Observable,
    SubscribeOn<S, Sch>: Subscribe<O, Item = <S as Observable>::Item>,
{
    type Subscription = <SubscribeOn<S, Sch> as Subscribe<O>>::Subscription;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.0.subscribe_observer(observer)
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_source_is_subscribed_after_the_delay() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // A cold source's own times count from its subscription, at 30.
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(20), Next(2)), (ms(25), Completed)],
        )
        .delay_subscription(ms(30), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(40), Next(1)), (ms(50), Next(2)), (ms(55), Completed)]);
    }

    #[test]
    fn nothing_is_subscribed_before_the_delay() {
        let sch = TestScheduler::new();
        let subscribed = Arc::new(AtomicUsize::new(0));
        let counter = subscribed.clone();
        let o = TimedObserver::new(&sch);
        crate::source::defer(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            from_iter([7])
        })
        .delay_subscription(ms(100), sch.clone())
        .subscribe_observer(o.clone());
        sch.advance_by(ms(99));
        assert_eq!(subscribed.load(Ordering::SeqCst), 0);
        sch.advance_by(ms(1));
        assert_eq!(subscribed.load(Ordering::SeqCst), 1);
        o.assert_timeline(&[(ms(100), Next(7)), (ms(100), Completed)]);
    }

    #[test]
    fn an_instant_in_the_past_subscribes_at_once_on_the_worker() {
        let sch = TestScheduler::new();
        sch.advance_by(ms(50));
        let o = TimedObserver::new(&sch);
        from_iter([1, 2])
            .delay_subscription_until(sch.start(), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_timeline(&[]);
        sch.advance_by(Duration::ZERO);
        // The observer's clock starts at 50.
        o.assert_timeline(&[(ms(0), Next(1)), (ms(0), Next(2)), (ms(0), Completed)]);
    }

    #[test]
    fn delay_subscription_until_waits_for_the_instant() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        from_iter([1])
            .delay_subscription_until(sch.start() + ms(70), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(70), Next(1)), (ms(70), Completed)]);
    }

    #[test]
    fn disposing_before_the_delay_never_subscribes() {
        let sch = TestScheduler::new();
        let o = TestObserver::<u64>::new();
        let handle = interval(ms(10), sch.clone())
            .delay_subscription(ms(100), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(50));
        handle.dispose();
        assert!(sch.is_empty());
        sch.run();
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposing_after_the_delay_disposes_the_source() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .delay_subscription(ms(100), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(125));
        o.assert_values(&[0, 1]);
        handle.dispose();
        assert!(sch.is_empty());
    }

    #[test]
    fn errors_pass_through() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        throw::<i32>(Error::msg("bad"))
            .delay_subscription(ms(5), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(5), Error(Error::msg("bad")))]);
    }
}
