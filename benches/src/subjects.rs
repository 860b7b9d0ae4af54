//! The setup of the subject cases, shared by the bench binary (`benches/subjects.rs`) and the
//! instruction-count gate (`src/bin/callgrind_gate.rs`), so that the gate counts what the
//! bench times.

use rx::prelude::*;
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
