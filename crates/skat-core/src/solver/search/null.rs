//! The move loop of null games (with and without partition search) and its move order, and
//! [`Searcher::children`], which sends suit and grand to their card loops. A null trick the
//! declarer wins ends the search of its line (her first trick decides the value), so the loop
//! plays each card through [`Searcher::play_and_search`], which completes tricks itself.

use super::moves::FCF_WEIGHT;
use super::Searcher;
use crate::solver::layout::m3;

/// What the null move scores of a follow (second or third card of a trick) share: the
/// current winning card and seat.
#[derive(Default)]
struct FollowCtx {
    wc: u8,
    ws: usize,
}

impl<'a> Searcher<'a> {
    /// Searches the moves of the player to move. Returns (value, best move). Suit and grand
    /// go to one loop per card of the trick; the loop below serves null games (with or
    /// without partition search).
    pub(super) fn children(&mut self, alpha: i32, beta: i32, ttmv: u8) -> (i32, u8) {
        if !self.null {
            return match self.tlen {
                0 => self.leads(alpha, beta, ttmv),
                1 => self.second_cards(alpha, beta),
                _ => self.last_cards(alpha, beta),
            };
        }
        let p = self.to_move();
        let lead = if self.tlen > 0 {
            Some(self.trick[0])
        } else {
            None
        };
        let mut moves = [(0i32, 0u32); 10];
        let n = self.ordered_moves(p, lead, ttmv, &mut moves);
        let moves = &moves[..n];
        let mut cards = [0u8; 10];
        for (card, m) in cards.iter_mut().zip(moves) {
            *card = m.1 as u8;
        }
        let maximizing = p == self.decl;
        // partition search: a cut needs only the cutting (last searched) move's relevant
        // cards, otherwise every move's
        let (mut rel_all, mut rel_last) = (0u32, 0u32);
        let (best, best_mv) =
            self.search_moves(&cards[..n], maximizing, alpha, beta, |s, c, alpha, beta| {
                let v = s.play_and_search(p, c, alpha, beta);
                rel_last = s.rel;
                rel_all |= s.rel;
                v
            });
        if self.part {
            let cut = if maximizing {
                best >= beta
            } else {
                best <= alpha
            };
            let rel = if cut { rel_last } else { rel_all };
            self.rel = rel | self.collapsed_rel(p, lead, moves);
        }
        (best, best_mv)
    }

    /// The moves of player `p` in a null game (equivalent cards collapsed), best first by the
    /// heuristic order (the table move `ttmv` first), with their scores. (Suit and grand
    /// order their moves in [`Searcher::leads`], [`Searcher::second_cards`] and
    /// [`Searcher::last_cards`].)
    fn ordered_moves(
        &self,
        p: usize,
        lead: Option<u8>,
        ttmv: u8,
        moves: &mut [(i32, u32); 10],
    ) -> usize {
        let hand = self.hands[p];
        let live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask();
        let n = self.move_list(self.lay.legal(hand, lead), hand, live, moves);
        let ms = &mut moves[..n];
        if self.opt.move_ordering && n > 1 {
            // what the scores of a follow share is computed once per node
            let ctx = if self.tlen > 0 {
                let (wc, ws) = self.partial_winner();
                FollowCtx { wc, ws }
            } else {
                FollowCtx::default()
            };
            // the reply count (fastest-cut-first) only differs between leads: after the
            // first card the next player's legal cards, after the second the winner's hand
            // size (k - 1), are the same for every move
            let fcf = self.opt.fastest_cut_first && self.tlen == 0;
            for mv in ms.iter_mut() {
                let mut s = self.score_null(p, mv.1 as u8, &ctx);
                if fcf {
                    s -= FCF_WEIGHT * self.child_branching(p, mv.1 as u8) as i32;
                }
                if mv.1 == ttmv as u32 {
                    s += 100_000;
                }
                mv.0 = s;
            }
            ms.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        }
        n
    }

    /// Plays `c` for `p` in a null game, searches on and takes it back (suit and grand go
    /// through their own card loops).
    #[inline]
    fn play_and_search(&mut self, p: usize, c: u8, alpha: i32, beta: i32) -> i32 {
        debug_assert!(self.null);
        self.hands[p] &= !(1 << c);
        self.trick[self.tlen] = c;
        self.tlen += 1;
        let v;
        if self.tlen == 3 {
            let wi = self.lay.winner(&self.trick);
            let w = m3(self.leader + wi);
            let old_leader = self.leader;
            let saved = self.trick;
            self.leader = w;
            self.tlen = 0;
            if w == self.decl {
                self.nodes += 1;
                self.rel = 0;
                v = 10 - self.hands[0].count_ones() as i32;
            } else {
                v = self.ab(alpha, beta);
            }
            if self.part {
                // the winner won by rank if another card of the led suit is in the trick
                let lg = self.lay.follow_mask(saved[0] as u32);
                let led = (1u32 << saved[0] | 1 << saved[1] | 1 << saved[2]) & lg;
                if led & (led - 1) != 0 {
                    self.rel |= 1 << saved[wi];
                }
            }
            self.leader = old_leader;
            self.trick = saved;
            self.tlen = 3;
        } else {
            v = self.ab(alpha, beta);
        }
        self.tlen -= 1;
        self.hands[p] |= 1 << c;
        v
    }

    /// Number of legal replies after `p` plays `c` (the FCF size estimate).
    #[inline]
    fn child_branching(&self, p: usize, c: u8) -> u32 {
        if self.tlen == 2 {
            let t = [self.trick[0], self.trick[1], c];
            let w = m3(self.leader + self.lay.winner(&t));
            let h = if w == p {
                self.hands[w] & !(1 << c)
            } else {
                self.hands[w]
            };
            h.count_ones()
        } else {
            let q = m3(p + 1);
            let lead = if self.tlen == 0 { c } else { self.trick[0] };
            self.lay.legal(self.hands[q], Some(lead)).count_ones()
        }
    }

    /// Current winner (card, seat) of the partial trick.
    #[inline]
    fn partial_winner(&self) -> (u8, usize) {
        let w = self.lay.winner(&self.trick[..self.tlen]);
        (self.trick[w], m3(self.leader + w))
    }

    fn score_null(&self, p: usize, c: u8, ctx: &FollowCtx) -> i32 {
        let lay = self.lay;
        let g = lay.group_of[c as usize] as usize;
        let rank = (c - lay.group_base[g]) as i32;
        if p == self.decl {
            if self.tlen == 0 {
                // a lead is safe if some defender must overtake it
                for o in 0..3 {
                    if o == p {
                        continue;
                    }
                    let og = self.hands[o] & lay.group_mask[g];
                    if og != 0 && og.trailing_zeros() > c as u32 {
                        return 30 - rank;
                    }
                }
                return -rank;
            }
            let wc = ctx.wc;
            let follows = lay.group_of[self.trick[0] as usize] as usize == g;
            if !follows {
                return 20 + rank; // discard a high card
            }
            if c < wc {
                10 + rank // duck with the highest card that ducks
            } else {
                -rank
            }
        } else {
            if self.tlen > 0 {
                let (wc, ws) = (ctx.wc, ctx.ws);
                if ws == self.decl {
                    let follows = lay.group_of[self.trick[0] as usize] as usize == g;
                    if follows && c < wc {
                        return 20 - rank;
                    }
                    if !follows {
                        return 5 + rank;
                    }
                    return -10 - rank;
                }
            }
            -rank
        }
    }
}
