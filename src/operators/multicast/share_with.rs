//! [`ObservableExt::share_with`](crate::ObservableExt::share_with) and
//! [`ObservableExt::share_replay_retained`](crate::ObservableExt::share_replay_retained): `share`
//! with RxJS 7's choices of subject and of when to start over.
//!
//! Both are a [`RefCount`] over a [`ConnectableObservable`] whose every connection feeds a
//! subject from the connector, with the resets the configuration asks for.

use super::connectable::ConnectableObservable;
use super::ref_count::{RefCount, Resets};
use crate::observable::Observable;
use crate::subjects::ReplaySubject;

/// How [`share_with`](crate::ObservableExt::share_with) shares: RxJS 7's `ShareConfig`.
///
/// [`ShareConfig::new`] sets every reset, as RxJS's defaults do (which is
/// [`share`](crate::ObservableExt::share)); clear the ones to keep the subject across.
///
/// RxJS also accepts a function returning a notifier for each reset, to reset later; here a
/// reset is at once or never.
#[derive(Clone, Copy, Debug)]
pub struct ShareConfig<F> {
    /// Makes the subject each connection feeds (RxJS's `connector`), the first one included.
    pub connector: F,
    /// After the source fails, the next subscriber starts a new connection with a fresh
    /// subject; otherwise it joins the failed subject.
    pub reset_on_error: bool,
    /// After the source completes, the next subscriber starts a new connection with a fresh
    /// subject; otherwise it joins the completed subject (and gets what it replays).
    pub reset_on_complete: bool,
    /// When the last subscriber leaves, the source is disconnected and the next subscriber
    /// starts over; otherwise the connection runs on, feeding the subject for whoever comes.
    pub reset_on_ref_count_zero: bool,
    /// Subscribers each connection waits for: the `min_subscribers`th connects the source
    /// (RxJava's `refCount(n)`, Rx.NET's `RefCount(minObservers)`); 1 by default.
    pub min_subscribers: usize,
}

impl<F> ShareConfig<F> {
    /// A configuration with `connector` and every reset set.
    pub fn new(connector: F) -> Self {
        ShareConfig {
            connector,
            reset_on_error: true,
            reset_on_complete: true,
            reset_on_ref_count_zero: true,
            min_subscribers: 1,
        }
    }
}

impl<S, J: crate::subjects::sealed::Sealed> RefCount<S, J> {
    pub(crate) fn share_with<F>(source: S, config: ShareConfig<F>) -> Self
    where
        F: Fn() -> J + Send + Sync + 'static,
    {
        let resets = Resets {
            on_error: config.reset_on_error,
            on_complete: config.reset_on_complete,
            on_ref_count_zero: config.reset_on_ref_count_zero,
        };
        RefCount::with_resets(
            ConnectableObservable::with_connector(source, config.connector),
            resets,
        )
        .with_min_subscribers(config.min_subscribers)
    }
}

impl<S: Observable> RefCount<S, ReplaySubject<S::Item>>
where
    S::Item: Clone + Send + 'static,
{
    pub(crate) fn share_replay_retained(source: S, capacity: usize) -> Self {
        assert!(
            capacity > 0,
            "share_replay_retained: the buffer size must be positive"
        );
        RefCount::share_with(
            source,
            ShareConfig {
                reset_on_error: true,
                reset_on_complete: false,
                reset_on_ref_count_zero: false,
                ..ShareConfig::new(move || ReplaySubject::with_capacity(capacity))
            },
        )
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::ShareConfig;
    use crate::prelude::*;
    use crate::source::from_iter;
    use crate::subjects::{PublishSubject, ReplaySubject};
    use crate::test_kit::counting::CountingSource;
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn replay_config(n: usize) -> ShareConfig<impl Fn() -> ReplaySubject<i32> + Send + Sync> {
        ShareConfig::new(move || ReplaySubject::with_capacity(n))
    }

    #[test]
    fn every_reset_is_share_through_the_connector_s_subject() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share_with(replay_config(1));
        let a = TestObserver::new();
        let ha = shared.clone().subscribe_observer(a.clone());
        input.observer().on_next(1);
        let b = TestObserver::new();
        let hb = shared.clone().subscribe_observer(b.clone());
        b.assert_values(&[1]);
        ha.dispose();
        hb.dispose();
        assert_eq!((src.subscriptions(), src.disposals()), (1, 1));
        // A fresh subject: nothing replayed.
        let c = TestObserver::new();
        shared.clone().subscribe_observer(c.clone());
        c.assert_values(&[]);
        assert_eq!(src.subscriptions(), 2);
    }

    #[test]
    fn without_a_reset_on_zero_the_connection_runs_on() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share_with(ShareConfig {
            reset_on_ref_count_zero: false,
            ..replay_config(2)
        });
        let a = TestObserver::new();
        shared.clone().subscribe_observer(a.clone()).dispose();
        input.observer().on_next(1);
        input.observer().on_next(2);
        input.observer().on_next(3);
        assert_eq!((src.subscriptions(), src.disposals()), (1, 0));
        let b = TestObserver::new();
        shared.clone().subscribe_observer(b.clone());
        b.assert_values(&[2, 3]);
        assert_eq!(src.subscriptions(), 1);
    }

    #[test]
    fn without_a_reset_on_complete_late_subscribers_get_the_replay() {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = crate::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            from_iter([1, 2, 3])
        })
        .share_with(ShareConfig {
            reset_on_complete: false,
            ..replay_config(2)
        });
        let a = TestObserver::new();
        shared.clone().subscribe_observer(a.clone());
        a.assert_values(&[1, 2, 3]);
        let b = TestObserver::new();
        shared.clone().subscribe_observer(b.clone());
        b.assert_notifications(&[
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn with_a_reset_on_error_the_next_subscriber_starts_over() {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = crate::source::defer(move || {
            let run = r.fetch_add(1, Ordering::SeqCst);
            from_iter([run as i32]).concat_with(crate::source::throw(Error::msg("bad")))
        })
        .share_with(ShareConfig {
            reset_on_complete: false,
            reset_on_ref_count_zero: false,
            ..replay_config(1)
        });
        for run in 0..2 {
            let o = TestObserver::new();
            shared.clone().subscribe_observer(o.clone());
            o.assert_notifications(&[
                Notification::Next(run),
                Notification::Error(Error::msg("bad")),
            ]);
        }
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn without_a_reset_on_error_late_subscribers_get_the_error() {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = crate::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            crate::source::throw::<i32>(Error::msg("bad"))
        })
        .share_with(ShareConfig {
            reset_on_error: false,
            ..ShareConfig::new(PublishSubject::new)
        });
        for _ in 0..2 {
            let o = TestObserver::new();
            shared.clone().subscribe_observer(o.clone());
            o.assert_error("bad");
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_source_that_completes_with_nobody_subscribed_is_kept_completed() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share_replay_retained(1);
        shared
            .clone()
            .subscribe_observer(TestObserver::new())
            .dispose();
        input.observer().on_next(1);
        input.observer().on_completed();
        let late = TestObserver::new();
        shared.clone().subscribe_observer(late.clone());
        late.assert_notifications(&[Notification::Next(1), Notification::Completed]);
        assert_eq!(src.subscriptions(), 1);
    }

    #[test]
    fn share_replay_retained_keeps_the_buffer_and_the_connection() {
        let input = PublishSubject::new();
        let src = CountingSource::new(&input);
        let shared = src.clone().share_replay_retained(2);
        let a = TestObserver::new();
        let ha = shared.clone().subscribe_observer(a.clone());
        input.observer().on_next(1);
        input.observer().on_next(2);
        ha.dispose();
        input.observer().on_next(3);
        let b = TestObserver::new();
        shared.clone().subscribe_observer(b.clone());
        b.assert_values(&[2, 3]);
        assert_eq!((src.subscriptions(), src.disposals()), (1, 0));
        // Today's `share_replay` starts over instead.
        let c = TestObserver::new();
        let again = src.clone().share_replay(2);
        again.clone().subscribe_observer(c.clone()).dispose();
        assert_eq!(src.disposals(), 1);
    }
}
