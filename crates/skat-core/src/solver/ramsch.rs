//! Open-handed search of a Ramsch ([`crate::ramsch`]) for one seat, the *root*: paranoid, the
//! other two play against it. The value is the root's Ramsch score without the constant
//! doubling factors (pushes, Bock): +120 for its Durchmarsch, minus its card points when it
//! has the most (doubled when a seat took no trick, Jungfrau), else 0. The root maximises, the
//! others minimise.
//!
//! The score depends on the whole distribution of points and tricks, not on the rest of the
//! play alone, so a trick start's transposition key holds, besides the hands and the leader,
//! the points each seat has taken and which seats have taken a trick. Search: fail-soft
//! alpha-beta with MTD(f) probes, the table at trick starts (bounds and the best move),
//! equivalent cards collapsed ([`super::order::collapse`]; swapping a 9 and an 8 with no live
//! card between them changes neither trick winners nor points), the root's cards tried from
//! the lowest, the others' from the highest.
//!
//! Invariant: every move is played on the searcher's state and taken back before its caller
//! continues.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::layout::{m3, Layout};
use super::order::collapse;
use crate::cards::{Card, Cards};
use crate::rules::GameType;

/// Trick starts with at most this many cards per hand are searched for the exact Ramsch score;
/// with more, the search with the key of points and tricks is too slow (at 30 cards 10^7 to
/// 4 * 10^8 nodes for one analysis), and the additive stand-in is used. Nodes of one analysis
/// on 6 random positions each: exact 7 cards 0.2-0.7 million, 8 cards 0.8-7.5 million; the
/// stand-in 8 cards 0.6 million, 9 cards 3 million, 10 cards 2-32 million on average.
pub const RAMSCH_EXACT_CARDS: u32 = 7;

/// Lowest and highest possible values (a doubled 120, a Durchmarsch).
pub const RAMSCH_MIN: i32 = -240;
pub const RAMSCH_MAX: i32 = 120;

/// A Ramsch position in card play.
#[derive(Clone, Debug)]
pub struct RamschPosition {
    pub hands: [Cards; 3],
    /// The cards of the current trick, led by `leader`.
    pub trick: Vec<Card>,
    pub leader: u8,
    /// Card points and tricks per seat so far.
    pub points: [u32; 3],
    pub tricks: [u32; 3],
    /// The skat (it goes to the winner of the last trick).
    pub skat: Cards,
}

/// The root's score of a finished Ramsch (`points` with the skat), without doubling factors:
/// the scoring's own [`ramsch_score`].
pub use crate::ramsch::ramsch_score as ramsch_payoff;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hands: [u32; 3],
    points: [u8; 3],
    /// Leader | seats with a trick << 2.
    tag: u8,
}

#[derive(Clone, Copy)]
struct Entry {
    lo: i32,
    hi: i32,
    best: u8,
}

/// A multiplicative hasher for the table keys (the standard SipHash is slower than the search
/// step it guards).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Table = HashMap<Key, Entry, BuildHasherDefault<KeyHasher>>;

/// The searcher; its table is kept between the moves of one position.
pub struct RamschSearch {
    lay: &'static Layout,
    root: usize,
    hands: [u32; 3],
    trick: [u8; 3],
    tlen: usize,
    leader: usize,
    points: [i32; 3],
    tricks: [u32; 3],
    skat_points: i32,
    /// Exact Ramsch scores; else the root's own card points from here on (negated, additive).
    exact: bool,
    table: Table,
    pub nodes: u64,
}

impl RamschSearch {
    /// A search of `pos` for the seat `root`: the exact Ramsch score with `exact`, else the
    /// additive stand-in: minus the card points the root takes in the rest of the play (the
    /// skat with the last trick included).
    pub fn new(pos: &RamschPosition, root: u8, exact: bool) -> RamschSearch {
        let lay = Layout::get(GameType::Grand);
        let mut trick = [0u8; 3];
        for (i, &c) in pos.trick.iter().enumerate() {
            trick[i] = lay.bit(c);
        }
        RamschSearch {
            lay,
            root: root as usize,
            hands: pos.hands.map(|h| lay.to_internal(h)),
            trick,
            tlen: pos.trick.len(),
            leader: pos.leader as usize,
            points: pos.points.map(|p| p as i32),
            tricks: pos.tricks,
            skat_points: pos.skat.points() as i32,
            exact,
            table: Table::default(),
            nodes: 0,
        }
    }

    fn to_move(&self) -> usize {
        m3(self.leader + self.tlen)
    }

    /// The value of every legal card of the seat to move (which must be the root), exact.
    pub fn analyze(&mut self) -> Vec<(Card, i32)> {
        let s = self.to_move();
        assert_eq!(s, self.root, "the root analyses its own move");
        let lead = (self.tlen > 0).then(|| self.trick[0]);
        let legal = self.lay.legal(self.hands[s], lead);
        let live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask();
        let reps = collapse(self.lay, legal, self.hands[s], live);
        let mut values: Vec<(u8, i32)> = Vec::new();
        let mut m = reps;
        let mut guess = 0;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let undo = self.play(c);
            let g = self.gain(&undo);
            let v = self.mtdf(guess - g) + g;
            self.unplay(c, undo);
            values.push((c, v));
            guess = v;
        }
        // every legal card gets the value of its representative (the next higher one kept)
        let mut out = Vec::new();
        let mut m = legal;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let rep = values.iter().find(|(r, _)| *r >= c).copied();
            let (_, v) = rep.expect("a representative above every legal card");
            out.push((self.lay.card(c), v));
        }
        out
    }

    /// The exact value of the current position by MTD(f) from `guess`.
    pub fn mtdf(&mut self, guess: i32) -> i32 {
        let (mut lo, mut hi) = if self.exact {
            (RAMSCH_MIN, RAMSCH_MAX)
        } else {
            let live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask();
            (-(self.lay.points_of(live) + self.skat_points), 0)
        };
        let mut b = guess.clamp(lo + 1, hi);
        while lo < hi {
            let v = self.ab(b - 1, b);
            if v >= b {
                lo = v;
            } else {
                hi = v;
            }
            b = if v >= b { v + 1 } else { v };
            b = b.clamp(lo + 1, hi.max(lo + 1));
        }
        lo
    }

    fn trick_mask(&self) -> u32 {
        self.trick[..self.tlen].iter().fold(0, |m, &c| m | 1 << c)
    }

    fn key(&self) -> Key {
        if !self.exact {
            return Key {
                hands: self.hands,
                points: [0; 3],
                tag: self.leader as u8,
            };
        }
        let took = (0..3).fold(0u8, |m, s| m | u8::from(self.tricks[s] > 0) << s);
        Key {
            hands: self.hands,
            points: self.points.map(|p| p as u8),
            tag: self.leader as u8 | took << 2,
        }
    }

    /// What completing a trick worth `pts` for `w` adds to the stand-in's value.
    fn gain(&self, undo: &Option<(usize, [u8; 3], usize, i32)>) -> i32 {
        match undo {
            Some((_, _, w, pts)) if !self.exact && *w == self.root => -pts,
            _ => 0,
        }
    }

    /// Plays `c` for the seat to move; returns what [`Self::unplay`] needs (the trick's
    /// leader, cards and winner when it completed one).
    fn play(&mut self, c: u8) -> Option<(usize, [u8; 3], usize, i32)> {
        let s = self.to_move();
        self.hands[s] &= !(1 << c);
        self.trick[self.tlen] = c;
        self.tlen += 1;
        if self.tlen < 3 {
            return None;
        }
        let w = m3(self.leader + self.lay.winner(&self.trick));
        let pts = self.lay.points_of(self.trick_mask());
        let undo = (self.leader, self.trick, w, pts);
        self.points[w] += pts;
        self.tricks[w] += 1;
        self.leader = w;
        self.tlen = 0;
        Some(undo)
    }

    fn unplay(&mut self, c: u8, undo: Option<(usize, [u8; 3], usize, i32)>) {
        if let Some((leader, trick, w, pts)) = undo {
            self.points[w] -= pts;
            self.tricks[w] -= 1;
            self.leader = leader;
            self.trick = trick;
            self.tlen = 3;
        }
        self.tlen -= 1;
        let s = self.to_move();
        self.hands[s] |= 1 << c;
    }

    /// Fail-soft alpha-beta of the root's score.
    fn ab(&mut self, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let mut key = None;
        let mut tt_best = 0xFF;
        let (a0, b0) = (alpha, beta);
        if self.tlen == 0 {
            if self.hands[self.leader] == 0 {
                if !self.exact {
                    return if self.leader == self.root {
                        -self.skat_points
                    } else {
                        0
                    };
                }
                let mut pts = self.points;
                pts[self.leader] += self.skat_points;
                return ramsch_payoff(self.root, pts, self.tricks);
            }
            let k = self.key();
            if let Some(e) = self.table.get(&k) {
                if e.lo >= beta {
                    return e.lo;
                }
                if e.hi <= alpha {
                    return e.hi;
                }
                alpha = alpha.max(e.lo);
                beta = beta.min(e.hi);
                tt_best = e.best;
            }
            key = Some(k);
        }
        let s = self.to_move();
        let maximise = s == self.root;
        let lead = (self.tlen > 0).then(|| self.trick[0]);
        let legal = self.lay.legal(self.hands[s], lead);
        let live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask();
        let reps = collapse(self.lay, legal, self.hands[s], live);
        let mut order = [0u8; 10];
        let mut n = 0;
        if tt_best != 0xFF && reps >> tt_best & 1 != 0 {
            order[0] = tt_best;
            n = 1;
        }
        let mut m = reps;
        while m != 0 {
            // the root from its lowest card, the others from their highest
            let c = if maximise {
                m.trailing_zeros()
            } else {
                31 - m.leading_zeros()
            } as u8;
            m &= !(1 << c);
            if n == 0 || order[0] != c {
                order[n] = c;
                n += 1;
            }
        }
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        let mut best_mv = order[0];
        for &c in &order[..n] {
            let undo = self.play(c);
            let g = self.gain(&undo);
            let v = self.ab(alpha - g, beta - g) + g;
            self.unplay(c, undo);
            if maximise {
                if v > best {
                    best = v;
                    best_mv = c;
                }
                alpha = alpha.max(v);
            } else {
                if v < best {
                    best = v;
                    best_mv = c;
                }
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if let Some(k) = key {
            let e = self.table.entry(k).or_insert(Entry {
                lo: RAMSCH_MIN,
                hi: RAMSCH_MAX,
                best: best_mv,
            });
            if best <= a0 {
                e.hi = e.hi.min(best);
            } else if best >= b0 {
                e.lo = e.lo.max(best);
            } else {
                e.lo = best;
                e.hi = best;
            }
            e.best = best_mv;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::rng::Rng;
    use crate::rules::legal_cards;

    /// Plain minimax on external cards (no table, no collapsing, no pruning).
    fn minimax(pos: &mut RamschPosition, root: usize) -> i32 {
        let s = (pos.leader as usize + pos.trick.len()) % 3;
        if pos.trick.is_empty() && pos.hands[s].is_empty() {
            let mut pts = pos.points.map(|p| p as i32);
            pts[pos.leader as usize] += pos.skat.points() as i32;
            return ramsch_payoff(root, pts, pos.tricks);
        }
        let legal = legal_cards(GameType::Grand, pos.hands[s], pos.trick.first().copied());
        let mut vals = Vec::new();
        for c in legal.iter() {
            let mut p = pos.clone();
            p.hands[s] = p.hands[s].without(c);
            p.trick.push(c);
            if p.trick.len() == 3 {
                let cards = [p.trick[0], p.trick[1], p.trick[2]];
                let w =
                    (p.leader as usize + crate::rules::trick_winner(GameType::Grand, &cards)) % 3;
                p.points[w] += cards.iter().map(|c| c.points() as u32).sum::<u32>();
                p.tricks[w] += 1;
                p.leader = w as u8;
                p.trick.clear();
            }
            vals.push(minimax(&mut p, root));
        }
        if s == root {
            *vals.iter().max().unwrap()
        } else {
            *vals.iter().min().unwrap()
        }
    }

    /// A position with `k` cards per hand left: a random deal whose first tricks were
    /// played at random.
    fn endgame(seed: u64, k: usize) -> RamschPosition {
        let d = Deal::random(seed);
        let mut rng = Rng::new(seed);
        let mut pos = RamschPosition {
            hands: d.hands,
            trick: Vec::new(),
            leader: 0,
            points: [0; 3],
            tricks: [0; 3],
            skat: d.skat,
        };
        for _ in 0..(10 - k) {
            for _ in 0..3 {
                let s = (pos.leader as usize + pos.trick.len()) % 3;
                let legal: Vec<Card> =
                    legal_cards(GameType::Grand, pos.hands[s], pos.trick.first().copied())
                        .iter()
                        .collect();
                let c = legal[rng.below(legal.len() as u64) as usize];
                pos.hands[s] = pos.hands[s].without(c);
                pos.trick.push(c);
            }
            let cards = [pos.trick[0], pos.trick[1], pos.trick[2]];
            let w = (pos.leader as usize + crate::rules::trick_winner(GameType::Grand, &cards)) % 3;
            pos.points[w] += cards.iter().map(|c| c.points() as u32).sum::<u32>();
            pos.tricks[w] += 1;
            pos.leader = w as u8;
            pos.trick.clear();
        }
        pos
    }

    #[test]
    fn payoffs() {
        assert_eq!(ramsch_payoff(0, [40, 35, 45], [3, 4, 3]), 0);
        assert_eq!(ramsch_payoff(2, [40, 35, 45], [3, 4, 3]), -45);
        assert_eq!(ramsch_payoff(0, [70, 0, 50], [6, 0, 4]), -140);
        assert_eq!(ramsch_payoff(1, [0, 120, 0], [0, 10, 0]), 120);
        assert_eq!(ramsch_payoff(0, [0, 120, 0], [0, 10, 0]), 0);
        assert_eq!(ramsch_payoff(1, [50, 50, 20], [4, 4, 2]), -50);
    }

    #[test]
    fn search_matches_plain_minimax_on_endgames() {
        for seed in 0..40u64 {
            let k = 2 + (seed % 3) as usize;
            let pos = endgame(seed, k);
            for root in 0..3u8 {
                let expected = minimax(&mut pos.clone(), root as usize);
                let mut s = RamschSearch::new(&pos, root, true);
                assert_eq!(s.mtdf(0), expected, "seed {seed} k {k} root {root}");
            }
            // the analysis of the leader's cards agrees card by card
            let root = pos.leader;
            let mut s = RamschSearch::new(&pos, root, true);
            for (c, v) in s.analyze() {
                let mut p = pos.clone();
                p.hands[root as usize] = p.hands[root as usize].without(c);
                p.trick.push(c);
                assert_eq!(v, minimax(&mut p, root as usize), "seed {seed} card {c}");
            }
        }
    }
}
