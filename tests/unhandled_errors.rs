//! The process-wide hook for errors that cannot be delivered. A binary of its own: the hook
//! is global, and the other tests count on the defaults (a panic without an error handler).

use rx::prelude::*;
use rx::testing::TestObserver;
use rx::{Error, Undeliverable};
use std::sync::{Arc, Mutex};

#[test]
fn an_application_routes_undeliverable_errors_to_its_log() {
    // The defaults first: without an error handler, a panic with the error's message.
    let panicked = std::panic::catch_unwind(|| {
        rx::source::throw::<i32>(Error::msg("disk full")).subscribe(|_| {});
    });
    let message = panicked.expect_err("no hook: it panics");
    let message = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(message.contains("disk full"), "{message}");

    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    rx::set_unhandled_error_hook(move |error, why| {
        sink.lock().unwrap().push((why, error.to_string()));
    });

    // No error handler: to the log, no panic.
    rx::source::throw::<i32>(Error::msg("disk full")).subscribe(|_| {});

    // An error after disposal, from another thread: to the log, the observer hears nothing.
    let (tx, rx_emitter) = std::sync::mpsc::channel();
    let observer = TestObserver::<i32>::new();
    let handle = rx::source::create_owned(move |emitter| tx.send(emitter).unwrap())
        .subscribe_observer(observer.clone());
    let emitter = rx_emitter.recv().unwrap();
    handle.dispose();
    std::thread::spawn(move || emitter.on_error(Error::msg("late")))
        .join()
        .unwrap();
    observer.assert_not_terminated();

    // A delivered error does not reach it.
    let delivered = TestObserver::<i32>::new();
    rx::source::throw(Error::msg("handled")).subscribe_observer(delivered.clone());
    delivered.assert_error("handled");

    rx::clear_unhandled_error_hook();
    assert_eq!(
        *log.lock().unwrap(),
        [
            (Undeliverable::NoErrorHandler, "disk full".to_string()),
            (Undeliverable::Disposed, "late".to_string()),
        ]
    );

    // Cleared: the default again.
    let panicked = std::panic::catch_unwind(|| {
        rx::source::throw::<i32>(Error::msg("again")).subscribe(|_| {});
    });
    assert!(panicked.is_err());
}
