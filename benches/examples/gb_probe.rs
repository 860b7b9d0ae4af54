use rx::prelude::*;
use rx::source::from_iter;
use std::hint::black_box;
#[inline(never)]
fn measured(items: i32, groups: i32) {
    from_iter(0..black_box(items))
        .group_by(move |v| v % groups)
        .subscribe(|group| {
            group.subscribe(|v: i32| {
                black_box(v);
            });
        });
}
fn main() {
    let groups: i32 = std::env::args().nth(1).unwrap().parse().unwrap();
    measured(100_000, groups);
}
