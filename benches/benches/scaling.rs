//! Scaling: the cost of one unit of work against N, for rx beside rxRust (`Local` and
//! `Shared`), so that a cost which grows with N shows as a curve that is not flat.
//!
//! - **Subject fan-out**: one `on_next` to a PublishSubject with N = 1 … 10,000 subscribers;
//!   the unit is one notification to one subscriber. The subscribers are made in one loop, so
//!   they are one closure type, which rx calls a run at a time, directly (their handles are
//!   dropped, so no disposal is looked for between two of them).
//! - **flat_map with N live inners**: N inner subjects, all subscribed through one `flat_map`
//!   and never completed; one op feeds each inner one value; the unit is one item. The inners
//!   are rx's thread-safe subjects, and in a second rx line its single-threaded ones
//!   (`subjects::local`), the twin of rxRust's `Local`.
//! - **group_by into N groups**: 100,000 items from `from_iter` into N = 10 … 100,000 groups,
//!   each group subscribed as it opens; the unit is one item (with N = 100,000 every item
//!   opens a group).
//! - **group_by into N live groups**: a subject's items routed into N groups opened before the
//!   op; one op is 1,000 items, to the keys in turn. Over a thread-safe subject and over a
//!   single-threaded one (`rx local`), as the groups take their flavour from the source.
//! - **Memory per live subscription**: 10,000 live subscriptions each, through `merge_with`,
//!   `zip`, a subject and `interval`, as `memory.rs` measures (the counting allocator's
//!   live-bytes delta divided by 10,000).
//!
//! Criterion times each point (group `Scaling`, shorter settings than the suite's: the group
//! must run in well under two minutes); the bench writes a record per point beside it (what
//! one op is worth in units, and the allocations per unit), one file per point under
//! `<target>/criterion/rx-bench/scaling/`, and the memory figures to
//! `<target>/criterion/rx-bench/scaling-memory.json`. The report generator reads both.

use crate::harness::sink;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::source::{from_iter, interval};
use rx::subjects::{PublishSubject, local};
use rx_benches::{LiveSubscriptions, ScalingPoint, count};
use rxrust::prelude::{Local, Observable as _, ObservableFactory as _, Observer as _, Shared};
use std::cell::Cell;
use std::convert::Infallible;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const GROUP: &str = "Scaling";
const SUBSCRIBERS: [usize; 5] = [1, 10, 100, 1_000, 10_000];
const INNERS: [usize; 3] = [1, 100, 10_000];
const GROUPS: [usize; 3] = [10, 1_000, 100_000];
/// Items per op of the `group_by into N groups` curve.
const GROUPED_ITEMS: usize = 100_000;
/// Items per op of the `group_by into N live groups` curve.
const LIVE_GROUP_ITEMS: usize = 1_000;
/// Live subscriptions per memory scenario.
const SUBSCRIPTIONS: usize = 10_000;

type NoError = Infallible;

/// A subscriber that captures a value, as real subscribers do, so it is not zero-sized.
fn subscriber(k: i32) -> impl FnMut(i32) + Clone + Send + 'static {
    move |v| sink(v ^ k)
}

/// The implementations, as criterion's parameter and the report's column.
struct Implementation {
    id: &'static str,
    label: &'static str,
    note: Option<&'static str>,
}

const HAND: Implementation = Implementation {
    id: "hand-written",
    label: "hand-written",
    note: Some("a Vec<Box<dyn FnMut(i32)>>, called in turn"),
};
const RX: Implementation = Implementation {
    id: "rx",
    label: "rx",
    note: Some("thread-safe (rx::subjects::PublishSubject)"),
};
const RX_LOCAL: Implementation = Implementation {
    id: "rx-local",
    label: "rx local",
    note: Some("single-threaded (rx::subjects::local::PublishSubject)"),
};
const RXRUST: Implementation = Implementation {
    id: "rxrust",
    label: "rxrust",
    note: Some("Local: single-threaded (Rc<RefCell>)"),
};
const RXRUST_SHARED: Implementation = Implementation {
    id: "rxrust-shared",
    label: "rxrust Shared",
    note: Some("Shared: thread-safe"),
};

struct Curve<'g, 'c> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    order: usize,
    name: &'static str,
    unit: &'static str,
}

impl Curve<'_, '_> {
    /// Times `op`, which does `units` units of work, and records the point.
    fn point(
        &mut self,
        n: usize,
        units: usize,
        implementation: &Implementation,
        mut op: impl FnMut(),
    ) {
        let case = format!("{} - N={n}", self.name);
        let (curve, unit, order) = (self.name, self.unit, self.order);
        let (id, label, note) = (implementation.id, implementation.label, implementation.note);
        let mut counted = false;
        self.group
            .bench_function(BenchmarkId::new(case.clone(), id), |b| {
                // Criterion calls this for the warm-up and every sample, and not at all when
                // the point is filtered out: count once, on the first call.
                if !counted {
                    counted = true;
                    op();
                    let iters = (100_000 / units).clamp(1, 100);
                    let ((), delta) = count(|| {
                        for _ in 0..iters {
                            op();
                        }
                    });
                    write_point(&ScalingPoint {
                        curve: curve.to_owned(),
                        order,
                        unit: unit.to_owned(),
                        n,
                        implementation: id.to_owned(),
                        label: label.to_owned(),
                        case: case.clone(),
                        units_per_op: units as f64,
                        allocations_per_unit: delta.allocations as f64 / (iters * units) as f64,
                        note: note.map(str::to_owned),
                        run: rx_benches::run_started(),
                    });
                }
                b.iter(&mut op);
            });
    }
}

fn write_point(point: &ScalingPoint) {
    let result = (|| -> std::io::Result<()> {
        let dir = rx_benches::records_dir()?.join("scaling");
        std::fs::create_dir_all(&dir)?;
        let file = dir.join(format!(
            "{}.{}.json",
            rx_benches::slug(&point.case),
            point.implementation
        ));
        std::fs::write(file, serde_json::to_vec_pretty(point)?)
    })();
    if let Err(e) = result {
        eprintln!("warning: could not write the record of {}: {e}", point.case);
    }
}

pub fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group(GROUP);
    // Flat sampling: the dearest ops take tens of ms, and criterion's linear sampling would
    // run them 55 times; ten samples of the same iteration count are enough for a median.
    group
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_millis(300))
        .sample_size(10);
    subject_fan_out(&mut group);
    flat_map_inners(&mut group);
    group_by_groups(&mut group);
    group_by_live_groups(&mut group);
    group.finish();
    if wanted() {
        memory();
    }
}

/// Whether the command line's filter (if any) names this group; the memory figures are not
/// criterion benchmarks, so criterion cannot filter them.
fn wanted() -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| f.contains(GROUP))
}

fn subject_fan_out(group: &mut BenchmarkGroup<'_, WallTime>) {
    let mut curve = Curve {
        group,
        order: 0,
        name: "PublishSubject on_next",
        unit: "notification per subscriber",
    };
    for n in SUBSCRIBERS {
        let mut hand: Vec<Box<dyn FnMut(i32)>> = (0..n as i32)
            .map(|k| Box::new(subscriber(k)) as Box<dyn FnMut(i32)>)
            .collect();
        curve.point(n, n, &HAND, || {
            for observer in &mut hand {
                observer(black_box(1));
            }
        });

        let subject = PublishSubject::<i32>::new();
        let local = local::PublishSubject::<i32>::new();
        let mut rxrust = Local::subject::<i32, NoError>();
        let mut shared = Shared::subject::<i32, NoError>();
        for k in 0..n as i32 {
            subject.observable().subscribe(subscriber(k));
            local.observable().subscribe(subscriber(k));
            rxrust.clone().subscribe(subscriber(k));
            shared.clone().subscribe(subscriber(k));
        }
        curve.point(n, n, &RX, || subject.on_next(black_box(1)));
        curve.point(n, n, &RX_LOCAL, || local.on_next(black_box(1)));
        curve.point(n, n, &RXRUST, || rxrust.next(black_box(1)));
        curve.point(n, n, &RXRUST_SHARED, || shared.next(black_box(1)));
    }
}

fn flat_map_inners(group: &mut BenchmarkGroup<'_, WallTime>) {
    let mut curve = Curve {
        group,
        order: 1,
        name: "flat_map with N live inners",
        unit: "item",
    };
    const INNERS_ALONE: Implementation = Implementation {
        id: "rx-inners-alone",
        label: "rx inners alone",
        note: Some(
            "the same N thread-safe subjects fed the same way, each with its subscriber \
             directly: what the inners cost without flat_map",
        ),
    };
    const RX_FLAT: Implementation = Implementation {
        id: "rx",
        label: "rx",
        note: Some("inners are rx::subjects::PublishSubject (thread-safe)"),
    };
    const RX_LOCAL_FLAT: Implementation = Implementation {
        id: "rx-local",
        label: "rx local",
        note: Some("inners are rx::subjects::local::PublishSubject (single-threaded)"),
    };
    const RXRUST_FLAT: Implementation = Implementation {
        id: "rxrust",
        label: "rxrust",
        note: Some("inners are Local::subject()"),
    };
    const RXRUST_SHARED_FLAT: Implementation = Implementation {
        id: "rxrust-shared",
        label: "rxrust Shared",
        note: Some("inners are Shared::subject()"),
    };
    for n in INNERS {
        let alone: Vec<PublishSubject<i32>> = (0..n).map(|_| PublishSubject::new()).collect();
        for s in &alone {
            s.observable().subscribe(subscriber(0));
        }
        curve.point(n, n, &INNERS_ALONE, || {
            for (i, s) in alone.iter().enumerate() {
                s.on_next(black_box(i as i32));
            }
        });
        drop(alone);

        let inners: Vec<PublishSubject<i32>> = (0..n).map(|_| PublishSubject::new()).collect();
        let outer: Vec<_> = inners.iter().map(|s| s.observable()).collect();
        from_iter(outer).flat_map(|o| o).subscribe(subscriber(0));
        curve.point(n, n, &RX_FLAT, || {
            for (i, s) in inners.iter().enumerate() {
                s.on_next(black_box(i as i32));
            }
        });
        drop(inners);

        let inners: Vec<local::PublishSubject<i32>> =
            (0..n).map(|_| local::PublishSubject::new()).collect();
        let outer: Vec<_> = inners.iter().map(|s| s.observable()).collect();
        from_iter(outer).flat_map(|o| o).subscribe(subscriber(0));
        curve.point(n, n, &RX_LOCAL_FLAT, || {
            for (i, s) in inners.iter().enumerate() {
                s.on_next(black_box(i as i32));
            }
        });
        drop(inners);

        let mut inners: Vec<_> = (0..n).map(|_| Local::subject::<i32, NoError>()).collect();
        Local::from_iter(inners.clone())
            .flat_map(|s| s)
            .subscribe(subscriber(0));
        curve.point(n, n, &RXRUST_FLAT, || {
            for (i, s) in inners.iter_mut().enumerate() {
                s.next(black_box(i as i32));
            }
        });
        drop(inners);

        let mut inners: Vec<_> = (0..n).map(|_| Shared::subject::<i32, NoError>()).collect();
        Shared::from_iter(inners.clone())
            .flat_map(|s| s)
            .subscribe(subscriber(0));
        curve.point(n, n, &RXRUST_SHARED_FLAT, || {
            for (i, s) in inners.iter_mut().enumerate() {
                s.next(black_box(i as i32));
            }
        });
    }
}

fn group_by_groups(group: &mut BenchmarkGroup<'_, WallTime>) {
    let mut curve = Curve {
        group,
        order: 2,
        name: "group_by into N groups",
        unit: "item",
    };
    const RX_GROUPS: Implementation = Implementation {
        id: "rx",
        label: "rx",
        note: Some("from_iter(0..100000).group_by(|v| v % N), each group subscribed as it opens"),
    };
    const RXRUST_GROUPS: Implementation = Implementation {
        id: "rxrust",
        label: "rxrust",
        note: Some("Local::from_iter(..).group_by(..)"),
    };
    const RXRUST_SHARED_GROUPS: Implementation = Implementation {
        id: "rxrust-shared",
        label: "rxrust Shared",
        note: Some("Shared::from_iter(..).group_by(..)"),
    };
    let items = GROUPED_ITEMS as i32;
    for n in GROUPS {
        let groups = n as i32;
        curve.point(n, GROUPED_ITEMS, &RX_GROUPS, || {
            from_iter(0..black_box(items))
                .group_by(move |v| v % groups)
                .subscribe(|group| {
                    group.subscribe(subscriber(0));
                });
        });
        curve.point(n, GROUPED_ITEMS, &RXRUST_GROUPS, || {
            Local::from_iter(0..black_box(items))
                .group_by(move |v| v % groups)
                .subscribe(|group| {
                    group.subscribe(subscriber(0));
                });
        });
        curve.point(n, GROUPED_ITEMS, &RXRUST_SHARED_GROUPS, || {
            Shared::from_iter(0..black_box(items))
                .group_by(move |v| v % groups)
                .subscribe(|group| {
                    group.subscribe(subscriber(0));
                });
        });
    }
}

fn group_by_live_groups(group: &mut BenchmarkGroup<'_, WallTime>) {
    let mut curve = Curve {
        group,
        order: 3,
        name: "group_by into N live groups",
        unit: "item",
    };
    const RX_LIVE: Implementation = Implementation {
        id: "rx",
        label: "rx",
        note: Some(
            "a thread-safe PublishSubject's items, group_by(|v| v % N), the N groups opened \
             and subscribed before the op",
        ),
    };
    const RX_LOCAL_LIVE: Implementation = Implementation {
        id: "rx-local",
        label: "rx local",
        note: Some("the same over a single-threaded rx::subjects::local::PublishSubject"),
    };
    const RXRUST_LIVE: Implementation = Implementation {
        id: "rxrust",
        label: "rxrust",
        note: Some("Local::subject()"),
    };
    const RXRUST_SHARED_LIVE: Implementation = Implementation {
        id: "rxrust-shared",
        label: "rxrust Shared",
        note: Some("Shared::subject()"),
    };
    for n in GROUPS {
        let groups = n as i32;
        // The keys in turn, carried on from op to op, so every group receives in time.
        let mut key = 0;
        let mut next_key = move || {
            key = (key + 1) % groups;
            key
        };

        // Four subjects with one shape of API and no trait in common: one body for all.
        // `$observable` makes what the groups are cut from, `$emit` feeds the subject.
        macro_rules! live_groups {
            ($subject:expr, $observable:ident, $emit:ident, $implementation:expr) => {{
                // rxRust's subjects emit through `&mut self`, rx's through `&self`.
                #[allow(unused_mut)]
                let mut subject = $subject;
                subject
                    .$observable()
                    .group_by(move |v| v % groups)
                    .subscribe(|group| {
                        group.subscribe(subscriber(0));
                    });
                for k in 0..groups {
                    subject.$emit(k);
                }
                curve.point(n, LIVE_GROUP_ITEMS, $implementation, || {
                    for _ in 0..LIVE_GROUP_ITEMS {
                        subject.$emit(black_box(next_key()));
                    }
                });
            }};
        }
        live_groups!(PublishSubject::<i32>::new(), observable, on_next, &RX_LIVE);
        live_groups!(
            local::PublishSubject::<i32>::new(),
            observable,
            on_next,
            &RX_LOCAL_LIVE
        );
        live_groups!(Local::subject::<i32, NoError>(), clone, next, &RXRUST_LIVE);
        live_groups!(
            Shared::subject::<i32, NoError>(),
            clone,
            next,
            &RXRUST_SHARED_LIVE
        );
    }
}

// ---------------------------------------------------------------- memory

/// The scenario `scenario` of `library`, with `SUBSCRIPTIONS` live subscriptions.
fn live<'a>(scenario: &'a str, library: &'a str, note: &'a str) -> LiveSubscriptions<'a> {
    LiveSubscriptions {
        scenario,
        library,
        note: Some(note),
        subscriptions: SUBSCRIPTIONS,
    }
}

/// A subscriber that counts what it receives, thread-safe or not.
fn counting<T>(reached: &Arc<AtomicUsize>) -> impl FnMut(T) + Clone + Send + 'static {
    let reached = reached.clone();
    move |v| {
        sink(v);
        reached.fetch_add(1, Ordering::Relaxed);
    }
}

fn counting_local<T>(reached: &Rc<Cell<usize>>) -> impl FnMut(T) + Clone + 'static {
    let reached = reached.clone();
    move |v| {
        sink(v);
        reached.set(reached.get() + 1);
    }
}

fn memory() {
    let mut records = Vec::new();

    // ---- a subject
    let scenario = "PublishSubject + subscribe";
    {
        let subject = PublishSubject::<i32>::new();
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(scenario, "rx", "rx::subjects::PublishSubject: thread-safe").measure(
                || subject.observable().subscribe(counting(&reached)),
                || {
                    subject.on_next(1);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }
    {
        let subject = local::PublishSubject::<i32>::new();
        let reached = Rc::new(Cell::new(0));
        records.push(
            live(
                scenario,
                "rx local",
                "rx::subjects::local::PublishSubject: single-threaded",
            )
            .measure(
                || subject.observable().subscribe(counting_local(&reached)),
                || {
                    subject.on_next(1);
                    reached.get()
                },
            ),
        );
    }
    {
        let mut subject = Local::subject::<i32, NoError>();
        let source = subject.clone();
        let reached = Rc::new(Cell::new(0));
        records.push(
            live(scenario, "rxrust", "Local::subject(): single-threaded").measure(
                || source.clone().subscribe(counting_local(&reached)),
                || {
                    subject.next(1);
                    reached.get()
                },
            ),
        );
    }
    {
        let mut subject = Shared::subject::<i32, NoError>();
        let source = subject.clone();
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(scenario, "rxrust Shared", "Shared::subject(): thread-safe").measure(
                || source.clone().subscribe(counting(&reached)),
                || {
                    subject.next(1);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }

    // ---- merge of two subjects
    let scenario = "merge_with of two subjects + subscribe";
    {
        let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(
                scenario,
                "rx",
                "two thread-safe PublishSubjects, a.merge_with(b): includes both subjects' entries",
            )
            .measure(
                || {
                    a.observable()
                        .merge_with(b.observable())
                        .subscribe(counting(&reached))
                },
                || {
                    a.on_next(1);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }
    {
        let (a, b) = (
            local::PublishSubject::<i32>::new(),
            local::PublishSubject::<i32>::new(),
        );
        let reached = Rc::new(Cell::new(0));
        records.push(
            live(
                scenario,
                "rx local",
                "two rx::subjects::local::PublishSubjects, a.merge_with(b): includes both \
                 subjects' entries",
            )
            .measure(
                || {
                    a.observable()
                        .merge_with(b.observable())
                        .subscribe(counting_local(&reached))
                },
                || {
                    a.on_next(1);
                    reached.get()
                },
            ),
        );
    }
    {
        let (mut a, b) = (
            Local::subject::<i32, NoError>(),
            Local::subject::<i32, NoError>(),
        );
        let source = a.clone();
        let reached = Rc::new(Cell::new(0));
        records.push(
            live(scenario, "rxrust", "two Local::subject(), a.merge(b)").measure(
                || {
                    source
                        .clone()
                        .merge(b.clone())
                        .subscribe(counting_local(&reached))
                },
                || {
                    a.next(1);
                    reached.get()
                },
            ),
        );
    }
    {
        let (mut a, b) = (
            Shared::subject::<i32, NoError>(),
            Shared::subject::<i32, NoError>(),
        );
        let source = a.clone();
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(
                scenario,
                "rxrust Shared",
                "two Shared::subject(), a.merge(b)",
            )
            .measure(
                || {
                    source
                        .clone()
                        .merge(b.clone())
                        .subscribe(counting(&reached))
                },
                || {
                    a.next(1);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }

    // ---- zip of two subjects
    let scenario = "zip of two subjects + subscribe";
    {
        let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(
                scenario,
                "rx",
                "two thread-safe PublishSubjects, a.zip(b): includes both subjects' entries",
            )
            .measure(
                || {
                    let reached = reached.clone();
                    a.observable().zip(b.observable()).subscribe(move |(x, y)| {
                        sink(x + y);
                        reached.fetch_add(1, Ordering::Relaxed);
                    })
                },
                || {
                    a.on_next(1);
                    b.on_next(2);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }
    {
        let (a, b) = (
            local::PublishSubject::<i32>::new(),
            local::PublishSubject::<i32>::new(),
        );
        let reached = Rc::new(Cell::new(0));
        records.push(
            live(
                scenario,
                "rx local",
                "two rx::subjects::local::PublishSubjects, a.zip(b): includes both subjects' \
                 entries",
            )
            .measure(
                || {
                    let reached = reached.clone();
                    a.observable().zip(b.observable()).subscribe(move |(x, y)| {
                        sink(x + y);
                        reached.set(reached.get() + 1);
                    })
                },
                || {
                    a.on_next(1);
                    b.on_next(2);
                    reached.get()
                },
            ),
        );
    }
    {
        let (mut a, mut b) = (
            Local::subject::<i32, NoError>(),
            Local::subject::<i32, NoError>(),
        );
        let (sa, sb) = (a.clone(), b.clone());
        let reached = Rc::new(Cell::new(0));
        records.push(
            live(scenario, "rxrust", "two Local::subject(), a.zip(b)").measure(
                || {
                    let reached = reached.clone();
                    sa.clone().zip(sb.clone()).subscribe(move |(x, y)| {
                        sink(x + y);
                        reached.set(reached.get() + 1);
                    })
                },
                || {
                    a.next(1);
                    b.next(2);
                    reached.get()
                },
            ),
        );
    }
    {
        let (mut a, mut b) = (
            Shared::subject::<i32, NoError>(),
            Shared::subject::<i32, NoError>(),
        );
        let (sa, sb) = (a.clone(), b.clone());
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(scenario, "rxrust Shared", "two Shared::subject(), a.zip(b)").measure(
                || {
                    let reached = reached.clone();
                    sa.clone().zip(sb.clone()).subscribe(move |(x, y)| {
                        sink(x + y);
                        reached.fetch_add(1, Ordering::Relaxed);
                    })
                },
                || {
                    a.next(1);
                    b.next(2);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }

    // ---- interval
    let scenario = "interval + subscribe";
    let period = Duration::from_secs(1);
    {
        let scheduler = TestScheduler::new();
        let reached = Arc::new(AtomicUsize::new(0));
        records.push(
            live(scenario, "rx", "on the TestScheduler (virtual time)").measure(
                || interval(period, scheduler.clone()).subscribe(counting(&reached)),
                || {
                    scheduler.advance_by(period);
                    reached.load(Ordering::Relaxed)
                },
            ),
        );
    }
    let reached = Rc::new(Cell::new(0));
    records.push(crate::memory::rxrust_intervals(
        live(
            scenario,
            "rxrust",
            "Local::interval: a tokio task per subscription (spawn_local on a LocalSet)",
        ),
        period,
        || Local::interval(period).subscribe(counting_local(&reached)),
        || reached.get(),
    ));
    let reached = Arc::new(AtomicUsize::new(0));
    records.push(crate::memory::rxrust_intervals(
        live(
            scenario,
            "rxrust Shared",
            "Shared::interval: a tokio task per subscription (spawn)",
        ),
        period,
        || Shared::interval(period).subscribe(counting(&reached)),
        || reached.load(Ordering::Relaxed),
    ));

    let result = (|| -> std::io::Result<()> {
        let dir = rx_benches::records_dir()?;
        std::fs::create_dir_all(&dir)?;
        std::fs::write(
            dir.join("scaling-memory.json"),
            serde_json::to_vec_pretty(&records)?,
        )
    })();
    if let Err(e) = result {
        eprintln!("warning: could not write the scaling memory records: {e}");
    }
}
