//! Experiments of the solver thesis that stand apart from the Skat solver itself.
//!
//! * [`prefix_trees`]: synthetic prefix-value game trees (chapter 3), whose exact negamax
//!   value is known at every node by construction;
//! * [`tree_search`]: NegaScout and MTD(f) with iterative deepening on them, counting nodes,
//!   with and without fastest-cut-first ordering;
//! * [`proof_size`]: the minimum minimax proof-tree size they are compared against;
//! * [`experiment`]: one tree's figures for all four searches;
//! * [`fcf_solver`]: the same ordering switched on and off in the Skat solver.

pub mod experiment;
pub mod fcf_solver;
pub mod prefix_trees;
pub mod proof_size;
pub mod tree_search;
