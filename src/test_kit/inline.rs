//! What the tests of the synchronous paths (here and in the combine operators) share.

use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::subscription::Subscription;
use crate::testing::TestObserver;
use std::fmt::Debug;

/// `source` with the default [`Observable::EMISSION`]: what is built on it takes the
/// shared core.
#[derive(Clone)]
pub(crate) struct Later<S>(pub(crate) S);

impl<S: Observable> Observable for Later<S> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S: Subscribe<O>, O> Subscribe<O> for Later<S> {
    type Subscription = S::Subscription;
    fn subscribe_observer(self, observer: O) -> S::Subscription {
        self.0.subscribe_observer(observer)
    }
}

/// Subscribes the inline form and the core form, asserts which path each takes, and that
/// both deliver `expected` and return a finished handle.
pub(crate) fn both<T, A, B>(fast: A, slow: B, expected: &[Notification<T>])
where
    T: PartialEq + Debug + Clone,
    A: Subscribe<TestObserver<T>>,
    B: Subscribe<TestObserver<T>>,
{
    assert!(inline(&fast), "the fast form takes the inline path");
    assert!(!inline(&slow), "the slow form takes the core");
    let (a, b) = (TestObserver::new(), TestObserver::new());
    let handle = fast.subscribe_observer(a.clone());
    assert!(handle.is_disposed());
    let handle = slow.subscribe_observer(b.clone());
    assert!(handle.is_disposed());
    a.assert_notifications(expected);
    b.assert_notifications(expected);
}

/// Whether `source` takes the synchronous path.
pub(crate) fn inline<S: Observable>(_: &S) -> bool {
    S::EMISSION.is_inside_subscribe()
}
