//! The benchmark suite of ReactivePlusPlus v2, case by case and under RPP's names, for rx,
//! rxRust, `futures` and hand-written Rust, in one run.
//!
//! Each case is one op as RPP's suite defines it: build the pipeline,
//! subscribe, run it to its end and tear it down, with `std::hint::black_box` on the inputs
//! and on every value the observer receives. After the criterion groups, the memory held by
//! 10,000 live subscriptions is measured. `cargo run -p rx-benches --bin report` then writes
//! `benches/REPORT.md` and `benches/chart.svg`.
//!
//! A full run: `cargo bench -p rx-benches`. One group, or one case:
//! `cargo bench -p rx-benches -- 'Filtering Operators'`.

mod boundaries;
mod debugging;
mod harness;
mod memory;
mod operators;
mod peers;
mod scaling;
mod sources;
mod subjects;
mod timers;

use criterion::Criterion;
use rx_benches::CountingAlloc;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

fn main() {
    // The timer benchmarks measure each implementation in a process of their own.
    if let Ok(implementation) = std::env::var(timers::ONE) {
        timers::run_one(&implementation);
        return;
    }
    // Short times, so the whole suite runs in a few minutes on two cores; criterion's
    // statistics still apply. The report reads the median.
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(rx_benches::WARM_UP_MS))
        .measurement_time(Duration::from_millis(rx_benches::MEASUREMENT_MS))
        .sample_size(rx_benches::SAMPLES)
        .nresamples(10_000)
        .configure_from_args();
    // Where the report generator looks, however the binary is started.
    if let Ok(dir) = rx_benches::criterion_dir() {
        criterion = criterion.output_directory(&dir);
    }

    sources::general(&mut criterion);
    sources::sources(&mut criterion);
    sources::schedulers(&mut criterion);
    operators::combining(&mut criterion);
    operators::conditional(&mut criterion);
    operators::transforming(&mut criterion);
    operators::filtering(&mut criterion);
    operators::utility(&mut criterion);
    operators::aggregating(&mut criterion);
    operators::error_handling(&mut criterion);
    subjects::subjects(&mut criterion);
    subjects::scenarios(&mut criterion);
    scaling::scaling(&mut criterion);
    boundaries::boundaries(&mut criterion);
    debugging::debugging(&mut criterion);

    criterion.final_summary();

    memory::run();
    timers::run();
}
