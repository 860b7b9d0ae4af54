//! A test source that counts its subscriptions and their disposals, over a subject the test
//! drives.

use crate::prelude::*;
use crate::subjects::{PublishSubject, SubjectSubscription};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone)]
pub(crate) struct CountingSource {
    pub(crate) input: PublishSubject<i32>,
    pub(crate) subscriptions: Arc<AtomicUsize>,
    pub(crate) disposals: Arc<AtomicUsize>,
}

impl CountingSource {
    pub(crate) fn new(input: &PublishSubject<i32>) -> Self {
        CountingSource {
            input: input.clone(),
            subscriptions: Arc::new(AtomicUsize::new(0)),
            disposals: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub(crate) fn subscriptions(&self) -> usize {
        self.subscriptions.load(Ordering::SeqCst)
    }

    pub(crate) fn disposals(&self) -> usize {
        self.disposals.load(Ordering::SeqCst)
    }
}

impl Observable for CountingSource {
    type Item = i32;
    type Flavour = crate::sync::Shared;
}

impl<O: Observer<i32> + Send + 'static> Subscribe<O> for CountingSource {
    type Subscription = CountedSubscription;

    fn subscribe_observer(self, observer: O) -> CountedSubscription {
        self.subscriptions.fetch_add(1, Ordering::SeqCst);
        CountedSubscription {
            inner: self.input.observable().subscribe_observer(observer),
            disposals: self.disposals,
        }
    }
}

pub(crate) struct CountedSubscription {
    inner: SubjectSubscription<i32>,
    disposals: Arc<AtomicUsize>,
}

impl Subscription for CountedSubscription {
    fn dispose(&self) {
        self.disposals.fetch_add(1, Ordering::SeqCst);
        self.inner.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.inner.is_disposed()
    }
}
