//! How the flattening operators turn each value of their source into an inner observable:
//! [`Project`] (any `FnMut(V) -> U`, or `try_flat_map`'s fallible projection), and what the
//! engines keep of it, [`Projector`] and [`Lend`]. Both the
//! [flattening engine](super::flatten) and the [inline merge](super::inline_merge) run on
//! them.

use std::fmt;
use std::marker::PhantomData;

/// The identity, as the `f` of the flattening operators that take none.
pub(crate) type Identity<T> = fn(T) -> T;

pub(crate) fn identity<T>(value: T) -> T {
    value
}

/// How a flattening operator turns each value of its source into an inner observable as the
/// value arrives: any `FnMut(V) -> U` closure, or another projection that is not one (that
/// of [`try_flat_map`](crate::ObservableExt::try_flat_map)).
pub trait Project<V> {
    /// The inner observable.
    type Inner;
    /// The inner observable for `value`.
    fn project(&mut self, value: V) -> Self::Inner;
}

/// What the outer observer of the flattening engine does with each value, and what the
/// engine keeps of the projection in its shared state: every [`Project`] maps the value at
/// once and leaves the engine nothing ([`Eager`]); the projection of
/// [`concat_map`](crate::ObservableExt::concat_map) hands the value over as it is and lends
/// its closure to the engine, which maps each value when its inner is subscribed.
pub trait Projector<V> {
    /// The inner observable.
    type Inner;
    /// What the engine keeps, lent to whichever thread subscribes the next inner.
    type Lent: Lend<Inner = Self::Inner>;
    /// The part of the projection the engine keeps; called once, when the engine is built.
    fn lend(&mut self) -> Self::Lent;
    /// What the engine subscribes, or queues, for `value`.
    fn project(&mut self, value: V) -> <Self::Lent as Lend>::Queued;
}

impl<V, U, F: FnMut(V) -> U> Projector<V> for F {
    type Inner = U;
    type Lent = Eager<U>;

    #[inline]
    fn lend(&mut self) -> Eager<U> {
        Eager(PhantomData)
    }

    #[inline]
    fn project(&mut self, value: V) -> U {
        self(value)
    }
}

/// The part of a projection the flattening engine keeps in its shared state. The thread that
/// subscribes an inner [takes](Lend::take) it under the engine's lock, calls it with the lock
/// released (an inner that completes inside `subscribe` calls straight back in), and
/// [gives it back](Lend::give_back) the next time it takes the lock; in between, no other
/// thread subscribes an inner (the draining flag, or the outer observer alone).
pub trait Lend {
    /// What the engine subscribes, or queues: the inner itself, or the value it is made of.
    type Queued;
    /// The inner observable.
    type Inner;
    /// Whether [`take`](Lend::take) moves anything out that must be given back.
    const KEPT: bool;
    /// Moves the projection out, for one inner.
    fn take(&mut self) -> Self;
    /// Puts back what [`take`](Lend::take) moved out.
    fn give_back(&mut self, lent: Self);
    /// The inner observable for what was queued.
    fn inner(&mut self, queued: Self::Queued) -> Self::Inner;
}

/// What the engine keeps of a projection that maps each value as it arrives: nothing.
pub struct Eager<U>(pub(crate) PhantomData<fn() -> U>);

impl<U> Lend for Eager<U> {
    type Queued = U;
    type Inner = U;
    const KEPT: bool = false;

    #[inline]
    fn take(&mut self) -> Self {
        Eager(PhantomData)
    }

    #[inline]
    fn give_back(&mut self, _: Self) {}

    #[inline]
    fn inner(&mut self, queued: U) -> U {
        queued
    }
}

impl<U> fmt::Debug for Eager<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Eager")
    }
}

impl<V, U, F: FnMut(V) -> U> Project<V> for F {
    type Inner = U;

    #[inline]
    fn project(&mut self, value: V) -> U {
        self(value)
    }
}
