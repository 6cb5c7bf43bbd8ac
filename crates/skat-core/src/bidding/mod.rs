//! Kermit's "10+2" bidding evaluation and bidding tree (Long's thesis §4.2, after Buro's GLEM).
//!
//! `e_k(h, s, p)` is the probability that the declarer in position `p` (0 forehand, 1
//! middlehand, 2 rearhand) wins contract kind `k` holding the ten cards `h` after putting the
//! two cards `s` away (for a hand game: `s` is the skat). Seven kinds, in index order: diamonds,
//! hearts, spades, clubs, grand, null, null ouvert ([`KINDS`]).
//!
//! The parts: `features` the table indices of a hand (side-suit and trump cells, null
//! configurations), `model` the learned tables and the logistic evaluation
//! ([`BiddingModel`], win / schneider / schwarz probabilities), `declare` the expected
//! Seeger-Fabian score of a declaration and the best pick-up and hand declarations, `tree`
//! the bidding tree's root values. This module holds the kind indices, the contract lists a
//! declarer considers and the argument checks: every public entry point checks its cards
//! (10 + 2 disjoint, or 10 or 12 as it says), seat (0-2) and kind (0-6) and returns
//! [`SkatError`] otherwise; the internal functions assume checked arguments.

mod declare;
mod features;
mod model;
#[cfg(test)]
mod tests;
mod tree;

use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::rules::{Contract, GameType};
pub use declare::Declaration;
pub use features::{jack_bits, null_config, side7, table_indices, trump_indices, TrumpIndices};
pub use model::{BiddingModel, MODEL_PARTS};
pub use tree::TreeValues;

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
