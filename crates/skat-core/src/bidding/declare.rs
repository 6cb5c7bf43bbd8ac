//! Declarations: the expected Seeger-Fabian score of declaring a contract, and the best
//! pick-up and hand declarations. **Declarations** maximise the expected score relative to
//! each opponent: a win scores `v + 50`, a loss `-2v - 50` and gives each defender 40, counted
//! as `-2v - 90`. A game counts as won only through a way that reaches the bid (the plain game,
//! with schneider or with schwarz); a game that cannot reach it is lost at the overbid value,
//! and a null below the bid cannot be declared.

use super::model::BiddingModel;
use super::{
    check_cards, check_count, check_seat, hand_contracts, kind_of, pairs, pickup_contracts, NULL,
};
use crate::cards::Cards;
use crate::error::SkatError;
use crate::rules::{matadors, Contract};

/// A declaration the evaluation recommends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Declaration {
    /// The cards put away (pick-up games); `None` for hand games.
    pub discard: Option<Cards>,
    pub contract: Contract,
    /// Expected Seeger-Fabian score relative to each opponent.
    pub expected_score: f64,
    /// Probability of winning (a game that cannot reach the bid counts as lost).
    pub win: f64,
}

impl Declaration {
    /// Keeps `self` in `best` if it scores strictly more than what `best` holds.
    fn keep_if_better(self, best: &mut Option<Declaration>) {
        if best.is_none_or(|b| self.expected_score > b.expected_score) {
            *best = Some(self);
        }
    }
}

impl BiddingModel {
    /// Expected score and win probability of declaring `contract` with these cards at `bid`;
    /// `None` if the contract cannot be declared (a null below the bid).
    pub fn expected_score(
        &self,
        hand: Cards,
        discard: Cards,
        contract: &Contract,
        seat: usize,
        bid: u16,
    ) -> Result<Option<(f64, f64)>, SkatError> {
        check_cards(hand, discard)?;
        check_seat(seat)?;
        Ok(self.score(hand, discard, contract, seat, bid))
    }

    /// [`BiddingModel::expected_score`] without the argument checks.
    pub(super) fn score(
        &self,
        hand: Cards,
        discard: Cards,
        contract: &Contract,
        seat: usize,
        bid: u16,
    ) -> Option<(f64, f64)> {
        let kind = kind_of(contract);
        let overbid = contract.overbid_value(bid);
        let bid = bid as i32;
        if kind >= NULL {
            let v = contract.base_value() as i32;
            if v < bid {
                return None;
            }
            let p = self.probs(hand, discard, kind, seat)[0];
            let ev = p * (v + 50) as f64 + (1.0 - p) * (-2 * v - 90) as f64;
            return Some((ev, p));
        }
        let [pw, ps, pz] = self.probs(hand, discard, kind, seat);
        let mats = matadors(contract.game_type, hand | discard);
        let plain = contract.value(mats, false, false);
        let lose = if plain < bid { overbid } else { plain };
        let classes: [(f64, i32); 3] = if contract.schwarz {
            [(0.0, 0), (0.0, 0), (pz, contract.value(mats, true, true))]
        } else if contract.schneider {
            [
                (0.0, 0),
                (ps - pz, contract.value(mats, true, false)),
                (pz, contract.value(mats, true, true)),
            ]
        } else {
            [
                (pw - ps, plain),
                (ps - pz, contract.value(mats, true, false)),
                (pz, contract.value(mats, true, true)),
            ]
        };
        let mut ev = 0.0;
        let mut win = 0.0;
        for (p, v) in classes {
            if p <= 0.0 {
                continue;
            }
            if v >= bid {
                ev += p * (v + 50) as f64;
                win += p;
            } else {
                ev += p * (-2 * overbid - 90) as f64;
            }
        }
        // the rest of the probability mass: outright losses
        ev += (1.0 - classes.iter().map(|c| c.0).sum::<f64>()).max(0.0) * (-2 * lose - 90) as f64;
        Some((ev, win))
    }

    /// The probability that the declarer wins `contract` with these cards at `bid`, counting
    /// only the ways the game reaches the bid (0 if it cannot be declared). Unchecked: the
    /// caller guarantees 10 + 2 disjoint cards and a seat below 3 (used by inference).
    pub fn declared_win(
        &self,
        hand: Cards,
        discard: Cards,
        contract: &Contract,
        seat: usize,
        bid: u16,
    ) -> f64 {
        self.score(hand, discard, contract, seat, bid)
            .map_or(0.0, |s| s.1)
    }

    /// Every pick-up declaration with these twelve cards that can be declared at `bid`: each
    /// discard (in card order) with each pick-up contract (plain suit and grand games, null,
    /// null ouvert), scored. Unchecked.
    fn scored_pickups(
        &self,
        twelve: Cards,
        seat: usize,
        bid: u16,
    ) -> impl Iterator<Item = Declaration> + '_ {
        pairs(twelve).into_iter().flat_map(move |d| {
            let hand = twelve - d;
            pickup_contracts().into_iter().filter_map(move |contract| {
                self.score(hand, d, &contract, seat, bid)
                    .map(|(expected_score, win)| Declaration {
                        discard: Some(d),
                        contract,
                        expected_score,
                        win,
                    })
            })
        })
    }

    /// The best pick-up declaration with these twelve cards: discard and contract (plain suit
    /// and grand games, null, null ouvert) maximising the expected score.
    pub fn best_pickup(
        &self,
        twelve: Cards,
        seat: usize,
        bid: u16,
    ) -> Result<Declaration, SkatError> {
        check_count(twelve, 12, "a pick-up declaration")?;
        check_seat(seat)?;
        let mut best: Option<Declaration> = None;
        for d in self.scored_pickups(twelve, seat, bid) {
            d.keep_if_better(&mut best);
        }
        Ok(best.expect("a suit game can always be declared"))
    }

    /// Every pick-up declaration with these twelve cards that reaches `bid`, scored, in the
    /// order [`BiddingModel::best_pickup`] weighs them (discards in card order, then
    /// contracts).
    pub fn pickup_declarations(
        &self,
        twelve: Cards,
        seat: usize,
        bid: u16,
    ) -> Result<Vec<Declaration>, SkatError> {
        check_count(twelve, 12, "a pick-up declaration")?;
        check_seat(seat)?;
        Ok(self.scored_pickups(twelve, seat, bid).collect())
    }

    /// The best hand declaration for these ten cards: every hand contract (suit and grand, with
    /// schneider or schwarz announced or not; null hand, null ouvert hand) valued by its mean
    /// over the 231 possible skats.
    pub fn best_hand(&self, hand: Cards, seat: usize, bid: u16) -> Result<Declaration, SkatError> {
        check_count(hand, 10, "a hand declaration")?;
        check_seat(seat)?;
        let skats = pairs(!hand);
        let mut best: Option<Declaration> = None;
        for contract in hand_contracts() {
            let (mut ev, mut win, mut ok) = (0.0, 0.0, true);
            for &s in &skats {
                match self.score(hand, s, &contract, seat, bid) {
                    Some((e, w)) => {
                        ev += e;
                        win += w;
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let n = skats.len() as f64;
            Declaration {
                discard: None,
                contract,
                expected_score: ev / n,
                win: win / n,
            }
            .keep_if_better(&mut best);
        }
        Ok(best.expect("a suit hand game can always be declared"))
    }

    /// Expected score of picking up the skat: the mean over the 231 skats of the best pick-up
    /// declaration.
    pub fn pickup_value(&self, hand: Cards, seat: usize, bid: u16) -> Result<f64, SkatError> {
        check_count(hand, 10, "the bidding tree")?;
        let skats = pairs(!hand);
        let mut sum = 0.0;
        for &s in &skats {
            sum += self.best_pickup(hand | s, seat, bid)?.expected_score;
        }
        Ok(sum / skats.len() as f64)
    }
}
