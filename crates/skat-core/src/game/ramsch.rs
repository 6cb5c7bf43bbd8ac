//! The Ramsch part of the deal's state machine ([`crate::ramsch`]): what happens when all
//! three pass at a table with the Ramsch variant, the Schieberamsch skat round, and the
//! tricks of a Ramsch (grand order, every seat for herself, the skat to the last trick).

use super::{Game, Phase, Trick};
use crate::rules::{trick_winner, GameType};

/// Card points and tricks each seat has taken in `tricks` (a Ramsch's running score).
pub fn seat_totals(tricks: &[Trick]) -> ([u32; 3], [u32; 3]) {
    let mut points = [0u32; 3];
    let mut won = [0u32; 3];
    for t in tricks {
        points[t.winner as usize] += t.points();
        won[t.winner as usize] += 1;
    }
    (points, won)
}

impl Game {
    /// All passed at a Ramsch table: the skat round of Schieberamsch, or the card play.
    pub(super) fn start_ramsch(&mut self) {
        self.ramsch = true;
        if self.variants.schieberamsch {
            self.phase = Phase::SkatDecision;
            self.to_move = Some(0);
        } else {
            self.start_ramsch_play();
        }
    }

    /// Schieberamsch: the seat after the one to move decides about the skat; after rearhand
    /// the play starts.
    pub(super) fn next_pusher(&mut self) {
        let next = self.to_move.unwrap() + 1;
        if next == 3 {
            self.start_ramsch_play();
        } else {
            self.phase = Phase::SkatDecision;
            self.to_move = Some(next);
        }
    }

    fn start_ramsch_play(&mut self) {
        self.phase = Phase::Playing;
        self.leader = 0;
        self.to_move = Some(0);
    }

    /// Ramsch: closes the trick just completed; after the tenth the skat goes to its winner.
    pub(super) fn ramsch_trick(&mut self) {
        let cards = [self.trick[0], self.trick[1], self.trick[2]];
        let winner = (self.leader + trick_winner(GameType::Grand, &cards) as u8) % 3;
        let t = Trick {
            leader: self.leader,
            cards,
            winner,
        };
        self.tricks.push(t);
        self.trick.clear();
        self.leader = winner;
        self.to_move = Some(winner);
        if self.tricks.len() == 10 {
            let (mut points, tricks) = seat_totals(&self.tricks);
            points[winner as usize] += self.skat.points();
            let pushes = self.pushed.iter().filter(|p| p.is_some()).count() as u8;
            let r = crate::ramsch::value_ramsch(points, tricks, pushes, self.variants.bock);
            self.finish(r);
        }
    }
}
