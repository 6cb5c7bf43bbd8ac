//! skat-core: the Skat rules engine and ISS records, the open-handed solver, world sampling,
//! Perfect Information Monte Carlo and recursive (IIMC) card play, the bidding evaluation,
//! card inference, paranoid search, n-player search (max^n, paranoid, soft-max^n, with
//! three-player Spades) and the synthetic trees of the research experiments, in pure Rust.
//! The Python package `skat` wraps it through the `skat-py` crate.
//!
//! Flow: a [`Deal`] starts a [`Game`]; actions move it through the auction, the skat, the
//! declaration and ten tricks to a [`GameResult`]; [`record`] reads and writes ISS records;
//! [`encoding`] numbers the actions and encodes what a seat sees for learning environments.

pub mod action;
pub mod bidding;
pub mod cards;
pub mod deal;
pub mod encoding;
pub mod error;
pub mod game;
pub mod iimc;
pub mod inference;
pub mod multiplayer;
pub mod paranoid;
pub mod paranoid_null;
pub mod perft;
pub mod pimc;
pub mod ramsch;
pub mod ramsch_pimc;
pub mod record;
pub mod research;
pub mod result;
pub mod rng;
pub mod rules;
pub mod sampling;
pub mod simulate;
pub mod softmaxn_pimc;
pub mod solver;
pub mod variants;

pub use action::Action;
pub use cards::{Card, Cards, Rank, Suit};
pub use deal::Deal;
pub use error::SkatError;
pub use game::{Actor, Game, Move, Phase, Trick, View};
pub use record::Record;
pub use result::{EndReason, GameResult, IssResult};
pub use rng::Rng;
pub use rules::{Contract, GameType};
pub use variants::Variants;
