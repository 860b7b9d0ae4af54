//! [`ObservableExt::try_map`](crate::ObservableExt::try_map).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Applies a fallible closure to each value, turning the first `Err` into an error; built by
/// [`ObservableExt::try_map`](crate::ObservableExt::try_map).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct TryMap<S, F> {
    source: S,
    f: F,
}

impl<S, F> TryMap<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        TryMap { source, f }
    }
}

impl<S, F, U, E> Observable for TryMap<S, F>
where
    S: Observable,
    F: FnMut(S::Item) -> Result<U, E>,
    E: Into<Error>,
{
    type Item = U;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, F, U, E, O> Subscribe<O> for TryMap<S, F>
where
    S: Subscribe<TryMapObserver<O, F>>,
    F: FnMut(<S as Observable>::Item) -> Result<U, E>,
    E: Into<Error>,
    O: Observer<U>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TryMapObserver {
            observer: Some(observer),
            f: self.f,
        })
    }
}

/// The observer [`TryMap`] subscribes upstream.
#[derive(Debug)]
pub struct TryMapObserver<O, F> {
    /// `None` once an `Err` has terminated the downstream.
    observer: Option<O>,
    f: F,
}

impl<T, U, E, O, F> Observer<T> for TryMapObserver<O, F>
where
    O: Observer<U>,
    F: FnMut(T) -> Result<U, E>,
    E: Into<Error>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let Some(observer) = &mut self.observer else {
            return;
        };
        match (self.f)(value) {
            Ok(mapped) => observer.on_next(mapped),
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
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn maps_each_value_then_completes() {
        let o = TestObserver::new();
        from_iter(["1", "2", "3"])
            .try_map(str::parse::<i32>)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn the_first_err_becomes_the_error_and_stops_upstream() {
        // An endless source: the test ends only if upstream stops.
        let o = TestObserver::new();
        from_iter(0..)
            .try_map(|v| {
                if v < 2 {
                    Ok(v)
                } else {
                    Err(Error::msg("too big"))
                }
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_error("too big");
    }

    #[test]
    fn any_std_error_converts() {
        let o = TestObserver::<i32>::new();
        from_iter(["7", "x", "8"])
            .try_map(str::parse::<i32>)
            .subscribe_observer(o.clone());
        o.assert_values(&[7]);
        o.assert_error("invalid digit found in string");
        assert!(o.error().unwrap().is::<std::num::ParseIntError>());
    }

    #[test]
    fn nothing_after_the_err_even_from_a_careless_source() {
        let o = TestObserver::new();
        let mut observer = super::TryMapObserver {
            observer: Some(o.clone()),
            f: |v: i32| {
                if v == 2 {
                    Err(Error::msg("two"))
                } else {
                    Ok(v)
                }
            },
        };
        observer.on_next(1);
        observer.on_next(2);
        assert!(observer.is_disposed());
        observer.on_next(3);
        observer.on_completed();
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Error(Error::msg("two")),
        ]);
    }

    #[test]
    fn empty_and_error_pass_through() {
        let o = TestObserver::<i32>::new();
        empty::<i32>()
            .try_map(Ok::<_, Error>)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("bad"))
            .try_map(Ok::<_, Error>)
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        from_iter(0..)
            .try_map(Ok::<_, Error>)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }
}
