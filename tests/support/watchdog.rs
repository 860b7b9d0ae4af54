//! A watchdog that turns a hang into a failure: if it is not stopped in time, it prints what
//! was running and aborts the test process, so CI reports instead of waiting forever.

use std::io::Write as _;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Aborts the process unless [`stop`](Watchdog::stop)ped within its limit.
pub struct Watchdog {
    stop: mpsc::Sender<()>,
    thread: thread::JoinHandle<()>,
}

impl Watchdog {
    /// Starts the clock; `describe` says what hung.
    pub fn start(limit: Duration, describe: impl FnOnce() -> String + Send + 'static) -> Self {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(limit) {
                // Straight to the process's stderr: `eprintln!` on a thread spawned by a
                // test goes to that test's captured output, which `abort` throws away.
                let message = format!(
                    "watchdog: nothing finished within {limit:?}: {}\n",
                    describe()
                );
                let _ = std::io::stderr().write_all(message.as_bytes());
                std::process::abort();
            }
        });
        Watchdog { stop, thread }
    }

    /// Stops the clock.
    pub fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}

/// Runs `f` on a thread of its own and fails (panics) if it does not return within `limit`,
/// leaving the stuck thread behind: for a test that must not hang the suite.
pub fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let _ = done.send(f());
    });
    match finished.recv_timeout(limit) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: still running after {limit:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}
