//! [`amb`]: whichever of several observables notifies first.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::operators::MergeSubscription;
use crate::operators::observers::AmbObserver;
use crate::sync::imp::BoxSubscription;
use std::marker::PhantomData;

/// An observable that subscribes to every observable of `observables`, in order, and mirrors
/// the first one to notify anything (a value, an error or completion); the others are
/// disposed at that moment. If one notifies inside its own `subscribe`, the ones after it
/// are not subscribed. With no observables it completes at once.
///
/// The observables are all of one type; to mix types, [`boxed`](crate::ObservableExt::boxed)
/// them, or race two with [`amb_with`](crate::ObservableExt::amb_with).
///
/// ```text
/// a:              ---1---2-|
/// b:              -3---4---|
/// amb([a, b]):    -3---4---|
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
/// let after = |ms, value| {
///     rx::source::timer(Duration::from_millis(ms), scheduler.clone()).map(move |_| value)
/// };
/// rx::source::amb([after(30, 'a'), after(10, 'b'), after(20, 'c')])
///     .subscribe_observer(observer.clone());
/// scheduler.run();
/// observer.assert_values(&['b']);
/// observer.assert_completed();
/// ```
///
/// # Performance
///
/// One allocation per subscription (the shared state) and one compare-and-swap per
/// notification until a winner is known; then the winner delivers directly, with no lock.
#[doc(alias = "race")]
pub fn amb<'a, I>(observables: I) -> Amb<'a, I>
where
    I: IntoIterator,
{
    Amb {
        observables,
        _handles: PhantomData,
    }
}

/// Mirrors whichever of several observables notifies first; built by [`amb`].
///
/// The lifetime `'a` bounds what the subscriptions' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Amb<'a, I> {
    observables: I,
    _handles: PhantomData<&'a ()>,
}

impl<I> Observable for Amb<'_, I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    type Item = <I::Item as Observable>::Item;
    type Flavour = <I::Item as Observable>::Flavour;
}

/// The flavour of the handles an [`Amb`] keeps.
type FlavourOf<I> = <<I as IntoIterator>::Item as Observable>::Flavour;

impl<'a, I, O> Subscribe<O> for Amb<'a, I>
where
    I: IntoIterator,
    I::Item: Subscribe<AmbObserver<'a, O, <I::Item as Observable>::Item, FlavourOf<I>>>,
    FlavourOf<I>:
        BoxSubscription<
                'a,
                <I::Item as Subscribe<
                    AmbObserver<'a, O, <I::Item as Observable>::Item, FlavourOf<I>>,
                >>::Subscription,
            >,
    O: Observer<<I::Item as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<I>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let Some(core) = AmbObserver::<_, _, FlavourOf<I>>::start(observer) else {
            return MergeSubscription::empty();
        };
        let mut count = 0;
        for (place, source) in (1..).zip(self.observables) {
            count = place;
            AmbObserver::subscribe(&core, place, source);
            if core.tag() != 0 {
                break;
            }
        }
        if count == 0 {
            AmbObserver::<_, _, FlavourOf<I>>::complete_empty(&core);
        }
        core.handle()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::amb;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{Just, just, never};
    use crate::testing::TestObserver;

    #[test]
    fn no_observables_completes_at_once() {
        let o = TestObserver::<i32>::new();
        amb(Vec::<Just<i32>>::new()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn a_synchronous_first_wins_and_the_rest_are_never_built() {
        let o = TestObserver::new();
        let mut made = 0;
        amb((0..).map(|v| {
            made += 1;
            just(v)
        }))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Completed]);
        assert_eq!(made, 1);
    }

    #[test]
    fn silent_sources_are_all_subscribed() {
        let o = TestObserver::<i32>::new();
        let handle = amb([never(), never()]).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        handle.dispose();
    }
}
