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
use rx_benches::{Counter, LiveSubscriptions, MemoryRecord, write_memory_records};
use rxrust::prelude::Subscription;
use rxrust::prelude::{Local, Observable as _, ObservableFactory as _, Observer as _, Shared};
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const SUBSCRIPTIONS: usize = 10_000;

/// The scenario `scenario` of `library`, with `SUBSCRIPTIONS` live subscriptions.
fn live<'a>(scenario: &'a str, library: &'a str, note: Option<&'a str>) -> LiveSubscriptions<'a> {
    LiveSubscriptions {
        scenario,
        library,
        note,
        subscriptions: SUBSCRIPTIONS,
    }
}

pub fn run() {
    if !rx_benches::section_selected("memory") {
        return;
    }
    let mut records = Vec::new();
    let local_subject = Some("Local::subject(): single-threaded (Rc<RefCell>)");

    // ---- PublishSubject
    let scenario = "PublishSubject + map + filter + subscribe";
    let local_scenario = "PublishSubject + map + filter + subscribe (single-threaded)";
    {
        let subject = PublishSubject::<i32>::new();
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        records.push(live(scenario, "rx", None).measure(
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
        records.push(
            live(
                local_scenario,
                "rx",
                Some("rx::subjects::local::PublishSubject: single-threaded (Rc, Cell)"),
            )
            .measure(
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
            ),
        );
    }
    {
        let mut subject = Local::subject::<i32, Infallible>();
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(live(local_scenario, "rxrust", local_subject).measure(
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
        records.push(
            live(
                scenario,
                "rxrust",
                Some("Shared::subject(): thread-safe, as rx's is"),
            )
            .measure(
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
            ),
        );
    }

    // ---- BehaviorSubject
    let scenario = "BehaviorSubject + map + filter + subscribe";
    let local_scenario = "BehaviorSubject + map + filter + subscribe (single-threaded)";
    {
        let subject = BehaviorSubject::new(0);
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        records.push(live(scenario, "rx", None).measure(
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
        records.push(
            live(
                local_scenario,
                "rx",
                Some("rx::subjects::local::BehaviorSubject: single-threaded (Rc, Cell)"),
            )
            .measure(
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
            ),
        );
    }
    {
        let mut subject = Local::behavior_subject::<i32, Infallible>(0);
        let reached = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(
            live(
                local_scenario,
                "rxrust",
                Some("Local::behavior_subject(): single-threaded (Rc<RefCell>)"),
            )
            .measure(
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
            ),
        );
    }

    {
        let mut subject = Shared::behavior_subject::<i32, Infallible>(0);
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        let source = subject.clone();
        records.push(
            live(
                scenario,
                "rxrust",
                Some("Shared::behavior_subject(): thread-safe, as rx's is"),
            )
            .measure(
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
            ),
        );
    }

    // ---- interval
    let period = Duration::from_secs(1);
    {
        let scheduler = TestScheduler::new();
        let reached = Arc::new(AtomicUsize::new(0));
        let r = reached.clone();
        records.push(
            live(
                "interval + map + filter + subscribe",
                "rx",
                Some("on the TestScheduler (virtual time)"),
            )
            .measure(
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
            ),
        );
    }
    let reached = std::rc::Rc::new(std::cell::Cell::new(0));
    records.push(rxrust_intervals(
        live(
            "interval + map + filter + subscribe",
            "rxrust",
            Some(
                "Local::interval: a tokio task per subscription (spawn_local on a LocalSet); \
                 rxRust has no public virtual-time scheduler",
            ),
        ),
        period,
        || {
            let r = reached.clone();
            Local::interval(period)
                .map(|v| v * 2)
                .filter(|v| v % 3 != 1)
                .subscribe(move |v| {
                    sink(v);
                    r.set(r.get() + 1);
                })
        },
        || reached.get(),
    ));

    if let Err(e) = write_memory_records(&records) {
        eprintln!("warning: could not write the memory records: {e}");
    }
}

/// Keeps `scenario.subscriptions` rxRust intervals alive (made by `subscribe`, inside a
/// `LocalSet` on a current-thread tokio runtime, where both `Local`'s `spawn_local` and
/// `Shared`'s `spawn` run) and records what they hold. rxRust's intervals are tokio tasks, as
/// an application holds them: it has no public virtual-time scheduler. `reached` says how
/// many ticks arrived, once the first period has passed.
pub(crate) fn rxrust_intervals<H: Subscription>(
    scenario: LiveSubscriptions<'_>,
    period: Duration,
    mut subscribe: impl FnMut() -> H,
    reached: impl FnOnce() -> usize,
) -> MemoryRecord {
    use rxrust::scheduler::tokio;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let mut handles = Vec::with_capacity(scenario.subscriptions);
        let counter = Counter::start();
        for _ in 0..scenario.subscriptions {
            handles.push(subscribe());
        }
        // The spawned tasks register their timers when first polled: let each run once
        // (they then wait for their first tick), and count that too.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let delta = counter.stop();
        tokio::time::sleep(period + Duration::from_millis(200)).await;
        scenario.assert_alive(reached());
        let record = scenario.record(delta, size_of::<H>());
        for handle in handles {
            handle.unsubscribe();
        }
        record
    })
}
