//! Cancelled timers give their memory back: after scheduling N far-future timers on a
//! `NewThread` or `ThreadPool` worker and cancelling them all, the bytes allocated are
//! back, to the byte, where they started (a counting global allocator; an emptied queue keeps
//! buffers of a small fixed size, allocated once before the first measurement); and the queue
//! keeps its timing meanwhile (an earlier timer still runs at its own time).
//!
//! The count is the test thread's own: it makes and frees every byte in question (the
//! scheduler's thread only pops plain tombstone keys while it waits), and no other thread's
//! allocations can disturb it.

use rx::schedulers::{NewThread, Reschedule, Scheduler, ThreadPool, Worker};
use rx::subscription::Subscription;
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod support;

use support::alloc::live_bytes;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

const FAR: Duration = Duration::from_secs(3600);

/// Runs a task on `worker` and waits for it to be done, so that its thread is up and idle,
/// and holds nothing of it (its slot is freed just after it returns).
fn settle<W: Worker>(worker: &W) {
    let (tx, rx) = mpsc::channel();
    let handle = worker.schedule(move || {
        tx.send(()).unwrap();
        Reschedule::Done
    });
    rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let start = Instant::now();
    while !handle.is_disposed() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the task never finished"
        );
        std::thread::yield_now();
    }
}

/// Schedules `n` far timers, each capturing 8 bytes, and cancels them all: in the order they
/// were scheduled, or in reverse. Returns the bytes held with every timer cancelled but its
/// handle alive, and with the handles dropped too, both relative to before.
fn schedule_and_cancel<W: Worker>(worker: &W, n: usize, reverse: bool) -> (isize, isize) {
    let mut handles = Vec::with_capacity(n);
    let before = live_bytes();
    for i in 0..n as u64 {
        handles.push(worker.schedule_after(FAR, move || {
            std::hint::black_box(i);
            Reschedule::Done
        }));
    }
    // A few timers fit in the buffers an emptied queue keeps; more grow them.
    assert!(n < 100 || live_bytes() - before > 0);
    if reverse {
        handles.iter().rev().for_each(Subscription::dispose);
    } else {
        handles.iter().for_each(Subscription::dispose);
    }
    assert!(handles.iter().all(Subscription::is_disposed));
    let cancelled = live_bytes() - before;
    // Keeps the vector's buffer, allocated before `before`.
    handles.clear();
    let dropped = live_bytes() - before;
    drop(handles);
    (cancelled, dropped)
}

/// Scheduled at the start, due soon: must run at its own time though 100,000 timers are
/// scheduled behind it and cancelled (compacting the queue) while the thread waits for it.
fn runs_on_time_through_cancellations<W: Worker>(worker: &W) {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    let due = Duration::from_millis(200);
    worker.schedule_after(due, move || {
        tx.send(Instant::now()).unwrap();
        Reschedule::Done
    });
    schedule_and_cancel(worker, 100_000, false);
    let ran = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert!(ran - start >= due, "ran early: {:?}", ran - start);
    // Generous: a loaded machine may run it late, but not by a far timer's hour.
    assert!(
        ran - start < Duration::from_secs(20),
        "ran late: {:?}",
        ran - start
    );
}

fn scenarios<S: Scheduler>(scheduler: S) {
    let worker = scheduler.worker();
    settle(&worker);
    // Leaves the queue's buffers at the small size an emptied queue keeps.
    schedule_and_cancel(&worker, 100, false);
    for (n, reverse) in [(1, false), (100, false), (100_000, false), (100_000, true)] {
        let (cancelled, dropped) = schedule_and_cancel(&worker, n, reverse);
        // The handles hold no memory of their own: the queue let go of every byte though
        // they are alive.
        assert_eq!(cancelled, 0, "{n} timers cancelled (reverse: {reverse})");
        assert_eq!(
            dropped, 0,
            "{n} timers cancelled and dropped (reverse: {reverse})"
        );
    }
    // The same again with a live timer among them: what is cancelled is given back still, but
    // for a few tombstone keys and buffer room, bounded whatever the number of timers.
    let live = worker.schedule_after(FAR, || Reschedule::Done);
    let before = live_bytes();
    let (_, dropped) = schedule_and_cancel(&worker, 100_000, false);
    assert!(
        dropped <= 32 * 1024,
        "one live timer left, {dropped} bytes held"
    );
    live.dispose();
    assert!(live_bytes() <= before);
    runs_on_time_through_cancellations(&worker);
    worker.dispose();
}

#[test]
fn cancelled_timers_give_their_memory_back() {
    scenarios(NewThread);
    let pool = ThreadPool::new(2);
    scenarios(pool.clone());
}
