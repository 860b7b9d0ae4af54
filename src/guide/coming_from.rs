//! # Coming from RxJS, RxJava and RPP
//!
//! The vocabulary is Rx's, with Rust's naming (`snake_case`, `_with` for the method form of a
//! combining source, `try_` for the fallible form). Where the libraries disagree on behaviour,
//! rx follows RxJava 3 and RxJS 7 where they agree; each difference is listed below.
//!
//! ## Names
//!
//! Methods of [`ObservableExt`](crate::ObservableExt), except the sources
//! ([`rx::source`](crate::source)), subjects and schedulers. The last columns give the names in
//! RxJS, RxJava and ReactivePlusPlus where they differ ("same": the same names as in rx).
//! rustdoc's search knows the RxJS and RxJava names too (`debounceTime`, `flatMap`, ...).
//!
//! | family | rx | RxJS | RxJava | RPP |
//! |---|---|---|---|---|
//! | subscribing | `subscribe`, `subscribe_with` | `subscribe(next)`, `subscribe({ next, error, complete })` | `subscribe(onNext)`, `subscribe(onNext, onError, onComplete)` | `subscribe` |
//! | sources | `just`, `from_iter`, `empty`, `never`, `throw`, `range`, `from_fn`, `defer`, `create`, `create_owned` | `of`, `from`, `EMPTY`, `NEVER`, `throwError`, `new Observable` | `fromIterable`, `error`, `fromCallable`, `create` | `from_iterable`, `error`, `from_callable` |
//! | sources | `concat`, `merge`, `amb`, `zip`, `combine_latest` | `concat`, `merge`, `race`, `zip`, `combineLatest` | `concat`, `merge`, `amb`, `zip`, `combineLatest` | same |
//! | sources | `fork_join`, `fork_join_all`, `combine_latest_all`, `zip_all` | `forkJoin`, `forkJoin([..])`, `combineLatest([..])`, `zip([..])` | `zip(sources, zipper)`, `combineLatest(sources, combiner)`, `zip(Iterable)` | — |
//! | sources | `iif`, `generate` | `iif`, `generate` | `defer` (with a condition), `generate` (with an emitter) | — |
//! | sources | `using` | `using` | `using` (with `eager = false`) | — |
//! | time sources | `timer`, `timer_at`, `interval` | `timer`, `timer(date)`, `interval` | `timer`, `interval` | `timer`, `interval` |
//! | time sources | `interval_after` | `timer(dueTime, period)` | `interval(initialDelay, period)` | — |
//! | async sources | `from_future`, `from_future_result`, `from_stream` | `from(promise)` | `fromCompletionStage`, `fromPublisher` | — |
//! | browser sources | `from_event`, `animation_frames` | `fromEvent`, `animationFrames` | — | — |
//! | transforming | `map`, `try_map`, `filter_map`, `scan`, `buffer`, `buffer_with_skip`, `pairwise`, `flat_map_iter`, `buffer_with` | `map`, `scan`, `bufferCount`, `bufferCount(size, every)`, `pairwise`, `buffer(notifier)` | `map`, `buffer(count, skip)`, `flatMapIterable`, `buffer(boundary)` | `map`, `buffer` |
//! | transforming | `flat_map`, `concat_map`, `switch_map`, `exhaust_map`, `exhaust_all`, `expand`, `group_by`, `window`, `window_with_skip` | `mergeMap`, `concatMap`, `switchMap`, `exhaustMap`, `exhaustAll`, `expand`, `groupBy`, `windowCount`, `windowCount(size, every)` | `flatMap`, `concatMap`, `switchMap`, `groupBy`, `window`, `window(count, skip)` | `flat_map`, `concat_map`, `switch_map`, `group_by`, `window` |
//! | transforming | `group_by_with`, `group_by_until` | `groupBy(key, { element })`, `groupBy(key, { duration })` | `groupBy(key, valueSelector)` | — |
//! | transforming | `try_scan`, `try_flat_map` | `scan`, `mergeMap` (with a callback that throws) | `scan`, `flatMap` (with a callback that throws) | — |
//! | filtering | `filter`, `take`, `take_last`, `take_while`, `skip`, `skip_last`, `skip_while`, `first`, `first_or`, `last`, `last_or`, `element_at`, `distinct`, `distinct_until_changed`, `distinct_until_key_changed`, `ignore_elements`, `default_if_empty` | `takeLast`, `takeWhile`, `skipLast`, `skipWhile`, `first(p, default)`, `last(p, default)`, `elementAt`, `distinctUntilChanged`, `distinctUntilKeyChanged`, `ignoreElements`, `defaultIfEmpty` | `first(default)`, `last(default)`, `elementAtOrError`, `distinctUntilChanged(keySelector)`, `ignoreElements`, `defaultIfEmpty` | `first`, `last`, `element_at` |
//! | filtering | `try_filter`, `find`, `single`, `switch_if_empty`, `partition` | `filter` (with a callback that throws), `find`, `single`, `partition` | `filter(p).firstElement()`, `singleOrError`, `switchIfEmpty` | — |
//! | aggregating | `reduce`, `count`, `sum`, `min`, `max`, `to_vec` | `reduce`, `count`, `min`, `max`, `toArray` | `reduce`, `count`, `toList` | `reduce`, `count`, `sum`, `min`, `max` |
//! | aggregating | `average`, `min_by`, `min_by_key`, `max_by`, `max_by_key`, `collect`, `to_map`, `to_multimap` | `min(comparer)`, `max(comparer)` | `collect`, `toMap`, `toMultimap` | — |
//! | conditional | `all`, `any`, `contains`, `is_empty`, `amb_with` | `every`, `isEmpty`, `raceWith` | `all`, `any`, `contains`, `isEmpty`, `ambWith` | `all`, `any`, `contains`, `is_empty`, `amb` |
//! | conditional | `sequence_equal`, `sequence_equal_by` | `sequenceEqual`, `sequenceEqual(other, comparator)` | `sequenceEqual`, `sequenceEqual(other, isEqual)` | — |
//! | combining | `merge_with`, `merge`, `merge_max`, `concat`, `concat_with`, `start_with`, `end_with`, `switch_on_next`, `zip`, `zip_with`, `combine_latest`, `combine_latest_with`, `with_latest_from`, `with_latest_from_with`, `with_latest_from_all`, `take_until`, `skip_until` | `mergeWith`, `mergeAll`, `mergeAll(concurrent)`, `concatAll`, `concatWith`, `startWith`, `endWith`, `switchAll`, `zipWith`, `combineLatestWith`, `withLatestFrom`, `takeUntil`, `skipUntil` | `mergeWith`, `merge(maxConcurrency)`, `concatWith`, `startWithItem`, `switchOnNext`, `withLatestFrom` | `merge_with`, `concat`, `start_with`, `switch_on_next`, `with_latest_from` |
//! | combining | `start_with_iter`, `end_with_iter` | `startWith(a, b, ..)`, `endWith(a, b, ..)` | `startWithIterable`, `startWithArray`, `concatWith(fromIterable)` | — |
//! | utility | `tap`, `tap_with`, `finally`, `materialize`, `dematerialize`, `timestamp`, `time_interval`, `delay`, `observe_on`, `subscribe_on`, `delay_subscription`, `delay_subscription_until`, `as_blocking`, `boxed`, `boxed_local`, `boxed_once`, `boxed_local_once` | `tap`, `finalize`, `materialize`, `dematerialize`, `timestamp`, `timeInterval`, `delay`, `observeOn`, `subscribeOn`, `delaySubscription` (RxJS 6) | `doOnNext`, `doOnEach`, `doFinally`, `timestamp`, `timeInterval`, `delaySubscription`, `blockingSubscribe`, `blockingIterable` | `tap`, `finally`, `as_blocking`, `as_dynamic` |
//! | utility | `tap_subscribe`, `tap_dispose` | `tap({ subscribe })`, `tap({ unsubscribe })` | `doOnSubscribe`, `doOnDispose` | — |
//! | debugging | `spy`, `spy_with`; `Recorder` (in the marble kit: what passes a `spy_with`, drawn as a diagram) | `tap` with `subscribe` and `unsubscribe` handlers | `doOnEach`, `doOnSubscribe`, `doOnDispose` | `tap` |
//! | time | `debounce`, `throttle`, `throttle_with`, `audit`, `sample`, `sample_with`, `timeout`, `timeout_with`, `buffer_with_time`, `buffer_with_time_or_count` | `debounceTime`, `throttleTime`, `throttleTime(t, s, config)`, `auditTime`, `sampleTime`, `sample(notifier)`, `timeout`, `timeout({ each, with })`, `bufferTime`, `bufferTime(t, null, count)` | `debounce`, `throttleFirst`, `sample`, `sample(sampler)`, `timeout`, `timeout(t, unit, s, fallback)`, `buffer(time)`, `buffer(time, unit, count)` | `debounce`, `throttle`, `timeout` |
//! | time | `take_with_time`, `skip_with_time`, `take_last_with_time`, `skip_last_with_time` | `takeUntil(timer(t))`, `skipUntil(timer(t))` | `take(time)`, `skip(time)`, `takeLast(time)`, `skipLast(time)` | — |
//! | time | `audit_with`, `throttle_when`, `delay_when`, `timeout_when` | `audit(selector)`, `throttle(selector, config)`, `delayWhen`, `timeout({ first, each })` | `delay(itemDelayIndicator)`, `timeout(firstIndicator, itemIndicator)` | — |
//! | transforming | `buffer_when`, `buffer_toggle`, `buffer_with_time_skip` | `bufferWhen`, `bufferToggle`, `bufferTime(span, creationInterval)` | `buffer(supplier)`, `buffer(opening, closing)`, `buffer(timespan, timeskip)` | — |
//! | error handling | `on_error_resume_next`, `on_error_return`, `map_err`, `retry`, `retry_forever`, `repeat`, `repeat_forever` | `catchError`, `retry(count)`, `retry()`, `repeat(count)`, `repeat()` | `onErrorResumeNext`, `onErrorReturn`, `retry(times)`, `retry()`, `repeat(times)`, `repeat()` | `on_error_resume_next`, `retry`, `repeat` |
//! | error handling | `on_error_complete`, `on_error_complete_if`, `retry_with`, `repeat_with`, `retry_when`, `repeat_when`, `retry_with_backoff` | `catchError(() => EMPTY)`, `retry(config)`, `repeat(config)`, `retry({ delay })`, `repeat({ delay })` | `onErrorComplete()`, `onErrorComplete(predicate)`, `retryWhen`, `repeatWhen` | — |
//! | time | `debounce_with`, `delay_until`, `window_with_time` | `debounce(durationSelector)`, `delay(date)`, `windowTime` | `debounce(selector)`, `window(time)` | — |
//! | error handling | `on_error_resume_next`, `on_error_return`, `map_err`, `retry`, `retry_forever`, `repeat`, `repeat_forever` | `catchError`, `retry(count)`, `retry()`, `repeat(count)`, `repeat()` | `onErrorResumeNext`, `onErrorReturn`, `retry(times)`, `retry()`, `repeat(times)`, `repeat()` | `on_error_resume_next`, `retry`, `repeat` |
//! | error handling | `retry_when`, `repeat_when`, `retry_with_backoff` | `retryWhen`, `repeatWhen`, `retry({ count, delay })` | `retryWhen`, `repeatWhen`, `retryWhen` (with `timer`) | — |
//! | multicasting | `publish`, `ref_count`, `share`, `share_with`, `replay`, `share_replay`, `share_replay_retained`, `multicast`, `publish_local`, `replay_local`, `share_local`, `share_replay_local` | `connectable`, `share`, `share(config)`, `shareReplay` (as `share_replay_retained`), `multicast` | `publish`, `refCount`, `share`, `replay`, `replay(n).refCount()` | `publish`, `ref_count`, `share`, `multicast` |
//! | multicasting | `ref_count_min` | — | `refCount(n)` | — |
//! | multicasting | `ref_count_grace` | `share({ resetOnRefCountZero: () => timer(t) })` | `refCount(timeout, unit, scheduler)` | — |
//! | async bridges | `first_value`, `last_value`, `into_stream` | `firstValueFrom`, `lastValueFrom` | `firstOrErrorStage`, `lastOrErrorStage`, `toFlowable` | — |
//! | backpressure | `observe_on_bounded`, `into_stream_bounded`, `merge_bounded` | — | `onBackpressureBuffer`, `onBackpressureDrop`, `onBackpressureLatest`, `onBackpressureBuffer(n, onOverflow, DROP_OLDEST)`, `observeOn(s, delayError, bufferSize)` | — |
//! | subjects | `PublishSubject`, `BehaviorSubject`, `ReplaySubject`, `AsyncSubject` | `Subject`, `BehaviorSubject`, `ReplaySubject`, `AsyncSubject` | same | `publish_subject`, `behavior_subject`, `replay_subject` |
//! | subscriptions | `CompositeSubscription`, `SerialSubscription`, `FlagSubscription` | `Subscription` (its `add` and `remove`) | `CompositeDisposable`, `SerialDisposable` | `composite_disposable` |
//! | schedulers | `Immediate`, `CurrentThread`, `NewThread`, `RunLoop`, `ThreadPool`, `Computational`, `TestScheduler`, `Tokio` | `queueScheduler`, `asyncScheduler`, `TestScheduler` | `Schedulers.trampoline()`, `newThread()`, `computation()`, `from(executor)`, `TestScheduler` | `immediate`, `current_thread`, `new_thread`, `run_loop`, `thread_pool`, `computational` |
//!
//! ## Differences in behaviour
//!
//! **Types and ownership**
//!
//! - **Terminal notifications consume the observer** (`on_error(self)`, `on_completed(self)`):
//!   nothing can reach an observer after its end, checked by the compiler rather than by a
//!   "safe subscriber" wrapper at run time.
//! - **One error type**, [`rx::Error`](crate::Error) (RxJava's `Throwable`, RPP's
//!   `std::exception_ptr`); see [errors](super::errors).
//! - **Panics are not errors.** RxJava and RxJS route an exception thrown in a callback to
//!   `onError`; here a panic unwinds to the caller. Fallible code uses
//!   [`try_map`](crate::ObservableExt::try_map).
//! - **`subscribe(next)` without an error handler panics on an error**, as RxJava's
//!   `OnErrorNotImplementedException` and RPP's rethrow; RxJS reports it asynchronously.
//! - **Dropping a subscription handle does not cancel**, as in every Rx; only
//!   [`dispose`](crate::Subscription::dispose) does. (Dropping the futures of `first_value` and
//!   `last_value`, and the stream of `into_stream`, does dispose, as Rust futures expect.)
//! - **Operators that move work need `Send`**, decided by the compiler from what the closures
//!   capture; see [threads](super::threads).
//! - **Subjects are serialised**: notifications from several threads are delivered one at a
//!   time (RxJava's `toSerialized()`, built in), and the first terminal notification wins.
//! - **No backpressure by default**, as RxJava's `Observable` (not `Flowable`): the queues
//!   of `observe_on`, `as_blocking` and `into_stream` are unbounded. Where a hand-off crosses
//!   threads, `observe_on_bounded` and `into_stream_bounded` bound it with RxJava's
//!   `onBackpressure*` strategies, chosen by [`Overflow`](crate::backpressure::Overflow):
//!   block the producer, drop the newest, drop the oldest, keep the latest, or fail with
//!   `BufferOverflow` (RxJava's `MissingBackpressureException`).
//!
//! **Operators**
//!
//! - [`scan`](crate::ObservableExt::scan) does not emit its seed, as Rx.NET and RxJS; RxJava's
//!   `scan(initialValue, f)` and RPP's `scan(seed, f)` emit it first: add
//!   `start_with(seed)`.
//! - [`reduce`](crate::ObservableExt::reduce) takes a seed, and an empty source emits it, as
//!   RxJava's `reduce(seed, f)` and `Iterator::fold`.
//! - [`take_until`](crate::ObservableExt::take_until): the *completion* of the notifier also
//!   ends the sequence, as in RxJava 3 and RPP; RxJS and Rx.NET ignore it.
//! - [`skip_until`](crate::ObservableExt::skip_until): the completion of the notifier opens the
//!   gate, as in RxJava; RxJS and Rx.NET keep it closed.
//! - [`first`](crate::ObservableExt::first) and [`last`](crate::ObservableExt::last) fail with
//!   `NoElements` on an empty source (RxJava's `firstOrError`, RPP's `first`, RxJS's
//!   `EmptyError`); [`first_or`](crate::ObservableExt::first_or) and
//!   [`last_or`](crate::ObservableExt::last_or) emit a default instead.
//! - [`element_at`](crate::ObservableExt::element_at) fails with `IndexOutOfRange` when the
//!   source is too short, as RPP, Rx.NET, RxJS and RxJava's `elementAtOrError`; RxJava's
//!   `elementAt` completes empty, which `skip(index).take(1)` does.
//! - [`sum`](crate::ObservableExt::sum) of an empty source emits zero, as Rx.NET
//!   (RxJava2Extensions' `sumInt` completes empty). [`min`](crate::ObservableExt::min) and
//!   [`max`](crate::ObservableExt::max) of an empty source complete without a value, as RxJS and
//!   `Iterator::min` (Rx.NET fails); chain `default_if_empty` for a value.
//! - [`buffer`](crate::ObservableExt::buffer) emits the last, shorter buffer at completion, as
//!   RxJava; an error drops it.
//! - [`debounce`](crate::ObservableExt::debounce) emits the value still waiting when the source
//!   completes (RxJava, Rx.NET, RxJS).
//! - [`sample`](crate::ObservableExt::sample) drops the value not sampled yet at completion, as
//!   RxJava's default; Rx.NET emits it at the next tick.
//! - [`delay`](crate::ObservableExt::delay) does not delay an error, which drops the values
//!   still waiting (RxJava's default `delayError = false`, Rx.NET, RxJS).
//! - [`throttle_when`](crate::ObservableExt::throttle_when) and
//!   [`timeout_when`](crate::ObservableExt::timeout_when) call their selector with a value
//!   before they deliver it, where RxJS and RxJava deliver it first: the value moves
//!   downstream, and cloning it only to order the two calls would cost every value.
//! - [`delay_when`](crate::ObservableExt::delay_when): a delay that completes without a value
//!   drops its value, as in RxJS 7; RxJS's second argument, a delay of the subscription, is
//!   [`delay_subscription`](crate::ObservableExt::delay_subscription).
//! - [`buffer_when`](crate::ObservableExt::buffer_when) and
//!   [`buffer_toggle`](crate::ObservableExt::buffer_toggle): a closing notifier that completes
//!   without a value closes nothing, as in RxJS 7; the buffer fills until the source ends.
//! - [`timeout_when`](crate::ObservableExt::timeout_when) fails with `TimedOut`; it has no
//!   fallback form (RxJava's `timeout(first, item, fallback)`) yet.
//! - [`retry(n)`](crate::ObservableExt::retry) counts re-subscriptions as RxJava's
//!   `retry(times)` and RPP's `retry(count)`: `retry(0)` subscribes once.
//!   [`repeat(0)`](crate::ObservableExt::repeat) completes at once, as RxJava's `repeat(times)`.
//! - [`retry_with`](crate::ObservableExt::retry_with) does not reset its count on a value
//!   unless asked ([`reset_on_success`](crate::operators::RetryConfig::reset_on_success)), as
//!   RxJS 7; RxJS 9 resets by default. Its delay function returns an observable and cannot
//!   throw: a delay that fails is an observable that fails, which ends the sequence as
//!   RxJS's throwing function does. A zero delay resubscribes at once, with no timer, as
//!   RxJS's `delay: 0`; a negative one cannot be written.
//! - [`on_error_complete_if`](crate::ObservableExt::on_error_complete_if)'s predicate cannot
//!   throw, so there is no RxJava `CompositeException` of the error and the predicate's
//!   failure: a panicking predicate unwinds.
//! - [`ref_count_min(n)`](crate::operators::ConnectableObservable::ref_count_min) disconnects
//!   when the last subscriber leaves at once. The grace period of RxJava's
//!   `refCount(timeout, unit, scheduler)`, Rx.NET's `RefCount(disconnectDelay, scheduler)` and
//!   RxJS's `share({ resetOnRefCountZero: () => timer(t) })` is
//!   [`ref_count_grace(t, scheduler)`](crate::operators::ConnectableObservable::ref_count_grace),
//!   which has no minimum count (RxJava's `refCount(n, timeout, unit)`, Rx.NET's
//!   `RefCount(minObservers, disconnectDelay)`). Its timer's task holds the shared state, so
//!   a local subject's connectable takes no grace. A source that terminates during the grace
//!   is found ended by the next subscriber, which cancels the timer and connects afresh.
//! - [`share_replay(n)`](crate::ObservableExt::share_replay) is RxJava's
//!   `replay(n).refCount()`: its buffer belongs to the connection and starts over when the last
//!   subscriber leaves. RxJS's `shareReplay` stays subscribed and replays after completion:
//!   that is [`share_replay_retained(n)`](crate::ObservableExt::share_replay_retained).
//! - [`group_by`](crate::ObservableExt::group_by) and [`window`](crate::ObservableExt::window):
//!   a group or window not subscribed during the `on_next` that delivers it is *abandoned*, as
//!   in RxJava 3: a group keeps its first value for a late subscriber and completes; a window
//!   completes empty, its values dropped, and the windows after it keep their boundaries.
//! - [`with_latest_from_all`](crate::ObservableExt::with_latest_from_all): one of the others
//!   completing without ever having emitted completes the sequence, as in RxJava.
//! - [`merge_with`](crate::ObservableExt::merge_with), `flat_map` and the other merging
//!   operators queue without bound and never block their producers, as in RxJava.
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! // `scan` without its seed, and with it, as RxJava and RPP write it.
//! let (rx_style, rxjava_style) = (TestObserver::new(), TestObserver::new());
//! rx::source::from_iter([1, 2, 3]).scan(0, |a, v| a + v).subscribe_observer(rx_style.clone());
//! rx::source::from_iter([1, 2, 3])
//!     .scan(0, |a, v| a + v)
//!     .start_with(0)
//!     .subscribe_observer(rxjava_style.clone());
//! rx_style.assert_values(&[1, 3, 6]);
//! rxjava_style.assert_values(&[0, 1, 3, 6]);
//!
//! // `take_until` ends when its notifier completes, even without a value.
//! let observer = TestObserver::new();
//! rx::source::from_iter(1..=3)
//!     .take_until(rx::source::empty::<()>())
//!     .subscribe_observer(observer.clone());
//! observer.assert_values(&[]);
//! observer.assert_completed();
//!
//! // `retry(0)` subscribes once; `repeat(0)` not at all.
//! let observer = TestObserver::new();
//! rx::source::just(1).repeat(0).subscribe_observer(observer.clone());
//! observer.assert_values(&[]);
//! observer.assert_completed();
//! ```
