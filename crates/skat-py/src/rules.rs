//! Python functions over the rules: legal cards, trick winners, card power, matadors, bids,
//! random games and move-path counts (perft); conversions only.

use pyo3::prelude::*;

use crate::cards::{CardArg, CardsArg, PyCards, PyGameType};
use crate::state::PyGame;

/// Card-play sequences from a game in card play to its end, counted by the fast bit-set
/// recursion (`fast=True`) or by applying actions to copies of the game.
#[pyfunction]
#[pyo3(signature = (game, fast=true))]
pub fn perft(py: Python<'_>, game: &PyGame, fast: bool) -> u64 {
    let g = game.0.clone();
    py.allow_threads(move || {
        if fast {
            skat_core::perft::perft_fast(&g)
        } else {
            skat_core::perft::perft_slow(&g)
        }
    })
}

/// One game of uniformly random legal actions from a seed.
#[pyfunction]
pub fn random_game(#[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64) -> PyGame {
    PyGame(skat_core::simulate::random_game(seed))
}

/// Plays `n` random games inside Rust (GIL released); returns the number of actions applied.
#[pyfunction]
#[pyo3(signature = (n, seed=0))]
pub fn random_games(
    py: Python<'_>,
    #[pyo3(from_py_with = "crate::args::u64_arg")] n: u64,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
) -> u64 {
    py.allow_threads(move || skat_core::simulate::random_games(n, seed))
}

/// The cards a player may play from `hand` to a trick led with `lead` in `game_type`.
#[pyfunction]
#[pyo3(signature = (game_type, hand, lead=None))]
pub fn legal_cards(game_type: PyGameType, hand: CardsArg, lead: Option<CardArg>) -> PyCards {
    PyCards(skat_core::rules::legal_cards(
        game_type.into(),
        hand.0,
        lead.map(|c| c.0),
    ))
}

/// Index (0..3) of the winning card of a trick (led by the first card).
#[pyfunction]
pub fn trick_winner(game_type: PyGameType, cards: Vec<CardArg>) -> PyResult<usize> {
    if cards.is_empty() || cards.len() > 3 {
        return Err(crate::error::InvalidCardsError::new_err(
            "a trick has one to three cards",
        ));
    }
    let v: Vec<skat_core::Card> = cards.into_iter().map(|c| c.0).collect();
    Ok(skat_core::rules::trick_winner(game_type.into(), &v))
}

/// Trick-taking power of `card` in a trick led with `lead` (higher beats lower): trumps
/// 16 and up, cards of the led suit 1..8, other cards 0.
#[pyfunction]
pub fn card_power(game_type: PyGameType, card: CardArg, lead: CardArg) -> u8 {
    let gt: skat_core::GameType = game_type.into();
    gt.power(card.0, gt.follow_group(lead.0))
}

/// Signed matadors of a set of cards (with n: +n, without n: -n; 0 in null).
#[pyfunction]
pub fn matadors(game_type: PyGameType, cards: CardsArg) -> i32 {
    skat_core::rules::matadors(game_type.into(), cards.0)
}

/// The 63 legal bids.
#[pyfunction]
pub fn bids() -> Vec<u16> {
    skat_core::rules::BIDS.to_vec()
}
