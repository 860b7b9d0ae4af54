//! The setup and ops of the subject and scenario cases, shared by the bench binary
//! (`benches/subjects.rs`) and the instruction-count gate (`src/bin/callgrind_gate.rs`), so
//! that the gate counts what the bench times.

use rx::prelude::*;
use rx::schedulers::CurrentThread;
use rx::source::{from_iter, just};
use rx::subjects::{PublishSubject, local};
use std::hint::black_box;

/// A subscriber that captures a value, as real subscribers do, so it is not zero-sized.
pub fn subscriber(k: i32) -> impl FnMut(i32) + Clone + Send + 'static {
    move |v| {
        black_box(v ^ k);
    }
}

/// The setup of `publish_subject with 1 observer - on_next (thread-safe)`: a thread-safe
/// subject with one subscriber; the op is `subject.on_next(black_box(1))`.
pub fn subject_with_one_observer() -> PublishSubject<i32> {
    let subject = PublishSubject::new();
    subject.observable().subscribe(subscriber(7));
    subject
}

/// The setup of `publish_subject with 1 observer - on_next`: the same, single-threaded.
pub fn local_subject_with_one_observer() -> local::PublishSubject<i32> {
    let subject = local::PublishSubject::new();
    subject.observable().subscribe(subscriber(7));
    subject
}

/// The setup of `100 on_next to 100 observers to publish_subject (thread-safe)`: a thread-safe
/// subject with 100 subscribers whose handles are dropped; the op is 100 `on_next`.
pub fn subject_with_100_observers() -> PublishSubject<i32> {
    let subject = PublishSubject::new();
    for k in 0..100 {
        subject.observable().subscribe(subscriber(k));
    }
    subject
}

/// The setup of `100 on_next to 100 observers to publish_subject`: the same, single-threaded.
pub fn local_subject_with_100_observers() -> local::PublishSubject<i32> {
    let subject = local::PublishSubject::new();
    for k in 0..100 {
        subject.observable().subscribe(subscriber(k));
    }
    subject
}

/// The op of `mix operators with disposables and without disposables (thread-safe)`: a
/// thread-safe subject through filter, map, take, a merge, scan and distinct_until_changed,
/// fed ten values and completed.
pub fn mix_operators(sink: impl FnMut(i32) + Send + 'static) {
    let subject = PublishSubject::<i32>::new();
    subject
        .observable()
        .filter(|v| *v != 0)
        .map(|v| v * 2)
        .take(10)
        .merge_with(just(black_box(1)))
        .scan(0, |acc, v| acc + v)
        .distinct_until_changed()
        .subscribe(sink);
    let mut observer = subject.observer();
    for v in 0..10 {
        observer.on_next(black_box(v));
    }
    observer.on_completed();
}

/// The op of `mix operators with disposables and without disposables`: the same chain over
/// the single-threaded subject, the twin of rxRust's `Local` context.
pub fn mix_operators_local(sink: impl FnMut(i32) + 'static) {
    let subject = local::PublishSubject::<i32>::new();
    subject
        .observable()
        .filter(|v| *v != 0)
        .map(|v| v * 2)
        .take(10)
        .merge_with(just(black_box(1)))
        .scan(0, |acc, v| acc + v)
        .distinct_until_changed()
        .subscribe(sink);
    let mut observer = subject.observer();
    for v in 0..10 {
        observer.on_next(black_box(v));
    }
    observer.on_completed();
}

/// The input of RPP's "basic sample" cases.
pub const SAMPLE: [char; 7] = ['1', 'a', 'W', '2', '0', 'f', 'q'];

/// The op of `basic sample`: RPP's `just` without a scheduler runs on its current-thread
/// scheduler, so the source is subscribed on `CurrentThread`.
pub fn basic_sample(sink: impl FnMut(char) + Send + 'static) {
    from_iter(black_box(SAMPLE))
        .subscribe_on(CurrentThread)
        .take_while(|c| *c != '0')
        .filter(|c| !c.is_ascii_digit())
        .map(|c| c.to_ascii_uppercase())
        .subscribe(sink);
}

/// The op of `basic sample with immediate scheduler`.
pub fn basic_sample_immediate(sink: impl FnMut(char) + Send + 'static) {
    from_iter(black_box(SAMPLE))
        .take_while(|c| *c != '0')
        .filter(|c| !c.is_ascii_digit())
        .map(|c| c.to_ascii_uppercase())
        .subscribe(sink);
}
