//! Integer, text and path arguments. PyO3 turns a Python int outside a `u8`..`u64` or `i32`/`i64` argument's
//! range into an `OverflowError`; the bindings read such arguments through these functions
//! (`#[pyo3(from_py_with = "...")]`) instead, so that every invalid input raises a
//! `skat.SkatError` (here `ArgumentError`, naming the value and the range). Anything that is
//! not an int at all still raises PyO3's `TypeError`.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use skat_core::rules::MAX_MATADORS;

use crate::error::{ArgumentError, ParseError, TablesError};

/// `ob` as a `T` in `min..=max` (a range inside `T`'s).
fn ranged<T: TryFrom<i128>>(ob: &Bound<'_, PyAny>, min: i128, max: i128) -> PyResult<T> {
    let out_of_range =
        || ArgumentError::new_err(format!("{ob} is not an integer in {min}..={max}"));
    let v: i128 = match ob.extract() {
        Ok(v) => v,
        Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => return Err(out_of_range()),
        Err(e) => return Err(e),
    };
    if !(min..=max).contains(&v) {
        return Err(out_of_range());
    }
    T::try_from(v).map_err(|_| out_of_range())
}

pub fn u8_arg(ob: &Bound<'_, PyAny>) -> PyResult<u8> {
    ranged(ob, 0, u8::MAX as i128)
}

pub fn u16_arg(ob: &Bound<'_, PyAny>) -> PyResult<u16> {
    ranged(ob, 0, u16::MAX as i128)
}

pub fn u32_arg(ob: &Bound<'_, PyAny>) -> PyResult<u32> {
    ranged(ob, 0, u32::MAX as i128)
}

pub fn u64_arg(ob: &Bound<'_, PyAny>) -> PyResult<u64> {
    ranged(ob, 0, u64::MAX as i128)
}

pub fn usize_arg(ob: &Bound<'_, PyAny>) -> PyResult<usize> {
    ranged(ob, 0, usize::MAX as i128)
}

pub fn i32_arg(ob: &Bound<'_, PyAny>) -> PyResult<i32> {
    ranged(ob, i32::MIN as i128, i32::MAX as i128)
}

pub fn i64_arg(ob: &Bound<'_, PyAny>) -> PyResult<i64> {
    ranged(ob, i64::MIN as i128, i64::MAX as i128)
}

/// A list of `T` in `min..=max` (any sequence of ints but a string).
fn ranged_list<T: TryFrom<i128>>(ob: &Bound<'_, PyAny>, min: i128, max: i128) -> PyResult<Vec<T>> {
    let items: Vec<Bound<'_, PyAny>> = ob.extract()?;
    items.iter().map(|x| ranged(x, min, max)).collect()
}

pub fn u8_list_arg(ob: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    ranged_list(ob, 0, u8::MAX as i128)
}

pub fn u16_list_arg(ob: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
    ranged_list(ob, 0, u16::MAX as i128)
}

pub fn u32_list_arg(ob: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    ranged_list(ob, 0, u32::MAX as i128)
}

pub fn usize_list_arg(ob: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    ranged_list(ob, 0, usize::MAX as i128)
}

/// A signed matador count: with or without at most [`MAX_MATADORS`].
pub fn matadors_arg(ob: &Bound<'_, PyAny>) -> PyResult<i32> {
    ranged(ob, -(MAX_MATADORS as i128), MAX_MATADORS as i128)
}

/// An optional seat or small number: `None` stays `None`.
pub fn opt_u8_arg(ob: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if ob.is_none() {
        Ok(None)
    } else {
        u8_arg(ob).map(Some)
    }
}

/// The text of a Python `str` as UTF-8. A string that has none (a lone surrogate such as
/// `"\ud800"`, which `surrogateescape` decoding leaves for undecodable bytes) raises
/// `skat.ParseError` instead of PyO3's `UnicodeEncodeError`.
pub fn text<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    s.to_cow().map_err(|_| {
        let shown = s.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
        ParseError::new_err(format!("not valid text (a lone surrogate): {shown}"))
    })
}

/// A text argument (a `str`; anything else raises `TypeError`), read by [`text`].
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Text(pub String);

impl<'py> FromPyObject<'py> for Text {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let s = ob.downcast::<PyString>().map_err(|_| {
            let kind = ob
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            PyTypeError::new_err(format!("expected a str, got {kind}"))
        })?;
        Ok(Text(text(s)?.into_owned()))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(s.to_string())
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// A file or directory argument: a `str`, `bytes` or path-like object, encoded as
/// `os.fsencode` does. A name the file system encoding cannot hold (a lone surrogate outside
/// `surrogateescape`'s range) raises `skat.TablesError` (PyO3's own `PathBuf` conversion
/// panicked on it).
pub struct PathArg(pub std::path::PathBuf);

impl<'py> FromPyObject<'py> for PathArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let os = ob.py().import("os")?;
        let path = os.call_method1("fspath", (ob,))?;
        let bytes = os.call_method1("fsencode", (&path,)).map_err(|e| {
            if e.is_instance_of::<PyUnicodeEncodeError>(ob.py()) {
                let shown = path
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string());
                TablesError::new_err(format!("not a valid file name: {shown}"))
            } else {
                e
            }
        })?;
        let bytes = bytes.downcast::<pyo3::types::PyBytes>()?.as_bytes();
        #[cfg(unix)]
        let p = {
            use std::os::unix::ffi::OsStrExt;
            std::path::PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
        };
        #[cfg(not(unix))]
        let p = std::path::PathBuf::from(String::from_utf8_lossy(bytes).into_owned());
        Ok(PathArg(p))
    }
}
