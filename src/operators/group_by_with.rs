//! [`ObservableExt::group_by_with`](crate::ObservableExt::group_by_with): one inner
//! observable per key, of elements made from the values.
//!
//! The same observer as [`group_by`](crate::ObservableExt::group_by), with an element
//! function in place of the identity.

use super::group_by::{GroupByObserver, GroupedObservable};
use crate::engine::split_refs::{Refs, SplitSubscription};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// Splits an observable into one [`GroupedObservable`] per key, of the elements `element`
/// makes from its values; built by
/// [`ObservableExt::group_by_with`](crate::ObservableExt::group_by_with).
///
/// The lifetime `'a` bounds what the groups' subscribers and the source's handle borrow; it
/// is inferred.
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "groupBy")]
pub struct GroupByWith<'a, S, F, E> {
    source: S,
    key: F,
    element: E,
    _inners: PhantomData<&'a ()>,
}

impl<S, F, E> GroupByWith<'_, S, F, E> {
    pub(crate) fn new(source: S, key: F, element: E) -> Self {
        GroupByWith {
            source,
            key,
            element,
            _inners: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F, E> fmt::Debug for GroupByWith<'_, S, F, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupByWith")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<'a, S, F, E, K, V> Observable for GroupByWith<'a, S, F, E>
where
    S: Observable,
    F: FnMut(&S::Item) -> K,
    E: FnMut(S::Item) -> V,
{
    type Item = GroupedObservable<'a, K, V, <S as Observable>::Flavour>;
    type Flavour = <S as Observable>::Flavour;
}

/// The observer [`GroupByWith`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, K, V, E> =
    GroupByObserver<'a, O, F, K, V, E, <S as Observable>::Flavour>;

impl<'a, S, F, E, K, V, O> Subscribe<O> for GroupByWith<'a, S, F, E>
where
    S: Subscribe<SourceObserver<'a, S, O, F, K, V, E>>,
    <S as Observable>::Flavour:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, K, V, E>>>::Subscription>,
    F: FnMut(&<S as Observable>::Item) -> K,
    E: FnMut(<S as Observable>::Item) -> V,
    K: Clone + Eq + Hash,
    O: Observer<GroupedObservable<'a, K, V, <S as Observable>::Flavour>>,
{
    type Subscription = SplitSubscription<'a, <S as Observable>::Flavour>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let refs = Refs::<<S as Observable>::Flavour>::shared();
        let handle = self.source.subscribe_observer(GroupByObserver::new(
            observer,
            self.key,
            self.element,
            refs.clone(),
        ));
        refs.set_upstream(handle);
        SplitSubscription::new(refs)
    }
}

#[cfg(test)]
mod tests {
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};

    type Groups = Arc<Mutex<BTreeMap<bool, TestObserver<String>>>>;

    fn record(
        groups: &Groups,
    ) -> impl FnMut(crate::operators::GroupedObservable<'_, bool, String>) + use<'_> {
        move |group| {
            let o = TestObserver::new();
            groups.lock().unwrap().insert(*group.key(), o.clone());
            group.subscribe_observer(o);
        }
    }

    #[test]
    fn groups_hold_the_elements_and_keys_see_the_values() {
        let groups = Groups::default();
        let outer = TestObserver::new();
        let g = groups.clone();
        from_iter(1..=5)
            .group_by_with(|v| v % 2 == 0, |v| format!("#{v}"))
            .tap(move |group| {
                let o = TestObserver::new();
                g.lock().unwrap().insert(*group.key(), o.clone());
                group.clone().subscribe_observer(o);
            })
            .map(|group| *group.key())
            .subscribe_observer(outer.clone());
        outer.assert_notifications(&[Next(false), Next(true), Completed]);
        let groups = groups.lock().unwrap();
        groups[&false].assert_values(&["#1".into(), "#3".into(), "#5".into()]);
        groups[&true].assert_values(&["#2".into(), "#4".into()]);
        groups[&true].assert_completed();
    }

    #[test]
    fn the_element_function_runs_once_per_value() {
        let calls = Arc::new(Mutex::new(0));
        let c = calls.clone();
        let groups = Groups::default();
        from_iter(1..=4)
            .group_by_with(
                |v| *v > 2,
                move |v| {
                    *c.lock().unwrap() += 1;
                    v.to_string()
                },
            )
            .subscribe(record(&groups));
        assert_eq!(*calls.lock().unwrap(), 4);
        assert_eq!(groups.lock().unwrap().len(), 2);
    }

    #[test]
    fn empty_gives_no_group() {
        let outer = TestObserver::new();
        empty::<i32>()
            .group_by_with(|v| *v, |v| v * 2)
            .map(|g| *g.key())
            .subscribe_observer(outer.clone());
        outer.assert_notifications(&[Completed]);
    }
}
