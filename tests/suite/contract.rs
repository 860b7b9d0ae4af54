//! The observer contract, checked once for every synchronous operator:
//!
//! - exactly one terminal notification, and nothing after it, whether the source completes,
//!   fails at once, or fails after some values; an error that reaches the end is the source's;
//! - a downstream that is already disposed receives nothing, and upstream pulls nothing;
//! - a downstream that disposes itself mid-way receives nothing more, and upstream stops.
//!
//! Then again over chains built on a local subject (driven by hand), for the operators that
//! keep upstream handles: one terminal, nothing for a disposed downstream, and disposing the
//! handle unsubscribes from the subject.

use rx::Error;
use rx::prelude::*;
use rx::source::{empty, from_iter, throw};
use rx::testing::TestObserver;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

/// A counter the chain can carry across threads (some operators require `Send + 'static`).
#[derive(Clone, Default)]
struct Counter(Arc<AtomicUsize>);

impl Counter {
    fn get(&self) -> usize {
        self.0.load(SeqCst)
    }
    fn bump(&self) {
        self.0.fetch_add(1, SeqCst);
    }
}

/// Stops wanting values after `limit` of them, as a `take` further down would.
struct Quitter {
    received: Counter,
    limit: usize,
}

impl<T> Observer<T> for Quitter {
    fn on_next(&mut self, _: T) {
        assert!(self.received.get() < self.limit, "on_next after disposal");
        self.received.bump();
    }
    fn on_error(self, _: Error) {}
    fn on_completed(self) {}
    fn is_disposed(&self) -> bool {
        self.received.get() >= self.limit
    }
}

/// Two copies of a source (a clone, for the sources that are not `Copy`).
fn both<S: Clone>(s: S) -> (S, S) {
    (s.clone(), s)
}

macro_rules! contract {
    ($($name:ident: |$s:ident| $chain:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn one_terminal_after_values() {
                let o = TestObserver::new();
                { let $s = from_iter(0..20i64); $chain }.subscribe_observer(o.clone());
                o.assert_rules();
                assert!(o.is_terminated());
            }

            #[test]
            fn one_terminal_on_empty() {
                let o = TestObserver::new();
                { let $s = empty::<i64>(); $chain }.subscribe_observer(o.clone());
                o.assert_rules();
                assert!(o.is_terminated());
            }

            #[test]
            fn error_terminates_once() {
                let o = TestObserver::new();
                { let $s = throw::<i64>(Error::msg("boom")); $chain }.subscribe_observer(o.clone());
                o.assert_rules();
                assert!(o.is_terminated());
                // Operators that handle errors complete instead; the others pass it on.
                if let Some(e) = o.error() {
                    assert_eq!(e.to_string(), "boom");
                }
            }

            #[test]
            fn error_after_values_passes_once() {
                let o = TestObserver::new();
                {
                    let $s = from_iter(0..5i64).concat_with(throw(Error::msg("late")));
                    $chain
                }
                .subscribe_observer(o.clone());
                o.assert_rules();
                assert!(o.is_terminated());
                if let Some(e) = o.error() {
                    assert_eq!(e.to_string(), "late");
                }
            }

            #[test]
            fn disposed_downstream_pulls_nothing() {
                let pulled = Counter::default();
                let o = TestObserver::new();
                o.dispose();
                {
                    let counter = pulled.clone();
                    let $s = from_iter((0..1000i64).inspect(move |_| counter.bump()));
                    $chain
                }
                .subscribe_observer(o.clone());
                assert_eq!(o.notifications().len(), 0);
                assert_eq!(pulled.get(), 0);
            }

            #[test]
            fn disposal_mid_way_stops_upstream() {
                let pulled = Counter::default();
                let received = Counter::default();
                {
                    let counter = pulled.clone();
                    let $s = from_iter((0..100_000i64).inspect(move |_| counter.bump()));
                    $chain
                }
                .subscribe_observer(Quitter { received: received.clone(), limit: 1 });
                // Operators that emit only at completion pull everything; the others must
                // stop well before the end.
                if received.get() == 1 && pulled.get() < 100_000 {
                    assert!(pulled.get() < 1_000, "pulled {} values", pulled.get());
                }
            }
        }
    )*};
}

contract! {
    map: |s| s.map(|v| v * 2);
    filter: |s| s.filter(|v| v % 2 == 0);
    filter_map: |s| s.filter_map(|v| (v % 3 == 0).then_some(v));
    try_map: |s| s.try_map(|v| if v < 3 { Ok(v) } else { Err(Error::msg("late")) });
    scan: |s| s.scan(0, |a, v| a + v);
    buffer: |s| s.buffer(3).map(|b| b.len() as i64);
    buffer_with_skip: |s| s.buffer_with_skip(2, 3).map(|b| b.len() as i64);
    pairwise: |s| s.pairwise().map(|(a, b)| a + b);
    flat_map_iter: |s| s.flat_map_iter(|v| [v, v]);
    take: |s| s.take(3);
    take_zero: |s| s.take(0);
    take_last: |s| s.take_last(2);
    take_while: |s| s.take_while(|v| *v < 4);
    skip: |s| s.skip(2);
    skip_last: |s| s.skip_last(2);
    skip_while: |s| s.skip_while(|v| *v < 2);
    first: |s| s.first();
    first_or: |s| s.first_or(-1);
    last: |s| s.last();
    last_or: |s| s.last_or(-1);
    element_at: |s| s.element_at(2);
    distinct: |s| s.distinct();
    distinct_until_changed: |s| s.distinct_until_changed();
    distinct_until_key_changed: |s| s.distinct_until_key_changed(|v| v / 2);
    ignore_elements: |s| s.ignore_elements();
    default_if_empty: |s| s.default_if_empty(7);
    reduce: |s| s.reduce(0, |a, v| a + v);
    count: |s| s.count().map(|n| n as i64);
    sum: |s| s.sum();
    min: |s| s.min();
    max: |s| s.max();
    to_vec: |s| s.to_vec().map(|v| v.len() as i64);
    min_by: |s| s.min_by(|a, b| b.cmp(a));
    min_by_key: |s| s.min_by_key(|v| v % 7);
    max_by: |s| s.max_by(|a, b| b.cmp(a));
    max_by_key: |s| s.max_by_key(|v| v % 7);
    average: |s| s.map(|v| v as i32).average().map(|a| a as i64);
    collect: |s| s.collect::<std::collections::BTreeSet<_>>().map(|c| c.len() as i64);
    to_map: |s| s.to_map(|v| v % 3).map(|m| m.len() as i64);
    to_multimap: |s| s.to_multimap(|v| v % 3).map(|m| m.len() as i64);
    iif_then: |s| rx::source::iif(|| true, s, rx::source::never());
    tap_subscribe: |s| s.tap_subscribe(|| {});
    tap_dispose: |s| s.tap_dispose(|| {});
    using: |s| rx::source::using(|| vec![1u8], move |_| s);
    iif_otherwise: |s| rx::source::iif(|| false, rx::source::never(), s);
    generate_after: |s| s.concat_with(rx::source::generate(0i64, |x| *x < 5, |x| x + 1, |x| *x));
    interval_after_inline: |s| s.merge_with(
        rx::source::interval_after(
            std::time::Duration::ZERO,
            std::time::Duration::ZERO,
            rx::schedulers::Immediate,
        )
        .map(|v| v as i64)
        .take(3),
    );
    all: |s| s.all(|v| v < 3).map(i64::from);
    any: |s| s.any(|v| v > 3).map(i64::from);
    contains: |s| s.contains(3).map(i64::from);
    is_empty: |s| s.is_empty().map(i64::from);
    start_with: |s| s.start_with(-1);
    end_with: |s| s.end_with(-1);
    concat_with: |s| s.concat_with(from_iter([7, 8]));
    tap: |s| s.tap(|_| {});
    tap_with: |s| s.tap_with(|_| {}, |_| {}, || {});
    materialize_dematerialize: |s| s.materialize().dematerialize();
    on_error_return: |s| s.on_error_return(|_| -1);
    on_error_complete: |s| s.on_error_complete();
    on_error_complete_if: |s| s.on_error_complete_if(|e| e.to_string() != "boom");
    on_error_resume_next: |s| s.on_error_resume_next(|_| from_iter([1, 2]));
    map_err: |s| s.map_err(|e| e);
    retry: |s| s.retry(2);
    repeat: |s| s.repeat(2);
    retry_with: |s| s.retry_with(rx::operators::RetryConfig::new().count(2).delay_with(|_, n| from_iter((n < 2).then_some(()))));
    repeat_with: |s| s.repeat_with(rx::operators::RepeatConfig::new().count(2));
    zip: |s| s.zip(from_iter(0..10i64)).map(|(a, b)| a + b);
    combine_latest: |s| s.combine_latest(from_iter([1i64])).map(|(a, b)| a + b);
    with_latest_from: |s| from_iter([1i64]).combine_latest(s).map(|(a, b)| a + b);
    merge_with: |s| s.merge_with(from_iter([100i64]));
    flat_map: |s| s.flat_map(|v| from_iter([v, v]));
    concat_map: |s| s.concat_map(|v| from_iter([v, v]));
    switch_map: |s| s.switch_map(|v| from_iter([v, v]));
    exhaust_map: |s| s.exhaust_map(|v| from_iter([v, v]));
    take_until: |s| s.take_until(rx::source::never::<()>());
    skip_until: |s| s.skip_until(rx::source::just(()));
    amb_with: |s| s.amb_with(rx::source::never());
    observe_on_immediate: |s| s.observe_on(rx::schedulers::Immediate);
    subscribe_on_immediate: |s| s.subscribe_on(rx::schedulers::Immediate);
    group_by_flattened: |s| s.group_by(|v| v % 2).flat_map(|g| g);
    window_flattened: |s| s.window(3).concat();
    group_by_with_flattened: |s| s.group_by_with(|v| v % 2, |v| v * 3).flat_map(|g| g);
    group_by_until_flattened: |s| s.group_by_until(|v| v % 3, |_| rx::source::never::<()>()).flat_map(|g| g);
    group_by_until_at_once: |s| s.group_by_until(|v| v % 3, |_| rx::source::just(())).flat_map(|g| g);
    share: |s| s.share();
    auto_connect: |s| s.publish().auto_connect(1);
    share_with: |s| s.share_with(rx::operators::ShareConfig::new(rx::subjects::PublishSubject::new));
    share_with_no_resets: |s| s.share_with(rx::operators::ShareConfig {
        reset_on_error: false,
        reset_on_complete: false,
        reset_on_ref_count_zero: false,
        ..rx::operators::ShareConfig::new(|| rx::subjects::ReplaySubject::with_capacity(2))
    });
    share_replay_retained: |s| s.share_replay_retained(2);
    throttle_with: |s| s.throttle_with(
        std::time::Duration::from_millis(5),
        rx::operators::ThrottleConfig::default(),
        rx::schedulers::TestScheduler::new(),
    );
    audit_inline: |s| s.audit(std::time::Duration::ZERO, rx::schedulers::Immediate);
    delay_subscription_inline: |s| s.delay_subscription(std::time::Duration::ZERO, rx::schedulers::Immediate);
    sample_with: |s| s.sample_with(rx::source::never::<()>());
    sample_with_at_once: |s| s.sample_with(rx::source::just(()));
    buffer_with: |s| s.buffer_with(rx::source::never::<()>()).map(|b| b.len() as i64);
    buffer_with_at_once: |s| s.buffer_with(rx::source::just(())).map(|b| b.len() as i64);
    window_with_skip_flattened: |s| s.window_with_skip(3, 2).flat_map(|w| w);
    window_with_time_flattened: |s| s
        .window_with_time(std::time::Duration::from_millis(5), rx::schedulers::TestScheduler::new())
        .flat_map(|w| w);
    window_with_skip_gaps: |s| s.window_with_skip(2, 3).concat();
    debounce_with_at_once: |s| s.debounce_with(|_| rx::source::just(()));
    debounce_with_never: |s| s.debounce_with(|_| rx::source::never::<()>());
    buffer_with_time_or_count: |s| s
        .buffer_with_time_or_count(
            std::time::Duration::from_millis(5),
            3,
            rx::schedulers::TestScheduler::new(),
        )
        .map(|b| b.len() as i64);
    take_with_time: |s| s.take_with_time(
        std::time::Duration::from_millis(5),
        rx::schedulers::TestScheduler::new(),
    );
    take_with_time_over: |s| s.take_with_time(std::time::Duration::ZERO, rx::schedulers::Immediate);
    skip_with_time: |s| s.skip_with_time(
        std::time::Duration::from_millis(5),
        rx::schedulers::TestScheduler::new(),
    );
    skip_with_time_over: |s| s.skip_with_time(std::time::Duration::ZERO, rx::schedulers::Immediate);
    take_last_with_time: |s| s.take_last_with_time(
        std::time::Duration::from_millis(5),
        rx::schedulers::TestScheduler::new(),
    );
    skip_last_with_time: |s| s.skip_last_with_time(std::time::Duration::ZERO, rx::schedulers::Immediate);
    audit_with_at_once: |s| s.audit_with(|_| rx::source::just(()));
    audit_with_empty: |s| s.audit_with(|_| rx::source::empty::<()>());
    throttle_when_at_once: |s| s.throttle_when(
        |_| rx::source::just(()),
        rx::operators::ThrottleConfig { leading: true, trailing: true },
    );
    throttle_when_never: |s| s.throttle_when(|_| rx::source::never::<()>(), Default::default());
    delay_when_at_once: |s| s.delay_when(|_| rx::source::just(()));
    delay_when_empty: |s| s.delay_when(|_| rx::source::empty::<()>());
    buffer_when_never: |s| s.buffer_when(rx::source::never::<()>).map(|b| b.len() as i64);
    buffer_toggle_at_once: |s| s
        .buffer_toggle(rx::source::just(()), |_| rx::source::never::<()>())
        .map(|b| b.len() as i64);
    buffer_toggle_closing_at_once: |s| s
        .buffer_toggle(rx::source::just(()), |_| rx::source::just(()))
        .map(|b| b.len() as i64);
    timeout_when_never: |s| s.timeout_when(rx::source::never::<()>(), |_| rx::source::never::<()>());
    buffer_with_time_skip: |s| s
        .buffer_with_time_skip(
            std::time::Duration::from_millis(5),
            std::time::Duration::from_millis(3),
            rx::schedulers::TestScheduler::new(),
        )
        .map(|b| b.len() as i64);
    single_of_one: |s| s.filter(|v| *v == 3).single();
    single_too_many: |s| s.single().on_error_return(|_| -1);
    find: |s| s.find(|v| *v > 2);
    try_filter: |s| s.try_filter(|v| if *v < 3 { Ok(v % 2 == 0) } else { Err(Error::msg("late")) });
    try_scan: |s| s.try_scan(0, |a, v| if v < 3 { Ok(a + v) } else { Err(Error::msg("late")) });
    try_flat_map: |s| s.try_flat_map(|v| if v < 3 { Ok(from_iter([v, v])) } else { Err(Error::msg("late")) });
    start_with_iter: |s| s.start_with_iter([-2, -1]);
    end_with_iter: |s| s.end_with_iter([-2, -1]);
    switch_if_empty: |s| s.switch_if_empty(from_iter([7, 8]));
    sequence_equal: |s| s.sequence_equal(from_iter(0..20i64)).map(i64::from);
    sequence_equal_by: |s| s.sequence_equal_by(from_iter(0..5i64), |a, b| a == b).map(i64::from);
    partition_accepted: |s| s.partition(|v| v % 2 == 0).0;
    partition_rejected: |s| s.partition(|v| v % 2 == 0).1;
    timeout: |s| s.timeout(std::time::Duration::from_millis(5), rx::schedulers::TestScheduler::new());
    timeout_with: |s| s.timeout_with(
        std::time::Duration::from_millis(5),
        from_iter([7i64]),
        rx::schedulers::TestScheduler::new(),
    );
    exhaust_all: |s| s.map(|v| from_iter([v, v])).exhaust_all();
    expand: |s| s.expand(|&v| from_iter((v < 3).then_some(v + 100)));
    retry_when: |s| s.retry_when(|_, attempt| from_iter((attempt < 3).then_some(())));
    retry_when_failing_notifier: |s| s.retry_when(|e, _| throw::<()>(e.clone()));
    repeat_when: |s| s.repeat_when(|count| from_iter((count < 3).then_some(())));
    retry_with_backoff_inline: |s| s.retry_with_backoff(
        2,
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
        rx::schedulers::Immediate,
    );
    fork_join: |s| {
        let (a, b) = both(s);
        rx::source::fork_join((a, b.map(|v| v + 1))).map(|(a, b)| a + b)
    };
    fork_join_all: |s| {
        let (a, b) = both(s);
        rx::source::fork_join_all(vec![a, b]).map(|row| row.iter().sum::<i64>())
    };
    combine_latest_all: |s| rx::source::combine_latest_all(vec![rx::source::just(0i64).boxed(), s.boxed()])
        .map(|row| row.iter().sum::<i64>());
    zip_all: |s| rx::source::zip_all(vec![s.boxed(), from_iter(0..10i64).boxed()])
        .map(|row| row.iter().sum::<i64>());
}

/// The contract again for chains built on a local subject, driven by hand: the operators that
/// keep upstream handles keep the subject's, which is not `Send`.
macro_rules! contract_local {
    ($($name:ident: |$s:ident| $chain:expr;)*) => {$(
        mod $name {
            use super::*;
            use rx::subjects::local::PublishSubject;

            #[test]
            fn one_terminal_after_values() {
                let subject = PublishSubject::new();
                let o = TestObserver::new();
                let _handle = { let $s = subject.observable(); $chain }.subscribe_observer(o.clone());
                (0..20i64).for_each(|v| subject.on_next(v));
                subject.on_completed();
                o.assert_rules();
                assert!(o.is_terminated());
            }

            #[test]
            fn error_terminates_once() {
                let subject = PublishSubject::new();
                let o = TestObserver::new();
                let _handle = { let $s = subject.observable(); $chain }.subscribe_observer(o.clone());
                (0..5i64).for_each(|v| subject.on_next(v));
                subject.on_error(Error::msg("boom"));
                o.assert_rules();
                assert!(o.is_terminated());
                if let Some(e) = o.error() {
                    assert_eq!(e.to_string(), "boom");
                }
            }

            #[test]
            fn disposed_downstream_receives_nothing() {
                let subject = PublishSubject::new();
                let o = TestObserver::new();
                o.dispose();
                let _handle = { let $s = subject.observable(); $chain }.subscribe_observer(o.clone());
                (0..5i64).for_each(|v| subject.on_next(v));
                subject.on_completed();
                assert_eq!(o.notifications().len(), 0);
            }

            #[test]
            fn disposal_reaches_the_subject() {
                let subject = PublishSubject::new();
                let o = TestObserver::new();
                let handle = { let $s = subject.observable(); $chain }.subscribe_observer(o.clone());
                subject.on_next(1i64);
                let seen = o.notifications().len();
                handle.dispose();
                assert!(!subject.has_observers(), "the subject still has its observer");
                subject.on_next(2);
                subject.on_completed();
                assert_eq!(o.notifications().len(), seen);
            }
        }
    )*};
}

mod local_subject {
    use super::*;

    contract_local! {
        map: |s| s.map(|v| v * 2);
        take: |s| s.take(3);
        scan: |s| s.scan(0, |a, v| a + v);
        merge_with: |s| s.merge_with(empty());
        merge_with_itself: |s| s.clone().merge_with(s);
        merge: |s| from_iter([s.clone().boxed_local(), s.boxed_local()]).merge();
        flat_map: |s| s.flat_map(|v| from_iter([v, v]));
        concat_map: |s| s.concat_map(|v| from_iter([v, v]));
        switch_map: |s| s.switch_map(|v| from_iter([v, v]));
        flat_map_into_the_subject: |s| rx::source::just(0i64).flat_map(move |_| s.clone());
        concat: |s| rx::source::concat([s.clone(), s]);
        concat_with: |s| s.concat_with(from_iter([7, 8]));
        zip: |s| s.zip(from_iter(0..100i64)).map(|(a, b)| a + b);
        zip_with_itself: |s| s.clone().zip(s).map(|(a, b)| a + b);
        combine_latest: |s| s.combine_latest(from_iter([1i64])).map(|(a, b)| a + b);
        retry: |s| s.retry(2);
        repeat: |s| s.repeat(2);
        on_error_resume_next: |s| s.on_error_resume_next(|_| from_iter([1, 2]));
        on_error_complete: |s| s.on_error_complete();
        take_until: |s| s.take_until(rx::source::never::<()>());
        take_until_itself: |s| s.clone().take_until(s.skip(3));
        amb_with: |s| s.amb_with(rx::source::never());
        amb: |s| rx::source::amb([s.clone().boxed_local(), s.boxed_local()]);
        retry_when: |s| s.retry_when(|_, attempt| from_iter((attempt < 2).then_some(())));
        repeat_when: |s| s.repeat_when(|count| from_iter((count < 2).then_some(())));
        retry_with: |s| s.retry_with(rx::operators::RetryConfig::new().count(2).delay_with(|_, n| from_iter((n < 2).then_some(()))));
        repeat_with: |s| s.repeat_with(rx::operators::RepeatConfig::new().count(3).delay_with(|_| rx::source::just(())));
        fork_join: |s| rx::source::fork_join((s.clone(), s)).map(|(a, b)| a + b);
        fork_join_all: |s| rx::source::fork_join_all(vec![s.clone(), s]).map(|row| row.iter().sum::<i64>());
        combine_latest_all: |s| rx::source::combine_latest_all(vec![s.clone(), s]).map(|row| row.iter().sum::<i64>());
        zip_all: |s| rx::source::zip_all(vec![s.clone(), s]).map(|row| row.iter().sum::<i64>());
        take_last_with_time: |s| s.take_last_with_time(
            std::time::Duration::from_millis(5),
            rx::schedulers::TestScheduler::new(),
        );
        skip_last_with_time: |s| s.skip_last_with_time(std::time::Duration::ZERO, rx::schedulers::Immediate);
        audit_with: |s| s.audit_with(|_| rx::source::just(()));
        throttle_when: |s| s.throttle_when(|_| rx::source::never::<()>(), Default::default());
        delay_when: |s| s.delay_when(|_| rx::source::just(()));
        buffer_when: |s| s.buffer_when(rx::source::never::<()>).map(|b| b.len() as i64);
        timeout_when: |s| s.timeout_when(rx::source::never::<()>(), |_| rx::source::never::<()>());
        buffer_toggle: |s| s
            .buffer_toggle(rx::source::just(()), |_| rx::source::never::<()>())
            .map(|b| b.len() as i64);
        min_by_key: |s| s.min_by_key(|v: &i64| v % 7);
        max_by: |s| s.max_by(|a: &i64, b| b.cmp(a));
        average: |s| s.map(|v: i64| v as i32).average().map(|a| a as i64);
        collect: |s| s.collect::<Vec<_>>().map(|c| c.len() as i64);
        to_multimap: |s| s.to_multimap(|v: &i64| v % 3).map(|m| m.len() as i64);
        iif_then: |s| rx::source::iif(|| true, s, empty());
        tap_subscribe: |s| s.tap_subscribe(|| {});
        tap_dispose: |s| s.tap_dispose(|| {});
        using: |s| rx::source::using(|| std::rc::Rc::new(1u8), move |_| s);
        iif_otherwise: |s| rx::source::iif(|| false, empty(), s);
    }
}
