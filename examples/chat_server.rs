//! A chat server over TCP, on loopback: the lines each connection sends are an observable,
//! merged into one subject, and every connection is sent everyone else's messages from it.
//!
//! ```text
//! connection 1 lines ─┐                   ┌─ filter(not from 1) ─ take_until(1 left) ─ socket 1
//! connection 2 lines ─┼─ PublishSubject ──┼─ filter(not from 2) ─ take_until(2 left) ─ socket 2
//! connection 3 lines ─┘                   └─ ...
//! ```
//!
//! The program starts the server on `127.0.0.1`, connects three scripted clients, has them
//! talk, and checks what each one received. Two more clients misbehave — one sends bytes that
//! are not UTF-8, one disconnects in the middle of a line — and are logged and dropped without
//! disturbing the others. Then the server shuts down and the program exits.
//!
//! Run it with `cargo run --release --features tokio,stream --example chat_server`.

use futures::{Stream, StreamExt};
use rx::prelude::*;
use rx::schedulers::Tokio;
use rx::subjects::{PublishSubject, ReplaySubject};
use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};

/// A chat message.
#[derive(Clone, Debug)]
struct Message {
    from: String,
    text: String,
}

/// Input that ends a connection.
#[derive(Debug)]
enum BadInput {
    NotUtf8,
    CutMidLine(String),
    Io(std::io::Error),
}

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadInput::NotUtf8 => write!(f, "sent a line that is not UTF-8"),
            BadInput::CutMidLine(part) => write!(f, "disconnected in the middle of {part:?}"),
            BadInput::Io(error) => write!(f, "connection failed: {error}"),
        }
    }
}

impl std::error::Error for BadInput {}

/// The lines a connection sends, as a stream. A line that is not UTF-8, or that the
/// connection cuts off before its `\n`, is the stream's last item, an error.
fn lines(reader: BufReader<OwnedReadHalf>) -> impl Stream<Item = Result<String, BadInput>> {
    futures::stream::unfold(Some(reader), |reader| async move {
        let mut reader = reader?;
        let mut line = Vec::new();
        let item = match reader.read_until(b'\n', &mut line).await {
            Ok(0) => return None,
            Err(error) => Err(BadInput::Io(error)),
            Ok(_) if line.last() != Some(&b'\n') => Err(BadInput::CutMidLine(
                String::from_utf8_lossy(&line).into_owned(),
            )),
            Ok(_) => {
                line.pop();
                String::from_utf8(line).map_err(|_| BadInput::NotUtf8)
            }
        };
        let next = if item.is_ok() { Some(reader) } else { None };
        Some((item, next))
    })
}

/// The server's shared parts: the subject every message goes through, and a log.
#[derive(Clone)]
struct Server {
    messages: PublishSubject<Message>,
    log: ReplaySubject<String>,
    tokio: Tokio,
}

impl Server {
    fn log(&self, line: String) {
        self.log.observer().on_next(line);
    }

    /// Accepts connections for ever.
    async fn accept(self, listener: TcpListener) {
        loop {
            match listener.accept().await {
                Ok((socket, _)) => {
                    tokio::spawn(self.clone().connection(socket));
                }
                Err(error) => self.log(format!("accept failed: {error}")),
            }
        }
    }

    /// Serves one connection, whose first line is the client's name.
    async fn connection(self, socket: TcpStream) {
        let (read, mut write) = socket.into_split();
        let mut reader = BufReader::new(read);
        let mut name = String::new();
        if reader.read_line(&mut name).await.is_err() || !name.ends_with('\n') {
            self.log("a client left before giving its name".to_owned());
            return;
        }
        let name = name.trim_end().to_owned();

        // Completes when this connection's input ends, which ends its output.
        let left = PublishSubject::<()>::new();

        // Output: everyone else's messages, until the input ends. It subscribes now, so
        // nothing sent after the welcome is missed.
        let me = name.clone();
        let mut outgoing = self
            .messages
            .observable()
            .filter(move |message| message.from != me)
            .take_until(left.observable())
            .into_stream();

        // Input: the connection's lines, as messages, into the subject.
        let (from, on_error, on_completed) = (name.clone(), left.observer(), left.observer());
        let (error_server, completed_server) = (self.clone(), self.clone());
        let (error_name, completed_name) = (name.clone(), name.clone());
        let mut messages = self.messages.observer();
        let input = rx::source::from_stream(lines(reader), self.tokio.clone())
            .try_map(|line| line)
            .map(move |text| Message {
                from: from.clone(),
                text,
            })
            .subscribe_with(
                move |message| messages.on_next(message),
                move |error| {
                    error_server.log(format!("{error_name} {error}: connection closed"));
                    on_error.on_completed();
                },
                move || {
                    completed_server.log(format!("{completed_name} left"));
                    on_completed.on_completed();
                },
            );
        self.log(format!("{name} joined"));

        let mut sent = write
            .write_all(format!("welcome {name}\n").as_bytes())
            .await;
        while sent.is_ok() {
            let Some(Ok(message)) = outgoing.next().await else {
                break;
            };
            let line = format!("{}: {}\n", message.from, message.text);
            sent = write.write_all(line.as_bytes()).await;
        }
        if let Err(error) = sent {
            self.log(format!("{name}: sending failed: {error}"));
        }
        // Dropping `write` closes the socket; the input stops reading, if it had not.
        input.dispose();
        self.log(format!("{name} disconnected"));
    }
}

/// A scripted chat client.
struct Client {
    name: &'static str,
    lines: Lines<BufReader<OwnedReadHalf>>,
    write: OwnedWriteHalf,
    received: Vec<String>,
}

/// How long a client waits for a line before the program gives up.
const PATIENCE: Duration = Duration::from_secs(5);

impl Client {
    /// Connects, gives its name, and waits for the welcome.
    async fn connect(address: SocketAddr, name: &'static str) -> Client {
        let (read, write) = TcpStream::connect(address)
            .await
            .expect("the server accepts")
            .into_split();
        let mut client = Client {
            name,
            lines: BufReader::new(read).lines(),
            write,
            received: Vec::new(),
        };
        client.send(format!("{name}\n").as_bytes()).await;
        client.expect(&format!("welcome {name}")).await;
        client
    }

    async fn send(&mut self, bytes: &[u8]) {
        self.write.write_all(bytes).await.expect("the server reads");
    }

    async fn say(&mut self, text: &str) {
        println!("{} says {text:?}", self.name);
        self.send(format!("{text}\n").as_bytes()).await;
    }

    /// The next line from the server, `None` once it closed the connection.
    async fn next_line(&mut self) -> Option<String> {
        let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
            .await
            .unwrap_or_else(|_| panic!("{} waited {PATIENCE:?} for a line", self.name))
            .expect("the connection reads");
        if let Some(line) = &line {
            println!("{} received {line:?}", self.name);
            self.received.push(line.clone());
        }
        line
    }

    async fn expect(&mut self, expected: &str) {
        assert_eq!(self.next_line().await.as_deref(), Some(expected));
    }

    /// Reads until the server closes the connection; returns everything received.
    async fn finish(mut self) -> Vec<String> {
        while self.next_line().await.is_some() {}
        self.received
    }
}

#[tokio::main]
async fn main() {
    let server = Server {
        messages: PublishSubject::new(),
        log: ReplaySubject::new(),
        tokio: Tokio::current(),
    };
    server
        .log
        .observable()
        .subscribe(|line| println!("[server] {line}"));

    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let address = listener.local_addr().expect("a bound address");
    println!("[server] listening on {address}");
    let accepting = tokio::spawn(server.clone().accept(listener));

    let script = async {
        let mut alice = Client::connect(address, "alice").await;
        let mut bob = Client::connect(address, "bob").await;
        let mut carol = Client::connect(address, "carol").await;

        alice.say("hi everyone").await;
        bob.expect("alice: hi everyone").await;
        carol.expect("alice: hi everyone").await;
        bob.say("hello alice").await;
        alice.expect("bob: hello alice").await;
        carol.expect("bob: hello alice").await;

        // Bytes that are not UTF-8: the server logs it and closes that connection.
        let mut mallory = Client::connect(address, "mallory").await;
        println!("mallory sends bytes that are not UTF-8");
        mallory.send(b"\xff\xfe oops\n").await;
        assert_eq!(mallory.finish().await, ["welcome mallory"]);

        // A line cut off by a disconnect: logged, and nothing of it is broadcast.
        let mut trudy = Client::connect(address, "trudy").await;
        println!("trudy sends half a line and disconnects");
        trudy.send(b"half a li").await;
        drop(trudy);
        server
            .log
            .observable()
            .filter(|line| line.starts_with("trudy disconnected in the middle"))
            .first_value()
            .await
            .expect("the server logs trudy's disconnect");

        carol.say("bye").await;
        alice.expect("carol: bye").await;
        bob.expect("carol: bye").await;

        // Shutting down: completing the subject ends every connection's output.
        server.messages.observer().on_completed();
        let (alice, bob, carol) = (alice.finish(), bob.finish(), carol.finish());
        assert_eq!(
            alice.await,
            ["welcome alice", "bob: hello alice", "carol: bye"]
        );
        assert_eq!(
            bob.await,
            ["welcome bob", "alice: hi everyone", "carol: bye"]
        );
        assert_eq!(
            carol.await,
            ["welcome carol", "alice: hi everyone", "bob: hello alice"]
        );
    };
    tokio::time::timeout(Duration::from_secs(20), script)
        .await
        .expect("the chat finishes in time");

    // Every connection's task has finished: the five clients are disconnected.
    let disconnected = server
        .log
        .observable()
        .filter(|line| line.ends_with(" disconnected"))
        .take(5)
        .count()
        .last_value();
    let disconnected = tokio::time::timeout(Duration::from_secs(5), disconnected).await;
    assert_eq!(disconnected.expect("every connection ends").ok(), Some(5));
    accepting.abort();
    println!("every client received what it should");
}
