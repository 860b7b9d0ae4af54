//! [`ObservableExt::dematerialize`](crate::ObservableExt::dematerialize).

use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Turns [`Notification`] values back into the notifications they describe; built by
/// [`ObservableExt::dematerialize`](crate::ObservableExt::dematerialize).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Dematerialize<S> {
    source: S,
}

impl<S> Dematerialize<S> {
    pub(crate) fn new(source: S) -> Self {
        Dematerialize { source }
    }
}

impl<S, T> Observable for Dematerialize<S>
where
    S: Observable<Item = Notification<T>>,
{
    type Item = T;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, T, O> Subscribe<O> for Dematerialize<S>
where
    S: Subscribe<DematerializeObserver<O>> + Observable<Item = Notification<T>>,
    O: Observer<T>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(DematerializeObserver {
            observer: Some(observer),
        })
    }
}

/// The observer [`Dematerialize`] subscribes upstream.
#[derive(Debug)]
pub struct DematerializeObserver<O> {
    // `None` once a terminal notification has arrived as a value: upstream sees that as
    // disposal and stops.
    observer: Option<O>,
}

impl<T, O: Observer<T>> Observer<Notification<T>> for DematerializeObserver<O> {
    #[inline]
    fn on_next(&mut self, notification: Notification<T>) {
        if let Some(observer) = self.observer.take() {
            self.observer = notification.deliver(observer);
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
            observer.on_completed()
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
    fn values_then_completion() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Next(2), N::Completed])
            .dematerialize()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(1), N::Next(2), N::Completed]);
    }

    #[test]
    fn an_error_notification_becomes_on_error() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("bad");
    }

    #[test]
    fn the_first_terminal_notification_stops_upstream() {
        let o = TestObserver::new();
        let mut pulled = 0;
        from_iter((0..).map(|i| if i == 2 { N::Completed } else { N::Next(i) }))
            .map(|n| {
                pulled += 1;
                n
            })
            .dematerialize()
            .subscribe_observer(o.clone());
        assert_eq!(pulled, 3);
        o.assert_notifications(&[N::Next(0), N::Next(1), N::Completed]);
    }

    #[test]
    fn upstream_terminal_passes_through_when_no_terminal_notification_came() {
        let o = TestObserver::new();
        from_iter([N::Next(1)])
            .dematerialize()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(1), N::Completed]);

        let o = TestObserver::<i32>::new();
        empty::<N<i32>>()
            .dematerialize()
            .subscribe_observer(o.clone());
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        throw::<N<i32>>(Error::msg("up"))
            .dematerialize()
            .subscribe_observer(o.clone());
        o.assert_error("up");
    }

    #[test]
    fn upstream_terminal_after_a_terminal_notification_is_ignored() {
        let o = TestObserver::<i32>::new();
        // `from_iter` would stop by itself; forward the terminal regardless of disposal, as a
        // source that does not check `is_disposed` would.
        let mut observer = super::DematerializeObserver {
            observer: Some(o.clone()),
        };
        observer.on_next(N::Completed);
        assert!(observer.is_disposed());
        observer.on_next(N::Next(5));
        observer.on_error(Error::msg("late"));
        o.assert_notifications(&[N::Completed]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter((0..).map(N::Next))
            .dematerialize()
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }
}
