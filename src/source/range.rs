//! [`range`]: `count` consecutive integers.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;
use std::fmt;

/// An observable that emits `count` consecutive integers starting at `start`, then
/// completes.
///
/// `start` may be of any primitive integer type ([`RangeInteger`]); an unsuffixed literal is
/// an `i32`, as everywhere in Rust. `count` is a `usize`, so it cannot be negative; a `count`
/// of zero gives a sequence that completes at once. The values are produced on the
/// subscribing thread; before each one the source asks whether the downstream still wants
/// it.
///
/// ```text
/// range(1, 3): (123|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::range(5, 3).subscribe_observer(observer.clone());
/// observer.assert_values(&[5, 6, 7]);
/// observer.assert_completed();
///
/// let mut seen = Vec::new();
/// rx::source::range(250u8, 6).subscribe(|v| seen.push(v));
/// assert_eq!(seen, [250, 251, 252, 253, 254, 255]);
/// ```
///
/// # Panics
///
/// When the last value, `start + count - 1`, does not fit in the integer type; checked when
/// `range` is called, not when it is subscribed.
///
/// ```should_panic
/// let _ = rx::source::range(250u8, 7); // 256 does not fit in a u8
/// ```
///
/// # Performance
///
/// No allocation, no lock: one loop, as `for` over `start..start + count` would be.
#[doc(alias = "range_long")]
#[doc(alias = "rangeLong")]
pub fn range<T: RangeInteger>(start: T, count: usize) -> Range<T> {
    if let Some(steps) = count.checked_sub(1)
        && start.checked_add_usize(steps).is_none()
    {
        panic!(
            "range({start:?}, {count}) overflows: the last value, start + count - 1, \
             does not fit in {}",
            std::any::type_name::<T>()
        );
    }
    Range { start, count }
}

/// Emits consecutive integers; built by [`range`].
#[derive(Clone, Copy, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Range<T> {
    start: T,
    count: usize,
}

impl<T: RangeInteger> Observable for Range<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<T: RangeInteger, O: Observer<T>> Subscribe<O> for Range<T> {
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, mut observer: O) -> Finished {
        let mut value = self.start;
        for _ in 0..self.count {
            if observer.is_disposed() {
                return Finished;
            }
            observer.on_next(value);
            // Wraps only after the last value, which `range` checked fits; that result is
            // never emitted.
            value = value.wrapping_increment();
        }
        if !observer.is_disposed() {
            observer.on_completed();
        }
        Finished
    }
}

/// The integer types [`range`] counts in: every primitive integer type.
///
/// A trait rather than one function per type, so one [`Range`] type serves them all and an
/// unsuffixed literal falls back to `i32`. It is sealed (only this crate implements it), so
/// its methods can change without breaking anyone.
pub trait RangeInteger: Copy + fmt::Debug + sealed::Sealed {
    /// `self + n`, or `None` when it does not fit.
    #[doc(hidden)]
    fn checked_add_usize(self, n: usize) -> Option<Self>;

    /// `self + 1`, wrapping around at the end of the type.
    #[doc(hidden)]
    fn wrapping_increment(self) -> Self;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! range_integer {
    ($($t:ty)*) => {$(
        impl sealed::Sealed for $t {}

        impl RangeInteger for $t {
            #[inline]
            fn checked_add_usize(self, n: usize) -> Option<Self> {
                // i128 holds every value of these types and every `usize` (at most 64 bits
                // on the platforms Rust supports), so the sum is exact before narrowing.
                i128::try_from(self)
                    .ok()
                    .zip(i128::try_from(n).ok())
                    .and_then(|(a, b)| a.checked_add(b))
                    .and_then(|sum| <$t>::try_from(sum).ok())
            }

            #[inline]
            fn wrapping_increment(self) -> Self {
                self.wrapping_add(1)
            }
        }
    )*};
}

range_integer!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 usize);

impl sealed::Sealed for u128 {}

impl RangeInteger for u128 {
    #[inline]
    fn checked_add_usize(self, n: usize) -> Option<Self> {
        // Not every u128 fits in an i128; add in u128 instead.
        u128::try_from(n).ok().and_then(|n| self.checked_add(n))
    }

    #[inline]
    fn wrapping_increment(self) -> Self {
        self.wrapping_add(1)
    }
}

#[cfg(test)]
mod tests {
    use super::range;
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::testing::TestObserver;

    #[test]
    fn emits_count_values_then_completes() {
        let o = TestObserver::new();
        range(-2, 4).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(-2),
            Notification::Next(-1),
            Notification::Next(0),
            Notification::Next(1),
            Notification::Completed,
        ]);
    }

    #[test]
    fn zero_count_completes_at_once() {
        let o = TestObserver::<i32>::new();
        range(i32::MAX, 0).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn reaches_the_end_of_the_type() {
        let o = TestObserver::new();
        range(i8::MAX - 1, 2).subscribe_observer(o.clone());
        o.assert_values(&[126, 127]);
        o.assert_completed();

        let o = TestObserver::new();
        range(u128::MAX, 1).subscribe_observer(o.clone());
        o.assert_values(&[u128::MAX]);
        o.assert_completed();

        let mut n = 0;
        range(i8::MIN, 256).subscribe(|_| n += 1);
        assert_eq!(n, 256);
    }

    #[test]
    #[should_panic(expected = "range(127, 2) overflows")]
    fn overflow_panics_at_construction() {
        let _ = range(i8::MAX, 2);
    }

    #[test]
    #[should_panic(expected = "does not fit in u128")]
    fn overflow_panics_for_u128() {
        let _ = range(u128::MAX, 2);
    }

    #[test]
    #[should_panic(expected = "overflows")]
    fn count_beyond_the_type_panics() {
        let _ = range(0u8, 257);
    }

    #[test]
    fn disposed_downstream_stops_the_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        range(0u64, usize::MAX)
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }
}
