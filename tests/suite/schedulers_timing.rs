//! Timed queues under real threads: re-arming for an earlier task, no address-reuse hazard,
//! prompt release of cancelled tasks. Bounds are generous; nothing here depends on luck.

use rx::Subscription;
use rx::schedulers::{NewThread, Reschedule, RunLoop, Scheduler, ThreadPool, Worker};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

const HOUR: Duration = Duration::from_secs(3600);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Behaviour 1: a task due in 3 s is pending and its worker waits on it; another thread
/// queues a task due in 50 ms. The second runs at about 50 ms, the first still at about 3 s.
fn rearms_for_an_earlier_task<W: Worker>(worker: W) {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    let t1 = tx.clone();
    worker.schedule_after(Duration::from_secs(3), move || {
        t1.send((1, Instant::now())).unwrap();
        Reschedule::Done
    });
    // Long enough for the driver to be asleep on the 3 s deadline.
    thread::sleep(ms(200));
    let w = worker.clone();
    let queued_at = thread::spawn(move || {
        let at = Instant::now();
        w.schedule_after(ms(50), move || {
            tx.send((2, Instant::now())).unwrap();
            Reschedule::Done
        });
        at
    })
    .join()
    .unwrap();

    let (n, ran_at) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(n, 2, "the earlier task runs first");
    let after = ran_at - queued_at;
    assert!(after >= ms(50), "ran early: {after:?}");
    assert!(
        after < Duration::from_secs(1),
        "the driver did not re-arm: {after:?}"
    );

    let (n, ran_at) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(n, 1);
    let after = ran_at - start;
    assert!(after >= Duration::from_secs(3), "ran early: {after:?}");
    assert!(after < ms(4500), "ran late: {after:?}");
}

#[test]
fn rearm_new_thread() {
    rearms_for_an_earlier_task(NewThread.worker());
}

#[test]
fn rearm_thread_pool_of_one() {
    rearms_for_an_earlier_task(ThreadPool::new(1).worker());
}

#[test]
fn rearm_run_loop() {
    let run_loop = RunLoop::new();
    let worker = run_loop.worker();
    let dispatcher = thread::spawn(move || {
        run_loop.dispatch();
        run_loop.dispatch();
    });
    rearms_for_an_earlier_task(worker);
    dispatcher.join().unwrap();
}

/// One closure type for the far-off top and for the task that replaces it, so that the new
/// task is likely to get the freed top's place (its slot, or its memory): the situation where
/// a queue that told tasks apart by where they are would go wrong.
fn same_shape_task(
    report: Option<Sender<Duration>>,
    due: Instant,
) -> impl FnMut() -> Reschedule + Send + 'static {
    move || {
        if let Some(report) = &report {
            report.send(Instant::now() - due).unwrap();
        }
        Reschedule::Done
    }
}

/// Behaviour 3: dispose the top and queue an earlier task in its place, over and over, from
/// another thread; every new task runs on time.
fn no_address_reuse_hazard<W: Worker>(worker: W) {
    const ROUNDS: usize = 150;
    let (tx, rx) = mpsc::channel();
    let w = worker.clone();
    let producer = thread::spawn(move || {
        for _ in 0..ROUNDS {
            let far = Instant::now() + HOUR;
            let top = w.schedule_at(far, same_shape_task(None, far));
            // Let the driver go to sleep on the far deadline.
            thread::sleep(ms(2));
            top.dispose();
            drop(top);
            let due = Instant::now() + ms(5);
            w.schedule_at(due, same_shape_task(Some(tx.clone()), due));
        }
    });
    for round in 0..ROUNDS {
        let late = rx
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_else(|_| panic!("round {round}: the new task did not run"));
        assert!(late < ms(500), "round {round}: ran {late:?} late");
    }
    producer.join().unwrap();
}

#[test]
fn no_address_reuse_hazard_new_thread() {
    no_address_reuse_hazard(NewThread.worker());
}

#[test]
fn no_address_reuse_hazard_thread_pool() {
    no_address_reuse_hazard(ThreadPool::new(1).worker());
}

/// Sends the instant it is dropped.
struct DropProbe(Sender<Instant>);

impl Drop for DropProbe {
    fn drop(&mut self) {
        let _ = self.0.send(Instant::now());
    }
}

/// Behaviour 4: a disposed pending task never runs, and what it captured is dropped within a
/// few milliseconds of `dispose`, not at its due time. Through the task's handle, and
/// through its worker's.
fn cancel_drops_captures_promptly<S: Scheduler>(scheduler: S) {
    for dispose_worker in [false, true] {
        let worker = scheduler.worker();
        let ran = Arc::new(AtomicBool::new(false));
        let (tx, dropped) = mpsc::channel();
        let probe = DropProbe(tx);
        let r = ran.clone();
        let handle = worker.schedule_after(HOUR, move || {
            let _ = &probe;
            r.store(true, Ordering::SeqCst);
            Reschedule::Done
        });
        thread::sleep(ms(20));
        let disposed_at = Instant::now();
        if dispose_worker {
            worker.dispose();
        } else {
            handle.dispose();
        }
        let dropped_at = dropped
            .recv_timeout(Duration::from_secs(1))
            .expect("the cancelled task's captures were not dropped");
        assert!(
            dropped_at - disposed_at < ms(100),
            "dropped after {:?}",
            dropped_at - disposed_at
        );
        assert!(handle.is_disposed());
        assert!(!ran.load(Ordering::SeqCst));
    }
}

#[test]
fn cancel_drops_promptly_new_thread() {
    cancel_drops_captures_promptly(NewThread);
}

#[test]
fn cancel_drops_promptly_thread_pool() {
    cancel_drops_captures_promptly(ThreadPool::new(2));
}

#[test]
fn cancel_drops_promptly_run_loop() {
    cancel_drops_captures_promptly(RunLoop::new());
}

#[test]
fn cancel_drops_promptly_test_scheduler() {
    cancel_drops_captures_promptly(rx::schedulers::TestScheduler::new());
}

/// A task disposed while it runs finishes that run, is not run again although it asked to
/// be, and is dropped as soon as it returns.
#[test]
fn cancel_while_running() {
    let worker = NewThread.worker();
    let started = Arc::new(Barrier::new(2));
    let resume = Arc::new(Barrier::new(2));
    let runs = Arc::new(AtomicUsize::new(0));
    let (tx, dropped) = mpsc::channel();
    let probe = DropProbe(tx);
    let (s, r, n) = (started.clone(), resume.clone(), runs.clone());
    let handle = worker.schedule(move || {
        let _ = &probe;
        n.fetch_add(1, Ordering::SeqCst);
        s.wait();
        r.wait();
        Reschedule::After(Duration::ZERO)
    });
    started.wait();
    handle.dispose();
    assert!(dropped.try_recv().is_err(), "dropped while running");
    resume.wait();
    dropped
        .recv_timeout(Duration::from_secs(1))
        .expect("dropped once it returned");
    thread::sleep(ms(50));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// Periodic work rescheduled at absolute instants keeps its phase.
#[test]
fn periodic_task_does_not_drift() {
    let worker = NewThread.worker();
    let (tx, rx) = mpsc::channel();
    let start = Instant::now() + ms(20);
    let period = ms(20);
    let mut due = start;
    let mut n = 0;
    worker.schedule_at(due, move || {
        tx.send(Instant::now() - due).unwrap();
        n += 1;
        due += period;
        if n == 10 {
            Reschedule::Done
        } else {
            Reschedule::At(due)
        }
    });
    for _ in 0..10 {
        let late = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        // Lateness does not accumulate: each run is measured against its own slot.
        assert!(late < ms(500), "late by {late:?}");
    }
}

/// A disposed worker refuses new tasks, and its thread is gone.
#[test]
fn disposed_worker_refuses_tasks() {
    let worker = NewThread.worker();
    worker.dispose();
    assert!(worker.is_disposed());
    let ran = Arc::new(AtomicBool::new(false));
    let r = ran.clone();
    let handle = worker.schedule(move || {
        r.store(true, Ordering::SeqCst);
        Reschedule::Done
    });
    assert!(handle.is_disposed());
    thread::sleep(ms(50));
    assert!(!ran.load(Ordering::SeqCst));
}
