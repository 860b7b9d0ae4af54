//! The subject cases of `benches/subjects.rs`, rx and rxRust in both flavours, one op at a
//! time, for counting what an op costs without a clock: instructions under callgrind (only
//! [`measured`] is collected), and allocations with the counting allocator.
//!
//! ```text
//! cargo run --release -p rx-benches --example subject_counts -- allocs
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*subject_counts::measured*' \
//!     target/release/examples/subject_counts run CASE ITERS
//! ```
//!
//! A case is `LIBRARY/OP`: `rx-local`, `rx-shared`, `rxrust-local` or `rxrust-shared`, and
//! `on_next_1` (one `on_next` to one subscriber), `subscribe_100` (a subject, 100
//! subscriptions and one `on_next`) or `on_next_100x100` (100 `on_next` to 100 subscribers).

use rx::prelude::*;
use rx::subjects::{PublishSubject, local};
use rx_benches::subjects::subscriber;
use rx_benches::{CountingAlloc, count};
use rxrust::prelude::{Local, Observable as _, ObservableFactory as _, Observer as _, Shared};
use std::hint::black_box;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

type NoError = std::convert::Infallible;

const LIBRARIES: [&str; 4] = ["rx-local", "rx-shared", "rxrust-local", "rxrust-shared"];
const OPS: [&str; 3] = ["on_next_1", "subscribe_100", "on_next_100x100"];

/// The ops callgrind counts: the only function it collects in.
#[inline(never)]
fn measured(iters: u64, op: &mut dyn FnMut()) {
    for _ in 0..iters {
        op();
    }
}

fn with_case(library: &str, op: &str, body: &mut dyn FnMut(&mut dyn FnMut())) -> bool {
    match (library, op) {
        ("rx-local", "on_next_1") => {
            let subject = rx_benches::subjects::local_subject_with_one_observer();
            body(&mut || subject.on_next(black_box(1)));
        }
        ("rx-shared", "on_next_1") => {
            let subject = rx_benches::subjects::subject_with_one_observer();
            body(&mut || subject.on_next(black_box(1)));
        }
        ("rxrust-local", "on_next_1") => {
            let mut subject = Local::subject::<i32, NoError>();
            subject.clone().subscribe(subscriber(7));
            body(&mut || subject.next(black_box(1)));
        }
        ("rxrust-shared", "on_next_1") => {
            let mut subject = Shared::subject::<i32, NoError>();
            subject.clone().subscribe(subscriber(7));
            body(&mut || subject.next(black_box(1)));
        }
        ("rx-local", "subscribe_100") => body(&mut || {
            let subject = local::PublishSubject::<i32>::new();
            for k in 0..100 {
                subject.observable().subscribe(subscriber(k));
            }
            subject.on_next(black_box(1));
        }),
        ("rx-shared", "subscribe_100") => body(&mut || {
            let subject = PublishSubject::<i32>::new();
            for k in 0..100 {
                subject.observable().subscribe(subscriber(k));
            }
            subject.on_next(black_box(1));
        }),
        ("rxrust-local", "subscribe_100") => body(&mut || {
            let mut subject = Local::subject::<i32, NoError>();
            for k in 0..100 {
                subject.clone().subscribe(subscriber(k));
            }
            subject.next(black_box(1));
        }),
        ("rxrust-shared", "subscribe_100") => body(&mut || {
            let mut subject = Shared::subject::<i32, NoError>();
            for k in 0..100 {
                subject.clone().subscribe(subscriber(k));
            }
            subject.next(black_box(1));
        }),
        ("rx-local", "on_next_100x100") => {
            let subject = local::PublishSubject::<i32>::new();
            for k in 0..100 {
                subject.observable().subscribe(subscriber(k));
            }
            body(&mut || {
                for i in 0..100 {
                    subject.on_next(black_box(i));
                }
            });
        }
        ("rx-shared", "on_next_100x100") => {
            let subject = PublishSubject::<i32>::new();
            for k in 0..100 {
                subject.observable().subscribe(subscriber(k));
            }
            body(&mut || {
                for i in 0..100 {
                    subject.on_next(black_box(i));
                }
            });
        }
        ("rxrust-local", "on_next_100x100") => {
            let mut subject = Local::subject::<i32, NoError>();
            for k in 0..100 {
                subject.clone().subscribe(subscriber(k));
            }
            body(&mut || {
                for i in 0..100 {
                    subject.next(black_box(i));
                }
            });
        }
        ("rxrust-shared", "on_next_100x100") => {
            let mut subject = Shared::subject::<i32, NoError>();
            for k in 0..100 {
                subject.clone().subscribe(subscriber(k));
            }
            body(&mut || {
                for i in 0..100 {
                    subject.next(black_box(i));
                }
            });
        }
        _ => return false,
    }
    true
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["run", case, iters] => {
            let iters: u64 = iters.parse().expect("ITERS is a number");
            let (library, op) = case.split_once('/').expect("a case is LIBRARY/OP");
            let found = with_case(library, op, &mut |op| {
                op();
                measured(iters, op);
            });
            assert!(found, "no case named {case:?}");
        }
        ["allocs"] => {
            const ITERS: u64 = 1_000;
            println!("{:<32} {:>12} {:>12}", "case", "allocs/op", "bytes/op");
            for op in OPS {
                for library in LIBRARIES {
                    with_case(library, op, &mut |f| {
                        f();
                        let ((), delta) = count(|| (0..ITERS).for_each(|_| f()));
                        println!(
                            "{:<32} {:>12.2} {:>12.1}",
                            format!("{library}/{op}"),
                            delta.allocations as f64 / ITERS as f64,
                            delta.bytes as f64 / ITERS as f64
                        );
                    });
                }
            }
        }
        ["list"] => {
            for op in OPS {
                for library in LIBRARIES {
                    println!("{library}/{op}");
                }
            }
        }
        _ => {
            eprintln!("usage: subject_counts run LIBRARY/OP ITERS | allocs | list");
            std::process::exit(2);
        }
    }
}
