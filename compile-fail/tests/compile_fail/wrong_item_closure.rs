// The closure takes a `String`, the observable emits `i32`s.
use rx::prelude::*;

fn main() {
    rx::source::from_iter([1, 2, 3]).subscribe(|name: String| println!("{name}"));
}
