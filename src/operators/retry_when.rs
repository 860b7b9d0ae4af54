//! [`ObservableExt::retry_when`](crate::ObservableExt::retry_when).

use super::resubscribe::{ErrorDelay, Resubscribe};

/// Subscribes to the source again when a notifier, made from each error, emits; built by
/// [`ObservableExt::retry_when`](crate::ObservableExt::retry_when) and by
/// [`retry_with`](crate::ObservableExt::retry_with) with
/// [`RetryConfig::delay_with`](crate::operators::RetryConfig::delay_with).
pub type RetryWhen<S, F> = Resubscribe<S, ErrorDelay<F>>;

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, throw, timer};
    use crate::test_kit::scripted::{pending, remote, scripted};
    use crate::testing::{TestObserver, TimedObserver};
    use crate::{Error, Notification::*};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn resubscribes_at_the_notifiers_first_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = scripted(|n| match n {
            0 | 1 => (vec![n as i32], Some("flaky")),
            _ => (vec![9], None),
        });
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (inner_sch, log) = (sch.clone(), seen.clone());
        source
            .clone()
            .retry_when(move |e, attempt| {
                log.lock().unwrap().push((e.to_string(), attempt));
                timer(ms(10 * u64::from(attempt)), inner_sch.clone())
            })
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(0)),
            (ms(10), Next(1)),
            (ms(30), Next(9)),
            (ms(30), Completed),
        ]);
        assert_eq!(
            *seen.lock().unwrap(),
            [("flaky".to_string(), 1), ("flaky".to_string(), 2)]
        );
        assert_eq!(source.subscribed(), 3);
    }

    #[test]
    fn a_notifier_that_completes_empty_completes_the_sequence() {
        let o = TestObserver::new();
        from_iter([Ok(1), Err(Error::msg("x"))])
            .try_map(|r| r)
            .retry_when(|_, _| empty::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Completed]);
    }

    #[test]
    fn a_notifier_error_ends_the_sequence_with_it() {
        let o = TestObserver::new();
        from_iter([Ok(1), Err(Error::msg("source"))])
            .try_map(|r| r)
            .retry_when(|e, attempt| {
                if attempt < 3 {
                    just(()).boxed()
                } else {
                    throw(Error::msg(format!("gave up after {e}"))).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next(1),
            Next(1),
            Next(1),
            Error(Error::msg("gave up after source")),
        ]);
    }

    #[test]
    fn only_the_first_notifier_value_counts_and_an_endless_one_is_stopped() {
        let source = scripted(|n| match n {
            0 => (vec![1], Some("once")),
            _ => (vec![2], None),
        });
        let o = TestObserver::new();
        source
            .clone()
            .retry_when(|_, _| from_iter(0..))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert_eq!(source.subscribed(), 2);
    }

    #[test]
    fn many_synchronous_retries_use_constant_stack() {
        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("always"))
            .retry_when(|_, attempt| {
                if attempt <= 100_000 {
                    just(()).boxed()
                } else {
                    empty().boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn completion_passes_through() {
        let o = TestObserver::new();
        let mut calls = 0;
        just(5)
            .retry_when(|_, _| {
                calls += 1;
                just(())
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(5), Completed]);
        assert_eq!(calls, 0);
    }

    #[test]
    fn dispose_while_waiting_disposes_the_notifier() {
        let notifier = pending();
        let o = TestObserver::new();
        let waiting = notifier.clone();
        let handle = from_iter([Ok(1), Err(Error::msg("x"))])
            .try_map(|r| r)
            .retry_when(move |_, _| waiting.clone())
            .subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        let handles = notifier.handles.lock().unwrap();
        assert_eq!(handles.len(), 1);
        assert!(handles[0].is_disposed());
        o.assert_notifications(&[Next(1)]);
    }

    #[test]
    fn the_notifier_is_disposed_after_its_first_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        let source = scripted(|n| match n {
            0 => (vec![], Some("x")),
            _ => (vec![7], None),
        });
        source
            .retry_when(move |_, _| crate::source::interval(ms(5), inner_sch.clone()))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(5), Next(7)), (ms(5), Completed)]);
        assert!(sch.is_empty(), "the interval was cancelled");
    }

    #[test]
    fn a_notifier_firing_on_another_thread_resubscribes_there() {
        let (source, attempts) = remote();
        let (notifiers, fired) = remote();
        let o = TestObserver::new();
        source
            .retry_when(move |_, _| notifiers.clone())
            .subscribe_observer(o.clone());
        let mut first = attempts.recv().unwrap();
        first.on_next(1);
        first.on_error(Error::msg("x"));
        let mut notifier = fired.recv().unwrap();
        std::thread::spawn(move || notifier.on_next(0))
            .join()
            .unwrap();
        let mut second = attempts.recv().unwrap();
        second.on_next(2);
        second.on_completed();
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn send_and_sync_when_the_parts_are() {
        use crate::source::{Just, Timer};
        type Op = super::RetryWhen<Just<i32>, fn(&crate::Error, u32) -> Timer<TestScheduler>>;
        static_assertions::assert_impl_all!(Op: Send, Sync, Clone);
    }
}

/// Loom models of the resubscription engine as `retry_when` drives it. Run with
/// `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom_retry_when`.
#[cfg(all(test, loom))]
mod loom_tests {
    use crate::Error;
    use crate::prelude::*;
    use crate::primitive::{Arc, AtomicUsize, Ordering, thread};
    use crate::source::{defer, throw};
    use crate::subjects::PublishSubject;
    use crate::testing::TestObserver;

    /// The notifier's first value on another thread races the disposal of the result: the
    /// source is subscribed again at most once, the downstream hears nothing, and whichever
    /// notifier is live at the end has been let go of.
    #[test]
    fn loom_retry_when_notifier_racing_disposal() {
        loom::model(|| {
            let runs = Arc::new(AtomicUsize::new(0));
            let counter = runs.clone();
            let source = defer(move || {
                counter.fetch_add(1, Ordering::SeqCst);
                throw::<i32>(Error::msg("boom"))
            });
            let notifier = PublishSubject::<()>::new();
            let n = notifier.clone();
            let o = TestObserver::new();
            let handle = source
                .retry_when(move |_, _| n.observable())
                .subscribe_observer(o.clone());
            let emitter = notifier.clone();
            let t = thread::spawn(move || emitter.on_next(()));
            handle.dispose();
            t.join().unwrap();
            let runs = runs.load(Ordering::SeqCst);
            assert!((1..=2).contains(&runs), "{runs} runs");
            assert!(o.notifications().is_empty());
            assert!(!notifier.has_observers(), "a notifier is still subscribed");
        });
    }

    /// The source fails on another thread while the result is disposed: the notifier made
    /// for that error is either never subscribed or let go of, and nothing reaches the
    /// downstream.
    #[test]
    fn loom_retry_when_error_racing_disposal() {
        loom::model(|| {
            let source = PublishSubject::<i32>::new();
            let notifier = PublishSubject::<()>::new();
            let n = notifier.clone();
            let o = TestObserver::new();
            let handle = source
                .observable()
                .retry_when(move |_, _| n.observable())
                .subscribe_observer(o.clone());
            let failing = source.clone();
            let t = thread::spawn(move || failing.on_error(Error::msg("boom")));
            handle.dispose();
            t.join().unwrap();
            assert!(o.notifications().is_empty());
            assert!(
                !notifier.has_observers(),
                "the notifier is still subscribed"
            );
            assert!(!source.has_observers(), "the source is still subscribed");
        });
    }
}
