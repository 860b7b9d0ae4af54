//! [`ObservableExt::amb_with`](crate::ObservableExt::amb_with), and the observer shared with
//! the [`amb`](crate::source::amb) source.
//!
//! Every source is subscribed, in order, with an [`AmbObserver`] that knows its place. The
//! first notification of any kind claims the core's tag for its source (a compare-and-swap:
//! exactly one wins). The winner takes the downstream observer out of the shared state and
//! from then on delivers to it directly, with no lock; the losers are disposed, and drop
//! whatever they still deliver. Once a source has won during subscription, the ones after it
//! are not subscribed at all.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Mirrors whichever of two observables notifies first; built by
/// [`ObservableExt::amb_with`](crate::ObservableExt::amb_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "ambWith")]
#[doc(alias = "race_with")]
#[doc(alias = "raceWith")]
pub struct AmbWith<'a, S1, S2> {
    first: S1,
    second: S2,
    _handles: PhantomData<&'a ()>,
}

impl<S1, S2> AmbWith<'_, S1, S2> {
    pub(crate) fn new(first: S1, second: S2) -> Self {
        AmbWith {
            first,
            second,
            _handles: PhantomData,
        }
    }
}

impl<S1, S2> Observable for AmbWith<'_, S1, S2>
where
    S1: Observable,
    S2: Observable<Item = S1::Item>,
{
    type Item = S1::Item;
    type Flavour = FlavourOf<S1, S2>;
}

/// The flavour of the handles an [`AmbWith`] keeps.
type FlavourOf<S1, S2> = Joined<<S1 as Observable>::Flavour, <S2 as Observable>::Flavour>;

impl<'a, S1, S2, O> Subscribe<O> for AmbWith<'a, S1, S2>
where
    S1: Subscribe<AmbObserver<'a, O, <S1 as Observable>::Item, FlavourOf<S1, S2>>>,
    S2: Subscribe<AmbObserver<'a, O, <S1 as Observable>::Item, FlavourOf<S1, S2>>>
        + Observable<Item = <S1 as Observable>::Item>,
    FlavourOf<S1, S2>: BoxSubscription<
            'a,
            <S1 as Subscribe<
                AmbObserver<'a, O, <S1 as Observable>::Item, FlavourOf<S1, S2>>,
            >>::Subscription,
        > + BoxSubscription<
            'a,
            <S2 as Subscribe<
                AmbObserver<'a, O, <S1 as Observable>::Item, FlavourOf<S1, S2>>,
            >>::Subscription,
        >,
    O: Observer<<S1 as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S1, S2>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let core = AmbObserver::<_, _, FlavourOf<S1, S2>>::start(observer);
        let Some(core) = core else {
            return MergeSubscription::empty();
        };
        AmbObserver::subscribe(&core, 1, self.first);
        AmbObserver::subscribe(&core, 2, self.second);
        core.handle()
    }
}

type AmbCore<'a, O, T, F> = MergeCore<'a, O, T, (), F>;

/// The observer [`AmbWith`] and [`amb`](crate::source::amb) subscribe to each source.
pub struct AmbObserver<'a, O, T, F: Flavour = Shared> {
    core: Ptr<AmbCore<'a, O, T, F>, F>,
    id: u64,
    /// This source's place, from 1; what it writes into the core's tag when it wins.
    place: u64,
    winner: bool,
    /// The downstream observer, once this source has won.
    downstream: Option<O>,
}

impl<'a, O: Observer<T>, T, F: Flavour> AmbObserver<'a, O, T, F> {
    /// The shared state, or `None` if the downstream is already disposed.
    pub(crate) fn start(observer: O) -> Option<Ptr<AmbCore<'a, O, T, F>, F>> {
        (!observer.is_disposed()).then(|| MergeCore::<_, _, _, F>::new_shared(observer, ()))
    }

    /// Subscribes the source in `place`, unless one has already won.
    pub(crate) fn subscribe<S>(core: &Ptr<AmbCore<'a, O, T, F>, F>, place: u64, source: S)
    where
        S: Subscribe<Self>,
        F: BoxSubscription<'a, S::Subscription>,
    {
        if core.tag() == 0 {
            core.subscribe_upstream(source, |id| AmbObserver {
                core: core.clone(),
                id,
                place,
                winner: false,
                downstream: None,
            });
        }
    }

    /// Completes at once: there is no source to race.
    pub(crate) fn complete_empty(core: &Ptr<AmbCore<'a, O, T, F>, F>) {
        core.lock().complete();
    }

    /// Whether this source is the winner, trying to become it if none is yet.
    fn win(&mut self) -> bool {
        if self.winner {
            return true;
        }
        if !self.core.claim_tag(self.place) {
            return false;
        }
        self.winner = true;
        let mut locked = self.core.lock();
        self.downstream = locked.take_downstream();
        locked.dispose_upstreams_except(self.id);
        true
    }
}

impl<O: Observer<T>, T, F: Flavour> Observer<T> for AmbObserver<'_, O, T, F> {
    fn on_next(&mut self, value: T) {
        if self.win()
            && let Some(downstream) = &mut self.downstream
        {
            downstream.on_next(value);
        }
    }

    fn on_error(mut self, error: Error) {
        if self.win() {
            let mut locked = self.core.lock();
            locked.release_upstream(self.id);
            locked.close();
            if let Some(downstream) = self.downstream.take() {
                downstream.on_error(error);
            }
        }
    }

    fn on_completed(mut self) {
        if self.win() {
            let mut locked = self.core.lock();
            locked.release_upstream(self.id);
            locked.close();
            if let Some(downstream) = self.downstream.take() {
                downstream.on_completed();
            }
        }
    }

    fn is_disposed(&self) -> bool {
        if self.winner {
            self.downstream
                .as_ref()
                .is_none_or(|downstream| downstream.is_disposed())
                || self.core.is_done()
        } else {
            self.core.tag() != 0 || self.core.is_done()
        }
    }
}

impl<O, T, F: Flavour> fmt::Debug for AmbObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AmbObserver")
            .field("place", &self.place)
            .field("winner", &self.winner)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, never, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_first_to_notify_wins_in_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(&sch, [(ms(20), Next(1)), (ms(30), Completed)])
            .amb_with(cold(
                &sch,
                [(ms(10), Next(2)), (ms(40), Next(3)), (ms(50), Completed)],
            ))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(2)), (ms(40), Next(3)), (ms(50), Completed)]);
    }

    #[test]
    fn the_loser_is_disposed_when_the_winner_first_notifies() {
        let log = Log::default();
        let a = Hot::new("a", &log);
        let b = Hot::new("b", &log);
        let o = TestObserver::new();
        let handle = a.clone().amb_with(b.clone()).subscribe_observer(o.clone());
        b.next(1);
        a.next(2);
        b.next(3);
        assert_eq!(drain(&log), ["subscribe a", "subscribe b", "dispose a"]);
        assert!(!handle.is_disposed());
        handle.dispose();
        assert_eq!(drain(&log), ["dispose b"]);
        b.next(4);
        o.assert_notifications(&[Next(1), Next(3)]);
    }

    #[test]
    fn a_terminal_event_wins_too() {
        let log = Log::default();
        let a = Hot::<i32>::new("a", &log);
        let b = Hot::<i32>::new("b", &log);
        let o = TestObserver::new();
        let handle = a.clone().amb_with(b.clone()).subscribe_observer(o.clone());
        b.error("b first");
        a.next(1);
        o.assert_error("b first");
        assert!(handle.is_disposed());
        assert_eq!(a.subscribers(), 0);
    }

    #[test]
    fn a_synchronous_winner_means_the_rest_are_not_subscribed() {
        let log = Log::default();
        let b = Hot::new("b", &log);
        let o = TestObserver::new();
        from_iter([1, 2]).amb_with(b).subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert!(drain(&log).is_empty());
    }

    #[test]
    fn errors_and_silence() {
        let o = TestObserver::<i32>::new();
        never()
            .amb_with(throw(Error::msg("second")))
            .subscribe_observer(o.clone());
        o.assert_error("second");

        let o = TestObserver::<i32>::new();
        never().amb_with(never()).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_winner() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(move |v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .amb_with(never())
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
    }
}
