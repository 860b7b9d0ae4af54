//! Behaviour 5: tasks due at the same instant run first-in first-out, on every scheduler;
//! and tasks run one at a time, in due order.

use rx::schedulers::{
    Computational, CurrentThread, Immediate, NewThread, Reschedule, RunLoop, Scheduler,
    TestScheduler, ThreadPool, Worker,
};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const TASKS: u32 = 200;

fn send(tx: &Sender<u32>, n: u32) -> impl FnMut() -> Reschedule + Send + 'static {
    let tx = tx.clone();
    move || {
        tx.send(n).unwrap();
        Reschedule::Done
    }
}

/// Queues `TASKS` tasks due at one instant, with two earlier and later ones around them.
fn queue_same_instant<W: Worker>(worker: &W, due: Instant, tx: &Sender<u32>) {
    worker.schedule_at(due + Duration::from_millis(1), send(tx, TASKS + 1));
    for n in 1..=TASKS {
        worker.schedule_at(due, send(tx, n));
    }
    worker.schedule_at(due - Duration::from_millis(1), send(tx, 0));
}

fn assert_fifo(rx: &Receiver<u32>) {
    let got: Vec<u32> = (0..TASKS + 2)
        .map(|_| {
            rx.recv_timeout(Duration::from_secs(10))
                .expect("a task did not run")
        })
        .collect();
    assert_eq!(got, (0..=TASKS + 1).collect::<Vec<_>>());
}

/// On a threaded worker, due a little later so that every task is queued before the first
/// runs.
fn fifo_on_thread<S: Scheduler>(scheduler: S) {
    let worker = scheduler.worker();
    let (tx, rx) = mpsc::channel();
    queue_same_instant(&worker, scheduler.now() + Duration::from_millis(100), &tx);
    assert_fifo(&rx);
}

#[test]
fn fifo_new_thread() {
    fifo_on_thread(NewThread);
}

#[test]
fn fifo_thread_pool() {
    fifo_on_thread(ThreadPool::new(3));
}

#[test]
fn fifo_computational() {
    fifo_on_thread(Computational);
}

#[test]
fn fifo_run_loop() {
    let run_loop = RunLoop::new();
    let (tx, rx) = mpsc::channel();
    queue_same_instant(&run_loop.worker(), Instant::now(), &tx);
    for _ in 0..TASKS + 2 {
        run_loop.dispatch();
    }
    assert!(run_loop.is_empty());
    assert_fifo(&rx);
}

#[test]
fn fifo_run_loop_queued_from_many_threads_in_turn() {
    let run_loop = RunLoop::new();
    let worker = run_loop.worker();
    let (tx, rx) = mpsc::channel();
    let due = Instant::now();
    // Each thread queues after the previous one finished: the order of queuing is known.
    for n in 0..10 {
        let (w, tx) = (worker.clone(), tx.clone());
        thread::spawn(move || {
            w.schedule_at(due, send(&tx, n));
        })
        .join()
        .unwrap();
    }
    while run_loop.dispatch_if_ready() {}
    assert_eq!(
        rx.try_iter().collect::<Vec<_>>(),
        (0..10).collect::<Vec<_>>()
    );
}

#[test]
fn fifo_test_scheduler() {
    let sch = TestScheduler::new();
    let (tx, rx) = mpsc::channel();
    queue_same_instant(&sch.worker(), sch.now() + Duration::from_secs(1), &tx);
    sch.run();
    assert_fifo(&rx);
}

#[test]
fn fifo_current_thread() {
    let worker = CurrentThread.worker();
    let (tx, rx) = mpsc::channel();
    let (w, t) = (worker.clone(), tx.clone());
    // Queued from inside a task, so they wait in the trampoline's queue.
    worker.schedule(move || {
        queue_same_instant(&w, Instant::now() + Duration::from_millis(5), &t);
        Reschedule::Done
    });
    assert_fifo(&rx);
}

#[test]
fn fifo_immediate() {
    // Each task runs before `schedule` returns, so run order is call order.
    let (tx, rx) = mpsc::channel();
    let due = Instant::now();
    for n in 0..TASKS {
        Immediate.worker().schedule_at(due, send(&tx, n));
    }
    assert_eq!(
        rx.try_iter().collect::<Vec<_>>(),
        (0..TASKS).collect::<Vec<_>>()
    );
}

/// Tasks of one worker never overlap, even on a pool where other workers share the thread.
#[test]
fn one_task_at_a_time_per_worker() {
    let pool = ThreadPool::new(2);
    let workers: Vec<_> = (0..4).map(|_| pool.worker()).collect();
    let busy: Vec<Arc<Mutex<()>>> = workers.iter().map(|_| Arc::default()).collect();
    let (tx, rx) = mpsc::channel();
    for round in 0..50 {
        for (worker, busy) in workers.iter().zip(&busy) {
            let (busy, tx) = (busy.clone(), tx.clone());
            worker.schedule(move || {
                let guard = busy.try_lock().expect("two tasks of one worker at once");
                thread::yield_now();
                drop(guard);
                tx.send(round).unwrap();
                Reschedule::Done
            });
        }
    }
    for _ in 0..200 {
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
    }
}

/// Workers are handed out round-robin: with n threads, n consecutive workers use n threads.
#[test]
fn thread_pool_round_robin() {
    let pool = ThreadPool::new(3);
    assert_eq!(pool.threads(), 3);
    let (tx, rx) = mpsc::channel();
    for _ in 0..6 {
        let tx = tx.clone();
        pool.worker().schedule(move || {
            tx.send(thread::current().id()).unwrap();
            Reschedule::Done
        });
    }
    let mut ids: Vec<_> = (0..6)
        .map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    ids.sort_by_key(|id| format!("{id:?}"));
    ids.dedup();
    assert_eq!(ids.len(), 3);
}

#[test]
#[should_panic(expected = "at least one thread")]
fn thread_pool_of_zero_panics() {
    ThreadPool::new(0);
}
