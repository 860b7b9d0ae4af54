//! [`ObservableExt::publish`](crate::ObservableExt::publish),
//! [`ObservableExt::replay`](crate::ObservableExt::replay) and
//! [`ObservableExt::multicast`](crate::ObservableExt::multicast): a source shared through a
//! subject, subscribed when [`connect`](ConnectableObservable::connect) is called.
//!
//! The connectable keeps the current subject and the current connection ("link") under one
//! lock, never held while the source or an observer runs. A connection ends when it is
//! disposed or when the source terminates; the next connection then feeds a fresh subject
//! (made by the `renew` function: a new one for `publish` and `replay`, the same one for
//! `multicast`), as RxJava 3's `ObservablePublish` and `ObservableReplay` do. Until then, a
//! subscriber that comes after the source terminated joins the terminated subject, and gets
//! what such a subject gives a late subscriber.
//!
//! The state takes the [flavour](crate::sync) of its subject: with a local subject
//! (`publish_local` and the other `_local` forms, or `multicast` of a
//! [`subjects::local`](crate::subjects::local) subject) the lock is a `RefCell`, the flags are
//! `Cell`s, and the source's items, its subscription and the subscribers need not be `Send`.

use super::auto_connect::AutoConnect;
use super::ref_count::RefCount;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Ordering;
use crate::schedulers::Scheduler;
use crate::subjects::core::Accepts;
use crate::subjects::flavoured::{PublishSubject, ReplaySubject};
use crate::subjects::sealed::Sealed;
use crate::subjects::{Subject, SubjectObservable, SubjectObserver, SubjectSubscription};
use crate::subscription::Subscription;
use crate::sync::Flavour;
use crate::sync::imp::{BoxSubscription, Flag, Lock, Machinery};
use std::fmt;
use std::mem;
use std::time::Duration;

/// The flavour of subject `J`.
type FlavourOf<J> = <J as Sealed>::Flavour;
/// The shared pointer of subject `J`'s flavour.
type PtrOf<J, X> = <FlavourOf<J> as Machinery>::Ptr<X>;

/// A source shared through a subject, which subscribes to the source only when
/// [`connect`](ConnectableObservable::connect) is called; built by
/// [`ObservableExt::publish`](crate::ObservableExt::publish),
/// [`replay`](crate::ObservableExt::replay) and
/// [`multicast`](crate::ObservableExt::multicast) (and their `_local` forms).
///
/// Subscribing registers the observer with the subject; it is a cheap `Clone` handle, so
/// subscribe clones of it, and keep one to connect. It is `Send` and `Sync` when its source
/// and its subject are.
#[must_use = "observables do nothing unless subscribed"]
pub struct ConnectableObservable<S, J: Sealed> {
    pub(crate) shared: PtrOf<J, Shared<S, J>>,
}

pub(crate) struct Shared<S, J: Sealed> {
    /// The subject the next connection feeds, from the one the last connection fed.
    renew: Renew<J>,
    state: <FlavourOf<J> as Machinery>::Lock<State<S, J>>,
}

struct State<S, J: Sealed> {
    source: S,
    subject: J,
    link: Option<<FlavourOf<J> as Machinery>::Ptr<ConnectionState<FlavourOf<J>>>>,
}

/// How a connectable makes the subject of its next connection.
enum Renew<J> {
    /// From the last subject: `publish`, `replay` and `multicast`, with nothing to allocate.
    From(fn(&J) -> J),
    /// From the user's factory: [`share_with`](crate::ObservableExt::share_with)'s
    /// connector.
    Connector(Box<dyn Fn() -> J + Send + Sync>),
}

impl<S, J: Sealed> ConnectableObservable<S, J> {
    fn new(source: S, subject: J, renew: Renew<J>) -> Self {
        ConnectableObservable {
            shared: FlavourOf::<J>::new_ptr(Shared {
                renew,
                state: Lock::new(State {
                    source,
                    subject,
                    link: None,
                }),
            }),
        }
    }

    pub(crate) fn multicast(source: S, subject: J) -> Self
    where
        J: Clone,
    {
        Self::new(source, subject, Renew::From(J::clone))
    }

    /// A connectable whose every connection feeds a new subject from `connector`, the first
    /// one included.
    pub(crate) fn with_connector<F>(source: S, connector: F) -> Self
    where
        F: Fn() -> J + Send + Sync + 'static,
    {
        let subject = connector();
        Self::new(source, subject, Renew::Connector(Box::new(connector)))
    }

    /// How the current connection's source terminated, if it has: `Some(true)` for an error,
    /// `Some(false)` for a completion. What `share_with` reads to keep a terminated subject.
    pub(crate) fn terminated_by(&self) -> Option<bool> {
        let state = self.shared.state.lock();
        let link = state.link.as_ref()?;
        // Acquire pairs with the Release store of `terminated`, which follows `failed`.
        (link.is_terminated() && !link.is_disconnected())
            .then(|| link.failed.load(Ordering::Relaxed))
    }

    /// Ends a connection whose source terminated, so the next subscriber joins a fresh subject
    /// (what `ref_count` needs to start over).
    pub(crate) fn reset(&self) {
        let retired = {
            let mut state = self.shared.state.lock();
            let ended = state.link.as_ref().is_some_and(|link| link.is_terminated());
            ended.then(|| self.shared.retire(&mut state))
        };
        drop(retired);
    }
}

/// What [`Shared::retire`] hands back, to be dropped outside the lock.
type Retired<J> = (
    J,
    Option<<FlavourOf<J> as Machinery>::Ptr<ConnectionState<FlavourOf<J>>>>,
);

impl<S, J: Sealed> Shared<S, J> {
    /// Ends the current connection and puts a fresh subject in its place. The old subject and
    /// link are handed back to be dropped once the lock is released: dropping them may drop
    /// observers and the source's subscription, which runs their owners' code.
    fn retire(&self, state: &mut State<S, J>) -> Retired<J> {
        let fresh = match &self.renew {
            Renew::From(renew) => renew(&state.subject),
            Renew::Connector(connector) => connector(),
        };
        (mem::replace(&mut state.subject, fresh), state.link.take())
    }
}

impl<S, T, F: Flavour> ConnectableObservable<S, PublishSubject<T, F>> {
    pub(crate) fn publish(source: S) -> Self {
        Self::new(
            source,
            PublishSubject::default(),
            Renew::From(|_| PublishSubject::default()),
        )
    }
}

impl<S, T, F: Flavour> ConnectableObservable<S, ReplaySubject<T, F>> {
    pub(crate) fn replay(source: S, capacity: usize) -> Self {
        assert!(capacity > 0, "replay: the buffer size must be positive");
        Self::new(
            source,
            ReplaySubject::with_capacity_in(capacity),
            Renew::From(ReplaySubject::empty_like),
        )
    }
}

impl<S, J> ConnectableObservable<S, J>
where
    S: Observable,
    <S as Observable>::Item: Clone + 'static,
    J: Subject<<S as Observable>::Item>,
{
    /// Subscribes the subject to the source, so the subscribers start receiving; returns the
    /// connection, which disconnects the source when disposed.
    ///
    /// If a connection is running, returns it. If the last one was disposed or its source
    /// terminated, starts a new one, by subscribing a clone of the source, feeding a fresh
    /// subject (the same subject for [`multicast`](crate::ObservableExt::multicast)): the
    /// subscribers of the old subject are left with it. With a synchronous source, everything
    /// is delivered before `connect` returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let connectable = rx::source::from_iter([1, 2, 3]).publish();
    /// let (a, b) = (TestObserver::new(), TestObserver::new());
    /// connectable.clone().subscribe_observer(a.clone());
    /// connectable.clone().subscribe_observer(b.clone());
    /// a.assert_values(&[]);
    ///
    /// let connection = connectable.connect();
    /// a.assert_values(&[1, 2, 3]);
    /// b.assert_values(&[1, 2, 3]);
    /// assert!(connection.is_disposed(), "the source has completed");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn connect(&self) -> Connection<FlavourOf<J>>
    where
        S: Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>> + Clone,
        FlavourOf<J>: BoxSubscription<
        'static,
                <S as Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>>>::Subscription,
            >,
    {
        let (connection, start) = self.link();
        if let Some((source, subject)) = start {
            connection.start(source, subject);
        }
        connection
    }

    /// The running connection, or a new one that is not started yet: with the source and the
    /// subject's observer to start it with.
    #[allow(clippy::type_complexity)]
    pub(crate) fn link(
        &self,
    ) -> (
        Connection<FlavourOf<J>>,
        Option<(S, SubjectObserver<<S as Observable>::Item, FlavourOf<J>>)>,
    )
    where
        S: Clone,
    {
        let mut state = self.shared.state.lock();
        let mut retired = None;
        if let Some(link) = &state.link {
            if !link.is_disconnected() && !link.is_terminated() {
                return (Connection { link: link.clone() }, None);
            }
            retired = Some(self.shared.retire(&mut state));
        }
        let link = FlavourOf::<J>::new_ptr(ConnectionState::new());
        state.link = Some(link.clone());
        let start = (state.source.clone(), state.subject.observer());
        drop(state);
        drop(retired);
        (Connection { link }, Some(start))
    }

    /// The subject new subscribers join.
    fn subject(&self) -> SubjectObservable<<S as Observable>::Item, FlavourOf<J>> {
        let mut state = self.shared.state.lock();
        let ended = state
            .link
            .as_ref()
            .is_some_and(|link| link.is_disconnected());
        let retired = ended.then(|| self.shared.retire(&mut state));
        let subject = state.subject.observable();
        drop(state);
        drop(retired);
        subject
    }

    /// Connects when the first subscriber comes and disconnects when the last one leaves;
    /// see [`ObservableExt::share`](crate::ObservableExt::share).
    ///
    /// Each time the count of subscribers goes from zero to one — and again after the source
    /// terminated — a new connection starts, so the source must be `Clone`. Subscribers leave
    /// by disposing their subscription, by terminating, or by reporting
    /// [`is_disposed`](Observer::is_disposed) (the downstream of a finished `take`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::PublishSubject;
    /// use rx::testing::TestObserver;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().publish().ref_count();
    /// let o = TestObserver::new();
    /// let subscription = shared.clone().subscribe_observer(o.clone());
    /// assert!(input.has_observers(), "connected by the first subscriber");
    /// input.on_next(1);
    /// subscription.dispose();
    /// assert!(!input.has_observers(), "disconnected when the last one left");
    /// o.assert_values(&[1]);
    /// ```
    #[doc(alias = "refCount")]
    pub fn ref_count(self) -> RefCount<S, J> {
        RefCount::new(self)
    }

    /// Like [`ref_count`](ConnectableObservable::ref_count), but each connection waits for
    /// `n` subscribers: the `n`th connects the source, and when they have all left it is
    /// disconnected, and the next connection waits for `n` again (RxJava's `refCount(n)`,
    /// Rx.NET's `RefCount(minObservers)`). `n` of 0 or 1 is `ref_count`.
    ///
    /// ```text
    /// source:                 --1--2--3--4--|
    /// ref_count_min(2)  A:    ^-----------!
    ///                   B:    ---^--------------
    /// A sees:                 ---------3--       (connected when B came, at frame 3)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::PublishSubject;
    /// use rx::testing::TestObserver;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().publish().ref_count_min(2);
    /// let (a, b) = (TestObserver::new(), TestObserver::new());
    /// let ha = shared.clone().subscribe_observer(a.clone());
    /// assert!(!input.has_observers(), "one subscriber is not enough");
    /// let hb = shared.clone().subscribe_observer(b.clone());
    /// assert!(input.has_observers(), "connected by the second");
    /// input.on_next(1);
    /// ha.dispose();
    /// assert!(input.has_observers(), "B is still there");
    /// hb.dispose();
    /// assert!(!input.has_observers(), "disconnected when the last left");
    /// a.assert_values(&[1]);
    /// b.assert_values(&[1]);
    /// ```
    ///
    /// # Performance
    ///
    /// As [`ref_count`](ConnectableObservable::ref_count): one lock per subscriber joining
    /// and leaving.
    #[doc(alias = "refCount")]
    #[doc(alias = "RefCount")]
    pub fn ref_count_min(self, n: usize) -> RefCount<S, J> {
        RefCount::new(self).with_min_subscribers(n)
    }

    /// Like [`ref_count`](ConnectableObservable::ref_count), but when the last subscriber
    /// leaves the connection is kept for `grace` on `scheduler`: a subscriber coming before
    /// then joins it, the source not subscribed again; otherwise it is disconnected when the
    /// timer fires (Rx.NET's `RefCount(disconnectDelay, scheduler)`, RxJava's
    /// `refCount(timeout, unit, scheduler)`, RxJS's `share({ resetOnRefCountZero: () =>
    /// timer(grace) })`). The source terminating ends the connection as with `ref_count`.
    ///
    /// The timer's task holds the `RefCount`, so its parts must be `Send`: a local subject's
    /// connectable takes no grace.
    ///
    /// ```text
    /// source:                 --1--2--3--4--5--|
    /// ref_count_grace(3)  A:  ^-----!
    ///                     B:  -------^----!
    /// source subscribed:      ^--------------!   (B came within A's grace; 3 after B left)
    /// B sees:                 --------3--4-
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::subjects::PublishSubject;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let sch = TestScheduler::new();
    /// let input = PublishSubject::<i32>::new();
    /// let shared = input
    ///     .observable()
    ///     .publish()
    ///     .ref_count_grace(Duration::from_millis(10), sch.clone());
    /// let o = TestObserver::new();
    /// shared.clone().subscribe_observer(o.clone()).dispose();
    /// sch.advance_by(Duration::from_millis(9));
    /// assert!(input.has_observers(), "kept through the grace");
    /// sch.advance_by(Duration::from_millis(1));
    /// assert!(!input.has_observers(), "disconnected when it ends");
    /// ```
    ///
    /// # Performance
    ///
    /// As [`ref_count`](ConnectableObservable::ref_count), plus, each time the last subscriber
    /// leaves, a worker of `scheduler`, a boxed task and its handle; a subscriber coming
    /// within the grace disposes the handle.
    #[doc(alias = "refCount")]
    #[doc(alias = "RefCount")]
    #[doc(alias = "resetOnRefCountZero")]
    pub fn ref_count_grace<Sch: Scheduler>(self, grace: Duration, scheduler: Sch) -> RefCount<S, J>
    where
        S: 'static,
        J: 'static,
        RefCount<S, J>: Send,
    {
        RefCount::new(self).with_grace(grace, scheduler)
    }

    /// Connects when the `n`th subscriber comes, and stays connected: subscribers leaving
    /// do not disconnect it (RxJava's and RxJS's `autoConnect`). With `n` zero it connects at
    /// once. Dispose nothing to stop it: the connection ends when the source terminates, and
    /// later subscribers join the terminated subject.
    ///
    /// Subscribers count as they subscribe, whatever they do later (but for one already
    /// disposed then, which is not counted); the first `n` all see the source from its
    /// first value.
    ///
    /// ```text
    /// source:               -1-2-3-|
    /// auto_connect(2) A:   ^-1-2-3-|
    ///                 B:   ^ (connects)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let shared = rx::source::from_iter([1, 2, 3]).publish().auto_connect(2);
    /// let (a, b) = (TestObserver::new(), TestObserver::new());
    /// shared.clone().subscribe_observer(a.clone());
    /// a.assert_values(&[]);
    /// shared.clone().subscribe_observer(b.clone());
    /// a.assert_values(&[1, 2, 3]);
    /// b.assert_values(&[1, 2, 3]);
    /// ```
    ///
    /// # Performance
    ///
    /// As subscribing the connectable, plus one atomic increment per subscriber.
    #[doc(alias = "autoConnect")]
    pub fn auto_connect(self, n: usize) -> AutoConnect<S, J>
    where
        S: Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>> + Clone,
        FlavourOf<J>: BoxSubscription<
        'static,
                <S as Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>>>::Subscription,
            >,
    {
        if n == 0 {
            self.connect();
        }
        AutoConnect::new(self, n)
    }
}

impl<S, J: Sealed> Clone for ConnectableObservable<S, J> {
    fn clone(&self) -> Self {
        ConnectableObservable {
            shared: self.shared.clone(),
        }
    }
}

impl<S, J: Sealed> fmt::Debug for ConnectableObservable<S, J> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let connected = self
            .shared
            .state
            .lock()
            .link
            .as_ref()
            .is_some_and(|link| !link.is_disconnected() && !link.is_terminated());
        f.debug_struct("ConnectableObservable")
            .field("connected", &connected)
            .finish_non_exhaustive()
    }
}

impl<S: Observable, J: Sealed> Observable for ConnectableObservable<S, J> {
    type Item = S::Item;
    type Flavour = FlavourOf<J>;
}

impl<S, J, O> Subscribe<O> for ConnectableObservable<S, J>
where
    S: Observable,
    <S as Observable>::Item: Clone + 'static,
    J: Subject<<S as Observable>::Item>,
    FlavourOf<J>: Accepts<<S as Observable>::Item, O>,
{
    type Subscription = SubjectSubscription<<S as Observable>::Item, FlavourOf<J>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        // Subscribed outside the lock: the subject may replay, and the observer may connect.
        self.subject().subscribe_observer(observer)
    }
}

/// One connection of a [`ConnectableObservable`] to its source, returned by
/// [`connect`](ConnectableObservable::connect); disposing it disconnects the source.
///
/// [`is_disposed`](Subscription::is_disposed) is `true` once it was disposed or the source
/// terminated. A cheap `Clone` handle, of its subject's [flavour](crate::sync).
pub struct Connection<F: Flavour = crate::sync::Shared> {
    link: F::Ptr<ConnectionState<F>>,
}

impl<F: Flavour> Clone for Connection<F> {
    fn clone(&self) -> Self {
        Connection {
            link: self.link.clone(),
        }
    }
}

impl<F: Flavour> Connection<F> {
    pub(crate) fn start<S, T>(&self, source: S, subject: SubjectObserver<T, F>)
    where
        S: Subscribe<ConnectionObserver<T, F>>,
        F: BoxSubscription<'static, S::Subscription>,
    {
        if self.link.is_disconnected() {
            return;
        }
        let upstream = source.subscribe_observer(ConnectionObserver {
            subject,
            link: self.link.clone(),
        });
        self.link.set_upstream(F::box_subscription(upstream));
    }
}

impl<F: Flavour> Subscription for Connection<F> {
    fn dispose(&self) {
        self.link.disconnect();
    }

    fn is_disposed(&self) -> bool {
        self.link.is_disconnected() || self.link.is_terminated()
    }
}

impl<F: Flavour> fmt::Debug for Connection<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("disconnected", &self.link.is_disconnected())
            .field("terminated", &self.link.is_terminated())
            .finish()
    }
}

/// The shared state of one connection.
pub(crate) struct ConnectionState<F: Flavour> {
    /// The source's subscription once `subscribe_observer` has returned (Rx.NET's
    /// SingleAssignmentDisposable): disposing before that disposes it as soon as it arrives.
    upstream: F::Lock<Upstream<F>>,
    /// Mirrors `Upstream::disconnected` for the per-item checks, which take no lock.
    disconnected: F::Flag,
    terminated: F::Flag,
    /// Set before `terminated` when the source failed.
    failed: F::Flag,
}

struct Upstream<F: Flavour> {
    subscription: Option<F::BoxedSubscription<'static>>,
    disconnected: bool,
}

impl<F: Flavour> ConnectionState<F> {
    fn new() -> Self {
        ConnectionState {
            upstream: Lock::new(Upstream {
                subscription: None,
                disconnected: false,
            }),
            disconnected: Flag::new(false),
            terminated: Flag::new(false),
            failed: Flag::new(false),
        }
    }

    fn is_disconnected(&self) -> bool {
        // Acquire pairs with the Release store in `disconnect`.
        self.disconnected.load(Ordering::Acquire)
    }

    fn is_terminated(&self) -> bool {
        self.terminated.load(Ordering::Acquire)
    }

    fn set_upstream(&self, subscription: F::BoxedSubscription<'static>) {
        let mut upstream = self.upstream.lock();
        if upstream.disconnected {
            drop(upstream);
            subscription.dispose();
        } else {
            upstream.subscription = Some(subscription);
        }
    }

    fn disconnect(&self) {
        let subscription = {
            let mut upstream = self.upstream.lock();
            upstream.disconnected = true;
            self.disconnected.store(true, Ordering::Release);
            upstream.subscription.take()
        };
        if let Some(subscription) = subscription {
            subscription.dispose();
        }
    }
}

/// The observer a [`ConnectableObservable`] subscribes to its source: passes everything on to
/// the subject, until the connection is disposed.
pub struct ConnectionObserver<T, F: Flavour = crate::sync::Shared> {
    subject: SubjectObserver<T, F>,
    link: F::Ptr<ConnectionState<F>>,
}

impl<T, F: Flavour> fmt::Debug for ConnectionObserver<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionObserver").finish_non_exhaustive()
    }
}

impl<T: Clone, F: Flavour> Observer<T> for ConnectionObserver<T, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        // After a disconnection the subscribers are left with the subject; an asynchronous
        // source's late values must not reach them.
        if !self.link.is_disconnected() {
            self.subject.on_next(value)
        }
    }

    fn on_error(self, error: Error) {
        if !self.link.is_disconnected() {
            // Marked before the subject passes it on, so a subscriber reacting to it (a
            // `ref_count` starting over) sees the connection as ended.
            self.link.failed.store(true, Ordering::Relaxed);
            self.link.terminated.store(true, Ordering::Release);
            self.subject.on_error(error)
        }
    }

    fn on_completed(self) {
        if !self.link.is_disconnected() {
            self.link.terminated.store(true, Ordering::Release);
            self.subject.on_completed()
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.link.is_disconnected() || self.subject.is_disposed()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::subjects::{BehaviorSubject, PublishSubject, ReplaySubject};
    use crate::test_kit::counting::CountingSource;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::Arc;

    #[test]
    fn nothing_flows_before_connect() {
        let c = from_iter([1, 2]).publish();
        let o = TestObserver::new();
        c.clone().subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
        c.connect();
        o.assert_values(&[1, 2]);
        o.assert_completed();
    }

    #[test]
    fn connect_twice_while_running_returns_the_same_connection() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let c = src.clone().publish();
        let first = c.connect();
        let second = c.connect();
        assert_eq!(src.subscriptions(), 1);
        second.dispose();
        first.dispose();
        assert_eq!(src.disposals(), 1);
        assert!(first.is_disposed());
        assert!(!input.has_observers());
    }

    #[test]
    fn disconnecting_stops_the_values_and_a_reconnect_feeds_a_fresh_subject() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let c = src.clone().publish();
        let old = TestObserver::new();
        c.clone().subscribe_observer(old.clone());
        let connection = c.connect();
        input.observer().on_next(1);
        connection.dispose();
        assert!(connection.is_disposed());
        assert_eq!(src.disposals(), 1);
        assert!(!input.has_observers());
        input.observer().on_next(2);

        let new = TestObserver::new();
        c.clone().subscribe_observer(new.clone());
        c.connect();
        assert_eq!(src.subscriptions(), 2);
        input.observer().on_next(3);
        old.assert_values(&[1]);
        old.assert_not_terminated();
        new.assert_values(&[3]);
    }

    #[test]
    fn after_the_source_terminates_late_subscribers_get_the_terminal_until_reconnected() {
        let c = from_iter([1, 2]).publish();
        let early = TestObserver::new();
        c.clone().subscribe_observer(early.clone());
        c.connect();
        let late = TestObserver::new();
        c.clone().subscribe_observer(late.clone());
        late.assert_notifications(&[Notification::Completed]);

        let again = TestObserver::new();
        c.clone().subscribe_observer(again.clone());
        again.assert_notifications(&[Notification::Completed]);
        let next = TestObserver::new();
        c.connect();
        c.clone().subscribe_observer(next.clone());
        next.assert_notifications(&[Notification::Completed]);
        early.assert_values(&[1, 2]);
        early.assert_completed();
    }

    #[test]
    fn reconnecting_after_termination_resubscribes_the_source() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let c = src.clone().publish();
        let first = TestObserver::new();
        c.clone().subscribe_observer(first.clone());
        c.connect();
        input.observer().on_next(1);
        // Terminate the first connection through the counted source's subject, then reuse the
        // same source with a new subject.
        let input2 = input.clone();
        input2.observer().on_error(Error::msg("first run failed"));
        first.assert_values(&[1]);
        first.assert_error("first run failed");
        let connection = c.connect();
        assert_eq!(src.subscriptions(), 2);
        let second = TestObserver::new();
        c.clone().subscribe_observer(second.clone());
        // The counted source's subject is terminated, so the new connection ends at once.
        second.assert_error("first run failed");
        assert!(connection.is_disposed());
    }

    #[test]
    fn errors_reach_every_subscriber() {
        let c = throw::<i32>(Error::msg("bad")).publish();
        let (a, b) = (TestObserver::new(), TestObserver::new());
        c.clone().subscribe_observer(a.clone());
        c.clone().subscribe_observer(b.clone());
        c.connect();
        a.assert_error("bad");
        b.assert_error("bad");
    }

    #[test]
    fn disconnecting_stops_a_synchronous_source() {
        let c = from_iter(0..).publish();
        let o = TestObserver::new();
        let connection_slot = Arc::new(std::sync::Mutex::new(None::<super::Connection>));
        let slot = connection_slot.clone();
        let c2 = c.clone();
        c.clone().subscribe(move |v: i32| {
            if v == 0 {
                *slot.lock().unwrap() = Some(c2.connect());
            }
            if v == 2 {
                slot.lock().unwrap().as_ref().unwrap().dispose();
            }
        });
        c.clone().subscribe_observer(o.clone());
        let connection = c.connect();
        assert!(connection.is_disposed());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn replay_replays_the_last_n_to_late_subscribers() {
        let c = from_iter(1..=4).replay(2);
        let early = TestObserver::new();
        c.clone().subscribe_observer(early.clone());
        c.connect();
        let late = TestObserver::new();
        c.clone().subscribe_observer(late.clone());
        early.assert_values(&[1, 2, 3, 4]);
        early.assert_completed();
        late.assert_values(&[3, 4]);
        late.assert_completed();
    }

    #[test]
    fn replay_reconnects_with_an_empty_buffer() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let c = src.clone().replay(3);
        let connection = c.connect();
        input.observer().on_next(1);
        connection.dispose();
        c.connect();
        input.observer().on_next(2);
        let o = TestObserver::new();
        c.clone().subscribe_observer(o.clone());
        o.assert_values(&[2]);
    }

    #[test]
    #[should_panic(expected = "replay: the buffer size must be positive")]
    fn replay_of_zero_panics() {
        let _ = just(1).replay(0);
    }

    #[test]
    fn multicast_feeds_the_given_subject_and_keeps_it() {
        let subject = BehaviorSubject::new(0);
        let c = from_iter([1, 2]).multicast(subject.clone());
        let direct = TestObserver::new();
        subject.observable().subscribe_observer(direct.clone());
        let through = TestObserver::new();
        c.clone().subscribe_observer(through.clone());
        c.connect();
        direct.assert_values(&[0, 1, 2]);
        direct.assert_completed();
        through.assert_values(&[0, 1, 2]);
        through.assert_completed();
        // Reconnecting feeds the same, now terminated, subject.
        c.connect();
        let late = TestObserver::new();
        c.clone().subscribe_observer(late.clone());
        late.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn multicast_with_an_unbounded_replay_subject() {
        let c = from_iter([1, 2, 3]).multicast(ReplaySubject::new());
        c.connect();
        let late = TestObserver::new();
        c.clone().subscribe_observer(late.clone());
        late.assert_values(&[1, 2, 3]);
        late.assert_completed();
    }

    #[test]
    fn is_send_and_sync() {
        type C = super::ConnectableObservable<crate::source::Just<i32>, PublishSubject<i32>>;
        static_assertions::assert_impl_all!(C: Send, Sync, Clone);
        static_assertions::assert_impl_all!(super::Connection: Send, Sync, Clone);
    }
}
