//! [`ErasedSink`]: an observer as a subject's table keeps it, of any type, by value in a few
//! words.
//!
//! # Why in place
//!
//! A subject keeps observers of every type subscribed to it, so it must erase their types. A
//! `Box<dyn _>` does it at the price of an allocation per subscription, and of a pointer more
//! to follow per notification. Most observers a chain hands a subject take a word or two (a
//! closure's captures, an operator's count, a pointer to an operator's shared state), so an
//! observer of up to [`WORDS`](in_place::WORDS) words sits in the table's slot itself, beside a pointer to a
//! table of its functions (what a `dyn` pointer's vtable holds). A larger observer, or one
//! aligned more strictly than a word, is boxed, and the box (one word) sits in place instead.
//!
//! # Runs of one type
//!
//! Subscribers made by one line of code (a loop, a function called for each) have one type.
//! A broadcast that goes over a run of them calls the run's function once
//! ([`ErasedSink::deliver_run`]), which calls each observer of the run directly, inlined,
//! instead of through a pointer per observer: a run ends at the first sink whose table is
//! another. Two types never share a table (see `Table::_type`), so the table's address tells
//! a sink of the run's type from any other.
//!
//! # Why this is sound
//!
//! The erasure is an [`InPlace`], whose account is in its module. [`ErasedSink::end`] makes
//! the sink vacant and then moves the value out; a vacant sink never reads its bytes, so the
//! value is not dropped again. An `ErasedSink` stands for `*mut ()`: neither `Send` nor
//! `Sync`, as the observer it holds may be neither; the thread-safe subject, which keeps only
//! `Send` observers, says so itself (see its core). `deliver_run` treats the bytes of each
//! sink of a run as the run's type, which the table's address guarantees. The tests below
//! check delivery, runs, one drop per observer, inline and boxed observers, and consuming
//! ones.

use crate::Error;
use crate::in_place::{self, InPlace, fits};
use crate::observer::Observer;
use std::any::TypeId;
use std::fmt;
use std::marker::PhantomData;
use std::mem;
use std::ptr;

/// An observer of `T` of any type, in place when it takes at most [`WORDS`](in_place::WORDS) words and is
/// aligned to at most a word, boxed otherwise; or nothing, in an empty slot
/// ([`vacant`](Self::vacant)).
///
/// Not `DynObserver`: folding the `is_disposed` checks a source owes its observer into one
/// call per notification ([`deliver`](Self::deliver)) saves a second indirect call per item
/// and per subscriber.
pub struct ErasedSink<T>(InPlace<Table<T>, *mut ()>);

/// The functions of one observer type. Each takes a pointer to a live value of that type
/// that nothing else touches during the call; `error`, `completed` and `drop` consume it.
struct Table<T> {
    /// Delivers to a run of sinks of this type ([`ErasedSink::deliver_run`]).
    deliver_run: unsafe fn(*mut ErasedSink<T>, usize, &T, &mut bool) -> usize,
    next: unsafe fn(*mut (), T) -> bool,
    is_done: unsafe fn(*const ()) -> bool,
    error: unsafe fn(*mut (), Error),
    completed: unsafe fn(*mut ()),
    drop: unsafe fn(*mut ()),
    /// Whether this is the table of [`Vacant`], which the broadcast loop calls as it is.
    vacant: bool,
    /// The type the table is for, as a function whose body differs from type to type. Never
    /// called: it makes the tables of two types differ (where their other functions may have
    /// been folded into one), so that no two of them can be merged into one object, and a
    /// sink whose table is at the address of another's holds a value of the same type (what
    /// `deliver_run` relies on).
    _type: fn() -> TypeId,
}

impl<T> in_place::Table for Table<T> {
    #[inline(always)]
    fn drop_fn(&self) -> unsafe fn(*mut ()) {
        self.drop
    }
}

/// # Safety
/// `ptr` points to a live `O` that nothing else touches during the call.
#[inline(always)]
unsafe fn next_raw<T, O: Observer<T>>(ptr: *mut (), value: T) -> bool {
    // SAFETY: the caller's guarantee.
    let observer = unsafe { &mut *ptr.cast::<O>() };
    if observer.is_disposed() {
        return false;
    }
    observer.on_next(value);
    !observer.is_disposed()
}

/// Delivers a clone of `value` to each sink of the run that starts at `first` (which holds
/// an `O`) and goes on while the sinks have the same table, at most `len` of them; sets
/// `done` if one of them wants no more; answers how many it delivered to. The observers of a
/// run are called directly, not through a pointer each.
///
/// # Safety
/// `first` points to `len` sinks that nothing else touches during the call.
unsafe fn deliver_run_raw<T: Clone, O: Observer<T>>(
    first: *mut ErasedSink<T>,
    len: usize,
    value: &T,
    done: &mut bool,
) -> usize {
    // SAFETY: the caller's guarantee: `first` is a live sink.
    let table: *const Table<T> = unsafe { (*first).0.table() };
    let mut n = 0;
    while n < len {
        // SAFETY: the caller's guarantee: the `len` sinks from `first` are live and ours.
        let sink = unsafe { &mut *first.add(n) };
        // SAFETY: `table` is a sink's table, which outlives every sink (`InPlace`).
        if !sink.0.has_table(unsafe { &*table }) {
            break;
        }
        // SAFETY: the sink's table is the one at `first`'s address, so it is `O`'s (see
        // `Table::_type`), and the sink holds a live `O` (`InPlace`).
        if !unsafe { next_raw::<T, O>(sink.0.value_mut(), value.clone()) } {
            *done = true;
        }
        n += 1;
    }
    n
}

/// # Safety
/// As [`next_raw`], for shared access.
unsafe fn is_done_raw<T, O: Observer<T>>(ptr: *const ()) -> bool {
    // SAFETY: the caller's guarantee.
    unsafe { &*ptr.cast::<O>() }.is_disposed()
}

/// # Safety
/// `ptr` points to a live `O`, never used again.
unsafe fn error_raw<T, O: Observer<T>>(ptr: *mut (), error: Error) {
    let ptr = ptr.cast::<O>();
    // Asked where it lies, before it is moved: a copy read back at once stalls (see `end`).
    // SAFETY: the caller's guarantee; the value is moved out, or dropped, once.
    unsafe {
        if (*ptr).is_disposed() {
            ptr::drop_in_place(ptr);
        } else {
            ptr.read().on_error(error);
        }
    }
}

/// # Safety
/// As [`error_raw`].
unsafe fn completed_raw<T, O: Observer<T>>(ptr: *mut ()) {
    let ptr = ptr.cast::<O>();
    // SAFETY: as in `error_raw`.
    unsafe {
        if (*ptr).is_disposed() {
            ptr::drop_in_place(ptr);
        } else {
            ptr.read().on_completed();
        }
    }
}

/// The [`Table`] of `O`: a constant, so that `&TableOf::<T, O>::TABLE` is a `'static` borrow.
struct TableOf<T, O>(PhantomData<(fn(T), O)>);

impl<T: Clone, O: Observer<T> + 'static> TableOf<T, O> {
    const TABLE: Table<T> = Table {
        deliver_run: deliver_run_raw::<T, O>,
        next: next_raw::<T, O>,
        is_done: is_done_raw::<T, O>,
        error: error_raw::<T, O>,
        completed: completed_raw::<T, O>,
        drop: in_place::drop_in_place::<O>,
        vacant: false,
        _type: TypeId::of::<O>,
    };
}

/// What an empty slot holds: takes values and wants more, so the broadcast loop calls every
/// slot as it is, without a test for the empty ones in between. Zero-sized.
struct Vacant;

impl<T> Observer<T> for Vacant {
    fn on_next(&mut self, _: T) {}
    fn on_error(self, _: Error) {}
    fn on_completed(self) {}
}

impl<T: Clone> TableOf<T, Vacant> {
    const VACANT: Table<T> = Table {
        vacant: true,
        ..TableOf::<T, Vacant>::TABLE
    };
}

/// An observer too large, or aligned too strictly, to be kept in place.
struct Boxed<O>(Box<O>);

impl<T, O: Observer<T>> Observer<T> for Boxed<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.0.on_next(value)
    }
    fn on_error(self, error: Error) {
        (*self.0).on_error(error)
    }
    fn on_completed(self) {
        (*self.0).on_completed()
    }
    #[inline]
    fn is_disposed(&self) -> bool {
        self.0.is_disposed()
    }
}

impl<T: Clone> ErasedSink<T> {
    /// Erases `observer`, in place if it fits, boxed (one allocation) if not.
    #[inline]
    pub(crate) fn new<O: Observer<T> + 'static>(observer: O) -> Self {
        if fits::<O>() {
            Self::inline(observer, &TableOf::<T, O>::TABLE)
        } else {
            Self::inline(Boxed(Box::new(observer)), &TableOf::<T, Boxed<O>>::TABLE)
        }
    }

    /// The placeholder of an empty slot.
    #[inline]
    pub(crate) fn vacant() -> Self {
        Self::inline(Vacant, &TableOf::<T, Vacant>::VACANT)
    }

    /// Sends the terminal notification (`error`, or the completion when `None`) to the
    /// observer, unless the sink is vacant or the observer disposed, and leaves the sink
    /// vacant.
    ///
    /// In place: taking the sink out first copies it, and the observer then moved out of the
    /// copy is loaded from stores just made, some of which the store buffer does not forward
    /// (a word from the upper half of a 16-byte store), which costs more than the call.
    pub(crate) fn end(&mut self, error: Option<Error>) {
        if self.is_vacant() {
            return;
        }
        let (on_error, on_completed) = (self.0.table().error, self.0.table().completed);
        // Vacant before the call: the bytes still hold the observer, which the call moves
        // out, and a vacant sink never reads them, so an observer that unwinds is not
        // dropped twice.
        // SAFETY: `Vacant`'s table, a promoted constant, whose functions read no bytes.
        unsafe { self.0.set_table(&TableOf::<T, Vacant>::VACANT) };
        let bytes = self.0.value_mut();
        // SAFETY: the bytes hold a live value of the type the functions were taken from
        // (`InPlace`), which the sink, vacant now, no longer owns: the call moves it out, once.
        unsafe {
            match error {
                Some(error) => on_error(bytes, error),
                None => on_completed(bytes),
            }
        }
    }

    /// Empties the sink; answers the observer it held, or `None` if it was vacant.
    pub(crate) fn take(&mut self) -> Option<Self> {
        if self.is_vacant() {
            None
        } else {
            Some(mem::replace(self, Self::vacant()))
        }
    }

    /// Delivers a clone of `value` to the sinks at the start of `sinks` that hold observers
    /// of the type of the first, and sets `done` if one of them wants no more; answers how
    /// many it delivered to (at least one, when `sinks` is not empty). A broadcast loop that
    /// goes by runs calls each observer of a run directly: subscribers made by one line of
    /// code have one type.
    #[inline]
    pub(crate) fn deliver_run(sinks: &mut [Self], value: &T, done: &mut bool) -> usize {
        let Some(first) = sinks.first() else {
            return 0;
        };
        let deliver_run = first.table().deliver_run;
        // SAFETY: the slice's sinks are live, and `&mut` makes this the only access.
        unsafe { deliver_run(sinks.as_mut_ptr(), sinks.len(), value, done) }
    }
}

impl<T> ErasedSink<T> {
    /// `table` must be `O`'s, and a promoted constant: it lives as long as the program,
    /// though its type need not say so.
    #[inline]
    fn inline<O>(observer: O, table: &Table<T>) -> Self {
        // SAFETY: the caller's; the sink stands for `*mut ()`, neither `Send` nor borrowing
        // anything an observer may not.
        ErasedSink(unsafe { InPlace::new(observer, table) })
    }

    #[inline(always)]
    fn table(&self) -> &Table<T> {
        self.0.table()
    }

    /// Whether this is the placeholder of an empty slot.
    #[inline]
    pub(crate) fn is_vacant(&self) -> bool {
        self.table().vacant
    }

    /// Delivers `value` unless the observer is disposed, and sets `done` if it wants no more
    /// (leaving it alone otherwise): the broadcast loop passes one flag to every observer
    /// instead of testing an answer after each call.
    #[inline(always)]
    pub(crate) fn deliver(&mut self, value: T, done: &mut bool) {
        if !self.next(value) {
            *done = true;
        }
    }

    /// [`deliver`](Self::deliver) on its own: answers whether the observer wants more.
    #[inline(always)]
    pub(crate) fn next(&mut self, value: T) -> bool {
        let next = self.table().next;
        // SAFETY: the bytes hold a live value of the table's type (`InPlace`), and `&mut self`
        // makes this the only access to it.
        unsafe { next(self.0.value_mut(), value) }
    }

    /// Whether the observer wants no more: what [`next`](Self::next) last answered, negated.
    pub(crate) fn is_done(&self) -> bool {
        // SAFETY: as in `next`, for shared access.
        unsafe { (self.table().is_done)(self.0.value()) }
    }
}

impl<T> fmt::Debug for ErasedSink<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErasedSink")
            .field("vacant", &self.is_vacant())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    /// Records what it is sent, and its drop, in a shared log; disposed once `limit` values
    /// arrived. `N` bytes of padding decide whether it is kept in place.
    struct Probe<const N: usize> {
        log: Rc<RefCell<Vec<String>>>,
        limit: usize,
        seen: Cell<usize>,
        padding: [u8; N],
    }

    fn probe<const N: usize>(log: &Rc<RefCell<Vec<String>>>, limit: usize) -> Probe<N> {
        Probe {
            log: log.clone(),
            limit,
            seen: Cell::new(0),
            padding: [0; N],
        }
    }

    impl<const N: usize> Observer<i32> for Probe<N> {
        fn on_next(&mut self, value: i32) {
            self.seen.set(self.seen.get() + 1);
            self.log.borrow_mut().push(format!("next {value}"));
        }
        fn on_error(self, error: Error) {
            self.log.borrow_mut().push(format!("error {error}"));
        }
        fn on_completed(self) {
            self.log.borrow_mut().push("completed".into());
        }
        fn is_disposed(&self) -> bool {
            self.seen.get() >= self.limit
        }
    }

    impl<const N: usize> Drop for Probe<N> {
        fn drop(&mut self) {
            let _ = self.padding;
            self.log.borrow_mut().push("drop".into());
        }
    }

    fn log() -> Rc<RefCell<Vec<String>>> {
        Rc::new(RefCell::new(Vec::new()))
    }

    fn delivers_and_drops_once<const N: usize>() {
        let log = log();
        let mut sink = ErasedSink::new(probe::<N>(&log, 2));
        assert!(!sink.is_vacant());
        assert!(sink.next(1));
        let mut done = false;
        sink.deliver(2, &mut done);
        assert!(done, "the second value reached the limit");
        assert!(sink.is_done());
        sink.deliver(3, &mut done);
        drop(sink);
        assert_eq!(*log.borrow(), ["next 1", "next 2", "drop"]);
    }

    #[test]
    fn a_small_observer_is_kept_in_place_and_dropped_once() {
        assert!(fits::<Probe<0>>());
        delivers_and_drops_once::<0>();
    }

    #[test]
    fn a_large_observer_is_boxed_and_dropped_once() {
        assert!(!fits::<Probe<64>>());
        delivers_and_drops_once::<64>();
    }

    #[test]
    fn an_overaligned_observer_is_boxed() {
        #[repr(align(32))]
        struct Aligned(Rc<Cell<i32>>);
        impl Observer<i32> for Aligned {
            fn on_next(&mut self, value: i32) {
                assert_eq!(self as *const Self as usize % 32, 0);
                self.0.set(value);
            }
            fn on_error(self, _: Error) {}
            fn on_completed(self) {}
        }
        assert!(!fits::<Aligned>());
        let last = Rc::new(Cell::new(0));
        let mut sink = ErasedSink::new(Aligned(last.clone()));
        assert!(sink.next(7));
        assert_eq!(last.get(), 7);
        drop(sink);
        assert_eq!(Rc::strong_count(&last), 1);
    }

    #[test]
    fn a_terminal_notification_consumes_the_observer_once() {
        for boxed in [false, true] {
            let log = log();
            let (mut completed, mut failed) = if boxed {
                (
                    ErasedSink::new(probe::<64>(&log, 9)),
                    ErasedSink::new(probe::<64>(&log, 9)),
                )
            } else {
                (
                    ErasedSink::new(probe::<0>(&log, 9)),
                    ErasedSink::new(probe::<0>(&log, 9)),
                )
            };
            completed.end(None);
            assert!(completed.is_vacant());
            failed.end(Some(Error::msg("boom")));
            assert_eq!(
                *log.borrow(),
                ["completed", "drop", "error boom", "drop"],
                "boxed: {boxed}"
            );
        }
    }

    #[test]
    fn an_observer_that_panics_on_its_completion_is_dropped_once() {
        struct Panics(Rc<RefCell<Vec<String>>>);
        impl Observer<i32> for Panics {
            fn on_next(&mut self, _: i32) {}
            fn on_error(self, _: Error) {}
            fn on_completed(self) {
                panic!("completed");
            }
        }
        impl Drop for Panics {
            fn drop(&mut self) {
                self.0.borrow_mut().push("drop".into());
            }
        }
        let log = log();
        let mut sink = ErasedSink::new(Panics(log.clone()));
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sink.end(None)));
        assert!(unwound.is_err());
        assert!(sink.is_vacant());
        drop(sink);
        assert_eq!(*log.borrow(), ["drop"]);
    }

    #[test]
    fn a_disposed_observer_gets_no_terminal_notification() {
        let log = log();
        let mut sink = ErasedSink::new(probe::<0>(&log, 0));
        assert!(sink.is_done());
        sink.end(None);
        assert_eq!(*log.borrow(), ["drop"]);
        drop(sink);
        assert_eq!(*log.borrow(), ["drop"], "ended, the sink holds nothing");
    }

    #[test]
    fn a_vacant_sink_takes_values_and_wants_more() {
        let mut sink = ErasedSink::<i32>::vacant();
        assert!(sink.is_vacant());
        assert!(sink.next(1));
        assert!(!sink.is_done());
        sink.end(None);
        ErasedSink::<i32>::vacant().end(Some(Error::msg("ignored")));
    }

    #[test]
    fn a_run_is_the_sinks_of_the_first_ones_type_and_each_gets_the_value_once() {
        let log = log();
        let mut sinks = [
            ErasedSink::new(probe::<0>(&log, 9)),
            ErasedSink::new(probe::<0>(&log, 1)),
            ErasedSink::new(probe::<64>(&log, 9)),
            ErasedSink::vacant(),
            ErasedSink::new(probe::<0>(&log, 9)),
        ];
        let mut done = false;
        let mut runs = Vec::new();
        let mut from = 0;
        while from < sinks.len() {
            let n = ErasedSink::deliver_run(&mut sinks[from..], &7, &mut done);
            runs.push(n);
            from += n;
        }
        // In place, in place; boxed; vacant; in place.
        assert_eq!(runs, [2, 1, 1, 1]);
        assert!(done, "the second observer wanted one value");
        assert!(sinks[1].is_done() && !sinks[0].is_done());
        assert_eq!(log.borrow().len(), 4, "{:?}", log.borrow());
        assert!(log.borrow().iter().all(|entry| entry == "next 7"));
        assert_eq!(ErasedSink::deliver_run(&mut sinks[..0], &7, &mut done), 0);
    }

    #[test]
    fn four_words_in_all() {
        assert_eq!(
            mem::size_of::<ErasedSink<i32>>(),
            4 * mem::size_of::<usize>()
        );
        assert_eq!(
            mem::size_of::<Option<ErasedSink<i32>>>(),
            mem::size_of::<ErasedSink<i32>>()
        );
    }
}
