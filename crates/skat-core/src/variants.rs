//! Table variants beyond the International Skat Order: Kontra and Re, Bock games, Ramsch and
//! Schieberamsch. All are off by default; a game without variants is exactly an ISkO game.
//!
//! - **Kontra and Re** (`kontra`): a defender who has not yet played a card may say Kontra, at
//!   her turn in the first trick; the declarer may answer Re at any of her turns after the
//!   Kontra until she plays her next card. Each doubles the game's value (won or lost; the
//!   Seeger-Fabian 50 and 40 points are not doubled). Saying it does not pass the turn.
//! - **Bock** (`bock`): this deal is a Bock game and its value is doubled once more. Which
//!   deals are Bock games is decided by the list ([`bock_events`] counts the events of a
//!   finished deal; each event adds a round of three Bock games).
//! - **Ramsch** (`ramsch`): when all three pass, the deal is played as a Ramsch instead of
//!   being passed in (rules and scoring in [`crate::ramsch`]).
//! - **Schieberamsch** (`schieberamsch`, implies Ramsch): before the Ramsch each seat in turn
//!   picks up the skat and pushes two cards (no jack) on, doubling the Ramsch, or passes it on
//!   unseen.
//!
//! In a record the variants are the header field `VA[...]` (the words `kontra`, `bock`,
//! `ramsch` and `schieberamsch`, space separated, empty or absent for none); Kontra and Re are
//! the move tokens `KO` and `RK`.
//! The value multiplier is `2^level * (2 if bock)`, `level` counting Kontra and Re.

use std::fmt;

use crate::error::SkatError;
use crate::result::GameResult;

/// The variants a deal is played with (all off: the International Skat Order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variants {
    /// Kontra and Re may be said.
    pub kontra: bool,
    /// This deal is a Bock game (doubled).
    pub bock: bool,
    /// All passing leads to a Ramsch.
    pub ramsch: bool,
    /// The Ramsch starts with pushing the skat round (implies `ramsch`).
    pub schieberamsch: bool,
}

/// A Bock event: the declarer lost with exactly 60 card points.
pub const BOCK_SIXTY: &str = "60:60";
/// A Bock event: Re was said.
pub const BOCK_RE: &str = "re";
/// A Bock event: the game's value (with Kontra and Re, without Bock) is at least
/// [`BOCK_VALUE`].
pub const BOCK_HIGH: &str = "value";
/// The game value from which a deal is a Bock event.
pub const BOCK_VALUE: u32 = 100;

impl Variants {
    /// No variant: the International Skat Order.
    pub const NONE: Variants = Variants {
        kontra: false,
        bock: false,
        ramsch: false,
        schieberamsch: false,
    };

    pub fn is_none(&self) -> bool {
        *self == Variants::NONE
    }

    /// Parses the `VA[...]` text: the words `kontra`, `bock`, `ramsch` and `schieberamsch`
    /// (space or comma separated, in any order, each at most once; `schieberamsch` implies
    /// `ramsch`); empty for none.
    pub fn parse(text: &str) -> Result<Variants, SkatError> {
        let mut v = Variants::NONE;
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let flag = match word {
                "kontra" => &mut v.kontra,
                "bock" => &mut v.bock,
                "ramsch" => &mut v.ramsch,
                "schieberamsch" => &mut v.schieberamsch,
                _ => {
                    return Err(SkatError::parse(
                        "variant (kontra, bock, ramsch, schieberamsch)",
                        word,
                    ))
                }
            };
            if *flag {
                return Err(SkatError::parse("variant named once", word));
            }
            *flag = true;
        }
        if v.schieberamsch {
            v.ramsch = true;
        }
        Ok(v)
    }

    /// The value multiplier of a deal with `level` Kontra/Re announcements (0, 1 or 2).
    pub fn multiplier(&self, level: u8) -> i32 {
        doubling(level, self.bock)
    }
}

/// The factor of `doublings` (Kontra and Re, or Schieberamsch pushes), doubled once more in a
/// Bock game: every doubling of a deal's value goes through here.
pub fn doubling(doublings: u8, bock: bool) -> i32 {
    (1 << doublings) * if bock { 2 } else { 1 }
}

impl fmt::Display for Variants {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<&str> = [
            (self.kontra, "kontra"),
            (self.bock, "bock"),
            (self.ramsch && !self.schieberamsch, "ramsch"),
            (self.schieberamsch, "schieberamsch"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, w)| *w)
        .collect();
        f.write_str(&words.join(" "))
    }
}

/// The Bock events of a finished deal (each adds a round of three Bock games): the declarer
/// lost with exactly 60 card points ([`BOCK_SIXTY`]), Re was said ([`BOCK_RE`]), the game
/// was worth at least [`BOCK_VALUE`] without its own Bock doubling ([`BOCK_HIGH`]). Passed deals and deals
/// ended by a penalty have none.
pub fn bock_events(r: &GameResult) -> Vec<&'static str> {
    let mut events = Vec::new();
    let Some(k) = r.contract else {
        return events;
    };
    if r.declarer.is_none() {
        return events;
    }
    if !k.game_type.is_null() && !r.won && r.declarer_points == 60 {
        events.push(BOCK_SIXTY);
    }
    if r.kontra >= 2 {
        events.push(BOCK_RE);
    }
    let unsigned = if r.won { r.value } else { -r.value / 2 };
    let unbocked = if r.bock { unsigned / 2 } else { unsigned };
    if unbocked >= BOCK_VALUE as i32 {
        events.push(BOCK_HIGH);
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for (text, v) in [
            ("", Variants::NONE),
            (
                "kontra",
                Variants {
                    kontra: true,
                    ..Variants::NONE
                },
            ),
            (
                "bock,kontra",
                Variants {
                    kontra: true,
                    bock: true,
                    ..Variants::NONE
                },
            ),
        ] {
            let p = Variants::parse(text).unwrap();
            assert_eq!(p, v);
            assert_eq!(Variants::parse(&p.to_string()).unwrap(), v);
        }
        assert!(Variants::parse("ramsh").is_err());
        let s = Variants::parse("schieberamsch").unwrap();
        assert!(s.ramsch && s.schieberamsch);
        assert_eq!(s.to_string(), "schieberamsch");
        assert_eq!(
            Variants::parse("ramsch kontra").unwrap().to_string(),
            "kontra ramsch"
        );
        assert!(Variants::parse("kontra kontra").is_err());
    }

    #[test]
    fn multipliers() {
        let k = Variants {
            kontra: true,
            ..Variants::NONE
        };
        assert_eq!(k.multiplier(0), 1);
        assert_eq!(k.multiplier(1), 2);
        assert_eq!(k.multiplier(2), 4);
        let b = Variants { bock: true, ..k };
        assert_eq!(b.multiplier(2), 8);
    }
}

#[cfg(test)]
mod game_tests {
    use super::*;
    use crate::action::Action;
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::record::Record;

    /// Forehand plays at 18 after two passes and declares grand hand; returns the game.
    fn grand_hand(seed: u64, v: Variants) -> Game {
        let mut g = Game::with_variants(Deal::random(seed), v);
        for t in ["p", "p", "18", "GH"] {
            g.apply_token(t).unwrap();
        }
        g
    }

    fn first_card(g: &Game) -> Action {
        *g.legal_actions().iter().find(|a| a.is_card_play()).unwrap()
    }

    #[test]
    fn without_the_variant_nobody_may_double() {
        let mut g = grand_hand(3, Variants::NONE);
        while !g.is_over() {
            assert!(!g.legal_actions().contains(&Action::Kontra));
            assert!(g.clone().apply(Action::Kontra).is_err());
            let a = first_card(&g);
            g.apply(a).unwrap();
        }
        assert_eq!(g.result().unwrap().kontra, 0);
    }

    #[test]
    fn kontra_windows_and_doubling() {
        let v = Variants::parse("kontra").unwrap();
        let mut g = grand_hand(5, v);
        // forehand is the declarer and leads: no Kontra, no Re for her
        assert_eq!(g.to_move(), Some(0));
        assert!(!g.legal_actions().contains(&Action::Kontra));
        assert!(g.clone().apply(Action::Re).is_err());
        g.apply(first_card(&g)).unwrap();
        // middlehand, a defender before her first card: Kontra; it does not pass the turn
        assert!(g.legal_actions().contains(&Action::Kontra));
        g.apply(Action::Kontra).unwrap();
        assert_eq!((g.to_move(), g.kontra()), (Some(1), 1));
        assert!(!g.legal_actions().contains(&Action::Kontra));
        assert!(g.clone().apply(Action::Kontra).is_err());
        g.apply(first_card(&g)).unwrap();
        // rearhand may not say Kontra again
        assert!(!g.legal_actions().contains(&Action::Kontra));
        g.apply(first_card(&g)).unwrap();
        // the declarer's next turn, before her next card: Re
        let mut with_re = g.clone();
        while with_re.to_move() != Some(0) {
            with_re.apply(first_card(&with_re)).unwrap();
        }
        assert!(with_re.legal_actions().contains(&Action::Re));
        let mut no_re = with_re.clone();
        with_re.apply(Action::Re).unwrap();
        assert_eq!(with_re.kontra(), 2);
        assert!(!with_re.legal_actions().contains(&Action::Re));
        // once she plays a card without answering, the Re window is closed
        no_re.apply(first_card(&no_re)).unwrap();
        while !no_re.is_over() {
            assert!(!no_re.legal_actions().contains(&Action::Re));
            no_re.apply(first_card(&no_re)).unwrap();
        }
        while !with_re.is_over() {
            with_re.apply(first_card(&with_re)).unwrap();
        }
        // the same deal and card play without doubling, for the base value
        let mut plain = grand_hand(5, v);
        let cards: Vec<Action> = with_re
            .history()
            .iter()
            .map(|m| m.action)
            .filter(Action::is_card_play)
            .collect();
        for a in cards {
            plain.apply(a).unwrap();
        }
        let (r, r0) = (with_re.result().unwrap(), plain.result().unwrap());
        assert_eq!(r.kontra, 2);
        assert_eq!(r.value, 4 * r0.value);
        let d = r.declarer.unwrap() as usize;
        assert_eq!(r.scores[d], r.value + if r.won { 50 } else { -50 });
        // the record carries the variant and the announcements
        let line = crate::record::write(&with_re);
        assert!(line.contains("VA[kontra]") && line.contains(" KO ") && line.contains(" RK "));
        let back = Record::parse(&line).unwrap().replay().unwrap();
        assert_eq!(back.result(), with_re.result());
        assert!(back.record_differences().is_empty());
    }

    #[test]
    fn a_defender_who_played_may_not_say_kontra_and_bock_doubles() {
        let v = Variants::parse("kontra bock").unwrap();
        // middlehand declares: forehand leads as a defender
        let mut g = Game::with_variants(Deal::random(8), v);
        for t in ["18", "p", "p", "GH"] {
            g.apply_token(t).unwrap();
        }
        assert_eq!(g.declarer(), Some(1));
        assert!(g.legal_actions().contains(&Action::Kontra));
        g.apply(first_card(&g)).unwrap();
        // the declarer: nothing; then rearhand may
        assert!(!g.legal_actions().contains(&Action::Kontra));
        g.apply(first_card(&g)).unwrap();
        assert!(g.legal_actions().contains(&Action::Kontra));
        g.apply(first_card(&g)).unwrap();
        // after the first trick nobody may
        while !g.is_over() {
            assert!(!g.legal_actions().contains(&Action::Kontra));
            g.apply(first_card(&g)).unwrap();
        }
        let r = g.result().unwrap();
        assert!(r.bock && r.kontra == 0);
        let mut plain = Game::new(Deal::random(8));
        for m in g.history() {
            plain.apply(m.action).unwrap();
        }
        assert_eq!(r.value, 2 * plain.result().unwrap().value);
        assert!(r.to_iss().ends_with(" bo:1"));
    }

    #[test]
    fn bock_events_of_results() {
        use crate::cards::Cards;
        use crate::result::tests::outcome;
        use crate::result::EndReason;
        use crate::rules::{Contract, GameType};
        let twelve = Cards::parse("CJ").unwrap();
        let k = Contract::plain(GameType::Hearts);
        let lost60 = GameResult::value_game(0, k, 18, twelve, outcome(60, 5), EndReason::Played);
        assert_eq!(bock_events(&lost60), vec![BOCK_SIXTY]);
        let won = GameResult::value_game(0, k, 18, twelve, outcome(61, 5), EndReason::Played);
        assert!(bock_events(&won).is_empty());
        assert_eq!(bock_events(&won.with_doubling(2, false)), vec![BOCK_RE]);
        let grand = Contract::plain(GameType::Grand);
        let g4 = GameResult::value_game(
            0,
            grand,
            18,
            Cards::parse("CJ SJ HJ").unwrap(),
            outcome(95, 9),
            EndReason::Played,
        );
        // grand with 3, game 4, schneider 5: 120
        assert_eq!(g4.value, 120);
        assert_eq!(bock_events(&g4), vec![BOCK_HIGH]);
        // Bock's own doubling does not count
        let small = won.with_doubling(0, true);
        assert!(bock_events(&small).is_empty());
        assert!(bock_events(&GameResult::passed()).is_empty());
    }

    #[test]
    fn all_passing_plays_a_ramsch_and_records_it() {
        let v = Variants::parse("ramsch").unwrap();
        let mut g = Game::with_variants(Deal::random(21), v);
        for t in ["p", "p", "p"] {
            g.apply_token(t).unwrap();
        }
        assert!(g.is_ramsch() && g.declarer().is_none());
        assert_eq!(
            (g.phase(), g.to_move()),
            (crate::game::Phase::Playing, Some(0))
        );
        // nobody says Kontra, claims or resigns in a Ramsch
        let mut k =
            Game::with_variants(Deal::random(21), Variants::parse("kontra ramsch").unwrap());
        for t in ["p", "p", "p"] {
            k.apply_token(t).unwrap();
        }
        assert!(!k.legal_actions().contains(&Action::Kontra));
        assert!(k.clone().apply(Action::Resign).is_err());
        while !g.is_over() {
            g.apply(first_card(&g)).unwrap();
        }
        let r = g.result().unwrap();
        let o = r.ramsch.unwrap();
        let total: u32 = o.points.iter().map(|&p| p as u32).sum();
        assert_eq!(total, 120);
        assert_eq!(o.tricks.iter().map(|&t| t as u32).sum::<u32>(), 10);
        let line = crate::record::write(&g);
        assert!(line.contains("VA[ramsch]") && line.contains("R[ramsch v:"));
        let back = Record::parse(&line).unwrap().replay().unwrap();
        assert_eq!(back.result(), g.result());
        assert!(back.record_differences().is_empty());
        // without the variant the same auction is passed in
        let mut plain = Game::new(Deal::random(21));
        for t in ["p", "p", "p"] {
            plain.apply_token(t).unwrap();
        }
        assert!(plain.is_over() && plain.result().unwrap().ramsch.is_none());
    }

    #[test]
    fn schieberamsch_pushes_double_and_no_jack_is_pushed() {
        let v = Variants::parse("schieberamsch").unwrap();
        let mut g = Game::with_variants(Deal::random(30), v);
        for t in ["p", "p", "p"] {
            g.apply_token(t).unwrap();
        }
        use crate::game::Phase;
        assert_eq!((g.phase(), g.to_move()), (Phase::SkatDecision, Some(0)));
        assert_eq!(g.legal_actions(), vec![Action::PickUp, Action::Pass]);
        // forehand looks and pushes; a jack may not be pushed
        let skat = g.skat();
        g.apply(Action::PickUp).unwrap();
        assert_eq!(g.found_skats(), &[skat]);
        let jacks: Vec<_> = g
            .hand(0)
            .iter()
            .filter(|c| c.rank() == crate::cards::Rank::Jack)
            .collect();
        for a in g.legal_actions() {
            let Action::Discard(d) = a else { panic!("{a}") };
            assert!(jacks.iter().all(|j| !d.contains(*j)));
        }
        if let Some(&j) = jacks.first() {
            let other = g.hand(0).iter().find(|&c| c != j).unwrap();
            let bad = Action::Discard(crate::cards::Cards::EMPTY.with(j).with(other));
            assert!(g.clone().apply(bad).is_err());
        }
        let push = g.legal_actions()[0];
        g.apply(push).unwrap();
        // middlehand passes it on unseen, rearhand looks and pushes
        assert_eq!(g.to_move(), Some(1));
        g.apply(Action::Pass).unwrap();
        g.apply(Action::PickUp).unwrap();
        let Action::Discard(pushed0) = push else {
            unreachable!()
        };
        assert_eq!(g.found_skats()[1], pushed0);
        // the views: rearhand knows what it found and pushed; forehand sees neither
        let v2 = g.view(2);
        assert_eq!(v2.skat, Some(pushed0));
        let push2 = *g.legal_actions().last().unwrap();
        g.apply(push2).unwrap();
        assert_eq!((g.phase(), g.to_move()), (Phase::Playing, Some(0)));
        assert!(!g.view(0).history.iter().any(|m| m.action == push2));
        while !g.is_over() {
            g.apply(first_card(&g)).unwrap();
        }
        let r = g.result().unwrap();
        assert_eq!(r.ramsch.unwrap().pushes, 2);
        // the same cards with the final skat and no pushes score a quarter
        let o = r.ramsch.unwrap();
        let plain = crate::ramsch::value_ramsch(
            o.points.map(|p| p as u32),
            o.tricks.map(|t| t as u32),
            0,
            false,
        );
        assert_eq!(r.value, 4 * plain.value);
        let back = Record::parse(&crate::record::write(&g))
            .unwrap()
            .replay()
            .unwrap();
        assert_eq!(back.result(), g.result());
    }
}
