//! [`iif`]: one of two observables, chosen when subscribed.

use crate::observable::{Observable, Subscribe};
use std::fmt;

/// An observable that calls `condition` when it is subscribed, and subscribes to `then` if
/// it returns `true`, to `otherwise` if not (RxJS's `iif`, Rx.NET's `If`).
///
/// The condition runs on every subscription, so what it reads is read at subscribe time, as
/// with [`defer`](crate::source::defer), which `iif` is with a choice of two made in
/// advance. Both observables are built when the `Iif` is; for one that should be built only
/// when chosen, use `defer` with a closure. With no `otherwise`, pass
/// [`empty()`](crate::source::empty), as RxJS's `iif` completes at once.
///
/// ```text
/// then:          -a-b-|
/// otherwise:     --x--|
/// iif(true):     -a-b-|
/// iif(false):    --x--|
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
/// use std::cell::Cell;
///
/// let signed_in = Cell::new(false);
/// let source = rx::source::iif(
///     || signed_in.get(),
///     rx::source::just("welcome back"),
///     rx::source::just("please sign in"),
/// );
///
/// let observer = TestObserver::new();
/// source.clone().subscribe_observer(observer.clone());
/// signed_in.set(true);
/// source.subscribe_observer(observer.clone());
/// observer.assert_values(&["please sign in", "welcome back"]);
/// ```
///
/// # Performance
///
/// No allocation, no lock: the condition is called and the chosen observable subscribed
/// directly; the handle is the chosen one's, in an `Option` beside a `None`.
#[doc(alias = "If")]
pub fn iif<C, A, B>(condition: C, then: A, otherwise: B) -> Iif<C, A, B>
where
    C: FnOnce() -> bool,
    A: Observable,
    B: Observable<Item = A::Item>,
{
    Iif {
        condition,
        then,
        otherwise,
    }
}

/// Subscribes one of two observables, chosen at subscribe time; built by [`iif`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Iif<C, A, B> {
    condition: C,
    then: A,
    otherwise: B,
}

impl<C, A: fmt::Debug, B: fmt::Debug> fmt::Debug for Iif<C, A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iif")
            .field("then", &self.then)
            .field("otherwise", &self.otherwise)
            .finish_non_exhaustive()
    }
}

impl<C, A, B> Observable for Iif<C, A, B>
where
    C: FnOnce() -> bool,
    A: Observable,
    B: Observable<Item = A::Item>,
{
    type Item = A::Item;
    type Flavour = crate::sync::Joined<A::Flavour, B::Flavour>;
    // Either one is subscribed inside `subscribe`, so it calls back when that one would.
    const EMISSION: crate::observable::Emission = A::EMISSION.and(B::EMISSION);
}

impl<C, A, B, O> Subscribe<O> for Iif<C, A, B>
where
    C: FnOnce() -> bool,
    A: Subscribe<O>,
    B: Subscribe<O> + Observable<Item = <A as Observable>::Item>,
{
    /// The chosen observable's handle: `then`'s first, `otherwise`'s second.
    type Subscription = (Option<A::Subscription>, Option<B::Subscription>);

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if (self.condition)() {
            (Some(self.then.subscribe_observer(observer)), None)
        } else {
            (None, Some(self.otherwise.subscribe_observer(observer)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::iif;
    use crate::Error;
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just, never, throw};
    use crate::subjects::local::PublishSubject;
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn the_condition_runs_at_each_subscription() {
        let calls = Cell::new(0);
        let source = iif(
            || {
                calls.set(calls.get() + 1);
                calls.get() % 2 == 1
            },
            just(1),
            just(2),
        );
        assert_eq!(calls.get(), 0);
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        assert_eq!(calls.get(), 2);
    }

    #[test]
    fn errors_pass_through_from_the_chosen_side() {
        let o = TestObserver::<i32>::new();
        iif(|| false, empty(), throw(Error::msg("bad"))).subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn disposing_reaches_the_chosen_subject_only() {
        let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        let o = TestObserver::new();
        let handle = iif(|| true, a.observable(), b.observable()).subscribe_observer(o.clone());
        assert!(a.has_observers() && !b.has_observers());
        a.on_next(1);
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(!a.has_observers());
        a.on_next(2);
        o.assert_values(&[1]);
    }

    #[test]
    fn a_synchronous_choice_has_a_finished_handle() {
        let handle = iif(|| false, never::<i32>(), from_iter([1, 2])).subscribe(|_| {});
        assert!(handle.is_disposed());
    }
}
