//! The marble parser on arbitrary input: it returns, or panics with its documented message
//! (`invalid marble diagram: ...`, naming the column). Any other panic is a crash.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

fn documented(message: &str) -> bool {
    message.starts_with("invalid marble diagram: ") && message.contains(" column ")
}

/// libFuzzer's hook aborts on every panic; the parser's own panics are answers, not crashes.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let crash = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            if !documented(message) {
                crash(info);
            }
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    install_hook();
    let Ok(diagram) = std::str::from_utf8(data) else {
        return;
    };
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    let _ = catch_unwind(AssertUnwindSafe(|| m.parse(diagram)));
    let _ = catch_unwind(AssertUnwindSafe(|| m.time(diagram)));
    let _ = catch_unwind(AssertUnwindSafe(|| m.cold(diagram)));
    let _ = catch_unwind(AssertUnwindSafe(|| m.hot(diagram)));
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let _ = m.expect_subscribed(rx::source::empty::<char>(), diagram);
    }));
    // A context dropped with tasks still queued leaks them (a known reference cycle, kept as
    // an ignored test in tests/leaks_marbles.rs); running them lets LeakSanitizer look for
    // other leaks.
    let _ = catch_unwind(AssertUnwindSafe(|| m.flush()));
});
