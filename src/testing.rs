//! The test kit: a recording [`TestObserver`] with assertions, and tools for virtual time.
//!
//! Public, so users test their own pipelines the way the library tests its operators.
//! Time-dependent pipelines run on the virtual-time
//! [`TestScheduler`](crate::schedulers::TestScheduler): [`TimedObserver`] records when each
//! notification arrived, [`cold`] replays a timed script, and [`marbles`] writes both as
//! diagrams (`-a-b-|`), as RxJS's marble tests do. Nothing here sleeps.

use crate::Error;
use crate::notification::Notification;
use crate::observer::Observer;
use parking_lot::Mutex;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// An observer that records every notification it receives.
///
/// It is a cheap `Clone` handle to shared state: subscribe a clone, keep one to assert on.
/// It is `Send` and `Sync` when `T` is `Send`, so a pipeline may deliver to it from another
/// thread. It also checks the Rx rules as it records: a notification after a terminal one,
/// or two `on_next` calls at once from different threads, make
/// [`assert_completed`](TestObserver::assert_completed) and friends fail.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_iter(1..=3).subscribe_observer(observer.clone());
/// observer.assert_values(&[1, 2, 3]);
/// observer.assert_completed();
/// ```
pub struct TestObserver<T> {
    shared: Arc<Shared<T>>,
}

struct Shared<T> {
    events: Mutex<Vec<Notification<T>>>,
    /// Set while an `on_next` runs; finding it set on entry means two calls overlapped.
    in_on_next: AtomicBool,
    overlapped: AtomicBool,
    disposed: AtomicBool,
}

impl<T> TestObserver<T> {
    /// An observer with nothing recorded.
    pub fn new() -> Self {
        TestObserver {
            shared: Arc::new(Shared {
                events: Mutex::new(Vec::new()),
                in_on_next: AtomicBool::new(false),
                overlapped: AtomicBool::new(false),
                disposed: AtomicBool::new(false),
            }),
        }
    }

    /// Makes [`is_disposed`](Observer::is_disposed) answer `true` from now on, as a downstream
    /// that has lost interest would; upstream should stop emitting.
    pub fn dispose(&self) {
        self.shared.disposed.store(true, Ordering::SeqCst);
    }

    /// Everything recorded so far.
    pub fn notifications(&self) -> Vec<Notification<T>>
    where
        T: Clone,
    {
        self.shared.events.lock().clone()
    }

    /// The values recorded so far, in order.
    pub fn values(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.shared
            .events
            .lock()
            .iter()
            .filter_map(|n| match n {
                Notification::Next(v) => Some(v.clone()),
                _ => None,
            })
            .collect()
    }

    /// How many values were recorded.
    pub fn value_count(&self) -> usize {
        self.shared
            .events
            .lock()
            .iter()
            .filter(|n| !n.is_terminal())
            .count()
    }

    /// The error recorded, if the sequence terminated with one.
    pub fn error(&self) -> Option<Error> {
        self.shared.events.lock().iter().find_map(|n| match n {
            Notification::Error(e) => Some(e.clone()),
            _ => None,
        })
    }

    /// Whether `on_completed` was recorded.
    pub fn is_completed(&self) -> bool {
        self.shared
            .events
            .lock()
            .iter()
            .any(|n| matches!(n, Notification::Completed))
    }

    /// Whether a terminal notification (error or completion) was recorded.
    pub fn is_terminated(&self) -> bool {
        self.shared
            .events
            .lock()
            .iter()
            .any(Notification::is_terminal)
    }

    /// Asserts the values recorded so far, in order.
    #[track_caller]
    pub fn assert_values(&self, expected: &[T])
    where
        T: Clone + PartialEq + fmt::Debug,
    {
        assert_eq!(self.values(), expected, "values differ");
    }

    /// Asserts the whole recording: values and terminal notification, in order.
    #[track_caller]
    pub fn assert_notifications(&self, expected: &[Notification<T>])
    where
        T: Clone + PartialEq + fmt::Debug,
    {
        assert_eq!(self.notifications(), expected, "notifications differ");
    }

    /// Asserts that the sequence completed once, as its last notification, and that the Rx
    /// rules held.
    #[track_caller]
    pub fn assert_completed(&self) {
        self.assert_rules();
        let events = self.shared.events.lock();
        assert!(
            matches!(events.last(), Some(Notification::Completed)),
            "expected completion, got {}",
            describe_end(&events)
        );
    }

    /// Asserts that the sequence terminated once with an error whose message is `message`,
    /// and that the Rx rules held.
    #[track_caller]
    pub fn assert_error(&self, message: &str) {
        self.assert_rules();
        let events = self.shared.events.lock();
        match events.last() {
            Some(Notification::Error(e)) => assert_eq!(e.to_string(), message, "error differs"),
            _ => panic!("expected error {message:?}, got {}", describe_end(&events)),
        }
    }

    /// Asserts that no terminal notification has been recorded.
    #[track_caller]
    pub fn assert_not_terminated(&self) {
        self.assert_rules();
        let events = self.shared.events.lock();
        assert!(
            !events.iter().any(Notification::is_terminal),
            "expected no terminal notification, got {}",
            describe_end(&events)
        );
    }

    /// Asserts the Rx rules: at most one terminal notification, nothing after it, and no two
    /// `on_next` calls at once.
    #[track_caller]
    pub fn assert_rules(&self) {
        assert!(
            !self.shared.overlapped.load(Ordering::SeqCst),
            "two on_next calls overlapped"
        );
        let events = self.shared.events.lock();
        if let Some(i) = events.iter().position(Notification::is_terminal) {
            assert_eq!(
                i + 1,
                events.len(),
                "notifications after the terminal one at index {i}"
            );
        }
    }
}

fn describe_end<T>(events: &[Notification<T>]) -> String {
    match events.iter().find(|n| n.is_terminal()) {
        Some(Notification::Error(e)) => format!("error {:?}", e.to_string()),
        Some(_) => "completion".to_string(),
        None => format!("no terminal notification after {} values", events.len()),
    }
}

impl<T> Default for TestObserver<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for TestObserver<T> {
    fn clone(&self) -> Self {
        TestObserver {
            shared: self.shared.clone(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for TestObserver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestObserver")
            .field("notifications", &*self.shared.events.lock())
            .finish()
    }
}

impl<T> Observer<T> for TestObserver<T> {
    fn on_next(&mut self, value: T) {
        if self.shared.in_on_next.swap(true, Ordering::SeqCst) {
            self.shared.overlapped.store(true, Ordering::SeqCst);
        }
        self.shared.events.lock().push(Notification::Next(value));
        // Widen the window in which an overlapping call would be seen.
        std::hint::spin_loop();
        self.shared.in_on_next.store(false, Ordering::SeqCst);
    }

    fn on_error(self, error: Error) {
        self.shared.events.lock().push(Notification::Error(error));
    }

    fn on_completed(self) {
        self.shared.events.lock().push(Notification::Completed);
    }

    fn is_disposed(&self) -> bool {
        self.shared.disposed.load(Ordering::SeqCst)
    }
}

// ---------------------------------------------------------------- virtual time

pub use self::timed::{Cold, TimedObserver, cold};

pub mod marbles;

mod timed {
    use crate::Error;
    use crate::notification::Notification;
    use crate::observable::{Observable, Subscribe};
    use crate::observer::Observer;
    use crate::schedulers::{Reschedule, Scheduler, Worker};
    use crate::time::Instant;
    use parking_lot::Mutex;
    use std::fmt;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// An observer that records each notification with the time it arrived, measured on a
    /// scheduler's clock from the moment the observer was made: the companion of
    /// [`TestScheduler`](crate::schedulers::TestScheduler) for asserting when things happen.
    ///
    /// A cheap `Clone` handle to shared state, like [`TestObserver`](super::TestObserver).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TimedObserver;
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// rx::source::timer(Duration::from_secs(2), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// let at = Duration::from_secs(2);
    /// observer.assert_timeline(&[(at, Next(0)), (at, Completed)]);
    /// ```
    pub struct TimedObserver<T, Sch> {
        scheduler: Sch,
        start: Instant,
        shared: Arc<Shared<T>>,
    }

    struct Shared<T> {
        events: Mutex<Vec<(Duration, Notification<T>)>>,
        disposed: AtomicBool,
    }

    impl<T, Sch: Scheduler> TimedObserver<T, Sch> {
        /// An observer with nothing recorded, whose clock starts at `scheduler`'s now.
        pub fn new(scheduler: &Sch) -> Self {
            TimedObserver {
                start: scheduler.now(),
                scheduler: scheduler.clone(),
                shared: Arc::new(Shared {
                    events: Mutex::new(Vec::new()),
                    disposed: AtomicBool::new(false),
                }),
            }
        }

        /// Everything recorded so far, each with its time since the observer was made.
        pub fn timeline(&self) -> Vec<(Duration, Notification<T>)>
        where
            T: Clone,
        {
            self.shared.events.lock().clone()
        }

        /// Asserts the whole timeline recorded so far.
        #[track_caller]
        pub fn assert_timeline(&self, expected: &[(Duration, Notification<T>)])
        where
            T: Clone + PartialEq + fmt::Debug,
        {
            assert_eq!(self.timeline(), expected, "timelines differ");
        }

        /// Makes [`is_disposed`](Observer::is_disposed) answer `true` from now on.
        pub fn dispose(&self) {
            self.shared.disposed.store(true, Ordering::SeqCst);
        }

        /// Whether the recording can grow no more: a terminal notification arrived, or the
        /// observer was disposed.
        #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
        pub(crate) fn is_finished(&self) -> bool {
            self.shared.disposed.load(Ordering::SeqCst)
                || self
                    .shared
                    .events
                    .lock()
                    .iter()
                    .any(|(_, n)| n.is_terminal())
        }

        fn record(&self, notification: Notification<T>) {
            let at = self.scheduler.now().saturating_duration_since(self.start);
            self.shared.events.lock().push((at, notification));
        }
    }

    impl<T, Sch: Clone> Clone for TimedObserver<T, Sch> {
        fn clone(&self) -> Self {
            TimedObserver {
                scheduler: self.scheduler.clone(),
                start: self.start,
                shared: self.shared.clone(),
            }
        }
    }

    impl<T: fmt::Debug, Sch> fmt::Debug for TimedObserver<T, Sch> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("TimedObserver")
                .field("timeline", &*self.shared.events.lock())
                .finish()
        }
    }

    impl<T, Sch: Scheduler> Observer<T> for TimedObserver<T, Sch> {
        fn on_next(&mut self, value: T) {
            self.record(Notification::Next(value));
        }

        fn on_error(self, error: Error) {
            self.record(Notification::Error(error));
        }

        fn on_completed(self) {
            self.record(Notification::Completed);
        }

        fn is_disposed(&self) -> bool {
            self.shared.disposed.load(Ordering::SeqCst)
        }
    }

    /// An observable that replays a script of timed notifications to each subscriber, each
    /// time measured from that subscription (Rx.NET's `CreateColdObservable`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TimedObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let source = cold(&scheduler, [(ms(10), Next('a')), (ms(30), Next('b')), (ms(30), Completed)]);
    /// let observer = TimedObserver::new(&scheduler);
    /// source.subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(10), Next('a')), (ms(30), Next('b')), (ms(30), Completed)]);
    /// ```
    ///
    /// # Panics
    ///
    /// When the times decrease, or a notification follows a terminal one.
    pub fn cold<T, Sch, I>(scheduler: &Sch, script: I) -> Cold<T, Sch>
    where
        Sch: Scheduler,
        I: IntoIterator<Item = (Duration, Notification<T>)>,
    {
        let script: Vec<_> = script.into_iter().collect();
        for pair in script.windows(2) {
            assert!(pair[0].0 <= pair[1].0, "cold: the times must not decrease");
            assert!(
                !pair[0].1.is_terminal(),
                "cold: nothing may follow a terminal notification"
            );
        }
        Cold {
            scheduler: scheduler.clone(),
            script: script.into(),
        }
    }

    /// Replays a script of timed notifications; built by [`cold`].
    #[must_use = "observables do nothing unless subscribed"]
    pub struct Cold<T, Sch> {
        scheduler: Sch,
        script: Arc<[(Duration, Notification<T>)]>,
    }

    impl<T, Sch: Clone> Clone for Cold<T, Sch> {
        fn clone(&self) -> Self {
            Cold {
                scheduler: self.scheduler.clone(),
                script: self.script.clone(),
            }
        }
    }

    impl<T: fmt::Debug, Sch> fmt::Debug for Cold<T, Sch> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("Cold")
                .field("script", &self.script)
                .finish()
        }
    }

    impl<T, Sch> Observable for Cold<T, Sch> {
        type Item = T;
        type Flavour = crate::sync::Shared;
    }

    impl<T, Sch, O> Subscribe<O> for Cold<T, Sch>
    where
        T: Clone + Send + Sync + 'static,
        Sch: Scheduler,
        O: Observer<T> + Send + 'static,
    {
        type Subscription = <Sch::Worker as Worker>::TaskHandle;

        fn subscribe_observer(self, observer: O) -> Self::Subscription {
            let worker = self.scheduler.worker();
            let start = worker.now();
            let script = self.script;
            let first = script.first().map_or(Duration::ZERO, |(at, _)| *at);
            let mut observer = Some(observer);
            let mut next = 0;
            worker.schedule_at(start + first, move || {
                // Everything due at this task's time, then sleep until the next time.
                let Some((now, _)) = script.get(next) else {
                    return Reschedule::Done;
                };
                let now = *now;
                while let Some((at, notification)) = script.get(next) {
                    if *at != now {
                        return Reschedule::At(start + *at);
                    }
                    next += 1;
                    let Some(o) = observer.take() else {
                        return Reschedule::Done;
                    };
                    if o.is_disposed() {
                        return Reschedule::Done;
                    }
                    observer = notification.clone().deliver(o);
                }
                Reschedule::Done
            })
        }
    }
}
