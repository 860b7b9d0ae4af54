//! The shared home of one scheduled task: what a queue entry and the task's handles point to.
//!
//! One allocation per scheduled task, reused by every reschedule. The task sits in a small
//! lock of its own, taken out while it runs (so it runs with nothing locked and may cancel
//! itself) and put back if it asks to run again. Cancelling marks the cell finished and drops
//! the task on the cancelling thread, at once, unless it is running, in which case the
//! thread running it drops it as soon as it returns.

use super::{Reschedule, Task};
use crate::sync::{Arc, AtomicBool, Mutex, Ordering};

/// The scheduler-specific part of a cell.
pub(crate) trait CellHeader: Send + Sync + 'static {
    /// Called exactly once per cell, when its task is done, cancelled or panicked (or, at
    /// the latest, when the cell is dropped). Never called with a queue lock held.
    fn on_finish(&self);
}

/// A scheduled task, type-erased, with a header of scheduler-specific data `H`.
pub(crate) trait Cell<H>: Send + Sync {
    fn header(&self) -> &H;

    /// Whether the task is done, cancelled or panicked: it never runs again.
    fn is_finished(&self) -> bool;

    /// Marks the task finished; `true` for the call that did it.
    fn finish(&self) -> bool;

    /// Runs the task once. Returns what it asks for, or `None` if it did not run (it was
    /// cancelled) or is finished (it has been dropped then).
    fn run(&self) -> Option<Reschedule>;

    /// Drops the task if the cell still holds it.
    fn clear(&self);
}

impl<H> dyn Cell<H> + '_ {
    /// Marks the task finished and drops it; `true` for the call that did it.
    pub(crate) fn cancel(&self) -> bool {
        let first = self.finish();
        if first {
            self.clear();
        }
        first
    }
}

struct TaskCell<H: CellHeader, T> {
    header: H,
    /// Release/Acquire: whoever sees it set also sees the task taken out of its slot.
    finished: AtomicBool,
    task: Mutex<Option<T>>,
}

impl<H: CellHeader, T> TaskCell<H, T> {
    /// Marks the cell finished; `true` for the call that did it, which tells the header.
    fn mark_finished(&self) -> bool {
        let first = !self.finished.swap(true, Ordering::AcqRel);
        if first {
            self.header.on_finish();
        }
        first
    }
}

impl<H: CellHeader, T> Drop for TaskCell<H, T> {
    fn drop(&mut self) {
        // Every path that ends a task marks it finished first; this is the backstop.
        if !self.finished.load(Ordering::Acquire) {
            self.header.on_finish();
        }
    }
}

/// Marks a cell finished if its task unwinds: the unwinding drops the task and leaves the
/// cell empty, so it must not look runnable.
struct FinishOnUnwind<'a, H: CellHeader, T>(&'a TaskCell<H, T>);

impl<H: CellHeader, T> Drop for FinishOnUnwind<'_, H, T> {
    fn drop(&mut self) {
        self.0.mark_finished();
    }
}

impl<H: CellHeader, T: Task> Cell<H> for TaskCell<H, T> {
    fn header(&self) -> &H {
        &self.header
    }

    fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    fn finish(&self) -> bool {
        self.mark_finished()
    }

    fn run(&self) -> Option<Reschedule> {
        let mut task = self.task.lock().take()?;
        let unwinding = FinishOnUnwind(self);
        let next = task.run();
        std::mem::forget(unwinding);
        if next == Reschedule::Done {
            // Dropped before the header hears of it, so that a worker whose last task this
            // is ends after what the task captured is gone.
            drop(task);
            self.mark_finished();
            return None;
        }
        let mut slot = self.task.lock();
        // A `cancel` that marked the cell before this lock either took an empty slot (the
        // task was out) or takes the lock after this and finds the task: either way the task
        // is dropped exactly once, and never put back after a cancel.
        if !self.finished.load(Ordering::Acquire) {
            *slot = Some(task);
            return Some(next);
        }
        drop(slot);
        drop(task);
        None
    }

    fn clear(&self) {
        let task = self.task.lock().take();
        // Dropped after the slot is unlocked: its captures may cancel this very cell.
        drop(task);
    }
}

/// A new cell holding `task`.
pub(crate) fn new_cell<H, T>(header: H, task: T) -> Arc<dyn Cell<H>>
where
    H: CellHeader,
    T: Task,
{
    let cell = TaskCell {
        header,
        finished: AtomicBool::new(false),
        task: Mutex::new(Some(task)),
    };
    #[cfg(not(loom))]
    {
        Arc::new(cell)
    }
    // loom's `Arc` cannot coerce to a trait object; it converts from std's.
    #[cfg(loom)]
    {
        Arc::from_std(std::sync::Arc::new(cell) as std::sync::Arc<dyn Cell<H>>)
    }
}
