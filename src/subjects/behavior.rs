//! [`BehaviorSubject`]: starts each subscriber with the latest value.

use super::core::{Kind, SubjectCore};
use super::subject_handle;
use crate::sync::{Flavour, Local, Shared};

/// A subject that starts each new subscriber with its latest value — the initial value until
/// the first `on_next` — then passes on what follows.
///
/// A subscriber that comes after the subject terminated gets the terminal notification alone,
/// not the latest value (as in RxJava). See the [module documentation](crate::subjects) for the
/// rules every subject follows.
///
/// ```text
/// input:  -1-2-3-|      (initial value 0)
/// A:     0-1-2-3-|      subscribed first
/// B:        1-2-3-|     subscribed after 1
/// C:              |     subscribed after completion
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::BehaviorSubject;
/// use rx::testing::TestObserver;
///
/// let subject = BehaviorSubject::new("idle");
/// let first = TestObserver::new();
/// subject.observable().subscribe_observer(first.clone());
/// subject.observer().on_next("busy");
///
/// let second = TestObserver::new();
/// subject.observable().subscribe_observer(second.clone());
/// first.assert_values(&["idle", "busy"]);
/// second.assert_values(&["busy"]);
/// ```
///
/// # Performance
///
/// Each value is cloned twice more than a [`PublishSubject`](super::PublishSubject) clones
/// it: once to be kept for new subscribers, once for [`value`](BehaviorSubject::value), which
/// also costs a short lock per value (a `RefCell` borrow for a local subject).
pub struct BehaviorSubject<T, F: Flavour> {
    core: F::Ptr<SubjectCore<T, F>>,
}

impl<T: Clone> BehaviorSubject<T, Shared> {
    /// A thread-safe subject whose latest value is `initial` until the first `on_next`.
    pub fn new(initial: T) -> Self {
        Self::with_initial(initial)
    }
}

impl<T: Clone> BehaviorSubject<T, Local> {
    /// A single-threaded subject whose latest value is `initial` until the first `on_next`.
    pub fn new(initial: T) -> Self {
        Self::with_initial(initial)
    }
}

impl<T: Clone, F: Flavour> BehaviorSubject<T, F> {
    fn with_initial(initial: T) -> Self {
        Self::from_kind(Kind::Behavior {
            latest: initial.clone(),
            initial,
        })
    }

    /// The current value: the initial one until the first `on_next`, then the last value
    /// sent — including one sent from inside a callback, not delivered yet. Still the last
    /// value after completion (as RxJS's `getValue`); `None` after an error (as RxJava's
    /// `getValue`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::Error;
    /// use rx::subjects::BehaviorSubject;
    ///
    /// let subject = BehaviorSubject::new(1);
    /// assert_eq!(subject.value(), Some(1));
    /// subject.on_next(2);
    /// assert_eq!(subject.value(), Some(2));
    /// subject.on_error(Error::msg("lost"));
    /// assert_eq!(subject.value(), None);
    /// ```
    ///
    /// # Performance
    ///
    /// A short lock (a `RefCell` borrow for a local subject) and a clone of the value.
    #[doc(alias = "getValue")]
    pub fn value(&self) -> Option<T> {
        self.core.latest()
    }
}

impl<T: Clone + Default, F: Flavour> Default for BehaviorSubject<T, F> {
    /// A subject whose initial value is `T::default()`.
    fn default() -> Self {
        Self::with_initial(T::default())
    }
}

subject_handle!(BehaviorSubject);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::{Arc, Mutex};

    // Each test runs against both flavours of the subject.
    crate::subjects::flavour_tests::for_each_flavour! {
        #[test]
        fn starts_with_the_initial_value_then_the_latest() {
            let s = BehaviorSubject::new(0);
            let a = TestObserver::new();
            s.observable().subscribe_observer(a.clone());
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            let b = TestObserver::new();
            s.observable().subscribe_observer(b.clone());
            input.on_next(3);
            input.on_completed();
            a.assert_notifications(&[
                Notification::Next(0),
                Notification::Next(1),
                Notification::Next(2),
                Notification::Next(3),
                Notification::Completed,
            ]);
            b.assert_notifications(&[
                Notification::Next(2),
                Notification::Next(3),
                Notification::Completed,
            ]);
        }

        #[test]
        fn late_subscriber_after_completion_gets_completion_alone() {
            let s = BehaviorSubject::new(0);
            s.observer().on_next(1);
            s.observer().on_completed();
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            late.assert_notifications(&[Notification::Completed]);
        }

        #[test]
        fn late_subscriber_after_an_error_gets_the_error_alone() {
            let s = BehaviorSubject::new(0);
            s.observer().on_next(1);
            s.observer().on_error(Error::msg("broken"));
            s.observer().on_completed();
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            late.assert_values(&[]);
            late.assert_error("broken");
        }

        #[test]
        fn a_subscriber_that_disposes_itself_on_the_initial_value_is_removed() {
            let s = BehaviorSubject::new(7);
            let o = TestObserver::new();
            s.observable().take(1).subscribe_observer(o.clone());
            o.assert_values(&[7]);
            o.assert_completed();
            assert!(!s.has_observers());
            s.observer().on_next(8);
            o.assert_values(&[7]);
        }

        #[test]
        fn subscribing_inside_on_next_starts_with_the_value_being_delivered() {
            // The new subscriber is registered right after the current value reached everyone;
            // that value is the latest, so it is what the new subscriber starts with.
            let s = BehaviorSubject::new(0);
            let inner = TestObserver::new();
            let (s2, inner2) = (s.clone(), inner.clone());
            let once = Arc::new(Mutex::new(false));
            s.observable().subscribe(move |v: i32| {
                let mut done = once.lock().unwrap();
                if v == 1 && !*done {
                    *done = true;
                    s2.observable().subscribe_observer(inner2.clone());
                }
            });
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            inner.assert_values(&[1, 2]);
        }

        #[test]
        fn the_default_starts_with_the_default_value() {
            let s = BehaviorSubject::<String>::default();
            let o = TestObserver::new();
            s.observable().subscribe_observer(o.clone());
            o.assert_values(&[String::new()]);
        }
    }
}
