//! [`ObservableExt::start_with`](crate::ObservableExt::start_with).

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits a value before the source's; built by
/// [`ObservableExt::start_with`](crate::ObservableExt::start_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "startWith")]
#[doc(alias = "startWithItem")]
#[doc(alias = "prepend")]
pub struct StartWith<S, T> {
    source: S,
    value: T,
}

impl<S, T> StartWith<S, T> {
    pub(crate) fn new(source: S, value: T) -> Self {
        StartWith { source, value }
    }
}

impl<S, T> Observable for StartWith<S, T>
where
    S: Observable<Item = T>,
{
    type Item = T;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, T, O> Subscribe<O> for StartWith<S, T>
where
    S: Subscribe<O> + Observable<Item = T>,
    O: Observer<T>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, mut observer: O) -> Self::Subscription {
        if !observer.is_disposed() {
            observer.on_next(self.value);
        }
        // Subscribed even when the downstream has just gone, so the handle keeps the
        // source's (zero-sized for a synchronous source) type; the source checks
        // `is_disposed` before emitting anything.
        self.source.subscribe_observer(observer)
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just, never};
    use crate::testing::TestObserver;

    #[test]
    fn emits_the_value_then_the_source() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .start_with(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(0),
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn chained_calls_put_the_last_value_first() {
        let o = TestObserver::new();
        just(2)
            .start_with(1)
            .start_with(0)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
    }

    #[test]
    fn empty_never_and_error_mid_way() {
        let o = TestObserver::new();
        empty().start_with(7).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(7), Notification::Completed]);

        let o = TestObserver::new();
        never().start_with(7).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(7)]);

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("bad"));
        })
        .start_with(0)
        .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_error("bad");
    }

    #[test]
    fn disposed_downstream_stops_the_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(1..)
            .start_with(0)
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();

        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(1..)
            .start_with(0)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_before_subscribe_gets_nothing() {
        let o = TestObserver::new();
        o.dispose();
        just(1).start_with(0).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }
}
