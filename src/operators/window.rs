//! [`ObservableExt::window`](crate::ObservableExt::window): consecutive values, `count` at a
//! time, as inner observables.
//!
//! The windows themselves, their buffering, abandonment and the reference-counted upstream
//! are in `split_core`.

use crate::Error;
use crate::engine::held_observer::KeepSubscriber;
use crate::engine::split_core::{self, Inner, InnerPtr, InnerSubscription};
use crate::engine::split_refs::{Refs, RefsPtr, SplitSubscription};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Splits an observable into [`WindowedObservable`]s of `count` consecutive values; built by
/// [`ObservableExt::window`](crate::ObservableExt::window).
///
/// The lifetime `'a` bounds what the windows' subscribers and the source's handle borrow; it
/// is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "windowCount")]
pub struct Window<'a, S> {
    source: S,
    count: usize,
    _inners: PhantomData<&'a ()>,
}

impl<S> Window<'_, S> {
    pub(crate) fn new(source: S, count: usize) -> Self {
        assert!(count > 0, "window: count must be positive");
        Window {
            source,
            count,
            _inners: PhantomData,
        }
    }
}

impl<'a, S: Observable> Observable for Window<'a, S> {
    type Item = WindowedObservable<'a, S::Item, <S as Observable>::Flavour>;
    type Flavour = <S as Observable>::Flavour;
}

/// The observer [`Window`] subscribes to its source, as a type.
type SourceObserver<'a, S, O> =
    WindowObserver<'a, O, <S as Observable>::Item, <S as Observable>::Flavour>;

impl<'a, S, O> Subscribe<O> for Window<'a, S>
where
    S: Subscribe<SourceObserver<'a, S, O>>,
    <S as Observable>::Flavour:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O>>>::Subscription>,
    O: Observer<WindowedObservable<'a, <S as Observable>::Item, <S as Observable>::Flavour>>,
{
    type Subscription = SplitSubscription<'a, <S as Observable>::Flavour>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let refs = Refs::<<S as Observable>::Flavour>::shared();
        let mut observer = WindowObserver {
            downstream: observer,
            count: self.count,
            size: 0,
            current: None,
            refs: refs.clone(),
        };
        // The first window opens before the source is subscribed (RxJS's `windowCount`,
        // Rx.NET's `Window(count)`), so an empty source still gives one empty window.
        observer.open();
        let handle = self.source.subscribe_observer(observer);
        refs.set_upstream(handle);
        SplitSubscription::new(refs)
    }
}

/// The observer [`Window`] subscribes upstream; its windows are of flavour `F`, the
/// source's.
pub struct WindowObserver<'a, O, T, F: Flavour = Shared> {
    downstream: O,
    count: usize,
    /// Values given to the current window so far.
    size: usize,
    current: Option<InnerPtr<'a, T, F>>,
    refs: RefsPtr<'a, F>,
}

impl<'a, T, O, F: Flavour> WindowObserver<'a, O, T, F>
where
    O: Observer<WindowedObservable<'a, T, F>>,
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

    /// Opens the next window and emits it. A window nobody subscribes to during that call is
    /// abandoned: it completes empty, and the values that would have gone into it are
    /// dropped, so the boundaries of the windows after it stay where they are.
    fn open(&mut self) {
        self.size = 0;
        self.current = None;
        if !self.wants_windows() {
            return;
        }
        let Some(inner) = Inner::<T, F>::open(&self.refs) else {
            return;
        };
        self.downstream.on_next(WindowedObservable {
            inner: inner.clone(),
        });
        self.wants_windows();
        if inner.abandon_unless_subscribed() {
            inner.end(None);
        }
        self.current = Some(inner);
    }
}

impl<'a, T, O, F: Flavour> Observer<T> for WindowObserver<'a, O, T, F>
where
    O: Observer<WindowedObservable<'a, T, F>>,
{
    fn on_next(&mut self, value: T) {
        // `current` is `None` only once the outer downstream wants no more windows.
        let Some(window) = &self.current else {
            return;
        };
        window.next(value);
        self.size += 1;
        if self.size == self.count {
            window.end(None);
            self.open();
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

    #[inline]
    fn is_disposed(&self) -> bool {
        self.refs.is_unreferenced()
    }
}

impl<O, T, F: Flavour> fmt::Debug for WindowObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindowObserver")
            .field("count", &self.count)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// One window of a [`window`](crate::ObservableExt::window): up to `count` consecutive values.
///
/// A window accepts a single subscriber, which must subscribe during the `on_next` call that
/// delivers the window (for the first window of [`window`](crate::ObservableExt::window) and
/// [`window_with_skip`](crate::ObservableExt::window_with_skip), the call made on
/// subscription). A window not subscribed by then is abandoned: it completes empty, and the
/// values meant for it are dropped. A second subscriber receives an error.
///
/// `F` is the source's [flavour](crate::sync::Flavour): in the [`Shared`] one the subscriber
/// must be `Send`, as the window's values may come from any thread; in the
/// [`Local`](crate::sync::Local) one (a local subject's or a `boxed_local()` source's windows)
/// it may hold `Rc`. The windows of
/// [`window_with_time`](crate::ObservableExt::window_with_time) are always `Shared`.
pub struct WindowedObservable<'a, T, F: Flavour = Shared> {
    inner: InnerPtr<'a, T, F>,
}

impl<'a, T, F: Flavour> WindowedObservable<'a, T, F> {
    /// The window over `inner`, for the other windowing operators.
    pub(crate) fn new(inner: InnerPtr<'a, T, F>) -> Self {
        WindowedObservable { inner }
    }
}

impl<T, F: Flavour> Clone for WindowedObservable<'_, T, F> {
    fn clone(&self) -> Self {
        WindowedObservable {
            inner: self.inner.clone(),
        }
    }
}

impl<T, F: Flavour> fmt::Debug for WindowedObservable<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WindowedObservable")
    }
}

impl<T, F: Flavour> Observable for WindowedObservable<'_, T, F> {
    type Item = T;
    type Flavour = F;
}

impl<'a, T, O, F> Subscribe<O> for WindowedObservable<'a, T, F>
where
    O: Observer<T>,
    F: KeepSubscriber<'a, T, O>,
{
    type Subscription = InnerSubscription<'a, T, F>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        split_core::subscribe(self.inner, observer)
    }
}

#[cfg(test)]
mod tests {
    use super::WindowedObservable;
    use crate::Error;
    use crate::Notification::{self, Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just};
    use crate::testing::TestObserver;
    use std::sync::{Arc, Mutex};

    /// Counts the windows, and subscribes each with a test observer of its own.
    #[derive(Clone)]
    struct Windows {
        outer: TestObserver<usize>,
        windows: Arc<Mutex<Vec<TestObserver<i32>>>>,
    }

    impl Windows {
        fn new() -> Self {
            Windows {
                outer: TestObserver::new(),
                windows: Arc::default(),
            }
        }

        fn window(&self, i: usize) -> TestObserver<i32> {
            self.windows.lock().unwrap()[i].clone()
        }
    }

    impl Observer<WindowedObservable<'_, i32>> for Windows {
        fn on_next(&mut self, window: WindowedObservable<'_, i32>) {
            let o = TestObserver::new();
            let mut windows = self.windows.lock().unwrap();
            windows.push(o.clone());
            self.outer.on_next(windows.len() - 1);
            drop(windows);
            window.subscribe_observer(o);
        }
        fn on_error(self, error: Error) {
            self.outer.on_error(error)
        }
        fn on_completed(self) {
            self.outer.on_completed()
        }
    }

    #[test]
    fn splits_into_windows_of_count_values() {
        let w = Windows::new();
        from_iter(1..=5).window(2).subscribe_observer(w.clone());
        w.outer
            .assert_notifications(&[Next(0), Next(1), Next(2), Completed]);
        w.window(0)
            .assert_notifications(&[Next(1), Next(2), Completed]);
        w.window(1)
            .assert_notifications(&[Next(3), Next(4), Completed]);
        w.window(2).assert_notifications(&[Next(5), Completed]);
    }

    #[test]
    fn an_exact_multiple_ends_with_an_empty_window() {
        let w = Windows::new();
        from_iter(1..=4).window(2).subscribe_observer(w.clone());
        w.outer
            .assert_notifications(&[Next(0), Next(1), Next(2), Completed]);
        w.window(1)
            .assert_notifications(&[Next(3), Next(4), Completed]);
        w.window(2).assert_notifications(&[Completed]);
    }

    #[test]
    fn an_empty_source_gives_one_empty_window() {
        let w = Windows::new();
        empty().window(3).subscribe_observer(w.clone());
        w.outer.assert_notifications(&[Next(0), Completed]);
        w.window(0).assert_notifications(&[Completed]);
    }

    #[test]
    fn the_first_window_opens_before_the_source_is_subscribed() {
        let w = Windows::new();
        let outer = w.outer.clone();
        create(move |mut e| {
            outer.assert_values(&[0]);
            e.on_next(1);
        })
        .window(2)
        .subscribe_observer(w.clone());
        w.outer.assert_notifications(&[Next(0)]);
        w.window(0).assert_notifications(&[Next(1)]);
    }

    #[test]
    fn an_error_reaches_the_open_window_then_the_outer() {
        let w = Windows::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_next(3);
            e.on_error(Error::msg("boom"));
        })
        .window(2)
        .subscribe_observer(w.clone());
        w.outer.assert_values(&[0, 1]);
        w.outer.assert_error("boom");
        w.window(0)
            .assert_notifications(&[Next(1), Next(2), Completed]);
        w.window(1)
            .assert_notifications(&[Next(3), Notification::Error(Error::msg("boom"))]);

        let w = Windows::new();
        create(|e| e.on_error(Error::msg("boom")))
            .window(2)
            .subscribe_observer(w.clone());
        w.outer.assert_values(&[0]);
        w.outer.assert_error("boom");
        w.window(0)
            .assert_notifications(&[Notification::Error(Error::msg("boom"))]);
    }

    #[test]
    fn subscribing_inside_on_next_receives_the_values() {
        // The RPP benchmark's shape.
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        just(1).window(2).subscribe(move |w| {
            let s = s.clone();
            w.subscribe(move |v| s.lock().unwrap().push(v));
        });
        assert_eq!(*seen.lock().unwrap(), [1]);
    }

    #[test]
    fn an_unsubscribed_window_is_abandoned_empty_and_keeps_the_boundaries() {
        let late = Arc::new(Mutex::new(Vec::new()));
        let l = late.clone();
        from_iter(1..=5)
            .window(2)
            .subscribe(move |w| l.lock().unwrap().push(w));
        let late = late.lock().unwrap();
        assert_eq!(late.len(), 3, "windows still open every 2 values");
        for window in late.iter() {
            let o = TestObserver::new();
            window.clone().subscribe_observer(o.clone());
            o.assert_notifications(&[Completed]);
        }
    }

    #[test]
    fn only_the_abandoned_windows_lose_their_values() {
        let windows = Arc::new(Mutex::new(Vec::new()));
        let w = windows.clone();
        let mut n = 0;
        from_iter(1..=6).window(2).subscribe(move |window| {
            n += 1;
            let o = TestObserver::new();
            if n != 2 {
                window.subscribe_observer(o.clone());
            }
            w.lock().unwrap().push(o);
        });
        let windows = windows.lock().unwrap();
        assert_eq!(windows.len(), 4);
        windows[0].assert_notifications(&[Next(1), Next(2), Completed]);
        windows[1].assert_notifications(&[]);
        windows[2].assert_notifications(&[Next(5), Next(6), Completed]);
        windows[3].assert_notifications(&[Completed]);
    }

    #[test]
    fn a_disposed_window_keeps_the_boundaries() {
        let windows = Arc::new(Mutex::new(Vec::new()));
        let w = windows.clone();
        from_iter(1..=6).window(3).subscribe(move |window| {
            let o = TestObserver::new();
            window.take(1).subscribe_observer(o.clone());
            w.lock().unwrap().push(o);
        });
        let windows = windows.lock().unwrap();
        assert_eq!(windows.len(), 3);
        windows[0].assert_notifications(&[Next(1), Completed]);
        windows[1].assert_notifications(&[Next(4), Completed]);
        windows[2].assert_notifications(&[Completed]);
    }

    #[test]
    fn outer_disposal_stops_an_endless_source_once_the_window_ends() {
        let values = TestObserver::new();
        let v = values.clone();
        from_iter(0..).window(3).take(1).subscribe(move |window| {
            window.subscribe_observer(v.clone());
        });
        values.assert_notifications(&[Next(0), Next(1), Next(2), Completed]);
    }

    #[test]
    #[should_panic(expected = "window: count must be positive")]
    fn zero_count_panics() {
        let _ = just(1).window(0);
    }
}
