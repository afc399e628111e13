//! Float semantics beyond `crate::float`'s arithmetic: comparison
//! predicates, the min/max families, rounding-mode attributes and cast
//! targets, as pure functions.

use crate::float::{self, Float, Round};

/// `cmpf` with predicate `p` in enum order (false, oeq, ogt, oge, olt, ole,
/// one, ord, ueq, ugt, uge, ult, ule, une, uno, true).
#[inline]
pub fn cmpf(p: u8, a: Float, b: Float) -> bool {
    use float::Ordering::*;
    let o = float::compare(a, b);
    match p {
        0 => false,
        1 => o == Equal,
        2 => o == Greater,
        3 => matches!(o, Greater | Equal),
        4 => o == Less,
        5 => matches!(o, Less | Equal),
        6 => matches!(o, Less | Greater),
        7 => o != Unordered,
        8 => matches!(o, Unordered | Equal),
        9 => matches!(o, Unordered | Greater),
        10 => o != Less,
        11 => matches!(o, Unordered | Less),
        12 => o != Greater,
        13 => o != Equal,
        14 => o == Unordered,
        _ => true,
    }
}

/// `maximumf` (`max`) / `minimumf`: NaN wins; -0 < +0.
#[inline]
pub fn maximumf(a: Float, b: Float, max: bool) -> Float {
    if float::is_nan(a) {
        return a;
    }
    if float::is_nan(b) {
        return b;
    }
    match float::compare(a, b) {
        float::Ordering::Greater => {
            if max {
                a
            } else {
                b
            }
        }
        float::Ordering::Less => {
            if max {
                b
            } else {
                a
            }
        }
        _ => {
            // Equal: only ±0 differ; pick by sign.
            if float::is_negative(a) == max {
                b
            } else {
                a
            }
        }
    }
}

/// `maxnumf` / `minnumf`: a NaN operand loses to a number.
#[inline]
pub fn maxnumf(a: Float, b: Float, max: bool) -> Float {
    match (float::is_nan(a), float::is_nan(b)) {
        (true, _) => b,
        (_, true) => a,
        _ => maximumf(a, b, max),
    }
}

/// The rounding mode of `roundingmode` enum value `p`.
#[inline]
pub fn round_mode(p: u8) -> Round {
    match p {
        1 => Round::Down,
        2 => Round::Up,
        3 => Round::TowardZero,
        4 => Round::NearestAway,
        _ => Round::NearestEven,
    }
}

/// The target of a cast: an integer width or a float format.
#[derive(Clone, Copy, Debug)]
pub enum To {
    /// An integer (or index) of this width.
    Int(u32),
    /// A float format.
    Float(float::FloatKind),
}

/// `copysign(x, y)`: `x` with the sign of `y`. Formats whose zero or NaN
/// cannot be negative (FNUZ) keep them as they are, as APFloat's
/// `changeSign` does.
pub fn copysign(x: Float, y: Float) -> Float {
    if float::is_negative(x) == float::is_negative(y) {
        x
    } else {
        float::neg(x)
    }
}

/// `clampf(x, lo, hi) = maximumf(minimumf(x, lo), hi)` (MathOps.td).
pub fn clampf(x: Float, lo: Float, hi: Float) -> Float {
    let m = maximumf(x, lo, false);
    maximumf(m, hi, true)
}
