//! The library's clock: [`Instant`], the type of every due time and timestamp.
//!
//! On native targets [`Instant`] *is* [`std::time::Instant`] (a re-export, not a wrapper), so
//! code that names either one compiles against the other and nothing changes at run time. On
//! `wasm32` std's clock is not implemented (`Instant::now()` panics there), and [`Instant`] is
//! the `web-time` crate's, which reads `performance.now()`; the schedulers, the time operators
//! and the [`TestScheduler`](crate::schedulers::TestScheduler) take and return it, so they run
//! in a browser too. Durations stay [`std::time::Duration`] everywhere.
//!
//! ```
//! use rx::schedulers::TestScheduler;
//! use std::time::Duration;
//!
//! let scheduler = TestScheduler::new();
//! let start: rx::time::Instant = scheduler.now();
//! scheduler.advance_by(Duration::from_millis(5));
//! assert_eq!(scheduler.now() - start, Duration::from_millis(5));
//!
//! // Natively it is std's type, so values pass between the two with no conversion.
//! # #[cfg(not(target_arch = "wasm32"))]
//! let _: std::time::Instant = start;
//! ```

/// A point in time, monotonic: [`std::time::Instant`] on native targets, `web-time`'s
/// `performance.now()`-based `Instant` on `wasm32` (see the [module docs](self)).
pub use web_time::Instant;
