//! [`ConnectableObservable::ref_count`], [`ObservableExt::share`](crate::ObservableExt::share)
//! and [`ObservableExt::share_replay`](crate::ObservableExt::share_replay): connect on the first
//! subscriber, disconnect when the last one leaves.
//!
//! The count lives under a lock with a *generation*, bumped each time the count falls to zero
//! or the source terminates: each subscriber carries the generation it joined, so a subscriber
//! of an earlier connection that leaves late cannot count down the current one (RxJava's
//! `RefConnection` identity does the same). A subscriber leaves when its handle is disposed,
//! or when the subject drops its observer — after the observer reported `is_disposed`, or
//! after its terminal notification. Both ways are counted once: each subscriber is a member of
//! the count (a slab entry under its lock, so no allocation of its own), counted out by
//! whichever comes first. The disposal must count out by itself: a thread-safe subject that is
//! delivering on another thread drops a disposed observer only after that delivery, and a
//! subscriber that left must not keep the connection running for the next one to join (RxJava's
//! `refCount` counts down in `dispose` too). The count takes the [flavour](crate::sync) of the
//! subject: a `RefCell` for a local one.
//!
//! With a grace period (`ref_count_grace`), the count falling to zero keeps the generation and
//! its connection, and starts a timer; a subscriber coming before it fires cancels it and joins
//! the same generation, and the timer firing ends the generation as a release would have. Each
//! timer has a *round*, so a timer cancelled too late to stop it finds a later round and does
//! nothing.

use super::connectable::{ConnectableObservable, Connection, ConnectionObserver};
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use crate::subjects::core::Accepts;
use crate::subjects::sealed::Sealed;
use crate::subjects::{Subject, SubjectSubscription};
use crate::subscription::Subscription;
use crate::sync::imp::{BoxSubscription, Lock, Machinery};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

type FlavourOf<J> = <J as Sealed>::Flavour;

/// Connects a [`ConnectableObservable`] when the first subscriber comes and disconnects it when
/// the last one leaves; built by [`ConnectableObservable::ref_count`],
/// [`ObservableExt::share`](crate::ObservableExt::share),
/// [`ObservableExt::share_replay`](crate::ObservableExt::share_replay) and their `_local`
/// forms.
///
/// A cheap `Clone` handle: clones share the count.
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "refCount")]
#[doc(alias = "share")]
pub struct RefCount<S, J: Sealed> {
    connectable: ConnectableObservable<S, J>,
    #[allow(clippy::type_complexity)]
    count: <FlavourOf<J> as Machinery>::Ptr<<FlavourOf<J> as Machinery>::Lock<Count<J>>>,
    resets: Resets,
    /// Subscribers a generation waits for before it connects: 1 for `ref_count`, `n` for
    /// `ref_count_min(n)` (RxJava's `refCount(n)`).
    min_subscribers: usize,
    /// The grace period before a disconnection, if any.
    grace: Option<Grace<S, J>>,
}

/// A boxed grace timer's handle.
type TimerHandle = Box<dyn Subscription + Send + Sync>;

/// What a grace timer runs when it fires.
type Expire = Box<dyn FnOnce() + Send>;

/// Starts grace timers; boxed so that `RefCount` is the same type with or without a grace.
trait GraceTimer: Send + Sync {
    fn start(&self, expire: Expire) -> TimerHandle;
}

/// A grace period of `delay` on `scheduler`.
struct Delay<Sch> {
    delay: Duration,
    scheduler: Sch,
}

impl<Sch: Scheduler> GraceTimer for Delay<Sch> {
    fn start(&self, expire: Expire) -> TimerHandle {
        let mut expire = Some(expire);
        Box::new(self.scheduler.worker().schedule_after(self.delay, move || {
            if let Some(expire) = expire.take() {
                expire();
            }
            Reschedule::Done
        }))
    }
}

/// The grace of a [`RefCount`]: its timer, and how to make the task that ends a round. The
/// task holds a clone of the `RefCount`, which must be `Send` for it; `expiry` is made where
/// that is known, so `release`, reached from `Drop`, needs no such bound.
struct Grace<S, J: Sealed> {
    timer: Arc<dyn GraceTimer>,
    expiry: fn(&RefCount<S, J>, u64) -> Expire,
}

impl<S, J: Sealed> Clone for Grace<S, J> {
    fn clone(&self) -> Self {
        Grace {
            timer: self.timer.clone(),
            expiry: self.expiry,
        }
    }
}

fn expiry<S, J>(ref_count: &RefCount<S, J>, round: u64) -> Expire
where
    J: Sealed,
    RefCount<S, J>: Send + 'static,
{
    let ref_count = ref_count.clone();
    Box::new(move || ref_count.expire(round))
}

struct Count<J: Sealed> {
    subscribers: usize,
    generation: u64,
    /// The connection this generation started, once it exists.
    connection: Option<Connection<FlavourOf<J>>>,
    /// This generation has reached its `min_subscribers` and connected (or is connecting).
    connected: bool,
    /// The source terminated with no reset asked for: subscribers join the terminated
    /// subject from now on, and nothing connects again.
    finished: bool,
    /// One entry per counted subscriber until the subject drops its observer.
    members: slab::Slab<Member>,
    /// Tells a member from a later one that reuses its slab key.
    next_id: u64,
    /// A grace timer is running: nobody is subscribed, and the connection is kept.
    grace_pending: bool,
    /// The round of the latest grace timer.
    grace_round: u64,
    /// The running grace timer's handle, once it is started.
    grace_timer: Option<TimerHandle>,
}

struct Member {
    id: u64,
    generation: u64,
    /// Counted out already, by a disposal; the entry stays until the observer is dropped.
    left: bool,
}

/// Which member of the count a subscriber is.
#[derive(Clone, Copy)]
struct Ticket {
    key: usize,
    id: u64,
}

/// When a [`RefCount`] starts over with a fresh subject: RxJS `share`'s `resetOnError`,
/// `resetOnComplete` and `resetOnRefCountZero`. All set for `ref_count` and `share`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Resets {
    pub(crate) on_error: bool,
    pub(crate) on_complete: bool,
    pub(crate) on_ref_count_zero: bool,
}

impl<S, J: Sealed> RefCount<S, J> {
    pub(crate) fn new(connectable: ConnectableObservable<S, J>) -> Self {
        RefCount::with_resets(
            connectable,
            Resets {
                on_error: true,
                on_complete: true,
                on_ref_count_zero: true,
            },
        )
    }

    pub(crate) fn with_resets(connectable: ConnectableObservable<S, J>, resets: Resets) -> Self {
        RefCount {
            connectable,
            count: FlavourOf::<J>::new_ptr(Lock::new(Count {
                subscribers: 0,
                generation: 0,
                connection: None,
                connected: false,
                finished: false,
                members: slab::Slab::new(),
                next_id: 0,
                grace_pending: false,
                grace_round: 0,
                grace_timer: None,
            })),
            resets,
            min_subscribers: 1,
            grace: None,
        }
    }

    /// Keeps the connection for `delay` on `scheduler` after the last subscriber leaves.
    pub(crate) fn with_grace<Sch: Scheduler>(mut self, delay: Duration, scheduler: Sch) -> Self
    where
        RefCount<S, J>: Send + 'static,
    {
        self.grace = Some(Grace {
            timer: Arc::new(Delay { delay, scheduler }),
            expiry: expiry::<S, J>,
        });
        self
    }

    /// The grace timer of `round` fired: ends the kept connection, unless a subscriber came.
    fn expire(&self, round: u64) {
        let (connection, timer) = {
            let mut count = self.count.lock();
            if !count.grace_pending || count.grace_round != round {
                return;
            }
            count.grace_pending = false;
            count.generation += 1;
            count.connected = false;
            (count.connection.take(), count.grace_timer.take())
        };
        drop(timer);
        if let Some(connection) = connection {
            connection.dispose();
        }
    }

    /// Starts the grace timer of `round`, outside the lock: the scheduler may run it at once.
    fn start_grace(&self, grace: &Grace<S, J>, round: u64) {
        let timer = grace.timer.start((grace.expiry)(self, round));
        let mut count = self.count.lock();
        if count.grace_pending && count.grace_round == round {
            count.grace_timer = Some(timer);
        } else {
            // Cancelled, or fired, while it was being started.
            drop(count);
            timer.dispose();
        }
    }

    /// Waits for `n` subscribers (at least one) before each connection.
    pub(crate) fn with_min_subscribers(mut self, n: usize) -> Self {
        self.min_subscribers = n.max(1);
        self
    }

    /// The subscriber holding `ticket` left: by a disposal, or, with `dropped`, because the
    /// subject dropped its observer (which ends its membership).
    fn release(&self, ticket: Ticket, dropped: bool) {
        let connection = {
            let mut count = self.count.lock();
            let Some(member) = count
                .members
                .get_mut(ticket.key)
                .filter(|member| member.id == ticket.id)
            else {
                return;
            };
            let (generation, left) = (member.generation, member.left);
            member.left = true;
            if dropped {
                count.members.remove(ticket.key);
            }
            if left || count.generation != generation {
                return;
            }
            count.subscribers -= 1;
            // Without a reset on zero the connection runs on, and the next subscriber joins
            // it (the count's next generation finds it running).
            if count.subscribers > 0 || !self.resets.on_ref_count_zero {
                return;
            }
            if count.connected
                && let Some(grace) = &self.grace
            {
                // Kept, generation and connection, until the timer fires.
                count.grace_pending = true;
                count.grace_round += 1;
                let round = count.grace_round;
                drop(count);
                self.start_grace(grace, round);
                return;
            }
            count.generation += 1;
            count.connected = false;
            count.connection.take()
        };
        if let Some(connection) = connection {
            connection.dispose();
        }
    }

    /// The source terminated, as told to the subscriber holding `ticket`: the next subscriber
    /// starts over, unless no reset is asked for this terminal.
    fn terminated(&self, ticket: Ticket, error: bool) {
        let reset = if error {
            self.resets.on_error
        } else {
            self.resets.on_complete
        };
        let ended = {
            let mut count = self.count.lock();
            let generation = match count.members.get(ticket.key) {
                Some(member) if member.id == ticket.id => member.generation,
                _ => return,
            };
            if count.generation != generation {
                return;
            }
            count.subscribers = 0;
            count.generation += 1;
            count.connected = false;
            count.finished = !reset;
            count.grace_pending = false;
            (count.connection.take(), count.grace_timer.take())
        };
        // Dropped outside the lock: it may drop the source's subscription.
        if let Some(timer) = &ended.1 {
            timer.dispose();
        }
        drop(ended);
        if reset {
            self.connectable.reset();
        }
    }
}

impl<S, J> RefCount<S, J>
where
    S: Observable + Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>> + Clone,
    FlavourOf<J>: BoxSubscription<
        'static,
        <S as Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>>>::Subscription,
    >,
    <S as Observable>::Item: Clone + 'static,
    J: Subject<<S as Observable>::Item>,
{
    /// Starts the connection of `generation`, unless its subscribers have all left already.
    fn connect(&self, generation: u64) {
        let (connection, start) = self.connectable.link();
        {
            let mut count = self.count.lock();
            if count.generation == generation {
                count.connection = Some(connection.clone());
            } else if start.is_some() {
                // Everyone left while this connection was being made: it never starts.
                drop(count);
                connection.dispose();
                return;
            }
        }
        // Stored before it starts, so a subscriber leaving during a synchronous source's run
        // disconnects it and the source stops.
        if let Some((source, subject)) = start {
            connection.start(source, subject);
        }
    }
}

impl<S, J: Sealed> Clone for RefCount<S, J> {
    fn clone(&self) -> Self {
        RefCount {
            connectable: self.connectable.clone(),
            count: self.count.clone(),
            resets: self.resets,
            min_subscribers: self.min_subscribers,
            grace: self.grace.clone(),
        }
    }
}

impl<S, J: Sealed> fmt::Debug for RefCount<S, J> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RefCount")
            .field("subscribers", &self.count.lock().subscribers)
            .finish_non_exhaustive()
    }
}

impl<S: Observable, J: Sealed> Observable for RefCount<S, J> {
    type Item = S::Item;
    type Flavour = FlavourOf<J>;
}

impl<S, J, O> Subscribe<O> for RefCount<S, J>
where
    S: Observable
        + Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>>
        + Clone
        + 'static,
    FlavourOf<J>: BoxSubscription<
        'static,
        <S as Subscribe<ConnectionObserver<<S as Observable>::Item, FlavourOf<J>>>>::Subscription,
    >,
    <S as Observable>::Item: Clone + 'static,
    J: Subject<<S as Observable>::Item>,
    O: Observer<<S as Observable>::Item> + 'static,
    FlavourOf<J>: Accepts<<S as Observable>::Item, O>
        + Accepts<<S as Observable>::Item, RefCountObserver<O, S, J>>,
{
    type Subscription = RefCountSubscription<S, J>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            // Not counted: it would connect the source only to pull a value for nobody. The
            // subject calls nothing on a disposed observer, and the disposal drops it at once.
            let subscription = self.connectable.subscribe_observer(observer);
            subscription.dispose();
            return RefCountSubscription::uncounted(subscription);
        }
        let mut cancelled = None;
        let mut ended = None;
        let (generation, first, ticket) = {
            let mut count = self.count.lock();
            // A subscriber within the grace keeps the connection, unless its source ended
            // meanwhile: then it is as if the timer had fired.
            let mut kept = false;
            if count.grace_pending {
                count.grace_pending = false;
                cancelled = count.grace_timer.take();
                kept = true;
                if let Some(error) = self.connectable.terminated_by() {
                    kept = false;
                    count.generation += 1;
                    count.connected = false;
                    ended = count.connection.take();
                    if (error && self.resets.on_error) || (!error && self.resets.on_complete) {
                        self.connectable.reset();
                    }
                }
            }
            if count.subscribers == 0
                && !count.finished
                && !(self.resets.on_error && self.resets.on_complete)
                && let Some(error) = self.connectable.terminated_by()
            {
                // The source terminated while nobody was subscribed.
                count.finished = !(if error {
                    self.resets.on_error
                } else {
                    self.resets.on_complete
                });
            }
            if count.finished {
                // Terminated for good: join the terminated subject, uncounted.
                drop(count);
                if let Some(timer) = cancelled {
                    timer.dispose();
                }
                drop(ended);
                return RefCountSubscription::uncounted(
                    self.connectable.subscribe_observer(observer),
                );
            }
            count.subscribers += 1;
            if count.subscribers == 1 && !kept {
                count.generation += 1;
            }
            let (generation, id) = (count.generation, count.next_id);
            count.next_id += 1;
            let key = count.members.insert(Member {
                id,
                generation,
                left: false,
            });
            // The generation's `min_subscribers`th subscriber connects it, once.
            let connect = !count.connected && count.subscribers >= self.min_subscribers;
            count.connected |= connect;
            (generation, connect, Ticket { key, id })
        };
        if let Some(timer) = cancelled {
            timer.dispose();
        }
        drop(ended);
        let leave = Leave {
            ref_count: self.clone(),
            ticket,
        };
        let subscription = self
            .connectable
            .clone()
            .subscribe_observer(RefCountObserver { observer, leave });
        if first {
            self.connect(generation);
        }
        RefCountSubscription {
            subscription,
            member: Some((self, ticket)),
        }
    }
}

/// The handle of a [`RefCount`] subscriber: disposing it counts the subscriber out at once,
/// even while the subject is still delivering a value to it on another thread.
pub struct RefCountSubscription<S: Observable, J: Sealed> {
    subscription: SubjectSubscription<<S as Observable>::Item, FlavourOf<J>>,
    /// `None` for a subscriber that was never counted.
    member: Option<(RefCount<S, J>, Ticket)>,
}

impl<S: Observable, J: Sealed> RefCountSubscription<S, J> {
    fn uncounted(subscription: SubjectSubscription<<S as Observable>::Item, FlavourOf<J>>) -> Self {
        RefCountSubscription {
            subscription,
            member: None,
        }
    }
}

impl<S: Observable, J: Sealed> Subscription for RefCountSubscription<S, J>
where
    <S as Observable>::Item: Clone,
{
    fn dispose(&self) {
        self.subscription.dispose();
        if let Some((ref_count, ticket)) = &self.member {
            ref_count.release(*ticket, false);
        }
    }

    fn is_disposed(&self) -> bool {
        self.subscription.is_disposed()
    }
}

impl<S: Observable, J: Sealed> fmt::Debug for RefCountSubscription<S, J> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RefCountSubscription")
            .field("subscription", &self.subscription)
            .finish_non_exhaustive()
    }
}

/// Counts its subscriber out when the subject drops it, however it left.
struct Leave<S, J: Sealed> {
    ref_count: RefCount<S, J>,
    ticket: Ticket,
}

impl<S, J: Sealed> Drop for Leave<S, J> {
    fn drop(&mut self) {
        self.ref_count.release(self.ticket, true);
    }
}

/// The observer [`RefCount`] registers with the subject for each subscriber: the subscriber,
/// and what counts it out when the subject drops it.
pub struct RefCountObserver<O, S, J: Sealed> {
    observer: O,
    leave: Leave<S, J>,
}

impl<O, S, J: Sealed> fmt::Debug for RefCountObserver<O, S, J> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RefCountObserver").finish_non_exhaustive()
    }
}

impl<T, O, S, J> Observer<T> for RefCountObserver<O, S, J>
where
    J: Sealed,
    O: Observer<T>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        // Reset first, as RxJava does: a subscriber that resubscribes from its callback starts
        // a new connection instead of joining the terminated one.
        self.leave.ref_count.terminated(self.leave.ticket, true);
        self.observer.on_error(error)
    }

    fn on_completed(self) {
        self.leave.ref_count.terminated(self.leave.ticket, false);
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::source::from_iter;
    use crate::subjects::PublishSubject;
    use crate::test_kit::counting::CountingSource;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_disposal_counts_out_before_the_subject_drops_the_observer() {
        // The subscriber disposes its own handle while the subject delivers to it: the
        // subject drops that observer only after the delivery, but the source must be
        // disconnected before `dispose` returns.
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share();
        let slot = Arc::new(std::sync::Mutex::new(
            None::<super::RefCountSubscription<_, _>>,
        ));
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (s, counts, source) = (slot.clone(), seen.clone(), src.clone());
        let handle = shared.clone().subscribe(move |v: i32| {
            if let Some(handle) = s.lock().unwrap().as_ref() {
                handle.dispose();
            }
            counts.lock().unwrap().push((v, source.disposals()));
        });
        *slot.lock().unwrap() = Some(handle);
        input.observer().on_next(1);
        input.observer().on_next(2);
        assert_eq!(*seen.lock().unwrap(), [(1, 1)]);
        assert_eq!((src.subscriptions(), src.disposals()), (1, 1));
        // The next subscriber starts a connection of its own.
        let o = TestObserver::new();
        let _h = shared.subscribe_observer(o.clone());
        input.observer().on_next(3);
        o.assert_values(&[3]);
        assert_eq!((src.subscriptions(), src.disposals()), (2, 1));
    }

    #[test]
    fn connects_on_the_first_subscriber_and_disconnects_after_the_last() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share();
        let (a, b) = (TestObserver::new(), TestObserver::new());
        let ha = shared.clone().subscribe_observer(a.clone());
        assert_eq!((src.subscriptions(), src.disposals()), (1, 0));
        let hb = shared.clone().subscribe_observer(b.clone());
        assert_eq!((src.subscriptions(), src.disposals()), (1, 0));
        input.observer().on_next(1);
        ha.dispose();
        assert_eq!(src.disposals(), 0);
        input.observer().on_next(2);
        hb.dispose();
        hb.dispose();
        ha.dispose();
        assert_eq!((src.subscriptions(), src.disposals()), (1, 1));
        assert!(!input.has_observers());
        a.assert_values(&[1]);
        b.assert_values(&[1, 2]);

        let c = TestObserver::new();
        shared.clone().subscribe_observer(c.clone());
        assert_eq!((src.subscriptions(), src.disposals()), (2, 1));
        input.observer().on_next(3);
        c.assert_values(&[3]);
    }

    #[test]
    fn a_finished_take_counts_as_leaving_and_stops_an_endless_source() {
        let o = TestObserver::new();
        from_iter(0..).share().take(3).subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
    }

    #[test]
    fn after_the_source_completes_the_next_subscriber_starts_over() {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = crate::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            from_iter([1, 2])
        })
        .share();
        for _ in 0..2 {
            let o = TestObserver::new();
            shared.clone().subscribe_observer(o.clone());
            o.assert_values(&[1, 2]);
            o.assert_completed();
        }
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn an_error_resets_too() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share();
        let (a, b) = (TestObserver::new(), TestObserver::new());
        shared.clone().subscribe_observer(a.clone());
        shared.clone().subscribe_observer(b.clone());
        input.observer().on_error(Error::msg("gone"));
        a.assert_error("gone");
        b.assert_error("gone");
        let c = TestObserver::<i32>::new();
        shared.clone().subscribe_observer(c.clone());
        assert_eq!(src.subscriptions(), 2);
        // The counted source's subject is terminated, so the new run fails at once.
        c.assert_error("gone");
    }

    #[test]
    fn resubscribing_from_on_completed_starts_a_new_run() {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = crate::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            from_iter([7])
        })
        .share();
        let second = TestObserver::new();
        let (s2, o2) = (shared.clone(), second.clone());
        shared.clone().subscribe_with(
            |_| {},
            |e| panic!("{e}"),
            move || {
                s2.subscribe_observer(o2);
            },
        );
        second.assert_notifications(&[Notification::Next(7), Notification::Completed]);
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_late_leaver_of_an_earlier_run_does_not_count_down_the_current_one() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share();
        let first = shared
            .clone()
            .subscribe_observer(TestObserver::<i32>::new());
        first.dispose();
        assert_eq!(src.disposals(), 1);
        let o = TestObserver::new();
        shared.clone().subscribe_observer(o.clone());
        first.dispose();
        input.observer().on_next(1);
        o.assert_values(&[1]);
        assert_eq!((src.subscriptions(), src.disposals()), (2, 1));
    }

    #[test]
    fn share_replay_replays_to_subscribers_of_the_same_run() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share_replay(2);
        let first = TestObserver::new();
        let h = shared.clone().subscribe_observer(first.clone());
        for v in 1..=3 {
            input.observer().on_next(v);
        }
        let second = TestObserver::new();
        shared.clone().subscribe_observer(second.clone());
        second.assert_values(&[2, 3]);
        h.dispose();
        input.observer().on_next(4);
        first.assert_values(&[1, 2, 3]);
        second.assert_values(&[2, 3, 4]);
        assert_eq!(src.subscriptions(), 1);
    }

    #[test]
    fn share_replay_forgets_the_values_when_everyone_left() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share_replay(2);
        let h = shared.clone().subscribe_observer(TestObserver::new());
        input.observer().on_next(1);
        h.dispose();
        let o = TestObserver::new();
        shared.clone().subscribe_observer(o.clone());
        o.assert_values(&[]);
        assert_eq!((src.subscriptions(), src.disposals()), (2, 1));
    }

    #[test]
    fn ref_count_over_a_manual_publish() {
        let c = from_iter([1, 2, 3]).publish();
        let o = TestObserver::new();
        c.clone().ref_count().subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
    }

    #[test]
    fn everything_is_freed_once_the_subscribers_left_and_the_handles_are_dropped() {
        let input = PublishSubject::new();
        let shared = input.observable().share();
        let count = Arc::downgrade(&shared.count);
        let connectable = Arc::downgrade(&shared.connectable.shared);
        let o = TestObserver::new();
        let handle = shared.clone().subscribe_observer(o.clone());
        input.observer().on_next(1);
        assert!(input.has_observers());
        handle.dispose();
        assert!(!input.has_observers());
        drop((shared, handle));
        assert!(count.upgrade().is_none());
        assert!(connectable.upgrade().is_none());
        o.assert_values(&[1]);
    }

    #[test]
    fn a_disposed_subscriber_does_not_connect() {
        let input = PublishSubject::<i32>::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share();
        let o = TestObserver::new();
        o.dispose();
        let handle = shared.clone().subscribe_observer(o.clone());
        assert!(handle.is_disposed());
        assert_eq!(src.subscriptions(), 0);

        // Nor does it count: the next subscriber connects, and leaving disconnects.
        let live = TestObserver::new();
        let handle = shared.clone().subscribe_observer(live.clone());
        assert_eq!(src.subscriptions(), 1);
        input.observer().on_next(1);
        handle.dispose();
        assert_eq!(src.disposals(), 1);
        live.assert_values(&[1]);
        o.assert_notifications(&[]);

        let pulled = Arc::new(AtomicUsize::new(0));
        let p = pulled.clone();
        let o = TestObserver::new();
        o.dispose();
        from_iter((0..10).inspect(move |_| {
            p.fetch_add(1, Ordering::SeqCst);
        }))
        .share_replay(1)
        .subscribe_observer(o.clone());
        assert_eq!(pulled.load(Ordering::SeqCst), 0);
        o.assert_notifications(&[]);
    }

    #[test]
    fn a_grace_timer_that_fires_after_a_return_and_a_new_grace_does_nothing_early() {
        use crate::schedulers::TestScheduler;
        use std::time::Duration;
        let sch = TestScheduler::new();
        let input = PublishSubject::<i32>::new();
        let src = CountingSource::new(&input);
        let shared = src
            .clone()
            .publish()
            .ref_count_grace(Duration::from_millis(10), sch.clone());
        // Leave at 0 (timer for 10), come back at 5, leave again at 8 (timer for 18).
        let h = shared.clone().subscribe_observer(TestObserver::new());
        h.dispose();
        sch.advance_by(Duration::from_millis(5));
        let h = shared.clone().subscribe_observer(TestObserver::new());
        sch.advance_by(Duration::from_millis(3));
        h.dispose();
        sch.advance_by(Duration::from_millis(9));
        assert_eq!((src.subscriptions(), src.disposals()), (1, 0));
        sch.advance_by(Duration::from_millis(1));
        assert_eq!((src.subscriptions(), src.disposals()), (1, 1));
        assert!(sch.is_empty());
    }

    #[test]
    fn everything_is_freed_once_the_grace_ended_and_the_handles_are_dropped() {
        use crate::schedulers::TestScheduler;
        use std::time::Duration;
        let sch = TestScheduler::new();
        let input = PublishSubject::<i32>::new();
        let shared = input
            .observable()
            .publish()
            .ref_count_grace(Duration::from_millis(1), sch.clone());
        let count = Arc::downgrade(&shared.count);
        shared
            .clone()
            .subscribe_observer(TestObserver::new())
            .dispose();
        drop(shared);
        assert!(count.upgrade().is_some(), "the timer holds it");
        sch.run();
        assert!(count.upgrade().is_none());
        assert!(!input.has_observers());
    }

    #[test]
    fn is_send_and_sync() {
        type R = super::RefCount<crate::source::Just<i32>, PublishSubject<i32>>;
        static_assertions::assert_impl_all!(R: Send, Sync, Clone);
    }
}
