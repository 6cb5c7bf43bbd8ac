//! `skat._core`: the PyO3 bindings of skat-core. Conversion and error mapping only; every rule
//! lives in the core crate. The public API is re-exported by the Python package `skat`.

// PyO3 methods always borrow self, even for Copy classes with `to_*` names.
#![allow(clippy::wrong_self_convention)]

use pyo3::prelude::*;

mod args;
mod bidding;
mod cards;
mod error;
mod game;
mod iimc;
mod inference;
mod lookup;
mod paranoid;
mod pimc;
mod ramsch;
mod research;
mod rules;
mod sampling;
mod softmaxn;
mod solver;
mod spades;
mod state;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_POSITIONS", skat_core::solver::bench::MAX_POSITIONS)?;
    error::register(m)?;
    m.add_class::<cards::PySuit>()?;
    m.add_class::<cards::PyRank>()?;
    m.add_class::<cards::PyGameType>()?;
    m.add_class::<cards::PyCard>()?;
    m.add_class::<cards::PyCards>()?;
    m.add_class::<game::PyPhase>()?;
    m.add_class::<game::PyContract>()?;
    m.add_class::<game::PyAction>()?;
    m.add_class::<game::PyDeal>()?;
    m.add_class::<game::PyGameResult>()?;
    m.add_class::<state::PyView>()?;
    m.add_class::<state::PyGame>()?;
    m.add_function(wrap_pyfunction!(rules::perft, m)?)?;
    m.add_function(wrap_pyfunction!(ramsch::ramsch_decide, m)?)?;
    m.add_function(wrap_pyfunction!(softmaxn::softmaxn_decide, m)?)?;
    m.add_function(wrap_pyfunction!(rules::random_game, m)?)?;
    m.add_function(wrap_pyfunction!(rules::random_games, m)?)?;
    m.add_function(wrap_pyfunction!(rules::legal_cards, m)?)?;
    m.add_function(wrap_pyfunction!(rules::trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(rules::bids, m)?)?;
    m.add_function(wrap_pyfunction!(rules::card_power, m)?)?;
    m.add_function(wrap_pyfunction!(rules::matadors, m)?)?;
    m.add_function(wrap_pyfunction!(sampling::sample_worlds, m)?)?;
    m.add_function(wrap_pyfunction!(sampling::count_worlds, m)?)?;
    m.add_class::<bidding::PyBiddingTables>()?;
    m.add_function(wrap_pyfunction!(bidding::bidding_indices, m)?)?;
    m.add_class::<inference::PyInference>()?;
    m.add_function(wrap_pyfunction!(inference::hand_features, m)?)?;
    m.add_function(wrap_pyfunction!(inference::auction_outcomes, m)?)?;
    m.add_function(wrap_pyfunction!(inference::inference_layout, m)?)?;
    m.add_function(wrap_pyfunction!(inference::bid_bin, m)?)?;
    m.add_function(wrap_pyfunction!(pimc::win_threshold, m)?)?;
    m.add_class::<pimc::PyPimc>()?;
    m.add_class::<pimc::PyDecision>()?;
    m.add_class::<pimc::PyCardValue>()?;
    m.add_class::<iimc::PyIimc>()?;
    m.add_class::<iimc::PyIimcDecision>()?;
    m.add_class::<iimc::PyIimcValue>()?;
    m.add_class::<solver::PyPosition>()?;
    m.add_class::<solver::PyStats>()?;
    m.add_class::<solver::PySolver>()?;
    m.add_function(wrap_pyfunction!(solver::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solver::reaches, m)?)?;
    m.add_function(wrap_pyfunction!(solver::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(solver::solver_benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_row_count, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_build_range, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_merge, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_halve_range, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_info, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_file_header, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_check, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_selfcheck, m)?)?;
    m.add_function(wrap_pyfunction!(lookup::lookup_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(solver::solver_signature, m)?)?;
    m.add_function(wrap_pyfunction!(solver::estimator_samples, m)?)?;
    m.add_function(wrap_pyfunction!(solver::estimator_layout, m)?)?;
    m.add_function(wrap_pyfunction!(solver::check_estimators, m)?)?;
    m.add_function(wrap_pyfunction!(solver::estimator_estimates, m)?)?;
    m.add_function(wrap_pyfunction!(solver::probcut_benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(solver::probcut_grid, m)?)?;
    m.add_class::<spades::PySpadesGame>()?;
    m.add_class::<spades::PySpadesInference>()?;
    m.add_function(wrap_pyfunction!(spades::spades_player, m)?)?;
    m.add_function(wrap_pyfunction!(spades::spades_game, m)?)?;
    m.add_function(wrap_pyfunction!(spades::spades_inference, m)?)?;
    m.add_function(wrap_pyfunction!(spades::spades_bid, m)?)?;
    m.add_function(wrap_pyfunction!(spades::spades_score, m)?)?;
    m.add_function(wrap_pyfunction!(spades::spades_lead, m)?)?;
    m.add_function(wrap_pyfunction!(research::prefix_tree_figures, m)?)?;
    m.add_function(wrap_pyfunction!(paranoid::paranoid, m)?)?;
    m.add_function(wrap_pyfunction!(paranoid::paranoid_wins, m)?)?;
    m.add_function(wrap_pyfunction!(paranoid::paranoid_keeping_cards, m)?)?;
    m.add_function(wrap_pyfunction!(paranoid::paranoid_target, m)?)?;
    m.add_function(wrap_pyfunction!(paranoid::paranoid_hand, m)?)?;
    m.add_function(wrap_pyfunction!(paranoid::paranoid_all_tricks, m)?)?;
    m.add_function(wrap_pyfunction!(research::fcf_solver_ablation, m)?)?;
    Ok(())
}
