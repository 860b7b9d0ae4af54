//! How a case is declared and run.
//!
//! A case is declared once, with one closure per implementation:
//!
//! ```ignore
//! group
//!     .case("immediate_just+map(v*2)+subscribe")
//!     .hand(|| sink(black_box(1) * 2))
//!     .rx(|| { rx::source::just(black_box(1)).map(|v| v * 2).subscribe(sink); })
//!     .rxrust(|| { Local::of(black_box(1)).map(|v| v * 2).subscribe(sink); })
//!     .missing("futures", "why");
//! ```
//!
//! Each closure is one RPP "op" (build the pipeline, subscribe, run it to its end, tear it
//! down). The methods are generic over the closure, so criterion's timing loop calls it
//! directly and the optimiser sees the whole pipeline, as nanobench's templated lambda does in
//! RPP; a `fn()` pointer would add an indirect call per op and hide the pipeline.
//!
//! An implementation that cannot be written yet is declared with [`Case::missing`] or
//! [`Case::not_applicable`]: it is recorded, and the report lists it. Wiring it in later is
//! replacing that line with a closure.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use rx_benches::{Record, Status};
use std::hint::black_box;

/// The value barrier every case uses on what its observer receives: `black_box`, as RPP uses
/// `doNotOptimizeAway`.
#[inline(always)]
pub fn sink<T>(value: T) {
    black_box(value);
}

/// One RPP group: a criterion benchmark group of the same name.
pub struct Group<'c> {
    name: &'static str,
    group: BenchmarkGroup<'c, WallTime>,
}

impl<'c> Group<'c> {
    pub fn new(criterion: &'c mut Criterion, name: &'static str) -> Self {
        Group {
            name,
            group: criterion.benchmark_group(name),
        }
    }

    /// Starts a case under RPP's exact name.
    pub fn case(&mut self, name: &'static str) -> Case<'_, 'c> {
        Case {
            group: self,
            name,
            note: None,
            allocation_iters: rx_benches::ALLOCATION_ITERS,
        }
    }

    pub fn finish(self) {
        self.group.finish();
    }
}

/// One case of a group; each method measures (or records the absence of) one implementation.
pub struct Case<'g, 'c> {
    group: &'g mut Group<'c>,
    name: &'static str,
    note: Option<&'static str>,
    allocation_iters: u32,
}

impl Case<'_, '_> {
    /// How many ops the allocation count runs, for a slow case.
    pub fn allocation_iters(mut self, iters: u32) -> Self {
        self.allocation_iters = iters;
        self
    }

    /// A note for the next implementation measured: how it differs from RPP's case.
    pub fn note(mut self, note: &'static str) -> Self {
        self.note = Some(note);
        self
    }

    /// The plain Rust that does the same work: the floor.
    pub fn hand(self, op: impl FnMut()) -> Self {
        self.measure("hand-written", op)
    }

    /// This crate.
    pub fn rx(self, op: impl FnMut()) -> Self {
        self.measure("rx", op)
    }

    /// rxRust, written the way its documentation writes it.
    pub fn rxrust(self, op: impl FnMut()) -> Self {
        self.measure("rxrust", op)
    }

    /// rxRust's thread-safe context, `Shared`, where rx's thread-safe state meets rxRust's
    /// single-threaded `Local` (the thread-safe twins of the subject cases): its own column.
    pub fn rxrust_shared(self, op: impl FnMut()) -> Self {
        self.measure("rxrust-shared", op)
    }

    /// A `futures` Stream, where the case maps naturally onto one.
    pub fn futures(self, op: impl FnMut()) -> Self {
        self.measure("futures", op)
    }

    /// The implementation should exist but does not yet (an operator still to be written).
    // Unused while rx has every operator the suite names; kept for the next case added.
    #[allow(dead_code)]
    pub fn missing(self, implementation: &'static str, why: &'static str) -> Self {
        self.record_absent(implementation, Status::Missing, why)
    }

    /// The implementation cannot be written, or has no natural form.
    pub fn not_applicable(self, implementation: &'static str, why: &'static str) -> Self {
        self.record_absent(implementation, Status::NotApplicable, why)
    }

    fn record_absent(mut self, implementation: &'static str, status: Status, why: &str) -> Self {
        self.note = None;
        write(Record {
            group: self.group.name.to_owned(),
            case: self.name.to_owned(),
            implementation: implementation.to_owned(),
            status,
            note: Some(why.to_owned()),
            allocations_per_iter: None,
            bytes_per_iter: None,
            run: rx_benches::run_started(),
        });
        self
    }

    fn measure<F: FnMut()>(mut self, implementation: &'static str, mut op: F) -> Self {
        let note = self.note.take();
        let group = self.group.name;
        let case = self.name;
        let iters = self.allocation_iters;
        let mut counted = false;
        self.group
            .group
            .bench_function(BenchmarkId::new(case, implementation), |b| {
                // Criterion calls this closure for the warm-up and for every sample, and not
                // at all when the case is filtered out: count once, on the first call.
                if !counted {
                    counted = true;
                    // One op first, so one-time initialisation (thread-locals, lazy statics)
                    // is not counted as a per-op cost.
                    op();
                    let ((), delta) = rx_benches::count(|| {
                        for _ in 0..iters {
                            op();
                        }
                    });
                    write(Record {
                        group: group.to_owned(),
                        case: case.to_owned(),
                        implementation: implementation.to_owned(),
                        status: Status::Measured,
                        note: note.map(str::to_owned),
                        allocations_per_iter: Some(delta.allocations as f64 / f64::from(iters)),
                        bytes_per_iter: Some(delta.bytes as f64 / f64::from(iters)),
                        run: rx_benches::run_started(),
                    });
                }
                b.iter(&mut op);
            });
        self
    }
}

fn write(record: Record) {
    if let Err(e) = rx_benches::write_record(&record) {
        eprintln!(
            "warning: could not write the record of {}/{}/{}: {e}",
            record.group, record.case, record.implementation
        );
    }
}
