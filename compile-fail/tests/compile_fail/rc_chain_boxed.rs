// `boxed()` makes a `BoxedObservable`, which is `Send`; this chain captures an `Rc`:
// `boxed_local()` boxes it to stay on its thread.
use rx::prelude::*;
use std::rc::Rc;

fn main() {
    let offset = Rc::new(10);
    let _shifted = rx::source::from_iter([1, 2]).map(move |v| v + *offset).boxed();
}
