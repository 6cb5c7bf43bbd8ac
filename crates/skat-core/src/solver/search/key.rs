//! Transposition-table keys of trick starts and the encoding of table moves.
//!
//! Exact keys (hand sizes below the payoff-similarity threshold) give the owner of every
//! card; canonical keys (payoff similarity, thesis ch. 7) give per group the owners of the
//! remaining cards by power rank, the groups that are interchangeable (plain suits of suit
//! and grand, every suit of null) sorted, so that positions differing only in the point
//! values of the remaining cards, or in a permutation of interchangeable suits, share a key;
//! the valuation (which cards remain) is stored beside the key. The slot -> group
//! permutation returned with a key maps table moves (slot and rank from the top) to cards:
//! [`Searcher::encode_move`] and [`Searcher::decode_move`] are inverse for the position the
//! key was computed for. The unrolled suit and grand key equals the general per-group loop
//! (tested below).

use super::hi_bit;
use super::Searcher;
use crate::solver::layout::{m3, Layout, MAX_GROUPS};
use crate::solver::tt::{spread, Key};

/// The identity slot -> group permutation of exact keys.
pub(super) const IDENTITY: [u8; MAX_GROUPS] = [0, 1, 2, 3, 4];

/// `PEXT7[m << 7 | x]`: the bits of `x` at the positions of `m`, moved to the lowest bits in
/// order (a 7-bit parallel bit extract).
static PEXT7: [u8; 128 * 128] = pext7_table();

const fn pext7_table() -> [u8; 128 * 128] {
    let mut t = [0u8; 128 * 128];
    let mut m = 0usize;
    while m < 128 {
        let mut x = 0usize;
        while x < 128 {
            let (mut out, mut j, mut b) = (0u8, 0, 0);
            while b < 7 {
                if m >> b & 1 == 1 {
                    out |= ((x >> b & 1) as u8) << j;
                    j += 1;
                }
                b += 1;
            }
            t[m << 7 | x] = out;
            x += 1;
        }
        m += 1;
    }
    t
}

/// The bits of `x` at the positions of `m` (`m` below 2^14), moved to the lowest bits.
#[inline]
pub(super) fn compress(x: u32, m: u32) -> u32 {
    let lo = PEXT7[((m & 0x7F) << 7 | (x & 0x7F)) as usize] as u32;
    let hm = m >> 7 & 0x7F;
    if hm == 0 {
        return lo;
    }
    let hi = PEXT7[(hm << 7 | (x >> 7 & 0x7F)) as usize] as u32;
    lo | hi << (m & 0x7F).count_ones()
}

/// `CODE7[lo | hi << 7]`: the canonical code of a group of at most seven cards whose owners
/// are given in two bits per card (`lo`, `hi`: 0 out, 1 the leader, 2 the next player, 3 the
/// last): `3^n` plus the owners' digits (leader 0, next 1, last 2) of the `n` remaining cards,
/// lowest card first, in base 3; what [`compress`] and [`BASE3`] compute in several steps.
static CODE7: [u16; 1 << 14] = code7_table();

const fn code7_table() -> [u16; 1 << 14] {
    let mut t = [0u16; 1 << 14];
    let mut idx = 0usize;
    while idx < 1 << 14 {
        let (mut d, mut pow, mut b) = (0usize, 1usize, 0);
        while b < 7 {
            let owner = (idx >> b & 1) + 2 * (idx >> (7 + b) & 1);
            if owner != 0 {
                d += (owner - 1) * pow;
                pow *= 3;
            }
            b += 1;
        }
        t[idx] = (pow + d) as u16;
        idx += 1;
    }
    t
}

/// The canonical code of the (at most seven) cards at bits `base..base + 7` of the owner
/// masks `lo_m`, `hi_m` (see [`CODE7`]).
#[inline(always)]
fn code7(lo_m: u32, hi_m: u32, base: u32) -> u32 {
    CODE7[((lo_m >> base & 0x7F) | (hi_m >> base & 0x7F) << 7) as usize] as u32
}

/// `BASE3[x]`: the sum of `3^i` over the set bits `i` of `x` (11 bits).
static BASE3: [u32; 1 << 11] = base3_table();

const fn base3_table() -> [u32; 1 << 11] {
    let mut t = [0u32; 1 << 11];
    let mut x = 1usize;
    while x < 1 << 11 {
        let low = x.trailing_zeros();
        t[x] = t[x & (x - 1)] + POW3[low as usize];
        x += 1;
    }
    t
}

const POW3: [u32; 12] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049, 177147];

/// Sorts `slots` (group numbers) by descending `keys[group]` (at most four slots).
#[inline]
pub(super) fn sort_desc(slots: &mut [u8], keys: &[u32; MAX_GROUPS]) {
    for i in 1..slots.len() {
        let g = slots[i];
        let kg = keys[g as usize];
        let mut j = i;
        while j > 0 && keys[slots[j - 1] as usize] < kg {
            slots[j] = slots[j - 1];
            j -= 1;
        }
        slots[j] = g;
    }
}

/// The payoff-similarity (canonical) key of a start-of-trick position, hands rotated so that
/// the leader comes first, `tag` the declarer's seat relative to the leader and the game
/// class (`drel | class << 2`), and the slot -> group permutation. Used by the search for
/// trick starts with at least `similarity_min_cards` cards per hand and by the lookup tables
/// ([`crate::solver::lookup`]) at every size.
pub fn canonical_key(lay: &Layout, rot: [u32; 3], tag: u64) -> (Key, [u8; MAX_GROUPS]) {
    if !lay.game_type.is_null() {
        return Searcher::key_suit_grand(lay, rot, tag);
    }
    // canonical (null; suit and grand above): per group, owners (relative to the leader)
    // of the remaining cards, highest first, as base-3 digits behind a leading 1; the
    // owners of the remaining cards are compressed to consecutive bits, whose base-3
    // values come from a table
    let all = rot[0] | rot[1] | rot[2];
    let mut sortkeys = [0u32; MAX_GROUPS];
    let mut codes = [0u32; MAX_GROUPS];
    let mut rems = [0u32; MAX_GROUPS];
    let mut perm = IDENTITY;
    for g in 0..lay.ngroups {
        let base = lay.group_base[g] as u32;
        let rem = (all & lay.group_mask[g]) >> base;
        let r1 = compress(rot[1] >> base, rem);
        let r2 = compress(rot[2] >> base, rem);
        let code = POW3[rem.count_ones() as usize] + BASE3[r1 as usize] + 2 * BASE3[r2 as usize];
        codes[g] = code;
        rems[g] = rem;
        // plain groups have at most 8 cards: code < 2 * 3^8 < 2^14
        sortkeys[g] = code << 8 | rem;
    }
    // the suits of a null game are interchangeable: sort them (by code, then valuation)
    sort_desc(&mut perm[..lay.ngroups], &sortkeys);
    // fixed width per slot: 2 * 3^size < 2^width (plain 7: 13 bits, null 8: 14, trumps
    // 11: 19, jacks 4: 8); at most 60 bits in all, plus 4 bits of seat and class
    let mut k: u64 = 0;
    let mut val: u32 = 0;
    for (slot, &g) in perm.iter().enumerate().take(lay.ngroups) {
        let g = g as usize;
        k = k << lay.key_width[slot] | codes[g] as u64;
        val |= rems[g] << lay.group_base[slot];
    }
    k = k << 4 | tag;
    (
        Key {
            a: k,
            val,
            canonical: true,
        },
        perm,
    )
}

impl<'a> Searcher<'a> {
    /// The key of the current start-of-trick position with `k` cards per hand, and the
    /// slot -> group permutation.
    pub(super) fn key(&self, k: u32) -> (Key, [u8; MAX_GROUPS]) {
        let lay = self.lay;
        let l = self.leader;
        let rot = [self.hands[l], self.hands[m3(l + 1)], self.hands[m3(l + 2)]];
        let drel = m3(self.decl + 3 - l) as u64;
        let class = self.class as u64;
        if k < self.similarity_min {
            // the owner of each card in two bits (0: out; 1, 2, 3: the leader, the next,
            // the last); the tag's top bit keeps it apart from every valuation
            let key = Key {
                a: spread(rot[0] | rot[2]) | spread(rot[1] | rot[2]) << 1,
                val: 0x8000_0000 | (drel | class << 2) as u32,
                canonical: false,
            };
            return (key, IDENTITY);
        }
        canonical_key(lay, rot, drel | class << 2)
    }

    /// [`Searcher::key`]'s canonical key of a suit or grand position (the hands rotated so
    /// that the leader comes first, `tag`: seat and class), with the fixed layouts of those
    /// games unrolled: plain suits of seven cards at bits 0, 7, 14 (and 21 in grand), sorted by
    /// a stable sorting network; the trumps of a suit game at 21 (the trump suit's seven
    /// cards, then the jacks), the jacks of a grand at 28. The same key and slot permutation
    /// as the general loop.
    #[inline]
    fn key_suit_grand(lay: &Layout, rot: [u32; 3], tag: u64) -> (Key, [u8; MAX_GROUPS]) {
        let all = rot[0] | rot[1] | rot[2];
        let lo_m = rot[0] | rot[2];
        let hi_m = rot[1] | rot[2];
        // a plain slot packed for sorting: code (13 bits), remaining cards (7), and 3 - group
        // (2), so that equal codes and valuations keep the lower group first (a stable sort)
        let plain = |g: u32| code7(lo_m, hi_m, 7 * g) << 9 | (all >> (7 * g) & 0x7F) << 2 | (3 - g);
        // descending compare-exchange, branch-free
        let cx = |s: &mut [u32], i: usize| {
            let (a, b) = (s[i], s[i + 1]);
            s[i] = a.max(b);
            s[i + 1] = a.min(b);
        };
        let code = |x: u32| (x >> 9) as u64;
        let rem = |x: u32| x >> 2 & 0x7F;
        let group = |x: u32| 3 - (x & 3) as u8;
        if lay.trump_group == 3 {
            let mut s = [plain(0), plain(1), plain(2)];
            cx(&mut s, 0);
            cx(&mut s, 1);
            cx(&mut s, 0);
            let trem = all >> 21;
            let low = code7(lo_m, hi_m, 21);
            let jacks = code7(lo_m, hi_m, 28);
            let tcode = low + POW3[(trem & 0x7F).count_ones() as usize] * (jacks - 1);
            let k = ((((code(s[0]) << 13 | code(s[1])) << 13 | code(s[2])) << 19) | tcode as u64)
                << 4
                | tag;
            let val = rem(s[0]) | rem(s[1]) << 7 | rem(s[2]) << 14 | trem << 21;
            let key = Key {
                a: k,
                val,
                canonical: true,
            };
            (key, [group(s[0]), group(s[1]), group(s[2]), 3, 4])
        } else {
            let mut s = [plain(0), plain(1), plain(2), plain(3)];
            cx(&mut s, 0);
            cx(&mut s, 1);
            cx(&mut s, 2);
            cx(&mut s, 0);
            cx(&mut s, 1);
            cx(&mut s, 0);
            let jrem = all >> 28;
            let jcode = code7(lo_m, hi_m, 28);
            let k = (((((code(s[0]) << 13 | code(s[1])) << 13 | code(s[2])) << 13 | code(s[3]))
                << 8
                | jcode as u64)
                << 4)
                | tag;
            let val = rem(s[0]) | rem(s[1]) << 7 | rem(s[2]) << 14 | rem(s[3]) << 21 | jrem << 28;
            let key = Key {
                a: k,
                val,
                canonical: true,
            };
            (key, [group(s[0]), group(s[1]), group(s[2]), group(s[3]), 4])
        }
    }

    pub(super) fn encode_move(&self, c: u8, perm: &[u8; MAX_GROUPS]) -> u8 {
        if c == 0xFF {
            return 0xFF;
        }
        let g = self.lay.group_of[c as usize];
        let slot = perm.iter().position(|&x| x == g).unwrap_or(0) as u32;
        let all = self.hands[0] | self.hands[1] | self.hands[2];
        let above = all & self.lay.group_mask[g as usize] & !(2u32 << c).wrapping_sub(1);
        (slot * 16 + above.count_ones()) as u8
    }

    pub(super) fn decode_move(&self, mv: u8, perm: &[u8; MAX_GROUPS]) -> u8 {
        let slot = (mv / 16) as usize;
        let t = (mv % 16) as u32;
        if slot >= self.lay.ngroups {
            return 0xFF;
        }
        let g = perm[slot] as usize;
        let mut rem = (self.hands[0] | self.hands[1] | self.hands[2]) & self.lay.group_mask[g];
        for _ in 0..t {
            if rem == 0 {
                return 0xFF;
            }
            rem &= !(1 << hi_bit(rem));
        }
        if rem == 0 {
            return 0xFF;
        }
        let c = hi_bit(rem);
        if self.hands[self.leader] & (1 << c) != 0 {
            c as u8
        } else {
            0xFF
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::GameType;
    use crate::solver::layout::tests::random_hands;

    /// The canonical key of a suit or grand position by the general per-group loop: each
    /// group's owners in base 3 behind a leading 1, the plain groups sorted by code, then
    /// valuation (stable), the trump group last.
    fn key_reference(lay: &Layout, rot: [u32; 3], tag: u64) -> (u64, u32, [u8; MAX_GROUPS]) {
        let all = rot[0] | rot[1] | rot[2];
        let mut codes = [0u32; MAX_GROUPS];
        let mut rems = [0u32; MAX_GROUPS];
        let mut sortkeys = [0u32; MAX_GROUPS];
        for g in 0..lay.ngroups {
            let base = lay.group_base[g] as u32;
            let rem = (all & lay.group_mask[g]) >> base;
            let r1 = compress(rot[1] >> base, rem);
            let r2 = compress(rot[2] >> base, rem);
            codes[g] =
                POW3[rem.count_ones() as usize] + BASE3[r1 as usize] + 2 * BASE3[r2 as usize];
            rems[g] = rem;
            sortkeys[g] = codes[g] << 8 | rem;
        }
        let mut perm = IDENTITY;
        sort_desc(&mut perm[..lay.trump_group], &sortkeys);
        let (mut k, mut val) = (0u64, 0u32);
        for (slot, &g) in perm.iter().enumerate().take(lay.ngroups) {
            k = k << lay.key_width[slot] | codes[g as usize] as u64;
            val |= rems[g as usize] << lay.group_base[slot];
        }
        (k << 4 | tag, val, perm)
    }

    #[test]
    fn unrolled_key_matches_the_general_loop() {
        let mut rng = Rng::new(11);
        for gt in GameType::ALL.into_iter().filter(|g| !g.is_null()) {
            let lay = Layout::get(gt);
            for _ in 0..20_000 {
                let rot = random_hands(&mut rng);
                let tag = rng.below(16);
                let (key, perm) = Searcher::key_suit_grand(lay, rot, tag);
                assert_eq!(
                    (key.a, key.val, perm),
                    key_reference(lay, rot, tag),
                    "{gt} {rot:x?}"
                );
            }
        }
    }
}
