// A function bounded by `Observable` alone subscribes what it is given: `Observable` names the
// item, not how to subscribe, and the message points to `SubscribeOwned`.
use rx::prelude::*;

fn print_all<S: Observable<Item = i32>>(numbers: S) {
    numbers.subscribe(|v| println!("{v}"));
}

fn main() {
    print_all(rx::source::just(1));
}
