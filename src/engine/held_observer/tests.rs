use super::*;
use crate::observer::NextObserver;
use crate::sync::{Local, Shared};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

type Log = Rc<RefCell<Vec<String>>>;

/// A subscriber that logs what it receives and its drop, with `PAD` bytes of ballast to
/// make it too large to be kept in place. Disposed once it has seen `dispose_at`.
struct Logged<const PAD: usize> {
    log: Log,
    seen: Cell<i32>,
    dispose_at: i32,
    _pad: [u8; PAD],
}

fn logged<const PAD: usize>(log: &Log, dispose_at: i32) -> Logged<PAD> {
    Logged {
        log: log.clone(),
        seen: Cell::new(0),
        dispose_at,
        _pad: [0; PAD],
    }
}

impl<const PAD: usize> Observer<String> for Logged<PAD> {
    fn on_next(&mut self, value: String) {
        self.seen.set(self.seen.get() + 1);
        self.log.borrow_mut().push(value);
    }
    fn on_error(self, error: Error) {
        self.log.borrow_mut().push(format!("error {error}"));
    }
    fn on_completed(self) {
        self.log.borrow_mut().push("completed".into());
    }
    fn is_disposed(&self) -> bool {
        self.seen.get() == self.dispose_at
    }
}

impl<const PAD: usize> Drop for Logged<PAD> {
    fn drop(&mut self) {
        self.log.borrow_mut().push("drop".into());
    }
}

#[test]
fn small_subscribers_sit_in_place_and_large_ones_are_boxed() {
    assert!(fits::<Logged<0>>());
    assert!(!fits::<Logged<64>>());
}

#[test]
fn delivers_and_drops_each_subscriber_once_in_place_or_boxed() {
    fn check<const PAD: usize>() {
        let log = Log::default();
        let mut held = HeldObserver::<String, Local>::new(logged::<PAD>(&log, 2));
        held.on_next("a".into());
        assert!(!held.is_disposed());
        held.on_next("b".into());
        assert!(held.is_disposed());
        drop(held);
        assert_eq!(*log.borrow(), ["a", "b", "drop"], "padding {PAD}");
    }
    check::<0>();
    check::<64>();
}

#[test]
fn a_terminal_notification_consumes_the_subscriber_once() {
    fn check<const PAD: usize>() {
        let log = Log::default();
        HeldObserver::<String, Local>::new(logged::<PAD>(&log, 0)).on_completed();
        HeldObserver::<String, Local>::new(logged::<PAD>(&log, 0)).on_error(Error::msg("boom"));
        assert_eq!(
            *log.borrow(),
            ["completed", "drop", "error boom", "drop"],
            "padding {PAD}"
        );
    }
    check::<0>();
    check::<64>();
}

#[test]
fn a_value_the_subscriber_takes_is_dropped_by_it_alone() {
    let values = Rc::new(RefCell::new(Vec::new()));
    let seen = values.clone();
    let mut held = HeldObserver::<Rc<()>, Local>::new(NextObserver::new(move |v: Rc<()>| {
        seen.borrow_mut().push(v)
    }));
    let value = Rc::new(());
    held.on_next(value.clone());
    held.on_next(value.clone());
    assert_eq!(Rc::strong_count(&value), 3);
    drop(held);
    values.borrow_mut().clear();
    assert_eq!(Rc::strong_count(&value), 1);
}

#[test]
fn a_thread_safe_subscriber_moves_to_another_thread() {
    let received = Arc::new(Mutex::new(Vec::new()));
    let r = received.clone();
    let mut held =
        HeldObserver::<i32, Shared>::new(NextObserver::new(move |v| r.lock().unwrap().push(v)));
    held.on_next(1);
    std::thread::spawn(move || {
        held.on_next(2);
        held.on_completed();
    })
    .join()
    .unwrap();
    assert_eq!(*received.lock().unwrap(), [1, 2]);
    assert_eq!(
        Arc::strong_count(&received),
        1,
        "the subscriber was dropped"
    );
}
