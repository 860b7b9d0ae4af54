//! The integration tests, as one test binary: each module was a file of its own under
//! `tests/`, and one binary links once where forty would link forty times. Tests that need
//! a process of their own (a counting global allocator, a panic hook, counts of the process's
//! threads) stay separate files beside this directory.
//!
//! Run one module with a filter: `cargo test --test suite stress_producers::`.

#[path = "../support/mod.rs"]
mod support;

mod auto_traits;
mod contract;
mod debugging_spy;
mod differential;
mod flavours;
mod grammar_random;
mod higher_races;
mod interop_future;
mod long_chain;
#[cfg(feature = "tokio")]
mod marbles_async;
mod marbles_multicast;
mod marbles_notifiers;
mod marbles_operators;
mod marbles_operators_higher;
mod marbles_operators_more;
mod marbles_parser_total;
mod marbles_recording;
mod marbles_time;
mod marbles_vocabulary;
mod merge_concurrency;
mod merge_leaks;
mod merge_marbles;
mod model_operators;
mod model_time;
mod multicast_races;
mod name_table;
mod newer_auto_traits;
mod panics_operators;
mod peer_rxjava;
mod peer_rxjava_time;
mod quickstart;
mod schedulers_order;
mod schedulers_stress;
mod schedulers_timing;
mod schedulers_traits;
mod stress_producers;
mod subjects_concurrency;
mod subjects_local;
mod time_auto_traits;
mod time_races;
mod time_threads;
mod zip_leaks;
mod zip_threads;
mod zip_time;
