// A chain subscribed on another thread captures an `Rc`, and is given to a function that
// takes any observable of its item.
use rx::prelude::*;
use rx::schedulers::NewThread;
use std::rc::Rc;

fn print_all(numbers: impl SubscribeOwned<i32>) {
    numbers.subscribe_owned(|v| println!("{v}"));
}

fn main() {
    let offset = Rc::new(10);
    print_all(
        rx::source::from_iter([1, 2])
            .map(move |v| v + *offset)
            .subscribe_on(NewThread),
    );
}
