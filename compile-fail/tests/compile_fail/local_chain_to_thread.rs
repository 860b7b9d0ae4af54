// A chain that keeps a local subject's handle is local too: dispose its handle on the thread
// that made it, or build the chain on `rx::subjects::PublishSubject` to share it.
use rx::prelude::*;
use rx::subjects::local::PublishSubject;

fn main() {
    let clicks = PublishSubject::<i32>::new();
    let handle = clicks
        .observable()
        .merge_with(rx::source::never())
        .subscribe(|_| {});
    std::thread::spawn(move || handle.dispose());
}
