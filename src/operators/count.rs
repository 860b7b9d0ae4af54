//! [`ObservableExt::count`](crate::ObservableExt::count).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits how many values its source emitted, at completion; built by
/// [`ObservableExt::count`](crate::ObservableExt::count).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Count<S> {
    source: S,
}

impl<S> Count<S> {
    pub(crate) fn new(source: S) -> Self {
        Count { source }
    }
}

impl<S: Observable> Observable for Count<S> {
    type Item = usize;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Count<S>
where
    S: Subscribe<CountObserver<O>>,
    O: Observer<usize>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(CountObserver { observer, count: 0 })
    }
}

/// The observer [`Count`] subscribes upstream.
#[derive(Debug)]
pub struct CountObserver<O> {
    observer: O,
    count: usize,
}

impl<T, O: Observer<usize>> Observer<T> for CountObserver<O> {
    #[inline]
    fn on_next(&mut self, _value: T) {
        self.count += 1;
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        complete_with(self.observer, self.count)
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
    fn counts_the_values_then_completes() {
        let o = TestObserver::new();
        from_iter("abc".chars())
            .count()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(3), N::Completed]);
    }

    #[test]
    fn empty_source_counts_zero() {
        let o = TestObserver::new();
        empty::<()>().count().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(0), N::Completed]);
    }

    #[test]
    fn error_passes_through_without_a_count() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Next(2), N::Error(Error::msg("bad"))])
            .dematerialize()
            .count()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut pulled = 0;
        from_iter(0..)
            .map(|v| {
                pulled += 1;
                if pulled == 4 {
                    probe.dispose();
                }
                v
            })
            .count()
            .subscribe_observer(o.clone());
        assert_eq!(pulled, 4);
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
