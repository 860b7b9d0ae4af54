// The chain hands values to another thread, and the closure captures an `Rc`.
use rx::prelude::*;
use std::rc::Rc;

fn main() {
    let total = Rc::new(std::cell::Cell::new(0));
    rx::source::from_iter([1, 2, 3])
        .observe_on(rx::schedulers::NewThread)
        .subscribe(move |v| total.set(total.get() + v));
}
