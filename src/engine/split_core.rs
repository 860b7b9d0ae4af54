//! The engine behind [`group_by`](crate::ObservableExt::group_by) and
//! [`window`](crate::ObservableExt::window), which split one sequence into inner observables.
//!
//! # Inner observables
//!
//! Each inner observable is a handle to an [`Inner`]: a single-subscriber queue (RxJava's
//! `UnicastSubject`) fed by the operator's observer. Values that arrive before the subscriber
//! are queued for it; once it is subscribed they are delivered as they come. Delivery follows
//! the queue-drain pattern: whoever finds nobody delivering takes the subscriber out of the
//! state and delivers with the lock released, so a subscriber that makes the source emit again
//! re-entrantly queues instead of deadlocking.
//!
//! The subscriber is type-erased, as a [`HeldObserver`]: in place when it is small, in the
//! flavour's [`BoxedObserver`](crate::sync::Flavour::BoxedObserver) otherwise (`Send` in the
//! [`Shared`] flavour, free to hold `Rc` in the [`Local`] one), as the inner observable's
//! type is fixed when the operator emits it, before anyone chooses the observer. What it may
//! keep is said by [`KeepSubscriber`], through the public `Flavour` trait, so the operators'
//! `Observable` impls need no bound a user cannot write.
//!
//! # Abandonment
//!
//! As in RxJava 3, an inner observable that is not subscribed during the `on_next` call that
//! delivers it is *abandoned*: it completes, and the operator goes on as if it had ended. A
//! group keeps the value that opened it (a late subscriber still receives that value and the
//! completion) and the next value of its key opens a new group. A window opens before any
//! value reaches it (at subscription, or at a boundary), so an abandoned window completes
//! empty, and the values meant for it are dropped while the windows after it keep their
//! boundaries. So an inner nobody subscribes to never buffers more than one value.
//!
//! # Claimed subscribers
//!
//! Once a group is settled (subscribed, and not abandoned) its values come from one place:
//! the operator's observer, one call at a time. `group_by` then *claims* the subscriber: takes
//! it out of the state into its own map and delivers to it directly, with no lock and no
//! queue (a [`Claimed`] group). Nothing else needs the subscriber any more: a disposal only
//! flags the inner ([`Inner::is_disposed`]) and releases the source, and the operator drops
//! the subscriber when it next finds the flag (at the group's next value, its end, or the
//! sweep of ended groups). The operators whose inners also end from elsewhere
//! (`group_by_until`'s durations, the windows' boundaries) keep the locked path.
//!
//! The source's lifetime, shared by the outer observer and the inner observables, is in
//! `split_refs`.

use super::combine_slots::Buffer;
use super::held_observer::{HeldObserver, KeepSubscriber};
use super::split_refs::RefsPtr;
use crate::Error;
use crate::observer::Observer;
use crate::primitive::Ordering;
use crate::subscription::Subscription;
use crate::sync::imp::{Flag, Lock, Machinery};
use crate::sync::{Flavour, Shared};
use std::{fmt, mem};

/// The pointer an inner observable's handles share its [`Inner`] through: `Arc` in the
/// [`Shared`] flavour, `Rc` in the [`Local`] one.
pub(crate) type InnerPtr<'a, T, F> = <F as Machinery>::Ptr<Inner<'a, T, F>>;

/// The state behind one inner observable.
///
/// Its lock is the flavour's: a mutex in the [`Shared`] flavour, a `RefCell` in the
/// [`Local`] one, so a single-threaded split takes no lock per value. It is never held while
/// user code runs (a subscriber's notifications, the drop of a value or of the subscriber),
/// so the `RefCell` is never borrowed twice, even by a subscriber that makes the source emit
/// again.
pub(crate) struct Inner<'a, T, F: Flavour = Shared> {
    refs: RefsPtr<'a, F>,
    state: F::Lock<InnerState<'a, T, F>>,
    /// Set once the subscriber disposed it: what a [`Claimed`] group looks at before each
    /// value, where the locked path looks at `closed`. Release/Acquire: the values that
    /// follow the flag being seen are dropped.
    disposed: F::Flag,
}

/// A held lock on an [`Inner`]'s state.
type Guard<'s, 'a, T, F> =
    <<F as Machinery>::Lock<InnerState<'a, T, F>> as Lock<InnerState<'a, T, F>>>::Guard<'s>;

struct InnerState<'a, T, F: Flavour> {
    /// The subscriber while nobody is delivering to it. A thread that delivers takes it out,
    /// so finding `None` once subscribed means another thread is delivering and will pick up
    /// what was queued.
    observer: Option<HeldObserver<'a, T, F>>,
    /// Values not yet delivered.
    queue: Buffer<T>,
    /// The terminal notification from the operator: `Some(None)` to complete once the queue
    /// is empty, `Some(Some(error))` to fail at once.
    end: Option<Option<Error>>,
    subscribed: bool,
    abandoned: bool,
    /// The subscriber disposed it, or has received its terminal notification.
    closed: bool,
    /// Whether this inner's reference on the source has been released.
    released: bool,
}

impl<'a, T, F: Flavour> Inner<'a, T, F> {
    /// A new inner observable holding a reference on the source; `None` when nobody wants
    /// the source any more.
    pub(crate) fn open(refs: &RefsPtr<'a, F>) -> Option<InnerPtr<'a, T, F>> {
        refs.acquire().then(|| {
            F::new_ptr(Inner {
                refs: refs.clone(),
                state: F::Lock::new(InnerState {
                    observer: None,
                    queue: Buffer::new(),
                    end: None,
                    subscribed: false,
                    abandoned: false,
                    closed: false,
                    released: false,
                }),
                disposed: F::Flag::new(false),
            })
        })
    }

    /// Queues `value` for the subscriber and delivers it if possible.
    pub(crate) fn next(&self, value: T) {
        let _ = self.try_next(value);
    }

    /// Like [`next`](Inner::next), but hands `value` back when this inner no longer takes
    /// values (ended, abandoned or disposed), so group_by can open a new group for it.
    pub(crate) fn try_next(&self, value: T) -> Result<(), T> {
        let mut state = self.state.lock();
        if state.closed || state.abandoned || state.end.is_some() {
            return Err(value);
        }
        // The common case, a subscriber nobody is delivering to and nothing queued: the value
        // goes straight to it, without a trip through the queue.
        if state.queue.is_empty()
            && let Some(mut observer) = state.observer.take()
        {
            drop(state);
            Observer::on_next(&mut observer, value);
            if Observer::is_disposed(&observer) {
                drop(observer);
                self.close();
                return Ok(());
            }
            let mut state = self.state.lock();
            if state.closed || state.end.is_some() || !state.queue.is_empty() {
                // Disposed, ended or fed meanwhile (by the subscriber itself, or another
                // thread): the loop sorts it out.
                self.deliver(state, observer);
            } else {
                state.observer = Some(observer);
            }
            return Ok(());
        }
        state.queue.push(value);
        self.drain(state);
        Ok(())
    }

    /// Ends it: completes after the queued values (`None`), or fails at once.
    pub(crate) fn end(&self, error: Option<Error>) {
        let mut state = self.state.lock();
        if state.closed || state.end.is_some() {
            return;
        }
        state.end = Some(error);
        let release = !mem::replace(&mut state.released, true);
        self.drain(state);
        if release {
            self.refs.release();
        }
    }

    /// Whether it takes no more values: ended, or closed by its subscriber.
    pub(crate) fn is_ended(&self) -> bool {
        let state = self.state.lock();
        state.closed || state.end.is_some()
    }

    /// Called once the operator has emitted it: abandons it when nobody has subscribed yet,
    /// and says so. The caller then ends it.
    pub(crate) fn abandon_unless_subscribed(&self) -> bool {
        let mut state = self.state.lock();
        if state.subscribed {
            return false;
        }
        state.abandoned = true;
        true
    }

    /// Gives a group just emitted its first value and settles it, under one lock: abandons
    /// it when nobody has subscribed yet, and otherwise takes the subscriber out for the
    /// operator to deliver to directly (see [`Claimed`]) unless someone else is delivering
    /// to it. Only for an inner that nothing but the operator's observer ends.
    pub(crate) fn settle(this: InnerPtr<'a, T, F>, value: T) -> Settled<'a, T, F> {
        let mut state = this.state.lock();
        if !state.subscribed {
            // Kept for a late subscriber, which receives it and the completion.
            state.queue.push(value);
            state.abandoned = true;
            drop(state);
            return Settled::Abandoned(this);
        }
        if state.closed || state.end.is_some() {
            // Disposed as it was subscribed: the value goes nowhere.
            drop(state);
            drop(value);
            return Settled::Locked(this);
        }
        if state.queue.is_empty()
            && let Some(observer) = state.observer.take()
        {
            drop(state);
            let mut claimed = Claimed {
                inner: this,
                observer,
            };
            // Refused only when another thread disposed it since: the value is dropped, as
            // it would be a moment later.
            let _ = claimed.next(value);
            return Settled::Claimed(claimed);
        }
        // Someone else delivers (its subscriber made the source emit, or another thread
        // feeds it): the locked path goes on.
        state.queue.push(value);
        this.drain(state);
        Settled::Locked(this)
    }

    /// Whether the subscriber disposed it.
    #[inline]
    pub(crate) fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::Acquire)
    }

    fn subscribe(&self, observer: HeldObserver<'a, T, F>) -> Result<(), HeldObserver<'a, T, F>> {
        let mut state = self.state.lock();
        if state.subscribed {
            return Err(observer);
        }
        state.subscribed = true;
        state.observer = Some(observer);
        self.drain(state);
        Ok(())
    }

    /// The subscriber no longer wants values: drop them, and release the source.
    pub(crate) fn close(&self) {
        let mut state = self.state.lock();
        if state.closed {
            return;
        }
        state.closed = true;
        self.disposed.store(true, Ordering::Release);
        let observer = state.observer.take();
        let queue = mem::take(&mut state.queue);
        let release = !mem::replace(&mut state.released, true);
        drop(state);
        drop(observer);
        drop(queue);
        if release {
            self.refs.release();
        }
    }

    /// Delivers queued values and the terminal notification to the subscriber, unless it is
    /// not there yet or another thread is delivering.
    fn drain<'s>(&'s self, mut state: Guard<'s, 'a, T, F>) {
        if let Some(observer) = state.observer.take() {
            self.deliver(state, observer);
        }
    }

    /// [`drain`](Self::drain) by the thread delivering, which holds the subscriber: delivers
    /// what is queued, then puts the subscriber back (or ends it).
    fn deliver<'s>(&'s self, mut state: Guard<'s, 'a, T, F>, mut observer: HeldObserver<'a, T, F>) {
        loop {
            if state.closed {
                // Disposed while this thread delivered.
                drop(state);
                drop(observer);
                return;
            }
            if let Some(Some(_)) = &state.end {
                let Some(Some(error)) = state.end.take() else {
                    unreachable!()
                };
                state.closed = true;
                let queue = mem::take(&mut state.queue);
                drop(state);
                Observer::on_error(observer, error);
                drop(queue);
                return;
            }
            if let Some(value) = state.queue.pop() {
                drop(state);
                Observer::on_next(&mut observer, value);
                if Observer::is_disposed(&observer) {
                    drop(observer);
                    self.close();
                    return;
                }
                state = self.state.lock();
                continue;
            }
            if state.end.is_some() {
                state.closed = true;
                drop(state);
                Observer::on_completed(observer);
                return;
            }
            state.observer = Some(observer);
            return;
        }
    }
}

/// What [`Inner::settle`] made of a group just emitted.
pub(crate) enum Settled<'a, T, F: Flavour> {
    /// Nobody subscribed in time: abandoned, holding its value; the caller ends it.
    Abandoned(InnerPtr<'a, T, F>),
    /// Its subscriber, claimed, has received the value.
    Claimed(Claimed<'a, T, F>),
    /// Subscribed, but on the locked path: already ended, or delivered to from elsewhere.
    Locked(InnerPtr<'a, T, F>),
}

/// An inner whose subscriber its operator holds and delivers to directly (see the module
/// docs): made by [`Inner::settle`], fed by [`next`](Claimed::next) and ended by
/// [`end`](Claimed::end), one call at a time, as the operator's own notifications come.
pub(crate) struct Claimed<'a, T, F: Flavour> {
    inner: InnerPtr<'a, T, F>,
    observer: HeldObserver<'a, T, F>,
}

impl<'a, T, F: Flavour> Claimed<'a, T, F> {
    /// Delivers `value`; hands it back when the subscriber has disposed the group (the
    /// caller drops this then, and with it the subscriber).
    #[inline]
    pub(crate) fn next(&mut self, value: T) -> Result<(), T> {
        if self.inner.is_disposed() {
            return Err(value);
        }
        Observer::on_next(&mut self.observer, value);
        if Observer::is_disposed(&self.observer) {
            self.inner.close();
        }
        Ok(())
    }

    /// Whether it takes no more values: its subscriber disposed it.
    pub(crate) fn is_ended(&self) -> bool {
        self.inner.is_disposed()
    }

    /// Ends it: completes it (`None`) or fails it, unless it was disposed.
    pub(crate) fn end(self, error: Option<Error>) {
        let Claimed { inner, observer } = self;
        let mut state = inner.state.lock();
        if state.closed {
            drop(state);
            drop(observer);
            return;
        }
        state.closed = true;
        state.end = Some(None);
        let release = !mem::replace(&mut state.released, true);
        drop(state);
        match error {
            Some(error) => Observer::on_error(observer, error),
            None => Observer::on_completed(observer),
        }
        if release {
            inner.refs.release();
        }
    }
}

impl<T, F: Flavour> fmt::Debug for Claimed<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Claimed")
            .field("disposed", &self.inner.is_disposed())
            .finish_non_exhaustive()
    }
}

/// Subscribes `observer` to `inner`, or fails it when `inner` already has a subscriber.
pub(crate) fn subscribe<'a, T, O, F>(
    inner: InnerPtr<'a, T, F>,
    observer: O,
) -> InnerSubscription<'a, T, F>
where
    O: Observer<T>,
    F: KeepSubscriber<'a, T, O>,
{
    if observer.is_disposed() {
        return InnerSubscription { inner: None };
    }
    match inner.subscribe(HeldObserver::new(observer)) {
        Ok(()) => InnerSubscription { inner: Some(inner) },
        Err(observer) => {
            Observer::on_error(observer, Error::msg(AlreadySubscribed));
            InnerSubscription { inner: None }
        }
    }
}

/// The message of the error a second subscriber to a group or window receives.
struct AlreadySubscribed;

impl fmt::Display for AlreadySubscribed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("this group or window accepts a single subscriber")
    }
}

/// The handle of a subscription to a group of [`group_by`](crate::ObservableExt::group_by)
/// or a window of [`window`](crate::ObservableExt::window): disposing it drops that inner
/// observable's values from then on.
pub struct InnerSubscription<'a, T, F: Flavour = Shared> {
    /// `None` for a subscriber that was refused or already disposed.
    inner: Option<InnerPtr<'a, T, F>>,
}

impl<T, F: Flavour> Subscription for InnerSubscription<'_, T, F> {
    fn dispose(&self) {
        if let Some(inner) = &self.inner {
            inner.close();
        }
    }

    fn is_disposed(&self) -> bool {
        self.inner
            .as_ref()
            .is_none_or(|inner| inner.state.lock().closed)
    }
}

impl<T, F: Flavour> fmt::Debug for InnerSubscription<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InnerSubscription")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, loom))]
mod loom_tests;
