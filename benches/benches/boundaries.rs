//! The group `Boundaries`: values handed from one thread to another, by rx's `observe_on`
//! (one hop and two), `merge` of sources on 2, 4 and 8 threads, and `observe_on_bounded`
//! under each strategy, beside crossbeam-channel (bounded and unbounded) and std's `mpsc`
//! doing the same hand-off.
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
        }
        for (name, producers) in [
            ("merge_2_threads", 2),
            ("merge_4_threads", 4),
            ("merge_8_threads", 8),
        ] {
            case(name, "rx", &mut || rx_merge(&pool, producers));
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
    table.print();
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
