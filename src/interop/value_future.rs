//! What [`FirstValue`](super::FirstValue) and [`LastValue`](super::LastValue) share: a slot
//! for one outcome between an observer and the future that waits for it.
//!
//! One lock guards the outcome and the waiting future's waker; as for `into_stream`, the
//! future checks the outcome and stores its waker under the lock the observer sets the
//! outcome under, so the wake cannot be lost.

use crate::Error;
use crate::primitive::{Arc, AtomicBool, Mutex, Ordering};
use crate::subscription::Subscription;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

pub(crate) struct Slot<T> {
    state: Mutex<SlotState<T>>,
    /// The future is gone: upstream should stop. Read without the lock by the observer's
    /// `is_disposed`.
    closed: AtomicBool,
}

struct SlotState<T> {
    outcome: Option<Result<T, Error>>,
    waker: Option<Waker>,
}

impl<T> Slot<T> {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Slot {
            state: Mutex::new(SlotState {
                outcome: None,
                waker: None,
            }),
            closed: AtomicBool::new(false),
        })
    }

    /// Stores the outcome and wakes the future. Called once, by the observer.
    pub(crate) fn set(&self, outcome: Result<T, Error>) {
        let mut state = self.state.lock();
        // A future dropped meanwhile will never take it; drop it here, outside the lock.
        let rejected = if self.closed.load(Ordering::Acquire) {
            Some(outcome)
        } else {
            state.outcome = Some(outcome);
            None
        };
        let waker = state.waker.take();
        drop(state);
        drop(rejected);
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    pub(crate) fn is_closed(&self) -> bool {
        // Acquire pairs with the Release in `close`.
        self.closed.load(Ordering::Acquire)
    }

    fn poll(&self, cx: &mut Context<'_>) -> Poll<Result<T, Error>> {
        let mut state = self.state.lock();
        if let Some(outcome) = state.outcome.take() {
            return Poll::Ready(outcome);
        }
        if !state
            .waker
            .as_ref()
            .is_some_and(|waker| waker.will_wake(cx.waker()))
        {
            state.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }

    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        let outcome = self.state.lock().outcome.take();
        drop(outcome);
    }
}

/// The outcome a slot ends with when the observer is dropped without a terminal
/// notification, so that the future does not wait forever.
pub(crate) fn dropped_observer() -> Error {
    Error::msg("the observable dropped its observer without terminating")
}

/// A future for the outcome in a slot, holding the subscription that fills it.
pub(crate) struct ValueFuture<T, U: Subscription> {
    slot: Arc<Slot<T>>,
    subscription: U,
    done: bool,
    /// For the message of the panic when polled after completion.
    name: &'static str,
}

impl<T, U: Subscription> ValueFuture<T, U> {
    /// Subscribes with `subscribe`, which builds the observer around the slot.
    pub(crate) fn new(name: &'static str, subscribe: impl FnOnce(Arc<Slot<T>>) -> U) -> Self {
        let slot = Slot::new();
        let subscription = subscribe(slot.clone());
        ValueFuture {
            slot,
            subscription,
            done: false,
            name,
        }
    }

    pub(crate) fn is_done(&self) -> bool {
        self.done
    }
}

impl<T, U: Subscription> Future for ValueFuture<T, U> {
    type Output = Result<T, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        assert!(!this.done, "`{}` polled after completion", this.name);
        let outcome = std::task::ready!(this.slot.poll(cx));
        this.done = true;
        // Upstream may still be running (after a first value, say): stop it now rather than
        // when its next value finds the observer disposed.
        this.subscription.dispose();
        Poll::Ready(outcome)
    }
}

// Nothing is pinned through the future.
impl<T, U: Subscription> Unpin for ValueFuture<T, U> {}

impl<T, U: Subscription> Drop for ValueFuture<T, U> {
    fn drop(&mut self) {
        self.slot.close();
        self.subscription.dispose();
    }
}
