//! The test kit: a recording [`TestObserver`] with assertions.
//!
//! Public, so users test their own pipelines the way the library tests its operators.
//! Time-dependent pipelines are tested on the virtual-time `TestScheduler`.

use crate::notification::Notification;
use crate::observer::Observer;
use crate::Error;
use parking_lot::Mutex;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
        self.shared.events.lock().iter().any(Notification::is_terminal)
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
            _ => panic!(
                "expected error {message:?}, got {}",
                describe_end(&events)
            ),
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
