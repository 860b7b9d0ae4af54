//! The marble kit frees what it scheduled: a context dropped before its scheduler ran (a
//! hot observable's frames, an expectation's subscription still due) leaves nothing behind.
//! Found by the `marble_parser` fuzz target under LeakSanitizer.
//!
//! A marble test runs on its own thread only, so the bytes are counted for that thread:
//! the other tests of this binary, running at the same time, cannot move the count.

use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;
use std::time::Duration;

mod support;

use support::alloc::live_bytes;

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

/// Runs `scenario` once to warm up, then again, and returns the bytes the second run left.
fn bytes_left(scenario: impl Fn()) -> isize {
    scenario();
    let before = live_bytes();
    scenario();
    live_bytes() - before
}

#[test]
fn a_flushed_context_frees_everything() {
    let left = bytes_left(|| {
        let m = Marbles::new(&TestScheduler::new());
        m.expect(m.hot("-a-b-|")).to_be("-a-b-|");
    });
    assert_eq!(left, 0, "bytes left by a flushed marble context");
}

#[test]
fn an_unflushed_context_frees_everything() {
    let left = bytes_left(|| {
        let sch = TestScheduler::new();
        let m = Marbles::new(&sch);
        let _hot = m.hot("-a-b-|");
        let _expectation = m.expect_subscribed(rx::source::empty::<char>(), "--^");
    });
    assert_eq!(left, 0, "bytes left by an unflushed marble context");
}

#[test]
fn a_context_dropped_while_subscribed_frees_everything() {
    // Stopped between the `^` and the `!`: the subscriptions to the hot and the cold
    // observable are live, and their disposal is still queued.
    let left = bytes_left(|| {
        let sch = TestScheduler::new();
        let m = Marbles::new(&sch);
        let hot = m.hot("-a-b-c-d-|");
        let cold = m.cold("-x-y-z-|");
        let _on_hot = m.expect_subscribed(hot, "^----!");
        let _on_cold = m.expect_subscribed(cold, "-^----!");
        sch.advance_by(Duration::from_millis(3));
    });
    assert_eq!(
        left, 0,
        "bytes left by a marble context dropped mid-subscription"
    );
}

#[test]
fn a_context_outliving_its_scheduler_handle_still_runs() {
    // The context's own handle keeps the scheduler going when the caller's is gone.
    let m = Marbles::new(&TestScheduler::new());
    let source = m.cold("-a-|");
    m.expect(source.clone()).to_be("-a-|");
    source.assert_subscriptions(&["^--!"]);
}
