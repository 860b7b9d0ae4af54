//! [`ObservableExt::max`](crate::ObservableExt::max), [`max_by`](crate::ObservableExt::max_by)
//! and [`max_by_key`](crate::ObservableExt::max_by_key), over the observer of [`Min`](super::Min).

use super::min::{ByOrd, ExtremumObserver, Ranking};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the largest of its source's values, at completion; built by
/// [`ObservableExt::max`](crate::ObservableExt::max),
/// [`max_by`](crate::ObservableExt::max_by) and
/// [`max_by_key`](crate::ObservableExt::max_by_key).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "MaxBy")]
#[doc(alias = "maxBy")]
pub struct Max<S, R = ByOrd> {
    source: S,
    ranking: R,
}

impl<S, R> Max<S, R> {
    pub(crate) fn new(source: S, ranking: R) -> Self {
        Max { source, ranking }
    }
}

impl<S: Observable, R> Observable for Max<S, R> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, R, O> Subscribe<O> for Max<S, R>
where
    S: Subscribe<MaxObserver<O, <S as Observable>::Item, R>>,
    R: Ranking<<S as Observable>::Item>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(MaxObserver::new(observer, self.ranking))
    }
}

/// The observer [`Max`] subscribes upstream.
pub type MaxObserver<O, T, R = ByOrd> = ExtremumObserver<O, T, R, true>;

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;
    use std::cmp::Ordering;

    #[test]
    fn emits_the_largest_then_completes() {
        let o = TestObserver::new();
        from_iter([3, 1, 5, 4, 1])
            .max()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(5), N::Completed]);
    }

    #[test]
    fn keeps_the_last_of_equal_maxima() {
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
        let values = [Keyed(1, "a"), Keyed(2, "b"), Keyed(2, "c"), Keyed(0, "d")];
        let o = TestObserver::new();
        from_iter(values.clone())
            .max()
            .subscribe_observer(o.clone());
        o.assert_values(&[values.into_iter().max().unwrap()]);
        assert_eq!(o.values()[0].1, "c");
    }

    #[test]
    fn empty_source_completes_without_a_value() {
        let o = TestObserver::new();
        empty::<i32>().max().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Completed]);
    }

    #[test]
    fn error_passes_through_without_a_value() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .max()
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
            .max()
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
