//! The one place where core errors become Python exceptions. Every class derives from
//! `skat.SkatError`, itself a `ValueError`.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use skat_core::SkatError as CoreError;

create_exception!(
    _core,
    SkatError,
    PyValueError,
    "Base class of every error raised by skat."
);
create_exception!(
    _core,
    ParseError,
    SkatError,
    "A token that is not a card, contract or action."
);
create_exception!(
    _core,
    InvalidCardsError,
    SkatError,
    "Cards that break a rule: duplicates, wrong counts."
);
create_exception!(
    _core,
    ContractError,
    SkatError,
    "A contract that cannot be declared."
);
create_exception!(
    _core,
    IllegalActionError,
    SkatError,
    "An action that is not legal now; names the action, the phase and the legal actions."
);
create_exception!(
    _core,
    RecordError,
    SkatError,
    "A malformed or inconsistent ISS record; names the record id and the bad move's position."
);
create_exception!(
    _core,
    PositionError,
    SkatError,
    "A solver position that is not valid."
);

create_exception!(
    _core,
    ArgumentError,
    SkatError,
    "A number argument outside its range: a negative count or seed, a seat beyond 2, a value too large for the engine."
);

create_exception!(
    _core,
    TablesError,
    SkatError,
    "A missing, damaged or inconsistent endgame lookup table, or a bad table request."
);

pub fn to_py(e: CoreError) -> PyErr {
    let msg = e.to_string();
    match e {
        CoreError::Parse { .. } => ParseError::new_err(msg),
        CoreError::InvalidCards(_) => InvalidCardsError::new_err(msg),
        CoreError::InvalidContract(_) => ContractError::new_err(msg),
        CoreError::IllegalAction { .. } => IllegalActionError::new_err(msg),
        CoreError::Record { .. } => RecordError::new_err(msg),
        CoreError::InvalidPosition(_) => PositionError::new_err(msg),
        CoreError::OutOfMemory(_) | CoreError::TooMany(_) => ArgumentError::new_err(msg),
    }
}

pub trait IntoPyResult<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, CoreError> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SkatError", py.get_type::<SkatError>())?;
    m.add("TablesError", py.get_type::<TablesError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("InvalidCardsError", py.get_type::<InvalidCardsError>())?;
    m.add("ContractError", py.get_type::<ContractError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    Ok(())
}
