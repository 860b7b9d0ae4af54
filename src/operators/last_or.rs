//! [`ObservableExt::last_or`](crate::ObservableExt::last_or).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the last value, or a default on an empty source, when the source completes; built by
/// [`ObservableExt::last_or`](crate::ObservableExt::last_or).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "lastOrDefault")]
pub struct LastOr<S, T> {
    source: S,
    default: T,
}

impl<S, T> LastOr<S, T> {
    pub(crate) fn new(source: S, default: T) -> Self {
        LastOr { source, default }
    }
}

impl<S: Observable<Item = T>, T> Observable for LastOr<S, T> {
    type Item = T;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, T, O> Subscribe<O> for LastOr<S, T>
where
    S: Subscribe<LastOrObserver<O, T>> + Observable<Item = T>,
    O: Observer<T>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(LastOrObserver {
            observer,
            last: self.default,
        })
    }
}

/// The observer [`LastOr`] subscribes upstream.
#[derive(Debug)]
pub struct LastOrObserver<O, T> {
    observer: O,
    /// The default until a value arrives, then the latest value.
    last: T,
}

impl<T, O: Observer<T>> Observer<T> for LastOrObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.last = value;
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        let mut observer = self.observer;
        observer.on_next(self.last);
        if !observer.is_disposed() {
            observer.on_completed();
        }
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
    fn emits_the_last_value_on_completion() {
        let o = TestObserver::new();
        from_iter([7, 8, 9])
            .last_or(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(9), Notification::Completed]);
    }

    #[test]
    fn empty_source_emits_the_default() {
        let o = TestObserver::new();
        empty().last_or(42).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(42), Notification::Completed]);
    }

    #[test]
    fn error_mid_way_emits_neither_value_nor_default() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .last_or(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .last_or(0)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("mid-way"))]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .last_or(-1)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(emitted, 4);
    }

    #[test]
    fn downstream_disposed_by_the_value_is_not_completed() {
        let o = TestObserver::new();
        let probe = o.clone();
        empty()
            .last_or(5)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[5]);
        o.assert_not_terminated();
    }
}
