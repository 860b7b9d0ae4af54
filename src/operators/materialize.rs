//! [`ObservableExt::materialize`](crate::ObservableExt::materialize).

use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits each notification of its source as a [`Notification`] value; built by
/// [`ObservableExt::materialize`](crate::ObservableExt::materialize).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Materialize<S> {
    source: S,
}

impl<S> Materialize<S> {
    pub(crate) fn new(source: S) -> Self {
        Materialize { source }
    }
}

impl<S: Observable> Observable for Materialize<S> {
    type Item = Notification<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Materialize<S>
where
    S: Subscribe<MaterializeObserver<O>>,
    O: Observer<Notification<<S as Observable>::Item>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(MaterializeObserver { observer })
    }
}

/// The observer [`Materialize`] subscribes upstream.
#[derive(Debug)]
pub struct MaterializeObserver<O> {
    observer: O,
}

impl<O> MaterializeObserver<O> {
    fn terminate<T>(mut self, last: Notification<T>)
    where
        O: Observer<Notification<T>>,
    {
        self.observer.on_next(last);
        if !self.observer.is_disposed() {
            self.observer.on_completed();
        }
    }
}

impl<T, O: Observer<Notification<T>>> Observer<T> for MaterializeObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(Notification::Next(value))
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.terminate(Notification::Error(error))
    }

    #[inline]
    fn on_completed(self) {
        self.terminate(Notification::Completed)
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
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn values_then_completion_as_values() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .materialize()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            N::Next(N::Next(1)),
            N::Next(N::Next(2)),
            N::Next(N::Completed),
            N::Completed,
        ]);
    }

    #[test]
    fn an_error_becomes_a_value_and_the_output_completes() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .materialize()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            N::Next(N::Next(1)),
            N::Next(N::Error(Error::msg("bad"))),
            N::Completed,
        ]);

        let o = TestObserver::new();
        throw::<u8>(Error::msg("e"))
            .materialize()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(N::Error(Error::msg("e"))), N::Completed]);
    }

    #[test]
    fn empty_source_emits_completed_as_a_value() {
        let o = TestObserver::new();
        empty::<i32>().materialize().subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(N::Completed), N::Completed]);
    }

    #[test]
    fn dematerialize_undoes_it() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Next(2), N::Error(Error::msg("x"))])
            .dematerialize()
            .materialize()
            .dematerialize()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(1), N::Next(2), N::Error(Error::msg("x"))]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .materialize()
            .map(|n| {
                if n == N::Next(2) {
                    probe.dispose();
                }
                n
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[N::Next(0), N::Next(1), N::Next(2)]);
        o.assert_not_terminated();
    }

    #[test]
    fn downstream_disposed_by_the_terminal_value_gets_no_completion() {
        let o = TestObserver::new();
        let probe = o.clone();
        just(1)
            .materialize()
            .map(|n| {
                if n.is_terminal() {
                    probe.dispose();
                }
                n
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[N::Next(1), N::Completed]);
        o.assert_not_terminated();
    }
}
