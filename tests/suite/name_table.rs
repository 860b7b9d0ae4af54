//! The README's operator table and the guide's name table ("coming from RxJS, RxJava and
//! RPP") are one table: the two copies agree row for row, every name in the rx column exists
//! in the crate, and every method of `ObservableExt` and every function of `rx::source` is
//! named in it. The README is the source: after editing its table,
//! `UPDATE_NAME_TABLE=1 cargo test --test suite name_table` writes it into the guide.

use std::fs;
use std::path::Path;

const README: &str = include_str!("../../README.md");
const GUIDE: &str = include_str!("../../src/guide/coming_from.rs");

/// The rows of the first table after `heading` in a markdown text.
fn table_after<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("{heading:?} is missing"));
    text[start..]
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .collect()
}

/// The guide's documentation, without the `//!` prefixes.
fn guide_markdown() -> String {
    GUIDE
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

const GUIDE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/coming_from.rs");

/// The guide's source with its table replaced by `rows`.
fn guide_with_table(rows: &[&str]) -> String {
    let mut out = Vec::new();
    let mut lines = GUIDE.lines().peekable();
    while let Some(line) = lines.next() {
        out.push(line.to_owned());
        if line == "//! ## Names" {
            while let Some(line) = lines.next_if(|line| !line.starts_with("//! |")) {
                out.push(line.to_owned());
            }
            while lines.next_if(|line| line.starts_with("//! |")).is_some() {}
            out.extend(rows.iter().map(|row| format!("//! {row}")));
        }
    }
    out.join("\n") + "\n"
}

#[test]
fn the_readme_and_the_guide_have_the_same_table() {
    let readme = table_after(README, "## Operators");
    assert!(readme.len() > 10, "the README's table has its rows");
    if std::env::var_os("UPDATE_NAME_TABLE").is_some() {
        fs::write(GUIDE_PATH, guide_with_table(&readme)).expect("the guide is writable");
        return;
    }
    let guide = guide_markdown();
    let guide = table_after(&guide, "## Names");
    let fix =
        "run `UPDATE_NAME_TABLE=1 cargo test --test suite name_table` to copy the README's table";
    for (i, (a, b)) in readme.iter().zip(&guide).enumerate() {
        assert_eq!(
            a, b,
            "row {i} differs between README.md and the guide: {fix}"
        );
    }
    assert_eq!(
        readme.len(),
        guide.len(),
        "the tables differ in length: {fix}"
    );
}

#[test]
fn rewriting_the_guide_with_its_own_table_changes_nothing() {
    let guide = guide_markdown();
    let rows = table_after(&guide, "## Names");
    assert_eq!(guide_with_table(&rows), GUIDE);
}

/// Every source file of the crate, concatenated.
fn crate_source() -> String {
    fn walk(dir: &Path, out: &mut String) {
        for entry in fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push_str(&fs::read_to_string(&path).expect("a source file"));
            }
        }
    }
    let mut out = String::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out
}

#[test]
fn every_name_in_the_rx_column_exists() {
    let source = crate_source();
    let rows = table_after(README, "## Operators");
    for row in &rows[2..] {
        let rx_column = row.split('|').nth(2).expect("an rx column");
        for name in rx_column.split('`').skip(1).step_by(2) {
            let defined = [
                format!("fn {name}("),
                format!("fn {name}<"),
                format!("struct {name} "),
                format!("struct {name}<"),
                format!("struct {name};"),
            ];
            assert!(
                defined.iter().any(|d| source.contains(d.as_str())),
                "the table names `{name}`, which the crate does not define"
            );
        }
    }
}

/// Every name in the README table's rx column.
fn names_in_the_table() -> std::collections::BTreeSet<&'static str> {
    let rows = table_after(README, "## Operators");
    rows[2..]
        .iter()
        .flat_map(|row| {
            let rx_column = row.split('|').nth(2).expect("an rx column");
            rx_column.split('`').skip(1).step_by(2)
        })
        .collect()
}

/// The names of the methods of `ObservableExt`: its file holds the trait and nothing else
/// with a body, one method a `    fn name` line.
fn operator_methods() -> Vec<&'static str> {
    include_str!("../../src/observable_ext.rs")
        .lines()
        .filter_map(|line| line.strip_prefix("    fn "))
        .map(|rest| rest.split(['<', '(']).next().expect("a method name"))
        .collect()
}

/// The functions `rx::source` exports: the lowercase names its `pub use` lines bring in
/// (types are capitalised), whatever the feature or target that gates them.
fn source_functions() -> Vec<&'static str> {
    let module = include_str!("../../src/source/mod.rs");
    let mut names = Vec::new();
    let mut in_use = false;
    for line in module.lines() {
        let line = line.trim();
        if line.starts_with("pub use ") {
            in_use = true;
        }
        if in_use {
            let listed = line.rsplit("::").next().unwrap_or(line);
            names.extend(
                listed
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|name| name.starts_with(|c: char| c.is_ascii_lowercase()))
                    .filter(|name| !matches!(*name, "pub" | "use" | "crate" | "self" | "super")),
            );
        }
        if line.ends_with(';') {
            in_use = false;
        }
    }
    names
}

#[test]
fn the_parsers_find_what_they_should() {
    let methods = operator_methods();
    for known in ["map", "subscribe", "into_stream_bounded", "group_by_until"] {
        assert!(
            methods.contains(&known),
            "{known} not found in ObservableExt"
        );
    }
    let sources = source_functions();
    for known in [
        "just",
        "from_future_result",
        "timer_at",
        "from_event",
        "zip_all",
    ] {
        assert!(sources.contains(&known), "{known} not found in rx::source");
    }
    assert!(!sources.iter().any(|s| s.starts_with(char::is_uppercase)));
}

#[test]
fn every_operator_and_source_has_its_row() {
    let table = names_in_the_table();
    let missing: Vec<_> = operator_methods()
        .into_iter()
        .chain(source_functions())
        .filter(|name| !table.contains(name))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's operator table does not name {missing:?}: add each to the row of its \
         family, with its names in RxJS, RxJava and RPP, then run \
         `UPDATE_NAME_TABLE=1 cargo test --test suite name_table`"
    );
}
