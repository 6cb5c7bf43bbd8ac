//! The paranoid search: the searching player `root` maximises its utility and every other
//! player is assumed to minimise it (the n-player game reduced to a two-player zero-sum one),
//! ties broken toward the first move. The table stores root's value per state; it is valid for
//! one root player and utility.

use super::{Game, Table};

/// A paranoid searcher for player `root`.
pub struct Paranoid<'g, G: Game, U> {
    game: &'g G,
    root: usize,
    utility: U,
    table: Table<G::State, i64>,
    /// Nodes expanded (table misses) since creation.
    pub nodes: u64,
}

impl<'g, G: Game, U: Fn(&G::Outcome) -> i64> Paranoid<'g, G, U> {
    /// A searcher for player `root` with its utility over outcomes.
    pub fn new(game: &'g G, root: usize, utility: U) -> Self {
        Paranoid {
            game,
            root,
            utility,
            table: Table::default(),
            nodes: 0,
        }
    }

    /// Root's guaranteed utility from `s` against a coalition of all other players.
    pub fn value(&mut self, s: &G::State) -> i64 {
        if let Some(o) = self.game.outcome(s) {
            return (self.utility)(&o);
        }
        let cacheable = self.game.cacheable(s);
        if cacheable {
            if let Some(v) = self.table.get(s) {
                return *v;
            }
        }
        self.nodes += 1;
        let maximise = self.game.to_move(s) == self.root;
        let mut moves = Vec::new();
        self.game.moves(s, &mut moves);
        let mut best: Option<i64> = None;
        for m in moves {
            let v = self.value(&self.game.apply(s, m));
            let better = match best {
                None => true,
                Some(b) => (maximise && v > b) || (!maximise && v < b),
            };
            if better {
                best = Some(v);
            }
        }
        let v = best.expect("a non-terminal state has a legal move");
        if cacheable {
            self.table.insert(s.clone(), v);
        }
        v
    }

    /// The move the player to move in `s` makes under the paranoid assumption (the root player
    /// maximises, any other minimises root's value), with the resulting value.
    pub fn best(&mut self, s: &G::State) -> (G::Move, i64) {
        let maximise = self.game.to_move(s) == self.root;
        let mut moves = Vec::new();
        self.game.moves(s, &mut moves);
        let mut best: Option<(G::Move, i64)> = None;
        for m in moves {
            let v = self.value(&self.game.apply(s, m));
            let better = match best {
                None => true,
                Some((_, b)) => (maximise && v > b) || (!maximise && v < b),
            };
            if better {
                best = Some((m, v));
            }
        }
        best.expect("best() needs a state with a legal move")
    }
}
