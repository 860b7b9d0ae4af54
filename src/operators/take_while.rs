//! [`ObservableExt::take_while`](crate::ObservableExt::take_while).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// Emits values while a predicate holds, then completes; built by
/// [`ObservableExt::take_while`](crate::ObservableExt::take_while).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "takeWhile")]
pub struct TakeWhile<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> TakeWhile<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        TakeWhile { source, predicate }
    }
}

impl<S: fmt::Debug, P> fmt::Debug for TakeWhile<S, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TakeWhile")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, P> Observable for TakeWhile<S, P> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, P, O> Subscribe<O> for TakeWhile<S, P>
where
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<TakeWhileObserver<O, P>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TakeWhileObserver {
            observer: Some(observer),
            predicate: self.predicate,
        })
    }
}

/// The observer [`TakeWhile`] subscribes upstream.
pub struct TakeWhileObserver<O, P> {
    /// `None` once the predicate has failed and the downstream has been completed.
    observer: Option<O>,
    predicate: P,
}

impl<O: fmt::Debug, P> fmt::Debug for TakeWhileObserver<O, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TakeWhileObserver")
            .field("observer", &self.observer)
            .finish_non_exhaustive()
    }
}

impl<T, O, P> Observer<T> for TakeWhileObserver<O, P>
where
    O: Observer<T>,
    P: FnMut(&T) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let Some(observer) = &mut self.observer else {
            return;
        };
        if (self.predicate)(&value) {
            observer.on_next(value);
        } else if let Some(observer) = self.observer.take().filter(|o| !o.is_disposed()) {
            observer.on_completed();
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
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn completes_on_the_first_rejected_value_without_emitting_it() {
        let o = TestObserver::new();
        from_iter([1, 2, 5, 1, 2])
            .take_while(|v| *v < 3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
    }

    #[test]
    fn all_or_none_accepted() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .take_while(|_| true)
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();

        let o = TestObserver::new();
        from_iter(1..=3)
            .take_while(|_| false)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty().take_while(|_| true).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn an_endless_source_stops_at_the_rejected_value() {
        let mut emitted = 0;
        let mut tested = 0;
        let o = TestObserver::new();
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .take_while(|v| {
                tested += 1;
                *v < 3
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
        assert_eq!((emitted, tested), (4, 4));
    }

    #[test]
    fn error_passes_through_before_the_predicate_fails() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .take_while(|_| true)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .take_while(|v| *v < 3)
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("mid-way");
    }

    #[test]
    fn nothing_passes_after_the_predicate_fails() {
        let o = TestObserver::new();
        let mut take_while = super::TakeWhileObserver {
            observer: Some(o.clone()),
            predicate: |v: &i32| *v < 3,
        };
        take_while.on_next(5);
        assert!(Observer::<i32>::is_disposed(&take_while));
        take_while.on_next(1);
        take_while.on_error(Error::msg("late"));
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                if v == 1 {
                    probe.dispose();
                }
                v
            })
            .take_while(|_| true)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
        assert_eq!(emitted, 2);
    }
}
