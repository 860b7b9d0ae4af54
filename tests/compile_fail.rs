//! The wording of the compiler errors for the most common mistakes, pinned: each says what to
//! do. The `.stderr` files are the expected messages; regenerate them with
//! `TRYBUILD=overwrite cargo test --test compile_fail` after a deliberate change.

#[test]
fn compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}
