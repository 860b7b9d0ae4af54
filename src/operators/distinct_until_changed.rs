//! [`ObservableExt::distinct_until_changed`](crate::ObservableExt::distinct_until_changed).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Drops values equal to the one before; built by
/// [`ObservableExt::distinct_until_changed`](crate::ObservableExt::distinct_until_changed).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "distinctUntilChanged")]
pub struct DistinctUntilChanged<S> {
    source: S,
}

impl<S> DistinctUntilChanged<S> {
    pub(crate) fn new(source: S) -> Self {
        DistinctUntilChanged { source }
    }
}

impl<S: Observable> Observable for DistinctUntilChanged<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for DistinctUntilChanged<S>
where
    S: Subscribe<DistinctUntilChangedObserver<O, <S as Observable>::Item>>,
    <S as Observable>::Item: PartialEq + Clone,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(DistinctUntilChangedObserver {
                observer,
                last: None,
            })
    }
}

/// The observer [`DistinctUntilChanged`] subscribes upstream.
#[derive(Debug)]
pub struct DistinctUntilChangedObserver<O, T> {
    observer: O,
    last: Option<T>,
}

impl<T, O> Observer<T> for DistinctUntilChangedObserver<O, T>
where
    T: PartialEq + Clone,
    O: Observer<T>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        match &mut self.last {
            Some(last) if *last == value => return,
            // `clone_from` lets a `String` or `Vec` reuse the buffer it already has.
            Some(last) => last.clone_from(&value),
            None => self.last = Some(value.clone()),
        }
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
    fn drops_consecutive_duplicates() {
        let o = TestObserver::new();
        from_iter([1, 1, 2, 2, 2, 1, 3, 3])
            .distinct_until_changed()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(1),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn compares_with_partial_eq() {
        let o = TestObserver::new();
        from_iter([f64::NAN, f64::NAN, 0.0, -0.0])
            .distinct_until_changed()
            .subscribe_observer(o.clone());
        // NaN differs from itself; 0.0 equals -0.0.
        assert_eq!(o.value_count(), 3);
        o.assert_completed();
    }

    #[test]
    fn owned_values_are_kept_by_clone() {
        let o = TestObserver::new();
        from_iter(["a", "a", "b", "bb", "bb"])
            .map(String::from)
            .distinct_until_changed()
            .subscribe_observer(o.clone());
        o.assert_values(&["a".into(), "b".into(), "bb".into()]);
    }

    #[test]
    fn empty_completes() {
        let o = TestObserver::<i32>::new();
        empty()
            .distinct_until_changed()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .distinct_until_changed()
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .distinct_until_changed()
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
            .distinct_until_changed()
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
