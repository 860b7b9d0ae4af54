use super::*;
use crate::engine::split_refs::Refs;
use crate::primitive::{Arc, AtomicUsize, thread};

/// Counts the values it receives and its drops.
struct Counting {
    values: Arc<AtomicUsize>,
    drops: Arc<AtomicUsize>,
}

impl Observer<i32> for Counting {
    fn on_next(&mut self, _: i32) {
        self.values.fetch_add(1, Ordering::SeqCst);
    }
    fn on_error(self, _: Error) {}
    fn on_completed(self) {
        panic!("a disposed group is not completed");
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

/// A claimed group's subscriber disposed on another thread while the operator delivers
/// to it: once the disposal is done, values are refused; the subscriber is dropped once,
/// never completed, and the group's reference on the source is released once.
#[test]
fn loom_a_claimed_group_disposed_from_another_thread() {
    loom::model(|| {
        let refs = Refs::<Shared>::shared();
        let inner = Inner::<i32, Shared>::open(&refs).expect("the source is wanted");
        let (values, drops) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let handle = subscribe::<_, _, Shared>(
            inner.clone(),
            Counting {
                values: values.clone(),
                drops: drops.clone(),
            },
        );
        let Settled::Claimed(mut claimed) = Inner::<i32, Shared>::settle(inner, 0) else {
            panic!("subscribed, and nobody delivers");
        };
        let disposer = thread::spawn(move || handle.dispose());
        let delivered = 1 + [claimed.next(1), claimed.next(2)]
            .iter()
            .filter(|r| r.is_ok())
            .count();
        disposer.join().unwrap();
        assert_eq!(claimed.next(3), Err(3));
        claimed.end(None);
        assert_eq!(values.load(Ordering::SeqCst), delivered);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        // The outer reference is the last one: the group released its own exactly once.
        refs.release_outer();
        assert!(refs.is_unreferenced());
    });
}
