//! The quickstart example prints exactly what the README says it prints.

use std::path::PathBuf;
use std::process::Command;

/// `cargo test` builds the examples beside the test binaries: `target/<profile>/examples/`.
fn example_binary(name: &str) -> PathBuf {
    let mut dir = std::env::current_exe().expect("the test binary has a path");
    dir.pop(); // the test binary
    if dir.ends_with("deps") {
        dir.pop();
    }
    dir.join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn quickstart_prints_what_the_readme_shows() {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("<!-- quickstart-output -->")
        .expect("the README marks the quickstart output");
    let block = &readme[start..];
    let body_start = block.find("```text\n").expect("a text block") + "```text\n".len();
    let body_end = block[body_start..].find("```").expect("the block ends") + body_start;
    let expected = &block[body_start..body_end];

    let binary = example_binary("quickstart");
    let output = Command::new(&binary)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", binary.display()));
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}
