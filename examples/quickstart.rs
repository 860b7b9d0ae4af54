//! A first tour of rx: sources, operators, errors, time and subjects.
//!
//! Run it with `cargo run --release --example quickstart`.

use rx::prelude::*;
use rx::schedulers::NewThread;
use rx::source::{from_iter, interval, just, range};
use rx::subjects::PublishSubject;
use std::time::Duration;

fn main() {
    // A synchronous pipeline runs inside `subscribe`, like an iterator chain.
    range(1, 10)
        .filter(|v| v % 2 == 1)
        .map(|v| v * v)
        .subscribe(|v| println!("odd square: {v}"));

    // Aggregates emit once, when the source completes. Closures may borrow locals.
    let words = ["observable", "observer", "scheduler"];
    let mut total = 0;
    from_iter(words)
        .map(str::len)
        .reduce(0, |sum, len| sum + len)
        .subscribe(|sum| total = sum);
    println!("total length: {total}");

    // Errors travel as `rx::Error` and can be handled downstream.
    from_iter(["1", "2", "three", "4"])
        .try_map(str::parse::<i32>)
        .on_error_return(|error| {
            println!("parse failed: {error}");
            -1
        })
        .subscribe(|v| println!("parsed: {v}"));

    // Time: an interval on its own thread, three ticks, collected by blocking on the result.
    let ticks: Vec<u64> = interval(Duration::from_millis(20), NewThread)
        .take(3)
        .map(|tick| tick * 10)
        .as_blocking()
        .into_iter()
        .map(|v| v.expect("interval does not fail"))
        .collect();
    println!("ticks: {ticks:?}");

    // Subjects multicast: every subscriber sees the values pushed after it subscribed.
    let subject = PublishSubject::new();
    subject
        .observable()
        .subscribe(|v: i32| println!("first subscriber: {v}"));
    subject
        .observable()
        .filter(|v| v % 2 == 0)
        .subscribe(|v| println!("second subscriber (even only): {v}"));
    let mut input = subject.observer();
    for v in 1..=4 {
        input.on_next(v);
    }
    input.on_completed();

    just("done").subscribe(|v| println!("{v}"));
}
