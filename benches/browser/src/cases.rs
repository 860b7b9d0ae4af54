//! The cases, each the pipeline `page.js` builds with RxJS, written the way rx is written.

use rx::prelude::*;
use rx::schedulers::web::SetTimeout;
use rx::schedulers::{Reschedule, Scheduler, Worker};
use rx::subjects::local::PublishSubject;
use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// (a) `n` values through `map`, `filter` and `scan`; returns the last accumulation.
#[wasm_bindgen]
pub fn map_filter_scan(n: u32) -> f64 {
    let last = Cell::new(0u64);
    rx::source::range(0u32, n as usize)
        .map(|x| x as u64 * 2)
        .filter(|x| x % 3 == 0)
        .scan(0u64, |sum, x| sum + x)
        .subscribe(|v| last.set(black_box(v)));
    last.get() as f64
}

/// (b) `n` values pushed into a subject with `subscribers` subscribers; returns the sum of
/// what they all received.
#[wasm_bindgen]
pub fn subject_fan_out(subscribers: u32, n: u32) -> f64 {
    let subject = PublishSubject::<u32>::new();
    let sum = Rc::new(Cell::new(0u64));
    let subscriptions: Vec<_> = (0..subscribers)
        .map(|_| {
            let sum = sum.clone();
            subject
                .observable()
                .subscribe(move |v: u32| sum.set(sum.get() + v as u64))
        })
        .collect();
    let mut input = subject.observer();
    for v in 0..n {
        input.on_next(black_box(v));
    }
    for subscription in &subscriptions {
        subscription.dispose();
    }
    sum.get() as f64
}

/// (c1) `n` values, each mapped by `flat_map` to an inner observable of two values that is
/// subscribed, runs to its end and is let go; returns the sum of what came out.
#[wasm_bindgen]
pub fn flat_map_churn(n: u32) -> f64 {
    let sum = Cell::new(0u64);
    rx::source::range(0u32, n as usize)
        .flat_map(|x| rx::source::from_iter([x, x + 1]))
        .subscribe(|v| sum.set(sum.get() + black_box(v) as u64));
    sum.get() as f64
}

/// (c2) `n` values pushed into a subject that `switch_map` maps each to the same live
/// subject: each one subscribes to it and disposes the subscription of the one before; a
/// value on the inner subject after each switch reaches the newest subscription only.
/// Returns the sum of what came out.
#[wasm_bindgen]
pub fn switch_map_churn(n: u32) -> f64 {
    let outer = PublishSubject::<u32>::new();
    let inner = PublishSubject::<u32>::new();
    let sum = Rc::new(Cell::new(0u64));
    let inner_source = inner.clone();
    let out = sum.clone();
    let subscription = outer
        .observable()
        .switch_map(move |x| inner_source.observable().map(move |v| v + x))
        .subscribe(move |v| out.set(out.get() + v as u64));
    let (mut outer_input, mut inner_input) = (outer.observer(), inner.observer());
    for x in 0..n {
        outer_input.on_next(black_box(x));
        inner_input.on_next(1);
    }
    subscription.dispose();
    sum.get() as f64
}

/// (d1) `n` one-second `timer`s on [`SetTimeout`], all subscribed, then all disposed;
/// returns how many fired (none should).
#[wasm_bindgen]
pub fn timers_subscribe_dispose(n: u32) -> f64 {
    let fired = Rc::new(Cell::new(0u32));
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let fired = rx::schedulers::web::OnPage(fired.clone());
            rx::source::timer(Duration::from_secs(1), SetTimeout)
                .subscribe(move |_| fired.set(fired.get() + 1))
        })
        .collect();
    for handle in &handles {
        handle.dispose();
    }
    fired.get() as f64
}

/// (d2) `n` tasks due in one second on one [`SetTimeout`] worker, then all cancelled: the
/// scheduler alone, as RxJS's `asyncScheduler.schedule(work, 1000)`. Returns how many ran.
#[wasm_bindgen]
pub fn timers_schedule_cancel(n: u32) -> f64 {
    let ran = Rc::new(Cell::new(0u32));
    let worker = SetTimeout.worker();
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let ran = ran.clone();
            worker.schedule_after(Duration::from_secs(1), move || {
                ran.set(ran.get() + 1);
                Reschedule::Done
            })
        })
        .collect();
    for handle in &handles {
        handle.dispose();
    }
    ran.get() as f64
}
