//! [`ObservableExt::combine_latest`](crate::ObservableExt::combine_latest),
//! [`ObservableExt::combine_latest_with`](crate::ObservableExt::combine_latest_with) and the
//! n-ary [`combine_latest`](crate::source::combine_latest): the latest value of each of
//! several sources, whenever one of them emits.
//!
//! Each source keeps its latest value in its [`LatestSlot`]; each value, once every source
//! has one, queues a snapshot row of clones, which the engine in `combine_core` delivers.
//! Rows are snapshots taken under the lock, so two values that arrive together from two
//! threads give two rows, as in RxJava.

use crate::Error;
use crate::engine::combine_core::{
    CombineCore, CombineLink, CombineSubscription, CombineWithObserver, Step, subscribe_inline,
};
use crate::engine::combine_slots::{
    Handle, RowSlot, RowSlots, Slot, SlotAt, for_each_tuple, item_row,
};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits tuples of the latest values of several observables; built by
/// [`ObservableExt::combine_latest`](crate::ObservableExt::combine_latest) and
/// [`combine_latest`](crate::source::combine_latest).
///
/// The lifetime `'a` bounds what the sources' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "combineLatest")]
#[doc(alias = "combineLatestWith")]
pub struct CombineLatest<'a, S> {
    sources: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> CombineLatest<'_, S> {
    pub(crate) fn new(sources: S) -> Self {
        CombineLatest {
            sources,
            _handles: PhantomData,
        }
    }
}

/// What one source of [`CombineLatest`] or
/// [`WithLatestFrom`](crate::operators::WithLatestFrom) has contributed: its latest value,
/// whether it has completed, and its handle.
pub struct LatestSlot<'a, T, F: Flavour = Shared> {
    pub(super) latest: Option<T>,
    done: bool,
    handle: Option<Handle<'a, F>>,
}

impl<T, F: Flavour> LatestSlot<'_, T, F> {
    pub(super) fn new() -> Self {
        LatestSlot {
            latest: None,
            done: false,
            handle: None,
        }
    }
}

impl<'a, T, F: Flavour> Slot<'a> for LatestSlot<'a, T, F> {
    type Flavour = F;

    fn handle(&mut self) -> &mut Option<Handle<'a, F>> {
        &mut self.handle
    }
}

impl<T: Clone, F: Flavour> RowSlot for LatestSlot<'_, T, F> {
    type Item = T;

    #[inline]
    fn is_ready(&self) -> bool {
        self.latest.is_some()
    }

    #[inline]
    fn take(&mut self) -> T {
        self.latest
            .clone()
            .expect("combine_latest: a row is taken only when every slot has a value")
    }

    #[inline]
    fn is_finished(&self) -> bool {
        self.done
    }
}

impl<T, F: Flavour> fmt::Debug for LatestSlot<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LatestSlot")
            .field("has_value", &self.latest.is_some())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// The observer [`CombineLatest`] subscribes to its source number `I`.
pub struct CombineLatestObserver<L, R, O, const I: usize> {
    core: CombineLink<L, R, O>,
}

impl<'a, T, L, R, O, F: Flavour, const I: usize> Observer<T> for CombineLatestObserver<L, R, O, I>
where
    L: RowSlots<Row = R> + SlotAt<I, Slot = LatestSlot<'a, T, F>>,
    O: Observer<R>,
{
    fn on_next(&mut self, value: T) {
        self.core.update(|slots, rows| {
            let previous = slots.at().latest.replace(value);
            if slots.is_ready() {
                rows.push(slots.take_row());
            }
            (Step::Continue, previous)
        });
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        self.core.update(|slots, _| {
            let slot = slots.at();
            slot.done = true;
            // A source that completes without a value means no row can ever be made.
            let next = if slot.latest.is_none() || slots.all_finished() {
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

impl<L, R, O, const I: usize> fmt::Debug for CombineLatestObserver<L, R, O, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombineLatestObserver")
            .field("source", &I)
            .finish_non_exhaustive()
    }
}

/// The slots of a combine_latest of the sources `[S0 S1 ..]`, as a type.
macro_rules! latest_slots {
    ($a:lifetime $all:tt) => { latest_slots!(@ $a $all $all) };
    (@ $a:lifetime [$($S:ident)+] $all:tt) => {
        ($(LatestSlot<$a, <$S as Observable>::Item, crate::observable::joined_flavour!($all)>,)+)
    };
}

macro_rules! combine_latest_impls {
    ($all:tt $($i:tt $S:ident),+) => {
        impl<$($S: Observable),+> Observable for CombineLatest<'_, ($($S,)+)> {
            type Item = ($($S::Item,)+);
            type Flavour = crate::observable::joined_flavour!($($S),+);
            const EMISSION: crate::observable::Emission =
                crate::observable::Emission::INSIDE_SUBSCRIBE $(.and(<$S as Observable>::EMISSION))+;
        }

        impl<'a, $($S,)+ O> Subscribe<O> for CombineLatest<'a, ($($S,)+)>
        where
            $(
                $S: Subscribe<
                    CombineLatestObserver<latest_slots!('a $all), item_row!($all), O, $i>,
                >,
                crate::observable::joined_flavour!($all): BoxSubscription<
                    'a,
                    <$S as Subscribe<
                        CombineLatestObserver<latest_slots!('a $all), item_row!($all), O, $i>,
                    >>::Subscription,
                >,
                <$S as Observable>::Item: Clone,
            )+
            O: Observer<item_row!($all)>,
        {
            type Subscription = CombineSubscription<latest_slots!('a $all), item_row!($all), O>;

            fn subscribe_observer(self, observer: O) -> Self::Subscription {
                let slots = ($(LatestSlot::<<$S as Observable>::Item, _>::new(),)+);
                if const { <Self as Observable>::EMISSION.is_inside_subscribe() } {
                    // SAFETY: every source finishes inside its `subscribe` (the constant), and
                    // each link goes to one of them, subscribed here.
                    return unsafe {
                        subscribe_inline(slots, observer, |state| {
                            $(if let Some(core) = state.link() {
                                let observer = CombineLatestObserver::<_, _, _, $i> { core };
                                drop(self.sources.$i.subscribe_observer(observer));
                            })+
                        })
                    };
                }
                let core = Arc::new(CombineCore::new(slots, observer));
                $(
                    // A source that ended the sequence inside its `subscribe` (an empty one)
                    // spares the rest from being subscribed at all, as in RxJava.
                    if !core.is_stopped() {
                        let observer = CombineLatestObserver::<_, _, _, $i> {
                            core: CombineLink::Core(core.clone()),
                        };
                        let handle = self.sources.$i.subscribe_observer(observer);
                        core.set_handle::<$i, _>(handle);
                    }
                )+
                CombineSubscription::new(core)
            }
        }
    };
}

for_each_tuple!(combine_latest_impls);

/// Combines the latest values of two observables with a closure; built by
/// [`ObservableExt::combine_latest_with`](crate::ObservableExt::combine_latest_with).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "combineLatest")]
#[doc(alias = "combineLatestWith")]
pub struct CombineLatestWith<'a, S1, S2, F> {
    combine: CombineLatest<'a, (S1, S2)>,
    f: F,
}

impl<S1, S2, F> CombineLatestWith<'_, S1, S2, F> {
    pub(crate) fn new(first: S1, second: S2, f: F) -> Self {
        CombineLatestWith {
            combine: CombineLatest::new((first, second)),
            f,
        }
    }
}

impl<S1, S2, F, U> Observable for CombineLatestWith<'_, S1, S2, F>
where
    S1: Observable,
    S2: Observable,
    F: FnMut(S1::Item, S2::Item) -> U,
{
    type Item = U;
    type Flavour = crate::sync::Joined<<S1 as Observable>::Flavour, <S2 as Observable>::Flavour>;
    const EMISSION: crate::observable::Emission = S1::EMISSION.and(S2::EMISSION);
}

impl<'a, S1, S2, F, U, O> Subscribe<O> for CombineLatestWith<'a, S1, S2, F>
where
    S1: Observable,
    S2: Observable,
    F: FnMut(S1::Item, S2::Item) -> U,
    CombineLatest<'a, (S1, S2)>: Subscribe<CombineWithObserver<O, F>>,
{
    type Subscription =
        <CombineLatest<'a, (S1, S2)> as Subscribe<CombineWithObserver<O, F>>>::Subscription;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.combine
            .subscribe_observer(CombineWithObserver::new(observer, self.f))
    }
}

impl<S1: fmt::Debug, S2: fmt::Debug, F> fmt::Debug for CombineLatestWith<'_, S1, S2, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombineLatestWith")
            .field("sources", &self.combine.sources)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, defer, empty, from_iter, just, never, throw};
    use crate::test_kit::inline::{Later, both};
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn sources_that_finish_inside_subscribe_give_the_same_notifications_on_both_paths() {
        both(
            from_iter([1, 2]).combine_latest(from_iter([10, 20])),
            Later(from_iter([1, 2])).combine_latest(from_iter([10, 20])),
            &[Next((2, 10)), Next((2, 20)), Completed],
        );
        both(
            just(1).combine_latest(throw::<i32>(Error::msg("boom"))),
            Later(just(1)).combine_latest(throw::<i32>(Error::msg("boom"))),
            &[crate::Notification::Error(Error::msg("boom"))],
        );
    }

    #[test]
    fn emits_once_all_have_emitted_then_on_every_value() {
        // The first source runs to its end before the second is subscribed: only its last
        // value is ever combined.
        let o = TestObserver::new();
        let handle = from_iter([1, 2, 3])
            .combine_latest(from_iter(["a", "b"]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((3, "a")), Next((3, "b")), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn completes_only_when_all_complete() {
        let o = TestObserver::new();
        just(1)
            .combine_latest(create(|mut e| {
                e.on_next('a');
                e.on_next('b');
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 'a')), Next((1, 'b'))]);
    }

    #[test]
    fn a_source_that_completes_empty_completes_at_once() {
        let subscribed = Cell::new(false);
        let o = TestObserver::<(i32, i32)>::new();
        empty()
            .combine_latest(defer(|| {
                subscribed.set(true);
                just(1)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(!subscribed.get());

        // Even while the other side still runs: it is disposed.
        let o = TestObserver::<(i32, i32)>::new();
        let handle = never()
            .combine_latest(empty())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn an_error_from_either_side_ends_at_once() {
        let o = TestObserver::<(i32, i32)>::new();
        throw(Error::msg("left"))
            .combine_latest(just(1))
            .subscribe_observer(o.clone());
        o.assert_error("left");

        let o = TestObserver::new();
        just(1)
            .combine_latest(create(|mut e| {
                e.on_next('a');
                e.on_error(Error::msg("right"));
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next((1, 'a')),
            crate::Notification::Error(Error::msg("right")),
        ]);
    }

    #[test]
    fn combine_latest_with_combines_each_row() {
        let o = TestObserver::new();
        just(10)
            .combine_latest_with(from_iter([1, 2, 3]), |a, b| a + b)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(11), Next(12), Next(13), Completed]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        just(0)
            .combine_latest(from_iter(0..))
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, 0)), Next((0, 1)), Completed]);
    }
}
