//! # Returning and accepting observables
//!
//! Operators are generic structs, as iterator adapters are: `source.map(f)` is a
//! [`Map<S, F>`](crate::operators::Map). That is what makes a chain cost nothing, and it means
//! that a function that returns or takes an observable has to say which type it is. This
//! chapter shows the ways, from the cheapest; to take *any* observable of `T` in one bound,
//! see [`SubscribeOwned`](#accepting-subscribe-to-any-observable-in-one-bound), and to keep one
//! and subscribe it several times, [storing](#storing-box-it-subscribe-it-several-times).
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
//! ## Accepting: subscribe to any observable, in one bound
//!
//! A function that subscribes what it is given, whatever it is, bounds it by
//! [`SubscribeOwned<T>`](crate::SubscribeOwned) and subscribes a closure with
//! [`subscribe_owned`](crate::SubscribeOwned::subscribe_owned) (or
//! [`subscribe_owned_with`](crate::SubscribeOwned::subscribe_owned_with) for the error and the
//! end). It takes a `BoxedObservable<'static, T>`, a `LocalBoxedObservable`, a chain built in
//! place, one that crosses threads, the result of a function that returns
//! `impl Subscribe<O, Item = T>`, and operators over any of these.
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//! use rx::BoxedObservable;
//! use std::sync::mpsc;
//!
//! /// Everything `source` emits, waiting for its end on whatever thread it comes.
//! fn collect_all(source: impl SubscribeOwned<i32>) -> Vec<i32> {
//!     let (sender, receiver) = mpsc::channel();
//!     source.subscribe_owned(move |v| sender.send(v).unwrap());
//!     // The closure, with the sender, is dropped when the source completes.
//!     receiver.iter().collect()
//! }
//!
//! fn evens<O: Observer<i32>>(limit: usize) -> impl Subscribe<O, Item = i32> {
//!     rx::source::range(0, limit).filter(|v| v % 2 == 0)
//! }
//!
//! let boxed: BoxedObservable<'static, i32> = rx::source::from_iter([1, 2, 3]).boxed();
//! assert_eq!(collect_all(boxed.clone()), [1, 2, 3]);
//! assert_eq!(collect_all(boxed.map(|v| v * 10)), [10, 20, 30]);
//! assert_eq!(collect_all(evens(7).filter(|v| *v > 0)), [2, 4, 6]);
//! let threaded = rx::source::from_iter([4, 5]).subscribe_on(NewThread);
//! assert_eq!(collect_all(threaded), [4, 5]);
//! let local = rx::source::just(std::rc::Rc::new(7)).map(|v| *v).boxed_local();
//! assert_eq!(collect_all(local), [7]);
//! ```
//!
//! Why the closure must own its state: an observable that may deliver later (boxed, or
//! crossing threads or time) keeps its observer after `subscribe` returns, so it cannot be
//! handed one that borrows the caller's stack; and Rust has no binder over types
//! (`for<O> Subscribe<O>`), so a bound that takes every observable has to fix one observer
//! type. That type is [`OwnedObserver<T>`](crate::observer::OwnedObserver), any
//! `Send + 'static` observer behind a box: one allocation per subscribe and a virtual call per
//! value, as `boxed()` costs. Share results through a channel, as above, or an `Arc<Mutex<_>>`;
//! a closure that captures a local by `move` gets its own copy, not the caller's variable.
//!
//! ### Borrowing locals: your own observer, synchronous chains
//!
//! To let the closure borrow, or to pay nothing, name the observer the function subscribes
//! with: bound `S: Subscribe<YourObserver>`. Any synchronous chain the caller builds fits it;
//! an observable that keeps its observer past `subscribe` does not, since the observer
//! borrows.
//!
//! ```
//! use rx::prelude::*;
//!
//! /// Adds every value into a total it borrows.
//! struct AddTo<'a>(&'a mut i64);
//!
//! impl Observer<i64> for AddTo<'_> {
//!     fn on_next(&mut self, value: i64) {
//!         *self.0 += value;
//!     }
//!     fn on_error(self, error: rx::Error) {
//!         panic!("{error}");
//!     }
//!     fn on_completed(self) {}
//! }
//!
//! fn sum<S>(source: S) -> i64
//! where
//!     S: for<'t> Subscribe<AddTo<'t>, Item = i64>,
//! {
//!     let mut total = 0;
//!     source.subscribe_observer(AddTo(&mut total));
//!     total
//! }
//!
//! assert_eq!(sum(rx::source::from_iter(1..=4).map(|v| v * 10)), 100);
//! ```
//!
//! ### What does not fit
//!
//! - **The result of a function that returns `impl Observable<Item = T>`.** That type promises
//!   no `Subscribe` impl at all, so nothing can subscribe it, in any bound: return
//!   `impl Subscribe<O, Item = T>` generic over `O`, or a `BoxedObservable`.
//! - **A closure that borrows locals, given any observable.** Only a synchronous chain can
//!   take one (above); a boxed or threaded observable would keep the borrow past the call.
//! - **A chain that crosses threads with something that is not `Send` in it** (an `Rc`
//!   captured before `subscribe_on`): it does not fit `SubscribeOwned`, nor any bound, since it
//!   cannot be subscribed at all.
//!
//! The compiler's messages for these name the fix; `compile-fail/` in the repository pins
//! them.
//!
//! ## Storing: box it, subscribe it several times
//!
//! To keep an observable in a struct field and subscribe it once per request, box it into a
//! [`BoxedObservable<'static, T>`](crate::BoxedObservable) and clone it for each subscription:
//! a clone costs one allocation and clones what the box holds. A `'static` box may hold a chain
//! that keeps its observer, so it is subscribed with an owned closure, `subscribe_owned`.
//!
//! [`boxed`](crate::ObservableExt::boxed) needs two things of what it boxes, each a named
//! bound whose error says what to do:
//!
//! - **`Clone`** ([`Resubscribable`](crate::operators::Resubscribable)), to subscribe it
//!   again. A chain is `Clone` when its closures are, a closure when what it captures is.
//!   [`boxed_once`](crate::ObservableExt::boxed_once) boxes one that is not, to be subscribed
//!   once.
//! - **`Send`, with a `Send` handle** ([`SendObservable`](crate::operators::SendObservable)).
//!   [`boxed_local`](crate::ObservableExt::boxed_local) boxes one that stays on its thread.
//!
//! A function's result of type `impl Subscribe<O, Item = T>` hides both; write
//! `impl Subscribe<O, Item = T, Subscription: Send> + Clone` to box it.
//!
//! ```
//! use rx::prelude::*;
//! use rx::BoxedObservable;
//! use std::sync::mpsc;
//!
//! fn prices<O>(scale: u32) -> impl Subscribe<O, Item = u32, Subscription: Send> + Clone
//! where
//!     O: Observer<u32>,
//! {
//!     rx::source::from_iter([3, 1, 4]).map(move |v| v * scale)
//! }
//!
//! /// Keeps one pipeline, and runs it once per request.
//! struct Quotes {
//!     prices: BoxedObservable<'static, u32>,
//! }
//!
//! impl Quotes {
//!     fn request(&self) -> Vec<u32> {
//!         let (sender, receiver) = mpsc::channel();
//!         self.prices.clone().subscribe_owned(move |v| sender.send(v).unwrap());
//!         receiver.iter().collect()
//!     }
//! }
//!
//! let quotes = Quotes { prices: prices(100).filter(|v| *v > 100).boxed() };
//! assert_eq!(quotes.request(), [300, 400]);
//! assert_eq!(quotes.request(), [300, 400]);
//!
//! // `retry` and `repeat` subscribe it again by cloning it too.
//! let twice = quotes.prices.clone().repeat(2);
//! let (sender, receiver) = mpsc::channel();
//! twice.subscribe_owned(move |v| sender.send(v).unwrap());
//! assert_eq!(receiver.iter().collect::<Vec<_>>(), [300, 400, 300, 400]);
//! ```
//!
//! Next: [choosing a scheduler](super::schedulers).
