//! `SubscribeOwned<T>`: one bound for a function that takes any observable of `T` and
//! subscribes it with a closure. Each kind of observable it accepts, with the exact values.

use rx::observer::OwnedObserver;
use rx::prelude::*;
use rx::schedulers::NewThread;
use rx::{BoxedObservable, LocalBoxedObservable};
use std::rc::Rc;
use std::sync::mpsc;

/// What a newcomer writes: subscribe whatever is given, collect what it emits, wait for the
/// end on whatever thread it comes.
fn collect_all<S: SubscribeOwned<i32>>(source: S) -> Vec<i32> {
    let (sender, receiver) = mpsc::channel();
    source.subscribe_owned(move |v| sender.send(v).unwrap());
    receiver.iter().collect()
}

fn evens<O: Observer<i32>>(limit: usize) -> impl Subscribe<O, Item = i32> {
    rx::source::range(0, limit).filter(|v| v % 2 == 0)
}

fn odds(limit: usize) -> BoxedObservable<'static, i32> {
    rx::source::range(0, limit).filter(|v| v % 2 == 1).boxed()
}

fn ticks<O>(count: usize) -> impl Subscribe<O, Item = i32>
where
    O: Observer<i32> + Send + 'static,
{
    rx::source::range(1, count).subscribe_on(NewThread)
}

#[test]
fn a_chain_built_in_place() {
    assert_eq!(collect_all(rx::source::from_iter([1, 2, 3])), [1, 2, 3]);
    let chain = rx::source::from_iter(1..=6)
        .filter(|v| v % 3 == 0)
        .map(|v| v * 10);
    assert_eq!(collect_all(chain), [30, 60]);
}

#[test]
fn a_boxed_observable_and_chains_over_it() {
    let boxed: BoxedObservable<'static, i32> = rx::source::from_iter([1, 2, 3]).boxed();
    assert_eq!(collect_all(boxed.clone()), [1, 2, 3]);
    assert_eq!(
        collect_all(boxed.map(|v| v + 1).filter(|v| v % 2 == 0)),
        [2, 4]
    );
    assert_eq!(collect_all(odds(6)), [1, 3, 5]);
    assert_eq!(collect_all(odds(6).map(|v| -v)), [-1, -3, -5]);
}

#[test]
fn a_local_boxed_observable_and_chains_over_it() {
    // Subscribed on this thread by `collect_all`, so its `Rc` never leaves it.
    let offset = Rc::new(100);
    let local: LocalBoxedObservable<'static, i32> = rx::source::from_iter([1, 2])
        .map(move |v| v + *offset)
        .boxed_local();
    assert_eq!(collect_all(local.clone()), [101, 102]);
    assert_eq!(
        collect_all(local.map(|v| v * 2).filter(|v| *v > 202)),
        [204]
    );
}

#[test]
fn a_chain_that_crosses_threads() {
    let threaded = rx::source::from_iter([1, 2, 3]).subscribe_on(NewThread);
    assert_eq!(collect_all(threaded), [1, 2, 3]);
    let threaded = rx::source::from_iter([1, 2, 3])
        .subscribe_on(NewThread)
        .map(|v| v * v)
        .filter(|v| *v > 1);
    assert_eq!(collect_all(threaded), [4, 9]);
    let boxed = rx::source::from_iter([4, 5]).observe_on(NewThread).boxed();
    assert_eq!(collect_all(boxed), [4, 5]);
}

#[test]
fn the_result_of_a_function_generic_over_the_observer() {
    assert_eq!(collect_all(evens(7)), [0, 2, 4, 6]);
    assert_eq!(collect_all(evens(7).map(|v| v + 1)), [1, 3, 5, 7]);
    assert_eq!(collect_all(ticks(3)), [1, 2, 3]);
    assert_eq!(collect_all(ticks(3).filter(|v| *v != 2)), [1, 3]);
}

#[test]
fn a_stream_that_stops_early_is_told_to_stop() {
    // `take` answers `is_disposed` through the owned observer, so an endless source ends.
    assert_eq!(collect_all(rx::source::from_iter(0..).take(3)), [0, 1, 2]);
}

#[test]
fn errors_and_completion_reach_their_closures() {
    fn outcome(source: impl SubscribeOwned<i32>) -> (Vec<i32>, Option<String>, bool) {
        let (sender, receiver) = mpsc::channel();
        let (on_error, on_completed) = (sender.clone(), sender.clone());
        source.subscribe_owned_with(
            move |v| sender.send(Ok(v)).unwrap(),
            move |e: rx::Error| on_error.send(Err(Some(e.to_string()))).unwrap(),
            move || on_completed.send(Err(None)).unwrap(),
        );
        let mut values = Vec::new();
        for message in receiver.iter() {
            match message {
                Ok(v) => values.push(v),
                Err(error) => return (values, error, true),
            }
        }
        (values, None, false)
    }

    assert_eq!(
        outcome(rx::source::from_iter([1, 2])),
        (vec![1, 2], None, true)
    );
    let failing = rx::source::just(7)
        .concat_with(rx::source::throw(rx::Error::msg("no")))
        .subscribe_on(NewThread);
    assert_eq!(outcome(failing), (vec![7], Some("no".to_string()), true));
}

#[test]
fn an_owned_observer_is_send_and_static() {
    static_assertions::assert_impl_all!(OwnedObserver<i32>: Send, Observer<i32>);
    static_assertions::assert_impl_all!(OwnedObserver<Rc<i32>>: Send);
}
