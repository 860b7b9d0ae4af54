//! Futures in and out of observables, across threads and executors, with default features.

use futures::executor::block_on;
use rx::interop::{FirstValue, FirstValueObserver, LastValue, LastValueObserver};
use rx::operators::NoElements;
use rx::prelude::*;
use rx::schedulers::{Immediate, NewThread, TestScheduler, ThreadPool};
use rx::source::{FromFuture, FromFutureResult, PollSubscription, from_future, from_future_result};
use rx::subscription::{Finished, FlagSubscription};
use static_assertions::assert_impl_all;
use std::future::Ready;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

assert_impl_all!(FromFuture<Ready<i32>, NewThread>: Send, Sync, Clone);
assert_impl_all!(FromFutureResult<Ready<Result<i32, rx::Error>>, NewThread>: Send, Sync, Clone);
assert_impl_all!(PollSubscription: Send, Sync, Clone);
assert_impl_all!(FirstValue<i32, Finished>: Send, Sync, Unpin);
assert_impl_all!(LastValue<i32, FlagSubscription>: Send, Sync, Unpin);
assert_impl_all!(FirstValueObserver<i32>: Send, Sync);
assert_impl_all!(LastValueObserver<i32>: Send, Sync);

#[test]
fn a_future_through_a_pipeline_and_back() {
    let source = from_future(async { 20 }, NewThread)
        .map(|v| v + 1)
        .map(|v| v * 2);
    assert_eq!(block_on(source.first_value()), Ok(42));
}

#[test]
fn an_err_output_becomes_the_error_of_the_future() {
    let source = from_future_result(async { Err::<i32, _>(NoElements) }, Immediate);
    assert!(
        block_on(source.last_value())
            .unwrap_err()
            .is::<NoElements>()
    );
}

#[test]
fn the_future_of_an_observable_can_be_spawned_on_tokio() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let future = rx::source::interval(Duration::from_millis(1), NewThread)
        .take(5)
        .to_vec()
        .last_value();
    let outcome = runtime.block_on(async { tokio::spawn(future).await.unwrap() });
    assert_eq!(outcome, Ok(vec![0, 1, 2, 3, 4]));
}

#[test]
fn futures_woken_from_many_threads_each_deliver_once() {
    // Many subscriptions on one pool, each future woken from its own thread: every value
    // arrives exactly once and every subscription ends.
    let pool = ThreadPool::new(2);
    let delivered = Arc::new(AtomicUsize::new(0));
    let mut senders = Vec::new();
    let mut handles = Vec::new();
    for n in 0..64 {
        let (tx, rx) = futures::channel::oneshot::channel::<usize>();
        senders.push((n, tx));
        let d = delivered.clone();
        handles.push(
            from_future(async move { rx.await.unwrap() }, pool.clone()).subscribe(move |v| {
                assert_eq!(v % 1000, 7);
                d.fetch_add(1, Ordering::SeqCst);
            }),
        );
    }
    let threads: Vec<_> = senders
        .into_iter()
        .map(|(n, tx)| std::thread::spawn(move || tx.send(n * 1000 + 7).unwrap()))
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while delivered.load(Ordering::SeqCst) < 64 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(delivered.load(Ordering::SeqCst), 64);
    // Each subscription ends once its value is delivered.
    while handles.iter().any(|h| !h.is_disposed()) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(handles.iter().all(|h| h.is_disposed()));
}

#[test]
fn disposing_races_with_the_wake() {
    // The wake (another thread) and the dispose (this thread) race: the value is delivered
    // at most once, and nothing is delivered once the handle reports disposed and the
    // scheduler has drained.
    for _ in 0..200 {
        let sch = TestScheduler::new();
        let (tx, rx) = futures::channel::oneshot::channel::<i32>();
        let seen = Arc::new(AtomicUsize::new(0));
        let s = seen.clone();
        let handle =
            from_future(async move { rx.await.unwrap_or(0) }, sch.clone()).subscribe(move |_| {
                s.fetch_add(1, Ordering::SeqCst);
            });
        sch.advance_by(Duration::ZERO);
        let waker = std::thread::spawn(move || {
            let _ = tx.send(1);
        });
        handle.dispose();
        waker.join().unwrap();
        sch.advance_by(Duration::ZERO);
        assert_eq!(seen.load(Ordering::SeqCst), 0);
        assert!(handle.is_disposed());
    }
}

#[test]
fn a_first_value_that_is_dropped_unpolled_stops_its_source() {
    let sch = TestScheduler::new();
    let ticks = Arc::new(AtomicUsize::new(0));
    let t = ticks.clone();
    let future = rx::source::interval(Duration::from_secs(1), sch.clone())
        .map(move |v| {
            t.fetch_add(1, Ordering::SeqCst);
            v
        })
        .first_value();
    drop(future);
    sch.advance_by(Duration::from_secs(10));
    assert_eq!(ticks.load(Ordering::SeqCst), 0);
}
