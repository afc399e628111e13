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

/// `maxnumf` / `minnumf`: a NaN operand loses to a number. For +0 and -0
/// MLIR and LLVM allow either; this picks as `maximumf` does (-0 < +0) and
/// counts the choice (see [`unspecified_choices`]).
#[inline]
pub fn maxnumf(a: Float, b: Float, max: bool) -> Float {
    match (float::is_nan(a), float::is_nan(b)) {
        (true, _) => b,
        (_, true) => a,
        _ => {
            if float::is_zero(a) && float::is_zero(b) && a.bits != b.bits {
                UNSPECIFIED.with(|c| c.set(c.get() + 1));
            }
            maximumf(a, b, max)
        }
    }
}

thread_local! {
    /// Choices the semantics made where the spec allows several results.
    static UNSPECIFIED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many unspecified choices (`maxnumf`/`minnumf` of +0 and -0) runs on
/// this thread have made so far: passcheck compares zero signs only where
/// a source run made none, since a target may choose the other way.
pub fn unspecified_choices() -> u64 {
    UNSPECIFIED.with(std::cell::Cell::get)
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

/// IEEE 754 `remainder(a, b)`: `a - n*b` with `n` the quotient rounded to
/// nearest, ties to even (APFloat's `remainder`; C's `fmod` truncates).
/// Computed as glibc does, from `fmod(a, 2b)` with exact steps.
pub fn ieee_remainder(a: Float, b: Float) -> Float {
    use float::Round::NearestEven as R;
    if float::is_nan(a) || float::is_nan(b) || float::is_inf(a) || float::is_zero(b) {
        return float::rem(a, b);
    }
    if float::is_inf(b) {
        return a;
    }
    let neg = float::is_negative(a);
    let p = float::abs(b);
    let two_p = float::add(p, p, R);
    // 2p may not exist (infinity, or NaN in a format without one).
    let mut x = if float::is_inf(two_p) || float::is_nan(two_p) { a } else { float::rem(a, two_p) };
    x = float::abs(x);
    // x in [0, 2p): bring it into [-p/2, p/2], ties to an even quotient.
    // `2x > p` is tested as `x > p/2` where halving is exact (a normal
    // p), so that doubling cannot overflow a narrow format.
    let half = float::convert(float::from_bits(float::FloatKind::F64, 0.5f64.to_bits().into()), p.kind, R).ok();
    let above = |u: Float, ties: bool| {
        let o = match half.filter(|_| float::is_normal(p)) {
            Some(h) => float::compare(u, float::mul(p, h, R)),
            None => float::compare(float::add(u, u, R), p),
        };
        matches!(o, float::Ordering::Greater) || ties && matches!(o, float::Ordering::Equal)
    };
    if above(x, false) {
        x = float::sub(x, p, R);
        if above(x, true) {
            x = float::sub(x, p, R);
        }
    }
    if neg {
        float::neg(x)
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::FloatKind;

    fn f(x: f64) -> Float {
        float::from_bits(FloatKind::F64, u128::from(x.to_bits()))
    }

    fn g(x: Float) -> f64 {
        f64::from_bits(x.bits as u64)
    }

    /// IEEE remainder: the quotient rounds to nearest, ties to even.
    #[test]
    fn ieee_remainder_rounds_the_quotient_to_nearest_even() {
        assert_eq!(g(ieee_remainder(f(5.0), f(2.0))), 1.0); // 2.5 -> 2
        assert_eq!(g(ieee_remainder(f(7.0), f(2.0))), -1.0); // 3.5 -> 4
        assert_eq!(g(ieee_remainder(f(-5.0), f(2.0))), -1.0);
        assert_eq!(g(ieee_remainder(f(5.5), f(2.0))), -0.5); // 2.75 -> 3
                                                             // In a format without infinity, 2x would overflow: 448 rem 300.
        let k = FloatKind::F8E4M3FN;
        let c = |x: f64| float::convert(f(x), k, float::Round::NearestEven).unwrap();
        let r = ieee_remainder(c(448.0), c(288.0));
        // 448 / 288 = 1.56 rounds to 2: 448 - 576.
        assert_eq!(g(float::convert(r, FloatKind::F64, float::Round::NearestEven).unwrap()), -128.0);
    }
}
