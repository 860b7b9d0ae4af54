//! zip, combine_latest, with_latest_from, group_by and window on interleaved sources, in
//! exact virtual time.

use rx::Notification::{self, Completed, Error as Failed, Next};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::{TimedObserver, cold};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn boom() -> rx::Error {
    rx::Error::msg("boom")
}

#[test]
fn zip_pairs_in_time_and_completes_when_a_completed_side_is_drained() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [
            (ms(10), Next(1)),
            (ms(30), Next(2)),
            (ms(50), Next(3)),
            (ms(60), Completed),
        ],
    );
    let b = cold(
        &sch,
        [
            (ms(20), Next('a')),
            (ms(40), Next('b')),
            (ms(45), Completed),
        ],
    );
    let o = TimedObserver::new(&sch);
    a.zip(b).subscribe_observer(o.clone());
    sch.advance_by(ms(45));
    // b completed with nothing buffered: the zip ends at once, and a is disposed.
    o.assert_timeline(&[
        (ms(20), Next((1, 'a'))),
        (ms(40), Next((2, 'b'))),
        (ms(45), Completed),
    ]);
    assert!(sch.is_empty(), "the other source was disposed");
}

#[test]
fn zip_waits_for_the_buffered_values_of_a_completed_side() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [(ms(10), Next(1)), (ms(20), Next(2)), (ms(30), Completed)],
    );
    let b = cold(
        &sch,
        [
            (ms(40), Next('x')),
            (ms(50), Next('y')),
            (ms(60), Next('z')),
        ],
    );
    let o = TimedObserver::new(&sch);
    a.zip(b).subscribe_observer(o.clone());
    sch.advance_by(ms(50));
    o.assert_timeline(&[
        (ms(40), Next((1, 'x'))),
        (ms(50), Next((2, 'y'))),
        (ms(50), Completed),
    ]);
    assert!(sch.is_empty());
}

#[test]
fn zip_error_drops_buffered_values_and_disposes_the_other() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(25), Notification::Error(boom())),
        ],
    );
    let b = cold(&sch, [(ms(15), Next('x')), (ms(100), Next('y'))]);
    let o = TimedObserver::new(&sch);
    a.zip(b).subscribe_observer(o.clone());
    sch.advance_by(ms(25));
    o.assert_timeline(&[(ms(15), Next((1, 'x'))), (ms(25), Failed(boom()))]);
    assert!(sch.is_empty());
}

#[test]
fn zip_of_two_intervals() {
    let sch = TestScheduler::new();
    let o = TimedObserver::new(&sch);
    rx::source::interval(ms(10), sch.clone())
        .zip(rx::source::interval(ms(25), sch.clone()))
        .take(3)
        .subscribe_observer(o.clone());
    sch.advance_by(ms(100));
    o.assert_timeline(&[
        (ms(25), Next((0, 0))),
        (ms(50), Next((1, 1))),
        (ms(75), Next((2, 2))),
        (ms(75), Completed),
    ]);
    assert!(sch.is_empty(), "both intervals stopped");
}

#[test]
fn n_ary_zip_in_time() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [(ms(10), Next(1)), (ms(20), Next(2)), (ms(30), Completed)],
    );
    let b = cold(
        &sch,
        [(ms(5), Next('a')), (ms(25), Next('b')), (ms(35), Completed)],
    );
    let c = cold(
        &sch,
        [
            (ms(40), Next(true)),
            (ms(50), Next(false)),
            (ms(60), Completed),
        ],
    );
    let o = TimedObserver::new(&sch);
    rx::source::zip((a, b, c)).subscribe_observer(o.clone());
    sch.run();
    o.assert_timeline(&[
        (ms(40), Next((1, 'a', true))),
        (ms(50), Next((2, 'b', false))),
        (ms(50), Completed),
    ]);
}

#[test]
fn combine_latest_in_time() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [(ms(10), Next(1)), (ms(30), Next(2)), (ms(50), Completed)],
    );
    let b = cold(
        &sch,
        [
            (ms(20), Next('a')),
            (ms(40), Next('b')),
            (ms(60), Completed),
        ],
    );
    let o = TimedObserver::new(&sch);
    a.combine_latest(b).subscribe_observer(o.clone());
    sch.run();
    o.assert_timeline(&[
        (ms(20), Next((1, 'a'))),
        (ms(30), Next((2, 'a'))),
        (ms(40), Next((2, 'b'))),
        (ms(60), Completed),
    ]);
}

#[test]
fn combine_latest_ends_when_a_side_completes_without_a_value() {
    let sch = TestScheduler::new();
    let a = cold::<i32, _, _>(&sch, [(ms(10), Completed)]);
    let b = cold(&sch, [(ms(5), Next('x')), (ms(20), Next('y'))]);
    let o = TimedObserver::new(&sch);
    a.combine_latest(b).subscribe_observer(o.clone());
    sch.advance_by(ms(10));
    o.assert_timeline(&[(ms(10), Completed)]);
    assert!(sch.is_empty());
}

#[test]
fn combine_latest_error_from_either_side() {
    let sch = TestScheduler::new();
    let a = cold(&sch, [(ms(10), Next(1)), (ms(100), Completed)]);
    let b = cold(
        &sch,
        [(ms(20), Next('x')), (ms(30), Notification::Error(boom()))],
    );
    let o = TimedObserver::new(&sch);
    a.combine_latest(b).subscribe_observer(o.clone());
    sch.advance_by(ms(30));
    o.assert_timeline(&[(ms(20), Next((1, 'x'))), (ms(30), Failed(boom()))]);
    assert!(sch.is_empty());
}

#[test]
fn n_ary_combine_latest_in_time() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [(ms(10), Next(1)), (ms(40), Next(2)), (ms(50), Completed)],
    );
    let b = cold(&sch, [(ms(20), Next('a')), (ms(30), Completed)]);
    let c = cold(
        &sch,
        [
            (ms(25), Next(0.5)),
            (ms(45), Next(1.5)),
            (ms(70), Completed),
        ],
    );
    let o = TimedObserver::new(&sch);
    rx::source::combine_latest((a, b, c)).subscribe_observer(o.clone());
    sch.run();
    o.assert_timeline(&[
        (ms(25), Next((1, 'a', 0.5))),
        (ms(40), Next((2, 'a', 0.5))),
        (ms(45), Next((2, 'a', 1.5))),
        (ms(70), Completed),
    ]);
}

#[test]
fn with_latest_from_in_time() {
    let sch = TestScheduler::new();
    let a = cold(
        &sch,
        [
            (ms(10), Next(1)),
            (ms(30), Next(2)),
            (ms(50), Next(3)),
            (ms(60), Completed),
        ],
    );
    let b = cold(
        &sch,
        [
            (ms(20), Next('a')),
            (ms(40), Next('b')),
            (ms(45), Completed),
        ],
    );
    let o = TimedObserver::new(&sch);
    a.with_latest_from(b).subscribe_observer(o.clone());
    sch.run();
    // 1 had nothing to pair with; the other's completion changes nothing.
    o.assert_timeline(&[
        (ms(30), Next((2, 'a'))),
        (ms(50), Next((3, 'b'))),
        (ms(60), Completed),
    ]);
}

#[test]
fn with_latest_from_completes_with_the_source_and_disposes_the_other() {
    let sch = TestScheduler::new();
    let a = cold(&sch, [(ms(30), Next(1)), (ms(40), Completed)]);
    let b = cold(&sch, [(ms(20), Next('a')), (ms(100), Next('b'))]);
    let o = TimedObserver::new(&sch);
    a.with_latest_from(b).subscribe_observer(o.clone());
    sch.advance_by(ms(40));
    o.assert_timeline(&[(ms(30), Next((1, 'a'))), (ms(40), Completed)]);
    assert!(sch.is_empty());
}

#[test]
fn with_latest_from_error_from_the_other() {
    let sch = TestScheduler::new();
    let a = cold(&sch, [(ms(30), Next(1)), (ms(100), Completed)]);
    let b = cold(
        &sch,
        [(ms(20), Next('a')), (ms(35), Notification::Error(boom()))],
    );
    let o = TimedObserver::new(&sch);
    a.with_latest_from(b).subscribe_observer(o.clone());
    sch.advance_by(ms(35));
    o.assert_timeline(&[(ms(30), Next((1, 'a'))), (ms(35), Failed(boom()))]);
    assert!(sch.is_empty());
}

#[test]
fn disposing_stops_every_source() {
    let sch = TestScheduler::new();
    let o = TimedObserver::new(&sch);
    let handle = rx::source::interval(ms(10), sch.clone())
        .combine_latest(rx::source::interval(ms(15), sch.clone()))
        .subscribe_observer(o.clone());
    sch.advance_by(ms(30));
    o.assert_timeline(&[
        (ms(15), Next((0, 0))),
        (ms(20), Next((1, 0))),
        // Both tick at 30 ms; the slower one was rescheduled first, so it runs first.
        (ms(30), Next((1, 1))),
        (ms(30), Next((2, 1))),
    ]);
    handle.dispose();
    assert!(handle.is_disposed());
    assert!(sch.is_empty(), "both intervals cancelled");
}

/// Records each inner observable's notifications with their time, by index of the inner.
type Inners<T> = Arc<Mutex<Vec<Vec<(Duration, Notification<T>)>>>>;

fn record_inner<T: Send + 'static, S>(sch: &TestScheduler, inners: &Inners<T>, inner: S)
where
    S: Subscribe<
            rx::observer::FnObserver<
                Box<dyn FnMut(T) + Send>,
                Box<dyn FnOnce(rx::Error) + Send>,
                Box<dyn FnOnce() + Send>,
            >,
        > + Observable<Item = T>,
{
    let index = {
        let mut inners = inners.lock().unwrap();
        inners.push(Vec::new());
        inners.len() - 1
    };
    let at = {
        let sch = sch.clone();
        move || sch.elapsed()
    };
    let (i1, i2, i3) = (inners.clone(), inners.clone(), inners.clone());
    let (at1, at2, at3) = (at.clone(), at.clone(), at);
    inner.subscribe_with(
        Box::new(move |v| i1.lock().unwrap()[index].push((at1(), Next(v))))
            as Box<dyn FnMut(T) + Send>,
        Box::new(move |e| i2.lock().unwrap()[index].push((at2(), Failed(e))))
            as Box<dyn FnOnce(rx::Error) + Send>,
        Box::new(move || i3.lock().unwrap()[index].push((at3(), Completed)))
            as Box<dyn FnOnce() + Send>,
    );
}

#[test]
fn window_in_time() {
    let sch = TestScheduler::new();
    let inners: Inners<i32> = Arc::default();
    let outer = TimedObserver::new(&sch);
    let (s, i) = (sch.clone(), inners.clone());
    cold(
        &sch,
        [
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(30), Next(3)),
            (ms(40), Completed),
        ],
    )
    .window(2)
    .tap(move |w| record_inner(&s, &i, w.clone()))
    .map(|_| ())
    .subscribe_observer(outer.clone());
    sch.run();
    // The first window opens on subscription, the next with the value that ends it.
    outer.assert_timeline(&[(ms(0), Next(())), (ms(20), Next(())), (ms(40), Completed)]);
    assert_eq!(
        *inners.lock().unwrap(),
        [
            vec![(ms(10), Next(1)), (ms(20), Next(2)), (ms(20), Completed)],
            vec![(ms(30), Next(3)), (ms(40), Completed)],
        ]
    );
}

#[test]
fn group_by_in_time() {
    let sch = TestScheduler::new();
    let inners: Inners<i32> = Arc::default();
    let outer = TimedObserver::new(&sch);
    let (s, i) = (sch.clone(), inners.clone());
    cold(
        &sch,
        [
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(30), Next(3)),
            (ms(40), Notification::Error(boom())),
        ],
    )
    .group_by(|v| v % 2)
    .tap(move |g| record_inner(&s, &i, g.clone()))
    .map(|g| *g.key())
    .subscribe_observer(outer.clone());
    sch.run();
    outer.assert_timeline(&[
        (ms(10), Next(1)),
        (ms(20), Next(0)),
        (ms(40), Failed(boom())),
    ]);
    assert_eq!(
        *inners.lock().unwrap(),
        [
            vec![
                (ms(10), Next(1)),
                (ms(30), Next(3)),
                (ms(40), Failed(boom()))
            ],
            vec![(ms(20), Next(2)), (ms(40), Failed(boom()))],
        ]
    );
}
