//! [`ObservableExt::min`](crate::ObservableExt::min).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the smallest of its source's values, at completion; built by
/// [`ObservableExt::min`](crate::ObservableExt::min).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Min<S> {
    source: S,
}

impl<S> Min<S> {
    pub(crate) fn new(source: S) -> Self {
        Min { source }
    }
}

impl<S: Observable> Observable for Min<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Min<S>
where
    S: Subscribe<MinObserver<O, <S as Observable>::Item>>,
    <S as Observable>::Item: Ord,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(MinObserver::new(observer))
    }
}

/// The observer [`Min`] subscribes upstream.
pub type MinObserver<O, T> = ExtremumObserver<O, T, false>;

/// The observer [`Min`] and [`Max`](super::Max) subscribe upstream: keeps the smallest value
/// seen so far, or the largest when `LARGEST`, and emits it at completion.
#[derive(Debug)]
pub struct ExtremumObserver<O, T, const LARGEST: bool> {
    observer: O,
    kept: Option<T>,
}

impl<O, T, const LARGEST: bool> ExtremumObserver<O, T, LARGEST> {
    pub(super) fn new(observer: O) -> Self {
        ExtremumObserver {
            observer,
            kept: None,
        }
    }
}

impl<T: Ord, O: Observer<T>, const LARGEST: bool> Observer<T> for ExtremumObserver<O, T, LARGEST> {
    #[inline]
    fn on_next(&mut self, value: T) {
        // As with `Iterator::min` and `max`: the first of several equal minima stays, the last
        // of several equal maxima wins.
        let replaces = self.kept.as_ref().is_none_or(|kept| {
            if LARGEST {
                value >= *kept
            } else {
                value < *kept
            }
        });
        if replaces {
            self.kept = Some(value);
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        match self.kept {
            Some(kept) => complete_with(self.observer, kept),
            None => self.observer.on_completed(),
        }
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
    use std::cmp::Ordering;

    #[test]
    fn emits_the_smallest_then_completes() {
        let o = TestObserver::new();
        from_iter([3, 1, 4, 1, 5])
            .min()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(1), N::Completed]);
    }

    #[test]
    fn keeps_the_first_of_equal_minima() {
        #[derive(Clone, Debug, PartialEq, Eq)]
        struct Keyed(i32, &'static str);
        impl PartialOrd for Keyed {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Keyed {
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.cmp(&other.0)
            }
        }
        let values = [Keyed(2, "a"), Keyed(1, "b"), Keyed(1, "c")];
        let o = TestObserver::new();
        from_iter(values.clone())
            .min()
            .subscribe_observer(o.clone());
        o.assert_values(&[values.into_iter().min().unwrap()]);
        assert_eq!(o.values()[0].1, "b");
    }

    #[test]
    fn empty_source_completes_without_a_value() {
        let o = TestObserver::new();
        empty::<i32>().min().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Completed]);
    }

    #[test]
    fn error_passes_through_without_a_value() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .min()
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
            .min()
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
