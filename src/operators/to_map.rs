//! [`ObservableExt::to_map`](crate::ObservableExt::to_map) and
//! [`to_multimap`](crate::ObservableExt::to_multimap).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;

/// Collects its source's values into a `HashMap` by key, the last value of each key, emitted
/// at completion; built by [`ObservableExt::to_map`](crate::ObservableExt::to_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "toMap")]
#[doc(alias = "ToDictionary")]
pub struct ToMap<S, F> {
    source: S,
    key: F,
}

/// Collects its source's values into a `HashMap` of `Vec`s by key, emitted at completion;
/// built by [`ObservableExt::to_multimap`](crate::ObservableExt::to_multimap).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "toMultimap")]
#[doc(alias = "ToLookup")]
pub struct ToMultimap<S, F> {
    source: S,
    key: F,
}

impl<S, F> ToMap<S, F> {
    pub(crate) fn new(source: S, key: F) -> Self {
        ToMap { source, key }
    }
}

impl<S, F> ToMultimap<S, F> {
    pub(crate) fn new(source: S, key: F) -> Self {
        ToMultimap { source, key }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ToMap<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToMap")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ToMultimap<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToMultimap")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, K, F> Observable for ToMap<S, F>
where
    S: Observable,
    F: FnMut(&S::Item) -> K,
    K: Hash + Eq,
{
    type Item = HashMap<K, S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, K, F> Observable for ToMultimap<S, F>
where
    S: Observable,
    F: FnMut(&S::Item) -> K,
    K: Hash + Eq,
{
    type Item = HashMap<K, Vec<S::Item>>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, K, F, O> Subscribe<O> for ToMap<S, F>
where
    S: Subscribe<ToMapObserver<O, F, HashMap<K, <S as Observable>::Item>>>,
    F: FnMut(&<S as Observable>::Item) -> K,
    K: Hash + Eq,
    O: Observer<HashMap<K, <S as Observable>::Item>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(ToMapObserver::new(observer, self.key))
    }
}

impl<S, K, F, O> Subscribe<O> for ToMultimap<S, F>
where
    S: Subscribe<ToMapObserver<O, F, HashMap<K, Vec<<S as Observable>::Item>>>>,
    F: FnMut(&<S as Observable>::Item) -> K,
    K: Hash + Eq,
    O: Observer<HashMap<K, Vec<<S as Observable>::Item>>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(ToMapObserver::new(observer, self.key))
    }
}

/// The observer [`ToMap`] and [`ToMultimap`] subscribe upstream: fills `M`, a `HashMap` of
/// values or of `Vec`s of values, and emits it at completion.
#[derive(Debug)]
pub struct ToMapObserver<O, F, M> {
    observer: O,
    key: F,
    map: M,
}

impl<O, F, M: Default> ToMapObserver<O, F, M> {
    fn new(observer: O, key: F) -> Self {
        ToMapObserver {
            observer,
            key,
            map: M::default(),
        }
    }
}

impl<T, K, F, O> Observer<T> for ToMapObserver<O, F, HashMap<K, T>>
where
    F: FnMut(&T) -> K,
    K: Hash + Eq,
    O: Observer<HashMap<K, T>>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        // A later value replaces an earlier one of the same key, as in RxJava's `toMap`.
        self.map.insert((self.key)(&value), value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        complete_with(self.observer, self.map)
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

impl<T, K, F, O> Observer<T> for ToMapObserver<O, F, HashMap<K, Vec<T>>>
where
    F: FnMut(&T) -> K,
    K: Hash + Eq,
    O: Observer<HashMap<K, Vec<T>>>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.map.entry((self.key)(&value)).or_default().push(value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        complete_with(self.observer, self.map)
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
    use std::collections::HashMap;

    #[test]
    fn to_map_keeps_the_last_value_of_each_key() {
        let o = TestObserver::new();
        from_iter(["a", "bb", "c", "dd", "eee"])
            .to_map(|s| s.len())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            N::Next(HashMap::from([(1, "c"), (2, "dd"), (3, "eee")])),
            N::Completed,
        ]);
    }

    #[test]
    fn to_multimap_keeps_every_value_in_order() {
        let o = TestObserver::new();
        from_iter(["a", "bb", "c", "dd", "eee"])
            .to_multimap(|s| s.len())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            N::Next(HashMap::from([
                (1, vec!["a", "c"]),
                (2, vec!["bb", "dd"]),
                (3, vec!["eee"]),
            ])),
            N::Completed,
        ]);
    }

    #[test]
    fn empty_source_emits_an_empty_map() {
        let o = TestObserver::new();
        empty::<i32>().to_map(|v| *v).subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(HashMap::new()), N::Completed]);
        let o = TestObserver::new();
        empty::<i32>()
            .to_multimap(|v| *v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(HashMap::new()), N::Completed]);
    }

    #[test]
    fn error_passes_through_and_drops_the_map() {
        let o = TestObserver::<HashMap<i32, i32>>::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .to_map(|v| *v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
        let o = TestObserver::<HashMap<i32, Vec<i32>>>::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .to_multimap(|v| *v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .to_multimap(|v| v % 2)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
