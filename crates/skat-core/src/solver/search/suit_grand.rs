//! The card loops of suit and grand games: one function per card of a trick (lead, second
//! card, last card), each calling the next directly, with the move order of each. The last
//! card's winner and points are known before it is played and lead straight into the next
//! trick start. The orders are heuristics (only the node count depends on them); the order of
//! the second cards is written out from the scores documented on
//! [`Searcher::second_cards`], not sorted.

use super::hi_bit;
use super::moves::{push_cards, searched_cards, FCF_WEIGHT};
use super::Searcher;
use crate::solver::layout::m3;

/// Lead score of a declarer's trump in a suit game while the defenders still hold trumps.
const LEAD_TRUMP: i32 = 5;
/// Lead scores of a card above every other card of its suit still out: a trump, and a plain
/// card that no opponent can ruff (5 and 25 search 1.7% fewer analyze nodes than 20 and 15 on
/// 9 x 40 positions and 1.8% fewer on 5 other seeds, every seed fewer; 0-30 and 8-35 tried).
const TOP_TRUMP_LEAD: i32 = 5;
const TOP_PLAIN_LEAD: i32 = 25;
/// Lead scores of a defender's plain-suit card that the partner can ruff (bonus) or the
/// declarer can ruff (penalty). Measured on 9 x 40 positions at 30 cards (analyze nodes):
/// -0.2% to -4.1%, -1.9% in all; bonuses of 3-40 and penalties of 3-15 tried.
const PARTNER_RUFF_LEAD: i32 = 20;
const DECLARER_RUFF_LEAD: i32 = 8;
/// Lead score penalty of the declarer's plain-suit card below the suit's top card when a
/// defender can ruff it: -1.4% analyze nodes on 5 x 100 positions (seeds 1-3, 11, 12), -1.0%
/// on 5 others (seeds 21-25), every seed but one fewer; 15-80 measure alike, 5 gains less.
const DECLARER_LEAD_RUFFED: i32 = 20;
/// Lead score of a defender's plain-suit card when the partner holds the suit's top card
/// (and the declarer cannot ruff): -1.0% to -6.1% analyze nodes on 9 x 40 positions, -2.9% in
/// all; 4, 10, 15, 20, 30 and -5 tried.
const PARTNER_TOP_LEAD: i32 = 12;
/// Score of a second-hand card that takes the lead of the trick while an opponent is still to
/// play, before its points (11 searches 6.0% fewer analyze nodes than 2 on 5 seeds apart from
/// the 9 x 40 tuning positions, -4.7% on those; 4-20 tried). Chosen together with the
/// partner-ruff lead at 20 (against 15) and no penalty for leading a trump that is not the top
/// one (against 4) by coordinate descent on 9 x 40 positions: -4.7% there, -6.3% on seeds
/// 31-35.
const BEAT_SECOND: i32 = 11;
// the order of the second cards (`Searcher::second_cards`) is written out for this value
const _: () = assert!(BEAT_SECOND == 11);

impl<'a> Searcher<'a> {
    /// [`Searcher::children`] for the lead of a trick in suit and grand: the table move
    /// `ttmv` first, then by [`Searcher::score_lead`] less the fastest-cut-first term (the
    /// next player's legal replies).
    pub(super) fn leads(&mut self, alpha: i32, beta: i32, ttmv: u8) -> (i32, u8) {
        let lay = self.lay;
        let p = self.leader;
        let hand = self.hands[p];
        let maximizing = p == self.decl;
        let reps = searched_cards(
            lay,
            self.opt,
            hand,
            hand,
            self.hands[0] | self.hands[1] | self.hands[2],
        );
        let child = |s: &mut Self, c: u8, alpha: i32, beta: i32| {
            s.play_within_trick(p, c, 0, |s| s.second_cards(alpha, beta).0)
        };
        if !self.opt.move_ordering || reps & reps.wrapping_sub(1) == 0 {
            let (mut cards, mut n) = ([0u8; 10], 0);
            push_cards(&mut cards, &mut n, reps);
            return self.search_moves(&cards[..n], maximizing, alpha, beta, child);
        }
        // each card's score and the card packed in one word (the higher card first among
        // equal scores, as generated), sorted descending
        let order = move |s: &Self, set: u32, cards: &mut [u8; 10]| {
            let fcf = s.opt.fastest_cut_first;
            let next = s.hands[m3(p + 1)];
            let mut keys = [0i32; 10];
            let mut n = 0;
            let mut m = set;
            while m != 0 {
                let c = hi_bit(m);
                m &= !(1 << c);
                let mut sc = s.score_lead(p, c as u8);
                if fcf {
                    sc -= FCF_WEIGHT * lay.legal(next, Some(c as u8)).count_ones() as i32;
                }
                keys[n] = sc * 32 + c as i32;
                n += 1;
            }
            let keys = &mut keys[..n];
            keys.sort_unstable_by(|a, b| b.cmp(a));
            for (card, &k) in cards.iter_mut().zip(keys.iter()) {
                *card = (k & 31) as u8;
            }
            n
        };
        if ttmv != 0xFF && reps >> ttmv & 1 != 0 {
            // the table's move first, on its own: when it cuts (as it mostly does when the
            // node is searched again) the other leads need no scores
            let rest = reps & !(1 << ttmv);
            self.search_first_then(ttmv, maximizing, alpha, beta, child, |s, cards| {
                order(s, rest, cards)
            })
        } else {
            let mut cards = [0u8; 10];
            let n = order(self, reps, &mut cards);
            self.search_moves(&cards[..n], maximizing, alpha, beta, child)
        }
    }

    /// [`Searcher::children`] for the second card of a trick in suit and grand. A card scores
    /// as a settled trick when nobody left can beat the trick's winner, or when a defender
    /// second to play beats the declarer's lead with the partner still to come: 10 plus the
    /// trick's points if its side wins, minus twice its points if not; otherwise minus its
    /// points, plus [`BEAT_SECOND`] for a card that takes the lead of the trick with an
    /// opponent still to play. The cards are not scored one by one: each kind of card (by
    /// whether it beats the lead and whether its trick is settled) is taken from the point
    /// classes in the order those scores give.
    pub(super) fn second_cards(&mut self, alpha: i32, beta: i32) -> (i32, u8) {
        let lay = self.lay;
        let p = m3(self.leader + 1);
        let third = m3(p + 1);
        let lead = self.trick[0];
        let hand = self.hands[p];
        let legal = lay.legal(hand, Some(lead));
        let maximizing = p == self.decl;
        let live = self.hands[0] | self.hands[1] | self.hands[2] | 1 << lead;
        let reps = searched_cards(lay, self.opt, legal, hand, live);
        let (mut cards, mut n) = ([0u8; 10], 0);
        let mut push = |m: u32| push_cards(&mut cards, &mut n, m);
        if self.opt.move_ordering && reps & reps.wrapping_sub(1) != 0 {
            // The scores, by kind of card (pts: the card's points, lp: the lead's):
            // settled, the trick ours: 10 + lp + pts; beats the lead, not settled:
            // BEAT_SECOND - pts = 11 - pts; does not beat it, not settled: -pts; settled, the
            // trick theirs: -2 pts. Cards come out in descending score, equal scores in
            // descending card order (what the sort by score gave).
            let ours = |s: usize| (s == self.decl) == maximizing;
            let (ours_third, ours_leader) = (ours(third), ours(self.leader));
            let cont = lay.contenders(lead);
            let l3c = lay.legal(self.hands[third], Some(lead)) & cont;
            let above = |c: u32| !(2u32 << c).wrapping_sub(1);
            let beat = reps & cont & above(lead as u32);
            let others = reps & !beat;
            // a beating card is settled when the third player cannot beat it (or is ours)
            let settled_beat = if ours_third || l3c == 0 {
                beat
            } else {
                beat & above(hi_bit(l3c))
            };
            let open_beat = beat & !settled_beat;
            let others_settled =
                l3c & above(lead as u32) == 0 || lead == 31 || (ours_third && ours_leader);
            let (won, rest) = if others_settled && ours_leader {
                (settled_beat | others, 0)
            } else {
                (settled_beat, others)
            };
            let [c0, c2, c3, c4, c10, c11] = lay.point_classes;
            if won & !c0 != 0 {
                for class in [c11, c10, c4, c3, c2] {
                    push(won & class);
                }
            }
            if open_beat == 0 {
                push(won & c0);
            } else {
                // 10 + lp for a settled zero-point card: below 11 (an open beating 7 8 9)
                // when the lead is worth nothing
                if lay.pts(lead as u32) != 0 {
                    push(won & c0);
                    push(open_beat & c0);
                } else {
                    push(open_beat & c0);
                    push(won & c0);
                }
                for class in [c2, c3, c4, c10] {
                    push(open_beat & class);
                }
            }
            // score 0: an open beating ace and the rest's zero-point cards
            push(open_beat & c11 | rest & c0);
            if rest & !c0 != 0 {
                for class in [c2, c3, c4, c10, c11] {
                    push(rest & class);
                }
            }
        } else {
            push(reps);
        }
        self.search_moves(&cards[..n], maximizing, alpha, beta, |s, c, alpha, beta| {
            s.play_within_trick(p, c, 1, |s| s.last_cards(alpha, beta).0)
        })
    }

    /// [`Searcher::children`] for the last card of a trick in suit and grand, where each
    /// card's outcome is known before it is played: the trick's winner and points order the
    /// moves (10 plus the trick's points for a card whose side wins the trick, minus twice
    /// its points otherwise: taken from the point classes in that order, not sorted) and lead
    /// into the next trick start without recomputing them.
    pub(super) fn last_cards(&mut self, alpha: i32, beta: i32) -> (i32, u8) {
        let lay = self.lay;
        let p = m3(self.leader + 2);
        let lead = self.trick[0];
        let hand = self.hands[p];
        let legal = lay.legal(hand, Some(lead));
        let cont = lay.contenders(lead);
        // the trick so far: its winning card and seat, its points
        let (t0, t1) = (self.trick[0], self.trick[1]);
        let (wc, ws) = if cont >> t1 & 1 != 0 && t1 > t0 {
            (t1, m3(self.leader + 1))
        } else {
            (t0, self.leader)
        };
        let tp = lay.pts(t0 as u32) + lay.pts(t1 as u32);
        let maximizing = p == self.decl;
        let ours = |s: usize| (s == self.decl) == maximizing;
        let live = self.hands[0] | self.hands[1] | self.hands[2] | 1 << t0 | 1 << t1;
        let old_leader = self.leader;
        let child = |s: &mut Self, c: u8, alpha: i32, beta: i32| {
            let w = if cont >> c & 1 != 0 && c > wc { p } else { ws };
            let won = tp + lay.pts(c as u32);
            let gain = if w == s.decl { won } else { 0 };
            s.hands[p] &= !(1 << c);
            s.trick[2] = c;
            s.leader = w;
            s.tlen = 0;
            s.in_play -= won;
            let v = gain + s.ab(alpha - gain, beta - gain);
            s.in_play += won;
            s.leader = old_leader;
            s.trick = [t0, t1, c];
            s.tlen = 2;
            s.hands[p] |= 1 << c;
            v
        };
        if !self.opt.move_ordering || legal & legal.wrapping_sub(1) == 0 {
            let reps = searched_cards(lay, self.opt, legal, hand, live);
            let (mut cards, mut n) = ([0u8; 10], 0);
            push_cards(&mut cards, &mut n, reps);
            return self.search_moves(&cards[..n], maximizing, alpha, beta, child);
        }
        // the cards whose side wins the trick first, the most valuable first, then those that
        // lose it, the cheapest first; equal points in descending card order (what sorting by
        // 10 plus the trick's points, or minus twice the card's points, gave). The first of
        // them is searched before the others are listed (it cuts in most nodes), and before
        // equivalent cards are collapsed: it is the highest of its point class among the
        // legal cards that win (or lose) the trick, which is never a collapsed card (the card
        // above it in its run would have the same points and outcome)
        let winning_ours = ours(ws);
        let split = move |set: u32| {
            let beat = set & cont & !(2u32 << wc).wrapping_sub(1);
            if winning_ours {
                (set, 0)
            } else {
                (beat, set & !beat)
            }
        };
        let (win, lose) = split(legal);
        let classes = &lay.point_classes;
        let first = if win != 0 {
            classes.iter().rev().map(|&c| win & c).find(|&m| m != 0)
        } else {
            classes.iter().map(|&c| lose & c).find(|&m| m != 0)
        }
        .map_or(0, hi_bit) as u8;
        debug_assert!(searched_cards(lay, self.opt, legal, hand, live) >> first & 1 != 0);
        self.search_first_then(first, maximizing, alpha, beta, child, |s, cards| {
            let reps = searched_cards(lay, s.opt, legal, hand, live) & !(1 << first);
            let (win, lose) = split(reps);
            let mut n = 0;
            if win != 0 {
                for &class in classes.iter().rev() {
                    push_cards(cards, &mut n, win & class);
                }
            }
            if lose != 0 {
                for &class in classes {
                    push_cards(cards, &mut n, lose & class);
                }
            }
            n
        })
    }

    /// The heuristic score of leading `c` in suit and grand (the follows are scored in
    /// [`Searcher::second_cards`] and [`Searcher::last_cards`]).
    fn score_lead(&self, p: usize, c: u8) -> i32 {
        let lay = self.lay;
        let pts = lay.pts(c as u32);
        let decl_side = p == self.decl;
        let ours = |s: usize| (s == self.decl) == decl_side;
        let gm = lay.follow_mask(c as u32);
        let others = (self.hands[0] | self.hands[1] | self.hands[2]) & !self.hands[p];
        let top = others & gm & !((2u32 << c).wrapping_sub(1)) == 0 || c == 31;
        let trump = gm == lay.trumps;
        if top {
            if trump {
                return TOP_TRUMP_LEAD + pts;
            }
            let mut ruff = false;
            for o in 0..3 {
                if !ours(o) && self.hands[o] & gm == 0 && self.hands[o] & lay.trumps != 0 {
                    ruff = true;
                }
            }
            return if ruff { -pts } else { TOP_PLAIN_LEAD + pts };
        }
        if trump && decl_side && lay.trumps.count_ones() == 11 && others & lay.trumps != 0 {
            return LEAD_TRUMP - pts;
        }
        if decl_side && !trump {
            // the declarer's plain-suit lead below the suit's top that a defender can ruff
            for o in 0..3 {
                if o != p && self.hands[o] & gm == 0 && self.hands[o] & lay.trumps != 0 {
                    return -DECLARER_LEAD_RUFFED - pts;
                }
            }
        }
        if !decl_side && !trump {
            // a defender's plain-suit lead: good into the partner's ruff while the declarer
            // must follow, poor into the declarer's ruff, good towards the partner's top card
            let hd = self.hands[self.decl];
            let hp = self.hands[3 - self.decl - p];
            if hp & gm == 0 && hp & lay.trumps != 0 && hd & gm != 0 {
                return PARTNER_RUFF_LEAD - pts;
            }
            if hd & gm == 0 && hd & lay.trumps != 0 {
                return -DECLARER_RUFF_LEAD - pts;
            }
            if hp & gm != 0 && hi_bit(others & gm) == hi_bit(hp & gm) {
                // the partner holds the suit's top card
                return PARTNER_TOP_LEAD - pts;
            }
        }
        -pts
    }
}
