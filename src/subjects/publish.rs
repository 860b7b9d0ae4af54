//! [`PublishSubject`]: passes each notification on to the observers subscribed at the time.

use super::core::{Kind, SubjectCore};
use super::subject_handle;
use crate::sync::{Flavour, Local, Shared};

/// A subject that passes each notification on to the observers subscribed at the time.
///
/// A subscriber sees only what is sent after it subscribed; a subscriber that comes after the
/// subject terminated gets the terminal notification alone. See the [module
/// documentation](crate::subjects) for the rules every subject follows (serialised delivery,
/// re-entrant calls, the first terminal notification wins) and for what they cost.
///
/// ```text
/// input:  -1-2-3-|
/// A:      -1-2-3-|   subscribed first
/// B:         2-3-|   subscribed after 1
/// C:             |   subscribed after completion
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::PublishSubject;
/// use rx::testing::TestObserver;
///
/// let subject = PublishSubject::new();
/// let (a, b) = (TestObserver::new(), TestObserver::new());
/// subject.observable().subscribe_observer(a.clone());
///
/// let mut input = subject.observer();
/// input.on_next(1);
/// subject.observable().subscribe_observer(b.clone());
/// input.on_next(2);
/// input.on_completed();
///
/// a.assert_values(&[1, 2]);
/// a.assert_completed();
/// b.assert_values(&[2]);
/// b.assert_completed();
/// ```
#[doc(alias = "Subject")]
pub struct PublishSubject<T, F: Flavour> {
    core: F::Ptr<SubjectCore<T, F>>,
}

impl<T> PublishSubject<T, Shared> {
    /// A thread-safe subject with no subscribers.
    pub fn new() -> Self {
        Self::from_kind(Kind::Publish)
    }
}

impl<T> PublishSubject<T, Local> {
    /// A single-threaded subject with no subscribers.
    pub fn new() -> Self {
        Self::from_kind(Kind::Publish)
    }
}

impl<T, F: Flavour> Default for PublishSubject<T, F> {
    fn default() -> Self {
        Self::from_kind(Kind::Publish)
    }
}

subject_handle!(PublishSubject);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::{Arc, Mutex};

    // Each test runs against both flavours of the subject.
    crate::subjects::flavour_tests::for_each_flavour! {
        #[test]
        fn passes_on_only_what_comes_after_subscribing() {
            let s = PublishSubject::new();
            let mut input = s.observer();
            input.on_next(0);
            let a = TestObserver::new();
            s.observable().subscribe_observer(a.clone());
            input.on_next(1);
            let b = TestObserver::new();
            s.observable().subscribe_observer(b.clone());
            input.on_next(2);
            input.on_completed();
            a.assert_notifications(&[
                Notification::Next(1),
                Notification::Next(2),
                Notification::Completed,
            ]);
            b.assert_notifications(&[Notification::Next(2), Notification::Completed]);
        }

        #[test]
        fn late_subscriber_gets_the_terminal_notification_alone() {
            let s = PublishSubject::<i32>::new();
            s.observer().on_next(1);
            s.observer().on_error(Error::msg("boom"));
            let late = TestObserver::new();
            let handle = s.observable().subscribe_observer(late.clone());
            late.assert_values(&[]);
            late.assert_error("boom");
            assert!(handle.is_disposed());
            assert!(!s.has_observers());
        }

        #[test]
        fn the_first_terminal_notification_wins() {
            let s = PublishSubject::new();
            let o = TestObserver::new();
            s.observable().subscribe_observer(o.clone());
            let (mut first, second) = (s.observer(), s.observer());
            first.on_next(1);
            first.on_completed();
            second.on_error(Error::msg("ignored"));
            let mut third = s.observer();
            third.on_next(2);
            assert!(third.is_disposed());
            o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
        }

        #[test]
        fn observers_from_several_calls_feed_the_same_subject() {
            let s = PublishSubject::new();
            let o = TestObserver::new();
            s.observable().subscribe_observer(o.clone());
            let (mut a, mut b) = (s.observer(), s.observer());
            a.on_next(1);
            b.on_next(2);
            a.on_completed();
            b.on_next(3);
            o.assert_values(&[1, 2]);
            o.assert_completed();
        }

        #[test]
        fn dispose_removes_the_observer() {
            let s = PublishSubject::new();
            let (a, b) = (TestObserver::new(), TestObserver::new());
            let ha = s.observable().subscribe_observer(a.clone());
            s.observable().subscribe_observer(b.clone());
            let mut input = s.observer();
            input.on_next(1);
            assert!(!ha.is_disposed());
            ha.dispose();
            ha.dispose();
            assert!(ha.is_disposed());
            input.on_next(2);
            input.on_completed();
            a.assert_values(&[1]);
            a.assert_not_terminated();
            b.assert_values(&[1, 2]);
            b.assert_completed();
            assert!(!s.has_observers());
        }

        #[test]
        fn an_observer_that_reports_disposed_is_removed() {
            let s = PublishSubject::new();
            let o = TestObserver::new();
            let handle = s.observable().take(2).subscribe_observer(o.clone());
            let mut input = s.observer();
            input.on_next(1);
            assert!(s.has_observers());
            input.on_next(2);
            assert!(!s.has_observers(), "take(2) finished, so it was dropped");
            assert!(handle.is_disposed());
            input.on_next(3);
            o.assert_values(&[1, 2]);
            o.assert_completed();

            let external = TestObserver::new();
            s.observable().subscribe_observer(external.clone());
            external.dispose();
            input.on_next(4);
            external.assert_values(&[]);
            assert!(!s.has_observers());
        }

        #[test]
        fn observers_that_end_themselves_are_removed_when_no_handle_is_kept() {
            // Every handle is dropped at once, so the broadcast loop makes the calls alone and
            // looks for finished observers afterwards.
            let s = PublishSubject::new();
            let (once, twice, always) = (TestObserver::new(), TestObserver::new(), TestObserver::new());
            s.observable().take(1).subscribe_observer(once.clone());
            s.observable().take(2).subscribe_observer(twice.clone());
            s.observable().subscribe_observer(always.clone());
            let mut input = s.observer();
            for v in 1..=3 {
                input.on_next(v);
            }
            once.assert_notifications(&[Notification::Next(1), Notification::Completed]);
            twice.assert_notifications(&[
                Notification::Next(1),
                Notification::Next(2),
                Notification::Completed,
            ]);
            always.assert_values(&[1, 2, 3]);
            always.dispose();
            input.on_next(4);
            assert!(!s.has_observers(), "the finished observers were forgotten");
        }

        #[test]
        fn runs_of_observers_of_one_type_get_every_value_in_subscription_order() {
            // Handles dropped: the loop goes by runs of observers of one type. Types here
            // come in runs of three, two and one, with a finished observer inside a run.
            let s = PublishSubject::new();
            let log = Arc::new(Mutex::new(Vec::new()));
            for k in 0..3 {
                let log = log.clone();
                s.observable().subscribe(move |v: i32| log.lock().unwrap().push((k, v)));
            }
            let ends = TestObserver::new();
            s.observable().take(1).subscribe_observer(ends.clone());
            let last = TestObserver::new();
            s.observable().subscribe_observer(last.clone());
            for k in 3..5 {
                let log = log.clone();
                s.observable().subscribe(move |v: i32| log.lock().unwrap().push((k, -v)));
            }
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            let expected: Vec<(i32, i32)> = [1, 2]
                .into_iter()
                .flat_map(|v| [(0, v), (1, v), (2, v), (3, -v), (4, -v)])
                .collect();
            assert_eq!(*log.lock().unwrap(), expected);
            ends.assert_notifications(&[Notification::Next(1), Notification::Completed]);
            last.assert_values(&[1, 2]);
        }

        #[test]
        // In the local copy the handle is not `Send`, so neither is the `Arc`: harmless here.
        #[allow(clippy::arc_with_non_send_sync)]
        fn one_kept_handle_among_dropped_ones_still_stops_its_observer_within_the_value() {
            let s = PublishSubject::new();
            let slot = Arc::new(Mutex::new(None::<SubjectSubscription<i32>>));
            let h = slot.clone();
            s.observable().subscribe(move |v: i32| {
                if v == 1 {
                    h.lock().unwrap().as_ref().unwrap().dispose();
                }
            });
            let (before, target, after) = (TestObserver::new(), TestObserver::new(), TestObserver::new());
            s.observable().subscribe_observer(before.clone());
            *slot.lock().unwrap() = Some(s.observable().subscribe_observer(target.clone()));
            s.observable().subscribe_observer(after.clone());
            let mut input = s.observer();
            input.on_next(0);
            input.on_next(1);
            input.on_next(2);
            before.assert_values(&[0, 1, 2]);
            target.assert_values(&[0]);
            after.assert_values(&[0, 1, 2]);
        }

        #[test]
        fn an_observer_subscribed_inside_on_next_gets_the_next_value_not_the_current_one() {
            let s = PublishSubject::new();
            let inner = TestObserver::new();
            let outer_seen = Arc::new(Mutex::new(Vec::new()));
            let (s2, inner2, seen) = (s.clone(), inner.clone(), outer_seen.clone());
            s.observable().subscribe(move |v: i32| {
                seen.lock().unwrap().push(v);
                if v == 1 {
                    s2.observable().subscribe_observer(inner2.clone());
                }
            });
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            input.on_completed();
            assert_eq!(*outer_seen.lock().unwrap(), [1, 2]);
            inner.assert_values(&[2]);
            inner.assert_completed();
        }

        #[test]
        // In the local copy the handle is not `Send`, so neither is the `Arc`: harmless here.
        #[allow(clippy::arc_with_non_send_sync)]
        fn disposing_inside_on_next_stops_a_later_observer_at_once() {
            let s = PublishSubject::new();
            let later = TestObserver::new();
            let handle = Arc::new(Mutex::new(
                None::<SubjectSubscription<i32>>,
            ));
            let h = handle.clone();
            s.observable().subscribe(move |v: i32| {
                if v == 2 {
                    h.lock().unwrap().as_ref().unwrap().dispose();
                }
            });
            *handle.lock().unwrap() = Some(s.observable().subscribe_observer(later.clone()));
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            input.on_next(3);
            later.assert_values(&[1]);
            later.assert_not_terminated();
        }

        #[test]
        fn a_subscription_disposed_before_it_is_registered_gets_nothing() {
            let s = PublishSubject::new();
            let inner = TestObserver::new();
            let (s2, inner2) = (s.clone(), inner.clone());
            s.observable().subscribe(move |v: i32| {
                if v == 1 {
                    // Queued behind the current delivery, and disposed while still queued.
                    let handle = s2.observable().subscribe_observer(inner2.clone());
                    assert!(!handle.is_disposed());
                    handle.dispose();
                    assert!(handle.is_disposed());
                }
            });
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            input.on_completed();
            inner.assert_notifications(&[]);
        }

        #[test]
        // In the local copy the handle is not `Send`, so neither is the `Arc`: harmless here.
        #[allow(clippy::arc_with_non_send_sync)]
        fn an_observer_may_dispose_itself() {
            let s = PublishSubject::new();
            let slot = Arc::new(Mutex::new(
                None::<SubjectSubscription<i32>>,
            ));
            let seen = Arc::new(Mutex::new(Vec::new()));
            let (h, log) = (slot.clone(), seen.clone());
            let handle = s.observable().subscribe(move |v: i32| {
                log.lock().unwrap().push(v);
                h.lock().unwrap().as_ref().unwrap().dispose();
            });
            *slot.lock().unwrap() = Some(handle.clone());
            let mut input = s.observer();
            input.on_next(1);
            input.on_next(2);
            assert_eq!(*seen.lock().unwrap(), [1]);
            assert!(handle.is_disposed());
            assert!(!s.has_observers());
            // The observer held its own handle, hence the subject: the cycle is broken by the
            // disposal, which dropped the observer.
            drop(slot);
        }

        #[test]
        fn on_next_inside_on_next_is_delivered_after_the_current_value_to_everyone() {
            let s = PublishSubject::new();
            let log = Arc::new(Mutex::new(Vec::new()));
            for name in ["a", "b"] {
                let (log, s2) = (log.clone(), s.clone());
                s.observable().subscribe(move |v: i32| {
                    log.lock().unwrap().push(format!("{name}{v}"));
                    if name == "a" && v < 3 {
                        s2.observer().on_next(v * 10);
                    }
                });
            }
            s.observer().on_next(1);
            assert_eq!(*log.lock().unwrap(), ["a1", "b1", "a10", "b10"]);
        }

        #[test]
        fn completing_inside_on_next_does_not_deadlock() {
            let s = PublishSubject::new();
            let o = TestObserver::new();
            let s2 = s.clone();
            s.observable().subscribe(move |v: i32| {
                if v == 2 {
                    s2.observer().on_completed();
                }
            });
            s.observable().subscribe_observer(o.clone());
            let mut input = s.observer();
            for v in 1..=3 {
                input.on_next(v);
            }
            o.assert_values(&[1, 2]);
            o.assert_completed();
        }

        #[test]
        fn a_terminal_notification_made_inside_on_next_comes_after_what_was_queued() {
            // The completion arrives while a value is being delivered and another is
            // queued: it goes through the inbox, after both, to every observer.
            let s = PublishSubject::new();
            let s2 = s.clone();
            let first = TestObserver::new();
            let f = first.clone();
            s.observable().subscribe(move |v: i32| {
                f.clone().on_next(v);
                if v == 1 {
                    s2.observer().on_next(10);
                    s2.observer().on_completed();
                    s2.observer().on_next(20);
                }
            });
            let second = TestObserver::new();
            s.observable().subscribe_observer(second.clone());
            s.observer().on_next(1);
            first.assert_values(&[1, 10]);
            second.assert_notifications(&[
                Notification::Next(1),
                Notification::Next(10),
                Notification::Completed,
            ]);
            assert!(!s.has_observers());
        }

        #[test]
        // In the local copy the handle is not `Send`, so neither is the `Arc`: harmless here.
        #[allow(clippy::arc_with_non_send_sync)]
        fn a_terminal_notification_skips_observers_disposed_by_an_earlier_one() {
            // Delivered at once (nobody delivers), and a disposal made by the first
            // observer's completion keeps the second from being called.
            let s = PublishSubject::<i32>::new();
            let slot = Arc::new(Mutex::new(None::<SubjectSubscription<i32>>));
            let first = TestObserver::<i32>::new();
            let (h, f) = (slot.clone(), first.clone());
            s.observable().subscribe_with(
                |_| {},
                |_| {},
                move || {
                    f.clone().on_completed();
                    h.lock().unwrap().take().unwrap().dispose();
                },
            );
            let second = TestObserver::new();
            *slot.lock().unwrap() = Some(s.observable().subscribe_observer(second.clone()));
            s.observer().on_completed();
            s.observer().on_error(Error::msg("ignored after completion"));
            first.assert_notifications(&[Notification::Completed]);
            second.assert_notifications(&[]);
            assert!(!s.has_observers());
        }

        #[test]
        fn keys_are_reused_and_a_stale_handle_never_reaches_a_newer_subscription() {
            // Key 0 sits in the key table itself, the others in its list: subscriptions
            // come and go over both, and every handle answers for its own subscription.
            let s = PublishSubject::new();
            let o: Vec<TestObserver<i32>> = (0..5).map(|_| TestObserver::new()).collect();
            let a = s.observable().subscribe_observer(o[0].clone());
            let b = s.observable().subscribe_observer(o[1].clone());
            let _c = s.observable().subscribe_observer(o[2].clone());
            a.dispose();
            let d = s.observable().subscribe_observer(o[3].clone());
            b.dispose();
            let e = s.observable().subscribe_observer(o[4].clone());
            let mut input = s.observer();
            input.on_next(1);
            assert!(a.is_disposed() && b.is_disposed());
            assert!(!d.is_disposed() && !e.is_disposed());
            a.dispose();
            b.dispose();
            input.on_next(2);
            d.dispose();
            input.on_next(3);
            let f = s.observable().subscribe_observer(o[0].clone());
            input.on_next(4);
            input.on_completed();
            o[0].assert_notifications(&[Notification::Next(4), Notification::Completed]);
            o[1].assert_notifications(&[]);
            o[2].assert_values(&[1, 2, 3, 4]);
            o[3].assert_notifications(&[Notification::Next(1), Notification::Next(2)]);
            o[4].assert_values(&[1, 2, 3, 4]);
            o[4].assert_completed();
            assert!(f.is_disposed() && e.is_disposed());
            assert!(!s.has_observers());
        }

        #[test]
        fn a_subject_observer_stops_a_synchronous_source_once_terminated() {
            let s = PublishSubject::new();
            let o = TestObserver::new();
            let s2 = s.clone();
            s.observable().subscribe(move |v: i32| {
                if v == 3 {
                    s2.observer().on_completed();
                }
            });
            s.observable().subscribe_observer(o.clone());
            crate::source::from_iter(1..).subscribe_observer(s.observer());
            o.assert_values(&[1, 2, 3]);
            o.assert_completed();
        }

        #[test]
        fn shared_state_is_freed_when_everything_is_dropped() {
            let s = PublishSubject::new();
            let weak = downgrade(&s.core);
            let o = TestObserver::new();
            let handle = s.observable().subscribe_observer(o.clone());
            let observable = s.observable();
            let mut input = s.observer();
            input.on_next(1);
            drop((s, handle, observable, input));
            assert!(is_freed(&weak));
            o.assert_values(&[1]);
        }

        #[test]
        fn disposing_drops_the_observer_at_once() {
            let s = PublishSubject::<i32>::new();
            let o = TestObserver::new();
            let probe = Arc::new(());
            let p = probe.clone();
            let handle = s.observable().subscribe(move |_| {
                let _ = &p;
            });
            s.observable().subscribe_observer(o.clone());
            assert_eq!(Arc::strong_count(&probe), 2);
            handle.dispose();
            assert_eq!(Arc::strong_count(&probe), 1);
        }

        #[test]
        fn a_panicking_observer_leaves_the_subject_working() {
            let s = PublishSubject::new();
            let o = TestObserver::new();
            let handle = s.observable().subscribe(|v: i32| assert!(v != 2, "two"));
            s.observable().subscribe_observer(o.clone());
            let mut input = s.observer();
            input.on_next(1);
            let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| input.on_next(2)));
            assert!(panicked.is_err());
            handle.dispose();
            input.on_next(3);
            input.on_completed();
            o.assert_values(&[1, 3]);
            o.assert_completed();
        }

        #[test]
        // The local copy of this body keeps a local handle, which is not `Send`.
        #[allow(clippy::arc_with_non_send_sync)]
        fn a_disposal_just_before_a_panic_still_holds_after_it() {
            // The first observer disposes the second, then panics before the second is called:
            // the disposal was counted but not applied when the role was given up.
            let s = PublishSubject::new();
            let target = Arc::new(Mutex::new(None::<SubjectSubscription<i32>>));
            let t = target.clone();
            s.observable().subscribe(move |v: i32| {
                if v == 1 {
                    if let Some(handle) = t.lock().unwrap().take() {
                        handle.dispose();
                    }
                    panic!("one");
                }
            });
            let o = TestObserver::new();
            let handle = s.observable().subscribe_observer(o.clone());
            *target.lock().unwrap() = Some(handle.clone());
            let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.on_next(1)));
            assert!(panicked.is_err());
            assert!(handle.is_disposed());
            s.on_next(2);
            s.on_next(3);
            s.on_completed();
            o.assert_notifications(&[]);
        }
    }

    #[test]
    fn is_send_and_sync() {
        use crate::subjects::PublishSubject;
        static_assertions::assert_impl_all!(PublishSubject<i32>: Send, Sync, Clone);
        static_assertions::assert_impl_all!(crate::subjects::SubjectObservable<i32>: Send, Sync, Clone);
        static_assertions::assert_impl_all!(crate::subjects::SubjectObserver<i32>: Send, Sync, Clone);
        static_assertions::assert_impl_all!(crate::subjects::SubjectSubscription<i32>: Send, Sync);
        static_assertions::assert_not_impl_any!(PublishSubject<std::rc::Rc<i32>>: Send, Sync);
    }

    #[test]
    fn a_local_subject_and_its_handles_are_neither_send_nor_sync() {
        use crate::subjects::local;
        static_assertions::assert_impl_all!(local::PublishSubject<i32>: Clone);
        static_assertions::assert_not_impl_any!(local::PublishSubject<i32>: Send, Sync);
        static_assertions::assert_not_impl_any!(local::SubjectObservable<i32>: Send, Sync);
        static_assertions::assert_not_impl_any!(local::SubjectObserver<i32>: Send, Sync);
        static_assertions::assert_not_impl_any!(local::SubjectSubscription<i32>: Send, Sync);
    }
}
