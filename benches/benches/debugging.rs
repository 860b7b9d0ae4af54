//! The group `Debugging`: what a `spy` costs on a hot synchronous chain, on and off, in one
//! run. The chain is 1,000 values through `map` and `filter`; the rows put a spied point in
//! the middle of it:
//!
//! - `no spy`: the chain alone, the floor;
//! - `spy, no subscriber`: `spy` with the `tracing` feature and no subscriber installed, the
//!   state of a program that does not log: each report checks the callsite's interest;
//! - `spy, subscriber off`: a subscriber installed that wants nothing at TRACE or DEBUG;
//! - `spy, subscriber on`: a subscriber that wants every event and drops it, so the fields
//!   (thread, time, counts, the value's `Debug`) are all computed;
//! - `spy_with, no-op closure`: the closure flavour, counting and calling a closure that
//!   does nothing.
//!
//! Without the `tracing` feature `spy` is its source, so its cost is the first row's.
//! Not part of the report's table (its rows are RPP's cases): criterion prints the figures.

use crate::harness::sink;
use criterion::{BenchmarkId, Criterion, Throughput};
use rx::prelude::*;
use rx::source::from_iter;
use std::hint::black_box;
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

const ITEMS: u64 = 1_000;

/// A subscriber that wants events up to `level` and drops them.
struct Discard {
    level: tracing::Level,
}

impl Subscriber for Discard {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= self.level
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        // Visit the fields, as a real subscriber would, so that they are computed.
        struct Touch;
        impl tracing::field::Visit for Touch {
            fn record_debug(&mut self, _: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                black_box(format!("{value:?}"));
            }
        }
        event.record(&mut Touch);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn plain() {
    from_iter(0..black_box(ITEMS))
        .map(|v| v * 2)
        .filter(|v| v % 3 != 0)
        .subscribe(sink);
}

fn spied() {
    from_iter(0..black_box(ITEMS))
        .map(|v| v * 2)
        .spy("doubled")
        .filter(|v| v % 3 != 0)
        .subscribe(sink);
}

fn spied_with() {
    from_iter(0..black_box(ITEMS))
        .map(|v| v * 2)
        .spy_with("doubled", |event| {
            black_box(event);
        })
        .filter(|v| v % 3 != 0)
        .subscribe(sink);
}

pub fn debugging(c: &mut Criterion) {
    let mut group = c.benchmark_group("Debugging");
    group.throughput(Throughput::Elements(ITEMS));
    let case = "from_iter(0..1000)+map+spy+filter+subscribe";
    group.bench_function(BenchmarkId::new(case, "no spy"), |b| b.iter(plain));
    group.bench_function(BenchmarkId::new(case, "spy, no subscriber"), |b| {
        b.iter(spied)
    });
    let off = Discard {
        level: tracing::Level::INFO,
    };
    tracing::subscriber::with_default(off, || {
        group.bench_function(BenchmarkId::new(case, "spy, subscriber off"), |b| {
            b.iter(spied)
        });
    });
    let on = Discard {
        level: tracing::Level::TRACE,
    };
    tracing::subscriber::with_default(on, || {
        group.bench_function(BenchmarkId::new(case, "spy, subscriber on"), |b| {
            b.iter(spied)
        });
    });
    group.bench_function(BenchmarkId::new(case, "spy_with, no-op closure"), |b| {
        b.iter(spied_with)
    });
    group.finish();
}
