//! Ramsch: what a deal becomes when all three pass at a table with the Ramsch variant
//! ([`crate::variants`]). Nobody declares; the cards are played as in grand (only the jacks are
//! trumps) and everyone plays for herself, trying to take as few card points as possible. The
//! skat goes to the winner of the last trick. Scoring:
//!
//! - **Durchmarsch**: a player who takes all ten tricks scores +120; the others 0.
//! - Otherwise the player with the most card points (several on a tie) loses them: her score
//!   is minus her points, the others score 0.
//! - **Jungfrau**: when a player took no trick, the loser's score is doubled.
//! - Every push of the skat in Schieberamsch doubles the score, and a Bock game doubles it.
//!
//! The Seeger-Fabian 50 and 40 points do not apply. In `R[...]` a Ramsch is written
//! `ramsch v:V rp:P0,P1,P2 rt:T0,T1,T2 rx:PUSHES` (the card points with the skat, the tricks,
//! the pushes), with ` bo:1` in a Bock game.

use crate::result::{EndReason, GameResult};
use crate::variants::doubling;

/// The outcome of a Ramsch, the part of a [`GameResult`] that only a Ramsch has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RamschOutcome {
    /// Card points per seat, the skat counted for the winner of the last trick.
    pub points: [u8; 3],
    /// Tricks per seat.
    pub tricks: [u8; 3],
    /// Seats with the most points (bit per seat); 0 on a Durchmarsch.
    pub losers: u8,
    /// The seat that took no trick, if any (not on a Durchmarsch).
    pub jungfrau: Option<u8>,
    /// The seat that took every trick.
    pub durchmarsch: Option<u8>,
    /// Pushes of the skat (Schieberamsch), each doubling.
    pub pushes: u8,
}

/// The Ramsch score of `seat` before the doubling factors (pushes, Bock): +120 for its
/// Durchmarsch, minus its card points when it has the most (doubled when a seat took no trick),
/// else 0. `points` include the skat. The open-handed Ramsch search values its leaves with it.
#[inline]
pub fn ramsch_score(seat: usize, points: [i32; 3], tricks: [u32; 3]) -> i32 {
    if let Some(d) = (0..3).find(|&s| tricks[s] == 10) {
        return if d == seat { 120 } else { 0 };
    }
    let max = *points.iter().max().unwrap();
    if points[seat] < max {
        return 0;
    }
    let jungfrau = tricks.contains(&0);
    -max * if jungfrau { 2 } else { 1 }
}

/// Values a finished Ramsch (`points` include the skat).
pub fn value_ramsch(points: [u32; 3], tricks: [u32; 3], pushes: u8, bock: bool) -> GameResult {
    let mult = doubling(pushes, bock);
    let pts = points.map(|p| p as i32);
    let scores = [0, 1, 2].map(|s| ramsch_score(s, pts, tricks) * mult);
    let durchmarsch = (0..3u8).find(|&s| tricks[s as usize] == 10);
    let max = *points.iter().max().unwrap();
    let (losers, jungfrau): (u8, Option<u8>) = if durchmarsch.is_some() {
        (0, None)
    } else {
        let losers = (0..3u8)
            .filter(|&s| points[s as usize] == max)
            .fold(0, |m, s| m | 1 << s);
        (losers, (0..3u8).find(|&s| tricks[s as usize] == 0))
    };
    // the score the result names: the Durchmarsch's, else the losers'
    let named = durchmarsch.unwrap_or(losers.trailing_zeros() as u8);
    let value = scores[named as usize];
    GameResult {
        value,
        scores,
        end: EndReason::Played,
        bock,
        ramsch: Some(RamschOutcome {
            points: points.map(|p| p as u8),
            tricks: tricks.map(|t| t as u8),
            losers,
            jungfrau,
            durchmarsch,
            pushes,
        }),
        ..GameResult::passed()
    }
}

impl RamschOutcome {
    /// The `R[...]` fields after `ramsch v:V`.
    pub fn iss_fields(&self) -> String {
        let p = self.points;
        let t = self.tricks;
        format!(
            "rp:{},{},{} rt:{},{},{} rx:{}",
            p[0], p[1], p[2], t[0], t[1], t[2], self.pushes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_points_lose_them() {
        let r = value_ramsch([40, 35, 45], [3, 4, 3], 0, false);
        assert_eq!(r.value, -45);
        assert_eq!(r.scores, [0, 0, -45]);
        let o = r.ramsch.unwrap();
        assert_eq!((o.losers, o.jungfrau, o.durchmarsch), (0b100, None, None));
        assert_eq!(r.to_iss(), "ramsch v:-45 rp:40,35,45 rt:3,4,3 rx:0");
    }

    #[test]
    fn ties_jungfrau_durchmarsch_pushes_and_bock() {
        // a tie: both lose
        let r = value_ramsch([50, 50, 20], [4, 4, 2], 0, false);
        assert_eq!(r.scores, [-50, -50, 0]);
        // Jungfrau: seat 1 took no trick, the loser pays double
        let r = value_ramsch([70, 0, 50], [6, 0, 4], 0, false);
        assert_eq!(r.scores, [-140, 0, 0]);
        assert_eq!(r.ramsch.unwrap().jungfrau, Some(1));
        // Durchmarsch
        let r = value_ramsch([0, 120, 0], [0, 10, 0], 0, false);
        assert_eq!(r.scores, [0, 120, 0]);
        assert_eq!(r.ramsch.unwrap().durchmarsch, Some(1));
        // two pushes and Bock: x 8
        let r = value_ramsch([40, 35, 45], [3, 4, 3], 2, true);
        assert_eq!(r.scores, [0, 0, -360]);
        assert!(r.to_iss().ends_with("rx:2 bo:1"));
    }
}
