//! How an observer tells that it is being called from inside the `subscribe` that its
//! operator is running, on that call's thread, without a read-modify-write: the engines that
//! hand something back to that call (`resubscribe`, `hand_over`) take that path when a source
//! ends at once, and their shared, locked one otherwise.
//!
//! The operator stores its thread's token in a word of its shared state while it subscribes
//! ([`Inside`]), and clears it when the call returns or unwinds. An observer that reads its own
//! thread's token there is on that thread, below that call: no other thread ever writes that
//! token, and the operator's thread clears it before it does anything else. A plain load and
//! store (Relaxed) suffice, as a thread always reads its own last write or a later one.

use crate::primitive::Ordering;
use crate::sync::imp::Counter;

/// A number that tells the calling thread from every other live thread: the address of a
/// thread-local. Never 0.
#[cfg(not(loom))]
#[inline]
pub(crate) fn thread_token() -> usize {
    std::thread_local! {
        static TOKEN: u8 = const { 0 };
    }
    TOKEN.with(|token| token as *const u8 as usize)
}

/// Under loom, each modelled thread's own thread-local.
#[cfg(loom)]
pub(crate) fn thread_token() -> usize {
    loom::thread_local! {
        static TOKEN: u8 = 0;
    }
    TOKEN.with(|token| token as *const u8 as usize)
}

/// Holds `token` in `owner` until dropped, also when a callback panics and unwinds, so that
/// no observer still alive takes a frame that is gone for the one it ends in.
pub(crate) struct Inside<'a, C: Counter> {
    owner: &'a C,
}

impl<'a, C: Counter> Inside<'a, C> {
    #[inline]
    pub(crate) fn enter(owner: &'a C, token: usize) -> Self {
        owner.store(token, Ordering::Relaxed);
        Inside { owner }
    }
}

impl<C: Counter> Drop for Inside<'_, C> {
    #[inline]
    fn drop(&mut self) {
        self.owner.store(0, Ordering::Relaxed);
    }
}

/// Whether `owner` holds the calling thread's token: the caller runs below the `subscribe`
/// that stored it, on its thread.
#[inline]
pub(crate) fn is_inside<C: Counter>(owner: &C, token: usize) -> bool {
    owner.load(Ordering::Relaxed) == token
}
