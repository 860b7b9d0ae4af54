//! [`ObservableExt::repeat`](crate::ObservableExt::repeat) and
//! [`ObservableExt::repeat_forever`](crate::ObservableExt::repeat_forever).

use super::resubscribe::Resubscribe;
use crate::engine::resubscribe::NoDelay;

/// Subscribes to the source again after it completes; built by
/// [`ObservableExt::repeat`](crate::ObservableExt::repeat) and
/// [`ObservableExt::repeat_forever`](crate::ObservableExt::repeat_forever). The same type as
/// [`Retry`](crate::operators::Retry): the policy inside says which end resubscribes.
pub type Repeat<S> = Resubscribe<S, NoDelay>;

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just};
    use crate::test_kit::scripted::{Signal, Threaded, pending, scripted};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn subscribes_n_times_in_total() {
        let source = scripted(|n| (vec![n as i32, 10], None));
        let o = TestObserver::new();
        let handle = source.clone().repeat(3).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(0),
            Notification::Next(10),
            Notification::Next(1),
            Notification::Next(10),
            Notification::Next(2),
            Notification::Next(10),
            Notification::Completed,
        ]);
        assert_eq!(source.subscribed(), 3);
        assert!(handle.is_disposed());
    }

    #[test]
    fn repeat_one_is_the_source() {
        let source = scripted(|_| (vec![1, 2], None));
        let o = TestObserver::new();
        source.clone().repeat(1).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
        assert_eq!(source.subscribed(), 1);
    }

    #[test]
    fn repeat_zero_completes_without_subscribing() {
        let source = scripted(|_| (vec![1], None));
        let o = TestObserver::new();
        let handle = source.clone().repeat(0).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
        assert_eq!(source.subscribed(), 0);
        assert!(handle.is_disposed());

        let o = TestObserver::<i32>::new();
        o.dispose();
        source.clone().repeat(0).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn an_error_stops_the_repetition() {
        let source = scripted(|n| {
            if n < 1 {
                (vec![1], None)
            } else {
                (vec![2], Some("boom"))
            }
        });
        let o = TestObserver::new();
        source.clone().repeat(5).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Error(Error::msg("boom")),
        ]);
        assert_eq!(source.subscribed(), 2);
    }

    #[test]
    fn a_million_synchronous_repetitions_loop_instead_of_recursing() {
        let mut sum = 0u64;
        let mut completed = false;
        just(1u64).repeat(1_000_000).subscribe_with(
            |v| sum += v,
            |e| panic!("{e}"),
            || completed = true,
        );
        assert_eq!(sum, 1_000_000);
        assert!(completed);
    }

    #[test]
    fn repeat_forever_then_take_terminates() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut seen = 0;
        from_iter(1..=2)
            .repeat_forever()
            .map(|v| {
                seen += 1;
                if seen == 5 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 1, 2, 1]);
        o.assert_not_terminated();
    }

    #[test]
    fn repeating_an_empty_source() {
        let o = TestObserver::<i32>::new();
        empty::<i32>().repeat(1000).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn attempts_that_complete_on_another_thread_are_repeated_from_there() {
        let source = scripted(|n| (vec![n as i32], None));
        let o = TestObserver::new();
        let (tx, rx) = mpsc::channel();
        let handle = Threaded(source.clone())
            .repeat(4)
            .subscribe_observer(Signal(o.clone(), tx));
        rx.recv_timeout(Duration::from_secs(10))
            .expect("sequence ended");
        o.assert_values(&[0, 1, 2, 3]);
        o.assert_completed();
        assert_eq!(source.subscribed(), 4);
        assert!(handle.is_disposed());
    }

    #[test]
    fn dispose_reaches_the_running_attempt_and_stops_repeating() {
        let source = pending();
        let o = TestObserver::<i32>::new();
        let handle = source
            .clone()
            .repeat_forever()
            .subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        handle.dispose();
        handle.dispose();
        assert!(handle.is_disposed());
        let handles = source.handles.lock().unwrap();
        assert_eq!(handles.len(), 1);
        assert!(handles[0].is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn repeat_forever_then_take_stops_resubscribing() {
        let source = scripted(|n| (vec![n as i32], None));
        let o = TestObserver::new();
        let handle = source
            .clone()
            .repeat_forever()
            .take(5)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2, 3, 4]);
        o.assert_completed();
        assert_eq!(source.subscribed(), 5);
        assert!(handle.is_disposed());

        let o = TestObserver::new();
        just(1)
            .repeat_forever()
            .take(5)
            .subscribe_observer(o.clone());
        o.assert_values(&[1; 5]);
        o.assert_completed();
    }

    #[test]
    fn with_defer_each_repetition_sees_fresh_state() {
        let subscriptions = std::cell::Cell::new(0);
        let o = TestObserver::new();
        crate::source::defer(|| {
            subscriptions.set(subscriptions.get() + 1);
            just(subscriptions.get() * 10)
        })
        .repeat(3)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(10),
            Notification::Next(20),
            Notification::Next(30),
            Notification::Completed,
        ]);
        assert_eq!(subscriptions.get(), 3);
    }

    #[test]
    fn nests_inside_other_operators_and_itself() {
        let o = TestObserver::new();
        from_iter(1..=2)
            .map(|v| v * 10)
            .repeat(2)
            .filter(|v| *v > 10)
            .retry(3)
            .repeat(2)
            .scan(0, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_values(&[20, 40, 60, 80]);
        o.assert_completed();
    }
}
