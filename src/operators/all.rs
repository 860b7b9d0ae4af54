//! [`ObservableExt::all`](crate::ObservableExt::all).

use super::reduce::complete_with;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits whether every value satisfies a predicate; built by
/// [`ObservableExt::all`](crate::ObservableExt::all).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "every")]
pub struct All<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> All<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        All { source, predicate }
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, P> Observable for All<S, P> {
    type Item = bool;
    type Flavour = <S as Observable>::Flavour;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, P, O> Subscribe<O> for All<S, P>
where
    O: Observer<bool>,
    S: Subscribe<AllObserver<O, P>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(AllObserver::new(observer, self.predicate))
    }
}

/// The observer [`All`] subscribes upstream.
pub type AllObserver<O, P> = QuantifierObserver<O, P, false>;

/// The observer of [`All`] (`ANY = false`) and of [`Any`](super::any::Any) (`ANY = true`):
/// the answer is `ANY` at the first value whose predicate says `ANY`, and `!ANY` if the source
/// completes before one.
#[derive(Debug)]
pub struct QuantifierObserver<O, P, const ANY: bool> {
    // `None` once the answer is known: upstream sees that as disposal and stops.
    observer: Option<O>,
    predicate: P,
}

impl<O, P, const ANY: bool> QuantifierObserver<O, P, ANY> {
    pub(crate) fn new(observer: O, predicate: P) -> Self {
        QuantifierObserver {
            observer: Some(observer),
            predicate,
        }
    }
}

impl<T, O, P, const ANY: bool> Observer<T> for QuantifierObserver<O, P, ANY>
where
    O: Observer<bool>,
    P: FnMut(T) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if let Some(observer) = self.observer.take_if(|_| (self.predicate)(value) == ANY) {
            complete_with(observer, ANY);
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
            complete_with(observer, !ANY)
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
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;

    #[test]
    fn true_when_every_value_passes() {
        let o = TestObserver::new();
        from_iter([2, 4, 6])
            .all(|v| v % 2 == 0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(true), N::Completed]);
    }

    #[test]
    fn false_at_the_first_failure_and_upstream_stops() {
        let o = TestObserver::new();
        let mut tested = Vec::new();
        from_iter(0..)
            .all(|v| {
                tested.push(v);
                v < 3
            })
            .subscribe_observer(o.clone());
        assert_eq!(tested, [0, 1, 2, 3]);
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn empty_source_is_vacuously_true() {
        let o = TestObserver::new();
        empty::<i32>().all(|_| false).subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(true), N::Completed]);
    }

    #[test]
    fn error_before_the_answer_passes_through() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .all(|v| v > 0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn error_after_the_answer_is_ignored() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Next(-1), N::Error(Error::msg("late"))])
            .dematerialize()
            .all(|v| v > 0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(false), N::Completed]);

        // A source that does not check `is_disposed` still cannot reach the downstream.
        let o = TestObserver::new();
        let mut observer = super::AllObserver::new(o.clone(), |v: i32| v > 0);
        observer.on_next(-1);
        assert!(observer.is_disposed());
        observer.on_next(-2);
        observer.on_error(Error::msg("late"));
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut tested = 0;
        from_iter(0..)
            .all(|_| {
                tested += 1;
                if tested == 3 {
                    probe.dispose();
                }
                true
            })
            .subscribe_observer(o.clone());
        assert_eq!(tested, 3);
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
