//! Bounded hand-offs: how many values may wait between a producer and a slower consumer, and
//! what happens to the next one when that many wait.
//!
//! Rx has no backpressure: [`observe_on`](crate::ObservableExt::observe_on) and
//! [`into_stream`] queue whatever the consumer has not
//! taken yet, however much that is. Their bounded forms,
//! [`observe_on_bounded`](crate::ObservableExt::observe_on_bounded) and
//! [`into_stream_bounded`], take a [`Bounded`]:
//! a capacity, an [`Overflow`] strategy for a value that arrives while the buffer is full,
//! and an optional callback that receives every value the strategy drops.
//!
//! | strategy | when full | RxJava |
//! |---|---|---|
//! | [`Overflow::Block`] (the default) | the producer waits for room; nothing is lost | `onBackpressureBuffer` over a blocking queue |
//! | [`Overflow::DropNewest`] | the arriving value is dropped | `onBackpressureDrop` |
//! | [`Overflow::DropOldest`] | the oldest waiting value is dropped | `onBackpressureBuffer(n, .., DROP_OLDEST)` |
//! | [`Overflow::KeepLatest`] | the arriving value replaces the newest waiting one | `onBackpressureLatest` |
//! | [`Overflow::Error`] | the sequence fails with [`BufferOverflow`], upstream is disposed | `onBackpressureBuffer(n)` |
//!
//! ```
//! use rx::backpressure::{Bounded, Overflow};
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::TestObserver;
//! use std::sync::{Arc, Mutex};
//!
//! let sch = TestScheduler::new();
//! let dropped = Arc::new(Mutex::new(Vec::new()));
//! let log = dropped.clone();
//! let o = TestObserver::new();
//! let handle = rx::source::from_iter(0..10)
//!     .observe_on_bounded(
//!         sch.clone(),
//!         Bounded::new(4)
//!             .on_full(Overflow::DropOldest)
//!             .on_drop(move |v| log.lock().unwrap().push(v)),
//!     )
//!     .subscribe_observer(o.clone());
//! sch.run();
//! o.assert_values(&[6, 7, 8, 9]);
//! assert_eq!(*dropped.lock().unwrap(), [0, 1, 2, 3, 4, 5]);
//! assert_eq!((handle.dropped(), handle.peak_queued()), (6, 4));
//! ```

#![cfg_attr(
    feature = "stream",
    doc = "\n[`into_stream`]: crate::ObservableExt::into_stream\n\
           [`into_stream_bounded`]: crate::ObservableExt::into_stream_bounded"
)]
// Without the `stream` feature the methods are not compiled: the links go to their trait.
#![cfg_attr(
    not(feature = "stream"),
    doc = "\n[`into_stream`]: crate::ObservableExt\n[`into_stream_bounded`]: crate::ObservableExt"
)]

use std::collections::VecDeque;
use std::fmt;
use std::thread::{self, Thread, ThreadId};

/// What a bounded hand-off does with a value that arrives while its buffer is full.
///
/// Every value a strategy drops goes to the [`on_drop`](Bounded::on_drop) callback, if there
/// is one, and is counted in the handle's `dropped()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Overflow {
    /// The producer waits until the consumer has taken values: nothing is lost, the order is
    /// kept, and memory stays bounded. The waiting thread yields a few times, retrying, then
    /// parks, and is woken when half the buffer is free, so a fast producer is woken once per
    /// half-buffer rather than once per value.
    ///
    /// A producer on the consumer's own thread would wait forever, since the consumer can only
    /// run once it returns. The hand-off recognises that thread and fails with
    /// [`WouldDeadlock`] instead (after the values queued), disposing upstream; the value that
    /// did not fit goes to `on_drop`. See each operator for how it knows the thread.
    ///
    /// ```text
    /// source:            -0-1-2-3-4-5-|        (faster than the consumer)
    /// Block, capacity 2: -0-1-----2-3---4-5-|  (the producer waits while two values wait)
    /// ```
    #[default]
    #[doc(alias = "BUFFER")]
    Block,
    /// The value that arrives is dropped; the values waiting are kept.
    ///
    /// ```text
    /// burst:                  0 1 2 3 4 5 6 7 8 9   (before the consumer runs)
    /// DropNewest, capacity 4: 0 1 2 3               (dropped: 4 5 6 7 8 9)
    /// ```
    #[doc(alias = "onBackpressureDrop")]
    #[doc(alias = "DROP_LATEST")]
    DropNewest,
    /// The oldest waiting value is dropped to make room for the one that arrives: the buffer
    /// holds the most recent values.
    ///
    /// ```text
    /// burst:                  0 1 2 3 4 5 6 7 8 9
    /// DropOldest, capacity 4:             6 7 8 9   (dropped: 0 1 2 3 4 5)
    /// ```
    #[doc(alias = "DROP_OLDEST")]
    DropOldest,
    /// The value that arrives replaces the newest waiting one: the values that waited first
    /// are kept, and the last slot always holds the latest value, which is never lost.
    /// (RxJava's `onBackpressureLatest` keeps one latest value behind its consumer's buffer;
    /// here that slot is the last of the capacity.)
    ///
    /// ```text
    /// burst:                  0 1 2 3 4 5 6 7 8 9
    /// KeepLatest, capacity 4: 0 1 2             9   (dropped: 3 4 5 6 7 8)
    /// ```
    #[doc(alias = "onBackpressureLatest")]
    KeepLatest,
    /// The value that arrives is dropped, upstream is disposed, and the sequence ends, after
    /// the values waiting, with a [`BufferOverflow`] error.
    ///
    /// ```text
    /// burst:             0 1 2 3 4 5 6 7 8 9
    /// Error, capacity 4: 0 1 2 3 #BufferOverflow   (dropped: 4; upstream disposed)
    /// ```
    #[doc(alias = "MissingBackpressureException")]
    #[doc(alias = "ERROR")]
    Error,
}

/// A bound on a hand-off between threads: a capacity, what to do when it is full, and a
/// callback for the values dropped. Built with [`Bounded::new`]; taken by
/// [`observe_on_bounded`](crate::ObservableExt::observe_on_bounded) and
/// [`into_stream_bounded`].
///
///
/// ```
/// use rx::backpressure::{Bounded, Overflow};
///
/// let lossless = Bounded::<u64>::new(1024); // blocks the producer when full
/// let lossy = Bounded::<u64>::new(64)
///     .on_full(Overflow::DropNewest)
///     .on_drop(|v| eprintln!("dropped {v}"));
/// assert_eq!((lossless.capacity(), lossless.overflow()), (1024, Overflow::Block));
/// assert_eq!((lossy.capacity(), lossy.overflow()), (64, Overflow::DropNewest));
/// ```
#[doc(alias = "onBackpressureBuffer")]
#[doc(alias = "BackpressureStrategy")]
#[cfg_attr(
    feature = "stream",
    doc = "\n[`into_stream_bounded`]: crate::ObservableExt::into_stream_bounded"
)]
// Without the `stream` feature the method is not compiled: the link goes to its trait.
#[cfg_attr(
    not(feature = "stream"),
    doc = "\n[`into_stream_bounded`]: crate::ObservableExt"
)]
pub struct Bounded<T> {
    capacity: usize,
    overflow: Overflow,
    on_drop: Dropped<T>,
}

impl<T> Bounded<T> {
    /// A bound of `capacity` values that blocks the producer when full ([`Overflow::Block`]).
    ///
    /// # Panics
    ///
    /// When `capacity` is zero.
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "Bounded: the capacity must be at least 1");
        Bounded {
            capacity,
            overflow: Overflow::Block,
            on_drop: Dropped::none(),
        }
    }

    /// What to do with a value that arrives while the buffer is full.
    pub fn on_full(mut self, overflow: Overflow) -> Self {
        self.overflow = overflow;
        self
    }

    /// Calls `f` with every value that is not delivered because the buffer was full, on the
    /// producer's thread, one at a time, with no lock held.
    pub fn on_drop(mut self, f: impl FnMut(T) + Send + 'static) -> Self {
        self.on_drop = Dropped(Some(std::sync::Mutex::new(Box::new(f))));
        self
    }

    /// The most values that wait at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The strategy for a full buffer.
    pub fn overflow(&self) -> Overflow {
        self.overflow
    }

    pub(crate) fn into_parts(self) -> (BoundedQueue<T>, Dropped<T>) {
        (
            BoundedQueue::new(self.capacity, self.overflow),
            self.on_drop,
        )
    }
}

impl<T> fmt::Debug for Bounded<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bounded")
            .field("capacity", &self.capacity)
            .field("overflow", &self.overflow)
            .field("on_drop", &self.on_drop.0.is_some())
            .finish()
    }
}

/// The error that ends a bounded hand-off under [`Overflow::Error`] when a value arrives
/// while its buffer is full: the consumer fell behind a source that cannot wait (RxJava's
/// `MissingBackpressureException`). Downcast it from [`rx::Error`](crate::Error).
///
/// # Examples
///
/// ```
/// use rx::backpressure::{BufferOverflow, Bounded, Overflow};
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::TestObserver;
///
/// let sch = TestScheduler::new();
/// let o = TestObserver::new();
/// rx::source::from_iter(0..)
///     .observe_on_bounded(sch.clone(), Bounded::new(2).on_full(Overflow::Error))
///     .subscribe_observer(o.clone());
/// sch.run();
/// o.assert_values(&[0, 1]);
/// let error = o.error().unwrap();
/// assert_eq!(error.downcast_ref::<BufferOverflow>().unwrap().capacity(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[doc(alias = "MissingBackpressureException")]
pub struct BufferOverflow {
    pub(crate) capacity: usize,
}

impl BufferOverflow {
    /// The capacity of the buffer that overflowed.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

impl fmt::Display for BufferOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a value arrived while the buffer held its capacity of {} values",
            self.capacity
        )
    }
}

impl std::error::Error for BufferOverflow {}

/// The error that ends a bounded hand-off under [`Overflow::Block`] when the producer would
/// wait on the consumer's own thread, where the consumer cannot run until the producer
/// returns: a deadlock, refused. Upstream is disposed. Move the producer to another thread
/// (`subscribe_on`), or choose a strategy that does not wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WouldDeadlock {
    pub(crate) capacity: usize,
}

impl WouldDeadlock {
    /// The capacity of the buffer that was full.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

impl fmt::Display for WouldDeadlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the buffer held its capacity of {} values and the producer runs on the consumer's \
             thread: blocking it would deadlock",
            self.capacity
        )
    }
}

impl std::error::Error for WouldDeadlock {}

/// The `on_drop` callback, kept by the producer's side. In a mutex only so that the observer
/// holding it is `Sync`, as observers are; it is only ever called through `&mut`, which
/// takes no lock.
pub(crate) struct Dropped<T>(Option<std::sync::Mutex<OnDrop<T>>>);

type OnDrop<T> = Box<dyn FnMut(T) + Send>;

impl<T> Dropped<T> {
    /// No callback: dropped values are just dropped.
    pub(crate) const fn none() -> Self {
        Dropped(None)
    }

    /// Hands `value` to the callback, or drops it.
    pub(crate) fn report(&mut self, value: T) {
        match &mut self.0 {
            Some(f) => (f.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()))(value),
            None => drop(value),
        }
    }
}

/// What [`BoundedQueue::offer`] did with a value.
pub(crate) enum Offer<T> {
    /// Queued.
    Queued,
    /// Queued, and this value was dropped to make room, or is the value itself, dropped.
    Dropped(T),
    /// Not queued; the hand-off must end with [`BufferOverflow`].
    Overflowed(T),
    /// Not queued; the producer is registered to be woken, and waits before offering it
    /// again. `consumer_known`: the consumer's thread is known (and is not this one).
    Full { value: T, consumer_known: bool },
    /// Not queued; the hand-off must end with [`WouldDeadlock`].
    WouldDeadlock(T),
}

/// The values waiting in a hand-off, with its bound and strategy and what the hand-off counts
/// (the high-water mark, the values dropped). Kept under the hand-off's lock.
pub(crate) struct BoundedQueue<T> {
    values: VecDeque<T>,
    /// `usize::MAX` when unbounded.
    capacity: usize,
    overflow: Overflow,
    peak: usize,
    dropped: u64,
    /// The producers waiting for room (more than one only for a merge of several threads).
    waiters: Vec<Thread>,
    /// The thread the consumer last ran on, where known.
    pub(crate) consumer: Option<ThreadId>,
}

impl<T> BoundedQueue<T> {
    pub(crate) fn new(capacity: usize, overflow: Overflow) -> Self {
        BoundedQueue {
            values: VecDeque::new(),
            capacity,
            overflow,
            peak: 0,
            dropped: 0,
            waiters: Vec::new(),
            consumer: None,
        }
    }

    #[cfg(feature = "stream")]
    pub(crate) fn unbounded() -> Self {
        Self::new(usize::MAX, Overflow::Block)
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    #[cfg(feature = "stream")]
    pub(crate) fn overflow(&self) -> Overflow {
        self.overflow
    }

    #[cfg(feature = "stream")]
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub(crate) fn stats(&self) -> QueueStats {
        QueueStats {
            queued: self.values.len(),
            peak: self.peak,
            dropped: self.dropped,
        }
    }

    /// Queues `value` if there is room, or applies the strategy.
    #[inline]
    pub(crate) fn offer(&mut self, value: T) -> Offer<T> {
        if self.values.len() < self.capacity {
            self.values.push_back(value);
            self.peak = self.peak.max(self.values.len());
            return Offer::Queued;
        }
        self.full(value)
    }

    #[cold]
    fn full(&mut self, value: T) -> Offer<T> {
        match self.overflow {
            Overflow::Block => {
                let here = thread::current();
                match self.consumer {
                    Some(consumer) if consumer == here.id() => {
                        self.dropped += 1;
                        Offer::WouldDeadlock(value)
                    }
                    consumer => {
                        if !self.waiters.iter().any(|waiter| waiter.id() == here.id()) {
                            self.waiters.push(here);
                        }
                        Offer::Full {
                            value,
                            consumer_known: consumer.is_some(),
                        }
                    }
                }
            }
            Overflow::DropNewest => {
                self.dropped += 1;
                Offer::Dropped(value)
            }
            Overflow::DropOldest => {
                self.dropped += 1;
                let oldest = self.values.pop_front();
                self.values.push_back(value);
                match oldest {
                    Some(oldest) => Offer::Dropped(oldest),
                    None => unreachable!("a full buffer holds at least one value"),
                }
            }
            Overflow::KeepLatest => {
                self.dropped += 1;
                match self.values.back_mut() {
                    Some(newest) => Offer::Dropped(std::mem::replace(newest, value)),
                    None => unreachable!("a full buffer holds at least one value"),
                }
            }
            Overflow::Error => {
                self.dropped += 1;
                Offer::Overflowed(value)
            }
        }
    }

    /// Counts a value that was given up on after [`Offer::Full`] (the grace for an unknown
    /// consumer ran out).
    pub(crate) fn count_dropped(&mut self) {
        self.dropped += 1;
    }

    /// Takes the oldest value; wakes the waiting producers once half the buffer is free.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<T> {
        let value = self.values.pop_front();
        if !self.waiters.is_empty() && self.values.len() <= self.capacity / 2 {
            self.wake();
        }
        value
    }

    /// Takes every value, for dropping outside the lock.
    pub(crate) fn take_all(&mut self) -> VecDeque<T> {
        std::mem::take(&mut self.values)
    }

    /// Wakes the waiting producers, if any: there is room, or the hand-off is over.
    pub(crate) fn wake(&mut self) {
        for waiter in self.waiters.drain(..) {
            waiter.unpark();
        }
    }
}

/// What the handle of a bounded hand-off reaches of its shared state, erased.
pub(crate) trait QueueHandle: Send + Sync {
    fn dispose(&self);
    fn is_disposed(&self) -> bool;
    fn stats(&self) -> QueueStats;
}

/// The counts of a bounded hand-off, read from its handle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct QueueStats {
    pub(crate) queued: usize,
    pub(crate) peak: usize,
    pub(crate) dropped: u64,
}

#[cfg(test)]
mod tests {
    use super::{BoundedQueue, Offer, Overflow};

    fn burst(overflow: Overflow) -> (Vec<i32>, Vec<i32>) {
        let mut queue = BoundedQueue::new(4, overflow);
        let mut dropped = Vec::new();
        for v in 0..10 {
            match queue.offer(v) {
                Offer::Queued => {}
                Offer::Dropped(d) | Offer::Overflowed(d) => dropped.push(d),
                Offer::Full { .. } | Offer::WouldDeadlock(_) => unreachable!(),
            }
        }
        assert_eq!(queue.stats().dropped, dropped.len() as u64);
        assert_eq!(queue.stats().peak, 4);
        (std::iter::from_fn(|| queue.pop()).collect(), dropped)
    }

    #[test]
    fn each_strategy_drops_what_its_marble_says() {
        assert_eq!(
            burst(Overflow::DropNewest),
            (vec![0, 1, 2, 3], vec![4, 5, 6, 7, 8, 9])
        );
        assert_eq!(
            burst(Overflow::DropOldest),
            (vec![6, 7, 8, 9], vec![0, 1, 2, 3, 4, 5])
        );
        assert_eq!(
            burst(Overflow::KeepLatest),
            (vec![0, 1, 2, 9], vec![3, 4, 5, 6, 7, 8])
        );
        // Under `Error` the hand-off ends at the first overflow; the queue only reports each.
        assert_eq!(burst(Overflow::Error).1, vec![4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn block_on_the_consumer_thread_is_refused_and_elsewhere_waits() {
        let mut queue = BoundedQueue::new(1, Overflow::Block);
        assert!(matches!(queue.offer(0), Offer::Queued));
        assert!(matches!(
            queue.offer(1),
            Offer::Full {
                value: 1,
                consumer_known: false
            }
        ));
        queue.consumer = Some(std::thread::current().id());
        assert!(matches!(queue.offer(2), Offer::WouldDeadlock(2)));
        assert_eq!(queue.stats().dropped, 1);
    }
}
