//! [`ObservableExt::sum`](crate::ObservableExt::sum).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::iter;

/// Emits the sum of its source's values, at completion; built by
/// [`ObservableExt::sum`](crate::ObservableExt::sum).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Sum<S> {
    source: S,
}

impl<S> Sum<S> {
    pub(crate) fn new(source: S) -> Self {
        Sum { source }
    }
}

impl<S: Observable> Observable for Sum<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Sum<S>
where
    S: Subscribe<SumObserver<O, <S as Observable>::Item>>,
    <S as Observable>::Item: iter::Sum,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(SumObserver {
            observer,
            total: None,
        })
    }
}

/// The observer [`Sum`] subscribes upstream.
#[derive(Debug)]
pub struct SumObserver<O, T> {
    observer: O,
    // `None` until the first value. Adding through `iter::Sum` pairwise gives what
    // `Iterator::sum` gives, as its zero is an identity for the addition.
    total: Option<T>,
}

impl<T: iter::Sum, O: Observer<T>> Observer<T> for SumObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.total = Some(match self.total.take() {
            Some(total) => [total, value].into_iter().sum(),
            None => value,
        });
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        let total = self.total.unwrap_or_else(|| iter::empty().sum());
        complete_with(self.observer, total)
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
    use std::time::Duration;

    #[test]
    fn sums_the_values_then_completes() {
        let o = TestObserver::new();
        from_iter(1..=4).sum().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(10), N::Completed]);
    }

    #[test]
    fn empty_source_emits_zero() {
        let o = TestObserver::new();
        empty::<i64>().sum().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(0), N::Completed]);

        let o = TestObserver::new();
        empty::<Duration>().sum().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(Duration::ZERO), N::Completed]);
    }

    #[test]
    fn agrees_with_iterator_sum() {
        let floats = [0.1f64, -0.0, 2.5, 1e-17, -3.25];
        let o = TestObserver::new();
        from_iter(floats).sum().subscribe_observer(o.clone());
        assert_eq!(
            o.values()[0].to_bits(),
            floats.iter().sum::<f64>().to_bits()
        );

        // `Option` sums stop at the first `None`, as `Iterator::sum` does.
        let o = TestObserver::new();
        from_iter([Some(1), None, Some(2)])
            .sum()
            .subscribe_observer(o.clone());
        o.assert_values(&[None]);
    }

    #[test]
    fn error_passes_through_without_a_sum() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Next(2), N::Error(Error::msg("bad"))])
            .dematerialize()
            .sum()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0u64..)
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .sum()
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
