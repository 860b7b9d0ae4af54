//! [`ObservableExt::to_vec`](crate::ObservableExt::to_vec).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Collects its source's values into a `Vec` emitted at completion; built by
/// [`ObservableExt::to_vec`](crate::ObservableExt::to_vec).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "toList")]
#[doc(alias = "to_list")]
#[doc(alias = "toArray")]
pub struct ToVec<S> {
    source: S,
}

impl<S> ToVec<S> {
    pub(crate) fn new(source: S) -> Self {
        ToVec { source }
    }
}

impl<S: Observable> Observable for ToVec<S> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for ToVec<S>
where
    S: Subscribe<ToVecObserver<O, <S as Observable>::Item>>,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ToVecObserver {
            observer,
            values: Vec::new(),
        })
    }
}

/// The observer [`ToVec`] subscribes upstream.
#[derive(Debug)]
pub struct ToVecObserver<O, T> {
    observer: O,
    values: Vec<T>,
}

impl<T, O: Observer<Vec<T>>> Observer<T> for ToVecObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.values.push(value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        complete_with(self.observer, self.values)
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
    fn collects_in_order_then_completes() {
        let o = TestObserver::new();
        from_iter(1..=3).to_vec().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(vec![1, 2, 3]), N::Completed]);
    }

    #[test]
    fn empty_source_emits_an_empty_vec() {
        let o = TestObserver::new();
        empty::<i32>().to_vec().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(vec![]), N::Completed]);
    }

    #[test]
    fn error_passes_through_and_drops_what_was_collected() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .to_vec()
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
            .to_vec()
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
