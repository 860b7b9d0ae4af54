//! # Returning and accepting observables
//!
//! Operators are generic structs, as iterator adapters are: `source.map(f)` is a
//! [`Map<S, F>`](crate::operators::Map). That is what makes a chain cost nothing, and it means
//! that a function that returns or takes an observable has to say which type it is. This
//! chapter shows the ways, from the cheapest.
//!
//! ## Returning: name the type
//!
//! A closure's type has no name, but a function's does: a function item, or a closure that
//! captures nothing, converts to a `fn` pointer, and the whole return type can be written out.
//! No allocation, no virtual call.
//!
//! ```
//! use rx::operators::{Filter, Map};
//! use rx::prelude::*;
//! use rx::source::Range;
//! use rx::testing::TestObserver;
//!
//! /// The squares of the even numbers among the first `count`.
//! fn even_squares(count: usize) -> Map<Filter<Range<i32>, fn(&i32) -> bool>, fn(i32) -> i32> {
//!     rx::source::range(0, count)
//!         .filter((|v: &i32| v % 2 == 0) as fn(&i32) -> bool)
//!         .map((|v: i32| v * v) as fn(i32) -> i32)
//! }
//!
//! let observer = TestObserver::new();
//! even_squares(7).subscribe_observer(observer.clone());
//! observer.assert_values(&[0, 4, 16, 36]);
//! observer.assert_completed();
//! ```
//!
//! The types grow with the chain; a type alias keeps the signature readable (below).
//!
//! ## Returning: box it
//!
//! When the type cannot be named — the closures capture something, or two branches build
//! different chains — erase it: [`boxed`](crate::ObservableExt::boxed) gives a
//! [`BoxedObservable<'a, T>`](crate::BoxedObservable), one type for every observable of `T`.
//! It costs an allocation per subscription and a virtual call per notification, so keep it at
//! API boundaries, not inside hot chains. Leave the lifetime generic: it bounds what the
//! observable borrows *and* the observers it accepts, so callers can still subscribe closures
//! that borrow their locals. Observables that are not `Send` (they capture an `Rc`, say) box
//! with [`boxed_local`](crate::ObservableExt::boxed_local) into a
//! [`LocalBoxedObservable`](crate::LocalBoxedObservable).
//!
//! ```
//! use rx::prelude::*;
//! use rx::BoxedObservable;
//!
//! /// Readings above `threshold`, or every reading.
//! fn readings<'a>(threshold: Option<f64>) -> BoxedObservable<'a, f64> {
//!     let source = rx::source::from_iter([0.5, 2.5, 1.0, 3.5]);
//!     match threshold {
//!         Some(limit) => source.filter(move |v| *v > limit).boxed(),
//!         None => source.boxed(),
//!     }
//! }
//!
//! let mut high = Vec::new();
//! readings(Some(2.0)).subscribe(|v| high.push(v)); // the closure borrows `high`
//! assert_eq!(high, [2.5, 3.5]);
//!
//! let mut all = 0;
//! readings(None).subscribe(|_| all += 1);
//! assert_eq!(all, 4);
//! ```
//!
//! ## Accepting: build on any observable
//!
//! A function that only adds operators takes any `S: Observable` and returns what it builds:
//! the operators ask nothing more of their source until the result is subscribed, and the
//! caller's chain stays one static type.
//!
//! ```
//! use rx::operators::{Map, Scan};
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! /// The sum and the number of the values so far.
//! type Total = (f64, u32);
//! /// What `running_average` returns.
//! type RunningAverage<S> = Map<Scan<S, Total, fn(Total, f64) -> Total>, fn(Total) -> f64>;
//!
//! /// The running average of a sequence of numbers.
//! fn running_average<S>(source: S) -> RunningAverage<S>
//! where
//!     S: Observable<Item = f64>,
//! {
//!     source
//!         .scan((0.0, 0), (|(sum, n), v| (sum + v, n + 1)) as fn(Total, f64) -> Total)
//!         .map((|(sum, n)| sum / f64::from(n)) as fn(Total) -> f64)
//! }
//!
//! let observer = TestObserver::new();
//! running_average(rx::source::from_iter([2.0, 4.0, 9.0])).subscribe_observer(observer.clone());
//! observer.assert_values(&[2.0, 3.0, 5.0]);
//! ```
//!
//! ## Accepting: subscribe to any observable
//!
//! A function that subscribes needs the observable to accept the observer it subscribes:
//! bound `S: Subscribe<YourObserver>`. With an observer type of your own the bound is short,
//! and any pipeline the caller builds fits it. To take observables from anywhere without a
//! type parameter, take a `BoxedObservable`.
//!
//! ```
//! use rx::prelude::*;
//! use std::sync::mpsc;
//!
//! /// Sends each value to a channel, and `None` at the end.
//! struct ToChannel(mpsc::Sender<Option<String>>);
//!
//! impl Observer<String> for ToChannel {
//!     fn on_next(&mut self, value: String) {
//!         let _ = self.0.send(Some(value));
//!     }
//!     fn on_error(self, _: rx::Error) {
//!         let _ = self.0.send(None);
//!     }
//!     fn on_completed(self) {
//!         let _ = self.0.send(None);
//!     }
//! }
//!
//! /// Logs every line of `source`; returns how many there were.
//! fn log_lines<S>(source: S) -> usize
//! where
//!     S: Subscribe<ToChannel> + Observable<Item = String>,
//! {
//!     let (sender, receiver) = mpsc::channel();
//!     source.subscribe_observer(ToChannel(sender));
//!     receiver.iter().map_while(|line| line).inspect(|line| println!("{line}")).count()
//! }
//!
//! let lines = rx::source::from_iter(["a", "b", "c"]).map(str::to_owned);
//! assert_eq!(log_lines(lines), 3);
//! ```
//!
//! Next: [choosing a scheduler](super::schedulers).
