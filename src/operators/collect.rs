//! [`ObservableExt::collect`](crate::ObservableExt::collect).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;
use std::marker::PhantomData;

/// Collects its source's values into a `C`, emitted at completion; built by
/// [`ObservableExt::collect`](crate::ObservableExt::collect).
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "toCollection")]
#[doc(alias = "toSet")]
#[doc(alias = "to_set")]
pub struct Collect<S, C> {
    source: S,
    // `fn() -> C`: the collection is built at subscribe time, so `Collect` is `Send`, `Sync`
    // and `Clone` whatever `C` is.
    collection: PhantomData<fn() -> C>,
}

impl<S, C> Collect<S, C> {
    pub(crate) fn new(source: S) -> Self {
        Collect {
            source,
            collection: PhantomData,
        }
    }
}

impl<S: Clone, C> Clone for Collect<S, C> {
    fn clone(&self) -> Self {
        Collect::new(self.source.clone())
    }
}

impl<S: fmt::Debug, C> fmt::Debug for Collect<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Collect")
            .field("source", &self.source)
            .field("collection", &std::any::type_name::<C>())
            .finish()
    }
}

impl<S: Observable, C> Observable for Collect<S, C>
where
    C: Default + Extend<S::Item>,
{
    type Item = C;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, C, O> Subscribe<O> for Collect<S, C>
where
    S: Subscribe<CollectObserver<O, C>>,
    C: Default + Extend<<S as Observable>::Item>,
    O: Observer<C>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(CollectObserver {
            observer,
            collection: C::default(),
        })
    }
}

/// The observer [`Collect`] subscribes upstream.
#[derive(Debug)]
pub struct CollectObserver<O, C> {
    observer: O,
    collection: C,
}

impl<T, C, O> Observer<T> for CollectObserver<O, C>
where
    C: Extend<T>,
    O: Observer<C>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.collection.extend(std::iter::once(value));
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        complete_with(self.observer, self.collection)
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;
    use std::collections::{BTreeMap, BTreeSet, HashSet};

    #[test]
    fn collects_into_a_set_a_map_and_a_string() {
        let o = TestObserver::new();
        from_iter([3, 1, 3, 2])
            .collect::<BTreeSet<_>>()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(BTreeSet::from([1, 2, 3])), N::Completed]);

        let o = TestObserver::new();
        from_iter([(1, 'a'), (2, 'b'), (1, 'c')])
            .collect::<BTreeMap<_, _>>()
            .subscribe_observer(o.clone());
        o.assert_values(&[BTreeMap::from([(1, 'c'), (2, 'b')])]);

        let o = TestObserver::new();
        from_iter(['r', 'x'])
            .collect::<String>()
            .subscribe_observer(o.clone());
        o.assert_values(&["rx".to_string()]);
    }

    #[test]
    fn empty_source_emits_the_default_collection() {
        let o = TestObserver::new();
        empty::<i32>()
            .collect::<HashSet<_>>()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(HashSet::new()), N::Completed]);
    }

    #[test]
    fn error_passes_through_and_drops_what_was_collected() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .collect::<Vec<_>>()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::<Vec<i32>>::new();
        let probe = o.clone();
        from_iter(0..)
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .collect()
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
