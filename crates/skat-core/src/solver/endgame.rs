//! The exact small-endgame cache: the practical form of the thesis's endgame lookup tables
//! (ch. 8), filled lazily instead of precomputed.
//!
//! At a trick start with few cards per hand, the marginal value of the rest of the play (the
//! declarer's card points from the remaining cards; in null the time-to-live score) depends
//! only on the three hands, the leader and the declarer. When such a subgame has to be
//! searched a second time (the transposition table has bounds for it, but they do not decide
//! the current window) the search solves it exactly, with a window just outside the known
//! bounds, and keeps the value here, so that later null-window probes of MTD(f) reaching the
//! same subgame get the exact answer at once. (Solving every small subgame exactly at its
//! first visit was measured too: far more nodes, since most are visited only once.)
//!
//! Measured at 30 cards (100 positions, seed 1): re-searches are only 8-15% of the work below
//! five cards per hand, and a full-window search costs more than the null-window re-searches
//! it replaces, so the cache is off by default (K = 3..6 all lose 5-40% time; K = 4: grand
//! nodes -12%, time +8%).
//!
//! Keys are exact: the hands rotated so that the leader comes first, plus the declarer's seat
//! relative to the leader and the game class (suit games of different trump suits share
//! entries, as in the transposition table). Buckets of four 16-byte entries (one cache line);
//! the entry with the fewest cards per hand is replaced. Memory is fixed at construction;
//! `clear` is O(1) through a generation counter.

use super::huge::{fits_in_memory, AllocError};

/// One exact value.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    a: u64,
    b: u32,
    /// Declarer seat relative to the leader | class << 2 | cards per hand << 4.
    tag: u8,
    value: i8,
    gen: u8,
    _pad: u8,
}

const WAYS: usize = 4;

/// The key of a start-of-trick position: the rotated hands and the tag (without the depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EgKey {
    pub a: u64,
    pub b: u32,
    pub tag: u8,
}

impl EgKey {
    #[inline]
    fn hash(&self) -> u64 {
        let mut h = self.a ^ (self.b as u64 | (self.tag as u64) << 32).rotate_left(23);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 32;
        h
    }
}

pub struct EgCache {
    entries: Vec<Entry>,
    mask: usize,
    gen: u8,
    pub stores: u64,
    pub hits: u64,
}

impl EgCache {
    /// A cache of at most `bytes` (at least one bucket), or [`AllocError`] when its memory
    /// cannot be had.
    pub fn try_with_bytes(bytes: usize) -> Result<EgCache, AllocError> {
        let n = (bytes / (std::mem::size_of::<Entry>() * WAYS)).max(1);
        let buckets = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        let len = buckets * WAYS;
        let size = len
            .checked_mul(std::mem::size_of::<Entry>())
            .ok_or(AllocError)?;
        if !fits_in_memory(size, 1) {
            return Err(AllocError);
        }
        let mut entries = Vec::new();
        entries.try_reserve_exact(len).map_err(|_| AllocError)?;
        entries.resize(len, Entry::default());
        Ok(EgCache {
            entries,
            mask: buckets - 1,
            gen: 1,
            stores: 0,
            hits: 0,
        })
    }

    /// An empty cache (when the cache is switched off): probes miss, stores are dropped.
    pub fn tiny() -> EgCache {
        EgCache {
            entries: Vec::new(),
            mask: 0,
            gen: 1,
            stores: 0,
            hits: 0,
        }
    }

    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets every entry (O(1) except every 255th call).
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            self.gen = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: &EgKey) -> usize {
        (key.hash() as usize & self.mask) * WAYS
    }

    /// The exact value stored for this key, if any.
    #[inline]
    pub fn probe(&mut self, key: &EgKey) -> Option<i32> {
        if self.entries.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        for e in &self.entries[b..b + WAYS] {
            if e.gen == self.gen && e.a == key.a && e.b == key.b && e.tag & 15 == key.tag {
                self.hits += 1;
                return Some(e.value as i32);
            }
        }
        None
    }

    /// Stores the exact value of a position with `k` cards per hand.
    #[inline]
    pub fn store(&mut self, key: &EgKey, value: i32, k: u32) {
        if self.entries.is_empty() {
            return;
        }
        self.stores += 1;
        let b = self.bucket(key);
        let gen = self.gen;
        let bucket = &mut self.entries[b..b + WAYS];
        let mut victim = 0;
        let mut victim_score = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let score = if e.gen != gen {
                -1
            } else {
                (e.tag >> 4) as i32
            };
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        bucket[victim] = Entry {
            a: key.a,
            b: key.b,
            tag: key.tag | (k.min(15) as u8) << 4,
            value: value as i8,
            gen,
            _pad: 0,
        };
    }
}
