//! Bindings of paranoid search ([`skat_core::paranoid`]).

use pyo3::prelude::*;
use skat_core::paranoid::{
    declarer_target, hand_game_all_tricks, hand_game_reaches_within, paranoid_keeping,
    paranoid_reaches, paranoid_value, ParanoidState,
};

use crate::cards::{PyCards, PyGameType};
use crate::error::to_py;
use crate::state::PyView;

/// The declarer's paranoid value in `view` (hers, during card play): the card points (skat
/// included) she can guarantee whatever the hidden cards and however the defenders play, as
/// if they saw every card; null: 1 if she surely takes no trick, else 0.
#[pyfunction]
pub fn paranoid(py: Python<'_>, view: &PyView) -> PyResult<i32> {
    let s = ParanoidState::from_view(&view.0).map_err(to_py)?;
    Ok(py.allow_threads(move || paranoid_value(&s).0))
}

/// Whether the declarer's paranoid value in `view` is at least `target` (a null-window
/// search: much faster than :func:`paranoid`).
#[pyfunction]
pub fn paranoid_wins(
    py: Python<'_>,
    view: &PyView,
    #[pyo3(from_py_with = "crate::args::i32_arg")] target: i32,
) -> PyResult<bool> {
    let s = ParanoidState::from_view(&view.0).map_err(to_py)?;
    Ok(py.allow_threads(move || paranoid_reaches(&s, target)))
}

/// The paranoid move filter: when the declarer, to move in `view`, can guarantee `target`
/// (card points; null: 1), the cards that keep the guarantee (never empty); `None` when she
/// cannot guarantee it or is not to move.
#[pyfunction]
pub fn paranoid_keeping_cards(
    py: Python<'_>,
    view: &PyView,
    #[pyo3(from_py_with = "crate::args::i32_arg")] target: i32,
) -> PyResult<Option<PyCards>> {
    let s = ParanoidState::from_view(&view.0).map_err(to_py)?;
    Ok(py
        .allow_threads(move || paranoid_keeping(&s, target))
        .map(PyCards))
}

/// What the declarer's paranoid value must reach for her to win in `view`: 1 (no trick) in
/// null, else her card points needed from the cards she knows to be hers.
#[pyfunction]
pub fn paranoid_target(view: &PyView) -> PyResult<i32> {
    declarer_target(&view.0).map_err(to_py)
}

/// Whether a hand game of `game_type` with these ten cards, the declarer in `seat` (0
/// forehand, who leads), surely reaches `target`: card points for suit and grand (61 a win,
/// 90 schneider), 1 for null (no trick; the defenders see every card, so this also decides
/// null ouvert). `None` when the search needs more than `budget` nodes.
#[pyfunction]
#[pyo3(signature = (hand, game_type, seat, target, budget=200_000))]
pub fn paranoid_hand(
    py: Python<'_>,
    hand: &PyCards,
    game_type: PyGameType,
    #[pyo3(from_py_with = "crate::args::u8_arg")] seat: u8,
    #[pyo3(from_py_with = "crate::args::i32_arg")] target: i32,
    #[pyo3(from_py_with = "crate::args::u64_arg")] budget: u64,
) -> PyResult<Option<bool>> {
    let (h, gt) = (hand.0, game_type.into());
    py.allow_threads(move || hand_game_reaches_within(gt, seat, h, target, budget))
        .map_err(to_py)
}

/// Whether a suit or grand hand game with these ten cards is a sure schwarz (and ouvert)
/// from forehand: every card of hers wins its trick when she leads them in turn, her top
/// trumps first (a static test).
#[pyfunction]
pub fn paranoid_all_tricks(hand: &PyCards, game_type: PyGameType) -> PyResult<bool> {
    hand_game_all_tricks(game_type.into(), hand.0).map_err(to_py)
}
