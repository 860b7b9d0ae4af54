//! The instruction-count regression gate: about twenty hot cases of the suite, each run under
//! `valgrind --tool=callgrind`, their instructions per op compared with a committed budget.
//!
//! Instruction counts do not depend on the machine's load, so the gate does not flake where
//! criterion's times would. Built only with the `gate` feature, so the default build and
//! `cargo test` never compile it; `.ci/callgrind-gate` builds and runs it:
//!
//! ```text
//! callgrind-gate check  [budget-file]   # fails when a case grew by more than 10%
//! callgrind-gate record [budget-file]   # writes the budget file from the current counts
//! callgrind-gate run CASE ITERS         # one case, ITERS ops (what valgrind runs)
//! callgrind-gate list                   # the cases
//! ```
//!
//! Each case runs one op first, outside the count (thread-locals, lazy statics, the
//! trampoline's buffer), then `ITERS` ops inside [`measured`], the only function callgrind
//! collects in (`--collect-atstart=no --toggle-collect`): the count is of the ops alone.

use rx::prelude::*;
use rx::schedulers::{CurrentThread, Immediate, Reschedule, RunLoop, Scheduler, Worker};
use rx::source::{concat, create, from_iter, interval, just, never};
use rx::subjects::local;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

/// How much a case may grow over its budget before the gate fails.
const TOLERANCE: f64 = 0.10;

/// Ops per case under valgrind: enough that the per-op count is exact to a fraction of an
/// instruction, few enough that the ten cases take seconds.
const ITERS: u64 = 2_000;

/// The cases: a short id (the budget file's key) and RPP's name for the case.
const CASES: [(&str, &str); 33] = [
    (
        "merge_with",
        "immediate_just(1) + merge_with(immediate_just(2)) + subscribe",
    ),
    (
        "flat_map",
        "immediate_just+flat_map(immediate_just(v*2))+subscribe",
    ),
    (
        "zip",
        "immediate_just(1) + zip(immediate_just(2)) + subscribe",
    ),
    (
        "switch_on_next",
        "immediate_just(immediate_just(1),immediate_just(1)) + switch_on_next() + subscribe",
    ),
    (
        "subject_on_next",
        "publish_subject with 1 observer - on_next (thread-safe)",
    ),
    (
        "subject_local_on_next",
        "publish_subject with 1 observer - on_next",
    ),
    (
        "subject_100x100",
        "100 on_next to 100 observers to publish_subject (thread-safe)",
    ),
    (
        "subject_local_100x100",
        "100 on_next to 100 observers to publish_subject",
    ),
    (
        "current_thread_schedule",
        "current_thread scheduler create worker + schedule + recursive schedule",
    ),
    (
        "interval_take3",
        "interval - interval + take(3) + subscribe + current_thread",
    ),
    ("retry", "create(on_error())+retry(1)+subscribe"),
    (
        "concat",
        "concat_as_source of just(1 immediate) create + subscribe",
    ),
    (
        "map_chain_20",
        "single disposable and looooooong indentity chain",
    ),
    (
        "current_thread_schedule_once",
        "current_thread scheduler create worker + schedule",
    ),
    (
        "from_array_current_thread",
        "from array of 1 - create + subscribe + current_thread",
    ),
    (
        "interval_take3_immediate",
        "interval - interval + take(3) + subscribe + immediate",
    ),
    ("take_last_1", "immediate_just+take_last(1)+subscribe"),
    ("buffer_2", "immediate_just+buffer(2)+subscribe"),
    (
        "merge",
        "immediate_just(immediate_just(1), immediate_just(1)) + merge() + subscribe",
    ),
    (
        "with_latest_from",
        "immediate_just(1) + with_latest_from(immediate_just(2)) + subscribe",
    ),
    (
        "combine_latest",
        "immediate_just(1) + combine_latest(immediate_just(2)) + subscribe",
    ),
    (
        "take_until",
        "immediate_just(1) + take_until(never()) + subscribe",
    ),
    (
        "group_by_local",
        "local publish_subject + group_by(v % 2), both groups subscribed + 100 on_next",
    ),
    (
        "group_by_shared",
        "publish_subject + group_by(v % 2), both groups subscribed + 100 on_next",
    ),
    (
        "combine_latest_all",
        "combine_latest_all(immediate_just(1), immediate_just(2)) + subscribe",
    ),
    (
        "retry_when",
        "create(on_error())+retry_when(immediate_just)+subscribe",
    ),
    (
        "mix_operators",
        "mix operators with disposables and without disposables (thread-safe)",
    ),
    (
        "mix_operators_local",
        "mix operators with disposables and without disposables",
    ),
    (
        "merge_with_local_subject",
        "local publish_subject + merge_with(immediate_just(1)) + subscribe + on_next + on_completed",
    ),
    (
        "subscribe_on_immediate",
        "immediate_just(1)+subscribe_on(immediate)+subscribe",
    ),
    ("basic_sample", "basic sample"),
    (
        "basic_sample_immediate",
        "basic sample with immediate scheduler",
    ),
    (
        "observe_on_100",
        "from_iter(0..100) + observe_on(run_loop) + subscribe + run_until_idle",
    ),
];

fn sink<T>(value: T) {
    black_box(value);
}

/// The ops callgrind counts: the only function it collects in.
#[inline(never)]
fn measured(iters: u64, op: &mut dyn FnMut()) {
    for _ in 0..iters {
        op();
    }
}

fn run_op(iters: u64, mut op: impl FnMut()) {
    op();
    measured(iters, &mut op);
}

fn run_case(case: &str, iters: u64) -> Result<(), String> {
    match case {
        "merge_with" => run_op(iters, || {
            just(black_box(1))
                .merge_with(just(black_box(2)))
                .subscribe(sink);
        }),
        "flat_map" => run_op(iters, || {
            just(black_box(1)).flat_map(|v| just(v * 2)).subscribe(sink);
        }),
        "zip" => run_op(iters, || {
            just(black_box(1)).zip(just(black_box(2))).subscribe(sink);
        }),
        "switch_on_next" => run_op(iters, || {
            let inner = just(black_box(1));
            from_iter([inner.clone(), inner])
                .switch_on_next()
                .subscribe(sink);
        }),
        "subject_on_next" => {
            let subject = rx_benches::subjects::subject_with_one_observer();
            run_op(iters, || subject.on_next(black_box(1)));
        }
        "subject_local_on_next" => {
            let subject = rx_benches::subjects::local_subject_with_one_observer();
            run_op(iters, || subject.on_next(black_box(1)));
        }
        "subject_100x100" => {
            let subject = rx_benches::subjects::subject_with_100_observers();
            run_op(iters, || {
                for v in 0..100 {
                    subject.on_next(black_box(v));
                }
            });
        }
        "subject_local_100x100" => {
            let subject = rx_benches::subjects::local_subject_with_100_observers();
            run_op(iters, || {
                for v in 0..100 {
                    subject.on_next(black_box(v));
                }
            });
        }
        "current_thread_schedule" => {
            let observer = |_: i32| {};
            run_op(iters, || {
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
        }
        "interval_take3" => run_op(iters, || {
            interval(black_box(Duration::ZERO), CurrentThread)
                .take(3)
                .subscribe(sink);
        }),
        "retry" => {
            let error = rx::Error::msg("");
            run_op(iters, || {
                create::<i32, _>(|emitter| emitter.on_error(error.clone()))
                    .retry(1)
                    .subscribe_with(|_| {}, sink, || {});
            })
        }
        "concat" => run_op(iters, || {
            concat([just(black_box(1))]).subscribe(sink);
        }),
        "map_chain_20" => run_op(iters, || {
            create(|mut emitter| {
                emitter.on_next(black_box(1));
                emitter.on_completed();
            })
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .subscribe(sink);
        }),
        "current_thread_schedule_once" => {
            let observer = |_: i32| {};
            run_op(iters, || {
                CurrentThread.worker().schedule(move || {
                    sink(&observer);
                    Reschedule::Done
                });
            })
        }
        "from_array_current_thread" => run_op(iters, || {
            from_iter(black_box([123]))
                .subscribe_on(CurrentThread)
                .subscribe(sink);
        }),
        "interval_take3_immediate" => run_op(iters, || {
            interval(black_box(Duration::ZERO), Immediate)
                .take(3)
                .subscribe(sink);
        }),
        "take_last_1" => run_op(iters, || {
            just(black_box(1)).take_last(1).subscribe(sink);
        }),
        "buffer_2" => run_op(iters, || {
            just(black_box(1)).buffer(2).subscribe(sink);
        }),
        "merge" => run_op(iters, || {
            let inner = just(black_box(1));
            from_iter([inner.clone(), inner]).merge().subscribe(sink);
        }),
        "with_latest_from" => run_op(iters, || {
            just(black_box(1))
                .with_latest_from(just(black_box(2)))
                .subscribe(sink);
        }),
        "combine_latest" => run_op(iters, || {
            just(black_box(1))
                .combine_latest(just(black_box(2)))
                .subscribe(sink);
        }),
        "take_until" => run_op(iters, || {
            just(black_box(1))
                .take_until(never::<i32>())
                .subscribe(sink);
        }),
        "group_by_local" => run_op(iters, || {
            let subject = rx::subjects::local::PublishSubject::new();
            let _handle = subject
                .observable()
                .group_by(|v: &i32| v % 2)
                .subscribe(|group| {
                    let _ = group.subscribe(sink);
                });
            for v in 0..100 {
                subject.on_next(black_box(v));
            }
            subject.on_completed();
        }),
        "group_by_shared" => run_op(iters, || {
            let subject = rx::subjects::PublishSubject::new();
            let _handle = subject
                .observable()
                .group_by(|v: &i32| v % 2)
                .subscribe(|group| {
                    let _ = group.subscribe(sink);
                });
            for v in 0..100 {
                subject.on_next(black_box(v));
            }
            subject.on_completed();
        }),
        "combine_latest_all" => run_op(iters, || {
            rx::source::combine_latest_all(vec![just(black_box(1)), just(black_box(2))])
                .subscribe(sink);
        }),
        "retry_when" => {
            let error = rx::Error::msg("");
            run_op(iters, || {
                create::<i32, _>(|emitter| emitter.on_error(error.clone()))
                    .retry_when(|error, attempt| {
                        black_box(error);
                        from_iter((black_box(attempt) == 1).then_some(()))
                    })
                    .subscribe_with(|_| {}, sink, || {});
            })
        }
        "mix_operators" => run_op(iters, || rx_benches::subjects::mix_operators(sink)),
        "mix_operators_local" => run_op(iters, || rx_benches::subjects::mix_operators_local(sink)),
        "merge_with_local_subject" => run_op(iters, || {
            let subject = local::PublishSubject::<i32>::new();
            subject
                .observable()
                .merge_with(just(black_box(1)))
                .subscribe(sink);
            let mut observer = subject.observer();
            observer.on_next(black_box(2));
            observer.on_completed();
        }),
        "subscribe_on_immediate" => run_op(iters, || {
            just(black_box(1)).subscribe_on(Immediate).subscribe(sink);
        }),
        "basic_sample" => run_op(iters, || rx_benches::subjects::basic_sample(sink)),
        "basic_sample_immediate" => {
            run_op(iters, || rx_benches::subjects::basic_sample_immediate(sink))
        }
        // The hand-off's path without a second thread, so the count is exact: the source
        // queues its 100 values, then the run loop's dispatch on this thread delivers them.
        "observe_on_100" => {
            let run_loop = RunLoop::new();
            run_op(iters, || {
                from_iter(0..black_box(100u64))
                    .observe_on(run_loop.clone())
                    .subscribe(sink);
                run_loop.run_until_idle();
            });
        }
        other => return Err(format!("no case named {other:?}")),
    }
    Ok(())
}

/// Runs one case under callgrind in a child process; its instructions per op.
fn count(case: &str) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = std::env::temp_dir().join(format!("callgrind-gate.{}.{case}", std::process::id()));
    let status = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=*callgrind_gate::measured*",
            "--quiet",
        ])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&exe)
        .args(["run", case, &ITERS.to_string()])
        .status()
        .map_err(|e| format!("could not start valgrind: {e}"))?;
    if !status.success() {
        return Err(format!("{case}: valgrind exited with {status}"));
    }
    let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let _ = std::fs::remove_file(&out);
    let total = text
        .lines()
        .find_map(|line| {
            line.strip_prefix("totals:")
                .or(line.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .ok_or_else(|| format!("{case}: no totals in callgrind's output"))?;
    if total == 0 {
        return Err(format!(
            "{case}: nothing collected (was `measured` inlined?)"
        ));
    }
    Ok(total as f64 / ITERS as f64)
}

fn default_budget() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("callgrind-budget.txt")
}

/// The budget file: `id instructions-per-op` per line; `#` starts a comment.
fn read_budget(path: &Path) -> Result<Vec<(String, f64)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let mut fields = line.split_whitespace();
            let id = fields.next().unwrap_or_default().to_owned();
            let budget = fields
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{}: bad line {line:?}", path.display()))?;
            Ok((id, budget))
        })
        .collect()
}

fn record(path: &Path) -> Result<(), String> {
    let mut text = String::from(
        "# Instructions per op under callgrind, the budget of .ci/callgrind-gate (which fails\n\
         # when a case grows by more than 10%). Re-record: .ci/callgrind-gate --record\n",
    );
    for (id, name) in CASES {
        let per_op = count(id)?;
        println!("{id:<24} {per_op:>10.1}");
        text.push_str(&format!("{id:<24} {per_op:>10.1}  # {name}\n"));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

fn check(path: &Path) -> Result<bool, String> {
    let budget = read_budget(path)?;
    let mut ok = true;
    println!(
        "{:<24} {:>10} {:>10} {:>8}",
        "case", "budget", "now", "change"
    );
    for (id, _) in CASES {
        let per_op = count(id)?;
        let Some((_, limit)) = budget.iter().find(|(b, _)| b == id) else {
            println!("{id:<24} {:>10} {per_op:>10.1}  no budget: re-record", "-");
            ok = false;
            continue;
        };
        let change = per_op / limit - 1.0;
        let verdict = if change > TOLERANCE { "  FAIL" } else { "" };
        ok &= change <= TOLERANCE;
        println!(
            "{id:<24} {limit:>10.1} {per_op:>10.1} {:>+7.1}%{verdict}",
            change * 100.0
        );
    }
    Ok(ok)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let budget_path = |rest: &[&str]| rest.first().map_or_else(default_budget, PathBuf::from);
    let result = match args.as_slice() {
        ["run", case, iters] => iters
            .parse()
            .map_err(|e| format!("ITERS: {e}"))
            .and_then(|iters| run_case(case, iters))
            .map(|()| true),
        ["list"] => {
            for (id, name) in CASES {
                println!("{id:<24} {name}");
            }
            Ok(true)
        }
        ["record", rest @ ..] => record(&budget_path(rest)).map(|()| true),
        ["check", rest @ ..] => check(&budget_path(rest)),
        _ => Err("usage: callgrind-gate check|record [budget-file] | run CASE ITERS | list".into()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("callgrind-gate: a case grew by more than 10% over its budget");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("callgrind-gate: {e}");
            ExitCode::FAILURE
        }
    }
}
