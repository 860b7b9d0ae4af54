//! [`ObservableExt::tap`](crate::ObservableExt::tap) and
//! [`ObservableExt::tap_with`](crate::ObservableExt::tap_with).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// Calls a closure with a reference to each value before passing it on; built by
/// [`ObservableExt::tap`](crate::ObservableExt::tap).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "do_on_next")]
#[doc(alias = "doOnNext")]
#[doc(alias = "inspect")]
pub struct Tap<S, F> {
    source: S,
    f: F,
}

impl<S, F> Tap<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        Tap { source, f }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for Tap<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tap")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, F> Observable for Tap<S, F> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, F, O> Subscribe<O> for Tap<S, F>
where
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<TapObserver<O, F>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TapObserver {
            observer,
            f: self.f,
        })
    }
}

/// The observer [`Tap`] subscribes upstream.
pub struct TapObserver<O, F> {
    observer: O,
    f: F,
}

impl<O: fmt::Debug, F> fmt::Debug for TapObserver<O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TapObserver")
            .field("observer", &self.observer)
            .finish_non_exhaustive()
    }
}

impl<T, O, F> Observer<T> for TapObserver<O, F>
where
    O: Observer<T>,
    F: FnMut(&T),
{
    #[inline]
    fn on_next(&mut self, value: T) {
        (self.f)(&value);
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
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

/// Calls one closure for each kind of notification before passing it on; built by
/// [`ObservableExt::tap_with`](crate::ObservableExt::tap_with).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "do_on_each")]
#[doc(alias = "doOnEach")]
#[doc(alias = "do")]
pub struct TapWith<S, N, E, C> {
    source: S,
    next: N,
    error: E,
    completed: C,
}

impl<S, N, E, C> TapWith<S, N, E, C> {
    pub(crate) fn new(source: S, next: N, error: E, completed: C) -> Self {
        TapWith {
            source,
            next,
            error,
            completed,
        }
    }
}

impl<S: fmt::Debug, N, E, C> fmt::Debug for TapWith<S, N, E, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TapWith")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, N, E, C> Observable for TapWith<S, N, E, C> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, N, E, C, O> Subscribe<O> for TapWith<S, N, E, C>
where
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<TapWithObserver<O, N, E, C>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TapWithObserver {
            observer,
            next: self.next,
            error: self.error,
            completed: self.completed,
        })
    }
}

/// The observer [`TapWith`] subscribes upstream.
pub struct TapWithObserver<O, N, E, C> {
    observer: O,
    next: N,
    error: E,
    completed: C,
}

impl<O: fmt::Debug, N, E, C> fmt::Debug for TapWithObserver<O, N, E, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TapWithObserver")
            .field("observer", &self.observer)
            .finish_non_exhaustive()
    }
}

impl<T, O, N, E, C> Observer<T> for TapWithObserver<O, N, E, C>
where
    O: Observer<T>,
    N: FnMut(&T),
    E: FnOnce(&Error),
    C: FnOnce(),
{
    #[inline]
    fn on_next(&mut self, value: T) {
        (self.next)(&value);
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        (self.error)(&error);
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        (self.completed)();
        self.observer.on_completed()
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
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;
    use std::cell::RefCell;

    #[test]
    fn tap_sees_each_value_before_downstream() {
        let log = RefCell::new(Vec::new());
        from_iter([1, 2])
            .tap(|v| log.borrow_mut().push(format!("tap {v}")))
            .subscribe_with(
                |v| log.borrow_mut().push(format!("next {v}")),
                |_| unreachable!(),
                || log.borrow_mut().push("completed".into()),
            );
        assert_eq!(
            log.into_inner(),
            ["tap 1", "next 1", "tap 2", "next 2", "completed"]
        );
    }

    #[test]
    fn tap_passes_values_and_terminals_unchanged() {
        let o = TestObserver::new();
        let mut seen = 0;
        from_iter([N::Next(1), N::Next(2), N::Error(Error::msg("bad"))])
            .dematerialize()
            .tap(|_| seen += 1)
            .subscribe_observer(o.clone());
        assert_eq!(seen, 2);
        o.assert_notifications(&[N::Next(1), N::Next(2), N::Error(Error::msg("bad"))]);

        let o = TestObserver::new();
        empty::<i32>()
            .tap(|_| unreachable!())
            .subscribe_observer(o.clone());
        o.assert_completed();
    }

    #[test]
    fn tap_with_runs_each_callback_before_downstream() {
        let log = RefCell::new(Vec::new());
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .tap_with(
                |v| log.borrow_mut().push(format!("tap next {v}")),
                |e| log.borrow_mut().push(format!("tap error {e}")),
                || log.borrow_mut().push("tap completed".into()),
            )
            .subscribe_with(
                |v| log.borrow_mut().push(format!("next {v}")),
                |e| log.borrow_mut().push(format!("error {e}")),
                || unreachable!(),
            );
        assert_eq!(
            log.take(),
            ["tap next 1", "next 1", "tap error bad", "error bad"]
        );

        from_iter([7])
            .tap_with(
                |v| log.borrow_mut().push(format!("tap next {v}")),
                |_| unreachable!(),
                || log.borrow_mut().push("tap completed".into()),
            )
            .subscribe_with(
                |v| log.borrow_mut().push(format!("next {v}")),
                |_| unreachable!(),
                || log.borrow_mut().push("completed".into()),
            );
        assert_eq!(
            log.take(),
            ["tap next 7", "next 7", "tap completed", "completed"]
        );
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut tapped = 0;
        from_iter(0..)
            .tap(|v| {
                tapped += 1;
                if *v == 2 {
                    probe.dispose();
                }
            })
            .subscribe_observer(o.clone());
        assert_eq!(tapped, 3);
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();

        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .tap_with(
                |v| {
                    if *v == 1 {
                        probe.dispose();
                    }
                },
                |_| unreachable!(),
                || unreachable!(),
            )
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }
}
