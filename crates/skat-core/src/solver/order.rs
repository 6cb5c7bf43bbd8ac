//! Move generation helpers: collapsing of equivalent cards and the ordering heuristics,
//! including the fastest-cut-first term (thesis ch. 3).
//!
//! Two cards of the player to move are *equivalent* when they belong to the same follow group,
//! no other live card (in another hand or in the current trick) lies between them in power,
//! and they have equal points (jacks; 9-8-7; every card in null). Swapping such cards is an
//! isomorphism of the game tree, so one representative (the highest) is searched.

use super::layout::Layout;

/// Bits strictly between `lo` and `hi` (`lo < hi`).
#[inline]
pub fn between(lo: u32, hi: u32) -> u32 {
    ((1u32 << hi) - 1) & !((2u32 << lo) - 1)
}

/// The representatives (highest card of each equivalence class) of `legal`, a subset of the
/// player's `hand`, given `live` (all cards still in hands or in the current trick).
///
/// A card is equivalent to the next higher legal card when both lie in one of the layout's
/// runs (same group, same points, adjacent in power) with no live card of another hand
/// between them. The player's own cards of a group are all legal or none, so a legal card
/// `c` is dropped exactly when `next(c)` holds, for `next(c)` = "`c + 1` is in `c`'s run and
/// legal, or not live and `next(c + 1)`": computed for all cards at once, one shift per
/// card of the longest run.
#[inline]
pub fn collapse(lay: &Layout, legal: u32, hand: u32, live: u32) -> u32 {
    debug_assert!(legal & !hand == 0 && hand & !live == 0);
    let up_legal = legal >> 1;
    let up_gap = !live >> 1;
    let step = |next: u32| (up_legal | up_gap & next >> 1) & lay.run_inner;
    // suit and grand: runs of at most four cards (the jacks); null: eight
    let mut next = step(step(step(0)));
    for _ in 3..lay.run_depth {
        next = step(next);
    }
    legal & !next
}

/// The loop form of [`collapse`] (for tests): each candidate card against the next higher
/// legal card.
#[cfg(test)]
fn collapse_reference(lay: &Layout, legal: u32, hand: u32, live: u32) -> u32 {
    let foreign = live & !hand;
    let mut reps = legal;
    let mut m = legal;
    while m != 0 {
        let c = m.trailing_zeros();
        m &= m - 1;
        let above = legal & !((2u32 << c).wrapping_sub(1));
        if above == 0 {
            continue;
        }
        let next = above.trailing_zeros();
        if lay.follow_mask(c) >> next & 1 != 0
            && lay.points[c as usize] == lay.points[next as usize]
            && foreign & between(c, next) == 0
        {
            reps &= !(1 << c);
        }
    }
    reps
}

/// For every card of `legal`, its representative under [`collapse`] (index by internal bit):
/// a card [`collapse`] drops is equivalent to the next higher legal card, so it shares that
/// card's representative.
pub fn representatives(lay: &Layout, legal: u32, hand: u32, live: u32) -> [u8; 32] {
    let reps = collapse(lay, legal, hand, live);
    let mut rep = [0xFFu8; 32];
    let mut m = legal;
    let mut cur_rep = 0u8;
    while m != 0 {
        let c = 31 - m.leading_zeros();
        m &= !(1 << c);
        if reps >> c & 1 != 0 {
            cur_rep = c as u8;
        }
        rep[c as usize] = cur_rep;
    }
    rep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Cards;
    use crate::rules::GameType;

    #[test]
    fn collapses_adjacent_equal_cards() {
        let lay = Layout::get(GameType::Grand);
        let m = |s: &str| lay.to_internal(Cards::parse(s).unwrap());
        // jacks CJ SJ adjacent: one rep; HJ separated by DJ? no: CJ SJ | HJ(other) | DJ
        let hand = m("CJ SJ DJ S7 S8 SA");
        let live = hand | m("HJ S9 ST");
        let reps = collapse(lay, hand, hand, live);
        assert_eq!(lay.to_external(reps), Cards::parse("CJ DJ S8 SA").unwrap());
        // S9 played: S7 S8 and the 9 gone -> S8 S7 equal; with a trick card between they split
        let live2 = hand | m("HJ ST");
        let reps2 = collapse(lay, hand, hand, live2);
        assert_eq!(lay.to_external(reps2), Cards::parse("CJ DJ S8 SA").unwrap());
        // SA and ST: adjacent but different points -> separate (ST not in hand here anyway)
        let hand3 = m("SA ST");
        assert_eq!(collapse(lay, hand3, hand3, hand3), hand3);
    }

    #[test]
    fn collapse_matches_the_card_by_card_rule() {
        // random hands, live cards and a lead (or none) in every game type: the bit-parallel
        // form keeps exactly the cards the loop form keeps
        let mut rng = crate::rng::Rng::new(17);
        for gt in GameType::ALL {
            let lay = Layout::get(gt);
            for _ in 0..20_000 {
                let live = rng.next_u64() as u32 | rng.next_u64() as u32;
                let hand = live & rng.next_u64() as u32;
                let lead = if rng.below(3) == 0 {
                    None
                } else {
                    Some((live & !hand).trailing_zeros().min(31) as u8)
                };
                let legal = lay.legal(hand, lead);
                assert_eq!(
                    collapse(lay, legal, hand, live),
                    collapse_reference(lay, legal, hand, live),
                    "{gt:?} legal {legal:#x} hand {hand:#x} live {live:#x}"
                );
            }
        }
    }
}
