//! `spy_with` and `spy`: what a spied point reports, and that it changes nothing it passes.
//!
//! The cases of RxJS's `tap` spec (`spec/operators/tap-spec.ts`), whose observer form with
//! `subscribe` and `unsubscribe` handlers is the nearest peer, are ported where they apply:
//! eleven of them. RxJS turns an exception thrown by a handler into an error notification;
//! here a panic in the closure unwinds (ARCHITECTURE.md, "Panics"), so those three cases have
//! no counterpart.

use rx::operators::{SpyEvent, SpyKind};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::subjects::PublishSubject;
use rx::testing::TestObserver;
use rx::testing::marbles::Marbles;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

/// A closure for `spy_with` that logs each event as `#subscription kind`, and the log.
#[allow(clippy::type_complexity)]
fn logger<T: Debug>() -> (
    Arc<Mutex<Vec<String>>>,
    impl Fn(&SpyEvent<'_, T>) + Send + Sync + Clone + 'static,
) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let f = move |event: &SpyEvent<'_, T>| {
        let what = match event.kind() {
            SpyKind::Subscribed => "subscribed".to_string(),
            SpyKind::Next(v) => format!("next {v:?}"),
            SpyKind::Error(e) => format!("error {e}"),
            SpyKind::Completed => "completed".to_string(),
            SpyKind::Disposed => "disposed".to_string(),
            _ => unreachable!(),
        };
        sink.lock().unwrap().push(format!(
            "{} #{} {what}",
            event.label(),
            event.subscription()
        ));
    };
    (log, f)
}

fn taken(log: &Mutex<Vec<String>>) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

// ------------------------------------------------------------------ ported from RxJS's tap

#[test]
fn mirrors_values_and_completion() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let e1 = m.cold(" --1--2--3--|");
    let (log, f) = logger();
    m.expect(e1.clone().spy_with("e1", f)).to_be("--1--2--3--|");
    e1.assert_subscriptions(&["^----------!"]);
    assert_eq!(
        taken(&log),
        [
            "e1 #1 subscribed",
            "e1 #1 next '1'",
            "e1 #1 next '2'",
            "e1 #1 next '3'",
            "e1 #1 completed"
        ]
    );
}

#[test]
fn mirrors_values_and_error() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let e1 = m.cold(" --1--2--3--#");
    let (log, f) = logger();
    m.expect(e1.clone().spy_with("e1", f)).to_be("--1--2--3--#");
    e1.assert_subscriptions(&["^----------!"]);
    assert_eq!(taken(&log).last().unwrap(), "e1 #1 error error");
}

#[test]
fn sees_the_value() {
    let seen = Mutex::new(None);
    rx::source::just(42)
        .spy_with("x", |e| {
            if let SpyKind::Next(v) = e.kind() {
                *seen.lock().unwrap() = Some(**v);
            }
        })
        .subscribe(|_| {});
    assert_eq!(*seen.lock().unwrap(), Some(42));
}

#[test]
fn sees_the_error_before_the_downstream() {
    let (log, f) = logger::<i32>();
    let observer = TestObserver::new();
    rx::source::throw::<i32>(rx::Error::msg("bad"))
        .spy_with("x", f)
        .subscribe_observer(observer.clone());
    observer.assert_error("bad");
    assert_eq!(taken(&log), ["x #1 subscribed", "x #1 error bad"]);
}

#[test]
fn sees_the_completion_of_empty() {
    let (log, f) = logger::<i32>();
    rx::source::empty::<i32>()
        .spy_with("x", f)
        .subscribe(|_| {});
    assert_eq!(taken(&log), ["x #1 subscribed", "x #1 completed"]);
}

#[test]
fn reports_an_explicit_early_unsubscription() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let e1 = m.hot("  --1--2--3--#");
    let (log, f) = logger();
    m.expect_subscribed(e1.clone().spy_with("e1", f), "^------!")
        .to_be("--1--2--");
    e1.assert_subscriptions(&["^------!"]);
    assert_eq!(
        taken(&log),
        [
            "e1 #1 subscribed",
            "e1 #1 next '1'",
            "e1 #1 next '2'",
            "e1 #1 disposed"
        ]
    );
}

#[test]
fn keeps_the_unsubscription_chain_between_flat_maps() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let e1 = m.hot("  --1--2--3--#");
    let (_, f) = logger();
    let result = e1
        .clone()
        .flat_map(rx::source::just)
        .spy_with("between", f)
        .flat_map(rx::source::just);
    m.expect_subscribed(result, "^------!").to_be("--1--2--");
    e1.assert_subscriptions(&["^------!"]);
}

#[test]
fn stops_a_synchronous_source_when_a_take_downstream_has_enough() {
    let side_effects = Mutex::new(Vec::new());
    let (log, f) = logger::<i32>();
    rx::source::create(|mut emitter| {
        let mut i = 0;
        while i < 10 && !emitter.is_disposed() {
            side_effects.lock().unwrap().push(i);
            emitter.on_next(i);
            i += 1;
        }
    })
    .spy_with("sync", f)
    .take(3)
    .subscribe(|_| {});
    assert_eq!(*side_effects.lock().unwrap(), [0, 1, 2]);
    assert_eq!(taken(&log).last().unwrap(), "sync #1 disposed");
}

#[test]
fn reports_disposal_by_the_handle_once() {
    let subject = PublishSubject::new();
    let (log, f) = logger();
    let handle = subject.observable().spy_with("s", f).subscribe(|_| {});
    let mut input = subject.observer();
    input.on_next(1);
    input.on_next(2);
    handle.dispose();
    handle.dispose();
    assert_eq!(
        taken(&log),
        [
            "s #1 subscribed",
            "s #1 next 1",
            "s #1 next 2",
            "s #1 disposed"
        ]
    );
}

#[test]
fn does_not_report_disposal_after_completion() {
    let subject = PublishSubject::new();
    let (log, f) = logger();
    let handle = subject.observable().spy_with("s", f).subscribe(|_| {});
    let mut input = subject.observer();
    input.on_next(1);
    input.on_completed();
    handle.dispose();
    assert_eq!(
        taken(&log),
        ["s #1 subscribed", "s #1 next 1", "s #1 completed"]
    );
}

#[test]
fn does_not_report_disposal_after_an_error() {
    let subject = PublishSubject::<i32>::new();
    let (log, f) = logger();
    let handle = subject
        .observable()
        .spy_with("s", f)
        .subscribe_with(|_| {}, |_| {}, || {});
    subject.observer().on_error(rx::Error::msg("bad"));
    handle.dispose();
    assert_eq!(taken(&log), ["s #1 subscribed", "s #1 error bad"]);
}

// ------------------------------------------------------------------ counts and sessions

#[test]
fn counts_values_terminals_and_live_subscriptions_over_every_subscription() {
    let subject = PublishSubject::<i32>::new();
    let spied = subject.observable().spy_with("s", |_| {});
    let counts = spied.counts();
    let first = spied.clone().subscribe(|_| {});
    let _second = spied.clone().subscribe(|_| {});
    let mut input = subject.observer();
    input.on_next(1);
    assert_eq!(
        (counts.subscriptions(), counts.live(), counts.values()),
        (2, 2, 2)
    );
    first.dispose();
    assert_eq!(counts.live(), 1);
    input.on_completed();
    assert_eq!(
        (counts.live(), counts.completions(), counts.errors()),
        (0, 1, 0)
    );
    let third = TestObserver::new();
    spied.subscribe_observer(third.clone());
    // A subject that has completed completes a late subscriber at once.
    third.assert_completed();
    assert_eq!(
        (counts.subscriptions(), counts.live(), counts.completions()),
        (3, 0, 2)
    );
    assert_eq!(counts.label(), "s");
}

#[test]
fn numbers_subscriptions_and_times_them_from_their_own_start() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let source = m.cold("-a|");
    let (log, f) = logger();
    let spied = source.spy_with("c", f);
    let early = m.expect(spied.clone());
    let late = m.expect_subscribed(spied, "---^");
    early.to_be("-a|");
    late.to_be("----a|");
    assert_eq!(
        taken(&log),
        [
            "c #1 subscribed",
            "c #1 next 'a'",
            "c #1 completed",
            "c #2 subscribed",
            "c #2 next 'a'",
            "c #2 completed"
        ]
    );
}

#[test]
fn reports_the_thread_it_runs_on() {
    let threads = Arc::new(Mutex::new(Vec::new()));
    let t = threads.clone();
    rx::source::just(1)
        .subscribe_on(rx::schedulers::NewThread)
        .spy_with("x", move |e| {
            t.lock().unwrap().push(e.thread().id());
        })
        .as_blocking()
        .last()
        .unwrap();
    let threads = threads.lock().unwrap();
    // Subscribed on the caller's thread; the value and completion on the new thread.
    assert_eq!(threads.len(), 3);
    assert_eq!(threads[0], std::thread::current().id());
    assert_ne!(threads[1], threads[0]);
    assert_eq!(threads[1], threads[2]);
}

#[test]
fn spy_with_is_send_when_its_parts_are() {
    fn send<T: Send>(_: &T) {}
    let spied = rx::source::just(1).spy_with("x", |_| {});
    send(&spied);
    let handle = PublishSubject::<i32>::new()
        .observable()
        .spy_with("x", |_| {})
        .subscribe(|_| {});
    send(&handle);
}

#[test]
fn spy_passes_everything_through() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let e1 = m.cold(" --1--2--#");
    m.expect(e1.clone().spy("e1")).to_be("--1--2--#");
    e1.assert_subscriptions(&["^-------!"]);
}

#[cfg(feature = "tracing")]
mod tracing_events {
    //! `spy`'s events, caught by a small subscriber that writes each as a line.

    use super::*;
    use std::fmt::Write as _;
    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event, Metadata, Subscriber};

    #[derive(Default)]
    struct Lines {
        lines: Mutex<Vec<String>>,
        spans: Mutex<Vec<String>>,
    }

    struct Fields(String);

    impl Visit for Fields {
        fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
            // The thread and the time vary from run to run.
            if field.name() != "thread" && field.name() != "elapsed" {
                write!(self.0, " {}={value:?}", field.name()).unwrap();
            }
        }
    }

    impl Subscriber for &'static Lines {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, span: &Attributes<'_>) -> Id {
            let mut fields = Fields(span.metadata().name().to_string());
            span.record(&mut fields);
            let mut spans = self.spans.lock().unwrap();
            spans.push(fields.0);
            Id::from_u64(spans.len() as u64)
        }
        fn record(&self, _: &Id, _: &Record<'_>) {}
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, event: &Event<'_>) {
            let parent = event
                .parent()
                .map(|id| self.spans.lock().unwrap()[id.into_u64() as usize - 1].clone());
            let mut fields = Fields(format!(
                "{} {}:",
                event.metadata().level(),
                parent.unwrap_or_default()
            ));
            event.record(&mut fields);
            self.lines.lock().unwrap().push(fields.0);
        }
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }

    #[test]
    fn spy_reports_each_event_in_a_span_per_subscription_with_the_counts() {
        let lines: &'static Lines = Box::leak(Box::default());
        tracing::subscriber::with_default(lines, || {
            let spied = rx::source::from_iter([1, 2, 3]).spy("numbers");
            let counts = spied.counts();
            spied.take(2).subscribe(|_| {});
            assert_eq!((counts.values(), counts.live()), (2, 0));
        });
        assert_eq!(
            *lines.lines.lock().unwrap(),
            [
                "DEBUG spy label=numbers subscription=1: event=\"subscribed\" values=0 errors=0 completions=0 live=1",
                "TRACE spy label=numbers subscription=1: event=\"next\" value=1 values=1 errors=0 completions=0 live=1",
                "TRACE spy label=numbers subscription=1: event=\"next\" value=2 values=2 errors=0 completions=0 live=1",
                "DEBUG spy label=numbers subscription=1: event=\"disposed\" values=2 errors=0 completions=0 live=0",
            ]
        );
    }

    #[test]
    fn trace_queue_reports_the_boundary_figures() {
        let lines: &'static Lines = Box::leak(Box::default());
        let sch = TestScheduler::new();
        let handle = rx::source::from_iter(0..5)
            .observe_on_bounded(sch.clone(), rx::backpressure::Bounded::new(8))
            .subscribe(|_| {});
        tracing::subscriber::with_default(lines, || {
            handle.trace_queue("ui");
            sch.run();
            handle.trace_queue("ui");
        });
        assert_eq!(
            *lines.lines.lock().unwrap(),
            [
                "DEBUG : label=\"ui\" queued=5 peak_queued=5 dropped=0",
                "DEBUG : label=\"ui\" queued=0 peak_queued=5 dropped=0",
            ]
        );
    }
}

/// The failing test of the guide's chapter "debugging a pipeline", and the message it shows.
#[test]
fn the_guides_switch_map_bug_fails_with_the_message_the_chapter_shows() {
    use std::time::Duration;
    let ms = Duration::from_millis;
    let sch = TestScheduler::new();
    let m = Marbles::with_frame(&sch, ms(10));
    let orders = m.cold_with("-a---bc---|", [('a', 1), ('b', 2), ('c', 3)]);
    let s = sch.clone();
    let prices =
        orders.switch_map(move |id| rx::source::timer(ms(30), s.clone()).map(move |_| id * 100));
    let expectation = m.expect(prices);
    let failure = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        expectation.to_be_with("----x---yz|", [('x', 100), ('y', 200), ('z', 300)])
    }))
    .unwrap_err();
    let message = failure
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        message,
        "marble diagrams differ (one frame is 10ms)\n\
         expected: ----x---yz|\n\
         actual:   ----x----z|\n\
         \x20                 ^ expected value 200 at frame 8, got value 300 at frame 9"
    );
}
