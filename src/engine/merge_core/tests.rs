use super::MergeCore;
use crate::notification::Notification::*;
use crate::observer::Observer;
use crate::subscription::Subscription;
use crate::sync::{Local, Shared};
use crate::testing::TestObserver;
use std::cell::Cell;
use std::rc::Rc;

/// Once the handle exists (the control block is allocated), values still take the role
/// without the lock; the block's flag, read through the address the core keeps, stops
/// them once the handle is disposed.
#[test]
fn a_disposal_through_the_handle_stops_the_lock_free_path() {
    let o = TestObserver::new();
    let core = MergeCore::<_, i32, usize, Shared>::new_shared(o.clone(), 1);
    let handle = core.handle();
    core.next(1);
    core.next(2);
    handle.dispose();
    core.next(3);
    core.lock().complete();
    o.assert_notifications(&[Next(1), Next(2)]);
    assert!(core.is_done() && handle.is_disposed());
}

/// An observer that holds `Rc` state, which a `Local` core keeps (in an `Rc`, with
/// `Cell`s and a `RefCell`): it is never required to be `Send`.
struct Counting(Rc<Cell<i32>>, TestObserver<i32>);

impl Observer<i32> for Counting {
    fn on_next(&mut self, value: i32) {
        self.0.set(self.0.get() + value);
        self.1.on_next(value);
    }
    fn on_error(self, error: crate::Error) {
        self.1.on_error(error);
    }
    fn on_completed(self) {
        self.1.on_completed();
    }
}

#[test]
fn a_local_core_delivers_disposes_and_completes_once() {
    let sum = Rc::new(Cell::new(0));
    let o = TestObserver::new();
    let core = MergeCore::<_, i32, usize, Local>::new_shared(Counting(sum.clone(), o.clone()), 2);
    let handle = core.handle();
    core.next(1);
    core.lock().next(2);
    {
        let mut locked = core.lock();
        *locked.extra() -= 1;
    }
    core.lock().complete();
    core.next(4);
    core.lock().complete();
    o.assert_notifications(&[Next(1), Next(2), Completed]);
    assert_eq!(sum.get(), 3);
    assert!(handle.is_disposed());

    let o = TestObserver::new();
    let core = MergeCore::<_, i32, usize, Local>::new_shared(o.clone(), 1);
    let handle = core.handle();
    core.next(1);
    handle.dispose();
    core.next(2);
    o.assert_notifications(&[Next(1)]);
    assert!(core.is_done());
}
