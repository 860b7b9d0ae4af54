//! [`ObservableExt::on_error_resume_next`](crate::ObservableExt::on_error_resume_next).

use crate::Error;
use crate::engine::serial::Serial;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, Mutex};
use crate::subscription::Subscription;
use std::fmt;

/// Continues with a fallback observable when the source fails; built by
/// [`ObservableExt::on_error_resume_next`](crate::ObservableExt::on_error_resume_next).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "onErrorResumeNext")]
#[doc(alias = "catchError")]
#[doc(alias = "catch")]
pub struct OnErrorResumeNext<S, F> {
    source: S,
    f: F,
}

impl<S, F> OnErrorResumeNext<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        OnErrorResumeNext { source, f }
    }
}

impl<S, F, R> Observable for OnErrorResumeNext<S, F>
where
    S: Observable,
    F: FnOnce(Error) -> R,
    R: Observable<Item = S::Item>,
{
    type Item = S::Item;
    type Flavour = crate::sync::Joined<<S as Observable>::Flavour, <R as Observable>::Flavour>;
}

impl<S, F, R, O> Subscribe<O> for OnErrorResumeNext<S, F>
where
    S: Subscribe<OnErrorResumeNextObserver<O, F, <R as Subscribe<O>>::Subscription>>,
    F: FnOnce(Error) -> R,
    R: Subscribe<O> + Observable<Item = <S as Observable>::Item>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription =
        OnErrorResumeNextSubscription<S::Subscription, <R as Subscribe<O>>::Subscription>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let fallback = Arc::new(Serial::new());
        let (upstream, early) = fallback.first(|| {
            self.source.subscribe_observer(OnErrorResumeNextObserver {
                observer,
                f: self.f,
                fallback: fallback.clone(),
            })
        });
        OnErrorResumeNextSubscription {
            upstream,
            fallback,
            early: early.map(Mutex::new),
        }
    }
}

/// The observer [`OnErrorResumeNext`] subscribes upstream.
pub struct OnErrorResumeNextObserver<O, F, D> {
    observer: O,
    f: F,
    /// Where the fallback's handle is handed to the subscription's handle: an error may
    /// arrive on another thread after `subscribe` returned.
    fallback: Arc<Serial<D>>,
}

impl<T, O, F, R, D> Observer<T> for OnErrorResumeNextObserver<O, F, D>
where
    O: Observer<T>,
    F: FnOnce(Error) -> R,
    R: Subscribe<O, Subscription = D>,
    D: Subscription,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        let (f, observer) = (self.f, self.observer);
        self.fallback
            .second(|| f(error).subscribe_observer(observer));
    }

    #[inline]
    fn on_completed(self) {
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.fallback.is_disposed()
    }
}

impl<O, F, D> fmt::Debug for OnErrorResumeNextObserver<O, F, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OnErrorResumeNextObserver")
    }
}

/// The handle of an [`OnErrorResumeNext`] subscription: disposes the source and, once it
/// has failed, the fallback.
pub struct OnErrorResumeNextSubscription<U, D> {
    upstream: U,
    fallback: Arc<Serial<D>>,
    /// The fallback's handle, when the source failed inside `subscribe` (see
    /// [`Serial::first`]). A lock, so the handle is `Sync` when the fallback's is `Send`;
    /// taken only by `dispose` and `is_disposed`.
    early: Option<Mutex<D>>,
}

impl<U: Subscription, D: Subscription> Subscription for OnErrorResumeNextSubscription<U, D> {
    fn dispose(&self) {
        self.fallback.dispose(&self.upstream);
        if let Some(early) = &self.early {
            early.lock().dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        match &self.early {
            Some(early) => self.fallback.is_disposed() || early.lock().is_disposed(),
            None => self.fallback.is_over(&self.upstream),
        }
    }
}

impl<U, D> fmt::Debug for OnErrorResumeNextSubscription<U, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnErrorResumeNextSubscription")
            .field("disposed", &self.fallback.is_disposed())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::subscription::FlagSubscription;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn continues_with_the_fallback_after_an_error() {
        let o = TestObserver::new();
        let handle = from_iter([Ok(1), Ok(2), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .on_error_resume_next(|_| from_iter([10, 20]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(10),
            Notification::Next(20),
            Notification::Completed,
        ]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn the_closure_sees_the_error_and_the_fallbacks_error_passes() {
        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("first"))
            .on_error_resume_next(|e| throw::<i32>(Error::msg(format!("{e}, then second"))))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("first, then second"))]);
    }

    #[test]
    fn completion_passes_through_without_calling_f() {
        let o = TestObserver::new();
        let handle = from_iter(1..=2)
            .on_error_resume_next(|_| -> crate::source::Just<i32> { unreachable!() })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn an_endless_fallback_stops_when_downstream_is_disposed() {
        let o = TestObserver::new();
        let probe = o.clone();
        throw::<i32>(Error::msg("bad"))
            .on_error_resume_next(|_| from_iter(0..))
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    /// A source that never terminates by itself and hands out a flag handle, like a timer.
    #[derive(Clone)]
    struct Pending(FlagSubscription);

    impl Observable for Pending {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32>> Subscribe<O> for Pending {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, _observer: O) -> FlagSubscription {
            self.0
        }
    }

    #[test]
    fn dispose_reaches_the_running_fallback() {
        let fallback_handle = FlagSubscription::new();
        let fallback = Pending(fallback_handle.clone());
        let o = TestObserver::new();
        let handle = just(1)
            .try_map(|_| Err::<i32, _>(Error::msg("bad")))
            .on_error_resume_next(move |_| fallback)
            .subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(fallback_handle.is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn dispose_reaches_the_source_before_it_fails() {
        let source_handle = FlagSubscription::new();
        let o = TestObserver::new();
        let handle = Pending(source_handle.clone())
            .on_error_resume_next(|_| just(1))
            .subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(source_handle.is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn an_error_after_dispose_subscribes_no_fallback() {
        let o = TestObserver::<i32>::new();
        let mut subscribed = false;
        let observer = super::OnErrorResumeNextObserver {
            observer: o.clone(),
            f: |_| {
                subscribed = true;
                just(1)
            },
            fallback: {
                let fallback = super::Serial::new();
                fallback.dispose(&crate::subscription::Finished);
                crate::primitive::Arc::new(fallback)
            },
        };
        assert!(observer.is_disposed());
        observer.on_error(Error::msg("late"));
        assert!(!subscribed);
        o.assert_notifications(&[]);
    }

    #[test]
    fn the_error_may_arrive_on_another_thread() {
        let o = TestObserver::new();
        let (tx, rx) = std::sync::mpsc::channel::<super::OnErrorResumeNextObserver<_, _, _>>();
        struct Remote<T>(std::sync::mpsc::Sender<T>);
        impl<T> Observable for Remote<T> {
            type Item = i32;
            type Flavour = crate::sync::Shared;
        }
        impl<T> Subscribe<T> for Remote<T> {
            type Subscription = crate::subscription::Finished;
            fn subscribe_observer(self, observer: T) -> Self::Subscription {
                self.0.send(observer).unwrap();
                crate::subscription::Finished
            }
        }
        let handle = Remote(tx)
            .on_error_resume_next(|_| from_iter([7, 8]))
            .subscribe_observer(o.clone());
        let observer = rx.recv().unwrap();
        std::thread::spawn(move || {
            let mut observer = observer;
            Observer::<i32>::on_next(&mut observer, 1);
            Observer::<i32>::on_error(observer, Error::msg("bad"));
        })
        .join()
        .unwrap();
        o.assert_values(&[1, 7, 8]);
        o.assert_completed();
        assert!(handle.is_disposed());
    }
}
