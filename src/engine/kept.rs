//! The upstream handles the [merge core](super::merge_core) keeps so that it can dispose
//! them: [`Kept`], the first two in place and the rest in a map by id, each one a [`KeptHandle`]
//! handle, type-erased in place when it is small and boxed otherwise.
//!
//! # Why in place
//!
//! A kept handle's type names the core's observer types, so the control block that keeps it
//! (and the handle a user holds, which reaches it) must erase it. A `Box<dyn Subscription>`
//! erases it at the price of an allocation per live upstream, and a map by id at the price of
//! a node (a `BTreeMap` leaf: eleven entries, about 300 bytes) per subscription. Most merges
//! keep one or two handles (`merge_with` of two live sources, `take_until`, `amb` of two, a
//! `flat_map` with an inner or two alive), and most handles are a few words (a subject's is a
//! weak pointer and two ids). So the first two handles sit in two slots of the block itself,
//! and a handle of up to [`WORDS`](in_place::WORDS) words sits in its slot without a box: a pointer to a
//! table of three functions (what a `dyn` pointer's vtable holds) and the handle's bytes.
//! Past two at once, the rest go to a map by id; a larger handle is boxed, and the box
//! (two words) sits in place instead.
//!
//! Wherever they sit, handles are disposed in the order of their ids: the order their
//! upstreams were subscribed in.
//!
//! # Why this is sound
//!
//! The erasure is an [`InPlace`], whose account is in its module. A handle is kept in place
//! only when the flavour could box it (`F: BoxSubscription<'a, H>`), so a `KeptHandle`
//! stands for that box: it is `Send` exactly when the box would be, and borrows for `'a` as
//! it would. The tests below check disposal, the answer to `is_disposed`, one drop per
//! handle, moving a `KeptHandle` and dropping a thread-safe one on another thread.

use crate::in_place::{self, InPlace, fits};
use crate::subscription::Subscription;
use crate::sync::Flavour;
use crate::sync::imp::{BoxSubscription, Machinery};
use std::collections::BTreeMap;
use std::fmt;
use std::mem;

/// A flavour's boxed handle. `'a` bounds what it borrows.
type Boxed<'a, F> = <F as Machinery>::BoxedSubscription<'a>;

/// One kept upstream handle, whatever its type was: a handle of up to [`WORDS`](in_place::WORDS) words,
/// aligned to at most a word, stored by value with the functions that dispose it, ask it and
/// drop it (a `Box<dyn Subscription>` without the heap); a larger one boxed in `F`'s box,
/// which is two words, and stored the same way. So a `KeptHandle` is four words, and an empty
/// `Option<KeptHandle>` costs none more. It stands for `F`'s box of the same handle: `Send`
/// for `Shared` (whose handles are `Send`, see [`KeptHandle::store`]), neither `Send` nor
/// `Sync` for `Local`; and `'a`.
pub(crate) struct KeptHandle<'a, F: Flavour>(InPlace<Table, Boxed<'a, F>>);

/// The functions of one handle type, as a `dyn` pointer's vtable holds them.
struct Table {
    dispose: unsafe fn(*const ()),
    is_disposed: unsafe fn(*const ()) -> bool,
    drop: unsafe fn(*mut ()),
}

impl in_place::Table for Table {
    #[inline(always)]
    fn drop_fn(&self) -> unsafe fn(*mut ()) {
        self.drop
    }
}

/// The [`Table`] of handle type `H`: a constant, so that `&H::TABLE` is a `'static` borrow.
trait HasTable {
    const TABLE: Table;
}

impl<H: Subscription> HasTable for H {
    const TABLE: Table = Table {
        dispose: dispose::<H>,
        is_disposed: is_disposed::<H>,
        drop: in_place::drop_in_place::<H>,
    };
}

/// # Safety
///
/// `handle` points to a live `H`.
unsafe fn dispose<H: Subscription>(handle: *const ()) {
    // SAFETY: the caller's.
    unsafe { (*handle.cast::<H>()).dispose() }
}

/// # Safety
///
/// `handle` points to a live `H`.
unsafe fn is_disposed<H: Subscription>(handle: *const ()) -> bool {
    // SAFETY: the caller's.
    unsafe { (*handle.cast::<H>()).is_disposed() }
}

impl<'a, F: Flavour> KeptHandle<'a, F> {
    /// Keeps `handle`: in place when it fits, boxed in `F`'s box otherwise.
    #[inline]
    pub(crate) fn new<H>(handle: H) -> Self
    where
        H: Subscription,
        F: BoxSubscription<'a, H>,
    {
        if const { fits::<H>() } {
            // SAFETY: it fits; `F: BoxSubscription<'a, H>` is the bound `store` asks for.
            unsafe { KeptHandle::store(handle) }
        } else {
            let boxed = F::box_subscription(handle);
            const { assert!(fits::<Boxed<'a, F>>()) };
            // SAFETY: a box of `F`'s fits (two words, checked above); it is `Send` exactly
            // when the marker says, being the marker's own type.
            unsafe { KeptHandle::store(boxed) }
        }
    }

    /// Stores `handle` in place.
    ///
    /// # Safety
    ///
    /// An `H` [fits], and `F`'s box could hold one: `F: BoxSubscription<'a, H>`
    /// (which for `Shared` holds only for a `Send` handle: `BoxSubscription` is implemented
    /// for every handle the flavour can keep, and `Shared` keeps `Send` ones), or `H` is
    /// `F`'s box itself. That is what makes a `KeptHandle` that is `Send` (through its marker)
    /// sound, and what bounds its borrows by `'a`.
    #[inline]
    unsafe fn store<H: Subscription>(handle: H) -> Self {
        // SAFETY: the table is `H`'s, a promoted constant; the caller's bound makes the
        // handle stand for `F`'s box.
        KeptHandle(unsafe { InPlace::new(handle, &<H as HasTable>::TABLE) })
    }
}

impl<F: Flavour> Subscription for KeptHandle<'_, F> {
    #[inline]
    fn dispose(&self) {
        // SAFETY: the bytes hold a live handle of the table's type (`InPlace`).
        unsafe { (self.0.table().dispose)(self.0.value()) }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        // SAFETY: as in `dispose`.
        unsafe { (self.0.table().is_disposed)(self.0.value()) }
    }
}

impl<F: Flavour> fmt::Debug for KeptHandle<'_, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeptHandle").finish_non_exhaustive()
    }
}

/// The kept handles of one subscription, by id: the first two in slots, the rest in a map,
/// allocated only once a third is kept at once.
pub(crate) struct Kept<'a, F: Flavour> {
    /// The id of the handle in the slot of the same index; read only where it holds one.
    ids: [u64; 2],
    /// Apart from their ids, so that taking a handle out copies it whole, in the loads it was
    /// stored by (see `remove`).
    slots: [Option<KeptHandle<'a, F>>; 2],
    /// Boxed: one word where most merges never need it (a `BTreeMap` is three), and an
    /// absent map costs nothing to drop (an empty `BTreeMap` walks an empty iterator).
    #[allow(clippy::box_collection)]
    more: Option<Box<BTreeMap<u64, KeptHandle<'a, F>>>>,
}

impl<'a, F: Flavour> Kept<'a, F> {
    pub(crate) const fn new() -> Self {
        Kept {
            ids: [0; 2],
            slots: [None, None],
            more: None,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.slots.iter().all(Option::is_none) && self.more.as_ref().is_none_or(|m| m.is_empty())
    }

    /// The index of the slot that holds `id`'s handle.
    #[inline(always)]
    fn slot_of(&self, id: u64) -> Option<usize> {
        (0..2).find(|&i| self.slots[i].is_some() && self.ids[i] == id)
    }

    // Inlined, as `remove`: a handle moved through a call by memory is stored in words and
    // loaded back in wider loads, which wait for the stores to reach the cache instead of
    // taking them from the store buffer; the stall costs more than the rest of the call.
    #[inline(always)]
    pub(crate) fn insert(&mut self, id: u64, handle: KeptHandle<'a, F>) {
        debug_assert!(self.slot_of(id).is_none());
        match self.slots.iter().position(Option::is_none) {
            Some(i) => {
                self.ids[i] = id;
                self.slots[i] = Some(handle);
            }
            None => self.insert_more(id, handle),
        }
    }

    #[cold]
    #[inline(never)]
    fn insert_more(&mut self, id: u64, handle: KeptHandle<'a, F>) {
        self.more.get_or_insert_default().insert(id, handle);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, id: u64) -> Option<KeptHandle<'a, F>> {
        match self.slot_of(id) {
            Some(i) => self.slots[i].take(),
            None => self.remove_more(id),
        }
    }

    #[cold]
    #[inline(never)]
    fn remove_more(&mut self, id: u64) -> Option<KeptHandle<'a, F>> {
        self.more.as_mut()?.remove(&id)
    }

    /// Takes every handle but `id`'s, which stays.
    pub(crate) fn take_all_except(&mut self, id: u64) -> Self {
        let mut all = mem::take(self);
        if let Some(keep) = all.remove(id) {
            self.insert(id, keep);
        }
        all
    }

    /// Disposes every handle, in the order of their ids (the order their upstreams were
    /// subscribed in), then drops them.
    pub(crate) fn dispose_all(self) {
        if self.slots.iter().all(Option::is_none) && self.more.is_none() {
            // What a merge whose upstreams all ended keeps at its end.
            return;
        }
        let Kept {
            ids: [x, y],
            slots: [a, b],
            more,
        } = self;
        // The two slots in order, then merged into the map's order.
        let mut slots = match (&a, &b) {
            (Some(_), Some(_)) if y < x => [b.map(|h| (y, h)), a.map(|h| (x, h))],
            _ => [a.map(|h| (x, h)), b.map(|h| (y, h))],
        };
        if let Some(more) = more {
            for (id, handle) in *more {
                for slot in &mut slots {
                    if slot.as_ref().is_some_and(|(early, _)| *early < id)
                        && let Some((_, early)) = slot.take()
                    {
                        early.dispose();
                    }
                }
                handle.dispose();
            }
        }
        for (_, handle) in slots.into_iter().flatten() {
            handle.dispose();
        }
    }
}

impl<F: Flavour> Default for Kept<'_, F> {
    fn default() -> Self {
        Kept::new()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
