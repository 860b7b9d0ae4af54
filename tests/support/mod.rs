//! What several test files share; each includes it with `mod support;`.

#![allow(dead_code)]

pub mod alloc;
pub mod chains;
pub mod watchdog;
