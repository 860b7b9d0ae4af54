//! `flat_map_max`, `merge_scan`, `merge_scan_max` and `switch_scan` checked with marble
//! diagrams at exact virtual times.
//!
//! The cases are RxJS 7's own marble tests of the same operators (`spec/operators/
//! mergeMap-spec.ts`, its `concurrent` cases, `mergeScan-spec.ts` and `switchScan-spec.ts`),
//! with the same diagrams. RxJS's accumulators of arrays are strings here (`['b', 'c']` is
//! `"bc"`); a projection that throws in RxJS is one that returns a failing observable here,
//! as a Rust closure does not throw. One frame is 1 ms.

use rx::Error;
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::source::{empty, just, never, throw};
use rx::testing::marbles::Marbles;

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

/// The accumulators of the `mergeScan` cases: each letter, a string.
fn letters(table: &[(char, &str)]) -> Vec<(char, String)> {
    table.iter().map(|&(c, s)| (c, s.to_string())).collect()
}

fn appended(acc: String, c: char) -> String {
    format!("{acc}{c}")
}

// ============================================================ flat_map_max (mergeMap(f, concurrent))

#[test]
fn flat_map_max_one_over_cold_inners() {
    let (_sch, m) = setup();
    let x = m.cold("   ----i---j---k---l---|                                        ");
    let e1 = m.hot("  -a-------b-------c---|                                        ");
    let inner = x.clone();
    m.expect(e1.clone().flat_map_max(1, move |_| inner.clone()))
        .to_be("-----i---j---k---l-------i---j---k---l-------i---j---k---l---|");
    x.assert_subscriptions(&[
        "-^-------------------!                                        ",
        "---------------------^-------------------!                    ",
        "-----------------------------------------^-------------------!",
    ]);
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn flat_map_max_two_over_cold_inners() {
    let (_sch, m) = setup();
    let x = m.cold("   ----i---j---k---l---|                    ");
    let e1 = m.hot("  -a-------b-------c---|                    ");
    let inner = x.clone();
    m.expect(e1.clone().flat_map_max(2, move |_| inner.clone()))
        .to_be("-----i---j---(ki)(lj)k---(li)j---k---l---|");
    x.assert_subscriptions(&[
        "-^-------------------!                    ",
        "---------^-------------------!            ",
        "---------------------^-------------------!",
    ]);
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn flat_map_max_one_over_hot_inners() {
    let (_sch, m) = setup();
    let a = m.hot("   x----i---j---k---l---|                                        ");
    let b = m.hot("   -x-x-xxxx-x-x-xxxxx-x----i---j---k---l---|                    ");
    let c = m.hot("   x-xxxx---x-x-x-x-x-xx--x--x-x--x--xxxx-x-----i---j---k---l---|");
    let e1 = m.hot("  -a-------b-------c---|                                        ");
    let inners = [a.clone(), b.clone(), c.clone()];
    m.expect(
        e1.clone()
            .flat_map_max(1, move |v| inners[v as usize - 'a' as usize].clone()),
    )
    .to_be("-----i---j---k---l-------i---j---k---l-------i---j---k---l---|");
    a.assert_subscriptions(&["-^-------------------!"]);
    b.assert_subscriptions(&["---------------------^-------------------!"]);
    c.assert_subscriptions(&["-----------------------------------------^-------------------!"]);
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn flat_map_max_two_over_hot_inners() {
    let (_sch, m) = setup();
    let x = m.hot("   x----i---j---k---l---|                    ");
    let y = m.hot("   -x-x-xxxx----i---j---k---l---|            ");
    let z = m.hot("   x-xxxx---x-x-x-x-x-xx----i---j---k---l---|");
    let e1 = m.hot("  -a-------b-------c---|                    ");
    let inners = [x.clone(), y.clone(), z.clone()];
    m.expect(
        e1.clone()
            .flat_map_max(2, move |v| inners[v as usize - 'a' as usize].clone()),
    )
    .to_be("-----i---j---(ki)(lj)k---(li)j---k---l---|");
    x.assert_subscriptions(&["-^-------------------!"]);
    y.assert_subscriptions(&["---------^-------------------!"]);
    z.assert_subscriptions(&["---------------------^-------------------!"]);
    e1.assert_subscriptions(&["^--------------------!"]);
}

// ======================================================================= merge_scan (mergeScan)

/// The projection of RxJS's `mergeScan` concurrency cases: the value `n` maps to `inners[n]`,
/// with the accumulator first.
fn by_digit<U>(
    inners: &[U; 3],
) -> impl FnMut(char, char) -> rx::operators::StartWith<U, char> + Send + 'static
where
    U: Observable<Item = char> + Clone + Send + 'static,
{
    let inners = inners.clone();
    move |acc, n| {
        inners[n.to_digit(10).unwrap() as usize]
            .clone()
            .start_with(acc)
    }
}

#[test]
fn merge_scan_things() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect(
        e1.clone()
            .merge_scan(String::new(), |acc, x| just(appended(acc, x))),
    )
    .to_be_with(
        "   ---u--v--w--x--y--z--|",
        letters(&[
            ('u', "b"),
            ('v', "bc"),
            ('w', "bcd"),
            ('x', "bcde"),
            ('y', "bcdef"),
            ('z', "bcdefg"),
        ]),
    );
    e1.assert_subscriptions(&["     ^--------------------!"]);
}

#[test]
fn merge_scan_handles_errors() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--#");
    m.expect(
        e1.clone()
            .merge_scan(String::new(), |acc, x| just(appended(acc, x))),
    )
    .to_be_with(
        "   ---u--v--w--#",
        letters(&[('u', "b"), ('v', "bc"), ('w', "bcd")]),
    );
    e1.assert_subscriptions(&["     ^-----------!"]);
}

#[test]
fn merge_scan_projects_asynchronously() {
    let (sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    let t = m.time("        --|                ");
    m.expect(e1.clone().merge_scan(String::new(), move |acc, x| {
        just(appended(acc, x)).delay(t, sch.clone())
    }))
    .to_be_with(
        "   -----u--v--w--x--y--z|",
        letters(&[
            ('u', "b"),
            ('v', "bc"),
            ('w', "bcd"),
            ('x', "bcde"),
            ('y', "bcdef"),
            ('z', "bcdefg"),
        ]),
    );
    e1.assert_subscriptions(&["     ^--------------------!"]);
}

#[test]
fn merge_scan_does_not_stop_running_inners_when_the_source_completes() {
    let (sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|     ");
    let t = m.time("        -----|");
    m.expect(e1.clone().merge_scan(String::new(), move |acc, x| {
        just(appended(acc, x)).delay(t, sch.clone())
    }))
    .to_be_with(
        "   --------u--v--w--x--y--(z|)",
        letters(&[
            ('u', "b"),
            ('v', "c"),
            ('w', "bd"),
            ('x', "ce"),
            ('y', "bdf"),
            ('z', "ceg"),
        ]),
    );
    e1.assert_subscriptions(&["     ^--------------------!     "]);
}

#[test]
fn merge_scan_unsubscribed_early_stops_running_inners() {
    let (sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    let t = m.time("        -----|");
    let unsub = "        ----------------!     ";
    m.expect_subscribed(
        e1.clone().merge_scan(String::new(), move |acc, x| {
            just(appended(acc, x)).delay(t, sch.clone())
        }),
        unsub,
    )
    .to_be_with(
        "   --------u--v--w--     ",
        letters(&[('u', "b"), ('v', "c"), ('w', "bd")]),
    );
    e1.assert_subscriptions(&["     ^---------------!     "]);
}

#[test]
fn merge_scan_unsubscribed_through_a_chain() {
    let (sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    let t = m.time("        -----|");
    let unsub = "        ----------------!     ";
    let result = e1
        .clone()
        .flat_map(just)
        .merge_scan(String::new(), move |acc, x| {
            just(appended(acc, x)).delay(t, sch.clone())
        })
        .flat_map(just);
    m.expect_subscribed(result, unsub).to_be_with(
        "   --------u--v--w--     ",
        letters(&[('u', "b"), ('v', "c"), ('w', "bd")]),
    );
    e1.assert_subscriptions(&["     ^---------------!     "]);
}

#[test]
fn merge_scan_a_failing_projection() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect(e1.clone().merge_scan(String::new(), |acc, x| {
        if x == 'd' {
            throw(Error::msg("bad!")).boxed()
        } else {
            just(appended(acc, x)).boxed()
        }
    }))
    .with_error(Error::msg("bad!"))
    .to_be_with("   ---u--v--#", letters(&[('u', "b"), ('v', "bc")]));
    e1.assert_subscriptions(&["     ^--------!"]);
}

#[test]
fn merge_scan_propagates_an_error_of_the_projected_observable() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect(
        e1.clone()
            .merge_scan(String::new(), |_, _| throw::<String>(Error::msg("bad!"))),
    )
    .with_error(Error::msg("bad!"))
    .to_be("   ---#");
    e1.assert_subscriptions(&["     ^--!"]);
}

#[test]
fn merge_scan_an_empty_projected_observable() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect(
        e1.clone()
            .merge_scan(String::new(), |_, _| empty::<String>()),
    )
    .to_be("   ---------------------|");
    e1.assert_subscriptions(&["     ^--------------------!"]);
}

#[test]
fn merge_scan_a_projected_observable_that_never_ends() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect_subscribed(
        e1.clone()
            .merge_scan(String::new(), |_, _| never::<String>()),
        "     ^---------------------!",
    )
    .to_be("   ----------------------");
    e1.assert_subscriptions(&["     ^--------------------!"]);
}

#[test]
fn merge_scan_an_empty_source() {
    let (_sch, m) = setup();
    let e1 = m.cold(" |   ");
    m.expect(
        e1.clone()
            .merge_scan(String::new(), |acc, x| just(appended(acc, x))),
    )
    .to_be("|   ");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn merge_scan_a_source_that_never_ends() {
    let (_sch, m) = setup();
    let e1 = m.cold(" -");
    m.expect_subscribed(
        e1.clone()
            .merge_scan(String::new(), |acc, x| just(appended(acc, x))),
        "^!",
    )
    .to_be("-");
    e1.assert_subscriptions(&["^!"]);
}

#[test]
fn merge_scan_a_source_that_fails_at_once() {
    let (_sch, m) = setup();
    let e1 = m.cold(" #   ");
    m.expect(
        e1.clone()
            .merge_scan(String::new(), |acc, x| just(appended(acc, x))),
    )
    .to_be("#   ");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn merge_scan_unsubscription() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect_subscribed(
        e1.clone()
            .merge_scan(String::new(), |acc, x| just(appended(acc, x))),
        "     --------------!       ",
    )
    .to_be_with(
        "   ---u--v--w--x--       ",
        letters(&[('u', "b"), ('v', "bc"), ('w', "bcd"), ('x', "bcde")]),
    );
    e1.assert_subscriptions(&["     ^-------------!       "]);
}

#[test]
fn merge_scan_max_one_over_cold_inners() {
    let (_sch, m) = setup();
    let inner = [
        m.cold("            --d--e--f--|                      "),
        m.cold("                       --g--h--i--|           "),
        m.cold("                                  --j--k--l--|"),
    ];
    let e1 = m.hot("  --0--1--2--|                        ");
    m.expect(e1.clone().merge_scan_max(1, 'x', by_digit(&inner)))
        .to_be("--x-d--e--f--f-g--h--i--i-j--k--l--|");
    e1.assert_subscriptions(&["^----------!                        "]);
    inner[0].assert_subscriptions(&["--^----------!                      "]);
    inner[1].assert_subscriptions(&["-------------^----------!           "]);
    inner[2].assert_subscriptions(&["------------------------^----------!"]);
}

#[test]
fn merge_scan_does_not_emit_the_accumulator_for_an_empty_inner() {
    let (_sch, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    m.expect(
        e1.clone()
            .merge_scan("1".to_string(), |_, _| empty::<String>()),
    )
    .to_be("   ---------------------|");
    e1.assert_subscriptions(&["     ^--------------------!"]);
}

#[test]
fn merge_scan_does_not_emit_the_accumulator_for_inners_empty_after_the_source_ends() {
    let (_sch, m) = setup();
    let x = m.cold("        -----|   ");
    let e1 = m.hot("--a--^--b--c--|  ");
    let inner = x.clone();
    m.expect(e1.clone().merge_scan('1', move |_, _| inner.clone()))
        .to_be("   -----------|");
    e1.assert_subscriptions(&["     ^--------!  "]);
    x.assert_subscriptions(&["     ---^----!   ", "     ------^----!"]);
}

#[test]
fn merge_scan_max_one_over_hot_inners() {
    let (_sch, m) = setup();
    let inner = [
        m.hot("           --d--e--f--|                 "),
        m.hot("           ----g----h----i----|         "),
        m.hot("           ------j------k-------l------|"),
    ];
    let e1 = m.hot("  ---0---1---2---|             ");
    m.expect(e1.clone().merge_scan_max(1, 'x', by_digit(&inner)))
        .to_be("---x-e--f--f--i----i-l------|");
    e1.assert_subscriptions(&["^--------------!             "]);
    inner[0].assert_subscriptions(&["---^-------!                 "]);
    inner[1].assert_subscriptions(&["-----------^-------!         "]);
    inner[2].assert_subscriptions(&["-------------------^--------!"]);
}

#[test]
fn merge_scan_max_two_over_cold_inners() {
    let (_sch, m) = setup();
    let inner = [
        m.cold("              ---d---e---f---|               "),
        m.cold("                   ---g---h---i---|          "),
        m.cold("                             ---j---k---l---|"),
    ];
    let e1 = m.hot("  ----0----1----2----|               ");
    m.expect(e1.clone().merge_scan_max(2, 'x', by_digit(&inner)))
        .to_be("----x--d-d-eg--fh--hi-j---k---l---|");
    e1.assert_subscriptions(&["^------------------!               "]);
    inner[0].assert_subscriptions(&["----^--------------!               "]);
    inner[1].assert_subscriptions(&["---------^--------------!          "]);
    inner[2].assert_subscriptions(&["-------------------^--------------!"]);
}

#[test]
fn merge_scan_max_two_over_hot_inners() {
    let (_sch, m) = setup();
    let inner = [
        m.hot("           --d--e--f-----|              "),
        m.hot("           ----g----h------i----|       "),
        m.hot("           ------j--------k-----l------|"),
    ];
    let e1 = m.hot("  ---0---1---2---|             ");
    m.expect(e1.clone().merge_scan_max(2, 'x', by_digit(&inner)))
        .to_be("---x-e-efh----hki----l------|");
    e1.assert_subscriptions(&["^--------------!             "]);
    inner[0].assert_subscriptions(&["---^----------!              "]);
    inner[1].assert_subscriptions(&["-------^-------------!       "]);
    inner[2].assert_subscriptions(&["--------------^-------------!"]);
}

// ===================================================================== switch_scan (switchScan)

/// The `switchScan` cases that map `x` and `y` to two inner observables, ignoring the
/// accumulator.
fn lookup<U>(x: &U, y: &U) -> impl FnMut(char, char) -> U + Clone + Send + 'static
where
    U: Clone + Send + 'static,
{
    let (x, y) = (x.clone(), y.clone());
    move |_, v| if v == 'x' { x.clone() } else { y.clone() }
}

#[test]
fn switch_scan_passes_the_accumulated_value() {
    let (_sch, m) = setup();
    let e1 = m.hot("  --1-----3--5-------|");
    let e2 = m.cold_with("    x-x-x|           ", [('x', 10i64)]);
    let result = e1.clone().switch_scan(0i64, move |acc, x| {
        let x = i64::from(x.to_digit(10).unwrap());
        e2.clone().map(move |i| i * x + acc)
    });
    m.expect(result)
        .to_be_with("--x-x-x-y-yz-z-z---|", [('x', 10), ('y', 40), ('z', 90)]);
    e1.assert_subscriptions(&["^------------------!"]);
}

#[test]
fn switch_scan_switches_cold_inners() {
    let (_sch, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|           ");
    let y = m.cold("                     ---f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .to_be("-----------a--b--c----f---g---h---i--|");
    x.assert_subscriptions(&["---------^---------!                  "]);
    y.assert_subscriptions(&["-------------------^-----------------!"]);
    e1.assert_subscriptions(&["^----------------------------!        "]);
}

#[test]
fn switch_scan_a_failing_projection() {
    let (_sch, m) = setup();
    let e1 = m.hot("  -------x-----y---|");
    m.expect(
        e1.clone()
            .switch_scan(' ', |_, _| throw::<char>(Error::msg("error"))),
    )
    .to_be("-------#          ");
    e1.assert_subscriptions(&["^------!          "]);
}

#[test]
fn switch_scan_unsubscribed_early() {
    let (_sch, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|           ");
    let y = m.cold("                     ---f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    m.expect_subscribed(
        e1.clone().switch_scan(' ', lookup(&x, &y)),
        "---------------------!                ",
    )
    .to_be("-----------a--b--c----                ");
    x.assert_subscriptions(&["---------^---------!                  "]);
    y.assert_subscriptions(&["-------------------^-!                "]);
    e1.assert_subscriptions(&["^--------------------!                "]);
}

#[test]
fn switch_scan_unsubscribed_through_a_chain() {
    let (_sch, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|           ");
    let y = m.cold("                     ---f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    let result = e1
        .clone()
        .flat_map(just)
        .switch_scan(' ', lookup(&x, &y))
        .flat_map(just);
    m.expect_subscribed(result, "---------------------!                ")
        .to_be("-----------a--b--c----                ");
    x.assert_subscriptions(&["---------^---------!                  "]);
    y.assert_subscriptions(&["-------------------^-!                "]);
    e1.assert_subscriptions(&["^--------------------!                "]);
}

#[test]
fn switch_scan_an_inner_that_never_completes() {
    let (_sch, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|          ");
    let y = m.cold("                     ---f---g---h---i--");
    let e1 = m.hot("  ---------x---------y---------|       ");
    m.expect_subscribed(
        e1.clone().switch_scan(' ', lookup(&x, &y)),
        "^------------------------------------!",
    )
    .to_be("-----------a--b--c----f---g---h---i--");
    x.assert_subscriptions(&["---------^---------!                 "]);
    y.assert_subscriptions(&["-------------------^-----------------!"]);
    e1.assert_subscriptions(&["^----------------------------!       "]);
}

#[test]
fn switch_scan_a_synchronous_switch_to_the_second_inner() {
    let (_sch, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|   ");
    let y = m.cold("           ---f---g---h---i--|  ");
    let e1 = m.hot("  ---------(xy)----------------|");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .to_be("------------f---g---h---i----|");
    x.assert_subscriptions(&["---------(^!)                 "]);
    y.assert_subscriptions(&["---------^-----------------!  "]);
    e1.assert_subscriptions(&["^----------------------------!"]);
}

#[test]
fn switch_scan_one_inner_fails() {
    let (_sch, m) = setup();
    // RxJS draws `--a--b--#--d--e--|`; the kit allows nothing but time after the `#`.
    let x = m.cold("           --a--b--#                   ");
    let y = m.cold("                     ---f---g---h---i--");
    let e1 = m.hot("  ---------x---------y---------|       ");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .to_be("-----------a--b--#                   ");
    x.assert_subscriptions(&["---------^-------!                   "]);
    y.assert_subscriptions(&[]);
    e1.assert_subscriptions(&["^----------------!                   "]);
}

#[test]
fn switch_scan_switches_hot_inners() {
    let (_sch, m) = setup();
    let x = m.hot("   -----a--b--c--d--e--|                 ");
    let y = m.hot("   --p-o-o-p-------------f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .to_be("-----------c--d--e----f---g---h---i--|");
    x.assert_subscriptions(&["---------^---------!                  "]);
    y.assert_subscriptions(&["-------------------^-----------------!"]);
    e1.assert_subscriptions(&["^----------------------------!        "]);
}

#[test]
fn switch_scan_empty_then_empty() {
    let (_sch, m) = setup();
    let x = m.cold("           |                    ");
    let y = m.cold("                     |          ");
    let e1 = m.hot("  ---------x---------y---------|");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .to_be("-----------------------------|");
    x.assert_subscriptions(&["---------(^!)                 "]);
    y.assert_subscriptions(&["-------------------(^!)       "]);
    e1.assert_subscriptions(&["^----------------------------!"]);
}

#[test]
fn switch_scan_empty_then_never() {
    let (_sch, m) = setup();
    let x = m.cold("           |                    ");
    let y = m.cold("                     -----------");
    let e1 = m.hot("  ---------x---------y---------|");
    m.expect_subscribed(
        e1.clone().switch_scan(' ', lookup(&x, &y)),
        "^-----------------------------!",
    )
    .to_be("------------------------------");
    x.assert_subscriptions(&["---------(^!)                 "]);
    y.assert_subscriptions(&["-------------------^----------!"]);
    e1.assert_subscriptions(&["^----------------------------!"]);
}

#[test]
fn switch_scan_never_then_empty() {
    let (_sch, m) = setup();
    let x = m.cold("           -----------          ");
    let y = m.cold("                     |          ");
    let e1 = m.hot("  ---------x---------y---------|");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .to_be("-----------------------------|");
    x.assert_subscriptions(&["---------^---------!          "]);
    y.assert_subscriptions(&["-------------------(^!)       "]);
    e1.assert_subscriptions(&["^----------------------------!"]);
}

#[test]
fn switch_scan_never_then_a_failure() {
    let (_sch, m) = setup();
    let x = m.cold("           -----------          ");
    let y = m
        .cold("                     #          ")
        .with_error(Error::msg("sad"));
    let e1 = m.hot("  ---------x---------y---------|");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .with_error(Error::msg("sad"))
        .to_be("-------------------#          ");
    x.assert_subscriptions(&["---------^---------!          "]);
    y.assert_subscriptions(&["-------------------(^!)       "]);
    e1.assert_subscriptions(&["^------------------!          "]);
}

#[test]
fn switch_scan_empty_then_a_failure() {
    let (_sch, m) = setup();
    let x = m.cold("           |                    ");
    let y = m
        .cold("                     #          ")
        .with_error(Error::msg("sad"));
    let e1 = m.hot("  ---------x---------y---------|");
    m.expect(e1.clone().switch_scan(' ', lookup(&x, &y)))
        .with_error(Error::msg("sad"))
        .to_be("-------------------#          ");
    x.assert_subscriptions(&["---------(^!)                 "]);
    y.assert_subscriptions(&["-------------------(^!)       "]);
    e1.assert_subscriptions(&["^------------------!          "]);
}

#[test]
fn switch_scan_an_empty_source() {
    let (_sch, m) = setup();
    let e1 = m.cold(" |   ");
    m.expect(e1.clone().switch_scan(' ', |_, v| just(v)))
        .to_be("|   ");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn switch_scan_a_source_that_never_ends() {
    let (_sch, m) = setup();
    let e1 = m.cold(" -");
    m.expect_subscribed(e1.clone().switch_scan(' ', |_, v| just(v)), "^!")
        .to_be("-");
    e1.assert_subscriptions(&["^!"]);
}

#[test]
fn switch_scan_a_source_that_fails_at_once() {
    let (_sch, m) = setup();
    let e1 = m.cold(" #   ");
    m.expect(e1.clone().switch_scan(' ', |_, v| just(v)))
        .to_be("#   ");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn switch_scan_an_error_of_the_source() {
    let (_sch, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|");
    let e1 = m.hot("  ---------x---------#       ");
    let inner = x.clone();
    m.expect(e1.clone().switch_scan(' ', move |_, _| inner.clone()))
        .to_be("-----------a--b--c-#       ");
    x.assert_subscriptions(&["---------^---------!       "]);
    e1.assert_subscriptions(&["^------------------!       "]);
}
