//! A perfect index of the null lookup rows: every row of a hand size `k` gets a number in
//! `0..3 * count`, so that a null table can be a plain array of values with no keys.
//!
//! # Rows
//!
//! A null row ([`crate::solver::search::key::canonical_key`]) is the multiset of its four
//! suits' *owner strings* (the owner, relative to the leader, of each remaining card of the
//! suit, lowest first: only the order of the remaining cards matters in null, and the suits
//! are interchangeable) with every owner holding `k` cards, and the declarer's seat relative
//! to the leader. A string is stored as the key's *code*, `3^n` plus its digits in base 3.
//!
//! # Order
//!
//! Strings are ordered by their *class*, the vector of how many cards each owner holds in
//! the suit (165 classes of at most 8 cards), then by their position among the strings of
//! their class in code order. A row's four strings, sorted descending in that order, are a
//! non-increasing sequence; rows are numbered in lexicographic order of these sequences,
//! seat-major. `T[j][c][l]`, the number of non-increasing sequences of `j` strings from the
//! classes below `l` whose owner counts add up to `c`, gives the number of sequences below a
//! given one in a few look-ups per slot (within a class, `r` more strings at positions up to
//! `q` are multisets: `C(q + r, r)` of them).
//!
//! # Invariant
//!
//! [`NullIndex::rank`] and [`NullIndex::unrank`] are inverse bijections between the rows of
//! hand size `k` and `0..3 * count`; the position [`NullIndex::unrank`] returns has the
//! canonical key of the row ranked.

use std::sync::OnceLock;

use super::layout::Layout;
use super::search::key::canonical_key;

/// The (lazily built, then shared) index of each null hand size up to 8.
pub fn null_index(k: u32) -> &'static NullIndex {
    static INDEX: [OnceLock<NullIndex>; 9] = [const { OnceLock::new() }; 9];
    INDEX[k as usize].get_or_init(|| NullIndex::new(k))
}

/// The canonical key ([`canonical_key`]'s `a`) of a null position: hands rotated so that the
/// leader comes first, `drel` the declarer's seat relative to the leader.
pub fn null_key(lay: &Layout, hands: [u32; 3], drel: u8) -> u64 {
    canonical_key(lay, hands, drel as u64 | 2 << 2).0.a
}

/// At most this many cards of one suit.
const SUIT: usize = 8;
/// Codes are below `2 * 3^8`.
const CODES: usize = 2 * 6561;
const POW3: [u32; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The index of one hand size.
pub struct NullIndex {
    k: u32,
    /// Per code: its class and its position in the class (`u32::MAX`: not a code).
    code_info: Vec<(u16, u32)>,
    /// Per class: owner counts and its codes in ascending order.
    classes: Vec<([u32; 3], Vec<u32>)>,
    /// `T[j][c][l]` flattened: `j` in `0..=4`, `c` the owner counts (each `0..=k`), `l` in
    /// `0..=classes`.
    t: Vec<u64>,
    /// Rows per declarer seat.
    count: u64,
}

fn choose(n: u64, r: u64) -> u64 {
    if r > n {
        return 0;
    }
    let mut x = 1u64;
    for i in 0..r {
        x = x * (n - i) / (i + 1);
    }
    x
}

impl NullIndex {
    /// The index of hand size `k` (at most 8).
    pub fn new(k: u32) -> NullIndex {
        assert!((1..=8).contains(&k));
        // classes in a fixed order: by length, then owner counts
        let mut classes: Vec<([u32; 3], Vec<u32>)> = Vec::new();
        for n in 0..=SUIT as u32 {
            for a in 0..=n {
                for b in 0..=n - a {
                    classes.push(([a, b, n - a - b], Vec::new()));
                }
            }
        }
        let mut code_info = vec![(0u16, u32::MAX); CODES];
        for (n, &p) in POW3.iter().enumerate() {
            for x in 0..p {
                let code = p + x;
                let mut cnt = [0u32; 3];
                let mut y = x;
                for _ in 0..n {
                    cnt[(y % 3) as usize] += 1;
                    y /= 3;
                }
                let cl = classes.iter().position(|c| c.0 == cnt).expect("a class") as u16;
                code_info[code as usize] = (cl, classes[cl as usize].1.len() as u32);
                classes[cl as usize].1.push(code);
            }
        }
        let mut idx = NullIndex {
            k,
            code_info,
            classes,
            t: Vec::new(),
            count: 0,
        };
        let (nc, side) = (idx.classes.len(), (k + 1) as usize);
        idx.t = vec![0; 5 * side * side * side * (nc + 1)];
        let origin = idx.at(0, [0, 0, 0], 0);
        idx.t[origin] = 1;
        for l in 0..nc {
            let v = idx.classes[l].0;
            let m = idx.classes[l].1.len() as u64;
            for j in 0..=4usize {
                for a in 0..=k {
                    for b in 0..=k {
                        for c in 0..=k {
                            let mut s = 0u64;
                            for r in 0..=j as u32 {
                                let rest = [a, b, c].map(|x| x as i64);
                                let rest = [
                                    rest[0] - (r * v[0]) as i64,
                                    rest[1] - (r * v[1]) as i64,
                                    rest[2] - (r * v[2]) as i64,
                                ];
                                if rest.iter().any(|&x| x < 0) {
                                    break;
                                }
                                let rest = rest.map(|x| x as u32);
                                let ways = if r == 0 {
                                    1
                                } else {
                                    choose(m + r as u64 - 1, r as u64)
                                };
                                let from = idx.at(j - r as usize, rest, l);
                                s += ways * idx.t[from];
                            }
                            let at = idx.at(j, [a, b, c], l + 1);
                            idx.t[at] = s;
                        }
                    }
                }
            }
        }
        let all = idx.at(4, [k, k, k], nc);
        idx.count = idx.t[all];
        idx
    }

    #[inline]
    fn at(&self, j: usize, c: [u32; 3], l: usize) -> usize {
        let side = (self.k + 1) as usize;
        let nl = self.classes.len() + 1;
        (((j * side + c[0] as usize) * side + c[1] as usize) * side + c[2] as usize) * nl + l
    }

    /// Rows per declarer seat.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// All rows: `3 * count`.
    pub fn len(&self) -> u64 {
        3 * self.count
    }

    /// Always false (every hand size has rows).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Sequences of `j` strings, counts `c`, whose first string lies below `(l, p)` (all
    /// strings at most that class and the first one below it).
    fn below(&self, j: usize, c: [u32; 3], l: usize, p: u32) -> u64 {
        let mut n = self.t[self.at(j, c, l)];
        let v = self.classes[l].0;
        for r in 0..j as u32 {
            let need = [(1 + r) * v[0], (1 + r) * v[1], (1 + r) * v[2]];
            if (0..3).any(|i| need[i] > c[i]) {
                break;
            }
            let rest = [c[0] - need[0], c[1] - need[1], c[2] - need[2]];
            n += choose(p as u64 + r as u64, r as u64 + 1)
                * self.t[self.at(j - 1 - r as usize, rest, l)];
        }
        n
    }

    /// The number of the row of a null key ([`canonical_key`]'s `a`; `None` for another
    /// hand size or a key that is no null row).
    pub fn rank(&self, key: u64, lay: &Layout) -> Option<u64> {
        let drel = key & 3;
        if drel > 2 {
            return None;
        }
        let mut a = key >> 4;
        let mut strings = [(0u16, 0u32); 4];
        for slot in (0..4).rev() {
            let w = lay.key_width[slot];
            let code = (a & ((1u64 << w) - 1)) as usize;
            a >>= w;
            let info = *self.code_info.get(code)?;
            if info.1 == u32::MAX {
                return None;
            }
            strings[slot] = info;
        }
        strings.sort_unstable_by(|x, y| y.cmp(x));
        let mut c = [self.k; 3];
        let mut r = 0u64;
        for (i, &(l, p)) in strings.iter().enumerate() {
            let l = l as usize;
            r += self.below(4 - i, c, l, p);
            let v = self.classes[l].0;
            if (0..3).any(|o| v[o] > c[o]) {
                return None;
            }
            c = [c[0] - v[0], c[1] - v[1], c[2] - v[2]];
        }
        (c == [0, 0, 0]).then_some(drel * self.count + r)
    }

    /// The row with number `n`: a position of it (hands rotated so that the leader comes
    /// first, each suit's remaining cards its highest) and the declarer's seat relative to
    /// the leader.
    pub fn unrank(&self, n: u64, lay: &Layout) -> Option<([u32; 3], u8)> {
        if n >= self.len() {
            return None;
        }
        let drel = (n / self.count) as u8;
        let mut r = n % self.count;
        let mut c = [self.k; 3];
        let mut hands = [0u32; 3];
        for slot in 0..4 {
            let j = 4 - slot;
            // the class: the last one with fewer sequences below it than r + 1 (the counts
            // below a class do not decrease with the class: a binary search)
            let (mut l, mut top) = (0, self.classes.len() - 1);
            while l < top {
                let mid = (l + top).div_ceil(2);
                if self.t[self.at(j, c, mid)] <= r {
                    l = mid;
                } else {
                    top = mid - 1;
                }
            }
            // the position in the class: the last one with at most r sequences below it
            let codes = &self.classes[l].1;
            let (mut lo, mut hi) = (0u32, codes.len() as u32 - 1);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if self.below(j, c, l, mid) <= r {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            r -= self.below(j, c, l, lo);
            let v = self.classes[l].0;
            c = [c[0] - v[0], c[1] - v[1], c[2] - v[2]];
            let code = codes[lo as usize];
            let len = (0..=SUIT).rev().find(|&m| code >= POW3[m]).unwrap_or(0);
            let mut digits = code - POW3[len];
            let base = lay.group_base[slot] as u32;
            let width = lay.group_width[slot] as u32;
            // the suit's `len` highest cards, lowest first
            for bit in width - len as u32..width {
                hands[(digits % 3) as usize] |= 1 << (base + bit);
                digits /= 3;
            }
        }
        debug_assert_eq!(r, 0);
        Some((hands, drel))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lookup_build::{class_layout, rows};

    #[test]
    fn the_counts_are_those_of_the_enumerated_rows() {
        let lay = class_layout(2);
        for k in 3..=4u32 {
            let idx = NullIndex::new(k);
            let listed = rows(2, k);
            assert_eq!(idx.len(), listed.len() as u64, "k = {k}");
            let mut seen = vec![false; listed.len()];
            for row in listed.iter() {
                let n = idx.rank(row.key, lay).expect("a row") as usize;
                assert!(!seen[n], "two rows with number {n}");
                seen[n] = true;
                let (hands, drel) = idx.unrank(n as u64, lay).expect("in range");
                assert_eq!(drel, row.decl);
                let key = null_key(lay, hands, drel);
                assert_eq!(key, row.key, "row {n}");
            }
        }
        // numbering undoes unnumbering on random rows of the larger sizes, and the first and
        // last rows
        let mut rng = crate::rng::Rng::new(5);
        for k in 5..=7u32 {
            let idx = null_index(k);
            let sample = (0..3000).map(|_| rng.below(idx.len()));
            for n in sample.chain([0, idx.len() - 1]) {
                let (hands, drel) = idx.unrank(n, lay).expect("in range");
                assert_eq!(
                    idx.rank(null_key(lay, hands, drel), lay),
                    Some(n),
                    "k {k} row {n}"
                );
            }
            assert_eq!(idx.unrank(idx.len(), lay), None);
        }
        // the counts of null-5, -6 and -7 (Polya's enumeration, docs/solver-research.md)
        assert_eq!(NullIndex::new(5).len(), 47_635_992);
        assert_eq!(NullIndex::new(6).len(), 987_775_902);
        assert_eq!(NullIndex::new(7).len(), 16_197_263_712);
    }
}
