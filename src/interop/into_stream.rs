//! [`ObservableExt::into_stream`](crate::ObservableExt::into_stream) and
//! [`into_stream_bounded`](crate::ObservableExt::into_stream_bounded): an observable seen as
//! a [`Stream`].
//!
//! # Algorithm
//!
//! One lock guards the queue of values, the end of the sequence and the consumer's waker.
//! The observer pushes under the lock and takes the waker; the stream pops under the lock
//! and, finding nothing, stores its waker before releasing it. Since the check and the
//! registration happen under the lock the producer pushes under, a value can never land
//! between them unseen: no wake-up is lost. The producer wakes only after releasing the
//! lock, and takes the waker, so a burst of values costs one wake until the consumer polls
//! again.
//!
//! A bounded stream keeps its values in a [`BoundedQueue`], which applies the bound's
//! [`Overflow`] strategy. Under [`Overflow::Block`] a producer that finds the queue full
//! registers its thread under the lock, wakes the consumer, and parks (after yielding its
//! thread a few times, retrying); the consumer's poll
//! unparks it, under the same lock, once half the queue is free, and dropping the stream
//! unparks it too. The consumer's thread is the thread of its last poll, and while the stream
//! is being created it is the creating thread (nothing can poll a stream that does not exist
//! yet): a producer that would block on it is refused with [`WouldDeadlock`].

use crate::Error;
use crate::backpressure::{
    Bounded, BoundedQueue, BufferOverflow, Dropped, Offer, Overflow, WouldDeadlock,
};
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, Mutex, Ordering};
use crate::subscription::Subscription;
use futures_core::{FusedStream, Stream};
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// How many times a producer that found the buffer full yields its thread before it parks.
const YIELDS_BEFORE_PARKING: u32 = 8;

/// An observable's values as a [`Stream`]; built by
/// [`ObservableExt::into_stream`](crate::ObservableExt::into_stream) and
/// [`into_stream_bounded`](crate::ObservableExt::into_stream_bounded).
///
/// It yields `Ok(value)` for each value and ends on completion, or yields one `Err` and ends
/// on an error. The subscription is made when the stream is created, and values that arrive
/// before the consumer polls wait in its buffer. Dropping the stream disposes the
/// subscription and drops what is buffered.
#[must_use = "dropping the stream disposes its subscription"]
#[doc(alias = "toFlowable")]
#[doc(alias = "AsyncIterable")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub struct IntoStream<T, U: Subscription> {
    channel: Arc<Channel<T>>,
    subscription: U,
    done: bool,
}

impl<T, U: Subscription> IntoStream<T, U> {
    /// Subscribes `source` with an observer that buffers values within `bound` (`None`: no
    /// limit).
    pub(crate) fn new<S>(source: S, bound: Option<Bounded<T>>) -> Self
    where
        S: crate::Subscribe<StreamObserver<T>, Subscription = U>,
    {
        let (mut values, dropped) = match bound {
            Some(bound) => bound.into_parts(),
            None => (BoundedQueue::unbounded(), Dropped::none()),
        };
        let blocks = values.capacity() != usize::MAX && values.overflow() == Overflow::Block;
        if blocks {
            values.consumer = Some(std::thread::current().id());
        }
        let channel = Arc::new(Channel {
            state: Mutex::new(State {
                values,
                end: None,
                waker: None,
            }),
            blocks,
            closed: AtomicBool::new(false),
        });
        let subscription = source.subscribe_observer(StreamObserver {
            channel: channel.clone(),
            dropped,
            finished: false,
        });
        if blocks {
            // Created: the consumer's thread is now whichever polls.
            channel.state.lock().values.consumer = None;
        }
        IntoStream {
            channel,
            subscription,
            done: false,
        }
    }
}

impl<T, U: Subscription> Stream for IntoStream<T, U> {
    type Item = Result<T, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let mut state = this.channel.state.lock();
        if this.channel.blocks {
            state.values.consumer = Some(std::thread::current().id());
        }
        if let Some(value) = state.values.pop() {
            return Poll::Ready(Some(Ok(value)));
        }
        if let Some(end) = state.end.take() {
            drop(state);
            this.done = true;
            // After an overflow upstream may still be running; after a terminal notification
            // this only releases what the handle holds.
            this.subscription.dispose();
            return Poll::Ready(end.err().map(Err));
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            return (0, Some(0));
        }
        let state = self.channel.state.lock();
        let error = usize::from(matches!(state.end, Some(Err(_))));
        let buffered = state.values.len().saturating_add(error);
        let upper = state.end.is_some().then_some(buffered);
        (buffered, upper)
    }
}

impl<T, U: Subscription> FusedStream for IntoStream<T, U> {
    fn is_terminated(&self) -> bool {
        self.done
    }
}

// Nothing is ever pinned through the stream: the subscription and the channel are moved
// freely, so the stream is `Unpin` whatever they are, and `StreamExt::next` needs no pinning.
impl<T, U: Subscription> Unpin for IntoStream<T, U> {}

impl<T, U: Subscription> Drop for IntoStream<T, U> {
    fn drop(&mut self) {
        // Release pairs with the Acquire in the observer's `is_disposed`.
        self.channel.closed.store(true, Ordering::Release);
        self.subscription.dispose();
        // What was buffered and not taken goes now, not when upstream lets go of its
        // observer; and outside the lock, since a value's destructor may do anything.
        let values = {
            let mut state = self.channel.state.lock();
            state.values.wake();
            state.values.take_all()
        };
        drop(values);
    }
}

impl<T, U: Subscription> fmt::Debug for IntoStream<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntoStream")
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

struct Channel<T> {
    state: Mutex<State<T>>,
    /// Bounded under `Overflow::Block`: polls note the consumer's thread.
    blocks: bool,
    /// The stream is gone: upstream should stop. Read without the lock, before each value.
    closed: AtomicBool,
}

struct State<T> {
    values: BoundedQueue<T>,
    /// How the sequence ended, once it has: `Ok` on completion.
    end: Option<Result<(), Error>>,
    /// The consumer's waker, taken by the producer that wakes it.
    waker: Option<Waker>,
}

impl<T> Channel<T> {
    fn end(&self, end: Result<(), Error>) {
        let mut state = self.state.lock();
        state.end = Some(end);
        let waker = state.waker.take();
        drop(state);
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// The observer an [`IntoStream`] subscribes: buffers what it receives for the stream.
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub struct StreamObserver<T> {
    channel: Arc<Channel<T>>,
    /// The bound's `on_drop` callback.
    dropped: Dropped<T>,
    /// Terminated, or overflowed: nothing more is taken.
    finished: bool,
}

impl<T> Observer<T> for StreamObserver<T> {
    fn on_next(&mut self, value: T) {
        if self.is_disposed() {
            return;
        }
        let mut value = value;
        let mut yields = 0;
        loop {
            let mut state = self.channel.state.lock();
            // Checked again under the lock: a stream dropped meanwhile has drained the buffer
            // already, and nothing must be left in it.
            if self.channel.closed.load(Ordering::Acquire) {
                drop(state);
                return drop(value);
            }
            let (dropped, full) = match state.values.offer(value) {
                Offer::Queued => (None, None),
                Offer::Dropped(old) => (Some(old), None),
                Offer::Overflowed(rejected) => {
                    self.finished = true;
                    let capacity = state.values.capacity();
                    state.end = Some(Err(Error::new(BufferOverflow { capacity })));
                    (Some(rejected), None)
                }
                Offer::WouldDeadlock(rejected) => {
                    self.finished = true;
                    let capacity = state.values.capacity();
                    state.end = Some(Err(Error::new(WouldDeadlock { capacity })));
                    (Some(rejected), None)
                }
                Offer::Full { value, .. } => (None, Some(value)),
            };
            let waker = state.waker.take();
            drop(state);
            if let Some(waker) = waker {
                waker.wake();
            }
            if let Some(dropped) = dropped {
                self.dropped.report(dropped);
            }
            match full {
                None => return,
                Some(back) => {
                    // Registered under the lock: a poll that frees room, or the stream's drop,
                    // unparks this thread, before or after it parks. A consumer on another
                    // core frees room within microseconds: yield a few times first.
                    value = back;
                    if yields < YIELDS_BEFORE_PARKING {
                        yields += 1;
                        std::thread::yield_now();
                    } else {
                        std::thread::park();
                    }
                }
            }
        }
    }

    fn on_error(mut self, error: Error) {
        if !self.finished {
            self.finished = true;
            self.channel.end(Err(error));
        }
    }

    fn on_completed(mut self) {
        if !self.finished {
            self.finished = true;
            self.channel.end(Ok(()));
        }
    }

    fn is_disposed(&self) -> bool {
        // Acquire pairs with the Release in the stream's `drop`.
        self.finished || self.channel.closed.load(Ordering::Acquire)
    }
}

/// Dropped without a terminal notification: end the stream rather than leave its consumer
/// waiting forever.
impl<T> Drop for StreamObserver<T> {
    fn drop(&mut self) {
        if !self.is_disposed() {
            self.channel.end(Err(Error::msg(
                "the observable dropped its observer without terminating",
            )));
        }
    }
}

impl<T> fmt::Debug for StreamObserver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamObserver")
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::backpressure::{Bounded, BufferOverflow, Overflow, WouldDeadlock};
    use crate::prelude::*;
    use crate::schedulers::{NewThread, TestScheduler};
    use crate::source::{empty, from_iter, interval, throw, timer};
    use crate::subjects::PublishSubject;
    use futures::executor::{block_on, block_on_stream};
    use futures::stream::{FusedStream, Stream, StreamExt};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Context, Poll, Wake, Waker};
    use std::time::Duration;

    /// A waker that counts its wakes.
    #[derive(Default)]
    struct CountingWaker(AtomicUsize);

    impl Wake for CountingWaker {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counting_waker() -> (Arc<CountingWaker>, Waker) {
        let counter = Arc::new(CountingWaker::default());
        (counter.clone(), Waker::from(counter))
    }

    #[test]
    fn yields_each_value_then_ends() {
        let items: Vec<_> = block_on_stream(from_iter([1, 2, 3]).into_stream()).collect();
        assert_eq!(items, [Ok(1), Ok(2), Ok(3)]);
    }

    #[test]
    fn an_error_is_the_last_item() {
        let source = from_iter([Ok(1), Err(Error::msg("bad")), Ok(3)]).try_map(|r| r);
        let mut items = block_on_stream(source.into_stream());
        assert_eq!(items.next(), Some(Ok(1)));
        assert_eq!(items.next(), Some(Err(Error::msg("bad"))));
        assert_eq!(items.next(), None);
        assert_eq!(items.next(), None);
        let items: Vec<_> = block_on_stream(throw::<i32>(Error::msg("x")).into_stream()).collect();
        assert_eq!(items, [Err(Error::msg("x"))]);
    }

    #[test]
    fn an_empty_source_is_an_empty_stream() {
        let mut stream = empty::<i32>().into_stream();
        assert_eq!(stream.size_hint(), (0, Some(0)));
        assert!(!stream.is_terminated());
        assert_eq!(block_on(stream.next()), None);
        assert!(stream.is_terminated());
        assert_eq!(block_on(stream.next()), None);
    }

    #[test]
    fn size_hint_counts_what_is_buffered() {
        let stream = from_iter([1, 2]).into_stream();
        assert_eq!(stream.size_hint(), (2, Some(2)));
        let subject = PublishSubject::<i32>::new();
        let stream = subject.observable().into_stream();
        subject.observer().on_next(1);
        assert_eq!(stream.size_hint(), (1, None));
    }

    #[test]
    fn values_before_the_first_poll_are_kept() {
        let subject = PublishSubject::new();
        let mut stream = subject.observable().into_stream();
        let mut input = subject.observer();
        input.on_next(1);
        input.on_next(2);
        input.on_completed();
        assert_eq!(block_on(stream.next()), Some(Ok(1)));
        assert_eq!(block_on(stream.next()), Some(Ok(2)));
        assert_eq!(block_on(stream.next()), None);
    }

    #[test]
    fn the_consumer_is_woken_once_per_burst() {
        let subject = PublishSubject::new();
        let mut stream = subject.observable().into_stream();
        let (wakes, waker) = counting_waker();
        let mut cx = Context::from_waker(&waker);
        assert_eq!(stream.poll_next_unpin(&mut cx), Poll::Pending);
        let mut input = subject.observer();
        input.on_next(1);
        input.on_next(2);
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1);
        assert_eq!(stream.poll_next_unpin(&mut cx), Poll::Ready(Some(Ok(1))));
        assert_eq!(stream.poll_next_unpin(&mut cx), Poll::Ready(Some(Ok(2))));
        assert_eq!(stream.poll_next_unpin(&mut cx), Poll::Pending);
        input.on_completed();
        assert_eq!(wakes.0.load(Ordering::SeqCst), 2);
        assert_eq!(stream.poll_next_unpin(&mut cx), Poll::Ready(None));
    }

    #[test]
    fn dropping_the_stream_disposes_the_subscription() {
        let subject = PublishSubject::new();
        let mut stream = subject.observable().into_stream();
        subject.observer().on_next(1);
        assert!(subject.has_observers());
        assert_eq!(block_on(stream.next()), Some(Ok(1)));
        drop(stream);
        assert!(!subject.has_observers());
    }

    #[test]
    fn an_endless_synchronous_source_overflows_a_bounded_stream_and_stops() {
        let pulled = Arc::new(AtomicUsize::new(0));
        let p = pulled.clone();
        let source = from_iter(0..).map(move |v| {
            p.fetch_add(1, Ordering::SeqCst);
            v
        });
        let items: Vec<_> =
            block_on_stream(source.into_stream_bounded(Bounded::new(3).on_full(Overflow::Error)))
                .collect();
        assert_eq!(items.len(), 4);
        assert_eq!(items[..3], [Ok(0), Ok(1), Ok(2)]);
        let error = items[3].as_ref().unwrap_err();
        assert_eq!(
            error.downcast_ref::<BufferOverflow>(),
            Some(&BufferOverflow { capacity: 3 })
        );
        // The value that did not fit was the last one pulled.
        assert_eq!(pulled.load(Ordering::SeqCst), 4);
    }

    #[test]
    fn a_bounded_stream_that_keeps_up_never_overflows() {
        let subject = PublishSubject::new();
        let mut stream = subject
            .observable()
            .into_stream_bounded(Bounded::new(1).on_full(Overflow::Error));
        let mut input = subject.observer();
        for n in 0..10 {
            input.on_next(n);
            assert_eq!(block_on(stream.next()), Some(Ok(n)));
        }
        input.on_completed();
        assert_eq!(block_on(stream.next()), None);
    }

    #[test]
    fn overflow_disposes_upstream_when_the_error_is_taken() {
        let subject = PublishSubject::new();
        let mut stream = subject
            .observable()
            .into_stream_bounded(Bounded::new(1).on_full(Overflow::Error));
        let mut input = subject.observer();
        input.on_next(1);
        input.on_next(2);
        input.on_next(3); // ignored: the stream has already failed
        assert_eq!(block_on(stream.next()), Some(Ok(1)));
        assert!(
            block_on(stream.next())
                .unwrap()
                .unwrap_err()
                .is::<BufferOverflow>()
        );
        assert!(!subject.has_observers());
        assert_eq!(block_on(stream.next()), None);
    }

    #[test]
    #[should_panic(expected = "capacity must be at least 1")]
    fn a_zero_capacity_panics() {
        let _ = from_iter([1]).into_stream_bounded(Bounded::new(0).on_full(Overflow::Error));
    }

    /// Collects the stream of a burst of `0..10` into a buffer of 4, and what `on_drop` got.
    fn burst(overflow: Overflow) -> (Vec<Result<i32, Error>>, Vec<i32>) {
        let dropped = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = dropped.clone();
        let bound = Bounded::new(4)
            .on_full(overflow)
            .on_drop(move |v| log.lock().unwrap().push(v));
        let items = block_on_stream(from_iter(0..10).into_stream_bounded(bound)).collect();
        let dropped = dropped.lock().unwrap().clone();
        (items, dropped)
    }

    #[test]
    fn each_strategy_drops_what_its_marble_says() {
        let ok = |values: &[i32]| values.iter().map(|v| Ok(*v)).collect::<Vec<_>>();
        assert_eq!(
            burst(Overflow::DropNewest),
            (ok(&[0, 1, 2, 3]), vec![4, 5, 6, 7, 8, 9])
        );
        assert_eq!(
            burst(Overflow::DropOldest),
            (ok(&[6, 7, 8, 9]), vec![0, 1, 2, 3, 4, 5])
        );
        assert_eq!(
            burst(Overflow::KeepLatest),
            (ok(&[0, 1, 2, 9]), vec![3, 4, 5, 6, 7, 8])
        );
        let (items, dropped) = burst(Overflow::Error);
        assert_eq!(items[..4], ok(&[0, 1, 2, 3]));
        assert!(items[4].as_ref().unwrap_err().is::<BufferOverflow>());
        assert_eq!(items.len(), 5);
        assert_eq!(dropped, [4]);
    }

    #[test]
    fn block_while_the_stream_is_created_is_refused() {
        let (items, dropped) = burst(Overflow::Block);
        assert_eq!(items.len(), 5);
        let error = items[4].as_ref().unwrap_err();
        assert_eq!(error.downcast_ref::<WouldDeadlock>().unwrap().capacity(), 4);
        assert_eq!(dropped, [4]);
    }

    #[test]
    fn block_on_the_thread_that_polls_is_refused() {
        let subject = PublishSubject::new();
        let mut stream = subject.observable().into_stream_bounded(Bounded::new(2));
        let mut input = subject.observer();
        input.on_next(1);
        assert_eq!(block_on(stream.next()), Some(Ok(1)));
        input.on_next(2);
        input.on_next(3);
        input.on_next(4); // full, and this thread polls: refused
        assert_eq!(block_on(stream.next()), Some(Ok(2)));
        assert_eq!(block_on(stream.next()), Some(Ok(3)));
        assert!(
            block_on(stream.next())
                .unwrap()
                .unwrap_err()
                .is::<WouldDeadlock>()
        );
        assert!(!subject.has_observers());
    }

    #[test]
    fn block_waits_for_the_consumer_on_another_thread_and_loses_nothing() {
        let subject = PublishSubject::new();
        let stream = subject.observable().into_stream_bounded(Bounded::new(4));
        let consumer = std::thread::spawn(move || {
            block_on_stream(stream)
                .map(|item| {
                    std::thread::sleep(Duration::from_micros(20));
                    item.unwrap()
                })
                .collect::<Vec<_>>()
        });
        let mut input = subject.observer();
        for v in 0..2000 {
            input.on_next(v);
        }
        input.on_completed();
        assert_eq!(consumer.join().unwrap(), (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn dropping_the_stream_wakes_a_blocked_producer() {
        let subject = PublishSubject::new();
        let mut stream = subject.observable().into_stream_bounded(Bounded::new(1));
        let mut input = subject.observer();
        input.on_next(0);
        assert_eq!(block_on(stream.next()), Some(Ok(0)));
        // The consumer's thread is now this one; poll once from another to move it there.
        let stream = std::thread::spawn(move || {
            let mut cx = Context::from_waker(Waker::noop());
            assert_eq!(stream.poll_next_unpin(&mut cx), Poll::Pending);
            stream
        })
        .join()
        .unwrap();
        let producer = std::thread::spawn(move || {
            input.on_next(1);
            input.on_next(2); // blocks until the stream is dropped
        });
        std::thread::sleep(Duration::from_millis(20));
        drop(stream);
        producer.join().unwrap();
        assert!(!subject.has_observers());
    }

    #[test]
    fn values_from_another_thread() {
        let source = interval(Duration::from_millis(1), NewThread).take(20);
        let items: Vec<u64> = block_on_stream(source.into_stream())
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(items, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn dropping_the_stream_stops_a_threaded_source() {
        let mut stream = interval(Duration::from_millis(1), NewThread).into_stream();
        assert_eq!(block_on(stream.next()), Some(Ok(0)));
        drop(stream);
    }

    #[test]
    fn a_dropped_observer_ends_the_stream_with_an_error() {
        let sch = TestScheduler::new();
        let stream = timer(Duration::from_secs(1), sch.clone()).into_stream();
        drop(sch);
        let items: Vec<_> = block_on_stream(stream).collect();
        assert_eq!(
            items,
            [Err(Error::msg(
                "the observable dropped its observer without terminating"
            ))]
        );
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use crate::backpressure::{Bounded, Overflow};
    use crate::prelude::*;
    use crate::primitive::thread;
    use crate::source::create_owned;
    use futures_core::Stream;
    use std::future::poll_fn;
    use std::pin::Pin;

    /// A producer on another thread races with the consumer's polls: every value arrives, in
    /// order, and the consumer is never left waiting on a wake that was lost
    /// (`loom::future::block_on` reports a deadlock if it is).
    #[test]
    fn loom_no_lost_wakeup() {
        loom::model(|| {
            let mut producer = None;
            let mut stream = create_owned(|mut emitter| {
                producer = Some(thread::spawn(move || {
                    emitter.on_next(1);
                    emitter.on_next(2);
                    emitter.on_completed();
                }));
            })
            .into_stream_bounded(Bounded::new(2).on_full(Overflow::Error));
            let items = loom::future::block_on(async {
                let mut items = Vec::new();
                while let Some(item) = poll_fn(|cx| Pin::new(&mut stream).poll_next(cx)).await {
                    items.push(item.unwrap());
                }
                items
            });
            producer.unwrap().join().unwrap();
            assert_eq!(items, [1, 2]);
        });
    }

    /// Dropping the stream races with the producer: once `drop` has returned nothing is
    /// left buffered, even while the producer still holds its observer.
    #[test]
    fn loom_drop_races_with_the_producer() {
        loom::model(|| {
            let token = std::sync::Arc::new(());
            let t = token.clone();
            let mut producer = None;
            let stream = create_owned(|mut emitter| {
                producer = Some(thread::spawn(move || {
                    emitter.on_next(t.clone());
                    emitter.on_next(t);
                    emitter
                }));
            })
            .into_stream();
            drop(stream);
            let emitter = producer.unwrap().join().unwrap();
            assert!(emitter.is_disposed());
            assert_eq!(std::sync::Arc::strong_count(&token), 1);
        });
    }
}
