//! Process-wide measures: CPU time while waiting (behaviour 2) and thread counts
//! (behaviour 6).
//!
//! They run one after the other in a single test, so that nothing else in this process
//! starts or ends threads or uses CPU meanwhile: each counts all the process's threads, and
//! each starts once the threads of the one before have gone.

#![cfg(target_os = "linux")]

use rx::Subscription;
use rx::schedulers::{NewThread, Reschedule, Scheduler, ThreadPool, Worker};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

#[test]
fn process_wide_measures() {
    no_spinning_while_waiting();
    no_spinning_while_draining_without_a_handle();
    disposed_new_thread_timers_leave_no_thread();
    new_thread_ends_when_handles_and_tasks_are_gone();
    thread_pool_threads_end_with_the_pool();
}

/// User + system CPU time of the whole process.
fn cpu_time() -> Duration {
    // SAFETY: `getrusage` fills the zeroed struct it is given and reads nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_SELF, &mut usage), 0);
        usage
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// The process's thread count, from `/proc/self/status`. A thread counts from the moment it
/// is created, before it has run.
fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Waits until at most `target` threads are left, for up to 10 s; returns the last count.
fn settle_threads(target: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let n = threads();
        if n <= target || Instant::now() > deadline {
            return n;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Behaviour 2: a worker waiting 2 s for its task burns no CPU (< 100 ms over 2.5 s). This
/// is the scheduler-level equivalent of subscribing `timer(2 s, NewThread)`: one task
/// scheduled 2 s ahead on a new thread's worker.
fn no_spinning_while_waiting() {
    let baseline = threads();
    let worker = NewThread.worker();
    let (tx, rx) = mpsc::channel();
    let before = cpu_time();
    let start = Instant::now();
    worker.schedule_after(Duration::from_secs(2), move || {
        tx.send(Instant::now()).unwrap();
        Reschedule::Done
    });
    thread::sleep(Duration::from_millis(2500));
    let used = cpu_time() - before;
    let ran_at = rx.try_recv().expect("the task ran");
    assert!(ran_at - start >= Duration::from_secs(2));
    assert!(used < Duration::from_millis(100), "used {used:?} of CPU");
    drop(worker);
    assert_eq!(settle_threads(baseline), baseline, "the thread did not end");
}

/// Behaviour 2, second half: the same while the worker drains a queue whose handle was
/// dropped; afterwards the thread ends.
fn no_spinning_while_draining_without_a_handle() {
    let baseline = threads();
    let worker = NewThread.worker();
    let (tx, rx) = mpsc::channel();
    let before = cpu_time();
    let start = Instant::now();
    for n in 1..=2u64 {
        let tx = tx.clone();
        worker.schedule_after(Duration::from_millis(1000 * n), move || {
            tx.send(Instant::now()).unwrap();
            Reschedule::Done
        });
    }
    drop(worker);
    thread::sleep(Duration::from_millis(2500));
    let used = cpu_time() - before;
    let runs: Vec<Instant> = rx.try_iter().collect();
    assert_eq!(runs.len(), 2, "the tasks ran without a handle");
    assert!(runs[1] - start >= Duration::from_secs(2));
    assert!(used < Duration::from_millis(100), "used {used:?} of CPU");
    assert_eq!(settle_threads(baseline), baseline, "the thread did not end");
}

/// Behaviour 6: 1,000 new-thread workers with a pending timer, disposed, leave no thread
/// behind.
fn disposed_new_thread_timers_leave_no_thread() {
    let baseline = threads();
    for _ in 0..4 {
        let workers: Vec<_> = (0..250)
            .map(|_| {
                let worker = NewThread.worker();
                worker.schedule_after(Duration::from_secs(3600), || Reschedule::Done);
                worker
            })
            .collect();
        assert_eq!(threads(), baseline + 250);
        for worker in &workers {
            worker.dispose();
        }
        // The handles are still held: disposing is enough.
        assert_eq!(
            settle_threads(baseline),
            baseline,
            "disposed workers left threads"
        );
    }
}

/// A new-thread worker's thread also ends without `dispose`, once the worker's handles are
/// gone and no task is left to run: here half the tasks are cancelled through their own
/// handles and half run to the end. The task handles are still held (as a `timer`'s
/// subscription would be): they must not keep the threads.
fn new_thread_ends_when_handles_and_tasks_are_gone() {
    let baseline = threads();
    let mut tasks = Vec::new();
    for n in 0..200 {
        let worker = NewThread.worker();
        if n % 2 == 0 {
            let task = worker.schedule_after(Duration::from_secs(3600), || Reschedule::Done);
            drop(worker);
            task.dispose();
            tasks.push(task);
        } else {
            tasks.push(worker.schedule(|| Reschedule::Done));
        }
    }
    assert_eq!(settle_threads(baseline), baseline);
    assert!(tasks.iter().all(|task| task.is_disposed()));
}

/// A pool's threads end once the pool, its workers and their tasks are gone; a worker keeps
/// the pool alive after the pool handle is dropped.
fn thread_pool_threads_end_with_the_pool() {
    let baseline = threads();
    let pool = ThreadPool::new(4);
    assert_eq!(threads(), baseline + 4);
    let worker = pool.worker();
    drop(pool);
    let (tx, rx) = mpsc::channel();
    worker.schedule(move || {
        tx.send(()).unwrap();
        Reschedule::Done
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("a worker keeps the pool alive");
    let finished = worker.schedule(|| Reschedule::Done);
    drop(worker);
    // The handle of a finished task does not keep the pool.
    assert_eq!(settle_threads(baseline), baseline);
    assert!(finished.is_disposed());
}
