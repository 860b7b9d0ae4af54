//! Hot observables: one diagram, one timeline, shared by every subscriber.

use super::parser::{Rules, parse};
use super::subscriptions::{Log, LoggedObserver, SubscriptionSpan};
use super::{Context, MarbleValues, Marbles, default_error};
use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{Reschedule, Worker};
use crate::subjects::{PublishSubject, SubjectSubscription};
use crate::subscription::Subscription;
use parking_lot::Mutex;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

impl Marbles {
    /// A hot observable whose values are the diagram's characters: one timeline shared by
    /// all subscribers, with `^` (or the first character, without one) at frame zero.
    ///
    /// Its notifications are scheduled at once, on the context's scheduler; frames that have
    /// already passed (the context's frame zero is behind the scheduler) happen as soon as it
    /// runs.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.hot("--a--^--b--c--|");
    /// let early = m.expect(source.clone());
    /// // A later subscriber misses what came before it subscribed.
    /// let late = m.expect_subscribed(source, "----^");
    /// early.to_be("---b--c--|");
    /// late.to_be(" ------c--|");
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed (see the [syntax](crate::testing::marbles#syntax)).
    #[doc(alias = "createHotObservable")]
    #[track_caller]
    pub fn hot(&self, diagram: &str) -> HotObservable<char> {
        self.hot_with(diagram, |c| c)
    }

    /// A hot observable whose values are looked up in `values`, a table or a closure.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.hot_with("-a-^-b-|", [('a', 1), ('b', 2)]);
    /// m.expect(source.map(|v| v + 1)).to_be("--3-|");
    /// ```
    ///
    /// # Panics
    ///
    /// As [`hot`](Marbles::hot), and if a table has no value for a value character.
    #[track_caller]
    pub fn hot_with<T, V>(&self, diagram: &str, values: V) -> HotObservable<T>
    where
        T: Clone + Send + 'static,
        V: MarbleValues<T>,
    {
        let parsed = parse(diagram, self.ctx.frame, Rules::Hot);
        let script = parsed.notifications(diagram, &values, &default_error());
        let mut before = Vec::new();
        let mut frames: Vec<(Duration, Vec<Notification<T>>)> = Vec::new();
        for (at, n) in script {
            match (at, frames.last_mut()) {
                (None, _) => before.push(n),
                (Some(at), Some((last, group))) if *last == at => group.push(n),
                (Some(at), _) => frames.push((at, vec![n])),
            }
        }
        let shared = Arc::new(HotShared {
            ctx: self.ctx.clone(),
            subject: PublishSubject::new(),
            before: Mutex::new(Some(before)),
            error: Mutex::new(default_error()),
            log: Arc::new(Log::default()),
        });
        // One task per frame, scheduled now, as RxJS schedules one action per notification
        // before running: so they come before any timer a pipeline schedules for that frame.
        for (at, group) in frames {
            let shared = shared.clone();
            let mut group = Some(group);
            self.ctx.worker.schedule_at(self.ctx.zero + at, move || {
                shared.ctx.run_pending();
                shared.start();
                for n in group.take().into_iter().flatten() {
                    shared.emit(n);
                }
                Reschedule::Done
            });
        }
        HotObservable { shared }
    }
}

/// An observable that plays one marble diagram to all its subscribers, on the context's
/// timeline; made by [`Marbles::hot`] and [`Marbles::hot_with`]. A
/// [`PublishSubject`] driven by scheduled tasks.
#[must_use = "observables do nothing unless subscribed"]
pub struct HotObservable<T> {
    shared: Arc<HotShared<T>>,
}

struct HotShared<T> {
    ctx: Arc<Context>,
    subject: PublishSubject<T>,
    /// What the diagram has before `^`, delivered (to nobody, so only a terminal
    /// notification matters) before the first subscription or the first frame, whichever
    /// comes first.
    before: Mutex<Option<Vec<Notification<T>>>>,
    error: Mutex<Error>,
    log: Arc<Log>,
}

impl<T: Clone + Send + 'static> HotShared<T> {
    fn start(&self) {
        let before = self.before.lock().take();
        for n in before.into_iter().flatten() {
            self.emit(n);
        }
    }

    fn emit(&self, n: Notification<T>) {
        let n = match n {
            Notification::Error(_) => Notification::Error(self.error.lock().clone()),
            n => n,
        };
        n.deliver(self.subject.observer());
    }
}

impl<T> HotObservable<T> {
    /// Makes `#` stand for `error` rather than `Error::msg("error")`, for this observable and
    /// every clone of it; call it before the error is due.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let boom = rx::Error::msg("boom");
    /// let source = m.hot("-a-#").with_error(boom.clone());
    /// m.expect(source).with_error(boom).to_be("-a-#");
    /// ```
    pub fn with_error(self, error: Error) -> Self {
        *self.shared.error.lock() = error;
        self
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
    /// let source = m.hot("-a-^-b-|");
    /// m.expect_subscribed(source.clone(), "-^").to_be("--b-|");
    /// let ms = Duration::from_millis;
    /// assert_eq!(
    ///     source.subscriptions(),
    ///     [SubscriptionSpan { subscribed: ms(1), unsubscribed: Some(ms(4)) }]
    /// );
    /// ```
    pub fn subscriptions(&self) -> Vec<SubscriptionSpan> {
        self.shared.log.spans.lock().clone()
    }

    /// Runs the scheduler until no task is left, then asserts the subscriptions made, as
    /// [`ColdObservable::assert_subscriptions`](crate::testing::marbles::ColdObservable::assert_subscriptions) does.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.hot("-a-b-c-d-|");
    /// let stop = m.hot("  ----x");
    /// m.expect(source.clone().take_until(stop.clone())).to_be("-a-b|");
    /// source.assert_subscriptions(&["^---!"]);
    /// stop.assert_subscriptions(&["^---!"]);
    /// ```
    ///
    /// # Panics
    ///
    /// If the subscriptions differ (the message draws both), or a diagram is malformed.
    #[doc(alias = "expectSubscriptions")]
    #[track_caller]
    pub fn assert_subscriptions(&self, expected: &[&str]) {
        self.shared.log.assert(&self.shared.ctx, "hot", expected);
    }
}

impl<T> Clone for HotObservable<T> {
    fn clone(&self) -> Self {
        HotObservable {
            shared: self.shared.clone(),
        }
    }
}

impl<T> fmt::Debug for HotObservable<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HotObservable")
            .field("subscriptions", &*self.shared.log.spans.lock())
            .finish_non_exhaustive()
    }
}

impl<T> Observable for HotObservable<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
}

impl<T, O> Subscribe<O> for HotObservable<T>
where
    T: Clone + Send + 'static,
    O: Observer<T> + Send + 'static,
{
    type Subscription = HotSubscription<T>;

    fn subscribe_observer(self, observer: O) -> HotSubscription<T> {
        let shared = self.shared;
        shared.start();
        let index = shared.log.subscribe(&shared.ctx);
        let inner = shared
            .subject
            .observable()
            .subscribe_observer(LoggedObserver {
                inner: observer,
                ctx: shared.ctx.clone(),
                log: shared.log.clone(),
                index,
            });
        HotSubscription {
            inner,
            ctx: shared.ctx.clone(),
            log: shared.log.clone(),
            index,
        }
    }
}

/// The handle of a subscription to a [`HotObservable`]; disposing it removes the observer
/// and logs the unsubscription.
pub struct HotSubscription<T> {
    inner: SubjectSubscription<T>,
    ctx: Arc<Context>,
    log: Arc<Log>,
    index: usize,
}

impl<T: Clone + Send> Subscription for HotSubscription<T> {
    fn dispose(&self) {
        self.log.unsubscribe(&self.ctx, self.index);
        self.inner.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.log.is_unsubscribed(self.index)
    }
}

impl<T> fmt::Debug for HotSubscription<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HotSubscription")
            .field("disposed", &self.log.is_unsubscribed(self.index))
            .finish()
    }
}
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::testing::marbles::test_support::*;

    #[test]
    fn hot_shares_one_timeline() {
        let m = marbles();
        let source = m.hot("-a-b-c-|");
        let first = m.expect(source.clone());
        let second = m.expect_subscribed(source.clone(), "--^");
        first.to_be("-a-b-c-|");
        second.to_be("---b-c-|");
        source.assert_subscriptions(&["^------!", "--^----!"]);
    }

    #[test]
    fn hot_values_before_the_subscription_point_are_not_seen() {
        let m = marbles();
        m.expect(m.hot("ab^-c|")).to_be("--c|");
    }

    #[test]
    fn hot_termination_before_the_subscription_point_reaches_late_subscribers() {
        let m = marbles();
        let source = m.hot("-a-|-^---");
        m.expect_subscribed(source.clone(), "--^").to_be("--|");
        source.assert_subscriptions(&["--(^!)"]);
        let m = marbles();
        m.expect(m.hot("#^").with_error(Error::msg("early")))
            .with_error(Error::msg("early"))
            .to_be("#");
    }

    #[test]
    fn a_subscription_at_a_frame_sees_the_hot_notification_of_that_frame() {
        let m = marbles();
        let source = m.hot("---a--|");
        // The expectation is made after the hot observable, yet subscribes first, as in RxJS.
        m.expect_subscribed(source, "---^").to_be("---a--|");
    }

    #[test]
    fn an_unsubscription_at_a_frame_comes_before_the_hot_notification_of_that_frame() {
        let m = marbles();
        let source = m.hot("--a-b-c");
        m.expect_subscribed(source.clone(), "^---!").to_be("--a");
        source.assert_subscriptions(&["^---!"]);
    }
}
