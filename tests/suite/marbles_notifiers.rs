//! The operators whose windows, delays and buffers other observables decide, checked with
//! marble diagrams at exact virtual times: `audit_with`, `throttle_when`, `delay_when`,
//! `buffer_when` and `buffer_toggle`; and `buffer_with_time_skip`, whose buffers a clock
//! opens and closes.
//!
//! The cases are RxJS 7's own marble tests of the same operators
//! (`spec/operators/{audit,throttle,delayWhen,bufferWhen,bufferToggle,bufferTime}-spec.ts`),
//! with the
//! same diagrams; where rx differs, the test says so. Their cases of a selector that throws
//! are left out: a panic in a callback unwinds and does not become `on_error` in rx
//! (ARCHITECTURE.md, "Panics"), and so are those of promises. One frame is 1 ms.

use rx::operators::ThrottleConfig;
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;
use std::sync::{Arc, Mutex};

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

/// A selector that returns the observables of `list` in turn, whatever it is given.
fn in_turn<A, T: Clone>(list: &[T]) -> impl FnMut(&A) -> T + use<A, T> {
    let (list, mut next) = (list.to_vec(), 0);
    move |_| {
        next += 1;
        list[next - 1].clone()
    }
}

/// A factory that returns the observables of `list` in turn.
fn factory<T: Clone>(list: &[T]) -> impl FnMut() -> T + use<T> {
    let mut select = in_turn::<(), T>(list);
    move || select(&())
}

// ============================================================== audit_with (audit(selector))

#[test]
fn audit_with_emits_the_last_value_of_each_window() {
    let (_, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxyz-|");
    let e2 = m.cold("  ----i                ");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----y--------x-----z|");
    e1.assert_subscriptions(&["^--------------------!"]);
    e2.assert_subscriptions(&[
        "-^---!                ",
        "----------^---!       ",
        "----------------^---! ",
    ]);
}

#[test]
fn audit_with_delays_a_source_slower_than_its_windows() {
    let (_, m) = setup();
    let e1 = m.hot("  -a--------b-----c----|");
    let e2 = m.cold("  ----x                ");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----a--------b-----c|");
    e2.assert_subscriptions(&[
        "-^---!                ",
        "----------^---!       ",
        "----------------^---! ",
    ]);
}

#[test]
fn audit_with_closes_a_window_at_the_duration_s_first_value() {
    let (_, m) = setup();
    let e1 = m.hot("   -a-xy-----b--x--cxxx-|");
    let e2 = m.cold("   ----x-y-z            ");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be(" -----y--------x-----x|");
    e2.assert_subscriptions(&[
        "-^---!                ",
        "----------^---!       ",
        "----------------^---! ",
    ]);
}

#[test]
fn audit_with_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  -a-x-y-z-xyz-x-y-z----b--x-x-|");
    let unsub = "     --------------!               ";
    let e2 = m.cold("  -----x------------|          ");
    let d = e2.clone();
    m.expect_subscribed(e1.clone().audit_with(move |_| d.clone()), unsub)
        .to_be("------y-----z--               ");
    e1.assert_subscriptions(&["^-------------!               "]);
    e2.assert_subscriptions(&[
        "-^----!                       ",
        "-------^----!                 ",
        "-------------^!               ",
    ]);

    // The same between two flattening operators: the chain of disposals holds.
    let (_, m) = setup();
    let e1 = m.hot("  -a-x-y-z-xyz-x-y-z----b--x-x-|");
    let e2 = m.cold("  -----x------------|          ");
    let d = e2.clone();
    let chain = e1
        .clone()
        .flat_map(rx::source::just)
        .audit_with(move |_| d.clone())
        .flat_map(rx::source::just);
    m.expect_subscribed(chain, "--------------!")
        .to_be("------y-----z--               ");
    e1.assert_subscriptions(&["^-------------!               "]);
    e2.assert_subscriptions(&[
        "-^----!                       ",
        "-------^----!                 ",
        "-------------^!               ",
    ]);
}

#[test]
fn audit_with_a_busy_producer() {
    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|    ");
    let e2 = m.cold(" -----x                        ");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----f-----f-----f-----f-----(a|)");
    e1.assert_subscriptions(&["^------------------------!    "]);
    e2.assert_subscriptions(&[
        "^----!                        ",
        "------^----!                  ",
        "------------^----!            ",
        "------------------^----!      ",
        "------------------------^----!",
    ]);
}

#[test]
fn audit_with_immediate_empty_or_never_durations() {
    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    let e2 = m.cold(" x");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("abcdefabcdefabcdefabcdefa|");
    e1.assert_subscriptions(&["^------------------------!"]);

    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    m.expect(e1.audit_with(|_| rx::source::just("one single value")))
        .to_be("abcdefabcdefabcdefabcdefa|");

    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    m.expect(e1.audit_with(|_| rx::source::empty::<()>()))
        .to_be("-------------------------|");

    let (_, m) = setup();
    let e1 = m.hot("  ----abcdefabcdefabcdefabcdefa|");
    let e2 = m.cold(" -");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("------------------------------");
    e1.assert_subscriptions(&["^----------------------------!"]);
    e2.assert_subscriptions(&["----^-------------------------"]);
}

#[test]
fn audit_with_errors_from_the_source_or_a_duration() {
    let (_, m) = setup();
    let e1 = m.hot("  ----abcdefabcdefabcdefabcdefa#");
    let e2 = m.cold(" -");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----------------------------#");
    e2.assert_subscriptions(&["----^------------------------!"]);

    let (_, m) = setup();
    let e1 = m.hot("  ----abcdefabcdefabcdefabcdefa|");
    let e2 = m.cold(" #");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("----#                         ");
    e1.assert_subscriptions(&["^---!                         "]);
    e2.assert_subscriptions(&["----(^!)                      "]);

    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdabcdefghabca|");
    let e2 = [
        m.cold("          -----x                 "),
        m.cold("              ---x               "),
        m.cold("                  -------#       "),
    ];
    m.expect(e1.clone().audit_with(in_turn(&e2)))
        .to_be("-----f---d-------#     ");
    e1.assert_subscriptions(&["^----------------!     "]);
    e2[0].assert_subscriptions(&["^----!                 "]);
    e2[1].assert_subscriptions(&["------^--!             "]);
    e2[2].assert_subscriptions(&["----------^------!     "]);
}

#[test]
fn audit_with_durations_of_varying_lengths() {
    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdabcdefghabca|     ");
    let e2 = [
        m.cold("          -----x                      "),
        m.cold("              ---x                    "),
        m.cold("                  -------x            "),
        m.cold("                        --x           "),
        m.cold("                           ----x      "),
    ];
    m.expect(e1.clone().audit_with(in_turn(&e2)))
        .to_be("-----f---d-------h--c----(a|)");
    e1.assert_subscriptions(&["^---------------------!     "]);
    let subs = [
        "^----!                      ",
        "------^--!                  ",
        "----------^------!          ",
        "------------------^-!       ",
        "---------------------^---!  ",
    ];
    for (duration, sub) in e2.iter().zip(subs) {
        duration.assert_subscriptions(&[sub]);
    }
}

#[test]
fn audit_with_sources_that_end_without_a_value() {
    let (_, m) = setup();
    let e1 = m.hot("  -----|");
    let d = m.cold("-----|");
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----|");
    e1.assert_subscriptions(&["^----!"]);

    let (_, m) = setup();
    let e1 = m.hot("  -----#");
    let d = m.cold("-----|");
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----#");
    e1.assert_subscriptions(&["^----!"]);

    let (_, m) = setup();
    let e1 = m.cold("|");
    let d = m.cold("-----|");
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let e1 = m.cold("-");
    let d = m.cold("-----|");
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-");
    e1.assert_subscriptions(&["^"]);

    let (_, m) = setup();
    let e1 = m.cold("#");
    let d = m.cold("-----|");
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn audit_with_stops_a_synchronous_source_when_unsubscribed() {
    let pulled = Arc::new(Mutex::new(Vec::new()));
    let p = pulled.clone();
    rx::source::from_iter((0..10).inspect(move |v| p.lock().unwrap().push(*v)))
        .audit_with(|_| rx::source::just(0))
        .take(3)
        .subscribe(|_| {});
    assert_eq!(*pulled.lock().unwrap(), [0, 1, 2]);
}

#[test]
fn audit_with_emits_the_last_value_once_the_window_ends_after_the_source() {
    let (_, m) = setup();
    let e1 = m.hot("  -a--------xy|  ");
    let e2 = m.cold("  ----x         ");
    let d = e2.clone();
    m.expect(e1.clone().audit_with(move |_| d.clone()))
        .to_be("-----a--------(y|)");
    e1.assert_subscriptions(&["^-----------!  "]);
    e2.assert_subscriptions(&["-^---!         ", "----------^---!"]);
}

// ========================================================= throttle_when (throttle(selector))

const LEADING: ThrottleConfig = ThrottleConfig {
    leading: true,
    trailing: false,
};
const BOTH: ThrottleConfig = ThrottleConfig {
    leading: true,
    trailing: true,
};
const TRAILING: ThrottleConfig = ThrottleConfig {
    leading: false,
    trailing: true,
};

#[test]
fn throttle_when_emits_the_first_value_of_each_window() {
    let (_, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxyz-|");
    let e2 = m.cold("  ----i                ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), LEADING))
        .to_be("-a--------b-----c----|");
    e1.assert_subscriptions(&["^--------------------!"]);
    let subs = [
        "-^---!                ",
        "----------^---!       ",
        "----------------^---! ",
    ];
    e2.assert_subscriptions(&subs);

    // A duration that completes ends its window as a value would.
    let (_, m) = setup();
    let e1 = m.hot("  ^a--------b-----c----|");
    let e2 = m.cold("  ----|                ");
    let d = e2.clone();
    m.expect(e1.throttle_when(move |_| d.clone(), LEADING))
        .to_be("-a--------b-----c----|");
    e2.assert_subscriptions(&subs);

    let (_, m) = setup();
    let e1 = m.hot("  ^a-xy-----b--x--cxxx-|");
    let e2 = m.cold("  ----x-y-z            ");
    let d = e2.clone();
    m.expect(e1.throttle_when(move |_| d.clone(), LEADING))
        .to_be("-a--------b-----c----|");
    e2.assert_subscriptions(&subs);
}

#[test]
fn throttle_when_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  -a-x-y-z-xyz-x-y-z----b--x-x-|");
    let e2 = m.cold("  ---------------------|       ");
    let d = e2.clone();
    m.expect_subscribed(
        e1.clone().throttle_when(move |_| d.clone(), LEADING),
        "--------------!",
    )
    .to_be("-a-------------               ");
    e1.assert_subscriptions(&["^-------------!               "]);
    e2.assert_subscriptions(&["-^------------!               "]);

    let (_, m) = setup();
    let e1 = m.hot("  -a-x-y-z-xyz-x-y-z----b--x-x-|");
    let e2 = m.cold("  ------------------|           ");
    let d = e2.clone();
    let chain = e1
        .clone()
        .flat_map(rx::source::just)
        .throttle_when(move |_| d.clone(), LEADING)
        .flat_map(rx::source::just);
    m.expect_subscribed(chain, "--------------!")
        .to_be("-a-------------               ");
    e1.assert_subscriptions(&["^-------------!               "]);
    e2.assert_subscriptions(&["-^------------!               "]);
}

#[test]
fn throttle_when_a_busy_producer() {
    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    let e2 = m.cold(" -----|                    ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), LEADING))
        .to_be("a-----a-----a-----a-----a|");
    e1.assert_subscriptions(&["^------------------------!"]);
    e2.assert_subscriptions(&[
        "^----!                    ",
        "------^----!              ",
        "------------^----!        ",
        "------------------^----!  ",
        "------------------------^!",
    ]);
}

#[test]
fn throttle_when_immediate_empty_or_never_durations() {
    for duration in ["x", "|"] {
        let (_, m) = setup();
        let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
        let d = m.cold(duration);
        m.expect(e1.throttle_when(move |_| d.clone(), LEADING))
            .to_be("abcdefabcdefabcdefabcdefa|");
    }

    let (_, m) = setup();
    let e1 = m.hot("  ----abcdefabcdefabcdefabcdefa|");
    let e2 = m.cold(" -                             ");
    let d = e2.clone();
    m.expect(e1.throttle_when(move |_| d.clone(), LEADING))
        .to_be("----a------------------------|");
    e2.assert_subscriptions(&["----^------------------------!"]);
}

#[test]
fn throttle_when_errors_from_the_source_or_a_duration() {
    let (_, m) = setup();
    let e1 = m.hot("  ----abcdefabcdefabcdefabcdefa#");
    let e2 = m.cold(" -                             ");
    let d = e2.clone();
    m.expect(e1.throttle_when(move |_| d.clone(), LEADING))
        .to_be("----a------------------------#");
    e2.assert_subscriptions(&["----^------------------------!"]);

    let (_, m) = setup();
    let e1 = m.hot("  ----abcdefabcdefabcdefabcdefa|");
    let e2 = m.cold(" #                             ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), LEADING))
        .to_be("----(a#)                      ");
    e1.assert_subscriptions(&["^---!-------------------------"]);
    e2.assert_subscriptions(&["----(^!)                      "]);

    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdabcdefghabca|   ");
    let e2 = [
        m.cold("          -----|                    "),
        m.cold("                ---|                "),
        m.cold("                    -------#        "),
    ];
    m.expect(e1.clone().throttle_when(in_turn(&e2), LEADING))
        .to_be("a-----a---a------#        ");
    e1.assert_subscriptions(&["^----------------!        "]);
    e2[0].assert_subscriptions(&["^----!                    "]);
    e2[1].assert_subscriptions(&["------^--!                "]);
    e2[2].assert_subscriptions(&["----------^------!        "]);
}

#[test]
fn throttle_when_durations_of_varying_lengths() {
    let (_, m) = setup();
    let e1 = m.hot("  abcdefabcdabcdefghabca|   ");
    let e2 = [
        m.cold("          -----|                    "),
        m.cold("                ---|                "),
        m.cold("                    -------|        "),
        m.cold("                            --|     "),
        m.cold("                               ----|"),
    ];
    m.expect(e1.clone().throttle_when(in_turn(&e2), LEADING))
        .to_be("a-----a---a-------a--a|   ");
    e1.assert_subscriptions(&["^---------------------!   "]);
    let subs = [
        "^----!                    ",
        "------^--!                ",
        "----------^------!        ",
        "------------------^-!     ",
        "---------------------^!   ",
    ];
    for (duration, sub) in e2.iter().zip(subs) {
        duration.assert_subscriptions(&[sub]);
    }
}

#[test]
fn throttle_when_sources_that_end_without_a_value() {
    for (source, expected) in [("-----|", "-----|"), ("-----#", "-----#")] {
        let (_, m) = setup();
        let e1 = m.hot(source);
        let d = m.cold("-----|");
        m.expect(e1.clone().throttle_when(move |_| d.clone(), LEADING))
            .to_be(expected);
        e1.assert_subscriptions(&["^----!"]);
    }
    for (source, expected, subs) in [("|", "|", "(^!)"), ("-", "-", "^"), ("#", "#", "(^!)")] {
        let (_, m) = setup();
        let e1 = m.cold(source);
        let d = m.cold("-----|");
        m.expect(e1.clone().throttle_when(move |_| d.clone(), LEADING))
            .to_be(expected);
        e1.assert_subscriptions(&[subs]);
    }
}

#[test]
fn throttle_when_leading_and_trailing() {
    let (_, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxxx------|");
    let e2 = m.cold("  ----x                     ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), BOTH))
        .to_be("-a---y----b---x---x---x---|");
    e1.assert_subscriptions(&["^-------------------------!"]);
    e2.assert_subscriptions(&[
        "-^---!                     ",
        "-----^---!                 ",
        "----------^---!            ",
        "--------------^---!        ",
        "------------------^---!    ",
        "----------------------^---!",
    ]);

    let (_, m) = setup();
    let s1 = m.hot("-^-x------------------|     ");
    let n1 = m.cold("  ------------------------|");
    let d = n1.clone();
    m.expect(s1.clone().throttle_when(move |_| d.clone(), BOTH))
        .to_be("--x------------------|     ");
    s1.assert_subscriptions(&["^--------------------!     "]);
    n1.assert_subscriptions(&["--^------------------!     "]);

    let (_, m) = setup();
    let e1 = m.hot("  -a--------xy|     ");
    let e2 = m.cold("  ----x            ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), BOTH))
        .to_be("-a--------x---(y|)");
    e1.assert_subscriptions(&["^-----------!     "]);
    e2.assert_subscriptions(&["-^---!            ", "----------^---!   "]);
}

#[test]
fn throttle_when_trailing_only() {
    let (_, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxxx------|");
    let e2 = m.cold("  ----x                     ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), TRAILING))
        .to_be("-----y--------x---x---x---|");
    e2.assert_subscriptions(&[
        "-^---!                     ",
        "-----^---!                 ",
        "----------^---!            ",
        "--------------^---!        ",
        "------------------^---!    ",
        "----------------------^---!",
    ]);

    let (_, m) = setup();
    let s1 = m.hot("-^-x------------------|        ");
    let n1 = m.cold("  ------------------------x   ");
    let d = n1.clone();
    m.expect(s1.clone().throttle_when(move |_| d.clone(), TRAILING))
        .to_be("--------------------------(x|)");
    s1.assert_subscriptions(&["^--------------------!        "]);
    n1.assert_subscriptions(&["--^-----------------------!   "]);

    let (_, m) = setup();
    let source = m.hot("  -^--x--------y---------|        ");
    let duration = m.cold("   ------------------------x   ");
    let d = duration.clone();
    m.expect(source.clone().throttle_when(move |_| d.clone(), TRAILING))
        .to_be("---------------------------(y|)");
    source.assert_subscriptions(&["^---------------------!        "]);
    duration.assert_subscriptions(&["---^-----------------------!   "]);
}

#[test]
fn throttle_when_trailing_only_at_the_source_s_end() {
    let (_, m) = setup();
    let e1 = m.hot("  -a--------x|   ");
    let e2 = m.cold("  ----x         ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), TRAILING))
        .to_be("-----a--------(x|)");
    e2.assert_subscriptions(&["-^---!         ", "-----^---!     ", "----------^---!"]);

    let (_, m) = setup();
    let e1 = m.hot("  -a--------xy|  ");
    let e2 = m.cold("  ----x         ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), TRAILING))
        .to_be("-----a--------(y|)");
    e2.assert_subscriptions(&["-^---!         ", "-----^---!     ", "----------^---!"]);

    let (_, m) = setup();
    let e1 = m.hot("  -a-----|");
    let e2 = m.cold("  ----x  ");
    let d = e2.clone();
    m.expect(e1.clone().throttle_when(move |_| d.clone(), TRAILING))
        .to_be("-----a-|");
    e1.assert_subscriptions(&["^------!"]);
    e2.assert_subscriptions(&["-^---!  ", "-----^-!"]);
}

#[test]
fn throttle_when_a_synchronous_source_and_duration_with_trailing_only() {
    let o = rx::testing::TestObserver::new();
    rx::source::just(1)
        .throttle_when(|_| rx::source::just(1), TRAILING)
        .subscribe_observer(o.clone());
    o.assert_notifications(&[rx::Notification::Next(1), rx::Notification::Completed]);
}

#[test]
fn throttle_when_stops_a_synchronous_source_when_unsubscribed() {
    let pulled = Arc::new(Mutex::new(Vec::new()));
    let p = pulled.clone();
    rx::source::from_iter((0..10).inspect(move |v| p.lock().unwrap().push(*v)))
        .throttle_when(|_| rx::source::just(0), LEADING)
        .take(3)
        .subscribe(|_| {});
    assert_eq!(*pulled.lock().unwrap(), [0, 1, 2]);
}

// =============================================================== delay_when (delayWhen)

#[test]
fn delay_when_delays_each_value_by_its_own_duration() {
    let (_, m) = setup();
    let e1 = m.hot("  ---a---b---c--|      ");
    let selector = [
        m.cold("             --x--|            "),
        m.cold("                 ----------(x|)"),
        m.cold("                     -x--|     "),
    ];
    m.expect(e1.clone().delay_when(in_turn(&selector)))
        .to_be("-----a------c----(b|)");
    e1.assert_subscriptions(&["^-------------!      "]);
    selector[0].assert_subscriptions(&["---^-!               "]);
    selector[1].assert_subscriptions(&["-------^---------!   "]);
    selector[2].assert_subscriptions(&["-----------^!        "]);
}

#[test]
fn delay_when_one_duration_for_every_value() {
    let (_, m) = setup();
    let e1 = m.hot("     --a--b--| ");
    let selector = m.cold("-x--|   ");
    let d = selector.clone();
    m.expect(e1.clone().delay_when(move |_| d.clone()))
        .to_be("   ---a--b-| ");
    e1.assert_subscriptions(&["^-------! "]);
    selector.assert_subscriptions(&["--^!      ", "-----^!   "]);

    let (_, m) = setup();
    let e1 = m.hot("     --a--b--|       ");
    let selector = m.cold("-------x--|   ");
    let d = selector.clone();
    m.expect(e1.delay_when(move |_| d.clone()))
        .to_be("   ---------a--(b|)");
    selector.assert_subscriptions(&["--^------!      ", "-----^------!   "]);
}

#[test]
fn delay_when_errors_from_the_source_or_a_duration() {
    let (_, m) = setup();
    let e1 = m.hot("      --a--# ");
    let selector = m.cold(" -x--|");
    let d = selector.clone();
    m.expect(e1.clone().delay_when(move |_| d.clone()))
        .to_be("    ---a-# ");
    e1.assert_subscriptions(&["^----! "]);
    selector.assert_subscriptions(&["--^!   "]);

    let (_, m) = setup();
    let e1 = m.hot("      --a--b--|");
    let selector = m.cold(" -#     ");
    let d = selector.clone();
    m.expect(e1.clone().delay_when(move |_| d.clone()))
        .to_be("    ---#     ");
    e1.assert_subscriptions(&["^--!     "]);
    selector.assert_subscriptions(&["--^!     "]);
}

#[test]
fn delay_when_a_duration_that_completes_or_never_emits_drops_its_value() {
    let (_, m) = setup();
    let e1 = m.hot("     --a--b--|   ");
    let selector = m.cold("------|   ");
    let d = selector.clone();
    m.expect(e1.clone().delay_when(move |_| d.clone()))
        .to_be("   -----------|");
    selector.assert_subscriptions(&["--^-----!   ", "-----^-----!"]);

    let (_, m) = setup();
    let e1 = m.hot("  a--|");
    m.expect(e1.clone().delay_when(|_| rx::source::empty::<()>()))
        .to_be("---|");
    e1.assert_subscriptions(&["^--!"]);

    let (_, m) = setup();
    let e1 = m.hot("     --a--b--|");
    let selector = m.cold("-      ");
    let d = selector.clone();
    m.expect(e1.clone().delay_when(move |_| d.clone()))
        .to_be("   -        ");
    e1.assert_subscriptions(&["^-------!"]);
    selector.assert_subscriptions(&["--^      ", "-----^   "]);
}

#[test]
fn delay_when_takes_the_first_value_of_a_duration() {
    for duration in ["----x--y--|   ", "----x-----y---   "] {
        let (_, m) = setup();
        let e1 = m.hot("     --a--b--|       ");
        let selector = m.cold(duration);
        let d = selector.clone();
        m.expect(e1.clone().delay_when(move |_| d.clone()))
            .to_be("   ------a--(b|)   ");
        selector.assert_subscriptions(&["--^---!         ", "-----^---!      "]);
    }
}

#[test]
fn delay_when_synchronous_durations() {
    let o = rx::testing::TestObserver::new();
    rx::source::just(1)
        .delay_when(|_| rx::source::just(2))
        .subscribe_observer(o.clone());
    o.assert_notifications(&[rx::Notification::Next(1), rx::Notification::Completed]);

    let (_, m) = setup();
    let e1 = m.hot("       --a--b--c--|");
    let selector = m.cold("  (x|)");
    let d = selector.clone();
    m.expect(e1.clone().delay_when(move |_| d.clone()))
        .to_be("     --a--b--c--|");
    e1.assert_subscriptions(&["^----------!"]);
}

// ================================================================= buffer_when (bufferWhen)

const NONE: [(char, Vec<char>); 0] = [];

#[test]
fn buffer_when_closes_and_reopens_buffers() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---------|   ");
    let e2 = m.cold("    --------------(s|)                    ");
    let c = e2.clone();
    m.expect(e1.buffer_when(move || c.clone())).to_be_with(
        "   --------------x-------------y-----(z|)",
        [
            ('x', vec!['b', 'c', 'd']),
            ('y', vec!['e', 'f', 'g']),
            ('z', vec![]),
        ],
    );
}

#[test]
fn buffer_when_varying_cold_closings() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ");
    let closings = [
        m.cold("             ---------------s--|                       "),
        m.cold("                            ----------(s|)             "),
        m.cold("                                      -------------(s|)"),
    ];
    m.expect(e1.clone().buffer_when(factory(&closings)))
        .to_be_with(
            "   ---------------x---------y---------(z|)   ",
            [
                ('x', vec!['b', 'c', 'd']),
                ('y', vec!['e', 'f', 'g']),
                ('z', vec!['h']),
            ],
        );
    e1.assert_subscriptions(&["       ^----------------------------------!      "]);
}

#[test]
fn buffer_when_varying_hot_closings() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|   ");
    let closings = [
        m.hot("   -1--^--------------s---|                   "),
        m.hot("   --1-^----3--------4----------s-|           "),
        m.hot("   1-2-^------3----4-------5--6-----------s--|"),
    ];
    m.expect(e1.clone().buffer_when(factory(&closings)))
        .to_be_with(
            "   ---------------x---------y---------(z|)",
            [
                ('x', vec!['b', 'c', 'd']),
                ('y', vec!['e', 'f', 'g']),
                ('z', vec!['h']),
            ],
        );
    closings[0].assert_subscriptions(&["           ^--------------!                       "]);
    closings[1].assert_subscriptions(&["           ---------------^---------!             "]);
    closings[2].assert_subscriptions(&["           -------------------------^---------!   "]);
}

#[test]
fn buffer_when_empty_delayed_closings_close_nothing() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|   ");
    let closings = [
        m.cold("             ---------------|                       "),
        m.cold("                            ----------|             "),
        m.cold("                                      -------------|"),
    ];
    m.expect(e1.clone().buffer_when(factory(&closings)))
        .to_be_with(
            "   -----------------------------------(x|)",
            [('x', vec!['b', 'c', 'd', 'e', 'f', 'g', 'h'])],
        );
    e1.assert_subscriptions(&["       ^----------------------------------!   "]);
    closings[0].assert_subscriptions(&["       ^--------------!                       "]);
    closings[1].assert_subscriptions(&[]);
    closings[2].assert_subscriptions(&[]);
}

#[test]
fn buffer_when_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ");
    let closings = [
        m.cold("             ---------------(s|)                       "),
        m.cold("                            ----------(s|)             "),
        m.cold("                                      -------------(s|)"),
    ];
    m.expect_subscribed(
        e1.clone().buffer_when(factory(&closings)),
        "      ------------------!                       ",
    )
    .to_be_with(
        "   ---------------x---                       ",
        [('x', vec!['b', 'c', 'd'])],
    );
    e1.assert_subscriptions(&["       ^-----------------!                       "]);
    closings[0].assert_subscriptions(&["       ^--------------!                          "]);
    closings[1].assert_subscriptions(&["       ---------------^--!                       "]);
    closings[2].assert_subscriptions(&[]);

    // The same between two flattening operators.
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ");
    let closings = [
        m.cold("             ---------------(s|)                       "),
        m.cold("                            ----------(s|)             "),
        m.cold("                                      -------------(s|)"),
    ];
    let chain = e1
        .clone()
        .flat_map(rx::source::just)
        .buffer_when(factory(&closings))
        .flat_map(rx::source::just);
    m.expect_subscribed(chain, "      ------------------!                       ")
        .to_be_with(
            "   ---------------x---                       ",
            [('x', vec!['b', 'c', 'd'])],
        );
    e1.assert_subscriptions(&["       ^-----------------!                       "]);
    closings[1].assert_subscriptions(&["       ---------------^--!                       "]);
    closings[2].assert_subscriptions(&[]);
}

#[test]
fn buffer_when_errors_from_a_closing() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let closings = [
        m.cold("             ---------------s--|                 "),
        m.cold("                            #                    "),
    ];
    m.expect(e1.clone().buffer_when(factory(&closings)))
        .to_be_with(
            "   ---------------(x#)                 ",
            [('x', vec!['b', 'c', 'd'])],
        );
    e1.assert_subscriptions(&["       ^--------------!                    "]);
    closings[0].assert_subscriptions(&["       ^--------------!                    "]);
    closings[1].assert_subscriptions(&["       ---------------(^!)                 "]);

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let closings = [
        m.cold("             ---------------s--|                 "),
        m.cold("                            ------#              "),
    ];
    m.expect(e1.clone().buffer_when(factory(&closings)))
        .to_be_with(
            "   ---------------x-----#              ",
            [('x', vec!['b', 'c', 'd'])],
        );
    e1.assert_subscriptions(&["       ^--------------------!              "]);
    closings[0].assert_subscriptions(&["       ^--------------!                    "]);
    closings[1].assert_subscriptions(&["       ---------------^-----!              "]);
}

#[test]
fn buffer_when_errors_from_the_source() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---#");
    let e2 = m.cold("    ---------------(s|)      ");
    let c = e2.clone();
    m.expect(e1.buffer_when(move || c.clone()))
        .to_be_with("   ---------------x--------#", [('x', vec!['b', 'c', 'd'])]);
    e2.assert_subscriptions(&[
        "       ^--------------!         ",
        "       ---------------^--------!",
    ]);
}

#[test]
fn buffer_when_empty_throw_and_never_sources() {
    let (_, m) = setup();
    let e1 = m.cold(" |");
    let e2 = m.cold(" --------(s|)");
    m.expect(e1.clone().buffer_when(move || e2.clone()))
        .to_be_with("(x|)", [('x', vec![])]);
    e1.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let e1 = m.cold(" #");
    let e2 = m.cold(" --------(s|)");
    m.expect(e1.clone().buffer_when(move || e2.clone()))
        .to_be_with("#", NONE);
    e1.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let e1 = m.hot("  -");
    let e2 = m.cold(" --------(s|)                                 ");
    let c = e2.clone();
    m.expect_subscribed(
        e1.clone().buffer_when(move || c.clone()),
        "   --------------------------------------------!",
    )
    .to_be_with(
        "--------x-------x-------x-------x-------x----",
        [('x', vec![])],
    );
    e1.assert_subscriptions(&["  ^-------------------------------------------!"]);
    e2.assert_subscriptions(&[
        "               ^-------!                                    ",
        "               --------^-------!                            ",
        "               ----------------^-------!                    ",
        "               ------------------------^-------!            ",
        "               --------------------------------^-------!    ",
        "               ----------------------------------------^---!",
    ]);
}

#[test]
fn buffer_when_an_inner_never_or_an_inner_throw() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e2 = m.cold("-");
    m.expect(e1.buffer_when(move || e2.clone())).to_be_with(
        "   -----------------------------------(x|)",
        [('x', vec!['b', 'c', 'd', 'e', 'f', 'g', 'h'])],
    );

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e2 = m.cold("    #");
    let c = e2.clone();
    m.expect(e1.clone().buffer_when(move || c.clone()))
        .to_be_with("   #", NONE);
    e1.assert_subscriptions(&["     (^!)"]);
    e2.assert_subscriptions(&["     (^!)"]);
}

#[test]
fn buffer_when_disposing_the_source() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e2 = m.cold("    ---------------(s|)");
    m.expect_subscribed(
        e1.clone().buffer_when(move || e2.clone()),
        "      --------------------!",
    )
    .to_be_with("   ---------------x-----", [('x', vec!['b', 'c', 'd'])]);
    e1.assert_subscriptions(&["       ^-------------------!"]);
}

#[test]
fn buffer_when_synchronous_closings_recurse_with_empty_buffers() {
    // RxJS's "should NOT handle synchronous inner": a closing that signals inside its
    // `subscribe` opens the next at once, an empty buffer each time, until downstream stops.
    let o = rx::testing::TestObserver::new();
    rx::source::from_iter(1..=9)
        .buffer_when(|| rx::source::just(1))
        .take(30)
        .subscribe_observer(o.clone());
    assert_eq!(o.value_count(), 30);
    assert!(o.values().iter().all(Vec::is_empty));
    o.assert_completed();
}

// ============================================================= buffer_toggle (bufferToggle)

#[test]
fn buffer_toggle_hot_openings_and_hot_closings() {
    let (_, m) = setup();
    let e1 = m.hot("  ---a---b---c---d---e---f---g---|");
    let e2 = m.hot("  --o------------------o---------|");
    let e3 = m.hot("  ---------c---------------c-----|");
    m.expect(e1.buffer_toggle(e2, move |_| e3.clone()))
        .to_be_with(
            "---------x---------------y-----|",
            [('x', vec!['a', 'b']), ('y', vec!['f'])],
        );
}

#[test]
fn buffer_toggle_each_opening_value_chooses_its_closing() {
    let (_, m) = setup();
    let e1 = m.hot("  -----a----b----c----d----e----f----g----h----i----|");
    let e2 = m.cold(" -------------x-------------y--------------z-------|");
    let e3 = m.cold("              ---------------(j|)");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    m.expect(e1.buffer_toggle(e2, move |x| {
        s.lock().unwrap().push(*x);
        e3.clone()
    }))
    .to_be_with(
        "----------------------------q-------------r-------(s|)",
        [
            ('q', vec!['c', 'd', 'e']),
            ('r', vec!['f', 'g', 'h']),
            ('s', vec!['i']),
        ],
    );
    assert_eq!(*seen.lock().unwrap(), ['x', 'y', 'z']);
}

#[test]
fn buffer_toggle_varying_cold_closings() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ");
    let e2 = m.cold("    --x-----------y--------z---|              ");
    let closings = [
        m.cold("               ---------------s--|                     "),
        m.cold("                           ----(s|)                    "),
        m.cold("                                    ---------------(s|)"),
    ];
    m.expect(e1.clone().buffer_toggle(e2, in_turn(&closings)))
        .to_be_with(
            "  -----------------ij----------------(k|)    ",
            [
                ('i', vec!['b', 'c', 'd', 'e']),
                ('j', vec!['e']),
                ('k', vec!['g', 'h']),
            ],
        );
    e1.assert_subscriptions(&["       ^----------------------------------!      "]);
    closings[0]
        .assert_subscriptions(&["                 --^--------------!                         "]);
    closings[1]
        .assert_subscriptions(&["                 --------------^---!                        "]);
    closings[2]
        .assert_subscriptions(&["                 -----------------------^-----------!       "]);
}

#[test]
fn buffer_toggle_varying_hot_closings() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|   ");
    let e2 = m.cold("    --x-----------y--------z---|           ");
    let closings = [
        m.hot("   -1--^----------------s-|                   "),
        m.hot("       -----3----4-------(s|)                 "),
        m.hot("       -------3----4-------5----------------s|"),
    ];
    m.expect(e1.buffer_toggle(e2, in_turn(&closings)))
        .to_be_with(
            "   -----------------ij----------------(k|)",
            [
                ('i', vec!['b', 'c', 'd', 'e']),
                ('j', vec!['e']),
                ('k', vec!['g', 'h']),
            ],
        );
    closings[0].assert_subscriptions(&["           --^--------------!                     "]);
    closings[1].assert_subscriptions(&["           --------------^---!                    "]);
    closings[2].assert_subscriptions(&["           -----------------------^-----------!   "]);
}

#[test]
fn buffer_toggle_empty_closings_close_nothing() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|     ");
    let e2 = m.cold("    --x-----------y--------z---|             ");
    let closings = [
        m.cold("               ---------------|                       "),
        m.cold("                           ----|                      "),
        m.cold("                                    ---------------|  "),
    ];
    let values = [
        ('i', vec!['b', 'c', 'd', 'e', 'f', 'g', 'h']),
        ('j', vec!['e', 'f', 'g', 'h']),
        ('k', vec!['g', 'h']),
    ];
    m.expect(e1.clone().buffer_toggle(e2, in_turn(&closings)))
        .to_be_with(
            "   -----------------------------------(ijk|)",
            values.clone(),
        );
    e1.assert_subscriptions(&["       ^----------------------------------!     "]);

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|     ");
    let e2 = m.cold("    --x-----------y--------z---|             ");
    m.expect(e1.buffer_toggle(e2, |_| rx::source::empty::<()>()))
        .to_be_with("   -----------------------------------(ijk|)", values);
}

#[test]
fn buffer_toggle_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ");
    let e2 = m.cold("    --x-----------y--------z---|              ");
    let closings = [
        m.cold("               ---------------s--|                     "),
        m.cold("                           ----(s|)                    "),
        m.cold("                                    ---------------(s|)"),
    ];
    m.expect_subscribed(
        e1.clone().buffer_toggle(e2, in_turn(&closings)),
        "      ----------!                               ",
    )
    .to_be_with("   -----------                               ", NONE);
    e1.assert_subscriptions(&["       ^---------!                               "]);
    closings[0].assert_subscriptions(&["      --^-------!                               "]);
    closings[1].assert_subscriptions(&[]);
    closings[2].assert_subscriptions(&[]);

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|      ");
    let e2 = m.cold("    --x-----------y--------z---|              ");
    let closings = [
        m.cold("               ---------------s--|                     "),
        m.cold("                           ----(s|)                    "),
        m.cold("                                    ---------------(s|)"),
    ];
    let chain = e1
        .clone()
        .flat_map(rx::source::just)
        .buffer_toggle(e2, in_turn(&closings))
        .flat_map(rx::source::just);
    m.expect_subscribed(chain, "      ------------------!                       ")
        .to_be_with(
            "   -----------------i-                       ",
            [('i', vec!['b', 'c', 'd', 'e'])],
        );
    e1.assert_subscriptions(&["       ^-----------------!                       "]);
}

#[test]
fn buffer_toggle_errors_from_a_closing_or_the_source() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e2 = m.cold("    --x-----------y--------z---|        ");
    let closings = [
        m.cold("               ---------------s--|               "),
        m.cold("                           #                     "),
    ];
    m.expect(e1.clone().buffer_toggle(e2, in_turn(&closings)))
        .to_be_with("   --------------#                     ", NONE);
    e1.assert_subscriptions(&["       ^-------------!                     "]);
    closings[0].assert_subscriptions(&["       --^-----------!                     "]);
    closings[1].assert_subscriptions(&["       --------------(^!)                  "]);

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e2 = m.cold("    --x-----------y--------z---|        ");
    let closings = [
        m.cold("               ---------------s--|               "),
        m.cold("                           -----#                "),
    ];
    m.expect(e1.clone().buffer_toggle(e2, in_turn(&closings)))
        .to_be_with(
            "   -----------------i-#                ",
            [('i', vec!['b', 'c', 'd', 'e'])],
        );
    e1.assert_subscriptions(&["       ^------------------!                "]);
    closings[0].assert_subscriptions(&["       --^--------------!                  "]);
    closings[1].assert_subscriptions(&["       --------------^----!                "]);

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e--#        ");
    let e2 = m.cold("    --x-----------y--------z---|");
    let closings = [
        m.cold("               ---------------s--|       "),
        m.cold("                           -------s|     "),
    ];
    m.expect(e1.clone().buffer_toggle(e2, in_turn(&closings)))
        .to_be_with(
            "   -----------------i-#        ",
            [('i', vec!['b', 'c', 'd', 'e'])],
        );
    e1.assert_subscriptions(&["       ^------------------!        "]);
    closings[0].assert_subscriptions(&["       --^--------------!          "]);
    closings[1].assert_subscriptions(&["       --------------^----!        "]);
}

#[test]
fn buffer_toggle_empty_throw_and_never_sources() {
    let (_, m) = setup();
    let e3 = m.cold("   -----c--|");
    m.expect(
        m.cold(" |")
            .buffer_toggle(m.cold(" --o-----|"), move |_| e3.clone()),
    )
    .to_be_with("|", NONE);

    let (_, m) = setup();
    let e3 = m.cold("   -----c--|");
    m.expect(
        m.cold(" #")
            .buffer_toggle(m.cold(" --o-----|"), move |_| e3.clone()),
    )
    .to_be_with("#", NONE);

    let (_, m) = setup();
    let e1 = m.hot("  -");
    let e2 = m.cold(" --o-----o------o-----o---o-----|");
    let e3 = m.cold("   --c-|");
    m.expect_subscribed(
        e1.clone().buffer_toggle(e2, move |_| e3.clone()),
        "   --------------------------------------------!",
    )
    .to_be_with(
        "----x-----x------x-----x---x-----------------",
        [('x', vec![])],
    );
    e1.assert_subscriptions(&["    ^-------------------------------------------!"]);
}

#[test]
fn buffer_toggle_never_openings_or_never_closings() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e3 = m.cold("    --c-|");
    m.expect(e1.buffer_toggle(m.cold("    -"), move |_| e3.clone()))
        .to_be_with("   -----------------------------------|", NONE);

    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|    ");
    let e2 = m.cold("    ---o---------------o-----------|        ");
    let e3 = m.cold("    -");
    m.expect(e1.buffer_toggle(e2, move |_| e3.clone()))
        .to_be_with(
            "   -----------------------------------(xy|)",
            [
                ('x', vec!['b', 'c', 'd', 'e', 'f', 'g', 'h']),
                ('y', vec!['f', 'g', 'h']),
            ],
        );
}

#[test]
fn buffer_toggle_openings_that_fail_at_once() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^---b---c---d---e---f---g---h------|");
    let e2 = m.cold("    #");
    let e3 = m.cold("    --c-|");
    m.expect(e1.clone().buffer_toggle(e2.clone(), move |_| e3.clone()))
        .to_be_with("   #", NONE);
    e1.assert_subscriptions(&["     (^!)"]);
    e2.assert_subscriptions(&["     (^!)"]);
}

// ================================ buffer_with_time_skip (bufferTime(span, creationInterval))

#[test]
fn buffer_with_time_skip_buffers_created_at_intervals_close_after_the_span() {
    let (sch, m) = setup();
    let e1 = m.hot("       ---a---b---c----d----e----f----g----h----i----(k|)");
    let t = m.time("       ---------------------|                            ");
    let interval = m.time("--------------------|                             ");
    m.expect(e1.buffer_with_time_skip(t, interval, sch.clone()))
        .to_be_with(
            "     ---------------------x-------------------y----(z|)",
            [
                ('x', vec!['a', 'b', 'c', 'd', 'e']),
                ('y', vec!['e', 'f', 'g', 'h', 'i']),
                ('z', vec!['i', 'k']),
            ],
        );
}

#[test]
fn buffer_with_time_skip_span_10_shift_7() {
    let (sch, m) = setup();
    let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------|   ");
    let t = m.time("     ----------|");
    let interval = m.time("        -------|");
    m.expect(e1.clone().buffer_with_time_skip(t, interval, sch.clone()))
        .to_be_with(
            "   ----------a------b------c------d------e-(f|)",
            [
                ('a', vec!['2', '3', '4']),
                ('b', vec!['4', '5', '6']),
                ('c', vec!['6', '7', '8']),
                ('d', vec!['8', '9']),
                ('e', vec![]),
                ('f', vec![]),
            ],
        );
    e1.assert_subscriptions(&["     ^---------------------------------------!   "]);
}

#[test]
fn buffer_with_time_skip_errors_drop_the_open_buffers() {
    let (sch, m) = setup();
    let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------#");
    let t = m.time("     ----------|");
    let interval = m.time("        -------|");
    m.expect(e1.buffer_with_time_skip(t, interval, sch.clone()))
        .to_be_with(
            "   ----------a------b------c------d------e-#",
            [
                ('a', vec!['2', '3', '4']),
                ('b', vec!['4', '5', '6']),
                ('c', vec!['6', '7', '8']),
                ('d', vec!['8', '9']),
                ('e', vec![]),
            ],
        );

    let (sch, m) = setup();
    let e1 = m.hot("       ---a---b---c----d----e----f----g----h----i--#");
    let t = m.time("       ---------------------|                       ");
    let interval = m.time("--------------------|   ");
    m.expect(e1.clone().buffer_with_time_skip(t, interval, sch.clone()))
        .to_be_with(
            "     ---------------------x-------------------y--#",
            [
                ('x', vec!['a', 'b', 'c', 'd', 'e']),
                ('y', vec!['e', 'f', 'g', 'h', 'i']),
            ],
        );
    e1.assert_subscriptions(&["       ^-------------------------------------------!"]);
}

#[test]
fn buffer_with_time_skip_unsubscribed_early() {
    let (sch, m) = setup();
    let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------|");
    let t = m.time("     ----------|                              ");
    let interval = m.time("        -------|                       ");
    m.expect_subscribed(
        e1.clone().buffer_with_time_skip(t, interval, sch.clone()),
        "      -----------------!                       ",
    )
    .to_be_with(
        "   ----------a------                        ",
        [('a', vec!['2', '3', '4'])],
    );
    e1.assert_subscriptions(&["       ^----------------!                       "]);

    let (sch, m) = setup();
    let e1 = m.hot("--1--^2--3---4---5--6--7---8----9------------|");
    let t = m.time("     ----------|");
    let interval = m.time("        -------|");
    let chain = e1
        .clone()
        .flat_map(rx::source::just)
        .buffer_with_time_skip(t, interval, sch.clone())
        .flat_map(rx::source::just);
    m.expect_subscribed(chain, "      ----------------!                        ")
        .to_be_with(
            "   ----------a------                        ",
            [('a', vec!['2', '3', '4'])],
        );
    e1.assert_subscriptions(&["       ^---------------!                        "]);
}
