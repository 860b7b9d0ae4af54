// `boxed()` makes a `BoxedObservable`, which is `Clone`; this one captures a receiver, which
// is not: `boxed_once()` boxes it to be subscribed once.
use rx::prelude::*;
use std::sync::mpsc;

fn main() {
    let (sender, receiver) = mpsc::channel::<i32>();
    sender.send(1).unwrap();
    let _pending = rx::source::create(move |mut e| {
        receiver.try_iter().for_each(|v| e.on_next(v));
        e.on_completed();
    })
    .boxed();
}
