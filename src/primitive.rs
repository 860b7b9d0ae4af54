//! The atomics, `Arc`, locks and cells the crate is built from, in one place: under
//! `cfg(loom)` they are loom's model-checked versions, so the concurrent parts of the library
//! are explored by `loom` without changing their code (tokio's `src/loom/` and
//! crossbeam-epoch's `primitive` module do the same). Nothing here is public; the public face
//! of shared state is [`sync`](crate::sync)'s flavours, built on these.
//!
//! Locks do not poison: a panic in a user callback while a lock is held must not make the
//! next subscriber deadlock or panic (ARCHITECTURE.md, "Panics"), so `Mutex::lock` returns
//! the guard directly.

#![allow(unused_imports, dead_code, unreachable_pub)]

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Weak};
#[cfg(not(loom))]
pub(crate) use std::thread;

#[cfg(loom)]
pub(crate) use loom::sync::Arc;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(loom)]
pub(crate) use loom::thread;
// loom has no `Weak`; the code that needs one is not modelled.
#[cfg(loom)]
pub(crate) use std::sync::Weak;

/// A mutual-exclusion lock that does not poison.
#[cfg(not(loom))]
#[derive(Debug, Default)]
pub(crate) struct Mutex<T: ?Sized>(parking_lot::Mutex<T>);

#[cfg(not(loom))]
pub(crate) type MutexGuard<'a, T> = parking_lot::MutexGuard<'a, T>;

#[cfg(not(loom))]
impl<T> Mutex<T> {
    pub(crate) const fn new(value: T) -> Self {
        Mutex(parking_lot::Mutex::new(value))
    }

    pub(crate) fn into_inner(self) -> T {
        self.0.into_inner()
    }
}

#[cfg(not(loom))]
impl<T: ?Sized> Mutex<T> {
    #[inline]
    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock()
    }

    #[inline]
    pub(crate) fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        self.0.try_lock()
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.0.get_mut()
    }
}

/// A condition variable paired with [`Mutex`].
#[cfg(not(loom))]
#[derive(Debug, Default)]
pub(crate) struct Condvar(parking_lot::Condvar);

#[cfg(not(loom))]
impl Condvar {
    pub(crate) const fn new() -> Self {
        Condvar(parking_lot::Condvar::new())
    }

    pub(crate) fn wait<T>(&self, guard: &mut MutexGuard<'_, T>) {
        self.0.wait(guard)
    }

    /// Waits until notified or until `deadline`; returns `true` on timeout.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn wait_until<T>(
        &self,
        guard: &mut MutexGuard<'_, T>,
        deadline: crate::time::Instant,
    ) -> bool {
        self.0.wait_until(guard, deadline).timed_out()
    }

    /// Waits until notified or until `deadline`; returns `true` on timeout. On wasm32 the
    /// deadline is the browser's clock, which parking_lot does not take, so the wait is for
    /// the time left; with one thread nothing waits on a condition variable anyway (the
    /// public calls that would block are not compiled for wasm32).
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn wait_until<T>(
        &self,
        guard: &mut MutexGuard<'_, T>,
        deadline: crate::time::Instant,
    ) -> bool {
        let left = deadline.saturating_duration_since(crate::time::Instant::now());
        self.0.wait_for(guard, left).timed_out()
    }

    pub(crate) fn notify_one(&self) {
        self.0.notify_one();
    }

    pub(crate) fn notify_all(&self) {
        self.0.notify_all();
    }
}

#[cfg(loom)]
#[derive(Debug, Default)]
pub(crate) struct Mutex<T>(loom::sync::Mutex<T>);

#[cfg(loom)]
pub(crate) type MutexGuard<'a, T> = loom::sync::MutexGuard<'a, T>;

#[cfg(loom)]
impl<T> Mutex<T> {
    pub(crate) fn new(value: T) -> Self {
        Mutex(loom::sync::Mutex::new(value))
    }

    pub(crate) fn into_inner(self) -> T {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        self.0.try_lock().ok()
    }

    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(loom)]
#[derive(Debug, Default)]
pub(crate) struct Condvar(loom::sync::Condvar);

#[cfg(loom)]
impl Condvar {
    pub(crate) fn new() -> Self {
        Condvar(loom::sync::Condvar::new())
    }

    pub(crate) fn wait<'a, T>(&self, guard: &mut MutexGuard<'a, T>) {
        // loom's condvar takes the guard by value; swap it through a temporary.
        take_mut(guard, |g| self.0.wait(g).unwrap_or_else(|e| e.into_inner()));
    }

    /// loom has no time: a timed wait is a plain wait that may also wake spuriously.
    pub(crate) fn wait_until<'a, T>(
        &self,
        guard: &mut MutexGuard<'a, T>,
        _deadline: crate::time::Instant,
    ) -> bool {
        self.wait(guard);
        false
    }

    pub(crate) fn notify_one(&self) {
        self.0.notify_one();
    }

    pub(crate) fn notify_all(&self) {
        self.0.notify_all();
    }
}

#[cfg(loom)]
fn take_mut<T>(slot: &mut T, f: impl FnOnce(T) -> T) {
    // SAFETY: `slot` is read out and written back before anyone can observe it; `f` is
    // loom's `wait`, which does not panic except on poisoning, which `f` handles, so the
    // slot is never left logically moved-from.
    unsafe {
        let old = std::ptr::read(slot);
        std::ptr::write(slot, f(old));
    }
}

#[cfg(loom)]
pub(crate) use loom::sync::atomic::AtomicPtr;
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::AtomicPtr;

/// A cell whose contents only the holder of some exclusive role may touch, with the checks
/// left to its user: std's `UnsafeCell`, or loom's under `cfg(loom)`, which checks that no two
/// accesses overlap without a happens-before edge between them. It is neither `Sync` nor a
/// lock: the type that owns one states, in an `unsafe impl Sync`, what role guards it.
#[derive(Debug)]
pub(crate) struct UnsafeCell<T>(
    #[cfg(not(loom))] std::cell::UnsafeCell<T>,
    #[cfg(loom)] loom::cell::UnsafeCell<T>,
);

impl<T> UnsafeCell<T> {
    #[cfg(not(loom))]
    pub(crate) const fn new(value: T) -> Self {
        UnsafeCell(std::cell::UnsafeCell::new(value))
    }

    #[cfg(loom)]
    pub(crate) fn new(value: T) -> Self {
        UnsafeCell(loom::cell::UnsafeCell::new(value))
    }

    /// Runs `f` with a pointer to the contents; loom records a mutable access for the span of
    /// the call.
    #[cfg(not(loom))]
    #[inline(always)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }

    #[cfg(loom)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        self.0.with_mut(f)
    }
}
