//! `Recorder`: what passes a point, drawn as a diagram that reads back to the same
//! notifications at the same frames.

use proptest::prelude::*;
use rx::Notification::{self, Completed, Error as Err, Next};
use rx::prelude::*;
use rx::schedulers::{NewThread, TestScheduler};
use rx::testing::cold;
use rx::testing::marbles::{Marbles, Recorder};
use std::time::Duration;

/// How a recorded subscription ends.
#[derive(Clone, Debug)]
enum End {
    Open,
    Completed,
    Failed,
    /// Disposed by its handle, this long after the last value.
    Disposed(u64),
}

fn end() -> impl Strategy<Value = End> {
    prop_oneof![
        Just(End::Open),
        Just(End::Completed),
        Just(End::Failed),
        (0u64..5_000).prop_map(End::Disposed),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any timeline, at any frame: the diagram parses back to the quantised timeline, the
    /// subscription diagram to its span, the values come in the order they were recorded,
    /// and none moves to an earlier frame than its nearest.
    #[test]
    fn a_recording_parses_back_to_the_same_notifications_at_the_same_frames(
        steps in prop::collection::vec((0u64..5_000, 0u8..6), 0..30),
        end in end(),
        frame_us in prop_oneof![Just(1_000u64), Just(10_000), 1u64..3_000],
        subscribe_after_us in 0u64..3_000,
    ) {
        let us = Duration::from_micros;
        let sch = TestScheduler::new();
        let recorder = Recorder::with_clock(&sch);
        let mut at = Duration::ZERO;
        let mut script: Vec<(Duration, Notification<u8>)> = steps
            .iter()
            .map(|(gap, v)| {
                at += us(*gap);
                (at, Next(*v))
            })
            .collect();
        match end {
            End::Completed => script.push((at + us(7), Completed)),
            End::Failed => script.push((at + us(7), Err(rx::Error::msg("error")))),
            End::Open | End::Disposed(_) => {}
        }
        // Frame zero is the first subscription, whenever it happens.
        sch.advance_by(us(subscribe_after_us));
        let start = sch.now();
        let handle = cold(&sch, script.clone())
            .spy_with("point", recorder.spy())
            .subscribe_with(|_| {}, |_| {}, || {});
        if let End::Disposed(after) = end {
            sch.advance_to(start + at + us(after));
            handle.dispose();
        }
        sch.run();

        let frame = us(frame_us);
        let recording = recorder.render(frame);
        let m = Marbles::with_frame(&TestScheduler::new(), frame);
        let timeline = recording.timeline();
        prop_assert_eq!(m.parse_with(recording.diagram(), recording.values()), timeline.clone());
        prop_assert_eq!(Some(m.parse_subscription(recording.subscription())), recording.span());
        let recorded: Vec<_> = timeline.iter().map(|(_, n)| n.clone()).collect();
        let played: Vec<_> = script.iter().map(|(_, n)| n.clone()).collect();
        prop_assert_eq!(recorded, played);
        for ((quantised, _), (real, _)) in timeline.iter().zip(&script) {
            let nearest = (real.as_nanos() + frame.as_nanos() / 2) / frame.as_nanos();
            prop_assert!(quantised.as_nanos() / frame.as_nanos() >= nearest);
            prop_assert_eq!(quantised.as_nanos() % frame.as_nanos(), 0);
        }
    }
}

#[test]
fn events_on_one_frame_form_a_group_and_what_falls_inside_it_moves_after_it() {
    let us = Duration::from_micros;
    let sch = TestScheduler::new();
    let recorder = Recorder::with_clock(&sch);
    let script = [
        (us(1_000), Next(1)),
        (us(1_200), Next(2)),
        (us(2_000), Next(3)),
        (us(9_000), Next(1)),
        (us(9_000), Completed),
    ];
    cold(&sch, script)
        .spy_with("burst", recorder.spy())
        .subscribe(|_| {});
    sch.run();
    let recording = recorder.render(Duration::from_millis(1));
    // 1 and 2 share frame 1; their group spans frames 1 to 4, so 3 (frame 2) goes to frame 5.
    assert_eq!(recording.diagram(), "-(ab)c---(a|)");
    assert_eq!(recording.values(), [('a', 1), ('b', 2), ('c', 3)]);
    assert_eq!(recording.subscription(), "^--------!");
}

#[test]
fn every_subscription_gets_its_diagrams_and_the_error_is_named() {
    let sch = TestScheduler::new();
    let m = Marbles::with_frame(&sch, Duration::from_millis(10));
    let recorder = Recorder::with_clock(&sch);
    let source = m
        .cold("-a-#")
        .with_error(rx::Error::msg("timeout"))
        .spy_with("lookups", recorder.spy());
    let first = m.expect(source.clone());
    let second = m.expect_subscribed(source, "--^");
    first.with_error(rx::Error::msg("timeout")).to_be("-a-#");
    second.with_error(rx::Error::msg("timeout")).to_be("---a-#");
    let recording = recorder.render(Duration::from_millis(10));
    assert_eq!(recording.subscription_count(), 2);
    assert_eq!(recording.nth(1), Some(("---a-#", "--^--!")));
    assert_eq!(
        recording.to_string(),
        "// `lookups`, recorded with one frame = 10ms\n\
         // `#` is rx::Error::msg(\"timeout\"): add .with_error(..)\n\
         let values = [('a', 'a')];\n\
         let diagram = \"-a-#\";\n\
         let subscription = \"^--!\";\n\
         let diagram_2 = \"---a-#\";\n\
         let subscription_2 = \"--^--!\";\n"
    );
}

#[test]
fn a_stream_on_real_threads_records_in_order_and_reads_back() {
    let recorder = Recorder::new();
    let values = rx::source::interval(Duration::from_millis(2), NewThread)
        .take(5)
        .spy_with("ticks", recorder.spy())
        .as_blocking()
        .last();
    assert_eq!(values, Ok(4));
    let recording = recorder.render(Duration::from_millis(1));
    let m = Marbles::new(&TestScheduler::new());
    let timeline = recording.timeline();
    assert_eq!(
        m.parse_with(recording.diagram(), recording.values()),
        timeline
    );
    let notifications: Vec<_> = timeline.into_iter().map(|(_, n)| n).collect();
    assert_eq!(
        notifications,
        [Next(0), Next(1), Next(2), Next(3), Next(4), Completed]
    );
}
