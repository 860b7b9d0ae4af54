//! [`Drain`]: delivery to one observer from several threads, the shared core of the time
//! operators.
//!
//! A time operator hears from upstream on one thread and from its timer on a worker thread,
//! and both may have something for the same downstream observer. The observer must never be
//! called twice at once (the Rx serialisation rule), and never with a lock held: a downstream
//! that synchronously feeds back into the operator would deadlock on it.
//!
//! The algorithm is RxJava's emitter loop, with the operator's own state as the queue. Every
//! event updates the state under the lock, then tries to deliver. Whoever finds the observer
//! idle takes it out of the lock, delivers what the state says is ready, and loops until
//! nothing is; whoever finds it busy (another thread, or a re-entrant call on this one) just
//! leaves its update in the state, where the current deliverer picks it up before it lets go.

use crate::notification::Notification;
use crate::observer::Observer;
use crate::schedulers::Worker;
use crate::subscription::Subscription;
use crate::sync::{AtomicBool, Mutex, Ordering};

/// The state of a time operator, seen as a queue of notifications ready for delivery.
pub(crate) trait Ready<T> {
    /// Takes the next notification that may be delivered now, if any.
    fn next_ready(&mut self) -> Option<Notification<T>>;
}

/// The downstream observer of a time operator, its state, its worker and its upstream
/// handle, shared by the upstream observer and the operator's tasks.
pub(crate) struct Drain<W, O, St> {
    worker: W,
    /// Set once the subscription is over: terminated, disposed, or unwanted downstream. Read
    /// without the lock by `is_disposed`, which upstream calls before every value.
    closed: AtomicBool,
    inner: Mutex<Inner<O, St>>,
}

struct Inner<O, St> {
    /// The downstream observer while idle; `None` while a deliverer holds it, and once closed.
    observer: Option<O>,
    /// A deliverer holds the observer; updates are left for it to deliver.
    busy: bool,
    /// The upstream handle, stored once `subscribe_observer` returns it (Rx.NET's
    /// single-assignment disposable), so a timer or a disposal can cancel upstream. Erased,
    /// because its type depends on the observer that holds this `Drain`; a zero-sized handle
    /// costs no allocation.
    upstream: Option<Box<dyn Subscription + Send>>,
    state: St,
}

impl<W: Worker, O, St> Drain<W, O, St> {
    pub(crate) fn new(worker: W, observer: O, state: St) -> Self {
        Drain {
            worker,
            closed: AtomicBool::new(false),
            inner: Mutex::new(Inner {
                observer: Some(observer),
                busy: false,
                upstream: None,
                state,
            }),
        }
    }

    /// The worker the operator's tasks run on.
    pub(crate) fn worker(&self) -> &W {
        &self.worker
    }

    /// Whether the subscription is over; checked without the lock.
    pub(crate) fn is_closed(&self) -> bool {
        // Acquire pairs with the Release in `close` and in the terminal delivery.
        self.closed.load(Ordering::Acquire)
    }

    /// Updates the state under the lock, without delivering.
    pub(crate) fn with<R>(&self, update: impl FnOnce(&mut St) -> R) -> R {
        update(&mut self.inner.lock().state)
    }

    /// Stores the upstream handle, or disposes it at once if the subscription is already over.
    pub(crate) fn set_upstream<U: Subscription + Send + 'static>(&self, upstream: U) {
        let mut inner = self.inner.lock();
        // `close` sets the flag before it takes the lock to collect the handle: either it sees
        // the handle stored here, or this sees the flag.
        if !self.is_closed() {
            inner.upstream = Some(Box::new(upstream));
            return;
        }
        drop(inner);
        upstream.dispose();
    }

    /// Ends the subscription: cancels upstream and every task on the worker, and drops the
    /// downstream observer unless a deliverer holds it (which then drops it). Idempotent.
    pub(crate) fn close(&self) {
        if self.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        let (upstream, observer) = {
            let mut inner = self.inner.lock();
            (inner.upstream.take(), inner.observer.take())
        };
        if let Some(upstream) = upstream {
            upstream.dispose();
        }
        self.worker.dispose();
        // Dropped outside the lock: its `Drop` is user code.
        drop(observer);
    }

    /// Whether upstream should stop: the subscription is over, or downstream has lost
    /// interest since the last delivery (then the subscription is closed now).
    pub(crate) fn is_disposed<T>(&self) -> bool
    where
        O: Observer<T>,
    {
        if self.is_closed() {
            return true;
        }
        // A deliverer holding the lock or the observer will ask it itself when it is done.
        let unwanted = self.inner.try_lock().is_some_and(|inner| {
            inner
                .observer
                .as_ref()
                .is_some_and(Observer::<T>::is_disposed)
        });
        if unwanted {
            self.close();
        }
        unwanted
    }

    /// Updates the state under the lock, then delivers whatever is ready.
    pub(crate) fn drain_with<T>(&self, update: impl FnOnce(&mut St))
    where
        O: Observer<T>,
        St: Ready<T>,
    {
        let mut inner = self.inner.lock();
        update(&mut inner.state);
        loop {
            if inner.busy || inner.observer.is_none() {
                return;
            }
            let Some(notification) = inner.state.next_ready() else {
                return;
            };
            let Some(mut observer) = inner.observer.take() else {
                unreachable!("checked above")
            };
            inner.busy = true;
            match notification {
                Notification::Next(value) => {
                    drop(inner);
                    observer.on_next(value);
                    let unwanted = observer.is_disposed();
                    inner = self.inner.lock();
                    inner.busy = false;
                    if unwanted || self.is_closed() {
                        drop(inner);
                        drop(observer);
                        self.close();
                        return;
                    }
                    inner.observer = Some(observer);
                }
                terminal => {
                    // `busy` stays set: nothing is delivered after a terminal notification.
                    self.closed.store(true, Ordering::Release);
                    let upstream = inner.upstream.take();
                    drop(inner);
                    // Upstream is cancelled before downstream hears of the end (a timeout
                    // disposes its source, then signals the error), as RxJava orders it.
                    if let Some(upstream) = upstream {
                        upstream.dispose();
                    }
                    self.worker.dispose();
                    terminal.deliver(observer);
                    return;
                }
            }
        }
    }

    /// Delivers whatever is ready.
    pub(crate) fn drain<T>(&self)
    where
        O: Observer<T>,
        St: Ready<T>,
    {
        self.drain_with(|_| {});
    }
}

/// The handle of a subscription to a time operator: disposing it closes the [`Drain`].
impl<W: Worker, O, St> Subscription for Drain<W, O, St> {
    fn dispose(&self) {
        self.close();
    }

    fn is_disposed(&self) -> bool {
        self.is_closed()
    }
}
