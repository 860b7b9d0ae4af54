//! `timeout_with`, `exhaust_all`, `expand`, `retry_when`, `repeat_when`, `retry_with`,
//! `repeat_with`, `fork_join`,
//! `combine_latest_all` and `zip_all` checked with marble diagrams at exact virtual times.
//!
//! The cases are RxJS 7's own marble tests of the same operators (`spec/operators/
//! timeout-spec.ts` for the `with` form, `exhaustAll-spec.ts`, `expand-spec.ts`, the
//! `delay` cases of `retry-spec.ts` and `repeat-spec.ts`, and `spec/observables/
//! forkJoin-spec.ts`, `combineLatest-spec.ts` and `zip-spec.ts` over arrays), with the same
//! diagrams; where this library differs, the test says so. One frame is 1 ms.

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::{ColdObservable, HotObservable, Marbles};

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

// ==================================================================== timeout_with (timeout({ each, with }))

#[test]
fn timeout_with_subscribes_the_fallback_after_the_period() {
    let (sch, m) = setup();
    let source = m.cold("  -------a--b--|");
    let t = m.time("       -----|");
    let inner = m.cold("        x-y-z-|  ");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("-----x-y-z-|");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&["-----^-----!"]);
}

#[test]
fn timeout_with_measures_from_the_previous_value() {
    let (sch, m) = setup();
    let source = m.hot("  ---a---b------c---|");
    let t = m.time("             ----|       ");
    let inner = m.cold("             -x-y-|  ");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("---a---b----x-y-|");
    source.assert_subscriptions(&["^----------!"]);
    inner.assert_subscriptions(&["-----------^----!"]);
}

#[test]
fn timeout_with_unsubscribed_early_lets_go_of_the_fallback() {
    let (sch, m) = setup();
    let source = m.hot("  ---a---b-----c----|");
    let t = m.time("             ----|       ");
    let inner = m.cold("             -x---y| ");
    let unsub = "         --------------!    ";
    m.expect_subscribed(
        source.clone().timeout_with(t, inner.clone(), sch.clone()),
        unsub,
    )
    .to_be("---a---b----x--");
    source.assert_subscriptions(&["^----------!"]);
    inner.assert_subscriptions(&["-----------^--!"]);
}

#[test]
fn timeout_with_unsubscribed_through_a_chain_never_subscribes_the_fallback() {
    let (sch, m) = setup();
    let source = m.cold("---a------b------");
    let t = m.time("     -----|           ");
    let inner = m.cold("      i---j---|   ");
    let unsub = "        -----!           ";
    let result = source
        .clone()
        .flat_map(rx::source::just)
        .timeout_with(t, inner.clone(), sch.clone())
        .flat_map(rx::source::just);
    m.expect_subscribed(result, unsub).to_be("---a--");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&[]);
}

#[test]
fn timeout_with_a_silent_source() {
    let (sch, m) = setup();
    let source = m.hot("  -------------|      ");
    let t = m.time("      ----------|         ");
    let inner = m.cold("            ----x----|");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("--------------x----|");
    source.assert_subscriptions(&["^---------!"]);
    inner.assert_subscriptions(&["----------^--------!"]);
}

#[test]
fn timeout_with_a_fallback_that_never_ends() {
    let (sch, m) = setup();
    let source = m.hot("  --a--b--------c--d--|");
    let t = m.time("           ----|           ");
    let inner = m.cold("           ------------");
    m.expect_subscribed(
        source.clone().timeout_with(t, inner.clone(), sch.clone()),
        "^--------------------!",
    )
    .to_be("--a--b---------------");
    source.assert_subscriptions(&["^--------!"]);
    inner.assert_subscriptions(&["---------^-----------!"]);
}

#[test]
fn timeout_with_ignores_an_error_of_the_source_after_the_switch() {
    let (sch, m) = setup();
    let source = m.hot("  -------------#      ");
    let t = m.time("      ----------|         ");
    let inner = m.cold("            ----x----|");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("--------------x----|");
    source.assert_subscriptions(&["^---------!"]);
    inner.assert_subscriptions(&["----------^--------!"]);
}

#[test]
fn timeout_with_a_fallback_that_emits_but_never_completes() {
    let (sch, m) = setup();
    let source = m.hot("  -------------|      ");
    let t = m.time("      -----------|        ");
    let inner = m.cold("             ----x----");
    m.expect_subscribed(
        source.clone().timeout_with(t, inner.clone(), sch.clone()),
        "^-------------------!",
    )
    .to_be("---------------x----");
    source.assert_subscriptions(&["^----------!"]);
    inner.assert_subscriptions(&["-----------^--------!"]);
}

#[test]
fn timeout_with_never_subscribes_the_fallback_when_the_source_is_in_time() {
    let (sch, m) = setup();
    let inner = m.cold("            ----x----");
    let source = m.hot("  -----|        ");
    m.expect(
        source
            .clone()
            .timeout_with(m.time("----------|"), inner.clone(), sch.clone()),
    )
    .to_be("-----|");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&[]);

    let (sch, m) = setup();
    let inner = m.cold("       ----x----|");
    let source = m.hot("-----#              ");
    m.expect(
        source
            .clone()
            .timeout_with(m.time("----------|"), inner.clone(), sch.clone()),
    )
    .to_be("-----#");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&[]);

    let (sch, m) = setup();
    let inner = m.cold("        ----x----|   ");
    let source = m.hot("   --a--b--c--d--e--|");
    m.expect(
        source
            .clone()
            .timeout_with(m.time("-----|"), inner.clone(), sch.clone()),
    )
    .to_be("--a--b--c--d--e--|");
    source.assert_subscriptions(&["^----------------!"]);
    inner.assert_subscriptions(&[]);
}

// ==================================================================== exhaust_all (exhaustAll)

#[test]
fn exhaust_all_a_hot_observable_of_hot_observables() {
    let (_sch, m) = setup();
    let x = m.hot("   -----a---b---c--|                  ");
    let y = m.hot("   -------d--e---f---|                ");
    let z = m.hot("   --------------g--h---i---|         ");
    let e1 = m.hot_with(
        "             ------x-------y-----z-------------|",
        [('x', x.clone()), ('y', y.clone()), ('z', z.clone())],
    );
    m.expect(e1.clone().exhaust_all())
        .to_be("---------b---c-------i------------|");
    e1.assert_subscriptions(&["^---------------------------------!"]);
    x.assert_subscriptions(&["------^---------!"]);
    y.assert_subscriptions(&[]);
    z.assert_subscriptions(&["--------------------^----!"]);
}

#[test]
fn exhaust_all_stays_on_the_first_immediately_scheduled_inner() {
    let (_sch, m) = setup();
    let e1 = m.cold("(ab|)");
    let e2 = m.cold("(cd|)");
    m.expect(rx::source::from_iter([e1.clone(), e2.clone()]).exhaust_all())
        .to_be("(ab|)");
    e1.assert_subscriptions(&["(^!)"]);
    e2.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_empty_failing_and_silent_outers() {
    let (_sch, m) = setup();
    let e1: ColdObservable<ColdObservable<char>> = m.cold_with("#", |_| unreachable!());
    m.expect(e1.clone().exhaust_all()).to_be("#");
    e1.assert_subscriptions(&["(^!)"]);

    let (_sch, m) = setup();
    let e1: ColdObservable<ColdObservable<char>> = m.cold_with("|", |_| unreachable!());
    m.expect(e1.clone().exhaust_all()).to_be("|");
    e1.assert_subscriptions(&["(^!)"]);

    let (_sch, m) = setup();
    let e1: HotObservable<ColdObservable<char>> = m.hot_with("------|", |_| unreachable!());
    m.expect(e1.clone().exhaust_all()).to_be("------|");
    e1.assert_subscriptions(&["^-----!"]);

    let (_sch, m) = setup();
    let e1: ColdObservable<ColdObservable<char>> = m.cold_with("-", |_| unreachable!());
    m.expect_subscribed(e1.clone().exhaust_all(), "^!")
        .to_be("-");
    e1.assert_subscriptions(&["^!"]);
}

#[test]
fn exhaust_all_a_hot_observable_of_cold_observables() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|               ");
    let y = m.cold("                ---d--e---f---|      ");
    let z = m.cold("                      ---g--h---i---|");
    let e1 = m.hot_with(
        "             ------x-------y-----z-------------|",
        [('x', x.clone()), ('y', y.clone()), ('z', z.clone())],
    );
    m.expect(e1.clone().exhaust_all())
        .to_be("--------a---b---c------g--h---i---|");
    e1.assert_subscriptions(&["^---------------------------------!"]);
    x.assert_subscriptions(&["------^------------!"]);
    y.assert_subscriptions(&[]);
    z.assert_subscriptions(&["--------------------^-------------!"]);
}

#[test]
fn exhaust_all_unsubscribed_early() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|         ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y------|       ",
        [('x', x.clone()), ('y', y.clone())],
    );
    let unsub = "     ----------------!            ";
    m.expect_subscribed(e1.clone().exhaust_all(), unsub)
        .to_be("--------a---b----");
    x.assert_subscriptions(&["------^---------!"]);
    y.assert_subscriptions(&[]);

    // The same through a chain.
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|         ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y------|       ",
        [('x', x.clone()), ('y', y.clone())],
    );
    let result = e1
        .flat_map(rx::source::just)
        .exhaust_all()
        .flat_map(rx::source::just);
    m.expect_subscribed(result, unsub)
        .to_be("--------a---b----");
    x.assert_subscriptions(&["------^---------!"]);
    y.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_an_inner_that_never_completes() {
    let (_sch, m) = setup();
    let x = m.cold("     --a---b--|              ");
    let y = m.cold("         -d---e-             ");
    let z = m.cold("                ---f--g---h--");
    let e1 = m.hot_with(
        "             ---x---y------z----------| ",
        [('x', x.clone()), ('y', y.clone()), ('z', z.clone())],
    );
    m.expect_subscribed(e1.exhaust_all(), "^--------------------------!")
        .to_be("-----a---b-------f--g---h--");
    x.assert_subscriptions(&["---^--------!"]);
    y.assert_subscriptions(&[]);
    z.assert_subscriptions(&["--------------^------------!"]);
}

#[test]
fn exhaust_all_a_synchronous_pair_stays_on_the_first() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|   ");
    let y = m.cold("        ---d--e---f---|  ");
    let e1 = m.hot_with(
        "             ------(xy)------------|",
        [('x', x.clone()), ('y', y.clone())],
    );
    m.expect(e1.exhaust_all()).to_be("--------a---b---c-----|");
    x.assert_subscriptions(&["------^------------!"]);
    y.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_errors_of_an_inner_and_of_the_outer() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---#                ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y------|       ",
        [('x', x.clone()), ('y', y.clone())],
    );
    m.expect(e1.exhaust_all()).to_be("--------a---#");
    x.assert_subscriptions(&["------^-----!"]);
    y.assert_subscriptions(&[]);

    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|         ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y-------#      ",
        [('x', x.clone()), ('y', y.clone())],
    );
    m.expect(e1.exhaust_all()).to_be("--------a---b---c-----#");
    x.assert_subscriptions(&["------^------------!"]);
    y.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_completes_not_before_the_outer() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|   ");
    let e1 = m.hot_with("  ------x---------------|", [('x', x.clone())]);
    m.expect(e1.exhaust_all()).to_be("--------a---b---c-----|");
    x.assert_subscriptions(&["------^------------!"]);
}

// ==================================================================== expand

/// The values of the doubling cases: each letter the double of the one before.
const DOUBLES: [(char, i32); 5] = [('a', 1), ('b', 2), ('c', 4), ('d', 8), ('e', 16)];

#[test]
fn expand_recursively_maps_and_flattens_each_value() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("  --x----|  ", [('x', 1)]);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 8 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("--c|", [('c', 2 * x)])
        }
    });
    m.expect(result).to_be_with("--a-b-c-d|", DOUBLES);
    e1.assert_subscriptions(&["^------!"]);
}

#[test]
fn expand_a_projection_subscribed_in_the_frame_its_parent_completes() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a--b--c--d--(e|)", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn expand_an_error_of_a_projection() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 8 {
            inner.cold_with("#", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a--b--c--(d#)", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn expand_unsubscribed_early() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let project = move |&x: &i32| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    };
    m.expect_subscribed(e1.clone().expand(project.clone()), "-------!")
        .to_be_with("a--b--c-", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);

    // The same through a chain.
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let project = move |&x: &i32| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    };
    let result = e1
        .clone()
        .flat_map(rx::source::just)
        .expand(project)
        .flat_map(rx::source::just);
    m.expect_subscribed(result, "-------!")
        .to_be_with("a--b--c-", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn expand_runs_expansions_concurrently() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("a-a|", DOUBLES);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a-ab-bc-cd-de-(e|)", DOUBLES);
    e1.assert_subscriptions(&["^--!"]);
}

#[test]
fn expand_has_no_concurrency_limit() {
    let (_sch, m) = setup();
    let values = [
        ('a', 1),
        ('b', 2),
        ('c', 4),
        ('d', 8),
        ('e', 16),
        ('u', 10),
        ('v', 20),
        ('x', 40),
        ('y', 80),
        ('z', 160),
    ];
    let e1 = m.hot_with("a-u|", values);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 16 || x == 160 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a-ub-vc-xd-ye-(z|)", values);
    e1.assert_subscriptions(&["^--!"]);
}

#[test]
fn expand_with_synchronous_projections() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let result = e1
        .clone()
        .expand(|&x| rx::source::from_iter((x != 16).then_some(x + x)));
    m.expect(result).to_be_with("(abcde|)", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

// ==================================================================== retry_when (retry({ delay }))
//
// RxJS 7 `retry-spec.ts`, "with delay config", "of a function". RxJS's `delay` function may
// throw; ours returns an observable, so the throwing case is the notifier that fails.

fn frames(n: u32) -> std::time::Duration {
    std::time::Duration::from_millis(n.into())
}

#[test]
fn retry_when_resubscribes_when_the_notifier_emits() {
    let (sch, m) = setup();
    let source = m.cold("---a---b---#");
    let timers = sch.clone();
    let result = source
        .clone()
        .retry_when(move |_, attempt| rx::source::timer(frames(attempt), timers.clone()));
    m.expect_subscribed(result, "^-------------------------------------------!")
        .to_be("---a---b-------a---b--------a---b---------a--");
    source.assert_subscriptions(&[
        "^----------!",
        "------------^----------!",
        "-------------------------^----------!",
        "---------------------------------------^----!",
    ]);
}

#[test]
fn retry_when_with_a_hot_notifier() {
    let (_sch, m) = setup();
    let source = m.cold("  ---a---b---#");
    let notifier = m.hot("--------------x----------------x----------------x------");
    let n = notifier.clone();
    let result = source.clone().retry_when(move |_, _| n.clone());
    m.expect_subscribed(result, "^-------------------------------------------!")
        .to_be("---a---b---------a---b------------a---b------");
    source.assert_subscriptions(&[
        "^----------!",
        "--------------^----------!",
        "-------------------------------^----------!",
    ]);
    notifier.assert_subscriptions(&[
        "-----------^--!",
        "-------------------------^-----!",
        "------------------------------------------^-!",
    ]);
}

#[test]
fn retry_when_completes_when_the_notifier_completes_empty() {
    let (sch, m) = setup();
    let source = m.cold("---a---b---#");
    let timers = sch.clone();
    let result = source.clone().retry_when(move |_, attempt| {
        let delay = rx::source::timer(frames(attempt), timers.clone()).map(|_| ());
        if attempt <= 2 {
            delay.boxed()
        } else {
            rx::source::empty().boxed()
        }
    });
    m.expect(result)
        .to_be("---a---b-------a---b--------a---b---|");
    source.assert_subscriptions(&[
        "^----------!",
        "------------^----------!",
        "-------------------------^----------!",
    ]);
}

#[test]
fn retry_when_fails_with_the_notifier() {
    let (sch, m) = setup();
    let source = m.cold("---a---b---#");
    let timers = sch.clone();
    let blah = rx::Error::msg("blah");
    let e = blah.clone();
    let result = source.clone().retry_when(move |_, attempt| {
        let delay = rx::source::timer(frames(attempt), timers.clone()).map(|_| ());
        if attempt <= 2 {
            delay.boxed()
        } else {
            rx::source::throw(e.clone()).boxed()
        }
    });
    m.expect(result)
        .with_error(blah)
        .to_be("---a---b-------a---b--------a---b---#");
    source.assert_subscriptions(&[
        "^----------!",
        "------------^----------!",
        "-------------------------^----------!",
    ]);
}

#[test]
fn retry_when_as_an_exponential_backoff_with_a_count() {
    let (sch, m) = setup();
    let source = m.cold("---a---#");
    let timers = sch.clone();
    // `retry({ count: 3, delay })`: past the count, the error itself ends the result.
    let result = source.clone().retry_when(move |error, attempt| {
        if attempt <= 3 {
            rx::source::timer(frames(1 << attempt), timers.clone())
                .map(|_| ())
                .boxed()
        } else {
            rx::source::throw(error.clone()).boxed()
        }
    });
    m.expect(result)
        .to_be("---a--------a----------a--------------a---#");
    source.assert_subscriptions(&[
        "^------!",
        "---------^------!",
        "--------------------^------!",
        "-----------------------------------^------!",
    ]);
}

#[test]
fn retry_when_lets_a_completing_source_complete_without_calling_the_selector() {
    let (_sch, m) = setup();
    let source = m.cold("--a--b--|");
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let c = calls.clone();
    let result = source.clone().retry_when(move |_, _| {
        c.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        rx::source::just(())
    });
    m.expect(result).to_be("--a--b--|");
    source.assert_subscriptions(&["^-------!"]);
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 0);
}

// ==================================================================== repeat_when (repeat({ delay }))

#[test]
fn repeat_when_resubscribes_after_the_delay() {
    let (sch, m) = setup();
    let e1 = m.cold(" --a--b--|");
    let timers = sch.clone();
    let counts = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = counts.clone();
    // `repeat({ count: 3, delay })`: the third completion completes the result.
    let result = e1.clone().repeat_when(move |count| {
        seen.lock().unwrap().push(count);
        if count < 3 {
            rx::source::timer(frames(3), timers.clone()).boxed()
        } else {
            rx::source::empty().boxed()
        }
    });
    m.expect(result).to_be("--a--b-------a--b-------a--b--|");
    e1.assert_subscriptions(&[
        "^-------!",
        "-----------^-------!",
        "----------------------^-------!",
    ]);
    assert_eq!(*counts.lock().unwrap(), [1, 2, 3]);
}

#[test]
fn repeat_when_fails_with_the_notifier() {
    let (sch, m) = setup();
    let e1 = m.cold(" --a--b--|");
    let timers = sch.clone();
    let bad = rx::Error::msg("bad");
    let e = bad.clone();
    let result = e1.clone().repeat_when(move |count| {
        if count == 2 {
            rx::source::throw(e.clone()).boxed()
        } else {
            rx::source::timer(frames(3), timers.clone()).boxed()
        }
    });
    m.expect(result)
        .with_error(bad)
        .to_be("--a--b-------a--b--#");
    e1.assert_subscriptions(&["^-------!", "-----------^-------!"]);
}

#[test]
fn repeat_when_passes_an_error_of_the_source_without_calling_the_selector() {
    let (_sch, m) = setup();
    let e1 = m.cold("--a--#");
    let result = e1
        .clone()
        .repeat_when(|_| -> rx::source::Just<()> { panic!("called on an error") });
    m.expect(result).to_be("--a--#");
    e1.assert_subscriptions(&["^----!"]);
}

#[test]
fn repeat_when_a_source_that_never_completes_never_repeats() {
    let (_sch, m) = setup();
    let e1 = m.cold("--a--b--");
    let result = e1.clone().repeat_when(|_| rx::source::just(()));
    m.expect_subscribed(result, "^-----------!")
        .to_be("--a--b------");
    e1.assert_subscriptions(&["^-----------!"]);
}

// ==================================================================== retry_with (retry(config))
//
// RxJS 7 `retry-spec.ts`, the cases with a configuration object: a count, a delay as a
// duration, a zero delay, a count with a delay; and `resetOnSuccess` (RxJS 9's
// `retry.spec.ts`, where it is the default; RxJS 7's default, and ours, is not to reset).
// The cases of a delay function are `retry_when`'s above: the same type.

#[test]
fn retry_with_a_count() {
    let (_sch, m) = setup();
    let source = m.cold("--1-2-3-#");
    let result = source
        .clone()
        .retry_with(rx::operators::RetryConfig::new().count(2));
    m.expect(result).to_be("--1-2-3---1-2-3---1-2-3-#");
    source.assert_subscriptions(&[
        "^-------!",
        "--------^-------!",
        "----------------^-------!",
    ]);
}

#[test]
fn retry_with_a_zero_count_is_the_source() {
    let (_sch, m) = setup();
    let source = m.cold("--1-2-3-# ");
    let result = source
        .clone()
        .retry_with(rx::operators::RetryConfig::new().count(0));
    m.expect_subscribed(result, "---------!")
        .to_be("--1-2-3-# ");
    source.assert_subscriptions(&["^-------! "]);
}

#[test]
fn retry_with_a_delay_of_a_duration() {
    let (sch, m) = setup();
    let source = m.cold("---a---b---#");
    let t = m.time("                ----|");
    let result = source
        .clone()
        .retry_with(rx::operators::RetryConfig::new().delay(t, sch.clone()));
    m.expect_subscribed(
        result,
        "^-------------------------------------------------!",
    )
    .to_be("---a---b----------a---b----------a---b----------a--");
    source.assert_subscriptions(&[
        "^----------!",
        "---------------^----------!",
        "------------------------------^----------!",
        "---------------------------------------------^----!",
    ]);
}

#[test]
fn retry_with_a_zero_delay_retries_at_once() {
    let (sch, m) = setup();
    let source = m.cold("---a---b---#");
    let result = source.clone().retry_with(
        rx::operators::RetryConfig::new().delay(std::time::Duration::ZERO, sch.clone()),
    );
    m.expect_subscribed(result, "^-------------------------------------!")
        .to_be("---a---b------a---b------a---b------a--");
    source.assert_subscriptions(&[
        "^----------!",
        "-----------^----------!",
        "----------------------^----------!",
        "---------------------------------^----!",
    ]);
}

#[test]
fn retry_with_a_count_and_a_delay_honours_the_count() {
    let (sch, m) = setup();
    let source = m.cold("---a---b---#");
    let t = m.time("                ----|");
    let result = source.clone().retry_with(
        rx::operators::RetryConfig::new()
            .count(2)
            .delay(t, sch.clone()),
    );
    m.expect(result)
        .to_be("---a---b----------a---b----------a---b---#");
    source.assert_subscriptions(&[
        "^----------!",
        "---------------^----------!",
        "------------------------------^----------!",
    ]);
}

#[test]
fn retry_with_reset_on_success_numbers_the_delays_from_one_after_a_value() {
    let (_sch, m) = setup();
    // Fails at once, then emits and fails, then emits and completes.
    let attempts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = attempts.clone();
    let source = rx::source::defer(move || {
        match counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
            0 => rx::source::throw(rx::Error::msg("first attempt")).boxed(),
            1 => rx::source::just(1)
                .concat_with(rx::source::throw(rx::Error::msg("second attempt")))
                .boxed(),
            _ => rx::source::just(2).boxed(),
        }
    });
    let numbers = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = numbers.clone();
    let notifier = m.hot("-x-x-");
    let n = notifier.clone();
    let result = source.retry_with(
        rx::operators::RetryConfig::new()
            .reset_on_success()
            .delay_with(move |_, number| {
                seen.lock().unwrap().push(number);
                n.clone().map(|_| ())
            }),
    );
    m.expect(result.map(|v| char::from(b'0' + v as u8)))
        .to_be("-1-(2|)");
    assert_eq!(*numbers.lock().unwrap(), [1, 1]);
}

// ==================================================================== repeat_with (repeat(config))
//
// RxJS 7 `repeat-spec.ts`, "should allow count configuration", "delay time configuration",
// "delay function configuration" and "should handle delay function throwing" (our function
// returns an observable, so it fails through the observable).

#[test]
fn repeat_with_a_count() {
    let (_sch, m) = setup();
    let e1 = m.cold(" --a--b--|");
    let result = e1
        .clone()
        .repeat_with(rx::operators::RepeatConfig::new().count(3));
    m.expect(result).to_be("--a--b----a--b----a--b--|");
    e1.assert_subscriptions(&[
        "^-------!",
        "--------^-------!",
        "----------------^-------!",
    ]);
}

#[test]
fn repeat_with_a_delay_of_a_duration() {
    let (sch, m) = setup();
    let e1 = m.cold(" --a--b--|");
    let result = e1.clone().repeat_with(
        rx::operators::RepeatConfig::new()
            .count(3)
            .delay(frames(3), sch.clone()),
    );
    m.expect(result).to_be("--a--b-------a--b-------a--b--|");
    e1.assert_subscriptions(&[
        "^-------!",
        "-----------^-------!",
        "----------------------^-------!",
    ]);
}

#[test]
fn repeat_with_a_delay_function() {
    let (sch, m) = setup();
    let e1 = m.cold(" --a--b--|");
    let timers = sch.clone();
    let counts = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = counts.clone();
    let result = e1
        .clone()
        .repeat_with(
            rx::operators::RepeatConfig::new()
                .count(3)
                .delay_with(move |count| {
                    seen.lock().unwrap().push(count);
                    rx::source::timer(frames(3), timers.clone())
                }),
        );
    m.expect(result).to_be("--a--b-------a--b-------a--b--|");
    e1.assert_subscriptions(&[
        "^-------!",
        "-----------^-------!",
        "----------------------^-------!",
    ]);
    // The third completion is past the count: no delay is asked for it.
    assert_eq!(*counts.lock().unwrap(), [1, 2]);
}

#[test]
fn repeat_with_a_delay_function_that_fails() {
    let (sch, m) = setup();
    let e1 = m.cold(" --a--b--|");
    let timers = sch.clone();
    let bad = rx::Error::msg("bad");
    let e = bad.clone();
    let result = e1
        .clone()
        .repeat_with(
            rx::operators::RepeatConfig::new()
                .count(3)
                .delay_with(move |count| {
                    if count == 2 {
                        rx::source::throw(e.clone()).boxed()
                    } else {
                        rx::source::timer(frames(3), timers.clone()).boxed()
                    }
                }),
        );
    m.expect(result)
        .with_error(bad)
        .to_be("--a--b-------a--b--#");
    e1.assert_subscriptions(&["^-------!", "-----------^-------!"]);
}

// ==================================================================== fork_join, fork_join_all (forkJoin)
//
// RxJS 7 `spec/observables/forkJoin-spec.ts`, "forkJoin([input1, input2, input3])".

#[test]
fn fork_join_joins_the_last_value_of_each() {
    let (_sch, m) = setup();
    let s1 = m.hot("  --a--b--c--d--|");
    let s2 = m.hot("  (b|)");
    let s3 = m.hot("  --1--2--3--|");
    m.expect(
        rx::source::fork_join((s1.clone(), s2.clone(), s3.clone()))
            .map(|(a, b, c)| format!("{a}{b}{c}")),
    )
    .to_be_with("--------------(x|)", [('x', "db3".to_string())]);
    let (_sch, m) = setup();
    let s1 = m.hot("  --a--b--c--d--|");
    let s2 = m.hot("  (b|)");
    let s3 = m.hot("  --1--2--3--|");
    m.expect(rx::source::fork_join_all(vec![s1, s2, s3]).map(joined))
        .to_be_with("--------------(x|)", [('x', "db3".to_string())]);
}

#[test]
fn fork_join_of_a_source_that_completes_empty_completes_empty() {
    // ... when that source ends, not when the others do.
    let (_sch, m) = setup();
    let s1 = m.hot("  --a--b--c--d--|");
    let s2 = m.hot("  (b|)");
    let s3 = m.hot("  ------------------|");
    m.expect(rx::source::fork_join((s1, s2, s3)).map(|(a, b, c)| format!("{a}{b}{c}")))
        .to_be("------------------|");
    let (_sch, m) = setup();
    let s1 = m.hot("  --a--b--c--d--|");
    let s2 = m.hot("  (b|)");
    let s3 = m.hot("  ---------|");
    m.expect(rx::source::fork_join_all(vec![s1.clone(), s2, s3]).map(joined))
        .to_be("---------|");
    s1.assert_subscriptions(&["^--------!"]);
    let (_sch, m) = setup();
    let s1 = m.hot("  --------------|");
    let s2 = m.hot("  ---------|");
    m.expect(rx::source::fork_join((s1, s2)).map(|(a, b)| format!("{a}{b}")))
        .to_be("---------|");
    let (_sch, m) = setup();
    let s1 = m.hot("  --------------");
    let s2 = m.hot("  ------|");
    m.expect(rx::source::fork_join((s1, s2)).map(|(a, b)| format!("{a}{b}")))
        .to_be("------|");
}

#[test]
fn fork_join_never_ends_while_a_source_runs_with_values() {
    let (_sch, m) = setup();
    m.expect(rx::source::fork_join_all(vec![m.hot("--------------")]).map(joined))
        .to_be("--------------");
    let (_sch, m) = setup();
    let s1 = m.hot("--------------");
    let s2 = m.hot("-a---b--c--|");
    m.expect(rx::source::fork_join((s1, s2)).map(|(a, b)| format!("{a}{b}")))
        .to_be("-");
}

#[test]
fn fork_join_all_of_no_sources_completes_at_once() {
    let (_sch, m) = setup();
    m.expect(rx::source::fork_join_all(Vec::<HotObservable<char>>::new()).map(joined))
        .to_be("|");
}

#[test]
fn fork_join_fails_with_any_source() {
    for other in ["  ---------|", "  ----------", "  ---a-----|"] {
        let (_sch, m) = setup();
        let s1 = m.hot("  ------#");
        let s2 = m.hot(other);
        m.expect(rx::source::fork_join((s1, s2.clone())).map(|(a, b)| format!("{a}{b}")))
            .to_be("------#");
        s2.assert_subscriptions(&["^-----!"]);
    }
}

#[test]
fn fork_join_unsubscribed_early_lets_go_of_every_source() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c---d-| ");
    let e2 = m.hot("---e-^---f--g---h-|");
    let unsub = "        ---------!    ";
    m.expect_subscribed(
        rx::source::fork_join((e1.clone(), e2.clone())).map(|(a, b)| format!("{a}{b}")),
        unsub,
    )
    .to_be("----------    ");
    e1.assert_subscriptions(&["^--------!"]);
    e2.assert_subscriptions(&["^--------!"]);
}

#[test]
fn fork_join_an_error_lets_go_of_the_others() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c---d-| ");
    let e2 = m.hot("---e-^---f--g-#");
    m.expect(rx::source::fork_join_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be("---------#    ");
    e1.assert_subscriptions(&["^--------!"]);
    e2.assert_subscriptions(&["^--------!"]);
}

// ==================================================================== combine_latest_all (combineLatest([..]))
//
// RxJS 7 `spec/observables/combineLatest-spec.ts` over an array. Where a source completes
// without a value, the result completes at once (RxJava 3 and Rx.NET); RxJS waits for the
// others, and the test says so.

fn joined(row: Vec<char>) -> String {
    row.into_iter().collect()
}

#[test]
fn combine_latest_all_combines_the_latest_of_each() {
    let (_sch, m) = setup();
    let first = m.hot("  ----a----b----c----|");
    let second = m.hot(" --d--e--f--g--|");
    let s = |v: &str| v.to_string();
    m.expect(rx::source::combine_latest_all(vec![first, second]).map(joined))
        .to_be_with(
            "----uv--wx-y--z----|",
            [
                ('u', s("ad")),
                ('v', s("ae")),
                ('w', s("af")),
                ('x', s("bf")),
                ('y', s("bg")),
                ('z', s("cg")),
            ],
        );
}

#[test]
fn combine_latest_all_of_no_sources_completes_at_once() {
    let (_sch, m) = setup();
    m.expect(rx::source::combine_latest_all(Vec::<HotObservable<char>>::new()).map(joined))
        .to_be("|");
}

#[test]
fn combine_latest_all_with_nevers_and_empties() {
    let (_sch, m) = setup();
    let (e1, e2) = (m.cold("-"), m.cold("-"));
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be("-");
    e1.assert_subscriptions(&["^"]);
    e2.assert_subscriptions(&["^"]);
    // never and empty: RxJS stays silent; an empty source completes the result at once.
    let (_sch, m) = setup();
    let (e1, e2) = (m.cold("-"), m.cold("|"));
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    e2.assert_subscriptions(&["(^!)"]);
    // empty and never: the never source is still subscribed, and let go of at once.
    let (_sch, m) = setup();
    let (e1, e2) = (m.cold("|"), m.cold("-"));
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    e2.assert_subscriptions(&["(^!)"]);
    let (_sch, m) = setup();
    let (e1, e2) = (m.cold("|"), m.cold("|"));
    m.expect(rx::source::combine_latest_all(vec![e1, e2]).map(joined))
        .to_be("|");
    // hot-empty and hot-single: RxJS completes with the second source, at frame 4.
    let (_sch, m) = setup();
    let e1 = m.hot("-a-^-|");
    let e2 = m.hot("-b-^-c-|");
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be("--|");
    e1.assert_subscriptions(&["^-!"]);
    e2.assert_subscriptions(&["^-!"]);
}

#[test]
fn combine_latest_all_hot_and_hot() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--|");
    let e2 = m.hot("---e-^---f--g--|");
    let s = |v: &str| v.to_string();
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be_with(
            "----x-yz--|",
            [('x', s("bf")), ('y', s("cf")), ('z', s("cg"))],
        );
    e1.assert_subscriptions(&["^--------!"]);
    e2.assert_subscriptions(&["^---------!"]);
}

#[test]
fn combine_latest_all_interleaved_and_consecutive() {
    let (_sch, m) = setup();
    let e1 = m.hot("-a--^--b---c---|");
    let e2 = m.hot("--d-^----e---f--|");
    let s = |v: &str| v.to_string();
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be_with(
            "-----x-y-z--|",
            [('x', s("be")), ('y', s("ce")), ('z', s("cf"))],
        );
    e1.assert_subscriptions(&["^----------!"]);
    e2.assert_subscriptions(&["^-----------!"]);
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--|");
    let e2 = m.hot("-----^----------d--e--f--|");
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be_with(
            "-----------x--y--z--|",
            [('x', s("cd")), ('y', s("ce")), ('z', s("cf"))],
        );
    e1.assert_subscriptions(&["^--------!"]);
    e2.assert_subscriptions(&["^-------------------!"]);
}

#[test]
fn combine_latest_all_errors() {
    // empty and error, error and empty
    let (_sch, m) = setup();
    let e1 = m.hot("  ----------|");
    let e2 = m.hot("  ------#");
    m.expect(rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined))
        .to_be("------#");
    e1.assert_subscriptions(&["^-----!"]);
    e2.assert_subscriptions(&["^-----!"]);
    // throw after complete, left and right
    let (_sch, m) = setup();
    let left = m.hot(" --a--^--b---|");
    let right = m.hot("-----^--------#");
    m.expect(rx::source::combine_latest_all(vec![left.clone(), right.clone()]).map(joined))
        .to_be("---------#");
    left.assert_subscriptions(&["^------!"]);
    right.assert_subscriptions(&["^--------!"]);
    // two consecutive hot observables with an error left, then right
    let (_sch, m) = setup();
    let left = m.hot(" --a--^--b--c--#");
    let right = m.hot("-----^----------d--e--f--|");
    m.expect(rx::source::combine_latest_all(vec![left.clone(), right.clone()]).map(joined))
        .to_be("---------#");
    left.assert_subscriptions(&["^--------!"]);
    right.assert_subscriptions(&["^--------!"]);
    let (_sch, m) = setup();
    let left = m.hot(" --a--^--b--c--|");
    let right = m.hot("-----^----------d--e--f--#");
    let s = |v: &str| v.to_string();
    m.expect(rx::source::combine_latest_all(vec![left.clone(), right.clone()]).map(joined))
        .to_be_with(
            "-----------x--y--z--#",
            [('x', s("cd")), ('y', s("ce")), ('z', s("cf"))],
        );
    right.assert_subscriptions(&["^-------------------!"]);
}

#[test]
fn combine_latest_all_unsubscribed_early() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c---d-| ");
    let e2 = m.hot("---e-^---f--g---h-|");
    let unsub = "        ---------!    ";
    let s = |v: &str| v.to_string();
    m.expect_subscribed(
        rx::source::combine_latest_all(vec![e1.clone(), e2.clone()]).map(joined),
        unsub,
    )
    .to_be_with(
        "----x-yz--    ",
        [('x', s("bf")), ('y', s("cf")), ('z', s("cg"))],
    );
    e1.assert_subscriptions(&["^--------!"]);
    e2.assert_subscriptions(&["^--------!"]);
}

// ==================================================================== zip_all (zip([..]))
//
// RxJS 7 `spec/observables/zip-spec.ts` over an array.

#[test]
fn zip_all_ends_once_a_completed_source_has_nothing_buffered() {
    let (_sch, m) = setup();
    let e1 = m.hot("  ---a--b--c--|               ");
    let e2 = m.hot("  ------d----e----f--------|  ");
    let e3 = m.hot("  --------h----i----j---------");
    m.expect(rx::source::zip_all(vec![e1.clone(), e2.clone(), e3.clone()]).map(joined))
        .to_be_with(
            "--------x----y----(z|)      ",
            [
                ('x', "adh".to_string()),
                ('y', "bei".to_string()),
                ('z', "cfj".to_string()),
            ],
        );
    e1.assert_subscriptions(&["^-----------!"]);
    e2.assert_subscriptions(&["^-----------------!"]);
    e3.assert_subscriptions(&["^-----------------!"]);
    let (_sch, m) = setup();
    let e1 = m.hot("  ---a--b--c--|             ");
    let e2 = m.hot("  ------d----e----f|        ");
    let e3 = m.hot("  --------h----i----j-------");
    m.expect(rx::source::zip_all(vec![e1, e2.clone(), e3.clone()]).map(joined))
        .to_be_with(
            "--------x----y----(z|)    ",
            [
                ('x', "adh".to_string()),
                ('y', "bei".to_string()),
                ('z', "cfj".to_string()),
            ],
        );
    e2.assert_subscriptions(&["^----------------!"]);
    e3.assert_subscriptions(&["^-----------------!"]);
}

#[test]
fn zip_all_n_ary_symmetric_and_asymmetric() {
    let (_sch, m) = setup();
    let a = m.hot("---1-^-1----4----|");
    let b = m.hot("---1-^--2--5----| ");
    let c = m.hot("---1-^---3---6-|  ");
    m.expect(rx::source::zip_all(vec![a.clone(), b.clone(), c]).map(joined))
        .to_be_with(
            "----x---y-|  ",
            [('x', "123".to_string()), ('y', "456".to_string())],
        );
    a.assert_subscriptions(&["^---------!"]);
    b.assert_subscriptions(&["^---------!"]);
    let s = |v: &str| v.to_string();
    let pairs = [
        ('a', s("12")),
        ('b', s("34")),
        ('c', s("56")),
        ('d', s("78")),
        ('e', s("90")),
    ];
    let (_sch, m) = setup();
    let a = m.hot("---1-^-1-3-5-7-9-x-y-z-w-u-|");
    let b = m.hot("---1-^--2--4--6--8--0--|    ");
    m.expect(rx::source::zip_all(vec![a.clone(), b.clone()]).map(joined))
        .to_be_with("---a--b--c--d--e--|    ", pairs.clone());
    a.assert_subscriptions(&["^-----------------!"]);
    b.assert_subscriptions(&["^-----------------!"]);
    let (_sch, m) = setup();
    let a = m.hot("---1-^-1-3-5-7-9------| ");
    let b = m.hot("---1-^--2--4--6--8--0--|");
    m.expect(rx::source::zip_all(vec![a.clone(), b.clone()]).map(joined))
        .to_be_with("---a--b--c--d--e-| ", pairs);
    a.assert_subscriptions(&["^----------------! "]);
    b.assert_subscriptions(&["^----------------! "]);
}

#[test]
fn zip_all_right_completes_first() {
    let (_sch, m) = setup();
    let a = m.hot("---1-^-2-----|");
    let b = m.hot("---1-^--3--|  ");
    m.expect(rx::source::zip_all(vec![a.clone(), b.clone()]).map(joined))
        .to_be_with("---x--|  ", [('x', "23".to_string())]);
    a.assert_subscriptions(&["^-----!  "]);
    b.assert_subscriptions(&["^-----!  "]);
}

#[test]
fn zip_all_errors() {
    let (_sch, m) = setup();
    let a = m.hot("   --w-----#----");
    let b = m.hot("   -----z-----#-");
    m.expect(rx::source::zip_all(vec![a.clone(), b.clone()]).map(joined))
        .to_be_with("-----x--#    ", [('x', "wz".to_string())]);
    a.assert_subscriptions(&["^-------!    "]);
    b.assert_subscriptions(&["^-------!    "]);
    // A source that fails as it is subscribed: the ones after it are still subscribed, and
    // let go of at once, as in RxJS.
    let (_sch, m) = setup();
    let a = m.cold("  #          ");
    let b = m.hot("   --1--2--3--");
    m.expect(rx::source::zip_all(vec![a.clone().boxed(), b.clone().boxed()]).map(joined))
        .to_be("#");
    a.assert_subscriptions(&["(^!)"]);
    b.assert_subscriptions(&["(^!)"]);
}
