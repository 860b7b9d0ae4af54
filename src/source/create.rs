//! [`create`] and [`create_owned`]: observables whose notifications come from a closure.
//!
//! Two forms, because borrowing and sending do not mix. [`create`] lends its closure an
//! [`Emitter`] that borrows the observer from `subscribe`'s stack frame: no allocation, and the
//! closure may borrow locals, but everything happens before `subscribe` returns.
//! [`create_owned`] hands over an [`OwnedEmitter`] that owns the observer, so it can be moved
//! to another thread and used after `subscribe` has returned; that costs one allocation for
//! the observer and one for the flag shared with the handle.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::{DynObserver, Observer};
use crate::subscription::{Finished, FlagSubscription, Subscription};
use std::fmt;
use std::marker::PhantomData;

/// An observable whose notifications are pushed by `subscribe`, a closure called once per
/// subscription with an [`Emitter`].
///
/// Everything is synchronous: the closure runs inside `subscribe_observer`, and the emitter
/// borrows the observer for that call only, so nothing can be delivered once the closure has
/// returned and the handle is [`Finished`]. To emit later, or from another thread, use
/// [`create_owned`].
///
/// The Rx grammar is enforced by ownership: [`on_error`](Emitter::on_error) and
/// [`on_completed`](Emitter::on_completed) take the emitter by value. Once the downstream no
/// longer wants values, [`Emitter::is_disposed`] turns `true` and the emitter drops what it is
/// given, so a producing loop should check it to stop early. The item type is inferred from
/// what the closure emits.
///
/// ```text
/// create(|e| { e.on_next(1); e.on_next(2); e.on_completed() }): (12|)
/// ```
///
/// Its handle, [`Finished`], is `Send`: its [flavour](Observable::Flavour) is
/// [`Shared`](crate::sync::Shared).
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::create(|mut emitter| {
///     emitter.on_next("hello");
///     emitter.on_next("world");
///     emitter.on_completed();
/// })
/// .subscribe_observer(observer.clone());
/// observer.assert_values(&["hello", "world"]);
/// observer.assert_completed();
/// ```
///
/// An endless producer that stops once the downstream has had enough:
///
/// ```
/// use rx::prelude::*;
///
/// let mut seen = Vec::new();
/// rx::source::create(|mut emitter| {
///     let mut n = 0;
///     while !emitter.is_disposed() {
///         emitter.on_next(n);
///         n += 1;
///     }
/// })
/// .take(3)
/// .subscribe(|v| seen.push(v));
/// assert_eq!(seen, [0, 1, 2]);
/// ```
///
/// # Performance
///
/// No allocation, no lock. Each notification is a call through the emitter's `dyn` reference
/// to the observer, which the optimiser can often resolve since both live in one function.
pub fn create<T, F>(subscribe: F) -> Create<T, F>
where
    F: FnOnce(Emitter<'_, T>),
{
    Create {
        subscribe,
        _item: PhantomData,
    }
}

/// Emits what a closure pushes into an [`Emitter`]; built by [`create`].
#[must_use = "observables do nothing unless subscribed"]
pub struct Create<T, F> {
    subscribe: F,
    _item: PhantomData<fn() -> T>,
}

impl<T, F: Clone> Clone for Create<T, F> {
    fn clone(&self) -> Self {
        Create {
            subscribe: self.subscribe.clone(),
            _item: PhantomData,
        }
    }
}

impl<T, F> fmt::Debug for Create<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Create")
    }
}

impl<T, F> Observable for Create<T, F> {
    type Item = T;
    type Flavour = crate::sync::Shared;
    // The emitter borrows the observer for the closure's call and is neither `Send` nor
    // `'static`: every notification comes inside `subscribe`, on the calling thread.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<T, F, O> Subscribe<O> for Create<T, F>
where
    F: FnOnce(Emitter<'_, T>),
    O: Observer<T>,
{
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Finished {
        // The observer stays on this frame; the emitter borrows it. `None` once terminated.
        let mut observer = Some(observer);
        (self.subscribe)(Emitter {
            observer: &mut observer,
        });
        Finished
    }
}

/// What a [`create`] closure pushes notifications into. It borrows the subscriber's observer
/// for the duration of the closure.
///
/// The emitter is itself an [`Observer`], so the closure may subscribe it to another
/// observable:
///
/// ```
/// use rx::prelude::*;
///
/// let mut seen = Vec::new();
/// rx::source::create(|emitter| {
///     rx::source::from_iter([1, 2, 3]).subscribe_observer(emitter);
/// })
/// .subscribe(|v| seen.push(v));
/// assert_eq!(seen, [1, 2, 3]);
/// ```
pub struct Emitter<'a, T> {
    observer: &'a mut (dyn Sink<T> + 'a),
}

impl<T> Emitter<'_, T> {
    /// Delivers `value`, unless the downstream is disposed.
    #[inline]
    pub fn on_next(&mut self, value: T) {
        if !self.observer.is_disposed() {
            self.observer.next(value);
        }
    }

    /// Terminates with `error`, unless the downstream is disposed.
    #[inline]
    pub fn on_error(self, error: Error) {
        if !self.observer.is_disposed() {
            self.observer.error(error);
        } else {
            // Dropped, unless the application asked to see such errors.
            let _ =
                crate::error::report_undeliverable(error, crate::error::Undeliverable::Disposed);
        }
    }

    /// Completes, unless the downstream is disposed.
    #[inline]
    pub fn on_completed(self) {
        if !self.observer.is_disposed() {
            self.observer.completed();
        }
    }

    /// Whether the downstream wants no more values. Check it to stop producing.
    #[inline]
    pub fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

impl<T> Observer<T> for Emitter<'_, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        Emitter::on_next(self, value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        Emitter::on_error(self, error)
    }

    #[inline]
    fn on_completed(self) {
        Emitter::on_completed(self)
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        Emitter::is_disposed(self)
    }
}

impl<T> fmt::Debug for Emitter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Emitter")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

/// The object-safe view of the observer slot an [`Emitter`] borrows. The terminal methods
/// take `&mut self` (the slot), not `self` (the observer), and empty the slot.
trait Sink<T> {
    fn next(&mut self, value: T);
    fn error(&mut self, error: Error);
    fn completed(&mut self);
    fn is_disposed(&self) -> bool;
}

impl<T, O: Observer<T>> Sink<T> for Option<O> {
    #[inline]
    fn next(&mut self, value: T) {
        if let Some(observer) = self {
            observer.on_next(value);
        }
    }

    #[inline]
    fn error(&mut self, error: Error) {
        if let Some(observer) = self.take() {
            observer.on_error(error);
        }
    }

    #[inline]
    fn completed(&mut self) {
        if let Some(observer) = self.take() {
            observer.on_completed();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.as_ref().is_none_or(O::is_disposed)
    }
}

/// An observable whose notifications are pushed by `subscribe`, a closure called once per
/// subscription with an [`OwnedEmitter`]: the form of [`create`] for emitting from another
/// thread or after `subscribe` has returned.
///
/// The emitter owns the observer and is `Send + 'static` (for a `'static` item type), so the
/// closure can move it into a thread, a callback or a channel. It shares a disposed flag with
/// the handle `subscribe` returns: after [`dispose`](Subscription::dispose),
/// [`OwnedEmitter::is_disposed`] is `true` and the emitter drops what it is given. The handle
/// also reports disposed once the emitter has terminated or been dropped, since nothing can
/// be delivered after that.
///
/// ```text
/// create_owned(|e| spawn(move || { e.on_next(1); e.on_completed() })): ---1|
/// ```
///
/// Its handle, a [`FlagSubscription`], is `Send`: its [flavour](Observable::Flavour) is
/// [`Shared`](crate::sync::Shared).
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
/// use std::thread;
///
/// let observer = TestObserver::new();
/// let mut worker = None;
/// let handle = rx::source::create_owned(|mut emitter| {
///     worker = Some(thread::spawn(move || {
///         for n in 0..3 {
///             emitter.on_next(n);
///         }
///         emitter.on_completed();
///     }));
/// })
/// .subscribe_observer(observer.clone());
///
/// worker.unwrap().join().unwrap();
/// observer.assert_values(&[0, 1, 2]);
/// observer.assert_completed();
/// assert!(handle.is_disposed());
/// ```
///
/// # Performance
///
/// Two allocations per subscription (the boxed observer and the shared flag); then an atomic
/// load and a virtual call per notification. No lock: a notification that races with
/// `dispose` on another thread may still be delivered, as with RxJava's `create`; the ones
/// that start after the emitter has seen the flag are not.
pub fn create_owned<T, F>(subscribe: F) -> CreateOwned<T, F>
where
    F: FnOnce(OwnedEmitter<T>),
{
    CreateOwned {
        subscribe,
        _item: PhantomData,
    }
}

/// Emits what a closure pushes into an [`OwnedEmitter`]; built by [`create_owned`].
#[must_use = "observables do nothing unless subscribed"]
pub struct CreateOwned<T, F> {
    subscribe: F,
    _item: PhantomData<fn() -> T>,
}

impl<T, F: Clone> Clone for CreateOwned<T, F> {
    fn clone(&self) -> Self {
        CreateOwned {
            subscribe: self.subscribe.clone(),
            _item: PhantomData,
        }
    }
}

impl<T, F> fmt::Debug for CreateOwned<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CreateOwned")
    }
}

impl<T, F> Observable for CreateOwned<T, F> {
    type Item = T;
    type Flavour = crate::sync::Shared;
}

impl<T, F, O> Subscribe<O> for CreateOwned<T, F>
where
    F: FnOnce(OwnedEmitter<T>),
    O: Observer<T> + Send + 'static,
{
    type Subscription = FlagSubscription;

    fn subscribe_observer(self, observer: O) -> FlagSubscription {
        let handle = FlagSubscription::new();
        (self.subscribe)(OwnedEmitter {
            observer: Some(Box::new(observer)),
            handle: handle.clone(),
        });
        handle
    }
}

/// What a [`create_owned`] closure pushes notifications into. It owns the subscriber's
/// observer and can be sent to another thread.
///
/// Dropping it without calling [`on_error`](OwnedEmitter::on_error) or
/// [`on_completed`](OwnedEmitter::on_completed) leaves the sequence unterminated and marks the
/// subscription's handle disposed. It is an [`Observer`] itself, like [`Emitter`].
pub struct OwnedEmitter<T> {
    /// `None` only while the emitter is being consumed by a terminal method.
    observer: Option<Box<dyn DynObserver<T> + Send>>,
    handle: FlagSubscription,
}

impl<T> OwnedEmitter<T> {
    /// Delivers `value`, unless the subscription is disposed.
    #[inline]
    pub fn on_next(&mut self, value: T) {
        if let Some(observer) = &mut self.observer
            && !self.handle.is_disposed()
            && !Observer::is_disposed(&*observer)
        {
            Observer::on_next(observer, value);
        }
    }

    /// Terminates with `error`, unless the subscription is disposed.
    pub fn on_error(mut self, error: Error) {
        match self.take_live_observer() {
            Some(observer) => Observer::on_error(observer, error),
            // Dropped, unless the application asked to see such errors.
            None => {
                let _ = crate::error::report_undeliverable(
                    error,
                    crate::error::Undeliverable::Disposed,
                );
            }
        }
    }

    /// Completes, unless the subscription is disposed.
    pub fn on_completed(mut self) {
        if let Some(observer) = self.take_live_observer() {
            Observer::on_completed(observer);
        }
    }

    /// Whether the subscription was disposed or the downstream wants no more values. Check it
    /// to stop producing.
    #[inline]
    pub fn is_disposed(&self) -> bool {
        self.handle.is_disposed()
            || self
                .observer
                .as_ref()
                .is_none_or(|observer| Observer::is_disposed(observer))
    }

    /// The observer, for a terminal notification, unless the subscription is disposed; marks
    /// the handle disposed, as nothing can follow a terminal notification.
    fn take_live_observer(&mut self) -> Option<Box<dyn DynObserver<T> + Send>> {
        let live = !self.is_disposed();
        let observer = self.observer.take();
        self.handle.dispose();
        observer.filter(|_| live)
    }
}

impl<T> Drop for OwnedEmitter<T> {
    fn drop(&mut self) {
        self.handle.dispose();
    }
}

impl<T> Observer<T> for OwnedEmitter<T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        OwnedEmitter::on_next(self, value)
    }

    fn on_error(self, error: Error) {
        OwnedEmitter::on_error(self, error)
    }

    fn on_completed(self) {
        OwnedEmitter::on_completed(self)
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        OwnedEmitter::is_disposed(self)
    }
}

impl<T> fmt::Debug for OwnedEmitter<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedEmitter")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::{OwnedEmitter, create, create_owned};
    use crate::Error;
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::source::from_iter;
    use crate::testing::TestObserver;
    use std::sync::mpsc;
    use std::thread;

    #[test]
    fn emits_what_the_closure_pushes_then_completes() {
        let o = TestObserver::new();
        let handle = create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_next(3);
            e.on_completed();
        })
        .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn error_mid_way() {
        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("boom"));
        })
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("boom");
    }

    #[test]
    fn empty_and_unterminated() {
        let o = TestObserver::<i32>::new();
        create(|e| e.on_completed()).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        create(|_| {}).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    /// `create` says it emits inside `subscribe` only, so what is built on it takes the
    /// stack paths; one that returns without terminating leaves them without a terminal.
    #[test]
    fn an_unterminated_create_leaves_the_inline_paths_without_a_terminal() {
        let unterminated = || create(|mut e| e.on_next(1));
        const {
            assert!(
                <super::Create<i32, fn(super::Emitter<'_, i32>)> as Observable>::EMISSION
                    .is_inside_subscribe()
            )
        };
        let merged = TestObserver::new();
        unterminated()
            .merge_with(from_iter([2]))
            .subscribe_observer(merged.clone());
        merged.assert_notifications(&[Notification::Next(1), Notification::Next(2)]);
        let retried = TestObserver::new();
        unterminated().retry(2).subscribe_observer(retried.clone());
        retried.assert_notifications(&[Notification::Next(1)]);
        let zipped = TestObserver::new();
        unterminated()
            .zip(from_iter([2, 3]))
            .subscribe_observer(zipped.clone());
        zipped.assert_notifications(&[Notification::Next((1, 2))]);
        let resumed = TestObserver::new();
        unterminated()
            .on_error_resume_next(|_| from_iter([9]))
            .subscribe_observer(resumed.clone());
        resumed.assert_notifications(&[Notification::Next(1)]);
    }

    #[test]
    fn endless_loop_sees_downstream_disposal() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut saw_disposed = false;
        create(|mut e| {
            let mut n = 0;
            while !e.is_disposed() {
                e.on_next(n);
                n += 1;
            }
            saw_disposed = true;
        })
        .map(|v| {
            if v == 2 {
                probe.dispose();
            }
            v
        })
        .subscribe_observer(o.clone());
        assert!(saw_disposed);
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn nothing_is_delivered_after_downstream_disposal() {
        let o = TestObserver::new();
        let probe = o.clone();
        create(|mut e| {
            e.on_next(1);
            probe.dispose();
            assert!(e.is_disposed());
            e.on_next(2);
            e.on_completed();
        })
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1)]);
    }

    #[test]
    fn disposed_before_subscribe() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut ran = false;
        create(|mut e| {
            ran = true;
            assert!(e.is_disposed());
            e.on_next(1);
            e.on_error(Error::msg("ignored"));
        })
        .subscribe_observer(o.clone());
        assert!(ran);
        o.assert_notifications(&[]);
    }

    #[test]
    fn emitter_is_an_observer() {
        let o = TestObserver::new();
        create(|e| {
            from_iter([1, 2]).map(|v| v * 10).subscribe_observer(e);
        })
        .subscribe_observer(o.clone());
        o.assert_values(&[10, 20]);
        o.assert_completed();
    }

    #[test]
    fn clone_resubscribes_and_borrows_locals() {
        let data = vec![3, 4];
        let source = create(|mut e| {
            for &v in &data {
                e.on_next(v);
            }
            e.on_completed();
        });
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[3, 4, 3, 4]);
    }

    #[test]
    fn owned_emits_from_another_thread() {
        let o = TestObserver::new();
        let mut worker = None;
        let handle = create_owned(|mut e| {
            worker = Some(thread::spawn(move || {
                e.on_next(1);
                e.on_next(2);
                e.on_completed();
            }));
        })
        .subscribe_observer(o.clone());
        worker.unwrap().join().unwrap();
        o.assert_values(&[1, 2]);
        o.assert_completed();
        assert!(handle.is_disposed());
    }

    #[test]
    fn owned_error_from_another_thread() {
        let o = TestObserver::<i32>::new();
        let mut worker = None;
        create_owned(|mut e| {
            worker = Some(thread::spawn(move || {
                e.on_next(1);
                e.on_error(Error::msg("far away"));
            }));
        })
        .subscribe_observer(o.clone());
        worker.unwrap().join().unwrap();
        o.assert_values(&[1]);
        o.assert_error("far away");
    }

    #[test]
    fn owned_handle_dispose_stops_the_emitter() {
        let o = TestObserver::new();
        let (to_main, from_worker) = mpsc::channel();
        let (to_worker, from_main) = mpsc::channel();
        let mut worker = None;
        let handle = create_owned(|mut e| {
            worker = Some(thread::spawn(move || {
                e.on_next(1);
                to_main.send(()).unwrap();
                from_main.recv().unwrap();
                let disposed = e.is_disposed();
                e.on_next(2);
                e.on_completed();
                disposed
            }));
        })
        .subscribe_observer(o.clone());
        from_worker.recv().unwrap();
        assert!(!handle.is_disposed());
        handle.dispose();
        to_worker.send(()).unwrap();
        assert!(
            worker.unwrap().join().unwrap(),
            "the emitter saw the disposal"
        );
        o.assert_notifications(&[Notification::Next(1)]);
    }

    #[test]
    fn owned_emitter_sees_downstream_disposal() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut worker = None;
        create_owned(|mut e| {
            worker = Some(thread::spawn(move || {
                let mut n = 0;
                while !e.is_disposed() {
                    e.on_next(n);
                    n += 1;
                }
                e.on_next(-1);
            }));
        })
        .map(move |v| {
            if v == 2 {
                probe.dispose();
            }
            v
        })
        .subscribe_observer(o.clone());
        worker.unwrap().join().unwrap();
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn owned_handle_is_disposed_once_the_emitter_is_dropped() {
        let o = TestObserver::<i32>::new();
        let mut kept = None;
        let handle = create_owned(|e| kept = Some(e)).subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        drop(kept);
        assert!(handle.is_disposed());
        o.assert_not_terminated();
    }

    #[test]
    fn owned_emitter_is_send_and_static() {
        static_assertions::assert_impl_all!(OwnedEmitter<i32>: Send);
        fn is_static<T: 'static>(_: &T) {}
        create_owned(|e: OwnedEmitter<u8>| is_static(&e)).subscribe_observer(TestObserver::new());
    }
}
