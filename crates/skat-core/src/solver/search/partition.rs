//! Lowest-winning-rank partition search in null games (thesis ch. 4). A table entry of a
//! trick start carries the relevant cards of its subtree as one lowest winning rank per suit
//! slot; it serves every position with the same owners of the cards at or above those ranks
//! and the same fine split (cards per suit and hand). The relevant cards of a search
//! (`Searcher::rel`) are those that won a trick by rank and the lowest legal card of each suit
//! whose equivalent cards were collapsed; only each suit's lowest one matters.

use super::key::{compress, sort_desc, IDENTITY};
use super::window::{fail_soft, searched_bounds};
use super::Searcher;
use crate::solver::layout::{m3, MAX_GROUPS};
use crate::solver::tt::{fine_split, spread, PartKey};
use crate::solver::SolverOptions;

/// Smallest hand size at which null trick starts use the partition table (smaller ones are
/// searched directly: the two-trick tables know no lowest winning ranks).
pub const PARTITION_MIN_CARDS: u32 = 3;

/// Whether a search of this game type uses lowest-winning-rank partition search.
pub fn partitioned(opt: &SolverOptions, gt: crate::rules::GameType) -> bool {
    gt.is_null() && opt.partition_search && opt.transposition_table
}

/// The lowest-winning-rank word (a nibble per slot: the relative rank among the remaining
/// cards `all` of the slot's suit `perm[slot]`, 8: none) of a set of relevant cards (null
/// layout).
fn lwr_of_rel(rel: u32, all: u32, perm: &[u8; MAX_GROUPS]) -> u32 {
    let mut w = 0;
    for (slot, &g) in perm.iter().enumerate().take(4) {
        let s = g as u32;
        let m = rel >> (8 * s) & 0xFF;
        let l = if m == 0 {
            8
        } else {
            let below = (m & m.wrapping_neg()) - 1;
            (all >> (8 * s) & below).count_ones()
        };
        w |= l << (4 * slot);
    }
    w
}

/// The relevant cards of a lowest-winning-rank word: for each slot, the remaining card of
/// that relative rank in the slot's suit.
fn rel_of_lwr(lwr: u32, all: u32, perm: &[u8; MAX_GROUPS]) -> u32 {
    let mut rel = 0;
    for (slot, &g) in perm.iter().enumerate().take(4) {
        let s = g as u32;
        let l = lwr >> (4 * slot) & 0xF;
        let mut rem = all >> (8 * s) & 0xFF;
        if l >= 8 || l >= rem.count_ones() {
            continue;
        }
        for _ in 0..l {
            rem &= rem - 1;
        }
        rel |= (rem & rem.wrapping_neg()) << (8 * s);
    }
    rel
}

impl<'a> Searcher<'a> {
    /// A null trick start under partition search (thesis ch. 4): the table entry of a
    /// position serves every position with the same owners of the cards at or above each
    /// suit's lowest winning rank and the same fine split (cards per suit and hand). Sets
    /// `self.rel` to the relevant cards of the result.
    pub(super) fn ab_partition(&mut self, alpha: i32, beta: i32, k: u32) -> i32 {
        if k < PARTITION_MIN_CARDS {
            return self.children(alpha, beta, 0xFF).0;
        }
        // the owners of each suit's remaining cards by relative rank (played cards dropped):
        // one 16-bit lane of two-bit owner fields per suit
        let l = self.leader;
        let rot = [self.hands[l], self.hands[m3(l + 1)], self.hands[m3(l + 2)]];
        let all = rot[0] | rot[1] | rot[2];
        let mut lanes = [0u32; MAX_GROUPS];
        for (s, lane) in lanes.iter_mut().enumerate().take(4) {
            let rem = all >> (8 * s) & 0xFF;
            let r0 = compress(rot[0] >> (8 * s), rem);
            let r1 = compress(rot[1] >> (8 * s), rem);
            let r2 = compress(rot[2] >> (8 * s), rem);
            *lane = (spread(r0 | r2) | spread(r1 | r2) << 1) as u32;
        }
        // the four suits are interchangeable in null: slots in descending lane order
        let mut perm = IDENTITY;
        sort_desc(&mut perm[..4], &lanes);
        let mut a = 0u64;
        for (slot, &g) in perm.iter().enumerate().take(4) {
            a |= (lanes[g as usize] as u64) << (16 * slot);
        }
        let split = fine_split(a);
        // the tag: the declarer's seat relative to the leader and a 14-bit fingerprint of
        // the fine split (entries of another split are passed over without decoding them)
        let fp = split.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50;
        let tag = m3(self.decl + 3 - l) as u32 | (fp as u32) << 2;
        let key = PartKey {
            a,
            split,
            tag,
            bucket: split ^ (tag as u64 & 3) << 62,
        };
        self.tt.prefetch_partition(&key);
        let (mut lo, mut hi) = self.trivial_bounds();
        let mut prel = 0;
        let mut ttmv = 0xFF;
        if let Some((plo, phi, mv, used)) = self.tt.probe_partition(&key, lo, hi) {
            (lo, hi, prel) = (plo, phi, rel_of_lwr(used, all, &perm));
            if mv != 0xFF {
                ttmv = self.decode_move(mv, &perm);
            }
        }
        if lo >= beta || lo >= hi {
            self.rel = prel;
            return lo;
        }
        if hi <= alpha {
            self.rel = prel;
            return hi;
        }
        let (a, b) = (alpha.max(lo), beta.min(hi));
        let (best, best_mv) = self.children(a, b, ttmv);
        let rel = self.rel | prel;
        let (nlo, nhi) = searched_bounds(lo, hi, a, b, best);
        let mv = self.encode_move(best_mv, &perm);
        self.tt
            .store_partition(&key, lwr_of_rel(rel, all, &perm), nlo, nhi, mv, k as u8);
        self.rel = rel;
        fail_soft(nlo, nhi, best, a)
    }

    /// Partition search: where equivalent cards were collapsed into one move, the group's
    /// cards must keep their owners (thesis ch. 4.4); the lowest legal card of each such
    /// suit is marked relevant (at or below the collapsed group's lowest card).
    pub(super) fn collapsed_rel(&self, p: usize, lead: Option<u8>, moves: &[(i32, u32)]) -> u32 {
        let legal = self.lay.legal(self.hands[p], lead);
        let searched = moves.iter().fold(0u32, |m, &(_, c)| m | 1 << c);
        let collapsed = legal & !searched;
        let mut rel = 0;
        if collapsed != 0 {
            for g in 0..self.lay.ngroups {
                let gm = self.lay.group_mask[g];
                if collapsed & gm != 0 {
                    let lg = legal & gm;
                    rel |= lg & lg.wrapping_neg();
                }
            }
        }
        rel
    }
}
