//! Streams in and out of observables, across threads and executors (feature `stream`).
#![cfg(feature = "stream")]

use futures::StreamExt;
use futures::executor::{block_on, block_on_stream};
use futures::stream;
use rx::backpressure::{Bounded, Overflow};
use rx::interop::{BufferOverflow, IntoStream, StreamObserver};
use rx::prelude::*;
use rx::schedulers::{Immediate, NewThread, TestScheduler};
use rx::source::{FromStream, from_stream};
use rx::subjects::PublishSubject;
use rx::subscription::{Finished, FlagSubscription};
use static_assertions::assert_impl_all;
use std::time::Duration;

assert_impl_all!(IntoStream<i32, Finished>: Send, Sync, Unpin);
assert_impl_all!(IntoStream<i32, FlagSubscription>: Send, Sync, Unpin);
assert_impl_all!(StreamObserver<i32>: Send, Sync);
assert_impl_all!(FromStream<stream::Iter<std::ops::Range<i32>>, NewThread>: Send, Sync, Clone);
assert_impl_all!(BufferOverflow: Send, Sync, Copy, std::error::Error);

#[test]
fn a_stream_through_a_pipeline_and_back() {
    let source = from_stream(stream::iter(1..=6), NewThread)
        .filter(|v| v % 2 == 0)
        .map(|v| v * 10);
    let items: Vec<i32> = block_on_stream(source.into_stream())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(items, [20, 40, 60]);
}

#[test]
fn stream_combinators_apply_to_an_observable() {
    let items = rx::source::from_iter(1..=10).into_stream();
    let sum = block_on(
        items
            .map(Result::unwrap)
            .fold(0, |acc, v| async move { acc + v }),
    );
    assert_eq!(sum, 55);
}

#[test]
fn merged_threaded_sources_arrive_whole_on_a_tokio_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let sources = (0..4).map(|n| {
        rx::source::interval(Duration::from_millis(1), NewThread)
            .take(25)
            .map(move |v| n * 100 + v)
    });
    let stream = rx::source::merge(sources).into_stream();
    let mut items: Vec<u64> = runtime.block_on(async {
        tokio::spawn(async move { stream.map(Result::unwrap).collect::<Vec<_>>().await })
            .await
            .unwrap()
    });
    items.sort_unstable();
    let expected: Vec<u64> = (0..4)
        .flat_map(|n| (0..25).map(move |v| n * 100 + v))
        .collect();
    assert_eq!(items, expected);
}

#[test]
fn a_consumer_that_keeps_up_with_a_threaded_source_fits_a_small_buffer() {
    // The source waits for each value to be taken before sending the next.
    let subject = PublishSubject::new();
    let mut stream = subject
        .observable()
        .into_stream_bounded(Bounded::new(1).on_full(Overflow::Error));
    let (ack_tx, ack_rx) = std::sync::mpsc::channel::<()>();
    let mut input = subject.observer();
    let producer = std::thread::spawn(move || {
        for n in 0..100 {
            input.on_next(n);
            ack_rx.recv().unwrap();
        }
        input.on_completed();
    });
    for n in 0..100 {
        assert_eq!(block_on(stream.next()), Some(Ok(n)));
        ack_tx.send(()).unwrap();
    }
    assert_eq!(block_on(stream.next()), None);
    producer.join().unwrap();
}

#[test]
fn a_consumer_that_falls_behind_gets_the_buffered_values_then_the_overflow() {
    let sch = TestScheduler::new();
    let mut stream = rx::source::interval(Duration::from_secs(1), sch.clone())
        .into_stream_bounded(Bounded::new(4).on_full(Overflow::Error));
    sch.advance_by(Duration::from_secs(10));
    let items: Vec<_> = block_on_stream(&mut stream).collect();
    assert_eq!(items[..4], [Ok(0), Ok(1), Ok(2), Ok(3)]);
    let error = items[4].as_ref().unwrap_err();
    assert_eq!(
        error.downcast_ref::<BufferOverflow>().unwrap().capacity(),
        4
    );
    assert_eq!(items.len(), 5);
}

#[test]
fn an_observable_of_a_stream_of_an_observable() {
    // observable -> stream -> observable: the values, then completion, survive both bridges.
    let inner = rx::source::from_iter(["a", "b"]).into_stream();
    let observer = rx::testing::TestObserver::new();
    from_stream(inner, Immediate)
        .try_map(|item| item)
        .subscribe_observer(observer.clone());
    observer.assert_values(&["a", "b"]);
    observer.assert_completed();
}
