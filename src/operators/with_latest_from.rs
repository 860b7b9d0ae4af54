//! [`ObservableExt::with_latest_from`](crate::ObservableExt::with_latest_from) and
//! [`ObservableExt::with_latest_from_with`](crate::ObservableExt::with_latest_from_with): each
//! value of a source, paired with the latest value of another; and
//! [`ObservableExt::with_latest_from_all`](crate::ObservableExt::with_latest_from_all), its
//! form over a tuple of other sources.
//!
//! Built on the engine in `combine_core`: the other source only updates its
//! [`LatestSlot`]; a value of the main source queues a row when that slot has a value. Going
//! through the engine serialises the main source's values with an error from the other
//! source, which may arrive on another thread, and disposes both at the end.

use super::combine_latest::LatestSlot;
use crate::Error;
use crate::engine::combine_core::{
    CombineCore, CombineLink, CombineSubscription, CombineWithObserver, Step, subscribe_inline,
};
use crate::engine::combine_slots::{
    Handle, RowSlot, Slot, SlotAt, Slots as SlotTuple, for_each_tuple, item_row,
};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
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

/// The slots of a [`WithLatestFrom`] over items `U` from the other source, keeping handles
/// of flavour `F`.
type Slots<'a, U, F> = (MainSlot<'a, F>, LatestSlot<'a, U, F>);

/// The state a [`WithLatestFrom`] subscription shares between its two observers.
/// Where the pair's observers send their notifications (see [`CombineLink`]).
type PairLink<'a, T, U, O, F> = CombineLink<Slots<'a, U, F>, (T, U), O>;

/// The flavour of the handles a [`WithLatestFrom`] keeps.
type FlavourOf<S, S2> = Joined<<S as Observable>::Flavour, <S2 as Observable>::Flavour>;

/// The main source's part of a [`WithLatestFrom`]'s state: only its handle, as its values
/// are delivered at once or dropped.
pub struct MainSlot<'a, F: Flavour = Shared> {
    handle: Option<Handle<'a, F>>,
}

impl<'a, F: Flavour> Slot<'a> for MainSlot<'a, F> {
    type Flavour = F;

    fn handle(&mut self) -> &mut Option<Handle<'a, F>> {
        &mut self.handle
    }
}

impl<F: Flavour> fmt::Debug for MainSlot<'_, F> {
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
    type Flavour = FlavourOf<S, S2>;
    const EMISSION: crate::observable::Emission = S::EMISSION.and(S2::EMISSION);
}

/// The observer [`WithLatestFrom`] subscribes to its main source, as a type.
type MainObserver<'a, S, S2, O> = WithLatestFromObserver<
    'a,
    <S as Observable>::Item,
    <S2 as Observable>::Item,
    O,
    FlavourOf<S, S2>,
>;

/// The observer [`WithLatestFrom`] subscribes to its other source, as a type.
type OtherObserver<'a, S, S2, O> =
    WithLatestFromOther<'a, <S as Observable>::Item, <S2 as Observable>::Item, O, FlavourOf<S, S2>>;

impl<'a, S, S2, O> Subscribe<O> for WithLatestFrom<'a, S, S2>
where
    S: Subscribe<MainObserver<'a, S, S2, O>>,
    S2: Subscribe<OtherObserver<'a, S, S2, O>>,
    FlavourOf<S, S2>: BoxSubscription<'a, <S as Subscribe<MainObserver<'a, S, S2, O>>>::Subscription>
        + BoxSubscription<'a, <S2 as Subscribe<OtherObserver<'a, S, S2, O>>>::Subscription>,
    <S2 as Observable>::Item: Clone,
    O: Observer<(<S as Observable>::Item, <S2 as Observable>::Item)>,
{
    type Subscription = CombineSubscription<
        Slots<'a, <S2 as Observable>::Item, FlavourOf<S, S2>>,
        (<S as Observable>::Item, <S2 as Observable>::Item),
        O,
    >;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let slots = (MainSlot { handle: None }, LatestSlot::new());
        if const { <Self as Observable>::EMISSION.is_inside_subscribe() } {
            // SAFETY: both sources finish inside their `subscribe` (the constant), and each
            // link goes to one of them, subscribed here, the other first as below.
            return unsafe {
                subscribe_inline(slots, observer, |state| {
                    if let Some(core) = state.link() {
                        drop(self.other.subscribe_observer(WithLatestFromOther { core }));
                    }
                    if let Some(core) = state.link() {
                        drop(
                            self.source
                                .subscribe_observer(WithLatestFromObserver { core }),
                        );
                    }
                })
            };
        }
        let core = Arc::new(CombineCore::new(slots, observer));
        // The other source first, so that a value it emits inside its `subscribe` is there
        // for the main source's first value.
        if !core.is_stopped() {
            let handle = self.other.subscribe_observer(WithLatestFromOther {
                core: CombineLink::Core(core.clone()),
            });
            core.set_handle::<1, _>(handle);
        }
        if !core.is_stopped() {
            let handle = self.source.subscribe_observer(WithLatestFromObserver {
                core: CombineLink::Core(core.clone()),
            });
            core.set_handle::<0, _>(handle);
        }
        CombineSubscription::new(core)
    }
}

/// The observer [`WithLatestFrom`] subscribes to its main source.
pub struct WithLatestFromObserver<'a, T, U, O, F: Flavour = Shared> {
    core: PairLink<'a, T, U, O, F>,
}

impl<T, U, O, F: Flavour> Observer<T> for WithLatestFromObserver<'_, T, U, O, F>
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

impl<T, U, O, F: Flavour> fmt::Debug for WithLatestFromObserver<'_, T, U, O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WithLatestFromObserver")
    }
}

/// The observer [`WithLatestFrom`] subscribes to the other source.
pub struct WithLatestFromOther<'a, T, U, O, F: Flavour = Shared> {
    core: PairLink<'a, T, U, O, F>,
}

impl<T, U, O, F: Flavour> Observer<U> for WithLatestFromOther<'_, T, U, O, F>
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

impl<T, U, O, F: Flavour> fmt::Debug for WithLatestFromOther<'_, T, U, O, F> {
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
    type Flavour = FlavourOf<S, S2>;
    const EMISSION: crate::observable::Emission = S::EMISSION.and(S2::EMISSION);
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

/// Combines each value of an observable with the latest values of several others; built by
/// [`ObservableExt::with_latest_from_all`](crate::ObservableExt::with_latest_from_all).
///
/// The lifetime `'a` bounds what the sources' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "withLatestFrom")]
pub struct WithLatestFromAll<'a, S, T> {
    source: S,
    others: T,
    _handles: PhantomData<&'a ()>,
}

impl<S, T> WithLatestFromAll<'_, S, T> {
    pub(crate) fn new(source: S, others: T) -> Self {
        WithLatestFromAll {
            source,
            others,
            _handles: PhantomData,
        }
    }
}

/// The slots of a [`WithLatestFromAll`] that can turn a value of the main source into a row:
/// the tuple `(MainSlot, LatestSlot<U1>, LatestSlot<U2>, ..)`.
pub trait LatestRow<T> {
    /// The value followed by the latest value of each other source.
    type Row;
    /// The row for `value`, or `value` back when some other source has no value yet.
    fn row(&mut self, value: T) -> Result<Self::Row, T>;
}

/// The observer [`WithLatestFromAll`] subscribes to its main source.
pub struct WithLatestFromAllObserver<L, R, O> {
    core: Arc<CombineCore<L, R, O>>,
}

impl<T, L, R, O> Observer<T> for WithLatestFromAllObserver<L, R, O>
where
    L: SlotTuple + LatestRow<T, Row = R>,
    O: Observer<R>,
{
    fn on_next(&mut self, value: T) {
        self.core.update(|slots, rows| match slots.row(value) {
            Ok(row) => {
                rows.push(row);
                (Step::Continue, None)
            }
            // Nothing to combine with yet: the value is dropped (after the lock is released).
            Err(value) => (Step::Continue, Some(value)),
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

impl<L, R, O> fmt::Debug for WithLatestFromAllObserver<L, R, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WithLatestFromAllObserver")
    }
}

/// The observer [`WithLatestFromAll`] subscribes to its other source number `I` (counting the
/// main source as 0).
pub struct WithLatestFromAllOther<L, R, O, const I: usize> {
    core: Arc<CombineCore<L, R, O>>,
}

impl<'a, U, L, R, O, F: Flavour, const I: usize> Observer<U> for WithLatestFromAllOther<L, R, O, I>
where
    L: SlotTuple + SlotAt<I, Slot = LatestSlot<'a, U, F>>,
    O: Observer<R>,
{
    fn on_next(&mut self, value: U) {
        self.core
            .update(|slots, _| (Step::Continue, slots.at().latest.replace(value)));
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    /// A source that completes with a value leaves it in use; one that completes without
    /// means no row can ever be made, so the sequence completes at once, as in RxJava.
    fn on_completed(self) {
        self.core.update(|slots, _| {
            let next = if slots.at().latest.is_none() {
                Step::Complete
            } else {
                Step::Continue
            };
            (next, ())
        });
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<L, R, O, const I: usize> fmt::Debug for WithLatestFromAllOther<L, R, O, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WithLatestFromAllOther")
            .field("source", &I)
            .finish_non_exhaustive()
    }
}

/// The slots of a with_latest_from_all of the sources `[S0 S1 ..]`, as a type.
macro_rules! all_slots {
    ($a:lifetime $all:tt) => { all_slots!(@ $a $all $all) };
    (@ $a:lifetime [$S0:ident $($S:ident)+] $all:tt) => {
        (
            MainSlot<$a, crate::observable::joined_flavour!($all)>,
            $(LatestSlot<$a, <$S as Observable>::Item, crate::observable::joined_flavour!($all)>,)+
        )
    };
}

/// The impls for a main source `S0` and the other sources `S1 ..`, from the indices and
/// names of the whole tuple of slots (which `for_each_tuple` lists from 2 to 8).
macro_rules! with_latest_from_all_impls {
    ($all:tt 0 S0, $($i:tt $S:ident),+) => {
        impl<'a, T, F: Flavour, $($S: Clone),+> LatestRow<T>
            for (MainSlot<'a, F>, $(LatestSlot<'a, $S, F>,)+)
        {
            type Row = (T, $($S,)+);

            #[inline]
            fn row(&mut self, value: T) -> Result<Self::Row, T> {
                if $(self.$i.is_ready())&&+ {
                    Ok((value, $(self.$i.take(),)+))
                } else {
                    Err(value)
                }
            }
        }

        impl<S0: Observable, $($S: Observable),+> Observable
            for WithLatestFromAll<'_, S0, ($($S,)+)>
        {
            type Item = item_row!($all);
            type Flavour = crate::observable::joined_flavour!(S0, $($S),+);
        }

        impl<'a, S0, $($S,)+ O> Subscribe<O> for WithLatestFromAll<'a, S0, ($($S,)+)>
        where
            S0: Subscribe<
                WithLatestFromAllObserver<all_slots!('a $all), item_row!($all), O>,
            >,
            crate::observable::joined_flavour!($all): BoxSubscription<
                'a,
                <S0 as Subscribe<
                    WithLatestFromAllObserver<all_slots!('a $all), item_row!($all), O>,
                >>::Subscription,
            >,
            $(
                $S: Subscribe<
                    WithLatestFromAllOther<
                        all_slots!('a $all),
                        item_row!($all),
                        O,
                        $i,
                    >,
                >,
                crate::observable::joined_flavour!($all): BoxSubscription<
                    'a,
                    <$S as Subscribe<
                        WithLatestFromAllOther<
                            all_slots!('a $all),
                            item_row!($all),
                            O,
                            $i,
                        >,
                    >>::Subscription,
                >,
                <$S as Observable>::Item: Clone,
            )+
            O: Observer<item_row!($all)>,
        {
            type Subscription =
                CombineSubscription<all_slots!('a $all), item_row!($all), O>;

            // The sources are bound to variables named after their types.
            #[allow(non_snake_case)]
            fn subscribe_observer(self, observer: O) -> Self::Subscription {
                let slots = (
                    MainSlot { handle: None },
                    $(LatestSlot::<<$S as Observable>::Item, _>::new(),)+
                );
                let core = Arc::new(CombineCore::new(slots, observer));
                let ($($S,)+) = self.others;
                // The other sources first, in order, so that values they emit inside their
                // `subscribe` are there for the main source's first value. One that ends
                // the sequence there spares the rest from being subscribed at all.
                $(
                    if !core.is_stopped() {
                        let observer = WithLatestFromAllOther::<_, _, _, $i> { core: core.clone() };
                        let handle = $S.subscribe_observer(observer);
                        core.set_handle::<$i, _>(handle);
                    }
                )+
                if !core.is_stopped() {
                    let handle = self
                        .source
                        .subscribe_observer(WithLatestFromAllObserver { core: core.clone() });
                    core.set_handle::<0, _>(handle);
                }
                CombineSubscription::new(core)
            }
        }
    };
}

for_each_tuple!(with_latest_from_all_impls);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, defer, empty, from_iter, just, never, throw};
    use crate::subjects::PublishSubject;
    use crate::test_kit::inline::{Later, both};
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn sources_that_finish_inside_subscribe_give_the_same_notifications_on_both_paths() {
        both(
            from_iter([1, 2]).with_latest_from(from_iter([10, 20])),
            Later(from_iter([1, 2])).with_latest_from(from_iter([10, 20])),
            &[Next((1, 20)), Next((2, 20)), Completed],
        );
        both(
            from_iter([1, 2]).with_latest_from(empty::<i32>()),
            Later(from_iter([1, 2])).with_latest_from(empty::<i32>()),
            &[Completed],
        );
        both(
            just(1).with_latest_from(throw::<i32>(Error::msg("boom"))),
            Later(just(1)).with_latest_from(throw::<i32>(Error::msg("boom"))),
            &[crate::Notification::Error(Error::msg("boom"))],
        );
    }

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

    #[test]
    fn all_emits_only_once_every_other_has_a_value() {
        let (source, b, c, d) = (
            PublishSubject::new(),
            PublishSubject::new(),
            PublishSubject::new(),
            PublishSubject::new(),
        );
        let (mut s_in, mut b_in, mut c_in, mut d_in) =
            (source.observer(), b.observer(), c.observer(), d.observer());
        let o = TestObserver::new();
        let handle = source
            .observable()
            .with_latest_from_all((b.observable(), c.observable(), d.observable()))
            .subscribe_observer(o.clone());
        s_in.on_next(1);
        b_in.on_next('a');
        c_in.on_next("x");
        s_in.on_next(2);
        d_in.on_next(10);
        s_in.on_next(3);
        c_in.on_next("y");
        d_in.on_next(20);
        s_in.on_next(4);
        s_in.on_completed();
        o.assert_notifications(&[Next((3, 'a', "x", 10)), Next((4, 'a', "y", 20)), Completed]);
        o.assert_rules();
        assert!(handle.is_disposed());
        assert!(!b.has_observers() && !c.has_observers() && !d.has_observers());
    }

    #[test]
    fn all_takes_up_to_seven_others() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .with_latest_from_all((just(2u8),))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 2u8)), Next((2, 2u8)), Completed]);

        let o = TestObserver::new();
        just(0)
            .with_latest_from_all((
                just(1),
                just(2),
                just(3),
                just(4),
                just(5),
                just(6),
                just(7),
            ))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, 1, 2, 3, 4, 5, 6, 7)), Completed]);
    }

    #[test]
    fn all_with_an_other_that_never_emits_drops_everything() {
        let o = TestObserver::<(i32, char, i32)>::new();
        let handle = from_iter([1, 2, 3])
            .with_latest_from_all((just('a'), never()))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn all_completes_when_an_other_completes_empty() {
        let subscribed = Cell::new(0);
        let o = TestObserver::<(i32, i32, i32)>::new();
        defer(|| {
            subscribed.set(subscribed.get() + 1);
            never()
        })
        .with_latest_from_all((
            empty(),
            defer(|| {
                subscribed.set(subscribed.get() + 1);
                just(1)
            }),
        ))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert_eq!(
            subscribed.get(),
            0,
            "nothing is subscribed after the sequence ended"
        );

        // Later, while the main source runs: it is disposed.
        let (source, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        let b_in = b.observer();
        let o = TestObserver::new();
        source
            .observable()
            .with_latest_from_all((b.observable(), just('a')))
            .subscribe_observer(o.clone());
        assert!(source.has_observers());
        b_in.on_completed();
        o.assert_notifications(&[Completed]);
        assert!(!source.has_observers());
    }

    #[test]
    fn all_an_other_completing_with_a_value_changes_nothing() {
        let (source, b) = (PublishSubject::new(), PublishSubject::new());
        let (mut s_in, mut b_in) = (source.observer(), b.observer());
        let o = TestObserver::new();
        source
            .observable()
            .with_latest_from_all((b.observable(), just('z')))
            .subscribe_observer(o.clone());
        b_in.on_next(7);
        b_in.on_completed();
        s_in.on_next(1);
        o.assert_notifications(&[Next((1, 7, 'z'))]);
        s_in.on_completed();
        o.assert_notifications(&[Next((1, 7, 'z')), Completed]);
    }

    #[test]
    fn all_an_error_from_any_source_ends_at_once() {
        let (source, b, c) = (
            PublishSubject::<i32>::new(),
            PublishSubject::<i32>::new(),
            PublishSubject::<i32>::new(),
        );
        let (mut s_in, mut b_in, mut c_in) = (source.observer(), b.observer(), c.observer());
        let o = TestObserver::new();
        source
            .observable()
            .with_latest_from_all((b.observable(), c.observable()))
            .subscribe_observer(o.clone());
        b_in.on_next(1);
        c_in.on_next(2);
        s_in.on_next(0);
        c_in.on_error(Error::msg("c"));
        s_in.on_next(5);
        o.assert_notifications(&[Next((0, 1, 2)), crate::Notification::Error(Error::msg("c"))]);
        o.assert_rules();
        assert!(!source.has_observers() && !b.has_observers());

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("source"));
        })
        .with_latest_from_all((just('x'), just(2)))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next((1, 'x', 2)),
            crate::Notification::Error(Error::msg("source")),
        ]);
    }

    #[test]
    fn all_downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        from_iter(0..)
            .with_latest_from_all((just(()), just('a')))
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, (), 'a')), Next((1, (), 'a')), Completed]);

        let o = TestObserver::<(i32, i32, i32)>::new();
        o.dispose();
        let handle = from_iter(0..)
            .with_latest_from_all((just(1), just(2)))
            .subscribe_observer(o.clone());
        assert!(handle.is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn all_disposing_the_handle_disposes_every_source() {
        let (source, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        let o = TestObserver::<(i32, i32, char)>::new();
        let handle = source
            .observable()
            .with_latest_from_all((b.observable(), just('a')))
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(!source.has_observers() && !b.has_observers());
        o.assert_not_terminated();
    }
}
