//! A counting global allocator for the tests that measure allocations and leaks.
//!
//! A test binary installs it with
//!
//! ```ignore
//! mod support;
//!
//! #[global_allocator]
//! static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;
//! ```
//!
//! and reads the counters around the code it measures. The per-thread counters see only the
//! calling thread, so the other tests of the binary, running in parallel, and the test
//! harness's own threads never disturb them; [`process_live_bytes`] sees every thread, for
//! scenarios that start threads of their own (and must then run alone in their binary).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering::SeqCst};

/// Forwards every call to [`System`], counting on the way.
pub struct Counting;

thread_local! {
    // Const-initialised and without destructors, so touching them from inside the allocator
    // never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LIVE_BLOCKS: Cell<isize> = const { Cell::new(0) };
    static LIVE_BYTES: Cell<isize> = const { Cell::new(0) };
}

static PROCESS_LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

/// Counts `allocations` new allocations (a `realloc` counts as one), `blocks` more live
/// blocks and `bytes` more live bytes.
fn record(allocations: usize, blocks: isize, bytes: isize) {
    // `try_with`: nothing to count while the thread's locals are being torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + allocations));
    let _ = LIVE_BLOCKS.try_with(|n| n.set(n.get() + blocks));
    let _ = LIVE_BYTES.try_with(|n| n.set(n.get() + bytes));
    PROCESS_LIVE_BYTES.fetch_add(bytes, SeqCst);
}

// SAFETY: every method forwards to `System` with the caller's arguments, unchanged; the
// counting is plain arithmetic on thread-locals that need no allocation and on an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(1, 1, layout.size() as isize);
        // SAFETY: the caller upholds `alloc`'s contract, which is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(1, 1, layout.size() as isize);
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        record(0, -1, -(layout.size() as isize));
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(1, 0, new_size as isize - layout.size() as isize);
        // SAFETY: the caller upholds `realloc`'s contract, which is `System.realloc`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many allocations (and reallocations) this thread has made so far.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// How many blocks this thread has allocated and not freed (a block freed by another thread
/// counts there).
pub fn live_blocks() -> isize {
    LIVE_BLOCKS.with(Cell::get)
}

/// How many bytes this thread has allocated and not freed (bytes freed by another thread
/// count there).
pub fn live_bytes() -> isize {
    LIVE_BYTES.with(Cell::get)
}

/// How many bytes the whole process has allocated and not freed.
pub fn process_live_bytes() -> isize {
    PROCESS_LIVE_BYTES.load(SeqCst)
}

/// Runs `f` and returns how many allocations this thread made meanwhile.
pub fn allocations_in(f: impl FnOnce()) -> usize {
    let before = allocations();
    f();
    allocations() - before
}
