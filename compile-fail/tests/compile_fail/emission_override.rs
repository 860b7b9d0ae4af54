// An observable implemented outside the crate cannot claim that it emits only inside
// `subscribe`: the type of `Observable::EMISSION` cannot be named, by path or by `_`.
use rx::prelude::*;

struct ByPath;

impl Observable for ByPath {
    type Item = i32;
    type Flavour = rx::sync::Shared;
    const EMISSION: rx::observable::Emission =
        <rx::source::Just<i32> as Observable>::EMISSION;
}

struct ByPlaceholder;

impl Observable for ByPlaceholder {
    type Item = i32;
    type Flavour = rx::sync::Shared;
    const EMISSION: _ = <rx::source::Just<i32> as Observable>::EMISSION;
}

fn main() {}
