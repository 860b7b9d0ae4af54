//! Expectations: subscribing a pipeline on the marble timeline and comparing what it emits
//! with a diagram.

use super::parser::{Kind, Rules, expected_timeline, parse, parse_subscription};
use super::rendering::{render, single_char, when};
use super::{Context, MarbleValues, Marbles, default_error};
use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::schedulers::TestScheduler;
use crate::subscription::Subscription;
use crate::testing::TimedObserver;
use crate::time::Instant;
use parking_lot::Mutex;
use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::time::Duration;

impl Marbles {
    /// Subscribes `source` at the current frame, as soon as the scheduler runs and before the
    /// hot observables' notifications of that frame, and returns the [`Expectation`] that
    /// records what it emits.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold("-a-b-c-|");
    /// m.expect(source.filter(|c| *c != 'b')).to_be("-a---c-|");
    /// ```
    #[doc(alias = "expectObservable")]
    pub fn expect<S>(&self, source: S) -> Expectation<<S as Observable>::Item>
    where
        S: Subscribe<TimedObserver<<S as Observable>::Item, TestScheduler>> + Send + 'static,
        S::Subscription: Send + 'static,
        <S as Observable>::Item: Send + 'static,
    {
        let now = self.ctx.now();
        self.subscribe_between(source, now, None)
    }

    /// Subscribes `source` at the frame of the `^` of `subscription` (frame zero without
    /// one) and disposes the subscription at the frame of its `!` (never without one), as
    /// RxJS's `expectObservable(source, subscription)`.
    ///
    /// A subscription diagram has only `-`, spaces, time progressions, groups, one `^` and
    /// one `!`; `^` takes a frame and `!` takes none, so `^--!` disposes at frame 3. Frames
    /// count from frame zero. After the `!`, the recording observer reports
    /// [`is_disposed`](crate::Observer::is_disposed); anything that still arrives is recorded, so
    /// an operator that emits after it was disposed fails the expectation.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::source::interval;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let ticks = interval(Duration::from_millis(2), sch.clone());
    /// m.expect_subscribed(ticks, "-^------!").to_be("---0-1-2");
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed, or its `^` is at a frame that has already passed.
    #[track_caller]
    pub fn expect_subscribed<S>(
        &self,
        source: S,
        subscription: &str,
    ) -> Expectation<<S as Observable>::Item>
    where
        S: Subscribe<TimedObserver<<S as Observable>::Item, TestScheduler>> + Send + 'static,
        S::Subscription: Send + 'static,
        <S as Observable>::Item: Send + 'static,
    {
        let (subscribed, unsubscribed) = parse_subscription(subscription, self.ctx.frame);
        let at = self.ctx.zero + subscribed.unwrap_or_default();
        assert!(
            at >= self.ctx.now(),
            "expect_subscribed: the subscription frame ({}) has already passed; the scheduler \
             is at {} (make every expectation before the first `to_be`, which runs the \
             scheduler to the end)",
            when(at - self.ctx.zero, self.ctx.frame),
            when(self.ctx.elapsed(), self.ctx.frame),
        );
        self.subscribe_between(source, at, unsubscribed.map(|u| self.ctx.zero + u))
    }

    fn subscribe_between<S>(
        &self,
        source: S,
        at: Instant,
        until: Option<Instant>,
    ) -> Expectation<<S as Observable>::Item>
    where
        S: Subscribe<TimedObserver<<S as Observable>::Item, TestScheduler>> + Send + 'static,
        S::Subscription: Send + 'static,
        <S as Observable>::Item: Send + 'static,
    {
        let observer = TimedObserver::new(&self.ctx.scheduler);
        let watched = observer.clone();
        self.ctx.watch(Box::new(move || watched.is_finished()));
        let handle = Arc::new(Mutex::new(None));
        let (o, h) = (observer.clone(), handle.clone());
        self.ctx.schedule_first(
            at,
            Box::new(move || {
                let subscription = source.subscribe_observer(o);
                *h.lock() = Some(subscription);
            }),
        );
        if let Some(until) = until {
            let o = observer.clone();
            self.ctx.schedule_first(
                until,
                Box::new(move || {
                    o.dispose();
                    let subscription = handle.lock().take();
                    if let Some(s) = subscription {
                        s.dispose();
                    }
                }),
            );
        }
        Expectation {
            ctx: self.ctx.clone(),
            _scheduler: self.scheduler().clone(),
            offset: self.ctx.elapsed(),
            observer,
            error: default_error(),
        }
    }
}

/// What a subscription made by [`Marbles::expect`] or [`Marbles::expect_subscribed`]
/// receives; assert it with [`to_be`](Expectation::to_be).
#[must_use = "an expectation checks nothing until `to_be` or `timeline` is called"]
pub struct Expectation<T> {
    ctx: Arc<Context>,
    /// Keeps the tasks that feed `observer` alive until the expectation is checked.
    _scheduler: TestScheduler,
    /// From frame zero to when `observer`'s clock started.
    offset: Duration,
    observer: TimedObserver<T, TestScheduler>,
    error: Error,
}

impl<T> Expectation<T> {
    /// Makes `#` in the expected diagram stand for `error` rather than
    /// `Error::msg("error")`. Errors are equal when they are the same error or have the
    /// same message.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold("-a-----b-|");
    /// m.expect(source.timeout(Duration::from_millis(3), sch.clone()))
    ///     .with_error(rx::Error::msg("the source signalled nothing for 3ms"))
    ///     .to_be("-a--#");
    /// ```
    pub fn with_error(self, error: Error) -> Self {
        Expectation { error, ..self }
    }

    /// Runs the scheduler until no task is left, and returns what was received, each with
    /// its time since frame zero.
    ///
    /// ```
    /// use rx::Notification::{Completed, Next};
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let us = Duration::from_micros;
    /// let delayed = m.cold("a|").delay(us(2500), sch.clone());
    /// assert_eq!(m.expect(delayed).timeline(), [(us(2500), Next('a')), (us(3500), Completed)]);
    /// ```
    ///
    /// # Panics
    ///
    /// If called from a task of the scheduler.
    pub fn timeline(&self) -> Vec<(Duration, Notification<T>)>
    where
        T: Clone,
    {
        self.ctx.flush();
        self.observer
            .timeline()
            .into_iter()
            .map(|(at, n)| (at + self.offset, n))
            .collect()
    }

    /// Runs the scheduler until no task is left, and asserts that what was received is what
    /// `diagram` shows. A value matches a character when its [`Display`](fmt::Display) text
    /// is that character, so numbers from 0 to 9 are drawn as themselves. Frames count from
    /// frame zero, or from a `^` in the diagram.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let source = m.cold("-1-2-3-|").map(|c| c.to_digit(10).unwrap() * 3);
    /// m.expect(source.filter(|v| v % 2 == 1)).to_be("-3---9-|");
    /// ```
    ///
    /// # Panics
    ///
    /// If what was received differs: the message draws both diagrams, one above the other,
    /// and points at the first difference. Also if the diagram is malformed.
    #[doc(alias = "toBe")]
    #[track_caller]
    pub fn to_be(self, diagram: &str)
    where
        T: Clone + fmt::Display,
    {
        let expected = expected_timeline(diagram, self.ctx.frame, &|c: char| c, &self.error);
        let actual = self.timeline();
        assert_timelines(
            self.ctx.frame,
            &expected,
            &actual,
            |e, a| a.to_string() == e.to_string(),
            |e| Some(*e),
            single_char,
            |e| e.to_string(),
            |a| a.to_string(),
        );
    }

    /// As [`to_be`](Expectation::to_be), with the diagram's characters looked up in
    /// `values`; values match when they are equal.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let words = m.cold_with("-a-b-|", [('a', "hello"), ('b', "world")]);
    /// m.expect(words.map(str::len)).to_be_with("-x-x-|", [('x', 5)]);
    /// ```
    ///
    /// # Panics
    ///
    /// As [`to_be`](Expectation::to_be), and if a table has no value for a value character.
    #[track_caller]
    pub fn to_be_with<V>(self, diagram: &str, values: V)
    where
        T: Clone + PartialEq + fmt::Debug,
        V: MarbleValues<T>,
    {
        let expected = expected_timeline(diagram, self.ctx.frame, &values, &self.error);
        let actual = self.timeline();
        // Actual values are drawn with the characters the diagram uses for them.
        let table: Vec<(char, T)> = parse(diagram, self.ctx.frame, Rules::Expected)
            .events
            .iter()
            .filter_map(|e| match e.kind {
                Kind::Value(c) => values.value_of(c).map(|v| (c, v)),
                _ => None,
            })
            .collect();
        assert_timelines(
            self.ctx.frame,
            &expected,
            &actual,
            |e, a| e == a,
            |e| table.iter().find(|(_, v)| v == e).map(|(c, _)| *c),
            |a| table.iter().find(|(_, v)| v == a).map(|(c, _)| *c),
            |e| format!("{e:?}"),
            |a| format!("{a:?}"),
        );
    }
}

impl<T: fmt::Debug> fmt::Debug for Expectation<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expectation")
            .field("received", &self.observer)
            .field("error", &self.error)
            .finish()
    }
}
#[allow(clippy::too_many_arguments)]
#[track_caller]
fn assert_timelines<E, T>(
    frame: Duration,
    expected: &[(Duration, Notification<E>)],
    actual: &[(Duration, Notification<T>)],
    same: impl Fn(&E, &T) -> bool,
    marble_e: impl Fn(&E) -> Option<char>,
    marble_t: impl Fn(&T) -> Option<char>,
    show_e: impl Fn(&E) -> String,
    show_t: impl Fn(&T) -> String,
) {
    let matches = |(te, e): &(Duration, Notification<E>), (ta, a): &(Duration, Notification<T>)| {
        te == ta
            && match (e, a) {
                (Notification::Next(e), Notification::Next(a)) => same(e, a),
                (Notification::Error(e), Notification::Error(a)) => e == a,
                (Notification::Completed, Notification::Completed) => true,
                _ => false,
            }
    };
    let first =
        (0..expected.len().max(actual.len())).find(|&i| match (expected.get(i), actual.get(i)) {
            (Some(e), Some(a)) => !matches(e, a),
            _ => true,
        });
    let Some(i) = first else { return };

    fn describe<V>(n: &Notification<V>, show: impl Fn(&V) -> String) -> String {
        match n {
            Notification::Next(v) => format!("value {}", show(v)),
            Notification::Error(e) => format!("error {:?}", e.to_string()),
            Notification::Completed => "completion".to_string(),
        }
    }
    let (re, ra) = (
        render(expected, frame, &marble_e),
        render(actual, frame, &marble_t),
    );
    let detail = match (expected.get(i), actual.get(i)) {
        (Some((te, e)), Some((ta, a))) if te == ta => format!(
            "at {}: expected {}, got {}",
            when(*te, frame),
            describe(e, &show_e),
            describe(a, &show_t)
        ),
        (Some((te, e)), Some((ta, a))) => format!(
            "expected {} at {}, got {} at {}",
            describe(e, &show_e),
            when(*te, frame),
            describe(a, &show_t),
            when(*ta, frame)
        ),
        (Some((te, e)), None) => format!(
            "expected {} at {}, got nothing more",
            describe(e, &show_e),
            when(*te, frame)
        ),
        (None, Some((ta, a))) => format!(
            "got {} at {}, expected nothing more",
            describe(a, &show_t),
            when(*ta, frame)
        ),
        (None, None) => unreachable!("a difference is at an index one of them has"),
    };
    let column = match (re.columns.get(i), ra.columns.get(i)) {
        (Some(a), Some(b)) => *a.min(b),
        (Some(c), None) | (None, Some(c)) => *c,
        (None, None) => 0,
    };
    let mut message = format!(
        "marble diagrams differ (one frame is {frame:?})\nexpected: {}\nactual:   {}\n          {:>width$} {detail}",
        re.line,
        ra.line,
        "^",
        width = column + 1
    );
    if re.lossy || ra.lossy {
        let list = |events: Vec<String>| events.join(", ");
        let _ = write!(
            message,
            "\nthe diagrams cannot show everything; in full:\nexpected: [{}]\nactual:   [{}]",
            list(
                expected
                    .iter()
                    .map(|(t, n)| format!("{}: {}", when(*t, frame), describe(n, &show_e)))
                    .collect()
            ),
            list(
                actual
                    .iter()
                    .map(|(t, n)| format!("{}: {}", when(*t, frame), describe(n, &show_t)))
                    .collect()
            ),
        );
    }
    panic!("{message}");
}
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::Notification::{Completed, Next};
    use crate::ObservableExt;
    use crate::observer::Observer;
    use crate::schedulers::{Reschedule, Scheduler, Worker};
    use crate::subscription::Finished;
    use crate::testing::marbles::test_support::*;

    #[test]
    fn expectations_after_a_flush_subscribe_at_the_current_frame() {
        let m = marbles();
        let source = m.cold("-a|");
        m.expect(source.clone()).to_be("-a|");
        assert_eq!(m.scheduler().elapsed(), ms(2));
        m.expect(source).to_be("---a|");
    }

    #[test]
    #[should_panic(
        expected = "the subscription frame (frame 1) has already passed; the scheduler is at frame 2"
    )]
    fn subscribing_in_the_past_panics() {
        let m = marbles();
        m.expect(m.cold("-a|")).to_be("-a|");
        let _ = m.expect_subscribed(m.cold("a"), "-^");
    }

    #[test]
    fn timelines_are_exact() {
        let sch = TestScheduler::new();
        let m = Marbles::new(&sch);
        let source = m.cold("a-|").delay(Duration::from_micros(500), sch.clone());
        assert_eq!(
            m.expect(source).timeline(),
            [
                (Duration::from_micros(500), Next('a')),
                (Duration::from_micros(2500), Completed)
            ]
        );
    }

    // ---------------------------------------------------------------- failure messages

    #[test]
    fn a_difference_in_time_is_drawn_aligned() {
        let m = marbles();
        let message = panic_message(|| m.expect(m.cold("-a---b-|")).to_be("-a--b--|"));
        assert_eq!(
            message,
            "marble diagrams differ (one frame is 1ms)\n\
             expected: -a--b--|\n\
             actual:   -a---b-|\n\
             \x20             ^ expected value b at frame 4, got value b at frame 5"
        );
    }

    #[test]
    fn a_difference_in_value_error_or_length_is_described() {
        let differ = |source: &str, expected: &str| {
            let m = marbles();
            panic_message(|| {
                m.expect(m.cold(source))
                    .with_error(Error::msg("boom"))
                    .to_be(expected)
            })
        };
        let message = differ("-a-c|", "-a-b|");
        assert!(
            message.ends_with("\n             ^ at frame 3: expected value b, got value c"),
            "{message}"
        );
        let message = differ("-#", "-#");
        assert!(
            message.ends_with("^ at frame 1: expected error \"boom\", got error \"error\""),
            "{message}"
        );
        let message = differ("-a", "-a|");
        assert!(
            message.ends_with("\n            ^ expected completion at frame 2, got nothing more"),
            "{message}"
        );
        let message = differ("-a-b", "-a");
        assert!(
            message.ends_with("\n             ^ got value b at frame 3, expected nothing more"),
            "{message}"
        );
    }

    #[test]
    fn values_without_a_character_are_listed_in_full() {
        let m = marbles();
        let source = m.cold_with("-a|", [('a', 42)]);
        let message = panic_message(|| m.expect(source).to_be("-4|"));
        assert_eq!(
            message,
            "marble diagrams differ (one frame is 1ms)\n\
             expected: -4|\n\
             actual:   -?|\n\
             \x20          ^ at frame 1: expected value 4, got value 42\n\
             the diagrams cannot show everything; in full:\n\
             expected: [frame 1: value 4, frame 2: completion]\n\
             actual:   [frame 1: value 42, frame 2: completion]"
        );
        let m = marbles();
        let source = m.cold_with("-a|", [('a', 42)]);
        let message = panic_message(|| m.expect(source).to_be_with("-x|", [('x', 41)]));
        assert!(
            message.contains("expected: -x|\nactual:   -?|\n"),
            "{message}"
        );
        assert!(
            message.contains("at frame 1: expected value 41, got value 42"),
            "{message}"
        );
    }

    #[test]
    fn values_drawn_with_the_table_characters() {
        let m = marbles();
        let source = m.cold_with("-a-b|", [('a', 10), ('b', 20)]);
        let message =
            panic_message(|| m.expect(source).to_be_with("-y-x|", [('x', 10), ('y', 20)]));
        assert!(
            message.contains("expected: -y-x|\nactual:   -x-y|\n"),
            "{message}"
        );
    }

    #[test]
    fn subscription_differences_are_drawn() {
        let m = marbles();
        let source = m.cold("-a-|");
        m.expect(source.clone()).to_be("-a-|");
        let message = panic_message(|| source.assert_subscriptions(&["^--!", "-^"]));
        assert_eq!(
            message,
            "subscriptions to the cold observable differ (one frame is 1ms)\n\
             expected:\n\
             \x20   ^--!         (subscribed at frame 0, unsubscribed at frame 3)\n\
             \x20   -^           (subscribed at frame 1, never unsubscribed)\n\
             actual:\n\
             \x20   ^--!         (subscribed at frame 0, unsubscribed at frame 3)"
        );
    }

    /// Emits on its own timer whatever its observer says: an operator that ignores disposal.
    #[derive(Clone)]
    struct Unruly(TestScheduler);

    impl Observable for Unruly {
        type Item = char;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<char> + Send + 'static> Subscribe<O> for Unruly {
        type Subscription = Finished;

        fn subscribe_observer(self, observer: O) -> Finished {
            let mut observer = Some(observer);
            let mut next = 'a';
            self.0.worker().schedule_after(ms(1), move || {
                observer.as_mut().unwrap().on_next(next);
                next = char::from(next as u8 + 1);
                if next == 'e' {
                    observer.take().unwrap().on_completed();
                    return Reschedule::Done;
                }
                Reschedule::After(ms(1))
            });
            Finished
        }
    }

    #[test]
    fn notifications_after_the_unsubscription_are_recorded() {
        let m = marbles();
        let message = panic_message(|| {
            m.expect_subscribed(Unruly(m.scheduler().clone()), "^--!")
                .to_be("-ab")
        });
        // `c` is due at the frame of `!`, which comes first.
        assert!(message.contains("actual:   -abc(d|)"), "{message}");
    }

    #[test]
    fn pipelines_that_are_not_marbles_can_be_expected() {
        let sch = TestScheduler::new();
        let m = Marbles::new(&sch);
        m.expect(crate::source::from_iter(1..=3)).to_be("(123|)");
        m.expect(crate::source::timer(ms(3), sch.clone()))
            .to_be("---(0|)");
    }
}
