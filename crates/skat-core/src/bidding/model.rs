//! The learned 10+2 evaluation (thesis §4.2). **Suit and grand**: a logistic regression over
//! table features:
//! `z = w0 + w1·Σx sidePoints[c][x*(s)][x*(h)] + w2·Σx sideTricks[..] + w3·trumpPoints[t] +
//! w4·trumpTricks[t] + w5·points(s) + seat terms`, `e = 1 / (1 + exp(-z))`. The tables are
//! the expected net card points and tricks the declarer makes in the tricks *led* in that side
//! suit (or in trumps), learned from played games (see `skat.bidding.fit`). Three targets
//! share the features, each with its own weights: win (61 or more card points), schneider (90
//! or more) and schwarz (all tricks); they value announcements and games that only reach the
//! bid with schneider. The table entries are stored premultiplied by their weights, so a
//! logit is a sum of look-ups; the probabilities of a hand are non-increasing from win to
//! schwarz (each clamped to the one before).
//!
//! **Null and null ouvert.** One table of 256 entries per kind: the declarer's cards of a suit
//! give `log T[config]`, the log-probability that this suit does not make her take a trick;
//! the hand's value is the product over its four suits, calibrated by
//! `z = a + b·Σ log T + seat terms`; null ouvert is clamped to at most null with the same cards.

use std::collections::HashMap;

use super::features::{suit_byte, trump_indices, TrumpIndices};
use super::{
    check_count, check_leaf, pairs, GRAND, GRAND_SIDE_CELLS, GRAND_TRUMP_CELLS, NULL, SCHNEIDER,
    SCHWARZ, SUIT_SIDE_CELLS, SUIT_TRUMP_CELLS, WEIGHTS, WIN,
};
use crate::cards::Cards;
use crate::error::SkatError;

#[inline]
pub(super) fn sigmoid(z: f32) -> f64 {
    1.0 / (1.0 + (-(z as f64)).exp())
}

/// Learned tables and weights of one trump family (suit games or grand).
#[derive(Clone, Debug)]
pub(super) struct Family {
    /// Per target: `w1·sidePoints + w2·sideTricks` per side cell.
    side: [Vec<f32>; 3],
    /// Per target: `w3·trumpPoints + w4·trumpTricks` per trump cell.
    trump: [Vec<f32>; 3],
    weights: [[f32; WEIGHTS]; 3],
}

impl Family {
    fn new(side: &[f32], trump: &[f32], weights: &[f32]) -> Family {
        let mut w = [[0f32; WEIGHTS]; 3];
        for (t, row) in w.iter_mut().enumerate() {
            row.copy_from_slice(&weights[t * WEIGHTS..(t + 1) * WEIGHTS]);
        }
        let comb = |table: &[f32], a: f32, b: f32| -> Vec<f32> {
            table.chunks_exact(2).map(|p| a * p[0] + b * p[1]).collect()
        };
        Family {
            side: [0, 1, 2].map(|t| comb(side, w[t][1], w[t][2])),
            trump: [0, 1, 2].map(|t| comb(trump, w[t][3], w[t][4])),
            weights: w,
        }
    }

    #[inline]
    pub(super) fn z(&self, ix: &TrumpIndices, seat: usize, target: usize) -> f32 {
        let w = &self.weights[target];
        let side = &self.side[target];
        let mut z = w[0] + self.trump[target][ix.trump] + w[5] * ix.discard_points as f32;
        for i in 0..ix.n_sides {
            z += side[ix.side_cell(i)];
        }
        if seat > 0 {
            z += w[5 + seat];
        }
        z
    }
}

/// The learned 10+2 evaluation.
#[derive(Clone, Debug)]
pub struct BiddingModel {
    suit: Family,
    grand: Family,
    /// `b·log T[config]` per null kind (null, null ouvert).
    null_z: [[f32; 256]; 2],
    /// Per null kind: a, b, middlehand, rearhand.
    null_cal: [[f32; 4]; 2],
}

/// Names and lengths of the arrays a model is built from.
pub const MODEL_PARTS: [(&str, usize); 8] = [
    ("suit_side", SUIT_SIDE_CELLS * 2),
    ("suit_trump", SUIT_TRUMP_CELLS * 2),
    ("suit_weights", 3 * WEIGHTS),
    ("grand_side", GRAND_SIDE_CELLS * 2),
    ("grand_trump", GRAND_TRUMP_CELLS * 2),
    ("grand_weights", 3 * WEIGHTS),
    ("null_log", 2 * 256),
    ("null_cal", 2 * 4),
];

impl BiddingModel {
    /// Builds a model from its named float arrays ([`MODEL_PARTS`]).
    pub fn from_parts(parts: &HashMap<String, Vec<f32>>) -> Result<BiddingModel, SkatError> {
        for (name, len) in MODEL_PARTS {
            match parts.get(name) {
                None => {
                    return Err(SkatError::InvalidCards(format!(
                        "bidding model: missing array {name}"
                    )))
                }
                Some(v) if v.len() != len => {
                    return Err(SkatError::InvalidCards(format!(
                        "bidding model: array {name} has {} values, expected {len}",
                        v.len()
                    )))
                }
                Some(v) if v.iter().any(|x| !x.is_finite()) => {
                    return Err(SkatError::InvalidCards(format!(
                        "bidding model: array {name} holds a value that is not finite"
                    )))
                }
                _ => {}
            }
        }
        let p = |n: &str| parts[n].as_slice();
        let mut null_z = [[0f32; 256]; 2];
        let mut null_cal = [[0f32; 4]; 2];
        for k in 0..2 {
            null_cal[k].copy_from_slice(&p("null_cal")[k * 4..k * 4 + 4]);
            let logs = &p("null_log")[k * 256..(k + 1) * 256];
            for (z, l) in null_z[k].iter_mut().zip(logs) {
                *z = null_cal[k][1] * l;
            }
        }
        Ok(BiddingModel {
            suit: Family::new(p("suit_side"), p("suit_trump"), p("suit_weights")),
            grand: Family::new(p("grand_side"), p("grand_trump"), p("grand_weights")),
            null_z,
            null_cal,
        })
    }

    pub(super) fn family(&self, kind: usize) -> &Family {
        if kind < GRAND {
            &self.suit
        } else {
            &self.grand
        }
    }

    /// The logit of a null kind (0 null, 1 null ouvert). Null ouvert is never rated above null
    /// with the same cards: the defenders of an open hand know all that those of a closed one
    /// know, so the open game cannot be easier (learned tables can disagree on rare hands).
    #[inline]
    pub(super) fn null_logit(&self, hand: Cards, ouvert: usize, seat: usize) -> f32 {
        let plain = self.null_table_logit(hand, 0, seat);
        if ouvert == 0 {
            plain
        } else {
            self.null_table_logit(hand, 1, seat).min(plain)
        }
    }

    #[inline]
    pub(super) fn null_table_logit(&self, hand: Cards, ouvert: usize, seat: usize) -> f32 {
        let cal = &self.null_cal[ouvert];
        let t = &self.null_z[ouvert];
        let mut z = cal[0] + t[suit_byte(hand, 0)] + t[suit_byte(hand, 1)];
        z += t[suit_byte(hand, 2)] + t[suit_byte(hand, 3)];
        if seat > 0 {
            z += cal[1 + seat];
        }
        z
    }

    /// The logit of `target` (win, schneider, schwarz; null kinds: win only).
    #[inline]
    fn logit(&self, hand: Cards, discard: Cards, kind: usize, seat: usize, target: usize) -> f32 {
        if kind >= NULL {
            return self.null_logit(hand, kind - NULL, seat);
        }
        let ix = trump_indices(hand, discard, kind, seat);
        self.family(kind).z(&ix, seat, target)
    }

    /// `e_k(h, s, p)`: the probability that the declarer wins kind `kind`.
    pub fn win_probability(
        &self,
        hand: Cards,
        discard: Cards,
        kind: usize,
        seat: usize,
    ) -> Result<f64, SkatError> {
        check_leaf(hand, discard, kind, seat)?;
        Ok(sigmoid(self.logit(hand, discard, kind, seat, WIN)))
    }

    /// Win, schneider and schwarz probabilities (non-increasing; null: win, 0, 0).
    pub fn probabilities(
        &self,
        hand: Cards,
        discard: Cards,
        kind: usize,
        seat: usize,
    ) -> Result<[f64; 3], SkatError> {
        check_leaf(hand, discard, kind, seat)?;
        Ok(self.probs(hand, discard, kind, seat))
    }

    /// The discard of `twelve` with the highest win probability for `kind`, and that
    /// probability.
    pub fn best_discard(
        &self,
        twelve: Cards,
        kind: usize,
        seat: usize,
    ) -> Result<(f64, Cards), SkatError> {
        check_count(twelve, 12, "choosing a discard")?;
        let mut best = (f32::NEG_INFINITY, Cards::EMPTY);
        for d in pairs(twelve) {
            check_leaf(twelve - d, d, kind, seat)?;
            let z = self.logit(twelve - d, d, kind, seat, WIN);
            if z > best.0 {
                best = (z, d);
            }
        }
        Ok((sigmoid(best.0), best.1))
    }

    /// [`BiddingModel::probabilities`] without the argument checks.
    pub(super) fn probs(&self, hand: Cards, discard: Cards, kind: usize, seat: usize) -> [f64; 3] {
        let w = sigmoid(self.logit(hand, discard, kind, seat, WIN));
        if kind >= NULL {
            return [w, 0.0, 0.0];
        }
        let ix = trump_indices(hand, discard, kind, seat);
        let f = self.family(kind);
        let s = sigmoid(f.z(&ix, seat, SCHNEIDER)).min(w);
        let z = sigmoid(f.z(&ix, seat, SCHWARZ)).min(s);
        [w, s, z]
    }
}
