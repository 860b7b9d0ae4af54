//! [`ObservableExt::retry`](crate::ObservableExt::retry) and
//! [`ObservableExt::retry_forever`](crate::ObservableExt::retry_forever).

use super::resubscribe::Resubscribe;
use crate::engine::resubscribe::NoDelay;

/// Subscribes to the source again after an error; built by
/// [`ObservableExt::retry`](crate::ObservableExt::retry) and
/// [`ObservableExt::retry_forever`](crate::ObservableExt::retry_forever). The same type as
/// [`Repeat`](crate::operators::Repeat): the policy inside says which end resubscribes.
pub type Retry<S> = Resubscribe<S, NoDelay>;

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::test_kit::scripted::{Signal, Threaded, pending, remote, scripted};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn resubscribes_n_times_then_passes_the_last_error() {
        let source = scripted(|n| (vec![n as i32 * 10, n as i32 * 10 + 1], Some("boom")));
        let o = TestObserver::new();
        let handle = source.clone().retry(2).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(0),
            Notification::Next(1),
            Notification::Next(10),
            Notification::Next(11),
            Notification::Next(20),
            Notification::Next(21),
            Notification::Error(Error::msg("boom")),
        ]);
        assert_eq!(source.subscribed(), 3);
        assert!(handle.is_disposed());
    }

    #[test]
    fn the_error_passed_on_is_the_last_one() {
        let errors = ["first", "second", "third"];
        let source = scripted(move |n| (vec![], Some(errors[n])));
        let o = TestObserver::<i32>::new();
        source.retry(2).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("third"))]);
    }

    #[test]
    fn retry_zero_subscribes_once() {
        let source = scripted(|_| (vec![1], Some("boom")));
        let o = TestObserver::new();
        source.clone().retry(0).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Error(Error::msg("boom")),
        ]);
        assert_eq!(source.subscribed(), 1);
    }

    #[test]
    fn succeeds_on_the_third_attempt() {
        let source = scripted(|n| match n {
            0 | 1 => (vec![1], Some("flaky")),
            _ => (vec![1, 2, 3], None),
        });
        let o = TestObserver::new();
        source.clone().retry(5).subscribe_observer(o.clone());
        o.assert_values(&[1, 1, 1, 2, 3]);
        o.assert_completed();
        assert_eq!(source.subscribed(), 3);
    }

    #[test]
    fn completion_is_not_retried() {
        let source = scripted(|_| (vec![1, 2], None));
        let o = TestObserver::new();
        source.clone().retry(3).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
        assert_eq!(source.subscribed(), 1);
    }

    #[test]
    fn retry_forever_until_it_succeeds() {
        let source = scripted(|n| {
            if n < 1000 {
                (vec![], Some("again"))
            } else {
                (vec![7], None)
            }
        });
        let o = TestObserver::new();
        source.clone().retry_forever().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(7), Notification::Completed]);
        assert_eq!(source.subscribed(), 1001);
    }

    #[test]
    fn many_synchronous_retries_do_not_grow_the_stack() {
        let mut errors = 0;
        throw::<i32>(Error::msg("always"))
            .retry(1_000_000)
            .subscribe_with(|_| {}, |_| errors += 1, || unreachable!());
        assert_eq!(errors, 1);
    }

    #[test]
    fn downstream_disposal_stops_retrying() {
        let o = TestObserver::new();
        let probe = o.clone();
        let source = scripted(|n| (vec![n as i32], Some("boom")));
        source
            .clone()
            .retry_forever()
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2, 3]);
        o.assert_not_terminated();
        assert_eq!(source.subscribed(), 4);
    }

    #[test]
    fn works_with_the_library_sources() {
        let o = TestObserver::new();
        from_iter([Ok(1), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .retry(1)
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 1]);
        o.assert_error("cut");

        let o = TestObserver::new();
        just(5).retry_forever().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(5), Notification::Completed]);
    }

    #[test]
    fn borrows_from_the_stack() {
        let mut seen = Vec::new();
        let mut error = None;
        let offset = 100;
        from_iter([Ok(1), Err(Error::msg("cut"))])
            .try_map(|r| r.map(|v| v + offset))
            .retry(1)
            .subscribe_with(|v| seen.push(v), |e| error = Some(e), || {});
        assert_eq!(seen, [101, 101]);
        assert_eq!(error, Some(Error::msg("cut")));
    }

    #[test]
    fn attempts_that_fail_on_another_thread_are_retried_from_there() {
        let source = scripted(|n| match n {
            0..=2 => (vec![n as i32], Some("flaky")),
            _ => (vec![10], None),
        });
        let o = TestObserver::new();
        let (tx, rx) = mpsc::channel();
        let handle = Threaded(source.clone())
            .retry(5)
            .subscribe_observer(Signal(o.clone(), tx));
        rx.recv_timeout(Duration::from_secs(10))
            .expect("sequence ended");
        o.assert_values(&[0, 1, 2, 10]);
        o.assert_completed();
        assert_eq!(source.subscribed(), 4);
        assert!(handle.is_disposed());
    }

    #[test]
    fn dispose_reaches_the_running_attempt() {
        let source = pending();
        let o = TestObserver::<i32>::new();
        let handle = source.clone().retry(3).subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        let handles = source.handles.lock().unwrap();
        assert_eq!(handles.len(), 1);
        assert!(handles[0].is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn dispose_between_attempts_stops_retrying() {
        let (source, attempts) = remote();
        let o = TestObserver::<i32>::new();
        let handle = source.retry_forever().subscribe_observer(o.clone());

        let mut first = attempts.recv().unwrap();
        first.on_next(1);
        // Fails on another thread: the retry is subscribed from there.
        std::thread::spawn(move || first.on_error(Error::msg("boom")))
            .join()
            .unwrap();
        let mut second = attempts.recv().unwrap();
        second.on_next(2);
        assert!(!handle.is_disposed());

        handle.dispose();
        assert!(
            second.is_disposed(),
            "the running attempt sees the disposal"
        );
        second.on_error(Error::msg("boom"));
        assert!(attempts.try_recv().is_err(), "no attempt after dispose");
        o.assert_values(&[1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn retry_forever_then_take_stops_resubscribing() {
        let source = scripted(|n| (vec![n as i32], Some("boom")));
        let o = TestObserver::new();
        source
            .clone()
            .retry_forever()
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
        assert_eq!(source.subscribed(), 3);
    }

    #[test]
    fn send_and_sync_when_the_parts_are() {
        use crate::engine::resubscribe::{
            NoDelay, ResubscribeObserver, ResubscribeSubscription, Resubscriptions,
        };
        use crate::source::Just;
        type P = Resubscriptions<NoDelay>;
        static_assertions::assert_impl_all!(super::Retry<Just<i32>>: Send, Sync, Clone);
        static_assertions::assert_impl_all!(
            ResubscribeObserver<Just<i32>, TestObserver<i32>, P>: Send, Sync
        );
        static_assertions::assert_impl_all!(
            ResubscribeSubscription<Just<i32>, TestObserver<i32>, P>: Send, Sync
        );
        static_assertions::assert_not_impl_any!(
            ResubscribeObserver<Just<std::rc::Rc<i32>>, TestObserver<std::rc::Rc<i32>>, P>: Send
        );
    }

    #[test]
    fn with_defer_each_attempt_sees_fresh_state() {
        let subscriptions = std::cell::Cell::new(0);
        let o = TestObserver::new();
        crate::source::defer(|| {
            subscriptions.set(subscriptions.get() + 1);
            let n = subscriptions.get();
            let attempt = if n < 3 {
                vec![Ok(n), Err(Error::msg("flaky"))]
            } else {
                vec![Ok(n)]
            };
            from_iter(attempt).try_map(|r| r)
        })
        .retry(3)
        .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
        assert_eq!(subscriptions.get(), 3);
    }

    #[test]
    fn with_a_source_that_fails_on_its_own_thread() {
        let attempts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = attempts.clone();
        let source = crate::source::create_owned(move |mut emitter| {
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            std::thread::spawn(move || {
                emitter.on_next(n);
                if n < 2 {
                    emitter.on_error(Error::msg("flaky"));
                } else {
                    emitter.on_completed();
                }
            });
        });
        let o = TestObserver::new();
        let (tx, rx) = mpsc::channel();
        source.retry(5).subscribe_observer(Signal(o.clone(), tx));
        rx.recv_timeout(Duration::from_secs(10))
            .expect("sequence ended");
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
        assert_eq!(attempts.load(std::sync::atomic::Ordering::SeqCst), 3);
    }
}

/// Loom models of the resubscription engine as `retry` drives it. Run with
/// `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom_retry`.
#[cfg(all(test, loom))]
mod loom_tests {
    use crate::Error;
    use crate::prelude::*;
    use crate::primitive::thread;
    use crate::subjects::PublishSubject;
    use crate::testing::TestObserver;

    /// The source fails on another thread while the first attempt is being subscribed, and
    /// while the subscribing thread decides, without the lock, whether to keep the attempt's
    /// handle: the second attempt (a late subscriber of the failed subject) fails at once,
    /// the downstream hears that error once, and nothing stays subscribed.
    #[test]
    fn loom_retry_error_racing_the_first_subscription() {
        loom::model(|| {
            let source = PublishSubject::<i32>::new();
            let failing = source.clone();
            let t = thread::spawn(move || failing.on_error(Error::msg("boom")));
            let o = TestObserver::new();
            let handle = source.observable().retry(1).subscribe_observer(o.clone());
            t.join().unwrap();
            o.assert_error("boom");
            assert!(handle.is_disposed());
            assert!(!source.has_observers(), "an attempt is still subscribed");
        });
    }

    /// The handle is dropped, without a disposal, while the attempt fails on another thread
    /// and that thread runs the retry: whichever of the two lets go of the shared state last
    /// frees it, and the downstream hears the error once.
    #[test]
    fn loom_retry_handle_dropped_while_an_attempt_fails_elsewhere() {
        loom::model(|| {
            let source = PublishSubject::<i32>::new();
            let o = TestObserver::new();
            let handle = source.observable().retry(1).subscribe_observer(o.clone());
            let failing = source.clone();
            let t = thread::spawn(move || failing.on_error(Error::msg("boom")));
            drop(handle);
            t.join().unwrap();
            o.assert_error("boom");
            assert!(!source.has_observers(), "an attempt is still subscribed");
        });
    }
}
