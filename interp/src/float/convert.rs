//! Conversions between formats and to and from integers, and rounding to an
//! integral value; each rounds once (APFloat `convert`,
//! `convertFromAPInt`, `convertToInteger`, `roundToIntegral`).

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};

use super::format::{semantics, NanEncoding, NonFinite, Semantics, Val};
use super::round::{round, round_parts, rounds_up, split, Exact};
use super::{val, Float, FloatError, FloatKind, Round};

/// `a` in format `to`, rounded once with `r`. NaN keeps its sign except
/// out of an FNUZ format (whose NaN has none); errors for NaN/inf into
/// f4/f6 and for zero or negatives into f8E8M0FNU.
pub fn convert(a: Float, to: FloatKind, r: Round) -> Result<Float, FloatError> {
    let s = semantics(to);
    let from_fnuz = semantics(a.kind).nan_encoding == NanEncoding::NegativeZero;
    let bits = match val(a) {
        Val::Nan { .. } if s.non_finite == NonFinite::FiniteOnly => return Err(FloatError::NoNan(to)),
        Val::Nan { neg } => s.encode_nan(neg && !from_fnuz),
        Val::Inf { neg } if s.non_finite == NonFinite::FiniteOnly => return Err(FloatError::NoInf { neg, kind: to }),
        v => {
            check_positive(s, to, v)?;
            match v {
                Val::Inf { neg } => s.encode_inf(neg),
                Val::Fin { neg, sig, exp } => round_parts(s, neg, sig, i64::from(exp), false, r),
                Val::Zero { neg } | Val::Nan { neg } => s.encode_zero(neg),
            }
        }
    };
    Ok(Float { kind: to, bits })
}

/// Rejects zero and negative values for a format with neither.
fn check_positive(s: &Semantics, to: FloatKind, v: Val) -> Result<(), FloatError> {
    // Most formats have both: nothing to word, so no message is built
    // (formatting one cost every negative conversion a float-to-string).
    if s.has_zero && s.has_sign {
        return Ok(());
    }
    let bad = match v {
        Val::Zero { neg } => Some(if neg { "-0" } else { "0" }.to_string()),
        Val::Inf { neg: true } => Some("-inf".to_string()),
        Val::Fin { neg: true, sig, exp } => Some(format!("{}", -(sig as f64) * 2f64.powi(exp))),
        _ => None,
    };
    match bad {
        Some(value) => Err(FloatError::NotPositive { value, kind: to }),
        _ => Ok(()),
    }
}

/// The integer `v` in format `to`, rounded once with `r`.
pub fn from_int(v: &BigInt, to: FloatKind, r: Round) -> Result<Float, FloatError> {
    let s = semantics(to);
    let neg = v.sign() == Sign::Minus;
    if (v.is_zero() && !s.has_zero) || (neg && !s.has_sign) {
        return Err(FloatError::NotPositive { value: v.to_string(), kind: to });
    }
    let bits = round(s, &Exact::new(neg, v.magnitude().clone(), 0), r);
    Ok(Float { kind: to, bits })
}

/// `a` truncated toward zero as an integer of `width` bits; `None` (poison)
/// for NaN, inf and values out of range. Inputs in (-1, 0] give 0 even when
/// unsigned.
pub fn to_int(a: Float, width: u32, signed: bool) -> Option<BigInt> {
    let t = match val(a) {
        Val::Nan { .. } | Val::Inf { .. } => return None,
        Val::Zero { .. } => BigInt::zero(),
        Val::Fin { sig, exp, .. } if too_wide(sig, exp, width) => return None,
        Val::Fin { neg, sig, exp } => {
            let m = BigUint::from(sig);
            let mag = if exp >= 0 { m << exp.unsigned_abs() } else { m >> exp.unsigned_abs() };
            BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, mag)
        }
    };
    in_range(&t, width, signed).then_some(t)
}

/// Whether `|sig * 2^exp| >= 2^width`, out of range for any integer of
/// `width` bits (checked first so huge exponents build no huge integers).
fn too_wide(sig: u128, exp: i32, width: u32) -> bool {
    i64::from(exp) + i64::from(128 - sig.leading_zeros()) > i64::from(width)
}

/// Whether `t` fits an integer of `width` bits.
fn in_range(t: &BigInt, width: u32, signed: bool) -> bool {
    if width == 0 {
        return t.is_zero();
    }
    let (lo, hi) = if signed {
        let h = BigInt::one() << (width - 1);
        (-h.clone(), h - 1)
    } else {
        (BigInt::zero(), (BigInt::one() << width) - 1)
    };
    *t >= lo && *t <= hi
}

/// `a` rounded to an integral value in its own format with mode `r`
/// (ceil = Up, floor = Down, trunc = TowardZero, round = NearestAway,
/// roundeven = NearestEven). A zero result keeps the sign of `a`.
pub fn round_to_integral(a: Float, r: Round) -> Float {
    let s = semantics(a.kind);
    let bits = match val(a) {
        Val::Nan { neg } => s.encode_nan(neg),
        Val::Fin { neg, sig, exp } if exp < 0 => {
            let (kept, lost) = split(sig, exp.unsigned_abs(), false);
            let q = kept + u128::from(rounds_up(r, neg, lost, kept & 1 == 1));
            round_parts(s, neg, q, 0, false, Round::NearestEven)
        }
        _ => a.bits & s.mask(),
    };
    Float { kind: a.kind, bits }
}

/// `a` as a host `f64`: exact when representable, else correctly rounded
/// to nearest-even.
pub fn to_f64(a: Float) -> f64 {
    match convert(a, FloatKind::F64, Round::NearestEven) {
        Ok(f) => f64::from_bits(f.bits as u64),
        Err(_) => f64::NAN,
    }
}
