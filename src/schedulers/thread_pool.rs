//! A fixed set of threads, and the process-wide pool sized to the cores.

use super::Scheduler;
use super::counted::Counted;
use super::timed_queue::{Lifeline, Owner, Queue, QueueWorker, spawn_thread};
use crate::primitive::{Arc, AtomicUsize, Ordering};
use crate::time::Instant;
use std::fmt;
use std::num::NonZeroUsize;
use std::sync::OnceLock;

/// A pool of threads, each with its own timed queue; workers are handed out round-robin, so
/// two workers may share a thread.
///
/// A worker's tasks all run on its thread, one at a time, in due order (first-in first-out
/// for equal due times), just as on a [`NewThread`](super::NewThread) worker; tasks of
/// different workers on the same thread also take turns. Disposing a worker cancels its own
/// tasks only. A cheap `Clone` handle; the threads end once the pool and every worker handed
/// out from it are gone and no task on them is left to run.
///
/// A task that panics is reported by the panic hook and dropped, and the thread goes on with
/// its other tasks (see [`NewThread`](super::NewThread)).
///
/// # Examples
///
/// ```
/// use rx::schedulers::{Reschedule, Scheduler, ThreadPool, Worker};
///
/// let pool = ThreadPool::new(2);
/// let (tx, rx) = std::sync::mpsc::channel();
/// for n in 0..4 {
///     let tx = tx.clone();
///     pool.worker().schedule(move || {
///         tx.send(n).unwrap();
///         Reschedule::Done
///     });
/// }
/// let mut got: Vec<i32> = rx.iter().take(4).collect();
/// got.sort();
/// assert_eq!(got, [0, 1, 2, 3]);
/// ```
#[derive(Clone)]
pub struct ThreadPool {
    inner: Arc<PoolInner>,
}

struct PoolInner {
    lifeline: Arc<Lifeline>,
    /// Round-robin cursor. Relaxed: any spread of workers is correct, this one is fair.
    next: AtomicUsize,
}

impl ThreadPool {
    /// A pool of `threads` threads, started now.
    ///
    /// # Panics
    ///
    /// If `threads` is zero, or the operating system cannot start a thread.
    pub fn new(threads: usize) -> Self {
        assert!(
            threads > 0,
            "ThreadPool::new: a pool needs at least one thread"
        );
        ThreadPool::named(threads, "rx-pool")
    }

    fn named(threads: usize, name: &str) -> Self {
        let queues: Box<[Counted<Queue>]> = (0..threads).map(|_| Queue::for_thread()).collect();
        for (i, queue) in queues.iter().enumerate() {
            spawn_thread(queue.clone(), format!("{name}-{i}"));
        }
        ThreadPool {
            inner: Arc::new(PoolInner {
                lifeline: Arc::new(Lifeline { queues }),
                next: AtomicUsize::new(0),
            }),
        }
    }

    /// How many threads the pool has.
    pub fn threads(&self) -> usize {
        self.inner.lifeline.queues.len()
    }
}

impl Scheduler for ThreadPool {
    type Worker = QueueWorker;

    fn worker(&self) -> QueueWorker {
        let lifeline = &self.inner.lifeline;
        let i = self.inner.next.fetch_add(1, Ordering::Relaxed) % lifeline.queues.len();
        Queue::worker(&lifeline.queues[i], Owner::Pool(lifeline.clone()))
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("threads", &self.threads())
            .finish()
    }
}

/// The process-wide [`ThreadPool`] for CPU-bound work, with one thread per available core
/// ([`std::thread::available_parallelism`], or one if that is unknown). Its threads start on
/// first use and live as long as the process.
///
/// Zero-sized; every `Computational` value hands out workers from the same pool.
///
/// # Panics
///
/// The first [`worker`](Scheduler::worker) call panics if the operating system cannot start
/// the threads.
///
/// # Examples
///
/// ```
/// use rx::schedulers::{Computational, Reschedule, Scheduler, Worker};
///
/// let (tx, rx) = std::sync::mpsc::channel();
/// Computational.worker().schedule(move || {
///     tx.send((1..=10).sum::<i32>()).unwrap();
///     Reschedule::Done
/// });
/// assert_eq!(rx.recv().unwrap(), 55);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Computational;

impl Computational {
    /// The pool behind this scheduler, started on first use.
    pub fn pool(&self) -> &'static ThreadPool {
        static POOL: OnceLock<ThreadPool> = OnceLock::new();
        POOL.get_or_init(|| {
            let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
            ThreadPool::named(threads, "rx-computational")
        })
    }
}

impl Scheduler for Computational {
    type Worker = QueueWorker;

    fn worker(&self) -> QueueWorker {
        self.pool().worker()
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}
