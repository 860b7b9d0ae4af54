//! [`Keys`]: the due times of a timed queue's tasks, earliest first, in two lanes.
//!
//! Timers set with one delay are due in the order they are set, since time only moves
//! forward; so are the keys of a queue whose timeouts all have the same length, the common
//! case by far. Such keys go to a first-in first-out lane, where a push writes after the last
//! key and a pop takes the first, each O(1) on memory just touched. Only a key due before the
//! last one of that lane goes to a binary heap. The earliest key is the earlier of the two
//! lanes' firsts.
//!
//! A cancelled task leaves its key behind (a tombstone, see the timed queue). Timeouts are
//! mostly cancelled in the order they were set, which is the order of the first-in first-out
//! lane: [`Keys::pop_dead_front`] takes them off its front as they die, so such a burst of
//! cancellations leaves no tombstone to compact.
//!
//! Plain data: the queue's lock guards it.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// A task's key: when it is due, the sequence number of its push, and its slot. Plain data,
/// so a tombstone costs its few bytes and nothing else: three words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    /// Nanoseconds from the queue's epoch.
    pub(crate) due: i64,
    /// Breaks ties first-in first-out, and names the push: no two keys share one.
    pub(crate) seq: u64,
    pub(crate) slot: u32,
}

impl Key {
    fn is_before(&self, other: &Key) -> bool {
        (self.due, self.seq) < (other.due, other.seq)
    }
}

/// A key in the heap lane, ordered so that std's max-heap pops the earliest first.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Late(Key);

impl PartialOrd for Late {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Late {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.0.due, other.0.seq).cmp(&(self.0.due, self.0.seq))
    }
}

/// Which lane holds the earliest key.
enum Lane {
    InOrder,
    Heap,
}

/// Keys by due time, then push order (module docs).
pub(crate) struct Keys {
    /// Keys in the order of `(due, seq)`, pushed at the back.
    in_order: VecDeque<Key>,
    /// The keys due before the back of `in_order` when they were pushed.
    heap: BinaryHeap<Late>,
}

impl Keys {
    pub(crate) const fn new() -> Self {
        Keys {
            in_order: VecDeque::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// Room for `capacity` keys in order, and none out of order yet.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Keys {
            in_order: VecDeque::with_capacity(capacity),
            heap: BinaryHeap::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.in_order.len() + self.heap.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.in_order.is_empty() && self.heap.is_empty()
    }

    /// Keys the buffers have room for, both lanes together.
    pub(crate) fn capacity(&self) -> usize {
        self.in_order.capacity() + self.heap.capacity()
    }

    /// Adds a key whose `seq` is above every other's; whether it is the new earliest.
    ///
    /// Inlined, so that a key is stored where it goes field by field: passed by reference, it
    /// would be built on the stack and copied in wide loads of narrow stores, which the store
    /// buffer cannot forward (see the timed queue's `QueueWorker::enqueue`; ~5 ns a schedule).
    #[inline]
    pub(crate) fn push(&mut self, key: Key) -> bool {
        if self.in_order.back().is_none_or(|last| last.due <= key.due) {
            self.in_order.push_back(key);
            // Behind others in its lane, it cannot be the earliest.
            self.in_order.len() == 1 && self.heap.peek().is_none_or(|top| key.is_before(&top.0))
        } else {
            self.heap.push(Late(key));
            self.heap.peek().is_some_and(|top| top.0.seq == key.seq)
                && self
                    .in_order
                    .front()
                    .is_none_or(|first| key.is_before(first))
        }
    }

    fn earliest_lane(&self) -> Option<Lane> {
        match (self.in_order.front(), self.heap.peek()) {
            (None, None) => None,
            (Some(_), None) => Some(Lane::InOrder),
            (None, Some(_)) => Some(Lane::Heap),
            (Some(first), Some(top)) if first.is_before(&top.0) => Some(Lane::InOrder),
            (Some(_), Some(_)) => Some(Lane::Heap),
        }
    }

    /// The earliest key.
    pub(crate) fn peek(&self) -> Option<Key> {
        match self.earliest_lane()? {
            Lane::InOrder => self.in_order.front().copied(),
            Lane::Heap => self.heap.peek().map(|top| top.0),
        }
    }

    /// Takes the earliest key out.
    pub(crate) fn pop(&mut self) -> Option<Key> {
        match self.earliest_lane()? {
            Lane::InOrder => self.in_order.pop_front(),
            Lane::Heap => self.heap.pop().map(|top| top.0),
        }
    }

    /// Takes the keys that are not `live` off the front of the in-order lane, up to the
    /// first live one: O(1) each, where a tombstone in the heap waits for a compaction or
    /// for the driver to reach it.
    pub(crate) fn pop_dead_front(&mut self, live: impl Fn(&Key) -> bool) {
        while self.in_order.front().is_some_and(|first| !live(first)) {
            self.in_order.pop_front();
        }
    }

    /// Every key, in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Key> {
        self.in_order
            .iter()
            .chain(self.heap.iter().map(|late| &late.0))
    }

    /// Keeps only the keys for which `keep` holds.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Key) -> bool) {
        self.in_order.retain(&mut keep);
        self.heap.retain(|late| keep(&late.0));
    }

    pub(crate) fn clear(&mut self) {
        self.in_order.clear();
        self.heap.clear();
    }

    /// Shrinks each lane's buffer to twice its length: room to grow, no more.
    pub(crate) fn shrink(&mut self) {
        self.in_order.shrink_to(2 * self.in_order.len());
        self.heap.shrink_to(2 * self.heap.len());
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn key(due: i64, seq: u64) -> Key {
        Key {
            due,
            seq,
            slot: seq as u32,
        }
    }

    fn drain(keys: &mut Keys) -> Vec<u64> {
        std::iter::from_fn(|| keys.pop().map(|key| key.seq)).collect()
    }

    #[test]
    fn keys_pop_by_due_time_then_push_order_across_both_lanes() {
        let mut keys = Keys::new();
        let pushed = [(10, 1), (20, 2), (5, 3), (20, 4), (15, 5), (30, 6), (5, 7)];
        let tops: Vec<bool> = pushed
            .iter()
            .map(|&(due, seq)| keys.push(key(due, seq)))
            .collect();
        assert_eq!(tops, [true, false, true, false, false, false, false]);
        // 10, 20, 20, 30 went in order; 5, 15, 5 to the heap.
        assert_eq!((keys.in_order.len(), keys.heap.len()), (4, 3));
        assert_eq!(keys.peek(), Some(key(5, 3)));
        assert_eq!(drain(&mut keys), [3, 7, 1, 5, 2, 4, 6]);
        assert!(keys.is_empty());
    }

    #[test]
    fn a_key_ahead_of_both_lanes_is_the_new_top() {
        let mut keys = Keys::new();
        assert!(keys.push(key(10, 1)));
        assert!(keys.push(key(3, 2)));
        assert!(!keys.push(key(4, 3)));
        assert!(keys.push(key(1, 4)));
        assert_eq!(keys.pop(), Some(key(1, 4)));
        assert_eq!(keys.pop(), Some(key(3, 2)));
        assert_eq!(keys.pop(), Some(key(4, 3)));
        assert_eq!(keys.pop(), Some(key(10, 1)));
        // Both lanes empty: whatever comes is the earliest.
        assert!(keys.push(key(12, 5)));
    }

    #[test]
    fn dead_keys_leave_the_front_of_the_in_order_lane_only() {
        let mut keys = Keys::new();
        for seq in 1..=5 {
            keys.push(key(10 * seq as i64, seq));
        }
        keys.push(key(1, 6));
        let dead = [1, 2, 4, 6];
        keys.pop_dead_front(|key| !dead.contains(&key.seq));
        // 1 and 2 went; 4 waits behind the live 3, and 6 sits in the heap.
        assert_eq!(keys.len(), 4);
        keys.retain(|key| !dead.contains(&key.seq));
        assert_eq!(drain(&mut keys), [3, 5]);
    }

    #[test]
    fn retain_and_shrink_keep_the_order() {
        let mut keys = Keys::with_capacity(64);
        for seq in 1..=40u64 {
            // Every third key is due earlier than the one before it.
            let due = if seq % 3 == 0 {
                seq as i64 - 10
            } else {
                seq as i64
            };
            keys.push(key(due, seq));
        }
        keys.retain(|key| key.seq % 2 == 0);
        keys.shrink();
        assert!(keys.capacity() <= 2 * keys.len());
        let mut expected: Vec<Key> = keys.iter().copied().collect();
        expected.sort_by_key(|key| (key.due, key.seq));
        let popped: Vec<Key> = std::iter::from_fn(|| keys.pop()).collect();
        assert_eq!(popped, expected);
        assert_eq!(popped.len(), 20);
    }
}
