//! Random games: uniformly random legal actions from a seed. Used by `skat random-games`, the
//! invariant tests and the move-generation benchmark.

use crate::action::Action;
use crate::deal::Deal;
use crate::game::Game;
use crate::rng::Rng;

/// Plays one game with uniformly random legal actions; deal and choices from `seed`.
pub fn random_game(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(Deal::random_with(&mut rng));
    let mut acts: Vec<Action> = Vec::with_capacity(70);
    while !game.is_over() {
        game.legal_actions_into(&mut acts);
        let a = acts[rng.below(acts.len() as u64) as usize];
        game.apply(a).expect("a legal action applies");
    }
    game
}

/// Plays `n` random games from seeds `seed, seed + 1, ...` and returns how many actions were
/// applied in all (a cheap checksum for benchmarks).
pub fn random_games(n: u64, seed: u64) -> u64 {
    (0..n)
        .map(|i| random_game(seed.wrapping_add(i)).history().len() as u64)
        .sum()
}
