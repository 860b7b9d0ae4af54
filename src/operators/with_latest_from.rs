//! [`ObservableExt::with_latest_from`](crate::ObservableExt::with_latest_from) and
//! [`ObservableExt::with_latest_from_with`](crate::ObservableExt::with_latest_from_with): each
//! value of a source, paired with the latest value of another.
//!
//! Built on the engine in `combine_core`: the other source only updates its
//! [`LatestSlot`]; a value of the main source queues a row when that slot has a value. Going
//! through the engine serialises the main source's values with an error from the other
//! source, which may arrive on another thread, and disposes both at the end.

use super::combine_core::{CombineSubscription, CombineWithObserver, Core, Step};
use super::combine_latest::LatestSlot;
use super::combine_slots::{Handle, Slot};
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::Arc;
use std::fmt;
use std::marker::PhantomData;

/// Pairs each value of an observable with the latest value of another; built by
/// [`ObservableExt::with_latest_from`](crate::ObservableExt::with_latest_from).
///
/// The lifetime `'a` bounds what the sources' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "withLatestFrom")]
pub struct WithLatestFrom<'a, S, S2> {
    source: S,
    other: S2,
    _handles: PhantomData<&'a ()>,
}

impl<S, S2> WithLatestFrom<'_, S, S2> {
    pub(crate) fn new(source: S, other: S2) -> Self {
        WithLatestFrom {
            source,
            other,
            _handles: PhantomData,
        }
    }
}

/// The slots of a [`WithLatestFrom`] over items `U` from the other source.
type Slots<'a, U> = (MainSlot<'a>, LatestSlot<'a, U>);

/// The main source's part of a [`WithLatestFrom`]'s state: only its handle, as its values
/// are delivered at once or dropped.
pub struct MainSlot<'a> {
    handle: Option<Handle<'a>>,
}

impl<'a> Slot<'a> for MainSlot<'a> {
    fn handle(&mut self) -> &mut Option<Handle<'a>> {
        &mut self.handle
    }
}

impl fmt::Debug for MainSlot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MainSlot")
    }
}

impl<S, S2> Observable for WithLatestFrom<'_, S, S2>
where
    S: Observable,
    S2: Observable,
{
    type Item = (S::Item, S2::Item);
}

impl<'a, S, S2, O> Subscribe<O> for WithLatestFrom<'a, S, S2>
where
    S: Subscribe<WithLatestFromObserver<'a, <S as Observable>::Item, <S2 as Observable>::Item, O>>,
    S2: Subscribe<WithLatestFromOther<'a, <S as Observable>::Item, <S2 as Observable>::Item, O>>,
    <S as Subscribe<
        WithLatestFromObserver<'a, <S as Observable>::Item, <S2 as Observable>::Item, O>,
    >>::Subscription: Send + 'a,
    <S2 as Subscribe<
        WithLatestFromOther<'a, <S as Observable>::Item, <S2 as Observable>::Item, O>,
    >>::Subscription: Send + 'a,
    <S2 as Observable>::Item: Clone,
    O: Observer<(<S as Observable>::Item, <S2 as Observable>::Item)>,
{
    type Subscription = CombineSubscription<
        Slots<'a, <S2 as Observable>::Item>,
        (<S as Observable>::Item, <S2 as Observable>::Item),
        O,
    >;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let slots = (MainSlot { handle: None }, LatestSlot::new());
        let core = Arc::new(Core::new(slots, observer));
        // The other source first, so that a value it emits inside its `subscribe` is there
        // for the main source's first value.
        if !core.is_stopped() {
            let handle = self
                .other
                .subscribe_observer(WithLatestFromOther { core: core.clone() });
            core.set_handle::<1, _>(handle);
        }
        if !core.is_stopped() {
            let handle = self
                .source
                .subscribe_observer(WithLatestFromObserver { core: core.clone() });
            core.set_handle::<0, _>(handle);
        }
        CombineSubscription::new(core)
    }
}

/// The observer [`WithLatestFrom`] subscribes to its main source.
pub struct WithLatestFromObserver<'a, T, U, O> {
    core: Arc<Core<Slots<'a, U>, (T, U), O>>,
}

impl<T, U, O> Observer<T> for WithLatestFromObserver<'_, T, U, O>
where
    U: Clone,
    O: Observer<(T, U)>,
{
    fn on_next(&mut self, value: T) {
        self.core.update(|(_, other), rows| match &other.latest {
            Some(latest) => {
                rows.push((value, latest.clone()));
                (Step::Continue, None)
            }
            // Nothing to pair with yet: the value is dropped (after the lock is released).
            None => (Step::Continue, Some(value)),
        });
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        self.core.update(|_, _| (Step::Complete, ()));
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<T, U, O> fmt::Debug for WithLatestFromObserver<'_, T, U, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WithLatestFromObserver")
    }
}

/// The observer [`WithLatestFrom`] subscribes to the other source.
pub struct WithLatestFromOther<'a, T, U, O> {
    core: Arc<Core<Slots<'a, U>, (T, U), O>>,
}

impl<T, U, O> Observer<U> for WithLatestFromOther<'_, T, U, O>
where
    U: Clone,
    O: Observer<(T, U)>,
{
    fn on_next(&mut self, value: U) {
        self.core
            .update(|(_, other), _| (Step::Continue, other.latest.replace(value)));
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    /// The latest value stays in use until the main source completes.
    fn on_completed(self) {}

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<T, U, O> fmt::Debug for WithLatestFromOther<'_, T, U, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WithLatestFromOther")
    }
}

/// Combines each value of an observable with the latest value of another through a closure;
/// built by [`ObservableExt::with_latest_from_with`](crate::ObservableExt::with_latest_from_with).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "withLatestFrom")]
pub struct WithLatestFromWith<'a, S, S2, F> {
    inner: WithLatestFrom<'a, S, S2>,
    f: F,
}

impl<S, S2, F> WithLatestFromWith<'_, S, S2, F> {
    pub(crate) fn new(source: S, other: S2, f: F) -> Self {
        WithLatestFromWith {
            inner: WithLatestFrom::new(source, other),
            f,
        }
    }
}

impl<S, S2, F, U> Observable for WithLatestFromWith<'_, S, S2, F>
where
    S: Observable,
    S2: Observable,
    F: FnMut(S::Item, S2::Item) -> U,
{
    type Item = U;
}

impl<'a, S, S2, F, U, O> Subscribe<O> for WithLatestFromWith<'a, S, S2, F>
where
    S: Observable,
    S2: Observable,
    F: FnMut(S::Item, S2::Item) -> U,
    WithLatestFrom<'a, S, S2>: Subscribe<CombineWithObserver<O, F>>,
{
    type Subscription =
        <WithLatestFrom<'a, S, S2> as Subscribe<CombineWithObserver<O, F>>>::Subscription;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.inner
            .subscribe_observer(CombineWithObserver::new(observer, self.f))
    }
}

impl<S: fmt::Debug, S2: fmt::Debug, F> fmt::Debug for WithLatestFromWith<'_, S, S2, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WithLatestFromWith")
            .field("source", &self.inner.source)
            .field("other", &self.inner.other)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, defer, empty, from_iter, just, never, throw};
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn pairs_each_value_with_the_latest_of_the_other() {
        // `other` is subscribed first and runs to its end: its last value is the latest.
        let o = TestObserver::new();
        let handle = from_iter([1, 2, 3])
            .with_latest_from(from_iter(["a", "b"]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, "b")), Next((2, "b")), Next((3, "b")), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn drops_values_until_the_other_has_emitted() {
        let o = TestObserver::<(i32, i32)>::new();
        from_iter([1, 2])
            .with_latest_from(empty())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::<(i32, i32)>::new();
        let handle = from_iter([1, 2])
            .with_latest_from(never())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn completes_with_the_source_only() {
        // The other source completing changes nothing.
        let o = TestObserver::new();
        let handle = never::<i32>()
            .with_latest_from(just('a'))
            .subscribe_observer(o.clone());
        o.assert_not_terminated();
        handle.dispose();
        o.assert_not_terminated();
    }

    #[test]
    fn an_error_from_either_side_ends_at_once() {
        let subscribed = Cell::new(false);
        let o = TestObserver::<(i32, i32)>::new();
        defer(|| {
            subscribed.set(true);
            just(1)
        })
        .with_latest_from(throw(Error::msg("other")))
        .subscribe_observer(o.clone());
        o.assert_error("other");
        assert!(
            !subscribed.get(),
            "the source is not subscribed after the other failed"
        );

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("source"));
        })
        .with_latest_from(just('x'))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next((1, 'x')),
            crate::Notification::Error(Error::msg("source")),
        ]);
    }

    #[test]
    fn with_latest_from_with_combines() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .with_latest_from_with(just(10), |a, b| a * b)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(10), Next(20), Completed]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        from_iter(0..)
            .with_latest_from(just(()))
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, ())), Next((1, ())), Completed]);
    }
}
