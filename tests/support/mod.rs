//! What several test files share: the test binaries include it with `mod support;`.

#![allow(dead_code)]

pub mod alloc;
pub mod chains;
pub mod watchdog;
