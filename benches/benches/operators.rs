//! RPP's operator groups: Combining, Conditional, Transforming, Filtering, Utility,
//! Aggregating and Error Handling. `immediate_just(a, ..)` is `just(a)` or `from_iter([a, ..])`
//! in rx (both emit inline, values stored by value in the observable), `Local::of` or
//! `Local::from_iter` in rxRust, `stream::iter` in `futures`.

use crate::harness::{Group, sink};
use crate::peers::rxrust_immediate::{Immediate as RxRustImmediate, ImmediateScheduler};
use crate::peers::{drive, ready};
use criterion::Criterion;
use futures::stream::{self, StreamExt};
use rx::prelude::*;
use rx::schedulers::Immediate;
use rx::source::{create, from_iter, just};
use rxrust::prelude::{Local, Observable as _, ObservableFactory as _};
use std::future;
use std::hint::black_box;

pub fn combining(c: &mut Criterion) {
    let mut g = Group::new(c, "Combining Operators");

    g.case("immediate_just(immediate_just(1), immediate_just(1)) + merge() + subscribe")
        .hand(|| {
            sink(black_box(1));
            sink(black_box(1));
        })
        .rx(|| {
            let inner = just(black_box(1));
            from_iter([inner.clone(), inner]).merge().subscribe(sink);
        })
        .rxrust(|| {
            let inner = Local::of(black_box(1));
            Local::from_iter([inner.clone(), inner])
                .merge_all(usize::MAX)
                .subscribe(sink);
        })
        .note("flatten_unordered(None): the Stream form of merge")
        .futures(|| {
            let inner = stream::iter([black_box(1)]);
            drive(
                stream::iter([inner.clone(), inner]).flatten_unordered(None),
                sink,
            );
        });

    g.case("immediate_just(1) + merge_with(immediate_just(2)) + subscribe")
        .hand(|| {
            sink(black_box(1));
            sink(black_box(2));
        })
        .rx(|| {
            just(black_box(1))
                .merge_with(just(black_box(2)))
                .subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1))
                .merge(Local::of(black_box(2)))
                .subscribe(sink);
        })
        .futures(|| {
            drive(
                stream::select(stream::iter([black_box(1)]), stream::iter([black_box(2)])),
                sink,
            )
        });

    g.case("immediate_just(1) + with_latest_from(immediate_just(2)) + subscribe")
        .hand(|| {
            // The other source is subscribed first, so its latest value is there.
            let latest = Some(black_box(2));
            if let Some(other) = latest {
                sink((black_box(1), other));
            }
        })
        .rx(|| {
            just(black_box(1))
                .with_latest_from(just(black_box(2)))
                .subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1))
                .with_latest_from(Local::of(black_box(2)))
                .subscribe(sink);
        })
        .not_applicable("futures", "no with_latest_from combinator");

    g.case("immediate_just(immediate_just(1),immediate_just(1)) + switch_on_next() + subscribe")
        .hand(|| {
            sink(black_box(1));
            sink(black_box(1));
        })
        .rx(|| {
            let inner = just(black_box(1));
            from_iter([inner.clone(), inner])
                .switch_on_next()
                .subscribe(sink);
        })
        .note("switch_map(|inner| inner): rxRust has no switch_on_next")
        .rxrust(|| {
            let inner = Local::of(black_box(1));
            Local::from_iter([inner.clone(), inner])
                .switch_map(|inner| inner)
                .subscribe(sink);
        })
        .not_applicable("futures", "no switch combinator");

    g.case("immediate_just(1) + zip(immediate_just(2)) + subscribe")
        .hand(|| sink((black_box(1), black_box(2))))
        .rx(|| {
            just(black_box(1)).zip(just(black_box(2))).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1))
                .zip(Local::of(black_box(2)))
                .subscribe(sink);
        })
        .futures(|| {
            drive(
                stream::iter([black_box(1)]).zip(stream::iter([black_box(2)])),
                sink,
            )
        });

    g.case("fork_join(immediate_just(1), immediate_just(2)) + subscribe")
        .hand(|| sink((black_box(1), black_box(2))))
        .rx(|| {
            rx::source::fork_join((just(black_box(1)), just(black_box(2)))).subscribe(sink);
        })
        .not_applicable("rxrust", "rxRust has no fork_join")
        .note("future::join: a Future joins the last (only) outcome of each side")
        .futures(|| {
            sink(ready(futures::future::join(
                future::ready(black_box(1)),
                future::ready(black_box(2)),
            )))
        });

    g.case("combine_latest_all(immediate_just(1), immediate_just(2)) + subscribe")
        .hand(|| sink(vec![black_box(1), black_box(2)]))
        .rx(|| {
            rx::source::combine_latest_all(vec![just(black_box(1)), just(black_box(2))])
                .subscribe(sink);
        })
        .note("rxRust has no combine_latest over a Vec: its two-source combine_latest, making the row")
        .rxrust(|| {
            Local::of(black_box(1))
                .combine_latest(Local::of(black_box(2)), |a, b| vec![a, b])
                .subscribe(sink);
        })
        .not_applicable("futures", "no combine_latest combinator");
    g.finish();
}

pub fn conditional(c: &mut Criterion) {
    let mut g = Group::new(c, "Conditional Operators");
    for (name, pass) in [
        ("immediate_just+take_while(false)+subscribe", false),
        ("immediate_just+take_while(true)+subscribe", true),
    ] {
        g.case(name)
            .hand(|| {
                let v = black_box(1);
                let predicate = |_: &i32| pass;
                if predicate(&v) {
                    sink(v);
                }
            })
            .rx(|| {
                just(black_box(1)).take_while(move |_| pass).subscribe(sink);
            })
            .rxrust(|| {
                Local::of(black_box(1))
                    .take_while(move |_| pass)
                    .subscribe(sink);
            })
            .futures(|| {
                drive(
                    stream::iter([black_box(1)]).take_while(move |_| future::ready(pass)),
                    sink,
                )
            });
    }
    g.finish();
}

pub fn transforming(c: &mut Criterion) {
    let mut g = Group::new(c, "Transforming Operators");

    g.case("immediate_just+map(v*2)+subscribe")
        .hand(|| sink(black_box(1) * 2))
        .rx(|| {
            just(black_box(1)).map(|v| v * 2).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1)).map(|v| v * 2).subscribe(sink);
        })
        .futures(|| drive(stream::iter([black_box(1)]).map(|v| v * 2), sink));

    g.case("immediate_just+scan(10, std::plus)+subscribe")
        .note("does not emit the seed: emits 11 only, where RPP emits 10 then 11")
        .hand(|| sink(10 + black_box(1)))
        .note("does not emit the seed: emits 11 only, where RPP emits 10 then 11")
        .rx(|| {
            just(black_box(1))
                .scan(10, |acc, v| acc + v)
                .subscribe(sink);
        })
        .note("does not emit the seed: emits 11 only, where RPP emits 10 then 11")
        .rxrust(|| {
            Local::of(black_box(1))
                .scan(10, |acc, v| acc + v)
                .subscribe(sink);
        })
        .note("does not emit the seed: emits 11 only, where RPP emits 10 then 11")
        .futures(|| {
            drive(
                stream::iter([black_box(1)]).scan(10, |acc, v| {
                    *acc += v;
                    future::ready(Some(*acc))
                }),
                sink,
            )
        });

    g.case("immediate_just+flat_map(immediate_just(v*2))+subscribe")
        .hand(|| sink(black_box(1) * 2))
        .rx(|| {
            just(black_box(1)).flat_map(|v| just(v * 2)).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1))
                .flat_map(|v| Local::of(v * 2))
                .subscribe(sink);
        })
        .futures(|| {
            drive(
                stream::iter([black_box(1)]).flat_map(|v| stream::iter([v * 2])),
                sink,
            )
        });

    g.case("immediate_just+buffer(2)+subscribe")
        .hand(|| {
            let mut buffer = Vec::with_capacity(2);
            buffer.push(black_box(1));
            sink(buffer);
        })
        .rx(|| {
            just(black_box(1)).buffer(2).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1)).buffer_count(2).subscribe(sink);
        })
        .futures(|| drive(stream::iter([black_box(1)]).chunks(2), sink));

    g.case("immediate_just+window(2)+subscribe + subscsribe inner")
        .not_applicable(
            "hand-written",
            "a window is an observable: no plain-Rust twin",
        )
        .rx(|| {
            just(black_box(1)).window(2).subscribe(|window| {
                window.subscribe(sink);
            });
        })
        .not_applicable("rxrust", "rxRust has no window operator")
        .not_applicable("futures", "no window combinator");
    g.finish();
}

pub fn filtering(c: &mut Criterion) {
    let mut g = Group::new(c, "Filtering Operators");

    g.case("immediate_just+take(1)+subscribe")
        .hand(|| {
            for v in [black_box(1)].into_iter().take(1) {
                sink(v);
            }
        })
        .rx(|| {
            just(black_box(1)).take(1).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1)).take(1).subscribe(sink);
        })
        .futures(|| drive(stream::iter([black_box(1)]).take(1), sink));

    g.case("immediate_just+take_last(1)+subscribe")
        .hand(|| {
            if let Some(v) = [black_box(1)].into_iter().last() {
                sink(v);
            }
        })
        .rx(|| {
            just(black_box(1)).take_last(1).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1)).take_last(1).subscribe(sink);
        })
        .not_applicable("futures", "no take_last combinator");

    g.case("immediate_just+filter(true)+subscribe")
        .hand(|| {
            let v = black_box(1);
            let predicate = |_: &i32| true;
            if predicate(&v) {
                sink(v);
            }
        })
        .rx(|| {
            just(black_box(1)).filter(|_| true).subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1)).filter(|_| true).subscribe(sink);
        })
        .futures(|| {
            drive(
                stream::iter([black_box(1)]).filter(|_| future::ready(true)),
                sink,
            )
        });

    g.case("immediate_just(1,2)+first()+subscribe")
        .hand(|| {
            if let Some(v) = black_box([1, 2]).into_iter().next() {
                sink(v);
            }
        })
        .rx(|| {
            from_iter(black_box([1, 2])).first().subscribe(sink);
        })
        .rxrust(|| {
            Local::from_iter(black_box([1, 2])).first().subscribe(sink);
        })
        .note("StreamExt::next")
        .futures(|| {
            if let Some(v) = ready(stream::iter(black_box([1, 2])).next()) {
                sink(v);
            }
        });

    g.case("immediate_just(1,2)+last()+subscribe")
        .hand(|| {
            if let Some(v) = black_box([1, 2]).into_iter().last() {
                sink(v);
            }
        })
        .rx(|| {
            from_iter(black_box([1, 2])).last().subscribe(sink);
        })
        .rxrust(|| {
            Local::from_iter(black_box([1, 2])).last().subscribe(sink);
        })
        .not_applicable("futures", "no last combinator");

    g.case("immediate_just(1,2)+skip(1)+subscribe")
        .hand(|| {
            for v in black_box([1, 2]).into_iter().skip(1) {
                sink(v);
            }
        })
        .rx(|| {
            from_iter(black_box([1, 2])).skip(1).subscribe(sink);
        })
        .rxrust(|| {
            Local::from_iter(black_box([1, 2])).skip(1).subscribe(sink);
        })
        .futures(|| drive(stream::iter(black_box([1, 2])).skip(1), sink));

    g.case("immediate_just(1,1,2)+distinct_until_changed()+subscribe")
        .hand(|| {
            let mut last = None;
            for v in black_box([1, 1, 2]) {
                if last != Some(v) {
                    last = Some(v);
                    sink(v);
                }
            }
        })
        .rx(|| {
            from_iter(black_box([1, 1, 2]))
                .distinct_until_changed()
                .subscribe(sink);
        })
        .rxrust(|| {
            Local::from_iter(black_box([1, 1, 2]))
                .distinct_until_changed()
                .subscribe(sink);
        })
        .not_applicable("futures", "no distinct_until_changed combinator");

    g.case("immediate_just(1,2,3)+element_at(1)+subscribe")
        .hand(|| {
            if let Some(v) = black_box([1, 2, 3]).into_iter().nth(1) {
                sink(v);
            }
        })
        .rx(|| {
            from_iter(black_box([1, 2, 3]))
                .element_at(1)
                .subscribe(sink);
        })
        .not_applicable("rxrust", "rxRust has no element_at operator")
        .not_applicable("futures", "no element_at combinator");
    g.finish();
}

pub fn utility(c: &mut Criterion) {
    let mut g = Group::new(c, "Utility Operators");
    g.case("immediate_just(1)+subscribe_on(immediate)+subscribe")
        .hand(|| sink(black_box(1)))
        .rx(|| {
            just(black_box(1)).subscribe_on(Immediate).subscribe(sink);
        })
        .note("the immediate scheduler of peers.rs, as rxRust's docs show how to write one")
        .rxrust(|| {
            RxRustImmediate::of(black_box(1))
                .subscribe_on(ImmediateScheduler)
                .subscribe(sink);
        })
        .not_applicable("futures", "no scheduler to name");
    g.finish();
}

pub fn aggregating(c: &mut Criterion) {
    let mut g = Group::new(c, "Aggregating Operators");
    g.case("immediate_just+reduce(10, std::plus)+subscribe")
        .hand(|| sink([black_box(1)].into_iter().fold(10, |acc, v| acc + v)))
        .rx(|| {
            just(black_box(1))
                .reduce(10, |acc, v| acc + v)
                .subscribe(sink);
        })
        .rxrust(|| {
            Local::of(black_box(1))
                .reduce_initial(10, |acc, v| acc + v)
                .subscribe(sink);
        })
        .note("StreamExt::fold")
        .futures(|| {
            sink(ready(
                stream::iter([black_box(1)]).fold(10, |acc, v| future::ready(acc + v)),
            ))
        });
    g.finish();
}

pub fn error_handling(c: &mut Criterion) {
    let mut g = Group::new(c, "Error Handling Operators");

    type BoxError = Box<dyn std::error::Error + Send + Sync>;

    g.case(
        "create(on_next(1), on_error())+on_error_resume_next(immediate_just(2)))+subscribe",
    )
    .hand(|| {
        // The error is made inside the op, as RPP's exception_ptr is.
        let source = |next: &mut dyn FnMut(i32)| -> Result<(), BoxError> {
            next(black_box(1));
            Err(BoxError::from(""))
        };
        if let Err(error) = source(&mut sink) {
            drop(black_box(error));
            sink(black_box(2));
        }
    })
    .rx(|| {
        create(|mut emitter| {
            emitter.on_next(black_box(1));
            emitter.on_error(rx::Error::msg(""));
        })
        .on_error_resume_next(|_| just(black_box(2)))
        .subscribe(sink);
    })
    .not_applicable(
        "rxrust",
        "rxRust has no on_error_resume_next (nor catch_error): on_error only consumes the error",
    )
    .not_applicable("futures", "a Stream has no error channel to resume from");

    // RPP's error is an empty exception_ptr, which costs nothing to make: here it is made once,
    // outside the op, and each op clones it (one reference-count increment).
    let error = rx::Error::msg("");
    let hand_error: std::sync::Arc<dyn std::error::Error + Send + Sync> =
        std::sync::Arc::from(BoxError::from(""));
    g.case("create(on_error())+retry(1)+subscribe")
        .hand(|| {
            // Subscribed twice: the first attempt and one retry.
            let source = || -> Result<i32, _> { Err(hand_error.clone()) };
            let mut outcome = source();
            if outcome.is_err() {
                outcome = source();
            }
            if let Err(error) = outcome {
                sink(error);
            }
        })
        .rx(|| {
            create::<i32, _>(|emitter| emitter.on_error(error.clone()))
                .retry(1)
                .subscribe_with(|_| {}, sink, || {});
        })
        .note(
            "the error type is () (rxRust's errors are any type), so it costs nothing; rxRust \
             resubscribes through its scheduler, so this runs on the immediate scheduler of \
             peers.rs (on Local it needs a tokio LocalSet)",
        )
        .rxrust(|| {
            RxRustImmediate::create::<i32, (), _, _>(|emitter| emitter.error(()))
                .retry(1)
                .on_error(sink)
                .subscribe(|_| {});
        })
        .not_applicable("futures", "a Stream cannot be resubscribed");

    g.case("create(on_error())+retry_when(immediate_just)+subscribe")
        .hand(|| {
            // Subscribed twice: the first attempt and one retry; the second error asks the
            // notifier again, which completes empty: the sequence completes.
            let source = || -> Result<i32, _> { Err(hand_error.clone()) };
            let mut attempt = 0u32;
            while let Err(error) = source() {
                attempt += 1;
                if black_box(attempt) > 1 {
                    sink(error);
                    break;
                }
            }
        })
        .rx(|| {
            create::<i32, _>(|emitter| emitter.on_error(error.clone()))
                .retry_when(|error, attempt| {
                    black_box(error);
                    from_iter((black_box(attempt) == 1).then_some(()))
                })
                .subscribe_with(|_| {}, sink, || {});
        })
        .note(
            "a RetryPolicy that retries once, at once: rxRust's form of a retry decided per \
             error; it ends with the error where retry_when completes",
        )
        .rxrust(|| {
            RxRustImmediate::create::<i32, (), _, _>(|emitter| emitter.error(()))
                .retry(RetryOnce)
                .on_error(sink)
                .subscribe(|_| {});
        })
        .not_applicable("futures", "a Stream cannot be resubscribed");
    g.finish();
}

/// A retry policy decided per error, as `retry_when`'s closure is: once, without delay.
#[derive(Clone)]
struct RetryOnce;

impl rxrust::ops::retry::RetryPolicy<()> for RetryOnce {
    fn should_retry(&self, error: &(), attempt: usize) -> Option<rxrust::scheduler::Duration> {
        black_box(error);
        (black_box(attempt) == 0).then_some(rxrust::scheduler::Duration::ZERO)
    }
}
