//! [`ObservableExt::on_error_return`](crate::ObservableExt::on_error_return).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Replaces an error with one last value and completion; built by
/// [`ObservableExt::on_error_return`](crate::ObservableExt::on_error_return).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "onErrorReturn")]
#[doc(alias = "onErrorReturnItem")]
pub struct OnErrorReturn<S, F> {
    source: S,
    f: F,
}

impl<S, F> OnErrorReturn<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        OnErrorReturn { source, f }
    }
}

impl<S, F> Observable for OnErrorReturn<S, F>
where
    S: Observable,
    F: FnOnce(Error) -> S::Item,
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, F, O> Subscribe<O> for OnErrorReturn<S, F>
where
    S: Subscribe<OnErrorReturnObserver<O, F>>,
    F: FnOnce(Error) -> <S as Observable>::Item,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(OnErrorReturnObserver {
            observer,
            f: self.f,
        })
    }
}

/// The observer [`OnErrorReturn`] subscribes upstream.
#[derive(Debug)]
pub struct OnErrorReturnObserver<O, F> {
    observer: O,
    f: F,
}

impl<T, O, F> Observer<T> for OnErrorReturnObserver<O, F>
where
    O: Observer<T>,
    F: FnOnce(Error) -> T,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(mut self, error: Error) {
        if self.observer.is_disposed() {
            return;
        }
        self.observer.on_next((self.f)(error));
        if !self.observer.is_disposed() {
            self.observer.on_completed()
        }
    }

    #[inline]
    fn on_completed(self) {
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn error_becomes_a_last_value_and_completion() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Err(Error::msg("cut")), Ok(4)])
            .try_map(|r| r)
            .on_error_return(|e| e.to_string().len() as i32 * 100)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(300),
            Notification::Completed,
        ]);
    }

    #[test]
    fn the_closure_sees_the_error() {
        let o = TestObserver::new();
        throw::<String>(Error::msg("bad"))
            .on_error_return(|e| format!("recovered from {e}"))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next("recovered from bad".to_string()),
            Notification::Completed,
        ]);
    }

    #[test]
    fn completion_passes_through_without_calling_f() {
        let o = TestObserver::new();
        from_iter(1..=2)
            .on_error_return(|_| unreachable!())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
    }

    #[test]
    fn disposed_by_the_fallback_value_gets_no_completion() {
        let o = TestObserver::new();
        let probe = o.clone();
        throw::<i32>(Error::msg("bad"))
            .on_error_return(|_| 7)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(7)]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(|v| {
                if v == 1 {
                    probe.dispose();
                }
                v
            })
            .on_error_return(|_| -1)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }
}
