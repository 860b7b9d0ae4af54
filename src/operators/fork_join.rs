//! The n-ary [`fork_join`](crate::source::fork_join): the last value of each of several
//! sources, once all have completed.
//!
//! Each source keeps its last value in its [`LastSlot`]; the completion of the last source
//! queues the one row, moving the values out (no `Clone` needed), which the engine in
//! `combine_core` delivers before completing.

use crate::Error;
use crate::engine::combine_core::{CombineCore, CombineSubscription, Step};
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

/// Emits one tuple of the last value of each of several observables once all have
/// completed; built by [`fork_join`](crate::source::fork_join).
///
/// The lifetime `'a` bounds what the sources' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "forkJoin")]
pub struct ForkJoin<'a, S> {
    sources: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> ForkJoin<'_, S> {
    pub(crate) fn new(sources: S) -> Self {
        ForkJoin {
            sources,
            _handles: PhantomData,
        }
    }
}

/// What one source of [`ForkJoin`] has contributed: its last value, whether it has
/// completed, and its handle.
pub struct LastSlot<'a, T, F: Flavour = Shared> {
    last: Option<T>,
    done: bool,
    handle: Option<Handle<'a, F>>,
}

impl<T, F: Flavour> LastSlot<'_, T, F> {
    fn new() -> Self {
        LastSlot {
            last: None,
            done: false,
            handle: None,
        }
    }
}

impl<'a, T, F: Flavour> Slot<'a> for LastSlot<'a, T, F> {
    type Flavour = F;

    fn handle(&mut self) -> &mut Option<Handle<'a, F>> {
        &mut self.handle
    }
}

impl<T, F: Flavour> RowSlot for LastSlot<'_, T, F> {
    type Item = T;

    #[inline]
    fn is_ready(&self) -> bool {
        self.last.is_some()
    }

    #[inline]
    fn take(&mut self) -> T {
        self.last
            .take()
            .expect("fork_join: the row is taken only when every slot has a value")
    }

    #[inline]
    fn is_finished(&self) -> bool {
        self.done
    }
}

impl<T, F: Flavour> fmt::Debug for LastSlot<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LastSlot")
            .field("has_value", &self.last.is_some())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// The observer [`ForkJoin`] subscribes to its source number `I`.
pub struct ForkJoinObserver<L, R, O, const I: usize> {
    core: Arc<CombineCore<L, R, O>>,
}

impl<'a, T, L, R, O, F: Flavour, const I: usize> Observer<T> for ForkJoinObserver<L, R, O, I>
where
    L: RowSlots<Row = R> + SlotAt<I, Slot = LastSlot<'a, T, F>>,
    O: Observer<R>,
{
    fn on_next(&mut self, value: T) {
        self.core.update(|slots, _| {
            let previous = slots.at().last.replace(value);
            (Step::Continue, previous)
        });
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        self.core.update(|slots, rows| {
            let slot = slots.at();
            slot.done = true;
            // A source that completes empty means no row can ever be made.
            if slot.last.is_none() {
                return (Step::Complete, ());
            }
            if slots.all_finished() {
                rows.push(slots.take_row());
                return (Step::Complete, ());
            }
            (Step::Continue, ())
        });
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<L, R, O, const I: usize> fmt::Debug for ForkJoinObserver<L, R, O, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ForkJoinObserver")
            .field("source", &I)
            .finish_non_exhaustive()
    }
}

/// The slots of a fork_join of the sources `[S0 S1 ..]`, as a type.
macro_rules! last_slots {
    ($a:lifetime $all:tt) => { last_slots!(@ $a $all $all) };
    (@ $a:lifetime [$($S:ident)+] $all:tt) => {
        ($(LastSlot<$a, <$S as Observable>::Item, crate::observable::joined_flavour!($all)>,)+)
    };
}

macro_rules! fork_join_impls {
    ($all:tt $($i:tt $S:ident),+) => {
        impl<$($S: Observable),+> Observable for ForkJoin<'_, ($($S,)+)> {
            type Item = ($($S::Item,)+);
            type Flavour = crate::observable::joined_flavour!($($S),+);
        }

        impl<'a, $($S,)+ O> Subscribe<O> for ForkJoin<'a, ($($S,)+)>
        where
            $(
                $S: Subscribe<ForkJoinObserver<last_slots!('a $all), item_row!($all), O, $i>>,
                crate::observable::joined_flavour!($all): BoxSubscription<
                    'a,
                    <$S as Subscribe<
                        ForkJoinObserver<last_slots!('a $all), item_row!($all), O, $i>,
                    >>::Subscription,
                >,
            )+
            O: Observer<item_row!($all)>,
        {
            type Subscription = CombineSubscription<last_slots!('a $all), item_row!($all), O>;

            fn subscribe_observer(self, observer: O) -> Self::Subscription {
                let slots = ($(LastSlot::<<$S as Observable>::Item, _>::new(),)+);
                let core = Arc::new(CombineCore::new(slots, observer));
                $(
                    // A source that ended the sequence inside its `subscribe` (an empty one)
                    // spares the rest from being subscribed at all.
                    if !core.is_stopped() {
                        let observer = ForkJoinObserver::<_, _, _, $i> { core: core.clone() };
                        let handle = self.sources.$i.subscribe_observer(observer);
                        core.set_handle::<$i, _>(handle);
                    }
                )+
                CombineSubscription::new(core)
            }
        }
    };
}

for_each_tuple!(fork_join_impls);
