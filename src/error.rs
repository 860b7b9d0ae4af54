//! The one error type that flows through every observable.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

/// The error an observable terminates with.
///
/// One type for the whole library, as RxJava's `Throwable` and RPP's `exception_ptr`: a cheap,
/// cloneable handle (an [`Arc`]) to any `std::error::Error + Send + Sync`. Subjects can hand the
/// same error to every subscriber and `retry` can resubscribe without an `E: Clone` bound, and
/// the path without errors pays nothing for it.
///
/// Like `anyhow::Error`, it does not implement `std::error::Error` itself (that would collide
/// with `From<E: Error>`); it converts into `Box<dyn Error + Send + Sync>` and exposes the
/// inner error through [`AsRef`], so it travels with `?`.
///
/// # Examples
///
/// ```
/// use std::io;
///
/// let error = rx::Error::new(io::Error::new(io::ErrorKind::Other, "disk on fire"));
/// assert_eq!(error.to_string(), "disk on fire");
/// assert!(error.downcast_ref::<io::Error>().is_some());
///
/// let copy = error.clone(); // an Arc clone, no allocation
/// assert_eq!(copy, error);
///
/// fn boxed() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
///     Err(rx::Error::msg("no value"))?
/// }
/// assert_eq!(boxed().unwrap_err().to_string(), "no value");
/// ```
#[derive(Clone)]
pub struct Error {
    inner: Arc<dyn StdError + Send + Sync + 'static>,
}

impl Error {
    /// Wraps any error.
    pub fn new<E>(error: E) -> Self
    where
        E: StdError + Send + Sync + 'static,
    {
        Error {
            inner: Arc::new(error),
        }
    }

    /// An error that carries only a message.
    pub fn msg(message: impl fmt::Display) -> Self {
        Error::new(Message(message.to_string()))
    }

    /// The wrapped error, if it is an `E`.
    pub fn downcast_ref<E>(&self) -> Option<&E>
    where
        E: StdError + 'static,
    {
        self.inner.downcast_ref::<E>()
    }

    /// Whether the wrapped error is an `E`.
    pub fn is<E>(&self) -> bool
    where
        E: StdError + 'static,
    {
        self.inner.is::<E>()
    }
}

impl<E> From<E> for Error
where
    E: StdError + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        Error::new(error)
    }
}

impl From<Error> for Box<dyn StdError + Send + Sync + 'static> {
    fn from(error: Error) -> Self {
        Box::new(Shared(error.inner))
    }
}

impl AsRef<dyn StdError + Send + Sync + 'static> for Error {
    fn as_ref(&self) -> &(dyn StdError + Send + Sync + 'static) {
        &*self.inner
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}

/// Two errors are equal when they are the same error (clones of one another) or when they
/// display the same text; the second rule is what tests comparing notifications want.
impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner) || self.to_string() == other.to_string()
    }
}

/// The error behind [`Error::msg`].
#[derive(Debug)]
struct Message(String);

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl StdError for Message {}

/// The shared error seen through `Box<dyn Error>`: keeps the chain of sources intact.
struct Shared(Arc<dyn StdError + Send + Sync + 'static>);

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl StdError for Shared {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.0.source()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    #[test]
    fn clone_shares_the_allocation() {
        let a = Error::msg("x");
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.inner, &b.inner));
    }

    #[test]
    fn downcast_to_the_wrapped_type() {
        let e: Error = io::Error::new(io::ErrorKind::NotFound, "gone").into();
        assert_eq!(
            e.downcast_ref::<io::Error>().unwrap().kind(),
            io::ErrorKind::NotFound
        );
        assert!(e.is::<io::Error>());
        assert!(e.downcast_ref::<std::fmt::Error>().is_none());
    }

    #[test]
    fn question_mark_into_boxed_error() {
        fn f() -> Result<(), Box<dyn StdError + Send + Sync>> {
            Err(Error::msg("boom"))?;
            Ok(())
        }
        assert_eq!(f().unwrap_err().to_string(), "boom");
    }

    #[test]
    fn equality() {
        assert_eq!(Error::msg("a"), Error::msg("a"));
        assert_ne!(Error::msg("a"), Error::msg("b"));
    }
}

/// Why an error reached the [unhandled-error hook](set_unhandled_error_hook) instead of an
/// observer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Undeliverable {
    /// The observable was subscribed without an error handler
    /// ([`subscribe`](crate::ObservableExt::subscribe)); without a hook, this panics.
    NoErrorHandler,
    /// The subscription was disposed before the source signalled its error (an emitter of
    /// [`create`](crate::source::create) failing after its downstream let go); without a
    /// hook, the error is dropped.
    Disposed,
}

/// The process-wide hook, read only when an error cannot be delivered: a cold path, where a
/// lock costs nothing worth counting.
type Hook = Arc<dyn Fn(&Error, Undeliverable) + Send + Sync + 'static>;

static HOOK: std::sync::RwLock<Option<Hook>> = std::sync::RwLock::new(None);

/// Sends every error that cannot be delivered to `hook`, from now on, in the whole process:
/// an error of an observable subscribed without an error handler (which otherwise panics),
/// and one signalled after its subscription was disposed (which is otherwise dropped).
/// RxJava's `RxJavaPlugins.setErrorHandler`, RxJS's `config.onUnhandledError`. It replaces
/// the hook set before; [`clear_unhandled_error_hook`] brings the defaults back.
///
/// # Thread safety
///
/// `hook` is called on the thread where the error arises, possibly on several threads at
/// once, hence `Send + Sync`; it is called with no lock of rx held, so it may subscribe,
/// log, or set another hook. Setting or clearing the hook while another thread reports an
/// error is safe: that error goes to the old hook or to the new one.
///
/// # Examples
///
/// An application that logs what it cannot deliver instead of panicking (a crate of its
/// own: the hook is process-wide):
///
/// ```standalone_crate
/// use rx::prelude::*;
/// use std::sync::{Arc, Mutex};
///
/// let log = Arc::new(Mutex::new(Vec::new()));
/// let sink = log.clone();
/// rx::set_unhandled_error_hook(move |error, why| {
///     sink.lock().unwrap().push(format!("{why:?}: {error}"));
/// });
/// rx::source::throw::<i32>(rx::Error::msg("disk full")).subscribe(|_| {});
/// rx::clear_unhandled_error_hook();
/// assert_eq!(*log.lock().unwrap(), ["NoErrorHandler: disk full"]);
/// ```
pub fn set_unhandled_error_hook<F>(hook: F)
where
    F: Fn(&Error, Undeliverable) + Send + Sync + 'static,
{
    let previous = HOOK
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .replace(Arc::new(hook));
    // Dropped outside the lock: it may hold anything, and run anything when dropped.
    drop(previous);
}

/// Removes the hook of [`set_unhandled_error_hook`]: an error without a handler panics again,
/// and one after disposal is dropped.
pub fn clear_unhandled_error_hook() {
    let previous = HOOK
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    drop(previous);
}

/// Hands `error` to the hook if one is set; gives it back otherwise, for the default.
#[cold]
pub(crate) fn report_undeliverable(error: Error, why: Undeliverable) -> Result<(), Error> {
    let hook = HOOK
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    match hook {
        Some(hook) => {
            hook(&error, why);
            Ok(())
        }
        None => Err(error),
    }
}
