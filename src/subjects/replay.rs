//! [`ReplaySubject`]: replays the values it kept to each new subscriber.

use super::core::{Kind, ReplayConfig, SubjectCore};
use super::subject_handle;
use crate::schedulers::Scheduler;
use crate::sync::{Flavour, Local, Shared};
use std::time::Duration;

/// A subject that keeps the values it passes on and replays them to each new subscriber, then
/// passes on what follows.
///
/// It keeps every value ([`new`](ReplaySubject::new)), the last *n*
/// ([`with_capacity`](ReplaySubject::with_capacity)), those younger than a time window by a
/// scheduler's clock ([`with_window`](ReplaySubject::with_window)), or both. A subscriber that
/// comes after the subject terminated gets the values kept, then the terminal notification.
/// See the [module documentation](crate::subjects) for the rules every subject follows.
///
/// ```text
/// input:  -1-2-3-|     with_capacity(2)
/// A:      -1-2-3-|     subscribed first
/// B:          (12)3-|  subscribed after 2
/// C:               (23|)  subscribed after completion
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::ReplaySubject;
/// use rx::testing::TestObserver;
///
/// let subject = ReplaySubject::with_capacity(2);
/// let mut input = subject.observer();
/// for v in 1..=3 {
///     input.on_next(v);
/// }
/// input.on_completed();
///
/// let late = TestObserver::new();
/// subject.observable().subscribe_observer(late.clone());
/// late.assert_values(&[2, 3]);
/// late.assert_completed();
/// ```
///
/// # Performance
///
/// Each value is cloned once more, to be kept. [`new`](ReplaySubject::new) keeps everything
/// until the subject is dropped: memory grows with every value. A time window is trimmed
/// when a value arrives and when an observer subscribes, reading the scheduler's clock each
/// time.
pub struct ReplaySubject<T, F: Flavour> {
    core: F::Ptr<SubjectCore<T, F>>,
}

// The same constructors for both flavours.
macro_rules! replay_constructors {
    ($flavour:ty) => {
        impl<T> ReplaySubject<T, $flavour> {
            /// A subject that keeps every value: memory grows without bound while it lives.
            pub fn new() -> Self {
                Self::from_config(ReplayConfig::unbounded())
            }

            /// A subject that keeps the last `capacity` values.
            ///
            /// # Panics
            ///
            /// If `capacity` is zero.
            #[doc(alias = "createWithSize")]
            pub fn with_capacity(capacity: usize) -> Self {
                assert!(
                    capacity > 0,
                    "ReplaySubject::with_capacity: the capacity must be positive"
                );
                Self::from_config(ReplayConfig::with_capacity(capacity))
            }

            /// A subject that keeps the values younger than `window` by `scheduler`'s clock: a value
            /// recorded at instant `t` is replayed to a subscriber arriving before `t + window`.
            ///
            /// # Examples
            ///
            /// ```
            /// use rx::prelude::*;
            /// use rx::schedulers::TestScheduler;
            /// use rx::subjects::ReplaySubject;
            /// use rx::testing::TestObserver;
            /// use std::time::Duration;
            ///
            /// let scheduler = TestScheduler::new();
            /// let subject = ReplaySubject::with_window(Duration::from_secs(10), scheduler.clone());
            /// let mut input = subject.observer();
            /// input.on_next("old");
            /// scheduler.advance_by(Duration::from_secs(6));
            /// input.on_next("new");
            /// scheduler.advance_by(Duration::from_secs(6));
            ///
            /// let late = TestObserver::new();
            /// subject.observable().subscribe_observer(late.clone());
            /// late.assert_values(&["new"]);
            /// ```
            ///
            /// # Panics
            ///
            /// If `window` is zero.
            #[doc(alias = "createWithTime")]
            pub fn with_window<S: Scheduler>(window: Duration, scheduler: S) -> Self {
                assert!(
                    !window.is_zero(),
                    "ReplaySubject::with_window: the window must be positive"
                );
                Self::from_config(ReplayConfig::with_window(usize::MAX, window, scheduler))
            }

            /// A subject that keeps at most the last `capacity` values, and of those only the ones
            /// younger than `window` by `scheduler`'s clock.
            ///
            /// # Panics
            ///
            /// If `capacity` or `window` is zero.
            #[doc(alias = "createWithTimeAndSize")]
            pub fn with_capacity_and_window<S: Scheduler>(
                capacity: usize,
                window: Duration,
                scheduler: S,
            ) -> Self {
                assert!(
                    capacity > 0,
                    "ReplaySubject::with_capacity_and_window: the capacity must be positive"
                );
                assert!(
                    !window.is_zero(),
                    "ReplaySubject::with_capacity_and_window: the window must be positive"
                );
                Self::from_config(ReplayConfig::with_window(capacity, window, scheduler))
            }
        }
    };
}

replay_constructors!(Shared);
replay_constructors!(Local);

impl<T, F: Flavour> ReplaySubject<T, F> {
    fn from_config(config: ReplayConfig) -> Self {
        Self::from_kind(Kind::Replay(config))
    }

    /// A subject of either flavour that keeps the last `capacity` values (`capacity > 0`).
    pub(crate) fn with_capacity_in(capacity: usize) -> Self {
        Self::from_config(ReplayConfig::with_capacity(capacity))
    }

    /// A new, empty subject that keeps what this one keeps.
    pub(crate) fn empty_like(&self) -> Self {
        Self::from_config(
            self.core
                .replay_config()
                .expect("a replay subject has a configuration"),
        )
    }
}

impl<T, F: Flavour> Default for ReplaySubject<T, F> {
    /// A subject that keeps every value.
    fn default() -> Self {
        Self::from_config(ReplayConfig::unbounded())
    }
}

subject_handle!(ReplaySubject);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    // Each test runs against both flavours of the subject.
    crate::subjects::flavour_tests::for_each_flavour! {
        #[test]
        fn unbounded_replays_everything_then_goes_live() {
            let s = ReplaySubject::new();
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            let o = TestObserver::new();
            s.observable().subscribe_observer(o.clone());
            input.on_next(3);
            input.on_completed();
            o.assert_notifications(&[
                Notification::Next(1),
                Notification::Next(2),
                Notification::Next(3),
                Notification::Completed,
            ]);
        }

        #[test]
        fn capacity_keeps_the_last_n() {
            let s = ReplaySubject::with_capacity(2);
            let mut input = s.observer();
            for v in 1..=5 {
                input.on_next(v);
            }
            let o = TestObserver::new();
            s.observable().subscribe_observer(o.clone());
            o.assert_values(&[4, 5]);
            o.assert_not_terminated();
        }

        #[test]
        fn late_subscriber_gets_the_values_then_the_terminal_notification() {
            let s = ReplaySubject::with_capacity(3);
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            input.on_error(Error::msg("over"));
            let late = TestObserver::new();
            let handle = s.observable().subscribe_observer(late.clone());
            late.assert_values(&[1, 2]);
            late.assert_error("over");
            assert!(handle.is_disposed());

            let empty = ReplaySubject::<i32>::new();
            empty.observer().on_completed();
            let o = TestObserver::new();
            empty.observable().subscribe_observer(o.clone());
            o.assert_notifications(&[Notification::Completed]);
        }

        #[test]
        fn the_window_drops_values_once_their_age_reaches_it() {
            let sch = TestScheduler::new();
            let s = ReplaySubject::with_window(Duration::from_secs(10), sch.clone());
            let mut input = s.observer();
            input.on_next(1); // t = 0
            sch.advance_by(Duration::from_secs(5));
            input.on_next(2); // t = 5
            sch.advance_by(Duration::from_secs(4));

            let at9 = TestObserver::new();
            s.observable().subscribe_observer(at9.clone());
            at9.assert_values(&[1, 2]);

            sch.advance_by(Duration::from_secs(1)); // t = 10: value 1 is exactly 10 s old
            let at10 = TestObserver::new();
            s.observable().subscribe_observer(at10.clone());
            at10.assert_values(&[2]);

            input.on_completed();
            sch.advance_by(Duration::from_secs(5)); // t = 15: value 2 is 10 s old
            let at15 = TestObserver::new();
            s.observable().subscribe_observer(at15.clone());
            at15.assert_notifications(&[Notification::Completed]);
            at9.assert_values(&[1, 2]);
            at9.assert_completed();
        }

        #[test]
        fn capacity_and_window_together() {
            let sch = TestScheduler::new();
            let s = ReplaySubject::with_capacity_and_window(2, Duration::from_secs(10), sch.clone());
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            input.on_next(3);
            let o = TestObserver::new();
            s.observable().subscribe_observer(o.clone());
            o.assert_values(&[2, 3]);
            sch.advance_by(Duration::from_secs(10));
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            late.assert_values(&[]);
        }

        #[test]
        #[should_panic(expected = "the capacity must be positive")]
        fn zero_capacity_panics() {
            let _ = ReplaySubject::<i32>::with_capacity(0);
        }

        #[test]
        #[should_panic(expected = "the window must be positive")]
        fn zero_window_panics() {
            let _ = ReplaySubject::<i32>::with_window(Duration::ZERO, TestScheduler::new());
        }

        #[test]
        fn a_value_sent_during_the_replay_comes_after_it() {
            let s = ReplaySubject::new();
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            let o = TestObserver::new();
            let (s2, o2) = (s.clone(), o.clone());
            let sent = Arc::new(Mutex::new(false));
            s.observable().subscribe(move |v: i32| {
                o2.clone().on_next(v);
                let mut sent = sent.lock().unwrap();
                if !*sent {
                    *sent = true;
                    s2.observer().on_next(3);
                }
            });
            o.assert_values(&[1, 2, 3]);
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            late.assert_values(&[1, 2, 3]);
        }

        #[test]
        fn a_subscriber_that_disposes_during_the_replay_gets_no_more() {
            let s = ReplaySubject::new();
            let mut input = s.observer();
            for v in 1..=5 {
                input.on_next(v);
            }
            let o = TestObserver::new();
            s.observable().take(2).subscribe_observer(o.clone());
            o.assert_values(&[1, 2]);
            o.assert_completed();
            assert!(!s.has_observers());
        }

        #[test]
        fn empty_like_keeps_the_configuration_not_the_values() {
            let s = ReplaySubject::with_capacity(1);
            s.observer().on_next(1);
            s.observer().on_next(2);
            let fresh = s.empty_like();
            let mut input = fresh.observer();
            input.on_next(3);
            input.on_next(4);
            let o = TestObserver::new();
            fresh.observable().subscribe_observer(o.clone());
            o.assert_values(&[4]);
        }
    }
}
