// A function takes any observable of `i32`, and is given one of `&str`.
use rx::prelude::*;

fn print_all(numbers: impl SubscribeOwned<i32>) {
    numbers.subscribe_owned(|v| println!("{v}"));
}

fn main() {
    print_all(rx::source::from_iter(["1", "2"]));
}
