//! [`using`]: an observable with a resource of its own, made for each subscription and
//! dropped when the subscription ends.

use crate::engine::ending::{Ending, FinallyObserver, FinallySubscription, Finish};
use crate::observable::{Observable, Subscribe};
use std::fmt;

/// An observable that, for each subscription, makes a resource with `resource`, builds the
/// observable to subscribe with `observable` (which may use the resource, or take what it
/// needs from it), and drops the resource when the subscription ends: after the downstream
/// has received completion or an error, when the downstream stops it early (a `take` further
/// down), or when the returned handle is disposed, whichever comes first (RxJS's and Rx.NET's
/// `Using`, RxJava's `using` with `eager = false`).
///
/// The resource is released by its `Drop`, as a file, a connection or a guard releases what
/// it holds. It is dropped once, after the downstream's terminal call returns, as
/// [`finally`](crate::ObservableExt::finally) runs its action; RxJava's `using` releases it
/// before the terminal notification by default (`eager`).
///
/// ```text
/// using(open, |r| read(r)):  -a-b-|      the resource dropped at the |
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
/// use std::cell::RefCell;
///
/// /// A connection that logs its closing.
/// struct Connection<'a>(&'a RefCell<Vec<&'static str>>);
///
/// impl Drop for Connection<'_> {
///     fn drop(&mut self) {
///         self.0.borrow_mut().push("closed");
///     }
/// }
///
/// let log = RefCell::new(Vec::new());
/// let observer = TestObserver::new();
/// rx::source::using(
///     || {
///         log.borrow_mut().push("opened");
///         Connection(&log)
///     },
///     |_connection| rx::source::from_iter(["row 1", "row 2"]),
/// )
/// .subscribe_observer(observer.clone());
/// observer.assert_values(&["row 1", "row 2"]);
/// assert_eq!(*log.borrow(), ["opened", "closed"]);
/// ```
///
/// # Performance
///
/// One allocation per subscription, as for `finally`: an `Arc` that the observer and the
/// returned handle share, holding the resource behind a lock, which is taken when the
/// subscription ends and when the handle is asked `is_disposed`. Values pass through without
/// touching it.
#[doc(alias = "Using")]
pub fn using<R, RF, SF, S>(resource: RF, observable: SF) -> Using<RF, SF>
where
    RF: FnOnce() -> R,
    SF: FnOnce(&mut R) -> S,
    S: Observable,
{
    Using {
        resource,
        observable,
    }
}

/// Makes a resource for each subscription and drops it when the subscription ends; built
/// by [`using`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Using<RF, SF> {
    resource: RF,
    observable: SF,
}

impl<RF, SF> fmt::Debug for Using<RF, SF> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Using")
    }
}

/// The resource of a [`Using`] subscription, dropped when the subscription ends.
#[derive(Debug)]
pub struct Release<R>(R);

impl<R> Finish for Release<R> {
    #[inline]
    fn finish(self) {
        drop(self.0)
    }
}

impl<R, RF, SF, S> Observable for Using<RF, SF>
where
    RF: FnOnce() -> R,
    SF: FnOnce(&mut R) -> S,
    S: Observable,
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<R, RF, SF, S, O> Subscribe<O> for Using<RF, SF>
where
    RF: FnOnce() -> R,
    SF: FnOnce(&mut R) -> S,
    S: Subscribe<FinallyObserver<O, Release<R>>>,
{
    type Subscription = FinallySubscription<S::Subscription, Release<R>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let mut resource = (self.resource)();
        let source = (self.observable)(&mut resource);
        Ending::new(Release(resource)).subscribe(source, observer)
    }
}

#[cfg(test)]
mod tests {
    use super::using;
    use crate::Error;
    use crate::prelude::*;
    use crate::source::{from_iter, never, throw};
    use crate::subjects::local::PublishSubject;
    use crate::testing::TestObserver;
    use std::cell::Cell;
    use std::rc::Rc;

    /// Counts its drops.
    struct Resource(Rc<Cell<u32>>);

    impl Drop for Resource {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    #[test]
    fn the_resource_goes_at_completion_error_disposal_and_an_early_stop() {
        let drops = Rc::new(Cell::new(0));
        let make = || Resource(drops.clone());

        let o = TestObserver::new();
        using(make, |_| from_iter([1, 2])).subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        assert_eq!(drops.get(), 1, "completion");

        let o = TestObserver::<i32>::new();
        using(make, |_| throw(Error::msg("bad"))).subscribe_observer(o.clone());
        o.assert_error("bad");
        assert_eq!(drops.get(), 2, "error");

        let handle = using(make, |_| never::<i32>()).subscribe(|_| {});
        assert_eq!(drops.get(), 2, "kept while the subscription runs");
        assert!(!handle.is_disposed());
        handle.dispose();
        handle.dispose();
        assert_eq!(drops.get(), 3, "disposal, once");

        let o = TestObserver::new();
        using(make, |_| from_iter(0..))
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        assert_eq!(drops.get(), 4, "an early stop downstream");
    }

    #[test]
    fn each_subscription_has_its_own_resource() {
        let made = Cell::new(0);
        let source = using(
            || {
                made.set(made.get() + 1);
                made.get()
            },
            |r| from_iter([*r]),
        );
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
    }

    #[test]
    fn over_a_local_subject_disposal_reaches_it() {
        let drops = Rc::new(Cell::new(0));
        let subject = PublishSubject::<i32>::new();
        let o = TestObserver::new();
        let handle = using(|| Resource(drops.clone()), |_| subject.observable())
            .subscribe_observer(o.clone());
        subject.on_next(1);
        handle.dispose();
        assert!(!subject.has_observers());
        assert_eq!(drops.get(), 1);
        o.assert_values(&[1]);
    }
}
