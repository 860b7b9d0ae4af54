//! The bytes a small type-erased value sits in, by value beside a table of its functions:
//! a timed queue's tasks (`schedulers::erased`), a merge's kept upstream handles
//! (`engine::kept`), a subject's observers (`subjects::sink`) and a group's or a
//! window's subscriber (`engine::held_observer`). Each keeps a
//! value that [`fits`] in [`Bytes`] and boxes a larger one; this module is what they share.

use std::mem::{self, MaybeUninit};

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

/// Fresh bytes holding `value`. Nothing drops it: the holder's table does.
///
/// # Panics
///
/// If `T` does not [`fit`](fits); the test is on a constant, so it costs nothing.
#[inline]
pub(crate) fn store<T>(value: T) -> Bytes {
    assert!(fits::<T>(), "only a value that fits is kept in place");
    let mut bytes = Bytes::uninit();
    // SAFETY: `bytes` is large enough and aligned enough for a `T` (checked above), and is
    // uninitialised, so nothing is overwritten without being dropped.
    unsafe { bytes.as_mut_ptr().cast::<T>().write(value) };
    bytes
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
