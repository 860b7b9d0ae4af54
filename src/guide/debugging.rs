//! # Debugging a pipeline: spy, record, replay
//!
//! A pipeline that misbehaves in production rarely does so in a unit test, because the test
//! does not have production's timing. This chapter follows one bug from the symptom to the
//! fix: [`spy_with`](crate::ObservableExt::spy_with) (or
//! [`spy`](crate::ObservableExt::spy) with `tracing`) shows what passes each point, a
//! [`Recorder`](crate::testing::marbles::Recorder) turns what passed into a marble diagram,
//! and the diagram becomes a test that fails, then passes.
//!
//! ## The symptom
//!
//! A service prices orders: each order id goes to a lookup that answers 30 ms later. Orders
//! arrive at 10, 50 and 60 ms; the customers of order 2 never get a price. Here the live
//! system runs on a [`TestScheduler`](crate::schedulers::TestScheduler), so that the chapter's
//! examples are exact; in production the same code runs on a thread scheduler or on tokio.
//!
//! ```
//! use rx::Notification::{Completed, Next};
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::{cold, TestObserver};
//! use std::time::Duration;
//!
//! let ms = Duration::from_millis;
//! let sch = TestScheduler::new();
//! let orders = cold(&sch, [(ms(10), Next(1)), (ms(50), Next(2)), (ms(60), Next(3)), (ms(100), Completed)]);
//! let s = sch.clone();
//! let price = move |id: u32| rx::source::timer(ms(30), s.clone()).map(move |_| id * 100);
//!
//! let answers = TestObserver::new();
//! orders.switch_map(price).subscribe_observer(answers.clone());
//! sch.run();
//! answers.assert_values(&[100, 300]); // order 2 is missing
//! answers.assert_completed();
//! ```
//!
//! ## Step 1: spy on the points around the suspect
//!
//! [`spy_with`](crate::ObservableExt::spy_with) names a point and reports every subscription,
//! value, error, completion and disposal passing it, before passing it on. Put one on the
//! orders, one on each lookup, and one on the answers, and print what they see. The closure
//! gets a [`SpyEvent`](crate::operators::SpyEvent): its label, the subscription's number, the
//! thread, the time since that subscription, and the point's counts. Here the log takes its
//! times from the scheduler's clock, to be the same on every run.
//!
//! ```
//! use rx::Notification::{Completed, Next};
//! use rx::operators::{SpyEvent, SpyKind};
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::cold;
//! use std::fmt::Debug;
//! use std::sync::{Arc, Mutex};
//! use std::time::Duration;
//!
//! let ms = Duration::from_millis;
//! let sch = TestScheduler::new();
//! let log = Arc::new(Mutex::new(Vec::new()));
//! // One closure shape for every point: "time label what".
//! fn printer<T: Debug>(
//!     sch: TestScheduler,
//!     log: Arc<Mutex<Vec<String>>>,
//! ) -> impl Fn(&SpyEvent<'_, T>) + Send + Sync + 'static {
//!     move |event| {
//!         let what = match event.kind() {
//!             SpyKind::Subscribed => "subscribed".to_string(),
//!             SpyKind::Next(v) => format!("next {v:?}"),
//!             SpyKind::Error(e) => format!("error {e}"),
//!             SpyKind::Completed => "completed".to_string(),
//!             SpyKind::Disposed => "disposed".to_string(),
//!             _ => "?".to_string(),
//!         };
//!         let line = format!("{:<5} {:<8} {what}", format!("{:?}", sch.elapsed()), event.label());
//!         log.lock().unwrap().push(line);
//!     }
//! }
//!
//! let orders = cold(&sch, [(ms(10), Next(1)), (ms(50), Next(2)), (ms(60), Next(3)), (ms(100), Completed)]);
//! let (s, l) = (sch.clone(), log.clone());
//! let lookups = move |id: u32| {
//!     rx::source::timer(ms(30), s.clone())
//!         .map(move |_| id * 100)
//!         .spy_with(format!("lookup {id}"), printer(s.clone(), l.clone()))
//! };
//! let answers = orders
//!     .spy_with("orders", printer(sch.clone(), log.clone()))
//!     .switch_map(lookups)
//!     .spy_with("answers", printer(sch.clone(), log.clone()));
//! let counts = answers.counts();
//! answers.subscribe(|_| {});
//! sch.run();
//!
//! let log = log.lock().unwrap();
//! assert_eq!(log.join("\n"), "\
//! 0ns   answers  subscribed
//! 0ns   orders   subscribed
//! 10ms  orders   next 1
//! 10ms  lookup 1 subscribed
//! 40ms  lookup 1 next 100
//! 40ms  answers  next 100
//! 40ms  lookup 1 completed
//! 50ms  orders   next 2
//! 50ms  lookup 2 subscribed
//! 60ms  orders   next 3
//! 60ms  lookup 2 disposed
//! 60ms  lookup 3 subscribed
//! 90ms  lookup 3 next 300
//! 90ms  answers  next 300
//! 90ms  lookup 3 completed
//! 100ms orders   completed
//! 100ms answers  completed");
//! assert_eq!((counts.values(), counts.completions()), (2, 1));
//! ```
//!
//! `lookup 2 disposed` at 60 ms, when order 3 arrives: `switch_map` lets go of the lookup in
//! flight each time a new order comes. That is what `switch_map` is for where only the
//! latest answer matters (search as you type), and the bug here, where every answer does.
//!
//! With the `tracing` feature, [`spy`](crate::ObservableExt::spy) says the same through
//! `tracing`, with no closure to write: a span `spy{label=.. subscription=..}` per
//! subscription, and in it one event per notification, with the thread, the time since the
//! subscription, and the point's counts as fields (`values`, `errors`, `completions`,
//! `live`). tracing-subscriber's `fmt()` writes lines such as
//!
//! ```text
//! DEBUG spy{label=lookup 2 subscription=1}: rx::operators::spy: event="subscribed" thread=main (ThreadId(1)) elapsed=1.1µs values=0 errors=0 completions=0 live=1
//! DEBUG spy{label=lookup 2 subscription=1}: rx::operators::spy: event="disposed" thread=main (ThreadId(1)) elapsed=10.2ms values=0 errors=0 completions=0 live=0
//! ```
//!
//! Without the feature, `spy` is its source, unchanged, so it may stay in the code. Values
//! are at level TRACE, the rest at DEBUG. At a thread boundary made with
//! [`observe_on_bounded`](crate::ObservableExt::observe_on_bounded) or
//! [`merge_bounded`](crate::source::merge_bounded), the handle already counts the queue: read
//! [`queued`](crate::operators::ObserveOnBoundedSubscription::queued) and
//! [`peak_queued`](crate::operators::ObserveOnBoundedSubscription::peak_queued), or call
//! `trace_queue(label)` to log them.
//!
//! ## Step 2: record the incident as a marble diagram
//!
//! A [`Recorder`](crate::testing::marbles::Recorder) keeps what passes a point, with its time,
//! and draws it in the marble kit's syntax at the frame length you choose, with a legend for
//! the values. On a live system it reads the wall clock (`Recorder::new()`); here, the
//! scheduler's. Frame zero is the first subscription; times go to the nearest frame.
//!
//! ```
//! use rx::Notification::{Completed, Next};
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::cold;
//! use rx::testing::marbles::Recorder;
//! use std::time::Duration;
//!
//! let ms = Duration::from_millis;
//! let sch = TestScheduler::new();
//! let (orders_seen, answers_seen) = (Recorder::with_clock(&sch), Recorder::with_clock(&sch));
//! let orders = cold(&sch, [(ms(10), Next(1)), (ms(50), Next(2)), (ms(60), Next(3)), (ms(100), Completed)]);
//! let s = sch.clone();
//! orders
//!     .spy_with("orders", orders_seen.spy())
//!     .switch_map(move |id: u32| rx::source::timer(ms(30), s.clone()).map(move |_| id * 100))
//!     .spy_with("answers", answers_seen.spy())
//!     .subscribe(|_| {});
//! sch.run();
//!
//! assert_eq!(orders_seen.render(ms(10)).to_string(), "\
//! // `orders`, recorded with one frame = 10ms
//! let values = [('a', 1), ('b', 2), ('c', 3)];
//! let diagram = \"-a---bc---|\";
//! let subscription = \"^---------!\";
//! ");
//! assert_eq!(answers_seen.render(ms(10)).to_string(), "\
//! // `answers`, recorded with one frame = 10ms
//! let values = [('a', 100), ('b', 300)];
//! let diagram = \"----a----b|\";
//! let subscription = \"^---------!\";
//! ");
//! ```
//!
//! The rendered text is Rust: paste it into a test. The diagram reads back to the same
//! notifications at the same frames (a property test of the kit checks it for any timeline);
//! events closer than a frame share a group `(ab)`, and one that falls inside a group's span
//! moves to the first frame after it, the only place a diagram can put it
//! ([`Recording::timeline`](crate::testing::marbles::Recording::timeline) gives the frames
//! exactly).
//!
//! ## Step 3: a marble test that fails
//!
//! The recorded orders become a cold observable, the lookup a timer on the marble clock, and
//! the expectation is what the customers should have had: every price, each 30 ms after its
//! order.
//!
//! ```should_panic
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::marbles::Marbles;
//! use std::time::Duration;
//!
//! let ms = Duration::from_millis;
//! let sch = TestScheduler::new();
//! let m = Marbles::with_frame(&sch, ms(10));
//! let values = [('a', 1), ('b', 2), ('c', 3)];
//! let orders = m.cold_with("-a---bc---|", values);
//! let s = sch.clone();
//! let prices = orders.switch_map(move |id| rx::source::timer(ms(30), s.clone()).map(move |_| id * 100));
//! m.expect(prices).to_be_with("----x---yz|", [('x', 100), ('y', 200), ('z', 300)]);
//! ```
//!
//! It fails as the incident did, and says where:
//!
//! ```text
//! marble diagrams differ (one frame is 10ms)
//! expected: ----x---yz|
//! actual:   ----x----z|
//!                   ^ expected value 200 at frame 8, got value 300 at frame 9
//! ```
//!
//! ## Step 4: the fix
//!
//! Every answer matters, and the lookups are independent: `flat_map` keeps each one
//! (`concat_map` would too, one after the other, 30 ms later each). The same test passes:
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::marbles::Marbles;
//! use std::time::Duration;
//!
//! let ms = Duration::from_millis;
//! let sch = TestScheduler::new();
//! let m = Marbles::with_frame(&sch, ms(10));
//! let orders = m.cold_with("-a---bc---|", [('a', 1), ('b', 2), ('c', 3)]);
//! let s = sch.clone();
//! let prices = orders
//!     .clone()
//!     .flat_map(move |id| rx::source::timer(ms(30), s.clone()).map(move |_| id * 100));
//! m.expect(prices).to_be_with("----x---yz|", [('x', 100), ('y', 200), ('z', 300)]);
//! orders.assert_subscriptions(&["^---------!"]);
//! ```
//!
//! ## The same test over the real `async fn`
//!
//! In production the lookup is an `async fn` that awaits tokio. With the `tokio` feature,
//! [`Marbles::on_tokio`](crate::testing::marbles::Marbles) moves tokio's paused clock in step
//! with the diagram's, so the test can keep the real function, its `tokio::time::sleep`
//! included, and still assert exact frames, in virtual time: this one runs in about a
//! millisecond.
//!
#![cfg_attr(feature = "tokio", doc = "```")]
#![cfg_attr(not(feature = "tokio"), doc = "```ignore")]
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::marbles::Marbles;
//! use std::time::Duration;
//!
//! async fn price(id: u32) -> u32 {
//!     tokio::time::sleep(Duration::from_millis(30)).await; // the remote call
//!     id * 100
//! }
//!
//! let runtime = tokio::runtime::Builder::new_current_thread()
//!     .enable_time()
//!     .start_paused(true)
//!     .build()
//!     .unwrap();
//! let sch = TestScheduler::new();
//! let m = Marbles::with_frame(&sch, Duration::from_millis(10)).on_tokio(runtime);
//! let orders = m.cold_with("-a---bc---|", [('a', 1), ('b', 2), ('c', 3)]);
//! let s = sch.clone();
//! let prices = orders.flat_map(move |id| rx::source::from_future(price(id), s.clone()));
//! m.expect(prices).to_be_with("----x---yz|", [('x', 100), ('y', 200), ('z', 300)]);
//! ```
//!
//! What this cannot test: tokio's timers have millisecond resolution, so frames shorter
//! than a millisecond, or sleeps that are not whole milliseconds, land on the next
//! millisecond; code that blocks a thread waiting for another thread, or a runtime other
//! than the current-thread one the context owns, is outside the clock's reach; and the
//! clocks move a millisecond at a time, so a test that waits minutes of virtual time takes
//! seconds of real time (see [`on_tokio`](crate::testing::marbles::Marbles)).
//!
//! Next: [the performance model](super::performance).
