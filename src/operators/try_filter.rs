//! [`ObservableExt::try_filter`](crate::ObservableExt::try_filter).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the values a fallible predicate accepts, failing on its first `Err`; built by
/// [`ObservableExt::try_filter`](crate::ObservableExt::try_filter).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct TryFilter<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> TryFilter<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        TryFilter { source, predicate }
    }
}

impl<S: Observable, P> Observable for TryFilter<S, P> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, P, E, O> Subscribe<O> for TryFilter<S, P>
where
    S: Subscribe<TryFilterObserver<O, P>>,
    P: FnMut(&<S as Observable>::Item) -> Result<bool, E>,
    E: Into<Error>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TryFilterObserver {
            observer: Some(observer),
            predicate: self.predicate,
        })
    }
}

/// The observer [`TryFilter`] subscribes upstream.
#[derive(Debug)]
pub struct TryFilterObserver<O, P> {
    /// `None` once an `Err` has terminated the downstream.
    observer: Option<O>,
    predicate: P,
}

impl<T, E, O, P> Observer<T> for TryFilterObserver<O, P>
where
    O: Observer<T>,
    P: FnMut(&T) -> Result<bool, E>,
    E: Into<Error>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let Some(observer) = &mut self.observer else {
            return;
        };
        match (self.predicate)(&value) {
            Ok(true) => observer.on_next(value),
            Ok(false) => {}
            Err(error) => {
                if let Some(observer) = self.observer.take() {
                    observer.on_error(error.into());
                }
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
    use crate::source::{from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};

    #[test]
    fn keeps_accepted_values_and_fails_on_the_first_err() {
        let o = TestObserver::new();
        let mut calls = 0;
        from_iter(0..100)
            .try_filter(|v| {
                calls += 1;
                if *v == 5 {
                    Err(Error::msg("five"))
                } else {
                    Ok(v % 2 == 0)
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Next(2), Next(4), Error(Error::msg("five"))]);
        assert_eq!(calls, 6, "the source stops at the error");
    }

    #[test]
    fn completes_when_every_call_is_ok() {
        let o = TestObserver::new();
        let handle = from_iter(1..=4)
            .try_filter(|v| Ok::<_, Error>(*v > 2))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(3), Next(4), Completed]);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn nothing_after_the_err_even_from_a_careless_source() {
        let o = TestObserver::new();
        let mut observer = super::TryFilterObserver {
            observer: Some(o.clone()),
            predicate: |v: &i32| {
                if *v == 2 {
                    Err(Error::msg("two"))
                } else {
                    Ok(true)
                }
            },
        };
        observer.on_next(1);
        observer.on_next(2);
        assert!(observer.is_disposed());
        observer.on_next(3);
        observer.on_completed();
        o.assert_notifications(&[Next(1), Error(Error::msg("two"))]);
    }

    #[test]
    fn errors_pass_and_a_disposed_downstream_stops_the_source() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .try_filter(|_| Ok::<_, Error>(true))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("bad"))]);

        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut calls = 0;
        from_iter(0..)
            .try_filter(|_| {
                calls += 1;
                Ok::<_, Error>(true)
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(calls, 0);
    }
}
