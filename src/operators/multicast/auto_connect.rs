//! [`ConnectableObservable::auto_connect`]: connect when the `n`th subscriber comes, and stay
//! connected.
//!
//! The subscribers are counted with one atomic: the subscriber whose increment reaches `n`
//! connects, after it has joined the subject, so the first `n` subscribers all see the
//! source from its first value.

use super::connectable::{ConnectableObservable, ConnectionObserver};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicUsize, Ordering};
use crate::subjects::core::Accepts;
use crate::subjects::sealed::Sealed;
use crate::subjects::{Subject, SubjectSubscription};
use crate::sync::imp::BoxSubscription;
use std::fmt;

type FlavourOf<J> = <J as Sealed>::Flavour;

/// Connects a [`ConnectableObservable`] when its `n`th subscriber comes, and never
/// disconnects it; built by [`ConnectableObservable::auto_connect`].
///
/// A cheap `Clone` handle: clones share the count.
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "autoConnect")]
pub struct AutoConnect<S, J: Sealed> {
    connectable: ConnectableObservable<S, J>,
    /// Subscribers so far. Only its own increments order anything: the connecting
    /// subscriber is the one that saw `n - 1`, so exactly one connects.
    subscribers: Arc<AtomicUsize>,
    n: usize,
}

impl<S, J: Sealed> AutoConnect<S, J> {
    pub(crate) fn new(connectable: ConnectableObservable<S, J>, n: usize) -> Self {
        AutoConnect {
            connectable,
            subscribers: Arc::new(AtomicUsize::new(0)),
            n,
        }
    }
}

impl<S, J: Sealed> Clone for AutoConnect<S, J> {
    fn clone(&self) -> Self {
        AutoConnect {
            connectable: self.connectable.clone(),
            subscribers: self.subscribers.clone(),
            n: self.n,
        }
    }
}

impl<S, J: Sealed> fmt::Debug for AutoConnect<S, J> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AutoConnect")
            .field("n", &self.n)
            .field("subscribers", &self.subscribers.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<S: Observable, J: Sealed> Observable for AutoConnect<S, J> {
    type Item = S::Item;
    type Flavour = FlavourOf<J>;
}

impl<S, J, O> Subscribe<O> for AutoConnect<S, J>
where
    S: Observable + Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>> + Clone,
    FlavourOf<J>: BoxSubscription<
        'static,
            <S as Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>>>::Subscription,
        > + Accepts<<S as Observable>::Item, O>,
    <S as Observable>::Item: Clone + 'static,
    J: Subject<<S as Observable>::Item>,
    O: Observer<<S as Observable>::Item> + 'static,
{
    type Subscription = SubjectSubscription<<S as Observable>::Item, FlavourOf<J>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        // An observer already disposed is not counted, as `ref_count` does not count it: it
        // would connect the source for nobody.
        let unwanted = observer.is_disposed();
        let subscription = self.connectable.clone().subscribe_observer(observer);
        // Relaxed: the count orders nothing else; the connectable's lock orders the
        // connection with the subscriptions.
        if !unwanted && self.subscribers.fetch_add(1, Ordering::Relaxed) + 1 == self.n {
            self.connectable.connect();
        }
        subscription
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::source::from_iter;
    use crate::subjects::PublishSubject;
    use crate::test_kit::counting::CountingSource;
    use crate::testing::TestObserver;

    #[test]
    fn connects_at_the_nth_subscriber() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().publish().auto_connect(2);
        let (a, b, c) = (
            TestObserver::new(),
            TestObserver::new(),
            TestObserver::new(),
        );
        shared.clone().subscribe_observer(a.clone());
        input.observer().on_next(0);
        assert_eq!(src.subscriptions(), 0);
        shared.clone().subscribe_observer(b.clone());
        assert_eq!(src.subscriptions(), 1);
        input.observer().on_next(1);
        shared.clone().subscribe_observer(c.clone());
        input.observer().on_next(2);
        assert_eq!(src.subscriptions(), 1);
        a.assert_values(&[1, 2]);
        b.assert_values(&[1, 2]);
        c.assert_values(&[2]);
    }

    #[test]
    fn stays_connected_when_every_subscriber_leaves() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().publish().auto_connect(1);
        let a = TestObserver::new();
        let handle = shared.clone().subscribe_observer(a.clone());
        handle.dispose();
        assert_eq!((src.subscriptions(), src.disposals()), (1, 0));
        let b = TestObserver::new();
        shared.clone().subscribe_observer(b.clone());
        input.observer().on_next(5);
        b.assert_values(&[5]);
        assert_eq!(src.subscriptions(), 1);
    }

    #[test]
    fn a_synchronous_source_runs_once_for_the_first_n() {
        let shared = from_iter([1, 2, 3]).replay(3).auto_connect(2);
        let (a, b) = (TestObserver::new(), TestObserver::new());
        shared.clone().subscribe_observer(a.clone());
        a.assert_values(&[]);
        shared.clone().subscribe_observer(b.clone());
        a.assert_values(&[1, 2, 3]);
        b.assert_values(&[1, 2, 3]);
        a.assert_completed();
        // A late subscriber joins the terminated connection: the replay and the completion.
        let late = TestObserver::new();
        shared.clone().subscribe_observer(late.clone());
        late.assert_values(&[1, 2, 3]);
        late.assert_completed();
    }

    #[test]
    fn zero_connects_at_once() {
        let input = PublishSubject::<i32>::new();
        let src = CountingSource::new(&input);
        let _shared = src.clone().publish().auto_connect(0);
        assert_eq!(src.subscriptions(), 1);
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use crate::prelude::*;
    use crate::primitive::{Arc, AtomicUsize, Ordering, thread};
    use crate::source::{defer, just};
    use crate::testing::TestObserver;

    #[test]
    fn two_racing_subscribers_connect_once_and_both_see_the_value() {
        loom::model(|| {
            let runs = Arc::new(AtomicUsize::new(0));
            let counter = runs.clone();
            let shared = defer(move || {
                counter.fetch_add(1, Ordering::SeqCst);
                just(7)
            })
            .publish()
            .auto_connect(2);
            let (a, b) = (TestObserver::new(), TestObserver::new());
            let (other, b2) = (shared.clone(), b.clone());
            let t = thread::spawn(move || {
                other.subscribe_observer(b2);
            });
            shared.subscribe_observer(a.clone());
            t.join().unwrap();
            assert_eq!(runs.load(Ordering::SeqCst), 1);
            a.assert_values(&[7]);
            b.assert_values(&[7]);
        });
    }
}
