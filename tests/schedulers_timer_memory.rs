//! Cancelled timers give their memory back: after scheduling N far-future timers on a
//! `NewThread` or `ThreadPool` worker and cancelling them all, the bytes allocated are
//! back, to the byte, where they started (a counting global allocator; an emptied queue keeps
//! buffers of a small fixed size, allocated once before the first measurement); and the queue
//! keeps its timing meanwhile (an earlier timer still runs at its own time).
//!
//! Such a queue keeps the memory its cancelled timers used for a while, for the next burst to
//! reuse, and its thread gives it back once nothing has reused it for a quarter of a second:
//! so the bytes are counted process-wide, and waited for. The test is alone in its binary, so
//! no other test's allocations disturb the count.

use rx::schedulers::{NewThread, Reschedule, Scheduler, ThreadPool, Worker};
use rx::subscription::Subscription;
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod support;

use support::alloc::process_live_bytes;

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

/// How long the queue's thread may take to give kept memory back: it does so a quarter of a
/// second after the memory was last reused, so this is generous for a loaded machine.
const RELEASE_BOUND: Duration = Duration::from_secs(30);

/// Schedules `n` far timers, each capturing 8 bytes, and cancels them all: in the order they
/// were scheduled, or in reverse; then drops their handles.
fn schedule_and_cancel<W: Worker>(worker: &W, n: usize, reverse: bool) {
    let mut handles = Vec::with_capacity(n);
    for i in 0..n as u64 {
        handles.push(worker.schedule_after(FAR, move || {
            std::hint::black_box(i);
            Reschedule::Done
        }));
    }
    if reverse {
        handles.iter().rev().for_each(Subscription::dispose);
    } else {
        handles.iter().for_each(Subscription::dispose);
    }
    assert!(handles.iter().all(Subscription::is_disposed));
}

/// Waits for the bytes live in the process to come down to `baseline`; returns the bytes
/// held above it when they stop coming down before [`RELEASE_BOUND`]. Below it, the baseline
/// was read while something else held a few bytes for a moment (the runtime's buffers, a
/// thread's exit): the lower count is the baseline from then on, so every later comparison is
/// still to the byte.
fn settles_to(baseline: &mut isize) -> Result<(), isize> {
    let start = Instant::now();
    loop {
        let held = process_live_bytes() - *baseline;
        if held <= 0 {
            *baseline += held;
            return Ok(());
        }
        if start.elapsed() > RELEASE_BOUND {
            return Err(held);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Scheduled at the start, due soon: must run at its own time though 100,000 timers are
/// scheduled behind it and cancelled (compacting the queue) while the thread waits for it.
/// Waits for the queue's thread to give back kept memory, which the process holds `kept`
/// bytes with; returns the bytes held after.
fn released_from(kept: isize) -> isize {
    let start = Instant::now();
    while process_live_bytes() >= kept {
        assert!(
            start.elapsed() < RELEASE_BOUND,
            "kept memory never given back"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The release is one pass under the queue's lock: a moment later it is done.
    loop {
        let held = process_live_bytes();
        std::thread::sleep(Duration::from_millis(50));
        if process_live_bytes() == held {
            return held;
        }
    }
}

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
    // Leaves the queue's buffers at the small size an emptied queue keeps, once its thread
    // has given back what the 100 timers grew them to.
    schedule_and_cancel(&worker, 100, false);
    let mut baseline = released_from(process_live_bytes());
    for (n, reverse) in [(1, false), (100, false), (100_000, false), (100_000, true)] {
        schedule_and_cancel(&worker, n, reverse);
        settles_to(&mut baseline).unwrap_or_else(|held| {
            panic!("{n} timers cancelled (reverse: {reverse}): {held} bytes held")
        });
    }
    // The same again with a live timer among them: what is cancelled is given back still, but
    // for a few tombstone keys and buffer room, bounded whatever the number of timers.
    let live = worker.schedule_after(FAR, || Reschedule::Done);
    let before = process_live_bytes();
    schedule_and_cancel(&worker, 100_000, false);
    let held = released_from(process_live_bytes()) - before;
    assert!(held <= 32 * 1024, "one live timer left, {held} bytes held");
    live.dispose();
    settles_to(&mut baseline).unwrap_or_else(|held| panic!("{held} bytes held at the end"));
    runs_on_time_through_cancellations(&worker);
    worker.dispose();
}

#[test]
fn cancelled_timers_give_their_memory_back() {
    scenarios(NewThread);
    let pool = ThreadPool::new(2);
    scenarios(pool.clone());
}
