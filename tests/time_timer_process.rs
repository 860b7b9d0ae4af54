//! Process-wide checks of `timer` on `NewThread`: a pending timer costs no CPU, and disposed
//! timers leave no thread behind. One test in its own binary, since CPU time and the thread
//! count are the process's, which other tests would disturb.

#![cfg(target_os = "linux")]

use rx::prelude::*;
use rx::schedulers::NewThread;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// CPU time used by the process so far, user and system, from `/proc/self/stat` (in clock
/// ticks of 1/100 s, the value of `CLK_TCK` on Linux).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // The command name, field 2, is parenthesised and may contain spaces: count from its end.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    // Fields 14 and 15 of the whole line, utime and stime, are 12 and 13 after the name.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

fn thread_count() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

#[test]
fn a_pending_timer_does_not_spin_and_disposed_timers_leave_no_thread() {
    // A timer two seconds away: its thread must sleep, not poll.
    let fired = Arc::new(AtomicBool::new(false));
    let f = fired.clone();
    let start = Instant::now();
    let cpu_before = cpu_time();
    let _handle = rx::source::timer(Duration::from_secs(2), NewThread)
        .subscribe(move |_| f.store(true, Ordering::SeqCst));
    thread::sleep(Duration::from_millis(2500));
    let cpu = cpu_time() - cpu_before;
    assert!(fired.load(Ordering::SeqCst), "the timer did not fire");
    assert!(
        cpu < Duration::from_millis(100),
        "{cpu:?} of CPU in {:?}",
        start.elapsed()
    );

    // A thousand timers, each subscribed and disposed: every thread ends.
    let baseline = thread_count();
    for _ in 0..1000 {
        let handle = rx::source::timer(Duration::from_secs(3600), NewThread).subscribe(|_| {});
        handle.dispose();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while thread_count() > baseline {
        assert!(
            Instant::now() < deadline,
            "{} threads left behind",
            thread_count() - baseline
        );
        thread::sleep(Duration::from_millis(5));
    }
}
