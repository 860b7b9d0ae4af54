//! Schedulers for the browser, over its event loop (the `web` feature, wasm32 only).
//!
//! | scheduler | a task due now runs | a task due later runs |
//! |---|---|---|
//! | [`SetTimeout`] | in a `setTimeout(.., 0)` callback (RxJS's `asyncScheduler`) | in a `setTimeout` callback at its due time |
//! | [`Microtask`] | in a `queueMicrotask` callback, before the browser renders or handles input (RxJS's `asapScheduler`) | as with [`SetTimeout`] |
//! | [`AnimationFrame`] | in the next `requestAnimationFrame` callback (RxJS's `animationFrameScheduler`) | in the first frame at or after its due time |
//!
//! They implement [`Scheduler`] and [`Worker`] as the other schedulers do: a worker runs its
//! tasks one at a time in due order (first-in first-out for equal due times), a task asks to
//! run again through its [`Reschedule`], due times are absolute [`Instant`]s of
//! [`rx::time`](crate::time), and disposing a task's handle cancels it. Each worker keeps its
//! tasks in a queue of its own and has at most one callback pending, armed for its earliest
//! task: a task queued earlier than that one re-arms it, so it runs at its own time; and when
//! its last task is cancelled (or the worker disposed) the pending frame is cleared, and its
//! timeout taken back. (A microtask cannot be taken back: one left behind by a cancellation
//! finds nothing to run; it runs before the page does anything else anyway.)
//!
//! The timeouts of all the workers of a page share one `setTimeout`, armed for the earliest
//! of them: a call into the browser's timers costs microseconds, and a `timer` or a
//! `debounce` makes a worker per subscription. So a timeout queued later than the earliest,
//! or taken back, costs no call into JavaScript; the shared `setTimeout` is moved earlier
//! when an earlier timeout comes, and cleared when the last one is taken back, so nothing is
//! left queued in the page. When the earliest timeout was taken back, the `setTimeout` fires
//! for nothing and is armed for the next.
//!
//! A callback runs the tasks that were due when it started, and only those: a task that
//! reschedules itself due at once runs in the next callback, so a periodic task yields to the
//! page between runs, as each RxJS action does with a timer of its own.
//!
//! The page has one thread, so tasks need not be `Send` (see
//! [`MaybeSend`]): a task may hold `Rc`s and DOM objects. The workers,
//! handles and subscriptions here are `Send` and `Sync` all the same, as the traits require:
//! with one thread nothing can reach them from another. For the same reason this module does
//! not build with the `atomics` target feature (wasm threads).
//!
//! # Panics
//!
//! A wasm32 build aborts on a panic: a task that panics traps, and the trap reaches the
//! browser as an uncaught exception from the callback (reported on the page's `error` event
//! and the console, with the panic's message where a panic hook such as
//! `console_error_panic_hook` is set). The worker's other tasks still run: the callback for
//! them is armed before each task runs.
//!
//! # Examples
//!
//! ```ignore
//! use rx::prelude::*;
//! use rx::schedulers::web::{AnimationFrame, SetTimeout};
//! use std::time::Duration;
//!
//! // Every second, on a timer of the page; the observer may hold DOM objects.
//! let clock = document.get_element_by_id("clock").unwrap();
//! let ticks = rx::source::interval(Duration::from_secs(1), SetTimeout)
//!     .subscribe(move |n| clock.set_text_content(Some(&n.to_string())));
//! // Later, from an event handler: clears the pending `setTimeout`.
//! ticks.dispose();
//! ```

#[cfg(target_feature = "atomics")]
compile_error!(
    "rx's `web` feature assumes a page with one thread, and this build has wasm threads \
     (the `atomics` target feature)"
);

use super::{MaybeSend, Reschedule, Scheduler, Task, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::{Deref, DerefMut};
use std::rc::{Rc, Weak};
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The global `setTimeout`, in a window or a worker alike.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &js_sys::Function, timeout: i32) -> JsValue;

    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);

    #[wasm_bindgen(js_name = queueMicrotask)]
    fn queue_microtask(callback: &js_sys::Function);

    #[wasm_bindgen(js_name = requestAnimationFrame)]
    pub(crate) fn request_animation_frame(callback: &js_sys::Function) -> i32;

    #[wasm_bindgen(js_name = cancelAnimationFrame)]
    pub(crate) fn cancel_animation_frame(id: i32);
}

// -------------------------------------------------------------------------------- OnPage

/// A value kept on the page's one thread: `Send` and `Sync` whatever it holds.
///
/// A browser page built without wasm threads has one thread, so a value cannot reach another
/// and these claims cost nothing. What it is for: the operators whose state is a shared,
/// thread-safe box (`debounce`, `delay`, `timeout`, `observe_on`, ...) require a `Send`
/// observer ([`ThreadObserver`](super::ThreadObserver)); wrap one that holds `Rc`s or DOM
/// objects in `OnPage` (it is an [`Observer`](crate::Observer) when what it holds is one,
/// and a [`Subscription`] likewise) to hand it to them.
///
/// ```ignore
/// use rx::prelude::*;
/// use rx::schedulers::web::{OnPage, SetTimeout};
/// use std::time::Duration;
///
/// let status = document.get_element_by_id("status").unwrap(); // not `Send`
/// rx::source::just("saved")
///     .delay(Duration::from_millis(300), SetTimeout)
///     .subscribe_observer(OnPage(rx::observer::NextObserver::new(move |text: &str| {
///         status.set_text_content(Some(text))
///     })));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OnPage<T>(pub T);

// SAFETY: this module builds only for wasm32 without the `atomics` target feature (see the
// `compile_error!` above), where the program has one thread: no value can be sent to, or
// shared with, another.
unsafe impl<T> Send for OnPage<T> {}
// SAFETY: as for `Send`.
unsafe impl<T> Sync for OnPage<T> {}

impl<T> Deref for OnPage<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for OnPage<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T, O: crate::Observer<T>> crate::Observer<T> for OnPage<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.0.on_next(value)
    }

    #[inline]
    fn on_error(self, error: crate::Error) {
        self.0.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        self.0.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.0.is_disposed()
    }
}

impl<S: Subscription> Subscription for OnPage<S> {
    #[inline]
    fn dispose(&self) {
        self.0.dispose()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.0.is_disposed()
    }
}

// ----------------------------------------------------------------------------- schedulers

/// Runs tasks from `setTimeout` callbacks: RxJS's `asyncScheduler`.
///
/// A task due now waits for a `setTimeout(.., 0)` callback, after what the page has queued
/// (and, nested deeply, after the browser's minimum delay of about 4 ms); a task due later
/// runs in the callback of a `setTimeout` armed for its due time. See the [module](self).
///
/// ```ignore
/// use rx::prelude::*;
/// use rx::schedulers::web::SetTimeout;
/// use std::time::Duration;
///
/// let search = rx::source::from_event(&input, "input")
///     .map(move |_| input.value())
///     .debounce(Duration::from_millis(250), SetTimeout)
///     .subscribe_observer(rx::schedulers::web::OnPage(rx::observer::NextObserver::new(show)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[doc(alias = "asyncScheduler")]
pub struct SetTimeout;

/// Runs tasks due now from `queueMicrotask` callbacks: RxJS's `asapScheduler`.
///
/// A task due now runs once the current JavaScript task (an event handler, a timer's
/// callback) has returned, before the browser renders or handles the next event; a task due
/// later is run as [`SetTimeout`] runs it. A task that keeps rescheduling itself due at once
/// keeps the page from rendering, as a chain of promises does. See the [module](self).
///
/// ```ignore
/// use rx::prelude::*;
/// use rx::schedulers::web::Microtask;
///
/// // Delivered after the handler that subscribed has returned, before the next render.
/// rx::source::just(1).observe_on(Microtask).subscribe(|v| log(v));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[doc(alias = "asapScheduler")]
pub struct Microtask;

/// Runs tasks from `requestAnimationFrame` callbacks, just before the browser paints: RxJS's
/// `animationFrameScheduler`.
///
/// A task due now runs in the next frame; a task due later runs in the first frame at or
/// after its due time (a `setTimeout` waits until then, and asks for a frame). A task that
/// reschedules itself due at once runs once a frame: the way to animate. Browsers send no
/// frames to a hidden tab, so there tasks wait. See the [module](self), and
/// [`animation_frames`](crate::source::animation_frames) for the frames' timestamps.
///
/// ```ignore
/// use rx::prelude::*;
/// use rx::schedulers::web::AnimationFrame;
/// use std::time::Duration;
///
/// // One step per frame, for 60 frames.
/// rx::source::interval(Duration::ZERO, AnimationFrame)
///     .take(60)
///     .subscribe(move |n| ball.style().set_property("left", &format!("{}px", n * 5)).unwrap());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[doc(alias = "animationFrameScheduler")]
pub struct AnimationFrame;

/// Which browser callback runs a worker's tasks due now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Timeout,
    Microtask,
    Frame,
}

macro_rules! web_scheduler {
    ($name:ident, $kind:expr) => {
        impl Scheduler for $name {
            type Worker = WebWorker;

            fn worker(&self) -> WebWorker {
                WebWorker::new($kind)
            }

            #[inline]
            fn now(&self) -> Instant {
                Instant::now()
            }
        }

        #[diagnostic::do_not_recommend]
        impl super::DeferringScheduler for $name {}
    };
}

web_scheduler!(SetTimeout, Kind::Timeout);
web_scheduler!(Microtask, Kind::Microtask);
web_scheduler!(AnimationFrame, Kind::Frame);

// --------------------------------------------------------------------------------- worker

/// The worker of the browser schedulers ([`SetTimeout`], [`Microtask`], [`AnimationFrame`]).
///
/// A cheap `Clone` handle; clones share one queue. Disposing it cancels every task on it and
/// clears its pending callback; dropping it does not: its tasks keep it alive until they are
/// done.
#[derive(Clone)]
pub struct WebWorker {
    core: OnPage<Rc<Core>>,
}

/// The handle of a task on a [`WebWorker`]; disposing it cancels the task, dropping what it
/// captured, and clears the worker's pending callback if no other task needs it.
#[derive(Clone)]
pub struct WebTask {
    core: OnPage<Weak<Core>>,
    id: u64,
}

/// What the page calls back: a worker's queue and its pending callback.
struct Core {
    kind: Kind,
    state: RefCell<State>,
    /// The `queueMicrotask` callback, for [`Kind::Microtask`].
    on_microtask: Option<Closure<dyn FnMut()>>,
    /// The `requestAnimationFrame` callback, for [`Kind::Frame`].
    on_frame: Option<Closure<dyn FnMut(f64)>>,
}

#[derive(Default)]
struct State {
    /// Due order: due time, then order of queueing. The values are task ids.
    queue: BTreeMap<(Instant, u64), u64>,
    /// The live tasks by id; a running task's `task` is out (with the code running it).
    tasks: HashMap<u64, Entry, BuildHasherDefault<IdHasher>>,
    /// The next task id, and the next queueing order.
    next_id: u64,
    next_order: u64,
    armed: Armed,
    /// A microtask is queued in the page. It cannot be taken back, so while it is, the
    /// worker is kept alive for it (it calls back into the worker), and a re-arm for a task
    /// due now waits for it rather than queueing a second.
    microtask_queued: bool,
    disposed: bool,
    /// The worker itself, while a callback is pending: the page holds the callback, not the
    /// worker, so this keeps the worker alive for its tasks after its handles are dropped.
    keep: Option<Rc<Core>>,
}

impl State {
    /// The worker's hold on itself, once nothing in the page can call back into it.
    fn release(&mut self) -> Option<Rc<Core>> {
        if matches!(self.armed, Armed::None) && !self.microtask_queued {
            self.keep.take()
        } else {
            None
        }
    }
}

/// The hash of a task id: ids are counted up from one and never chosen by anyone else, so
/// one multiplication spreads them (Fibonacci hashing) where std's keyed SipHash, made to
/// resist chosen keys, was the largest single cost of scheduling and cancelling a timer.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    #[inline]
    fn write_u64(&mut self, id: u64) {
        self.0 = (self.0 ^ id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

struct Entry {
    task: Option<Box<dyn Task>>,
    /// The task's key in the queue, while queued.
    key: Option<(Instant, u64)>,
}

/// The callback pending in the page.
#[derive(Default)]
enum Armed {
    #[default]
    None,
    /// A timeout of the page's shared `setTimeout` (see [`PageTimer`]) for the task due at
    /// `due`, the `seq`th armed in the page.
    Timeout { due: Instant, seq: u64 },
    /// The microtask queued.
    Microtask,
    /// An animation frame.
    Frame { id: i32 },
}

/// What a callback was, for [`Core::fire`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fired {
    /// The page's timeout `seq` (an `Armed::Timeout`).
    Timer(u64),
    Microtask,
    Frame,
}

/// Everything taken out of the state under its borrow, to be dropped once the borrow is let
/// go: a task's drop is user code, which may schedule or cancel on this worker.
type Dropped = (Vec<Box<dyn Task>>, Option<Rc<Core>>);

impl WebWorker {
    fn new(kind: Kind) -> Self {
        let core = Rc::new_cyclic(|weak: &Weak<Core>| {
            let on_microtask = (kind == Kind::Microtask).then(|| {
                let microtask = weak.clone();
                Closure::<dyn FnMut()>::new(move || {
                    if let Some(core) = microtask.upgrade() {
                        core.state.borrow_mut().microtask_queued = false;
                        core.fire(Fired::Microtask);
                    }
                })
            });
            let on_frame = (kind == Kind::Frame).then(|| {
                let frame = weak.clone();
                Closure::<dyn FnMut(f64)>::new(move |_timestamp: f64| {
                    if let Some(core) = frame.upgrade() {
                        core.fire(Fired::Frame);
                    }
                })
            });
            Core {
                kind,
                state: RefCell::default(),
                on_microtask,
                on_frame,
            }
        });
        WebWorker { core: OnPage(core) }
    }
}

impl Core {
    /// Queues `task` at `due` under id `id` (a new task, or one that asked to run again).
    fn enqueue(&self, state: &mut State, id: u64, due: Instant, task: Box<dyn Task>) {
        let key = (due, state.next_order);
        state.next_order += 1;
        state.queue.insert(key, id);
        state.tasks.insert(
            id,
            Entry {
                task: Some(task),
                key: Some(key),
            },
        );
    }

    /// Makes the pending callback the one the earliest task needs: none if no task is
    /// queued, and otherwise one that comes no later than its due time. Returns what to drop
    /// once the borrow is let go.
    fn arm(self: &Rc<Core>, state: &mut State) -> Option<Rc<Core>> {
        let Some((&(due, _), _)) = state.queue.first_key_value() else {
            self.disarm(state);
            return state.release();
        };
        // A timeout due by the earliest task's time: should it come early (its task was
        // cancelled), it finds nothing due and arms for the earliest task, which costs less
        // than moving it at each cancellation. The common case, so decided before reading
        // the clock (a call into JavaScript).
        if let Armed::Timeout { due: armed, .. } = state.armed
            && armed <= due
        {
            return None;
        }
        let now = Instant::now();
        let due_now = due <= now;
        let fits = match &state.armed {
            Armed::None => false,
            // For a task due now, a timeout about to fire (a frame's, which then asks for
            // the frame).
            Armed::Timeout { due: armed, .. } => due_now && *armed <= now,
            Armed::Microtask | Armed::Frame { .. } => due_now,
        };
        if fits {
            return None;
        }
        // The new callback before the old one goes: a timeout that moves keeps the page's
        // shared `setTimeout` rather than clearing it and setting another.
        let previous = std::mem::take(&mut state.armed);
        state.armed = match (self.kind, due_now) {
            (Kind::Microtask, true) => {
                if !state.microtask_queued {
                    let on_microtask = self.on_microtask.as_ref().expect("a microtask worker's");
                    queue_microtask(on_microtask.as_ref().unchecked_ref());
                    state.microtask_queued = true;
                }
                Armed::Microtask
            }
            (Kind::Frame, true) => {
                let on_frame = self.on_frame.as_ref().expect("a frame worker's callback");
                Armed::Frame {
                    id: request_animation_frame(on_frame.as_ref().unchecked_ref()),
                }
            }
            (_, _) => Armed::Timeout {
                due,
                seq: PageTimer::add(due, now, Rc::downgrade(self)),
            },
        };
        Self::clear(previous);
        if state.keep.is_none() {
            state.keep = Some(self.clone());
        }
        None
    }

    /// Clears the pending callback, if any.
    fn disarm(&self, state: &mut State) {
        Self::clear(std::mem::take(&mut state.armed));
    }

    /// Takes back a callback no longer armed.
    fn clear(armed: Armed) {
        match armed {
            Armed::None => {}
            Armed::Timeout { due, seq } => PageTimer::remove(due, seq),
            // A queued microtask cannot be taken back: it finds nothing armed.
            Armed::Microtask => {}
            Armed::Frame { id } => cancel_animation_frame(id),
        }
    }

    /// The page called back: runs the tasks due when it did, in due order.
    fn fire(self: &Rc<Core>, fired: Fired) {
        let mut state = self.state.borrow_mut();
        match (fired, &state.armed) {
            (Fired::Microtask, Armed::Microtask) | (Fired::Frame, Armed::Frame { .. }) => {}
            (Fired::Timer(fired), Armed::Timeout { seq, .. }) if fired == *seq => {}
            _ => {
                // A microtask left behind by a cancellation, or a timeout taken back while
                // the page timer ran others (the page does not call back a cleared frame):
                // nothing to run, and maybe the worker to let go.
                let keep = if matches!(state.armed, Armed::None) {
                    state.release()
                } else {
                    None
                };
                drop(state);
                drop(keep);
                return;
            }
        }
        state.armed = Armed::None;
        if self.kind == Kind::Frame && matches!(fired, Fired::Timer(_)) {
            // The timer only waited for the due time: the tasks run in the next frame.
            let keep = self.arm(&mut state);
            drop(state);
            drop(keep);
            return;
        }
        let now = Instant::now();
        let last = state.next_order;
        while let Some((&key, &id)) = state.queue.first_key_value() {
            if key.0 > now || key.1 >= last {
                break;
            }
            state.queue.remove(&key);
            let entry = state.tasks.get_mut(&id).expect("a queued task is live");
            entry.key = None;
            let mut task = entry.task.take().expect("a queued task is in place");
            // Armed for the rest before the task runs: should it panic (a trap, on wasm32),
            // the rest still run.
            if matches!(state.armed, Armed::None) && !state.queue.is_empty() {
                let released = self.arm(&mut state);
                debug_assert!(released.is_none(), "armed for a queued task");
            }
            drop(state);
            let again = task.run();
            state = self.state.borrow_mut();
            let dropped = match state.tasks.get_mut(&id) {
                // Cancelled while it ran.
                None => Some(task),
                Some(_) => match again {
                    Reschedule::Done => {
                        state.tasks.remove(&id);
                        Some(task)
                    }
                    Reschedule::At(due) => {
                        self.enqueue(&mut state, id, due, task);
                        None
                    }
                    Reschedule::After(delay) => {
                        self.enqueue(&mut state, id, Instant::now() + delay, task);
                        None
                    }
                },
            };
            if dropped.is_some() {
                drop(state);
                drop(dropped);
                state = self.state.borrow_mut();
            }
        }
        let keep = self.arm(&mut state);
        drop(state);
        drop(keep);
    }

    /// Takes task `id` out, cancelled; what to drop once the borrow is let go.
    fn cancel(self: &Rc<Core>, state: &mut State, id: u64) -> Dropped {
        let Some(entry) = state.tasks.remove(&id) else {
            return (Vec::new(), None);
        };
        if let Some(key) = entry.key {
            state.queue.remove(&key);
        }
        let keep = self.arm(state);
        (entry.task.into_iter().collect(), keep)
    }
}

// ----------------------------------------------------------------------------- page timer

/// The one `setTimeout` the workers of the page share, and their timeouts (see the
/// [module](self)): kept per thread, and a page has one.
struct PageTimer {
    /// Each worker's armed timeout, by due time then order of arming, to the worker.
    timeouts: BTreeMap<(Instant, u64), Weak<Core>>,
    next_seq: u64,
    /// The `setTimeout` pending in the page: its id, and the due time it was set for (the
    /// earliest timeout then; later ones taken back since may leave it early).
    pending: Option<(JsValue, Instant)>,
}

thread_local! {
    static PAGE_TIMER: RefCell<PageTimer> = const {
        RefCell::new(PageTimer { timeouts: BTreeMap::new(), next_seq: 0, pending: None })
    };
    /// The shared `setTimeout`'s callback, made once for the page and never dropped: the
    /// page may hold it at any time.
    static ON_PAGE_TIMER: Closure<dyn FnMut()> = Closure::new(PageTimer::fire);
}

impl PageTimer {
    /// Arms a timeout for `core` at `due` (`now` is the clock read by the caller); returns
    /// its sequence number, which [`Fired::Timer`] carries back. Calls into the browser only
    /// when `due` is earlier than the pending `setTimeout`.
    fn add(due: Instant, now: Instant, core: Weak<Core>) -> u64 {
        PAGE_TIMER.with_borrow_mut(|timer| {
            let seq = timer.next_seq;
            timer.next_seq += 1;
            timer.timeouts.insert((due, seq), core);
            if timer.pending.as_ref().is_none_or(|&(_, at)| due < at) {
                timer.set(due, now);
            }
            seq
        })
    }

    /// Takes a timeout back; the `setTimeout` is cleared with the last one.
    fn remove(due: Instant, seq: u64) {
        PAGE_TIMER.with_borrow_mut(|timer| {
            timer.timeouts.remove(&(due, seq));
            if timer.timeouts.is_empty()
                && let Some((id, _)) = timer.pending.take()
            {
                clear_timeout(&id);
            }
        })
    }

    /// Makes the pending `setTimeout` one for `due`.
    fn set(&mut self, due: Instant, now: Instant) {
        if let Some((id, _)) = self.pending.take() {
            clear_timeout(&id);
        }
        let id = ON_PAGE_TIMER.with(|callback| {
            set_timeout(
                callback.as_ref().unchecked_ref(),
                millis(due.saturating_duration_since(now)),
            )
        });
        self.pending = Some((id, due));
    }

    /// The `setTimeout` fired: calls back the workers whose timeouts are due, in due order,
    /// after arming it for the next (a worker's tasks may add and take back timeouts).
    fn fire() {
        let due: smallvec::SmallVec<[(u64, Weak<Core>); 4]> = PAGE_TIMER.with_borrow_mut(|timer| {
            timer.pending = None;
            let now = Instant::now();
            let mut due = smallvec::SmallVec::new();
            while let Some(entry) = timer.timeouts.first_entry() {
                if entry.key().0 > now {
                    let next = entry.key().0;
                    timer.set(next, now);
                    break;
                }
                let ((_, seq), core) = entry.remove_entry();
                due.push((seq, core));
            }
            due
        });
        for (seq, core) in due {
            if let Some(core) = core.upgrade() {
                core.fire(Fired::Timer(seq));
            }
        }
    }
}

/// `delay` in whole milliseconds, rounded up so that a timer never fires before its due
/// time, and at most `setTimeout`'s limit (a timer for later fires early, finds nothing due,
/// and is armed again).
fn millis(delay: Duration) -> i32 {
    let ms = delay.as_nanos().div_ceil(1_000_000);
    ms.min(i32::MAX as u128) as i32
}

impl Worker for WebWorker {
    type TaskHandle = WebTask;

    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> WebTask {
        let core = &*self.core;
        let mut state = core.state.borrow_mut();
        if state.disposed {
            drop(state);
            drop(task);
            return WebTask {
                core: OnPage(Weak::new()),
                id: 0,
            };
        }
        state.next_id += 1;
        let id = state.next_id;
        core.enqueue(&mut state, id, due, Box::new(task));
        let keep = core.arm(&mut state);
        drop(state);
        drop(keep);
        WebTask {
            core: OnPage(Rc::downgrade(core)),
            id,
        }
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl Subscription for WebWorker {
    fn dispose(&self) {
        let core = &*self.core;
        let mut state = core.state.borrow_mut();
        if state.disposed {
            return;
        }
        state.disposed = true;
        core.disarm(&mut state);
        state.queue.clear();
        let tasks: Vec<_> = state.tasks.drain().filter_map(|(_, e)| e.task).collect();
        let keep = state.release();
        drop(state);
        drop(tasks);
        drop(keep);
    }

    fn is_disposed(&self) -> bool {
        self.core.state.borrow().disposed
    }
}

impl Subscription for WebTask {
    fn dispose(&self) {
        if let Some(core) = self.core.upgrade() {
            let mut state = core.state.borrow_mut();
            let dropped = core.cancel(&mut state, self.id);
            drop(state);
            drop(dropped);
        }
    }

    fn is_disposed(&self) -> bool {
        self.core
            .upgrade()
            .is_none_or(|core| !core.state.borrow().tasks.contains_key(&self.id))
    }
}

impl fmt::Debug for WebWorker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.core.state.borrow();
        f.debug_struct("WebWorker")
            .field("kind", &self.core.kind)
            .field("tasks", &state.tasks.len())
            .field("disposed", &state.disposed)
            .finish()
    }
}

impl fmt::Debug for WebTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebTask")
            .field("id", &self.id)
            .field("is_disposed", &self.is_disposed())
            .finish()
    }
}

// Tasks need not be `Send` here: the bound the traits put on them is `MaybeSend`.
const _: fn() = || {
    fn maybe_send<T: MaybeSend>() {}
    maybe_send::<Rc<()>>();
};
