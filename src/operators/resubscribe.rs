//! [`ObservableExt::retry_with`](crate::ObservableExt::retry_with) and
//! [`ObservableExt::repeat_with`](crate::ObservableExt::repeat_with), and the one operator
//! type behind them and every other `retry` and `repeat`: [`Resubscribe`].
//!
//! `retry`, `repeat`, their `_forever`, `_when` and `_with` forms and `retry_with_backoff`
//! differ in two parameters of the resubscription engine's one policy
//! (`engine::resubscribe::Resubscriptions`): which end starts a new attempt (an error or a
//! completion), and the [`ResubscribeDelay`] between two attempts (none, a timer, an observable made by
//! a function, exponential backoff). The aliases [`Retry`], [`Repeat`], [`RetryWhen`],
//! [`RepeatWhen`] and [`RetryWithBackoff`] name the common ones.
//!
//! [`Retry`]: crate::operators::Retry
//! [`Repeat`]: crate::operators::Repeat
//! [`RetryWhen`]: crate::operators::RetryWhen
//! [`RepeatWhen`]: crate::operators::RepeatWhen
//! [`RetryWithBackoff`]: crate::operators::RetryWithBackoff

use crate::Error;
use crate::engine::resubscribe::{
    self, Ended, NoDelay, ResubscribeDelay, ResubscribeNotifier, ResubscribeObserver,
    ResubscribeSubscription, Resubscriptions, Trigger,
};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use crate::source::{Timer, timer};
use crate::sync::Joined;
use crate::sync::imp::BoxSubscription;
use std::fmt;
use std::time::Duration;

/// Subscribes to the source again after it fails or completes, as its policy says; built by
/// every `retry` and `repeat` method of [`ObservableExt`](crate::ObservableExt).
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "retry")]
#[doc(alias = "repeat")]
pub struct Resubscribe<S, D: ResubscribeDelay = NoDelay> {
    source: S,
    policy: Resubscriptions<D>,
    /// `false` for `repeat(0)`: it completes without subscribing.
    subscribes: bool,
}

impl<S, D: ResubscribeDelay> Resubscribe<S, D> {
    /// Retries after errors, `count` times at most (`None`: no limit).
    pub(crate) fn retry(source: S, count: Option<usize>, delay: D, reset: bool) -> Self {
        Resubscribe {
            source,
            policy: Resubscriptions::new(Trigger::Error, count, delay, reset),
            subscribes: true,
        }
    }

    /// Repeats after completions, subscribing `times` times in total (`None`: no limit).
    pub(crate) fn repeat(source: S, times: Option<usize>, delay: D) -> Self {
        Resubscribe {
            source,
            policy: Resubscriptions::new(
                Trigger::Completed,
                times.map(|n| n.saturating_sub(1)),
                delay,
                false,
            ),
            // Zero times is the empty sequence, as in RxJava and RxJS.
            subscribes: times != Some(0),
        }
    }
}

impl<S: Clone, D: ResubscribeDelay + Clone> Clone for Resubscribe<S, D> {
    fn clone(&self) -> Self {
        Resubscribe {
            source: self.source.clone(),
            policy: self.policy.clone(),
            subscribes: self.subscribes,
        }
    }
}

impl<S: fmt::Debug, D: ResubscribeDelay + fmt::Debug> fmt::Debug for Resubscribe<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resubscribe")
            .field("source", &self.source)
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

/// The flavour of the handles a [`Resubscribe`] keeps: the source's and the notifiers'.
type FlavourOf<S, D> =
    Joined<<S as Observable>::Flavour, <<D as ResubscribeDelay>::Notifier as Observable>::Flavour>;

impl<S, D> Observable for Resubscribe<S, D>
where
    S: Observable,
    D: ResubscribeDelay,
    D::Notifier: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, D>;
    // Attempts and notifiers are all subscribed by the loop of its `subscribe`: over a source
    // (and notifiers) that finish inside `subscribe`, so does every attempt.
    const EMISSION: crate::observable::Emission =
        S::EMISSION.and(<D::Notifier as Observable>::EMISSION);
}

/// The observer of one attempt, as a type.
type Attempt<S, O, D> = ResubscribeObserver<S, O, Resubscriptions<D>, FlavourOf<S, D>>;
/// The observer of one notifier, as a type.
type Waiting<S, O, D> = ResubscribeNotifier<S, O, Resubscriptions<D>, FlavourOf<S, D>>;

impl<S, D, O> Subscribe<O> for Resubscribe<S, D>
where
    S: Subscribe<Attempt<S, O, D>> + Clone,
    D: ResubscribeDelay,
    D::Notifier: Subscribe<Waiting<S, O, D>>,
    FlavourOf<S, D>: BoxSubscription<'static, <S as Subscribe<Attempt<S, O, D>>>::Subscription>
        + BoxSubscription<'static, <D::Notifier as Subscribe<Waiting<S, O, D>>>::Subscription>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = ResubscribeSubscription<S, O, Resubscriptions<D>, FlavourOf<S, D>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if !self.subscribes {
            if !observer.is_disposed() {
                observer.on_completed();
            }
            return resubscribe::closed(self.source);
        }
        resubscribe::subscribe_with(
            self.source,
            observer,
            self.policy,
            const { <Self as Observable>::EMISSION.is_inside_subscribe() },
        )
    }
}

/// The delay of [`RetryConfig::delay`] and [`RepeatConfig::delay`]: a timer of a fixed
/// duration on a scheduler; none for a zero duration.
#[derive(Clone, Debug)]
pub struct TimerDelay<Sch> {
    duration: Duration,
    scheduler: Sch,
}

impl<Sch: Scheduler + Clone> ResubscribeDelay for TimerDelay<Sch> {
    type Notifier = Timer<Sch>;

    fn notifier(&mut self, _: Ended<'_>, _: u32) -> Option<Timer<Sch>> {
        // RxJS's `delay: 0` resubscribes at once, with no timer.
        (!self.duration.is_zero()).then(|| timer(self.duration, self.scheduler.clone()))
    }
}

/// The delay of [`RetryConfig::delay_with`] and
/// [`retry_when`](crate::ObservableExt::retry_when): an observable made from each error and
/// the number of the retry.
#[derive(Clone)]
pub struct ErrorDelay<F>(pub(crate) F);

impl<F, N> ResubscribeDelay for ErrorDelay<F>
where
    F: FnMut(&Error, u32) -> N,
{
    type Notifier = N;

    #[inline]
    fn notifier(&mut self, ended: Ended<'_>, attempt: u32) -> Option<N> {
        match ended {
            Ended::Error(error) => Some((self.0)(error, attempt)),
            // A retry's policy starts attempts after errors only.
            Ended::Completed => None,
        }
    }
}

impl<F> fmt::Debug for ErrorDelay<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrorDelay").finish_non_exhaustive()
    }
}

/// The delay of [`RepeatConfig::delay_with`] and
/// [`repeat_when`](crate::ObservableExt::repeat_when): an observable made from the number of
/// the repetition.
#[derive(Clone)]
pub struct RepeatDelay<F>(pub(crate) F);

impl<F, N> ResubscribeDelay for RepeatDelay<F>
where
    F: FnMut(u32) -> N,
{
    type Notifier = N;

    #[inline]
    fn notifier(&mut self, _: Ended<'_>, attempt: u32) -> Option<N> {
        Some((self.0)(attempt))
    }
}

impl<F> fmt::Debug for RepeatDelay<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepeatDelay").finish_non_exhaustive()
    }
}

/// How [`retry_with`](crate::ObservableExt::retry_with) retries: RxJS 7's `RetryConfig`.
///
/// [`RetryConfig::new`] retries forever, at once, and never restores its count; the builder
/// methods set the rest.
#[derive(Clone, Debug)]
pub struct RetryConfig<D = NoDelay> {
    count: Option<usize>,
    delay: D,
    reset_on_success: bool,
}

impl RetryConfig {
    /// Retry after every error, at once (RxJS's `retry({})`).
    pub fn new() -> Self {
        RetryConfig {
            count: None,
            delay: NoDelay,
            reset_on_success: false,
        }
    }
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig::new()
    }
}

impl<D> RetryConfig<D> {
    /// At most `count` retries; past them the error passes on (RxJS's `count`).
    pub fn count(self, count: usize) -> Self {
        RetryConfig {
            count: Some(count),
            ..self
        }
    }

    /// Each retry `duration` after the error, on a timer of `scheduler` (RxJS's `delay` as a
    /// number); a zero duration retries at once.
    pub fn delay<Sch: Scheduler>(
        self,
        duration: Duration,
        scheduler: Sch,
    ) -> RetryConfig<TimerDelay<Sch>> {
        self.with_delay(TimerDelay {
            duration,
            scheduler,
        })
    }

    /// Each retry when the observable `f(&error, n)` emits its first value, for the `n`th
    /// retry (from 1); its completion without a value completes the sequence and its error
    /// ends it (RxJS's `delay` as a function).
    pub fn delay_with<F, N>(self, f: F) -> RetryConfig<ErrorDelay<F>>
    where
        F: FnMut(&Error, u32) -> N,
        N: Observable,
    {
        self.with_delay(ErrorDelay(f))
    }

    /// A value restores the count of retries: `count` then bounds the errors in a row, not
    /// in total, and the `n` of `delay_with` starts again from 1 (RxJS's `resetOnSuccess`).
    pub fn reset_on_success(self) -> Self {
        RetryConfig {
            reset_on_success: true,
            ..self
        }
    }

    fn with_delay<E>(self, delay: E) -> RetryConfig<E> {
        RetryConfig {
            count: self.count,
            delay,
            reset_on_success: self.reset_on_success,
        }
    }

    pub(crate) fn build<S>(self, source: S) -> Resubscribe<S, D>
    where
        D: ResubscribeDelay,
    {
        Resubscribe::retry(source, self.count, self.delay, self.reset_on_success)
    }
}

/// How [`repeat_with`](crate::ObservableExt::repeat_with) repeats: RxJS 7's `RepeatConfig`.
///
/// [`RepeatConfig::new`] repeats forever, at once; the builder methods set the rest.
#[derive(Clone, Debug)]
pub struct RepeatConfig<D = NoDelay> {
    count: Option<usize>,
    delay: D,
}

impl RepeatConfig {
    /// Repeat after every completion, at once (RxJS's `repeat({})`).
    pub fn new() -> Self {
        RepeatConfig {
            count: None,
            delay: NoDelay,
        }
    }
}

impl Default for RepeatConfig {
    fn default() -> Self {
        RepeatConfig::new()
    }
}

impl<D> RepeatConfig<D> {
    /// Subscribe `count` times in total; zero completes at once (RxJS's `count`).
    pub fn count(self, count: usize) -> Self {
        RepeatConfig {
            count: Some(count),
            ..self
        }
    }

    /// Each repetition `duration` after the completion, on a timer of `scheduler` (RxJS's
    /// `delay` as a number); a zero duration repeats at once.
    pub fn delay<Sch: Scheduler>(
        self,
        duration: Duration,
        scheduler: Sch,
    ) -> RepeatConfig<TimerDelay<Sch>> {
        RepeatConfig {
            count: self.count,
            delay: TimerDelay {
                duration,
                scheduler,
            },
        }
    }

    /// Each repetition when the observable `f(n)` emits its first value, for the `n`th
    /// completion (from 1); its completion without a value completes the sequence and its
    /// error ends it (RxJS's `delay` as a function).
    pub fn delay_with<F, N>(self, f: F) -> RepeatConfig<RepeatDelay<F>>
    where
        F: FnMut(u32) -> N,
        N: Observable,
    {
        RepeatConfig {
            count: self.count,
            delay: RepeatDelay(f),
        }
    }

    pub(crate) fn build<S>(self, source: S) -> Resubscribe<S, D>
    where
        D: ResubscribeDelay,
    {
        Resubscribe::repeat(source, self.count, self.delay)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::{RepeatConfig, RetryConfig};
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, just, timer};
    use crate::test_kit::scripted::scripted;
    use crate::testing::{TestObserver, TimedObserver};
    use crate::{Error, Notification::*};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_count_and_a_timer() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let source = scripted(|n| (vec![n as i32], Some("down")));
        source
            .clone()
            .retry_with(RetryConfig::new().count(2).delay(ms(10), sch.clone()))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(0)),
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(20), Error(Error::msg("down"))),
        ]);
        assert_eq!(source.subscribed(), 3);
    }

    #[test]
    fn a_zero_delay_retries_at_once_on_the_stack() {
        let o = TestObserver::new();
        let sch = TestScheduler::new();
        from_iter([Ok(1), Err(Error::msg("x"))])
            .try_map(|r| r)
            .retry_with(
                RetryConfig::new()
                    .count(2)
                    .delay(Duration::ZERO, sch.clone()),
            )
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(1), Next(1), Error(Error::msg("x"))]);
        assert!(sch.is_empty());
    }

    #[test]
    fn reset_on_success_bounds_errors_in_a_row() {
        // Each attempt emits once then fails, but the fifth fails at once: two errors in a
        // row, one more than the count.
        let source = scripted(|n| match n {
            0..=3 => (vec![n as i32], Some("flaky")),
            4 | 5 => (vec![], Some("down")),
            _ => (vec![99], None),
        });
        let o = TestObserver::new();
        source
            .clone()
            .retry_with(RetryConfig::new().count(1).reset_on_success())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next(0),
            Next(1),
            Next(2),
            Next(3),
            Error(Error::msg("down")),
        ]);
        assert_eq!(source.subscribed(), 5);

        // Without the reset, the count is of errors in total.
        let source = scripted(|n| (vec![n as i32], Some("flaky")));
        let o = TestObserver::new();
        source
            .retry_with(RetryConfig::new().count(1))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Next(1), Error(Error::msg("flaky"))]);
    }

    #[test]
    fn reset_on_success_numbers_the_delays_from_one_again() {
        let source = scripted(|n| match n {
            0 => (vec![], Some("a")),
            1 => (vec![1], Some("b")),
            _ => (vec![2], None),
        });
        let mut numbers = Vec::new();
        let o = TestObserver::new();
        source
            .retry_with(RetryConfig::new().reset_on_success().delay_with(|_, n| {
                numbers.push(n);
                just(())
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert_eq!(numbers, [1, 1]);
    }

    #[test]
    fn repeat_with_a_count_and_a_function() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner = sch.clone();
        just('x')
            .repeat_with(
                RepeatConfig::new()
                    .count(3)
                    .delay_with(move |n| timer(ms(u64::from(n)), inner.clone())),
            )
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next('x')),
            (ms(1), Next('x')),
            (ms(3), Next('x')),
            (ms(3), Completed),
        ]);
    }

    #[test]
    fn repeat_with_zero_count_completes_without_subscribing() {
        let source = scripted(|_| (vec![1], None));
        let o = TestObserver::<i32>::new();
        source
            .clone()
            .repeat_with(RepeatConfig::new().count(0))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert_eq!(source.subscribed(), 0);
    }

    #[test]
    fn send_and_sync_when_the_parts_are() {
        use super::{Resubscribe, TimerDelay};
        use crate::source::Just;
        static_assertions::assert_impl_all!(Resubscribe<Just<i32>>: Send, Sync, Clone);
        static_assertions::assert_impl_all!(
            Resubscribe<Just<i32>, TimerDelay<TestScheduler>>: Send, Sync, Clone
        );
        static_assertions::assert_not_impl_any!(Resubscribe<Just<std::rc::Rc<i32>>>: Send);
    }
}
