// A local subject is kept with `Rc`: it stays on the thread that made it.
use rx::subjects::local::PublishSubject;

fn main() {
    let subject = PublishSubject::<i32>::new();
    std::thread::spawn(move || subject.on_next(1));
}
