//! Differential property test: for random inputs and random chains of the operators that have
//! an `Iterator` twin, rx emits exactly what the `Iterator` chain yields, then completes.

use proptest::prelude::*;
use rx::LocalBoxedObservable;
use rx::prelude::*;
use rx::testing::TestObserver;

#[derive(Clone, Debug)]
enum Op {
    Map(i32),
    Filter(i32),
    FilterMap(i32),
    Take(usize),
    Skip(usize),
    TakeWhile(i32),
    SkipWhile(i32),
    Scan(i32),
    FlatMapIter(u8),
    StepBy2,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (-5..5i32).prop_map(Op::Map),
        (1..5i32).prop_map(Op::Filter),
        (1..5i32).prop_map(Op::FilterMap),
        (0..12usize).prop_map(Op::Take),
        (0..12usize).prop_map(Op::Skip),
        (-50..50i32).prop_map(Op::TakeWhile),
        (-50..50i32).prop_map(Op::SkipWhile),
        (-3..3i32).prop_map(Op::Scan),
        (0..3u8).prop_map(Op::FlatMapIter),
        Just(Op::StepBy2),
    ]
}

fn apply_iter(it: Box<dyn Iterator<Item = i32>>, op: &Op) -> Box<dyn Iterator<Item = i32>> {
    match *op {
        Op::Map(k) => Box::new(it.map(move |v| v.wrapping_mul(k).wrapping_add(1))),
        Op::Filter(k) => Box::new(it.filter(move |v| v % k == 0)),
        Op::FilterMap(k) => {
            Box::new(it.filter_map(move |v| if v % k != 0 { Some(v / k) } else { None }))
        }
        Op::Take(n) => Box::new(it.take(n)),
        Op::Skip(n) => Box::new(it.skip(n)),
        Op::TakeWhile(t) => Box::new(it.take_while(move |v| *v < t)),
        Op::SkipWhile(t) => Box::new(it.skip_while(move |v| *v < t)),
        Op::Scan(k) => Box::new(it.scan(0i32, move |acc, v| {
            *acc = acc.wrapping_add(v).wrapping_mul(k | 1);
            Some(*acc)
        })),
        Op::FlatMapIter(n) => Box::new(it.flat_map(move |v| std::iter::repeat_n(v, n as usize))),
        Op::StepBy2 => Box::new(it.step_by(2)),
    }
}

fn apply_rx(o: LocalBoxedObservable<'static, i32>, op: &Op) -> LocalBoxedObservable<'static, i32> {
    match *op {
        Op::Map(k) => o
            .map(move |v| v.wrapping_mul(k).wrapping_add(1))
            .boxed_local(),
        Op::Filter(k) => o.filter(move |v| v % k == 0).boxed_local(),
        Op::FilterMap(k) => o
            .filter_map(move |v| if v % k != 0 { Some(v / k) } else { None })
            .boxed_local(),
        Op::Take(n) => o.take(n).boxed_local(),
        Op::Skip(n) => o.skip(n).boxed_local(),
        Op::TakeWhile(t) => o.take_while(move |v| *v < t).boxed_local(),
        Op::SkipWhile(t) => o.skip_while(move |v| *v < t).boxed_local(),
        Op::Scan(k) => o
            .scan(0i32, move |acc, v| acc.wrapping_add(v).wrapping_mul(k | 1))
            .boxed_local(),
        Op::FlatMapIter(n) => o
            .flat_map_iter(move |v| std::iter::repeat_n(v, n as usize))
            .boxed_local(),
        // `step_by(2)` is `buffer_with_skip(1, 2)` flattened.
        Op::StepBy2 => o.buffer_with_skip(1, 2).flat_map_iter(|b| b).boxed_local(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn rx_matches_iterator(input in prop::collection::vec(-100..100i32, 0..40),
                           ops in prop::collection::vec(op(), 0..6)) {
        let expected: Vec<i32> = ops
            .iter()
            .fold(Box::new(input.clone().into_iter()) as Box<dyn Iterator<Item = i32>>, apply_iter)
            .collect();

        let observer = TestObserver::new();
        ops.iter()
            .fold(rx::source::from_iter(input).boxed_local(), apply_rx)
            .subscribe_observer(observer.clone());

        observer.assert_values(&expected);
        observer.assert_completed();
    }

    /// The same over an endless source: operators that finish early must stop it.
    #[test]
    fn endless_source_stops(n in 0..20usize, t in 0..30i32) {
        let observer = TestObserver::new();
        rx::source::from_iter(0..)
            .take_while(move |v| *v < t)
            .take(n)
            .subscribe_observer(observer.clone());
        let expected: Vec<i32> = (0..).take_while(|v| *v < t).take(n).collect();
        observer.assert_values(&expected);
        observer.assert_completed();
    }
}
