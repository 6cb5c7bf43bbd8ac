//! The null "safe cards" rule of paranoid search (solver thesis ch. 6.2): at a trick start of
//! a null game the declarer's cards often decide the paranoid value without a search.
//!
//! Per suit, take the declarer's cards from the lowest (null order, 7 lowest), and count for
//! the `i`-th of them (from 0) the *unknown* cards of the suit below it: cards not yet played
//! that a defender or the hidden skat may hold. The holding is **safe** when every count is
//! at most `i`: the lowest card has no unknown card below it, the second at most one, and so
//! on (with every other card unknown: 7, then at most 9, J, K).
//!
//! * Defenders to lead, every holding safe: she never takes a trick. When a suit is led she
//!   plays her highest card below the led card, which exists because her lowest card is below
//!   every unknown card of the suit; when she cannot follow she discards the highest card of
//!   any suit. Either way every holding stays safe (the led card and the cards she gives up
//!   only lower the counts of the cards above them), so this holds to the end.
//! * Declarer to lead (the first trick, forehand): the same, after a lead of the lowest card
//!   of a suit whose remaining cards are still safe without that card (the defenders' cards
//!   on the lead may all be high) and of which more cards are unknown than the hidden skat can
//!   hold: a defender then has one, must follow, and beats her.
//! * Before the first card, a suit whose lowest declarer card has an unknown card below it
//!   loses: some deal gives that card, with every other unknown card of the suit, to one
//!   defender, who gets the lead and leads it while the other discards.
//!
//! Otherwise the rule says nothing and the search goes on. The tests compare it with the
//! search on random positions.

use crate::cards::Cards;
use crate::paranoid::ParanoidState;

/// The eight null-ordered cards of suit `s` as bits (7 lowest).
fn suit_bits(c: Cards, s: u32) -> u32 {
    c.0 >> (8 * s) & 0xFF
}

/// The lowest card of a holding (as a bit; 0 for none).
fn lowest(h: u32) -> u32 {
    h & h.wrapping_neg()
}

/// Whether the holding `h` (null-ordered bits) is safe against the unknown cards `u`.
fn holding_safe(h: u32, u: u32) -> bool {
    let mut i = 0;
    let mut m = h;
    while m != 0 {
        let r = m.trailing_zeros();
        if (u & ((1 << r) - 1)).count_ones() > i {
            return false;
        }
        i += 1;
        m &= m - 1;
    }
    true
}

/// The paranoid null value at a trick start where the rule decides it: `Some(1)` she surely
/// takes no trick, `Some(0)` she surely takes one; `None` if the rule does not decide.
pub fn null_rule(s: &ParanoidState) -> Option<i32> {
    debug_assert!(s.game_type.is_null() && s.trick[0].is_none());
    if s.lost {
        return Some(0);
    }
    let hand = s.cards[s.declarer as usize];
    let h = [0, 1, 2, 3].map(|t| suit_bits(hand, t));
    let u = [0, 1, 2, 3].map(|t| suit_bits(s.unknown, t));
    if (0..4).all(|t| holding_safe(h[t], u[t])) {
        // defenders to lead; or her lead of a suit's lowest card that every unknown card of
        // it beats, some defender surely holds, and that leaves the suit safe
        let safe_lead = |t: usize| {
            let low = lowest(h[t]);
            low != 0
                && u[t] & (low - 1) == 0
                && u[t].count_ones() > s.hidden_skat
                && holding_safe(h[t] - low, u[t])
        };
        if s.leader != s.declarer || (0..4).any(safe_lead) {
            return Some(1);
        }
    }
    // before the first card: a suit with an unknown card below her lowest loses
    let exposed = |t: usize| h[t] != 0 && u[t] & (lowest(h[t]) - 1) != 0;
    if s.counts == [10; 3] && (0..4).any(exposed) {
        return Some(0);
    }
    None
}
