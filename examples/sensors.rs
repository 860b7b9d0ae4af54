//! Sensors: three producers on a thread pool, merged into one sequence, cut into windows of
//! 100 ms, averaged per sensor and window, and handed to the main thread through a run loop,
//! which prints a line per window.
//!
//! ```text
//! temperature (every 10 ms) ─┐
//! humidity    (every 25 ms) ─┼─ merge ─ buffer_with_time(100 ms) ─ map(average) ─ observe_on(RunLoop) ─ main
//! pressure    (every 40 ms) ─┘
//! ```
//!
//! Run it with `cargo run --release --example sensors`.

use rx::prelude::*;
use rx::schedulers::{RunLoop, ThreadPool};
use rx::source::{interval, merge};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A sensor: how often it reports, and the signal it measures.
struct Sensor {
    name: &'static str,
    unit: &'static str,
    period: Duration,
    base: f64,
    swing: f64,
}

static SENSORS: [Sensor; 3] = [
    Sensor {
        name: "temperature",
        unit: "°C",
        period: Duration::from_millis(10),
        base: 21.0,
        swing: 1.5,
    },
    Sensor {
        name: "humidity",
        unit: "%",
        period: Duration::from_millis(25),
        base: 40.0,
        swing: 5.0,
    },
    Sensor {
        name: "pressure",
        unit: "hPa",
        period: Duration::from_millis(40),
        base: 1013.0,
        swing: 2.0,
    },
];

const WINDOW: Duration = Duration::from_millis(100);
const WINDOWS: usize = 5;

impl Sensor {
    /// The value at the sensor's `tick`-th report: a slow wave around its base value.
    fn value_at(&self, tick: u64) -> f64 {
        let elapsed = self.period.as_secs_f64() * tick as f64;
        self.base + self.swing * (elapsed * 4.0).sin()
    }
}

/// The average and number of readings of each sensor in one window.
fn summarise(window: Vec<(usize, f64)>) -> [(f64, usize); 3] {
    let mut sums = [(0.0, 0); 3];
    for (sensor, value) in window {
        sums[sensor].0 += value;
        sums[sensor].1 += 1;
    }
    sums.map(|(sum, count)| {
        (
            if count == 0 {
                f64::NAN
            } else {
                sum / count as f64
            },
            count,
        )
    })
}

fn main() {
    let pool = ThreadPool::new(3);
    let run_loop = RunLoop::new();
    let main_thread = std::thread::current().id();
    let done = Arc::new(AtomicBool::new(false));

    // One producer a sensor, each on its own worker of the pool; a reading is the sensor's
    // index and its value.
    let readings = merge(SENSORS.iter().enumerate().map(|(index, sensor)| {
        interval(sensor.period, pool.clone()).map(move |tick| (index, sensor.value_at(tick)))
    }));

    let mut window = 0;
    let finished = done.clone();
    let _subscription = readings
        .buffer_with_time(WINDOW, pool.clone())
        .take(WINDOWS)
        .map(summarise)
        .observe_on(run_loop.clone())
        .subscribe_with(
            move |summary| {
                // `observe_on(run_loop)` delivers here, on the thread calling `dispatch`.
                assert_eq!(std::thread::current().id(), main_thread);
                window += 1;
                let line: Vec<String> = SENSORS
                    .iter()
                    .zip(summary)
                    .map(|(sensor, (average, count))| {
                        format!("{} {average:.1} {} ({count})", sensor.name, sensor.unit)
                    })
                    .collect();
                println!("window {window}: {}", line.join(" | "));
            },
            |error| panic!("the sensors do not fail: {error}"),
            move || finished.store(true, Ordering::Release),
        );

    // The main loop: run what the pipeline hands over, until it completes.
    while !done.load(Ordering::Acquire) {
        run_loop.dispatch();
    }
    println!("{WINDOWS} windows of {} ms", WINDOW.as_millis());
}
