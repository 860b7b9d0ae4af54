//! [`ObservableExt::first_or`](crate::ObservableExt::first_or).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the first value, or a default on an empty source, and completes; built by
/// [`ObservableExt::first_or`](crate::ObservableExt::first_or).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "firstOrDefault")]
pub struct FirstOr<S, T> {
    source: S,
    default: T,
}

impl<S, T> FirstOr<S, T> {
    pub(crate) fn new(source: S, default: T) -> Self {
        FirstOr { source, default }
    }
}

impl<S: Observable<Item = T>, T> Observable for FirstOr<S, T> {
    type Item = T;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, T, O> Subscribe<O> for FirstOr<S, T>
where
    S: Subscribe<FirstOrObserver<O, T>> + Observable<Item = T>,
    O: Observer<T>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(FirstOrObserver {
            observer: Some(observer),
            default: self.default,
        })
    }
}

/// The observer [`FirstOr`] subscribes upstream.
#[derive(Debug)]
pub struct FirstOrObserver<O, T> {
    /// `None` once the first value has been delivered.
    observer: Option<O>,
    default: T,
}

impl<T, O: Observer<T>> Observer<T> for FirstOrObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if let Some(mut observer) = self.observer.take() {
            observer.on_next(value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
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
        if let Some(mut observer) = self.observer {
            observer.on_next(self.default);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_the_first_value_and_completes() {
        let o = TestObserver::new();
        from_iter([7, 8, 9])
            .first_or(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(7), Notification::Completed]);
    }

    #[test]
    fn empty_source_emits_the_default() {
        let o = TestObserver::new();
        empty().first_or(42).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(42), Notification::Completed]);
    }

    #[test]
    fn an_endless_source_stops_after_the_first_value() {
        let mut emitted = 0;
        let o = TestObserver::new();
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .first_or(-1)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(0), Notification::Completed]);
        assert_eq!(emitted, 1);
    }

    #[test]
    fn error_passes_through_without_the_default() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .first_or(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_gets_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        from_iter(0..).first_or(-1).subscribe_observer(o.clone());
        empty().first_or(-1).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn downstream_disposed_by_the_default_is_not_completed() {
        let o = TestObserver::new();
        let probe = o.clone();
        empty()
            .first_or(5)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[5]);
        o.assert_not_terminated();
    }
}
