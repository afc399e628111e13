//! Floats of every builtin format, computed exactly and rounded once.
//!
//! Design after LLVM's `APFloat`: formats are data ([`format::Semantics`]),
//! every operation computes its exact result with big integers and calls the
//! single rounding routine (`round::round`), so `f64 -> f8` never passes
//! through `f32`. Overflow follows `handleOverflow` (inf, NaN where the
//! format has no inf, saturation where it has no NaN); NaN results are the
//! format's canonical quiet NaN with the sign APFloat gives them (the sign of
//! the NaN operand, positive for invalid operations).
//!
//! Where APFloat has no answer (it crashes) we pick one and say so:
//! - f4/f6 (no NaN, no inf): an invalid operation (0/0, sqrt(-1)) gives the
//!   negative-zero pattern, as XLA and ml_dtypes map NaN; division of a
//!   non-zero by zero saturates to the largest value. `convert` reports
//!   NaN/inf inputs as [`FloatError`]. Use [`has_nan`] to flag these results.
//! - f8E8M0FNU (no sign, no zero): a negative result is NaN; a zero result
//!   is the smallest value 2^-127, as APFloat's `normalize` makes it.
//!   `convert`/`from_int`/`parse_decimal` report zero and negatives as
//!   [`FloatError`]. Nearest ties round up (the significand's only bit is
//!   odd), as in APFloat and ml_dtypes; the contested alternatives
//!   (llvm#215295) are [`Round::TowardZero`] (exponent truncation) and
//!   [`Round::Up`], so the engine can report the rule it picked.
//!
//! For f32 and f64 under nearest-even rounding the host FPU computes
//! add/sub/mul/div/sqrt/fma (IEEE-exact there; NaN results are rebuilt
//! canonically by the generic path); [`exact`] offers the same operations
//! without it, for tests and differential runs.
//!
//! Beyond the engine contract (`FLOAT_API.md`) this module exposes the
//! format table ([`format::semantics`]), [`has_nan`] and [`has_inf`].
//!
//! Verified against: every encoding of the formats of 8 bits or fewer and
//! their rounding midpoints under all five modes, every fp8 add/sub/mul/div
//! pair (tables from ml_dtypes cross-checked by exact rational rounding,
//! `tools/float_refs/record.py`); LLVM 22's APFloat through mlir-runner on
//! every add/sub/mul/div pair of every format of 8 bits or fewer and the
//! f32 conversion midpoints (`tools/float_refs/record_apfloat.py`);
//! rustc_apfloat for f16, bf16, f32, f64, f80, f128, f8E5M2 and f8E4M3FN;
//! the host FPU for f32/f64; `half`.
//!
//! Beyond the basic operations: [`powi`] and [`rsqrt`] (correctly rounded),
//! [`libm`] (the math dialect's elementary functions, as mlir-runner
//! computes them), [`Policy`] (conversions with no defined result).

mod arith;
mod convert;
mod decimal;
pub mod format;
pub mod host;
pub mod libm;
mod power;
mod round;
#[cfg(test)]
mod tests;

pub use mlir_ir::types::FloatKind;

pub use arith::{add, div, fma, mul, rem, sqrt, sub};

/// The operations without the host fast path, so tests and differential
/// runs can check the exact path on f32/f64 against the host FPU.
pub mod exact {
    pub use super::arith::{add_sub_exact, div_exact, fma_exact, mul_exact, sqrt_exact};
}
pub use convert::{convert, from_int, round_to_integral, to_f64, to_int};
pub use decimal::{parse_decimal, parse_literal};
use format::{semantics, Val};
pub use power::{powi, rsqrt};

/// A float value of any builtin format: format plus raw encoding. Packed
/// to 8-byte alignment (24 bytes rather than 32) so values stay small.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, packed(8))]
pub struct Float {
    /// The format.
    pub kind: FloatKind,
    /// The encoding, in the low `kind.bit_width()` bits.
    pub bits: u128,
}

/// IEEE rounding modes, in arith's `roundingmode` enum order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even (`to_nearest_even` = 0).
    NearestEven,
    /// Toward negative infinity (`downward` = 1).
    Down,
    /// Toward positive infinity (`upward` = 2).
    Up,
    /// Toward zero (`toward_zero` = 3).
    TowardZero,
    /// To nearest, ties away from zero (`to_nearest_away` = 4).
    NearestAway,
}

/// Result of an IEEE comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// a < b.
    Less,
    /// a == b (including +0 == -0).
    Equal,
    /// a > b.
    Greater,
    /// A NaN is involved.
    Unordered,
}

/// What a conversion does with an input that has no defined result in the
/// target format (NaN or inf into f4/f6, zero or a negative value into
/// f8E8M0FNU), where APFloat crashes or computes garbage (SEMANTICS items
/// 24, 25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// Report it ([`FloatError`]; the engine's `NoDefinedResult`).
    #[default]
    Strict,
    /// The conventions of ml_dtypes 0.6 (XLA's are the same for these
    /// inputs): inf saturates to the largest finite value of its sign, NaN
    /// becomes the zero of the opposite sign (so the canonical +NaN is -0,
    /// bit pattern 0x8 in f4E2M1FN), and zero or negative values into
    /// f8E8M0FNU become its NaN 0xFF. The OCP MX specification leaves these
    /// conversions implementation-defined.
    Saturate,
}

/// [`convert()`] under `policy`.
pub fn convert_with(a: Float, to: FloatKind, r: Round, policy: Policy) -> Result<Float, FloatError> {
    convert(a, to, r).or_else(|e| saturate(policy, e, to, is_negative(a)))
}

/// [`from_int`] under `policy`.
pub fn from_int_with(v: &num_bigint::BigInt, to: FloatKind, r: Round, policy: Policy) -> Result<Float, FloatError> {
    from_int(v, to, r).or_else(|e| saturate(policy, e, to, v.sign() == num_bigint::Sign::Minus))
}

/// [`parse_literal`] under `policy`.
pub fn parse_literal_with(kind: FloatKind, text: &str, policy: Policy) -> Result<Float, FloatError> {
    let d = parse_decimal(FloatKind::F64, text)?;
    convert_with(d, kind, Round::NearestEven, policy)
}

/// The [`Policy::Saturate`] value for a conversion that failed with `e`
/// (`neg`: the sign of the input), or `e` itself.
fn saturate(policy: Policy, e: FloatError, to: FloatKind, neg: bool) -> Result<Float, FloatError> {
    let s = semantics(to);
    let bits = match (&policy, &e) {
        (Policy::Strict, _) | (_, FloatError::BadLiteral { .. }) => return Err(e),
        (Policy::Saturate, FloatError::NoNan(_)) => s.encode_zero(!neg),
        (Policy::Saturate, FloatError::NoInf { neg, .. }) => s.encode_max(*neg),
        (Policy::Saturate, FloatError::NotPositive { .. }) => s.encode_nan(false),
    };
    Ok(Float { kind: to, bits })
}

/// A conversion or literal with no defined result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FloatError {
    /// NaN into a format without NaN (f4, f6).
    #[error("nan has no encoding in {}", .0.name())]
    NoNan(FloatKind),
    /// Infinity into a format without infinity or NaN (f4, f6).
    #[error("{} has no encoding in {}", if *.neg { "-inf" } else { "inf" }, .kind.name())]
    NoInf {
        /// Sign of the infinity.
        neg: bool,
        /// Target format.
        kind: FloatKind,
    },
    /// Zero or a negative value into f8E8M0FNU.
    #[error("{value} is not representable in {} (no zero, no sign)", .kind.name())]
    NotPositive {
        /// The value, printed.
        value: String,
        /// Target format.
        kind: FloatKind,
    },
    /// Text that is not a decimal float literal.
    #[error("'{text}' is not a decimal literal for {}", .kind.name())]
    BadLiteral {
        /// The text.
        text: String,
        /// Target format.
        kind: FloatKind,
    },
}

/// The float of format `kind` with encoding `bits`, masked to the width.
#[inline]
pub fn from_bits(kind: FloatKind, bits: u128) -> Float {
    Float { kind, bits: bits & format::low_ones(kind.bit_width()) }
}

/// Decodes `a`.
fn val(a: Float) -> Val {
    semantics(a.kind).decode(a.bits)
}

/// `-a`: flips the sign bit; FNUZ zero and NaN have no negative, and a
/// negated f8E8M0FNU value is NaN (no sign).
pub fn neg(a: Float) -> Float {
    let s = semantics(a.kind);
    match val(a) {
        Val::Nan { .. } | Val::Zero { .. } if s.nan_encoding == format::NanEncoding::NegativeZero => a,
        Val::Nan { .. } if !s.has_sign => a,
        _ if !s.has_sign => nan(a.kind),
        _ => from_bits(a.kind, a.bits ^ (1u128 << (s.bits - 1))),
    }
}

/// `|a|`: clears the sign bit (FNUZ NaN stays NaN).
pub fn abs(a: Float) -> Float {
    let s = semantics(a.kind);
    if !s.has_sign || is_nan(a) && s.nan_encoding == format::NanEncoding::NegativeZero {
        return from_bits(a.kind, a.bits);
    }
    from_bits(a.kind, a.bits & !(1u128 << (s.bits - 1)))
}

/// IEEE comparison: NaN is unordered, -0 == +0.
pub fn compare(a: Float, b: Float) -> Ordering {
    if let (Some(x), Some(y)) = (host::as_f64(a), host::as_f64(b)) {
        return match x.partial_cmp(&y) {
            Some(std::cmp::Ordering::Less) => Ordering::Less,
            Some(std::cmp::Ordering::Equal) => Ordering::Equal,
            Some(std::cmp::Ordering::Greater) => Ordering::Greater,
            None => Ordering::Unordered,
        };
    }
    let (va, vb) = (val(a), val(b));
    match (key(va), key(vb)) {
        (Some(x), Some(y)) => match cmp_keys(x, y) {
            std::cmp::Ordering::Less => Ordering::Less,
            std::cmp::Ordering::Equal => Ordering::Equal,
            std::cmp::Ordering::Greater => Ordering::Greater,
        },
        _ => Ordering::Unordered,
    }
}

/// A totally ordered stand-in for a non-NaN value: (class, sig, exp) with
/// class -2 = -inf, -1 negative, 0 zero, 1 positive, 2 = +inf.
type Key = (i8, u128, i32);

fn key(v: Val) -> Option<Key> {
    match v {
        Val::Nan { .. } => None,
        Val::Inf { neg } => Some((if neg { -2 } else { 2 }, 0, 0)),
        Val::Zero { .. } => Some((0, 0, 0)),
        Val::Fin { neg, sig, exp } => Some((if neg { -1 } else { 1 }, sig, exp)),
    }
}

fn cmp_keys(x: Key, y: Key) -> std::cmp::Ordering {
    if x.0 != y.0 || x.0.abs() != 1 {
        return x.0.cmp(&y.0);
    }
    let mag = cmp_mag(x.1, x.2, y.1, y.2);
    if x.0 < 0 {
        mag.reverse()
    } else {
        mag
    }
}

/// Compares `a * 2^ea` with `b * 2^eb` (both significands non-zero).
fn cmp_mag(a: u128, ea: i32, b: u128, eb: i32) -> std::cmp::Ordering {
    let top = |m: u128, e: i32| i64::from(e) + i64::from(128 - m.leading_zeros());
    let (ta, tb) = (top(a, ea), top(b, eb));
    if ta != tb {
        return ta.cmp(&tb);
    }
    // Same leading-bit position: shifting the one with the larger exponent
    // left by the difference cannot overflow.
    let d = i64::from(ea) - i64::from(eb);
    let shift = |m: u128, by: i64| m << u32::try_from(by).unwrap_or(0);
    if d >= 0 {
        shift(a, d).cmp(&b)
    } else {
        a.cmp(&shift(b, -d))
    }
}

/// Whether `a` is a NaN.
pub fn is_nan(a: Float) -> bool {
    if let Some((bits, w)) = host::word(a) {
        return bits & !(1 << (w - 1)) > host::inf_bits(w);
    }
    matches!(val(a), Val::Nan { .. })
}

/// Whether `a` is an infinity.
pub fn is_inf(a: Float) -> bool {
    matches!(val(a), Val::Inf { .. })
}

/// Whether `a` is a zero.
pub fn is_zero(a: Float) -> bool {
    if let Some((bits, w)) = host::word(a) {
        return bits & !(1 << (w - 1)) == 0;
    }
    matches!(val(a), Val::Zero { .. })
}

/// Whether the sign bit of `a` is set (false for FNUZ NaN, which has none).
pub fn is_negative(a: Float) -> bool {
    if let Some((bits, w)) = host::word(a) {
        return bits >> (w - 1) == 1;
    }
    match val(a) {
        Val::Nan { neg } => neg && semantics(a.kind).nan_encoding != format::NanEncoding::NegativeZero,
        Val::Inf { neg } | Val::Zero { neg } | Val::Fin { neg, .. } => neg,
    }
}

/// Whether `a` is finite, non-zero and not subnormal.
pub fn is_normal(a: Float) -> bool {
    let s = semantics(a.kind);
    match val(a) {
        // The leading bit's exponent, exp + bitlen - 1, is at least min_exp.
        Val::Fin { sig, exp, .. } => i64::from(exp) + i64::from(128 - sig.leading_zeros()) > i64::from(s.min_exp),
        _ => false,
    }
}

/// The canonical quiet NaN (positive, as `APFloat::getQNaN`). Formats with
/// no NaN (f4, f6) get their negative-zero pattern (see the module docs).
pub fn nan(kind: FloatKind) -> Float {
    Float { kind, bits: semantics(kind).encode_nan(false) }
}

/// Whether `kind` has a NaN (false for f4 and f6, where [`nan`] is only a
/// stand-in and results built from it are implementation-defined).
pub fn has_nan(kind: FloatKind) -> bool {
    semantics(kind).non_finite != format::NonFinite::FiniteOnly
}

/// Whether `kind` has infinities.
pub fn has_inf(kind: FloatKind) -> bool {
    semantics(kind).non_finite == format::NonFinite::Ieee
}
