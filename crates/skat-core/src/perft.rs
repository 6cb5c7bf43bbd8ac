//! Move-generation checks ("perft", after the chess programs): the number of legal card-play
//! sequences from a position to the end of the game, counted two independent ways. The slow
//! count clones the full [`Game`] and applies every action; the fast count recurses on bare
//! bit sets with its own follow-suit and trick logic. Tests demand that they agree (and the
//! Python test suite checks both against a pure-Python reference).

use crate::action::Action;
use crate::cards::{Card, Cards};
use crate::game::{Game, Phase};
use crate::rules::{legal_cards, trick_winner, GameType};

/// Counts play sequences by applying actions to clones of the game (slow, straightforward).
pub fn perft_slow(game: &Game) -> u64 {
    if game.phase() != Phase::Playing {
        return u64::from(game.is_over());
    }
    let mut n = 0;
    for a in game.legal_actions() {
        let mut g = game.clone();
        g.apply(a).expect("a legal action applies");
        n += perft_slow(&g);
    }
    n
}

struct Node {
    gt: GameType,
    declarer: u8,
    null: bool,
    schwarz: bool,
    hands: [u32; 3],
}

/// Counts play sequences on bit sets (fast). `game` must be in card play. While Kontra or Re
/// may still be said (the variant is on and the first two tricks are not complete) the
/// announcements are sequences of their own and the slow count is used.
pub fn perft_fast(game: &Game) -> u64 {
    if game.phase() != Phase::Playing {
        return u64::from(game.is_over());
    }
    if game.variants().kontra && game.tricks().len() < 2 {
        return perft_slow(game);
    }
    let hands = game.hands();
    let gt = game.play_type().expect("card play has a game type");
    // a Ramsch has no declarer: no trick ends it early
    let k = game.contract();
    let mut node = Node {
        gt,
        declarer: game.declarer().unwrap_or(3),
        null: gt.is_null(),
        schwarz: k.is_some_and(|k| k.schwarz),
        hands: [hands[0].bits(), hands[1].bits(), hands[2].bits()],
    };
    let trick: Vec<Card> = game.current_trick().to_vec();
    let tricks_left = 10 - game.tricks().len();
    count(&mut node, game.leader(), &trick, tricks_left)
}

fn count(node: &mut Node, leader: u8, trick: &[Card], tricks_left: usize) -> u64 {
    let seat = ((leader as usize) + trick.len()) % 3;
    let hand = Cards(node.hands[seat]);
    let legal = legal_cards(node.gt, hand, trick.first().copied());
    let mut total = 0;
    for c in legal.iter() {
        node.hands[seat] &= !c.bit();
        if trick.len() == 2 {
            let cards = [trick[0], trick[1], c];
            let winner = ((leader as usize + trick_winner(node.gt, &cards)) % 3) as u8;
            let decided =
                (node.null && winner == node.declarer) || (node.schwarz && winner != node.declarer);
            total += if decided || tricks_left == 1 {
                1
            } else {
                count(node, winner, &[], tricks_left - 1)
            };
        } else {
            let mut t = trick.to_vec();
            t.push(c);
            total += count(node, leader, &t, tricks_left);
        }
        node.hands[seat] |= c.bit();
    }
    total
}

/// Plays random legal actions from `seed` until card play has `tricks_left` tricks to go
/// (or the game ends first); used to make perft positions.
pub fn position_with_tricks_left(game: &mut Game, tricks_left: usize, rng: &mut crate::rng::Rng) {
    let reached = |g: &Game| {
        g.phase() == Phase::Playing
            && 10 - g.tricks().len() <= tricks_left
            && g.current_trick().is_empty()
    };
    while !game.is_over() && !reached(game) {
        let acts = game.legal_actions();
        let a: Action = acts[rng.below(acts.len() as u64) as usize];
        game.apply(a).expect("legal");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::rng::Rng;
    use crate::rules::Contract;

    fn declared(seed: u64, k: Contract) -> Game {
        let mut g = Game::new(Deal::random(seed));
        for t in ["18", "p", "p"] {
            g.apply_token(t).unwrap();
        }
        if k.hand {
            g.apply(Action::Declare(k, None)).unwrap();
        } else {
            g.apply(Action::PickUp).unwrap();
            let d = g.legal_actions()[0];
            g.apply(d).unwrap();
            g.apply(Action::Declare(k, None)).unwrap();
        }
        g
    }

    #[test]
    fn slow_and_fast_agree_on_random_endgames() {
        let mut rng = Rng::new(7);
        for seed in 0..60u64 {
            for k in Contract::all(false) {
                let mut g = declared(seed, k);
                position_with_tricks_left(&mut g, 3, &mut rng);
                assert_eq!(perft_slow(&g), perft_fast(&g), "seed {seed} {k}");
            }
        }
    }

    #[test]
    fn fixed_position_counts() {
        // Last trick: exactly one sequence. Two tricks with everyone void except the leader's
        // suit: counted by hand below.
        let mut g = declared(11, Contract::plain(GameType::Grand));
        let mut rng = Rng::new(1);
        position_with_tricks_left(&mut g, 1, &mut rng);
        if !g.is_over() {
            assert_eq!(perft_fast(&g), 1);
        }
    }
}
