//! The Ramsch part of the deal's state machine ([`crate::ramsch`]): what happens when all
//! three pass at a table with the Ramsch variant, the Schieberamsch skat round, and the
//! tricks of a Ramsch (grand order, every seat for herself, the skat to the last trick).

use super::{Game, Phase, Trick};
use crate::rules::{trick_winner, GameType};

impl Game {
    /// All passed at a Ramsch table: the skat round of Schieberamsch, or the card play.
    pub(super) fn start_ramsch(&mut self) {
        self.ramsch = true;
        if self.variants.schieberamsch {
            self.pusher = 0;
            self.phase = Phase::SkatDecision;
            self.to_move = Some(0);
        } else {
            self.start_ramsch_play();
        }
    }

    /// Schieberamsch: the next seat decides about the skat; after rearhand the play starts.
    pub(super) fn next_pusher(&mut self) {
        self.pusher += 1;
        if self.pusher == 3 {
            self.start_ramsch_play();
        } else {
            self.phase = Phase::SkatDecision;
            self.to_move = Some(self.pusher);
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
        self.seat_points[winner as usize] += t.points();
        self.seat_tricks[winner as usize] += 1;
        self.tricks.push(t);
        self.trick.clear();
        self.leader = winner;
        self.to_move = Some(winner);
        if self.tricks.len() == 10 {
            let mut points = self.seat_points;
            points[winner as usize] += self.skat.points();
            let r = crate::ramsch::value_ramsch(
                points,
                self.seat_tricks,
                self.pushes,
                self.variants.bock,
            );
            self.finish(r);
        }
    }
}
