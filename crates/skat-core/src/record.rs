//! ISS game records (`(;GM[Skat]...MV[...]R[...] ;)`, one per line): reading, replaying
//! through the rules, and writing.
//!
//! Replaying applies every move through [`Game::apply_by`], so an illegal move in a record is a
//! [`SkatError::Record`] naming the record id and the move's position. Record-level decisions:
//! - `w XX.YY` after a pick-up shows the skat; it must match the skat found (the dealt one,
//!   or in Schieberamsch what the seats before pushed on).
//! - A bare declaration followed by a separate discard move (`0 G 0 SK.S7`, newer ISS) is read
//!   as the combined token `G.SK.S7`.
//! - A complete record that ends while a defender's resignation is pending ends as conceded by
//!   the defenders: ISS2 logs only the first defender's acceptance of a claim.

use crate::action::Action;
use crate::deal::Deal;
use crate::error::SkatError;
use crate::game::{Actor, Game};
use crate::result::{EndReason, IssResult};
use crate::variants::Variants;

/// The text of one record, split into its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Every `KEY[value]` field in order (including `MV` and `R`).
    pub fields: Vec<(String, String)>,
    /// The `MV` moves as (who, token) pairs.
    pub moves: Vec<(String, String)>,
    /// The parsed `R[...]`, or `None` for a game still in progress (no or empty `R`).
    pub result: Option<IssResult>,
}

impl Record {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The record's `ID`, or `"?"`.
    pub fn id(&self) -> String {
        self.get("ID").unwrap_or("?").to_string()
    }

    /// Parses one record line.
    pub fn parse(line: &str) -> Result<Record, SkatError> {
        let t = line.trim();
        let err = |position: usize, message: String| SkatError::Record {
            id: find_id(t).unwrap_or_else(|| "?".into()),
            position,
            message,
        };
        let body = t
            .strip_prefix("(;")
            .and_then(|s| s.strip_suffix(")"))
            .map(|s| s.trim_end())
            .and_then(|s| s.strip_suffix(';'))
            .ok_or_else(|| err(0, "a record starts with '(;' and ends with ';)'".into()))?;
        let mut fields = Vec::new();
        let bytes: Vec<char> = body.chars().collect();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            if i == start || i >= bytes.len() || bytes[i] != '[' {
                return Err(err(0, format!("expected KEY[value] at character {start}")));
            }
            let key: String = bytes[start..i].iter().collect();
            i += 1;
            let mut value = String::new();
            loop {
                match bytes.get(i) {
                    None => return Err(err(0, format!("field {key} is not closed with ']'"))),
                    Some('\\') if i + 1 < bytes.len() => {
                        value.push(bytes[i + 1]);
                        i += 2;
                    }
                    Some(']') => {
                        i += 1;
                        break;
                    }
                    Some(&c) => {
                        value.push(c);
                        i += 1;
                    }
                }
            }
            fields.push((key, value));
        }
        let gm = fields
            .iter()
            .find(|(k, _)| k == "GM")
            .map(|(_, v)| v.as_str());
        if gm != Some("Skat") {
            return Err(err(0, "not a Skat record (GM[Skat] missing)".into()));
        }
        let mv = fields
            .iter()
            .find(|(k, _)| k == "MV")
            .map(|(_, v)| v.clone())
            .ok_or_else(|| err(0, "no MV[...] field".into()))?;
        let toks: Vec<&str> = mv.split_whitespace().collect();
        if !toks.len().is_multiple_of(2) {
            return Err(err(
                toks.len() / 2 + 1,
                format!("move {:?} has no token", toks[toks.len() - 1]),
            ));
        }
        let moves: Vec<(String, String)> = toks
            .chunks(2)
            .map(|p| (p[0].to_string(), p[1].to_string()))
            .collect();
        let result = match fields.iter().find(|(k, _)| k == "R").map(|(_, v)| v.trim()) {
            None | Some("") => None,
            Some(r) => {
                Some(IssResult::parse(r).map_err(|e| err(0, format!("bad result R[{r}]: {e}")))?)
            }
        };
        Ok(Record {
            fields,
            moves,
            result,
        })
    }

    /// Replays the moves through the rules. Positions in errors count moves from 1 (the deal).
    pub fn replay(&self) -> Result<Game, SkatError> {
        let id = self.id();
        let err = |position: usize, message: String| SkatError::Record {
            id: id.clone(),
            position,
            message,
        };
        let (who, tok) = self
            .moves
            .first()
            .ok_or_else(|| err(1, "MV is empty: no deal".into()))?;
        if who != "w" {
            return Err(err(
                1,
                format!("the first move must be the deal 'w ...', not {who:?}"),
            ));
        }
        let deal = Deal::parse_iss(tok).map_err(|e| err(1, format!("bad deal {tok:?}: {e}")))?;
        let variants = match self.get("VA") {
            Some(text) => Variants::parse(text)
                .map_err(|e| err(0, format!("bad variants VA[{text}]: {e}")))?,
            None => Variants::NONE,
        };
        let mut game = Game::with_variants(deal, variants);
        game.header = self
            .fields
            .iter()
            .filter(|(k, _)| k != "MV" && k != "R")
            .cloned()
            .collect();
        game.recorded_result = self.result.clone();
        let mut i = 1;
        while i < self.moves.len() {
            let (who, tok) = &self.moves[i];
            let pos = i + 1;
            let at = |e: SkatError| err(pos, format!("{who} {tok}: {e}"));
            if who == "w" {
                let last = game.history().last().map(|m| m.action);
                if tok.starts_with("TI.") || tok.starts_with("LE.") {
                    let a = Action::parse(tok).map_err(at)?;
                    game.apply_by(Actor::World, a).map_err(at)?;
                } else if last == Some(Action::PickUp) {
                    let shown = match Action::parse(tok) {
                        Ok(Action::Discard(c)) => c,
                        _ => {
                            return Err(err(pos, format!("w {tok}: expected the skat's two cards")))
                        }
                    };
                    let found = game.found_skats().last().copied().unwrap_or(deal.skat);
                    if shown != found {
                        return Err(err(
                            pos,
                            format!("w {tok}: the skat shown is not the skat found {found}"),
                        ));
                    }
                } else {
                    return Err(err(pos, format!("w {tok}: unexpected move of the table")));
                }
            } else {
                let seat: u8 = match who.as_str() {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    _ => {
                        return Err(err(
                            pos,
                            format!("unknown player {who:?} (expected w, 0, 1 or 2)"),
                        ))
                    }
                };
                let mut a = Action::parse(tok).map_err(at)?;
                if let (Action::Declare(k, None), crate::game::Phase::Discarding) =
                    (a, game.phase())
                {
                    if let Some((w2, t2)) = self.moves.get(i + 1) {
                        if let (true, Ok(Action::Discard(d))) = (w2 == who, Action::parse(t2)) {
                            a = Action::Declare(k, Some(d));
                            i += 1;
                        }
                    }
                }
                game.apply_by(Actor::Seat(seat), a).map_err(at)?;
            }
            i += 1;
        }
        if !game.is_over() && self.result.is_some() && game.concession_pending() {
            game.concede_to_declarer(EndReason::Conceded);
        }
        Ok(game)
    }
}

fn find_id(t: &str) -> Option<String> {
    let start = t.find("ID[")? + 3;
    let end = t[start..].find(']')? + start;
    Some(t[start..end].to_string())
}

/// Writes a game as one ISS record line. Header fields of a replayed record are kept.
pub fn write(game: &Game) -> String {
    let mut out = String::from("(;GM[Skat]");
    if game.header.is_empty() {
        out.push_str("PC[skat]P0[0]P1[1]P2[2]");
    }
    let variants = game.variants();
    if !variants.is_none() && !game.header.iter().any(|(k, _)| k == "VA") {
        out.push_str(&format!("VA[{variants}]"));
    }
    for (k, v) in &game.header {
        if k == "GM" {
            continue;
        }
        out.push_str(k);
        out.push('[');
        out.push_str(&v.replace('\\', "\\\\").replace(']', "\\]"));
        out.push(']');
    }
    out.push_str("MV[w ");
    out.push_str(&game.deal().to_iss());
    let history = game.history();
    let mut found = game.found_skats().iter();
    let mut i = 0;
    while i < history.len() {
        let m = history[i];
        let who = match m.actor {
            Actor::Seat(s) => s.to_string(),
            Actor::World => "w".into(),
        };
        let mut tok = m.action.to_string();
        if let Action::Discard(d) = m.action {
            if let Some(Action::Declare(k, None)) = history.get(i + 1).map(|n| n.action) {
                tok = Action::Declare(k, Some(d)).to_string();
                i += 1;
            }
        }
        out.push(' ');
        out.push_str(&who);
        out.push(' ');
        out.push_str(&tok);
        if m.action == Action::PickUp {
            out.push_str(" w ");
            let skat = found.next().copied().unwrap_or(game.deal().skat);
            out.push_str(&skat.to_tokens("."));
        }
        i += 1;
    }
    out.push_str(" ]R[");
    if let Some(r) = game.result() {
        out.push_str(&r.to_iss());
    }
    out.push_str("] ;)");
    out
}
