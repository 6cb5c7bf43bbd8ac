//! The fail-soft move loop and the move lists it runs over. A loop searches the moves in the
//! order given, narrows its window by each value and stops at the first move that reaches
//! the far side of the window; its value is the best child value (fail-soft) and its move the
//! first move with that value. Move lists hold one card per group of equivalent cards (with
//! the option), in descending card order before any ordering.

use super::hi_bit;
use super::Searcher;
use crate::solver::layout::Layout;
use crate::solver::order::collapse;
use crate::solver::SolverOptions;

/// FCF weight: score units per legal reply of the child (heuristic scores are in card points).
pub(super) const FCF_WEIGHT: i32 = 3;

/// The cards to search among `legal` (a subset of `hand`; `live`: every card in the hands and
/// the current trick): one per group of equivalent cards with the option.
#[inline(always)]
pub(super) fn searched_cards(
    lay: &Layout,
    opt: &SolverOptions,
    legal: u32,
    hand: u32,
    live: u32,
) -> u32 {
    if legal & legal.wrapping_sub(1) != 0 && opt.collapse_equivalent {
        collapse(lay, legal, hand, live)
    } else {
        legal
    }
}

/// Appends the cards of `m` to `cards[..n]`, highest first (the search order of a card loop).
#[inline(always)]
pub(super) fn push_cards(cards: &mut [u8; 10], n: &mut usize, mut m: u32) {
    while m != 0 {
        let c = hi_bit(m);
        m &= !(1 << c);
        cards[*n] = c as u8;
        *n += 1;
    }
}

impl<'a> Searcher<'a> {
    /// Fills `moves` with the cards to search among `legal` (a subset of `hand`; `live`: every
    /// card in the hands and the current trick), one per group of equivalent cards with the
    /// option, in descending card order; returns how many.
    #[inline(always)]
    pub(super) fn move_list(
        &self,
        legal: u32,
        hand: u32,
        live: u32,
        moves: &mut [(i32, u32); 10],
    ) -> usize {
        let mask = searched_cards(self.lay, self.opt, legal, hand, live);
        let mut n = 0;
        let mut m = mask;
        while m != 0 {
            let c = hi_bit(m);
            m &= !(1 << c);
            moves[n].1 = c;
            n += 1;
        }
        n
    }

    /// The fail-soft alpha-beta loop of the suit and grand card loops: `child(self, c, alpha,
    /// beta)` plays card `c`, searches on and takes it back; the moves come in order, the
    /// first that reaches the far side of the window ends the loop. Returns (value, best
    /// move).
    #[inline(always)]
    pub(super) fn search_moves(
        &mut self,
        cards: &[u8],
        maximizing: bool,
        alpha: i32,
        beta: i32,
        child: impl FnMut(&mut Self, u8, i32, i32) -> i32,
    ) -> (i32, u8) {
        let none = if maximizing { i32::MIN } else { i32::MAX };
        self.search_moves_after(cards, maximizing, alpha, beta, child, (none, 0xFF))
    }

    /// [`Searcher::search_moves`] continued after moves already searched, whose best value
    /// and move are `(best, best_mv)` (the window already narrowed by it).
    #[inline(always)]
    fn search_moves_after(
        &mut self,
        cards: &[u8],
        maximizing: bool,
        mut alpha: i32,
        mut beta: i32,
        mut child: impl FnMut(&mut Self, u8, i32, i32) -> i32,
        (mut best, mut best_mv): (i32, u8),
    ) -> (i32, u8) {
        for &c in cards {
            let v = child(self, c, alpha, beta);
            if maximizing {
                if v > best {
                    best = v;
                    best_mv = c;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            } else if v < best {
                best = v;
                best_mv = c;
                if v < beta {
                    beta = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_mv)
    }

    /// The fail-soft loop with the first move searched on its own: the rest of the move list
    /// is built by `rest` (the cards after `first`, in order; returns how many) only when
    /// `first` does not cut, which saves the ordering work at most cut nodes. Returns (value,
    /// best move), as [`Searcher::search_moves`] over `first` and the rest would.
    #[inline(always)]
    pub(super) fn search_first_then(
        &mut self,
        first: u8,
        maximizing: bool,
        mut alpha: i32,
        mut beta: i32,
        mut child: impl FnMut(&mut Self, u8, i32, i32) -> i32,
        rest: impl FnOnce(&Self, &mut [u8; 10]) -> usize,
    ) -> (i32, u8) {
        let v = child(self, first, alpha, beta);
        if maximizing {
            alpha = alpha.max(v);
        } else {
            beta = beta.min(v);
        }
        if alpha >= beta {
            return (v, first);
        }
        let mut cards = [0u8; 10];
        let n = rest(self, &mut cards);
        self.search_moves_after(&cards[..n], maximizing, alpha, beta, child, (v, first))
    }

    /// Plays `c` for `p` as card `pos` (0 or 1) of the current trick, counts the node (what
    /// `ab` does there), runs `next` (the next card's loop) and takes the card back.
    #[inline(always)]
    pub(super) fn play_within_trick(
        &mut self,
        p: usize,
        c: u8,
        pos: usize,
        next: impl FnOnce(&mut Self) -> i32,
    ) -> i32 {
        self.hands[p] &= !(1 << c);
        self.trick[pos] = c;
        self.tlen = pos + 1;
        self.nodes += 1;
        let v = next(self);
        self.tlen = pos;
        self.hands[p] |= 1 << c;
        v
    }
}
