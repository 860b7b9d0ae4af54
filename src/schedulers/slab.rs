//! [`Slab`]: the slots of a timed queue's tasks, in chunks that are freed as they empty.
//!
//! A slot is named by a `u32` index that never changes while it is occupied, so a task's
//! handles and its key can name it without a pointer, and a task costs no allocation of
//! its own. Vacant slots are threaded on a free list inside their chunk, and the chunks with
//! room are kept on a stack, the last one to gain room filled first.
//!
//! # Giving memory back
//!
//! An index cannot change while its slot is occupied, so a slab cannot move its live entries
//! together as a vector would be compacted. It is cut into chunks of [`CHUNK`] slots
//! instead: a chunk that empties gives its buffer back (all but the first, where a small
//! queue lives), trailing empty chunks are cut off, and an empty slab goes back to a fixed
//! small size. So a burst of cancelled timers leaves at most a chunk's buffer per live one,
//! and a chunk's header (a few words) per [`CHUNK`] slots between them.
//!
//! A slab made [`keeping`](Slab::keeping) the buffers of the chunks that empty gives them back
//! only when told to ([`Slab::release`]): the next burst then fills memory already mapped
//! rather than faulting in pages the allocator returned to the system, which costs more than
//! the rest of a schedule. Its owner decides when the kept memory has gone unused long enough.
//!
//! Plain data: the queue's lock guards it.

use std::mem;

/// Slots a chunk holds: a chunk's buffer is the unit memory is given back in.
#[cfg(not(loom))]
pub(crate) const CHUNK: usize = 256;
/// Small under loom, so that the models give chunks back.
#[cfg(loom)]
pub(crate) const CHUNK: usize = 2;

/// The first chunk's buffer when the slab is empty: a lone timeout set and cancelled over
/// and over does not allocate it each time.
pub(crate) const KEPT_WHEN_EMPTY: usize = 8;

/// The end of a free list.
const NONE: u32 = u32::MAX;

enum Entry<T> {
    Occupied(T),
    /// The offset of the next vacant slot of the chunk, or `NONE`.
    Vacant(u32),
}

struct Chunk<T> {
    entries: Vec<Entry<T>>,
    /// The first vacant slot among `entries`, or `NONE`.
    free: u32,
    /// Occupied slots.
    used: u32,
    /// Whether the chunk is on the slab's stack of chunks with room.
    open: bool,
}

impl<T> Chunk<T> {
    fn new() -> Self {
        Chunk {
            entries: Vec::new(),
            free: NONE,
            used: 0,
            open: true,
        }
    }

    fn is_full(&self) -> bool {
        self.free == NONE && self.entries.len() == CHUNK
    }

    /// Gives back the buffer of a chunk that emptied; its slots are allocated again when it
    /// is next filled.
    fn give_back_buffer(&mut self) {
        debug_assert_eq!(self.used, 0);
        self.entries = Vec::new();
        self.free = NONE;
    }
}

/// Slots of `T`, named by `u32` indices stable while occupied (module docs).
pub(crate) struct Slab<T> {
    chunks: Vec<Chunk<T>>,
    /// Chunks with a vacant slot or room to grow; the last one is filled first.
    open: Vec<u32>,
    len: usize,
    /// Whether chunks that empty keep their buffers until [`Slab::release`].
    keeps_emptied: bool,
    /// Chunks but the first that are empty and keep their buffers.
    emptied: usize,
    /// Whether an insert filled a kept empty chunk since [`Slab::take_reused`] last looked.
    reused: bool,
}

fn split(index: u32) -> (usize, usize) {
    let index = index as usize;
    (index / CHUNK, index % CHUNK)
}

impl<T> Slab<T> {
    /// A slab that gives a chunk's buffer back as soon as the chunk empties.
    pub(crate) const fn new() -> Self {
        Slab {
            chunks: Vec::new(),
            open: Vec::new(),
            len: 0,
            keeps_emptied: false,
            emptied: 0,
            reused: false,
        }
    }

    /// A slab that keeps the buffers of the chunks that empty until [`Slab::release`].
    pub(crate) fn keeping() -> Self {
        Slab {
            keeps_emptied: true,
            ..Slab::new()
        }
    }

    /// Occupied slots.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// One past the highest index a slot may have now.
    pub(crate) fn end(&self) -> u32 {
        (self.chunks.len() * CHUNK) as u32
    }

    /// Puts `value` in a vacant slot, and names it.
    ///
    /// # Panics
    ///
    /// If `u32::MAX` slots are occupied.
    pub(crate) fn insert(&mut self, value: T) -> u32 {
        let c = match self.open.last() {
            Some(&c) => c as usize,
            None => {
                let c = self.chunks.len();
                assert!(
                    (c + 1) * CHUNK <= NONE as usize,
                    "rx: too many tasks queued"
                );
                self.chunks.push(Chunk::new());
                self.open.push(c as u32);
                c
            }
        };
        let chunk = &mut self.chunks[c];
        if chunk.used == 0 && c > 0 && chunk.entries.capacity() > 0 {
            self.emptied -= 1;
            self.reused = true;
        }
        let offset = if chunk.free != NONE {
            let offset = chunk.free;
            let entry = &mut chunk.entries[offset as usize];
            // Only the link is read: `mem::replace` would load the whole entry as well.
            let Entry::Vacant(next) = *entry else {
                unreachable!("the free list threads vacant slots")
            };
            *entry = Entry::Occupied(value);
            chunk.free = next;
            offset
        } else {
            if chunk.entries.capacity() == 0 && c > 0 {
                // Every chunk but the first is filled whole, or nearly: one allocation.
                chunk.entries.reserve_exact(CHUNK);
            }
            chunk.entries.push(Entry::Occupied(value));
            (chunk.entries.len() - 1) as u32
        };
        chunk.used += 1;
        if chunk.is_full() {
            chunk.open = false;
            self.open.pop();
        }
        self.len += 1;
        (c * CHUNK) as u32 + offset
    }

    pub(crate) fn get(&self, index: u32) -> Option<&T> {
        let (c, offset) = split(index);
        match self.chunks.get(c)?.entries.get(offset)? {
            Entry::Occupied(value) => Some(value),
            Entry::Vacant(_) => None,
        }
    }

    pub(crate) fn get_mut(&mut self, index: u32) -> Option<&mut T> {
        let (c, offset) = split(index);
        match self.chunks.get_mut(c)?.entries.get_mut(offset)? {
            Entry::Occupied(value) => Some(value),
            Entry::Vacant(_) => None,
        }
    }

    /// Takes the value out of an occupied slot, which becomes vacant; gives back the chunk's
    /// buffer if it empties.
    ///
    /// # Panics
    ///
    /// If the slot is vacant.
    pub(crate) fn remove(&mut self, index: u32) -> T {
        let (c, offset) = split(index);
        let chunk = &mut self.chunks[c];
        let entry = mem::replace(&mut chunk.entries[offset], Entry::Vacant(chunk.free));
        let Entry::Occupied(value) = entry else {
            panic!("removing from a vacant slot")
        };
        chunk.free = offset as u32;
        chunk.used -= 1;
        self.len -= 1;
        if !chunk.open {
            chunk.open = true;
            self.open.push(c as u32);
        }
        if chunk.used > 0 || (c == 0 && self.len > 0) {
            return value;
        }
        if self.keeps_emptied {
            if c > 0 {
                self.emptied += 1;
            }
        } else if self.len == 0 {
            self.reset();
        } else {
            chunk.give_back_buffer();
            if c == self.chunks.len() - 1 {
                self.trim();
            }
        }
        value
    }

    /// Whether [`Slab::release`] would give anything back.
    pub(crate) fn holds_spare(&self) -> bool {
        self.emptied > 0
            || (self.len == 0
                && self
                    .chunks
                    .first()
                    .is_some_and(|first| first.entries.capacity() > KEPT_WHEN_EMPTY))
    }

    /// Whether an insert filled a kept empty chunk since the last call.
    pub(crate) fn take_reused(&mut self) -> bool {
        std::mem::take(&mut self.reused)
    }

    /// Gives back the buffers of the chunks that are empty, as a slab that does not keep them
    /// would have as they emptied.
    pub(crate) fn release(&mut self) {
        self.emptied = 0;
        if self.len == 0 {
            if !self.chunks.is_empty() {
                self.reset();
            }
            return;
        }
        for chunk in self.chunks.iter_mut().skip(1) {
            if chunk.used == 0 {
                chunk.give_back_buffer();
            }
        }
        self.trim();
    }

    /// Cuts off the trailing chunks that gave their buffers back.
    fn trim(&mut self) {
        while self.chunks.len() > 1 && self.chunks.last().is_some_and(|c| c.used == 0) {
            self.chunks.pop();
        }
        let end = self.chunks.len() as u32;
        self.open.retain(|&c| c < end);
        shrink(&mut self.chunks);
        shrink(&mut self.open);
    }

    /// Back to an empty slab of at most a small fixed size: one chunk with a small buffer.
    /// Only ever shrinks, so that a driver thread finishing the last task never allocates.
    fn reset(&mut self) {
        self.chunks.truncate(1);
        let first = &mut self.chunks[0];
        first.entries.clear();
        first.entries.shrink_to(KEPT_WHEN_EMPTY);
        first.free = NONE;
        first.used = 0;
        first.open = true;
        self.chunks.shrink_to_fit();
        self.open.truncate(1);
        self.open[0] = 0;
        self.open.shrink_to_fit();
    }

    /// Takes out every value for which `remove` holds (it may change the ones it keeps),
    /// handing each to `each`.
    pub(crate) fn extract(
        &mut self,
        mut remove: impl FnMut(&mut T) -> bool,
        mut each: impl FnMut(T),
    ) {
        let mut index = 0;
        // Removing may cut chunks off the end: the bound is read again each time.
        while index < self.end() {
            if self.get_mut(index).is_some_and(&mut remove) {
                each(self.remove(index));
            }
            index += 1;
        }
    }

    /// Bytes of buffer the slab holds (for the tests of giving memory back).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn buffer_bytes(&self) -> usize {
        self.chunks.capacity() * mem::size_of::<Chunk<T>>()
            + self.open.capacity() * mem::size_of::<u32>()
            + self
                .chunks
                .iter()
                .map(|c| c.entries.capacity() * mem::size_of::<Entry<T>>())
                .sum::<usize>()
    }
}

/// Shrinks a buffer that its entries fill less than a quarter of, keeping room to grow.
fn shrink<T>(v: &mut Vec<T>) {
    if v.capacity() > 4 * v.len().max(KEPT_WHEN_EMPTY) {
        v.shrink_to(2 * v.len());
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn indices_are_stable_and_vacant_slots_reused() {
        let mut slab = Slab::new();
        let a = slab.insert('a');
        let b = slab.insert('b');
        let c = slab.insert('c');
        assert_eq!((a, b, c), (0, 1, 2));
        assert_eq!(slab.remove(b), 'b');
        assert_eq!(slab.get(b), None);
        assert_eq!(slab.get(c), Some(&'c'));
        assert_eq!(slab.insert('d'), b);
        *slab.get_mut(a).unwrap() = 'A';
        assert_eq!(slab.get(a), Some(&'A'));
        assert_eq!(slab.len(), 3);
        assert_eq!(slab.get(1_000_000), None);
    }

    #[test]
    fn emptied_chunks_give_their_buffers_back() {
        let mut slab = Slab::new();
        let first = slab.insert(0usize);
        let rest: Vec<u32> = (1..10 * CHUNK).map(|v| slab.insert(v)).collect();
        let last = slab.insert(usize::MAX);
        let full = slab.buffer_bytes();
        for &index in &rest {
            slab.remove(index);
        }
        // The first and the last chunk keep their buffers, the eight between give theirs.
        let entry = mem::size_of::<Entry<usize>>();
        assert!(slab.buffer_bytes() <= full - 8 * CHUNK * entry);
        assert_eq!(slab.get(first), Some(&0));
        assert_eq!(slab.get(last), Some(&usize::MAX));
        // Their slots are filled again before any new chunk is made.
        let again: Vec<u32> = (0..9 * CHUNK - 1).map(|v| slab.insert(v)).collect();
        assert!(again.iter().all(|&i| (i as usize) < 11 * CHUNK));
        for index in again {
            slab.remove(index);
        }
        // The last chunk goes when it empties, and the empty ones before it with it.
        slab.remove(last);
        assert!(slab.buffer_bytes() <= CHUNK * entry + 1024);
        assert_eq!(slab.end() as usize, CHUNK);
        slab.remove(first);
        assert_eq!(slab.len(), 0);
        let empty = slab.buffer_bytes();
        // An empty slab holds the same whatever it held before.
        let many: Vec<u32> = (0..3 * CHUNK).map(|v| slab.insert(v)).collect();
        many.into_iter().rev().for_each(|i| {
            slab.remove(i);
        });
        assert_eq!(slab.buffer_bytes(), empty);
    }

    #[test]
    fn extract_takes_out_what_is_asked() {
        let mut slab = Slab::new();
        for v in 0..3 * CHUNK {
            slab.insert(v);
        }
        slab.remove(1);
        let mut got = Vec::new();
        slab.extract(
            |v| {
                *v += 1;
                *v % 2 == 0
            },
            |v| got.push(v),
        );
        assert_eq!(got.len(), 3 * CHUNK / 2 - 1);
        assert!(got.iter().all(|v| v % 2 == 0));
        assert_eq!(slab.len(), 3 * CHUNK / 2);
        assert_eq!(slab.get(0), Some(&1));
        slab.extract(|_| true, drop);
        assert_eq!(slab.len(), 0);
        assert_eq!(slab.insert(7), 0);
    }
}
