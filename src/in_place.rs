//! [`InPlace`]: a small type-erased value kept by value beside a table of its functions, a
//! `Box<dyn _>` without the heap. Four holders are built on it: a timed queue's tasks
//! (`schedulers::erased`), a merge's kept upstream handles (`engine::kept`), a subject's
//! observers (`subjects::sink`) and a group's or a window's subscriber
//! (`engine::held_observer`). Each keeps a value that [`fits`] in [`Bytes`] and boxes a
//! larger one (the box fits); each has a table of its own functions, whose `drop` entry this
//! module calls.
//!
//! # Why this is sound
//!
//! The unsafe code of every holder is the erasure, and its account is here once. From
//! [`InPlace::new`] until it is dropped (or until its holder moves the value out and marks it
//! gone, [`InPlace::set_table`]), the bytes hold a live value of the type the table was made
//! for, and nothing but the table's functions reads or writes them. Moving an `InPlace` moves
//! that value, which every Rust value allows (the value was moved in, so it holds no pointer
//! into itself). The table is a promoted constant or a `static`: it outlives every holder.
//!
//! What the value may do across threads, and what it borrows, the holder says by a marker
//! type `M` that the value stands for: `InPlace<_, M>` is `Send` exactly when `M` is, and
//! lives no longer than `M` may. [`InPlace::new`]'s contract is that the value is `Send` when
//! `M` is and borrows no more than `M` does. An `InPlace` is never `Sync`: the holders reach
//! the value through `&self` (`is_disposed`), and the value may hold cells of its own.

use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::mem::{self, MaybeUninit};
use std::ptr::NonNull;

/// How many words a value may take to be kept in place: three, so that a task capturing a
/// pointer and a `Duration`, a subject's handle (a weak pointer and two ids), or a closure
/// capturing three words needs no box.
pub(crate) const WORDS: usize = 3;

/// Room for one value of up to [`WORDS`] words, aligned to at most a word.
pub(crate) type Bytes = MaybeUninit<[usize; WORDS]>;

/// Whether a `T` fits in [`Bytes`], at the alignment they give it.
pub(crate) const fn fits<T>() -> bool {
    mem::size_of::<T>() <= mem::size_of::<Bytes>()
        && mem::align_of::<T>() <= mem::align_of::<Bytes>()
}

/// A table of an erased type's functions: whatever else it holds, it can drop the value.
pub(crate) trait Table {
    /// Drops the value at the pointer, a live value of the table's type, not used again.
    fn drop_fn(&self) -> unsafe fn(*mut ());
}

/// A value of up to [`WORDS`] words, of a type erased behind a table `T` of its functions,
/// standing for `M` in what it may do across threads and what it borrows (see the module
/// docs). Four words.
// `repr(C)`, the bytes first: an `InPlace` is moved in two 16-byte copies, and with the bytes
// at the front each later load of them or of the table falls inside one of those stores,
// which the store buffer hands on; with the table first (as Rust lays it out), a load of the
// bytes straddles two stores and waits for both to reach the cache.
#[repr(C)]
pub(crate) struct InPlace<T: Table, M> {
    bytes: UnsafeCell<Bytes>,
    /// A pointer rather than a `&'static`, which would ask `T: 'static` of a table that names
    /// a type that borrows (a subject's item type). Never null: an `Option<InPlace>` costs no
    /// more.
    table: NonNull<T>,
    _stands_for: PhantomData<M>,
}

// SAFETY: the value is `Send` when `M` is (`new`'s contract), and an `InPlace` hands out no
// shared access that could cross threads (it is not `Sync`); the table is read from the
// thread it went to, so it is `Sync` (a table of function pointers is).
unsafe impl<T: Table + Sync, M: Send> Send for InPlace<T, M> {}

impl<T: Table, M> InPlace<T, M> {
    /// Keeps `value` in place, with `table` its functions.
    ///
    /// # Safety
    ///
    /// `table` was made for `V`, and is a promoted constant or a `static` (it outlives the
    /// holder, whatever its type says); `V` is `Send` if `M` is, and borrows nothing `M`
    /// does not.
    ///
    /// # Panics
    ///
    /// If `V` does not [`fit`](fits); the test is on a constant, so it costs nothing.
    #[inline]
    pub(crate) unsafe fn new<V>(value: V, table: &T) -> Self {
        assert!(fits::<V>(), "only a value that fits is kept in place");
        let mut bytes = Bytes::uninit();
        // SAFETY: `bytes` is large enough and aligned enough for a `V` (checked above), and is
        // uninitialised, so nothing is overwritten without being dropped.
        unsafe { bytes.as_mut_ptr().cast::<V>().write(value) };
        InPlace {
            bytes: UnsafeCell::new(bytes),
            table: NonNull::from(table),
            _stands_for: PhantomData,
        }
    }

    /// A holder of a zero-sized value whose table is `table` (a vacant slot's placeholder):
    /// a constant.
    ///
    /// # Safety
    ///
    /// As [`new`](Self::new), for a zero-sized value: `table`'s functions read no bytes.
    #[inline]
    pub(crate) const unsafe fn empty(table: &'static T) -> Self {
        InPlace {
            bytes: UnsafeCell::new(Bytes::uninit()),
            // SAFETY: a reference is never null.
            table: unsafe { NonNull::new_unchecked(std::ptr::from_ref(table).cast_mut()) },
            _stands_for: PhantomData,
        }
    }

    /// The value's functions.
    #[inline(always)]
    pub(crate) fn table(&self) -> &T {
        // SAFETY: `table` was made from a borrow of a promoted constant or a `static` (`new`).
        unsafe { self.table.as_ref() }
    }

    /// Whether the table is `table`: a vacant slot's placeholder is told by its table.
    #[inline(always)]
    pub(crate) fn has_table(&self, table: &T) -> bool {
        self.table == NonNull::from(table)
    }

    /// The value, for a table's function that takes it by shared borrow.
    #[inline(always)]
    pub(crate) fn value(&self) -> *const () {
        self.bytes.get().cast_const().cast()
    }

    /// The value, for a table's function that takes it by exclusive borrow or moves it out.
    #[inline(always)]
    pub(crate) fn value_mut(&mut self) -> *mut () {
        self.bytes.get_mut().as_mut_ptr().cast()
    }

    /// Changes the table, and so what the bytes are taken to hold: after a table's function
    /// moved the value out, a table whose functions read no bytes (a vacant slot's).
    ///
    /// # Safety
    ///
    /// The bytes hold a live value of `table`'s type, or `table`'s functions read no bytes;
    /// `table` lives as [`new`](Self::new) asks.
    #[inline(always)]
    pub(crate) unsafe fn set_table(&mut self, table: &T) {
        self.table = NonNull::from(table);
    }
}

impl<T: Table, M> Drop for InPlace<T, M> {
    #[inline]
    fn drop(&mut self) {
        let drop = self.table().drop_fn();
        // SAFETY: the bytes hold a live value of the table's type (module docs), not used
        // again, as `self` goes.
        unsafe { drop(self.value_mut()) }
    }
}

/// Drops the `T` at `ptr`: the `drop` entry of every holder's table.
///
/// # Safety
///
/// `ptr` points to a live `T`, which is not used again.
pub(crate) unsafe fn drop_in_place<T>(ptr: *mut ()) {
    // SAFETY: the caller's.
    unsafe { ptr.cast::<T>().drop_in_place() }
}
