//! Soft-max^n inside PIMC's worlds for Skat's endgame, with inference of the opponents' kinds
//! from their observed cards.
//!
//! The seat to move samples worlds consistent with what it knows ([`Knowledge`], uniform), and
//! in each world runs soft-max^n ([`SoftMaxn`]) over the open-handed card play
//! ([`SkatOpen`]) from the current position to the end. Each seat is searched with a model:
//! the deciding seat with its own kind, every other seat with the intersection of the kinds it
//! may still be (declarer: `Win`, `Points`; defender: `Min`, `Greedy`). A legal card is worth,
//! in one world, the mean over its soft-max^n set of the decider's own utility
//! ([`SkatOpen::utility`]); the card of highest mean over the worlds is played (ties: fewer
//! card points, then the lower card). A card whose set is strictly dominated in a world has a
//! lower mean there under the decider's own kind, so no separate domination test is needed.
//!
//! Soft-max^n backs up sets without pruning, so it is used only from the trick at which every
//! hand holds at most `endgame` cards; before that the caller plays ordinary PIMC.
//!
//! Inference (the paper's section 4, adapted to hidden cards): every card an opponent played
//! since the endgame began is rebuilt in each world (the world's hands plus the cards played
//! since) and searched with the generalised models (each opponent as the intersection of its
//! candidate kinds, the decider as its own kind). A kind is ruled out for that seat when, in
//! *every* world, another card's set strictly dominates the chosen card's set under that
//! kind. The opponent chose without seeing the world, so this is a heuristic, not the paper's
//! sound test: requiring all worlds is what keeps it cautious. A seat is never left without a
//! kind: if every candidate is ruled out, it keeps them all. Nothing is remembered between
//! decisions; the search is deterministic for a given seed.

use crate::cards::Card;
use crate::error::SkatError;
use crate::game::{Phase, View};
use crate::multiplayer::models::{strictly_dominates, MaxnSet};
use crate::multiplayer::skat_open::{Kind, OpenModel, OpenState, Outcome, SkatOpen};
use crate::multiplayer::softmaxn::SoftMaxn;
use crate::multiplayer::Game;
use crate::pimc::{twelve, win_threshold, world_position};
use crate::sampling::{check_count, Knowledge, World, MAX_WORLDS};
use crate::solver::{representatives, Position};

/// The kinds a declarer may be.
pub const DECLARER_CANDIDATES: [Kind; 2] = [Kind::Win, Kind::Points];
/// The kinds a defender may be.
pub const DEFENDER_CANDIDATES: [Kind; 2] = [Kind::Min, Kind::Greedy];

/// Settings of one soft-max^n decision.
#[derive(Clone, Copy, Debug)]
pub struct SoftOptions {
    /// Worlds sampled.
    pub worlds: usize,
    /// The search starts once every hand holds at most this many cards at a trick's start.
    pub endgame: u32,
    /// The decider's own kind (default: `Win` as declarer, `Team` as defender).
    pub kind: Option<Kind>,
    /// Whether to infer the opponents' kinds from their cards.
    pub infer: bool,
    /// Model the opponents generically (the intersection of their candidate kinds); off: as
    /// PIMC's zero-sum search does (a declarer opponent `Points`, a defender opponent `Min`),
    /// with no inference. The control for measuring what the generic models change.
    pub generic: bool,
}

/// A soft-max^n decision.
#[derive(Clone, Debug)]
pub struct SoftDecision {
    /// Every legal card with its mean utility over the worlds.
    pub values: Vec<(Card, f64)>,
    pub best: Card,
    pub worlds: usize,
    /// Soft-max^n nodes expanded, inference included.
    pub nodes: u64,
    /// The kinds each seat was searched with (the decider: its own).
    pub models: [Vec<Kind>; 3],
    /// The kinds ruled out by inference, as (seat, kind).
    pub ruled_out: Vec<(u8, Kind)>,
}

fn invalid(msg: &str) -> SkatError {
    SkatError::InvalidPosition(msg.into())
}

fn candidates(seat: u8, declarer: u8) -> &'static [Kind] {
    if seat == declarer {
        &DECLARER_CANDIDATES
    } else {
        &DEFENDER_CANDIDATES
    }
}

fn mask(kinds: &[Kind]) -> u8 {
    kinds.iter().fold(0, |m, k| m | k.bit())
}

/// One world's game from the endgame's first trick: the game, its start state and the cards
/// played since, in order, with their seats.
struct Line {
    game: SkatOpen,
    start: OpenState,
    played: Vec<(u8, Card)>,
}

/// Rebuilds the world `w` at the start of trick `first` (0-based; at most the current one).
fn line(view: &View, w: &World, first: usize) -> Result<Line, SkatError> {
    let contract = view.contract.ok_or_else(|| invalid("no contract"))?;
    let declarer = view.declarer.ok_or_else(|| invalid("no declarer"))?;
    let left = (declarer + 1) % 3;
    let mut hands = w.hands;
    let mut played = Vec::new();
    for t in &view.tricks[first..] {
        for (i, &c) in t.cards.iter().enumerate() {
            played.push(((t.leader + i as u8) % 3, c));
        }
    }
    for (i, &c) in view.trick.iter().enumerate() {
        played.push(((view.leader + i as u8) % 3, c));
    }
    for &(s, c) in &played {
        hands[s as usize] = hands[s as usize].with(c);
    }
    let (mut points, mut tricks, mut left_points) = (w.skat.points(), 0, 0);
    for t in &view.tricks[..first] {
        if t.winner == declarer {
            points += t.points();
            tricks += 1;
        } else if t.winner == left {
            left_points += t.points();
        }
    }
    let leader = view.tricks.get(first).map_or(view.leader, |t| t.leader);
    let pos = Position::new(hands, contract, declarer, leader, &[], points, tricks)?;
    let need = win_threshold(contract, view.bid, twelve(view, w, declarer));
    let game = SkatOpen::new(&pos, need)?;
    Ok(Line {
        game,
        start: game.state(pos, left_points),
        played,
    })
}

/// Every legal card of `state` with its soft-max^n set (interchangeable cards share their
/// representative's set).
fn card_sets(
    search: &mut SoftMaxn<SkatOpen, OpenModel>,
    state: &OpenState,
) -> Vec<(Card, MaxnSet<Outcome>)> {
    let sets = search.children(state);
    representatives(&state.pos)
        .into_iter()
        .map(|(c, rep)| {
            let set = &sets
                .iter()
                .find(|(m, _)| *m == rep)
                .expect("a representative")
                .1;
            (c, set.clone())
        })
        .collect()
}

fn models(game: SkatOpen, masks: &[u8; 3]) -> Vec<OpenModel> {
    (0..3u8)
        .map(|seat| OpenModel {
            game,
            seat,
            mask: masks[seat as usize],
        })
        .collect()
}

/// Replays every world's line from the endgame's first trick to now; returns each world's
/// current state and, with `infer`, the kinds each seat keeps: a candidate kind of an opponent
/// is dropped when one of its cards was strictly dominated under that kind, by another card's
/// set, in every world (a seat left with no kind keeps them all; the decider's entry is its
/// candidates, unused).
fn replay(
    lines: &[Line],
    searchers: &mut [SoftMaxn<SkatOpen, OpenModel>],
    seat: u8,
    declarer: u8,
    infer: bool,
) -> (Vec<OpenState>, [u8; 3]) {
    // inconsistent[step][kind]: worlds in which that step's card was dominated under the kind
    let mut inconsistent = vec![[0usize; 5]; lines[0].played.len()];
    let mut now = Vec::with_capacity(lines.len());
    for (l, s) in lines.iter().zip(searchers.iter_mut()) {
        let mut state = l.start;
        for (i, &(mover, card)) in l.played.iter().enumerate() {
            if infer && mover != seat && state.pos.legal_cards().len() > 1 {
                let children = card_sets(s, &state);
                let chosen = &children
                    .iter()
                    .find(|(c, _)| *c == card)
                    .expect("a played card is legal in its world")
                    .1;
                for (k, kind) in Kind::ALL.into_iter().enumerate() {
                    let m = OpenModel {
                        game: l.game,
                        seat: mover,
                        mask: kind.bit(),
                    };
                    if candidates(mover, declarer).contains(&kind)
                        && children
                            .iter()
                            .any(|(_, set)| strictly_dominates(&m, set, chosen))
                    {
                        inconsistent[i][k] += 1;
                    }
                }
            }
            state = l.game.apply(&state, card);
        }
        now.push(state);
    }
    let keeps = std::array::from_fn(|other| {
        let all = mask(candidates(other as u8, declarer));
        let mut keep = all;
        for (i, &(mover, _)) in lines[0].played.iter().enumerate() {
            if mover as usize == other {
                for (k, kind) in Kind::ALL.into_iter().enumerate() {
                    if inconsistent[i][k] == lines.len() {
                        keep &= !kind.bit();
                    }
                }
            }
        }
        if keep == 0 {
            all
        } else {
            keep
        }
    });
    (now, keeps)
}

/// The soft-max^n decision of the seat to move (see the module documentation).
pub fn decide(view: &View, options: &SoftOptions, seed: u64) -> Result<SoftDecision, SkatError> {
    if view.phase != Phase::Playing || view.to_move != Some(view.seat) || view.ramsch {
        return Err(invalid("soft-max^n decides card play for the seat to move"));
    }
    let (Some(contract), Some(declarer)) = (view.contract, view.declarer) else {
        return Err(invalid("card play needs a contract"));
    };
    if contract.game_type.is_null() {
        return Err(invalid("soft-max^n in Skat covers suit and grand games"));
    }
    if options.worlds == 0 {
        return Err(invalid("worlds must be at least 1"));
    }
    check_count("worlds", options.worlds, MAX_WORLDS)?;
    let per_hand = 10 - view.tricks.len() as u32;
    if per_hand > options.endgame {
        return Err(SkatError::InvalidPosition(format!(
            "soft-max^n searches from {} cards per hand, the hands hold {per_hand}",
            options.endgame
        )));
    }
    let seat = view.seat;
    let own = options.kind.unwrap_or(if seat == declarer {
        Kind::Win
    } else {
        Kind::Team
    });
    if own.is_declarer() != (seat == declarer) {
        return Err(SkatError::InvalidPosition(format!(
            "kind {} is not a {}'s",
            own.name(),
            if seat == declarer {
                "declarer"
            } else {
                "defender"
            }
        )));
    }
    let worlds = Knowledge::from_view(view)?.sample_many(options.worlds, seed);
    let first = (10 - options.endgame.min(10)) as usize;
    let first = first.min(view.tricks.len());
    let lines = worlds
        .iter()
        .map(|w| line(view, w, first))
        .collect::<Result<Vec<Line>, SkatError>>()?;

    let mut masks: [u8; 3] = std::array::from_fn(|s| {
        if options.generic {
            mask(candidates(s as u8, declarer))
        } else if s as u8 == declarer {
            Kind::Points.bit()
        } else {
            Kind::Min.bit()
        }
    });
    masks[seat as usize] = own.bit();
    let infer = options.infer && options.generic;
    let mut nodes = 0u64;
    let mut ruled_out = Vec::new();
    let mut searchers: Vec<SoftMaxn<SkatOpen, OpenModel>> = lines
        .iter()
        .map(|l| SoftMaxn::new(&l.game, models(l.game, &masks)))
        .collect();
    let (now, inferred) = replay(&lines, &mut searchers, seat, declarer, infer);
    if infer {
        for other in (0..3u8).filter(|&s| s != seat) {
            for kind in candidates(other, declarer) {
                if inferred[other as usize] & kind.bit() == 0 {
                    ruled_out.push((other, *kind));
                }
            }
        }
        let mut new_masks = inferred;
        new_masks[seat as usize] = masks[seat as usize];
        if new_masks != masks {
            masks = new_masks;
            nodes += searchers.iter().map(|s| s.nodes).sum::<u64>();
            searchers = lines
                .iter()
                .map(|l| SoftMaxn::new(&l.game, models(l.game, &masks)))
                .collect();
        }
    }

    // the decision
    let mut sums: Vec<(Card, f64)> = Vec::new();
    for (i, ((l, s), state)) in lines.iter().zip(searchers.iter_mut()).zip(&now).enumerate() {
        debug_assert_eq!(Some(state.pos), world_position(view, &worlds[i]).ok());
        for (card, set) in card_sets(s, state) {
            let mean = set
                .outcomes()
                .iter()
                .map(|&o| l.game.utility(own, seat, o))
                .sum::<f64>()
                / set.len() as f64;
            match sums.iter_mut().find(|(c, _)| *c == card) {
                Some(e) => e.1 += mean,
                None => sums.push((card, mean)),
            }
        }
    }
    nodes += searchers.iter().map(|s| s.nodes).sum::<u64>();
    let n = lines.len() as f64;
    let values: Vec<(Card, f64)> = sums.into_iter().map(|(c, v)| (c, v / n)).collect();
    let best = values
        .iter()
        .max_by(|a, b| {
            a.1.partial_cmp(&b.1)
                .expect("finite values")
                .then(b.0.points().cmp(&a.0.points()))
                .then(b.0.cmp(&a.0))
        })
        .map(|x| x.0)
        .ok_or_else(|| invalid("no legal card"))?;
    Ok(SoftDecision {
        values,
        best,
        worlds: lines.len(),
        nodes,
        models: std::array::from_fn(|s| Kind::of_mask(masks[s])),
        ruled_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::rng::Rng;

    /// A suit or grand game played by random legal actions until every hand holds `k` cards.
    fn endgame(seed: u64, k: u32) -> Option<Game> {
        let mut rng = Rng::new(seed);
        let mut g = Game::new(Deal::random_with(&mut rng));
        while !g.is_over() {
            if g.phase() == Phase::Playing {
                let gt = g.view(0).contract?.game_type;
                if gt.is_null() {
                    return None;
                }
                if g.view(0).tricks.len() as u32 >= 10 - k {
                    return Some(g);
                }
            }
            let acts = g.legal_actions();
            g.apply(acts[rng.below(acts.len() as u64) as usize])
                .unwrap();
        }
        None
    }

    fn options(infer: bool) -> SoftOptions {
        SoftOptions {
            worlds: 4,
            endgame: 4,
            kind: None,
            infer,
            generic: true,
        }
    }

    #[test]
    fn plays_legal_cards_to_the_end_deterministically() {
        let mut played = 0;
        for seed in 0..40 {
            let Some(mut g) = endgame(seed, 4) else {
                continue;
            };
            while !g.is_over() {
                let seat = g.to_move().unwrap();
                let view = g.view(seat);
                let d = decide(&view, &options(true), seed).unwrap();
                assert_eq!(d.best, decide(&view, &options(true), seed).unwrap().best);
                assert!(g.legal_cards().contains(d.best));
                assert_eq!(d.values.len() as u32, g.legal_cards().len());
                assert_eq!(d.models[seat as usize].len(), 1);
                for (s, kind) in &d.ruled_out {
                    assert_ne!(*s, seat);
                    assert!(!d.models[*s as usize].contains(kind));
                }
                g.apply(crate::action::Action::Play(d.best)).unwrap();
                played += 1;
            }
        }
        assert!(played > 50);
    }

    #[test]
    fn refuses_what_it_does_not_search() {
        let g = endgame(1, 4)
            .or_else(|| endgame(2, 4))
            .or_else(|| endgame(3, 4))
            .unwrap();
        let seat = g.to_move().unwrap();
        let view = g.view(seat);
        let early = SoftOptions {
            endgame: 3,
            ..options(false)
        };
        assert!(decide(&view, &early, 0).is_err());
        let wrong = SoftOptions {
            kind: Some(if view.declarer == Some(seat) {
                Kind::Greedy
            } else {
                Kind::Points
            }),
            ..options(false)
        };
        assert!(decide(&view, &wrong, 0).is_err());
        let none = SoftOptions {
            worlds: 0,
            ..options(false)
        };
        assert!(decide(&view, &none, 0).is_err());
        let other = g.view((seat + 1) % 3);
        assert!(decide(&other, &options(false), 0).is_err());
    }
}
