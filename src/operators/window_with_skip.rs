//! [`ObservableExt::window_with_skip`](crate::ObservableExt::window_with_skip): windows of
//! `count` values, one opened every `skip` values.
//!
//! The windows themselves, their buffering, abandonment and the reference-counted upstream
//! are in `split_core`, as for [`window`](crate::ObservableExt::window).

use super::window::WindowedObservable;
use crate::Error;
use crate::engine::split_core::{Inner, InnerPtr};
use crate::engine::split_refs::{Refs, RefsPtr, SplitSubscription};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Shared};
use std::collections::VecDeque;
use std::fmt;
use std::marker::PhantomData;

/// Splits an observable into windows of `count` values, opening one every `skip` values;
/// built by [`ObservableExt::window_with_skip`](crate::ObservableExt::window_with_skip).
///
/// The lifetime `'a` bounds what the windows' subscribers and the source's handle borrow; it
/// is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "windowCount")]
pub struct WindowWithSkip<'a, S> {
    source: S,
    count: usize,
    skip: usize,
    _inners: PhantomData<&'a ()>,
}

impl<S> WindowWithSkip<'_, S> {
    pub(crate) fn new(source: S, count: usize, skip: usize) -> Self {
        assert!(count > 0, "window_with_skip: count must be positive");
        assert!(skip > 0, "window_with_skip: skip must be positive");
        WindowWithSkip {
            source,
            count,
            skip,
            _inners: PhantomData,
        }
    }
}

impl<'a, S: Observable> Observable for WindowWithSkip<'a, S> {
    type Item = WindowedObservable<'a, S::Item, <S as Observable>::Flavour>;
    type Flavour = <S as Observable>::Flavour;
}

/// The observer [`WindowWithSkip`] subscribes to its source, as a type.
type SourceObserver<'a, S, O> =
    WindowWithSkipObserver<'a, O, <S as Observable>::Item, <S as Observable>::Flavour>;

impl<'a, S, O> Subscribe<O> for WindowWithSkip<'a, S>
where
    S: Subscribe<SourceObserver<'a, S, O>>,
    <S as Observable>::Flavour:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O>>>::Subscription>,
    <S as Observable>::Item: Clone,
    O: Observer<WindowedObservable<'a, <S as Observable>::Item, <S as Observable>::Flavour>>,
{
    type Subscription = SplitSubscription<'a, <S as Observable>::Flavour>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let refs = Refs::<<S as Observable>::Flavour>::shared();
        let mut observer = WindowWithSkipObserver {
            downstream: observer,
            count: self.count,
            skip: self.skip,
            index: 0,
            open: VecDeque::new(),
            refs: refs.clone(),
        };
        // The first window opens before the source is subscribed, as in RxJS's
        // `windowCount(count, skip)` and Rx.NET's `Window(count, skip)`.
        observer.open_window();
        let handle = self.source.subscribe_observer(observer);
        refs.set_upstream(handle);
        SplitSubscription::new(refs)
    }
}

/// The observer [`WindowWithSkip`] subscribes upstream; its windows are of flavour `F`, the
/// source's.
pub struct WindowWithSkipObserver<'a, O, T, F: Flavour = Shared> {
    downstream: O,
    count: usize,
    skip: usize,
    /// Values seen so far: a window opens on subscription and after each multiple of `skip`.
    index: u64,
    /// The open windows, oldest first, each with the number of values it has received; at
    /// most `ceil(count / skip)` of them. An abandoned window stays here until its count is
    /// reached, so that the windows after it keep their boundaries.
    open: VecDeque<(InnerPtr<'a, T, F>, usize)>,
    refs: RefsPtr<'a, F>,
}

impl<'a, T, O, F: Flavour> WindowWithSkipObserver<'a, O, T, F>
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

    /// Opens a window and emits it. A window nobody subscribes to during that call is
    /// abandoned: it completes empty, and the values that would have gone into it are
    /// dropped.
    fn open_window(&mut self) {
        if !self.wants_windows() {
            return;
        }
        let Some(inner) = Inner::<T, F>::open(&self.refs) else {
            return;
        };
        self.open.push_back((inner.clone(), 0));
        self.downstream
            .on_next(WindowedObservable::new(inner.clone()));
        self.wants_windows();
        if inner.abandon_unless_subscribed() {
            inner.end(None);
        }
    }
}

impl<'a, T, O, F: Flavour> Observer<T> for WindowWithSkipObserver<'a, O, T, F>
where
    T: Clone,
    O: Observer<WindowedObservable<'a, T, F>>,
{
    fn on_next(&mut self, value: T) {
        if let Some(((last, size), rest)) = self.open.make_contiguous().split_last_mut() {
            for (window, size) in rest {
                window.next(value.clone());
                *size += 1;
            }
            last.next(value);
            *size += 1;
        }
        while self
            .open
            .front()
            .is_some_and(|(_, size)| *size >= self.count)
        {
            if let Some((window, _)) = self.open.pop_front() {
                window.end(None);
            }
        }
        // The next window opens after this value, not with the next one: the window that
        // opens after the last value of the source completes empty with it.
        self.index += 1;
        if self.index.is_multiple_of(self.skip as u64) {
            self.open_window();
        }
    }

    fn on_error(self, error: Error) {
        for (window, _) in &self.open {
            window.end(Some(error.clone()));
        }
        if self.wants_windows() {
            self.downstream.on_error(error);
        }
    }

    fn on_completed(self) {
        for (window, _) in &self.open {
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

impl<O, T, F: Flavour> fmt::Debug for WindowWithSkipObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindowWithSkipObserver")
            .field("count", &self.count)
            .field("skip", &self.skip)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification::{self, Completed, Next};
    use crate::operators::WindowedObservable;
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just};
    use crate::testing::TestObserver;
    use std::sync::{Arc, Mutex};

    /// Subscribes each window with a test observer of its own.
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

        fn contents(&self) -> Vec<Vec<Notification<i32>>> {
            self.windows
                .lock()
                .unwrap()
                .iter()
                .map(|o| o.notifications())
                .collect()
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
    fn overlapping_windows() {
        let w = Windows::new();
        from_iter(1..=5)
            .window_with_skip(3, 1)
            .subscribe_observer(w.clone());
        assert_eq!(
            w.contents(),
            [
                vec![Next(1), Next(2), Next(3), Completed],
                vec![Next(2), Next(3), Next(4), Completed],
                vec![Next(3), Next(4), Next(5), Completed],
                vec![Next(4), Next(5), Completed],
                vec![Next(5), Completed],
                vec![Completed],
            ]
        );
        w.outer.assert_values(&[0, 1, 2, 3, 4, 5]);
        w.outer.assert_completed();
    }

    #[test]
    fn gaps_between_windows_are_dropped() {
        let w = Windows::new();
        from_iter(1..=8)
            .window_with_skip(2, 3)
            .subscribe_observer(w.clone());
        assert_eq!(
            w.contents(),
            [
                vec![Next(1), Next(2), Completed],
                vec![Next(4), Next(5), Completed],
                vec![Next(7), Next(8), Completed],
            ]
        );
        w.outer.assert_completed();
    }

    #[test]
    fn equal_count_and_skip_is_window() {
        let w = Windows::new();
        from_iter(1..=5)
            .window_with_skip(2, 2)
            .subscribe_observer(w.clone());
        assert_eq!(
            w.contents(),
            [
                vec![Next(1), Next(2), Completed],
                vec![Next(3), Next(4), Completed],
                vec![Next(5), Completed],
            ]
        );
    }

    #[test]
    fn an_empty_source_gives_one_empty_window() {
        let w = Windows::new();
        empty().window_with_skip(2, 1).subscribe_observer(w.clone());
        w.outer.assert_notifications(&[Next(0), Completed]);
        assert_eq!(w.contents(), [vec![Completed]]);
    }

    #[test]
    fn an_error_reaches_every_open_window_then_the_outer() {
        let w = Windows::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_error(Error::msg("boom"));
        })
        .window_with_skip(3, 1)
        .subscribe_observer(w.clone());
        let boom = || Notification::Error(Error::msg("boom"));
        assert_eq!(
            w.contents(),
            [
                vec![Next(1), Next(2), boom()],
                vec![Next(2), boom()],
                vec![boom()]
            ]
        );
        w.outer.assert_error("boom");
    }

    #[test]
    fn an_unsubscribed_window_is_abandoned_empty_and_keeps_the_boundaries() {
        let late = Arc::new(Mutex::new(Vec::new()));
        let l = late.clone();
        from_iter(1..=3)
            .window_with_skip(2, 1)
            .subscribe(move |w| l.lock().unwrap().push(w));
        let late = late.lock().unwrap();
        assert_eq!(
            late.len(),
            4,
            "a window on subscription and one after each value"
        );
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
        from_iter(1..=4)
            .window_with_skip(3, 1)
            .subscribe(move |window| {
                n += 1;
                let o = TestObserver::new();
                if n != 2 {
                    window.subscribe_observer(o.clone());
                }
                w.lock().unwrap().push(o);
            });
        let windows = windows.lock().unwrap();
        let contents: Vec<_> = windows.iter().map(|o| o.notifications()).collect();
        assert_eq!(
            contents,
            [
                vec![Next(1), Next(2), Next(3), Completed],
                vec![],
                vec![Next(3), Next(4), Completed],
                vec![Next(4), Completed],
                vec![Completed],
            ]
        );
    }

    #[test]
    fn outer_disposal_stops_an_endless_source_once_the_windows_end() {
        let values = TestObserver::new();
        let v = values.clone();
        from_iter(0..)
            .window_with_skip(3, 2)
            .take(1)
            .subscribe(move |window| {
                window.subscribe_observer(v.clone());
            });
        values.assert_notifications(&[Next(0), Next(1), Next(2), Completed]);
    }

    #[test]
    #[should_panic(expected = "skip must be positive")]
    fn zero_skip_panics() {
        let _ = just(1).window_with_skip(1, 0);
    }
}
