//! Soft-max^n (Sturtevant and Bowling, section 3.2): max^n sets instead of single values.
//!
//! At a leaf the set is the outcome itself. At a node of player j the set is the union of the
//! children's sets that are not strictly dominated, under j's model, by another child's set.
//! At the root the player to move keeps the moves whose sets no other move strictly dominates
//! and takes the one with the highest average of its own score over the set (ties to the
//! first move). By the paper's Lemma 1 the set of every node contains every pure-strategy
//! equilibrium value of its subtree for players whose preferences refine the models.

use super::models::{strictly_dominates, MaxnSet, Model};
use super::{Game, Table};

/// A soft-max^n searcher: one model per player, and a table valid while the models are.
pub struct SoftMaxn<'g, G: Game, M> {
    game: &'g G,
    models: Vec<M>,
    table: Table<G::State, MaxnSet<G::Outcome>>,
    /// Nodes expanded (table misses) since creation.
    pub nodes: u64,
}

/// The set backed up from children's sets by player j with model `model`: the union of the
/// sets no other set strictly dominates.
pub fn back_up<O: Copy + Ord, M: Model<O> + ?Sized>(model: &M, sets: &[MaxnSet<O>]) -> MaxnSet<O> {
    let mut out: Option<MaxnSet<O>> = None;
    for (i, s) in sets.iter().enumerate() {
        let dominated = sets
            .iter()
            .enumerate()
            .any(|(k, t)| k != i && strictly_dominates(model, t, s));
        if !dominated {
            out = Some(match out {
                None => s.clone(),
                Some(u) => u.union(s),
            });
        }
    }
    out.unwrap_or_else(|| MaxnSet::from_outcomes(Vec::new()))
}

impl<'g, G: Game, M: Model<G::Outcome>> SoftMaxn<'g, G, M> {
    /// A searcher over `game` with `models[j]` the preference assumed for player j.
    pub fn new(game: &'g G, models: Vec<M>) -> Self {
        assert_eq!(models.len(), game.players(), "one model per player");
        SoftMaxn {
            game,
            models,
            table: Table::default(),
            nodes: 0,
        }
    }

    /// The models, by player.
    pub fn models(&self) -> &[M] {
        &self.models
    }

    /// The soft-max^n set of `s`.
    pub fn value(&mut self, s: &G::State) -> MaxnSet<G::Outcome> {
        if let Some(o) = self.game.outcome(s) {
            return MaxnSet::single(o);
        }
        let cacheable = self.game.cacheable(s);
        if cacheable {
            if let Some(v) = self.table.get(s) {
                return v.clone();
            }
        }
        self.nodes += 1;
        let j = self.game.to_move(s);
        let mut moves = Vec::new();
        self.game.moves(s, &mut moves);
        let sets: Vec<MaxnSet<G::Outcome>> = moves
            .iter()
            .map(|&m| self.value(&self.game.apply(s, m)))
            .collect();
        let v = back_up(&self.models[j], &sets);
        if cacheable {
            self.table.insert(s.clone(), v.clone());
        }
        v
    }

    /// Every move of `s` with its child's set, in move order.
    pub fn children(&mut self, s: &G::State) -> Vec<(G::Move, MaxnSet<G::Outcome>)> {
        let mut moves = Vec::new();
        self.game.moves(s, &mut moves);
        moves
            .into_iter()
            .map(|m| (m, self.value(&self.game.apply(s, m))))
            .collect()
    }

    /// The root decision in the non-terminal state `s`: among the moves whose sets no other
    /// move's set strictly dominates (under the mover's model), the one with the highest mean
    /// of `score` over its set; returns the move and its set.
    pub fn decide(
        &mut self,
        s: &G::State,
        score: impl Fn(&G::Outcome) -> f64,
    ) -> (G::Move, MaxnSet<G::Outcome>) {
        let j = self.game.to_move(s);
        let children = self.children(s);
        let mut best: Option<(usize, f64)> = None;
        for (i, (_, set)) in children.iter().enumerate() {
            let dominated = children
                .iter()
                .enumerate()
                .any(|(k, (_, t))| k != i && strictly_dominates(&self.models[j], t, set));
            if dominated {
                continue;
            }
            let mean = set.outcomes().iter().map(&score).sum::<f64>() / set.len() as f64;
            if best.is_none_or(|b| mean > b.1) {
                best = Some((i, mean));
            }
        }
        let i = best.expect("decide() needs a state with a legal move").0;
        children.into_iter().nth(i).expect("index of a child")
    }
}
