//! [`ObservableExt::distinct`](crate::ObservableExt::distinct).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::collections::HashSet;
use std::hash::Hash;

/// Emits each value the first time it is seen; built by
/// [`ObservableExt::distinct`](crate::ObservableExt::distinct).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Distinct<S> {
    source: S,
}

impl<S> Distinct<S> {
    pub(crate) fn new(source: S) -> Self {
        Distinct { source }
    }
}

impl<S: Observable> Observable for Distinct<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Distinct<S>
where
    S: Subscribe<DistinctObserver<O, <S as Observable>::Item>>,
    <S as Observable>::Item: Eq + Hash + Clone,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(DistinctObserver {
            observer,
            seen: HashSet::new(),
        })
    }
}

/// The observer [`Distinct`] subscribes upstream.
#[derive(Debug)]
pub struct DistinctObserver<O, T> {
    observer: O,
    seen: HashSet<T>,
}

impl<T, O> Observer<T> for DistinctObserver<O, T>
where
    T: Eq + Hash + Clone,
    O: Observer<T>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        // Look up before inserting so a repeated value costs no clone.
        if !self.seen.contains(&value) {
            self.seen.insert(value.clone());
            self.observer.on_next(value);
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_each_value_once() {
        let o = TestObserver::new();
        from_iter([1, 2, 1, 3, 2, 2, 4, 1])
            .distinct()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Next(4),
            Notification::Completed,
        ]);
    }

    #[test]
    fn empty_completes() {
        let o = TestObserver::<i32>::new();
        empty().distinct().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn each_subscription_starts_afresh() {
        let source = from_iter(["a", "b", "a"]).distinct();
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&["a", "b", "a", "b"]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .distinct()
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .distinct()
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("mid-way");
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .map(|v| v / 2)
            .distinct()
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
        assert_eq!(emitted, 5);
    }
}
