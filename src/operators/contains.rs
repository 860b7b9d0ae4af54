//! [`ObservableExt::contains`](crate::ObservableExt::contains).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits whether a value equal to a given one appears; built by
/// [`ObservableExt::contains`](crate::ObservableExt::contains).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Contains<S, V> {
    source: S,
    value: V,
}

impl<S, V> Contains<S, V> {
    pub(crate) fn new(source: S, value: V) -> Self {
        Contains { source, value }
    }
}

impl<S, V> Observable for Contains<S, V>
where
    S: Observable,
    S::Item: PartialEq<V>,
{
    type Item = bool;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, V, O> Subscribe<O> for Contains<S, V>
where
    S: Subscribe<ContainsObserver<O, V>>,
    <S as Observable>::Item: PartialEq<V>,
    O: Observer<bool>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ContainsObserver {
            observer: Some(observer),
            value: self.value,
        })
    }
}

/// The observer [`Contains`] subscribes upstream.
#[derive(Debug)]
pub struct ContainsObserver<O, V> {
    // `None` once the value was found: upstream sees that as disposal and stops.
    observer: Option<O>,
    value: V,
}

impl<T, O, V> Observer<T> for ContainsObserver<O, V>
where
    T: PartialEq<V>,
    O: Observer<bool>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if let Some(observer) = self.observer.take_if(|_| value == self.value) {
            complete_with(observer, true);
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        if let Some(observer) = self.observer {
            observer.on_error(error)
        }
    }

    #[inline]
    fn on_completed(self) {
        if let Some(observer) = self.observer {
            complete_with(observer, false)
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;

    #[test]
    fn true_when_found_and_upstream_stops() {
        let o = TestObserver::new();
        let mut pulled = 0;
        from_iter(0..)
            .map(|v| {
                pulled += 1;
                v
            })
            .contains(4)
            .subscribe_observer(o.clone());
        assert_eq!(pulled, 5);
        o.assert_notifications(&[N::Next(true), N::Completed]);
    }

    #[test]
    fn false_when_absent() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .contains(7)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn compares_across_types_through_partial_eq() {
        let o = TestObserver::new();
        from_iter(["a".to_string(), "b".to_string()])
            .contains("b")
            .subscribe_observer(o.clone());
        o.assert_values(&[true]);
    }

    #[test]
    fn empty_source_is_false() {
        let o = TestObserver::new();
        empty::<i32>().contains(1).subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn error_before_the_answer_passes_through() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .contains(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn error_after_the_answer_is_ignored() {
        let o = TestObserver::new();
        let mut observer = super::ContainsObserver {
            observer: Some(o.clone()),
            value: 1,
        };
        observer.on_next(1);
        assert!(Observer::<i32>::is_disposed(&observer));
        observer.on_next(1);
        Observer::<i32>::on_error(observer, Error::msg("late"));
        o.assert_notifications(&[N::Next(true), N::Completed]);
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
            .contains(-1)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
