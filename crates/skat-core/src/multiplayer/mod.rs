//! Search in perfect-information games of more than two players: max^n, paranoid and
//! soft-max^n (Sturtevant and Bowling), opponent models as partial orders over outcomes, and
//! three-player Spades as the testbed.
//!
//! Every search runs over the small [`Game`] interface below: a state, the player to move, the
//! legal moves, applying a move, and the outcome of a terminal state. Outcomes are opaque
//! values of the game (for Spades, an index into the hand's table of trick splits); what a
//! player thinks of them is either a numeric utility (max^n, paranoid) or a preference
//! [`models::Model`] (soft-max^n). Every search keeps a transposition table keyed by state, so
//! the state must identify the whole subtree below it, outcomes included.
//!
//! Ties are broken toward the first move in the order [`Game::moves`] produces ("to the left"),
//! so every search is deterministic.

pub mod maxn;
pub mod models;
pub mod paranoid;
pub mod skat_open;
pub mod softmaxn;
pub mod spades;
pub mod spades_play;
pub mod tree;

use std::hash::{BuildHasherDefault, Hash, Hasher};

/// An n-player game of perfect information with a finite tree.
pub trait Game {
    /// One node of the game; equal states have equal subtrees.
    type State: Clone + Eq + Hash;
    /// A move; `moves` lists them in the order in which ties are broken.
    type Move: Copy + Eq + std::fmt::Debug;
    /// The result of a terminal state, as the players' preferences see it.
    type Outcome: Copy + Eq + Ord + Hash + std::fmt::Debug;

    /// Number of players (indices `0..players()`).
    fn players(&self) -> usize;
    /// The player to move in a non-terminal state.
    fn to_move(&self, s: &Self::State) -> usize;
    /// The legal moves of a non-terminal state, appended to `out` (cleared first); moves that
    /// lead to identical subtrees may be left out as long as one of them stays.
    fn moves(&self, s: &Self::State, out: &mut Vec<Self::Move>);
    /// The state after `m`.
    fn apply(&self, s: &Self::State, m: Self::Move) -> Self::State;
    /// `Some(outcome)` exactly at terminal states.
    fn outcome(&self, s: &Self::State) -> Option<Self::Outcome>;
    /// Whether the searches should keep `s` in their tables: states that only one path can
    /// reach (such as the middle of a trick) need not be stored. Storing every state is always
    /// correct.
    fn cacheable(&self, _s: &Self::State) -> bool {
        true
    }
}

/// Fowler-Noll-Vo style hasher for the transposition tables: states are small and hashed often.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^ (z >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64)
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64)
    }
}

/// A `HashMap` keyed by state with [`FastHasher`].
pub type Table<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FastHasher>>;
