//! What each source of [`zip`](crate::ObservableExt::zip),
//! [`combine_latest`](crate::ObservableExt::combine_latest) and
//! [`with_latest_from`](crate::ObservableExt::with_latest_from) keeps in the shared state —
//! its *slot*: the traits through which the engine in `combine_core` and each source's
//! observer reach the slots, and the queue and handle types they are made of. The slot types
//! themselves live with their operators.
//!
//! The per-tuple code (building a row, reaching a slot by index, and each operator's
//! `Subscribe` impls) is mechanical and written by [`for_each_tuple`] for 2 to 8 sources.

use crate::subscription::Subscription;
use crate::sync::imp::Machinery;
use crate::sync::{Flavour, Shared};
use std::collections::VecDeque;

/// A source's handle, type-erased so the slots need not name it, in the box of flavour `F`
/// (`Send` for `Shared`).
pub(crate) type Handle<'a, F = Shared> = <F as Machinery>::BoxedSubscription<'a>;

/// A first-in first-out queue that keeps its oldest value inline, so a queue that never holds
/// more than one value at a time — the lock-step case of zip, or rows delivered as soon as
/// they are made — never allocates.
pub(crate) struct Buffer<T> {
    /// The oldest value; `None` only when the queue is empty.
    head: Option<T>,
    rest: VecDeque<T>,
}

impl<T> Buffer<T> {
    pub(crate) const fn new() -> Self {
        Buffer {
            head: None,
            rest: VecDeque::new(),
        }
    }

    pub(crate) fn push(&mut self, value: T) {
        if self.head.is_none() {
            self.head = Some(value);
        } else {
            self.rest.push_back(value);
        }
    }

    pub(crate) fn pop(&mut self) -> Option<T> {
        let value = self.head.take();
        self.head = self.rest.pop_front();
        value
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    pub(crate) fn len(&self) -> usize {
        usize::from(self.head.is_some()) + self.rest.len()
    }
}

impl<T> Default for Buffer<T> {
    fn default() -> Self {
        Buffer::new()
    }
}

/// One source's part of the shared state: at least the place where its handle is kept.
pub trait Slot<'a> {
    /// The flavour of the box the handle is kept in.
    type Flavour: Flavour;
    /// Where the source's handle is kept once its `subscribe` has returned.
    fn handle(&mut self) -> &mut Option<Handle<'a, Self::Flavour>>;
}

/// A slot that contributes one value to each row.
pub trait RowSlot {
    /// What the slot contributes to a row.
    type Item;
    /// Whether the slot can contribute to a row now.
    fn is_ready(&self) -> bool;
    /// The slot's contribution to a row; called only when every slot is ready.
    fn take(&mut self) -> Self::Item;
    /// Whether the source has completed and the slot will never be ready again by itself
    /// (zip), or simply has completed (combine_latest).
    fn is_finished(&self) -> bool;
}

/// A tuple of slots, one per source.
pub trait Slots {
    /// Disposes the handle of every source.
    fn dispose(&mut self);
    /// Whether some source's handle is kept, so [`dispose`](Slots::dispose) has work to do.
    fn has_handles(&mut self) -> bool;
}

/// A tuple of slots that each contribute to a row.
pub trait RowSlots: Slots {
    /// A tuple of the slots' items.
    type Row;
    /// Whether every slot is ready.
    fn is_ready(&self) -> bool;
    /// Takes one row; called only when [`is_ready`](RowSlots::is_ready).
    fn take_row(&mut self) -> Self::Row;
    /// Whether some slot is finished.
    fn any_finished(&self) -> bool;
    /// Whether every slot is finished.
    fn all_finished(&self) -> bool;
}

/// Access to the slot of source `I`, so each source's observer reaches its own slot with no
/// run-time indexing.
pub trait SlotAt<const I: usize> {
    /// The slot's type.
    type Slot;
    /// The slot.
    fn at(&mut self) -> &mut Self::Slot;
}

/// Calls `$m!([S0 S1 ..] 0 S0, 1 S1, ..)` for every tuple size from 2 to 8: the bracketed
/// list names the whole tuple, for use inside repetitions over its elements.
macro_rules! for_each_tuple {
    ($m:ident) => {
        $m!([S0 S1] 0 S0, 1 S1);
        $m!([S0 S1 S2] 0 S0, 1 S1, 2 S2);
        $m!([S0 S1 S2 S3] 0 S0, 1 S1, 2 S2, 3 S3);
        $m!([S0 S1 S2 S3 S4] 0 S0, 1 S1, 2 S2, 3 S3, 4 S4);
        $m!([S0 S1 S2 S3 S4 S5] 0 S0, 1 S1, 2 S2, 3 S3, 4 S4, 5 S5);
        $m!([S0 S1 S2 S3 S4 S5 S6] 0 S0, 1 S1, 2 S2, 3 S3, 4 S4, 5 S5, 6 S6);
        $m!([S0 S1 S2 S3 S4 S5 S6 S7] 0 S0, 1 S1, 2 S2, 3 S3, 4 S4, 5 S5, 6 S6, 7 S7);
    };
}
pub(crate) use for_each_tuple;

/// The row of values of the sources `[S0 S1 ..]`, as a type: `(S0::Item, S1::Item, ..)`.
macro_rules! item_row {
    ([$($S:ident)+]) => {
        ($(<$S as $crate::Observable>::Item,)+)
    };
}
pub(crate) use item_row;

macro_rules! slot_tuple_impls {
    ($all:tt $($i:tt $S:ident),+) => {
        impl<'a, $($S: Slot<'a>),+> Slots for ($($S,)+) {
            fn dispose(&mut self) {
                $(
                    if let Some(handle) = self.$i.handle().take() {
                        handle.dispose();
                    }
                )+
            }

            #[inline]
            fn has_handles(&mut self) -> bool {
                $(self.$i.handle().is_some())||+
            }
        }

        impl<'a, $($S: Slot<'a> + RowSlot),+> RowSlots for ($($S,)+) {
            type Row = ($($S::Item,)+);

            #[inline]
            fn is_ready(&self) -> bool {
                $(self.$i.is_ready())&&+
            }

            #[inline]
            fn take_row(&mut self) -> Self::Row {
                ($(self.$i.take(),)+)
            }

            #[inline]
            fn any_finished(&self) -> bool {
                $(self.$i.is_finished())||+
            }

            #[inline]
            fn all_finished(&self) -> bool {
                $(self.$i.is_finished())&&+
            }
        }

        $(slot_at_impl!($all $i $S);)+
    };
}

macro_rules! slot_at_impl {
    ([$($all:ident)+] $i:tt $S:ident) => {
        impl<$($all),+> SlotAt<$i> for ($($all,)+) {
            type Slot = $S;

            #[inline]
            fn at(&mut self) -> &mut $S {
                &mut self.$i
            }
        }
    };
}

for_each_tuple!(slot_tuple_impls);

#[cfg(test)]
mod tests {
    use super::Buffer;

    #[test]
    fn buffer_is_fifo_and_keeps_one_value_inline() {
        let mut b = Buffer::new();
        assert!(b.is_empty());
        b.push(1);
        assert_eq!(b.rest.capacity(), 0);
        b.push(2);
        b.push(3);
        assert_eq!(b.len(), 3);
        assert_eq!(b.pop(), Some(1));
        b.push(4);
        assert_eq!(b.pop(), Some(2));
        assert_eq!(b.pop(), Some(3));
        assert_eq!(b.pop(), Some(4));
        assert_eq!(b.pop(), None);
        assert!(b.is_empty());
    }
}
