//! [`ObservableExt::finally`](crate::ObservableExt::finally) and
//! [`tap_dispose`](crate::ObservableExt::tap_dispose), over the shared end of
//! [`engine::ending`](crate::engine::ending).

use crate::engine::ending::{Ending, FinallyObserver, FinallySubscription, Finish};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// Runs an action once the subscription ends, however it ends; built by
/// [`ObservableExt::finally`](crate::ObservableExt::finally).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "do_finally")]
#[doc(alias = "doFinally")]
#[doc(alias = "finalize")]
pub struct Finally<S, F> {
    source: S,
    f: F,
}

impl<S, F> Finally<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        Finally { source, f }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for Finally<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Finally")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, F> Observable for Finally<S, F>
where
    S: Observable,
    F: Finish,
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, F, O> Subscribe<O> for Finally<S, F>
where
    S: Subscribe<FinallyObserver<O, F>>,
    F: Finish,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = FinallySubscription<S::Subscription, F>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        Ending::new(self.f).subscribe(self.source, observer)
    }
}

/// Runs an action when the subscription is disposed before it ends; built by
/// [`ObservableExt::tap_dispose`](crate::ObservableExt::tap_dispose).
#[doc(alias = "doOnDispose")]
#[doc(alias = "do_on_dispose")]
#[doc(alias = "unsubscribe")]
pub type TapDispose<S, F> = Finally<S, OnDispose<F>>;

/// The action of [`TapDispose`]: `F`, run on disposal only, dropped at a terminal
/// notification.
#[derive(Clone, Debug)]
pub struct OnDispose<F>(pub(crate) F);

impl<F: FnOnce()> Finish for OnDispose<F> {
    const ON_TERMINAL: bool = false;

    fn finish(self) {
        (self.0)()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::tests_support::Manual;
    use crate::Error;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::primitive::{Arc, AtomicUsize, Ordering};
    use crate::source::{from_iter, just};
    use crate::testing::TestObserver;
    use std::cell::{Cell, RefCell};

    #[test]
    fn runs_once_after_downstream_completes() {
        let log = RefCell::new(Vec::new());
        let handle = from_iter([1, 2])
            .finally(|| log.borrow_mut().push("finally".to_string()))
            .subscribe_with(
                |v| log.borrow_mut().push(format!("next {v}")),
                |_| unreachable!(),
                || log.borrow_mut().push("completed".into()),
            );
        assert!(handle.is_disposed());
        handle.dispose();
        handle.dispose();
        assert_eq!(
            log.into_inner(),
            ["next 1", "next 2", "completed", "finally"]
        );
    }

    #[test]
    fn runs_once_after_downstream_errors() {
        let log = RefCell::new(Vec::new());
        let handle = from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .finally(|| log.borrow_mut().push("finally".to_string()))
            .subscribe_with(
                |v| log.borrow_mut().push(format!("next {v}")),
                |e| log.borrow_mut().push(format!("error {e}")),
                || unreachable!(),
            );
        assert!(handle.is_disposed());
        handle.dispose();
        assert_eq!(log.into_inner(), ["next 1", "error bad", "finally"]);
    }

    #[test]
    fn runs_once_when_the_handle_of_an_endless_subscription_is_disposed() {
        let runs = Arc::new(AtomicUsize::new(0));
        let counter = runs.clone();
        let source = Manual::<i32>::new();
        let o = TestObserver::new();
        let handle = source
            .clone()
            .finally(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            })
            .subscribe_observer(o.clone());
        source.emit(1);
        assert!(!handle.is_disposed());
        assert_eq!(runs.load(Ordering::SeqCst), 0);

        handle.dispose();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(handle.is_disposed());
        assert!(source.is_disposed(), "disposing reaches upstream");

        // Neither a second dispose nor a late terminal from upstream runs it again.
        handle.dispose();
        source.complete();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        o.assert_values(&[1]);
    }

    #[test]
    fn runs_once_when_downstream_stops_an_endless_source() {
        let runs = Cell::new(0);
        let o = TestObserver::new();
        let probe = o.clone();
        let handle = from_iter(0..)
            .finally(|| runs.set(runs.get() + 1))
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        assert_eq!(runs.get(), 1);
        assert!(handle.is_disposed());
        handle.dispose();
        assert_eq!(runs.get(), 1);
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn runs_when_subscribed_by_an_already_disposed_observer() {
        let runs = Cell::new(0);
        let o = TestObserver::<i32>::new();
        o.dispose();
        just(1)
            .finally(|| runs.set(runs.get() + 1))
            .subscribe_observer(o.clone());
        assert_eq!(runs.get(), 1);
        o.assert_values(&[]);
    }

    #[test]
    fn each_subscription_runs_its_own_action() {
        let runs = Cell::new(0);
        let observable = from_iter([1]).finally(|| runs.set(runs.get() + 1));
        observable.clone().subscribe(|_| {});
        observable.subscribe(|_| {});
        assert_eq!(runs.get(), 2);
    }

    #[test]
    fn terminal_racing_dispose_runs_it_once() {
        for _ in 0..200 {
            let runs = Arc::new(AtomicUsize::new(0));
            let counter = runs.clone();
            let source = Manual::<i32>::new();
            let handle = source
                .clone()
                .finally(move || {
                    counter.fetch_add(1, Ordering::SeqCst);
                })
                .subscribe_observer(TestObserver::new());
            let terminator = std::thread::spawn(move || source.complete());
            handle.dispose();
            terminator.join().unwrap();
            assert_eq!(runs.load(Ordering::SeqCst), 1);
        }
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::tests_support::Manual;
    use crate::prelude::*;
    use crate::primitive::{Arc, AtomicUsize, Ordering, thread};
    use crate::testing::TestObserver;

    #[test]
    fn terminal_racing_dispose_runs_it_once() {
        loom::model(|| {
            let runs = Arc::new(AtomicUsize::new(0));
            let counter = runs.clone();
            let source = Manual::<i32>::new();
            let handle = source
                .clone()
                .finally(move || {
                    counter.fetch_add(1, Ordering::SeqCst);
                })
                .subscribe_observer(TestObserver::new());
            let terminator = thread::spawn(move || source.complete());
            handle.dispose();
            terminator.join().unwrap();
            assert_eq!(runs.load(Ordering::SeqCst), 1);
        });
    }
}

#[cfg(test)]
mod tests_support {
    use crate::observable::{Observable, Subscribe};
    use crate::observer::BoxedObserver;
    use crate::observer::Observer;
    use crate::primitive::{Arc, Mutex};
    use crate::subscription::{FlagSubscription, Subscription};

    /// A source the test drives by hand, from any thread; its handle records disposal.
    pub(super) struct Manual<T> {
        observer: Arc<Mutex<Option<BoxedObserver<'static, T>>>>,
        handle: FlagSubscription,
    }

    impl<T> Clone for Manual<T> {
        fn clone(&self) -> Self {
            Manual {
                observer: self.observer.clone(),
                handle: self.handle.clone(),
            }
        }
    }

    impl<T> Manual<T> {
        pub(super) fn new() -> Self {
            Manual {
                observer: Arc::new(Mutex::new(None)),
                handle: FlagSubscription::new(),
            }
        }

        #[cfg_attr(loom, allow(dead_code))]
        pub(super) fn emit(&self, value: T) {
            if let Some(observer) = self.observer.lock().as_mut() {
                observer.on_next(value);
            }
        }

        pub(super) fn complete(&self) {
            let observer = self.observer.lock().take();
            if let Some(observer) = observer {
                observer.on_completed();
            }
        }

        #[cfg_attr(loom, allow(dead_code))]
        pub(super) fn is_disposed(&self) -> bool {
            self.handle.is_disposed()
        }
    }

    impl<T> Observable for Manual<T> {
        type Item = T;
        type Flavour = crate::sync::Shared;
    }

    impl<T, O: Observer<T> + Send + 'static> Subscribe<O> for Manual<T> {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, observer: O) -> FlagSubscription {
            *self.observer.lock() = Some(Box::new(observer));
            self.handle
        }
    }
}
