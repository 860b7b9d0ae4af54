//! A counter with a label, as a single-threaded UI would build it: the buttons and the text
//! field are subjects, `scan` folds the clicks into a model, `combine_latest_with` joins the
//! model and the label into the view, and the view is drawn to the terminal after each event.
//!
//! ```text
//! clicks ─ scan(update) ─ start_with(Model::default()) ─┐
//!                                                       ├─ combine_latest_with(view) ─ draw
//! label (a BehaviorSubject, "") ────────────────────────┘
//! ```
//!
//! Run it with `cargo run --release --example ui_counter`. At a terminal, type `+`, `-` or
//! `reset` to press a button, `<` to erase a character of the label, anything else to type
//! it into the label (end with Ctrl-D); otherwise it plays a script.

use rx::prelude::*;
use rx::subjects::local::{BehaviorSubject, PublishSubject};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal};
use std::rc::Rc;

/// A button press.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Click {
    Increment,
    Decrement,
    Reset,
}

/// What the counter knows.
#[derive(Clone, Debug, Default, PartialEq)]
struct Model {
    count: i64,
    clicks: u32,
}

impl Model {
    /// The model after one more click.
    fn update(self, click: Click) -> Model {
        let count = match click {
            Click::Increment => self.count + 1,
            Click::Decrement => self.count - 1,
            Click::Reset => 0,
        };
        Model {
            count,
            clicks: self.clicks + 1,
        }
    }
}

/// The view: one line of text.
fn view(model: Model, label: String) -> String {
    let label = if label.is_empty() { "count" } else { &label };
    format!("[ {label}: {:>3} ]   {} clicks", model.count, model.clicks)
}

/// The widgets, owned by the UI thread. The text field's buffer is shared with the "reset"
/// button, which also clears it: single-threaded state, so `Rc<RefCell<..>>`.
struct Widgets {
    label_text: Rc<RefCell<String>>,
    label: BehaviorSubject<String>,
    buttons: PublishSubject<Click>,
}

/// An event from the user.
enum Event<'a> {
    Press(Click),
    Type(&'a str),
    Erase,
}

impl Widgets {
    /// Tells the pipeline what the text field now holds.
    fn label_changed(&self) {
        let text = self.label_text.borrow().clone();
        self.label.on_next(text);
    }

    fn handle(&self, event: Event<'_>) {
        match event {
            Event::Press(click) => {
                self.buttons.on_next(click);
                if click == Click::Reset {
                    self.label_text.borrow_mut().clear();
                    self.label_changed();
                }
            }
            Event::Type(text) => {
                self.label_text.borrow_mut().push_str(text);
                self.label_changed();
            }
            Event::Erase => {
                self.label_text.borrow_mut().pop();
                self.label_changed();
            }
        }
    }
}

const SCRIPT: &[&str] = &["+", "+", "apples", "+", "-", "<", "s", "+", "reset", "-"];

fn parse(line: &str) -> Event<'_> {
    match line {
        "+" => Event::Press(Click::Increment),
        "-" => Event::Press(Click::Decrement),
        "reset" => Event::Press(Click::Reset),
        "<" => Event::Erase,
        text => Event::Type(text),
    }
}

fn main() {
    let buttons = PublishSubject::<Click>::new();
    let label = BehaviorSubject::new(String::new());

    // What the screen shows: every frame drawn. Everything runs on this thread, so the
    // subjects are the local kind, and what their subscribers capture needs no lock: an
    // `Rc<RefCell<..>>`, as a UI's widgets are.
    let screen = Rc::new(RefCell::new(Vec::<String>::new()));
    let drawn = screen.clone();
    let _ui = buttons
        .observable()
        .scan(Model::default(), Model::update)
        .start_with(Model::default())
        .combine_latest_with(label.observable(), view)
        .subscribe(move |frame| {
            let mut frames = drawn.borrow_mut();
            frames.push(frame);
            println!("frame {:>2} | {}", frames.len(), frames.last().unwrap());
        });

    let widgets = Widgets {
        label_text: Rc::new(RefCell::new(String::new())),
        label,
        buttons,
    };
    if std::io::stdin().is_terminal() {
        println!("+, - or reset press a button; < erases; other text goes into the label");
        for line in std::io::stdin().lock().lines() {
            widgets.handle(parse(line.expect("stdin is readable").trim()));
        }
    } else {
        for line in SCRIPT {
            println!("> {line}");
            widgets.handle(parse(line));
        }
        // Subjects deliver on the caller's thread, so every frame is drawn already: one for
        // the first view and one for each event (two for "reset": the count, then the label).
        let frames = screen.borrow();
        assert_eq!(frames.len(), 1 + SCRIPT.len() + 1);
        assert_eq!(frames[3], "[ apples:   2 ]   2 clicks");
        assert_eq!(frames.last().unwrap(), "[ count:  -1 ]   7 clicks");
    }
}
