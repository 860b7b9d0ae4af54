// A time operator in generic code, with a scheduler bounded only by `Scheduler`: it may be
// `Immediate`, which runs tasks inline, so the bound must say that it queues them.
use rx::prelude::*;
use rx::schedulers::Scheduler;
use std::time::Duration;

fn settled<Sch: Scheduler>(scheduler: Sch) {
    rx::source::just(1)
        .debounce(Duration::from_millis(5), scheduler)
        .subscribe(|_| {});
}

fn main() {
    settled(rx::schedulers::NewThread);
}
