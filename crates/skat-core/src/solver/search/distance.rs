//! Valuation distances of payoff-similar positions (thesis ch. 7): how far the declarer's
//! marginal points can differ between two positions with the same canonical key and
//! different remaining cards. The bounds are true bounds (the table widens an entry of
//! another valuation by them); the table-driven [`Searcher::dist`] equals the card-by-card
//! [`Searcher::dist_reference`] (tested below). Null games have no point differences.

use super::hi_bit;
use super::Searcher;
use crate::solver::bounds;
use crate::solver::layout::Layout;

/// Number of jacks in a 4-bit jack pattern.
const JACK_COUNT: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Signed distances of two 7-card valuations `a`, `b` of one suit (bits 7 8 9 Q K T A, points
/// 0 0 0 3 4 10 11) with equally many cards, pairing the i-th most powerful card of `a` with
/// the i-th of `b`: the low byte is the sum of `max(0, v_a - v_b)` over the pairs, the high
/// byte the sum of `max(0, v_b - v_a)`. Where power order is value order each is a sum over
/// the point thresholds of the positive part of the difference of the counts at or above it.
static DIST7: [u16; 128 * 128] = dist7_table();

const fn count_excess(a: u32, b: u32, m: u32) -> u32 {
    let d = (a & m).count_ones() as i32 - (b & m).count_ones() as i32;
    if d > 0 {
        d as u32
    } else {
        0
    }
}

const fn dist7_table() -> [u16; 128 * 128] {
    let mut t = [0u16; 128 * 128];
    let mut a = 0u32;
    while a < 128 {
        let mut b = 0u32;
        while b < 128 {
            let up = 3 * count_excess(a, b, 0x78)
                + count_excess(a, b, 0x70)
                + 6 * count_excess(a, b, 0x60)
                + count_excess(a, b, 0x40);
            let down = 3 * count_excess(b, a, 0x78)
                + count_excess(b, a, 0x70)
                + 6 * count_excess(b, a, 0x60)
                + count_excess(b, a, 0x40);
            t[(a << 7 | b) as usize] = (up | down << 8) as u16;
            b += 1;
        }
        a += 1;
    }
    t
}

impl<'a> Searcher<'a> {
    /// How far the declarer's marginal points can differ between two payoff-similar positions
    /// (same canonical key) with valuations `v1` and `v2`: `(dlo, dhi)` with
    /// `P(v1) - P(v2)` in `[dlo, dhi]`. The i-th most powerful remaining card of a slot is
    /// paired with the i-th; in every pair of corresponding leaves the declarer's points
    /// differ by the value differences of the cards she wins, so by at most the sum of the
    /// positive differences (`up`) and at least minus the sum of the negative ones (`down`).
    /// (Thesis ch. 7 bounds the point *difference* of the two sides by the L1 distance
    /// `up + down`; on the declarer's points that is the same bound.)
    ///
    /// `run` refines this (thesis ch. 7, "if the team that will win card i is certain, add
    /// its value directly"): in suit games the top `|run|` trumps, each above every trump of
    /// the other side, are won by the side that holds them (the declarer for `run > 0`, the
    /// defenders for `run < 0`) in every line of play. Their pairs then shift the difference
    /// by exactly their value difference (declarer) or not at all (defenders) instead of
    /// widening it. `run` is a function of the canonical key, so it is the same for every
    /// valuation of the key.
    ///
    /// Where power order is value order (plain suits: 7 8 9 Q K T A = 0 0 0 3 4 10 11) each
    /// part is one look-up in `DIST7` per suit; jacks are all worth 2.
    #[inline]
    pub fn dist(lay: &Layout, v1: u32, v2: u32, run: i32) -> (i32, i32) {
        if v1 == v2 || lay.game_type.is_null() {
            return (0, 0);
        }
        if run == 0 || lay.trump_group != 3 {
            let (up, down) = Self::spread_of(lay, v1, v2);
            return (-down, up);
        }
        let jacks = JACK_COUNT[(v1 >> 28) as usize];
        if run.unsigned_abs() <= jacks as u32 && jacks == JACK_COUNT[(v2 >> 28) as usize] {
            // the certain winners are jacks on both sides, paired with each other (all worth
            // 2): they shift nothing, and the rest pair as without them
            let (up, down) = Self::spread_of(lay, v1, v2);
            return (-down, up);
        }
        // suit: the trump group (trump suit and jacks) at bits 21..32
        let top1 = bounds::top_n(v1 >> 21, run.unsigned_abs()) << 21;
        let top2 = bounds::top_n(v2 >> 21, run.unsigned_abs()) << 21;
        let shift = if run > 0 {
            lay.points_of(top1) - lay.points_of(top2)
        } else {
            0
        };
        let (up, down) = Self::spread_of(lay, v1 & !top1, v2 & !top2);
        (shift - down, shift + up)
    }

    /// The sums `(up, down)` of the positive and negative value differences of the paired
    /// cards of two valuations with equally many cards per slot.
    #[inline]
    fn spread_of(lay: &Layout, v1: u32, v2: u32) -> (i32, i32) {
        // suit: three plain suits of 7 at bits 0, 7, 14, the trump suit's 7 at 21, the jacks
        // at 28; grand: four plain suits of 7 at 0, 7, 14, 21, the jacks at 28 (all worth 2,
        // equally many in both: no distance)
        let d7 = |shift: u32| DIST7[((v1 >> shift & 0x7F) << 7 | (v2 >> shift & 0x7F)) as usize];
        let mut d = d7(0) as u32 + d7(7) as u32 + d7(14) as u32;
        if lay.trump_group == 3 {
            let (j1, j2) = (
                JACK_COUNT[(v1 >> 28) as usize] as u32,
                JACK_COUNT[(v2 >> 28) as usize] as u32,
            );
            if j1 != j2 {
                // jack counts differ: the side with more jacks pairs its extra ones with the
                // other side's top trump-suit cards, the rest pair in order
                let (l1, l2) = (v1 >> 21 & 0x7F, v2 >> 21 & 0x7F);
                let (u, w) = if j1 > j2 {
                    Self::extra_jacks(l1, l2, j1 - j2)
                } else {
                    let (u, w) = Self::extra_jacks(l2, l1, j2 - j1);
                    (w, u)
                };
                return ((d & 0xFF) as i32 + u, (d >> 8) as i32 + w);
            }
        }
        d += d7(21) as u32;
        // the low bytes sum to at most 4 * 28 < 256: no carry into the high byte
        ((d & 0xFF) as i32, (d >> 8) as i32)
    }

    /// The `(up, down)` spread of the trump groups of a suit game when the first holds `extra`
    /// more jacks (worth 2) than the second: `a` and `b` are their trump suits' seven cards
    /// (bits 7 8 9 Q K T A, points 0 0 0 3 4 10 11). The extra jacks pair with `b`'s top
    /// `extra` cards, the rest of `b` with all of `a`, in order.
    #[inline]
    fn extra_jacks(a: u32, b: u32, extra: u32) -> (i32, i32) {
        let top = bounds::top_n(b, extra);
        let d = DIST7[(a << 7 | (b & !top)) as usize] as i32;
        // a jack against a 7, 8 or 9 gains 2; against a Q, K, T or A it loses the difference
        let zeros = (top & 0b111).count_ones() as i32;
        let rest = top & !0b111;
        let rest_pts = 3 * (rest >> 3 & 1) as i32
            + 4 * (rest >> 4 & 1) as i32
            + 10 * (rest >> 5 & 1) as i32
            + 11 * (rest >> 6 & 1) as i32;
        let up = (d & 0xFF) + 2 * zeros;
        let down = (d >> 8) + rest_pts - 2 * rest.count_ones() as i32;
        (up, down)
    }

    /// The certain-winner run of a suit-game position (see [`Searcher::dist`]): the number
    /// of the declarer's trumps above every defender trump, or minus the number of defender
    /// trumps above every trump of the declarer; 0 in grand and null (no point differences
    /// among the jacks) and without trumps.
    #[inline]
    pub(crate) fn trump_run(lay: &Layout, hands: &[u32; 3], decl: usize) -> i32 {
        if lay.trump_group != 3 {
            return 0;
        }
        let t = lay.trumps;
        let hd = hands[decl] & t;
        let def = (hands[0] | hands[1] | hands[2]) & t & !hd;
        if hd == 0 && def == 0 {
            return 0;
        }
        if hd > def {
            // the declarer holds the highest trump
            let stop = if def == 0 { 0 } else { 2u32 << hi_bit(def) };
            (hd & !stop.wrapping_sub(1)).count_ones() as i32
        } else {
            let stop = if hd == 0 { 0 } else { 2u32 << hi_bit(hd) };
            -((def & !stop.wrapping_sub(1)).count_ones() as i32)
        }
    }

    /// Reference implementation of [`Searcher::dist`] (for tests): pairs card by card.
    pub fn dist_reference(lay: &Layout, v1: u32, v2: u32, run: i32) -> (i32, i32) {
        let (mut lo, mut hi) = (0, 0);
        for g in 0..lay.ngroups {
            let width = lay.group_mask[g].count_ones();
            let base = lay.group_base[g] as usize;
            let order = |v: u32| -> Vec<i32> {
                (0..width as usize)
                    .rev()
                    .filter(|&b| v >> (base + b) & 1 == 1)
                    .map(|b| lay.points[base + b] as i32)
                    .collect()
            };
            let certain = if g == lay.trump_group && lay.trump_group == 3 {
                run.unsigned_abs() as usize
            } else {
                0
            };
            for (i, (x, y)) in order(v1).into_iter().zip(order(v2)).enumerate() {
                let d = x - y;
                if i < certain {
                    if run > 0 {
                        lo += d;
                        hi += d;
                    }
                } else if d > 0 {
                    hi += d;
                } else {
                    lo += d;
                }
            }
        }
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::GameType;

    #[test]
    fn fast_distance_matches_pairwise_distance() {
        let mut rng = Rng::new(5);
        for gt in GameType::ALL {
            let lay = Layout::get(gt);
            for _ in 0..20000 {
                // two valuations with equal counts per group
                let mut v1 = 0u32;
                let mut v2 = 0u32;
                for g in 0..lay.ngroups {
                    let base = lay.group_base[g] as u32;
                    let width = lay.group_mask[g].count_ones();
                    let n = rng.below(width as u64 + 1) as u32;
                    for v in [&mut v1, &mut v2] {
                        let mut bits: Vec<u32> = (0..width).collect();
                        rng.shuffle(&mut bits);
                        for &b in &bits[..n as usize] {
                            *v |= 1 << (base + b);
                        }
                    }
                }
                let trumps = (v1 & lay.trumps).count_ones() as i32;
                let run = rng.below(2 * trumps as u64 + 1) as i32 - trumps;
                let want = if gt.is_null() {
                    (0, 0)
                } else {
                    Searcher::dist_reference(lay, v1, v2, run)
                };
                assert_eq!(
                    Searcher::dist(lay, v1, v2, run),
                    want,
                    "{gt} {v1:x} {v2:x} {run}"
                );
            }
        }
    }
}
