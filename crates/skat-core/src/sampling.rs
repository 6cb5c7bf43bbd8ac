//! Worlds consistent with what one seat knows, sampled exactly uniformly.
//!
//! The hidden cards are dealt to *holders* (the other seats and, where it is unseen, the
//! skat), each needing a fixed number of cards and allowed only some cards (a seat that failed
//! to follow a suit holds none of it). Cards fall into at most eight *types* by the set of
//! holders allowed to take them. A world is then determined by how many cards of each type each
//! holder takes (a small count matrix) and which ones: the number of worlds with a given matrix
//! is a product of multinomial coefficients. [`Deck::new`] enumerates every feasible matrix
//! with that weight once; [`Deck::sample`] picks a matrix in proportion to its weight and then
//! splits each type's cards at random. Every consistent world is equally likely, and nothing
//! loops on rejection, however tight the constraints.

use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::game::{Phase, View};
use crate::rng::Rng;
use crate::rules::{Contract, GameType};

/// Who may receive hidden cards, and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Cards this holder must receive.
    pub need: u32,
    /// Cards this holder may receive.
    pub allowed: Cards,
}

/// A sampling problem: distribute `unknown` among the holders.
#[derive(Clone, Debug)]
pub struct Deck {
    unknown: Cards,
    holders: Vec<Holder>,
    /// Cards of each type (type = bit set of allowed holders).
    types: Vec<(u8, Cards)>,
    /// Feasible count matrices (`counts[type][holder]`) with their number of worlds.
    plans: Vec<(f64, Vec<[u32; 3]>)>,
    total: f64,
}

fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r.round()
}

impl Deck {
    /// Builds the problem; fails when no world satisfies the constraints.
    pub fn new(unknown: Cards, holders: Vec<Holder>) -> Result<Deck, SkatError> {
        if holders.len() > 3 {
            return Err(SkatError::InvalidPosition("at most three holders".into()));
        }
        let need: u32 = holders.iter().map(|h| h.need).sum();
        if need != unknown.len() {
            return Err(SkatError::InvalidPosition(format!(
                "{} hidden cards but the holders need {need}",
                unknown.len()
            )));
        }
        let mut by_type = [Cards::EMPTY; 8];
        for c in unknown.iter() {
            let mut t = 0u8;
            for (i, h) in holders.iter().enumerate() {
                if h.allowed.contains(c) {
                    t |= 1 << i;
                }
            }
            if t == 0 {
                return Err(SkatError::InvalidPosition(format!(
                    "no holder may take {c}"
                )));
            }
            by_type[t as usize] = by_type[t as usize].with(c);
        }
        let types: Vec<(u8, Cards)> = (1..8u8)
            .filter(|&t| !by_type[t as usize].is_empty())
            .map(|t| (t, by_type[t as usize]))
            .collect();
        let mut deck = Deck {
            unknown,
            holders,
            types,
            plans: Vec::new(),
            total: 0.0,
        };
        let mut left: [u32; 3] = [0; 3];
        for (i, h) in deck.holders.iter().enumerate() {
            left[i] = h.need;
        }
        let mut current = Vec::with_capacity(deck.types.len());
        deck.enumerate(0, left, 1.0, &mut current);
        deck.total = deck.plans.iter().map(|p| p.0).sum();
        if deck.total == 0.0 {
            return Err(SkatError::InvalidPosition(
                "no world is consistent with what is known".into(),
            ));
        }
        Ok(deck)
    }

    fn enumerate(&mut self, ti: usize, left: [u32; 3], weight: f64, current: &mut Vec<[u32; 3]>) {
        if ti == self.types.len() {
            if left == [0, 0, 0] {
                self.plans.push((weight, current.clone()));
            }
            return;
        }
        let (t, cards) = self.types[ti];
        let n = cards.len();
        // split n cards of this type among the allowed holders
        let allowed: Vec<usize> = (0..self.holders.len())
            .filter(|&i| t & (1 << i) != 0)
            .collect();
        let mut split = [0u32; 3];
        self.split(ti, &allowed, 0, n, left, weight, &mut split, current);
    }

    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        ti: usize,
        allowed: &[usize],
        ai: usize,
        remaining: u32,
        left: [u32; 3],
        weight: f64,
        split: &mut [u32; 3],
        current: &mut Vec<[u32; 3]>,
    ) {
        let h = allowed[ai];
        if ai + 1 == allowed.len() {
            if remaining > left[h] {
                return;
            }
            split[h] = remaining;
            let mut l = left;
            l[h] -= remaining;
            current.push(*split);
            self.enumerate(ti + 1, l, weight, current);
            current.pop();
            split[h] = 0;
            return;
        }
        for k in 0..=remaining.min(left[h]) {
            split[h] = k;
            let mut l = left;
            l[h] -= k;
            let w = weight * binomial(remaining, k);
            self.split(ti, allowed, ai + 1, remaining - k, l, w, split, current);
        }
        split[h] = 0;
    }

    /// The number of consistent worlds.
    pub fn count(&self) -> f64 {
        self.total
    }

    pub fn holders(&self) -> &[Holder] {
        &self.holders
    }

    pub fn unknown(&self) -> Cards {
        self.unknown
    }

    /// One uniformly random world: the cards of each holder, in holder order.
    pub fn sample(&self, rng: &mut Rng) -> Vec<Cards> {
        let mut x = rng.unit() * self.total;
        let mut plan = &self.plans[self.plans.len() - 1].1;
        for (w, p) in &self.plans {
            if x < *w {
                plan = p;
                break;
            }
            x -= w;
        }
        let mut out = vec![Cards::EMPTY; self.holders.len()];
        for ((_, cards), counts) in self.types.iter().zip(plan) {
            let mut v: Vec<Card> = cards.iter().collect();
            rng.shuffle(&mut v);
            let mut it = v.into_iter();
            for (h, &k) in counts.iter().enumerate().take(self.holders.len()) {
                for _ in 0..k {
                    out[h] = out[h].with(it.next().expect("counts add up"));
                }
            }
        }
        out
    }
}

/// A full assignment of the cards: three hands and the skat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct World {
    pub hands: [Cards; 3],
    pub skat: Cards,
}

impl World {
    /// This world with a deck's parts dealt to their holders (`Some(seat)`, or `None` for the
    /// skat), in the order of [`Deck::sample`].
    pub fn with_parts(mut self, holders: &[Option<u8>], parts: Vec<Cards>) -> World {
        for (holder, cards) in holders.iter().zip(parts) {
            match holder {
                Some(s) => self.hands[*s as usize] = cards,
                None => self.skat = cards,
            }
        }
        self
    }
}

/// What the card play so far shows everyone: the cards each seat has played, all played
/// cards, and each seat's voids (the follow groups of the game type it failed to follow).
pub struct Observed {
    pub played_by: [u32; 3],
    pub played: Cards,
    pub void: [Cards; 3],
}

impl Observed {
    pub fn from_view(gt: GameType, view: &View) -> Observed {
        let mut o = Observed {
            played_by: [0; 3],
            played: Cards::EMPTY,
            void: [Cards::EMPTY; 3],
        };
        let mut note = |leader: u8, cards: &[Card]| {
            let led = gt.follow_group(cards[0]);
            for (i, &c) in cards.iter().enumerate() {
                let s = ((leader as usize) + i) % 3;
                o.played_by[s] += 1;
                o.played = o.played.with(c);
                if i > 0 && !led.contains(c) {
                    o.void[s] = o.void[s] | led;
                }
            }
        };
        for t in &view.tricks {
            note(t.leader, &t.cards);
        }
        if !view.trick.is_empty() {
            note(view.leader, &view.trick);
        }
        o
    }

    /// The world with only `view.seat`'s own hand placed, and the cards whose place the seat
    /// knows: that hand and every played card.
    pub fn own_world(&self, view: &View) -> (World, Cards) {
        let mut fixed = World {
            hands: [Cards::EMPTY; 3],
            skat: Cards::EMPTY,
        };
        fixed.hands[view.seat as usize] = view.hand;
        (fixed, view.hand | self.played)
    }

    /// The deck of the cards hidden from `seat` (all but `known`) and who holds them, in deck
    /// order: every other seat whose hand `fixed` leaves empty (as many cards as it has not
    /// played, none of a follow group it showed void in), then, unless `skat_barred` is
    /// `None`, the skat (two cards, none of `skat_barred`).
    pub fn hidden_deck(
        &self,
        seat: u8,
        fixed: &World,
        known: Cards,
        skat_barred: Option<Cards>,
    ) -> Result<(Vec<Option<u8>>, Deck), SkatError> {
        let unknown = Cards::ALL - known;
        let mut holders = Vec::new();
        let mut spec = Vec::new();
        for s in 0..3u8 {
            if s == seat || !fixed.hands[s as usize].is_empty() {
                continue;
            }
            holders.push(Some(s));
            spec.push(Holder {
                need: 10 - self.played_by[s as usize],
                allowed: unknown - self.void[s as usize],
            });
        }
        if let Some(barred) = skat_barred {
            holders.push(None);
            spec.push(Holder {
                need: 2,
                allowed: unknown - barred,
            });
        }
        Ok((holders, Deck::new(unknown, spec)?))
    }
}

/// What a seat knows during card play, as a sampling problem plus the fixed cards.
#[derive(Clone, Debug)]
pub struct Knowledge {
    pub seat: u8,
    /// The contract being played and its declarer.
    pub contract: Contract,
    pub declarer: u8,
    /// Cards whose holder is known: (hands, skat) with the hidden parts left empty.
    pub fixed: World,
    /// Which holders of the deck are which: `Some(seat)` or `None` for the skat.
    pub holders: Vec<Option<u8>>,
    pub deck: Deck,
}

impl Knowledge {
    /// Builds the knowledge of `view.seat` in card play: its own cards, every played card,
    /// the voids shown by not following, an ouvert declarer's hand, and the skat (known only
    /// to a declarer who picked it up: her own discard).
    pub fn from_view(view: &View) -> Result<Knowledge, SkatError> {
        let (Some(contract), Some(declarer)) = (view.contract, view.declarer) else {
            return Err(SkatError::InvalidPosition(
                "worlds are sampled during card play".into(),
            ));
        };
        if view.phase != Phase::Playing {
            return Err(SkatError::InvalidPosition(
                "worlds are sampled during card play".into(),
            ));
        }
        let seat = view.seat;
        let seen = Observed::from_view(contract.game_type, view);
        let (mut fixed, mut known) = seen.own_world(view);
        if let Some(open) = view.open_hand {
            if seat != declarer {
                fixed.hands[declarer as usize] = open;
                known = known | open;
            }
        }
        let skat_known = seat == declarer && view.picked_up;
        if skat_known {
            let d = view
                .discard
                .ok_or_else(|| SkatError::InvalidPosition("declarer without discard".into()))?;
            fixed.skat = d;
            known = known | d;
        }
        let skat_barred = (!skat_known).then_some(Cards::EMPTY);
        let (holders, deck) = seen.hidden_deck(seat, &fixed, known, skat_barred)?;
        Ok(Knowledge {
            seat,
            contract,
            declarer,
            fixed,
            holders,
            deck,
        })
    }

    /// One uniformly random world consistent with the knowledge.
    pub fn sample(&self, rng: &mut Rng) -> World {
        self.fixed.with_parts(&self.holders, self.deck.sample(rng))
    }

    /// Whether `w` is one of the worlds this knowledge allows: the known cards where they
    /// are, every hidden card with a holder that may have it, every holder with its count.
    pub fn consistent(&self, w: &World) -> bool {
        for s in 0..3 {
            let f = self.fixed.hands[s];
            if !f.is_empty() && w.hands[s] != f {
                return false;
            }
        }
        if !self.fixed.skat.is_empty() && w.skat != self.fixed.skat {
            return false;
        }
        let mut seen = Cards::EMPTY;
        for (holder, h) in self.holders.iter().zip(self.deck.holders()) {
            let c = match holder {
                Some(s) => w.hands[*s as usize],
                None => w.skat,
            };
            if c.len() != h.need || !c.is_subset(h.allowed) || !c.is_disjoint(seen) {
                return false;
            }
            seen = seen | c;
        }
        seen == self.deck.unknown()
    }

    /// `n` worlds from `seed`.
    pub fn sample_many(&self, n: usize, seed: u64) -> Vec<World> {
        let mut rng = Rng::new(seed);
        (0..n).map(|_| self.sample(&mut rng)).collect()
    }
}

/// The most worlds one decision searches or one call draws. Far beyond any useful search (the
/// players use hundreds), it keeps a mistaken count from asking for more memory than a machine
/// has: every world is held (and, in a decision, solved) at once.
pub const MAX_WORLDS: usize = 1_000_000;

/// The most uniform candidate worlds inference draws and weighs for one decision (each is
/// held with its weight).
pub const MAX_CANDIDATES: usize = 10_000_000;

/// `n` as a count of worlds (or of what `what` names) to draw: at most `max`.
pub fn check_count(what: &str, n: usize, max: usize) -> Result<usize, SkatError> {
    if n > max {
        return Err(SkatError::TooMany(format!(
            "{what} must be at most {max}, got {n}"
        )));
    }
    Ok(n)
}

/// `n` worlds (at most [`MAX_WORLDS`]) drawn exactly uniformly from `seed` among those
/// consistent with what the view's seat knows during card play.
pub fn sample_worlds(view: &View, n: usize, seed: u64) -> Result<Vec<World>, SkatError> {
    check_count("worlds", n, MAX_WORLDS)?;
    Ok(Knowledge::from_view(view)?.sample_many(n, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::pimc::tests::play_randomly;
    use std::collections::HashMap;

    fn cs(s: &str) -> Cards {
        Cards::parse(s).unwrap()
    }

    #[test]
    fn a_world_count_beyond_the_limit_is_refused() {
        let mut g = Game::new(Deal::random(7));
        for t in ["18", "p", "p", "s", "CK.CQ", "G"] {
            g.apply_token(t).unwrap();
        }
        let view = g.view(0);
        assert_eq!(sample_worlds(&view, 3, 1).unwrap().len(), 3);
        assert!(sample_worlds(&view, 0, 1).unwrap().is_empty());
        // 2^40 worlds had the process abort on a failed allocation, 2^62 panic
        for n in [MAX_WORLDS + 1, 1 << 40, usize::MAX] {
            let e = sample_worlds(&view, n, 1).unwrap_err();
            assert!(e.to_string().contains("at most"), "{e}");
        }
    }

    #[test]
    fn counts_match_brute_force() {
        // 5 cards, holder A needs 2 (no hearts), B needs 2, skat 1
        let unknown = cs("HA HT C7 C8 S9");
        let holders = vec![
            Holder {
                need: 2,
                allowed: unknown - cs("HA HT"),
            },
            Holder {
                need: 2,
                allowed: unknown,
            },
            Holder {
                need: 1,
                allowed: unknown,
            },
        ];
        let deck = Deck::new(unknown, holders.clone()).unwrap();
        // brute force: choose A's 2 from {C7 C8 S9}: 3 ways; B's 2 from the remaining 3: 3 ways
        assert_eq!(deck.count(), 9.0);
        let mut seen: HashMap<Vec<Cards>, u32> = HashMap::new();
        let mut rng = Rng::new(3);
        for _ in 0..9000 {
            let w = deck.sample(&mut rng);
            for (h, c) in holders.iter().zip(&w) {
                assert_eq!(c.len(), h.need);
                assert!(c.is_subset(h.allowed));
            }
            *seen.entry(w).or_default() += 1;
        }
        assert_eq!(seen.len(), 9);
        for &n in seen.values() {
            assert!((800..1200).contains(&n), "{seen:?}");
        }
    }

    #[test]
    fn impossible_constraints_are_errors() {
        let unknown = cs("HA HT");
        let r = Deck::new(
            unknown,
            vec![Holder {
                need: 2,
                allowed: cs("HA"),
            }],
        );
        assert!(r.is_err());
        assert!(Deck::new(
            unknown,
            vec![Holder {
                need: 1,
                allowed: unknown
            }]
        )
        .is_err());
    }

    #[test]
    fn worlds_from_views_respect_what_is_known() {
        let mut rng = Rng::new(9);
        for seed in 0..200u64 {
            let deal = Deal::random(seed);
            let mut g = Game::new(deal);
            for t in ["18", "p", "p"] {
                g.apply_token(t).unwrap();
            }
            let hand_game = seed % 3 == 0;
            if hand_game {
                g.apply_token(if seed % 2 == 0 { "GH" } else { "NOH" })
                    .unwrap();
            } else {
                g.apply(Action::PickUp).unwrap();
                let d = g.legal_actions()[(seed % 66) as usize];
                g.apply(d).unwrap();
                g.apply_token(["C", "S", "G", "NO"][(seed % 4) as usize])
                    .unwrap();
            }
            let steps = rng.below(28);
            play_randomly(&mut g, &mut rng, steps);
            if g.is_over() {
                continue;
            }
            for seat in 0..3u8 {
                let k = Knowledge::from_view(&g.view(seat)).unwrap();
                let truth = World {
                    hands: g.hands(),
                    skat: g.skat(),
                };
                for w in k.sample_many(20, seed) {
                    assert_eq!(w.hands[seat as usize], g.hand(seat));
                    for s in 0..3 {
                        assert_eq!(w.hands[s].len(), truth.hands[s].len());
                    }
                    assert_eq!(w.skat.len(), 2);
                    let all = w.hands[0] | w.hands[1] | w.hands[2] | w.skat;
                    let played: Cards = g.played().iter().map(|p| p.1).collect();
                    assert_eq!(all | played, Cards::ALL);
                    assert!(all.is_disjoint(played));
                    // voids: a world never gives a seat a card of a group it failed to follow
                    let gt = g.contract().unwrap().game_type;
                    for t in g.tricks() {
                        let led = gt.follow_group(t.cards[0]);
                        for i in 1..3 {
                            let s = ((t.leader as usize) + i) % 3;
                            if !led.contains(t.cards[i]) {
                                assert!(w.hands[s].is_disjoint(led));
                            }
                        }
                    }
                    if seat == g.declarer().unwrap() && g.picked_up() {
                        assert_eq!(w.skat, g.skat());
                    }
                }
                // the true world is among the consistent ones
                assert!(k.deck.count() >= 1.0);
            }
        }
    }
}
