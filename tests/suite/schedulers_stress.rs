//! Many threads queuing, cancelling and disposing at once: every task that is not cancelled
//! runs exactly once, and every task is dropped in the end.

use rx::Subscription;
use rx::schedulers::{
    CurrentThread, NewThread, Reschedule, RunLoop, Scheduler, ThreadPool, Worker,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

const THREADS: usize = 8;
const ROUNDS: usize = 500;

/// A tiny deterministic generator, so each thread mixes its actions differently.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[derive(Default)]
struct Counts {
    kept: AtomicUsize,
    ran: AtomicUsize,
}

/// Each of `THREADS` threads schedules `ROUNDS` tasks on a shared worker and on one of its
/// own, some now, some a little later, some rescheduling a few times; and cancels about a
/// third of them, some at once and some after a while; and disposes its own worker halfway.
fn stress<S: Scheduler>(scheduler: S, wait_done: impl Fn(&dyn Fn() -> bool)) {
    let shared = scheduler.worker();
    let counts = Arc::new(Counts::default());
    let captured = Arc::new(());
    let start = Arc::new(Barrier::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (scheduler, shared, counts, captured, start) = (
                scheduler.clone(),
                shared.clone(),
                counts.clone(),
                captured.clone(),
                start.clone(),
            );
            thread::spawn(move || {
                let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ (t as u64 + 1));
                let own = scheduler.worker();
                start.wait();
                let mut later = Vec::new();
                for round in 0..ROUNDS {
                    if round == ROUNDS / 2 {
                        own.dispose();
                    }
                    let on_own = rng.next().is_multiple_of(4) && round < ROUNDS / 2;
                    let worker = if on_own { &own } else { &shared };
                    let delay = Duration::from_micros(rng.next() % 2000);
                    let mut reruns = rng.next() % 3;
                    let ran = Arc::new(AtomicBool::new(false));
                    let (c, r, probe) = (counts.clone(), ran.clone(), captured.clone());
                    let handle = worker.schedule_after(delay, move || {
                        let _ = &probe;
                        if reruns > 0 {
                            reruns -= 1;
                            return Reschedule::After(Duration::from_micros(100));
                        }
                        assert!(!r.swap(true, Ordering::SeqCst), "ran twice");
                        c.ran.fetch_add(1, Ordering::SeqCst);
                        Reschedule::Done
                    });
                    match rng.next() % 6 {
                        0 => handle.dispose(),
                        1 => later.push(handle),
                        // Tasks on the own worker are cancelled by its disposal; count those
                        // of the first half as unknown, as they race with it.
                        _ if on_own => {}
                        _ => {
                            counts.kept.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    if rng.next().is_multiple_of(50) {
                        for handle in later.drain(..) {
                            handle.dispose();
                        }
                    }
                }
                for handle in later {
                    handle.dispose();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let kept = counts.kept.load(Ordering::SeqCst);
    wait_done(&|| counts.ran.load(Ordering::SeqCst) >= kept && Arc::strong_count(&captured) == 1);
    assert!(counts.ran.load(Ordering::SeqCst) >= kept);
    assert_eq!(Arc::strong_count(&captured), 1, "a task was never dropped");
}

fn poll(done: &dyn Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "tasks left over");
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn stress_thread_pool() {
    stress(ThreadPool::new(3), poll);
}

#[test]
fn stress_new_thread() {
    stress(NewThread, poll);
}

#[test]
fn stress_run_loop() {
    let run_loop = RunLoop::new();
    // Two threads drive the loop, blocked in `dispatch` whenever nothing is due.
    let stop = Arc::new(AtomicBool::new(false));
    let drivers: Vec<_> = (0..2)
        .map(|_| {
            let (run_loop, stop) = (run_loop.clone(), stop.clone());
            thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    run_loop.dispatch();
                }
            })
        })
        .collect();
    stress(run_loop.clone(), poll);
    stop.store(true, Ordering::SeqCst);
    // Wake the drivers with no-op tasks until both have seen `stop`.
    let waker = run_loop.worker();
    while !drivers.iter().all(|d| d.is_finished()) {
        waker.schedule(|| Reschedule::Done);
        thread::sleep(Duration::from_millis(1));
    }
    for driver in drivers {
        driver.join().unwrap();
    }
}

/// Disposing a worker while many threads schedule on it: once `dispose` returns, at most the
/// task already running finishes, nothing else starts, and everything is dropped.
fn dispose_races_with_schedule<S: Scheduler>(scheduler: S) {
    let worker = scheduler.worker();
    let runs = Arc::new(AtomicUsize::new(0));
    let captured = Arc::new(());
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (worker, runs, captured) = (worker.clone(), runs.clone(), captured.clone());
            thread::spawn(move || {
                let mut rng = XorShift(0x2545_F491_4F6C_DD1D ^ (t as u64 + 1));
                for _ in 0..ROUNDS {
                    let (runs, probe) = (runs.clone(), captured.clone());
                    let delay = Duration::from_micros(rng.next() % 3000);
                    worker.schedule_after(delay, move || {
                        let _ = &probe;
                        runs.fetch_add(1, Ordering::SeqCst);
                        Reschedule::After(Duration::from_micros(500))
                    });
                }
            })
        })
        .collect();
    thread::sleep(Duration::from_millis(5));
    worker.dispose();
    let at_dispose = runs.load(Ordering::SeqCst);
    for thread in threads {
        thread.join().unwrap();
    }
    poll(&|| Arc::strong_count(&captured) == 1);
    thread::sleep(Duration::from_millis(20));
    assert!(
        runs.load(Ordering::SeqCst) <= at_dispose + 1,
        "a task started after dispose"
    );
}

#[test]
fn dispose_races_with_schedule_thread_pool() {
    dispose_races_with_schedule(ThreadPool::new(2));
}

#[test]
fn dispose_races_with_schedule_new_thread() {
    dispose_races_with_schedule(NewThread);
}

/// Each thread's trampoline is its own: many threads using one current-thread worker at once
/// each run their own tasks to the end.
#[test]
fn stress_current_thread() {
    let worker = CurrentThread.worker();
    let total = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..THREADS)
        .map(|_| {
            let (worker, total) = (worker.clone(), total.clone());
            thread::spawn(move || {
                let w = worker.clone();
                let t = total.clone();
                worker.schedule(move || {
                    for _ in 0..ROUNDS {
                        let t = t.clone();
                        w.schedule(move || {
                            t.fetch_add(1, Ordering::SeqCst);
                            Reschedule::Done
                        });
                    }
                    Reschedule::Done
                });
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    assert_eq!(total.load(Ordering::SeqCst), THREADS * ROUNDS);
}
