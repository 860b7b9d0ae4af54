//! [`merge`]: the values of several observables as they come.

use crate::observable::{Observable, Subscribe};
use crate::operators::{MergeAll, MergeSubscription};
use crate::source::{FromIter, from_iter};

/// An observable that subscribes to every observable of `observables` at once and emits
/// their values as they come; it completes once all of them have completed (at once when
/// there is none).
///
/// Values arriving from several threads at once are delivered one at a time. The
/// observables are all of one type; to mix types, [`boxed`](crate::ObservableExt::boxed)
/// them, or merge two with [`merge_with`](crate::ObservableExt::merge_with). It is
/// `from_iter(observables).merge()`.
///
/// ```text
/// a:              -1---3-|
/// b:              ---2------4-|
/// merge([a, b]):  -1-2-3----4-|
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::merge([rx::source::just(1), rx::source::just(2)])
///     .subscribe_observer(observer.clone());
/// observer.assert_values(&[1, 2]);
/// observer.assert_completed();
/// ```
///
/// # Errors
///
/// The first error ends the sequence; every observable still running is disposed, and the
/// ones not yet subscribed are not.
///
/// # Performance
///
/// As [`flat_map`](crate::ObservableExt::flat_map): one allocation per subscription, one
/// uncontended lock per value.
#[doc(alias = "merge_array")]
#[doc(alias = "mergeArray")]
pub fn merge<'a, I>(observables: I) -> Merge<'a, I>
where
    I: IntoIterator,
{
    Merge {
        inner: MergeAll::new(from_iter(observables)),
    }
}

/// Emits the values of several observables as they come; built by [`merge`].
///
/// The lifetime `'a` bounds what the inner subscriptions' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Merge<'a, I> {
    inner: MergeAll<'a, FromIter<I>>,
}

impl<I> Observable for Merge<'_, I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    type Item = <I::Item as Observable>::Item;
    type Flavour = <I::Item as Observable>::Flavour;
}

impl<'a, I, O> Subscribe<O> for Merge<'a, I>
where
    I: IntoIterator,
    I::Item: Observable,
    MergeAll<'a, FromIter<I>>:
        Subscribe<O, Subscription = MergeSubscription<'a, <Self as Observable>::Flavour>>,
{
    type Subscription = MergeSubscription<'a, <Self as Observable>::Flavour>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.inner.subscribe_observer(observer)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::merge;
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn emits_every_value_then_completes() {
        let o = TestObserver::new();
        merge(vec![
            from_iter(vec![1, 2]),
            from_iter(vec![]),
            from_iter(vec![3]),
        ])
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn no_observables_completes_at_once() {
        let o = TestObserver::<i32>::new();
        merge(Vec::<crate::source::Just<i32>>::new()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn an_error_stops_the_rest() {
        let o = TestObserver::new();
        let subscribed = std::sync::atomic::AtomicUsize::new(0);
        merge((0..).map(|v| {
            let subscribed = &subscribed;
            crate::source::defer(move || {
                subscribed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if v == 1 {
                    throw(Error::msg("one")).boxed()
                } else {
                    just(v).boxed()
                }
            })
        }))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Error(Error::msg("one"))]);
        assert_eq!(subscribed.into_inner(), 2);
    }
}
