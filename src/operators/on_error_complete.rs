//! [`ObservableExt::on_error_complete`](crate::ObservableExt::on_error_complete) and
//! [`ObservableExt::on_error_complete_if`](crate::ObservableExt::on_error_complete_if).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Replaces an error, or one the predicate accepts, with completion; built by
/// [`ObservableExt::on_error_complete`](crate::ObservableExt::on_error_complete) and
/// [`ObservableExt::on_error_complete_if`](crate::ObservableExt::on_error_complete_if).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "onErrorComplete")]
pub struct OnErrorComplete<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> OnErrorComplete<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        OnErrorComplete { source, predicate }
    }
}

/// The predicate of [`on_error_complete`](crate::ObservableExt::on_error_complete): every
/// error completes.
pub(crate) fn every_error(_: &Error) -> bool {
    true
}

impl<S, P> Observable for OnErrorComplete<S, P>
where
    S: Observable,
    P: FnOnce(&Error) -> bool,
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, P, O> Subscribe<O> for OnErrorComplete<S, P>
where
    S: Subscribe<OnErrorCompleteObserver<O, P>>,
    P: FnOnce(&Error) -> bool,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(OnErrorCompleteObserver {
            observer,
            predicate: self.predicate,
        })
    }
}

/// The observer [`OnErrorComplete`] subscribes upstream.
#[derive(Debug)]
pub struct OnErrorCompleteObserver<O, P> {
    observer: O,
    predicate: P,
}

impl<T, O, P> Observer<T> for OnErrorCompleteObserver<O, P>
where
    O: Observer<T>,
    P: FnOnce(&Error) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        if (self.predicate)(&error) {
            self.observer.on_completed()
        } else {
            self.observer.on_error(error)
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

/// RxJava 3's `ObservableOnErrorCompleteTest`, ported: every case but the predicate that
/// throws (a panicking predicate unwinds, ARCHITECTURE.md, "Panics") and the double
/// `onSubscribe` (rx has no `onSubscribe`).
#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{empty, from_iter, range, throw};
    use crate::subjects::PublishSubject;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[derive(Debug)]
    struct Timeout;

    impl std::fmt::Display for Timeout {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("timed out")
        }
    }

    impl std::error::Error for Timeout {}

    #[test]
    fn normal() {
        let o = TestObserver::new();
        range(1, 10)
            .on_error_complete()
            .subscribe_observer(o.clone());
        o.assert_values(&(1..=10).collect::<Vec<i32>>());
        o.assert_completed();
    }

    #[test]
    fn empty_completes() {
        let o = TestObserver::<i32>::new();
        empty().on_error_complete().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_becomes_completion() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("boom"))
            .on_error_complete()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_the_predicate_accepts_completes() {
        let o = TestObserver::<i32>::new();
        throw(Error::new(Timeout))
            .on_error_complete_if(|e| e.is::<Timeout>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_the_predicate_refuses_passes_on() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("io"))
            .on_error_complete_if(|e| e.is::<Timeout>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("io"))]);
    }

    #[test]
    fn values_then_error() {
        let o = TestObserver::new();
        from_iter(1..=5)
            .try_map(|v: i32| 4i32.checked_div(3 - v).ok_or(Error::msg("/ by zero")))
            .on_error_complete()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(2),
            Notification::Next(4),
            Notification::Completed,
        ]);
    }

    #[test]
    fn dispose_unsubscribes_upstream() {
        let subject = PublishSubject::<i32>::new();
        let o = TestObserver::new();
        let handle = subject
            .observable()
            .on_error_complete()
            .subscribe_observer(o.clone());
        assert!(subject.has_observers());
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(!subject.has_observers());
    }

    #[test]
    fn the_predicate_is_not_called_on_completion() {
        let o = TestObserver::new();
        from_iter([1])
            .on_error_complete_if(|_| unreachable!())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
    }
}
