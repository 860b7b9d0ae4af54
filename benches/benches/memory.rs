//! Memory held by live subscriptions: 10,000 subscriptions alive at once, each
//! `map | filter | subscribe`, to one PublishSubject, to one BehaviorSubject, and through
//! `interval` on a scheduler; the heap the counting allocator sees held afterwards, divided
//! by 10,000.
//!
//! Each subject scenario runs in both flavours, like for like: rx's thread-safe subject beside
//! rxRust's `Shared` one, and rx's `subjects::local` subject (the scenario marked
//! "single-threaded") beside rxRust's `Local` one.
//!
//! The handles `subscribe` returns are kept in a vector allocated beforehand, so what is
//! counted is what the subscriptions hold on the heap; the handle's own size, which the
//! caller holds on top, is reported beside it.

use crate::harness::sink;
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::subjects::{BehaviorSubject, PublishSubject, local};
use rx_benches::{Counter, MemoryRecord, count, write_memory_records};
use rxrust::prelude::{
    Local, Observable as _, ObservableFactory as _, Observer as _, Shared, Subscription as _,
};
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const SUBSCRIPTIONS: usize = 10_000;

/// Subscribes `SUBSCRIPTIONS` times and measures what stays allocated. `check` runs once all
/// are alive, outside the count, and returns how many values one notification reached, to
/// prove they are.
fn measure<H>(
    scenario: &str,
    library: &str,
    note: Option<&str>,
    mut subscribe: impl FnMut() -> H,
    check: impl FnOnce() -> usize,
) -> MemoryRecord {
    let mut handles = Vec::with_capacity(SUBSCRIPTIONS);
    let ((), delta) = count(|| {
        for _ in 0..SUBSCRIPTIONS {
            handles.push(subscribe());
        }
    });
    let reached = check();
    assert_eq!(
        reached, SUBSCRIPTIONS,
        "{library}, {scenario}: every subscription is alive"
    );
    let record = MemoryRecord {
        scenario: scenario.to_owned(),
        library: library.to_owned(),
        subscriptions: SUBSCRIPTIONS,
        heap_bytes_per_subscription: delta.live_bytes as f64 / SUBSCRIPTIONS as f64,
        allocations_per_subscription: delta.allocations as f64 / SUBSCRIPTIONS as f64,
        handle_bytes: size_of::<H>(),
        note: note.map(str::to_owned),
    };
    print_record(&record);
    drop(handles);
    record
}

fn print_record(record: &MemoryRecord) {
    println!(
        "memory: {:<44} {:<7} {:>8.1} heap bytes/subscription, {:>5.2} allocations/subscription, \
         handle {} bytes",
        record.scenario,
        record.library,
        record.heap_bytes_per_subscription,
        record.allocations_per_subscription,
        record.handle_bytes
    );
}

pub fn run() {
    let mut records = Vec::new();
    let local_subject = Some("Local::subject(): single-threaded (Rc<RefCell>)");

    // ---- PublishSubject
    let scenario = "PublishSubject + map + filter + subscribe";
    let local_scenario = "PublishSubject + map + filter + subscribe (single-threaded)";
    {
        let subject = PublishSubject::<i32>::new();
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        records.push(measure(
            scenario,
            "rx",
            None,
            || {
                let r = r.clone();
                subject
                    .observable()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.fetch_add(1, Ordering::Relaxed);
                    })
            },
            || {
                subject.observer().on_next(3);
                reached.load(Ordering::Relaxed)
            },
        ));
    }
    {
        let subject = local::PublishSubject::<i32>::new();
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = reached.clone();
        records.push(measure(
            local_scenario,
            "rx",
            Some("rx::subjects::local::PublishSubject: single-threaded (Rc, Cell)"),
            || {
                let r = r.clone();
                subject
                    .observable()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.set(r.get() + 1);
                    })
            },
            || {
                subject.on_next(3);
                reached.get()
            },
        ));
    }
    {
        let mut subject = Local::subject::<i32, Infallible>();
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(measure(
            local_scenario,
            "rxrust",
            local_subject,
            || {
                let r = r.clone();
                source
                    .clone()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.set(r.get() + 1);
                    })
            },
            || {
                subject.next(3);
                reached.get()
            },
        ));
    }

    {
        let mut subject = Shared::subject::<i32, Infallible>();
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(measure(
            scenario,
            "rxrust",
            Some("Shared::subject(): thread-safe, as rx's is"),
            || {
                let r = r.clone();
                source
                    .clone()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.fetch_add(1, Ordering::Relaxed);
                    })
            },
            || {
                subject.next(3);
                reached.load(Ordering::Relaxed)
            },
        ));
    }

    // ---- BehaviorSubject
    let scenario = "BehaviorSubject + map + filter + subscribe";
    let local_scenario = "BehaviorSubject + map + filter + subscribe (single-threaded)";
    {
        let subject = BehaviorSubject::new(0);
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        records.push(measure(
            scenario,
            "rx",
            None,
            || {
                let r = r.clone();
                subject
                    .observable()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.fetch_add(1, Ordering::Relaxed);
                    })
            },
            || {
                // Each subscription received the current value when it subscribed.
                reached.store(0, Ordering::Relaxed);
                subject.observer().on_next(3);
                reached.load(Ordering::Relaxed)
            },
        ));
    }
    {
        let subject = local::BehaviorSubject::new(0);
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = reached.clone();
        records.push(measure(
            local_scenario,
            "rx",
            Some("rx::subjects::local::BehaviorSubject: single-threaded (Rc, Cell)"),
            || {
                let r = r.clone();
                subject
                    .observable()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.set(r.get() + 1);
                    })
            },
            || {
                reached.set(0);
                subject.on_next(3);
                reached.get()
            },
        ));
    }
    {
        let mut subject = Local::behavior_subject::<i32, Infallible>(0);
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(measure(
            local_scenario,
            "rxrust",
            Some("Local::behavior_subject(): single-threaded (Rc<RefCell>)"),
            || {
                let r = r.clone();
                source
                    .clone()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.set(r.get() + 1);
                    })
            },
            || {
                reached.set(0);
                subject.next(3);
                reached.get()
            },
        ));
    }

    {
        let mut subject = Shared::behavior_subject::<i32, Infallible>(0);
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(measure(
            scenario,
            "rxrust",
            Some("Shared::behavior_subject(): thread-safe, as rx's is"),
            || {
                let r = r.clone();
                source
                    .clone()
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.fetch_add(1, Ordering::Relaxed);
                    })
            },
            || {
                reached.store(0, Ordering::Relaxed);
                subject.next(3);
                reached.load(Ordering::Relaxed)
            },
        ));
    }

    // ---- interval
    let period = Duration::from_secs(1);
    {
        let scheduler = TestScheduler::new();
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        records.push(measure(
            "interval + map + filter + subscribe",
            "rx",
            Some("on the TestScheduler (virtual time)"),
            || {
                let r = r.clone();
                rx::source::interval(period, scheduler.clone())
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.fetch_add(1, Ordering::Relaxed);
                    })
            },
            || {
                scheduler.advance_by(period);
                reached.load(Ordering::Relaxed)
            },
        ));
    }
    records.push(rxrust_interval(period));

    if let Err(e) = write_memory_records(&records) {
        eprintln!("warning: could not write the memory records: {e}");
    }
}

/// rxRust has no public virtual-time scheduler: its intervals run as tokio tasks
/// (`spawn_local` on a `LocalSet`), which is what an application holds.
fn rxrust_interval(period: Duration) -> MemoryRecord {
    use rxrust::scheduler::tokio;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut handles = Vec::with_capacity(SUBSCRIPTIONS);
        let counter = Counter::start();
        for _ in 0..SUBSCRIPTIONS {
            let r = reached.clone();
            handles.push(
                Local::interval(period)
                    .map(|v| v * 2)
                    .filter(|v| v % 3 != 1)
                    .subscribe(move |v| {
                        sink(v);
                        r.set(r.get() + 1);
                    }),
            );
        }
        // The spawned tasks register their timers when first polled: let each run once
        // (they then wait for their first tick), and count that too.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let delta = counter.stop();
        tokio::time::sleep(period + Duration::from_millis(200)).await;
        assert_eq!(
            reached.get(),
            SUBSCRIPTIONS,
            "rxrust, interval: every subscription is alive"
        );
        let record = MemoryRecord {
            scenario: "interval + map + filter + subscribe".to_owned(),
            library: "rxrust".to_owned(),
            subscriptions: SUBSCRIPTIONS,
            heap_bytes_per_subscription: delta.live_bytes as f64 / SUBSCRIPTIONS as f64,
            allocations_per_subscription: delta.allocations as f64 / SUBSCRIPTIONS as f64,
            handle_bytes: handle_size(&handles),
            note: Some(
                "Local::interval: a tokio task per subscription (spawn_local on a LocalSet); \
                 rxRust has no public virtual-time scheduler"
                    .to_owned(),
            ),
        };
        print_record(&record);
        for handle in handles {
            handle.unsubscribe();
        }
        record
    })
}

fn handle_size<H>(_: &[H]) -> usize {
    size_of::<H>()
}
