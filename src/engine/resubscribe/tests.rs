use crate::notification::Notification::*;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::prelude::*;
use crate::source::{from_iter, just, throw};
use crate::subscription::{Finished, Subscription};
use crate::test_kit::inline::{Later, both, inline};
use crate::test_kit::scripted::scripted;
use crate::testing::TestObserver;
use crate::{Error, Notification};

/// A value, then an error: a source that finishes inside `subscribe`.
macro_rules! failing {
    () => {
        from_iter([Ok(1), Err(Error::msg("cut"))]).try_map(|r| r)
    };
}

#[test]
fn retry_delivers_the_same_on_both_paths() {
    let expected = [Next(1), Next(1), Next(1), Error(Error::msg("cut"))];
    both(failing!().retry(2), Later(failing!()).retry(2), &expected);
}

#[test]
fn repeat_delivers_the_same_on_both_paths() {
    let expected = [Next(5), Next(5), Next(5), Completed];
    both(just(5).repeat(3), Later(just(5)).repeat(3), &expected);
}

#[test]
fn retry_when_delivers_the_same_on_both_paths() {
    let notifier = |_: &Error, n: u32| from_iter((n < 3).then_some(()));
    let expected = [Next(1), Next(1), Next(1), Completed];
    both(
        failing!().retry_when(notifier),
        Later(failing!()).retry_when(notifier),
        &expected,
    );
    // A notifier that may emit later takes the shared state too.
    let later = failing!().retry_when(move |e: &Error, n| Later(notifier(e, n)));
    assert!(!inline(&later));
    let o = TestObserver::new();
    assert!(later.subscribe_observer(o.clone()).is_disposed());
    o.assert_notifications(&expected);
}

#[test]
fn repeat_when_delivers_the_same_on_both_paths() {
    let notifier = |n: u32| from_iter((n < 2).then_some(()));
    let expected = [Next(1), Next(1), Completed];
    both(
        just(1).repeat_when(notifier),
        Later(just(1)).repeat_when(notifier),
        &expected,
    );
}

#[test]
fn a_hundred_thousand_synchronous_retries_on_each_path() {
    let error = Error::msg("always");
    for inline_path in [true, false] {
        let o = TestObserver::<i32>::new();
        let disposed = if inline_path {
            throw::<i32>(error.clone())
                .retry(100_000)
                .subscribe_observer(o.clone())
                .is_disposed()
        } else {
            Later(throw::<i32>(error.clone()))
                .retry(100_000)
                .subscribe_observer(o.clone())
                .is_disposed()
        };
        assert!(disposed);
        o.assert_notifications(&[Error(Error::msg("always"))]);
    }
    // And with a notifier for each of them, on the shared path.
    let o = TestObserver::<i32>::new();
    Later(throw::<i32>(error))
        .retry_when(|_, n| from_iter((n <= 100_000).then_some(())))
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Completed]);
}

#[test]
fn a_local_source_resubscribes_through_the_local_state() {
    let source = scripted(|n| (vec![n as i32], (n < 2).then_some("flaky")));
    let o = TestObserver::new();
    let handle = source
        .clone()
        .boxed_local()
        .retry(5)
        .subscribe_observer(o.clone());
    assert!(handle.is_disposed());
    o.assert_notifications(&[Next(0), Next(1), Next(2), Completed]);
    assert_eq!(source.subscribed(), 3);

    let o = TestObserver::<i32>::new();
    throw::<i32>(Error::msg("always"))
        .boxed_local()
        .retry(100_000)
        .subscribe_observer(o.clone());
    o.assert_notifications(&[Error(Error::msg("always"))]);
}

/// Ends each attempt on another thread, and waits for it, before its `subscribe`
/// returns: the end comes from outside the loop while the loop is inside `subscribe`.
#[derive(Clone)]
struct EndsElsewhere;

impl Observable for EndsElsewhere {
    type Item = i32;
    type Flavour = crate::sync::Shared;
}

impl<O: Observer<i32> + Send> Subscribe<O> for EndsElsewhere {
    type Subscription = Finished;

    fn subscribe_observer(self, mut observer: O) -> Finished {
        std::thread::scope(|s| {
            s.spawn(move || {
                observer.on_next(1);
                observer.on_error(Error::msg("elsewhere"));
            });
        });
        Finished
    }
}

#[test]
fn an_end_on_another_thread_inside_subscribe_is_picked_up_by_the_loop() {
    let o = TestObserver::new();
    let handle = EndsElsewhere.retry(3).subscribe_observer(o.clone());
    o.assert_notifications(&[
        Next(1),
        Next(1),
        Next(1),
        Next(1),
        Error(Error::msg("elsewhere")),
    ]);
    assert!(handle.is_disposed());
}

#[test]
fn a_notifier_that_fired_and_ends_during_a_later_attempt_is_let_go_of() {
    // The notifier fires at once and stays subscribed to `gate`; the second attempt
    // completes `gate`, so the first notifier's observer ends inside the second
    // attempt's `subscribe`, on the loop's thread: it is not the step being subscribed.
    let gate = crate::subjects::PublishSubject::<()>::new();
    let (g, closer) = (gate.clone(), gate.clone());
    let attempts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = attempts.clone();
    let source = crate::source::defer(move || {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if n == 1 {
            closer.on_completed();
        }
        from_iter([Ok(n as i32), Err(Error::msg("x"))]).try_map(|r| r)
    });
    let o = TestObserver::new();
    let handle = source
        .retry_when(move |_, n| {
            let fire: crate::BoxedObservable<'static, ()> = if n == 1 {
                just(()).merge_with(g.observable()).boxed()
            } else {
                crate::source::empty().boxed()
            };
            fire
        })
        .subscribe_observer(o.clone());
    let expected: [Notification<i32>; 3] = [Next(0), Next(1), Completed];
    o.assert_notifications(&expected);
    assert!(handle.is_disposed());
    assert!(!gate.has_observers());
    assert_eq!(attempts.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[test]
fn a_panic_inside_an_attempt_leaves_the_next_subscription_sound() {
    let gate = crate::subjects::PublishSubject::<()>::new();
    let g = gate.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // The first notifier fires and stays on `gate`; the second attempt's value
        // panics in the downstream, unwinding through the loop.
        failing!()
            .retry_when(move |_, _| just(()).merge_with(g.observable()))
            .subscribe_with(
                |v| {
                    if v == 1 {
                        static SEEN: std::sync::atomic::AtomicUsize =
                            std::sync::atomic::AtomicUsize::new(0);
                        if SEEN.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
                            panic!("downstream");
                        }
                    }
                },
                |_| {},
                || {},
            );
    }));
    assert!(result.is_err());
    // The notifier left alive ends now, on this thread, outside any loop.
    gate.on_completed();
    let o = TestObserver::new();
    failing!().retry(1).subscribe_observer(o.clone());
    o.assert_notifications(&[Next(1), Next(1), Error(Error::msg("cut"))]);
}
