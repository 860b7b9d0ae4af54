//! [`ObservableExt::is_empty`](crate::ObservableExt::is_empty).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits whether its source completes without a value; built by
/// [`ObservableExt::is_empty`](crate::ObservableExt::is_empty).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "isEmpty")]
pub struct IsEmpty<S> {
    source: S,
}

impl<S> IsEmpty<S> {
    pub(crate) fn new(source: S) -> Self {
        IsEmpty { source }
    }
}

impl<S: Observable> Observable for IsEmpty<S> {
    type Item = bool;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for IsEmpty<S>
where
    S: Subscribe<IsEmptyObserver<O>>,
    O: Observer<bool>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(IsEmptyObserver {
            observer: Some(observer),
        })
    }
}

/// The observer [`IsEmpty`] subscribes upstream.
#[derive(Debug)]
pub struct IsEmptyObserver<O> {
    // `None` after the first value: upstream sees that as disposal and stops.
    observer: Option<O>,
}

impl<T, O: Observer<bool>> Observer<T> for IsEmptyObserver<O> {
    #[inline]
    fn on_next(&mut self, _value: T) {
        if let Some(observer) = self.observer.take() {
            complete_with(observer, false);
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
            complete_with(observer, true)
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
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;

    #[test]
    fn false_at_the_first_value_and_upstream_stops() {
        let o = TestObserver::new();
        let mut pulled = 0;
        from_iter(0..)
            .map(|v| {
                pulled += 1;
                v
            })
            .is_empty()
            .subscribe_observer(o.clone());
        assert_eq!(pulled, 1);
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn empty_source_is_true() {
        let o = TestObserver::new();
        empty::<i32>().is_empty().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(true), N::Completed]);
    }

    #[test]
    fn error_before_a_value_passes_through() {
        let o = TestObserver::new();
        throw::<i32>(Error::msg("bad"))
            .is_empty()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn error_after_a_value_is_ignored() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("late"))])
            .dematerialize()
            .is_empty()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(false), N::Completed]);

        let o = TestObserver::new();
        let mut observer = super::IsEmptyObserver {
            observer: Some(o.clone()),
        };
        observer.on_next(());
        assert!(Observer::<()>::is_disposed(&observer));
        observer.on_next(());
        Observer::<()>::on_error(observer, Error::msg("late"));
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn disposed_downstream_gets_nothing() {
        let o = TestObserver::new();
        o.dispose();
        let mut pulled = 0;
        from_iter(0..)
            .map(|v| {
                pulled += 1;
                v
            })
            .is_empty()
            .subscribe_observer(o.clone());
        assert_eq!(pulled, 0);
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
