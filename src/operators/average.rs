//! [`ObservableExt::average`](crate::ObservableExt::average).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the mean of its source's values as an `f64`, at completion; built by
/// [`ObservableExt::average`](crate::ObservableExt::average).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "averageDouble")]
#[doc(alias = "mean")]
pub struct Average<S> {
    source: S,
}

impl<S> Average<S> {
    pub(crate) fn new(source: S) -> Self {
        Average { source }
    }
}

impl<S: Observable> Observable for Average<S>
where
    S::Item: Into<f64>,
{
    type Item = f64;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Average<S>
where
    S: Subscribe<AverageObserver<O>>,
    <S as Observable>::Item: Into<f64>,
    O: Observer<f64>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(AverageObserver {
            observer,
            sum: 0.0,
            count: 0,
        })
    }
}

/// The observer [`Average`] subscribes upstream.
#[derive(Debug)]
pub struct AverageObserver<O> {
    observer: O,
    sum: f64,
    count: u64,
}

impl<T: Into<f64>, O: Observer<f64>> Observer<T> for AverageObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.sum += value.into();
        self.count += 1;
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        if self.count == 0 {
            self.observer.on_completed()
        } else {
            complete_with(self.observer, self.sum / self.count as f64)
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

    #[test]
    fn emits_the_mean_then_completes() {
        let o = TestObserver::new();
        from_iter([1, 2, 3, 4])
            .average()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(2.5), N::Completed]);
        let o = TestObserver::new();
        from_iter([0.5f32, 1.5])
            .average()
            .subscribe_observer(o.clone());
        o.assert_values(&[1.0]);
    }

    #[test]
    fn empty_source_completes_without_a_value() {
        let o = TestObserver::new();
        empty::<u8>().average().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Completed]);
    }

    #[test]
    fn error_passes_through_without_a_value() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .average()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(|v: u32| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .average()
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
