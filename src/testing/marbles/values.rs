//! What the value characters of a diagram stand for.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

/// What the value characters of a diagram stand for: a table of `(char, T)` pairs (an array,
/// a slice, a `Vec`, a `HashMap` or a `BTreeMap`), or a closure `Fn(char) -> T`.
///
/// ```
/// use rx::testing::marbles::MarbleValues;
///
/// assert_eq!([('a', 1), ('b', 2)].value_of('b'), Some(2));
/// assert_eq!([('a', 1)].value_of('z'), None);
/// assert_eq!((|c: char| c.to_ascii_uppercase()).value_of('q'), Some('Q'));
/// ```
pub trait MarbleValues<T> {
    /// The value `marble` stands for; `None` makes the diagram invalid.
    fn value_of(&self, marble: char) -> Option<T>;
}

impl<T, F: Fn(char) -> T> MarbleValues<T> for F {
    fn value_of(&self, marble: char) -> Option<T> {
        Some(self(marble))
    }
}

fn lookup<T: Clone>(table: &[(char, T)], marble: char) -> Option<T> {
    table
        .iter()
        .find(|(c, _)| *c == marble)
        .map(|(_, v)| v.clone())
}

impl<T: Clone, const N: usize> MarbleValues<T> for [(char, T); N] {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(self, marble)
    }
}

impl<T: Clone, const N: usize> MarbleValues<T> for &[(char, T); N] {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(*self, marble)
    }
}

impl<T: Clone> MarbleValues<T> for &[(char, T)] {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(self, marble)
    }
}

impl<T: Clone> MarbleValues<T> for Vec<(char, T)> {
    fn value_of(&self, marble: char) -> Option<T> {
        lookup(self, marble)
    }
}

impl<T: Clone, H: BuildHasher> MarbleValues<T> for HashMap<char, T, H> {
    fn value_of(&self, marble: char) -> Option<T> {
        self.get(&marble).cloned()
    }
}

impl<T: Clone> MarbleValues<T> for BTreeMap<char, T> {
    fn value_of(&self, marble: char) -> Option<T> {
        self.get(&marble).cloned()
    }
}
