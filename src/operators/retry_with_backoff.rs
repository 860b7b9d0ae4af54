//! [`ObservableExt::retry_with_backoff`](crate::ObservableExt::retry_with_backoff).

use super::resubscribe::Resubscribe;
use crate::engine::resubscribe::{Ended, ResubscribeDelay};
use crate::schedulers::Scheduler;
use crate::source::{Timer, timer};
use std::time::Duration;

/// Subscribes to the source again after each error, waiting longer each time; built by
/// [`ObservableExt::retry_with_backoff`](crate::ObservableExt::retry_with_backoff).
///
/// Each wait is a timer on the scheduler, and it is the timer's task, on the scheduler's
/// worker (which may run on another thread), that subscribes to the source again. So the
/// source, its handle and the observer must be `Send`, and a local subject's or a
/// `boxed_local()` observable is refused at compile time. To retry a local source after a
/// delay, use `retry_when` with a notifier of the same flavour.
pub type RetryWithBackoff<S, Sch> = Resubscribe<S, Backoff<Sch>>;

impl<S, Sch: Scheduler + Clone> RetryWithBackoff<S, Sch> {
    pub(crate) fn new(
        source: S,
        retries: usize,
        initial: Duration,
        max: Duration,
        scheduler: Sch,
    ) -> Self {
        let backoff = Backoff {
            initial,
            max,
            scheduler,
        };
        Resubscribe::retry(source, Some(retries), backoff, false)
    }
}

/// The delay of a [`RetryWithBackoff`]: a timer for each retry, of
/// `min(initial × 2^(n−1), max)` for the `n`th.
#[derive(Clone, Debug)]
pub struct Backoff<Sch> {
    initial: Duration,
    max: Duration,
    scheduler: Sch,
}

/// The wait before retry number `n` (from 1): `min(initial × 2^(n−1), max)`, saturating.
pub(crate) fn backoff_delay(initial: Duration, max: Duration, n: u32) -> Duration {
    let factor = 1u32.checked_shl(n.saturating_sub(1)).unwrap_or(u32::MAX);
    initial.saturating_mul(factor).min(max)
}

impl<Sch: Scheduler + Clone> ResubscribeDelay for Backoff<Sch> {
    type Notifier = Timer<Sch>;

    fn notifier(&mut self, _: Ended<'_>, attempt: u32) -> Option<Timer<Sch>> {
        let delay = backoff_delay(self.initial, self.max, attempt);
        Some(timer(delay, self.scheduler.clone()))
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::backoff_delay;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::test_kit::scripted::scripted;
    use crate::testing::TimedObserver;
    use crate::{Error, Notification::*};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_delays_double_up_to_the_cap() {
        let d: Vec<_> = (1..=6)
            .map(|n| backoff_delay(ms(100), ms(1000), n))
            .collect();
        assert_eq!(d, [ms(100), ms(200), ms(400), ms(800), ms(1000), ms(1000)]);
        assert_eq!(backoff_delay(ms(1), Duration::MAX, 200), ms(1) * u32::MAX);
    }

    #[test]
    fn retries_after_each_delay_then_passes_the_last_error() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = scripted(|n| (vec![n as i32], Some("down")));
        source
            .clone()
            .retry_with_backoff(3, ms(100), ms(250), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(0)),
            (ms(100), Next(1)),
            (ms(300), Next(2)),
            (ms(550), Next(3)),
            (ms(550), Error(Error::msg("down"))),
        ]);
        assert_eq!(source.subscribed(), 4);
    }

    #[test]
    fn success_ends_it() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = scripted(|n| match n {
            0 => (vec![], Some("down")),
            _ => (vec![5], None),
        });
        source
            .retry_with_backoff(5, ms(10), ms(1000), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(5)), (ms(10), Completed)]);
    }
}
