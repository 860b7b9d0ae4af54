//! A first tour of rx: sources, operators, errors, time, subjects, threads and timers.
//!
//! Run it with `cargo run --release --example quickstart`.

use rx::prelude::*;
use rx::schedulers::{NewThread, ThreadPool};
use rx::source::{from_iter, interval, just, never, range, timer};
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

    // Threads: `subscribe_on` runs each producer on a pool thread; `merge_with` serialises
    // them into one sequence; `as_blocking` waits for it on this thread.
    let pool = ThreadPool::new(2);
    let main_thread = std::thread::current().id();
    let evens = range(0, 5).map(|v| v * 2).subscribe_on(pool.clone());
    let odds = range(0, 5).map(|v| v * 2 + 1).subscribe_on(pool.clone());
    let mut merged: Vec<(i32, bool)> = evens
        .merge_with(odds)
        .map(move |v| (v, std::thread::current().id() != main_thread))
        .as_blocking()
        .into_iter()
        .map(|v| v.expect("no producer fails"))
        .collect();
    // The two threads interleave differently on every run; sort for a stable printout.
    merged.sort();
    let values: Vec<i32> = merged.iter().map(|(v, _)| *v).collect();
    let off_main = merged.iter().all(|(_, elsewhere)| *elsewhere);
    println!("merged from two threads: {values:?} (all off the main thread: {off_main})");

    // Timers: `timer` emits once after a delay; `timeout` turns silence into an error.
    let started = std::time::Instant::now();
    timer(Duration::from_millis(30), NewThread)
        .as_blocking()
        .subscribe(|_| {})
        .expect("a timer does not fail");
    let waited = started.elapsed() >= Duration::from_millis(30);
    println!("timer fired after at least 30 ms: {waited}");
    let outcome = never::<i32>()
        .timeout(Duration::from_millis(20), NewThread)
        .as_blocking()
        .subscribe(|_| {});
    match outcome {
        Ok(()) => println!("no timeout"),
        Err(error) => println!("timeout: {error}"),
    }

    just("done").subscribe(|v| println!("{v}"));
}
