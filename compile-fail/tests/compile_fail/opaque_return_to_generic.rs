// A function that returns `impl Observable` hides how to subscribe the result, so it does not
// fit a function that takes any observable of its item.
use rx::prelude::*;

fn evens(limit: usize) -> impl Observable<Item = i32> {
    rx::source::range(0, limit).filter(|v| v % 2 == 0)
}

fn print_all(numbers: impl SubscribeOwned<i32>) {
    numbers.subscribe_owned(|v| println!("{v}"));
}

fn main() {
    print_all(evens(10));
}
