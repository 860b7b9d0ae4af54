//! A thread per worker.

use super::Scheduler;
use super::timed_queue::{Owner, Queue, QueueWorker, spawn_thread};
use crate::time::Instant;

/// Hands out workers that each own a new thread with its own timed queue.
///
/// The thread waits, without spinning, for the earliest task on its queue (re-arming when an
/// earlier one is queued), runs the tasks one at a time in due order, first-in first-out for
/// equal due times, and ends once every clone of its worker handle is gone and no task on it
/// is left to run, or as soon as the worker is disposed. (A task's handle may outlive its
/// task; it does not keep the thread.) `NewThread` itself is zero-sized; each
/// [`worker`](Scheduler::worker) call starts a thread.
///
/// A task that panics is reported by the panic hook (by default, a message on stderr) and
/// dropped; the thread goes on running the worker's other tasks, as tokio's worker threads
/// do. Install a hook with [`std::panic::set_hook`] to route such reports elsewhere.
///
/// # Panics
///
/// [`worker`](Scheduler::worker) panics if the operating system cannot start a thread.
///
/// # Examples
///
/// ```
/// use rx::schedulers::{NewThread, Reschedule, Scheduler, Worker};
/// use std::time::Duration;
///
/// let worker = NewThread.worker();
/// let (tx, rx) = std::sync::mpsc::channel();
/// worker.schedule_after(Duration::from_millis(10), move || {
///     tx.send(std::thread::current().id()).unwrap();
///     Reschedule::Done
/// });
/// assert_ne!(rx.recv().unwrap(), std::thread::current().id());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewThread;

impl Scheduler for NewThread {
    type Worker = QueueWorker;

    fn worker(&self) -> QueueWorker {
        let queue = Queue::for_thread();
        spawn_thread(queue.clone(), "rx-new-thread".to_owned());
        Queue::worker(&queue, Owner::Thread)
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}
