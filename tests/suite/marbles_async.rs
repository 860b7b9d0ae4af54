//! Marble tests over async code: futures, tokio timers and the `Tokio` scheduler on the
//! diagram's clock (`Marbles::on_tokio`), asserted at exact frames, in virtual time.

use rx::prelude::*;
use rx::schedulers::{TestScheduler, Tokio};
use rx::testing::marbles::Marbles;
use std::time::{Duration, Instant};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

fn on_tokio() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch).on_tokio(paused());
    (sch, m)
}

async fn slow_upper(c: char, after: Duration) -> char {
    tokio::time::sleep(after).await;
    c.to_ascii_uppercase()
}

#[test]
fn a_future_that_sleeps_answers_at_the_frame_its_timer_fires() {
    let (sch, m) = on_tokio();
    let source = m.cold("-a--b---|");
    let s = sch.clone();
    let answers =
        source.flat_map(move |c| rx::source::from_future(slow_upper(c, ms(2)), s.clone()));
    m.expect(answers).to_be("---A--B-|");
    assert_eq!(sch.elapsed(), ms(8));
}

#[test]
fn switch_map_to_an_async_fn_drops_the_answer_it_switched_away_from() {
    let started = Instant::now();
    let (sch, m) = on_tokio();
    let keys = m.cold("-a-b------c--|");
    let s = sch.clone();
    let answers = keys
        .clone()
        .switch_map(move |k| rx::source::from_future(slow_upper(k, ms(3)), s.clone()));
    m.expect(answers).to_be("------B------(C|)");
    keys.assert_subscriptions(&["^------------!"]);
    eprintln!(
        "switch_map over an async fn, 13 frames: {:?}",
        started.elapsed()
    );
}

#[test]
fn a_tokio_timer_due_at_a_frame_fires_after_the_diagrams_notifications_of_that_frame() {
    let (sch, m) = on_tokio();
    // The inner future of `a` answers at frame 3, where `b` arrives too: the source's `b`
    // comes first, so switch_map has switched away and `A` is never seen.
    let keys = m.cold("-a-b|");
    let s = sch.clone();
    let answers =
        keys.switch_map(move |k| rx::source::from_future(slow_upper(k, ms(2)), s.clone()));
    m.expect(answers).to_be("-----(B|)");
}

#[test]
fn operators_on_the_tokio_scheduler_run_on_the_marble_clock() {
    let (_, m) = on_tokio();
    let tokio = Tokio::new(m.runtime().clone());
    let source = m.cold("-a-b---c|");
    // Delayed: a at 4, b at 6, c at 10, completion at 11; b comes at the frame a's debounce
    // timer falls due, first, so only b is emitted, 2 ms later; the completion flushes c.
    m.expect(source.delay(ms(3), tokio.clone()).debounce(ms(2), tokio))
        .to_be("--------b--(c|)");
}

#[test]
fn tokio_interval_inside_a_future_counts_frames() {
    let (sch, m) = on_tokio();
    let ticks = rx::source::from_future(
        async {
            let mut interval = tokio::time::interval(Duration::from_millis(4));
            for _ in 0..3 {
                interval.tick().await;
            }
            'x'
        },
        sch.clone(),
    );
    // Ticks at 0, 4 and 8 ms.
    m.expect(ticks).to_be("--------(x|)");
}

#[test]
fn frames_longer_than_tokio_s_tick_and_unsubscription() {
    let sch = TestScheduler::new();
    let m = Marbles::with_frame(&sch, ms(10)).on_tokio(paused());
    let s = sch.clone();
    let source = m.hot("-a-b-c-|");
    let answers =
        source.flat_map(move |c| rx::source::from_future(slow_upper(c, ms(15)), s.clone()));
    // 15 ms ends between frames: tokio's timer fires at 15 ms after each value, and the
    // subscription is disposed at frame 5, before `C`.
    let timeline = m.expect_subscribed(answers, "^----!").timeline();
    assert_eq!(
        timeline,
        [
            (ms(25), rx::Notification::Next('A')),
            (ms(45), rx::Notification::Next('B'))
        ]
    );
}

#[test]
fn five_seconds_of_virtual_time_take_well_under_five_seconds() {
    let (sch, m) = on_tokio();
    let started = Instant::now();
    let s = sch.clone();
    let answers = m.cold("a|").switch_map(move |c| {
        rx::source::from_future(slow_upper(c, Duration::from_secs(5)), s.clone())
    });
    m.expect(answers).to_be("5s (A|)");
    let real = started.elapsed();
    assert_eq!(sch.elapsed(), Duration::from_secs(5));
    eprintln!("5 s of virtual time in {real:?}");
    assert!(real < Duration::from_secs(5), "took {real:?}");
}

#[test]
#[should_panic(expected = "tokio's clock is running")]
fn a_running_clock_is_refused() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let _ = Marbles::new(&TestScheduler::new()).on_tokio(runtime);
}
