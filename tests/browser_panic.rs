//! A panic in a task on a browser scheduler, in a real browser (`.ci/browser`): a file of
//! its own, as a wasm32 panic is a trap that leaves whatever it interrupted as it was.
//! Natively this file is empty.

#![cfg(all(target_arch = "wasm32", feature = "web"))]

use rx::schedulers::web::{Microtask, SetTimeout};
use rx::schedulers::{Reschedule, Scheduler, Worker};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
// Records the page's uncaught errors (what a trap in a callback becomes), and keeps them
// from the console.
export function watch_errors() {
  globalThis.__rxErrors = [];
  globalThis.addEventListener('error', (e) => { globalThis.__rxErrors.push(String(e.message)); e.preventDefault(); });
}
export function errors() { return globalThis.__rxErrors.join('\n'); }
export function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
"#)]
extern "C" {
    fn watch_errors();
    fn errors() -> String;
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_promise(ms: u32) -> js_sys::Promise;
}

async fn sleep(ms: u32) {
    wasm_bindgen_futures::JsFuture::from(sleep_promise(ms))
        .await
        .unwrap();
}

#[wasm_bindgen_test]
async fn a_panicking_task_surfaces_as_an_error_of_the_page_and_the_rest_still_run() {
    watch_errors();
    for worker in [SetTimeout.worker(), Microtask.worker()] {
        let ran = Rc::new(RefCell::new(Vec::new()));
        let (a, b) = (ran.clone(), ran.clone());
        worker.schedule_after(Duration::from_millis(10), move || {
            a.borrow_mut().push("before");
            Reschedule::Done
        });
        worker.schedule_after(Duration::from_millis(10), || panic!("boom in a task"));
        worker.schedule_after(Duration::from_millis(10), move || {
            b.borrow_mut().push("after");
            Reschedule::Done
        });
        sleep(200).await;
        assert_eq!(*ran.borrow(), ["before", "after"]);
    }
    // One trap per panicking task, each an uncaught error of the page (the panic's message
    // went to the console through the test harness's panic hook).
    let errors = errors();
    assert_eq!(errors.lines().count(), 2, "{errors}");
    assert!(
        errors.lines().all(|e| e.contains("unreachable")),
        "{errors}"
    );
}
