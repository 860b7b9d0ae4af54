//! [`ObservableExt::find`](crate::ObservableExt::find).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the first value a predicate accepts, then completes; built by
/// [`ObservableExt::find`](crate::ObservableExt::find).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Find<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> Find<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        Find { source, predicate }
    }
}

impl<S: Observable, P> Observable for Find<S, P> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, P, O> Subscribe<O> for Find<S, P>
where
    S: Subscribe<FindObserver<O, P>>,
    P: FnMut(&<S as Observable>::Item) -> bool,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(FindObserver {
            observer: Some(observer),
            predicate: self.predicate,
        })
    }
}

/// The observer [`Find`] subscribes upstream.
#[derive(Debug)]
pub struct FindObserver<O, P> {
    /// `None` once the match has been delivered.
    observer: Option<O>,
    predicate: P,
}

impl<T, O, P> Observer<T> for FindObserver<O, P>
where
    O: Observer<T>,
    P: FnMut(&T) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.observer.is_none() || !(self.predicate)(&value) {
            return;
        }
        if let Some(mut observer) = self.observer.take() {
            observer.on_next(value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
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
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};

    #[test]
    fn the_first_match_then_completion_and_the_source_stops() {
        let o = TestObserver::new();
        let mut pulled = 0;
        let handle = from_iter((1..).inspect(|_| pulled += 1))
            .find(|v| v % 7 == 0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(7), Completed]);
        assert_eq!(pulled, 7);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn no_match_completes_empty_and_errors_pass() {
        let o = TestObserver::new();
        from_iter(1..5)
            .find(|v| *v > 10)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::<i32>::new();
        empty().find(|_| true).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::<i32>::new();
        throw(Error::msg("boom"))
            .find(|_| true)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("boom"))]);
    }

    #[test]
    fn nothing_after_the_match_even_from_a_careless_source() {
        let o = TestObserver::new();
        let mut observer = super::FindObserver {
            observer: Some(o.clone()),
            predicate: |v: &i32| *v > 1,
        };
        observer.on_next(1);
        assert!(!observer.is_disposed());
        observer.on_next(2);
        assert!(observer.is_disposed());
        observer.on_next(3);
        observer.on_error(Error::msg("late"));
        o.assert_notifications(&[Next(2), Completed]);
    }

    #[test]
    fn disposed_downstream_stops_the_search() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut calls = 0;
        from_iter(0..)
            .find(|_| {
                calls += 1;
                false
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(calls, 0);

        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .find(|v| *v == 3)
            .tap(move |_| probe.dispose())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(3)]);
    }
}
