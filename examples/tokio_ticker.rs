//! rx inside a tokio program: an `interval` on the `Tokio` scheduler consumed as a `Stream`
//! with `while let Some(..) = stream.next().await`, and a tokio channel turned into an
//! observable with `from_stream`.
//!
//! Run it with `cargo run --release --features tokio,stream --example tokio_ticker`.

use futures::StreamExt;
use rx::prelude::*;
use rx::schedulers::Tokio;
use std::time::Duration;
use tokio_stream::wrappers::ReceiverStream;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tokio = Tokio::current();

    // Observable → Stream: five ticks 20 ms apart, awaited one by one. The stream subscribes
    // when it is made, so the clock starts now.
    let started = tokio::time::Instant::now();
    let mut ticks = rx::source::interval(Duration::from_millis(20), tokio.clone())
        .take(5)
        .map(|tick| format!("tick {tick}"))
        .into_stream();
    let mut count = 0;
    while let Some(tick) = ticks.next().await {
        let tick = tick.expect("an interval does not fail");
        println!("{tick} after {:>3} ms", started.elapsed().as_millis());
        count += 1;
    }
    assert_eq!(count, 5);
    // Ticks are due at absolute times, 20 ms apart from the subscription: no tick comes early.
    assert!(started.elapsed() >= Duration::from_millis(100));

    // Stream → Observable: a producer task sends into a tokio channel; rx reads it as a
    // stream, polled on the `Tokio` scheduler, and runs operators over it.
    let (sender, receiver) = tokio::sync::mpsc::channel::<u32>(8);
    tokio::spawn(async move {
        for reading in [3, 1, 4, 1, 5, 9, 2, 6] {
            sender.send(reading).await.expect("the receiver is alive");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Dropping the sender ends the stream, which completes the observable.
    });
    let summary = rx::source::from_stream(ReceiverStream::new(receiver), tokio)
        .scan(0, |sum, v| sum + v)
        .tap(|sum| println!("running sum: {sum}"))
        .last_value()
        .await;
    assert_eq!(summary, Ok(31));
    println!("sum of the channel's readings: {}", summary.unwrap());
}
