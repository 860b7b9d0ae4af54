//! Subjects for one thread: the same four subjects, over the [`Local`] flavour.
//!
//! Each type here is the subject of the same name in [`subjects`](crate::subjects) with its
//! flavour parameter set to [`Local`]: the same code, the same API and the same rules (the
//! first terminal notification wins, a late subscriber gets the terminal notification,
//! re-entrant calls are queued, a subscriber added during an `on_next` sees what follows),
//! kept with `Rc`, `Cell` and `RefCell` instead of `Arc`, atomics and a mutex. So:
//!
//! - a local subject, its observables, observers and subscriptions are neither `Send` nor
//!   `Sync`: the compiler keeps them on the thread that made them;
//! - the values and the observers may hold `Rc` and `RefCell` (a UI program's widgets);
//! - nothing on the delivery path is an atomic operation or a lock.
//!
//! They are type aliases rather than new types: a local subject *is* a subject, so the methods,
//! their documentation and every operator that takes a subject
//! ([`multicast`](crate::ObservableExt::multicast)) serve both flavours without a forwarding
//! layer, and what is built on a local subject ([`share`](crate::ObservableExt::share),
//! `publish`, ...) is local too.
//!
//! # Examples
//!
//! Clicks pushed into a subject, folded into a state, written into a widget that is not
//! `Send`:
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::local::PublishSubject;
//! use std::cell::RefCell;
//! use std::rc::Rc;
//!
//! #[derive(Default)]
//! struct Label {
//!     text: String,
//! }
//!
//! let label = Rc::new(RefCell::new(Label::default()));
//! let clicks = PublishSubject::<()>::new();
//! let target = label.clone();
//! clicks
//!     .observable()
//!     .scan(0, |count, ()| count + 1)
//!     .subscribe(move |count| target.borrow_mut().text = format!("clicked {count} times"));
//!
//! clicks.on_next(());
//! clicks.on_next(());
//! assert_eq!(label.borrow().text, "clicked 2 times");
//! ```
//!
//! A local subject cannot leave its thread:
//!
//! ```compile_fail
//! let subject = rx::subjects::local::PublishSubject::<i32>::new();
//! std::thread::spawn(move || subject.on_next(1)); // a local subject cannot leave its thread
//! ```
//!
//! The compiler's message says so, and names the fix: the subjects of
//! [`subjects`](crate::subjects) for values that cross threads.
//!
//! and a thread-safe subject does not take an observer that is not `Send`:
//!
//! ```compile_fail
//! use rx::prelude::*;
//!
//! let subject = rx::subjects::PublishSubject::<i32>::new();
//! let total = std::rc::Rc::new(std::cell::Cell::new(0));
//! subject.observable().subscribe(move |v| total.set(total.get() + v));
//! ```

use crate::sync::Local;

/// A [`PublishSubject`](super::PublishSubject) for one thread: passes each notification on to
/// the observers subscribed at the time.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::local::PublishSubject;
/// use rx::testing::TestObserver;
/// use std::rc::Rc;
///
/// let subject = PublishSubject::<Rc<str>>::new();
/// let o = TestObserver::new();
/// subject.observable().subscribe_observer(o.clone());
/// subject.on_next(Rc::from("a"));
/// subject.on_completed();
/// o.assert_values(&[Rc::from("a")]);
/// o.assert_completed();
/// ```
#[doc(alias = "Subject")]
pub type PublishSubject<T> = super::flavoured::PublishSubject<T, Local>;

/// A [`BehaviorSubject`](super::BehaviorSubject) for one thread: starts each subscriber with
/// the latest value.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::local::BehaviorSubject;
/// use rx::testing::TestObserver;
///
/// let subject = BehaviorSubject::new(0);
/// subject.on_next(1);
/// let o = TestObserver::new();
/// subject.observable().subscribe_observer(o.clone());
/// o.assert_values(&[1]);
/// assert_eq!(subject.value(), Some(1));
/// ```
pub type BehaviorSubject<T> = super::flavoured::BehaviorSubject<T, Local>;

/// A [`ReplaySubject`](super::ReplaySubject) for one thread: replays the values it kept to
/// each new subscriber.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::local::ReplaySubject;
/// use rx::testing::TestObserver;
///
/// let subject = ReplaySubject::with_capacity(2);
/// for v in 1..=3 {
///     subject.on_next(v);
/// }
/// let o = TestObserver::new();
/// subject.observable().subscribe_observer(o.clone());
/// o.assert_values(&[2, 3]);
/// ```
pub type ReplaySubject<T> = super::flavoured::ReplaySubject<T, Local>;

/// An [`AsyncSubject`](super::AsyncSubject) for one thread: emits only its last value, when
/// it completes.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::subjects::local::AsyncSubject;
/// use rx::testing::TestObserver;
///
/// let subject = AsyncSubject::new();
/// let o = TestObserver::new();
/// subject.observable().subscribe_observer(o.clone());
/// subject.on_next(1);
/// subject.on_next(2);
/// subject.on_completed();
/// o.assert_values(&[2]);
/// o.assert_completed();
/// ```
pub type AsyncSubject<T> = super::flavoured::AsyncSubject<T, Local>;

/// The observable side of a local subject.
pub type SubjectObservable<T> = super::SubjectObservable<T, Local>;

/// The observer side of a local subject.
pub type SubjectObserver<T> = super::SubjectObserver<T, Local>;

/// The handle of one subscription to a local subject.
pub type SubjectSubscription<T> = super::SubjectSubscription<T, Local>;
