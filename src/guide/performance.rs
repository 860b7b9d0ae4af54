//! # The performance model: what allocates, what locks, what is free
//!
//! rx is built so that a pipeline costs what the same code written by hand costs, and pays
//! for sharing, threads and time only where a pipeline has them. Each operator's
//! documentation has a `# Performance` section with its exact costs; this chapter gives the
//! rules they follow.
//!
//! ## Free: synchronous chains
//!
//! Operators are structs generic over their source and closure, and subscribing wraps the
//! observer in each operator's observer, once, at subscribe time. A chain of synchronous
//! operators over a synchronous source is then one function the optimiser sees through: no
//! allocation, no lock, no atomic operation, no virtual call, and a zero-sized subscription
//! handle. `just(1).map(|v| v * 2).subscribe(f)` compiles to what `f(2)` compiles to.
//!
//! ```
//! use rx::prelude::*;
//! use std::alloc::{GlobalAlloc, Layout, System};
//! use std::sync::atomic::{AtomicUsize, Ordering};
//!
//! /// Counts allocations.
//! struct Counting;
//! static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
//! unsafe impl GlobalAlloc for Counting {
//!     unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
//!         ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
//!         // SAFETY: forwarded unchanged to the system allocator.
//!         unsafe { System.alloc(layout) }
//!     }
//!     unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
//!         // SAFETY: `ptr` came from `alloc` above, with this layout.
//!         unsafe { System.dealloc(ptr, layout) }
//!     }
//! }
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! let before = ALLOCATIONS.load(Ordering::Relaxed);
//! let mut sum = 0;
//! let subscription = rx::source::from_iter(1..=1000)
//!     .filter(|v| v % 3 == 0)
//!     .map(|v| v * 2)
//!     .scan(0, |acc, v| acc + v)
//!     .take_while(|total| *total < 50_000)
//!     .subscribe(|total| sum = total);
//! assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), before, "nothing allocated");
//! assert_eq!(std::mem::size_of_val(&subscription), 0, "a zero-sized handle");
//! assert_eq!(sum, 49_536);
//! ```
//!
//! Operators that keep state per subscription keep it in their observer, on the stack of the
//! subscribing call: `scan`'s accumulator, `take`'s count, `distinct_until_changed`'s last
//! value. They allocate only for what they collect (`buffer`'s `Vec`, `distinct`'s set).
//!
//! ## One allocation per subscription: shared state
//!
//! Where several parties meet — several sources (`merge`, `zip`, `combine_latest`,
//! `flat_map`, `switch_map`, `take_until`), a source and a timer (`debounce`, `timeout`,
//! `sample`), a producer and a consumer on different threads (`observe_on`, `as_blocking`,
//! `into_stream`), a subject and its subscribers — the state they share lives behind one `Arc`,
//! allocated when the pipeline is subscribed. Per value, these take one uncontended lock or a
//! few atomic operations (a subject's `on_next` takes two atomic read-modify-writes and no
//! lock), and never hold a lock while your code runs.
//!
//! | what | allocates | per value |
//! |---|---|---|
//! | synchronous operators (`map`, `filter`, `scan`, `take`, ...) | nothing | a direct call |
//! | combining operators (`merge`, `zip`, `combine_latest`, `flat_map`, ...) | the shared state, per subscription, and a control block once an upstream is still running after its `subscribe`; beyond two such upstreams at once (a `flat_map`'s inners), a map node per eleven | an uncontended lock |
//! | time operators (`debounce`, `throttle`, `delay`, `timeout`, ...) | the shared state, and one scheduler task per subscription or per burst, not per value | a lock |
//! | `observe_on`, `as_blocking`, `into_stream` | the queue between the threads | a lock; the queue grows with what waits |
//! | subjects | the subject; an observer larger than three words is boxed on subscribe (smaller ones are kept in the subject's table) | two atomic operations (none for `subjects::local`), then a call per subscriber: virtual, or direct for a run of subscribers of one type while no handle is kept |
//! | `boxed()` | the observable, and the observer on each subscribe | a virtual call |
//! | schedulers | a task box per scheduled task (reused when the task runs again); `Immediate` nothing | — |
//!
//! ## Queues that grow
//!
//! Rx has no backpressure: a producer pushes when it has values. Where a consumer may be
//! slower than its producer, a queue absorbs the difference, **without bound**: `observe_on`,
//! `as_blocking`, `into_stream`, the merging operators (when values arrive faster than the
//! downstream takes them), the queue of inner observables of `concat_map` and `merge_max`,
//! and a subject's queue of notifications sent while a delivery runs. `observe_on_bounded`
//! and `into_stream_bounded` are the bounded forms: at a [`Bounded`](crate::backpressure::Bounded)
//! capacity they block the producer, drop values, or fail, as RxJava's `onBackpressure*`
//! operators do (see [`backpressure`](crate::backpressure)). Bound the producer
//! (`take`, `sample`, `throttle`, `buffer_with_time`) where the consumer may lag for long.
//!
//! ## Measuring
//!
//! The benchmark suite (`benches/`, under ReactivePlusPlus's case names) runs each case beside
//! rxRust, `futures` streams and hand-written Rust in one criterion run, and counts
//! allocations per operation; the ratio to the hand-written baseline is the figure to steer
//! by. The latest report is [benches/REPORT.md] in the repository.
//!
//! [benches/REPORT.md]: https://github.com/rxkit-rs/rxkit/blob/main/benches/REPORT.md
//!
//! Next: [coming from RxJS, RxJava and RPP](super::coming_from).
