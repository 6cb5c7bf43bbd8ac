//! The one error type of the core. The Python bindings map each variant to a subclass of
//! `skat.SkatError` (itself a `ValueError`).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkatError {
    /// A token that is not a card, contract, action, ... (`what` names the expected kind).
    Parse { what: &'static str, input: String },
    /// A set of cards that breaks a rule (duplicates, wrong size, cards from nowhere).
    InvalidCards(String),
    /// A contract that cannot be declared (e.g. null with schneider, suit schneider without hand).
    InvalidContract(String),
    /// An action that is not legal in the current state.
    IllegalAction {
        action: String,
        phase: String,
        to_move: Option<u8>,
        legal: Vec<String>,
    },
    /// A malformed or inconsistent ISS record.
    Record {
        id: String,
        position: usize,
        message: String,
    },
    /// A position or other argument the solver cannot accept.
    InvalidPosition(String),
    /// Memory that cannot be had, e.g. a transposition table larger than the machine holds.
    OutOfMemory(String),
    /// A count beyond its limit (worlds, positions, ...): more than any use needs, and more
    /// memory than a machine has.
    TooMany(String),
}

impl SkatError {
    pub fn parse(what: &'static str, input: &str) -> SkatError {
        SkatError::Parse {
            what,
            input: input.to_string(),
        }
    }
}

impl fmt::Display for SkatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkatError::Parse { what, input } => write!(f, "not a valid {what}: {input:?}"),
            SkatError::InvalidCards(m) => write!(f, "{m}"),
            SkatError::InvalidContract(m) => write!(f, "invalid contract: {m}"),
            SkatError::IllegalAction {
                action,
                phase,
                to_move,
                legal,
            } => {
                let who = match to_move {
                    Some(s) => format!("seat {s} to move"),
                    None => "nobody to move".to_string(),
                };
                let shown: Vec<&str> = legal.iter().take(70).map(String::as_str).collect();
                let more = if legal.len() > shown.len() {
                    format!(" ... ({} in all)", legal.len())
                } else {
                    String::new()
                };
                write!(
                    f,
                    "illegal action {action:?} in phase {phase} ({who}); legal: [{}]{more}",
                    shown.join(", ")
                )
            }
            SkatError::Record {
                id,
                position,
                message,
            } => {
                write!(f, "record {id}: move {position}: {message}")
            }
            SkatError::InvalidPosition(m) => write!(f, "invalid position: {m}"),
            SkatError::OutOfMemory(m) | SkatError::TooMany(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for SkatError {}
