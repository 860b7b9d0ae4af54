//! [`AsyncSubject`]: emits only its last value, when it completes.

use super::core::{Kind, SubjectCore};
use super::subject_handle;
use crate::sync::{Flavour, Local, Shared};

/// A subject that emits only its last value, followed by completion, when it completes.
///
/// Values are kept (the last one replacing the others) but not passed on; on completion every
/// subscriber gets the last value, if there was one, and completion. A subscriber that comes
/// after completion gets the same. An error is passed on alone, with no value, to current and
/// late subscribers. See the [module documentation](crate::subjects) for the rules every
/// subject follows.
///
/// ```text
/// input:  -1-2-3-|
/// A:             (3|)   subscribed first
/// B:             (3|)   subscribed after completion
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::AsyncSubject;
/// use rx::testing::TestObserver;
///
/// let subject = AsyncSubject::new();
/// let early = TestObserver::new();
/// subject.observable().subscribe_observer(early.clone());
/// let mut input = subject.observer();
/// input.on_next(1);
/// input.on_next(2);
/// early.assert_values(&[]);
/// input.on_completed();
/// early.assert_values(&[2]);
/// early.assert_completed();
///
/// let late = TestObserver::new();
/// subject.observable().subscribe_observer(late.clone());
/// late.assert_values(&[2]);
/// late.assert_completed();
/// ```
pub struct AsyncSubject<T, F: Flavour> {
    core: F::Ptr<SubjectCore<T, F>>,
}

impl<T> AsyncSubject<T, Shared> {
    /// A thread-safe subject with no value yet.
    pub fn new() -> Self {
        Self::from_kind(Kind::Async)
    }
}

impl<T> AsyncSubject<T, Local> {
    /// A single-threaded subject with no value yet.
    pub fn new() -> Self {
        Self::from_kind(Kind::Async)
    }
}

impl<T, F: Flavour> Default for AsyncSubject<T, F> {
    fn default() -> Self {
        Self::from_kind(Kind::Async)
    }
}

subject_handle!(AsyncSubject);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    // Each test runs against both flavours of the subject.
    crate::subjects::flavour_tests::for_each_flavour! {
        #[test]
        fn emits_the_last_value_on_completion_to_current_and_late_subscribers() {
            let s = AsyncSubject::new();
            let a = TestObserver::new();
            s.observable().subscribe_observer(a.clone());
            let mut input = s.observer();
            input.on_next(1);
            let b = TestObserver::new();
            s.observable().subscribe_observer(b.clone());
            input.on_next(2);
            a.assert_values(&[]);
            a.assert_not_terminated();
            input.clone().on_completed();
            input.on_next(3);
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            for o in [a, b, late] {
                o.assert_notifications(&[Notification::Next(2), Notification::Completed]);
            }
        }

        #[test]
        fn completion_without_a_value_is_completion_alone() {
            let s = AsyncSubject::<i32>::new();
            let a = TestObserver::new();
            s.observable().subscribe_observer(a.clone());
            s.observer().on_completed();
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            a.assert_notifications(&[Notification::Completed]);
            late.assert_notifications(&[Notification::Completed]);
        }

        #[test]
        fn an_error_is_passed_on_without_the_value() {
            let s = AsyncSubject::new();
            let a = TestObserver::new();
            s.observable().subscribe_observer(a.clone());
            s.observer().on_next(1);
            s.observer().on_error(Error::msg("failed"));
            s.observer().on_completed();
            let late = TestObserver::new();
            s.observable().subscribe_observer(late.clone());
            for o in [a, late] {
                o.assert_values(&[]);
                o.assert_error("failed");
            }
        }

        #[test]
        fn a_subscriber_disposed_by_the_value_gets_no_completion() {
            let s = AsyncSubject::new();
            let o = TestObserver::new();
            let probe = o.clone();
            s.observable()
                .map(move |v| {
                    probe.dispose();
                    v
                })
                .subscribe_observer(o.clone());
            s.observer().on_next(5);
            s.observer().on_completed();
            o.assert_values(&[5]);
            o.assert_not_terminated();
        }
    }
}
