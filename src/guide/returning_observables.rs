//! # Returning and accepting observables
//!
//! Operators are generic structs, as iterator adapters are: `source.map(f)` is a
//! [`Map<S, F>`](crate::operators::Map). That is what makes a chain cost nothing, and it means
//! that a function that returns or takes an observable has to say which type it is. This
//! chapter shows the ways, from the cheapest.
//!
//! ## Returning: `impl Subscribe<O, Item = T>`
//!
//! Subscribing is [`Subscribe<O>`](crate::Subscribe), generic over the caller's observer `O`,
//! so a function that returns an observable takes the observer type as a parameter and
//! returns `impl Subscribe<O, Item = T>` (a bare `impl Observable<Item = T>` could have
//! operators added to it, but not be subscribed). The caller never writes `O`: it is inferred
//! from the observer the result is subscribed with. No allocation, no virtual call.
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! /// The squares of the even numbers among the first `count`.
//! fn even_squares<O: Observer<i32>>(count: usize) -> impl Subscribe<O, Item = i32> {
//!     rx::source::range(0, count).filter(|v| v % 2 == 0).map(|v| v * v)
//! }
//!
//! let observer = TestObserver::new();
//! even_squares(7).subscribe_observer(observer.clone());
//! observer.assert_values(&[0, 4, 16, 36]);
//! observer.assert_completed();
//!
//! // Operators apply to the result as to any observable.
//! let mut seen = Vec::new();
//! even_squares(5).map(|v| v + 1).subscribe(|v| seen.push(v));
//! assert_eq!(seen, [1, 5, 17]);
//! ```
//!
//! The subscription handle's type is hidden with the rest; write
//! `impl Subscribe<O, Item = T, Flavour = rx::sync::Shared, Subscription: Send>` when the
//! result is to be merged, zipped or boxed, which need to know whether the handle is `Send`
//! (or `Flavour = rx::sync::Local` when it need not be). An `Observable` implemented by hand
//! says which flavour its handles are: `type Flavour = rx::sync::Shared;` when they are `Send`.
//!
//! ## Returning: name the type
//!
//! To keep an observable in a struct field, or to return one that does not depend on the
//! observer, name its type. A closure's type has no name, but a function's does: a function
//! item, or a closure that captures nothing, converts to a `fn` pointer, and the whole type
//! can be written out. The types grow with the chain; a type alias keeps them readable (see
//! `RunningAverage` below).
//!
//! ```
//! use rx::operators::{Filter, Map};
//! use rx::prelude::*;
//! use rx::source::Range;
//! use rx::testing::TestObserver;
//!
//! /// What `even_squares` returns.
//! type EvenSquares = Map<Filter<Range<i32>, fn(&i32) -> bool>, fn(i32) -> i32>;
//!
//! fn even_squares(count: usize) -> EvenSquares {
//!     rx::source::range(0, count)
//!         .filter((|v: &i32| v % 2 == 0) as fn(&i32) -> bool)
//!         .map((|v: i32| v * v) as fn(i32) -> i32)
//! }
//!
//! let observer = TestObserver::new();
//! even_squares(7).subscribe_observer(observer.clone());
//! observer.assert_values(&[0, 4, 16, 36]);
//! ```
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
//! A function that only adds operators takes any `S: Observable` and returns the operator
//! struct it builds, with `impl FnMut` for the closure: the operators ask nothing more of their
//! source until the result is subscribed, and the caller's chain stays one static type.
//!
//! ```
//! use rx::operators::{Map, Scan};
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! /// The sum and the number of the values so far.
//! type Total = (f64, u32);
//!
//! /// The running average of a sequence of numbers.
//! fn running_average<S>(
//!     source: S,
//! ) -> Map<Scan<S, Total, impl FnMut(Total, f64) -> Total>, impl FnMut(Total) -> f64>
//! where
//!     S: Observable<Item = f64>,
//! {
//!     source
//!         .scan((0.0, 0), |(sum, n), v| (sum + v, n + 1))
//!         .map(|(sum, n)| sum / f64::from(n))
//! }
//!
//! let observer = TestObserver::new();
//! running_average(rx::source::from_iter([2.0, 4.0, 9.0])).subscribe_observer(observer.clone());
//! observer.assert_values(&[2.0, 3.0, 5.0]);
//!
//! // With `fn` pointers instead, the type has a name, here an alias.
//! type RunningAverage<S> = Map<Scan<S, Total, fn(Total, f64) -> Total>, fn(Total) -> f64>;
//!
//! fn running_average_named<S: Observable<Item = f64>>(source: S) -> RunningAverage<S> {
//!     source
//!         .scan((0.0, 0), (|(sum, n), v| (sum + v, n + 1)) as fn(Total, f64) -> Total)
//!         .map((|(sum, n)| sum / f64::from(n)) as fn(Total) -> f64)
//! }
//!
//! let observer = TestObserver::new();
//! running_average_named(rx::source::from_iter([1.0, 3.0])).subscribe_observer(observer.clone());
//! observer.assert_values(&[1.0, 2.0]);
//! ```
//!
//! The two forms do not nest without a box: the closure types of `running_average` name its
//! source type, so `running_average(even_squares(..))`, whose source names the observer, is a
//! type that contains itself. Box one of the two.
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
