//! [`ObservableExt::distinct_until_key_changed`](crate::ObservableExt::distinct_until_key_changed).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// Drops values whose key equals the key of the value before; built by
/// [`ObservableExt::distinct_until_key_changed`](crate::ObservableExt::distinct_until_key_changed).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "distinctUntilKeyChanged")]
pub struct DistinctUntilKeyChanged<S, F> {
    source: S,
    key_fn: F,
}

impl<S, F> DistinctUntilKeyChanged<S, F> {
    pub(crate) fn new(source: S, key_fn: F) -> Self {
        DistinctUntilKeyChanged { source, key_fn }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for DistinctUntilKeyChanged<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DistinctUntilKeyChanged")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, F> Observable for DistinctUntilKeyChanged<S, F> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

// The closure's bound fixes `K`, the observer's type; the observer's bound before the
// source's (ARCHITECTURE.md, "Compile time").
impl<S, F, K, O> Subscribe<O> for DistinctUntilKeyChanged<S, F>
where
    F: FnMut(&<S as Observable>::Item) -> K,
    K: PartialEq,
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<DistinctUntilKeyChangedObserver<O, F, K>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(DistinctUntilKeyChangedObserver {
                observer,
                key_fn: self.key_fn,
                last: None,
            })
    }
}

/// The observer [`DistinctUntilKeyChanged`] subscribes upstream.
pub struct DistinctUntilKeyChangedObserver<O, F, K> {
    observer: O,
    key_fn: F,
    last: Option<K>,
}

impl<O: fmt::Debug, F, K: fmt::Debug> fmt::Debug for DistinctUntilKeyChangedObserver<O, F, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DistinctUntilKeyChangedObserver")
            .field("observer", &self.observer)
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}

impl<T, O, F, K> Observer<T> for DistinctUntilKeyChangedObserver<O, F, K>
where
    O: Observer<T>,
    F: FnMut(&T) -> K,
    K: PartialEq,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let key = (self.key_fn)(&value);
        if self.last.as_ref() == Some(&key) {
            return;
        }
        self.last = Some(key);
        self.observer.on_next(value);
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
    fn drops_values_whose_key_repeats() {
        let o = TestObserver::new();
        from_iter([(1, 'a'), (1, 'b'), (2, 'c'), (2, 'd'), (1, 'e')])
            .distinct_until_key_changed(|&(key, _)| key)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next((1, 'a')),
            Notification::Next((2, 'c')),
            Notification::Next((1, 'e')),
            Notification::Completed,
        ]);
    }

    #[test]
    fn owned_keys() {
        let o = TestObserver::new();
        from_iter(["apple", "avocado", "banana", "blueberry", "cherry"])
            .distinct_until_key_changed(|s| s[..1].to_string())
            .subscribe_observer(o.clone());
        o.assert_values(&["apple", "banana", "cherry"]);
        o.assert_completed();
    }

    #[test]
    fn empty_completes() {
        let o = TestObserver::<i32>::new();
        empty()
            .distinct_until_key_changed(|v| *v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .distinct_until_key_changed(|v| *v)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_next(10);
            e.on_error(Error::msg("mid-way"));
        })
        .distinct_until_key_changed(|v| v / 10)
        .subscribe_observer(o.clone());
        o.assert_values(&[1, 10]);
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
            .distinct_until_key_changed(|v| v / 2)
            .map(|v| {
                if v == 4 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 2, 4]);
        o.assert_not_terminated();
        assert_eq!(emitted, 5);
    }
}
