//! [`ErasedTask`]: a task of any type, stored by value in a few words.
//!
//! # Why in place
//!
//! A timed queue keeps tasks of every type its workers are given, so it must erase their
//! types. A `Box<dyn Task>` does it at the price of an allocation per scheduled task; most
//! tasks a time operator schedules capture a word or two (a pointer to the operator's state,
//! a counter), so a task of up to [`WORDS`](in_place::WORDS) words sits in the slot itself: a pointer to a
//! table of two functions (what a `dyn` pointer's vtable holds) and the task's bytes. A
//! larger task, or one aligned more strictly than a word, is boxed, and the box (one word)
//! sits in place instead.
//!
//! # Why this is sound
//!
//! The erasure is an [`InPlace`], whose account is in its module. The task is [`Task`], so
//! `Send` (or the program has one thread: see [`MaybeSend`](super::MaybeSend)): an
//! `ErasedTask` stands for `()`, `Send`. The tests below check running, one drop per task,
//! inline and boxed tasks, moving one and dropping it on another thread.

use super::{Reschedule, Task};
use crate::in_place::{self, InPlace, fits};
use std::fmt;
use std::mem;

/// A task of any type, in place when it takes at most [`WORDS`](in_place::WORDS) words and is aligned to at
/// most a word, boxed otherwise. Four words either way.
pub(crate) struct ErasedTask(InPlace<Table, ()>);

/// The functions of one task type (also the trampoline's, whose slots store larger tasks in
/// place).
pub(super) struct Table {
    pub(super) run: unsafe fn(*mut ()) -> Reschedule,
    pub(super) drop: unsafe fn(*mut ()),
}

impl in_place::Table for Table {
    #[inline(always)]
    fn drop_fn(&self) -> unsafe fn(*mut ()) {
        self.drop
    }
}

/// # Safety
/// `ptr` points to a live `T` that nothing else touches during the call.
unsafe fn run_raw<T: Task>(ptr: *mut ()) -> Reschedule {
    // SAFETY: the caller's guarantee.
    unsafe { (*ptr.cast::<T>()).run() }
}

/// The [`Table`] of `T`: a constant, so that `&TableOf::<T>::TABLE` is a `'static` borrow.
pub(super) struct TableOf<T>(T);

impl<T: Task> TableOf<T> {
    pub(super) const TABLE: Table = Table {
        run: run_raw::<T>,
        drop: in_place::drop_in_place::<T>,
    };
}

/// The table of no task: an [`ErasedTask::empty`] holds nothing to run or drop. A `static`,
/// so that its address is its own and no task type's table can share it.
pub(super) static EMPTY: Table = Table {
    run: |_| Reschedule::Done,
    drop: |_| {},
};

/// A task too large, or aligned too strictly, to be stored in place.
pub(super) struct Boxed<T>(pub(super) Box<T>);

impl<T: Task> Task for Boxed<T> {
    #[inline]
    fn run(&mut self) -> Reschedule {
        self.0.run()
    }
}

impl ErasedTask {
    /// Erases `task`, in place if it fits, boxed (one allocation) if not.
    #[inline]
    pub(crate) fn new<T: Task>(task: T) -> Self {
        if fits::<T>() {
            Self::inline(task)
        } else {
            Self::inline(Boxed(Box::new(task)))
        }
    }

    /// A placeholder holding no task, for a slot whose task was taken out to run. Lets a
    /// slot hold an `ErasedTask` rather than an `Option` of one, so that the slot's own
    /// vacancy can use the table pointer's niche.
    #[inline]
    pub(crate) const fn empty() -> Self {
        // SAFETY: `EMPTY` is a `static`, whose functions read no bytes.
        ErasedTask(unsafe { InPlace::empty(&EMPTY) })
    }

    /// Whether this is an [`empty`](ErasedTask::empty) placeholder.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.has_table(&EMPTY)
    }

    /// Takes the task out, leaving an empty placeholder.
    #[inline]
    pub(crate) fn take(&mut self) -> Self {
        mem::replace(self, ErasedTask::empty())
    }

    /// Whether a task of type `T` is stored without a box.
    #[cfg(all(test, not(loom)))]
    pub(crate) const fn stored_in_place<T>() -> bool {
        fits::<T>()
    }

    #[inline]
    fn inline<T: Task>(task: T) -> Self {
        // SAFETY: the table is `T`'s, a promoted constant. A task is `MaybeSend`: `Send`, or
        // in a wasm32 build without atomics, which has one thread, of any type (nothing can
        // move to another thread there); so it may stand for `()`.
        ErasedTask(unsafe { InPlace::new(task, &TableOf::<T>::TABLE) })
    }

    /// Runs the task once.
    #[inline]
    pub(crate) fn run(&mut self) -> Reschedule {
        let run = self.0.table().run;
        // SAFETY: the bytes hold a live value of the table's type (`InPlace`), and
        // `&mut self` makes this the only access to it.
        unsafe { run(self.0.value_mut()) }
    }
}

impl fmt::Debug for ErasedTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErasedTask").finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts its drops.
    struct Probe(Arc<AtomicUsize>);

    impl Drop for Probe {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counting<const N: usize>(
        runs: &Arc<AtomicUsize>,
        drops: &Arc<AtomicUsize>,
    ) -> impl Task + use<N> {
        let runs = runs.clone();
        let probe = Probe(drops.clone());
        let padding = [0u8; N];
        move || {
            let _ = (&probe, padding);
            runs.fetch_add(1, Ordering::SeqCst);
            Reschedule::After(std::time::Duration::ZERO)
        }
    }

    fn runs_and_drops_once<T: Task>(make: impl Fn(&Arc<AtomicUsize>, &Arc<AtomicUsize>) -> T) {
        let (runs, drops) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut task = ErasedTask::new(make(&runs, &drops));
        assert_eq!(task.run(), Reschedule::After(std::time::Duration::ZERO));
        // Moved, then run again and dropped on another thread.
        let moved = task;
        std::thread::spawn(move || {
            let mut task = moved;
            task.run();
        })
        .join()
        .unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(Arc::strong_count(&runs), 1);
    }

    #[test]
    fn a_small_task_is_stored_in_place() {
        // Two pointers and 8 bytes: three words.
        type Small = [u8; 8];
        assert!(ErasedTask::stored_in_place::<(usize, usize, Small)>());
        runs_and_drops_once(counting::<8>);
    }

    #[test]
    fn a_large_task_is_boxed() {
        assert!(!ErasedTask::stored_in_place::<[usize; 4]>());
        runs_and_drops_once(counting::<64>);
    }

    #[test]
    fn an_overaligned_task_is_boxed() {
        #[repr(align(32))]
        struct Aligned(u8);
        assert!(!ErasedTask::stored_in_place::<Aligned>());
        let dropped = Arc::new(AtomicUsize::new(0));
        let probe = Probe(dropped.clone());
        let aligned = Aligned(7);
        let mut task = ErasedTask::new(move || {
            let _ = &probe;
            assert_eq!(std::ptr::from_ref(&aligned).align_offset(32), 0);
            assert_eq!(aligned.0, 7);
            Reschedule::Done
        });
        assert_eq!(task.run(), Reschedule::Done);
        drop(task);
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_zero_sized_task_runs() {
        assert!(ErasedTask::stored_in_place::<()>());
        let mut task = ErasedTask::new(|| Reschedule::Done);
        assert_eq!(task.run(), Reschedule::Done);
    }

    #[test]
    fn an_empty_placeholder_holds_nothing() {
        let (runs, drops) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        // A zero-sized task with a no-op drop, whose table could look like the empty one.
        let mut noop = ErasedTask::new(|| Reschedule::Done);
        assert!(!noop.is_empty());
        assert!(!noop.take().is_empty());
        assert!(noop.is_empty());
        let mut task = ErasedTask::new(counting::<8>(&runs, &drops));
        let mut taken = task.take();
        assert!(task.is_empty() && !taken.is_empty());
        drop(task);
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        taken.run();
        drop(taken);
        assert_eq!(
            (runs.load(Ordering::SeqCst), drops.load(Ordering::SeqCst)),
            (1, 1)
        );
    }

    #[test]
    fn four_words_in_all() {
        assert_eq!(
            mem::size_of::<ErasedTask>(),
            (crate::in_place::WORDS + 1) * mem::size_of::<usize>()
        );
        // The table pointer is never null: a vacant slot's tag costs nothing more.
        assert_eq!(
            mem::size_of::<Option<ErasedTask>>(),
            mem::size_of::<ErasedTask>()
        );
        enum Slot {
            _Occupied(u64, u32, u32, ErasedTask),
            _Vacant(u32),
        }
        assert_eq!(mem::size_of::<Slot>(), 6 * mem::size_of::<usize>());
    }
}
