use super::*;
use crate::ObservableExt;
use crate::observable::Subscribe;
use crate::observer::NextObserver;
use crate::primitive::AtomicUsize;
use crate::primitive::Ordering::SeqCst;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

const HOUR: Duration = Duration::from_secs(3600);

/// A loop whose wake callback counts its calls.
fn counting() -> (EventLoop, Arc<AtomicUsize>) {
    let wakes = Arc::new(AtomicUsize::new(0));
    let counter = wakes.clone();
    let ui = EventLoop::with_waker(move || {
        counter.fetch_add(1, SeqCst);
    });
    (ui, wakes)
}

/// Runs `f` on another thread and waits for it.
fn elsewhere<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    thread::spawn(f).join().unwrap()
}

fn done() -> Reschedule {
    Reschedule::Done
}

#[test]
fn next_due_is_the_earliest_live_task() {
    let ui = EventLoop::new();
    assert_eq!(ui.next_due(), None);
    let worker = ui.handle().worker();
    let t0 = Instant::now();
    let late = worker.schedule_at(t0 + 2 * HOUR, done);
    assert_eq!(ui.next_due(), Some(t0 + 2 * HOUR));
    let early = worker.schedule_at(t0 + HOUR, done);
    assert_eq!(ui.next_due(), Some(t0 + HOUR));
    early.dispose();
    assert_eq!(ui.next_due(), Some(t0 + 2 * HOUR));
    late.dispose();
    assert_eq!(ui.next_due(), None);
    assert!(ui.is_empty());
}

#[test]
fn next_due_counts_a_task_that_asked_to_run_again() {
    let ui = EventLoop::new();
    let due = Instant::now();
    let again = due + HOUR;
    let mut runs = 0;
    ui.handle().worker().schedule_at(due, move || {
        runs += 1;
        if runs == 1 {
            Reschedule::At(again)
        } else {
            Reschedule::Done
        }
    });
    assert_eq!(ui.next_due(), Some(due));
    assert_eq!(ui.dispatch_ready(), 1);
    assert_eq!(ui.next_due(), Some(again));
}

#[test]
fn wakes_on_another_threads_schedule_only_when_the_earliest_due_time_moves_earlier() {
    let (ui, wakes) = counting();
    let t0 = Instant::now();
    let schedule = |due: Instant| {
        let worker = ui.handle().worker();
        elsewhere(move || worker.schedule_at(due, done))
    };
    // Nothing told yet: the first task wakes the loop.
    schedule(t0 + 3 * HOUR);
    assert_eq!(wakes.load(SeqCst), 1);
    // Behind it: no wake.
    schedule(t0 + 4 * HOUR);
    assert_eq!(wakes.load(SeqCst), 1);
    // Earlier: a wake.
    let second = schedule(t0 + 2 * HOUR);
    assert_eq!(wakes.load(SeqCst), 2);
    assert_eq!(ui.next_due(), Some(t0 + 2 * HOUR));
    // The loop was told `t0 + 2h`: equal or later wakes nobody, earlier does.
    schedule(t0 + 2 * HOUR);
    assert_eq!(wakes.load(SeqCst), 2);
    second.dispose();
    assert_eq!(ui.next_due(), Some(t0 + 2 * HOUR), "the second task at 2h");
    schedule(t0 + HOUR);
    assert_eq!(wakes.load(SeqCst), 3);
    // On the loop's own thread nothing is called, however early.
    ui.handle().worker().schedule_at(t0, done);
    assert_eq!(wakes.load(SeqCst), 3);
    assert_eq!(ui.next_due(), Some(t0));
}

#[test]
fn an_interval_subscribed_from_another_thread_wakes_the_loop_once() {
    let (ui, wakes) = counting();
    let handle = ui.handle();
    let t0 = Instant::now();
    let subscription = elsewhere(move || crate::source::interval(HOUR, handle).subscribe(|_| {}));
    assert_eq!(wakes.load(SeqCst), 1);
    let due = ui.next_due().expect("the first tick");
    assert!(due >= t0 + HOUR && due <= Instant::now() + HOUR);
    elsewhere(move || subscription.dispose());
    assert_eq!(ui.next_due(), None);
    assert_eq!(wakes.load(SeqCst), 1, "a cancel wakes nobody");
}

#[test]
fn dispatch_ready_runs_what_is_due_in_due_order_and_each_task_once_per_call() {
    let ui = EventLoop::new();
    let log = Rc::new(RefCell::new(Vec::new()));
    let t0 = Instant::now();
    for (name, due) in [("b", t0), ("later", t0 + HOUR), ("c", t0)] {
        let log = log.clone();
        ui.schedule_local(due.saturating_duration_since(Instant::now()), move || {
            log.borrow_mut().push(name);
            Reschedule::Done
        });
    }
    let log_a = log.clone();
    let mut first = true;
    // Due before the others, and asking to run again at a time already past.
    ui.handle()
        .worker()
        .schedule_at(t0 - Duration::from_millis(1), {
            let log = OnLoop::new(log_a);
            move || {
                log.get().borrow_mut().push("a");
                if std::mem::take(&mut first) {
                    Reschedule::At(t0 - Duration::from_millis(1))
                } else {
                    Reschedule::Done
                }
            }
        });
    // "a" runs once and asks to run again at a time already past: it is queued behind "b"
    // and "c", which were due when it ran, and waits for the next call.
    let before = Instant::now();
    assert_eq!(ui.dispatch_ready(), 3);
    assert_eq!(*log.borrow(), ["a", "b", "c"]);
    assert!(
        ui.next_due()
            .is_some_and(|due| due >= before && due <= Instant::now())
    );
    assert_eq!(ui.dispatch_ready(), 1);
    assert_eq!(*log.borrow(), ["a", "b", "c", "a"]);
    assert!(ui.next_due().is_some_and(|due| due > t0));
    assert_eq!(ui.dispatch_ready(), 0);
}

#[test]
fn dispatch_timeout_returns_after_the_timeout_with_nothing_due() {
    let ui = EventLoop::new();
    let handle = ui.handle().worker().schedule_after(HOUR, done);
    let start = Instant::now();
    assert_eq!(ui.dispatch_timeout(Duration::from_millis(20)), 0);
    assert!(start.elapsed() >= Duration::from_millis(20));
    assert_eq!(ui.dispatch_timeout(Duration::ZERO), 0);
    handle.dispose();
}

#[test]
fn dispatch_timeout_wakes_for_a_task_from_another_thread() {
    let ui = EventLoop::new();
    let worker = ui.handle().worker();
    let producer = thread::spawn(move || {
        thread::sleep(Duration::from_millis(20));
        worker.schedule(done);
    });
    let start = Instant::now();
    let mut ran = 0;
    while ran == 0 {
        ran = ui.dispatch_timeout(HOUR);
    }
    assert_eq!(ran, 1);
    assert!(start.elapsed() < HOUR / 2);
    producer.join().unwrap();
}

#[test]
fn dispatch_timeout_waits_for_the_earliest_task() {
    let ui = EventLoop::new();
    let due = Instant::now() + Duration::from_millis(15);
    ui.handle().worker().schedule_at(due, done);
    let mut ran = 0;
    while ran == 0 {
        ran = ui.dispatch_timeout(HOUR);
    }
    assert!(Instant::now() >= due);
}

#[test]
fn timers_and_observe_on_take_pinned_observers_holding_rcs() {
    let ui = EventLoop::new();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    crate::source::interval(Duration::ZERO, ui.handle())
        .take(3)
        .subscribe_observer(ui.pin(NextObserver::new(move |n| s.borrow_mut().push(n))));
    let s = seen.clone();
    crate::source::from_iter([10, 11])
        .observe_on(ui.handle())
        .subscribe_observer(ui.pin(NextObserver::new(move |n| s.borrow_mut().push(n))));
    while ui.next_due().is_some() {
        ui.dispatch_ready();
    }
    let mut seen = seen.borrow().clone();
    seen.sort_unstable();
    assert_eq!(seen, [0, 1, 2, 10, 11]);
}

#[test]
fn a_pinned_value_is_reached_and_dropped_only_on_its_thread() {
    let rc = Rc::new(());
    let pinned = OnLoop::new(rc.clone());
    assert_eq!(Rc::strong_count(pinned.get()), 2);
    let reached = elsewhere(move || {
        let reached = std::panic::catch_unwind(|| {
            let _ = pinned.get();
        })
        .is_ok();
        drop(pinned); // leaked, not dropped: the count is not touched from here
        reached
    });
    assert!(!reached);
    assert_eq!(Rc::strong_count(&rc), 2);
    // Dropped by the next turn of a loop on its own thread.
    EventLoop::new().dispatch_ready();
    assert_eq!(Rc::strong_count(&rc), 1);
    let pinned = OnLoop::new(rc.clone());
    drop(pinned);
    assert_eq!(Rc::strong_count(&rc), 1);
    assert!(Rc::ptr_eq(&OnLoop::new(rc.clone()).into_inner(), &rc));
}

#[test]
fn dropping_the_loop_drops_its_tasks_and_refuses_new_ones() {
    let ui = EventLoop::new();
    let dropped = Rc::new(Cell::new(false));
    struct Flag(Rc<Cell<bool>>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.set(true);
        }
    }
    let flag = Flag(dropped.clone());
    let task = ui.schedule_local(HOUR, move || {
        let _ = &flag;
        Reschedule::Done
    });
    let handle = ui.handle();
    drop(ui);
    assert!(dropped.get());
    assert!(task.is_disposed());
    assert!(handle.worker().schedule(done).is_disposed());
}

#[test]
fn a_local_task_cancelled_from_another_thread_is_dropped_at_the_next_turn() {
    let ui = EventLoop::new();
    let captured = Rc::new(());
    let held = captured.clone();
    let task = ui.schedule_local(HOUR, move || {
        let _ = &held;
        Reschedule::Done
    });
    elsewhere(move || task.dispose());
    assert!(ui.is_empty());
    assert_eq!(
        Rc::strong_count(&captured),
        2,
        "not dropped on the other thread"
    );
    assert_eq!(ui.dispatch_ready(), 0);
    assert_eq!(Rc::strong_count(&captured), 1);
}

#[test]
fn results_of_another_thread_are_delivered_on_the_loop_to_a_pinned_observer() {
    let (ui, wakes) = counting();
    let main = thread::current().id();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    crate::source::from_iter(1..=3)
        .map(move |v| (v, thread::current().id() != main))
        .subscribe_on(crate::schedulers::NewThread)
        .observe_on(ui.handle())
        .subscribe_observer(ui.pin(NextObserver::new(move |(v, elsewhere)| {
            assert_eq!(thread::current().id(), main);
            s.borrow_mut().push((v, elsewhere));
        })));
    while seen.borrow().len() < 3 {
        ui.dispatch_timeout(HOUR);
    }
    assert_eq!(*seen.borrow(), [(1, true), (2, true), (3, true)]);
    assert!(wakes.load(SeqCst) >= 1);
}
