//! What the unit tests of the merge family share: a hand-driven hot source.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Subscription;
use std::sync::{Arc, Mutex, Weak};

/// A log of `"subscribe x"` / `"dispose x"` events, shared by several [`Hot`] sources.
pub(crate) type Log = Arc<Mutex<Vec<String>>>;

/// A hot source driven by hand: what [`next`](Hot::next) pushes reaches every current
/// subscriber. It logs each subscription and each disposal, and delivers with no lock
/// held, so a subscriber may push into another `Hot` (or dispose) from inside `on_next`.
pub(crate) struct Hot<T> {
    shared: Arc<Shared<T>>,
}

type Entry<T> = (u64, Box<dyn crate::observer::DynObserver<T> + Send>);

struct Shared<T> {
    name: &'static str,
    log: Log,
    state: Mutex<State<T>>,
}

struct State<T> {
    next_id: u64,
    observers: Vec<Entry<T>>,
    /// Ids disposed while their observers were out being delivered to.
    removed: Vec<u64>,
}

impl<T> Clone for Hot<T> {
    fn clone(&self) -> Self {
        Hot {
            shared: self.shared.clone(),
        }
    }
}

impl<T> Hot<T> {
    pub(crate) fn new(name: &'static str, log: &Log) -> Self {
        Hot {
            shared: Arc::new(Shared {
                name,
                log: log.clone(),
                state: Mutex::new(State {
                    next_id: 0,
                    observers: Vec::new(),
                    removed: Vec::new(),
                }),
            }),
        }
    }

    pub(crate) fn subscribers(&self) -> usize {
        self.shared.state.lock().unwrap().observers.len()
    }

    fn take(&self) -> Vec<Entry<T>> {
        std::mem::take(&mut self.shared.state.lock().unwrap().observers)
    }

    pub(crate) fn next(&self, value: T)
    where
        T: Clone,
    {
        let mut taken = self.take();
        for (_, observer) in &mut taken {
            if !observer.is_disposed() {
                observer.on_next(value.clone());
            }
        }
        let mut state = self.shared.state.lock().unwrap();
        let removed = std::mem::take(&mut state.removed);
        taken.retain(|(id, _)| !removed.contains(id));
        taken.append(&mut state.observers);
        state.observers = taken;
    }

    pub(crate) fn complete(&self) {
        for (_, observer) in self.take() {
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
    }

    pub(crate) fn error(&self, error: &str) {
        for (_, observer) in self.take() {
            if !observer.is_disposed() {
                observer.on_error(Error::msg(error));
            }
        }
    }
}

impl<T> Observable for Hot<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
}

impl<T: 'static, O> Subscribe<O> for Hot<T>
where
    O: Observer<T> + Send + 'static,
{
    type Subscription = HotHandle<T>;

    fn subscribe_observer(self, observer: O) -> HotHandle<T> {
        let name = self.shared.name;
        self.shared
            .log
            .lock()
            .unwrap()
            .push(format!("subscribe {name}"));
        let mut state = self.shared.state.lock().unwrap();
        let id = state.next_id;
        state.next_id += 1;
        state.observers.push((id, Box::new(observer)));
        HotHandle {
            shared: Arc::downgrade(&self.shared),
            id,
        }
    }
}

/// The handle of a [`Hot`] subscription.
pub(crate) struct HotHandle<T> {
    shared: Weak<Shared<T>>,
    id: u64,
}

impl<T> Subscription for HotHandle<T> {
    fn dispose(&self) {
        let Some(shared) = self.shared.upgrade() else {
            return;
        };
        let removed = {
            let mut state = shared.state.lock().unwrap();
            match state.observers.iter().position(|(id, _)| *id == self.id) {
                Some(i) => Some(state.observers.remove(i)),
                None => {
                    state.removed.push(self.id);
                    None
                }
            }
        };
        drop(removed);
        shared
            .log
            .lock()
            .unwrap()
            .push(format!("dispose {}", shared.name));
    }

    fn is_disposed(&self) -> bool {
        self.shared.upgrade().is_none_or(|shared| {
            !shared
                .state
                .lock()
                .unwrap()
                .observers
                .iter()
                .any(|(id, _)| *id == self.id)
        })
    }
}

/// The events logged so far, and clears the log.
pub(crate) fn drain(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}
