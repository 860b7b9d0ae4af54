//! The engine behind [`retry`](crate::ObservableExt::retry) and
//! [`repeat`](crate::ObservableExt::repeat): subscribe a clone of the source again when it
//! ends in a given way.
//!
//! Two constraints shape it.
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
//!
//! The downstream observer is moved into each attempt's observer and parked in the shared
//! state between attempts, so exactly one owner holds it at any time.

use crate::Error;
use crate::observable::Subscribe;
use crate::observer::Observer;
use crate::subscription::Subscription;
use crate::sync::{Arc, AtomicBool, AtomicUsize, Mutex, Ordering};
use std::fmt;

/// Which terminal notification makes a new attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// `retry`: resubscribe after an error.
    Error,
    /// `repeat`: resubscribe after completion.
    Completed,
}

struct Shared<S, O> {
    /// Attempts asked for and not yet run, plus one while the loop runs. Whoever raises it
    /// from 0 runs the loop, so attempts never overlap and never recurse.
    pending: AtomicUsize,
    /// Set when the handle is disposed or the downstream has received its terminal
    /// notification: no further attempt starts and nothing more is delivered.
    closed: AtomicBool,
    trigger: Trigger,
    /// Runs attempts while `pending` is above 0. A `fn` pointer made where the source's
    /// `Subscribe` bound is proven, so the observer's impl does not need that bound.
    drive: fn(&Arc<Shared<S, O>>),
    state: Mutex<State<S, O>>,
}

struct State<S, O> {
    /// Cloned for each attempt.
    source: S,
    /// The downstream observer while no attempt holds it.
    observer: Option<O>,
    /// Resubscriptions left; `None` for no limit.
    remaining: Option<usize>,
    /// The handle of the running attempt, so `dispose` reaches it. `None` while a new attempt
    /// is being started. Boxed, hence `Send + 'static`, because this struct cannot name the
    /// source's handle type: that would bring the overflowing bound back. A zero-sized
    /// handle such as `Finished` is boxed without allocating.
    current: Option<Box<dyn Subscription + Send>>,
}

/// Subscribes `source` with `observer`, and again after each `trigger` while `remaining`
/// allows.
pub(crate) fn subscribe<S, O>(
    source: S,
    observer: O,
    trigger: Trigger,
    remaining: Option<usize>,
) -> ResubscribeSubscription<S, O>
where
    S: Subscribe<ResubscribeObserver<S, O>> + Clone,
    <S as Subscribe<ResubscribeObserver<S, O>>>::Subscription: Send + 'static,
{
    let shared = Arc::new(Shared {
        pending: AtomicUsize::new(1),
        closed: AtomicBool::new(false),
        trigger,
        drive: drive::<S, O>,
        state: Mutex::new(State {
            source,
            observer: Some(observer),
            remaining,
            current: None,
        }),
    });
    drive(&shared);
    ResubscribeSubscription { shared }
}

/// A handle that has nothing to run: for `repeat(0)`, which completes without subscribing.
pub(crate) fn closed<S, O>(source: S) -> ResubscribeSubscription<S, O> {
    fn never<S, O>(_: &Arc<Shared<S, O>>) {}
    ResubscribeSubscription {
        shared: Arc::new(Shared {
            pending: AtomicUsize::new(0),
            closed: AtomicBool::new(true),
            trigger: Trigger::Completed,
            drive: never::<S, O>,
            state: Mutex::new(State {
                source,
                observer: None,
                remaining: Some(0),
                current: None,
            }),
        }),
    }
}

/// Runs attempts until `pending` drops to 0. The caller has raised `pending` from 0.
fn drive<S, O>(shared: &Arc<Shared<S, O>>)
where
    S: Subscribe<ResubscribeObserver<S, O>> + Clone,
    <S as Subscribe<ResubscribeObserver<S, O>>>::Subscription: Send + 'static,
{
    loop {
        let attempt = {
            let mut state = shared.state.lock();
            // `None` after a dispose that took the parked observer.
            let observer = state.observer.take();
            if shared.closed.load(Ordering::Acquire) {
                Err(observer)
            } else {
                Ok(observer.map(|observer| (observer, state.source.clone())))
            }
        };
        if let Err(parked) = attempt {
            // Disposed while this attempt was asked for: an observer parked after `dispose`
            // looked is dropped here, outside the lock, as it runs other operators' code.
            drop(parked);
        } else if let Ok(Some((observer, source))) = attempt {
            let subscription = source.subscribe_observer(ResubscribeObserver {
                observer,
                shared: shared.clone(),
            });
            let mut state = shared.state.lock();
            // `dispose` sets `closed` before taking the lock, so either it finds this handle
            // stored, or this sees the flag.
            if shared.closed.load(Ordering::Acquire) {
                drop(state);
                subscription.dispose();
            } else if state.observer.is_none() {
                let previous = state.current.replace(Box::new(subscription));
                drop(state);
                drop(previous);
            }
            // Otherwise the attempt has already ended and parked the observer for the next
            // one: its handle has nothing left to cancel.
        }
        // AcqRel: Release hands what this attempt did to whoever runs the loop next; Acquire
        // sees the parked observer of an attempt that ended meanwhile.
        if shared.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            return;
        }
    }
}

/// The observer [`Retry`](super::Retry) and [`Repeat`](super::Repeat) subscribe upstream,
/// once per attempt.
pub struct ResubscribeObserver<S, O> {
    observer: O,
    shared: Arc<Shared<S, O>>,
}

impl<S, O> ResubscribeObserver<S, O> {
    /// Starts another attempt if this terminal is the trigger, the budget allows it and
    /// downstream still listens; otherwise hands the observer back to deliver the terminal.
    fn resubscribe(self, trigger: Trigger, downstream_disposed: bool) -> Option<O> {
        let shared = self.shared;
        if shared.closed.load(Ordering::Acquire) {
            return None;
        }
        let mut state = shared.state.lock();
        let again = trigger == shared.trigger
            && !downstream_disposed
            && match &mut state.remaining {
                None => true,
                Some(0) => false,
                Some(n) => {
                    *n -= 1;
                    true
                }
            };
        if !again {
            shared.closed.store(true, Ordering::Release);
            return Some(self.observer);
        }
        state.observer = Some(self.observer);
        let finished = state.current.take();
        drop(state);
        drop(finished);
        if shared.pending.fetch_add(1, Ordering::AcqRel) == 0 {
            (shared.drive)(&shared);
        }
        None
    }
}

impl<T, S, O: Observer<T>> Observer<T> for ResubscribeObserver<S, O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        let downstream_disposed = self.observer.is_disposed();
        if let Some(observer) = self.resubscribe(Trigger::Error, downstream_disposed) {
            observer.on_error(error)
        }
    }

    fn on_completed(self) {
        let downstream_disposed = self.observer.is_disposed();
        if let Some(observer) = self.resubscribe(Trigger::Completed, downstream_disposed) {
            observer.on_completed()
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.shared.closed.load(Ordering::Acquire)
    }
}

impl<S, O> fmt::Debug for ResubscribeObserver<S, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeObserver")
            .field("trigger", &self.shared.trigger)
            .finish_non_exhaustive()
    }
}

/// The handle of a [`Retry`](super::Retry) or [`Repeat`](super::Repeat) subscription:
/// disposing it disposes the running attempt and starts no other.
pub struct ResubscribeSubscription<S, O> {
    shared: Arc<Shared<S, O>>,
}

impl<S, O> Subscription for ResubscribeSubscription<S, O> {
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

impl<S, O> fmt::Debug for ResubscribeSubscription<S, O> {
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
