//! Flavours of shared state: [`Shared`] (thread-safe) and [`Local`] (one thread).
//!
//! The few types that own state reached through several handles — the
//! [subjects](crate::subjects) and the connection of a
//! [`publish`](crate::ObservableExt::publish) or [`share`](crate::ObservableExt::share) — are
//! written once, generic over a [`Flavour`]: the pointer that shares the state, the counters
//! and flags it keeps, the lock around what several callers may touch, and the cell holding
//! what only the caller delivering may touch. `Shared` plugs in `Arc`, atomics and a
//! `parking_lot` mutex, so the state may be used from any thread; `Local` plugs in `Rc`, `Cell`
//! and `RefCell`, so nothing on its path is an atomic operation or a lock, and the values and
//! observers it keeps need not be `Send`. The algorithm is the same code for both, as
//! `lock_api`'s one `Mutex` serves every raw lock.
//!
//! The flavour is chosen where the state is created, never on each operator:
//! [`subjects::PublishSubject`](crate::subjects::PublishSubject) is
//! `PublishSubject<T, Shared>`, [`subjects::local::PublishSubject`](crate::subjects::local)
//! is `PublishSubject<T, Local>`, and what is built on a subject follows it.

#![allow(unreachable_pub)]

#[cfg(not(loom))]
use crate::primitive::Weak;
use crate::primitive::{Arc, AtomicBool, AtomicUsize, Mutex, MutexGuard, Ordering};

/// How state shared by several handles is kept: [`Shared`] or [`Local`].
///
/// Sealed: the two flavours of this module are the only ones. Its machinery is private to the
/// crate; what a user sees is the choice, made by naming a type
/// ([`subjects::local::PublishSubject`](crate::subjects::local) rather than
/// [`subjects::PublishSubject`](crate::subjects::PublishSubject)).
pub trait Flavour: imp::Machinery + Copy + Default + std::fmt::Debug + 'static {
    /// The flavour of state that keeps handles of this flavour and of `G`: [`Shared`] when
    /// both are, [`Local`] when either is. See [`Joined`].
    type Join<G: Flavour>: Flavour;

    /// The observer kept, type-erased, by state of this flavour that must take a subscriber
    /// before anyone has chosen its type — a group of
    /// [`group_by`](crate::ObservableExt::group_by), a window of
    /// [`window`](crate::ObservableExt::window):
    /// [`BoxedObserver`](crate::observer::BoxedObserver) (`Send`) for [`Shared`],
    /// [`LocalBoxedObserver`](crate::observer::LocalBoxedObserver) (which may hold `Rc`) for
    /// [`Local`].
    ///
    /// It is part of every flavour, so code generic over an observable's flavour can name the
    /// operators built on it with no bound beyond [`Observable`](crate::Observable):
    ///
    /// ```
    /// use rx::operators::{GroupBy, GroupedObservable};
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// fn is_even(v: &u32) -> bool {
    ///     v % 2 == 0
    /// }
    ///
    /// /// Groups any source of numbers by parity, whatever its flavour.
    /// fn by_parity<'a, S>(source: S) -> GroupBy<'a, S, fn(&u32) -> bool>
    /// where
    ///     S: Observable<Item = u32>,
    /// {
    ///     source.group_by(is_even as fn(&u32) -> bool)
    /// }
    ///
    /// let keys = TestObserver::new();
    /// let k = keys.clone();
    /// by_parity(rx::source::from_iter([1u32, 2, 3, 4])).subscribe(
    ///     move |group: GroupedObservable<'_, bool, u32, rx::sync::Shared>| {
    ///         k.clone().on_next(*group.key())
    ///     },
    /// );
    /// keys.assert_values(&[false, true, false, true]);
    /// ```
    type BoxedObserver<'a, T>: crate::observer::Observer<T>;
}

/// The flavour of an observable built on two others (a merge, a zip, a `flat_map` of an outer
/// and its inners): [`Shared`] when both are, [`Local`] when either is, so its handles are
/// `Send` exactly when all the handles it keeps are.
///
/// ```
/// use rx::sync::{Joined, Local, Shared};
///
/// fn same<A: 'static, B: 'static>() -> bool {
///     std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
/// }
/// assert!(same::<Joined<Shared, Shared>, Shared>());
/// assert!(same::<Joined<Shared, Local>, Local>());
/// assert!(same::<Joined<Local, Shared>, Local>());
/// assert!(same::<Joined<Local, Local>, Local>());
/// ```
pub type Joined<A, B> = <A as Flavour>::Join<B>;

/// The thread-safe flavour: `Arc`, atomics and a `parking_lot` mutex (loom's, under
/// `cfg(loom)`).
///
/// State of this flavour is `Send` and `Sync` when what it keeps is `Send`, so its handles may
/// be used from any thread; the observers it keeps must be `Send`. It is the default flavour of
/// every subject.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shared;

/// The single-threaded flavour: `Rc`, `Cell` and `RefCell`.
///
/// State of this flavour is neither `Send` nor `Sync`, so the compiler keeps it on the thread
/// that made it; in exchange nothing on its path is an atomic operation or a lock, and the
/// values and observers it keeps may hold `Rc` and `RefCell` (a UI or wasm program's widgets).
/// It is the flavour of the subjects in [`subjects::local`](crate::subjects::local).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Local;

impl Flavour for Shared {
    type Join<G: Flavour> = G;
    type BoxedObserver<'a, T> = crate::observer::BoxedObserver<'a, T>;
}
impl Flavour for Local {
    type Join<G: Flavour> = Local;
    type BoxedObserver<'a, T> = crate::observer::LocalBoxedObserver<'a, T>;
}

/// The machinery behind [`Flavour`]. Its traits are public in a private module, so they can
/// bound the public flavour without being nameable outside the crate.
pub(crate) mod imp {
    use super::Ordering;
    use crate::subscription::Subscription;
    use std::ops::{Deref, DerefMut};

    /// What a flavour plugs into the generic state.
    pub trait Machinery: Sized {
        /// The shared pointer: `Arc` or `Rc`.
        type Ptr<T>: Clone + Deref<Target = T>;
        /// A pointer that does not keep its target alive: `Weak` (a strong `Arc` under loom,
        /// which has no `Weak`).
        type Weak<T>: Clone;
        /// A counter: `AtomicUsize` or `Cell<usize>`.
        type Counter: Counter;
        /// A flag: `AtomicBool` or `Cell<bool>`.
        type Flag: Flag;
        /// What several callers may touch, one at a time: a mutex or a `RefCell`. Never held
        /// while user code runs, so the `RefCell` is never borrowed twice.
        type Lock<T>: Lock<T>;
        /// What only the holder of a delivery role touches (see `subjects::core`).
        type RoleCell<T>: RoleCell<T>;
        /// A type-erased subscription kept by shared state: `Box<dyn Subscription + Send + 'a>`
        /// or `Box<dyn Subscription + 'a>`; `'a` bounds what it borrows.
        type BoxedSubscription<'a>: Subscription + 'a;

        /// Boxes a `Send` subscription, which every flavour can keep.
        fn box_send<'a, S: Subscription + Send + 'a>(
            subscription: S,
        ) -> Self::BoxedSubscription<'a>;

        fn new_ptr<T>(value: T) -> Self::Ptr<T>;
        /// [`new_ptr`](Machinery::new_ptr) of what `make` returns, built where the pointer
        /// points rather than on the stack and then copied there (which a large state's
        /// `new_ptr` costs).
        fn new_ptr_with<T>(make: impl FnOnce() -> T) -> Self::Ptr<T>;
        /// The address of `ptr`'s target, as [`clone_raw`](Machinery::clone_raw) takes it.
        fn as_raw<T>(ptr: &Self::Ptr<T>) -> *const T;
        /// One more pointer to the target of a pointer whose address
        /// [`as_raw`](Machinery::as_raw) gave, without the pointer itself at hand.
        ///
        /// # Safety
        ///
        /// `raw` came from `as_raw` of a pointer of this flavour whose target is still alive
        /// (another pointer to it exists for the whole call).
        unsafe fn clone_raw<T>(raw: *const T) -> Self::Ptr<T>;
        fn downgrade<T>(ptr: &Self::Ptr<T>) -> Self::Weak<T>;
        fn upgrade<T>(weak: &Self::Weak<T>) -> Option<Self::Ptr<T>>;
        /// Whether a [`Weak`](Machinery::Weak) to `ptr`'s target may exist; `true` when it
        /// cannot be told (under loom, whose weak pointers are strong).
        fn has_weak<T>(ptr: &Self::Ptr<T>) -> bool;

        /// Whether several threads may call in at once: what decides whether a delivery role
        /// can be handed over to another thread (see `subjects::core`).
        const THREADED: bool;
    }

    /// Boxes a subscription of type `S` into the flavour's
    /// [`BoxedSubscription`](Machinery::BoxedSubscription): implemented for every `S` the
    /// flavour can keep (a `Send` one for `Shared`).
    pub trait BoxSubscription<'a, S>: Machinery {
        fn box_subscription(subscription: S) -> Self::BoxedSubscription<'a>;
    }

    /// The operations of `AtomicUsize` the generic state uses; `Cell<usize>` ignores the
    /// orderings, as one thread needs none.
    pub trait Counter {
        fn new(value: usize) -> Self;
        fn load(&self, order: Ordering) -> usize;
        fn store(&self, value: usize, order: Ordering);
        fn fetch_add(&self, value: usize, order: Ordering) -> usize;
        fn fetch_sub(&self, value: usize, order: Ordering) -> usize;
        fn compare_exchange(
            &self,
            current: usize,
            new: usize,
            success: Ordering,
            failure: Ordering,
        ) -> Result<usize, usize>;
    }

    /// The operations of `AtomicBool` the generic state uses.
    pub trait Flag {
        fn new(value: bool) -> Self;
        fn load(&self, order: Ordering) -> bool;
        fn store(&self, value: bool, order: Ordering);
    }

    /// A mutex, or a `RefCell` borrowed mutably.
    pub trait Lock<T> {
        type Guard<'a>: DerefMut<Target = T>
        where
            Self: 'a;
        fn new(value: T) -> Self;
        fn lock(&self) -> Self::Guard<'_>;
        /// The contents through a unique borrow: no locking.
        fn get_mut(&mut self) -> &mut T;
    }

    /// An `UnsafeCell` with loom's closure API, so loom checks every access in the shared
    /// flavour.
    pub trait RoleCell<T> {
        fn new(value: T) -> Self;
        fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R;
    }

    /// The local flavour's shared pointer: an `Rc` under a name of its own, for the compiler's
    /// message where one would cross threads. Through an `Rc`, that message is std's, "`Rc<..>`
    /// cannot be sent between threads safely", which names neither the subject nor the fix;
    /// `Send` and `Sync` are std's traits and take no message of ours, so this type has them
    /// only under a bound that never holds, [`ThreadSafe`], whose message says what to do.
    #[derive(Debug)]
    #[repr(transparent)]
    pub struct LocalRc<T>(pub(crate) std::rc::Rc<T>);

    /// The weak pointer of [`LocalRc`]: `rc::Weak`, with the same message.
    #[derive(Debug)]
    #[repr(transparent)]
    pub struct LocalWeak<T>(pub(crate) std::rc::Weak<T>);

    /// What a local flavour's pointer would need to cross threads: implemented by no type, so
    /// [`LocalRc`] and [`LocalWeak`] are neither `Send` nor `Sync`, as `Rc` is not. (`Sized`
    /// keeps `dyn ThreadSafe` from being a type, which would implement it.)
    #[diagnostic::on_unimplemented(
        message = "a local subject, or a chain built on one, cannot leave its thread: cross threads with the subjects of `rx::subjects`, not `rx::subjects::local`",
        label = "this holds a local subject, or a handle of a chain built on one",
        note = "`rx::subjects::PublishSubject` and the other subjects of `rx::subjects` are thread-safe; a chain built on a `boxed_local()` source is local too, and `boxed()` is its thread-safe form"
    )]
    pub trait ThreadSafe: Sized {}

    // SAFETY: no type implements `ThreadSafe`, so these impls never apply and a `LocalRc` or
    // `LocalWeak` is neither `Send` nor `Sync`, as the `Rc` or `Weak` in it. They exist for
    // the message of `ThreadSafe`, which the compiler shows where one would cross threads.
    unsafe impl<T: ThreadSafe> Send for LocalRc<T> {}
    // SAFETY: as above.
    unsafe impl<T: ThreadSafe> Sync for LocalRc<T> {}
    // SAFETY: as above.
    unsafe impl<T: ThreadSafe> Send for LocalWeak<T> {}
    // SAFETY: as above.
    unsafe impl<T: ThreadSafe> Sync for LocalWeak<T> {}

    impl<T> Clone for LocalRc<T> {
        #[inline]
        fn clone(&self) -> Self {
            LocalRc(self.0.clone())
        }
    }

    impl<T> Deref for LocalRc<T> {
        type Target = T;
        #[inline]
        fn deref(&self) -> &T {
            &self.0
        }
    }

    impl<T> Clone for LocalWeak<T> {
        #[inline]
        fn clone(&self) -> Self {
            LocalWeak(self.0.clone())
        }
    }

    /// The shared flavour's lock: the crate's non-poisoning mutex.
    #[derive(Debug)]
    pub struct SharedLock<T>(pub(crate) crate::primitive::Mutex<T>);

    /// The shared flavour's role cell: std's `UnsafeCell`, or loom's, which checks every access.
    #[cfg(not(loom))]
    #[derive(Debug)]
    pub struct SharedCell<T>(pub(crate) std::cell::UnsafeCell<T>);

    #[cfg(loom)]
    #[derive(Debug)]
    pub struct SharedCell<T>(pub(crate) loom::cell::UnsafeCell<T>);
}

use imp::{BoxSubscription, Counter, Flag, Lock, Machinery, RoleCell};

impl Machinery for Shared {
    type Ptr<T> = Arc<T>;
    #[cfg(not(loom))]
    type Weak<T> = Weak<T>;
    #[cfg(loom)]
    type Weak<T> = Arc<T>;
    type Counter = AtomicUsize;
    type Flag = AtomicBool;
    type Lock<T> = imp::SharedLock<T>;
    type RoleCell<T> = imp::SharedCell<T>;
    type BoxedSubscription<'a> = Box<dyn crate::subscription::Subscription + Send + 'a>;

    #[inline]
    fn box_send<'a, S: crate::subscription::Subscription + Send + 'a>(
        subscription: S,
    ) -> Self::BoxedSubscription<'a> {
        Box::new(subscription)
    }

    #[inline]
    fn new_ptr<T>(value: T) -> Arc<T> {
        Arc::new(value)
    }

    #[cfg(not(loom))]
    #[inline]
    fn new_ptr_with<T>(make: impl FnOnce() -> T) -> Arc<T> {
        // Not `Arc::new_uninit`, whose layout is computed out of line at run time.
        let ptr = Arc::new(std::mem::MaybeUninit::<T>::uninit());
        // Not `Arc::get_mut`, which asks the counts with a read-modify-write.
        // SAFETY: the `Arc` was made just above and is the only pointer to its target, so
        // nothing reads or writes the target meanwhile; `as_ptr` keeps the provenance of
        // the allocation, which the `Arc` owns.
        unsafe {
            Arc::as_ptr(&ptr)
                .cast_mut()
                .write(std::mem::MaybeUninit::new(make()));
            ptr.assume_init()
        }
    }

    #[cfg(loom)]
    fn new_ptr_with<T>(make: impl FnOnce() -> T) -> Arc<T> {
        Arc::new(make())
    }

    #[inline]
    fn as_raw<T>(ptr: &Arc<T>) -> *const T {
        Arc::as_ptr(ptr)
    }

    #[inline]
    unsafe fn clone_raw<T>(raw: *const T) -> Arc<T> {
        // SAFETY: the caller's: `raw` is the address of a live `Arc`'s target, so its count
        // is at least one and the new count is owned by the `Arc` made here.
        unsafe {
            Arc::increment_strong_count(raw);
            Arc::from_raw(raw)
        }
    }

    #[cfg(not(loom))]
    #[inline]
    fn downgrade<T>(ptr: &Arc<T>) -> Weak<T> {
        Arc::downgrade(ptr)
    }

    #[cfg(not(loom))]
    #[inline]
    fn upgrade<T>(weak: &Weak<T>) -> Option<Arc<T>> {
        weak.upgrade()
    }

    #[cfg(not(loom))]
    #[inline]
    fn has_weak<T>(ptr: &Arc<T>) -> bool {
        Arc::weak_count(ptr) != 0
    }

    #[cfg(loom)]
    fn has_weak<T>(_: &Arc<T>) -> bool {
        true
    }

    // loom has no `Weak`: under loom a weak handle keeps its target alive, and the models never
    // depend on the target being freed.
    #[cfg(loom)]
    fn downgrade<T>(ptr: &Arc<T>) -> Arc<T> {
        ptr.clone()
    }

    #[cfg(loom)]
    fn upgrade<T>(weak: &Arc<T>) -> Option<Arc<T>> {
        Some(weak.clone())
    }

    const THREADED: bool = true;
}

impl<'a, S: crate::subscription::Subscription + Send + 'a> BoxSubscription<'a, S> for Shared {
    #[inline]
    fn box_subscription(subscription: S) -> Self::BoxedSubscription<'a> {
        Box::new(subscription)
    }
}

impl Machinery for Local {
    type Ptr<T> = imp::LocalRc<T>;
    type Weak<T> = imp::LocalWeak<T>;
    type Counter = std::cell::Cell<usize>;
    type Flag = std::cell::Cell<bool>;
    type Lock<T> = std::cell::RefCell<T>;
    type RoleCell<T> = std::cell::UnsafeCell<T>;
    type BoxedSubscription<'a> = Box<dyn crate::subscription::Subscription + 'a>;

    #[inline]
    fn box_send<'a, S: crate::subscription::Subscription + Send + 'a>(
        subscription: S,
    ) -> Self::BoxedSubscription<'a> {
        Box::new(subscription)
    }

    #[inline]
    fn new_ptr<T>(value: T) -> imp::LocalRc<T> {
        imp::LocalRc(std::rc::Rc::new(value))
    }

    #[inline]
    fn new_ptr_with<T>(make: impl FnOnce() -> T) -> imp::LocalRc<T> {
        // Not `Rc::new_uninit`, whose layout is computed out of line at run time.
        let mut ptr = std::rc::Rc::new(std::mem::MaybeUninit::<T>::uninit());
        std::rc::Rc::get_mut(&mut ptr)
            .expect("a new `Rc` is unique")
            .write(make());
        // SAFETY: written just above.
        imp::LocalRc(unsafe { ptr.assume_init() })
    }

    #[inline]
    fn as_raw<T>(ptr: &imp::LocalRc<T>) -> *const T {
        std::rc::Rc::as_ptr(&ptr.0)
    }

    #[inline]
    unsafe fn clone_raw<T>(raw: *const T) -> imp::LocalRc<T> {
        // SAFETY: as for `Shared`.
        unsafe {
            std::rc::Rc::increment_strong_count(raw);
            imp::LocalRc(std::rc::Rc::from_raw(raw))
        }
    }

    #[inline]
    fn downgrade<T>(ptr: &imp::LocalRc<T>) -> imp::LocalWeak<T> {
        imp::LocalWeak(std::rc::Rc::downgrade(&ptr.0))
    }

    #[inline]
    fn upgrade<T>(weak: &imp::LocalWeak<T>) -> Option<imp::LocalRc<T>> {
        weak.0.upgrade().map(imp::LocalRc)
    }

    #[inline]
    fn has_weak<T>(ptr: &imp::LocalRc<T>) -> bool {
        std::rc::Rc::weak_count(&ptr.0) != 0
    }

    const THREADED: bool = false;
}

impl<'a, S: crate::subscription::Subscription + 'a> BoxSubscription<'a, S> for Local {
    #[inline]
    fn box_subscription(subscription: S) -> Self::BoxedSubscription<'a> {
        Box::new(subscription)
    }
}

impl Counter for AtomicUsize {
    #[inline]
    fn new(value: usize) -> Self {
        AtomicUsize::new(value)
    }
    #[inline]
    fn load(&self, order: Ordering) -> usize {
        AtomicUsize::load(self, order)
    }
    #[inline]
    fn store(&self, value: usize, order: Ordering) {
        AtomicUsize::store(self, value, order)
    }
    #[inline]
    fn fetch_add(&self, value: usize, order: Ordering) -> usize {
        AtomicUsize::fetch_add(self, value, order)
    }
    #[inline]
    fn fetch_sub(&self, value: usize, order: Ordering) -> usize {
        AtomicUsize::fetch_sub(self, value, order)
    }
    #[inline]
    fn compare_exchange(
        &self,
        current: usize,
        new: usize,
        success: Ordering,
        failure: Ordering,
    ) -> Result<usize, usize> {
        AtomicUsize::compare_exchange(self, current, new, success, failure)
    }
}

impl Counter for std::cell::Cell<usize> {
    #[inline]
    fn new(value: usize) -> Self {
        std::cell::Cell::new(value)
    }
    #[inline]
    fn load(&self, _: Ordering) -> usize {
        self.get()
    }
    #[inline]
    fn store(&self, value: usize, _: Ordering) {
        self.set(value)
    }
    #[inline]
    fn fetch_add(&self, value: usize, _: Ordering) -> usize {
        self.replace(self.get() + value)
    }
    #[inline]
    fn fetch_sub(&self, value: usize, _: Ordering) -> usize {
        self.replace(self.get() - value)
    }
    #[inline]
    fn compare_exchange(
        &self,
        current: usize,
        new: usize,
        _: Ordering,
        _: Ordering,
    ) -> Result<usize, usize> {
        let old = self.get();
        if old == current {
            self.set(new);
            Ok(old)
        } else {
            Err(old)
        }
    }
}

impl Flag for AtomicBool {
    #[inline]
    fn new(value: bool) -> Self {
        AtomicBool::new(value)
    }
    #[inline]
    fn load(&self, order: Ordering) -> bool {
        AtomicBool::load(self, order)
    }
    #[inline]
    fn store(&self, value: bool, order: Ordering) {
        AtomicBool::store(self, value, order)
    }
}

impl Flag for std::cell::Cell<bool> {
    #[inline]
    fn new(value: bool) -> Self {
        std::cell::Cell::new(value)
    }
    #[inline]
    fn load(&self, _: Ordering) -> bool {
        self.get()
    }
    #[inline]
    fn store(&self, value: bool, _: Ordering) {
        self.set(value)
    }
}

impl<T> Lock<T> for imp::SharedLock<T> {
    type Guard<'a>
        = MutexGuard<'a, T>
    where
        T: 'a;
    #[inline]
    fn new(value: T) -> Self {
        imp::SharedLock(Mutex::new(value))
    }
    #[inline]
    fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock()
    }
    #[inline]
    fn get_mut(&mut self) -> &mut T {
        self.0.get_mut()
    }
}

impl<T> Lock<T> for std::cell::RefCell<T> {
    type Guard<'a>
        = std::cell::RefMut<'a, T>
    where
        T: 'a;
    #[inline]
    fn new(value: T) -> Self {
        std::cell::RefCell::new(value)
    }
    #[inline]
    fn lock(&self) -> std::cell::RefMut<'_, T> {
        self.borrow_mut()
    }
    #[inline]
    fn get_mut(&mut self) -> &mut T {
        std::cell::RefCell::get_mut(self)
    }
}

impl<T> RoleCell<T> for imp::SharedCell<T> {
    #[cfg(not(loom))]
    #[inline]
    fn new(value: T) -> Self {
        imp::SharedCell(std::cell::UnsafeCell::new(value))
    }

    #[cfg(not(loom))]
    #[inline]
    fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }

    #[cfg(loom)]
    fn new(value: T) -> Self {
        imp::SharedCell(loom::cell::UnsafeCell::new(value))
    }

    #[cfg(loom)]
    fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        self.0.with_mut(f)
    }
}

impl<T> RoleCell<T> for std::cell::UnsafeCell<T> {
    #[inline]
    fn new(value: T) -> Self {
        std::cell::UnsafeCell::new(value)
    }

    #[inline]
    fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.get())
    }
}
