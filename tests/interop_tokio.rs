//! The `Tokio` scheduler with rx's time operators, in tokio's paused time and in real time
//! (feature `tokio`).
#![cfg(feature = "tokio")]

use futures::StreamExt;
use rx::prelude::*;
use rx::schedulers::{Reschedule, Scheduler, Tokio, TokioTask, TokioWorker, Worker};
use rx::source::from_future;
use static_assertions::assert_impl_all;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

assert_impl_all!(Tokio: Send, Sync, Clone);
assert_impl_all!(TokioWorker: Send, Sync, Clone);
assert_impl_all!(TokioTask: Send, Sync, Clone);

#[tokio::test(start_paused = true)]
async fn interval_ticks_in_paused_time() {
    let start = Instant::now();
    let ticks = rx::source::interval(Duration::from_secs(1), Tokio::current())
        .take(5)
        .to_vec()
        .first_value()
        .await;
    assert_eq!(ticks, Ok(vec![0, 1, 2, 3, 4]));
    assert_eq!(start.elapsed(), Duration::from_secs(5));
}

#[tokio::test(start_paused = true)]
async fn delay_and_timestamps_follow_tokio_time() {
    let start = Instant::now();
    let scheduler = Tokio::current();
    let values = rx::source::from_iter([1, 2, 3])
        .delay(Duration::from_millis(250), scheduler.clone())
        .map(move |v| (v, Instant::now() - start))
        .to_vec()
        .last_value()
        .await
        .unwrap();
    let at = Duration::from_millis(250);
    assert_eq!(values, [(1, at), (2, at), (3, at)]);
}

#[tokio::test(start_paused = true)]
async fn debounce_in_paused_time() {
    let subject = rx::subjects::PublishSubject::new();
    let future = subject
        .observable()
        .debounce(Duration::from_millis(100), Tokio::current())
        .to_vec()
        .last_value();
    let mut input = subject.observer();
    for v in [1, 2, 3] {
        input.on_next(v);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    input.on_next(4);
    input.on_completed();
    assert_eq!(future.await, Ok(vec![3, 4]));
}

#[tokio::test(start_paused = true)]
async fn a_tokio_future_is_polled_inside_the_runtime() {
    let start = Instant::now();
    let slept = async {
        tokio::time::sleep(Duration::from_secs(30)).await;
        "woke"
    };
    let value = from_future(slept, Tokio::current()).first_value().await;
    assert_eq!(value, Ok("woke"));
    assert_eq!(start.elapsed(), Duration::from_secs(30));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_on_delivers_on_the_runtime() {
    let on_runtime = rx::source::interval(Duration::from_millis(1), rx::schedulers::NewThread)
        .take(3)
        .observe_on(Tokio::current())
        .map(|_| tokio::runtime::Handle::try_current().is_ok())
        .to_vec()
        .last_value()
        .await;
    assert_eq!(on_runtime, Ok(vec![true, true, true]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_of_one_worker_never_overlap_and_keep_their_order() {
    let worker = Tokio::current().worker();
    let due = worker.now() + Duration::from_millis(20);
    let running = Arc::new(AtomicBool::new(false));
    let log = Arc::new(Mutex::new(Vec::new()));
    let (done_tx, mut done_rx) = futures::channel::mpsc::unbounded();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (worker, running, log, done_tx) = (
                worker.clone(),
                running.clone(),
                log.clone(),
                done_tx.clone(),
            );
            std::thread::spawn(move || {
                for n in 0..50 {
                    let (running, log, done_tx) = (running.clone(), log.clone(), done_tx.clone());
                    // All at one due time: first-in first-out decides the order.
                    worker.schedule_at(due, move || {
                        assert!(!running.swap(true, Ordering::SeqCst), "tasks overlapped");
                        log.lock().unwrap().push((t, n));
                        running.store(false, Ordering::SeqCst);
                        done_tx.unbounded_send(()).unwrap();
                        Reschedule::Done
                    });
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    for _ in 0..200 {
        done_rx.next().await.unwrap();
    }
    let log = log.lock().unwrap();
    for t in 0..4 {
        let mine: Vec<_> = log
            .iter()
            .filter(|(from, _)| *from == t)
            .map(|(_, n)| *n)
            .collect();
        assert_eq!(mine, (0..50).collect::<Vec<_>>());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timer_in_real_time_fires_after_its_delay() {
    let start = std::time::Instant::now();
    let fired = rx::source::timer(Duration::from_millis(50), Tokio::current())
        .first_value()
        .await;
    let elapsed = start.elapsed();
    assert_eq!(fired, Ok(0));
    assert!(elapsed >= Duration::from_millis(50), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn a_scheduler_from_a_handle_works_from_outside_the_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_time()
        .build()
        .unwrap();
    let scheduler = Tokio::new(runtime.handle().clone());
    let values: Vec<u64> = rx::source::interval(Duration::from_millis(1), scheduler)
        .take(3)
        .as_blocking()
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(values, [0, 1, 2]);
}
