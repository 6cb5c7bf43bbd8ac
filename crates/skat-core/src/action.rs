//! Actions: everything a seat (or the table) can do, each with its ISS move token.

use std::fmt;

use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::rules::{is_legal_bid, Contract};

/// One move of a deal. `str()` of an action is its ISS token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Name a bid (`"18"`); also forehand's "play at 18" after two passes.
    Bid(u16),
    /// Hold the bid named to you (`"y"`).
    Hold,
    /// Pass (`"p"`).
    Pass,
    /// Pick up the skat (`"s"`).
    PickUp,
    /// Put two cards away after a pick-up (`"ST.H8"`).
    Discard(Cards),
    /// Declare a contract (`"GH"`, `"D"`); with a discard it is the combined ISS token
    /// `"D.ST.H8"` that discards and declares at once.
    Declare(Contract, Option<Cards>),
    /// Play a card (`"CJ"`).
    Play(Card),
    /// The declarer shows her cards and claims the remaining tricks (`"SC"`).
    Claim,
    /// Resign (`"RE"`): by the declarer, the game is lost; by a defender, a concession that
    /// ends the game once both defenders have made it.
    Resign,
    /// The table reports that a seat ran out of time (`"TI.n"`).
    TimeOut(u8),
    /// The table reports that a seat left (`"LE.n"`).
    Leave(u8),
    /// A card that the record hides (`"??"`); card play cannot go on after it.
    Hidden,
    /// A defender doubles the game (`"KO"`; only with the Kontra variant, `crate::variants`).
    Kontra,
    /// The declarer answers a Kontra and doubles again (`"RK"`).
    Re,
}

impl Action {
    /// Parses an ISS move token.
    pub fn parse(token: &str) -> Result<Action, SkatError> {
        let t = token.trim();
        match t {
            "y" => return Ok(Action::Hold),
            "p" => return Ok(Action::Pass),
            "s" => return Ok(Action::PickUp),
            "SC" => return Ok(Action::Claim),
            "RE" => return Ok(Action::Resign),
            "??" => return Ok(Action::Hidden),
            "KO" => return Ok(Action::Kontra),
            "RK" => return Ok(Action::Re),
            _ => {}
        }
        if let Ok(v) = t.parse::<u16>() {
            if is_legal_bid(v) {
                return Ok(Action::Bid(v));
            }
            return Err(SkatError::parse("bid (18, 20, 22, 23, ... 264)", t));
        }
        if let Some(rest) = t.strip_prefix("TI.").or_else(|| t.strip_prefix("LE.")) {
            let seat: u8 = rest.parse().map_err(|_| SkatError::parse("action", t))?;
            if seat > 2 {
                return Err(SkatError::parse("action", t));
            }
            return Ok(if t.starts_with("TI") {
                Action::TimeOut(seat)
            } else {
                Action::Leave(seat)
            });
        }
        if t.len() == 2 {
            if let Ok(c) = Card::parse(t) {
                return Ok(Action::Play(c));
            }
        }
        let parts: Vec<&str> = t.split('.').collect();
        match parts.as_slice() {
            [a, b] if a.len() == 2 && b.len() == 2 => {
                if let (Ok(x), Ok(y)) = (Card::parse(a), Card::parse(b)) {
                    if x != y {
                        return Ok(Action::Discard(Cards::EMPTY.with(x).with(y)));
                    }
                    return Err(SkatError::parse("discard of two different cards", t));
                }
            }
            [c] => {
                if let Ok(k) = Contract::parse(c) {
                    return Ok(Action::Declare(k, None));
                }
            }
            [c, a, b] => {
                let k = Contract::parse(c).map_err(|_| SkatError::parse("action", t))?;
                let (x, y) = (Card::parse(a)?, Card::parse(b)?);
                if x == y {
                    return Err(SkatError::parse("discard of two different cards", t));
                }
                return Ok(Action::Declare(k, Some(Cards::EMPTY.with(x).with(y))));
            }
            _ => {}
        }
        Err(SkatError::parse("action", t))
    }

    pub fn is_card_play(&self) -> bool {
        matches!(self, Action::Play(_))
    }

    /// Special moves (claims, resignations, time-outs, hidden cards) that are never among the
    /// legal actions offered to a player but are accepted from records and front ends.
    pub fn is_special(&self) -> bool {
        matches!(
            self,
            Action::Claim | Action::Resign | Action::TimeOut(_) | Action::Leave(_) | Action::Hidden
        )
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(v) => write!(f, "{v}"),
            Action::Hold => f.write_str("y"),
            Action::Pass => f.write_str("p"),
            Action::PickUp => f.write_str("s"),
            Action::Discard(c) => f.write_str(&c.to_tokens(".")),
            Action::Declare(k, None) => f.write_str(&k.token()),
            Action::Declare(k, Some(d)) => write!(f, "{}.{}", k.token(), d.to_tokens(".")),
            Action::Play(c) => write!(f, "{c}"),
            Action::Claim => f.write_str("SC"),
            Action::Resign => f.write_str("RE"),
            Action::TimeOut(s) => write!(f, "TI.{s}"),
            Action::Leave(s) => write!(f, "LE.{s}"),
            Action::Hidden => f.write_str("??"),
            Action::Kontra => f.write_str("KO"),
            Action::Re => f.write_str("RK"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for t in [
            "18", "264", "y", "p", "s", "ST.H8", "D", "GH", "CHZ", "GO", "CO", "NOH", "NO", "NH",
            "N", "GHS", "D.ST.H8", "G.S8.C9", "NO.HA.HQ", "CJ", "D7", "SC", "RE", "TI.2", "LE.0",
            "??", "KO", "RK",
        ] {
            let a = Action::parse(t).unwrap();
            assert_eq!(Action::parse(&a.to_string()).unwrap(), a, "{t}");
        }
        assert_eq!(Action::parse("D.ST.H8").unwrap().to_string(), "D.ST.H8");
        assert_eq!(Action::parse("NHO").unwrap().to_string(), "NOH");
        for bad in [
            "19",
            "0",
            "X",
            "CJ.CJ",
            "TI.3",
            "",
            "G.CJ",
            "CJ.SJ.HJ.DJ",
            "GX",
        ] {
            assert!(Action::parse(bad).is_err(), "{bad}");
        }
    }
}
