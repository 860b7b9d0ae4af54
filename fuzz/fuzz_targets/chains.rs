//! Operator chains driven by bytes: the first bytes are the source's values, each further
//! byte picks an operator. The chain runs on virtual time; what reaches the end must keep
//! the Rx grammar (`TestObserver::assert_rules`) and end once the source has ended.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::source::{from_iter, throw};
use rx::testing::TestObserver;
use rx::{BoxedObservable, Error};
use std::time::Duration;

type Obs = BoxedObservable<'static, i64>;

fn apply(obs: Obs, op: u8, sch: &TestScheduler) -> Obs {
    let ms = Duration::from_millis(u64::from(op % 5) + 1);
    let n = usize::from(op % 4);
    let s = sch.clone();
    match op % 28 {
        0 => obs.map(|v| (v + 1) % 16).boxed(),
        1 => obs.filter(|v| v % 2 == 0).boxed(),
        2 => obs.take(n).boxed(),
        3 => obs.skip(n).boxed(),
        4 => obs.take_last(n).boxed(),
        5 => obs.skip_last(n).boxed(),
        6 => obs.scan(0, |a, v| (a + v) % 16).boxed(),
        7 => obs.buffer(n + 1).map(|b| b.len() as i64).boxed(),
        8 => obs.distinct().boxed(),
        9 => obs.distinct_until_changed().boxed(),
        10 => obs.start_with(3).boxed(),
        11 => obs.end_with(4).boxed(),
        12 => obs.first().boxed(),
        13 => obs.last_or(1).boxed(),
        14 => obs.count().map(|c| c as i64).boxed(),
        15 => obs
            .flat_map_iter(move |v| (0..n as i64).map(move |i| v + i))
            .boxed(),
        16 => obs.on_error_return(|_| 9).boxed(),
        17 => obs.merge_with(from_iter([1, 2])).boxed(),
        18 => obs.zip(from_iter(0..8)).map(|(a, b)| a + b).boxed(),
        19 => obs.concat_with(throw(Error::msg("late"))).boxed(),
        20 => obs.flat_map(|v| from_iter([v, v + 1])).boxed(),
        21 => obs.switch_map(|v| from_iter([v])).boxed(),
        22 => obs.debounce(ms, s).boxed(),
        23 => obs.throttle(ms, s).boxed(),
        24 => obs.delay(ms, s).boxed(),
        25 => obs.sample(ms, s).boxed(),
        26 => obs.timeout(ms * 3, s).boxed(),
        _ => obs.buffer_with_time(ms, s).map(|b| b.len() as i64).boxed(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&len, rest)) = data.split_first() else {
        return;
    };
    let len = usize::from(len % 8).min(rest.len());
    let (values, ops) = rest.split_at(len);
    let sch = TestScheduler::new();
    let mut obs: Obs = rx::source::interval(Duration::from_millis(2), sch.clone())
        .take(values.len())
        .map(|i| i as i64)
        .boxed();
    if values.first().is_some_and(|v| v % 3 == 0) {
        obs = obs.concat_with(throw(Error::msg("source"))).boxed();
    }
    for &op in ops.iter().take(64) {
        obs = apply(obs, op, &sch);
    }
    let observer = TestObserver::new();
    let _subscription = obs.subscribe_observer(observer.clone());
    sch.advance_by(Duration::from_secs(10));
    observer.assert_rules();
    assert!(
        observer.is_terminated(),
        "the chain did not end after its source"
    );
});
