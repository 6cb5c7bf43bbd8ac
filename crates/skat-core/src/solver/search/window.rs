//! Bounds and windows of a node: what a search of its moves with a window proves about its
//! value, and when known bounds already decide a window. Fail-soft throughout: a value at or
//! below the window's lower end is an upper bound, one at or above its upper end a lower
//! bound, one inside it exact; bounds stay ordered (`lo <= hi`).

/// The bounds `[lo, hi]` of a node narrowed by the result `best` of a search of its moves
/// with the window `(a, b)`.
#[inline]
pub(super) fn searched_bounds(lo: i32, hi: i32, a: i32, b: i32, best: i32) -> (i32, i32) {
    let (nlo, nhi) = if best <= a {
        (lo, hi.min(best))
    } else if best >= b {
        (lo.max(best), hi)
    } else {
        (best, best)
    };
    debug_assert!(nlo <= nhi, "inconsistent bounds {nlo} {nhi}");
    (nlo, nhi)
}

/// The value to return at once when the bounds `[lo, hi]` of a node decide the window
/// `(alpha, beta)` (or meet), else `None`.
#[inline]
pub(super) fn decided(lo: i32, hi: i32, alpha: i32, beta: i32) -> Option<i32> {
    if lo >= beta || lo >= hi {
        Some(lo)
    } else if hi <= alpha {
        Some(hi)
    } else {
        None
    }
}

/// The fail-soft value returned for the narrowed bounds of [`searched_bounds`].
#[inline]
pub(super) fn fail_soft(nlo: i32, nhi: i32, best: i32, a: i32) -> i32 {
    if nlo >= nhi {
        nlo
    } else if best <= a {
        nhi
    } else {
        nlo
    }
}
