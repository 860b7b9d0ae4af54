//! [`ObservableExt::end_with`](crate::ObservableExt::end_with).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits a value after the source completes; built by
/// [`ObservableExt::end_with`](crate::ObservableExt::end_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "endWith")]
#[doc(alias = "append")]
pub struct EndWith<S, T> {
    source: S,
    value: T,
}

impl<S, T> EndWith<S, T> {
    pub(crate) fn new(source: S, value: T) -> Self {
        EndWith { source, value }
    }
}

impl<S, T> Observable for EndWith<S, T>
where
    S: Observable<Item = T>,
{
    type Item = T;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, T, O> Subscribe<O> for EndWith<S, T>
where
    S: Subscribe<EndWithObserver<O, T>> + Observable<Item = T>,
    O: Observer<T>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(EndWithObserver {
            observer,
            value: self.value,
        })
    }
}

/// The observer [`EndWith`] subscribes upstream; it holds the value until completion.
#[derive(Debug)]
pub struct EndWithObserver<O, T> {
    observer: O,
    value: T,
}

impl<T, O: Observer<T>> Observer<T> for EndWithObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        let EndWithObserver {
            mut observer,
            value,
        } = self;
        if !observer.is_disposed() {
            observer.on_next(value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
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
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just, never, throw};
    use crate::testing::TestObserver;

    #[test]
    fn emits_the_source_then_the_value() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2]).end_with(9).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(9),
            Notification::Completed,
        ]);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn chained_calls_keep_their_order() {
        let o = TestObserver::new();
        just(0)
            .end_with(1)
            .end_with(2)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
    }

    #[test]
    fn empty_source_gives_the_value_alone() {
        let o = TestObserver::new();
        empty().end_with(9).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(9), Notification::Completed]);
    }

    #[test]
    fn no_value_without_completion() {
        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("bad"));
        })
        .end_with(9)
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("bad");

        let o = TestObserver::new();
        throw(Error::msg("bad"))
            .end_with(9)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error("bad");

        let o = TestObserver::new();
        never().end_with(9).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn disposed_downstream_stops_the_source_and_gets_no_value() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .end_with(-1)
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
        from_iter([0, 1])
            .end_with(9)
            .map(|v| {
                if v == 9 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 9]);
        o.assert_not_terminated();
    }
}
