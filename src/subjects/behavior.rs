//! [`BehaviorSubject`]: starts each subscriber with the latest value.

use super::core::{Core, Kind};
use super::subject_handle;
use crate::sync::Arc;

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
/// Each value is cloned once more than a [`PublishSubject`](super::PublishSubject) clones it,
/// to be kept as the latest.
pub struct BehaviorSubject<T> {
    core: Arc<Core<T>>,
}

impl<T> BehaviorSubject<T> {
    /// A subject whose latest value is `initial` until the first `on_next`.
    pub fn new(initial: T) -> Self {
        BehaviorSubject {
            core: Arc::new(Core::new(Kind::Behavior(initial))),
        }
    }
}

impl<T: Default> Default for BehaviorSubject<T> {
    /// A subject whose initial value is `T::default()`.
    fn default() -> Self {
        Self::new(T::default())
    }
}

subject_handle!(BehaviorSubject);

#[cfg(all(test, not(loom)))]
mod tests {
    use super::BehaviorSubject;
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::{Arc, Mutex};

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
