//! Search as you type, in a browser: what the user types in a search box is debounced,
//! repeated queries are dropped, and each query starts a lookup that answers after a random
//! delay and replaces the one still running for the previous query. A spinner shows while a
//! lookup runs; the results fill a list.
//!
//! ```text
//! input events ─ map(box's text) ─ debounce(250 ms) ─ distinct_until_changed
//!              ─ tap(show spinner) ─ switch_map(lookup) ─ results, spinner hidden
//! ```
//!
//! Build it for wasm32 and serve the page (the README's "Examples" section has the commands):
//!
//! ```sh
//! cargo build --release --target wasm32-unknown-unknown --features web --example web_search
//! wasm-bindgen --target web --no-typescript --out-dir examples/web_search/pkg \
//!     target/wasm32-unknown-unknown/release/examples/web_search.wasm
//! python3 -m http.server --directory examples/web_search 8000   # open http://localhost:8000
//! ```
//!
//! Natively it only says so.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!(
        "web_search runs in a browser: build it for wasm32-unknown-unknown with the `web` \
         feature and serve examples/web_search/ (see the README)"
    );
}

#[cfg(target_arch = "wasm32")]
fn main() {
    page::run();
}

#[cfg(target_arch = "wasm32")]
mod page {
    use rx::observer::NextObserver;
    use rx::prelude::*;
    use rx::schedulers::web::{OnPage, SetTimeout};
    use std::time::Duration;
    use wasm_bindgen::JsCast;
    use web_sys::{Document, HtmlElement, HtmlInputElement};

    /// What there is to find: operator names, separated by spaces.
    const NAMES: &str = "\
        buffer combine_latest concat concat_map debounce delay distinct \
        distinct_until_changed exhaust_map filter filter_map first flat_map group_by last \
        map map_err merge merge_with observe_on pairwise reduce retry sample scan skip \
        skip_until start_with subscribe_on switch_map switch_on_next take take_until tap \
        throttle timeout window with_latest_from zip";

    const DEBOUNCE: Duration = Duration::from_millis(250);

    /// Builds the page (a search box, a spinner, a status line and a list) and wires it.
    pub(crate) fn run() {
        let document = web_sys::window()
            .and_then(|window| window.document())
            .expect("a page");
        let body = document.body().expect("a body");
        let input: HtmlInputElement = element(&document, "input")
            .dyn_into()
            .expect("an input element");
        input.set_id("search");
        input.set_placeholder("an operator's name, e.g. switch");
        let spinner = element(&document, "span");
        spinner.set_id("spinner");
        spinner.set_text_content(Some("searching…"));
        show(&spinner, false);
        let status = element(&document, "p");
        status.set_id("status");
        let list = element(&document, "ul");
        list.set_id("results");
        for node in [&input as &HtmlElement, &spinner, &status, &list] {
            body.append_child(node).expect("appended");
        }
        input.focus().ok();

        // DOM objects are not `Send`; the page has one thread, and `OnPage` says so to the
        // operators that keep their observers in thread-safe state (`debounce`, `switch_map`).
        let field = OnPage(input.clone());
        let spin = OnPage(spinner.clone());
        let page = OnPage((document, spinner, status, list));
        // Dropping the handle leaves the search running, for as long as the page.
        let _search = rx::source::from_event(&input, "input")
            .map(move |_| field.value().trim().to_lowercase())
            .debounce(DEBOUNCE, SetTimeout)
            .distinct_until_changed()
            .tap(move |_| show(&spin, true))
            .switch_map(|query: String| {
                // The lookup: answers after 100 to 900 ms. A newer query disposes this one's
                // timer, so a late answer for an old query never shows.
                let delay = Duration::from_millis(100 + (js_sys::Math::random() * 800.0) as u64);
                rx::source::timer(delay, SetTimeout).map(move |_| {
                    let found: Vec<&'static str> = NAMES
                        .split_whitespace()
                        .filter(|name| !query.is_empty() && name.contains(query.as_str()))
                        .collect();
                    (query.clone(), found, delay)
                })
            })
            .subscribe_observer(OnPage(NextObserver::new(
                move |(query, found, delay): (String, Vec<&str>, Duration)| {
                    let (document, spinner, status, list) = &*page;
                    show(spinner, false);
                    status.set_text_content(Some(&format!(
                        "{} for “{query}” (answered in {} ms)",
                        match found.len() {
                            1 => "1 operator".to_owned(),
                            n => format!("{n} operators"),
                        },
                        delay.as_millis()
                    )));
                    list.set_inner_html("");
                    for name in found {
                        let item = element(document, "li");
                        item.set_text_content(Some(name));
                        list.append_child(&item).expect("appended");
                    }
                },
            )));
    }

    fn element(document: &Document, tag: &str) -> HtmlElement {
        document
            .create_element(tag)
            .expect("an element")
            .dyn_into()
            .expect("an HTML element")
    }

    fn show(element: &HtmlElement, visible: bool) {
        let visibility = if visible { "visible" } else { "hidden" };
        element
            .style()
            .set_property("visibility", visibility)
            .expect("a style");
    }
}
