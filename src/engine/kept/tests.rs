use super::*;
use crate::sync::{Local, Shared};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// A handle that logs its disposal and its drop under its name.
struct Logged<L> {
    name: &'static str,
    log: L,
}

impl Subscription for Logged<Rc<RefCell<Vec<String>>>> {
    fn dispose(&self) {
        self.log.borrow_mut().push(format!("dispose {}", self.name));
    }
    fn is_disposed(&self) -> bool {
        self.name == "done"
    }
}

impl<L> Drop for Logged<L> {
    fn drop(&mut self) {
        // Recorded through a thread-local so that both log types share the check.
        DROPS.with(|drops| drops.borrow_mut().push(self.name));
    }
}

impl Subscription for Logged<Arc<Mutex<Vec<String>>>> {
    fn dispose(&self) {
        self.log
            .lock()
            .unwrap()
            .push(format!("dispose {}", self.name));
    }
    fn is_disposed(&self) -> bool {
        false
    }
}

thread_local! {
    static DROPS: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

fn drops() -> Vec<&'static str> {
    DROPS.with(|drops| mem::take(&mut *drops.borrow_mut()))
}

/// A handle too large to be kept in place.
struct Large([u64; 8], Rc<RefCell<Vec<String>>>);

impl Subscription for Large {
    fn dispose(&self) {
        self.1
            .borrow_mut()
            .push(format!("dispose large {}", self.0[7]));
    }
    fn is_disposed(&self) -> bool {
        false
    }
}

#[test]
fn a_small_handle_kept_in_place_answers_drops_and_disposes_as_itself() {
    drops();
    let log = Rc::new(RefCell::new(Vec::new()));
    let held = KeptHandle::<Local>::new(Logged {
        name: "done",
        log: log.clone(),
    });
    assert!(held.is_disposed());
    held.dispose();
    held.dispose();
    assert_eq!(*log.borrow(), ["dispose done", "dispose done"]);
    assert_eq!(drops(), Vec::<&str>::new());
    // Moved with what holds it, then dropped once.
    let moved = vec![held];
    drop(moved);
    assert_eq!(drops(), ["done"]);
}

#[test]
fn a_handle_kept_in_place_may_change_its_own_cells_through_a_shared_borrow() {
    /// A flag held by value, set by `dispose` through `&self`.
    struct Flag(std::cell::Cell<bool>);
    impl Subscription for Flag {
        fn dispose(&self) {
            self.0.set(true);
        }
        fn is_disposed(&self) -> bool {
            self.0.get()
        }
    }
    assert!(fits::<Flag>());
    let held = KeptHandle::<Local>::new(Flag(std::cell::Cell::new(false)));
    assert!(!held.is_disposed());
    held.dispose();
    assert!(held.is_disposed());
}

#[test]
fn a_large_handle_is_boxed_and_answers_as_itself() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let held = KeptHandle::<Local>::new(Large([7; 8], log.clone()));
    held.dispose();
    assert_eq!(*log.borrow(), ["dispose large 7"]);
    assert_eq!(Rc::strong_count(&log), 2);
    drop(held);
    assert_eq!(Rc::strong_count(&log), 1);
}

#[test]
fn a_kept_handle_is_four_words_and_its_absence_none_more() {
    let words = mem::size_of::<usize>();
    assert_eq!(mem::size_of::<KeptHandle<'static, Shared>>(), 4 * words);
    assert_eq!(
        mem::size_of::<Option<KeptHandle<'static, Local>>>(),
        4 * words
    );
}

#[test]
fn a_thread_safe_handle_is_disposed_and_dropped_on_another_thread() {
    drops();
    let log = Arc::new(Mutex::new(Vec::new()));
    let held = KeptHandle::<Shared>::new(Logged {
        name: "a",
        log: log.clone(),
    });
    let dropped = std::thread::spawn(move || {
        held.dispose();
        drop(held);
        drops()
    })
    .join()
    .unwrap();
    assert_eq!(dropped, ["a"]);
    assert_eq!(*log.lock().unwrap(), ["dispose a"]);
}

#[test]
fn kept_handles_are_disposed_in_subscription_order_wherever_they_are_kept() {
    drops();
    let log = Rc::new(RefCell::new(Vec::new()));
    let logged = |name| {
        KeptHandle::<Local>::new(Logged {
            name,
            log: log.clone(),
        })
    };
    let mut kept = Kept::new();
    kept.insert(1, logged("1"));
    kept.insert(2, logged("2"));
    kept.insert(3, logged("3"));
    kept.insert(4, logged("4"));
    // A slot freed and taken by a later id: the slots are out of order.
    assert!(kept.remove(1).is_some());
    assert_eq!(drops(), ["1"]);
    kept.insert(5, logged("5"));
    assert!(!kept.is_empty());
    let rest = kept.take_all_except(3);
    rest.dispose_all();
    assert_eq!(*log.borrow(), ["dispose 2", "dispose 4", "dispose 5"]);
    assert_eq!(drops(), ["2", "4", "5"]);
    assert!(kept.remove(2).is_none());
    assert!(kept.remove(3).is_some());
    assert!(kept.is_empty());
    assert_eq!(drops(), ["3"]);
}
