//! The transposition table: bounds on the *marginal* value of start-of-trick positions (the
//! declarer's points from the cards still in play; in null the time-to-live score), so that
//! an entry is valid whatever was won before.
//!
//! Two key schemes share one table:
//!
//! * exact: the three hands, rotated so that the leader comes first, plus the declarer's seat
//!   relative to the leader and the game class (suit games of different trump suits share
//!   entries: the internal numbering makes them isomorphic);
//! * payoff-similarity (thesis ch. 7): the canonical form of the position, i.e. per follow
//!   group the owners of the remaining cards in power order (played cards collapsed, plain
//!   suits sorted since they are interchangeable), plus a *valuation* (which ranks remain,
//!   hence the card points of the canonical cards). Entries of the same canonical key with a
//!   different valuation still give bounds, widened by the L1 distance of the valuations.
//!
//! Memory is fixed at construction (buckets of sixteen 24-byte entries: one canonical key
//! collects many valuations; exact keys use quarter buckets of four); `clear` is O(1)
//! through a generation counter.

/// One stored bound pair.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key_a: u64,
    key_b: u32,
    val: u32,
    lo: i8,
    hi: i8,
    /// Best move, canonical: slot * 16 + position from the top of the slot's remaining cards.
    mv: u8,
    /// Cards per hand (bigger subtrees are kept in preference).
    depth: u8,
    gen: u8,
}

const BUCKET: usize = 16;

pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    /// Entries scanned per key: the whole bucket with payoff-similarity (one canonical key
    /// collects many valuations), a quarter of it with exact keys (one entry per key).
    ways: usize,
    /// `BUCKET / ways - 1` (0 or 3): selects the sub-bucket.
    sub_mask: usize,
    gen: u8,
    pub stores: u64,
    pub hits: u64,
}

/// The key of a start-of-trick position (built by the search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub a: u64,
    pub b: u32,
    /// Valuation (payoff-similarity) or the exact key's tag.
    pub val: u32,
}

impl Key {
    #[inline]
    fn hash(&self) -> u64 {
        let mut h = self.a ^ (self.b as u64).rotate_left(29);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 29)
    }
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket); `similar`: payoff-similarity
    /// keys (scan whole buckets) or exact keys (scan one quarter bucket).
    pub fn new(mb: usize, similar: bool) -> Tt {
        Tt::with_bytes(mb.max(1) * 1024 * 1024, similar)
    }

    /// A table of at most `bytes` (at least one bucket).
    pub fn with_bytes(bytes: usize, similar: bool) -> Tt {
        let n = (bytes / (std::mem::size_of::<Entry>() * BUCKET)).max(1);
        let buckets = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        Tt {
            entries: vec![Entry::default(); buckets * BUCKET],
            mask: buckets - 1,
            ways: if similar { BUCKET } else { BUCKET / 4 },
            sub_mask: if similar { 0 } else { 3 },
            gen: 1,
            stores: 0,
            hits: 0,
        }
    }

    /// A table with one bucket, for solving without a transposition table.
    pub fn tiny() -> Tt {
        Tt {
            entries: vec![Entry::default(); BUCKET],
            mask: 0,
            ways: BUCKET,
            sub_mask: 0,
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
    fn bucket(&self, key: &Key) -> usize {
        let h = key.hash();
        // BUCKET / ways is 1 or 4 (powers of two): a mask instead of a division
        let sub = ((h >> 60) as usize & self.sub_mask) * self.ways;
        (h as usize & self.mask) * BUCKET + sub
    }

    /// Bounds from every entry of this key: exact valuation matches directly, other valuations
    /// widened by `dist(val, other)` (only called when `similar` is set). Returns (lo, hi, mv).
    #[inline]
    pub fn probe(
        &mut self,
        key: &Key,
        similar: bool,
        dist: impl Fn(u32, u32) -> i32,
    ) -> Option<(i32, i32, u8)> {
        let b = self.bucket(key);
        let mut found = false;
        let (mut lo, mut hi, mut mv) = (i32::MIN, i32::MAX, 0xFF);
        for e in &self.entries[b..b + self.ways] {
            if e.gen != self.gen || e.key_a != key.a || e.key_b != key.b {
                continue;
            }
            if e.val == key.val {
                lo = lo.max(e.lo as i32);
                hi = hi.min(e.hi as i32);
                mv = e.mv;
                found = true;
            } else if similar {
                let d = dist(key.val, e.val);
                lo = lo.max(e.lo as i32 - d);
                hi = hi.min(e.hi as i32 + d);
                found = true;
            }
        }
        if found {
            self.hits += 1;
            Some((lo, hi, mv))
        } else {
            None
        }
    }

    /// Stores bounds for this key and valuation (merging with an existing entry).
    #[inline]
    pub fn store(&mut self, key: &Key, lo: i32, hi: i32, mv: u8, depth: u8) {
        self.stores += 1;
        let b = self.bucket(key);
        let gen = self.gen;
        let bucket = &mut self.entries[b..b + self.ways];
        let mut victim = 0;
        let mut victim_score = i32::MAX;
        for (i, e) in bucket.iter_mut().enumerate() {
            if e.gen == gen && e.key_a == key.a && e.key_b == key.b && e.val == key.val {
                let nlo = lo.max(e.lo as i32);
                let nhi = hi.min(e.hi as i32);
                if nlo <= nhi {
                    e.lo = nlo as i8;
                    e.hi = nhi as i8;
                } else {
                    e.lo = lo as i8;
                    e.hi = hi as i8;
                }
                if mv != 0xFF {
                    e.mv = mv;
                }
                return;
            }
            let score = if e.gen != gen { -1 } else { e.depth as i32 };
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        bucket[victim] = Entry {
            key_a: key.a,
            key_b: key.b,
            val: key.val,
            lo: lo as i8,
            hi: hi as i8,
            mv,
            depth,
            gen,
        };
    }
}
