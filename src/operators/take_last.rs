//! [`ObservableExt::take_last`](crate::ObservableExt::take_last).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::collections::VecDeque;

/// How many slots the window reserves on the first value. A window up to this size never
/// reallocates; a larger one grows with the values actually seen, so `take_last(usize::MAX)`
/// does not try to allocate `usize::MAX` slots up front.
const MAX_RESERVED: usize = 1024;

/// Emits the last `count` values when the source completes; built by
/// [`ObservableExt::take_last`](crate::ObservableExt::take_last).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "takeLast")]
pub struct TakeLast<S> {
    source: S,
    count: usize,
}

impl<S> TakeLast<S> {
    pub(crate) fn new(source: S, count: usize) -> Self {
        TakeLast { source, count }
    }
}

impl<S: Observable> Observable for TakeLast<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for TakeLast<S>
where
    S: Subscribe<TakeLastObserver<O, <S as Observable>::Item>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(TakeLastObserver {
            observer,
            window: Window::new(self.count),
        })
    }
}

/// The observer [`TakeLast`] subscribes upstream.
#[derive(Debug)]
pub struct TakeLastObserver<O, T> {
    observer: O,
    window: Window<T>,
}

/// The latest values, oldest first.
#[derive(Debug)]
enum Window<T> {
    /// `take_last(0)`: nothing is kept.
    None,
    /// `take_last(1)`, the common case: the latest value in place, no allocation.
    One(Option<T>),
    /// The latest `count` values at most, in a buffer allocated once, on the first value.
    Many { count: usize, values: VecDeque<T> },
}

impl<T> Window<T> {
    fn new(count: usize) -> Self {
        match count {
            0 => Window::None,
            1 => Window::One(None),
            count => Window::Many {
                count,
                values: VecDeque::new(),
            },
        }
    }
}

impl<T, O: Observer<T>> Observer<T> for TakeLastObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        match &mut self.window {
            Window::None => {}
            Window::One(latest) => *latest = Some(value),
            Window::Many { count, values } => {
                if values.len() == *count {
                    values.pop_front();
                } else if values.capacity() == 0 {
                    *values = VecDeque::with_capacity((*count).min(MAX_RESERVED));
                }
                values.push_back(value);
            }
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        // As in RxJava, an error discards the window: the values are not known to be last.
        drop(self.window);
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        let mut observer = self.observer;
        match self.window {
            Window::None | Window::One(None) => {}
            Window::One(Some(value)) => {
                if observer.is_disposed() {
                    return;
                }
                observer.on_next(value);
            }
            Window::Many { values, .. } => {
                for value in values {
                    if observer.is_disposed() {
                        return;
                    }
                    observer.on_next(value);
                }
            }
        }
        if !observer.is_disposed() {
            observer.on_completed();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_the_last_values_on_completion() {
        let o = TestObserver::new();
        from_iter(1..=5).take_last(2).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(4),
            Notification::Next(5),
            Notification::Completed,
        ]);
    }

    #[test]
    fn edge_counts() {
        let o = TestObserver::new();
        from_iter(1..=5).take_last(0).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::new();
        from_iter(1..=3).take_last(3).subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();

        let o = TestObserver::new();
        from_iter(1..=2).take_last(5).subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        empty().take_last(5).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn a_huge_count_does_not_reserve_it_up_front() {
        let o = TestObserver::new();
        from_iter(0..3)
            .take_last(usize::MAX)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
    }

    #[test]
    fn the_window_never_grows_past_count() {
        let o = TestObserver::new();
        let mut take_last = super::TakeLastObserver {
            observer: o.clone(),
            window: super::Window::new(3),
        };
        for v in 0..100 {
            take_last.on_next(v);
        }
        let super::Window::Many { values, .. } = &take_last.window else {
            panic!("a window of 3 keeps a buffer");
        };
        assert_eq!(values.capacity(), 3);
        take_last.on_completed();
        o.assert_values(&[97, 98, 99]);
        o.assert_completed();
    }

    #[test]
    fn take_last_one_keeps_the_latest_in_place() {
        let o = TestObserver::new();
        let mut take_last = super::TakeLastObserver {
            observer: o.clone(),
            window: super::Window::new(1),
        };
        for v in 0..10 {
            take_last.on_next(v);
        }
        assert!(matches!(take_last.window, super::Window::One(Some(9))));
        take_last.on_completed();
        o.assert_notifications(&[Notification::Next(9), Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty().take_last(1).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        // Disposed before the completion: the kept value is not delivered.
        let o = TestObserver::new();
        let probe = o.clone();
        create(move |mut e| {
            e.on_next(1);
            probe.dispose();
            e.on_completed();
        })
        .take_last(1)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn error_discards_the_window() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .take_last(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_error(Error::msg("mid-way"));
        })
        .take_last(2)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("mid-way"))]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .take_last(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(emitted, 4);
    }

    #[test]
    fn downstream_disposed_while_draining_gets_no_more() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..10)
            .take_last(3)
            .map(|v| {
                if v == 8 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[7, 8]);
        o.assert_not_terminated();
    }
}
