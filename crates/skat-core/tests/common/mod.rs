//! Shared test helpers for the solver tests: a random position generator and the plain
//! minimax oracle (no pruning, no tables, only the rules module).

#![allow(dead_code)]

use skat_core::rules::{legal_cards, trick_winner};
use skat_core::solver::Position;
use skat_core::{Card, Cards, Contract, GameType, Rng};

/// A random position with `k` cards per hand at the start of the trick and `mid` (0..=2)
/// cards already in the current trick.
pub fn random_position(rng: &mut Rng, k: usize, gt: GameType, mid: usize) -> Position {
    let mut deck: Vec<Card> = Card::all().collect();
    rng.shuffle(&mut deck);
    let mut hands = [Cards::EMPTY; 3];
    for (i, h) in hands.iter_mut().enumerate() {
        *h = deck[i * k..(i + 1) * k].iter().copied().collect();
    }
    let declarer = rng.below(3) as u8;
    let leader = rng.below(3) as u8;
    let mut trick = Vec::new();
    for i in 0..mid.min(if k == 0 { 0 } else { 2 }) {
        let seat = ((leader as usize) + i) % 3;
        let legal: Vec<Card> = legal_cards(gt, hands[seat], trick.first().copied())
            .iter()
            .collect();
        let c = legal[rng.below(legal.len() as u64) as usize];
        hands[seat] = hands[seat].without(c);
        trick.push(c);
    }
    let in_play: u32 = (hands[0] | hands[1] | hands[2]).points()
        + trick.iter().map(|c| c.points() as u32).sum::<u32>();
    let (dp, dt) = if gt.is_null() {
        (0, 0)
    } else {
        (
            rng.below((120 - in_play + 1) as u64) as u32,
            rng.below((10 - k + 1) as u64) as u32,
        )
    };
    Position::new(hands, Contract::plain(gt), declarer, leader, &trick, dp, dt)
        .expect("valid random position")
}

/// Plain minimax over the rules, on the solver's value scale.
pub fn oracle(pos: &Position) -> i32 {
    if let Some(v) = pos.final_value() {
        return v;
    }
    let gt = pos.game_type();
    let mut hands = pos.hands();
    let mut trick = pos.trick();
    let v = mm(
        gt,
        &mut hands,
        pos.declarer() as usize,
        pos.leader() as usize,
        &mut trick,
        pos.declarer_points() as i32,
    );
    if gt.is_null() {
        if v == 11 {
            0
        } else {
            v
        }
    } else {
        v
    }
}

/// Returns the declarer's final points (suit/grand) or the null survival score (11 = no trick).
fn mm(
    gt: GameType,
    hands: &mut [Cards; 3],
    decl: usize,
    leader: usize,
    trick: &mut Vec<Card>,
    dp: i32,
) -> i32 {
    if trick.is_empty() && hands[0].is_empty() && hands[1].is_empty() && hands[2].is_empty() {
        return if gt.is_null() { 11 } else { dp };
    }
    let p = (leader + trick.len()) % 3;
    let legal = legal_cards(gt, hands[p], trick.first().copied());
    let mut best = if p == decl { i32::MIN } else { i32::MAX };
    for c in legal.iter() {
        hands[p] = hands[p].without(c);
        trick.push(c);
        let v = if trick.len() == 3 {
            let w = (leader + trick_winner(gt, trick)) % 3;
            let saved = trick.clone();
            trick.clear();
            let trick_no = 10 - hands[0].len() as i32;
            let v = if gt.is_null() {
                if w == decl {
                    trick_no
                } else {
                    mm(gt, hands, decl, w, trick, dp)
                }
            } else {
                let gain: i32 = if w == decl {
                    saved.iter().map(|c| c.points() as i32).sum()
                } else {
                    0
                };
                mm(gt, hands, decl, w, trick, dp + gain)
            };
            *trick = saved;
            v
        } else {
            mm(gt, hands, decl, leader, trick, dp)
        };
        trick.pop();
        hands[p] = hands[p].with(c);
        if p == decl {
            best = best.max(v);
        } else {
            best = best.min(v);
        }
    }
    best
}

/// Best of the analyze values from the point of view of the player to move.
pub fn best_of(pos: &Position, moves: &[(Card, i32)]) -> i32 {
    let null = pos.game_type().is_null();
    let key = |v: i32| if null && v == 0 { 11 } else { v };
    let maxi = pos.to_move() == pos.declarer();
    let best = if maxi {
        moves.iter().map(|m| key(m.1)).max().unwrap()
    } else {
        moves.iter().map(|m| key(m.1)).min().unwrap()
    };
    if null && best == 11 {
        0
    } else {
        best
    }
}

/// Option sets: defaults, everything off, and each enhancement off alone.
pub fn option_sets() -> Vec<(&'static str, skat_core::solver::SolverOptions)> {
    use skat_core::solver::SolverOptions;
    let d = SolverOptions {
        tt_mb: 4,
        ..SolverOptions::default()
    };
    vec![
        ("default", d),
        ("plain", SolverOptions::plain()),
        (
            "no-tt",
            SolverOptions {
                transposition_table: false,
                ..d
            },
        ),
        (
            "no-ps",
            SolverOptions {
                payoff_similarity: false,
                ..d
            },
        ),
        (
            "no-order",
            SolverOptions {
                move_ordering: false,
                ..d
            },
        ),
        (
            "no-fcf",
            SolverOptions {
                fastest_cut_first: false,
                ..d
            },
        ),
        (
            "no-collapse",
            SolverOptions {
                collapse_equivalent: false,
                ..d
            },
        ),
        (
            "no-bounds",
            SolverOptions {
                static_bounds: false,
                ..d
            },
        ),
        (
            "no-tables",
            SolverOptions {
                endgame_tables: false,
                ..d
            },
        ),
    ]
}
