//! What the unit tests of several modules share: sources driven by hand or by a script,
//! counters of subscriptions, observables with a chosen [`Emission`](crate::observable::Emission).

#[cfg(not(loom))]
pub(crate) mod bounded;
#[cfg(not(loom))]
pub(crate) mod counting;
#[cfg(not(loom))]
pub(crate) mod hot;
#[cfg(not(loom))]
pub(crate) mod inline;
pub(crate) mod scripted;
