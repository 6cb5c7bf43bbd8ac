//! **The bidding tree** (thesis Fig. 4.2): `evaluate(h, p, bid)` = max(pick-up, hand), where
//! pick-up is the mean over the 231 possible skats of the best (66 discards × 6 kinds) leaf and
//! hand is the best kind's mean over the skats (the hand player chooses before seeing the
//! skat, unlike Kermit, whose hand branch let her "know" it). A leaf's value is the win
//! probability of the cheapest way the contract reaches the bid: the plain game if its value
//! (matadors from the twelve cards) reaches the bid, else with schneider, else with schwarz,
//! else 0. The six kinds are the four suits, grand and one null: plain null while it reaches
//! the bid, null ouvert above that. At most 231·66·6 + 231·6 = 92,862 leaves; the tree's
//! values equal a brute-force evaluation of every leaf (tested).

use super::features::{trump_indices, TrumpIndices};
use super::model::{sigmoid, BiddingModel, Family};
use super::{check_count, check_seat, pairs, GRAND, SCHNEIDER, SCHWARZ, WIN};
use crate::cards::Cards;
use crate::error::SkatError;
use crate::rules::{matadors, Contract, GameType};

/// The root values of the bidding tree for several bids and the leaves it evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeValues {
    pub values: Vec<f64>,
    pub leaves: u64,
}

impl BiddingModel {
    /// The bidding tree's root value for each bid in `bids` (see the module documentation).
    // the kind index selects the game type, the family and the hand-branch column at once
    #[allow(clippy::needless_range_loop)]
    pub fn evaluate(
        &self,
        hand: Cards,
        seat: usize,
        bids: &[u16],
    ) -> Result<TreeValues, SkatError> {
        check_count(hand, 10, "the bidding tree")?;
        check_seat(seat)?;
        let skats = pairs(!hand);
        let n = skats.len() as f64;
        let nb = bids.len();
        let mut pickup = vec![0.0; nb];
        // hand branch: per kind (4 suits, grand, null family) and bid, the sum over skats
        let mut hand_sum = vec![[0.0f64; 6]; nb];
        let mut leaves = 0u64;
        let mut best_skat = vec![0.0f64; nb];
        for &skat in &skats {
            let twelve = hand | skat;
            let discards = pairs(twelve);
            best_skat.iter_mut().for_each(|v| *v = 0.0);
            for kind in 0..GRAND + 1 {
                let gt = GameType::ALL[kind];
                let mats = matadors(gt, twelve);
                let plain = Contract::plain(gt);
                let mut hand_c = plain;
                hand_c.hand = true;
                // which target each bid needs (None: unreachable)
                let need = |c: &Contract, bid: u16| target_for(c.points_needed(mats, bid));
                let mut want = [false; 3];
                for &b in bids {
                    if let Some(t) = need(&plain, b) {
                        want[t] = true;
                    }
                }
                if let Some(level) = (0..3).rev().find(|&t| want[t]) {
                    let fam = self.family(kind);
                    let mut zmax = [f32::NEG_INFINITY; 3];
                    for &d in &discards {
                        let ix = trump_indices(twelve - d, d, kind, seat);
                        let z = clamped_logits(fam, &ix, seat, level);
                        for t in 0..=level {
                            zmax[t] = zmax[t].max(z[t]);
                        }
                    }
                    leaves += discards.len() as u64;
                    let p = zmax.map(sigmoid);
                    for (i, &b) in bids.iter().enumerate() {
                        if let Some(t) = need(&plain, b) {
                            best_skat[i] = best_skat[i].max(p[t]);
                        }
                    }
                }
                // hand game of this kind with this skat
                let mut hwant = [false; 3];
                for &b in bids {
                    if let Some(t) = need(&hand_c, b) {
                        hwant[t] = true;
                    }
                }
                if let Some(level) = (0..3).rev().find(|&t| hwant[t]) {
                    leaves += 1;
                    let ix = trump_indices(hand, skat, kind, seat);
                    let p = clamped_logits(self.family(kind), &ix, seat, level).map(sigmoid);
                    for (i, &b) in bids.iter().enumerate() {
                        if let Some(t) = need(&hand_c, b) {
                            hand_sum[i][kind] += p[t];
                        }
                    }
                }
            }
            // the null family: plain null while it reaches the bid, null ouvert above
            let mut null_kinds = [false; 2];
            for &b in bids {
                if b <= 23 {
                    null_kinds[0] = true;
                } else if b <= 46 {
                    null_kinds[1] = true;
                }
            }
            let mut nz = [f32::NEG_INFINITY; 2];
            for (o, used) in null_kinds.iter().enumerate() {
                if *used {
                    for &d in &discards {
                        nz[o] = nz[o].max(self.null_logit(twelve - d, o, seat));
                    }
                    leaves += discards.len() as u64;
                }
            }
            for (i, &b) in bids.iter().enumerate() {
                let p = if b <= 23 {
                    sigmoid(nz[0])
                } else if b <= 46 {
                    sigmoid(nz[1])
                } else {
                    0.0
                };
                best_skat[i] = best_skat[i].max(p);
                pickup[i] += best_skat[i];
            }
            // null hand (35) / null ouvert hand (59)
            let mut hand_null = [false; 2];
            for &b in bids {
                if b <= 35 {
                    hand_null[0] = true;
                } else if b <= 59 {
                    hand_null[1] = true;
                }
            }
            let mut hz = [0.0f64; 2];
            for (o, used) in hand_null.iter().enumerate() {
                if *used {
                    hz[o] = sigmoid(self.null_logit(hand, o, seat));
                    leaves += 1;
                }
            }
            for (i, &b) in bids.iter().enumerate() {
                hand_sum[i][5] += if b <= 35 {
                    hz[0]
                } else if b <= 59 {
                    hz[1]
                } else {
                    0.0
                };
            }
        }
        let values = (0..nb)
            .map(|i| {
                let hand_best = hand_sum[i].iter().cloned().fold(0.0, f64::max) / n;
                (pickup[i] / n).max(hand_best)
            })
            .collect();
        Ok(TreeValues { values, leaves })
    }
}

/// The target a declarer must reach for the points she needs (None: no level reaches the bid).
fn target_for(points_needed: i32) -> Option<usize> {
    match points_needed {
        61 => Some(WIN),
        90 => Some(SCHNEIDER),
        120 => Some(SCHWARZ),
        _ => None,
    }
}

/// Logits of win, schneider and schwarz up to `level`, each at most the one before (the
/// rest `-inf`).
#[inline]
fn clamped_logits(fam: &Family, ix: &TrumpIndices, seat: usize, level: usize) -> [f32; 3] {
    let mut z = [f32::NEG_INFINITY; 3];
    z[0] = fam.z(ix, seat, WIN);
    for t in 1..=level {
        z[t] = fam.z(ix, seat, t).min(z[t - 1]);
    }
    z
}
