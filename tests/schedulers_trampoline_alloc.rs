//! A warm `CurrentThread` trampoline allocates nothing: the queue's buffers, its pool of task
//! slots and the workers' shared state are kept on the thread between ops and reused.

use rx::prelude::*;
use rx::schedulers::{CurrentThread, Reschedule, Scheduler, Worker};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

mod support;

use support::alloc::allocations;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

const OPS: usize = 1_000;

/// One op of the recursive case: a worker, a clone of it, a task that queues another.
fn recursive_op(log: &Arc<std::sync::Mutex<Vec<u32>>>) {
    let worker = CurrentThread.worker();
    let inner = worker.clone();
    let (outer_log, inner_log) = (log.clone(), log.clone());
    worker.schedule(move || {
        inner.schedule({
            let l = inner_log.clone();
            move || {
                l.lock().unwrap().push(2);
                Reschedule::Done
            }
        });
        inner.schedule({
            let l = outer_log.clone();
            move || {
                l.lock().unwrap().push(3);
                Reschedule::Done
            }
        });
        // Queued, not run: this task finishes first.
        outer_log.lock().unwrap().push(1);
        Reschedule::Done
    });
}

#[test]
fn recursive_schedules_on_a_warm_trampoline_allocate_nothing_and_keep_their_order() {
    let log = Arc::new(std::sync::Mutex::new(Vec::with_capacity(3 * (OPS + 1))));
    // Warms the thread: the queue's buffers, two pooled slots, a spare worker core.
    recursive_op(&log);
    let before = allocations();
    for _ in 0..OPS {
        recursive_op(&log);
    }
    assert_eq!(allocations() - before, 0);
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 3 * (OPS + 1));
    assert!(log.chunks(3).all(|op| op == [1, 2, 3]), "{:?}", &log[..9]);
}

#[test]
fn subscribe_on_current_thread_on_a_warm_trampoline_allocates_nothing() {
    static SUM: AtomicUsize = AtomicUsize::new(0);
    let op = || {
        rx::source::from_iter([1, 2, 3])
            .subscribe_on(CurrentThread)
            .subscribe(|v| {
                SUM.fetch_add(v, Ordering::Relaxed);
            });
        rx::source::interval(std::time::Duration::ZERO, CurrentThread)
            .take(3)
            .subscribe(|v| {
                SUM.fetch_add(v as usize, Ordering::Relaxed);
            });
    };
    op();
    let before = allocations();
    for _ in 0..OPS {
        op();
    }
    assert_eq!(allocations() - before, 0);
    assert_eq!(SUM.load(Ordering::Relaxed), (OPS + 1) * (6 + 3));
}

#[test]
fn a_thread_that_used_the_trampoline_exits_cleanly_and_its_tasks_ran() {
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    std::thread::spawn(move || {
        let worker = CurrentThread.worker();
        let inner = worker.clone();
        worker.schedule(move || {
            let r = r.clone();
            inner.schedule(move || {
                r.fetch_add(1, Ordering::Relaxed);
                Reschedule::Done
            });
            Reschedule::Done
        });
    })
    .join()
    .unwrap();
    assert_eq!(ran.load(Ordering::Relaxed), 1);
}
