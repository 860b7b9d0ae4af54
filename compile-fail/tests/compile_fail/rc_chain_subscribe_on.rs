// A chain that captures an `Rc` is subscribed on another thread by `subscribe_on`.
use rx::prelude::*;
use rx::schedulers::NewThread;
use std::rc::Rc;

fn main() {
    let offset = Rc::new(10);
    rx::source::from_iter([1, 2])
        .map(move |v| v + *offset)
        .subscribe_on(NewThread)
        .subscribe(|v| println!("{v}"));
}
