//! [`ObservableExt::min`](crate::ObservableExt::min), and with [`Max`](super::Max) the
//! observer both share; [`min_by`](crate::ObservableExt::min_by) and
//! [`min_by_key`](crate::ObservableExt::min_by_key) are `Min` with another [`Ranking`].

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::cmp::Ordering;

/// Emits the smallest of its source's values, at completion; built by
/// [`ObservableExt::min`](crate::ObservableExt::min),
/// [`min_by`](crate::ObservableExt::min_by) and
/// [`min_by_key`](crate::ObservableExt::min_by_key).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "MinBy")]
#[doc(alias = "minBy")]
pub struct Min<S, R = ByOrd> {
    source: S,
    ranking: R,
}

impl<S, R> Min<S, R> {
    pub(crate) fn new(source: S, ranking: R) -> Self {
        Min { source, ranking }
    }
}

impl<S: Observable, R> Observable for Min<S, R> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, R, O> Subscribe<O> for Min<S, R>
where
    S: Subscribe<MinObserver<O, <S as Observable>::Item, R>>,
    R: Ranking<<S as Observable>::Item>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(MinObserver::new(observer, self.ranking))
    }
}

/// How [`Min`] and [`Max`](super::Max) order two values: [`ByOrd`] (`Ord::cmp`), [`ByKey`]
/// (`Ord::cmp` of a key), or any `FnMut(&T, &T) -> Ordering` closure.
pub trait Ranking<T> {
    /// How `a` compares with `b`.
    fn compare(&mut self, a: &T, b: &T) -> Ordering;
}

impl<T, F: FnMut(&T, &T) -> Ordering> Ranking<T> for F {
    #[inline]
    fn compare(&mut self, a: &T, b: &T) -> Ordering {
        self(a, b)
    }
}

/// The ranking of [`min`](crate::ObservableExt::min) and [`max`](crate::ObservableExt::max):
/// `Ord::cmp`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByOrd;

impl<T: Ord> Ranking<T> for ByOrd {
    #[inline]
    fn compare(&mut self, a: &T, b: &T) -> Ordering {
        a.cmp(b)
    }
}

/// The ranking of [`min_by_key`](crate::ObservableExt::min_by_key) and
/// [`max_by_key`](crate::ObservableExt::max_by_key): `Ord::cmp` of the keys `F` gives.
#[derive(Clone, Copy, Debug)]
pub struct ByKey<F>(pub(crate) F);

impl<T, K: Ord, F: FnMut(&T) -> K> Ranking<T> for ByKey<F> {
    #[inline]
    fn compare(&mut self, a: &T, b: &T) -> Ordering {
        (self.0)(a).cmp(&(self.0)(b))
    }
}

/// The observer [`Min`] subscribes upstream.
pub type MinObserver<O, T, R = ByOrd> = ExtremumObserver<O, T, R, false>;

/// The observer [`Min`] and [`Max`](super::Max) subscribe upstream: keeps the smallest value
/// seen so far by `R`, or the largest when `LARGEST`, and emits it at completion.
#[derive(Debug)]
pub struct ExtremumObserver<O, T, R, const LARGEST: bool> {
    observer: O,
    ranking: R,
    kept: Option<T>,
}

impl<O, T, R, const LARGEST: bool> ExtremumObserver<O, T, R, LARGEST> {
    pub(super) fn new(observer: O, ranking: R) -> Self {
        ExtremumObserver {
            observer,
            ranking,
            kept: None,
        }
    }
}

impl<T, O, R, const LARGEST: bool> Observer<T> for ExtremumObserver<O, T, R, LARGEST>
where
    O: Observer<T>,
    R: Ranking<T>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        // As with `Iterator::min` and `max` (and their `_by`, `_by_key` forms): the first of
        // several equal minima stays, the last of several equal maxima wins.
        let replaces = match &self.kept {
            None => true,
            Some(kept) => {
                let order = self.ranking.compare(&value, kept);
                if LARGEST {
                    order != Ordering::Less
                } else {
                    order == Ordering::Less
                }
            }
        };
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
