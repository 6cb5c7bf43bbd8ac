//! Kermit's "10+2" bidding evaluation and bidding tree (Long's thesis §4.2, after Buro's GLEM).
//!
//! `e_k(h, s, p)` is the probability that the declarer in position `p` (0 forehand, 1
//! middlehand, 2 rearhand) wins contract kind `k` holding the ten cards `h` after putting the
//! two cards `s` away (for a hand game: `s` is the skat). Seven kinds, in index order: diamonds,
//! hearts, spades, clubs, grand, null, null ouvert ([`KINDS`]).
//!
//! **Suit and grand.** A logistic regression over table features:
//! `z = w0 + w1·Σx sidePoints[c][x*(s)][x*(h)] + w2·Σx sideTricks[..] + w3·trumpPoints[t] +
//! w4·trumpTricks[t] + w5·points(s) + seat terms`, `e = 1 / (1 + exp(-z))`. The tables are
//! the expected net card points and tricks the declarer makes in the tricks *led* in that side
//! suit (or in trumps), learned from played games (see `skat.bidding.fit`). Decisions where
//! the thesis leaves the definition open:
//!
//! - `x*(c)`: the seven non-jack cards of suit `x` in `c` as bits 7, 8, 9, Q, K, T, A = bit
//!   0..6 (the trump order); `t̄*(c)` adds the jacks ♦J ♥J ♠J ♣J as bits 7..10.
//! - suit context `c`: 1 when the declarer's ten cards hold six or more trumps (jacks
//!   included), else 0. Grand context: the jacks held, 0-1 / 2 / 3 / 4 (four classes).
//! - trump targets `tt`: aces and tens of the side suits (grand: of all suits) with the
//!   defenders, i.e. outside `h ∪ s`; clipped at 3 (grand 4).
//! - vulnerable high cards `vt`: the declarer's side-suit aces and tens that defenders can ruff
//!   or catch: an ace or ten in a side suit in which she holds four or more cards, and a ten
//!   whose ace is with the defenders; clipped at 2 (grand 4).
//! - suit trump cell: `t̄*(h)·12 + tt·3 + vt` (2048·4·3). Grand trump cell: the jack pattern
//!   (4 bits), the forehand flag, `tt` and `vt` (16·2·5·5 = 800 cells).
//! - the seat enters every kind as two logistic terms (middlehand, rearhand).
//!
//! Three targets share the features, each with its own weights: win (61 or more card
//! points), schneider (90 or more) and schwarz (all tricks); they value announcements and
//! games that only reach the bid with schneider.
//!
//! **Null and null ouvert.** One table of 256 entries per kind: the declarer's cards of a suit
//! in null order (7 = bit 0 ... A = bit 7) give `log T[config]`, the log-probability that this
//! suit does not make her take a trick; the hand's value is the product over its four suits,
//! calibrated by `z = a + b·Σ log T + seat terms`.
//!
//! **The bidding tree** (thesis Fig. 4.2): `evaluate(h, p, bid)` = max(pick-up, hand), where
//! pick-up is the mean over the 231 possible skats of the best (66 discards × 6 kinds) leaf and
//! hand is the best kind's mean over the skats (the hand player chooses before seeing the
//! skat, unlike Kermit, whose hand branch let her "know" it). A leaf's value is the win
//! probability of the cheapest way the contract reaches the bid: the plain game if its value
//! (matadors from the twelve cards) reaches the bid, else with schneider, else with schwarz,
//! else 0. The six kinds are the four suits, grand and one null: plain null while it reaches
//! the bid, null ouvert above that. At most 231·66·6 + 231·6 = 92,862 leaves.
//!
//! **Declarations** maximise the expected Seeger-Fabian score relative to each opponent:
//! a win scores `v + 50`, a loss `-2v - 50` and gives each defender 40, counted as `-2v - 90`.

use std::collections::HashMap;

use crate::cards::{Card, Cards, Rank, Suit};
use crate::error::SkatError;
use crate::rules::{matadors, Contract, GameType};

/// The contract kinds of the evaluation, in index order.
pub const KINDS: [&str; 7] = ["D", "H", "S", "C", "G", "N", "NO"];
/// Kind index of grand, null and null ouvert.
pub const GRAND: usize = 4;
pub const NULL: usize = 5;
pub const NULL_OUVERT: usize = 6;
/// Targets of the trump models.
pub const WIN: usize = 0;
pub const SCHNEIDER: usize = 1;
pub const SCHWARZ: usize = 2;

/// Suit side tables: 2 contexts × 128 × 128 cells; suit trump table: 2048 × 4 × 3.
pub const SUIT_SIDE_CELLS: usize = 2 * 128 * 128;
pub const SUIT_TRUMP_CELLS: usize = 2048 * 4 * 3;
/// Grand side tables: 4 contexts × 128 × 128; grand trump table: 16 × 2 × 5 × 5.
pub const GRAND_SIDE_CELLS: usize = 4 * 128 * 128;
pub const GRAND_TRUMP_CELLS: usize = 16 * 2 * 5 * 5;
/// Logistic weights per target: bias, side points, side tricks, trump points, trump tricks,
/// discard points, middlehand, rearhand.
pub const WEIGHTS: usize = 8;

const fn side7_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        // rank bits 7 8 9 T J Q K A -> 7 8 9 Q K T A
        let v = (b & 7)
            | (((b >> 5) & 1) << 3)
            | (((b >> 6) & 1) << 4)
            | (((b >> 3) & 1) << 5)
            | (((b >> 7) & 1) << 6);
        t[b] = v as u8;
        b += 1;
    }
    t
}

static SIDE7: [u8; 256] = side7_table();

#[inline]
fn suit_byte(c: Cards, s: usize) -> usize {
    ((c.0 >> (8 * s)) & 0xFF) as usize
}

/// `x*(c)`: the non-jack cards of suit `s` in `c`, bits 7 8 9 Q K T A = 0..6.
#[inline]
pub fn side7(c: Cards, s: usize) -> usize {
    SIDE7[suit_byte(c, s)] as usize
}

/// The jacks in `c` as four bits ♦ ♥ ♠ ♣ = 0..3.
#[inline]
pub fn jack_bits(c: Cards) -> usize {
    let b = c.0;
    (((b >> 4) & 1) | ((b >> 11) & 2) | ((b >> 18) & 4) | ((b >> 25) & 8)) as usize
}

const ACES_TENS: u32 = 0x8888_8888; // rank bits 3 (T) and 7 (A) of every suit
const NON_JACKS: u32 = !0x1010_1010;

/// The table indices of one (hand, discard, kind, seat) for a suit or grand game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrumpIndices {
    /// Context of the side tables (suit 0-1, grand 0-3).
    pub context: usize,
    /// Side suits: (suit index, `x*(s)`, `x*(h)`); three in a suit game, four in grand.
    pub sides: [(usize, usize, usize); 4],
    pub n_sides: usize,
    /// Cell of the trump table.
    pub trump: usize,
    pub trump_targets: usize,
    pub vulnerable: usize,
    pub discard_points: u32,
}

impl TrumpIndices {
    /// Index of side suit `i` in the flat side table.
    #[inline]
    pub fn side_cell(&self, i: usize) -> usize {
        let (_, s, h) = self.sides[i];
        (self.context * 128 + s) * 128 + h
    }
}

fn vulnerable(hand: Cards, twelve: Cards, suit: usize) -> usize {
    let side = Suit::from_index(suit as u8).cards().0 & NON_JACKS & hand.0;
    let long = side.count_ones() >= 4;
    let ace = Card::new(Suit::from_index(suit as u8), Rank::Ace);
    let ten = Card::new(Suit::from_index(suit as u8), Rank::Ten);
    let mut v = 0;
    if long && hand.contains(ace) {
        v += 1;
    }
    if hand.contains(ten) && (long || !twelve.contains(ace)) {
        v += 1;
    }
    v
}

/// Table indices of a suit (`kind` 0-3) or grand (4) game.
pub fn trump_indices(hand: Cards, discard: Cards, kind: usize, seat: usize) -> TrumpIndices {
    let twelve = hand | discard;
    let opp = !twelve.0;
    let mut sides = [(0, 0, 0); 4];
    let mut n = 0;
    let mut vt = 0;
    if kind < GRAND {
        let trumps = GameType::ALL[kind].trumps();
        let context = usize::from((hand & trumps).len() >= 6);
        for x in 0..4 {
            if x != kind {
                sides[n] = (x, side7(discard, x), side7(hand, x));
                n += 1;
                vt += vulnerable(hand, twelve, x);
            }
        }
        let tt = ((ACES_TENS & opp & !Suit::from_index(kind as u8).cards().0).count_ones()
            as usize)
            .min(3);
        let vt = vt.min(2);
        let pattern = side7(hand, kind) | (jack_bits(hand) << 7);
        TrumpIndices {
            context,
            sides,
            n_sides: 3,
            trump: pattern * 12 + tt * 3 + vt,
            trump_targets: tt,
            vulnerable: vt,
            discard_points: discard.points(),
        }
    } else {
        let jacks = jack_bits(hand);
        let context = match jacks.count_ones() {
            0 | 1 => 0,
            2 => 1,
            3 => 2,
            _ => 3,
        };
        for (x, side) in sides.iter_mut().enumerate() {
            *side = (x, side7(discard, x), side7(hand, x));
            vt += vulnerable(hand, twelve, x);
        }
        n += 4;
        let tt = ((ACES_TENS & opp).count_ones() as usize).min(4);
        let vt = vt.min(4);
        let forehand = usize::from(seat == 0);
        TrumpIndices {
            context,
            sides,
            n_sides: n,
            trump: ((jacks * 2 + forehand) * 5 + tt) * 5 + vt,
            trump_targets: tt,
            vulnerable: vt,
            discard_points: discard.points(),
        }
    }
}

/// The null configuration of suit `s` in `hand`: rank bits 7 8 9 T J Q K A = 0..7.
#[inline]
pub fn null_config(hand: Cards, s: usize) -> usize {
    suit_byte(hand, s)
}

#[inline]
fn sigmoid(z: f32) -> f64 {
    1.0 / (1.0 + (-(z as f64)).exp())
}

/// Learned tables and weights of one trump family (suit games or grand).
#[derive(Clone, Debug)]
struct Family {
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
    fn z(&self, ix: &TrumpIndices, seat: usize, target: usize) -> f32 {
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

/// The root values of the bidding tree for several bids and the leaves it evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeValues {
    pub values: Vec<f64>,
    pub leaves: u64,
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

fn check_cards(hand: Cards, discard: Cards) -> Result<(), SkatError> {
    if hand.len() != 10 || discard.len() != 2 || !hand.is_disjoint(discard) {
        return Err(SkatError::InvalidCards(format!(
            "the 10+2 evaluation needs 10 hand cards and 2 other cards, got {} and {}",
            hand, discard
        )));
    }
    Ok(())
}

/// `cards` must hold exactly `n` cards (for `what`: "the bidding tree", ...).
fn check_count(cards: Cards, n: u32, what: &str) -> Result<(), SkatError> {
    if cards.len() != n {
        return Err(SkatError::InvalidCards(format!(
            "{what} needs {n} cards, got {cards}"
        )));
    }
    Ok(())
}

fn check_seat(seat: usize) -> Result<(), SkatError> {
    if seat > 2 {
        return Err(SkatError::InvalidCards(format!(
            "seat must be 0 (forehand), 1 or 2, got {seat}"
        )));
    }
    Ok(())
}

fn check_leaf(hand: Cards, discard: Cards, kind: usize, seat: usize) -> Result<(), SkatError> {
    check_cards(hand, discard)?;
    check_seat(seat)?;
    if kind >= KINDS.len() {
        return Err(SkatError::InvalidContract(format!(
            "contract kind must be 0-6 ({}), got {kind}",
            KINDS.join(" ")
        )));
    }
    Ok(())
}

/// [`trump_indices`] with its arguments checked (suit and grand kinds only), for fitting.
pub fn table_indices(
    hand: Cards,
    discard: Cards,
    kind: usize,
    seat: usize,
) -> Result<TrumpIndices, SkatError> {
    check_leaf(hand, discard, kind, seat)?;
    if kind >= NULL {
        return Err(SkatError::InvalidContract(format!(
            "table indices exist for suit and grand kinds (0-4), got {kind}"
        )));
    }
    Ok(trump_indices(hand, discard, kind, seat))
}

/// The kind index of a contract (announcements ignored).
pub fn kind_of(contract: &Contract) -> usize {
    match contract.game_type {
        GameType::Null => {
            if contract.ouvert {
                NULL_OUVERT
            } else {
                NULL
            }
        }
        gt => gt as usize,
    }
}

fn game_type_of(kind: usize) -> GameType {
    match kind {
        0..=4 => GameType::ALL[kind],
        _ => GameType::Null,
    }
}

/// All `n choose 2` pairs of the cards in `c`.
fn pairs(c: Cards) -> Vec<Cards> {
    let cards: Vec<Card> = c.iter().collect();
    let mut out = Vec::with_capacity(cards.len() * (cards.len() - 1) / 2);
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            out.push(Cards::EMPTY.with(cards[i]).with(cards[j]));
        }
    }
    out
}

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

    fn family(&self, kind: usize) -> &Family {
        if kind < GRAND {
            &self.suit
        } else {
            &self.grand
        }
    }

    #[inline]
    fn null_logit(&self, hand: Cards, ouvert: usize, seat: usize) -> f32 {
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
    fn probs(&self, hand: Cards, discard: Cards, kind: usize, seat: usize) -> [f64; 3] {
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
    fn score(
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
        for d in pairs(twelve) {
            let hand = twelve - d;
            for contract in pickup_contracts() {
                if let Some((ev, win)) = self.score(hand, d, &contract, seat, bid) {
                    Declaration {
                        discard: Some(d),
                        contract,
                        expected_score: ev,
                        win,
                    }
                    .keep_if_better(&mut best);
                }
            }
        }
        Ok(best.expect("a suit game can always be declared"))
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

/// Contracts a declarer considers after picking up the skat.
pub fn pickup_contracts() -> Vec<Contract> {
    let mut v: Vec<Contract> = (0..5).map(|k| Contract::plain(game_type_of(k))).collect();
    v.push(Contract::plain(GameType::Null));
    let mut no = Contract::plain(GameType::Null);
    no.ouvert = true;
    v.push(no);
    v
}

/// Contracts a declarer considers for a hand game (no suit or grand ouvert).
pub fn hand_contracts() -> Vec<Contract> {
    let mut v = Vec::new();
    for k in 0..5 {
        for (schneider, schwarz) in [(false, false), (true, false), (true, true)] {
            v.push(
                Contract::new(game_type_of(k), true, schneider, schwarz, false)
                    .expect("valid hand contract"),
            );
        }
    }
    for ouvert in [false, true] {
        v.push(Contract::new(GameType::Null, true, false, false, ouvert).expect("valid null"));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        Cards::parse(s).unwrap()
    }

    /// A model whose tables are small deterministic functions of the cell, so that every
    /// feature matters.
    pub(crate) fn synthetic() -> BiddingModel {
        let mut parts = HashMap::new();
        let f = |n: usize, a: f32| -> Vec<f32> {
            (0..n)
                .map(|i| ((i * 2654435761usize) % 1000) as f32 / 1000.0 * a - a / 2.0)
                .collect()
        };
        parts.insert("suit_side".into(), f(SUIT_SIDE_CELLS * 2, 4.0));
        parts.insert("suit_trump".into(), f(SUIT_TRUMP_CELLS * 2, 4.0));
        parts.insert("grand_side".into(), f(GRAND_SIDE_CELLS * 2, 4.0));
        parts.insert("grand_trump".into(), f(GRAND_TRUMP_CELLS * 2, 4.0));
        let w = vec![
            -0.5, 0.3, 0.2, 0.4, 0.1, 0.02, -0.1, 0.1, //
            -2.0, 0.3, 0.2, 0.4, 0.1, 0.02, -0.1, 0.1, //
            -4.0, 0.3, 0.2, 0.4, 0.1, 0.02, -0.1, 0.1,
        ];
        parts.insert("suit_weights".into(), w.clone());
        parts.insert("grand_weights".into(), w);
        let nl: Vec<f32> = (0..512)
            .map(|i| -((i * 7919) % 100) as f32 / 60.0)
            .collect();
        parts.insert("null_log".into(), nl);
        parts.insert(
            "null_cal".into(),
            vec![0.5, 1.0, -0.1, 0.2, -0.5, 1.2, 0.0, 0.1],
        );
        BiddingModel::from_parts(&parts).unwrap()
    }

    #[test]
    fn index_functions_follow_the_thesis_examples() {
        // ♣*(♣7 ♣8 ♣J ♥J ♥A) = 3 and the trump pattern 1 + 2 + 2^10 + 2^8 = 1283
        let c = cards("C7 C8 CJ HJ HA");
        assert_eq!(side7(c, Suit::Clubs as usize), 3);
        assert_eq!(side7(c, Suit::Clubs as usize) | (jack_bits(c) << 7), 1283);
        assert_eq!(side7(cards("SA"), Suit::Spades as usize), 64);
        assert_eq!(side7(cards("ST"), Suit::Spades as usize), 32);
        assert_eq!(side7(cards("SQ SK"), Suit::Spades as usize), 8 + 16);
        assert_eq!(
            null_config(cards("D7 DA"), Suit::Diamonds as usize),
            1 + 128
        );
    }

    #[test]
    fn probabilities_stay_in_range_and_ordered() {
        let m = synthetic();
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..300 {
            let mut all: Vec<Card> = Card::all().collect();
            rng.shuffle(&mut all);
            let hand: Cards = all[..10].iter().copied().collect();
            let discard: Cards = all[10..12].iter().copied().collect();
            for kind in 0..7 {
                for seat in 0..3 {
                    let [w, s, z] = m.probs(hand, discard, kind, seat);
                    assert!((0.0..=1.0).contains(&w) && s <= w && z <= s && z >= 0.0);
                }
            }
        }
        assert!(m
            .win_probability(cards("CA"), cards("C7 C8"), 0, 0)
            .is_err());
        assert!(m
            .win_probability(cards("CA CK CQ C9 C8 C7 SA SK SQ S9"), cards("HA HK"), 7, 0)
            .is_err());
    }

    #[test]
    fn tree_matches_brute_force_and_counts_leaves() {
        let m = synthetic();
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..3 {
            let mut all: Vec<Card> = Card::all().collect();
            rng.shuffle(&mut all);
            let hand: Cards = all[..10].iter().copied().collect();
            let seat = rng.below(3) as usize;
            for bid in [18u16, 24, 36, 48, 72] {
                let tree = m.evaluate(hand, seat, &[bid]).unwrap();
                assert!(tree.leaves <= 92_862);
                // brute force: every skat, discard and kind, the leaf rule written out plainly
                let skats = pairs(!hand);
                let leaf = |h: Cards, d: Cards, kind: usize, hand_game: bool| -> f64 {
                    if kind >= NULL {
                        let o = kind - NULL;
                        let v = [[23, 46], [35, 59]][usize::from(hand_game)][o];
                        let cheaper = [[23, 46], [35, 59]][usize::from(hand_game)][0];
                        if v < bid as i32 || (o == 1 && cheaper >= bid as i32) {
                            return 0.0;
                        }
                        return m.probs(h, d, kind, seat)[0];
                    }
                    let mut c = Contract::plain(GameType::ALL[kind]);
                    c.hand = hand_game;
                    let mats = matadors(c.game_type, h | d);
                    let p = m.probs(h, d, kind, seat);
                    let b = bid as i32;
                    if c.value(mats, false, false) >= b {
                        p[0]
                    } else if c.value(mats, true, false) >= b {
                        p[1]
                    } else if c.value(mats, true, true) >= b {
                        p[2]
                    } else {
                        0.0
                    }
                };
                let mut pick = 0.0;
                let mut hand_sum = [0.0; 7];
                for &s in &skats {
                    let twelve = hand | s;
                    let mut best = 0.0f64;
                    for d in pairs(twelve) {
                        for kind in 0..7 {
                            best = best.max(leaf(twelve - d, d, kind, false));
                        }
                    }
                    pick += best;
                    for (kind, h) in hand_sum.iter_mut().enumerate() {
                        *h += leaf(hand, s, kind, true);
                    }
                }
                let n = skats.len() as f64;
                let hand_best = hand_sum.iter().cloned().fold(0.0, f64::max) / n;
                let want = (pick / n).max(hand_best);
                assert!(
                    (tree.values[0] - want).abs() < 1e-6,
                    "bid {bid}: tree {} brute force {want}",
                    tree.values[0]
                );
            }
        }
    }

    #[test]
    fn best_pickup_is_the_maximum_over_all_choices() {
        let m = synthetic();
        let twelve = cards("CJ SJ HA HT HK H9 H8 SA ST C7 D7 D8");
        let best = m.best_pickup(twelve, 1, 18).unwrap();
        for d in pairs(twelve) {
            for c in pickup_contracts() {
                if let Some((ev, _)) = m.score(twelve - d, d, &c, 1, 18) {
                    assert!(ev <= best.expected_score + 1e-9);
                }
            }
        }
    }

    #[test]
    fn expected_score_accounts_for_overbids_and_announcements() {
        let m = synthetic();
        let hand = cards("CJ SJ HA HT HK H9 H8 SA ST C7");
        let d = cards("D7 D8");
        let plain = Contract::plain(GameType::Hearts);
        // with 2, game 3 = 30: at bid 30 fine, at bid 33 only schneider reaches it
        let (_, w30) = m.score(hand, d, &plain, 0, 30).unwrap();
        let (_, w33) = m.score(hand, d, &plain, 0, 33).unwrap();
        let p = m.probs(hand, d, 1, 0);
        assert!((w30 - p[0]).abs() < 1e-9);
        assert!((w33 - p[1]).abs() < 1e-9);
        let null = Contract::plain(GameType::Null);
        assert!(m.score(hand, d, &null, 0, 24).is_none());
    }
}
