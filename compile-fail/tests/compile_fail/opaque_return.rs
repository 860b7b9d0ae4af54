// A function that returns `impl Observable` hides how to subscribe the result.
use rx::prelude::*;

fn evens(limit: usize) -> impl Observable<Item = u32> {
    rx::source::range(0u32, limit).filter(|v| v % 2 == 0)
}

fn main() {
    evens(10).subscribe(|v| println!("{v}"));
}
