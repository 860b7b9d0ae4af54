//! The browser schedulers, sources and time operators in a real browser (wasm32, `web`
//! feature): `.ci/browser` runs them in headless Chromium through wasm-bindgen-test. Natively
//! this file is empty.
//!
//! Real time in a browser shared with other work is coarse: the bounds below are generous
//! (a timer may fire late, never early), and what is checked exactly is the order and the
//! values.

#![cfg(all(target_arch = "wasm32", feature = "web"))]

use rx::operators::ThrottleConfig;
use rx::prelude::*;
use rx::schedulers::web::{AnimationFrame, Microtask, OnPage, SetTimeout};
use rx::schedulers::{Reschedule, Scheduler, TestScheduler, Worker};
use rx::subjects::PublishSubject;
use rx::testing::TestObserver;
use rx::testing::marbles::Marbles;
use rx::time::Instant;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use web_sys::{Event, EventTarget};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
// Counts the timers and frames pending in the page, to check that a cancellation clears
// them: `setTimeout` and `requestAnimationFrame` are wrapped once, for the whole run.
export function track() {
  if (globalThis.__rxTrack) return;
  const t = { timeouts: new Set(), frames: new Set() };
  globalThis.__rxTrack = t;
  const st = globalThis.setTimeout, ct = globalThis.clearTimeout;
  const raf = globalThis.requestAnimationFrame, caf = globalThis.cancelAnimationFrame;
  globalThis.setTimeout = function (f, ms, ...args) {
    let id;
    id = st.call(globalThis, function () { t.timeouts.delete(id); return f.apply(this, args); }, ms);
    t.timeouts.add(id);
    return id;
  };
  globalThis.clearTimeout = function (id) { t.timeouts.delete(id); return ct.call(globalThis, id); };
  globalThis.requestAnimationFrame = function (f) {
    let id;
    id = raf.call(globalThis, function (ts) { t.frames.delete(id); return f(ts); });
    t.frames.add(id);
    return id;
  };
  globalThis.cancelAnimationFrame = function (id) { t.frames.delete(id); return caf.call(globalThis, id); };
}
export function pending_timeouts() { return globalThis.__rxTrack.timeouts.size; }
export function pending_frames() { return globalThis.__rxTrack.frames.size; }

// An event target that counts its listeners.
export function counting_target() {
  const target = new EventTarget();
  target.listeners = 0;
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  target.addEventListener = (type, f, options) => { target.listeners++; add(type, f, options); };
  target.removeEventListener = (type, f, options) => { target.listeners--; remove(type, f, options); };
  return target;
}
export function listeners(target) { return target.listeners; }

// A promise resolved after `ms` milliseconds, through `setTimeout` as it was before `track`
// wrapped it, so that the tests' own waits are not counted.
const unwrappedSetTimeout = globalThis.setTimeout.bind(globalThis);
export function sleep(ms) {
  return new Promise((resolve) => unwrappedSetTimeout(resolve, ms));
}
"#)]
extern "C" {
    fn track();
    fn pending_timeouts() -> u32;
    fn pending_frames() -> u32;
    fn counting_target() -> EventTarget;
    fn listeners(target: &EventTarget) -> u32;
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_promise(ms: u32) -> js_sys::Promise;
}

/// Waits `ms` milliseconds of real time, letting the page run its callbacks.
async fn sleep(ms: u32) {
    wasm_bindgen_futures::JsFuture::from(sleep_promise(ms))
        .await
        .unwrap();
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A log that `!Send` tasks and observers push to.
#[derive(Clone)]
struct Log<T>(Rc<RefCell<Vec<T>>>);

impl<T> Default for Log<T> {
    fn default() -> Self {
        Log(Rc::default())
    }
}

impl<T: Clone> Log<T> {
    fn push(&self, value: T) {
        self.0.borrow_mut().push(value);
    }

    fn get(&self) -> Vec<T> {
        self.0.borrow().clone()
    }
}

// --------------------------------------------------------------------------- schedulers

#[wasm_bindgen_test]
async fn a_timeout_task_runs_at_its_due_time() {
    let worker = SetTimeout.worker();
    let ran_at = Log::default();
    let start = Instant::now();
    let log = ran_at.clone();
    let handle = worker.schedule_after(ms(200), move || {
        log.push(Instant::now());
        Reschedule::Done
    });
    assert!(ran_at.get().is_empty(), "nothing runs inside schedule");
    sleep(20).await;
    assert!(ran_at.get().is_empty(), "not before its due time");
    sleep(600).await;
    let ran_at = ran_at.get();
    assert_eq!(ran_at.len(), 1);
    let waited = ran_at[0] - start;
    assert!(waited >= ms(200), "ran after {waited:?}");
    assert!(handle.is_disposed());
}

#[wasm_bindgen_test]
async fn a_task_queued_earlier_than_the_pending_one_runs_at_its_own_time() {
    track();
    let worker = SetTimeout.worker();
    let order = Log::default();
    let (late, early) = (order.clone(), order.clone());
    worker.schedule_after(ms(600), move || {
        late.push("late");
        Reschedule::Done
    });
    worker.schedule_after(ms(30), move || {
        early.push("early");
        Reschedule::Done
    });
    sleep(200).await;
    assert_eq!(order.get(), ["early"]);
    sleep(700).await;
    assert_eq!(order.get(), ["early", "late"]);
    assert_eq!(pending_timeouts(), 0, "nothing left in the page");
}

#[wasm_bindgen_test]
async fn tasks_due_together_run_first_in_first_out() {
    let worker = SetTimeout.worker();
    let order = Log::default();
    let due = worker.now() + ms(10);
    for n in 0..5 {
        let order = order.clone();
        worker.schedule_at(due, move || {
            order.push(n);
            Reschedule::Done
        });
    }
    sleep(100).await;
    assert_eq!(order.get(), [0, 1, 2, 3, 4]);
}

#[wasm_bindgen_test]
async fn a_task_reschedules_itself_through_its_return_value() {
    track();
    let worker = SetTimeout.worker();
    let runs = Log::default();
    let log = runs.clone();
    let start = Instant::now();
    let mut due = worker.now();
    let mut n = 0;
    let handle = worker.schedule_at(due, move || {
        log.push((n, Instant::now()));
        n += 1;
        if n == 3 {
            return Reschedule::Done;
        }
        due += ms(40);
        Reschedule::At(due)
    });
    sleep(400).await;
    let runs = runs.get();
    assert_eq!(runs.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [0, 1, 2]);
    assert!(
        runs[2].1 - start >= ms(80),
        "third run after {:?}",
        runs[2].1 - start
    );
    assert!(handle.is_disposed());
    assert_eq!(pending_timeouts(), 0);
}

#[wasm_bindgen_test]
async fn disposing_a_task_clears_its_timeout_and_drops_it() {
    track();
    let worker = SetTimeout.worker();
    let captured = Rc::new(());
    let ran = Log::default();
    let (c, log) = (captured.clone(), ran.clone());
    let handle = worker.schedule_after(ms(50), move || {
        let _ = &c;
        log.push(());
        Reschedule::Done
    });
    assert_eq!(pending_timeouts(), 1);
    assert!(!handle.is_disposed());
    handle.dispose();
    assert!(handle.is_disposed());
    assert_eq!(pending_timeouts(), 0, "the setTimeout is cleared");
    assert_eq!(
        Rc::strong_count(&captured),
        1,
        "what the task captured is dropped"
    );
    sleep(120).await;
    assert!(ran.get().is_empty());
}

#[wasm_bindgen_test]
async fn disposing_the_earliest_task_rearms_for_the_next() {
    track();
    let worker = SetTimeout.worker();
    let ran = Log::default();
    let (a, b) = (ran.clone(), ran.clone());
    let first = worker.schedule_after(ms(20), move || {
        a.push("first");
        Reschedule::Done
    });
    worker.schedule_after(ms(60), move || {
        b.push("second");
        Reschedule::Done
    });
    first.dispose();
    assert_eq!(pending_timeouts(), 1);
    sleep(200).await;
    assert_eq!(ran.get(), ["second"]);
    assert_eq!(pending_timeouts(), 0);
}

#[wasm_bindgen_test]
async fn the_workers_of_a_page_share_one_set_timeout() {
    track();
    let fired = Log::default();
    // A worker per timer, each with a timeout of its own, and one `setTimeout` in the page.
    let late: Vec<_> = (0..50u64)
        .map(|i| {
            let fired = fired.clone();
            rx::source::timer(ms(300 + i), SetTimeout).subscribe(move |_| fired.push(i))
        })
        .collect();
    assert_eq!(pending_timeouts(), 1);
    let log = fired.clone();
    rx::source::timer(ms(20), SetTimeout).subscribe(move |_| log.push(1000));
    assert_eq!(pending_timeouts(), 1, "moved earlier, not doubled");
    sleep(150).await;
    assert_eq!(
        fired.get(),
        [1000],
        "the earlier timeout came at its own time"
    );
    for (i, handle) in late.iter().enumerate() {
        if i != 10 && i != 40 {
            handle.dispose();
        }
    }
    assert_eq!(pending_timeouts(), 1);
    sleep(600).await;
    assert_eq!(fired.get(), [1000, 10, 40]);
    assert_eq!(pending_timeouts(), 0, "nothing left in the page");

    let cancelled: Vec<_> = (0..20)
        .map(|_| rx::source::timer(ms(100), SetTimeout).subscribe(|_| panic!("cancelled")))
        .collect();
    cancelled.iter().for_each(|handle| handle.dispose());
    assert_eq!(pending_timeouts(), 0, "cleared with the last timeout");
    sleep(200).await;
}

#[wasm_bindgen_test]
async fn disposing_the_worker_cancels_its_tasks_and_clears_the_page() {
    track();
    for worker in [
        SetTimeout.worker(),
        Microtask.worker(),
        AnimationFrame.worker(),
    ] {
        let ran = Log::default();
        let (a, b) = (ran.clone(), ran.clone());
        worker.schedule(move || {
            a.push(0);
            Reschedule::Done
        });
        worker.schedule_after(ms(30), move || {
            b.push(1);
            Reschedule::Done
        });
        worker.dispose();
        assert!(worker.is_disposed());
        assert_eq!((pending_timeouts(), pending_frames()), (0, 0));
        let late = worker.schedule(|| panic!("a disposed worker runs nothing"));
        assert!(late.is_disposed());
        sleep(100).await;
        assert!(ran.get().is_empty());
    }
}

#[wasm_bindgen_test]
async fn a_dropped_worker_still_runs_its_tasks() {
    let ran = Log::default();
    let log = ran.clone();
    SetTimeout.worker().schedule_after(ms(10), move || {
        log.push(1);
        Reschedule::Done
    });
    sleep(100).await;
    assert_eq!(ran.get(), [1]);
}

#[wasm_bindgen_test]
async fn microtasks_run_after_the_current_task_and_before_timeouts() {
    let order = Log::default();
    let (t, m) = (order.clone(), order.clone());
    SetTimeout.worker().schedule(move || {
        t.push("timeout");
        Reschedule::Done
    });
    Microtask.worker().schedule(move || {
        m.push("microtask");
        Reschedule::Done
    });
    assert!(order.get().is_empty(), "nothing runs inside schedule");
    // A resolved promise's continuation is itself a microtask, queued after the worker's.
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL))
        .await
        .unwrap();
    assert_eq!(order.get(), ["microtask"]);
    sleep(50).await;
    assert_eq!(order.get(), ["microtask", "timeout"]);
}

#[wasm_bindgen_test]
async fn a_microtask_task_due_later_runs_at_its_time() {
    let ran_at = Log::default();
    let log = ran_at.clone();
    let start = Instant::now();
    Microtask.worker().schedule_after(ms(40), move || {
        log.push(Instant::now());
        Reschedule::Done
    });
    sleep(200).await;
    let ran_at = ran_at.get();
    assert_eq!(ran_at.len(), 1);
    assert!(ran_at[0] - start >= ms(40));
}

#[wasm_bindgen_test]
async fn animation_frame_tasks_run_once_a_frame() {
    track();
    let frames = Log::default();
    let log = frames.clone();
    let mut n = 0;
    let handle = AnimationFrame.worker().schedule(move || {
        log.push(Instant::now());
        n += 1;
        if n == 3 {
            Reschedule::Done
        } else {
            Reschedule::After(Duration::ZERO)
        }
    });
    assert_eq!(pending_frames(), 1);
    sleep(1000).await;
    let frames = frames.get();
    assert_eq!(frames.len(), 3);
    assert!(
        frames[0] < frames[1] && frames[1] < frames[2],
        "one run per frame"
    );
    assert!(handle.is_disposed());
    assert_eq!((pending_frames(), pending_timeouts()), (0, 0));
}

#[wasm_bindgen_test]
async fn an_animation_frame_task_due_later_waits_for_its_time_then_a_frame() {
    let ran_at = Log::default();
    let log = ran_at.clone();
    let start = Instant::now();
    AnimationFrame.worker().schedule_after(ms(200), move || {
        log.push(Instant::now());
        Reschedule::Done
    });
    sleep(30).await;
    assert!(ran_at.get().is_empty());
    sleep(700).await;
    let ran_at = ran_at.get();
    assert_eq!(ran_at.len(), 1);
    assert!(ran_at[0] - start >= ms(200));
}

// ------------------------------------------------------------------------------ sources

#[wasm_bindgen_test]
async fn animation_frames_emit_increasing_timestamps_until_disposed() {
    track();
    let stamps = Log::default();
    let log = stamps.clone();
    let handle = rx::source::animation_frames().subscribe(move |t: f64| log.push(t));
    sleep(300).await;
    handle.dispose();
    assert!(handle.is_disposed());
    assert_eq!(pending_frames(), 0, "the frame asked for is cancelled");
    let stamps = stamps.get();
    assert!(stamps.len() >= 3, "{} frames in 300 ms", stamps.len());
    assert!(stamps.windows(2).all(|w| w[0] < w[1]), "{stamps:?}");
    let count = stamps.len();
    sleep(100).await;
    assert_eq!(stamps.len(), count);
}

#[wasm_bindgen_test]
async fn animation_frames_stop_when_the_observer_is_done() {
    track();
    let observer = TestObserver::new();
    rx::source::animation_frames()
        .take(2)
        .map(|_| 1)
        .subscribe_observer(observer.clone());
    sleep(500).await;
    observer.assert_values(&[1, 1]);
    observer.assert_completed();
    assert_eq!(pending_frames(), 0);
}

#[wasm_bindgen_test]
fn from_event_adds_a_listener_and_dispose_removes_it() {
    let target = counting_target();
    let types = Log::default();
    let log = types.clone();
    let handle =
        rx::source::from_event(&target, "input").subscribe(move |e: Event| log.push(e.type_()));
    assert_eq!(listeners(&target), 1);
    for kind in ["input", "change", "input"] {
        target.dispatch_event(&Event::new(kind).unwrap()).unwrap();
    }
    assert_eq!(types.get(), ["input", "input"]);
    handle.dispose();
    assert!(handle.is_disposed());
    assert_eq!(listeners(&target), 0);
    target
        .dispatch_event(&Event::new("input").unwrap())
        .unwrap();
    assert_eq!(types.get().len(), 2);
}

#[wasm_bindgen_test]
fn from_event_removes_its_listener_when_the_observer_is_done() {
    let target = counting_target();
    let observer = TestObserver::new();
    rx::source::from_event(&target, "click")
        .map(|e: Event| e.type_())
        .take(2)
        .subscribe_observer(observer.clone());
    for _ in 0..3 {
        target
            .dispatch_event(&Event::new("click").unwrap())
            .unwrap();
    }
    observer.assert_values(&["click".to_owned(), "click".to_owned()]);
    observer.assert_completed();
    assert_eq!(listeners(&target), 0);
}

#[wasm_bindgen_test]
fn each_subscription_has_a_listener_of_its_own() {
    let target = counting_target();
    let source = rx::source::from_event(&target, "input");
    let (a, b) = (TestObserver::new(), TestObserver::new());
    let first = source.clone().map(|_| 'a').subscribe_observer(a.clone());
    let _second = source.map(|_| 'b').subscribe_observer(b.clone());
    assert_eq!(listeners(&target), 2);
    target
        .dispatch_event(&Event::new("input").unwrap())
        .unwrap();
    first.dispose();
    target
        .dispatch_event(&Event::new("input").unwrap())
        .unwrap();
    a.assert_values(&['a']);
    b.assert_values(&['b', 'b']);
    assert_eq!(listeners(&target), 1);
}

// ---------------------------------------------------------------------- time operators

#[wasm_bindgen_test]
async fn interval_on_each_browser_scheduler() {
    let a = TestObserver::new();
    rx::source::interval(ms(50), SetTimeout)
        .take(3)
        .subscribe_observer(a.clone());
    let b = TestObserver::new();
    rx::source::interval(ms(50), Microtask)
        .take(3)
        .subscribe_observer(b.clone());
    let c = TestObserver::new();
    rx::source::interval(Duration::ZERO, AnimationFrame)
        .take(3)
        .subscribe_observer(c.clone());
    sleep(40).await;
    assert!(a.value_count() < 3 && b.value_count() < 3);
    sleep(800).await;
    for observer in [a, b, c] {
        observer.assert_values(&[0, 1, 2]);
        observer.assert_completed();
    }
}

#[wasm_bindgen_test]
async fn interval_takes_an_observer_that_is_not_send() {
    track();
    let seen = Log::default();
    let log = seen.clone();
    let handle = rx::source::interval(ms(10), SetTimeout).subscribe(move |n| log.push(n));
    sleep(200).await;
    handle.dispose();
    assert_eq!(pending_timeouts(), 0);
    let seen = seen.get();
    assert!(seen.len() >= 3);
    assert_eq!(seen, (0..seen.len() as u64).collect::<Vec<_>>());
}

#[wasm_bindgen_test]
async fn timer_fires_once_at_its_time() {
    let observer = TestObserver::new();
    let start = Instant::now();
    let stamps = Log::default();
    let log = stamps.clone();
    rx::source::timer(ms(200), SetTimeout)
        .map(move |v| {
            log.push(Instant::now());
            v
        })
        .subscribe_observer(observer.clone());
    sleep(20).await;
    observer.assert_values(&[]);
    sleep(600).await;
    observer.assert_values(&[0]);
    observer.assert_completed();
    assert!(stamps.get()[0] - start >= ms(200));
}

#[wasm_bindgen_test]
async fn debounce_emits_the_last_value_of_a_burst() {
    let subject = PublishSubject::<i32>::new();
    let observer = TestObserver::new();
    subject
        .observable()
        .debounce(ms(250), SetTimeout)
        .subscribe_observer(observer.clone());
    subject.on_next(1);
    sleep(10).await;
    subject.on_next(2);
    sleep(10).await;
    subject.on_next(3);
    sleep(30).await;
    observer.assert_values(&[]);
    sleep(600).await;
    observer.assert_values(&[3]);
    subject.on_next(4);
    subject.on_completed();
    sleep(10).await;
    observer.assert_values(&[3, 4]);
    observer.assert_completed();
}

#[wasm_bindgen_test]
async fn debounce_from_dom_events_to_an_observer_that_is_not_send() {
    let target = counting_target();
    let seen = Log::default();
    let log = seen.clone();
    let mut count = 0;
    let handle = rx::source::from_event(&target, "input")
        .map(move |_| {
            count += 1;
            count
        })
        .debounce(ms(60), SetTimeout)
        .subscribe_observer(OnPage(rx::observer::NextObserver::new(move |n| {
            log.push(n)
        })));
    for _ in 0..3 {
        target
            .dispatch_event(&Event::new("input").unwrap())
            .unwrap();
    }
    sleep(300).await;
    assert_eq!(seen.get(), [3]);
    handle.dispose();
    assert_eq!(listeners(&target), 0);
}

#[wasm_bindgen_test]
async fn throttle_of_an_interval_to_an_observer_holding_an_rc() {
    // The common case of a page: a tick, thinned out, into state held by `Rc`s.
    track();
    let seen = Log::default();
    let log = seen.clone();
    let handle = rx::source::interval(ms(20), SetTimeout)
        .throttle(ms(100), SetTimeout)
        .subscribe_observer(OnPage(rx::observer::NextObserver::new(move |n| {
            log.push(n)
        })));
    sleep(450).await;
    handle.dispose();
    let seen = seen.get();
    assert!(seen.len() >= 2, "{seen:?}");
    assert_eq!(seen[0], 0, "the first tick opens the first window");
    assert!(
        seen.windows(2).all(|w| w[1] >= w[0] + 4),
        "one tick per window of five: {seen:?}"
    );
    sleep(100).await;
    assert_eq!(pending_timeouts(), 0, "nothing left in the page");
}

#[wasm_bindgen_test]
async fn throttle_lets_the_first_value_of_each_window_through() {
    let subject = PublishSubject::<i32>::new();
    let observer = TestObserver::new();
    subject
        .observable()
        .throttle(ms(300), SetTimeout)
        .subscribe_observer(observer.clone());
    subject.on_next(1);
    subject.on_next(2);
    sleep(10).await;
    subject.on_next(3);
    sleep(500).await;
    subject.on_next(4);
    subject.on_next(5);
    observer.assert_values(&[1, 4]);
}

#[wasm_bindgen_test]
async fn timeout_errors_when_nothing_comes_in_time() {
    let observer = TestObserver::<i32>::new();
    let start = Instant::now();
    let ended = std::sync::Arc::new(std::sync::Mutex::new(None));
    let end = ended.clone();
    rx::source::never()
        .timeout(ms(200), SetTimeout)
        .finally(move || *end.lock().unwrap() = Some(Instant::now()))
        .subscribe_observer(observer.clone());
    sleep(20).await;
    observer.assert_not_terminated();
    sleep(600).await;
    assert!(observer.error().is_some(), "{:?}", observer.notifications());
    let ended = ended.lock().unwrap().expect("the chain ended");
    assert!(ended - start >= ms(200));
}

#[wasm_bindgen_test]
async fn delay_shifts_each_value_by_its_delay() {
    let observer = TestObserver::new();
    rx::source::from_iter([1, 2, 3])
        .delay(ms(200), SetTimeout)
        .subscribe_observer(observer.clone());
    observer.assert_values(&[]);
    sleep(20).await;
    observer.assert_values(&[]);
    sleep(600).await;
    observer.assert_values(&[1, 2, 3]);
    observer.assert_completed();
}

#[wasm_bindgen_test]
async fn observe_on_microtask_delivers_after_the_caller_returns() {
    let observer = TestObserver::new();
    rx::source::from_iter([1, 2])
        .observe_on(Microtask)
        .subscribe_observer(observer.clone());
    observer.assert_values(&[]);
    sleep(10).await;
    observer.assert_values(&[1, 2]);
    observer.assert_completed();
}

// ---------------------------------------------------------------------- virtual time

#[wasm_bindgen_test]
fn test_scheduler_marbles_run_in_the_browser() {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let source = m.cold("-a--b-c---|");
    m.expect(source.debounce(ms(2), sch.clone()))
        .to_be("---a----c-|");

    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    m.expect(m.cold("a-b-c|").delay(ms(3), sch.clone()))
        .to_be("---a-b-c|");
}

#[wasm_bindgen_test]
fn test_scheduler_drives_interval_and_timeout() {
    let sch = TestScheduler::new();
    let observer = TestObserver::new();
    rx::source::interval(ms(10), sch.clone())
        .take(3)
        .subscribe_observer(observer.clone());
    sch.advance_by(ms(25));
    observer.assert_values(&[0, 1]);
    sch.advance_by(ms(5));
    observer.assert_values(&[0, 1, 2]);
    observer.assert_completed();

    let timed_out = TestObserver::<i32>::new();
    rx::source::never()
        .timeout(ms(100), sch.clone())
        .subscribe_observer(timed_out.clone());
    sch.advance_by(ms(99));
    timed_out.assert_not_terminated();
    sch.advance_by(ms(1));
    assert!(timed_out.error().is_some());
    assert_eq!(sch.elapsed(), ms(130));
}

// The diagrams below are cases of the native marble suite, run here on the browser's clock
// (the test scheduler's start is `performance.now()`).

fn marbles() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

#[wasm_bindgen_test]
fn marbles_throttle_with_and_audit() {
    let (sch, m) = marbles();
    let both = ThrottleConfig {
        leading: true,
        trailing: true,
    };
    let e1 = m.hot("  -a-xy-----b--x--cxxx--|");
    let t = m.time("   ----|                 ");
    m.expect(e1.clone().throttle_with(t, both, sch.clone()))
        .to_be("-a---y----b---x---x---(x|)");
    e1.assert_subscriptions(&["^---------------------!"]);

    let (sch, m) = marbles();
    let e1 = m.hot("  -a-x-y----b---x-cx---|");
    let t = m.time("   -----|               ");
    m.expect(e1.clone().audit(t, sch.clone()))
        .to_be("------y--------x-----(x|)");
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[wasm_bindgen_test]
fn marbles_buffer_with_time_or_count() {
    let (sch, m) = marbles();
    let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ");
    let t = m.time("  ----------|                          ");
    m.expect(e1.clone().buffer_with_time_or_count(t, 3, sch.clone()))
        .to_be_with(
            "----------w--------x---------y---(z|)",
            [
                ('w', vec!['a', 'b']),
                ('x', vec!['c', 'd', 'e']),
                ('y', vec!['f', 'g']),
                ('z', vec![]),
            ],
        );
    e1.assert_subscriptions(&["^--------------------------------!   "]);
}

#[wasm_bindgen_test]
fn marbles_timer_at_and_delay_until() {
    let (sch, m) = marbles();
    let due = sch.now() + m.time("----|");
    m.expect(rx::source::timer_at(due, sch.clone()).map(|_| 'a'))
        .to_be("----(a|)");

    let (sch, m) = marbles();
    let e1 = m.hot("  --a--a---a----a----a------------b---b---b---b--|");
    let t = m.time("  --------------------|                           ");
    m.expect(e1.clone().delay_until(sch.now() + t, sch.clone()))
        .to_be("--------------------(aaaaa)-----b---b---b---b--|");
    e1.assert_subscriptions(&["^----------------------------------------------!"]);
}

#[wasm_bindgen_test]
fn marbles_sample_with_and_timeout() {
    let (_, m) = marbles();
    let e1 = m.hot("  ---a----b---c----------d-----|   ");
    let e2 = m.hot("  -----x----------x---x------x---| ");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("-----a----------c----------d-|   ");
    e1.assert_subscriptions(&["^----------------------------!   "]);

    let (sch, m) = marbles();
    let e1 = m.hot("  ---a---b---c------d---e---|");
    m.expect(e1.clone().timeout(ms(5), sch.clone()))
        .with_error(rx::Error::msg("the source signalled nothing for 5ms"))
        .to_be("---a---b---c----#");
    e1.assert_subscriptions(&["^---------------!"]);
}
