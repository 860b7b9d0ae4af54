//! [`ObservableExt::try_scan`](crate::ObservableExt::try_scan).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits each intermediate result of a fallible accumulation, failing on its first `Err`;
/// built by [`ObservableExt::try_scan`](crate::ObservableExt::try_scan).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct TryScan<S, A, F> {
    source: S,
    seed: A,
    f: F,
}

impl<S, A, F> TryScan<S, A, F> {
    pub(crate) fn new(source: S, seed: A, f: F) -> Self {
        TryScan { source, seed, f }
    }
}

impl<S, A, F, E> Observable for TryScan<S, A, F>
where
    S: Observable,
    F: FnMut(A, S::Item) -> Result<A, E>,
{
    type Item = A;
    type Flavour = S::Flavour;
}

impl<S, A, F, E, O> Subscribe<O> for TryScan<S, A, F>
where
    S: Subscribe<TryScanObserver<O, A, F>>,
    F: FnMut(A, <S as Observable>::Item) -> Result<A, E>,
    E: Into<Error>,
    A: Clone,
    O: Observer<A>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TryScanObserver {
            observer: Some(observer),
            acc: Some(self.seed),
            f: self.f,
        })
    }
}

/// The observer [`TryScan`] subscribes upstream.
#[derive(Debug)]
pub struct TryScanObserver<O, A, F> {
    /// `None` once an `Err` has terminated the downstream.
    observer: Option<O>,
    /// The accumulator, moved into `f` for each value; `None` while `f` runs, after it
    /// failed or panicked.
    acc: Option<A>,
    f: F,
}

impl<T, A, E, O, F> Observer<T> for TryScanObserver<O, A, F>
where
    O: Observer<A>,
    F: FnMut(A, T) -> Result<A, E>,
    E: Into<Error>,
    A: Clone,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let (Some(observer), Some(acc)) = (&mut self.observer, self.acc.take()) else {
            return;
        };
        match (self.f)(acc, value) {
            Ok(next) => {
                self.acc = Some(next.clone());
                observer.on_next(next);
            }
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
    use crate::{Error, Notification::*};

    #[test]
    fn accumulates_and_fails_on_overflow() {
        let o = TestObserver::new();
        from_iter([100u8, 100, 100, 1])
            .try_scan(0u8, |acc, v| {
                acc.checked_add(v).ok_or(Error::msg("overflow"))
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(100), Next(200), Error(Error::msg("overflow"))]);
    }

    #[test]
    fn completes_when_every_step_is_ok() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .try_scan(String::new(), |acc, v| Ok::<_, Error>(format!("{acc}{v}")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next("1".to_string()),
            Next("12".to_string()),
            Next("123".to_string()),
            Completed,
        ]);
    }

    #[test]
    fn the_source_stops_at_the_err_and_nothing_follows() {
        let o = TestObserver::new();
        let mut pulled = 0;
        from_iter((1..).inspect(|_| pulled += 1))
            .try_scan(0, |acc, v| {
                if v == 3 {
                    Err(Error::msg("three"))
                } else {
                    Ok(acc + v)
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(3), Error(Error::msg("three"))]);
        assert_eq!(pulled, 3);

        let o = TestObserver::new();
        let mut observer = super::TryScanObserver {
            observer: Some(o.clone()),
            acc: Some(0),
            f: |_: i32, _: i32| Err::<i32, _>(Error::msg("no")),
        };
        observer.on_next(1);
        assert!(observer.is_disposed());
        observer.on_next(2);
        observer.on_completed();
        o.assert_notifications(&[Error(Error::msg("no"))]);
    }

    #[test]
    fn empty_and_error_pass_through() {
        let o = TestObserver::<i32>::new();
        empty::<i32>()
            .try_scan(0, |a, v| Ok::<_, Error>(a + v))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("bad"))
            .try_scan(0, |a, v| Ok::<_, Error>(a + v))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("bad"))]);
    }
}
