//! Behaviour 7: a task that panics on a worker thread is reported through the panic hook and
//! dropped, and the thread goes on running the other tasks (tokio's policy). On schedulers
//! that run tasks on the caller's thread, the panic unwinds to the caller.
//!
//! This binary installs its own panic hook, to see the reports; it holds only these tests.

use rx::Subscription;
use rx::schedulers::{NewThread, Reschedule, Scheduler, ThreadPool, Worker};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

/// Panic reports seen by the hook: (thread name, message).
static REPORTS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let thread = std::thread::current().name().unwrap_or("").to_owned();
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            REPORTS.lock().unwrap().push((thread, message));
        }));
    });
}

fn reports_of(message: &str) -> Vec<String> {
    REPORTS
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, m)| m == message)
        .map(|(t, _)| t.clone())
        .collect()
}

/// On one thread: a task panics; a task of the same worker due later runs, a periodic task
/// of the same worker keeps ticking, and (on a pool) so does a task of another worker on
/// that thread.
fn panics_are_reported_and_the_thread_goes_on<S: Scheduler>(scheduler: S, message: &'static str) {
    install_hook();
    let worker = scheduler.worker();
    let neighbour = scheduler.worker();
    let ticks = Arc::new(AtomicUsize::new(0));
    let t = ticks.clone();
    let ticking = worker.schedule(move || {
        t.fetch_add(1, Ordering::SeqCst);
        Reschedule::After(Duration::from_millis(5))
    });
    let panicking = worker.schedule_after(Duration::from_millis(20), move || panic!("{}", message));
    let (tx, rx) = mpsc::channel();
    let tx2 = tx.clone();
    worker.schedule_after(Duration::from_millis(60), move || {
        tx.send("same worker").unwrap();
        Reschedule::Done
    });
    neighbour.schedule_after(Duration::from_millis(60), move || {
        tx2.send("neighbour").unwrap();
        Reschedule::Done
    });
    let mut got: Vec<_> = (0..2)
        .map(|_| {
            rx.recv_timeout(Duration::from_secs(5))
                .expect("the thread went on")
        })
        .collect();
    got.sort();
    assert_eq!(got, ["neighbour", "same worker"]);
    assert!(panicking.is_disposed(), "a task that panicked is finished");
    let before = ticks.load(Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        ticks.load(Ordering::SeqCst) > before,
        "the periodic task still ticks"
    );
    ticking.dispose();

    let reports = reports_of(message);
    assert_eq!(reports.len(), 1, "reported once through the panic hook");
    assert!(
        reports[0].starts_with("rx-"),
        "reported from {:?}",
        reports[0]
    );
}

#[test]
fn new_thread_reports_and_continues() {
    // Both workers get their own thread here; the neighbour just checks nothing else broke.
    panics_are_reported_and_the_thread_goes_on(NewThread, "boom on a new thread");
}

#[test]
fn thread_pool_reports_and_continues() {
    // One thread: the neighbour worker shares it with the panicking one.
    panics_are_reported_and_the_thread_goes_on(ThreadPool::new(1), "boom on a pool");
}

/// A task that panics on a later run is dropped (what it captured is released) and not run
/// again.
#[test]
fn a_periodic_task_that_panics_is_dropped() {
    install_hook();
    let worker = NewThread.worker();
    let captured = Arc::new(());
    let c = captured.clone();
    let runs = Arc::new(AtomicUsize::new(0));
    let r = runs.clone();
    let handle = worker.schedule(move || {
        let _ = &c;
        if r.fetch_add(1, Ordering::SeqCst) == 2 {
            panic!("third run");
        }
        Reschedule::After(Duration::from_millis(1))
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while Arc::strong_count(&captured) > 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the task was not dropped"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(runs.load(Ordering::SeqCst), 3);
    assert!(handle.is_disposed());
    assert_eq!(reports_of("third run").len(), 1);
}
