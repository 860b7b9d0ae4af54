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
//! observer [is disposed](crate::Observer::is_disposed) (it checks before and after every
//! notification).

mod cold;
mod expectations;
mod hot;
mod parser;
mod recording;
mod rendering;
mod subscriptions;
#[cfg(all(test, not(loom)))]
mod test_support;
#[cfg(feature = "tokio")]
mod tokio_clock;
mod values;

pub use cold::{ColdObservable, ColdSubscription};
pub use expectations::Expectation;
pub use hot::{HotObservable, HotSubscription};
pub use recording::{Recorder, Recording};
pub use subscriptions::SubscriptionSpan;
pub use values::MarbleValues;

use crate::Error;
use crate::schedulers::{QueueWorker, Reschedule, Scheduler, TestScheduler, Worker};
use crate::time::Instant;
use parking_lot::Mutex;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

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
    /// Keeps the scheduler's tasks alive while the context is in use; the context itself
    /// holds a handle that does not, since the tasks it queues hold the context.
    scheduler: TestScheduler,
}

pub(super) struct Context {
    /// A handle that does not keep the queued tasks alive (see
    /// [`TestScheduler::undriven`]): the tasks own the context, so an owning handle here would
    /// keep a context dropped before its scheduler ran alive for good.
    pub(super) scheduler: TestScheduler,
    /// Runs the hot observables' notifications and the expectations' (un)subscriptions.
    pub(super) worker: QueueWorker,
    pub(super) zero: Instant,
    pub(super) frame: Duration,
    /// The (un)subscriptions of expectations, each run by whichever task of its frame runs
    /// first, so that they come before the hot observables' notifications of that frame (as
    /// in RxJS, where they are scheduled before the hot observables are set up).
    pending: Mutex<Vec<(Instant, Action)>>,
    /// The expectations made, each as whether it can receive nothing more: where the
    /// scheduler's queue cannot say when a run is over (tokio's timers are out of its sight),
    /// these can.
    finished: Mutex<Vec<Finished>>,
    /// Tokio's paused clock, moved in step with the scheduler's (`Marbles::on_tokio`).
    #[cfg(feature = "tokio")]
    tokio: Option<tokio_clock::TokioClock>,
}

type Finished = Box<dyn Fn() -> bool + Send + Sync>;

type Action = Box<dyn FnOnce() + Send>;

impl Context {
    pub(super) fn now(&self) -> Instant {
        self.worker.now()
    }

    /// Virtual time since frame zero.
    pub(super) fn elapsed(&self) -> Duration {
        self.now().saturating_duration_since(self.zero)
    }

    pub(super) fn flush(&self) {
        #[cfg(feature = "tokio")]
        if let Some(tokio) = &self.tokio {
            return tokio.flush(self);
        }
        self.scheduler.run();
    }

    pub(super) fn watch(&self, finished: Finished) {
        self.finished.lock().push(finished);
    }

    /// Whether every expectation made so far can receive nothing more.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(super) fn all_finished(&self) -> bool {
        self.finished.lock().iter().all(|f| f())
    }

    /// Runs `action` at `at`, before the hot observables' notifications of that instant.
    pub(super) fn schedule_first(self: &Arc<Self>, at: Instant, action: Action) {
        self.pending.lock().push((at, action));
        let first = First {
            ctx: self.clone(),
            at,
        };
        self.worker.schedule_at(at, move || {
            first.ctx.run_pending();
            Reschedule::Done
        });
    }

    pub(super) fn run_pending(&self) {
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

/// What a task of [`Context::schedule_first`] owns. Dropped without having run (its scheduler
/// gone), it drops the actions of its instant too: they may hold the context (a subscription
/// handle waiting for its `!`), and nothing else would ever free them.
struct First {
    ctx: Arc<Context>,
    at: Instant,
}

impl Drop for First {
    fn drop(&mut self) {
        // After a run nothing of this instant is left, so this finds nothing.
        let orphans: Vec<(Instant, Action)> = {
            let mut pending = self.ctx.pending.lock();
            let (orphans, kept) = std::mem::take(&mut *pending)
                .into_iter()
                .partition(|(at, _)| *at == self.at);
            *pending = kept;
            orphans
        };
        // Outside the lock: what the actions captured may reach this context again.
        drop(orphans);
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
                scheduler: scheduler.undriven(),
                worker: scheduler.worker(),
                zero: scheduler.now(),
                frame,
                pending: Mutex::new(Vec::new()),
                finished: Mutex::new(Vec::new()),
                #[cfg(feature = "tokio")]
                tokio: None,
            }),
            scheduler: scheduler.clone(),
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
        &self.scheduler
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
}

impl fmt::Debug for Marbles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Marbles")
            .field("frame", &self.ctx.frame)
            .field("elapsed", &self.ctx.elapsed())
            .finish()
    }
}

pub(super) fn default_error() -> Error {
    Error::msg("error")
}
