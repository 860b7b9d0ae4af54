//! [`ObservableExt::as_blocking`](crate::ObservableExt::as_blocking): waiting for an
//! observable on the calling thread.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::operators::{First, Last};
use crate::primitive::{Arc, AtomicBool, Condvar, Mutex, Ordering};
use crate::subscription::Subscription;
use std::collections::VecDeque;
use std::fmt;

/// An observable seen from a thread that waits for it; built by
/// [`ObservableExt::as_blocking`](crate::ObservableExt::as_blocking).
///
/// Iterate over it (it is [`IntoIterator`]) to take the values one at a time as
/// `Result<T, rx::Error>`, or call [`subscribe`](BlockingObservable::subscribe) to run a
/// closure for each value on this thread and get the outcome as a `Result`.
///
/// Values travel from the thread that emits them to the waiting one through a queue that is
/// **unbounded**, as in RxJava's `blockingIterable` for an `Observable` (which has no
/// backpressure): a source that emits faster than the caller takes its values makes the queue
/// grow, and a synchronous source is run to its end, and queued whole, before the first value
/// is returned — so an endless synchronous source never returns one. Bound such a source
/// (with `take`, say) before blocking on it.
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "toBlocking")]
#[doc(alias = "blockingIterable")]
#[doc(alias = "blockingSubscribe")]
#[derive(Clone, Debug)]
pub struct BlockingObservable<S> {
    source: S,
}

impl<S> BlockingObservable<S> {
    pub(crate) fn new(source: S) -> Self {
        BlockingObservable { source }
    }

    /// Subscribes, runs `next` on this thread for each value, and returns once the source
    /// has terminated: `Ok(())` on completion, `Err` with its error otherwise. `next` does
    /// not need to be `Send`, and may borrow from the caller.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    /// use std::time::Duration;
    ///
    /// let mut sum = 0;
    /// let outcome = rx::source::interval(Duration::from_millis(1), NewThread)
    ///     .take(4)
    ///     .as_blocking()
    ///     .subscribe(|v| sum += v);
    /// assert!(outcome.is_ok());
    /// assert_eq!(sum, 0 + 1 + 2 + 3);
    /// ```
    ///
    /// # Errors
    ///
    /// The error the source terminated with; or, should the source drop its observer
    /// without terminating (a task that panicked on another thread, for one), an error saying
    /// so rather than a wait that never ends.
    pub fn subscribe<N>(self, mut next: N) -> Result<(), Error>
    where
        S: Subscribe<BlockingObserver<<S as Observable>::Item>>,
        N: FnMut(<S as Observable>::Item),
    {
        for value in self {
            next(value?);
        }
        Ok(())
    }
}

impl<S: Observable> BlockingObservable<S> {
    /// Subscribes, waits for the first value and returns it, disposing the subscription
    /// (RxJava's `blockingFirst`). It stops upstream after one value, so an endless source
    /// returns too.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::operators::NoElements;
    /// use rx::schedulers::NewThread;
    /// use std::time::Duration;
    ///
    /// let ticks = rx::source::interval(Duration::from_millis(1), NewThread);
    /// assert_eq!(ticks.as_blocking().first().unwrap(), 0);
    ///
    /// let none = rx::source::empty::<i32>().as_blocking().first().unwrap_err();
    /// assert!(none.downcast_ref::<NoElements>().is_some());
    /// ```
    ///
    /// # Errors
    ///
    /// [`NoElements`](crate::operators::NoElements) when the source completes empty; the
    /// source's error when it fails first.
    #[doc(alias = "blockingFirst")]
    pub fn first(self) -> Result<S::Item, Error>
    where
        First<S>: Subscribe<BlockingObserver<S::Item>> + Observable<Item = S::Item>,
    {
        let outcome = BlockingObservable::new(First::new(self.source))
            .into_iter()
            .next();
        outcome.unwrap_or_else(|| unreachable!("`first` ends with a value or an error"))
    }

    /// Subscribes, waits for the source to complete and returns its last value (RxJava's
    /// `blockingLast`). An endless source never returns.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    /// use std::time::Duration;
    ///
    /// let ticks = rx::source::interval(Duration::from_millis(1), NewThread).take(3);
    /// assert_eq!(ticks.as_blocking().last().unwrap(), 2);
    /// ```
    ///
    /// # Errors
    ///
    /// [`NoElements`](crate::operators::NoElements) when the source completes empty; the
    /// source's error when it fails.
    #[doc(alias = "blockingLast")]
    pub fn last(self) -> Result<S::Item, Error>
    where
        Last<S>: Subscribe<BlockingObserver<S::Item>> + Observable<Item = S::Item>,
    {
        let outcome = BlockingObservable::new(Last::new(self.source))
            .into_iter()
            .next();
        outcome.unwrap_or_else(|| unreachable!("`last` ends with a value or an error"))
    }
}

impl<S> IntoIterator for BlockingObservable<S>
where
    S: Subscribe<BlockingObserver<<S as Observable>::Item>>,
{
    type Item = Result<<S as Observable>::Item, Error>;
    type IntoIter = BlockingIter<<S as Observable>::Item, S::Subscription>;

    /// Subscribes, and returns an iterator that waits for each value.
    fn into_iter(self) -> Self::IntoIter {
        let channel = Arc::new(Channel {
            queue: Mutex::new(Queue {
                values: VecDeque::new(),
                end: None,
                waiting: false,
            }),
            ready: Condvar::new(),
            abandoned: AtomicBool::new(false),
        });
        let subscription = self.source.subscribe_observer(BlockingObserver {
            channel: channel.clone(),
            terminated: false,
        });
        BlockingIter {
            channel,
            subscription,
            taken: VecDeque::new(),
            finished: false,
        }
    }
}

struct Channel<T> {
    queue: Mutex<Queue<T>>,
    /// Signalled when a value or the end is queued.
    ready: Condvar,
    /// The iterator is gone: upstream should stop. Read without the lock, before each value.
    abandoned: AtomicBool,
}

struct Queue<T> {
    values: VecDeque<T>,
    /// How the sequence ended, once it has: `Ok` on completion.
    end: Option<Result<(), Error>>,
    /// The iterator is asleep on `ready`: only then is a notification worth its cost.
    waiting: bool,
}

impl<T> Channel<T> {
    fn end(&self, end: Result<(), Error>) {
        let mut queue = self.queue.lock();
        queue.end = Some(end);
        if queue.waiting {
            self.ready.notify_one();
        }
    }
}

/// The observer a [`BlockingObservable`] subscribes: queues what it receives for the waiting
/// thread.
pub struct BlockingObserver<T> {
    channel: Arc<Channel<T>>,
    terminated: bool,
}

impl<T> Observer<T> for BlockingObserver<T> {
    fn on_next(&mut self, value: T) {
        let mut queue = self.channel.queue.lock();
        queue.values.push_back(value);
        if queue.waiting {
            self.channel.ready.notify_one();
        }
    }

    fn on_error(mut self, error: Error) {
        self.terminated = true;
        self.channel.end(Err(error));
    }

    fn on_completed(mut self) {
        self.terminated = true;
        self.channel.end(Ok(()));
    }

    fn is_disposed(&self) -> bool {
        // Acquire pairs with the Release in the iterator's `drop`.
        self.channel.abandoned.load(Ordering::Acquire)
    }
}

/// Dropped without a terminal notification: wake the waiting thread rather than leave it
/// waiting forever.
impl<T> Drop for BlockingObserver<T> {
    fn drop(&mut self) {
        if !self.terminated && !self.is_disposed() {
            self.channel.end(Err(Error::msg(
                "the observable dropped its observer without terminating",
            )));
        }
    }
}

impl<T> fmt::Debug for BlockingObserver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockingObserver").finish_non_exhaustive()
    }
}

/// The iterator over a [`BlockingObservable`]: each `next` waits for a value. It yields
/// `Ok(value)` for each value, then ends on completion, or yields one `Err` and ends on an
/// error. Dropping it disposes the subscription.
pub struct BlockingIter<T, U: Subscription> {
    channel: Arc<Channel<T>>,
    subscription: U,
    /// Values taken from the shared queue in one batch, so the emitting thread and this one
    /// meet on the lock once per batch rather than once per value.
    taken: VecDeque<T>,
    finished: bool,
}

impl<T, U: Subscription> Iterator for BlockingIter<T, U> {
    type Item = Result<T, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(value) = self.taken.pop_front() {
            return Some(Ok(value));
        }
        if self.finished {
            return None;
        }
        let mut queue = self.channel.queue.lock();
        loop {
            if !queue.values.is_empty() {
                // The emptied buffer goes back, so neither side allocates once warmed up.
                std::mem::swap(&mut queue.values, &mut self.taken);
                drop(queue);
                return self.taken.pop_front().map(Ok);
            }
            if let Some(end) = queue.end.take() {
                self.finished = true;
                return end.err().map(Err);
            }
            queue.waiting = true;
            self.channel.ready.wait(&mut queue);
            queue.waiting = false;
        }
    }
}

impl<T, U: Subscription> Drop for BlockingIter<T, U> {
    fn drop(&mut self) {
        self.channel.abandoned.store(true, Ordering::Release);
        self.subscription.dispose();
        // What was queued and not taken goes now, not when upstream lets go of its observer.
        let values = std::mem::take(&mut self.channel.queue.lock().values);
        drop(values);
        self.taken.clear();
    }
}

impl<T, U: Subscription> fmt::Debug for BlockingIter<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockingIter")
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::prelude::*;
    use crate::schedulers::{NewThread, TestScheduler};
    use crate::source::{empty, from_iter, interval, throw, timer};
    use std::time::Duration;

    #[test]
    fn first_stops_an_endless_synchronous_source() {
        assert_eq!(from_iter(5..).as_blocking().first().unwrap(), 5);
    }

    #[test]
    fn first_and_last_report_an_empty_source_and_an_error() {
        let empty_first = empty::<i32>().as_blocking().first().unwrap_err();
        assert!(
            empty_first
                .downcast_ref::<crate::operators::NoElements>()
                .is_some()
        );
        let empty_last = empty::<i32>().as_blocking().last().unwrap_err();
        assert!(
            empty_last
                .downcast_ref::<crate::operators::NoElements>()
                .is_some()
        );
        let failed = throw::<i32>(Error::msg("bad")).as_blocking().first();
        assert_eq!(failed.unwrap_err().to_string(), "bad");
        let failed_late = from_iter([1, 2])
            .concat_with(throw(Error::msg("late")))
            .as_blocking()
            .last();
        assert_eq!(failed_late.unwrap_err().to_string(), "late");
    }

    #[test]
    fn last_waits_for_completion_on_another_thread() {
        let last = interval(Duration::from_millis(1), NewThread)
            .take(5)
            .as_blocking()
            .last();
        assert_eq!(last.unwrap(), 4);
    }

    #[test]
    fn iterates_a_synchronous_source() {
        let values: Vec<_> = from_iter([1, 2, 3]).as_blocking().into_iter().collect();
        assert_eq!(values, [Ok(1), Ok(2), Ok(3)]);
    }

    #[test]
    fn an_error_is_the_last_item() {
        let mut items = from_iter([Ok(1), Err(Error::msg("bad")), Ok(3)])
            .try_map(|r| r)
            .as_blocking()
            .into_iter();
        assert_eq!(items.next(), Some(Ok(1)));
        assert_eq!(items.next(), Some(Err(Error::msg("bad"))));
        assert_eq!(items.next(), None);
        assert_eq!(items.next(), None);
    }

    #[test]
    fn subscribe_returns_the_outcome() {
        let mut seen = Vec::new();
        assert_eq!(
            from_iter([1, 2]).as_blocking().subscribe(|v| seen.push(v)),
            Ok(())
        );
        assert_eq!(seen, [1, 2]);
        assert_eq!(empty::<i32>().as_blocking().subscribe(|_| {}), Ok(()));
        let outcome = throw::<i32>(Error::msg("bad"))
            .as_blocking()
            .subscribe(|_| {});
        assert_eq!(outcome, Err(Error::msg("bad")));
    }

    #[test]
    fn waits_for_values_from_another_thread() {
        let values: Vec<_> = interval(Duration::from_millis(1), NewThread)
            .take(5)
            .as_blocking()
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(values, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn dropping_the_iterator_stops_the_source() {
        let mut items = interval(Duration::from_millis(1), NewThread)
            .as_blocking()
            .into_iter();
        assert_eq!(items.next(), Some(Ok(0)));
        assert_eq!(items.next(), Some(Ok(1)));
        drop(items);
    }

    #[test]
    fn a_dropped_observer_ends_the_wait_with_an_error() {
        // The scheduler is dropped with the timer still pending: nothing can run it any more,
        // so its observer is dropped without a terminal notification.
        let sch = TestScheduler::new();
        let items = timer(Duration::from_secs(1), sch.clone())
            .as_blocking()
            .into_iter();
        drop(sch);
        let items: Vec<_> = items.collect();
        assert_eq!(
            items,
            [Err(Error::msg(
                "the observable dropped its observer without terminating"
            ))]
        );
    }
}
