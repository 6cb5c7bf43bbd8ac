//! Integer arguments. PyO3 turns a Python int outside a `u8`..`u64` or `i32`/`i64` argument's
//! range into an `OverflowError`; the bindings read such arguments through these functions
//! (`#[pyo3(from_py_with = "...")]`) instead, so that every invalid input raises a
//! `skat.SkatError` (here `ArgumentError`, naming the value and the range). Anything that is
//! not an int at all still raises PyO3's `TypeError`.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

use skat_core::rules::MAX_MATADORS;

use crate::error::ArgumentError;

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
