//! [`HeldObserver`]: the subscriber of a group or a window, type-erased in place when it is
//! small and boxed otherwise.
//!
//! # Why in place
//!
//! An inner observable's type is fixed when its operator emits it, before anyone chooses the
//! subscriber, so the subscriber's type must be erased. A `Box<dyn Observer>` does it at the
//! price of an allocation per inner and of a pointer more to follow per value: with many
//! short-lived groups that allocation, its free, and the cold box the group's completion
//! reaches cost more than the rest of the group. Most subscribers are a closure with a
//! capture or two, or an operator's observer holding a pointer, so a subscriber of up to
//! [`WORDS`](in_place::WORDS) words sits in place: a pointer to a table of its functions
//! (what a `dyn` pointer's vtable holds) and its bytes. A larger one, or one aligned more
//! strictly than a word, is boxed in the flavour's box, and the box (two words) sits in place
//! instead.
//!
//! # Why this is sound
//!
//! The erasure is an [`InPlace`], whose account is in its module. `on_error` and
//! `on_completed` move the subscriber out of a `HeldObserver` that is then never dropped. A
//! subscriber is kept in place only when the flavour could box it (`F: KeepSubscriber<'a, T,
//! O>`), so a `HeldObserver` stands for that box: `Send` exactly when the box would be, and
//! borrowing for `'a` as it would. The tests below check delivery, one drop per subscriber,
//! consuming ones, inline and boxed subscribers, and a thread-safe one moved to another
//! thread.

use crate::Error;
use crate::in_place::{self, InPlace, fits};
use crate::observer::Observer;
use crate::observer::{BoxedObserver, LocalBoxedObserver};
use crate::sync::{Flavour, Local, Shared};
use std::fmt;
use std::mem::ManuallyDrop;

/// The subscribers of type `O` an inner observable of flavour `Self` can keep: `Send` ones
/// for [`Shared`], any for [`Local`].
///
/// Public in a private module, as `sync::imp::Machinery` is: it bounds the `Subscribe` impls
/// of public types without being nameable outside the crate.
#[allow(unreachable_pub)]
pub trait KeepSubscriber<'a, T, O>: Flavour {
    /// Boxes `observer`, when it is too large to be kept in place.
    fn box_subscriber(observer: O) -> Self::BoxedObserver<'a, T>;
}

impl<'a, T, O: Observer<T> + Send + 'a> KeepSubscriber<'a, T, O> for Shared {
    #[inline]
    fn box_subscriber(observer: O) -> BoxedObserver<'a, T> {
        Box::new(observer)
    }
}

impl<'a, T, O: Observer<T> + 'a> KeepSubscriber<'a, T, O> for Local {
    #[inline]
    fn box_subscriber(observer: O) -> LocalBoxedObserver<'a, T> {
        Box::new(observer)
    }
}

/// A subscriber of `T` of any type, kept by value in four words (see the module docs). It
/// stands for `F`'s box of the same subscriber: `Send` for `Shared` (which keeps `Send`
/// subscribers only), neither for `Local`; and `'a`.
pub(crate) struct HeldObserver<'a, T, F: Flavour>(InPlace<Table, F::BoxedObserver<'a, T>>);

/// The functions of one subscriber type. A value passes by pointer, moved out by the callee,
/// so that the table does not name `T` and can be a `'static` constant whatever `T` borrows.
struct Table {
    on_next: unsafe fn(*mut (), *mut ()),
    on_error: unsafe fn(*mut (), Error),
    on_completed: unsafe fn(*mut ()),
    is_disposed: unsafe fn(*const ()) -> bool,
    drop: unsafe fn(*mut ()),
}

impl in_place::Table for Table {
    #[inline(always)]
    fn drop_fn(&self) -> unsafe fn(*mut ()) {
        self.drop
    }
}

/// The [`Table`] of a subscriber of `T`: a constant, so that `&O::TABLE` is a `'static`
/// borrow.
trait HasTable<T> {
    const TABLE: Table;
}

impl<T, O: Observer<T>> HasTable<T> for O {
    const TABLE: Table = Table {
        on_next: on_next::<T, O>,
        on_error: on_error::<T, O>,
        on_completed: on_completed::<T, O>,
        is_disposed: is_disposed::<T, O>,
        drop: in_place::drop_in_place::<O>,
    };
}

/// # Safety
///
/// `observer` points to a live `O`, `value` to a `T` that the caller never uses again.
unsafe fn on_next<T, O: Observer<T>>(observer: *mut (), value: *mut ()) {
    // SAFETY: the caller's.
    unsafe { (*observer.cast::<O>()).on_next(value.cast::<T>().read()) }
}

/// # Safety
///
/// `observer` points to a live `O`, which the caller never uses again.
unsafe fn on_error<T, O: Observer<T>>(observer: *mut (), error: Error) {
    // SAFETY: the caller's.
    unsafe { observer.cast::<O>().read().on_error(error) }
}

/// # Safety
///
/// As [`on_error`].
unsafe fn on_completed<T, O: Observer<T>>(observer: *mut ()) {
    // SAFETY: the caller's.
    unsafe { observer.cast::<O>().read().on_completed() }
}

/// # Safety
///
/// `observer` points to a live `O`.
unsafe fn is_disposed<T, O: Observer<T>>(observer: *const ()) -> bool {
    // SAFETY: the caller's.
    unsafe { (*observer.cast::<O>()).is_disposed() }
}

impl<'a, T, F: Flavour> HeldObserver<'a, T, F> {
    /// Keeps `observer`: in place when it fits, boxed in `F`'s box otherwise.
    #[inline]
    pub(crate) fn new<O>(observer: O) -> Self
    where
        O: Observer<T>,
        F: KeepSubscriber<'a, T, O>,
    {
        if const { fits::<O>() } {
            // SAFETY: it fits, and `F: KeepSubscriber<'a, T, O>` is the bound `store` asks for.
            unsafe { HeldObserver::store(observer) }
        } else {
            let boxed = F::box_subscriber(observer);
            const { assert!(fits::<F::BoxedObserver<'a, T>>()) };
            // SAFETY: `F`'s box fits (two words, checked above), and is the marker's type.
            unsafe { HeldObserver::store(boxed) }
        }
    }

    /// Stores `observer` in place.
    ///
    /// # Safety
    ///
    /// An `O` [fits], and `F`'s box could hold one (`F: KeepSubscriber<'a, T, O>`, which for
    /// `Shared` holds only for a `Send` subscriber), or `O` is `F`'s box itself: what makes
    /// what makes the subscriber stand for `F`'s box.
    #[inline]
    unsafe fn store<O: Observer<T>>(observer: O) -> Self {
        // SAFETY: the table is `O`'s, a promoted constant; the caller's bound makes the
        // subscriber stand for `F`'s box.
        HeldObserver(unsafe { InPlace::new(observer, &<O as HasTable<T>>::TABLE) })
    }
}

impl<T, F: Flavour> Observer<T> for HeldObserver<'_, T, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        let mut value = ManuallyDrop::new(value);
        let value: *mut T = &mut *value;
        let on_next = self.0.table().on_next;
        // SAFETY: the bytes hold a live subscriber of the table's type (`InPlace`; consumed
        // only once, below); `value` is moved out by the call and never touched again here.
        unsafe { on_next(self.0.value_mut(), value.cast()) }
    }

    fn on_error(self, error: Error) {
        let mut this = ManuallyDrop::new(self);
        let on_error = this.0.table().on_error;
        // SAFETY: as in `on_next`; `this` is never dropped, so the subscriber the call moves
        // out is not dropped again, even if the call unwinds.
        unsafe { on_error(this.0.value_mut(), error) }
    }

    fn on_completed(self) {
        let mut this = ManuallyDrop::new(self);
        let on_completed = this.0.table().on_completed;
        // SAFETY: as in `on_error`.
        unsafe { on_completed(this.0.value_mut()) }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        // SAFETY: as in `on_next`.
        unsafe { (self.0.table().is_disposed)(self.0.value()) }
    }
}

impl<T, F: Flavour> fmt::Debug for HeldObserver<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeldObserver").finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
