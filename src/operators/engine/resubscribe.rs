//! The engine behind [`retry`](crate::ObservableExt::retry),
//! [`repeat`](crate::ObservableExt::repeat), [`retry_when`](crate::ObservableExt::retry_when)
//! and [`repeat_when`](crate::ObservableExt::repeat_when): subscribe a clone of the source
//! again when it ends in a given way, at once or when a notifier says so.
//!
//! Three constraints shape it.
//!
//! - **Types.** The observer handed upstream cannot require `S: Subscribe<Self>` in its own
//!   `Observer` impl: proving that bound needs the impl being proven, and the trait solver
//!   overflows. So the observer resubscribes through a plain `fn` pointer, [`drive`],
//!   instantiated in `subscribe` where the bound is already proven.
//! - **Stack and threads.** A synchronous source ends inside `subscribe_observer`, so
//!   resubscribing from the terminal callback would recurse once per attempt and
//!   `just(1).repeat(1_000_000)` would overflow the stack. Attempts are run by a loop instead,
//!   guarded by a counter (RxJava's "work in progress" trampoline): whoever raises `pending`
//!   from 0 runs the loop; an attempt that ends while the loop runs only raises `pending`, and
//!   the loop picks the next attempt up after `subscribe_observer` returns. When an attempt
//!   ends later on another thread, `pending` is 0 there and that thread runs the loop.
//! - **Notifiers.** What follows an attempt's end is a [`Policy`]'s decision: deliver the
//!   terminal notification, start again at once (`retry(n)`), or wait for a notifier
//!   observable's first value (`retry_when`). The notifier is subscribed by the same loop, so
//!   the loop is still the only place anything is subscribed and handles are stored; its
//!   first value raises `pending` as a finished attempt does, its completion completes the
//!   sequence and its error ends it.
//!
//! The downstream observer is moved into each attempt's observer and parked in the shared
//! state between attempts (and while a notifier runs), so exactly one owner holds it at any
//! time.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::{Finished, Subscription};
use crate::sync::imp::BoxSubscription;
use crate::sync::{Arc, AtomicBool, AtomicUsize, Flavour, Mutex, Ordering, UnsafeCell};
use std::fmt;

/// Which terminal notification makes a new attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// `retry`: resubscribe after an error.
    Error,
    /// `repeat`: resubscribe after completion.
    Completed,
}

/// How an attempt ended.
pub(crate) enum Ended<'e> {
    Error(&'e Error),
    Completed,
}

/// What a [`Policy`] decides once an attempt has ended.
pub(crate) enum Decision {
    /// Deliver the attempt's terminal notification: the sequence ends.
    Deliver,
    /// Subscribe the source again now.
    Again,
    /// Subscribe the notifier the policy now holds, and the source again at its first value.
    Wait,
}

/// Decides what follows the end of an attempt. Called with no lock of the engine held, as
/// it may run user code, and never twice at once: one attempt runs at a time.
pub(crate) trait Policy {
    /// The observable whose first value starts the next attempt.
    type Notifier;

    /// What follows an attempt that ended as `ended` says.
    fn decide(&mut self, ended: Ended<'_>) -> Decision;

    /// Whether [`decide`](Policy::decide) can ever answer [`Decision::Wait`]: a policy that
    /// cannot (`retry(n)`, `repeat(n)`) has no notifier to take, and the loop takes no lock
    /// to find that out.
    const WAITS: bool = true;

    /// The notifier asked for by the last [`Decision::Wait`].
    fn take_notifier(&mut self) -> Option<Self::Notifier>;
}

/// The policy of `retry(n)` and `repeat(n)`: start again at once, `remaining` more times.
#[derive(Debug)]
pub struct Counted {
    trigger: Trigger,
    /// Resubscriptions left; `None` for no limit.
    remaining: Option<usize>,
}

impl Policy for Counted {
    type Notifier = NoNotifier;

    const WAITS: bool = false;

    fn decide(&mut self, ended: Ended<'_>) -> Decision {
        let trigger = match ended {
            Ended::Error(_) => Trigger::Error,
            Ended::Completed => Trigger::Completed,
        };
        let again = trigger == self.trigger
            && match &mut self.remaining {
                None => true,
                Some(0) => false,
                Some(n) => {
                    *n -= 1;
                    true
                }
            };
        if again {
            Decision::Again
        } else {
            Decision::Deliver
        }
    }

    fn take_notifier(&mut self) -> Option<NoNotifier> {
        None
    }
}

/// How a [`Policy`]'s notifier is subscribed and its handle kept in the box of flavour `F`.
///
/// Its own trait, beside `Policy`, so that the bound on the notifier's handle belongs to the
/// policies that have one: `retry(n)`'s [`NoNotifier`] has a handle every flavour can box,
/// which a bound written on the engine for every policy could not say of a generic `F`.
pub(crate) trait KeepNotifier<S, O, F: Flavour>: Policy + Sized {
    /// The notifier's handle.
    type Handle: Subscription;

    /// Subscribes `notifier`.
    fn subscribe_notifier(
        notifier: Self::Notifier,
        observer: ResubscribeNotifier<S, O, Self, F>,
    ) -> Self::Handle;

    /// Boxes the notifier's handle to be kept.
    fn keep(handle: Self::Handle) -> F::BoxedSubscription<'static>;
}

impl<S, O, F: Flavour> KeepNotifier<S, O, F> for Counted {
    type Handle = Finished;

    fn subscribe_notifier(notifier: NoNotifier, _: ResubscribeNotifier<S, O, Self, F>) -> Finished {
        match notifier {}
    }

    fn keep(handle: Finished) -> F::BoxedSubscription<'static> {
        F::box_send(handle)
    }
}

/// The handle of the notifier of policy `P`, subscribed with its observer.
pub(crate) type NotifierHandle<S, O, P, F> =
    <<P as Policy>::Notifier as Subscribe<ResubscribeNotifier<S, O, P, F>>>::Subscription;

/// The notifier of a policy that never waits: it has no values, so none is ever built.
#[derive(Debug)]
pub enum NoNotifier {}

impl Observable for NoNotifier {
    type Item = ();
    type Flavour = crate::sync::Shared;
}

impl<O> Subscribe<O> for NoNotifier {
    type Subscription = Finished;

    fn subscribe_observer(self, _: O) -> Finished {
        match self {}
    }
}

struct Shared<S, O, P, F: Flavour> {
    /// Attempts asked for and not yet run, plus one while the loop runs. Whoever raises it
    /// from 0 runs the loop, so attempts never overlap and never recurse.
    pending: AtomicUsize,
    /// Set when the handle is disposed or the downstream has received its terminal
    /// notification: no further attempt starts and nothing more is delivered.
    closed: AtomicBool,
    /// Runs attempts while `pending` is above 0. A `fn` pointer made where the source's
    /// `Subscribe` bound is proven, so the observer's impl does not need that bound.
    #[allow(clippy::type_complexity)]
    drive: fn(&Arc<Shared<S, O, P, F>>),
    /// Apart from `state`: the policy runs user code, which must not run under the lock that
    /// `dispose` takes. No lock of its own either: only whoever holds the turn touches it (see
    /// [`Shared::policy`]).
    policy: UnsafeCell<P>,
    state: Mutex<State<S, O, F>>,
}

struct State<S, O, F: Flavour> {
    /// Cloned for each attempt.
    source: S,
    /// The downstream observer while no attempt holds it.
    observer: Option<O>,
    /// Whether a notifier has been asked for and has not yet emitted or terminated.
    waiting: bool,
    /// The handle of the running attempt or notifier, so `dispose` reaches it. `None` while
    /// a new one is being started. Boxed, in the box of the source's flavour (`Send` for
    /// `Shared`), because this struct cannot name the source's handle type: that would bring
    /// the overflowing bound back. A zero-sized handle such as `Finished` is boxed without
    /// allocating.
    current: Option<F::BoxedSubscription<'static>>,
}

impl<S, O, P, F: Flavour> Shared<S, O, P, F> {
    /// Runs `f` on the policy.
    ///
    /// # Safety
    ///
    /// The caller holds the turn: it is either the loop in [`drive`] between two attempts
    /// (no attempt or notifier is live: the last one has ended and asked for this iteration,
    /// or none has started), or the observer of the live attempt in its terminal
    /// notification. One attempt is live at a time and its end is what starts the next
    /// iteration, through `pending` (AcqRel), so each holder of the turn happens after the
    /// last: the loop subscribes the attempt whose end decides, and the end raises the
    /// `pending` the next iteration reads.
    unsafe fn policy<R>(&self, f: impl FnOnce(&mut P) -> R) -> R {
        // SAFETY: the caller holds the turn (above), so no other reference to the policy is
        // live and the last access happens before this one.
        self.policy.with_mut(|policy| f(unsafe { &mut *policy }))
    }
}

// SAFETY: every field but `policy` is `Sync` when its contents are `Send` (an atomic or a
// lock); `policy` is reached only by the holder of the turn (`Shared::policy`), one thread at
// a time with a happens-before edge between them, which is what a `Mutex<P>` would give:
// hence `P: Send` is what it needs.
unsafe impl<S, O, P: Send, F: Flavour> Sync for Shared<S, O, P, F> where Mutex<State<S, O, F>>: Sync {}

/// Subscribes `source` with `observer`, and again after each `trigger` while `remaining`
/// allows.
pub(crate) fn subscribe<S, O, F>(
    source: S,
    observer: O,
    trigger: Trigger,
    remaining: Option<usize>,
) -> ResubscribeSubscription<S, O, Counted, F>
where
    S: Subscribe<ResubscribeObserver<S, O, Counted, F>> + Clone,
    F: Flavour
        + BoxSubscription<
            'static,
            <S as Subscribe<ResubscribeObserver<S, O, Counted, F>>>::Subscription,
        >,
{
    subscribe_with(source, observer, Counted { trigger, remaining })
}

/// Subscribes `source` with `observer`, and again whenever `policy` says so.
pub(crate) fn subscribe_with<S, O, P, F>(
    source: S,
    observer: O,
    policy: P,
) -> ResubscribeSubscription<S, O, P, F>
where
    S: Subscribe<ResubscribeObserver<S, O, P, F>> + Clone,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
    P: Policy,
    P: KeepNotifier<S, O, F>,
{
    let first = source.clone();
    let shared = Arc::new(Shared {
        pending: AtomicUsize::new(1),
        closed: AtomicBool::new(false),
        drive: drive::<S, O, P, F>,
        policy: UnsafeCell::new(policy),
        state: Mutex::new(State {
            source,
            observer: None,
            waiting: false,
            current: None,
        }),
    });
    // The first attempt takes the observer straight from the caller: nobody can dispose a
    // handle not yet returned, so there is nothing to park it against. The loop runs only if
    // the attempt ended at once and asked for another.
    attempt(&shared, observer, first);
    if shared.pending.fetch_sub(1, Ordering::AcqRel) != 1 {
        drive(&shared);
    }
    ResubscribeSubscription { shared }
}

/// A handle that has nothing to run: for `repeat(0)`, which completes without subscribing.
pub(crate) fn closed<S, O, F: Flavour>(source: S) -> ResubscribeSubscription<S, O, Counted, F> {
    fn never<S, O, P, F: Flavour>(_: &Arc<Shared<S, O, P, F>>) {}
    ResubscribeSubscription {
        shared: Arc::new(Shared {
            pending: AtomicUsize::new(0),
            closed: AtomicBool::new(true),
            drive: never::<S, O, Counted, F>,
            policy: UnsafeCell::new(Counted {
                trigger: Trigger::Completed,
                remaining: Some(0),
            }),
            state: Mutex::new(State {
                source,
                observer: None,
                waiting: false,
                current: None,
            }),
        }),
    }
}

/// Runs attempts, and subscribes notifiers, until `pending` drops to 0. The caller has
/// raised `pending` from 0.
fn drive<S, O, P, F>(shared: &Arc<Shared<S, O, P, F>>)
where
    S: Subscribe<ResubscribeObserver<S, O, P, F>> + Clone,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
    P: Policy,
    P: KeepNotifier<S, O, F>,
{
    loop {
        let notifier = if !P::WAITS || shared.closed.load(Ordering::Acquire) {
            None
        } else {
            // SAFETY: the loop between two attempts holds the turn.
            unsafe { shared.policy(P::take_notifier) }
        };
        if let Some(notifier) = notifier {
            let subscription = P::subscribe_notifier(
                notifier,
                ResubscribeNotifier {
                    shared: shared.clone(),
                    fired: false,
                },
            );
            // Closed, or the notifier has already fired inside `subscribe` (it raised
            // `pending`; Acquire sees what it did): cancel it, which is harmless if it has
            // finished, and take no lock.
            if shared.closed.load(Ordering::Acquire) || shared.pending.load(Ordering::Acquire) > 1 {
                subscription.dispose();
            } else {
                keep_notifier::<S, O, P, F>(shared, subscription);
            }
        } else {
            let attempt_parts = {
                let mut state = shared.state.lock();
                // `None` after a dispose that took the parked observer.
                let observer = state.observer.take();
                if shared.closed.load(Ordering::Acquire) {
                    Err(observer)
                } else {
                    Ok(observer.map(|observer| (observer, state.source.clone())))
                }
            };
            if let Err(parked) = attempt_parts {
                // Disposed while this attempt was asked for: an observer parked after
                // `dispose` looked is dropped here, outside the lock, as it runs other
                // operators' code.
                drop(parked);
            } else if let Ok(Some((observer, source))) = attempt_parts {
                attempt(shared, observer, source);
            }
        }
        // AcqRel: Release hands what this attempt did to whoever runs the loop next; Acquire
        // sees the parked observer of an attempt that ended meanwhile.
        if shared.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            return;
        }
    }
}

/// Keeps the handle of a notifier that may still be running, where `dispose` reaches it.
fn keep_notifier<S, O, P, F>(shared: &Arc<Shared<S, O, P, F>>, subscription: P::Handle)
where
    F: Flavour,
    P: KeepNotifier<S, O, F>,
{
    // A handle that reports itself disposed is not kept, as in the merge core: it can
    // deliver nothing more, and `never()`'s holds its observer, which holds `shared`: kept,
    // it would be a cycle nothing breaks. Asked before locking: user code.
    let finished = subscription.is_disposed();
    let mut state = shared.state.lock();
    if !shared.closed.load(Ordering::Acquire) && state.waiting && !finished {
        let previous = state.current.replace(P::keep(subscription));
        drop(state);
        drop(previous);
    } else {
        // It has already emitted or terminated (inside `subscribe`), has nothing running, or
        // the sequence was disposed: cancel it, which is harmless if it has finished.
        drop(state);
        subscription.dispose();
    }
}

/// Subscribes one attempt and keeps its handle where `dispose` reaches it, unless the attempt
/// has already ended.
fn attempt<S, O, P, F>(shared: &Arc<Shared<S, O, P, F>>, observer: O, source: S)
where
    S: Subscribe<ResubscribeObserver<S, O, P, F>>,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
{
    let subscription = source.subscribe_observer(ResubscribeObserver {
        observer,
        shared: shared.clone(),
    });
    // Acquire on both: see what the attempt's end did. Closed, whether by `dispose` (which
    // sets `closed` before taking the lock, so a handle stored after this load is found by
    // it) or by the delivered terminal: cancel the handle, which is harmless if the attempt
    // has ended. Another iteration asked for: the attempt has ended and parked the observer
    // for the next one (nothing else raises `pending` while an attempt runs), so its handle
    // has nothing left to cancel. Neither takes the lock: the synchronous source's path.
    if shared.closed.load(Ordering::Acquire) {
        subscription.dispose();
        return;
    }
    if shared.pending.load(Ordering::Acquire) > 1 {
        return;
    }
    // Not kept if it reports itself disposed, as the notifier's. Asked before locking.
    let finished = subscription.is_disposed();
    let mut state = shared.state.lock();
    if shared.closed.load(Ordering::Acquire) {
        drop(state);
        subscription.dispose();
    } else if state.observer.is_none() && finished {
        // Nothing runs behind the handle: not kept, as the notifier's (a `never()`'s holds
        // this attempt's observer, and kept it would be a cycle); a zero-sized `Finished` (no
        // allocation) says so in its place. The sequence stays open: a source may still owe
        // the observer a terminal it queued (a subject subscribed from inside its own
        // delivery).
        let previous = state.current.replace(F::box_send(Finished));
        drop(state);
        drop(previous);
        drop(subscription);
    } else if state.observer.is_none() {
        let previous = state.current.replace(F::box_subscription(subscription));
        drop(state);
        drop(previous);
    }
    // Otherwise the attempt has ended meanwhile and parked the observer for the next one:
    // its handle has nothing left to cancel.
}

/// The observer [`Retry`](crate::operators::Retry), [`Repeat`](crate::operators::Repeat) and
/// their `_when` forms subscribe upstream, once per attempt.
pub struct ResubscribeObserver<S, O, P = Counted, F: Flavour = crate::sync::Shared> {
    observer: O,
    shared: Arc<Shared<S, O, P, F>>,
}

/// Starts another attempt, or waits for a notifier, if the policy says so and downstream
/// still listens; otherwise hands the observer back to deliver the terminal.
fn resubscribe<S, O, P: Policy, F: Flavour>(
    this: ResubscribeObserver<S, O, P, F>,
    ended: Ended<'_>,
    downstream_disposed: bool,
) -> Option<O> {
    {
        let shared = this.shared;
        if shared.closed.load(Ordering::Acquire) {
            return None;
        }
        let decision = if downstream_disposed {
            Decision::Deliver
        } else {
            // SAFETY: the live attempt's observer, in its terminal notification, holds the
            // turn.
            unsafe { shared.policy(|policy| policy.decide(ended)) }
        };
        if let Decision::Deliver = decision {
            // No lock: nothing is parked or stored for this end, and `dispose`, which may
            // race it, only needs the flag to start nothing more.
            shared.closed.store(true, Ordering::Release);
            return Some(this.observer);
        }
        let mut state = shared.state.lock();
        if let Decision::Wait = decision {
            state.waiting = true;
        }
        state.observer = Some(this.observer);
        let finished = state.current.take();
        drop(state);
        drop(finished);
        if shared.pending.fetch_add(1, Ordering::AcqRel) == 0 {
            (shared.drive)(&shared);
        }
        None
    }
}

impl<T, S, O: Observer<T>, P: Policy, F: Flavour> Observer<T> for ResubscribeObserver<S, O, P, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        let downstream_disposed = self.observer.is_disposed();
        if let Some(observer) = resubscribe(self, Ended::Error(&error), downstream_disposed) {
            observer.on_error(error)
        }
    }

    fn on_completed(self) {
        let downstream_disposed = self.observer.is_disposed();
        if let Some(observer) = resubscribe(self, Ended::Completed, downstream_disposed) {
            observer.on_completed()
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.shared.closed.load(Ordering::Acquire)
    }
}

impl<S, O, P, F: Flavour> fmt::Debug for ResubscribeObserver<S, O, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeObserver")
            .field("closed", &self.shared.closed.load(Ordering::Acquire))
            .finish_non_exhaustive()
    }
}

/// The observer [`RetryWhen`](crate::operators::RetryWhen) and
/// [`RepeatWhen`](crate::operators::RepeatWhen) subscribe to each notifier: its first value
/// starts the next attempt, its completion completes the sequence and its error ends it.
pub struct ResubscribeNotifier<S, O, P, F: Flavour = crate::sync::Shared> {
    shared: Arc<Shared<S, O, P, F>>,
    /// Set by the first value: the rest are not wanted.
    fired: bool,
}

impl<S, O, P, F: Flavour> ResubscribeNotifier<S, O, P, F> {
    /// Ends the wait, handing back the locked state; `None` if it had already ended or the
    /// sequence is closed.
    fn end_wait(&self) -> Option<crate::sync::MutexGuard<'_, State<S, O, F>>> {
        let mut state = self.shared.state.lock();
        if self.shared.closed.load(Ordering::Acquire) || !state.waiting {
            return None;
        }
        state.waiting = false;
        Some(state)
    }

    /// The notifier ended before its first value: so does the sequence, the same way.
    fn finish<T>(self, error: Option<Error>)
    where
        O: Observer<T>,
    {
        if self.fired {
            return;
        }
        let Some(mut state) = self.end_wait() else {
            return;
        };
        self.shared.closed.store(true, Ordering::Release);
        let observer = state.observer.take();
        let handle = state.current.take();
        drop(state);
        drop(handle);
        if let Some(observer) = observer {
            match error {
                Some(error) => observer.on_error(error),
                None => observer.on_completed(),
            }
        }
    }
}

impl<N, S: Observable, O: Observer<S::Item>, P, F: Flavour> Observer<N>
    for ResubscribeNotifier<S, O, P, F>
{
    fn on_next(&mut self, _: N) {
        if self.fired {
            return;
        }
        self.fired = true;
        let Some(mut state) = self.end_wait() else {
            return;
        };
        let handle = state.current.take();
        drop(state);
        // The notifier's own handle, if stored already: it is not wanted any more.
        if let Some(handle) = handle {
            handle.dispose();
        }
        if self.shared.pending.fetch_add(1, Ordering::AcqRel) == 0 {
            (self.shared.drive)(&self.shared);
        }
    }

    fn on_error(self, error: Error) {
        self.finish(Some(error));
    }

    fn on_completed(self) {
        self.finish(None);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.fired || self.shared.closed.load(Ordering::Acquire)
    }
}

impl<S, O, P, F: Flavour> fmt::Debug for ResubscribeNotifier<S, O, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeNotifier")
            .field("fired", &self.fired)
            .finish_non_exhaustive()
    }
}

/// The handle of a [`Retry`](crate::operators::Retry) or
/// [`Repeat`](crate::operators::Repeat) subscription, and of their `_when` forms: disposing
/// it disposes the running attempt or notifier and starts no other.
pub struct ResubscribeSubscription<S, O, P = Counted, F: Flavour = crate::sync::Shared> {
    shared: Arc<Shared<S, O, P, F>>,
}

impl<S, O, P, F: Flavour> Subscription for ResubscribeSubscription<S, O, P, F> {
    fn dispose(&self) {
        // Release pairs with the Acquire loads in `drive` and in the observer.
        self.shared.closed.store(true, Ordering::Release);
        let (current, observer) = {
            let mut state = self.shared.state.lock();
            (state.current.take(), state.observer.take())
        };
        // Outside the lock: disposing and dropping run code of other operators.
        if let Some(current) = current {
            current.dispose();
        }
        drop(observer);
    }

    fn is_disposed(&self) -> bool {
        self.shared.closed.load(Ordering::Acquire)
            || self
                .shared
                .state
                .lock()
                .current
                .as_ref()
                .is_some_and(|current| current.is_disposed())
    }
}

impl<S, O, P, F: Flavour> fmt::Debug for ResubscribeSubscription<S, O, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeSubscription")
            .field("closed", &self.shared.closed.load(Ordering::Acquire))
            .finish_non_exhaustive()
    }
}

/// Sources for the tests of `retry` and `repeat`.
#[cfg(test)]
pub(crate) mod test_sources {
    use crate::Error;
    use crate::observable::{Observable, Subscribe};
    use crate::observer::{DynObserver, Observer};
    use crate::subscription::{Finished, FlagSubscription, Subscription};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    /// What one attempt emits: values, then an error (`Some`) or completion (`None`).
    pub(crate) type Script = (Vec<i32>, Option<&'static str>);

    /// A synchronous source that counts its subscriptions and emits, on the `n`th (from 0),
    /// what `script(n)` says. Checks `is_disposed` like any synchronous source.
    #[derive(Clone)]
    pub(crate) struct Scripted<F> {
        pub(crate) subscriptions: Arc<AtomicUsize>,
        pub(crate) script: F,
    }

    pub(crate) fn scripted<F: Fn(usize) -> Script + Clone>(script: F) -> Scripted<F> {
        Scripted {
            subscriptions: Arc::new(AtomicUsize::new(0)),
            script,
        }
    }

    impl<F> Scripted<F> {
        pub(crate) fn subscribed(&self) -> usize {
            self.subscriptions.load(Ordering::SeqCst)
        }
    }

    impl<F> Observable for Scripted<F> {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<F: Fn(usize) -> Script, O: Observer<i32>> Subscribe<O> for Scripted<F> {
        type Subscription = Finished;

        fn subscribe_observer(self, mut observer: O) -> Finished {
            let n = self.subscriptions.fetch_add(1, Ordering::SeqCst);
            let (values, end) = (self.script)(n);
            for v in values {
                if observer.is_disposed() {
                    return Finished;
                }
                observer.on_next(v);
            }
            if !observer.is_disposed() {
                match end {
                    Some(message) => observer.on_error(Error::msg(message)),
                    None => observer.on_completed(),
                }
            }
            Finished
        }
    }

    /// Like [`Scripted`], but each attempt runs on a thread of its own, after `subscribe`
    /// has returned, and hands back a flag handle.
    #[derive(Clone)]
    pub(crate) struct Threaded<F>(pub(crate) Scripted<F>);

    impl<F> Observable for Threaded<F> {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<F, O> Subscribe<O> for Threaded<F>
    where
        F: Fn(usize) -> Script + Send + 'static,
        O: Observer<i32> + Send + 'static,
    {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, observer: O) -> FlagSubscription {
            let handle = FlagSubscription::new();
            let flag = handle.clone();
            let (started_tx, started_rx) = mpsc::channel();
            std::thread::spawn(move || {
                // Wait until `subscribe_observer` has returned, so the attempt really ends
                // after it.
                let _ = started_rx.recv();
                self.0.subscribe_observer(Flagged(observer, flag));
            });
            started_tx.send(()).unwrap();
            handle
        }
    }

    /// An observer that also reports disposed once a flag handle is.
    struct Flagged<O>(O, FlagSubscription);

    impl<T, O: Observer<T>> Observer<T> for Flagged<O> {
        fn on_next(&mut self, value: T) {
            self.0.on_next(value)
        }
        fn on_error(self, error: Error) {
            self.0.on_error(error)
        }
        fn on_completed(self) {
            self.0.on_completed()
        }
        fn is_disposed(&self) -> bool {
            self.1.is_disposed() || self.0.is_disposed()
        }
    }

    /// A source that emits nothing, never terminates, and hands out a flag handle, like a
    /// timer that has not fired.
    #[derive(Clone)]
    pub(crate) struct Pending {
        pub(crate) handles: Arc<std::sync::Mutex<Vec<FlagSubscription>>>,
    }

    pub(crate) fn pending() -> Pending {
        Pending {
            handles: Arc::default(),
        }
    }

    impl Observable for Pending {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32>> Subscribe<O> for Pending {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, _observer: O) -> FlagSubscription {
            let handle = FlagSubscription::new();
            self.handles.lock().unwrap().push(handle.clone());
            handle
        }
    }

    /// Forwards to `O` and signals a channel on the terminal notification, so a test can
    /// wait for a sequence that ends on another thread.
    pub(crate) struct Signal<O>(pub(crate) O, pub(crate) mpsc::Sender<()>);

    impl<T, O: Observer<T>> Observer<T> for Signal<O> {
        fn on_next(&mut self, value: T) {
            self.0.on_next(value)
        }
        fn on_error(self, error: Error) {
            self.0.on_error(error);
            let _ = self.1.send(());
        }
        fn on_completed(self) {
            self.0.on_completed();
            let _ = self.1.send(());
        }
        fn is_disposed(&self) -> bool {
            self.0.is_disposed()
        }
    }

    /// A source that hands each subscriber's observer to the test through a channel, so
    /// the test decides when and on which thread each attempt ends.
    #[derive(Clone)]
    pub(crate) struct Remote(mpsc::Sender<RemoteObserver>);

    pub(crate) type RemoteObserver = Box<dyn DynObserver<i32> + Send>;

    pub(crate) fn remote() -> (Remote, mpsc::Receiver<RemoteObserver>) {
        let (tx, rx) = mpsc::channel();
        (Remote(tx), rx)
    }

    impl Observable for Remote {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32> + Send + 'static> Subscribe<O> for Remote {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, observer: O) -> FlagSubscription {
            let handle = FlagSubscription::new();
            self.0
                .send(Box::new(Flagged(observer, handle.clone())))
                .unwrap();
            handle
        }
    }
}
