//! # Testing: `TestObserver`, `TestScheduler` and marble diagrams
//!
//! The test kit in [`rx::testing`](crate::testing) is public: test your pipelines the way
//! the library tests its operators, exactly and without sleeping.
//!
//! ## Recording: `TestObserver`
//!
//! A [`TestObserver`](crate::testing::TestObserver) records what it receives; subscribe a
//! clone and assert on the original. It also checks the Rx rules as it goes
//! ([`assert_rules`](crate::testing::TestObserver::assert_rules)).
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//! use rx::Notification::{Completed, Next};
//!
//! let observer = TestObserver::new();
//! rx::source::from_iter([3, 1, 2]).to_vec().subscribe_observer(observer.clone());
//! observer.assert_notifications(&[Next(vec![3, 1, 2]), Completed]);
//!
//! let failing = TestObserver::new();
//! rx::source::from_iter(["7", "x"])
//!     .try_map(str::parse::<u8>)
//!     .subscribe_observer(failing.clone());
//! failing.assert_values(&[7]);
//! failing.assert_error("invalid digit found in string");
//! ```
//!
//! ## Virtual time: `TestScheduler`
//!
//! Give time operators a [`TestScheduler`](crate::schedulers::TestScheduler) instead of a
//! real scheduler, and time passes only when the test says so:
//! [`advance_by`](crate::schedulers::TestScheduler::advance_by) runs everything due within
//! the next stretch of virtual time, [`run`](crate::schedulers::TestScheduler::run) runs until
//! nothing is left. A [`TimedObserver`](crate::testing::TimedObserver) records *when* each
//! notification arrived, and [`cold`](crate::testing::cold) plays a timed script.
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::{cold, TimedObserver};
//! use rx::Notification::{Completed, Next};
//! use std::time::Duration;
//!
//! let ms = Duration::from_millis;
//! let scheduler = TestScheduler::new();
//! let keystrokes = cold(
//!     &scheduler,
//!     [(ms(0), Next("r")), (ms(40), Next("rx")), (ms(300), Next("rx!")), (ms(310), Completed)],
//! );
//! let observer = TimedObserver::new(&scheduler);
//! keystrokes
//!     .debounce(ms(100), scheduler.clone())
//!     .subscribe_observer(observer.clone());
//! scheduler.run(); // 310 ms of virtual time, in no time
//! observer.assert_timeline(&[
//!     (ms(140), Next("rx")),  // 100 ms after the last keystroke of the burst
//!     (ms(310), Next("rx!")), // flushed by the completion
//!     (ms(310), Completed),
//! ]);
//! ```
//!
//! ## Marble diagrams
//!
//! [`rx::testing::marbles`](crate::testing::marbles) writes both sides as diagrams, as RxJS's
//! marble tests do: each character is one frame of virtual time (1 ms unless the context says
//! otherwise), a letter is a value, `|` completion, `#` an error, `(ab)` a group at one frame.
//! [`cold`](crate::testing::marbles::Marbles::cold) plays its diagram to each subscriber,
//! [`hot`](crate::testing::marbles::Marbles::hot) plays one timeline with `^` at frame zero,
//! and [`expect(..).to_be(..)`](crate::testing::marbles::Marbles::expect) runs the scheduler
//! and compares. A failure draws both diagrams with a caret under the first difference.
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::marbles::Marbles;
//!
//! let sch = TestScheduler::new();
//! let m = Marbles::new(&sch);
//! let numbers = m.cold("-a-b-c-|");
//! let letters = m.hot("--x---y--|");
//! m.expect(numbers.clone().merge_with(letters)).to_be("-axb-cy--|");
//! // The source was subscribed at frame 0 and let go when it completed, at frame 7.
//! numbers.assert_subscriptions(&["^------!"]);
//! ```
//!
//! Values other than characters come from a table (or a closure), and the time operators run
//! on the context's scheduler:
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::marbles::Marbles;
//! use std::time::Duration;
//!
//! let sch = TestScheduler::new();
//! let m = Marbles::new(&sch);
//! let readings = m.cold_with("-a-b---c|", [('a', 1), ('b', 2), ('c', 3)]);
//! m.expect(readings.scan(0, |sum, v| sum + v).throttle(Duration::from_millis(3), sch.clone()))
//!     .to_be_with("-x-----z|", [('x', 1), ('z', 6)]);
//! ```
//!
//! ## Threads in tests
//!
//! Pipelines on real threads are tested by waiting for their end, not by sleeping:
//! [`as_blocking`](crate::ObservableExt::as_blocking) waits for the values, or a channel
//! signalled from [`finally`](crate::ObservableExt::finally) (see
//! [threads](super::threads#serialised-delivery)). Bound the waits generously.
//!
//! Next: [async interop](super::async_interop).
