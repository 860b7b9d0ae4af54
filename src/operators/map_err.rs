//! [`ObservableExt::map_err`](crate::ObservableExt::map_err).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Transforms the error that terminates a sequence; built by
/// [`ObservableExt::map_err`](crate::ObservableExt::map_err).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "onErrorMap")]
#[doc(alias = "map_error")]
pub struct MapErr<S, F> {
    source: S,
    f: F,
}

impl<S, F> MapErr<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        MapErr { source, f }
    }
}

impl<S, F, E> Observable for MapErr<S, F>
where
    S: Observable,
    F: FnOnce(Error) -> E,
    E: Into<Error>,
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, F, E, O> Subscribe<O> for MapErr<S, F>
where
    S: Subscribe<MapErrObserver<O, F>>,
    F: FnOnce(Error) -> E,
    E: Into<Error>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(MapErrObserver {
            observer,
            f: self.f,
        })
    }
}

/// The observer [`MapErr`] subscribes upstream.
#[derive(Debug)]
pub struct MapErrObserver<O, F> {
    observer: O,
    f: F,
}

impl<T, E, O, F> Observer<T> for MapErrObserver<O, F>
where
    O: Observer<T>,
    F: FnOnce(Error) -> E,
    E: Into<Error>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error((self.f)(error).into())
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
    use std::fmt;

    #[derive(Debug)]
    struct Context(String, Error);

    impl fmt::Display for Context {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}: {}", self.0, self.1)
        }
    }

    impl std::error::Error for Context {}

    #[test]
    fn transforms_the_error_after_the_values() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .map_err(|e| Error::msg(format!("wrapped: {e}")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Error(Error::msg("wrapped: cut")),
        ]);
    }

    #[test]
    fn accepts_any_std_error() {
        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("disk"))
            .map_err(|e| Context("loading".into(), e))
            .subscribe_observer(o.clone());
        o.assert_error("loading: disk");
        let error = o.error().unwrap();
        assert_eq!(
            error.downcast_ref::<Context>().unwrap().1,
            Error::msg("disk")
        );
    }

    #[test]
    fn completion_is_untouched_and_f_is_not_called() {
        let o = TestObserver::new();
        from_iter(1..=2)
            .map_err(|_| -> Error { unreachable!() })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
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
            .map_err(|e| e)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }
}
