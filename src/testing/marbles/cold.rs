//! Cold observables: a diagram played to each subscriber from the frame it subscribes at.

use super::parser::{Rules, parse};
use super::subscriptions::{Log, LoggedObserver, SubscriptionSpan};
use super::{Context, MarbleValues, Marbles, default_error};
use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{QueueWorker, Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use parking_lot::Mutex;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

impl Marbles {
    /// A cold observable whose values are the diagram's characters: each subscriber gets the
    /// diagram from the frame it subscribes at.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold("-a-(bc)-|");
    /// let early = m.expect(source.clone());
    /// // A second subscriber, four frames later, gets the same diagram shifted.
    /// let late = m.expect_subscribed(source, "----^");
    /// early.to_be("-a-(bc)-|");
    /// late.to_be("-----a-(bc)-|");
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed (see the [syntax](crate::testing::marbles#syntax)), or has a `^`.
    #[doc(alias = "createColdObservable")]
    #[track_caller]
    pub fn cold(&self, diagram: &str) -> ColdObservable<char> {
        self.cold_with(diagram, |c| c)
    }

    /// A cold observable whose values are looked up in `values`, a table or a closure.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold_with("-a-b-|", |c| match c {
    ///     'a' => 1,
    ///     'b' => 2,
    ///     _ => unreachable!(),
    /// });
    /// m.expect(source.map(|v| v * 2)).to_be("-2-4-|");
    /// ```
    ///
    /// # Panics
    ///
    /// As [`cold`](Marbles::cold), and if a table has no value for a value character.
    #[track_caller]
    pub fn cold_with<T, V: MarbleValues<T>>(&self, diagram: &str, values: V) -> ColdObservable<T> {
        let parsed = parse(diagram, self.ctx.frame, Rules::Cold);
        let script = parsed.notifications(diagram, &values, &default_error());
        ColdObservable {
            ctx: self.ctx.clone(),
            script: script
                .into_iter()
                .map(|(at, n)| (at.unwrap_or_default(), n))
                .collect(),
            log: Arc::new(Log::default()),
        }
    }
}

/// An observable that plays a marble diagram to each subscriber from the frame it subscribes
/// at; made by [`Marbles::cold`] and [`Marbles::cold_with`].
///
/// Unlike [`testing::cold`](crate::testing::cold), which replays its script with one task
/// that reschedules itself, each subscription schedules every frame of the diagram when it is
/// made, as RxJS's and Rx.NET's cold observables do: so a notification comes before the
/// timers a pipeline schedules later for the same frame.
#[must_use = "observables do nothing unless subscribed"]
pub struct ColdObservable<T> {
    ctx: Arc<Context>,
    script: Arc<[(Duration, Notification<T>)]>,
    log: Arc<Log>,
}

impl<T> ColdObservable<T> {
    /// Makes `#` stand for `error` rather than `Error::msg("error")`.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let boom = rx::Error::msg("boom");
    /// let source = m.cold("-a-#").with_error(boom.clone());
    /// m.expect(source).with_error(boom).to_be("-a-#");
    /// ```
    pub fn with_error(self, error: Error) -> Self
    where
        T: Clone,
    {
        let script = self
            .script
            .iter()
            .map(|(at, n)| match n {
                Notification::Error(_) => (*at, Notification::Error(error.clone())),
                n => (*at, n.clone()),
            })
            .collect();
        ColdObservable { script, ..self }
    }

    /// Every subscription made so far, in order.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::{Marbles, SubscriptionSpan};
    /// use std::time::Duration;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold("--a--|");
    /// m.expect(source.clone()).to_be("--a--|");
    /// assert_eq!(
    ///     source.subscriptions(),
    ///     [SubscriptionSpan { subscribed: Duration::ZERO, unsubscribed: Some(Duration::from_millis(5)) }]
    /// );
    /// ```
    pub fn subscriptions(&self) -> Vec<SubscriptionSpan> {
        self.log.spans.lock().clone()
    }

    /// Runs the scheduler until no task is left, then asserts the subscriptions made, in
    /// order, each as a subscription diagram (`^` where it was subscribed, `!` where it was
    /// unsubscribed); RxJS's `expectSubscriptions(source.subscriptions).toBe(...)`. A diagram
    /// with neither marker stands for no subscription, as in RxJS.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold("-a-b-c-|");
    /// m.expect(source.clone().take(2)).to_be("-a-(b|)");
    /// // `take` lets go of its source as soon as it has two values.
    /// source.assert_subscriptions(&["^--!"]);
    /// ```
    ///
    /// # Panics
    ///
    /// If the subscriptions differ (the message draws both), or a diagram is malformed.
    #[doc(alias = "expectSubscriptions")]
    #[track_caller]
    pub fn assert_subscriptions(&self, expected: &[&str]) {
        self.log.assert(&self.ctx, "cold", expected);
    }
}

impl<T> Clone for ColdObservable<T> {
    fn clone(&self) -> Self {
        ColdObservable {
            ctx: self.ctx.clone(),
            script: self.script.clone(),
            log: self.log.clone(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for ColdObservable<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColdObservable")
            .field("script", &self.script)
            .field("subscriptions", &*self.log.spans.lock())
            .finish()
    }
}

impl<T> Observable for ColdObservable<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
}

impl<T, O> Subscribe<O> for ColdObservable<T>
where
    T: Clone + Send + Sync + 'static,
    O: Observer<T> + Send + 'static,
{
    type Subscription = ColdSubscription;

    fn subscribe_observer(self, observer: O) -> ColdSubscription {
        // A worker of its own, so that disposing the subscription cancels every frame left.
        let worker = self.ctx.scheduler.worker();
        let index = self.log.subscribe(&self.ctx);
        let start = self.ctx.now();
        let slot = Arc::new(Mutex::new(Some(LoggedObserver {
            inner: observer,
            ctx: self.ctx.clone(),
            log: self.log.clone(),
            index,
        })));
        let mut first = 0;
        while first < self.script.len() {
            let at = self.script[first].0;
            let end = first
                + self.script[first..]
                    .iter()
                    .take_while(|(t, _)| *t == at)
                    .count();
            let (script, slot) = (self.script.clone(), slot.clone());
            worker.schedule_at(start + at, move || {
                for (_, n) in &script[first..end] {
                    // Taken out while it runs, so that nothing is locked during a callback.
                    let taken = slot.lock().take();
                    let Some(observer) = taken else { break };
                    if observer.is_disposed() {
                        break;
                    }
                    if let Some(observer) = n.clone().deliver(observer)
                        && !observer.is_disposed()
                    {
                        *slot.lock() = Some(observer);
                    }
                }
                Reschedule::Done
            });
            first = end;
        }
        ColdSubscription {
            worker,
            ctx: self.ctx,
            log: self.log,
            index,
        }
    }
}

/// The handle of a subscription to a [`ColdObservable`]; disposing it cancels the frames
/// left and logs the unsubscription.
pub struct ColdSubscription {
    worker: QueueWorker,
    ctx: Arc<Context>,
    log: Arc<Log>,
    index: usize,
}

impl Subscription for ColdSubscription {
    fn dispose(&self) {
        self.log.unsubscribe(&self.ctx, self.index);
        self.worker.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.log.is_unsubscribed(self.index)
    }
}

impl fmt::Debug for ColdSubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColdSubscription")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::testing::marbles::test_support::*;

    #[test]
    fn cold_plays_the_diagram_to_each_subscriber_from_its_subscription() {
        let m = marbles();
        let source = m.cold("-a-(b|)");
        let first = m.expect(source.clone());
        let second = m.expect_subscribed(source.clone(), "---^");
        first.to_be("-a-(b|)");
        second.to_be("----a-(b|)");
        source.assert_subscriptions(&["^--!", "---^--!"]);
    }

    #[test]
    fn disposing_a_cold_subscription_cancels_its_frames_and_is_logged() {
        let m = marbles();
        let source = m.cold("-a-b-c-|");
        m.expect_subscribed(source.clone(), "^--!").to_be("-a-");
        source.assert_subscriptions(&["^--!"]);
        assert!(m.scheduler().is_empty(), "the frames left were cancelled");
    }

    #[test]
    fn an_observer_found_disposed_ends_the_subscription() {
        let m = marbles();
        let source = m.cold("-a-b-c-|");
        let observer = crate::testing::TestObserver::new();
        let handle = source.clone().subscribe_observer(observer.clone());
        m.scheduler().advance_by(ms(2));
        observer.dispose();
        m.flush();
        observer.assert_values(&['a']);
        source.assert_subscriptions(&["^--!"]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn a_cold_without_end_stays_subscribed() {
        let m = marbles();
        let source = m.cold("-a-");
        m.expect(source.clone()).to_be("-a");
        source.assert_subscriptions(&["^"]);
        source.assert_subscriptions(&["^-----"]);
        assert_eq!(source.subscriptions()[0].unsubscribed, None);
        let unused = m.cold("a");
        unused.assert_subscriptions(&[]);
        unused.assert_subscriptions(&["----"]);
    }

    #[test]
    fn with_error_replaces_what_hash_stands_for() {
        let m = marbles();
        let boom = Error::msg("boom");
        let cold = m.cold("-#").with_error(boom.clone());
        let hot = m.hot("--#").with_error(boom.clone());
        assert_eq!(
            m.expect(cold).timeline(),
            [(ms(1), Notification::Error(boom.clone()))]
        );
        assert_eq!(
            m.expect(hot).timeline(),
            [(ms(2), Notification::Error(boom))]
        );
    }
}
