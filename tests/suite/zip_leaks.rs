//! After completion, an error or `dispose()`, zip, combine_latest, with_latest_from,
//! group_by and window dispose every source and drop everything they held: observers,
//! buffered values, the shared state. Checked with drop probes (`Arc` tokens) and with the
//! test scheduler's queue, which holds a source's task until that source is disposed.

use rx::Notification::{self, Completed, Next};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::{Cold, TestObserver, cold};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A value whose live copies are counted by its token.
#[derive(Clone, Debug)]
struct Tracked {
    value: i32,
    _token: Arc<()>,
}

impl PartialEq for Tracked {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

/// Forwards to a test observer; its live copies are counted by its token.
struct Probe<T> {
    inner: TestObserver<T>,
    _token: Arc<()>,
}

impl<T> Observer<T> for Probe<T> {
    fn on_next(&mut self, value: T) {
        self.inner.on_next(value)
    }
    fn on_error(self, error: rx::Error) {
        self.inner.on_error(error)
    }
    fn on_completed(self) {
        self.inner.on_completed()
    }
}

/// A probe observer counted by `token`, and the test observer it forwards to.
fn probe<T>(token: &Arc<()>) -> (Probe<T>, TestObserver<T>) {
    let inner = TestObserver::new();
    let probe = Probe {
        inner: inner.clone(),
        _token: token.clone(),
    };
    (probe, inner)
}

fn alive(token: &Arc<()>) -> usize {
    Arc::strong_count(token) - 1
}

/// A timed source of tracked values counted by `token`; `None` completes.
fn tracked(
    sch: &TestScheduler,
    token: &Arc<()>,
    script: &[(u64, Option<i32>)],
) -> Cold<Tracked, TestScheduler> {
    cold(
        sch,
        script.iter().map(|&(at, value)| {
            let n = match value {
                Some(value) => Next(Tracked {
                    value,
                    _token: token.clone(),
                }),
                None => Completed,
            };
            (ms(at), n)
        }),
    )
}

#[test]
fn zip_disposed_with_buffered_values_frees_everything() {
    let sch = TestScheduler::new();
    let values = Arc::new(());
    let token = Arc::new(());
    let a = tracked(
        &sch,
        &values,
        &[(10, Some(1)), (20, Some(2)), (30, Some(3)), (90, None)],
    );
    let b = tracked(&sch, &values, &[(25, Some(10)), (80, Some(20))]);
    let (observer, o) = probe(&token);
    let handle = a.zip(b).subscribe_observer(observer);
    sch.advance_by(ms(40));
    assert_eq!(o.value_count(), 1);
    handle.dispose();
    assert!(sch.is_empty(), "both sources were disposed");
    assert_eq!(alive(&token), 0, "the downstream observer was dropped");
    drop(o);
    drop(handle);
    assert_eq!(
        alive(&values),
        0,
        "buffered and scripted values were dropped"
    );
}

#[test]
fn zip_goes_on_while_a_completed_side_has_values_then_frees_everything() {
    let sch = TestScheduler::new();
    let values = Arc::new(());
    let token = Arc::new(());
    let a = tracked(
        &sch,
        &values,
        &[(10, Some(1)), (20, Some(2)), (30, Some(3)), (35, None)],
    );
    let b = tracked(&sch, &values, &[(40, Some(10)), (90, Some(20))]);
    let (observer, o) = probe(&token);
    let handle = a.zip(b).subscribe_observer(observer);
    sch.advance_by(ms(90));
    let pairs: Vec<(i32, i32)> = o
        .values()
        .into_iter()
        .map(|(a, b)| (a.value, b.value))
        .collect();
    assert_eq!(pairs, [(1, 10), (2, 20)]);
    assert!(!o.is_completed(), "3 is still buffered");
    handle.dispose();
    assert!(sch.is_empty());
    assert_eq!(alive(&token), 0);
    drop(o);
    drop(handle);
    assert_eq!(alive(&values), 0);
}

#[test]
fn an_async_source_is_disposed_when_a_later_one_ends_the_zip_inside_subscribe() {
    let sch = TestScheduler::new();
    let token = Arc::new(());
    let (observer, o) = probe::<(u64, i32)>(&token);
    let handle = rx::source::interval(ms(10), sch.clone())
        .zip(rx::source::empty())
        .subscribe_observer(observer);
    o.assert_notifications(&[Completed]);
    assert!(
        sch.is_empty(),
        "the interval was disposed as soon as its handle was known"
    );
    assert_eq!(alive(&token), 0);
    assert!(handle.is_disposed());
}

#[test]
fn combine_latest_error_frees_everything() {
    let sch = TestScheduler::new();
    let values = Arc::new(());
    let token = Arc::new(());
    let a = tracked(&sch, &values, &[(10, Some(1)), (100, Some(2))]);
    let b = cold(
        &sch,
        [
            (ms(20), Next(5)),
            (ms(30), Notification::Error(rx::Error::msg("boom"))),
        ],
    );
    let (observer, o) = probe(&token);
    let handle = a.combine_latest(b).subscribe_observer(observer);
    sch.advance_by(ms(30));
    o.assert_error("boom");
    assert!(sch.is_empty());
    assert_eq!(alive(&token), 0);
    drop(o);
    assert_eq!(alive(&values), 0, "the latest value was dropped at the end");
    drop(handle);
}

#[test]
fn with_latest_from_dispose_frees_everything() {
    let sch = TestScheduler::new();
    let values = Arc::new(());
    let token = Arc::new(());
    let a = tracked(
        &sch,
        &values,
        &[(10, Some(1)), (30, Some(2)), (100, Some(3))],
    );
    let b = tracked(&sch, &values, &[(20, Some(10)), (200, Some(20))]);
    let (observer, o) = probe(&token);
    let handle = a.with_latest_from(b).subscribe_observer(observer);
    sch.advance_by(ms(50));
    assert_eq!(o.value_count(), 1);
    handle.dispose();
    assert!(sch.is_empty());
    assert_eq!(alive(&token), 0);
    drop(o);
    assert_eq!(alive(&values), 0);
    drop(handle);
}

#[test]
fn window_and_group_by_free_everything_on_completion() {
    let sch = TestScheduler::new();
    let values = Arc::new(());
    let outer_token = Arc::new(());
    let inner_token = Arc::new(());
    let script = [(10, Some(1)), (20, Some(2)), (30, Some(3)), (40, None)];

    let (observer, outer) = probe(&outer_token);
    let it = inner_token.clone();
    let handle = tracked(&sch, &values, &script)
        .window(2)
        .map(move |w| {
            w.subscribe_observer(probe(&it).0);
        })
        .subscribe_observer(observer);
    sch.run();
    outer.assert_notifications(&[Next(()), Next(()), Completed]);
    assert_eq!(alive(&outer_token), 0);
    assert_eq!(
        alive(&inner_token),
        0,
        "every window subscriber was dropped"
    );
    drop(handle);
    assert_eq!(alive(&values), 0);

    let (observer, outer) = probe(&outer_token);
    let it = inner_token.clone();
    let handle = tracked(&sch, &values, &script)
        .group_by(|v| v.value % 2)
        .map(move |g| {
            g.subscribe_observer(probe(&it).0);
        })
        .subscribe_observer(observer);
    sch.run();
    outer.assert_notifications(&[Next(()), Next(()), Completed]);
    assert_eq!(alive(&outer_token), 0);
    assert_eq!(alive(&inner_token), 0, "every group subscriber was dropped");
    drop(handle);
    assert_eq!(alive(&values), 0);
}

#[test]
fn group_by_source_is_disposed_once_the_outer_and_every_group_are() {
    let sch = TestScheduler::new();
    let group_handles = Arc::new(Mutex::new(Vec::new()));
    let gh = group_handles.clone();
    let handle = rx::source::interval(ms(10), sch.clone())
        .group_by(|v| v % 2)
        .subscribe(move |g| gh.lock().unwrap().push(g.subscribe(|_| {})));
    sch.advance_by(ms(20));
    assert_eq!(group_handles.lock().unwrap().len(), 2);
    handle.dispose();
    sch.advance_by(ms(20));
    assert!(!sch.is_empty(), "open groups keep the source alive");
    group_handles.lock().unwrap()[0].dispose();
    assert!(!sch.is_empty());
    group_handles.lock().unwrap()[1].dispose();
    assert!(
        sch.is_empty(),
        "the last group's disposal disposed the source"
    );
}

#[test]
fn window_source_is_disposed_once_the_outer_and_the_open_window_are() {
    let sch = TestScheduler::new();
    let window_handles = Arc::new(Mutex::new(Vec::new()));
    let wh = window_handles.clone();
    let handle = rx::source::interval(ms(10), sch.clone())
        .window(100)
        .subscribe(move |w| wh.lock().unwrap().push(w.subscribe(|_| {})));
    sch.advance_by(ms(30));
    handle.dispose();
    assert!(!sch.is_empty(), "the open window keeps the source alive");
    window_handles.lock().unwrap()[0].dispose();
    assert!(sch.is_empty());
}
