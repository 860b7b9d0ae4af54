//! [`ObservableExt::window_with_time`](crate::ObservableExt::window_with_time): consecutive
//! windows of time, as inner observables.
//!
//! Values come from upstream's thread and window boundaries from a periodic task on a
//! worker, so both go through a [`Drain`] as events, in order: whoever finds it idle runs the
//! windowing logic for every event queued, with no lock held, so the logic itself is
//! single-threaded. The windows, their buffering and abandonment, and the reference-counted
//! upstream are `split_core`'s and `split_refs`'s, as for
//! [`window`](crate::ObservableExt::window); the last reference closes the drain, which
//! disposes upstream and the task.

use super::window::WindowedObservable;
use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::engine::split_core::Inner;
use crate::engine::split_refs::{Refs, SplitSubscription};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{DeferringScheduler, Reschedule, Scheduler, Worker};
use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

/// Splits an observable into [`WindowedObservable`]s of consecutive spans of time; built by
/// [`ObservableExt::window_with_time`](crate::ObservableExt::window_with_time).
///
/// It takes only thread-safe sources, and its windows are of the
/// [`Shared`](crate::sync::Shared) flavour, unlike those of
/// [`window`](crate::ObservableExt::window): the span boundaries come from a periodic task on
/// the scheduler's worker, which may run on another thread. That task ends and opens windows
/// (so the windows and the downstream observer are fed from the worker), and the reference it
/// releases may be the last one, which disposes the source's handle from the worker. So the
/// values, the observer and the source's handle must be `Send`, and a local subject's or a
/// `boxed_local()` observable is refused at compile time, as by the other time operators.
///
/// [`Immediate`](crate::schedulers::Immediate) is refused at compile time too: it would run
/// the periodic task inline, for ever.
///
/// ```compile_fail
/// use rx::prelude::*;
/// use std::time::Duration;
///
/// // `Immediate` runs tasks inline, and this operator needs a scheduler that queues them
/// let _ = rx::source::just(1).window_with_time(Duration::from_secs(1), rx::schedulers::Immediate);
/// ```
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "windowTime")]
pub struct WindowWithTime<S, Sch> {
    source: S,
    span: Duration,
    scheduler: Sch,
}

impl<S, Sch: DeferringScheduler> WindowWithTime<S, Sch> {
    pub(crate) fn new(source: S, span: Duration, scheduler: Sch) -> Self {
        assert!(
            !span.is_zero(),
            "window_with_time: the span must be non-zero"
        );
        WindowWithTime {
            source,
            span,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for WindowWithTime<S, Sch> {
    type Item = WindowedObservable<'static, S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

/// What the windowing logic hears of, in order.
enum Event<T> {
    Value(T),
    /// A span has passed: the current window ends and the next one opens.
    Tick,
}

/// The events not handled yet, with the source's terminal notification last.
struct Events<T>(VecDeque<Notification<Event<T>>>);

impl<T> Ready<Event<T>> for Events<T> {
    fn next_ready(&mut self) -> Option<Notification<Event<T>>> {
        self.0.pop_front()
    }
}

type WindowDrain<W, O, T> = Drain<W, Windowing<O, T>, Events<T>>;

impl<S, Sch, O> Subscribe<O> for WindowWithTime<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<WindowWithTimeObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<WindowedObservable<'static, <S as Observable>::Item>> + Send + 'static,
{
    type Subscription = SplitSubscription<'static>;

    fn subscribe_observer(self, observer: O) -> SplitSubscription<'static> {
        let refs = Arc::new(Refs::new());
        let windowing = Windowing {
            downstream: observer,
            current: None,
            refs: refs.clone(),
        };
        let drain: Arc<WindowDrain<Sch::Worker, O, _>> = Arc::new(Drain::new(
            self.scheduler.worker(),
            windowing,
            Events(VecDeque::new()),
        ));
        // The first window opens on subscription, as in RxJS and RxJava.
        drain.drain_with(|events| events.0.push_back(Notification::Next(Event::Tick)));
        let span = self.span;
        let mut due = drain.worker().now() + span;
        let tick_drain = drain.clone();
        drain.worker().schedule_at(due, move || {
            tick_drain.tick_with(|events| events.0.push_back(Notification::Next(Event::Tick)));
            if tick_drain.is_closed() {
                return Reschedule::Done;
            }
            due += span;
            Reschedule::At(due)
        });
        let upstream = self.source.subscribe_observer(WindowWithTimeObserver {
            drain: drain.clone(),
        });
        drain.set_upstream(upstream);
        // The last reference (the outer downstream's or a window's) closes the drain, which
        // disposes upstream and the task.
        refs.set_upstream(drain);
        SplitSubscription::new(refs)
    }
}

/// The windowing logic, run by one thread at a time.
struct Windowing<O, T> {
    downstream: O,
    current: Option<Arc<Inner<'static, T>>>,
    refs: Arc<Refs<'static>>,
}

impl<O, T> Windowing<O, T>
where
    O: Observer<WindowedObservable<'static, T>>,
{
    /// Whether the outer downstream still wants windows; releases its reference once it does
    /// not.
    fn wants_windows(&self) -> bool {
        if self.refs.is_outer_released() {
            return false;
        }
        if self.downstream.is_disposed() {
            self.refs.release_outer();
            return false;
        }
        true
    }
}

impl<O, T> Observer<Event<T>> for Windowing<O, T>
where
    O: Observer<WindowedObservable<'static, T>>,
{
    fn on_next(&mut self, event: Event<T>) {
        match event {
            Event::Value(value) => {
                if let Some(window) = &self.current {
                    window.next(value);
                }
            }
            Event::Tick => {
                if let Some(window) = self.current.take() {
                    window.end(None);
                }
                if !self.wants_windows() {
                    return;
                }
                let Some(inner) = Inner::<T>::open(&self.refs) else {
                    return;
                };
                self.downstream
                    .on_next(WindowedObservable::new(inner.clone()));
                self.wants_windows();
                // Not subscribed during its delivery: abandoned, it completes empty, and the
                // values until the next tick go nowhere (RxJava 3).
                if inner.abandon_unless_subscribed() {
                    inner.end(None);
                } else {
                    self.current = Some(inner);
                }
            }
        }
    }

    fn on_error(self, error: Error) {
        if let Some(window) = &self.current {
            window.end(Some(error.clone()));
        }
        if self.wants_windows() {
            self.downstream.on_error(error);
        }
    }

    fn on_completed(self) {
        if let Some(window) = &self.current {
            window.end(None);
        }
        if self.wants_windows() {
            self.downstream.on_completed();
        }
    }

    fn is_disposed(&self) -> bool {
        self.refs.is_unreferenced()
    }
}

/// The observer [`WindowWithTime`] subscribes upstream.
pub struct WindowWithTimeObserver<W, O, T> {
    drain: Arc<WindowDrain<W, O, T>>,
}

impl<W, O, T> Observer<T> for WindowWithTimeObserver<W, O, T>
where
    W: Worker,
    O: Observer<WindowedObservable<'static, T>> + Send + 'static,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        self.drain
            .drain_with(|events| events.0.push_back(Notification::Next(Event::Value(value))));
    }

    fn on_error(self, error: Error) {
        self.drain
            .drain_with(|events| events.0.push_back(Notification::Error(error)));
    }

    fn on_completed(self) {
        self.drain
            .drain_with(|events| events.0.push_back(Notification::Completed));
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for WindowWithTimeObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindowWithTimeObserver")
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::schedulers::{RunLoop, TestScheduler};
    use crate::source::{empty, interval};
    use crate::subjects::PublishSubject;
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    type Opened = Arc<Mutex<Vec<TimedObserver<i32, TestScheduler>>>>;

    /// Subscribes each window with a timed observer of its own; the outer timeline records
    /// each window's index.
    fn windows(sch: &TestScheduler) -> (Opened, TimedObserver<usize, TestScheduler>) {
        (Arc::default(), TimedObserver::new(sch))
    }

    #[test]
    fn one_window_per_span_including_empty_ones() {
        let sch = TestScheduler::new();
        let (opened, outer) = windows(&sch);
        let (o, s) = (opened.clone(), sch.clone());
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(20), Next(2)),
                (ms(50), Next(3)), // after the tick at 50: in the second window
                (ms(130), Next(4)),
                (ms(140), Completed),
            ],
        )
        .window_with_time(ms(50), sch.clone())
        .map(move |window| {
            let w = TimedObserver::new(&s);
            window.subscribe_observer(w.clone());
            let mut o = o.lock().unwrap();
            o.push(w);
            o.len() - 1
        })
        .subscribe_observer(outer.clone());
        sch.run();
        outer.assert_timeline(&[
            (ms(0), Next(0)),
            (ms(50), Next(1)),
            (ms(100), Next(2)),
            (ms(140), Completed),
        ]);
        let opened = opened.lock().unwrap();
        opened[0].assert_timeline(&[(ms(10), Next(1)), (ms(20), Next(2)), (ms(50), Completed)]);
        // Each window's observer was made when it opened.
        opened[1].assert_timeline(&[(ms(0), Next(3)), (ms(50), Completed)]);
        opened[2].assert_timeline(&[(ms(30), Next(4)), (ms(40), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn an_empty_source_gives_one_empty_window() {
        let sch = TestScheduler::new();
        let outer = TestObserver::new();
        let window = TestObserver::<i32>::new();
        let w = window.clone();
        empty::<i32>()
            .window_with_time(ms(10), sch.clone())
            .map(move |win| {
                win.subscribe_observer(w.clone());
            })
            .subscribe_observer(outer.clone());
        outer.assert_values(&[()]);
        outer.assert_completed();
        window.assert_notifications(&[Completed]);
        assert!(sch.is_empty());
    }

    #[test]
    fn disposing_the_outer_lets_the_open_window_finish_then_stops() {
        let sch = TestScheduler::new();
        let values = Arc::new(Mutex::new(Vec::new()));
        let v = values.clone();
        let handle = interval(ms(10), sch.clone())
            .window_with_time(ms(25), sch.clone())
            .subscribe(move |window| {
                let v = v.clone();
                window.subscribe(move |value| v.lock().unwrap().push(value));
            });
        sch.advance_by(ms(30));
        handle.dispose();
        // The window opened at 25 goes on until its end at 50; then nothing runs.
        sch.advance_by(ms(100));
        assert!(sch.is_empty());
        assert_eq!(*values.lock().unwrap(), [0, 1, 2, 3]);
    }

    /// Boundaries queued faster than upstream's thread delivers them must not keep that
    /// thread delivering for ever. Each delivery here runs the loop's task, which is overdue
    /// (a 1 µs span, the loop run 1 ms late), so each one queues the next boundary, as a
    /// worker thread would while a slow delivery is under way. After the second boundary
    /// queued during its loop, upstream's call hands the rest over to the task's next run and
    /// returns; upstream's further calls only queue until that run delivers them, in order.
    #[test]
    fn upstreams_thread_hands_boundaries_queued_meanwhile_over_to_the_worker() {
        let run_loop = RunLoop::new();
        let input = PublishSubject::new();
        let armed = Arc::new(AtomicBool::new(false));
        let budget = Arc::new(AtomicUsize::new(100));
        let tick_inside = {
            let (run_loop, armed, budget) = (run_loop.clone(), armed.clone(), budget.clone());
            move || {
                if armed.load(Ordering::SeqCst) && budget.load(Ordering::SeqCst) > 0 {
                    budget.fetch_sub(1, Ordering::SeqCst);
                    run_loop.dispatch_if_ready();
                }
            }
        };
        let windows: Arc<Mutex<Vec<TestObserver<i32>>>> = Arc::default();
        let outer = TestObserver::new();
        let w = windows.clone();
        input
            .observable()
            .window_with_time(Duration::from_micros(1), run_loop.clone())
            .map(move |window| {
                let observer = TestObserver::new();
                let tick = tick_inside.clone();
                window
                    .tap(move |_| tick())
                    .subscribe_observer(observer.clone());
                tick_inside();
                let mut w = w.lock().unwrap();
                w.push(observer);
                w.len() - 1
            })
            .subscribe_observer(outer.clone());
        let opened = || windows.lock().unwrap().len();
        assert_eq!(opened(), 1);
        // The first thousand boundaries are due.
        std::thread::sleep(ms(1));
        armed.store(true, Ordering::SeqCst);
        let mut input = input.observer();
        input.on_next(1);
        // The value ran the task, whose boundary opened the second window, which ran it
        // again: that second boundary is left to the task.
        assert_eq!(opened(), 2);
        assert_eq!(budget.load(Ordering::SeqCst), 98);
        input.on_next(2);
        input.on_completed();
        assert_eq!(opened(), 2);
        outer.assert_values(&[0, 1]);
        assert!(!outer.is_terminated());
        // The task's next run delivers what was left, in order; its own boundary comes after
        // the completion and is dropped.
        assert!(run_loop.dispatch_if_ready());
        outer.assert_values(&[0, 1, 2]);
        outer.assert_completed();
        let windows = windows.lock().unwrap();
        windows[0].assert_values(&[1]);
        windows[0].assert_completed();
        windows[1].assert_values(&[]);
        windows[1].assert_completed();
        windows[2].assert_values(&[2]);
        windows[2].assert_completed();
        assert!(run_loop.is_empty());
    }

    #[test]
    #[should_panic(expected = "span must be non-zero")]
    fn zero_span_panics() {
        let _ = empty::<i32>().window_with_time(Duration::ZERO, TestScheduler::new());
    }
}
