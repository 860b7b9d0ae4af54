// `Immediate` runs each task inline, so a timeout's timer would fire before the source is
// subscribed: the scheduler is rejected at compile time.
use rx::prelude::*;
use std::time::Duration;

fn main() {
    rx::source::just(1)
        .timeout(Duration::from_secs(1), rx::schedulers::Immediate)
        .subscribe(|_| {});
}
