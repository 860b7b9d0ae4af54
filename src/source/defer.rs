//! [`defer`]: an observable built anew for each subscription.

use crate::observable::{Observable, Subscribe};
use std::fmt;

/// An observable that calls `factory` when it is subscribed and subscribes to the observable
/// it returns.
///
/// The factory runs on every subscription (clone the `Defer` to subscribe again), so what it
/// reads is read at subscribe time, not when the pipeline is built: the way to make `just`
/// or `from_iter` see fresh state on each `retry` or `repeat`.
///
/// ```text
/// defer(|| just(n)): (n|)   with n read at subscribe time
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
/// use std::cell::Cell;
///
/// let calls = Cell::new(0);
/// let source = rx::source::defer(|| {
///     calls.set(calls.get() + 1);
///     rx::source::just(calls.get())
/// });
/// assert_eq!(calls.get(), 0, "nothing runs before subscribe");
///
/// let observer = TestObserver::new();
/// source.clone().subscribe_observer(observer.clone());
/// source.subscribe_observer(observer.clone());
/// observer.assert_values(&[1, 2]);
/// ```
///
/// # Performance
///
/// No allocation, no lock: the factory is called and its observable subscribed directly.
pub fn defer<F, S>(factory: F) -> Defer<F>
where
    F: FnOnce() -> S,
    S: Observable,
{
    Defer { factory }
}

/// Builds its observable at subscribe time; built by [`defer`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Defer<F> {
    factory: F,
}

impl<F> fmt::Debug for Defer<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Defer")
    }
}

impl<F, S> Observable for Defer<F>
where
    F: FnOnce() -> S,
    S: Observable,
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // The factory runs inside `subscribe`, and what it returns is subscribed there.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<F, S, O> Subscribe<O> for Defer<F>
where
    F: FnOnce() -> S,
    S: Subscribe<O>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        (self.factory)().subscribe_observer(observer)
    }
}

#[cfg(test)]
mod tests {
    use super::defer;
    use crate::Error;
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn factory_runs_at_each_subscription() {
        let calls = Cell::new(0);
        let source = defer(|| {
            calls.set(calls.get() + 1);
            from_iter(0..calls.get())
        });
        assert_eq!(calls.get(), 0);
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        o.assert_values(&[0]);
        o.assert_completed();
        let o = TestObserver::new();
        source.subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_completed();
        assert_eq!(calls.get(), 2);
    }

    #[test]
    fn empty_and_error_pass_through() {
        let o = TestObserver::<i32>::new();
        defer(empty::<i32>).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        defer(|| throw::<i32>(Error::msg("bad"))).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error("bad");

        let o = TestObserver::new();
        defer(|| {
            create(|mut e| {
                e.on_next(1);
                e.on_error(Error::msg("mid-way"));
            })
        })
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("mid-way");
    }

    #[test]
    fn disposed_downstream_stops_the_deferred_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        defer(|| from_iter(0..))
            .map(|v| {
                if v == 1 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }
}
