//! The table indices of the 10+2 evaluation: which cells of the learned tables a hand, its
//! two put-away cards, the kind and the seat select. Decisions where the thesis leaves the
//! definition open:
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
//! **Null and null ouvert.** The declarer's cards of a suit in null order (7 = bit 0 ... A =
//! bit 7) are the suit's configuration, one of 256 table entries per kind.
//!
//! Every index is a pure function of its arguments and lies inside its table
//! ([`super::SUIT_SIDE_CELLS`], [`super::SUIT_TRUMP_CELLS`], [`super::GRAND_SIDE_CELLS`],
//! [`super::GRAND_TRUMP_CELLS`], 256 null configurations).

use super::{check_leaf, GRAND, NULL};
use crate::cards::{Card, Cards, Rank, Suit};
use crate::error::SkatError;
use crate::rules::GameType;

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
pub(super) fn suit_byte(c: Cards, s: usize) -> usize {
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
