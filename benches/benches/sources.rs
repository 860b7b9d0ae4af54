//! RPP's groups General, Sources and Schedulers.

use crate::harness::{Group, sink};
use crate::peers::drive;
use crate::peers::rxrust_immediate::{Immediate as RxRustImmediate, ImmediateScheduler};
use criterion::Criterion;
use futures::stream::{self, StreamExt};
use rx::prelude::*;
use rx::schedulers::{CurrentThread, Immediate, NewThread, Reschedule, Scheduler, Worker};
use rx::source::{concat, create, defer, from_iter, interval, just};
use rxrust::prelude::{
    Local, Observable as _, ObservableFactory as _, Scheduler as _, Task, TaskState,
};
use std::cell::Cell;
use std::convert::Infallible;
use std::hint::black_box;
use std::time::Duration;

const NEW_THREAD_NA: &str = "rxRust has no thread-per-worker scheduler and no as_blocking: \
    its schedulers run on tokio";
const CURRENT_THREAD_NA: &str = "rxRust has no current-thread (trampoline) scheduler: \
    its Local scheduler is tokio's spawn_local";

thread_local! {
    // The hand-written twin of a trampoline: who owns this thread's queue.
    static QUEUE_OWNED: Cell<bool> = const { Cell::new(false) };
}

/// The hand-written floor of "run on the current thread's trampoline": become the owner of
/// the thread's (empty) queue, run inline, give the queue up.
#[inline(always)]
fn on_trampoline(f: impl FnOnce()) {
    QUEUE_OWNED.with(|owned| {
        assert!(!owned.get(), "the benchmark runs at the top of the stack");
        owned.set(true);
        f();
        owned.set(false);
    })
}

pub fn general(c: &mut Criterion) {
    let mut g = Group::new(c, "General");
    for name in [
        "Subscribe empty callbacks to empty observable",
        "Subscribe empty callbacks to empty observable via pipe operator",
    ] {
        let pipe = name.ends_with("pipe operator");
        let mut case = g.case(name);
        if pipe {
            case = case.note("Rust has no pipe operator: the same code as the previous case");
        }
        // The observer is published to the barrier as what the library's code sees: a
        // `dyn` reference to it (rx's and rxRust's emitters are one).
        case.hand(|| {
            let mut observer = |_: i32| {};
            sink(&mut observer as &mut dyn FnMut(i32));
        })
        .rx(|| {
            create::<i32, _>(|emitter| sink(emitter)).subscribe(|_| {});
        })
        .rxrust(|| {
            Local::create::<i32, Infallible, _, _>(|emitter| sink(emitter)).subscribe(|_| {});
        })
        .not_applicable("futures", "a stream has no subscription to create");
    }
    g.finish();
}

pub fn sources(c: &mut Criterion) {
    let mut g = Group::new(c, "Sources");
    let vals = [123];

    g.case("from array of 1 - create + subscribe + immediate")
        .hand(|| {
            for v in black_box(vals) {
                sink(v);
            }
        })
        .rx(|| {
            from_iter(black_box(vals)).subscribe(sink);
        })
        .rxrust(|| {
            Local::from_iter(black_box(vals)).subscribe(sink);
        })
        .futures(|| drive(stream::iter(black_box(vals)), sink));

    g.case("from array of 1 - create + subscribe + current_thread")
        .hand(|| {
            on_trampoline(|| {
                for v in black_box(vals) {
                    sink(v);
                }
            })
        })
        .note("from_iter(..).subscribe_on(CurrentThread): rx's sources take no scheduler")
        .rx(|| {
            from_iter(black_box(vals))
                .subscribe_on(CurrentThread)
                .subscribe(sink);
        })
        .not_applicable("rxrust", CURRENT_THREAD_NA)
        .not_applicable("futures", "no scheduler to name");

    new_thread_case(
        &mut g,
        "from array of 1 - create + as_blocking + subscribe + new_thread",
        [123],
    );
    new_thread_case(
        &mut g,
        "from array of 1000 - create + as_blocking + subscribe + new_thread",
        [0; 1000],
    );

    g.case("concat_as_source of just(1 immediate) create + subscribe")
        .hand(|| sink(black_box(1)))
        .rx(|| {
            concat([just(black_box(1))]).subscribe(sink);
        })
        .rxrust(|| {
            Local::concat_observables([Local::of(black_box(1))]).subscribe(sink);
        })
        .note("stream::iter([one stream]).flatten(): flatten is the Stream form of concat")
        .futures(|| drive(stream::iter([stream::iter([black_box(1)])]).flatten(), sink));

    g.case("concat_as_source of just(1 immediate) and just(1,2 immediate)create + subscribe")
        .hand(|| {
            sink(black_box(1));
            for v in black_box([1, 2]) {
                sink(v);
            }
        })
        .note(
            "just(1).concat_with(from_iter([1, 2])): the concat source takes observables of one \
             type, and two different types are concatenated with concat_with (RPP wraps them \
             in a variant)",
        )
        .rx(|| {
            just(black_box(1))
                .concat_with(from_iter(black_box([1, 2])))
                .subscribe(sink);
        })
        .note("two different types: boxed with box_it, as rxRust's documentation does")
        .rxrust(|| {
            Local::concat_observables([
                Local::of(black_box(1)).box_it(),
                Local::from_iter(black_box([1, 2])).box_it(),
            ])
            .subscribe(sink);
        })
        .futures(|| {
            drive(
                stream::iter([black_box(1)]).chain(stream::iter(black_box([1, 2]))),
                sink,
            )
        });

    g.case("defer from array of 1 - defer + create + subscribe + immediate")
        .hand(|| {
            let factory = || black_box([123]);
            for v in factory() {
                sink(v);
            }
        })
        .rx(|| {
            defer(|| from_iter(black_box([123]))).subscribe(sink);
        })
        .rxrust(|| {
            Local::defer(|| Local::from_iter(black_box([123]))).subscribe(sink);
        })
        .not_applicable(
            "futures",
            "streams are lazy already: there is nothing to defer",
        );

    // A zero period: every value is due at once, so nothing waits and the floor is the three
    // values themselves (no clock to read, no queue to own beyond the trampoline's flag).
    let period = Duration::ZERO;
    g.case("interval - interval + take(3) + subscribe + immediate")
        .hand(|| {
            for i in 0..black_box(3u64) {
                sink(i);
            }
        })
        .note("interval(Duration::ZERO, Immediate): each value is due at once")
        .rx(|| {
            interval(black_box(period), Immediate)
                .take(3)
                .subscribe(sink);
        })
        .note("Local with an immediate scheduler written as rxRust's docs show (see peers.rs)")
        .rxrust(|| {
            RxRustImmediate::interval(black_box(period))
                .take(3)
                .subscribe(sink);
        })
        .not_applicable("futures", "no scheduler to name");

    g.case("interval - interval + take(3) + subscribe + current_thread")
        .hand(|| {
            on_trampoline(|| {
                for i in 0..black_box(3u64) {
                    sink(i);
                }
            })
        })
        .note("interval(Duration::ZERO, CurrentThread): each value is due at once")
        .rx(|| {
            interval(black_box(period), CurrentThread)
                .take(3)
                .subscribe(sink);
        })
        .not_applicable("rxrust", CURRENT_THREAD_NA)
        .not_applicable("futures", "no scheduler to name");
    g.finish();
}

/// RPP copies the array into the observable on every op; so do these, by value.
fn new_thread_case<const N: usize>(g: &mut Group<'_>, name: &'static str, vals: [i32; N]) {
    g.case(name)
        .allocation_iters(50)
        .hand(|| {
            let vals = black_box(vals);
            std::thread::spawn(move || {
                for v in vals {
                    sink(v);
                }
            })
            .join()
            .unwrap();
        })
        .note(
            "from_iter(..).subscribe_on(NewThread).as_blocking(): the values cross to the \
             waiting thread through as_blocking's queue, where RPP's as_blocking runs the \
             observer on the worker thread",
        )
        .rx(|| {
            from_iter(black_box(vals))
                .subscribe_on(NewThread)
                .as_blocking()
                .subscribe(sink)
                .unwrap();
        })
        .not_applicable("rxrust", NEW_THREAD_NA)
        .not_applicable("futures", "no scheduler to name");
}

pub fn schedulers(c: &mut Criterion) {
    let mut g = Group::new(c, "Schedulers");
    // RPP's task receives the observer and keeps it from the optimiser; rx's tasks take no
    // argument, so they capture the observer and do the same with it.
    let observer = |_: i32| {};

    g.case("immediate scheduler create worker + schedule")
        .hand(|| {
            let task = || {
                sink(&observer);
            };
            task();
        })
        .rx(|| {
            Immediate.worker().schedule(move || {
                sink(&observer);
                Reschedule::Done
            });
        })
        .note("the immediate scheduler of peers.rs; every TaskHandle of rxRust is an Arc")
        .rxrust(|| {
            ImmediateScheduler.schedule(
                Task::new(observer, |observer| {
                    sink(&*observer);
                    TaskState::Finished
                }),
                None,
            );
        })
        .not_applicable("futures", "no scheduler to name");

    g.case("current_thread scheduler create worker + schedule")
        .hand(|| {
            on_trampoline(|| {
                let task = || {
                    sink(&observer);
                };
                task();
            })
        })
        .rx(|| {
            CurrentThread.worker().schedule(move || {
                sink(&observer);
                Reschedule::Done
            });
        })
        .not_applicable("rxrust", CURRENT_THREAD_NA)
        .not_applicable("futures", "no scheduler to name");

    g.case("current_thread scheduler create worker + schedule + recursive schedule")
        .hand(|| {
            // The trampoline's queue, with room for the one task the outer one schedules.
            on_trampoline(|| {
                let mut queued = None;
                let mut outer = || {
                    queued = Some(|| sink(&observer));
                };
                outer();
                while let Some(inner) = queued.take() {
                    inner();
                }
            })
        })
        .rx(|| {
            let worker = CurrentThread.worker();
            let inner_worker = worker.clone();
            worker.schedule(move || {
                inner_worker.schedule(move || {
                    sink(&observer);
                    Reschedule::Done
                });
                Reschedule::Done
            });
        })
        .not_applicable("rxrust", CURRENT_THREAD_NA)
        .not_applicable("futures", "no scheduler to name");
    g.finish();
}
