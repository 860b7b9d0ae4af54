//! Sources for the tests of `retry` and `repeat`.

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
