//! Allocations of the merge family, counted by a global allocator: how many per subscription,
//! none per value, and nothing left allocated once a subscription has ended and its handle is
//! dropped (every `Arc` freed).
//!
//! Sources that finish inside `subscribe` (`just`, `from_iter`, and `map`, `take`, ... over
//! them) are merged with the operator's state on the stack: no allocation at all. The same
//! values from a source that does not say so ([`Later`]) go through the shared core: one.
//!
//! The counters are per thread, so the tests of this binary may run in parallel; every
//! scenario here runs on one thread (synchronous sources, the virtual-time scheduler and
//! subjects driven by hand).

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::source::{from_iter, just, never};
use rx::subjects::{PublishSubject, local};
use std::time::Duration;

mod support;

use support::alloc::{allocations, live_bytes};

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

/// `source` seen as an observable that may emit later: what a user's own observable is, so
/// its merges take the shared core.
struct Later<S>(S);

impl<S: Observable> Observable for Later<S> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S: Subscribe<O>, O> Subscribe<O> for Later<S> {
    type Subscription = S::Subscription;
    fn subscribe_observer(self, observer: O) -> S::Subscription {
        self.0.subscribe_observer(observer)
    }
}

/// Runs `f` and returns how many allocations it made; asserts that everything it allocated
/// was freed by the time it returned (its results dropped).
fn measure(name: &str, f: impl FnOnce()) -> usize {
    let (before, live) = (allocations(), live_bytes());
    f();
    let made = allocations() - before;
    assert_eq!(live_bytes(), live, "{name}: memory left allocated");
    eprintln!("{name}: {made} allocation(s)");
    made
}

#[test]
fn merge_with_of_two_justs_allocates_nothing() {
    let n = measure("just(1).merge_with(just(2))", || {
        let mut sum = 0;
        let handle = just(1).merge_with(just(2)).subscribe(|v| sum += v);
        assert_eq!(sum, 3);
        assert!(handle.is_disposed());
    });
    assert_eq!(n, 0);
    let n = measure("Later(just(1)).merge_with(just(2))", || {
        let mut sum = 0;
        let handle = Later(just(1)).merge_with(just(2)).subscribe(|v| sum += v);
        assert_eq!(sum, 3);
        assert!(handle.is_disposed());
    });
    assert_eq!(n, 1);
}

#[test]
fn flat_map_of_just_into_just_allocates_nothing() {
    let n = measure("just(1).flat_map(|v| just(v * 2))", || {
        let mut seen = 0;
        just(1).flat_map(|v| just(v * 2)).subscribe(|v| seen = v);
        assert_eq!(seen, 2);
    });
    assert_eq!(n, 0);
    let n = measure("just(1).flat_map(|v| Later(just(v * 2)))", || {
        let mut seen = 0;
        just(1)
            .flat_map(|v| Later(just(v * 2)))
            .subscribe(|v| seen = v);
        assert_eq!(seen, 2);
    });
    assert_eq!(n, 1);
}

#[test]
fn merge_and_switch_on_next_of_justs_allocate_nothing() {
    let inner = just(1);
    let n = measure("from_iter([just(1), just(1)]).merge()", || {
        let mut sum = 0;
        let handle = from_iter([inner.clone(), inner.clone()])
            .merge()
            .subscribe(|v| sum += v);
        assert_eq!(sum, 2);
        assert!(handle.is_disposed());
    });
    assert_eq!(n, 0);
    let n = measure("from_iter([just(1), just(1)]).switch_on_next()", || {
        let mut sum = 0;
        let handle = from_iter([inner.clone(), inner.clone()])
            .switch_on_next()
            .subscribe(|v| sum += v);
        assert_eq!(sum, 2);
        assert!(handle.is_disposed());
    });
    assert_eq!(n, 0);
    let n = measure(
        "Later(from_iter([just(1), just(1)])).switch_on_next()",
        || {
            let mut sum = 0;
            Later(from_iter([inner.clone(), inner.clone()]))
                .switch_on_next()
                .subscribe(|v| sum += v);
            assert_eq!(sum, 2);
        },
    );
    assert_eq!(n, 1);
}

#[test]
fn nothing_is_allocated_per_value_or_per_inner() {
    // Synchronous sources: nothing at all; otherwise the one allocation is the shared state.
    // Neither grows with the values.
    let inline: [(&str, fn()); 7] = [
        ("merge_with, 2 x 10 000 values", || {
            from_iter(0..10_000)
                .merge_with(from_iter(0..10_000))
                .subscribe(|_| {});
        }),
        ("flat_map, 10 000 inners", || {
            from_iter(0..10_000).flat_map(just).subscribe(|_| {});
        }),
        ("merge, 10 000 inners", || {
            from_iter(0..10_000)
                .map(|v| from_iter(0..v % 4))
                .merge()
                .subscribe(|_| {});
        }),
        ("concat, 10 000 inners", || {
            from_iter(0..10_000).map(just).concat().subscribe(|_| {});
        }),
        ("merge_max(2), 10 000 inners", || {
            from_iter(0..10_000)
                .map(just)
                .merge_max(2)
                .subscribe(|_| {});
        }),
        ("switch_map, 10 000 inners", || {
            from_iter(0..10_000)
                .switch_map(|v| from_iter([v, v]))
                .subscribe(|_| {});
        }),
        ("exhaust_map, 10 000 inners", || {
            from_iter(0..10_000).exhaust_map(just).subscribe(|_| {});
        }),
    ];
    for (name, case) in inline {
        assert_eq!(measure(name, case), 0, "{name}");
    }
    let cases: [(&str, fn()); 5] = [
        ("merge_with through the core, 2 x 10 000 values", || {
            Later(from_iter(0..10_000))
                .merge_with(from_iter(0..10_000))
                .subscribe(|_| {});
        }),
        ("flat_map through the core, 10 000 inners", || {
            Later(from_iter(0..10_000)).flat_map(just).subscribe(|_| {});
        }),
        ("switch_map through the core, 10 000 inners", || {
            from_iter(0..10_000)
                .switch_map(|v| Later(from_iter([v, v])))
                .subscribe(|_| {});
        }),
        ("take_until(never), 10 000 values", || {
            from_iter(0..10_000)
                .take_until(never::<()>())
                .subscribe(|_| {});
        }),
        ("skip_until(just), 10 000 values", || {
            from_iter(0..10_000).skip_until(just(())).subscribe(|_| {});
        }),
    ];
    for (name, case) in cases {
        assert_eq!(measure(name, case), 1, "{name}");
    }
    assert_eq!(
        measure("amb_with(never), 10 000 values", || {
            from_iter(0..10_000).amb_with(never()).subscribe(|_| {});
        }),
        1
    );
    assert_eq!(
        measure("source::merge of 3 justs", || {
            rx::source::merge([just(1), just(2), just(3)]).subscribe(|_| {});
        }),
        0
    );
}

#[test]
fn concat_map_allocates_its_state_once_and_nothing_per_value() {
    // The values wait in the engine's queue as they are and the projection lives in the
    // engine's state: one allocation, the shared state, whatever the number of values; none
    // when the sources finish inside `subscribe`.
    for n in [1u64, 10, 10_000] {
        let made = measure(&format!("concat_map, {n} inners"), || {
            let (mut calls, mut sum) = (0u64, 0u64);
            from_iter(0..n)
                .concat_map(|v| {
                    calls += 1;
                    from_iter(0..v % 3)
                })
                .subscribe(|v| sum += v);
            assert_eq!(calls, n);
            assert_eq!(sum, (0..n).map(|v| (0..v % 3).sum::<u64>()).sum());
        });
        assert_eq!(made, 0, "{n} values");
        let made = measure(&format!("concat_map through the core, {n} inners"), || {
            let (mut calls, mut sum) = (0u64, 0u64);
            Later(from_iter(0..n))
                .concat_map(|v| {
                    calls += 1;
                    from_iter(0..v % 3)
                })
                .subscribe(|v| sum += v);
            assert_eq!(calls, n);
            assert_eq!(sum, (0..n).map(|v| (0..v % 3).sum::<u64>()).sum());
        });
        assert_eq!(made, 1, "{n} values");
    }
}

#[test]
fn asynchronous_sources_are_freed_after_completion_and_after_dispose() {
    let ms = Duration::from_millis;
    measure("two timers merged, run to completion", || {
        let sch = TestScheduler::new();
        let handle = rx::source::timer(ms(10), sch.clone())
            .merge_with(rx::source::timer(ms(20), sch.clone()))
            .subscribe(|_| {});
        sch.run();
        assert!(handle.is_disposed());
    });
    measure("two timers merged, disposed before they fire", || {
        let sch = TestScheduler::new();
        let handle = rx::source::timer(ms(10), sch.clone())
            .merge_with(rx::source::timer(ms(20), sch.clone()))
            .subscribe(|_| {});
        handle.dispose();
        sch.run();
    });
    measure("switch_map over timers", || {
        let sch = TestScheduler::new();
        let inner = sch.clone();
        rx::source::interval(ms(10), sch.clone())
            .take(5)
            .switch_map(move |_| rx::source::timer(ms(15), inner.clone()))
            .subscribe(|_| {});
        sch.run();
    });
    measure("concat_map over timers, values queued", || {
        let sch = TestScheduler::new();
        let inner = sch.clone();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let into = seen.clone();
        let handle = from_iter(0..5)
            .concat_map(move |v| rx::source::timer(ms(10), inner.clone()).map(move |_| v))
            .subscribe(move |v| into.lock().unwrap().push(v));
        sch.run();
        assert_eq!(*seen.lock().unwrap(), [0, 1, 2, 3, 4]);
        assert!(handle.is_disposed());
    });
    measure(
        "concat_map over timers, disposed with values queued",
        || {
            let sch = TestScheduler::new();
            let inner = sch.clone();
            let handle = from_iter(0..5)
                .concat_map(move |_| rx::source::timer(ms(10), inner.clone()))
                .subscribe(|_| {});
            handle.dispose();
            sch.run();
        },
    );
    measure("take_until a timer, over an interval", || {
        let sch = TestScheduler::new();
        rx::source::interval(ms(10), sch.clone())
            .take_until(rx::source::timer(ms(35), sch.clone()))
            .subscribe(|_| {});
        sch.advance_by(ms(100));
    });
}

#[test]
fn subjects_are_released_after_completion_error_and_dispose() {
    measure("merge_with of subjects, completed", || {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let handle = a.observable().merge_with(b.observable()).subscribe(|_| {});
        a.observer().on_next(1);
        b.observer().on_next(2);
        a.observer().on_completed();
        b.observer().on_completed();
        assert!(handle.is_disposed());
        assert!(!a.has_observers() && !b.has_observers());
    });
    measure("flat_map of subjects, inner error", || {
        let outer = PublishSubject::new();
        let inners: Vec<_> = (0..3).map(|_| PublishSubject::<i32>::new()).collect();
        let pick = inners.clone();
        let _handle = outer
            .observable()
            .flat_map(move |i: usize| pick[i].observable())
            .subscribe_with(|_| {}, |_| {}, || {});
        for i in 0..3 {
            outer.observer().on_next(i);
        }
        inners[1].observer().on_error(rx::Error::msg("x"));
        assert!(!outer.has_observers());
        assert!(inners.iter().all(|s| !s.has_observers()));
    });
    measure("switch_map of subjects, disposed", || {
        let outer = PublishSubject::new();
        let inners: Vec<_> = (0..3).map(|_| PublishSubject::<i32>::new()).collect();
        let pick = inners.clone();
        let handle = outer
            .observable()
            .switch_map(move |i: usize| pick[i].observable())
            .subscribe(|_| {});
        for i in 0..3 {
            outer.observer().on_next(i);
            assert_eq!(inners.iter().filter(|s| s.has_observers()).count(), 1);
        }
        handle.dispose();
        assert!(!outer.has_observers());
        assert!(inners.iter().all(|s| !s.has_observers()));
    });
    measure(
        "handle dropped without dispose, then the sources complete",
        || {
            let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
            drop(a.observable().merge_with(b.observable()).subscribe(|_| {}));
            a.observer().on_completed();
            b.observer().on_completed();
        },
    );
}

#[test]
fn live_upstreams_cost_the_core_and_one_control_block_and_no_box_or_map_node() {
    // Each subject keeps its subscriber's entry (an allocation for a subscriber that captures
    // something, as the merge's observer does): what the merge adds on top of the same
    // subjects with plain subscribers is the core and the control block, which keeps the
    // handles in place.
    let k = 1;
    let capturing = move |v: i32| {
        std::hint::black_box(v + k);
    };
    let count = |f: &dyn Fn()| {
        let before = allocations();
        f();
        allocations() - before
    };
    let merged = count(&|| {
        let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        a.observable()
            .merge_with(b.observable())
            .subscribe(|_| {})
            .dispose();
    });
    let plain = count(&|| {
        let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::<i32>::new());
        a.observable().subscribe(capturing).dispose();
        b.observable().subscribe(capturing).dispose();
    });
    assert_eq!(merged - plain, 2, "merge_with of two subjects");
    let merged = count(&|| {
        let (a, b) = (
            local::PublishSubject::<i32>::new(),
            local::PublishSubject::new(),
        );
        a.observable()
            .merge_with(b.observable())
            .subscribe(|_| {})
            .dispose();
    });
    let plain = count(&|| {
        let (a, b) = (
            local::PublishSubject::<i32>::new(),
            local::PublishSubject::new(),
        );
        a.observable().subscribe(capturing).dispose();
        b.observable().subscribe(capturing).dispose();
    });
    assert_eq!(merged - plain, 2, "merge_with of two local subjects");
    // A flat_map keeps its outer's handle and its first live inner's in place; the second
    // live inner is the third handle, kept in the map: its box and its node are the two
    // allocations it costs more than the inner after it.
    let with_inners = |n: usize| {
        count(&|| {
            let outer = PublishSubject::<usize>::new();
            let inners: Vec<_> = (0..3).map(|_| PublishSubject::<i32>::new()).collect();
            let handle = outer
                .observable()
                .flat_map(move |i: usize| inners[i].observable())
                .subscribe(|_| {});
            for i in 0..n {
                outer.on_next(i);
            }
            handle.dispose();
        })
    };
    let (one, two, three) = (with_inners(1), with_inners(2), with_inners(3));
    assert_eq!(two - one, three - two + 2, "the second live inner");
}
