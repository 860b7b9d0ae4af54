//! [`ObservableExt::retry_with_backoff`](crate::ObservableExt::retry_with_backoff).

use crate::engine::resubscribe::{
    self, Decision, Ended, KeepNotifier, NotifierHandle, Policy, ResubscribeNotifier,
    ResubscribeObserver, ResubscribeSubscription,
};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::source::{Timer, timer};
use crate::subscription::Subscription;
use crate::sync::Shared;
use std::time::Duration;

/// Subscribes to the source again after each error, waiting longer each time; built by
/// [`ObservableExt::retry_with_backoff`](crate::ObservableExt::retry_with_backoff).
///
/// It takes only thread-safe sources, unlike [`retry`](crate::ObservableExt::retry) and
/// [`retry_when`](crate::ObservableExt::retry_when): each wait is a timer on the scheduler,
/// and it is the timer's task, on the scheduler's worker (which may run on another thread),
/// that subscribes to the source again. So the source, its handle and the observer must be
/// `Send`, and a local subject's or a `boxed_local()` observable is refused at compile time.
/// To retry a local source after a delay, use `retry_when` with a notifier of the same
/// flavour.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct RetryWithBackoff<S, Sch> {
    source: S,
    backoff: Backoff<Sch>,
}

impl<S, Sch> RetryWithBackoff<S, Sch> {
    pub(crate) fn new(
        source: S,
        retries: usize,
        initial: Duration,
        max: Duration,
        scheduler: Sch,
    ) -> Self {
        RetryWithBackoff {
            source,
            backoff: Backoff {
                retries,
                initial,
                max,
                scheduler,
                attempt: 0,
                next: None,
            },
        }
    }
}

impl<S: Observable, Sch> Observable for RetryWithBackoff<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

/// The policy of a [`RetryWithBackoff`] subscription: a timer for each retry, of
/// `min(initial × 2^(n−1), max)` for the `n`th.
#[derive(Clone, Debug)]
pub struct Backoff<Sch> {
    retries: usize,
    initial: Duration,
    max: Duration,
    scheduler: Sch,
    /// Errors so far.
    attempt: u32,
    next: Option<Timer<Sch>>,
}

/// The wait before retry number `n` (from 1): `min(initial × 2^(n−1), max)`, saturating.
pub(crate) fn backoff_delay(initial: Duration, max: Duration, n: u32) -> Duration {
    let factor = 1u32.checked_shl(n.saturating_sub(1)).unwrap_or(u32::MAX);
    initial.saturating_mul(factor).min(max)
}

impl<Sch: Scheduler + Clone> Policy for Backoff<Sch> {
    type Notifier = Timer<Sch>;

    fn decide(&mut self, ended: Ended<'_>) -> Decision {
        match ended {
            Ended::Error(_) if (self.attempt as usize) < self.retries => {
                self.attempt += 1;
                let delay = backoff_delay(self.initial, self.max, self.attempt);
                self.next = Some(timer(delay, self.scheduler.clone()));
                Decision::Wait
            }
            _ => Decision::Deliver,
        }
    }

    fn take_notifier(&mut self) -> Option<Timer<Sch>> {
        self.next.take()
    }
}

impl<S, O, Sch> KeepNotifier<S, O, Shared> for Backoff<Sch>
where
    Sch: Scheduler + Clone,
    Timer<Sch>: Subscribe<ResubscribeNotifier<S, O, Self, Shared>>,
    NotifierHandle<S, O, Self, Shared>: Send + 'static,
{
    type Handle = NotifierHandle<S, O, Self, Shared>;

    fn subscribe_notifier(
        notifier: Timer<Sch>,
        observer: ResubscribeNotifier<S, O, Self, Shared>,
    ) -> Self::Handle {
        notifier.subscribe_observer(observer)
    }

    fn keep(handle: Self::Handle) -> Box<dyn Subscription + Send> {
        Box::new(handle)
    }
}

type P<Sch> = Backoff<Sch>;

impl<S, Sch, O> Subscribe<O> for RetryWithBackoff<S, Sch>
where
    S: Subscribe<ResubscribeObserver<S, O, P<Sch>>> + Clone,
    <S as Subscribe<ResubscribeObserver<S, O, P<Sch>>>>::Subscription: Send + 'static,
    Sch: Scheduler + Clone,
    Timer<Sch>: Subscribe<ResubscribeNotifier<S, O, P<Sch>>>,
    <Timer<Sch> as Subscribe<ResubscribeNotifier<S, O, P<Sch>>>>::Subscription: Send + 'static,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = ResubscribeSubscription<S, O, P<Sch>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        resubscribe::subscribe_with(self.source, observer, self.backoff, false)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::backoff_delay;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::test_kit::scripted::scripted;
    use crate::testing::TimedObserver;
    use crate::{Error, Notification::*};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_delays_double_up_to_the_cap() {
        let d: Vec<_> = (1..=6)
            .map(|n| backoff_delay(ms(100), ms(1000), n))
            .collect();
        assert_eq!(d, [ms(100), ms(200), ms(400), ms(800), ms(1000), ms(1000)]);
        assert_eq!(backoff_delay(ms(1), Duration::MAX, 200), ms(1) * u32::MAX);
    }

    #[test]
    fn retries_after_each_delay_then_passes_the_last_error() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = scripted(|n| (vec![n as i32], Some("down")));
        source
            .clone()
            .retry_with_backoff(3, ms(100), ms(250), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(0)),
            (ms(100), Next(1)),
            (ms(300), Next(2)),
            (ms(550), Next(3)),
            (ms(550), Error(Error::msg("down"))),
        ]);
        assert_eq!(source.subscribed(), 4);
    }

    #[test]
    fn success_ends_it() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = scripted(|n| match n {
            0 => (vec![], Some("down")),
            _ => (vec![5], None),
        });
        source
            .retry_with_backoff(5, ms(10), ms(1000), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(5)), (ms(10), Completed)]);
    }
}
