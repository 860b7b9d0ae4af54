//! Marble diagrams: observables and expectations written as ASCII timelines, run on the
//! virtual time of a [`TestScheduler`].
//!
//! This is RxJS's `TestScheduler.run(({ cold, hot, expectObservable }) => ...)`: build source
//! observables from diagrams, put an operator between them, and state what comes out as
//! another diagram. Each character of a diagram is one *frame* of virtual time; a [`Marbles`]
//! context fixes how long a frame is (1 ms unless [`Marbles::with_frame`] says otherwise, as in
//! RxJS's run mode) and where frame zero is (the scheduler's time when the context is made).
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::marbles::Marbles;
//! use std::time::Duration;
//!
//! let sch = TestScheduler::new();
//! let m = Marbles::new(&sch);
//! let source = m.cold("-a--b-c---|");
//! m.expect(source.debounce(Duration::from_millis(2), sch.clone()))
//!     .to_be("---a----c-|");
//! ```
//!
//! # Syntax
//!
//! The rules are RxJS's (`TestScheduler.parseMarbles`, run mode), character by character:
//!
//! | marble | meaning | time it takes |
//! |---|---|---|
//! | `-` | nothing happens | one frame |
//! | ` ` (space) | nothing: use it to align diagrams | none |
//! | any other character, e.g. `a`, `7` | a value, emitted at this frame | one frame |
//! | `\|` | completion | one frame |
//! | `#` | an error: [`Error::msg("error")`](Error::msg) unless `with_error` says otherwise | one frame |
//! | `(abc)` | a group: everything inside happens at the frame of the `(` | one frame per character, brackets included: `(ab)` takes four |
//! | `^` | the subscription point of a hot observable: frame zero | one frame |
//! | `10ms `, `1.5s `, `2m ` | time progression: a number, a unit (`ms`, `s`, `m`) and a space, at the start or after a space | that much virtual time |
//! | `!` | the unsubscription point; only in subscription diagrams | none |
//!
//! So `--a--(bc)--|` emits `a` at frame 2, `b` and `c` at frame 5, and completes at frame 11;
//! `a 9ms b|` emits `a` at frame 0 and `b` at frame 10, and completes at frame 11.
//!
//! A value character stands for itself (a `char`), or for what a value table or closure maps
//! it to (the `_with` methods take any [`MarbleValues`]). A digit at the start or after a space
//! begins a time progression when a unit and a space follow it, and is a value otherwise:
//! `a 1 b` has the value `1`, while `a 1ms b` waits a millisecond; as in RxJS, `a 1ms` at the
//! very end, with no space after the unit, is the four values `a`, `1`, `m` and `s`.
//!
//! Where RxJS does not check, these rules do, and a diagram that breaks them panics with a
//! message that points at the column: nothing but time after the terminal `|` or `#`, no
//! nested or unbalanced groups, at most one `^`, none in a cold observable or inside a group,
//! and no `!` outside subscription diagrams. Unlike RxJS, which counts characters, the frame of
//! `^` takes spaces and time progressions before it into account.
//!
//! # Cold, hot, and the order of events within a frame
//!
//! A [cold](Marbles::cold) observable plays its diagram to each subscriber, from the frame it
//! subscribes at. A [hot](Marbles::hot) observable plays one timeline to all its subscribers,
//! with `^` at frame zero: what comes before `^` happened before anyone could subscribe, so
//! subscribers see only its terminal notification, if it has one.
//!
//! Within one frame, things happen in RxJS's order: first the subscriptions and
//! unsubscriptions of expectations ([`expect`](Marbles::expect),
//! [`expect_subscribed`](Marbles::expect_subscribed)), then the notifications of hot
//! observables and of the cold observables subscribed before that frame, then the timers the
//! pipeline itself scheduled for that frame. So a `debounce` whose timer falls due at the frame
//! of the next value sees the value first, and restarts.
//!
//! # Asserting
//!
//! [`Marbles::expect`] subscribes an observable at the current frame (and
//! [`Marbles::expect_subscribed`] at the `^` of a subscription diagram, disposing it at `!`);
//! [`Expectation::to_be`] runs the scheduler until no task is left and compares what was
//! received with a diagram, frame by frame. Make every expectation of a test before the first
//! `to_be`: an expectation made afterwards subscribes at the frame the scheduler stopped at. On
//! a difference `to_be` panics with both diagrams, one above the other, and a caret under the
//! first difference:
//!
//! ```text
//! marble diagrams differ (one frame is 1ms)
//! expected: -a--b--|
//! actual:   -a---b-|
//!               ^ expected value b at frame 4, got value b at frame 5
//! ```
//!
//! An observable that never ends needs a `!` in its subscription diagram (or a `take`), or
//! running the scheduler never ends, as in RxJS. For exact times rather than frames,
//! [`Expectation::timeline`] returns what was received with its times.
//!
//! Cold and hot observables log when they are subscribed and unsubscribed, to check that an
//! operator subscribes to its sources, and lets go of them, when it should
//! ([`ColdObservable::assert_subscriptions`]). A source unsubscribes when it delivers its
//! terminal notification, when its subscription is disposed, or when it notices that its
//! observer [is disposed](Observer::is_disposed) (it checks before and after every
//! notification).

use crate::Error;
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{QueueWorker, Reschedule, Scheduler, TestScheduler, Worker};
use crate::subjects::{PublishSubject, SubjectSubscription};
use crate::subscription::Subscription;
use crate::testing::TimedObserver;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::hash::BuildHasher;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Gaps longer than this many frames are rendered as a time progression, not dashes.
const MAX_DASHES: u128 = 40;

// ======================================================================== the context

/// A marble-testing context: a [`TestScheduler`], the length of a frame, and frame zero.
///
/// Everything made from one context shares its timeline: cold and hot observables, and the
/// expectations that subscribe to pipelines built from them. A cheap `Clone` handle.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::marbles::Marbles;
///
/// let sch = TestScheduler::new();
/// let m = Marbles::new(&sch);
/// let numbers = m.cold_with("-a-b-|", [('a', 1), ('b', 2)]);
/// m.expect(numbers.map(|v| v * 10)).to_be_with("-x-y-|", [('x', 10), ('y', 20)]);
/// ```
#[derive(Clone)]
pub struct Marbles {
    ctx: Arc<Context>,
}

struct Context {
    scheduler: TestScheduler,
    /// Runs the hot observables' notifications and the expectations' (un)subscriptions.
    worker: QueueWorker,
    zero: Instant,
    frame: Duration,
    /// The (un)subscriptions of expectations, each run by whichever task of its frame runs
    /// first, so that they come before the hot observables' notifications of that frame (as
    /// in RxJS, where they are scheduled before the hot observables are set up).
    pending: Mutex<Vec<(Instant, Action)>>,
}

type Action = Box<dyn FnOnce() + Send>;

impl Context {
    fn now(&self) -> Instant {
        self.worker.now()
    }

    /// Virtual time since frame zero.
    fn elapsed(&self) -> Duration {
        self.now().saturating_duration_since(self.zero)
    }

    fn flush(&self) {
        self.scheduler.run();
    }

    /// Runs `action` at `at`, before the hot observables' notifications of that instant.
    fn schedule_first(self: &Arc<Self>, at: Instant, action: Action) {
        self.pending.lock().push((at, action));
        let ctx = self.clone();
        self.worker.schedule_at(at, move || {
            ctx.run_pending();
            Reschedule::Done
        });
    }

    fn run_pending(&self) {
        let now = self.now();
        loop {
            let action = {
                let mut pending = self.pending.lock();
                match pending.iter().position(|(at, _)| *at <= now) {
                    Some(i) => pending.remove(i).1,
                    None => return,
                }
            };
            action();
        }
    }
}

impl Marbles {
    /// A context on `scheduler` whose frames last 1 ms, and whose frame zero is the
    /// scheduler's time now.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// assert_eq!(m.frame(), Duration::from_millis(1));
    /// assert_eq!(m.time("---|"), Duration::from_millis(3));
    /// ```
    pub fn new(scheduler: &TestScheduler) -> Self {
        Marbles::with_frame(scheduler, Duration::from_millis(1))
    }

    /// A context on `scheduler` whose frames last `frame`. Time progressions (`10ms `) keep
    /// their meaning whatever the frame.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::with_frame(&sch, Duration::from_millis(10));
    /// m.expect(m.cold("a-|").delay(Duration::from_millis(20), sch.clone()))
    ///     .to_be("--a-|");
    /// assert_eq!(sch.elapsed(), Duration::from_millis(40));
    /// ```
    ///
    /// # Panics
    ///
    /// If `frame` is zero.
    pub fn with_frame(scheduler: &TestScheduler, frame: Duration) -> Self {
        assert!(
            !frame.is_zero(),
            "Marbles::with_frame: a frame must last some time"
        );
        Marbles {
            ctx: Arc::new(Context {
                scheduler: scheduler.clone(),
                worker: scheduler.worker(),
                zero: scheduler.now(),
                frame,
                pending: Mutex::new(Vec::new()),
            }),
        }
    }

    /// The scheduler the context runs on.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// m.expect(m.cold("--a|")).to_be("--a|");
    /// assert_eq!(m.scheduler().elapsed(), Duration::from_millis(3));
    /// ```
    pub fn scheduler(&self) -> &TestScheduler {
        &self.ctx.scheduler
    }

    /// How long one frame lasts.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::with_frame(&TestScheduler::new(), Duration::from_secs(1));
    /// assert_eq!(m.frame(), Duration::from_secs(1));
    /// assert_eq!(m.time("--|"), Duration::from_secs(2));
    /// ```
    pub fn frame(&self) -> Duration {
        self.ctx.frame
    }

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
    /// If the diagram is malformed (see the [syntax](self#syntax)), or has a `^`.
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
    /// If the diagram is malformed (see the [syntax](self#syntax)).
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
    /// [`is_disposed`](Observer::is_disposed); anything that still arrives is recorded, so
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
            offset: self.ctx.elapsed(),
            observer,
            error: default_error(),
        }
    }

    /// Runs the scheduler until no task is left. [`Expectation::to_be`] and
    /// [`assert_subscriptions`](ColdObservable::assert_subscriptions) do it themselves.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch);
    /// let observer = TestObserver::new();
    /// m.hot("-a-b-|").subscribe_observer(observer.clone());
    /// m.flush();
    /// observer.assert_values(&['a', 'b']);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Panics
    ///
    /// If called from a task of the scheduler.
    pub fn flush(&self) {
        self.ctx.flush();
    }

    /// The time from the start of `diagram` to its `|`, RxJS's `time`: for operator
    /// arguments that line up with a diagram.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// assert_eq!(m.time("  ---|"), Duration::from_millis(3));
    /// assert_eq!(m.time("-(ab)|"), Duration::from_millis(5));
    /// assert_eq!(m.time("- 1s |"), Duration::from_millis(1001));
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed or has no `|`.
    #[doc(alias = "createTime")]
    #[track_caller]
    pub fn time(&self, diagram: &str) -> Duration {
        let parsed = parse(diagram, self.ctx.frame, Rules::Cold);
        match parsed
            .events
            .iter()
            .find(|e| matches!(e.kind, Kind::Completed))
        {
            Some(e) => e.at,
            None => fail(
                diagram,
                diagram.chars().count() + 1,
                "a time diagram needs a `|`",
            ),
        }
    }

    /// The timeline `diagram` stands for, values being its characters: what
    /// [`Expectation::to_be`] compares with. Times count from `^`, or from the start.
    ///
    /// ```
    /// use rx::Notification::{Completed, Next};
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// assert_eq!(
    ///     m.parse("-a-(bc)|"),
    ///     [(ms(1), Next('a')), (ms(3), Next('b')), (ms(3), Next('c')), (ms(7), Completed)]
    /// );
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed, or has a value or terminal marble before its `^`.
    #[track_caller]
    pub fn parse(&self, diagram: &str) -> Vec<(Duration, Notification<char>)> {
        self.parse_with(diagram, |c| c)
    }

    /// The timeline `diagram` stands for, values being looked up in `values`.
    ///
    /// ```
    /// use rx::Notification::{Error, Next};
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// assert_eq!(
    ///     m.parse_with("--^-x#", [('x', 42)]),
    ///     [(ms(2), Next(42)), (ms(3), Error(rx::Error::msg("error")))]
    /// );
    /// ```
    ///
    /// # Panics
    ///
    /// As [`parse`](Marbles::parse), and if a table has no value for a value character.
    #[track_caller]
    pub fn parse_with<T, V: MarbleValues<T>>(
        &self,
        diagram: &str,
        values: V,
    ) -> Vec<(Duration, Notification<T>)> {
        expected_timeline(diagram, self.ctx.frame, &values, &default_error())
    }

    /// Draws `timeline` as a diagram that [`parse`](Marbles::parse) reads back: values by
    /// their [`Display`](fmt::Display) text, which should be one character (others are drawn
    /// as `?`). Gaps longer than 40 frames are written as time progressions, and so are gaps
    /// that are not whole frames. Events that a diagram cannot place (one frame after a
    /// group of two, say, which still takes four) are drawn right after what precedes them.
    ///
    /// ```
    /// use rx::Notification::{Completed, Next};
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// let timeline = [(ms(2), Next(1)), (ms(5), Next(2)), (ms(5), Completed)];
    /// assert_eq!(m.render(&timeline), "--1--(2|)");
    /// assert_eq!(m.render(&[(ms(100), Next('a'))]), " 100ms a");
    /// ```
    pub fn render<T: fmt::Display>(&self, timeline: &[(Duration, Notification<T>)]) -> String {
        render(timeline, self.ctx.frame, |v| single_char(v)).line
    }
}

impl fmt::Debug for Marbles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Marbles")
            .field("frame", &self.ctx.frame)
            .field("elapsed", &self.ctx.elapsed())
            .finish()
    }
}

fn default_error() -> Error {
    Error::msg("error")
}

// ======================================================================== values

/// What the value characters of a diagram stand for: a table of `(char, T)` pairs (an array,
/// a slice, a `Vec`, a `HashMap` or a `BTreeMap`), or a closure `Fn(char) -> T`.
///
/// ```
/// use rx::testing::marbles::MarbleValues;
///
/// assert_eq!([('a', 1), ('b', 2)].value_of('b'), Some(2));
/// assert_eq!([('a', 1)].value_of('z'), None);
/// assert_eq!((|c: char| c.to_ascii_uppercase()).value_of('q'), Some('Q'));
/// ```
pub trait MarbleValues<T> {
    /// The value `marble` stands for; `None` makes the diagram invalid.
    fn value_of(&self, marble: char) -> Option<T>;
}

impl<T, F: Fn(char) -> T> MarbleValues<T> for F {
    fn value_of(&self, marble: char) -> Option<T> {
        Some(self(marble))
    }
}

fn lookup<T: Clone>(table: &[(char, T)], marble: char) -> Option<T> {
    table
        .iter()
        .find(|(c, _)| *c == marble)
        .map(|(_, v)| v.clone())
}

impl<T: Clone, const N: usize> MarbleValues<T> for [(char, T); N] {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(self, marble)
    }
}

impl<T: Clone, const N: usize> MarbleValues<T> for &[(char, T); N] {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(*self, marble)
    }
}

impl<T: Clone> MarbleValues<T> for &[(char, T)] {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(self, marble)
    }
}

impl<T: Clone> MarbleValues<T> for Vec<(char, T)> {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(self, marble)
    }
}

impl<T: Clone, H: BuildHasher> MarbleValues<T> for HashMap<char, T, H> {
    fn value_of(&self, marble: char) -> Option<T> {
        self.get(&marble).cloned()
    }
}

impl<T: Clone> MarbleValues<T> for BTreeMap<char, T> {
    fn value_of(&self, marble: char) -> Option<T> {
        self.get(&marble).cloned()
    }
}

// ======================================================================== subscription logs

/// When a cold or hot observable was subscribed, and unsubscribed: RxJS's `SubscriptionLog`,
/// in time since frame zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubscriptionSpan {
    /// When the subscription was made.
    pub subscribed: Duration,
    /// When it ended (terminal notification delivered, disposed, or observer found disposed),
    /// if it has.
    pub unsubscribed: Option<Duration>,
}

#[derive(Default)]
struct Log {
    spans: Mutex<Vec<SubscriptionSpan>>,
}

impl Log {
    fn subscribe(&self, ctx: &Context) -> usize {
        let mut spans = self.spans.lock();
        spans.push(SubscriptionSpan {
            subscribed: ctx.elapsed(),
            unsubscribed: None,
        });
        spans.len() - 1
    }

    fn unsubscribe(&self, ctx: &Context, index: usize) {
        let mut spans = self.spans.lock();
        let span = &mut spans[index];
        if span.unsubscribed.is_none() {
            span.unsubscribed = Some(ctx.elapsed());
        }
    }

    fn is_unsubscribed(&self, index: usize) -> bool {
        self.spans.lock()[index].unsubscribed.is_some()
    }

    #[track_caller]
    fn assert(&self, ctx: &Context, what: &str, expected: &[&str]) {
        ctx.flush();
        let expected: Vec<SubscriptionSpan> = expected
            .iter()
            .filter_map(|diagram| {
                let (subscribed, unsubscribed) = parse_subscription(diagram, ctx.frame);
                if subscribed.is_none() && unsubscribed.is_some() {
                    fail(diagram, 1, "a subscription diagram with `!` needs a `^`");
                }
                // As RxJS: a diagram with neither marker stands for no subscription.
                Some(SubscriptionSpan {
                    subscribed: subscribed?,
                    unsubscribed,
                })
            })
            .collect();
        let actual = self.spans.lock().clone();
        if expected != actual {
            let draw = |spans: &[SubscriptionSpan]| {
                spans
                    .iter()
                    .map(|s| format!("\n    {}", draw_span(s, ctx.frame)))
                    .collect::<String>()
            };
            panic!(
                "subscriptions to the {what} observable differ (one frame is {:?})\nexpected:{}\n\
                 actual:{}",
                ctx.frame,
                if expected.is_empty() {
                    " none".to_string()
                } else {
                    draw(&expected)
                },
                if actual.is_empty() {
                    " none".to_string()
                } else {
                    draw(&actual)
                },
            );
        }
    }
}

/// A span as a subscription diagram, followed by its exact frames.
fn draw_span(span: &SubscriptionSpan, frame: Duration) -> String {
    let mut line = gap(Duration::ZERO, span.subscribed, frame);
    match span.unsubscribed {
        Some(u) if u == span.subscribed => line.push_str("(^!)"),
        Some(u) => {
            line.push('^');
            line.push_str(&gap(span.subscribed + frame, u, frame));
            line.push('!');
        }
        None => line.push('^'),
    }
    let until = match span.unsubscribed {
        Some(u) => format!("unsubscribed at {}", when(u, frame)),
        None => "never unsubscribed".to_string(),
    };
    format!(
        "{line:<12} (subscribed at {}, {until})",
        when(span.subscribed, frame)
    )
}

/// Notes the end of a subscription when the observer terminates or turns out disposed.
struct LoggedObserver<O> {
    inner: O,
    ctx: Arc<Context>,
    log: Arc<Log>,
    index: usize,
}

impl<O> LoggedObserver<O> {
    fn end(&self) {
        self.log.unsubscribe(&self.ctx, self.index);
    }
}

impl<T, O: Observer<T>> Observer<T> for LoggedObserver<O> {
    fn on_next(&mut self, value: T) {
        self.inner.on_next(value);
        if self.inner.is_disposed() {
            self.end();
        }
    }

    fn on_error(self, error: Error) {
        self.end();
        self.inner.on_error(error);
    }

    fn on_completed(self) {
        self.end();
        self.inner.on_completed();
    }

    fn is_disposed(&self) -> bool {
        let disposed = self.inner.is_disposed();
        if disposed {
            self.end();
        }
        disposed
    }
}

// ======================================================================== cold

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

// ======================================================================== hot

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
    /// [`ColdObservable::assert_subscriptions`] does.
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

// ======================================================================== expectations

/// What a subscription made by [`Marbles::expect`] or [`Marbles::expect_subscribed`]
/// receives; assert it with [`to_be`](Expectation::to_be).
#[must_use = "an expectation checks nothing until `to_be` or `timeline` is called"]
pub struct Expectation<T> {
    ctx: Arc<Context>,
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

// ======================================================================== parsing

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// No `^`.
    Cold,
    /// `^` marks frame zero; notifications before it happen before anyone subscribes.
    Hot,
    /// `^` marks frame zero; nothing can be received before it.
    Expected,
}

enum Kind {
    Value(char),
    Error,
    Completed,
}

struct Event {
    /// From the start of the diagram.
    at: Duration,
    column: usize,
    kind: Kind,
}

struct Parsed {
    events: Vec<Event>,
    /// When `^` is, from the start of the diagram.
    subscription: Option<Duration>,
}

impl Parsed {
    /// The notifications, each with its time from `^` (from the start without one), or
    /// `None` before `^`.
    #[track_caller]
    fn notifications<T>(
        &self,
        diagram: &str,
        values: &impl MarbleValues<T>,
        error: &Error,
    ) -> Vec<(Option<Duration>, Notification<T>)> {
        let zero = self.subscription.unwrap_or_default();
        self.events
            .iter()
            .map(|e| {
                let n = match e.kind {
                    Kind::Value(c) => match values.value_of(c) {
                        Some(v) => Notification::Next(v),
                        None => fail(diagram, e.column, format!("no value for `{c}`")),
                    },
                    Kind::Error => Notification::Error(error.clone()),
                    Kind::Completed => Notification::Completed,
                };
                (e.at.checked_sub(zero), n)
            })
            .collect()
    }
}

#[track_caller]
fn expected_timeline<T>(
    diagram: &str,
    frame: Duration,
    values: &impl MarbleValues<T>,
    error: &Error,
) -> Vec<(Duration, Notification<T>)> {
    let parsed = parse(diagram, frame, Rules::Expected);
    parsed
        .notifications(diagram, values, error)
        .into_iter()
        .map(|(at, n)| (at.unwrap_or_default(), n))
        .collect()
}

#[track_caller]
fn fail(diagram: &str, column: usize, message: impl fmt::Display) -> ! {
    panic!(
        "invalid marble diagram: {message}\n    {diagram}\n    {:>column$} column {column}",
        "^"
    )
}

/// Reads a diagram by RxJS's run-mode rules (see the module documentation).
#[track_caller]
fn parse(diagram: &str, frame: Duration, rules: Rules) -> Parsed {
    let chars: Vec<char> = diagram.chars().collect();
    let mut time = Duration::ZERO;
    // When the open group started, and the column of its `(`.
    let mut group: Option<(Duration, usize)> = None;
    // The terminal marble and its column.
    let mut terminal: Option<(char, usize)> = None;
    let mut subscription: Option<(Duration, usize)> = None;
    let mut events = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (c, column) = (chars[i], i + 1);
        let after_terminal = |what: &str, (t, col): (char, usize)| -> ! {
            fail(
                diagram,
                column,
                format!("{what} after the terminal `{t}` at column {col}; only time can follow it"),
            )
        };
        match c {
            ' ' => {
                i += 1;
                continue;
            }
            '-' => {}
            '(' => {
                if let Some((_, open)) = group {
                    fail(
                        diagram,
                        column,
                        format!("groups cannot nest; the group at column {open} is still open"),
                    );
                }
                if let Some(t) = terminal {
                    after_terminal("a group", t);
                }
                group = Some((time, column));
            }
            ')' => {
                if group.take().is_none() {
                    fail(diagram, column, "`)` without a matching `(`");
                }
            }
            '^' => {
                if rules == Rules::Cold {
                    fail(
                        diagram,
                        column,
                        "a cold observable has no subscription point `^`: it starts when subscribed",
                    );
                }
                if let Some((_, first)) = subscription {
                    fail(
                        diagram,
                        column,
                        format!("a second subscription point `^`; the first is at column {first}"),
                    );
                }
                if group.is_some() {
                    fail(
                        diagram,
                        column,
                        "the subscription point `^` cannot be inside a group",
                    );
                }
                subscription = Some((time, column));
            }
            '!' => fail(
                diagram,
                column,
                "`!` marks an unsubscription, which only subscription diagrams have",
            ),
            _ => {
                if c.is_ascii_digit()
                    && (i == 0 || chars[i - 1] == ' ')
                    && let Some((len, span)) = time_progression(&chars[i..])
                {
                    time += span;
                    i += len;
                    continue;
                }
                if let Some(t) = terminal {
                    after_terminal(&format!("`{c}`"), t);
                }
                let kind = match c {
                    '|' => Kind::Completed,
                    '#' => Kind::Error,
                    c => Kind::Value(c),
                };
                if !matches!(kind, Kind::Value(_)) {
                    terminal = Some((c, column));
                }
                let at = group.map_or(time, |(start, _)| start);
                events.push(Event { at, column, kind });
            }
        }
        time += frame;
        i += 1;
    }
    if let Some((_, open)) = group {
        fail(diagram, open, "unbalanced `(`: the group is never closed");
    }
    if rules == Rules::Expected
        && let Some((zero, col)) = subscription
        && let Some(e) = events.iter().find(|e| e.at < zero)
    {
        fail(
            diagram,
            e.column,
            format!("nothing can be received before the subscription point `^` at column {col}"),
        );
    }
    Parsed {
        events,
        subscription: subscription.map(|(at, _)| at),
    }
}

/// RxJS's time progression, `[0-9]+(\.[0-9]+)?(ms|s|m) `: its length in characters (the
/// space included) and the time it stands for.
fn time_progression(chars: &[char]) -> Option<(usize, Duration)> {
    let digits = |from: usize| {
        chars[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let whole = digits(0);
    let mut len = whole;
    let mut fraction = 0;
    if chars.get(len) == Some(&'.') {
        fraction = digits(len + 1);
        if fraction > 0 {
            len += 1 + fraction;
        }
    }
    let rest: String = chars[len..].iter().take(3).collect();
    let (unit_len, unit_ns): (usize, u128) = if rest.starts_with("ms ") {
        (2, 1_000_000)
    } else if rest.starts_with("s ") {
        (1, 1_000_000_000)
    } else if rest.starts_with("m ") {
        (1, 60_000_000_000)
    } else {
        return None;
    };
    let number = |from: usize, count: usize| -> u128 {
        chars[from..from + count].iter().fold(0u128, |n, c| {
            n.saturating_mul(10)
                .saturating_add(u128::from(*c as u8 - b'0'))
        })
    };
    let mut nanos = number(0, whole).saturating_mul(unit_ns);
    if fraction > 0 {
        // Exact to the nanosecond; digits beyond it are dropped.
        let shown = fraction.min(18);
        let scale = 10u128.pow(shown as u32);
        nanos = nanos.saturating_add(number(whole + 1, shown).saturating_mul(unit_ns) / scale);
    }
    let nanos = u64::try_from(nanos).unwrap_or(u64::MAX);
    Some((len + unit_len + 1, Duration::from_nanos(nanos)))
}

/// Reads a subscription diagram: the times of its `^` and `!`, from its start.
#[track_caller]
fn parse_subscription(diagram: &str, frame: Duration) -> (Option<Duration>, Option<Duration>) {
    let chars: Vec<char> = diagram.chars().collect();
    let mut time = Duration::ZERO;
    let mut group: Option<(Duration, usize)> = None;
    let mut subscribed: Option<(Duration, usize)> = None;
    let mut unsubscribed: Option<(Duration, usize)> = None;
    let mut i = 0;
    while i < chars.len() {
        let (c, column) = (chars[i], i + 1);
        let at = group.map_or(time, |(start, _)| start);
        let mut advance = frame;
        match c {
            ' ' => advance = Duration::ZERO,
            '-' => {}
            '(' => {
                if let Some((_, open)) = group {
                    fail(
                        diagram,
                        column,
                        format!("groups cannot nest; the group at column {open} is still open"),
                    );
                }
                group = Some((time, column));
            }
            ')' => {
                if group.take().is_none() {
                    fail(diagram, column, "`)` without a matching `(`");
                }
            }
            '^' => {
                if let Some((_, first)) = subscribed {
                    fail(
                        diagram,
                        column,
                        format!("a second subscription point `^`; the first is at column {first}"),
                    );
                }
                subscribed = Some((at, column));
            }
            '!' => {
                if let Some((_, first)) = unsubscribed {
                    fail(
                        diagram,
                        column,
                        format!(
                            "a second unsubscription point `!`; the first is at column {first}"
                        ),
                    );
                }
                if subscribed.is_none() && diagram.contains('^') {
                    fail(
                        diagram,
                        column,
                        "the unsubscription point `!` comes before the subscription point `^`",
                    );
                }
                unsubscribed = Some((at, column));
                // As in RxJS, `!` takes no time.
                advance = Duration::ZERO;
            }
            _ => {
                let progression = if c.is_ascii_digit() && (i == 0 || chars[i - 1] == ' ') {
                    time_progression(&chars[i..])
                } else {
                    None
                };
                let Some((len, span)) = progression else {
                    fail(
                        diagram,
                        column,
                        format!(
                            "`{c}` in a subscription diagram, which has only `^`, `!`, `-`, \
                             spaces, groups and time progressions"
                        ),
                    );
                };
                time += span;
                i += len;
                continue;
            }
        }
        time += advance;
        i += 1;
    }
    if let Some((_, open)) = group {
        fail(diagram, open, "unbalanced `(`: the group is never closed");
    }
    (subscribed.map(|(at, _)| at), unsubscribed.map(|(at, _)| at))
}

// ======================================================================== rendering

struct Rendered {
    line: String,
    /// The column (from 0) of each event.
    columns: Vec<usize>,
    /// Whether some value has no character, or some event could not be placed.
    lossy: bool,
}

fn single_char<T: fmt::Display + ?Sized>(value: &T) -> Option<char> {
    let text = value.to_string();
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !"-()|#^! ".contains(c) => Some(c),
        _ => None,
    }
}

/// `d` as a time progression's number and unit, exactly.
fn progression(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos.is_multiple_of(1_000_000_000) {
        format!("{}s", nanos / 1_000_000_000)
    } else if nanos.is_multiple_of(1_000_000) {
        format!("{}ms", nanos / 1_000_000)
    } else {
        let fraction = format!("{:06}", nanos % 1_000_000);
        format!("{}.{}ms", nanos / 1_000_000, fraction.trim_end_matches('0'))
    }
}

/// What takes a diagram from `from` to `to`: dashes, or a time progression.
fn gap(from: Duration, to: Duration, frame: Duration) -> String {
    let d = to.saturating_sub(from);
    let (frames, rest) = (
        d.as_nanos() / frame.as_nanos(),
        d.as_nanos() % frame.as_nanos(),
    );
    if rest == 0 && frames <= MAX_DASHES {
        "-".repeat(frames as usize)
    } else {
        format!(" {} ", progression(d))
    }
}

fn render<T>(
    timeline: &[(Duration, Notification<T>)],
    frame: Duration,
    marble: impl Fn(&T) -> Option<char>,
) -> Rendered {
    let mut out = Rendered {
        line: String::new(),
        columns: Vec::with_capacity(timeline.len()),
        lossy: false,
    };
    // When the next character would be.
    let mut cursor = Duration::ZERO;
    let mut i = 0;
    while i < timeline.len() {
        let at = timeline[i].0;
        let len = timeline[i..].iter().take_while(|(t, _)| *t == at).count();
        if at >= cursor {
            out.line.push_str(&gap(cursor, at, frame));
            cursor = at;
        } else {
            out.lossy = true;
        }
        if len > 1 {
            out.line.push('(');
        }
        for (_, n) in &timeline[i..i + len] {
            out.columns.push(out.line.chars().count());
            let c = match n {
                Notification::Next(v) => marble(v).unwrap_or_else(|| {
                    out.lossy = true;
                    '?'
                }),
                Notification::Error(_) => '#',
                Notification::Completed => '|',
            };
            out.line.push(c);
        }
        if len > 1 {
            out.line.push(')');
        }
        cursor += frame * if len > 1 { len as u32 + 2 } else { 1 };
        i += len;
    }
    out
}

/// "frame 4", or the exact time when it is not on a frame.
fn when(d: Duration, frame: Duration) -> String {
    if d.as_nanos().is_multiple_of(frame.as_nanos()) {
        format!("frame {}", d.as_nanos() / frame.as_nanos())
    } else {
        format!("{d:?} (between frames)")
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
    use crate::observable::ObservableExt;
    use crate::subscription::Finished;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn marbles() -> Marbles {
        Marbles::new(&TestScheduler::new())
    }

    fn err() -> Notification<char> {
        Notification::Error(Error::msg("error"))
    }

    /// The message of the panic `f` raises.
    fn panic_message(f: impl FnOnce()) -> String {
        let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
        match payload.downcast::<String>() {
            Ok(s) => *s,
            Err(payload) => payload
                .downcast_ref::<&str>()
                .expect("a text panic")
                .to_string(),
        }
    }

    fn raw(diagram: &str, rules: Rules) -> Vec<(Option<Duration>, Notification<char>)> {
        parse(diagram, ms(1), rules).notifications(diagram, &|c: char| c, &default_error())
    }

    // ---------------------------------------------------------------- parsing, rule by rule

    #[test]
    fn a_dash_is_one_frame() {
        assert_eq!(marbles().parse("---a"), [(ms(3), Next('a'))]);
    }

    #[test]
    fn spaces_take_no_time() {
        assert_eq!(marbles().parse("  - -a"), [(ms(2), Next('a'))]);
    }

    #[test]
    fn every_other_character_is_a_value_taking_one_frame() {
        assert_eq!(
            marbles().parse("a1Z?é"),
            [
                (ms(0), Next('a')),
                (ms(1), Next('1')),
                (ms(2), Next('Z')),
                (ms(3), Next('?')),
                (ms(4), Next('é'))
            ]
        );
    }

    #[test]
    fn completion_and_error_take_one_frame_each() {
        assert_eq!(marbles().parse("-|"), [(ms(1), Completed)]);
        assert_eq!(marbles().parse("--#"), [(ms(2), err())]);
        assert_eq!(
            marbles().parse("|---"),
            [(ms(0), Completed)],
            "time may follow a terminal"
        );
    }

    #[test]
    fn a_group_happens_at_its_opening_frame_and_takes_one_frame_per_character() {
        assert_eq!(
            marbles().parse("-(ab)-c"),
            [(ms(1), Next('a')), (ms(1), Next('b')), (ms(6), Next('c'))]
        );
        assert_eq!(
            marbles().parse("--(a|)"),
            [(ms(2), Next('a')), (ms(2), Completed)]
        );
        assert_eq!(
            marbles().parse("( a b )c"),
            [(ms(0), Next('a')), (ms(0), Next('b')), (ms(4), Next('c'))]
        );
        assert_eq!(
            marbles().parse("()a"),
            [(ms(2), Next('a'))],
            "an empty group takes two frames"
        );
    }

    #[test]
    fn time_progression() {
        let m = marbles();
        assert_eq!(
            m.parse("a 9ms b"),
            [(ms(0), Next('a')), (ms(10), Next('b'))]
        );
        assert_eq!(m.parse("10ms a"), [(ms(10), Next('a'))], "at the start");
        assert_eq!(m.parse("- 1s |"), [(ms(1001), Completed)]);
        assert_eq!(m.parse("2m |"), [(Duration::from_secs(120), Completed)]);
        assert_eq!(
            m.parse("1.5ms a"),
            [(Duration::from_micros(1500), Next('a'))]
        );
        assert_eq!(
            m.parse("0.000001ms a"),
            [(Duration::from_nanos(1), Next('a'))]
        );
        assert_eq!(
            m.parse("-(a 5ms b)c"),
            [(ms(1), Next('a')), (ms(1), Next('b')), (ms(10), Next('c'))],
            "inside a group too"
        );
    }

    #[test]
    fn digits_are_values_where_no_time_progression_starts() {
        let m = marbles();
        // Not after a space.
        assert_eq!(
            m.parse("a1ms b"),
            [
                (ms(0), Next('a')),
                (ms(1), Next('1')),
                (ms(2), Next('m')),
                (ms(3), Next('s')),
                (ms(4), Next('b'))
            ]
        );
        // No unit.
        assert_eq!(
            m.parse("a 1 b"),
            [(ms(0), Next('a')), (ms(1), Next('1')), (ms(2), Next('b'))]
        );
        // No space after the unit: RxJS reads values too.
        assert_eq!(
            m.parse("a 1s"),
            [(ms(0), Next('a')), (ms(1), Next('1')), (ms(2), Next('s'))]
        );
        // A dot without decimals.
        assert_eq!(
            m.parse("1.ms "),
            [
                (ms(0), Next('1')),
                (ms(1), Next('.')),
                (ms(2), Next('m')),
                (ms(3), Next('s'))
            ]
        );
    }

    #[test]
    fn the_subscription_point_is_frame_zero() {
        // `^` takes a frame, like any marble.
        assert_eq!(
            raw("--a-^-b|", Rules::Hot),
            [
                (None, Next('a')),
                (Some(ms(2)), Next('b')),
                (Some(ms(3)), Completed)
            ]
        );
        // Spaces and time progressions before `^` count as what they take (RxJS would count
        // characters and put `b` at frame 6).
        assert_eq!(
            raw("a 5ms ^ b", Rules::Hot),
            [(None, Next('a')), (Some(ms(1)), Next('b'))]
        );
        assert_eq!(marbles().parse("  ^-a"), [(ms(2), Next('a'))]);
        assert_eq!(
            raw("-|-^-", Rules::Hot),
            [(None, Completed)],
            "a hot observable may end before `^`"
        );
    }

    #[test]
    fn frames_scale_with_the_frame_length_but_progressions_do_not() {
        let m = Marbles::with_frame(&TestScheduler::new(), ms(10));
        assert_eq!(
            m.parse("-a 25ms (b|)"),
            [
                (ms(10), Next('a')),
                (ms(45), Next('b')),
                (ms(45), Completed)
            ]
        );
        assert_eq!(m.time("--|"), ms(20));
    }

    #[test]
    fn values_come_from_the_table_or_closure() {
        let m = marbles();
        assert_eq!(
            m.parse_with("ab", [('a', 1), ('b', 2)]),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        assert_eq!(
            m.parse_with("ab", &[('a', 1), ('b', 2)][..]),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        assert_eq!(
            m.parse_with("ab", vec![('a', 1), ('b', 2)]),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        let map: HashMap<char, u8> = [('a', 1), ('b', 2)].into();
        assert_eq!(
            m.parse_with("ab", map),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        let map: BTreeMap<char, u8> = [('a', 1), ('b', 2)].into();
        assert_eq!(
            m.parse_with("ab", map),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        assert_eq!(
            m.parse_with("7", |c: char| c.to_digit(10)),
            [(ms(0), Next(Some(7)))]
        );
    }

    // ---------------------------------------------------------------- malformed diagrams

    #[track_caller]
    fn assert_invalid(f: impl FnOnce(), reason: &str, column: usize) {
        let message = panic_message(f);
        assert!(message.starts_with("invalid marble diagram: "), "{message}");
        assert!(
            message.contains(reason),
            "{message:?} should say {reason:?}"
        );
        assert!(
            message.ends_with(&format!("^ column {column}")),
            "{message:?} should point at column {column}"
        );
    }

    #[test]
    fn malformed_diagrams_panic_pointing_at_the_column() {
        let m = marbles();
        assert_invalid(|| drop(m.parse("-(ab")), "never closed", 2);
        assert_invalid(|| drop(m.parse("-a)")), "`)` without a matching `(`", 3);
        assert_invalid(
            || drop(m.parse("((a))")),
            "groups cannot nest; the group at column 1",
            2,
        );
        assert_invalid(
            || drop(m.parse("-a|b")),
            "`b` after the terminal `|` at column 3",
            4,
        );
        assert_invalid(
            || drop(m.parse("#-|")),
            "`|` after the terminal `#` at column 1",
            3,
        );
        assert_invalid(
            || drop(m.parse("(a|b)")),
            "`b` after the terminal `|` at column 3",
            4,
        );
        assert_invalid(
            || drop(m.parse("|(a)")),
            "a group after the terminal `|`",
            2,
        );
        assert_invalid(
            || drop(m.cold("-^-a")),
            "a cold observable has no subscription point",
            2,
        );
        assert_invalid(
            || drop(m.hot("^-^")),
            "a second subscription point `^`; the first is at column 1",
            3,
        );
        assert_invalid(|| drop(m.hot("-(^a)")), "cannot be inside a group", 3);
        assert_invalid(|| drop(m.hot("-a-!")), "`!` marks an unsubscription", 4);
        assert_invalid(
            || drop(m.parse("-a-^-b")),
            "nothing can be received before the subscription point `^` at column 4",
            2,
        );
        assert_invalid(
            || drop(m.parse_with("-a-b", [('a', 1)])),
            "no value for `b`",
            4,
        );
        assert_invalid(
            || {
                let _ = m.time("---");
            },
            "a time diagram needs a `|`",
            4,
        );
    }

    #[test]
    fn the_message_draws_the_diagram_with_a_caret() {
        let message = panic_message(|| drop(marbles().parse("--a)")));
        assert_eq!(
            message,
            "invalid marble diagram: `)` without a matching `(`\n    --a)\n       ^ column 4"
        );
    }

    #[test]
    #[should_panic(expected = "a frame must last some time")]
    fn a_zero_frame_panics() {
        let _ = Marbles::with_frame(&TestScheduler::new(), Duration::ZERO);
    }

    // ---------------------------------------------------------------- subscription diagrams

    #[test]
    fn subscription_diagrams() {
        let p = |d: &str| parse_subscription(d, ms(1));
        assert_eq!(p("^--!"), (Some(ms(0)), Some(ms(3))));
        assert_eq!(p("  --^"), (Some(ms(2)), None));
        assert_eq!(p("-(^!)"), (Some(ms(1)), Some(ms(1))));
        assert_eq!(p("---!"), (None, Some(ms(3))));
        assert_eq!(p("^ 10ms !"), (Some(ms(0)), Some(ms(11))));
        assert_eq!(
            p("-^!-"),
            (Some(ms(1)), Some(ms(2))),
            "`!` takes no time, `^` one frame"
        );
        assert_eq!(p("---"), (None, None));
        assert_invalid(
            || {
                let _ = p("-!^");
            },
            "`!` comes before the subscription point",
            2,
        );
        assert_invalid(
            || {
                let _ = p("^^");
            },
            "a second subscription point",
            2,
        );
        assert_invalid(
            || {
                let _ = p("^!!");
            },
            "a second unsubscription point `!`; the first is at column 2",
            3,
        );
        assert_invalid(
            || {
                let _ = p("^-a");
            },
            "`a` in a subscription diagram",
            3,
        );
        assert_invalid(
            || {
                let _ = p("(^");
            },
            "never closed",
            1,
        );
    }

    // ---------------------------------------------------------------- rendering

    #[test]
    fn rendering_reads_back_as_the_same_timeline() {
        let m = marbles();
        for diagram in [
            "",
            "|",
            "-a-b-|",
            "(ab)",
            "--a--(bc)--(d|)",
            "a 100ms b",
            " 2s #",
            "-a 1.25ms (b|)",
        ] {
            let timeline = m.parse(diagram);
            let drawn = m.render(&timeline);
            assert_eq!(m.parse(&drawn), timeline, "{diagram:?} drawn as {drawn:?}");
        }
        let timeline = [(ms(2), Next(1)), (ms(5), Next(23)), (ms(5), Completed)];
        assert_eq!(
            m.render(&timeline),
            "--1--(?|)",
            "values without one character are `?`"
        );
        let r = render(
            &[(ms(0), Next('a')), (ms(0), Next('b')), (ms(2), Next('c'))],
            ms(1),
            |c| Some(*c),
        );
        assert_eq!(
            (r.line.as_str(), r.lossy),
            ("(ab)c", true),
            "a frame inside a group's span"
        );
        assert_eq!(m.render::<char>(&[(ms(41), Completed)]), " 41ms |");
        assert_eq!(
            m.render::<char>(&[(ms(40), Completed)]),
            format!("{}|", "-".repeat(40))
        );
    }

    // ---------------------------------------------------------------- cold and hot

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
