//! Sources of the browser (the `web` feature, wasm32 only): [`from_event`] and
//! [`animation_frames`].

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::web::{OnPage, cancel_animation_frame, request_animation_frame};
use crate::subscription::Subscription;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Event, EventTarget};

// ----------------------------------------------------------------------------- from_event

/// Emits each event of type `event` that reaches `target`: RxJS's `fromEvent`.
///
/// Subscribing adds a listener to `target` (`addEventListener`), and disposing the handle
/// removes it (`removeEventListener`) and drops the observer, as does the observer's being
/// done (a `take` that has its count); dropping the handle does neither. Each subscription has
/// a listener of its own. It never completes: take what is needed (`take`, `take_until`) or
/// dispose. A listener added while the event is being dispatched does not see that event, as
/// the DOM specifies.
///
/// The events are `web_sys::Event`s: cast one to the type the event has
/// (`event.dyn_into::<web_sys::KeyboardEvent>()`), or read what is needed (an input's value)
/// in a `map` before a time operator, whose values must be `Send`. The handle is `Send`,
/// like that of every source here (the page has one thread), so an operator that requires a
/// `Send` upstream handle (`debounce`, `delay`, ...) takes this source.
///
/// ```ignore
/// use rx::prelude::*;
/// use rx::schedulers::web::SetTimeout;
/// use std::time::Duration;
///
/// let input: web_sys::HtmlInputElement = /* ... */;
/// let field = input.clone();
/// let typed = rx::source::from_event(&input, "input")
///     .map(move |_| field.value())
///     .debounce(Duration::from_millis(300), SetTimeout)
///     .distinct_until_changed()
///     .subscribe(|text: String| web_sys::console::log_1(&text.into()));
/// // ...
/// typed.dispose(); // the listener is removed
/// ```
#[doc(alias = "fromEvent")]
pub fn from_event(target: &EventTarget, event: &str) -> FromEvent {
    FromEvent {
        target: OnPage(target.clone()),
        event: event.to_owned(),
    }
}

/// Events of one type on one target; built by [`from_event`].
#[must_use = "observables do nothing unless subscribed"]
#[derive(Clone, Debug)]
pub struct FromEvent {
    target: OnPage<EventTarget>,
    event: String,
}

impl Observable for FromEvent {
    type Item = Event;
    type Flavour = crate::sync::Shared;
}

impl<O: Observer<Event> + 'static> Subscribe<O> for FromEvent {
    type Subscription = EventSubscription;

    fn subscribe_observer(self, observer: O) -> EventSubscription {
        let listener = Rc::new(Listener {
            target: self.target.0,
            event: self.event,
            observer: RefCell::new(Some(Box::new(observer))),
            callback: RefCell::new(None),
            disposed: Cell::new(false),
        });
        // The callback holds the listener, as the target holds the callback: a subscription
        // whose handle is dropped goes on, as a listener of the page does, until it is
        // disposed or its observer is done; then the callback, and with it this cycle, goes.
        let held = listener.clone();
        let callback = Closure::<dyn FnMut(Event)>::new(move |event: Event| held.deliver(event));
        let added = listener
            .target
            .add_event_listener_with_callback(&listener.event, callback.as_ref().unchecked_ref());
        *listener.callback.borrow_mut() = Some(callback);
        let subscription = EventSubscription(OnPage(listener));
        if let Err(error) = added {
            // `addEventListener` throws only for a target that is not one; say so.
            let observer = subscription.0.observer.borrow_mut().take();
            subscription.dispose();
            if let Some(observer) = observer {
                observer.on_error(crate::Error::msg(format!(
                    "addEventListener failed: {error:?}"
                )));
            }
        }
        subscription
    }
}

/// The listener of one [`from_event`] subscription.
struct Listener {
    target: EventTarget,
    event: String,
    /// Out while it takes an event (an event dispatched from its `on_next` is not seen).
    observer: RefCell<Option<Box<dyn EventObserver>>>,
    callback: RefCell<Option<EventCallback>>,
    disposed: Cell<bool>,
}

/// What the target calls.
type EventCallback = Closure<dyn FnMut(Event)>;

/// An observer of events, boxed so the listener has one type.
trait EventObserver {
    fn on_next(&mut self, event: Event);
    fn on_error(self: Box<Self>, error: crate::Error);
    fn is_disposed(&self) -> bool;
}

impl<O: Observer<Event>> EventObserver for O {
    fn on_next(&mut self, event: Event) {
        Observer::on_next(self, event)
    }

    fn on_error(self: Box<Self>, error: crate::Error) {
        Observer::on_error(*self, error)
    }

    fn is_disposed(&self) -> bool {
        Observer::is_disposed(self)
    }
}

impl Listener {
    fn deliver(&self, event: Event) {
        let Some(mut observer) = self.observer.borrow_mut().take() else {
            return;
        };
        observer.on_next(event);
        if self.disposed.get() || observer.is_disposed() {
            drop(observer);
            self.remove();
        } else {
            *self.observer.borrow_mut() = Some(observer);
        }
    }

    /// Removes the listener from its target and drops the observer.
    fn remove(&self) {
        self.disposed.set(true);
        let callback = self.callback.borrow_mut().take();
        if let Some(callback) = &callback {
            let _ = self.target.remove_event_listener_with_callback(
                &self.event,
                callback.as_ref().unchecked_ref(),
            );
        }
        let observer = self.observer.borrow_mut().take();
        drop(observer);
        // Dropped while it may be running (disposed from the observer): wasm-bindgen frees a
        // closure once its last call has returned.
        drop(callback);
    }
}

/// The handle of a [`from_event`] subscription: disposing it removes the listener.
pub struct EventSubscription(OnPage<Rc<Listener>>);

impl Subscription for EventSubscription {
    fn dispose(&self) {
        if !self.0.disposed.get() {
            self.0.remove();
        }
    }

    fn is_disposed(&self) -> bool {
        self.0.disposed.get()
    }
}

impl fmt::Debug for EventSubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventSubscription")
            .field("event", &self.0.event)
            .field("is_disposed", &self.is_disposed())
            .finish()
    }
}

// ----------------------------------------------------------------------- animation_frames

/// Emits the timestamp of each animation frame, in milliseconds on the page's clock (the
/// `DOMHighResTimeStamp` that `requestAnimationFrame` passes, on the timeline of
/// `performance.now()`): RxJS's `animationFrames`.
///
/// Subscribing asks for the next frame, and each frame asks for the one after; disposing the
/// handle cancels the frame asked for, as does the observer's being done (a `take` that has
/// its count); dropping the handle does neither. It never completes. Browsers send no frames to a
/// hidden tab.
///
/// ```ignore
/// use rx::prelude::*;
///
/// // Seconds since the first frame, each frame, for five seconds.
/// let frames = rx::source::animation_frames()
///     .scan(None, |start: &mut Option<f64>, t| {
///         let start = *start.get_or_insert(t);
///         Some((t - start) / 1000.0)
///     })
///     .filter_map(|elapsed| elapsed)
///     .take_while(|elapsed| *elapsed < 5.0)
///     .subscribe(move |elapsed| draw(elapsed));
/// ```
#[doc(alias = "animationFrames")]
pub fn animation_frames() -> AnimationFrames {
    AnimationFrames
}

/// Each animation frame's timestamp; built by [`animation_frames`].
#[must_use = "observables do nothing unless subscribed"]
#[derive(Clone, Copy, Debug, Default)]
pub struct AnimationFrames;

impl Observable for AnimationFrames {
    type Item = f64;
    type Flavour = crate::sync::Shared;
}

impl<O: Observer<f64> + 'static> Subscribe<O> for AnimationFrames {
    type Subscription = FramesSubscription;

    fn subscribe_observer(self, mut observer: O) -> FramesSubscription {
        // The observer, boxed as a closure that takes a timestamp and says whether the
        // observer wants more.
        let next = move |timestamp| {
            observer.on_next(timestamp);
            !observer.is_disposed()
        };
        let frames = Rc::new(Frames {
            observer: RefCell::new(Some(Box::new(next))),
            callback: RefCell::new(None),
            requested: Cell::new(None),
        });
        // The callback holds the state, which holds the callback, until the subscription
        // is disposed or its observer is done: a dropped handle does not stop the frames.
        let held = frames.clone();
        let callback =
            Closure::<dyn FnMut(f64)>::new(move |timestamp: f64| held.deliver(timestamp));
        *frames.callback.borrow_mut() = Some(callback);
        frames.request();
        FramesSubscription(OnPage(frames))
    }
}

/// An observer of frames, as a closure that takes a timestamp and says whether the observer
/// wants more.
type FrameObserver = Box<dyn FnMut(f64) -> bool>;

/// What the page calls each frame.
type FrameCallback = Closure<dyn FnMut(f64)>;

/// The state of one [`animation_frames`] subscription.
struct Frames {
    observer: RefCell<Option<FrameObserver>>,
    callback: RefCell<Option<FrameCallback>>,
    /// The frame asked for, to cancel.
    requested: Cell<Option<i32>>,
}

impl Frames {
    fn request(&self) {
        if let Some(callback) = &*self.callback.borrow() {
            let id = request_animation_frame(callback.as_ref().unchecked_ref());
            self.requested.set(Some(id));
        }
    }

    fn deliver(&self, timestamp: f64) {
        self.requested.set(None);
        let Some(mut observer) = self.observer.borrow_mut().take() else {
            return;
        };
        // The next frame is asked for first: should the observer panic (a trap), the
        // frames go on.
        self.request();
        if observer(timestamp) {
            if self.callback.borrow().is_some() {
                *self.observer.borrow_mut() = Some(observer);
            }
        } else {
            drop(observer);
            self.stop();
        }
    }

    fn stop(&self) {
        if let Some(id) = self.requested.take() {
            cancel_animation_frame(id);
        }
        let observer = self.observer.borrow_mut().take();
        let callback = self.callback.borrow_mut().take();
        drop(observer);
        drop(callback);
    }
}

/// The handle of an [`animation_frames`] subscription: disposing it cancels the frame asked
/// for.
pub struct FramesSubscription(OnPage<Rc<Frames>>);

impl Subscription for FramesSubscription {
    fn dispose(&self) {
        self.0.stop();
    }

    fn is_disposed(&self) -> bool {
        self.0.callback.borrow().is_none()
    }
}

impl fmt::Debug for FramesSubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FramesSubscription")
            .field("is_disposed", &self.is_disposed())
            .finish()
    }
}
