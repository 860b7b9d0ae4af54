//! [`Counted`]: an `Arc` whose holder can make a second reference without an atomic
//! read-modify-write while it holds the only one.
//!
//! The trampoline hands out two references to things it has just made or taken from its
//! pool: a worker's core when a fresh worker is cloned, a task's slot when the task is queued
//! (one for the queue, one for the handle). With `Arc` each second reference is an atomic
//! increment, about 5 ns on the machines the suite runs on, where the whole nested
//! `schedule` costs about 50. Holding the only reference (`&mut` to it, and a count of one),
//! no other thread can reach the count, so a plain store can set it to two. Everything else
//! is `Arc`'s protocol: a relaxed increment to clone, a release decrement to drop, an acquire
//! load of the count before the last holder frees (a load rather than a fence, which the
//! thread sanitizer cannot see).
//!
//! A timed queue is one too, for the same reason: each task handle holds a reference to it,
//! and [`Counted::add_unowned`] adds a batch of them in one atomic operation, where `Arc`
//! would take one per handle.

// On wasm32 only the run loop and the test scheduler hold queues, and they need less of it.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use crate::primitive::{AtomicUsize, Ordering};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::NonNull;

/// A thread-safe reference-counted pointer to a `T`, as `Arc<T>` without weak references.
pub(crate) struct Counted<T> {
    inner: NonNull<Inner<T>>,
    /// Owns an `Inner<T>`, for drop check and variance.
    _owns: PhantomData<Inner<T>>,
}

/// The allocation: the value first, so that a pointer to it is a pointer to the value
/// ([`Counted::into_raw`] hands out the one as the other).
#[repr(C)]
struct Inner<T> {
    value: T,
    count: AtomicUsize,
    /// Under loom, an `Arc` freed with the allocation, so that loom reports one leaked.
    #[cfg(loom)]
    leak_check: crate::primitive::Arc<()>,
}

// SAFETY: as `Arc<T>`: the value is shared between threads (`Sync`) and dropped by whichever
// holds the last reference (`Send`).
unsafe impl<T: Send + Sync> Send for Counted<T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Send + Sync> Sync for Counted<T> {}

impl<T> Counted<T> {
    pub(crate) fn new(value: T) -> Self {
        let inner = Box::new(Inner {
            value,
            count: AtomicUsize::new(1),
            #[cfg(loom)]
            leak_check: crate::primitive::Arc::new(()),
        });
        Counted {
            inner: NonNull::from(Box::leak(inner)),
            _owns: PhantomData,
        }
    }

    #[inline]
    fn inner(&self) -> &Inner<T> {
        // SAFETY: the allocation lives while any reference counted in it does, and `self` is one.
        unsafe { self.inner.as_ref() }
    }

    /// Whether `this` is the only reference. Acquire pairs with the release decrement of the
    /// reference dropped last, so what its thread did to the value is seen here.
    #[inline]
    pub(crate) fn is_unique(this: &Self) -> bool {
        this.inner().count.load(Ordering::Acquire) == 1
    }

    /// Another reference, as `clone`, but without an atomic read-modify-write when `this` is
    /// the only one.
    #[inline]
    pub(crate) fn share(this: &mut Self) -> Self {
        let count = &this.inner().count;
        if count.load(Ordering::Acquire) == 1 {
            // `this` is the only reference and is borrowed mutably here, so no other thread
            // holds one to clone or drop meanwhile: nothing else touches the count.
            count.store(2, Ordering::Relaxed);
        } else {
            count.fetch_add(1, Ordering::Relaxed);
        }
        Counted {
            inner: this.inner,
            _owns: PhantomData,
        }
    }

    /// The value's address, which keeps the reference `this` held (as `Arc::into_raw`).
    pub(crate) fn into_raw(this: Self) -> *const T {
        let ptr = this.inner.as_ptr().cast::<T>().cast_const();
        std::mem::forget(this);
        ptr
    }

    /// Takes back a reference given out by [`into_raw`](Self::into_raw), or one added by
    /// [`add_unowned`](Self::add_unowned).
    ///
    /// # Safety
    ///
    /// `ptr` came from `into_raw` or [`as_ptr`](Self::as_ptr) of a `Counted<T>`, and the
    /// reference taken back, kept by `into_raw` or added by `add_unowned`, is taken back once.
    pub(crate) unsafe fn from_raw(ptr: *const T) -> Self {
        Counted {
            // SAFETY: `value` is the first field of a `repr(C)` `Inner<T>`, so its address is
            // the allocation's, which is not null (the caller's guarantee).
            inner: unsafe { NonNull::new_unchecked(ptr.cast::<Inner<T>>().cast_mut()) },
            _owns: PhantomData,
        }
    }

    /// Adds a reference to the value at `ptr`, as `Arc::increment_strong_count`.
    ///
    /// # Safety
    ///
    /// `ptr` came from `into_raw`, and a reference kept by it is still held.
    pub(crate) unsafe fn increment(ptr: *const T) {
        // SAFETY: the caller's guarantee: the allocation is alive.
        unsafe { &*ptr.cast::<Inner<T>>() }
            .count
            .fetch_add(1, Ordering::Relaxed);
    }

    /// Adds `n` references that no value holds yet, in one atomic operation where `Arc`
    /// takes one per reference: each is taken over by [`from_raw`](Self::from_raw) of
    /// [`as_ptr`](Self::as_ptr), or they are given back together by
    /// [`drop_unowned`](Self::drop_unowned).
    pub(crate) fn add_unowned(this: &Self, n: usize) {
        // Relaxed, as `clone`.
        this.inner().count.fetch_add(n, Ordering::Relaxed);
    }

    /// Gives back `n` references added by [`add_unowned`](Self::add_unowned).
    ///
    /// # Safety
    ///
    /// The `n` references were added by `add_unowned` and none of them was taken over, so
    /// with `this` the count stays above `n`: the value is never freed here.
    pub(crate) unsafe fn drop_unowned(this: &Self, n: usize) {
        // Release, as `drop`; never the last reference, so no acquire.
        let before = this.inner().count.fetch_sub(n, Ordering::Release);
        debug_assert!(before > n, "dropped references that were not added");
    }

    /// The number of references (as `Arc::strong_count`): exact only when no other thread
    /// holds one.
    #[cfg(test)]
    pub(crate) fn count(this: &Self) -> usize {
        this.inner().count.load(Ordering::Acquire)
    }

    /// Whether two references name the same value.
    #[cfg(test)]
    pub(crate) fn ptr_eq(a: &Self, b: &Self) -> bool {
        a.inner == b.inner
    }

    /// The value's address.
    pub(crate) fn as_ptr(this: &Self) -> *const T {
        this.inner.as_ptr().cast::<T>().cast_const()
    }
}

impl<T> Clone for Counted<T> {
    #[inline]
    fn clone(&self) -> Self {
        // Relaxed, as `Arc`: a new reference is made from an existing one, which orders it.
        self.inner().count.fetch_add(1, Ordering::Relaxed);
        Counted {
            inner: self.inner,
            _owns: PhantomData,
        }
    }
}

impl<T> Deref for Counted<T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.inner().value
    }
}

impl<T> Drop for Counted<T> {
    #[inline]
    fn drop(&mut self) {
        // Release: what this thread did to the value happens before the free; the acquire
        // load of the last holder pairs with it.
        if self.inner().count.fetch_sub(1, Ordering::Release) == 1 {
            self.free();
        }
    }
}

impl<T> Counted<T> {
    /// Frees the value and its allocation, `self` being the last reference. Out of line, as
    /// `Arc`'s: the decrement alone stays where a reference is dropped.
    #[inline(never)]
    fn free(&mut self) {
        // Acquire, pairing with the release decrements of the other holders, so that what
        // their threads did to the value happens before the drop below. A load of the count
        // rather than a standalone fence, as `Arc` does under the thread sanitizer: the
        // sanitizer does not model fences, and would report the drop as racing with the
        // other holders' last uses. The load reads the zero the decrement left (no one else
        // reaches the count any more); on x86 it is a plain load of a line this thread has
        // just written.
        let count = self.inner().count.load(Ordering::Acquire);
        debug_assert_eq!(count, 0, "freed while referenced");
        // SAFETY: the last reference: the allocation came from `Box::leak` in `new`, and no
        // one reaches it any more.
        drop(unsafe { Box::from_raw(self.inner.as_ptr()) });
    }
}

impl<T: fmt::Debug> fmt::Debug for Counted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize as StdAtomicUsize;

    struct Probe<'a>(&'a StdAtomicUsize);

    impl Drop for Probe<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn share_counts_both_references_and_the_value_drops_once() {
        let drops = StdAtomicUsize::new(0);
        let mut first = Counted::new(Probe(&drops));
        assert!(Counted::is_unique(&first));
        let second = Counted::share(&mut first);
        assert_eq!(Counted::count(&first), 2);
        assert!(Counted::ptr_eq(&first, &second));
        let mut third = second.clone();
        // Not unique any more: `share` increments.
        let fourth = Counted::share(&mut third);
        assert_eq!(Counted::count(&first), 4);
        drop((second, third, fourth));
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        assert!(Counted::is_unique(&first));
        drop(first);
        assert_eq!(drops.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_raw_reference_is_counted_until_taken_back() {
        let drops = StdAtomicUsize::new(0);
        let first = Counted::new(Probe(&drops));
        let raw = Counted::into_raw(first.clone());
        assert!(std::ptr::eq(raw, Counted::as_ptr(&first)));
        // SAFETY: `raw` keeps a reference.
        unsafe { Counted::<Probe<'_>>::increment(raw) };
        assert_eq!(Counted::count(&first), 3);
        // SAFETY: the two references `raw` keeps, each taken back once.
        drop(unsafe { Counted::from_raw(raw) });
        drop(unsafe { Counted::from_raw(raw) });
        drop(first);
        assert_eq!(drops.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn unowned_references_are_taken_over_or_given_back_together() {
        let drops = StdAtomicUsize::new(0);
        let first = Counted::new(Probe(&drops));
        Counted::add_unowned(&first, 3);
        assert_eq!(Counted::count(&first), 4);
        // SAFETY: one of the references added above, taken over once.
        let taken = unsafe { Counted::from_raw(Counted::as_ptr(&first)) };
        assert!(Counted::ptr_eq(&first, &taken));
        // SAFETY: the other two, none of them taken over; `first` and `taken` remain.
        unsafe { Counted::drop_unowned(&first, 2) };
        assert_eq!(Counted::count(&first), 2);
        drop(first);
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        drop(taken);
        assert_eq!(drops.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn references_dropped_on_other_threads_free_the_value_once() {
        static DROPS: StdAtomicUsize = StdAtomicUsize::new(0);
        let mut first = Counted::new(Probe(&DROPS));
        let shared = Counted::share(&mut first);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let mine = shared.clone();
                std::thread::spawn(move || drop(mine))
            })
            .collect();
        drop((first, shared));
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(DROPS.load(Ordering::Relaxed), 1);
    }
}
