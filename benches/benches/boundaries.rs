//! The group `Boundaries`: values handed from one thread to another, by rx's `observe_on`
//! (one hop and two), `merge`, `merge_bounded` and `flat_map` of sources on 2, 4 and 8
//! threads, a subject fed from 2 and 4 threads to 1 and 10 subscribers, and
//! `observe_on_bounded` under each strategy, beside crossbeam-channel (bounded and
//! unbounded), std's `mpsc` and tokio's `mpsc` and `broadcast` doing the same hand-off; then
//! a flood of 10,000,000 values into a consumer ten times slower, under each strategy.
//!
//! One op hands [`ITEMS`] values of 64 bytes over and waits until the last one has been
//! received; the figures are per value: criterion's median per op divided by [`ITEMS`], and
//! the allocations of [`ALLOCATION_OPS`] ops (on every thread) divided by their values. The
//! threads are started once: rx's pools hand out workers on them, and the channels' consumers
//! and producers run as jobs on a pool of plain threads, so no op starts a thread.
//!
//! Not part of the report's table (its rows are RPP's cases): the group prints its own
//! table, ns and allocations per value. Alone:
//! `cargo bench -p rx-benches -- Boundaries`.

use crate::harness::sink;
use criterion::{BenchmarkId, Criterion, Throughput};
use rx::backpressure::{Bounded, Overflow};
use rx::prelude::*;
use rx::schedulers::ThreadPool;
use std::hint::black_box;
use std::sync::mpsc;

/// Values per op.
pub const ITEMS: u64 = 10_000;
/// Ops whose allocations are counted.
const ALLOCATION_OPS: u64 = 20;
/// The capacity of the bounded hand-offs.
const CAPACITY: usize = 1024;

/// A value of 64 bytes.
type Item = [u64; 8];

fn item(v: u64) -> Item {
    [v; 8]
}

type Job = Box<dyn FnOnce() + Send>;

/// Plain threads that run jobs: the channels' producers and consumers.
struct Threads {
    jobs: Vec<mpsc::Sender<Job>>,
}

impl Threads {
    fn new(n: usize) -> Self {
        let jobs = (0..n)
            .map(|_| {
                let (tx, rx) = mpsc::channel::<Job>();
                std::thread::spawn(move || {
                    for job in rx {
                        job();
                    }
                });
                tx
            })
            .collect();
        Threads { jobs }
    }

    fn run(&self, thread: usize, job: impl FnOnce() + Send + 'static) {
        self.jobs[thread].send(Box::new(job)).unwrap();
    }
}

/// A channel's two ends, as the cases use them.
trait Channel: Sized + Send + 'static {
    type Sender: Clone + Send + 'static;
    type Receiver: Send + 'static;
    fn open() -> (Self::Sender, Self::Receiver);
    fn send(tx: &Self::Sender, value: Item);
    /// The next value, or `None` once every sender is gone.
    fn recv(rx: &Self::Receiver) -> Option<Item>;
}

struct CrossbeamBounded;
struct CrossbeamUnbounded;
struct TokioBounded;
struct StdSync;
struct StdUnbounded;

impl Channel for CrossbeamBounded {
    type Sender = crossbeam_channel::Sender<Item>;
    type Receiver = crossbeam_channel::Receiver<Item>;
    fn open() -> (Self::Sender, Self::Receiver) {
        crossbeam_channel::bounded(CAPACITY)
    }
    fn send(tx: &Self::Sender, value: Item) {
        tx.send(value).unwrap();
    }
    fn recv(rx: &Self::Receiver) -> Option<Item> {
        rx.recv().ok()
    }
}

impl Channel for CrossbeamUnbounded {
    type Sender = crossbeam_channel::Sender<Item>;
    type Receiver = crossbeam_channel::Receiver<Item>;
    fn open() -> (Self::Sender, Self::Receiver) {
        crossbeam_channel::unbounded()
    }
    fn send(tx: &Self::Sender, value: Item) {
        tx.send(value).unwrap();
    }
    fn recv(rx: &Self::Receiver) -> Option<Item> {
        rx.recv().ok()
    }
}

/// tokio's bounded mpsc, from plain threads through its blocking calls.
impl Channel for TokioBounded {
    type Sender = tokio::sync::mpsc::Sender<Item>;
    type Receiver = std::sync::Mutex<tokio::sync::mpsc::Receiver<Item>>;
    fn open() -> (Self::Sender, Self::Receiver) {
        let (tx, rx) = tokio::sync::mpsc::channel(CAPACITY);
        (tx, std::sync::Mutex::new(rx))
    }
    fn send(tx: &Self::Sender, value: Item) {
        tx.blocking_send(value).unwrap();
    }
    fn recv(rx: &Self::Receiver) -> Option<Item> {
        rx.lock().unwrap().blocking_recv()
    }
}

impl Channel for StdSync {
    type Sender = mpsc::SyncSender<Item>;
    type Receiver = mpsc::Receiver<Item>;
    fn open() -> (Self::Sender, Self::Receiver) {
        mpsc::sync_channel(CAPACITY)
    }
    fn send(tx: &Self::Sender, value: Item) {
        tx.send(value).unwrap();
    }
    fn recv(rx: &Self::Receiver) -> Option<Item> {
        rx.recv().ok()
    }
}

impl Channel for StdUnbounded {
    type Sender = mpsc::Sender<Item>;
    type Receiver = mpsc::Receiver<Item>;
    fn open() -> (Self::Sender, Self::Receiver) {
        mpsc::channel()
    }
    fn send(tx: &Self::Sender, value: Item) {
        tx.send(value).unwrap();
    }
    fn recv(rx: &Self::Receiver) -> Option<Item> {
        rx.recv().ok()
    }
}

/// One hop: this thread sends, a consumer thread receives every value.
fn channel_hops<C: Channel>(threads: &Threads, hops: usize) {
    let (done, finished) = mpsc::channel();
    let (tx, mut rx) = C::open();
    for hop in 1..hops {
        let (next_tx, next_rx) = C::open();
        threads.run(hop, move || {
            while let Some(v) = C::recv(&rx) {
                C::send(&next_tx, v);
            }
        });
        rx = next_rx;
    }
    threads.run(0, move || {
        while let Some(v) = C::recv(&rx) {
            sink(v);
        }
        done.send(()).unwrap();
    });
    for v in 0..ITEMS {
        C::send(&tx, item(black_box(v)));
    }
    drop(tx);
    finished.recv().unwrap();
}

/// `producers` threads each send their share; this thread receives every value.
fn channel_merge<C: Channel>(threads: &Threads, producers: usize) {
    let (tx, rx) = C::open();
    let share = ITEMS / producers as u64;
    for p in 0..producers {
        let tx = tx.clone();
        threads.run(p, move || {
            for v in 0..share {
                C::send(&tx, item(black_box(v)));
            }
        });
    }
    drop(tx);
    while let Some(v) = C::recv(&rx) {
        sink(v);
    }
}

fn rx_hops(pool: &ThreadPool, hops: usize) {
    let (done, finished) = mpsc::channel();
    let source = rx::source::from_iter(0..ITEMS).map(|v| item(black_box(v)));
    let complete = move || done.send(()).unwrap();
    let fail = |e: rx::Error| panic!("{e}");
    if hops == 1 {
        source
            .observe_on(pool.clone())
            .subscribe_with(sink, fail, complete);
    } else {
        source
            .observe_on(pool.clone())
            .observe_on(pool.clone())
            .subscribe_with(sink, fail, complete);
    }
    finished.recv().unwrap();
}

fn rx_merge(pool: &ThreadPool, producers: usize) {
    let (done, finished) = mpsc::channel();
    let share = ITEMS / producers as u64;
    let sources: Vec<_> = (0..producers)
        .map(|_| {
            rx::source::from_iter(0..share)
                .map(|v| item(black_box(v)))
                .subscribe_on(pool.clone())
        })
        .collect();
    rx::source::merge(sources).subscribe_with(
        sink,
        |e: rx::Error| panic!("{e}"),
        move || done.send(()).unwrap(),
    );
    finished.recv().unwrap();
}

/// `producers` threads feed one subject; `subscribers` observers each receive every value
/// on a worker of their own (`observe_on`).
fn rx_subject(pool: &ThreadPool, threads: &Threads, producers: usize, subscribers: usize) {
    let subject = rx::subjects::PublishSubject::<Item>::new();
    let (done, finished) = mpsc::channel();
    for _ in 0..subscribers {
        let done = done.clone();
        subject
            .observable()
            .observe_on(pool.clone())
            .subscribe_with(
                sink,
                |e: rx::Error| panic!("{e}"),
                move || done.send(()).unwrap(),
            );
    }
    let share = ITEMS / producers as u64;
    let (fed, all_fed) = mpsc::channel();
    for p in 0..producers {
        let mut input = subject.observer();
        let fed = fed.clone();
        threads.run(p, move || {
            for v in 0..share {
                input.on_next(item(black_box(v)));
            }
            fed.send(()).unwrap();
        });
    }
    for _ in 0..producers {
        all_fed.recv().unwrap();
    }
    subject.observer().on_completed();
    for _ in 0..subscribers {
        finished.recv().unwrap();
    }
}

/// tokio's broadcast, the peer of a subject: `producers` threads send, `subscribers`
/// receivers on threads of their own each take every value. Its buffer keeps the last
/// [`CAPACITY`] values: a receiver that falls further behind skips what it missed (counted,
/// not waited for), which a subject never does.
fn broadcast_subject(threads: &Threads, producers: usize, subscribers: usize) {
    let (tx, _) = tokio::sync::broadcast::channel::<Item>(CAPACITY);
    let (done, finished) = mpsc::channel();
    for s in 0..subscribers {
        let mut rx = tx.subscribe();
        let done = done.clone();
        threads.run(producers + s % (8 - producers), move || {
            use tokio::sync::broadcast::error::RecvError;
            loop {
                match rx.blocking_recv() {
                    Ok(v) => sink(v),
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
            }
            done.send(()).unwrap();
        });
    }
    let share = ITEMS / producers as u64;
    let (fed, all_fed) = mpsc::channel();
    for p in 0..producers {
        let tx = tx.clone();
        let fed = fed.clone();
        threads.run(p, move || {
            for v in 0..share {
                let _ = tx.send(item(black_box(v)));
            }
            fed.send(()).unwrap();
        });
    }
    for _ in 0..producers {
        all_fed.recv().unwrap();
    }
    drop(tx);
    for _ in 0..subscribers {
        finished.recv().unwrap();
    }
}

/// `flat_map` whose inners each emit their share on a pool's worker.
fn rx_flat_map(pool: &ThreadPool, producers: usize) {
    let (done, finished) = mpsc::channel();
    let share = ITEMS / producers as u64;
    let pool_inner = pool.clone();
    rx::source::from_iter(0..producers as u64)
        .flat_map(move |_| {
            rx::source::from_iter(0..share)
                .map(|v| item(black_box(v)))
                .subscribe_on(pool_inner.clone())
        })
        .subscribe_with(
            sink,
            |e: rx::Error| panic!("{e}"),
            move || done.send(()).unwrap(),
        );
    finished.recv().unwrap();
}

/// `merge_bounded` (capacity [`CAPACITY`], blocking) of sources on `producers` threads.
fn rx_merge_bounded(pool: &ThreadPool, producers: usize) {
    let (done, finished) = mpsc::channel();
    let share = ITEMS / producers as u64;
    let sources: Vec<_> = (0..producers)
        .map(|_| {
            rx::source::from_iter(0..share)
                .map(|v| item(black_box(v)))
                .subscribe_on(pool.clone())
        })
        .collect();
    rx::source::merge_bounded(sources, Bounded::new(CAPACITY)).subscribe_with(
        sink,
        |e: rx::Error| panic!("{e}"),
        move || done.send(()).unwrap(),
    );
    finished.recv().unwrap();
}

fn rx_bounded(pool: &ThreadPool, overflow: Overflow) {
    let (done, finished) = mpsc::channel();
    rx::source::from_iter(0..ITEMS)
        .map(|v| item(black_box(v)))
        .observe_on_bounded(pool.clone(), Bounded::new(CAPACITY).on_full(overflow))
        .subscribe_with(
            sink,
            |e: rx::Error| panic!("{e}"),
            move || done.send(()).unwrap(),
        );
    finished.recv().unwrap();
}

/// The group's rows, as (case, implementation) in the order measured.
struct Table {
    rows: Vec<(&'static str, &'static str, f64)>,
}

pub fn boundaries(c: &mut Criterion) {
    let pool = ThreadPool::new(8);
    let threads = Threads::new(8);
    let mut table = Table { rows: Vec::new() };
    let mut group = c.benchmark_group("Boundaries");
    group.throughput(Throughput::Elements(ITEMS));
    {
        let mut case = |case: &'static str, implementation: &'static str, op: &mut dyn FnMut()| {
            let mut counted = false;
            let mut allocations = 0.0;
            group.bench_function(BenchmarkId::new(case, implementation), |b| {
                if !counted {
                    counted = true;
                    op();
                    let ((), delta) = rx_benches::count(|| {
                        for _ in 0..ALLOCATION_OPS {
                            op();
                        }
                    });
                    allocations = delta.allocations as f64 / (ALLOCATION_OPS * ITEMS) as f64;
                }
                b.iter(&mut *op);
            });
            if counted {
                table.rows.push((case, implementation, allocations));
            }
        };
        for hops in [1, 2] {
            let name = if hops == 1 {
                "observe_on_1_hop"
            } else {
                "observe_on_2_hops"
            };
            case(name, "rx", &mut || rx_hops(&pool, hops));
            case(name, "crossbeam_unbounded", &mut || {
                channel_hops::<CrossbeamUnbounded>(&threads, hops)
            });
            case(name, "crossbeam_bounded", &mut || {
                channel_hops::<CrossbeamBounded>(&threads, hops)
            });
            case(name, "std_mpsc", &mut || {
                channel_hops::<StdUnbounded>(&threads, hops)
            });
            case(name, "std_sync_channel", &mut || {
                channel_hops::<StdSync>(&threads, hops)
            });
            case(name, "tokio_mpsc", &mut || {
                channel_hops::<TokioBounded>(&threads, hops)
            });
        }
        for (name, producers) in [
            ("merge_2_threads", 2),
            ("merge_4_threads", 4),
            ("merge_8_threads", 8),
        ] {
            case(name, "rx", &mut || rx_merge(&pool, producers));
            case(name, "rx_merge_bounded", &mut || {
                rx_merge_bounded(&pool, producers)
            });
            case(name, "rx_flat_map", &mut || rx_flat_map(&pool, producers));
            case(name, "crossbeam_unbounded", &mut || {
                channel_merge::<CrossbeamUnbounded>(&threads, producers)
            });
            case(name, "crossbeam_bounded", &mut || {
                channel_merge::<CrossbeamBounded>(&threads, producers)
            });
            case(name, "std_mpsc", &mut || {
                channel_merge::<StdUnbounded>(&threads, producers)
            });
            case(name, "std_sync_channel", &mut || {
                channel_merge::<StdSync>(&threads, producers)
            });
            case(name, "tokio_mpsc", &mut || {
                channel_merge::<TokioBounded>(&threads, producers)
            });
        }
        for (name, producers, subscribers) in [
            ("subject_2_threads_1_subscriber", 2, 1),
            ("subject_2_threads_10_subscribers", 2, 10),
            ("subject_4_threads_1_subscriber", 4, 1),
            ("subject_4_threads_10_subscribers", 4, 10),
        ] {
            case(name, "rx", &mut || {
                rx_subject(&pool, &threads, producers, subscribers)
            });
            case(name, "tokio_broadcast", &mut || {
                broadcast_subject(&threads, producers, subscribers)
            });
        }
        for (name, overflow) in [
            ("observe_on_bounded_block", Overflow::Block),
            ("observe_on_bounded_drop_newest", Overflow::DropNewest),
            ("observe_on_bounded_drop_oldest", Overflow::DropOldest),
            ("observe_on_bounded_keep_latest", Overflow::KeepLatest),
        ] {
            case(name, "rx", &mut || rx_bounded(&pool, overflow));
        }
    }
    group.finish();
    if !table.rows.is_empty() {
        table.print();
        flood(&pool);
    }
}

/// Values of the flood.
const FLOOD: u64 = 10_000_000;
/// The capacity of the flood's hand-off.
const FLOOD_CAPACITY: usize = 1024;

/// Spins for about `n` rounds of a multiply-add the optimiser cannot drop.
fn work(v: u64, n: u64) -> u64 {
    let mut x = v;
    for _ in 0..n {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// [`FLOOD`] values from a producer on one thread into `observe_on_bounded` (capacity
/// [`FLOOD_CAPACITY`]) whose consumer spends ten times the producer's work on each, under
/// each strategy, once: delivered, dropped (the handle's count and the callback's), the
/// queue's peak, whether the values delivered kept their order, the heap still held by the
/// subscription at its end, and the wall time.
fn flood(pool: &ThreadPool) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    println!("\nFlood: {FLOOD} values into a consumer ten times slower, bound {FLOOD_CAPACITY}:");
    println!(
        "| strategy | delivered | dropped (handle) | dropped (callback) | peak queued | in order | heap held at end (B) | s |"
    );
    println!("|---|---:|---:|---:|---:|---|---:|---:|");
    for overflow in [
        Overflow::Block,
        Overflow::DropNewest,
        Overflow::DropOldest,
        Overflow::KeepLatest,
    ] {
        let (done, finished) = mpsc::channel();
        let delivered = Arc::new(AtomicU64::new(0));
        let in_order = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let reported = Arc::new(AtomicU64::new(0));
        let (d, o, r) = (delivered.clone(), in_order.clone(), reported.clone());
        let mut last = None;
        let started = std::time::Instant::now();
        let counter = rx_benches::Counter::start();
        let handle = rx::source::from_iter(0..FLOOD)
            .map(|v| {
                work(v, 1);
                v
            })
            .subscribe_on(pool.clone())
            .observe_on_bounded(
                pool.clone(),
                Bounded::new(FLOOD_CAPACITY)
                    .on_full(overflow)
                    .on_drop(move |_| {
                        r.fetch_add(1, Ordering::Relaxed);
                    }),
            )
            .subscribe_with(
                move |v: u64| {
                    sink(work(v, 10));
                    if last.is_some_and(|l| l >= v) {
                        o.store(false, Ordering::Relaxed);
                    }
                    last = Some(v);
                    d.fetch_add(1, Ordering::Relaxed);
                },
                |e: rx::Error| panic!("{e}"),
                move || done.send(()).unwrap(),
            );
        finished.recv().unwrap();
        let seconds = started.elapsed().as_secs_f64();
        let held = counter.stop().live_bytes;
        println!(
            "| {overflow:?} | {} | {} | {} | {} | {} | {held} | {seconds:.2} |",
            delivered.load(Ordering::Relaxed),
            handle.dropped(),
            reported.load(Ordering::Relaxed),
            handle.peak_queued(),
            in_order.load(Ordering::Relaxed),
        );
    }
}

impl Table {
    /// Prints ns and allocations per value, from criterion's medians.
    fn print(&self) {
        if self.rows.is_empty() {
            return;
        }
        let dir = rx_benches::criterion_dir().ok();
        println!("\nBoundaries: {ITEMS} values of 64 B per op; per value:");
        println!("| case | implementation | ns | allocations |");
        println!("|---|---|---:|---:|");
        for (case, implementation, allocations) in &self.rows {
            let ns = dir
                .as_ref()
                .and_then(|dir| median_ns(dir, case, implementation))
                .map_or_else(|| "?".to_owned(), |ns| format!("{:.1}", ns / ITEMS as f64));
            println!("| {case} | {implementation} | {ns} | {allocations:.3} |");
        }
    }
}

fn median_ns(dir: &std::path::Path, case: &str, implementation: &str) -> Option<f64> {
    let path = dir
        .join("Boundaries")
        .join(case)
        .join(implementation)
        .join("new")
        .join("estimates.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}
