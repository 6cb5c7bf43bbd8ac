//! The solver's internal card numbering. For each game type the 32 cards are renumbered so
//! that every *follow group* (the trumps, and each plain suit) is a contiguous bit range in
//! ascending trick-taking power, with the trumps on top. Then:
//!
//! * the winner of a trick is the highest internal index among the trick's cards that are
//!   trumps or of the led group;
//! * "adjacent in power" is "no other live card between two bit positions";
//! * the canonical (rank-ownership) form of a position is read off one bit range per group.
//!
//! Suit games: the three plain suits (7 cards each, ascending suit order) at bits 0..21, the 11
//! trumps at 21..32. Grand: four plain suits of 7 at 0..28, jacks at 28..32. Null: the external
//! numbering (4 suits of 8 in face order, which is the null power order).

use std::sync::OnceLock;

use crate::cards::{Card, Cards};
use crate::rules::GameType;

/// `x % 3` for `x < 6` (seat arithmetic) without a division.
#[inline(always)]
pub fn m3(x: usize) -> usize {
    if x >= 3 {
        x - 3
    } else {
        x
    }
}

/// Up to five follow groups (grand: four suits and the jacks).
pub const MAX_GROUPS: usize = 5;

#[derive(Clone, Debug)]
pub struct Layout {
    pub game_type: GameType,
    /// External card index -> internal bit.
    pub to_int: [u8; 32],
    /// Internal bit -> external card index.
    pub to_ext: [u8; 32],
    /// Internal bit -> group number.
    pub group_of: [u8; 32],
    /// Internal mask of each group (only `ngroups` are used).
    pub group_mask: [u32; MAX_GROUPS],
    /// Internal bit -> the mask of its group (`group_mask[group_of[c]]` in one look-up).
    follow: [u32; 32],
    /// The cards that can be equivalent to the next card up: those below the top of a *run*,
    /// a maximal sequence of at least two cards adjacent in power in one follow group with
    /// equal points (suit and grand: the 7 8 9 of each suit and the jacks; null: each suit).
    pub run_inner: u32,
    /// The length of the longest run less one.
    pub run_depth: u32,
    /// Lowest bit of each group.
    pub group_base: [u8; MAX_GROUPS],
    /// Number of cards of each group.
    pub group_width: [u8; MAX_GROUPS],
    /// Bits of each slot's canonical code in a payoff-similarity key (by the width of the
    /// group at that slot: `2 * 3^width` must fit; plain 7: 13 bits, null 8: 14, trumps 11:
    /// 19, jacks 4: 8; at most 60 bits in all).
    pub key_width: [u8; MAX_GROUPS],
    pub ngroups: usize,
    /// Internal mask of the trumps (0 in null); always the highest group when present.
    pub trumps: u32,
    /// Number of the trump group, `usize::MAX` in null.
    pub trump_group: usize,
    /// Card points by internal bit (all 0 in null: points never matter there).
    pub points: [u8; 32],
    /// The mask of the cards worth each point value 2, 3, 4, 10, 11 (ascending).
    rank_masks: [(u32, u8); 5],
    /// The cards by points, ascending: worth 0, 2, 3, 4, 10, 11 (null: all cards first).
    pub point_classes: [u32; 6],
    /// Card points of each byte of a mask (`points_of` by four table look-ups).
    byte_points: [[u8; 256]; 4],
}

impl Layout {
    fn build(gt: GameType) -> Layout {
        // collect groups: plain suits ascending, then trumps
        let trumps = gt.trumps();
        let mut groups: Vec<Cards> = Vec::new();
        for s in 0..4u8 {
            let g = crate::cards::Suit::from_index(s).cards() - trumps;
            if !g.is_empty() {
                groups.push(g);
            }
        }
        if !trumps.is_empty() {
            groups.push(trumps);
        }
        let mut to_int = [0u8; 32];
        let mut to_ext = [0u8; 32];
        let mut group_of = [0u8; 32];
        let mut group_mask = [0u32; MAX_GROUPS];
        let mut group_base = [0u8; MAX_GROUPS];
        let mut points = [0u8; 32];
        let mut next = 0u8;
        for (gi, g) in groups.iter().enumerate() {
            let mut cards: Vec<Card> = g.iter().collect();
            cards.sort_by_key(|&c| gt.power(c, *g));
            group_base[gi] = next;
            for c in cards {
                to_int[c.index() as usize] = next;
                to_ext[next as usize] = c.index();
                group_of[next as usize] = gi as u8;
                group_mask[gi] |= 1 << next;
                points[next as usize] = if gt.is_null() { 0 } else { c.points() };
                next += 1;
            }
        }
        debug_assert_eq!(next, 32);
        let ngroups = groups.len();
        let mut group_width = [0u8; MAX_GROUPS];
        for (w, g) in group_width.iter_mut().zip(groups.iter()) {
            *w = g.len() as u8;
        }
        let mut key_width = [0u8; MAX_GROUPS];
        for (k, &w) in key_width.iter_mut().zip(group_width.iter()) {
            *k = match w {
                0 => 0,
                4 => 8,
                7 => 13,
                8 => 14,
                11 => 19,
                _ => unreachable!("no group has {w} cards"),
            };
        }
        let trump_group = if trumps.is_empty() {
            usize::MAX
        } else {
            ngroups - 1
        };
        let trumps_int = if trumps.is_empty() {
            0
        } else {
            group_mask[ngroups - 1]
        };
        let mut rank_masks = [(0u32, 0u8); 5];
        for (i, v) in [2u8, 3, 4, 10, 11].iter().enumerate() {
            let mut m = 0u32;
            for (b, &p) in points.iter().enumerate() {
                if p == *v {
                    m |= 1 << b;
                }
            }
            rank_masks[i] = (m, *v);
        }
        let mut follow = [0u32; 32];
        for (c, f) in follow.iter_mut().enumerate() {
            *f = group_mask[group_of[c] as usize];
        }
        let (mut run_inner, mut run_depth) = (0u32, 0u32);
        let mut c = 0;
        while c < 32 {
            let mut e = c + 1;
            while e < 32 && follow[e] == follow[c] && points[e] == points[c] {
                e += 1;
            }
            // cards c..e form a run (of one card when e = c + 1)
            for b in c..e - 1 {
                run_inner |= 1 << b;
            }
            run_depth = run_depth.max((e - c - 1) as u32);
            c = e;
        }
        let mut byte_points = [[0u8; 256]; 4];
        for (i, tab) in byte_points.iter_mut().enumerate() {
            for (b, x) in tab.iter_mut().enumerate() {
                *x = (0..8)
                    .filter(|j| b & (1 << j) != 0)
                    .map(|j| points[i * 8 + j])
                    .sum();
            }
        }
        Layout {
            game_type: gt,
            to_int,
            to_ext,
            group_of,
            group_mask,
            follow,
            run_inner,
            run_depth,
            group_base,
            group_width,
            key_width,
            ngroups,
            trumps: trumps_int,
            trump_group,
            points,
            rank_masks,
            point_classes: [
                !rank_masks.iter().fold(0, |a, &(rm, _)| a | rm),
                rank_masks[0].0,
                rank_masks[1].0,
                rank_masks[2].0,
                rank_masks[3].0,
                rank_masks[4].0,
            ],
            byte_points,
        }
    }

    /// The layout of a game type (built once).
    pub fn get(gt: GameType) -> &'static Layout {
        static LAYOUTS: OnceLock<Vec<Layout>> = OnceLock::new();
        let all = LAYOUTS.get_or_init(|| GameType::ALL.iter().map(|&g| Layout::build(g)).collect());
        &all[gt as usize]
    }

    /// The mask of the group (the cards that follow suit) of internal card `c` (`c < 32`).
    #[inline(always)]
    pub fn follow_mask(&self, c: u32) -> u32 {
        self.follow[(c & 31) as usize]
    }

    /// The card points of internal card `c` (the index masked: no bounds check).
    #[inline(always)]
    pub fn pts(&self, c: u32) -> i32 {
        self.points[(c & 31) as usize] as i32
    }

    /// External card set -> internal mask.
    pub fn to_internal(&self, cards: Cards) -> u32 {
        let mut m = 0u32;
        for c in cards.iter() {
            m |= 1 << self.to_int[c.index() as usize];
        }
        m
    }

    /// Internal mask -> external card set.
    pub fn to_external(&self, mask: u32) -> Cards {
        let mut s = Cards::EMPTY;
        let mut m = mask;
        while m != 0 {
            let b = m.trailing_zeros();
            m &= m - 1;
            s = s.with(Card::from_index(self.to_ext[b as usize]));
        }
        s
    }

    pub fn card(&self, bit: u8) -> Card {
        Card::from_index(self.to_ext[bit as usize])
    }

    pub fn bit(&self, card: Card) -> u8 {
        self.to_int[card.index() as usize]
    }

    /// Sum of card points of an internal mask.
    #[inline]
    pub fn points_of(&self, m: u32) -> i32 {
        self.byte_points[0][(m & 0xFF) as usize] as i32
            + self.byte_points[1][(m >> 8 & 0xFF) as usize] as i32
            + self.byte_points[2][(m >> 16 & 0xFF) as usize] as i32
            + self.byte_points[3][(m >> 24) as usize] as i32
    }

    /// Reference sum of card points (for tests).
    pub fn points_of_slow(&self, m: u32) -> i32 {
        let mut s = 0i32;
        for &(rm, v) in &self.rank_masks {
            s += (m & rm).count_ones() as i32 * v as i32;
        }
        s
    }

    /// Sum of the `n` smallest card values in `m` (`n <= |m|`).
    #[inline]
    pub fn min_points(&self, m: u32, n: u32) -> i32 {
        let mut left = n;
        let mut sum = 0i32;
        let zeros = m & self.point_classes[0];
        let z = zeros.count_ones().min(left);
        left -= z;
        for &(rm, v) in &self.rank_masks {
            if left == 0 {
                break;
            }
            let t = (m & rm).count_ones().min(left);
            left -= t;
            sum += t as i32 * v as i32;
        }
        sum
    }

    /// The cards of `hand` that may follow a trick led with internal card `lead`.
    #[inline]
    pub fn legal(&self, hand: u32, lead: Option<u8>) -> u32 {
        match lead {
            None => hand,
            Some(l) => {
                let f = hand & self.follow_mask(l as u32);
                if f == 0 {
                    hand
                } else {
                    f
                }
            }
        }
    }

    /// The mask of cards that can win a trick led with `lead`: trumps and the led group.
    #[inline]
    pub fn contenders(&self, lead: u8) -> u32 {
        self.trumps | self.follow_mask(lead as u32)
    }

    /// Index (0..n) of the winning card among `cards` (led by `cards[0]`).
    #[inline]
    pub fn winner(&self, cards: &[u8]) -> usize {
        let cont = self.contenders(cards[0]);
        let mut best = 0;
        for (i, &c) in cards.iter().enumerate().skip(1) {
            if cont & (1 << c) != 0 && c > cards[best] {
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::trick_winner;

    /// Three random hands of one random size (1 to 10 cards each) as sets of card bits.
    pub(crate) fn random_hands(rng: &mut Rng) -> [u32; 3] {
        let mut cards: Vec<u32> = (0..32).collect();
        rng.shuffle(&mut cards);
        let k = 1 + rng.below(10) as usize;
        let mut hands = [0u32; 3];
        for (i, h) in hands.iter_mut().enumerate() {
            for &c in &cards[i * k..(i + 1) * k] {
                *h |= 1 << c;
            }
        }
        hands
    }

    #[test]
    fn winner_matches_rules() {
        let mut rng = Rng::new(7);
        for gt in GameType::ALL {
            let lay = Layout::get(gt);
            for c in Card::all() {
                assert_eq!(lay.card(lay.bit(c)), c);
            }
            for _ in 0..2000 {
                let mut deck: Vec<Card> = Card::all().collect();
                rng.shuffle(&mut deck);
                let t = &deck[..3];
                let ti: Vec<u8> = t.iter().map(|&c| lay.bit(c)).collect();
                assert_eq!(lay.winner(&ti), trick_winner(gt, t), "{gt} {t:?}");
                let hand: Cards = deck[3..10].iter().copied().collect();
                let legal = crate::rules::legal_cards(gt, hand, Some(t[0]));
                assert_eq!(
                    lay.to_external(lay.legal(lay.to_internal(hand), Some(ti[0]))),
                    legal
                );
            }
            for _ in 0..2000 {
                let m = rng.next_u64() as u32 & rng.next_u64() as u32;
                assert_eq!(lay.points_of(m), lay.points_of_slow(m));
            }
            let total: i32 = lay.points_of(u32::MAX);
            assert_eq!(total, if gt.is_null() { 0 } else { 120 });
        }
    }
}
