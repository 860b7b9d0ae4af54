//! The rx half of the browser benchmark: each function runs one case once and returns a
//! checksum the page compares with RxJS's, so that both sides provably did the same work.
//! The page times the calls (`performance.now()` around each), as it times RxJS's.
//!
//! Natively this library is empty: it exists to be built for wasm32 by `benches/browser/run`.

#[cfg(target_arch = "wasm32")]
mod cases;
