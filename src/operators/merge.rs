//! [`ObservableExt::merge`](crate::ObservableExt::merge): `flat_map` with the identity
//! projection, on the merge core in [`engine::merge_core`](crate::engine::merge_core).

use crate::engine::flatten::{FlatMap, Mode};
use crate::engine::merge_core::MergeSubscription;
use crate::engine::projection::{Identity, identity};
use crate::observable::{Observable, Subscribe};
use std::marker::PhantomData;

/// Flattens an observable of observables by merging them; built by
/// [`ObservableExt::merge`](crate::ObservableExt::merge).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "merge_all")]
#[doc(alias = "mergeAll")]
#[doc(alias = "flatten")]
pub struct MergeAll<'a, S> {
    source: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> MergeAll<'_, S> {
    pub(crate) fn new(source: S) -> Self {
        MergeAll {
            source,
            _handles: PhantomData,
        }
    }
}

impl<S> Observable for MergeAll<'_, S>
where
    S: Observable,
    S::Item: Observable,
{
    type Item = <S::Item as Observable>::Item;
    type Flavour =
        crate::sync::Joined<<S as Observable>::Flavour, <S::Item as Observable>::Flavour>;
    // Every inner is subscribed from inside the outer's calls.
    const EMISSION: crate::observable::Emission =
        S::EMISSION.and(<S::Item as Observable>::EMISSION);
}

impl<'a, S, O> Subscribe<O> for MergeAll<'a, S>
where
    S: Observable,
    <S as Observable>::Item: Observable,
    FlatMap<'a, S, Identity<<S as Observable>::Item>>:
        Subscribe<O, Subscription = MergeSubscription<'a, <Self as Observable>::Flavour>>,
{
    type Subscription = MergeSubscription<'a, <Self as Observable>::Flavour>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        FlatMap::with_mode(self.source, identity as Identity<_>, Mode::MERGE)
            .subscribe_observer(observer)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::{self, *};
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just, never, throw};
    use crate::testing::TestObserver;

    #[test]
    fn merges_inner_observables_in_subscription_order_when_synchronous() {
        let o = TestObserver::new();
        from_iter([from_iter(vec![1, 2]), from_iter(vec![]), from_iter(vec![3])])
            .merge()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn inners_that_return_without_terminating_free_their_places() {
        // `never` returns a finished handle and never terminates: each inner's place is
        // freed when its `subscribe` returns, or the third would find none.
        let o = TestObserver::<i32>::new();
        let handle = from_iter(0..5)
            .map(|_| never())
            .merge()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(!handle.is_disposed());
    }

    #[test]
    fn empty_outer_completes() {
        let o = TestObserver::<i32>::new();
        empty::<crate::source::Just<i32>>()
            .merge()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn waits_for_an_inner_that_never_completes() {
        let o = TestObserver::new();
        let handle = from_iter([just(1).boxed(), never().boxed()])
            .merge()
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_not_terminated();
        // `never` drops its observer and returns a finished handle: nothing left to cancel.
        assert!(!handle.is_disposed());
    }

    #[test]
    fn inner_error_ends_everything_and_stops_the_outer() {
        let o = TestObserver::new();
        let mut subscribed = 0;
        from_iter(0..)
            .map(|v| {
                subscribed += 1;
                if v == 2 {
                    throw(Error::msg("inner")).boxed()
                } else {
                    just(v).boxed()
                }
            })
            .merge()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Next(1), Notification::Error(Error::msg("inner"))]);
        assert_eq!(subscribed, 3);
    }

    #[test]
    fn outer_error_ends_everything() {
        let o = TestObserver::<i32>::new();
        throw::<crate::source::Just<i32>>(Error::msg("outer"))
            .merge()
            .subscribe_observer(o.clone());
        o.assert_error("outer");
    }

    #[test]
    fn downstream_disposal_stops_an_endless_outer() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(move |v| {
                if v == 3 {
                    probe.dispose();
                }
                just(v)
            })
            .merge()
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn types_are_send_and_sync_when_their_parts_are() {
        use crate::operators::observers::*;
        use crate::operators::*;
        use crate::source::{Just, Merge};
        use static_assertions::{assert_impl_all, assert_not_impl_any};
        type F = fn(i32) -> Just<i32>;
        type J = Just<i32>;
        assert_impl_all!(MergeSubscription<'static>: Send, Sync, Clone);
        assert_impl_all!(FlatMap<'static, J, F>: Send, Sync, Clone);
        assert_impl_all!(MergeAll<'static, Just<J>>: Send, Sync, Clone);
        assert_impl_all!(MergeMax<'static, Just<J>>: Send, Sync, Clone);
        assert_impl_all!(ConcatAll<'static, Just<J>>: Send, Sync, Clone);
        assert_impl_all!(ConcatMap<'static, J, F>: Send, Sync, Clone);
        assert_impl_all!(SwitchMap<'static, J, F>: Send, Sync, Clone);
        assert_impl_all!(SwitchOnNext<'static, Just<J>>: Send, Sync, Clone);
        assert_impl_all!(ExhaustMap<'static, J, F>: Send, Sync, Clone);
        assert_impl_all!(MergeWith<'static, J, J>: Send, Sync, Clone);
        assert_impl_all!(TakeUntil<'static, J, J>: Send, Sync, Clone);
        assert_impl_all!(SkipUntil<'static, J, J>: Send, Sync, Clone);
        assert_impl_all!(AmbWith<'static, J, J>: Send, Sync, Clone);
        assert_impl_all!(Merge<'static, Vec<J>>: Send, Sync, Clone);
        assert_impl_all!(crate::source::Amb<'static, Vec<J>>: Send, Sync, Clone);
        // The observers handed upstream are `Send` exactly when the downstream is.
        type Down = TestObserver<i32>;
        type Local = crate::observer::NextObserver<std::rc::Rc<i32>>;
        assert_impl_all!(FlatMapInner<'static, Down, J>: Send, Sync);
        assert_impl_all!(FlatMapOuter<'static, Down, F, J>: Send, Sync);
        assert_impl_all!(MergeWithObserver<'static, Down, i32>: Send, Sync);
        assert_impl_all!(AmbObserver<'static, Down, i32>: Send, Sync);
        assert_not_impl_any!(FlatMapInner<'static, Local, J>: Send, Sync);
        assert_not_impl_any!(MergeWithObserver<'static, Local, i32>: Send, Sync);
    }

    #[test]
    fn disposed_downstream_subscribes_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut called = false;
        from_iter([1])
            .map(|v| {
                called = true;
                just(v)
            })
            .merge()
            .subscribe_observer(o.clone());
        assert!(!called);
        o.assert_notifications(&[]);
    }
}
