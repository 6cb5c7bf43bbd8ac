//! The transposition table: bounds on the *marginal* value of start-of-trick positions (the
//! declarer's points from the cards still in play; in null the time-to-live score), so that
//! an entry is valid whatever was won before.
//!
//! Two key schemes share one table:
//!
//! * exact: the owner of every card (out, or one of the three hands rotated so that the leader
//!   comes first: two bits per card, 64 bits), plus a tag with the declarer's seat relative to
//!   the leader and the game class (suit games of different trump suits share entries: the
//!   internal numbering makes them isomorphic);
//! * payoff-similarity (thesis ch. 7): the canonical form of the position, i.e. per follow
//!   group the owners of the remaining cards in power order (played cards collapsed, plain
//!   suits sorted since they are interchangeable), plus a *valuation* (which ranks remain,
//!   hence the card points of the canonical cards). Entries of the same canonical key with a
//!   different valuation still give bounds, moved by the signed valuation distance
//!   ([`crate::solver::search::Searcher::dist`]).
//!
//! Memory is fixed at construction: 16-byte entries, four to a 64-byte cache line, eight
//! lines to a bucket. Every key lives in one line of its bucket (one cache miss per probe):
//! an exact key, or a canonical key with up to four of its valuations (the partition entries
//! of null games use the whole bucket). `clear` is O(1) through a generation counter (a full
//! wipe every 127th call).

use super::huge::{AllocError, HugeBuf, Zeroable};

/// One stored bound pair: the key, the valuation (or the exact key's tag) and a packed word
/// of `lo` (7 bits), `hi` (7 bits), best move (7 bits, [`NO_MOVE`] for none), cards per hand
/// (4 bits: bigger subtrees are kept in preference) and generation (7 bits).
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    val: u32,
    data: u32,
}

/// The packed "no move".
const NO_MOVE: u32 = 0x7F;
const GEN_MASK: u8 = 0x7F;

impl Entry {
    #[inline]
    fn gen(&self) -> u8 {
        (self.data >> 25) as u8
    }
    #[inline]
    fn lo(&self) -> i32 {
        (self.data & 0x7F) as i32
    }
    #[inline]
    fn hi(&self) -> i32 {
        (self.data >> 7 & 0x7F) as i32
    }
    #[inline]
    fn mv(&self) -> u8 {
        let m = self.data >> 14 & 0x7F;
        if m == NO_MOVE {
            0xFF
        } else {
            m as u8
        }
    }
    #[inline]
    fn depth(&self) -> u32 {
        self.data >> 21 & 0xF
    }
    /// Values lie in 0..=120 (suit and grand) or 0..=11 (null): bounds are kept as they are
    /// (a negative lower bound, never produced, would become the true bound 0).
    #[inline]
    fn pack(lo: i32, hi: i32, mv: u8, depth: u8, gen: u8) -> u32 {
        let mv = if mv == 0xFF {
            NO_MOVE
        } else {
            mv as u32 & 0x7F
        };
        lo.clamp(0, 127) as u32
            | (hi.clamp(0, 127) as u32) << 7
            | mv << 14
            | (depth as u32 & 0xF) << 21
            | (gen as u32) << 25
    }
}

/// A cache line of entries.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([Entry; 4]);

// SAFETY: an all-zero line holds empty entries of generation 0, never current.
unsafe impl Zeroable for Line {}

/// Lines per bucket.
const LINES: usize = 8;

pub struct Tt {
    lines: HugeBuf<Line>,
    /// Buckets - 1 (a power of two).
    mask: usize,
    gen: u8,
    /// What the current generation's entries are: [`MODE_BOUNDS`] or [`MODE_PARTITION`].
    mode: u8,
    pub stores: u64,
    pub hits: u64,
}

/// Table contents: bounds under exact or canonical keys (every game type without partition
/// search).
pub const MODE_BOUNDS: u8 = 0;
/// Table contents: partition entries of null games (see [`Tt::probe_partition`]).
pub const MODE_PARTITION: u8 = 1;

/// The key of a start-of-trick position (built by the search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub a: u64,
    /// Valuation (payoff-similarity) or the exact key's tag.
    pub val: u32,
    /// A canonical (payoff-similarity) key: its valuations share one line; an exact
    /// key uses one line of its bucket.
    pub canonical: bool,
}

impl Key {
    #[inline]
    fn hash(&self) -> u64 {
        // every valuation of a canonical key hashes alike (one line holds them); an
        // exact key's tag takes part
        let tag = if self.canonical { 0 } else { self.val as u64 };
        let mut h = self.a ^ tag.rotate_left(40);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 29)
    }
}

/// Spreads the 32 bits of `x` to the even bits of a u64.
#[inline]
pub fn spread(x: u32) -> u64 {
    let mut x = x as u64;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        Tt::with_bytes(mb.max(1) * 1024 * 1024)
    }

    /// A table of at most `bytes` (at least one bucket).
    ///
    /// # Panics
    /// If the table cannot be allocated (see [`Tt::try_with_bytes`]).
    pub fn with_bytes(bytes: usize) -> Tt {
        match Tt::try_with_bytes(bytes) {
            Ok(tt) => tt,
            Err(AllocError) => panic!("cannot allocate a transposition table of {bytes} bytes"),
        }
    }

    /// The number of buckets of a table of at most `bytes`: the largest power of two that
    /// fits, at least one.
    pub fn buckets_within(bytes: usize) -> usize {
        let n = (bytes / (std::mem::size_of::<Line>() * LINES)).max(1);
        if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        }
    }

    /// A table of at most `bytes` (at least one bucket), or [`AllocError`] when its memory
    /// cannot be had.
    pub fn try_with_bytes(bytes: usize) -> Result<Tt, AllocError> {
        let buckets = Tt::buckets_within(bytes);
        let lines = HugeBuf::try_zeroed(buckets.checked_mul(LINES).ok_or(AllocError)?)?;
        Ok(Tt {
            lines,
            mask: buckets - 1,
            gen: 1,
            mode: MODE_BOUNDS,
            stores: 0,
            hits: 0,
        })
    }

    /// A table with one bucket, for solving without a transposition table.
    pub fn tiny() -> Tt {
        Tt::with_bytes(0)
    }

    pub fn bytes(&self) -> usize {
        self.lines.len() * std::mem::size_of::<Line>()
    }

    /// Forgets every entry (O(1) except every 127th call).
    pub fn clear(&mut self) {
        self.gen = (self.gen + 1) & GEN_MASK;
        if self.gen == 0 {
            self.lines.iter_mut().for_each(|l| *l = Line::default());
            self.gen = 1;
        }
    }

    /// Declares what the next search stores; the table is cleared when that changes, so that
    /// the two kinds of entry never meet.
    pub fn set_mode(&mut self, mode: u8) {
        if mode != self.mode {
            self.clear();
            self.mode = mode;
        }
    }

    /// The first line and the number of lines a key may occupy: one line for every key (an
    /// exact key, or a canonical key with all its valuations), chosen within the key's bucket.
    /// A canonical key once had the whole bucket of eight lines: at 30 cards that found 2%
    /// more bounds, and scanning eight cache lines per probe cost far more (analyze of 40
    /// positions: 0.39 s with eight lines, 0.32 s with one).
    #[inline]
    fn lines_of(&self, key: &Key) -> (usize, usize) {
        let h = key.hash();
        let b = (h as usize & self.mask) * LINES;
        (b + (h >> 58) as usize % LINES, 1)
    }

    /// Asks the memory system for lines `b..b + n`.
    #[inline]
    fn prefetch_lines(&self, b: usize, n: usize) {
        #[cfg(target_arch = "x86_64")]
        for i in b..b + n {
            // SAFETY: a prefetch has no architectural effect; the pointer is in bounds.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch(self.lines.as_ptr().add(i) as *const i8, _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (b, n);
    }

    /// Asks the memory system for the line(s) of `key` ahead of a probe.
    #[inline]
    pub fn prefetch(&self, key: &Key) {
        let (b, n) = self.lines_of(key);
        self.prefetch_lines(b, n);
    }

    /// Bounds from every entry of this key, intersected with the caller's bounds `[lo, hi]`:
    /// exact valuation matches directly, other valuations of a canonical key moved by
    /// `dist(val, other) = (dlo, dhi)`, the range of the difference between this position's
    /// value and the entry's: the entry's lower bound plus `dlo`, its upper bound plus `dhi`.
    /// Returns (lo, hi, mv).
    #[inline]
    pub fn probe(
        &mut self,
        key: &Key,
        mut lo: i32,
        mut hi: i32,
        mut dist: impl FnMut(u32, u32) -> (i32, i32),
    ) -> Option<(i32, i32, u8)> {
        let (b, n) = self.lines_of(key);
        let mut found = false;
        let mut mv = 0xFF;
        let mut exact_mv = false;
        for line in &self.lines[b..b + n] {
            for e in &line.0 {
                if e.key != key.a || e.gen() != self.gen {
                    continue;
                }
                found = true;
                let (elo, ehi) = (e.lo(), e.hi());
                if e.val == key.val {
                    lo = lo.max(elo);
                    hi = hi.min(ehi);
                    if e.mv() != 0xFF {
                        mv = e.mv();
                        exact_mv = true;
                    }
                } else if key.canonical {
                    if !exact_mv && e.mv() != 0xFF {
                        mv = e.mv();
                    }
                    let (dlo, dhi) = dist(key.val, e.val);
                    lo = lo.max(elo + dlo);
                    hi = hi.min(ehi + dhi);
                }
            }
        }
        if found {
            self.hits += 1;
            Some((lo, hi, mv))
        } else {
            None
        }
    }

    /// The slot for a store into lines `b..b + n`: the current entry `same` accepts (and
    /// `true`), else the entry with the fewest cards per hand, stale entries first.
    #[inline]
    fn slot(&self, b: usize, n: usize, same: impl Fn(&Entry) -> bool) -> ((usize, usize), bool) {
        let mut victim = (b, 0);
        let mut victim_score = u32::MAX;
        for li in b..b + n {
            for (i, e) in self.lines[li].0.iter().enumerate() {
                let current = e.gen() == self.gen;
                if current && same(e) {
                    return ((li, i), true);
                }
                let score = if current { e.depth() + 1 } else { 0 };
                if score < victim_score {
                    victim_score = score;
                    victim = (li, i);
                }
            }
        }
        (victim, false)
    }

    /// Stores bounds for this key and valuation (merging with an existing entry).
    #[inline]
    pub fn store(&mut self, key: &Key, lo: i32, hi: i32, mv: u8, depth: u8) {
        self.stores += 1;
        let (b, n) = self.lines_of(key);
        let gen = self.gen;
        let ((li, i), found) = self.slot(b, n, |e| e.key == key.a && e.val == key.val);
        let e = &mut self.lines[li].0[i];
        if found {
            let (mut nlo, mut nhi) = (lo.max(e.lo()), hi.min(e.hi()));
            if nlo > nhi {
                (nlo, nhi) = (lo, hi);
            }
            let m = if mv != 0xFF { mv } else { e.mv() };
            e.data = Entry::pack(nlo, nhi, m, e.depth() as u8, gen);
        } else {
            *e = Entry {
                key: key.a,
                val: key.val,
                data: Entry::pack(lo, hi, mv, depth, gen),
            };
        }
    }
}

/// The two-bit owner fields of the cards at or above each suit's lowest winning rank: `lwr`
/// holds one nibble per suit (null layout: suit `s` at bits `8s..8s+8`), the suit's lowest
/// relevant rank 0..=7, or 8 when no card of the suit is relevant.
#[inline]
pub fn relevant_fields(lwr: u32) -> u64 {
    // per lane: the fields at or above relative rank l (l = 8: none)
    const LANE: [u64; 9] = [
        0xFFFF, 0xFFFC, 0xFFF0, 0xFFC0, 0xFF00, 0xFC00, 0xF000, 0xC000, 0,
    ];
    LANE[(lwr & 0xF) as usize]
        | LANE[(lwr >> 4 & 0xF) as usize] << 16
        | LANE[(lwr >> 8 & 0xF) as usize] << 32
        | LANE[(lwr >> 12 & 0xF) as usize] << 48
}

/// The fine split of an owner key (two bits per card, null layout): per suit (16-bit lane)
/// the number of cards of the owners 1, 2 and 3, in bits 0..4, 4..8 and 8..12 of the lane.
#[inline]
pub fn fine_split(a: u64) -> u64 {
    const E: u64 = 0x5555_5555_5555_5555;
    let l = a & E;
    let h = a >> 1 & E;
    let lane = |m: u64| {
        // m has bits at even positions only: count per 16-bit lane
        let x = (m & 0x3333_3333_3333_3333) + (m >> 2 & 0x3333_3333_3333_3333);
        let x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        (x + (x >> 8)) & 0x00FF_00FF_00FF_00FF
    };
    lane(l & !h) | lane(h & !l) << 4 | lane(l & h) << 8
}

/// A partition query: the exact owner key of a null trick start, its fine split, the tag
/// (declarer relative to the leader) and the bucket hash input.
#[derive(Clone, Copy, Debug)]
pub struct PartKey {
    pub a: u64,
    pub split: u64,
    pub tag: u32,
    pub bucket: u64,
}

impl Tt {
    #[inline]
    fn part_bucket(&self, key: &PartKey) -> usize {
        let mut h = key.bucket.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
        (h as usize & self.mask) * LINES
    }

    /// Asks the memory system for a partition key's bucket.
    #[inline]
    pub fn prefetch_partition(&self, key: &PartKey) {
        self.prefetch_lines(self.part_bucket(key), LINES);
    }

    /// Partition search (thesis ch. 4): bounds from every entry of the bucket whose position
    /// agrees with the query on the owners of the cards at or above the entry's lowest winning
    /// ranks and on the fine split (the cards below may be swapped between the hands within a
    /// suit). Intersected with `[lo, hi]`. Returns (lo, hi, move, the union (nibble-wise
    /// minimum) of the lowest winning ranks of the entries that tightened a bound).
    #[inline]
    pub fn probe_partition(
        &mut self,
        key: &PartKey,
        mut lo: i32,
        mut hi: i32,
    ) -> Option<(i32, i32, u8, u32)> {
        let b = self.part_bucket(key);
        let mut found = false;
        let mut mv = 0xFF;
        let mut used = NO_LWR;
        for line in &self.lines[b..b + LINES] {
            for e in &line.0 {
                if e.gen() != self.gen || e.val >> 16 != key.tag {
                    continue;
                }
                let lwr = e.val & 0xFFFF;
                if (e.key ^ key.a) & relevant_fields(lwr) != 0 || fine_split(e.key) != key.split {
                    continue;
                }
                found = true;
                if e.key == key.a && e.mv() != 0xFF {
                    mv = e.mv();
                }
                if e.lo() > lo || e.hi() < hi {
                    lo = lo.max(e.lo());
                    hi = hi.min(e.hi());
                    used = min_lwr(used, lwr);
                }
            }
        }
        if found {
            self.hits += 1;
            Some((lo, hi, mv, used))
        } else {
            None
        }
    }

    /// Stores a partition entry (replacing an entry of the same position, else the entry
    /// with the fewest cards per hand).
    #[inline]
    pub fn store_partition(&mut self, key: &PartKey, lwr: u32, lo: i32, hi: i32, mv: u8, k: u8) {
        self.stores += 1;
        let b = self.part_bucket(key);
        let ((li, i), _) = self.slot(b, LINES, |e| e.key == key.a && e.val >> 16 == key.tag);
        self.lines[li].0[i] = Entry {
            key: key.a,
            val: key.tag << 16 | lwr,
            data: Entry::pack(lo, hi, mv, k, self.gen),
        };
    }
}

/// A lowest-winning-rank word with no relevant rank (one nibble of 8 per suit).
pub const NO_LWR: u32 = 0x8888;

/// Nibble-wise minimum of two lowest-winning-rank words (the union of their constraints).
#[inline]
pub fn min_lwr(a: u32, b: u32) -> u32 {
    let mut r = 0;
    for s in 0..4 {
        r |= (a >> (4 * s) & 0xF).min(b >> (4 * s) & 0xF) << (4 * s);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn packed_fields_round_trip() {
        for (lo, hi, mv, depth, gen) in [
            (0, 120, 0xFF, 10, 1),
            (61, 61, 79, 3, 127),
            (11, 11, 0, 0, 64),
        ] {
            let e = Entry {
                key: 1,
                val: 2,
                data: Entry::pack(lo, hi, mv, depth, gen),
            };
            assert_eq!(
                (e.lo(), e.hi(), e.mv(), e.depth(), e.gen()),
                (lo, hi, mv, depth as u32, gen)
            );
        }
    }

    #[test]
    fn partition_words_match_their_definitions() {
        let mut rng = Rng::new(9);
        for _ in 0..2000 {
            let a = rng.next_u64();
            let split = fine_split(a);
            for s in 0..4 {
                for owner in 1..4u64 {
                    let n = (0..8)
                        .filter(|&c| a >> (16 * s + 2 * c) & 3 == owner)
                        .count() as u64;
                    assert_eq!(split >> (16 * s + 4 * (owner - 1)) & 0xF, n);
                }
            }
            let lwr = (0..4).fold(0u32, |w, s| w | (rng.below(9) as u32) << (4 * s));
            let f = relevant_fields(lwr);
            for s in 0..4 {
                let l = lwr >> (4 * s) & 0xF;
                for c in 0..8 {
                    let want = if c >= l { 3 } else { 0 };
                    assert_eq!(f >> (16 * s + 2 * c) & 3, want as u64);
                }
            }
            let other = (0..4).fold(0u32, |w, s| w | (rng.below(9) as u32) << (4 * s));
            let m = min_lwr(lwr, other);
            for s in 0..4 {
                let x = |w: u32| w >> (4 * s) & 0xF;
                assert_eq!(x(m), x(lwr).min(x(other)));
            }
        }
        assert_eq!(min_lwr(NO_LWR, 0x1234), 0x1234);
    }

    #[test]
    fn spread_interleaves_two_bit_owners() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let (x, y) = (rng.next_u64() as u32, rng.next_u64() as u32);
            let k = spread(x) | spread(y) << 1;
            for b in 0..32 {
                assert_eq!(
                    (k >> (2 * b)) & 3,
                    ((x >> b) & 1 | ((y >> b) & 1) << 1) as u64
                );
            }
        }
    }

    #[test]
    fn store_probe_merge_and_clear() {
        let mut tt = Tt::new(1);
        let exact = Key {
            a: 0x1234,
            val: 0x8000_0001,
            canonical: false,
        };
        assert!(tt
            .probe(&exact, i32::MIN, i32::MAX, |_, _| (0, 0))
            .is_none());
        tt.store(&exact, 30, 80, 5, 7);
        tt.store(&exact, 40, 120, 0xFF, 7);
        assert_eq!(
            tt.probe(&exact, i32::MIN, i32::MAX, |_, _| (0, 0)),
            Some((40, 80, 5))
        );
        // a canonical key sees other valuations widened by their distance
        let c1 = Key {
            a: 0x99,
            val: 0b1011,
            canonical: true,
        };
        let c2 = Key { val: 0b0111, ..c1 };
        tt.store(&c1, 50, 60, 3, 8);
        assert_eq!(
            tt.probe(&c2, i32::MIN, i32::MAX, |_, _| (-4, 4)),
            Some((46, 64, 3))
        );
        tt.clear();
        assert!(tt
            .probe(&exact, i32::MIN, i32::MAX, |_, _| (0, 0))
            .is_none());
        assert!(tt.probe(&c1, i32::MIN, i32::MAX, |_, _| (0, 0)).is_none());
    }

    #[test]
    fn a_full_table_keeps_the_deeper_entries() {
        let mut tt = Tt::tiny();
        for i in 0..64u64 {
            let k = Key {
                a: i,
                val: 0x8000_0000,
                canonical: false,
            };
            tt.store(&k, 1, 2, 0xFF, (i % 10) as u8);
        }
        // one bucket of 32 entries: every stored entry that survives has depth >= the
        // shallowest survivor, and the table never holds more than its capacity
        let found = (0..64u64)
            .filter(|&i| {
                let k = Key {
                    a: i,
                    val: 0x8000_0000,
                    canonical: false,
                };
                tt.probe(&k, i32::MIN, i32::MAX, |_, _| (0, 0)).is_some()
            })
            .count();
        assert!(found > 0 && found <= 32);
    }

    #[test]
    fn tables_round_down_to_a_power_of_two_and_refuse_impossible_sizes() {
        let bucket = std::mem::size_of::<Line>() * LINES;
        assert_eq!(Tt::buckets_within(0), 1);
        assert_eq!(Tt::buckets_within(32 << 20), (32 << 20) / bucket);
        assert_eq!(Tt::buckets_within((48 << 20) + 1), (32 << 20) / bucket);
        let tt = Tt::try_with_bytes(3 << 20).unwrap();
        assert_eq!(tt.bytes(), 2 << 20);
        assert!(Tt::try_with_bytes(usize::MAX).is_err());
        if let Some(limit) = crate::solver::huge::memory_limit() {
            assert!(Tt::try_with_bytes(limit.saturating_mul(2)).is_err());
        }
    }
}
