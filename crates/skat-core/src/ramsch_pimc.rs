//! Perfect Information Monte Carlo for a Ramsch: sample worlds consistent with what the seat
//! to move knows, value each legal card in each world with the open-handed Ramsch search
//! ([`crate::solver::ramsch`], paranoid for that seat: the exact Ramsch score from
//! [`RAMSCH_EXACT_CARDS`] cards per hand on, before that its own card points), average, play
//! the best. A search from the first trick visits millions of nodes per world; callers use
//! it from the second trick on.
//!
//! What a seat knows in a Ramsch: its own cards, every played card, the voids shown (grand
//! following rules), and in Schieberamsch the two cards it pushed on if nobody looked at the
//! skat after it (then they are the skat; otherwise they count as unknown). A pushed skat
//! never holds a jack. Worlds are uniform over what is consistent with that ([`Deck`]).

use crate::action::Action;
use crate::cards::{Card, Cards, Rank};
use crate::error::SkatError;
use crate::game::{seat_totals, Actor, Phase, View};
use crate::rng::Rng;
use crate::rules::GameType;
use crate::sampling::{check_count, Deck, Observed, World, MAX_WORLDS};
use crate::solver::ramsch::{RamschPosition, RamschSearch, RAMSCH_EXACT_CARDS};

/// Every legal card of the seat to move with its mean score over the worlds.
#[derive(Clone, Debug)]
pub struct RamschDecision {
    pub values: Vec<(Card, f64)>,
    pub best: Card,
    pub worlds: usize,
    pub nodes: u64,
}

/// The worlds a seat may be in during a Ramsch's card play, as a sampling problem.
pub struct RamschKnowledge {
    fixed: World,
    holders: Vec<Option<u8>>,
    deck: Deck,
}

impl RamschKnowledge {
    pub fn from_view(view: &View) -> Result<RamschKnowledge, SkatError> {
        if !view.ramsch || view.phase != Phase::Playing {
            return Err(SkatError::InvalidPosition(
                "Ramsch worlds are sampled during a Ramsch's card play".into(),
            ));
        }
        let seat = view.seat;
        let seen = Observed::from_view(GameType::Grand, view);
        let (mut fixed, mut known) = seen.own_world(view);
        // who looked at the skat last (the skat is then what that seat pushed on)
        let last_looker = view
            .history
            .iter()
            .rev()
            .filter(|m| m.action == Action::PickUp)
            .find_map(|m| match m.actor {
                Actor::Seat(s) => Some(s),
                Actor::World => None,
            });
        let pushed_any = last_looker.is_some();
        if last_looker == Some(seat) {
            if let Some(d) = view.discard {
                fixed.skat = d;
                known = known | d;
            }
        }
        // a pushed skat holds no jack
        let skat_barred = fixed.skat.is_empty().then(|| {
            if pushed_any {
                Cards::ALL
                    .iter()
                    .filter(|c| c.rank() == Rank::Jack)
                    .collect()
            } else {
                Cards::EMPTY
            }
        });
        let (holders, deck) = seen.hidden_deck(seat, &fixed, known, skat_barred)?;
        Ok(RamschKnowledge {
            fixed,
            holders,
            deck,
        })
    }

    pub fn sample(&self, rng: &mut Rng) -> World {
        self.fixed.with_parts(&self.holders, self.deck.sample(rng))
    }
}

/// The PIMC decision of the seat to move in a Ramsch over `worlds` worlds drawn from `seed`.
pub fn decide(view: &View, worlds: usize, seed: u64) -> Result<RamschDecision, SkatError> {
    if view.to_move != Some(view.seat) {
        return Err(SkatError::InvalidPosition("not this seat's turn".into()));
    }
    check_count("worlds", worlds, MAX_WORLDS)?;
    let know = RamschKnowledge::from_view(view)?;
    let mut rng = Rng::new(seed);
    let (points, tricks) = seat_totals(&view.tricks);
    let k_start = 10 - view.tricks.len() as u32;
    let exact = k_start <= RAMSCH_EXACT_CARDS;
    let mut sums: Vec<(Card, f64)> = Vec::new();
    let mut nodes = 0;
    let n = worlds.max(1);
    for _ in 0..n {
        let w = know.sample(&mut rng);
        let pos = RamschPosition {
            hands: w.hands,
            trick: view.trick.clone(),
            leader: view.leader,
            points,
            tricks,
            skat: w.skat,
        };
        let mut search = RamschSearch::new(&pos, view.seat, exact);
        for (c, v) in search.analyze() {
            match sums.iter_mut().find(|(x, _)| *x == c) {
                Some(e) => e.1 += v as f64,
                None => sums.push((c, v as f64)),
            }
        }
        nodes += search.nodes;
    }
    let values: Vec<(Card, f64)> = sums.into_iter().map(|(c, s)| (c, s / n as f64)).collect();
    // the best mean score; ties go to the card with fewer points, then the lower card
    let best = values
        .iter()
        .max_by(|a, b| {
            a.1.partial_cmp(&b.1)
                .unwrap()
                .then(b.0.points().cmp(&a.0.points()))
        })
        .map(|x| x.0)
        .ok_or_else(|| SkatError::InvalidPosition("no legal card".into()))?;
    Ok(RamschDecision {
        values,
        best,
        worlds: n,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::variants::Variants;

    fn ramsch_game(seed: u64, schieben: bool) -> Game {
        let v = Variants::parse(if schieben { "schieberamsch" } else { "ramsch" }).unwrap();
        let mut g = Game::with_variants(Deal::random(seed), v);
        for t in ["p", "p", "p"] {
            g.apply_token(t).unwrap();
        }
        g
    }

    #[test]
    fn worlds_are_consistent_with_the_view() {
        let mut g = ramsch_game(4, true);
        // forehand looks and pushes its two lowest non-jacks, the others pass it on
        g.apply(Action::PickUp).unwrap();
        let d = g.legal_actions()[0];
        g.apply(d).unwrap();
        g.apply(Action::Pass).unwrap();
        g.apply(Action::Pass).unwrap();
        assert_eq!(g.phase(), Phase::Playing);
        for _ in 0..7 {
            let a = g.legal_actions()[0];
            g.apply(a).unwrap();
        }
        for seat in 0..3u8 {
            let view = g.view(seat);
            let k = RamschKnowledge::from_view(&view).unwrap();
            let mut rng = Rng::new(seat as u64);
            for _ in 0..50 {
                let w = k.sample(&mut rng);
                assert_eq!(w.hands[seat as usize], view.hand);
                let all = w.hands[0] | w.hands[1] | w.hands[2] | w.skat;
                assert_eq!(all.len() + view.played.len() as u32, 32);
                assert!(w.skat.iter().all(|c| c.rank() != Rank::Jack));
                if seat == 0 {
                    assert_eq!(w.skat, g.skat());
                }
            }
        }
    }

    #[test]
    fn decisions_are_legal_and_repeatable() {
        let mut g = ramsch_game(9, false);
        // the first trick is too slow for a test: lowest legal cards there
        for _ in 0..3 {
            let a = g.legal_actions()[0];
            g.apply(a).unwrap();
        }
        while !g.is_over() {
            let seat = g.to_move().unwrap();
            let view = g.view(seat);
            let d = decide(&view, 3, 17).unwrap();
            let again = decide(&view, 3, 17).unwrap();
            assert_eq!(d.best, again.best);
            assert!(g.legal_cards().contains(d.best));
            assert_eq!(d.values.len() as u32, g.legal_cards().len());
            g.apply(Action::Play(d.best)).unwrap();
        }
        assert!(g.result().unwrap().ramsch.is_some());
    }
}
