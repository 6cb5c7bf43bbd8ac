//! Paranoid search (solver thesis, chapter 6): what the declarer can guarantee when the hidden
//! cards lie worst-case for her and the defenders play as if they saw every card.
//!
//! The worlds consistent with the declarer's view are kept implicitly: each defender has a set
//! of cards it *might* hold (the two sets may overlap) and a hand size; in a hand game the skat
//! is a third hidden holder that may hold any unknown card. A defender may play any card it
//! might hold; a card that does not follow the led suit removes that suit from its set; a
//! played card leaves every set. A state is consistent (some deal fits it) iff, with sets `A`,
//! `B` and hand sizes `n1`, `n2`, `n1 <= |A|`, `n2 <= |B|` and `n1 + n2 <= |A u B|` (thesis
//! Lemma 6.2.1; the hidden skat takes whatever is left, so the same three conditions suffice
//! with it: Hall's condition for the holders' capacities).
//!
//! The search is alpha-beta over these sets: the declarer maximises over her cards, a defender
//! minimises over the cards it might hold (the set of worlds shrinks to those where it holds
//! that card). Because the declarer's later choices may depend only on what she has seen,
//! this recursion is exactly "max over declarer strategies of the min over worlds and defender
//! play". Values: suit and grand, the declarer's final card points (skat included); null, 1
//! if she surely takes no trick, else 0. Static bounds: the points already won (lower) and
//! those plus every card point still out (upper) cut the search when the window allows.

use std::collections::HashMap;

use crate::cards::{Card, Cards, Rank, Suit};
use crate::game::{Phase, View};
use crate::rules::{trick_winner, GameType};
use crate::SkatError;

/// The declarer's information during card play, as implicit worlds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParanoidState {
    pub game_type: GameType,
    pub declarer: u8,
    /// The declarer's hand (exact) in her seat; each defender's *possible* cards in theirs.
    pub cards: [Cards; 3],
    /// Cards in each seat's hand.
    pub counts: [u32; 3],
    /// Every card not yet played whose place the declarer does not know.
    pub unknown: Cards,
    /// Hidden skat cards (2 in a hand game, else 0).
    pub hidden_skat: u32,
    pub leader: u8,
    pub trick: [Option<Card>; 3],
    /// The declarer's card points so far (her known skat or discard included).
    pub points: i32,
    /// Null: the declarer has taken a trick.
    pub lost: bool,
}

/// A plain suit's cards from the highest (suit and grand; the jack is a trump).
const PLAIN_ORDER: [Rank; 7] = [
    Rank::Ace,
    Rank::Ten,
    Rank::King,
    Rank::Queen,
    Rank::Nine,
    Rank::Eight,
    Rank::Seven,
];

fn other_defenders(declarer: u8) -> (usize, usize) {
    (((declarer + 1) % 3) as usize, ((declarer + 2) % 3) as usize)
}

impl ParanoidState {
    /// The state before the first card: the declarer's ten cards, her known skat (`None` in a
    /// hand game), forehand (seat 0) to lead.
    pub fn start(
        game_type: GameType,
        declarer: u8,
        hand: Cards,
        skat: Option<Cards>,
    ) -> Result<ParanoidState, SkatError> {
        if declarer > 2
            || hand.len() != 10
            || skat.is_some_and(|s| s.len() != 2 || !(s & hand).is_empty())
        {
            return Err(SkatError::InvalidCards(
                "paranoid: ten declarer cards, a skat of two other cards".into(),
            ));
        }
        let known = hand | skat.unwrap_or(Cards(0));
        let unknown = Cards(u32::MAX) - known;
        let mut cards = [unknown; 3];
        cards[declarer as usize] = hand;
        let points = match (game_type.is_null(), skat) {
            (false, Some(s)) => s.points() as i32,
            _ => 0,
        };
        Ok(ParanoidState {
            game_type,
            declarer,
            cards,
            counts: [10; 3],
            unknown,
            hidden_skat: if skat.is_some() { 0 } else { 2 },
            leader: 0,
            trick: [None; 3],
            points,
            lost: false,
        })
    }

    /// The state of the declarer's view during card play (her cards and discard, or the
    /// hidden skat of a hand game, and every card played so far, voids included).
    pub fn from_view(view: &View) -> Result<ParanoidState, SkatError> {
        let bad = |m: &str| SkatError::InvalidPosition(format!("paranoid: {m}"));
        if view.phase != Phase::Playing {
            return Err(bad("the view is not in card play"));
        }
        let (Some(declarer), Some(contract)) = (view.declarer, view.contract) else {
            return Err(bad("no declarer"));
        };
        if view.seat != declarer {
            return Err(bad("the view is not the declarer's"));
        }
        let mut hand = view.hand;
        for &(seat, card) in &view.played {
            if seat == declarer {
                hand = hand.with(card);
            }
        }
        let skat = if contract.hand { None } else { view.discard };
        if !contract.hand && skat.is_none() {
            return Err(bad("the declarer's discard is missing"));
        }
        let mut s = ParanoidState::start(contract.game_type, declarer, hand, skat)?;
        for &(_, card) in &view.played {
            s = s.play(card)?;
        }
        Ok(s)
    }

    fn trick_len(&self) -> usize {
        self.trick.iter().take_while(|c| c.is_some()).count()
    }

    /// The seat to play.
    pub fn to_move(&self) -> u8 {
        (self.leader + self.trick_len() as u8) % 3
    }

    /// All cards played.
    pub fn is_over(&self) -> bool {
        self.counts == [0; 3] || (self.game_type.is_null() && self.lost)
    }

    fn consistent(&self) -> bool {
        let (a, b) = other_defenders(self.declarer);
        let (sa, sb) = (self.cards[a], self.cards[b]);
        self.counts[a] <= sa.len()
            && self.counts[b] <= sb.len()
            && self.counts[a] + self.counts[b] <= (sa | sb).len()
    }

    /// The cards the player to move may play in some consistent world.
    pub fn moves(&self) -> Cards {
        let s = self.to_move() as usize;
        if s == self.declarer as usize {
            return crate::rules::legal_cards(self.game_type, self.cards[s], self.trick[0]);
        }
        let mut out = Cards(0);
        for c in self.cards[s].iter() {
            if self.play(c).is_ok() {
                out = out.with(c);
            }
        }
        out
    }

    /// The state after the player to move plays `card`, if some consistent world allows it.
    pub fn play(&self, card: Card) -> Result<ParanoidState, SkatError> {
        let s = self.to_move() as usize;
        let mut n = *self;
        let illegal =
            || SkatError::InvalidCards(format!("paranoid: {card:?} cannot be played here"));
        if !self.cards[s].contains(card) || self.counts[s] == 0 || self.is_over() {
            return Err(illegal());
        }
        if s == self.declarer as usize {
            let legal = crate::rules::legal_cards(self.game_type, self.cards[s], self.trick[0]);
            if !legal.contains(card) {
                return Err(illegal());
            }
        } else if let Some(lead) = self.trick[0] {
            let follow = self.game_type.follow_group(lead);
            if !follow.contains(card) {
                n.cards[s] = n.cards[s] - follow;
            }
        }
        for h in n.cards.iter_mut() {
            *h = h.without(card);
        }
        n.unknown = n.unknown.without(card);
        n.counts[s] -= 1;
        if s != self.declarer as usize && !n.consistent() {
            return Err(illegal());
        }
        let k = self.trick_len();
        n.trick[k] = Some(card);
        if k == 2 {
            let cards = [n.trick[0].unwrap(), n.trick[1].unwrap(), card];
            let winner = (self.leader as usize + trick_winner(self.game_type, &cards)) % 3;
            if winner == self.declarer as usize {
                n.points += cards.iter().map(|c| c.points() as i32).sum::<i32>();
                n.lost = true;
            }
            n.leader = winner as u8;
            n.trick = [None; 3];
            if n.counts == [0; 3] && !self.game_type.is_null() {
                // the hidden skat is what is left
                n.points += n.unknown.points() as i32;
            }
        }
        Ok(n)
    }

    fn terminal_value(&self) -> i32 {
        if self.game_type.is_null() {
            i32::from(!self.lost)
        } else {
            self.points
        }
    }

    /// The static bounds (lower, upper) on the value.
    fn bounds(&self) -> (i32, i32) {
        if self.game_type.is_null() {
            return if self.lost { (0, 0) } else { (0, 1) };
        }
        let out: i32 = (self.unknown | self.cards[self.declarer as usize]).points() as i32
            + self
                .trick
                .iter()
                .flatten()
                .map(|c| c.points() as i32)
                .sum::<i32>();
        if self.trick[0].is_none() && self.leader == self.declarer {
            let (sure, all) = self.sure_winners();
            if all {
                // she takes every trick: every card point still out is hers
                return (self.points + out, self.points + out);
            }
            return (self.points + sure, self.points + out);
        }
        (self.points, self.points + out)
    }

    /// Suit and grand, the declarer on lead at a trick start: the card points of her cards
    /// that surely win a trick each when she leads them in turn. First her trumps from the
    /// top of the trumps still out, in sequence: nothing beats them. If they are at least as
    /// many as the unknown trumps (all of which one defender may hold), no defender has a
    /// trump left after them, and the top cards of each plain suit, in sequence, win too.
    /// Also whether those are all her cards (she takes every trick).
    fn sure_winners(&self) -> (i32, bool) {
        let gt = self.game_type;
        let mine = self.cards[self.declarer as usize];
        let trumps = gt.trumps();
        let (mut points, mut top) = (0, 0);
        let jacks = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds]
            .map(|s| Card::new(s, Rank::Jack));
        let trump_suit = gt.trump_suit().into_iter();
        let suit_trumps = trump_suit.flat_map(|t| PLAIN_ORDER.map(|r| Card::new(t, r)));
        for c in jacks.into_iter().chain(suit_trumps) {
            if mine.contains(c) {
                points += c.points() as i32;
                top += 1;
            } else if self.unknown.contains(c) {
                break;
            }
        }
        if top < (self.unknown & trumps).len() {
            return (points, false);
        }
        let mut winners = top;
        for s in (0..4).map(Suit::from_index) {
            if gt.trump_suit() == Some(s) {
                continue;
            }
            for &r in &PLAIN_ORDER {
                let c = Card::new(s, r);
                if mine.contains(c) {
                    points += c.points() as i32;
                    winners += 1;
                } else if self.unknown.contains(c) {
                    break;
                }
            }
        }
        (points, winners == mine.len())
    }
}

/// A trick start's key: the sets, the leader, the null flag; values are stored relative to
/// the points already won (what is still to come does not depend on them).
type Key = ([u32; 4], u8, bool);

/// Paranoid alpha-beta (fail-soft) with a table of bounds at trick starts and the count of
/// visited nodes; null trick starts go to the safe-cards rule first
/// ([`crate::paranoid_null`]). A search that visits more than `budget` nodes stops, and its
/// value means nothing (`out_of_budget`).
pub struct Paranoid {
    pub nodes: u64,
    pub budget: u64,
    pub out_of_budget: bool,
    /// Use the null safe-cards rule (off: the plain search, for the tests).
    pub null_rule: bool,
    table: HashMap<Key, (i32, i32)>,
}

impl Default for Paranoid {
    fn default() -> Paranoid {
        Paranoid {
            nodes: 0,
            budget: u64::MAX,
            out_of_budget: false,
            null_rule: true,
            table: HashMap::new(),
        }
    }
}

impl Paranoid {
    /// The value of `s` within the window `alpha..beta` (fail-soft).
    pub fn search(&mut self, s: &ParanoidState, alpha: i32, beta: i32) -> i32 {
        if s.trick[0].is_some() || s.is_over() {
            return self.inner(s, alpha, beta);
        }
        if s.game_type.is_null() && self.null_rule {
            if let Some(v) = crate::paranoid_null::null_rule(s) {
                self.nodes += 1;
                return v;
            }
        }
        let key: Key = (
            [s.cards[0].0, s.cards[1].0, s.cards[2].0, s.unknown.0],
            s.leader,
            s.lost,
        );
        let base = if s.game_type.is_null() { 0 } else { s.points };
        let (mut lo, mut hi) = self
            .table
            .get(&key)
            .copied()
            .unwrap_or((i32::MIN, i32::MAX));
        if lo != i32::MIN {
            lo += base;
        }
        if hi != i32::MAX {
            hi += base;
        }
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let v = self.inner(s, alpha.max(lo), beta.min(hi));
        let e = self.table.entry(key).or_insert((i32::MIN, i32::MAX));
        if v > alpha.max(lo) {
            e.0 = e.0.max(v - base);
        }
        if v < beta.min(hi) {
            e.1 = e.1.min(v - base);
        }
        v
    }

    fn inner(&mut self, s: &ParanoidState, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.out_of_budget = true;
        }
        if self.out_of_budget {
            return alpha;
        }
        if s.is_over() {
            return s.terminal_value();
        }
        let (lo, hi) = s.bounds();
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let maximise = s.to_move() == s.declarer;
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        let mut moves = [Card::from_index(0); 32];
        let mut n = 0;
        for c in s.moves().iter() {
            moves[n] = c;
            n += 1;
        }
        if maximise && !s.game_type.is_null() {
            // the declarer's strongest cards first: they usually prove a guarantee fastest
            let led = s.trick[0].map_or(Cards(0), |c| s.game_type.follow_group(c));
            moves[..n].sort_by_key(|&c| std::cmp::Reverse(s.game_type.power(c, led)));
        }
        for &c in &moves[..n] {
            let next = s.play(c).expect("moves are playable");
            let v = self.search(&next, alpha, beta);
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The paranoid value of `s`: the declarer's guaranteed final card points (suit, grand), or 1
/// if she surely takes no trick (null), else 0.
pub fn paranoid_value(s: &ParanoidState) -> (i32, u64) {
    let mut p = Paranoid::default();
    let v = p.search(s, i32::MIN + 1, i32::MAX - 1);
    (v, p.nodes)
}

/// Whether the declarer can guarantee at least `target` (a null-window search).
pub fn paranoid_reaches(s: &ParanoidState, target: i32) -> bool {
    paranoid_reaches_within(s, target, u64::MAX).expect("no budget")
}

/// [`paranoid_reaches`] within `budget` nodes: `None` if the search needs more.
pub fn paranoid_reaches_within(s: &ParanoidState, target: i32, budget: u64) -> Option<bool> {
    let mut p = Paranoid {
        budget,
        ..Paranoid::default()
    };
    let v = p.search(s, target - 1, target) >= target;
    (!p.out_of_budget).then_some(v)
}

/// What the declarer's paranoid value must reach for her to win in `view` (hers, during card
/// play): 1 (no trick) in null, else the card points she needs
/// ([`crate::pimc::win_threshold`] over the cards she knows to be hers: her hand, her played
/// cards and her discard; in a hand game the unseen skat counts as holding no matador).
pub fn declarer_target(view: &View) -> Result<i32, SkatError> {
    let (Some(declarer), Some(contract)) = (view.declarer, view.contract) else {
        return Err(SkatError::InvalidPosition("paranoid: no declarer".into()));
    };
    if contract.game_type.is_null() {
        return Ok(1);
    }
    let mut twelve = view.hand | view.discard.unwrap_or(Cards(0));
    for &(seat, card) in &view.played {
        if seat == declarer {
            twelve = twelve.with(card);
        }
    }
    Ok(crate::pimc::win_threshold(contract, view.bid, twelve))
}

/// The paranoid move filter (thesis section 6.4): when the declarer is to move and can
/// guarantee `target` (card points; null: 1, no trick), the cards she may play that keep that
/// guarantee: never empty, because a guaranteed target is reached through at least one card.
/// `None` when she cannot guarantee it (or is not to move): every card is then allowed.
pub fn paranoid_keeping(s: &ParanoidState, target: i32) -> Option<Cards> {
    if s.is_over() || s.to_move() != s.declarer || !paranoid_reaches(s, target) {
        return None;
    }
    let mut keep = Cards(0);
    for card in s.moves().iter() {
        if s.play(card)
            .is_ok_and(|next| paranoid_reaches(&next, target))
        {
            keep = keep.with(card);
        }
    }
    debug_assert!(
        !keep.is_empty(),
        "a guaranteed target keeps at least one card"
    );
    Some(keep)
}

/// Whether a hand game of `game_type` with these ten cards, the declarer in seat `seat`
/// (forehand 0 leads), surely reaches `target`: card points for suit and grand (61 a win, 90
/// schneider), survival for null (target 1; paranoid defenders see every card, so this is
/// also the null ouvert test).
pub fn hand_game_reaches(
    game_type: GameType,
    seat: u8,
    hand: Cards,
    target: i32,
) -> Result<bool, SkatError> {
    Ok(hand_game_reaches_within(game_type, seat, hand, target, u64::MAX)?.expect("no budget"))
}

/// Whether a suit or grand hand game with these ten cards is a sure schwarz from seat 0
/// (forehand leads): every card of hers wins its trick when she leads them in turn, her
/// top trumps first (a static test: no search). Such a game also wins ouvert, since the
/// defenders are assumed to see every card anyway.
pub fn hand_game_all_tricks(game_type: GameType, hand: Cards) -> Result<bool, SkatError> {
    if game_type.is_null() {
        return Ok(false);
    }
    let s = ParanoidState::start(game_type, 0, hand, None)?;
    Ok(s.sure_winners().1)
}

/// [`hand_game_reaches`] within `budget` search nodes: `None` if the search needs more.
pub fn hand_game_reaches_within(
    game_type: GameType,
    seat: u8,
    hand: Cards,
    target: i32,
    budget: u64,
) -> Result<Option<bool>, SkatError> {
    let s = ParanoidState::start(game_type, seat, hand, None)?;
    Ok(paranoid_reaches_within(&s, target, budget))
}

#[cfg(test)]
#[path = "paranoid_tests.rs"]
mod tests;
