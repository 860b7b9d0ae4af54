//! Timers at scale: 1,000,000 timers scheduled on one worker and then cancelled, on rx's
//! `NewThread` and `ThreadPool`, beside tokio-util's `DelayQueue` inserting and removing as
//! many keys.
//!
//! Every timer is due an hour from now, so none fires while it is measured, and each
//! captures an 8-byte value, as the `DelayQueue` holds a `u64` per key. The timers are
//! cancelled in the order they were scheduled, as timeouts are when their values arrive.
//!
//! Each implementation is measured in a process of its own (the bench binary started again),
//! [`PASSES`] times in turn with the others. Time per schedule and per cancel is the
//! wall-clock time of the whole loop divided by the number of timers, the median of the
//! rounds after each pass's first ([`ROUNDS`] rounds a pass, run with the counting allocator
//! off); the first round of a pass, on a fresh worker or queue, is reported apart (the
//! median of the passes'):
//! there every implementation touches memory new to its process, where the later rounds run
//! on whatever the earlier ones kept (a `DelayQueue` keeps its slab for good; rx keeps what its cancelled timers used until
//! its thread finds it unused for a quarter of a second). One more round, on a fresh worker or
//! queue, runs with the counting allocator on, for the heap held (net live bytes) after
//! scheduling, after cancelling every handle while the handles are still held, after the
//! handles are dropped too, and after [`IDLE`] more with nothing scheduled; and for the
//! allocations per schedule. The vector holding the handles is allocated before counting
//! starts and freed after it ends, so it is not counted.
//!
//! The records go to `<target>/criterion/rx-bench/timers.json`, which the report reads.
//! Run alone: `cargo bench -p rx-benches -- timers`.

use crate::harness::sink;
use rx::schedulers::{NewThread, Reschedule, Scheduler, ThreadPool, Worker};
use rx::subscription::Subscription;
use rx_benches::{Counter, records_dir};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use tokio_util::time::DelayQueue;

/// How many timers each implementation schedules and cancels.
const TIMERS: usize = 1_000_000;
/// Timed rounds per implementation; the median is reported.
const ROUNDS: usize = 3;
/// How far off every timer is due: none fires while it is measured.
const DUE_IN: Duration = Duration::from_secs(3600);

/// Ample time for a disposed worker's thread to end (it exits as soon as it wakes).
const THREAD_END: Duration = Duration::from_millis(200);

/// The idle time after which the heap held is read a last time: ample for rx's threads to
/// give back what their queues kept (they do a quarter of a second after it was last used).
const IDLE: Duration = Duration::from_secs(1);

/// One implementation's figures, as the report reads them. The heap held is the net of what
/// was allocated and freed since just before the first schedule.
#[derive(Serialize, Deserialize)]
struct TimerRecord {
    implementation: String,
    timers: usize,
    schedule_ns: f64,
    cancel_ns: f64,
    /// The first round's time per schedule, on a fresh worker or queue.
    first_schedule_ns: f64,
    /// Every timed round's time per schedule and per cancel, the first included.
    schedule_rounds: Vec<f64>,
    cancel_rounds: Vec<f64>,
    allocations_per_schedule: f64,
    held_after_schedule_bytes: i64,
    held_after_cancel_bytes: i64,
    held_after_drop_bytes: i64,
    /// After [`IDLE`] more with nothing scheduled.
    held_after_idle_bytes: i64,
    note: Option<String>,
    /// The run that measured it (`rx_benches::run_started`).
    run: u64,
}

/// A timer queue under test: schedule returns a handle, cancel takes it back.
trait Timers {
    type Handle;
    fn schedule(&mut self, value: u64) -> Self::Handle;
    fn cancel(&mut self, handle: &Self::Handle);
}

/// Disposed when dropped, so that a `NewThread` worker's thread ends with it.
struct RxTimers<W: Worker>(W);

impl<W: Worker> Drop for RxTimers<W> {
    fn drop(&mut self) {
        self.0.dispose();
    }
}

impl<W: Worker> Timers for RxTimers<W> {
    type Handle = W::TaskHandle;

    fn schedule(&mut self, value: u64) -> W::TaskHandle {
        self.0.schedule_after(DUE_IN, move || {
            sink(value);
            Reschedule::Done
        })
    }

    fn cancel(&mut self, handle: &W::TaskHandle) {
        handle.dispose();
    }
}

struct DelayQueueTimers(DelayQueue<u64>);

impl Timers for DelayQueueTimers {
    type Handle = tokio_util::time::delay_queue::Key;

    fn schedule(&mut self, value: u64) -> Self::Handle {
        self.0.insert(value, DUE_IN)
    }

    fn cancel(&mut self, key: &Self::Handle) {
        sink(self.0.remove(key));
    }
}

/// Time per schedule and per cancel of one round, counting off.
fn timed_round<T: Timers>(timers: &mut T, handles: &mut Vec<T::Handle>) -> (f64, f64) {
    let start = Instant::now();
    for i in 0..TIMERS {
        handles.push(timers.schedule(i as u64));
    }
    let scheduled = start.elapsed();
    let start = Instant::now();
    for handle in handles.iter() {
        timers.cancel(handle);
    }
    let cancelled = start.elapsed();
    handles.clear();
    let per = |d: Duration| d.as_nanos() as f64 / TIMERS as f64;
    (per(scheduled), per(cancelled))
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn measure<T: Timers>(
    implementation: &str,
    note: Option<&str>,
    mut make: impl FnMut() -> T,
) -> TimerRecord {
    let mut handles = Vec::with_capacity(TIMERS);
    let mut timers = make();
    let (mut schedule, mut cancel) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let (s, c) = timed_round(&mut timers, &mut handles);
        schedule.push(s);
        cancel.push(c);
    }

    // A fresh one, so that what the timed rounds left allocated (a slab or a heap buffer
    // kept for reuse) counts as held by the timers it was grown for.
    drop(timers);
    // A `NewThread` worker's thread frees its queue as it ends, after the drop returns: let
    // it end before counting, or those frees would count against the fresh worker.
    std::thread::sleep(THREAD_END);
    let mut timers = make();
    let counter = Counter::start();
    for i in 0..TIMERS {
        handles.push(timers.schedule(i as u64));
    }
    let scheduling = counter.stop();
    let counter = Counter::start();
    for handle in handles.iter() {
        timers.cancel(handle);
    }
    let cancelling = counter.stop();
    let counter = Counter::start();
    // Drops every handle, keeps the vector's buffer (allocated before counting).
    handles.clear();
    let dropping = counter.stop();
    let counter = Counter::start();
    std::thread::sleep(IDLE);
    let idling = counter.stop();

    let after_schedule = scheduling.live_bytes;
    let after_cancel = after_schedule + cancelling.live_bytes;
    let record = TimerRecord {
        implementation: implementation.to_owned(),
        timers: TIMERS,
        first_schedule_ns: schedule[0],
        schedule_ns: median(schedule.clone()),
        cancel_ns: median(cancel.clone()),
        schedule_rounds: schedule,
        cancel_rounds: cancel,
        allocations_per_schedule: scheduling.allocations as f64 / TIMERS as f64,
        held_after_schedule_bytes: after_schedule,
        held_after_cancel_bytes: after_cancel,
        held_after_drop_bytes: after_cancel + dropping.live_bytes,
        held_after_idle_bytes: after_cancel + dropping.live_bytes + idling.live_bytes,
        note: note.map(str::to_owned),
        run: rx_benches::run_started(),
    };
    drop(handles);
    drop(timers);
    record
}

/// A record's line in the bench's output.
fn print_record(record: &TimerRecord) {
    println!(
        "timers  {:<26} schedule {:>7.1} ns  cancel {:>7.1} ns  {:.2} allocs/timer  held \
         0 → {} → {} → {} → {} bytes",
        record.implementation,
        record.schedule_ns,
        record.cancel_ns,
        record.allocations_per_schedule,
        record.held_after_schedule_bytes,
        record.held_after_cancel_bytes,
        record.held_after_drop_bytes,
        record.held_after_idle_bytes,
    );
}

/// The implementations, in the order they are measured and reported.
const IMPLEMENTATIONS: [&str; 3] = ["rx NewThread", "rx ThreadPool", "tokio-util DelayQueue"];

/// Set to one of [`IMPLEMENTATIONS`] in the environment of the process that measures it.
pub const ONE: &str = "RX_BENCH_TIMERS_ONE";

/// How many times each implementation is measured, each time in a fresh process.
const PASSES: usize = 3;

/// The prefix of the line on which a measuring process hands its record to the parent.
const RECORD_LINE: &str = "timer record: ";

/// Measures every implementation, each in a process of its own, and writes the records.
///
/// A fresh process per implementation, because what one leaves to the allocator decides how
/// much the next finds already mapped: measured one after the other in one process, the
/// later ones' first rounds would reuse pages the earlier ones faulted in. The processes run
/// [`PASSES`] times in turn (all implementations, then all again), and each figure is the
/// median over every pass, so that a spell of load on the machine falls on each of them
/// rather than on whichever ran through it.
pub fn run() {
    if !rx_benches::section_selected("timers") {
        return;
    }
    let exe = std::env::current_exe().expect("the bench binary's path");
    let mut passes: Vec<Vec<TimerRecord>> = IMPLEMENTATIONS.iter().map(|_| Vec::new()).collect();
    for _ in 0..PASSES {
        for (implementation, records) in IMPLEMENTATIONS.iter().zip(&mut passes) {
            records.push(measure_in_own_process(&exe, implementation));
        }
    }
    let records: Vec<TimerRecord> = passes.into_iter().map(merge_passes).collect();
    for record in &records {
        print_record(record);
    }

    let written = records_dir().and_then(|dir| {
        std::fs::create_dir_all(&dir)?;
        let json = serde_json::to_vec_pretty(&records).map_err(std::io::Error::other)?;
        std::fs::write(dir.join("timers.json"), json)
    });
    if let Err(e) = written {
        eprintln!("warning: could not write the timer records: {e}");
    }
}

/// Runs the bench binary again to measure `implementation`, and reads back its record.
fn measure_in_own_process(exe: &std::path::Path, implementation: &str) -> TimerRecord {
    let output = std::process::Command::new(exe)
        .env(ONE, implementation)
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("the bench binary starts again");
    assert!(
        output.status.success(),
        "measuring the timers of {implementation} failed: {}",
        output.status
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = stdout
        .lines()
        .find_map(|line| line.strip_prefix(RECORD_LINE))
        .unwrap_or_else(|| panic!("measuring the timers of {implementation} printed no record"));
    serde_json::from_str(json).expect("a timer record")
}

/// One implementation's record over all its passes: times are medians over the rounds after
/// each pass's first, the first round's the median of the passes' first rounds; the heap held
/// and the allocations are the first pass's.
fn merge_passes(passes: Vec<TimerRecord>) -> TimerRecord {
    let firsts = passes.iter().map(|p| p.first_schedule_ns).collect();
    let later = |rounds: fn(&TimerRecord) -> &Vec<f64>| -> Vec<f64> {
        passes
            .iter()
            .flat_map(|p| rounds(p).iter().skip(1).copied())
            .collect()
    };
    let schedule_ns = median(later(|p| &p.schedule_rounds));
    let cancel_ns = median(later(|p| &p.cancel_rounds));
    let schedule_rounds = passes
        .iter()
        .flat_map(|p| p.schedule_rounds.iter().copied())
        .collect();
    let cancel_rounds = passes
        .iter()
        .flat_map(|p| p.cancel_rounds.iter().copied())
        .collect();
    let first = passes.into_iter().next().expect("at least one pass");
    TimerRecord {
        first_schedule_ns: median(firsts),
        schedule_ns,
        cancel_ns,
        schedule_rounds,
        cancel_rounds,
        // The run is this process's, not the measuring ones'.
        run: rx_benches::run_started(),
        ..first
    }
}

/// Measures `implementation`, one of [`IMPLEMENTATIONS`], and prints its record for the
/// parent process ([`run`]).
pub fn run_one(implementation: &str) {
    let record = match implementation {
        "rx NewThread" => measure(
            implementation,
            Some("one worker: one thread and its timed queue"),
            || RxTimers(NewThread.worker()),
        ),
        // A pool per worker: a pool's queues outlive its workers, and what the timed rounds
        // left kept on them must not count against the fresh worker the heap is measured on.
        "rx ThreadPool" => measure(
            implementation,
            Some("ThreadPool::new(2), one worker: every timer on one of the two queues"),
            || RxTimers(ThreadPool::new(2).worker()),
        ),
        "tokio-util DelayQueue" => {
            let runtime = rxrust::scheduler::tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .expect("a tokio runtime");
            // `DelayQueue` arms a tokio `Sleep`, which needs the runtime's timer in context.
            let _context = runtime.enter();
            measure(
                implementation,
                Some(
                    "DelayQueue<u64>::insert / remove on a current-thread runtime: a hashed \
                     timing wheel over a slab, driven by whoever polls it",
                ),
                || DelayQueueTimers(DelayQueue::new()),
            )
        }
        other => panic!("{ONE}={other:?}: not one of {IMPLEMENTATIONS:?}"),
    };
    let json = serde_json::to_string(&record).expect("a timer record serializes");
    println!("{RECORD_LINE}{json}");
}
