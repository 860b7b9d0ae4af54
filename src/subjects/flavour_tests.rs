//! One body of tests, run against both flavours of every subject.
//!
//! [`for_each_flavour!`] pastes a body of tests twice, into `mod shared` and `mod local`, each
//! starting with aliases that fix the flavour: `PublishSubject<T>` and the others,
//! `SubjectSubscription<T>`, and `Flavour` itself. The body is written as for the thread-safe
//! subjects (`PublishSubject::new()`), and each copy builds the subjects of its flavour.

macro_rules! for_each_flavour {
    ($($body:tt)*) => {
        mod shared {
            #[allow(unused_imports)]
            use super::*;
            #[allow(dead_code)]
            type Flavour = $crate::sync::Shared;
            $crate::subjects::flavour_tests::flavour_aliases!();
            $($body)*
        }

        mod local {
            #[allow(unused_imports)]
            use super::*;
            #[allow(dead_code)]
            type Flavour = $crate::sync::Local;
            $crate::subjects::flavour_tests::flavour_aliases!();
            $($body)*
        }
    };
}

macro_rules! flavour_aliases {
    () => {
        #[allow(dead_code)]
        type PublishSubject<T> = $crate::subjects::flavoured::PublishSubject<T, Flavour>;
        #[allow(dead_code)]
        type BehaviorSubject<T> = $crate::subjects::flavoured::BehaviorSubject<T, Flavour>;
        #[allow(dead_code)]
        type ReplaySubject<T> = $crate::subjects::flavoured::ReplaySubject<T, Flavour>;
        #[allow(dead_code)]
        type AsyncSubject<T> = $crate::subjects::flavoured::AsyncSubject<T, Flavour>;
        #[allow(dead_code)]
        type SubjectSubscription<T> = $crate::subjects::SubjectSubscription<T, Flavour>;

        /// A weak reference to a subject's shared state, to see when it is freed.
        #[allow(dead_code)]
        fn downgrade<T>(
            core: &<Flavour as $crate::sync::imp::Machinery>::Ptr<T>,
        ) -> <Flavour as $crate::sync::imp::Machinery>::Weak<T> {
            <Flavour as $crate::sync::imp::Machinery>::downgrade(core)
        }

        #[allow(dead_code)]
        fn is_freed<T>(weak: &<Flavour as $crate::sync::imp::Machinery>::Weak<T>) -> bool {
            <Flavour as $crate::sync::imp::Machinery>::upgrade(weak).is_none()
        }
    };
}

pub(crate) use flavour_aliases;
pub(crate) use for_each_flavour;
