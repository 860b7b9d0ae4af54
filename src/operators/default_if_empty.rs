//! [`ObservableExt::default_if_empty`](crate::ObservableExt::default_if_empty).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits a default value if the source completes without emitting any; built by
/// [`ObservableExt::default_if_empty`](crate::ObservableExt::default_if_empty).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "defaultIfEmpty")]
pub struct DefaultIfEmpty<S, T> {
    source: S,
    default: T,
}

impl<S, T> DefaultIfEmpty<S, T> {
    pub(crate) fn new(source: S, default: T) -> Self {
        DefaultIfEmpty { source, default }
    }
}

impl<S: Observable<Item = T>, T> Observable for DefaultIfEmpty<S, T> {
    type Item = T;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, T, O> Subscribe<O> for DefaultIfEmpty<S, T>
where
    S: Subscribe<DefaultIfEmptyObserver<O, T>> + Observable<Item = T>,
    O: Observer<T>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(DefaultIfEmptyObserver {
            observer,
            default: Some(self.default),
        })
    }
}

/// The observer [`DefaultIfEmpty`] subscribes upstream.
#[derive(Debug)]
pub struct DefaultIfEmptyObserver<O, T> {
    observer: O,
    /// Dropped with the first value: from then on the source is known not to be empty.
    default: Option<T>,
}

impl<T, O: Observer<T>> Observer<T> for DefaultIfEmptyObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.default = None;
        self.observer.on_next(value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        let mut observer = self.observer;
        if let Some(default) = self.default {
            observer.on_next(default);
            if observer.is_disposed() {
                return;
            }
        }
        observer.on_completed();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn a_non_empty_source_passes_unchanged() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .default_if_empty(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn an_empty_source_emits_the_default() {
        let o = TestObserver::new();
        empty().default_if_empty(42).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(42), Notification::Completed]);
    }

    #[test]
    fn error_passes_through_without_the_default() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .default_if_empty(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .default_if_empty(0)
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("mid-way");
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .default_if_empty(-1)
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
        assert_eq!(emitted, 3);
    }

    #[test]
    fn downstream_disposed_by_the_default_is_not_completed() {
        let o = TestObserver::new();
        let probe = o.clone();
        empty()
            .default_if_empty(5)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[5]);
        o.assert_not_terminated();
    }
}
