//! [`from_stream`]: an observable of the items of a [`Stream`].

use super::driver::{self, Cancelled, PollSubscription, Pollable, Progress};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use futures_core::Stream;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

/// How many ready items one task delivers before it lets the worker's other tasks run.
const BUDGET: usize = 64;

/// An observable that emits the items of `stream`, then completes when the stream ends.
/// Available with the `stream` feature.
///
/// The stream is polled on a worker of `scheduler`, as [`from_future`](crate::source::from_future)
/// polls a future: the first poll is a task scheduled on subscription, each wake schedules
/// the next one, and a task delivers every item that is ready. Each subscription polls its
/// own stream.
///
/// A stream has no error channel. For a stream of `Result`s, add
/// [`try_map`](crate::ObservableExt::try_map)`(|item| item)` to turn the first `Err` into
/// `on_error`.
///
/// ```text
/// from_stream(s): --1--2-3----4-|
/// ```
///
/// # Examples
///
/// ```
/// use futures::stream;
/// use rx::prelude::*;
/// use rx::schedulers::Immediate;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_stream(stream::iter(1..=3), Immediate)
///     .map(|v| v * 10)
///     .subscribe_observer(observer.clone());
/// observer.assert_values(&[10, 20, 30]);
/// observer.assert_completed();
/// ```
///
/// Items pushed from another thread arrive through the scheduler's worker:
///
/// ```
/// use futures::channel::mpsc;
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::TestObserver;
/// use std::time::Duration;
///
/// let (sender, receiver) = mpsc::unbounded::<&str>();
/// let scheduler = TestScheduler::new();
/// let observer = TestObserver::new();
/// rx::source::from_stream(receiver, scheduler.clone()).subscribe_observer(observer.clone());
///
/// sender.unbounded_send("a").unwrap();
/// sender.unbounded_send("b").unwrap();
/// scheduler.advance_by(Duration::ZERO);
/// observer.assert_values(&["a", "b"]);
/// drop(sender); // the stream ends
/// scheduler.advance_by(Duration::ZERO);
/// observer.assert_completed();
/// ```
///
/// # Scheduler
///
/// As for [`from_future`](crate::source::from_future): every poll runs in a task on one worker of
/// `scheduler`, owned by the subscription. A task delivers at most 64 items in a row, then
/// lets the worker's other tasks run before it goes on (without allocating), so an endless
/// ready stream does not starve a shared worker. The stream stops being polled as soon as
/// its observer reports that it is disposed, so `from_stream(s, sch).take(3)` polls no item
/// after the third. The handle returned by `subscribe` is a [`PollSubscription`]: disposing
/// it drops the stream and the observer.
///
/// # Performance
///
/// Per subscription: one worker, the stream boxed (it need not be `Unpin`), and one shared
/// state that is also its waker. A wake that finds no poll queued schedules one task (an
/// allocation on a queue-backed worker); ready items are delivered in a loop, with no
/// allocation and no lock per item.
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub fn from_stream<St, Sch>(stream: St, scheduler: Sch) -> FromStream<St, Sch>
where
    St: Stream,
    Sch: Scheduler,
{
    FromStream { stream, scheduler }
}

/// An observable of a stream's items; built by [`from_stream`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub struct FromStream<St, Sch> {
    stream: St,
    scheduler: Sch,
}

impl<St: Stream, Sch> Observable for FromStream<St, Sch> {
    type Item = St::Item;
    type Flavour = crate::sync::Shared;
}

impl<St, Sch, O> Subscribe<O> for FromStream<St, Sch>
where
    St: Stream + Send + 'static,
    Sch: Scheduler,
    O: Observer<St::Item> + Send + 'static,
{
    type Subscription = PollSubscription;

    fn subscribe_observer(self, observer: O) -> PollSubscription {
        driver::spawn(
            self.scheduler.worker(),
            StreamEmitter {
                stream: Box::pin(self.stream),
                observer: Some(observer),
            },
        )
    }
}

impl<St, Sch> fmt::Debug for FromStream<St, Sch> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromStream").finish_non_exhaustive()
    }
}

/// A stream with its observer.
struct StreamEmitter<St, O> {
    stream: Pin<Box<St>>,
    /// `None` once terminated.
    observer: Option<O>,
}

impl<St, O> Pollable for StreamEmitter<St, O>
where
    St: Stream + Send + 'static,
    O: Observer<St::Item> + Send + 'static,
{
    fn poll_emit(&mut self, cx: &mut Context<'_>, cancelled: &Cancelled<'_>) -> Progress {
        for _ in 0..BUDGET {
            let Some(observer) = self.observer.as_mut() else {
                return Progress::Done;
            };
            if cancelled.is_set() || observer.is_disposed() {
                return Progress::Done;
            }
            match self.stream.as_mut().poll_next(cx) {
                Poll::Pending => return Progress::Pending,
                Poll::Ready(Some(item)) => {
                    if cancelled.is_set() || observer.is_disposed() {
                        return Progress::Done;
                    }
                    observer.on_next(item);
                }
                Poll::Ready(None) => {
                    if let Some(observer) = self.observer.take()
                        && !cancelled.is_set()
                        && !observer.is_disposed()
                    {
                        observer.on_completed();
                    }
                    return Progress::Done;
                }
            }
        }
        Progress::Yield
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::prelude::*;
    use crate::schedulers::{Immediate, NewThread, RunLoop, TestScheduler};
    use crate::testing::TestObserver;
    use futures::StreamExt;
    use futures::channel::mpsc;
    use futures::stream;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    #[test]
    fn emits_every_item_then_completes() {
        let o = TestObserver::new();
        let handle =
            from_stream(stream::iter(["a", "b", "c"]), Immediate).subscribe_observer(o.clone());
        o.assert_values(&["a", "b", "c"]);
        o.assert_completed();
        o.assert_rules();
        assert!(handle.is_disposed());
    }

    #[test]
    fn an_empty_stream_completes() {
        let o = TestObserver::<i32>::new();
        from_stream(stream::empty(), Immediate).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();
    }

    #[test]
    fn an_endless_stream_stops_when_downstream_is_done() {
        let pulled = Arc::new(Mutex::new(0));
        let p = pulled.clone();
        let endless = stream::iter(0..).inspect(move |_| *p.lock().unwrap() += 1);
        let o = TestObserver::new();
        from_stream(endless, Immediate)
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
        assert_eq!(*pulled.lock().unwrap(), 3);
    }

    #[test]
    fn items_pushed_later_arrive_on_the_worker() {
        let sch = TestScheduler::new();
        let (tx, rx) = mpsc::unbounded();
        let o = TestObserver::new();
        let handle = from_stream(rx, sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(Duration::ZERO);
        tx.unbounded_send(1).unwrap();
        o.assert_values(&[]);
        sch.advance_by(Duration::ZERO);
        o.assert_values(&[1]);
        tx.unbounded_send(2).unwrap();
        tx.unbounded_send(3).unwrap();
        sch.advance_by(Duration::ZERO);
        o.assert_values(&[1, 2, 3]);
        o.assert_not_terminated();
        assert!(!handle.is_disposed());
        drop(tx);
        sch.advance_by(Duration::ZERO);
        o.assert_completed();
        assert!(handle.is_disposed());
    }

    #[test]
    fn dispose_stops_the_stream_and_drops_it() {
        let sch = TestScheduler::new();
        let (tx, rx) = mpsc::unbounded();
        let o = TestObserver::new();
        let handle = from_stream(rx, sch.clone()).subscribe_observer(o.clone());
        tx.unbounded_send(1).unwrap();
        sch.advance_by(Duration::ZERO);
        handle.dispose();
        // The receiver was dropped with the stream.
        assert!(tx.unbounded_send(2).is_err());
        sch.advance_by(Duration::ZERO);
        o.assert_values(&[1]);
        o.assert_not_terminated();
    }

    #[test]
    fn a_long_ready_stream_shares_its_worker() {
        // Two streams on one run loop: each task delivers a budget's worth, then yields.
        let run_loop = RunLoop::new();
        let log = Arc::new(Mutex::new(Vec::new()));
        for base in [0, 1000] {
            let l = log.clone();
            from_stream(stream::iter(base..base + 2 * BUDGET), run_loop.clone())
                .subscribe(move |v| l.lock().unwrap().push(v));
        }
        while run_loop.dispatch_if_ready() {}
        let log = log.lock().unwrap();
        let firsts: Vec<_> = log.chunks(BUDGET).map(|chunk| chunk[0]).collect();
        assert_eq!(firsts, [0, 1000, BUDGET, 1000 + BUDGET]);
    }

    #[test]
    fn a_stream_of_results_fails_through_try_map() {
        let items = stream::iter([Ok(1), Err(crate::Error::msg("bad")), Ok(3)]);
        let o = TestObserver::new();
        from_stream(items, Immediate)
            .try_map(|item| item)
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("bad");
    }

    #[test]
    fn runs_on_a_new_thread() {
        let (tx, rx) = mpsc::unbounded();
        let values = from_stream(rx, NewThread).as_blocking().into_iter();
        let producer = std::thread::spawn(move || {
            for n in 0..100 {
                tx.unbounded_send(n).unwrap();
            }
        });
        let got: Vec<i32> = values.collect::<Result<_, _>>().unwrap();
        producer.join().unwrap();
        assert_eq!(got, (0..100).collect::<Vec<_>>());
    }
}
