//! [`ObservableExt::repeat_when`](crate::ObservableExt::repeat_when).

use crate::engine::resubscribe::{
    self, Decision, Ended, KeepNotifier, NotifierHandle, Policy, ResubscribeNotifier,
    ResubscribeObserver, ResubscribeSubscription,
};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined};
use std::fmt;

/// Subscribes to the source again when a notifier, made at each completion, emits; built by
/// [`ObservableExt::repeat_when`](crate::ObservableExt::repeat_when).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "repeatWhen")]
pub struct RepeatWhen<S, F> {
    source: S,
    f: F,
}

impl<S, F> RepeatWhen<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        RepeatWhen { source, f }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for RepeatWhen<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepeatWhen")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, F, N> Observable for RepeatWhen<S, F>
where
    S: Observable,
    F: FnMut(u32) -> N,
    N: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, N>;
    // Attempts and notifiers are all subscribed by the loop of its `subscribe`.
    const EMISSION: crate::observable::Emission = S::EMISSION.and(N::EMISSION);
}

/// The flavour of the handles a [`RepeatWhen`] keeps: the source's and the notifiers'.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

/// The policy of a [`RepeatWhen`] subscription: the notifier for each completion, and how
/// many completions there have been.
pub struct OnCompletedNotifier<F, N> {
    f: F,
    completions: u32,
    next: Option<N>,
}

impl<F, N> Policy for OnCompletedNotifier<F, N>
where
    F: FnMut(u32) -> N,
{
    type Notifier = N;

    fn decide(&mut self, ended: Ended<'_>) -> Decision {
        match ended {
            Ended::Completed => {
                self.completions = self.completions.saturating_add(1);
                self.next = Some((self.f)(self.completions));
                Decision::Wait
            }
            Ended::Error(_) => Decision::Deliver,
        }
    }

    fn take_notifier(&mut self) -> Option<N> {
        self.next.take()
    }
}

impl<S, O, Fl, F, N> KeepNotifier<S, O, Fl> for OnCompletedNotifier<F, N>
where
    F: FnMut(u32) -> N,
    N: Subscribe<ResubscribeNotifier<S, O, Self, Fl>>,
    Fl: Flavour + BoxSubscription<'static, NotifierHandle<S, O, Self, Fl>>,
{
    type Handle = NotifierHandle<S, O, Self, Fl>;

    fn subscribe_notifier(
        notifier: N,
        observer: ResubscribeNotifier<S, O, Self, Fl>,
    ) -> Self::Handle {
        notifier.subscribe_observer(observer)
    }

    fn keep(handle: Self::Handle) -> Fl::BoxedSubscription<'static> {
        Fl::box_subscription(handle)
    }
}

impl<F, N> fmt::Debug for OnCompletedNotifier<F, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnCompletedNotifier")
            .field("completions", &self.completions)
            .finish_non_exhaustive()
    }
}

type P<F, N> = OnCompletedNotifier<F, N>;
/// The observer of one attempt, as a type.
type Attempt<S, O, F, N> = ResubscribeObserver<S, O, P<F, N>, FlavourOf<S, N>>;
/// The observer of one notifier, as a type.
type Notifier<S, O, F, N> = ResubscribeNotifier<S, O, P<F, N>, FlavourOf<S, N>>;

impl<S, F, N, O> Subscribe<O> for RepeatWhen<S, F>
where
    S: Subscribe<Attempt<S, O, F, N>> + Clone,
    F: FnMut(u32) -> N,
    N: Subscribe<Notifier<S, O, F, N>>,
    FlavourOf<S, N>: BoxSubscription<'static, <S as Subscribe<Attempt<S, O, F, N>>>::Subscription>
        + BoxSubscription<'static, <N as Subscribe<Notifier<S, O, F, N>>>::Subscription>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = ResubscribeSubscription<S, O, P<F, N>, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let policy = OnCompletedNotifier {
            f: self.f,
            completions: 0,
            next: None,
        };
        resubscribe::subscribe_with(
            self.source,
            observer,
            policy,
            const { <Self as Observable>::EMISSION.is_inside_subscribe() },
        )
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, throw, timer};
    use crate::testing::{TestObserver, TimedObserver};
    use crate::{Error, Notification::*};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn repeats_after_each_delay_until_the_notifier_completes_empty() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        from_iter([1, 2])
            .repeat_when(move |n| {
                if n < 3 {
                    timer(ms(10), inner_sch.clone()).boxed()
                } else {
                    empty().boxed()
                }
            })
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(1)),
            (ms(0), Next(2)),
            (ms(10), Next(1)),
            (ms(10), Next(2)),
            (ms(20), Next(1)),
            (ms(20), Next(2)),
            (ms(20), Completed),
        ]);
    }

    #[test]
    fn an_error_passes_through_and_a_notifier_error_ends_it() {
        let o = TestObserver::<i32>::new();
        let mut calls = 0;
        throw(Error::msg("source"))
            .repeat_when(|_| {
                calls += 1;
                just(())
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("source"))]);
        assert_eq!(calls, 0);

        let o = TestObserver::new();
        just(1)
            .repeat_when(|_| throw::<()>(Error::msg("notifier")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("notifier"))]);
    }

    #[test]
    fn synchronous_repeats_are_counted_from_one() {
        let o = TestObserver::new();
        let mut counts = Vec::new();
        just('x')
            .repeat_when(|n| {
                counts.push(n);
                just(()).take(if n < 4 { 1 } else { 0 })
            })
            .subscribe_observer(o.clone());
        o.assert_values(&['x', 'x', 'x', 'x']);
        o.assert_completed();
        assert_eq!(counts, [1, 2, 3, 4]);
    }
}
