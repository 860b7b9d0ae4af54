//! [`ObservableExt::repeat_when`](crate::ObservableExt::repeat_when).

use super::resubscribe::{RepeatDelay, Resubscribe};

/// Subscribes to the source again when a notifier, made at each completion, emits; built by
/// [`ObservableExt::repeat_when`](crate::ObservableExt::repeat_when) and by
/// [`repeat_with`](crate::ObservableExt::repeat_with) with
/// [`RepeatConfig::delay_with`](crate::operators::RepeatConfig::delay_with).
pub type RepeatWhen<S, F> = Resubscribe<S, RepeatDelay<F>>;

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, throw, timer};
    use crate::testing::{TestObserver, TimedObserver};
    use crate::{Error, Notification::*};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn repeats_after_each_delay_until_the_notifier_completes_empty() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        from_iter([1, 2])
            .repeat_when(move |n| {
                if n < 3 {
                    timer(ms(10), inner_sch.clone()).boxed()
                } else {
                    empty().boxed()
                }
            })
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(1)),
            (ms(0), Next(2)),
            (ms(10), Next(1)),
            (ms(10), Next(2)),
            (ms(20), Next(1)),
            (ms(20), Next(2)),
            (ms(20), Completed),
        ]);
    }

    #[test]
    fn an_error_passes_through_and_a_notifier_error_ends_it() {
        let o = TestObserver::<i32>::new();
        let mut calls = 0;
        throw(Error::msg("source"))
            .repeat_when(|_| {
                calls += 1;
                just(())
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("source"))]);
        assert_eq!(calls, 0);

        let o = TestObserver::new();
        just(1)
            .repeat_when(|_| throw::<()>(Error::msg("notifier")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("notifier"))]);
    }

    #[test]
    fn synchronous_repeats_are_counted_from_one() {
        let o = TestObserver::new();
        let mut counts = Vec::new();
        just('x')
            .repeat_when(|n| {
                counts.push(n);
                just(()).take(if n < 4 { 1 } else { 0 })
            })
            .subscribe_observer(o.clone());
        o.assert_values(&['x', 'x', 'x', 'x']);
        o.assert_completed();
        assert_eq!(counts, [1, 2, 3, 4]);
    }
}
