//! Decimal literals, correctly rounded for any length of digits and any
//! exponent: the value `digits * 10^exp` is formed exactly (a big integer,
//! or a quotient of big integers with the remainder as sticky bit) and
//! rounded once to nearest-even.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;

use super::format::{semantics, NonFinite, Semantics};
use super::round::{round, Exact};
use super::{Float, FloatError, FloatKind, Round};

/// A literal split into sign, decimal digits and power of ten.
enum Literal {
    Number { neg: bool, digits: Vec<u8>, exp10: i64 },
    Inf { neg: bool },
    Nan { neg: bool },
}

/// Decimal digit counts beyond which every format over- or underflows
/// (f128's range is about 10^-4966 .. 10^4932).
const FAR: i64 = 6000;

/// Parses `text` ("-1.5e-3", "7", "1.", ".5", "inf", "nan") into `kind`,
/// correctly rounded to nearest-even.
pub fn parse_decimal(kind: FloatKind, text: &str) -> Result<Float, FloatError> {
    let bad = || FloatError::BadLiteral { text: text.to_string(), kind };
    let s = semantics(kind);
    let bits = match lex(text).ok_or_else(bad)? {
        Literal::Nan { .. } if s.non_finite == NonFinite::FiniteOnly => return Err(FloatError::NoNan(kind)),
        Literal::Nan { neg } => s.encode_nan(neg),
        Literal::Inf { neg } if s.non_finite == NonFinite::FiniteOnly => return Err(FloatError::NoInf { neg, kind }),
        Literal::Inf { neg } if neg && !s.has_sign => return Err(not_positive(text, kind)),
        Literal::Inf { neg } => s.encode_inf(neg),
        Literal::Number { neg, digits, exp10 } => number(s, kind, text, neg, &digits, exp10)?,
    };
    Ok(Float { kind, bits })
}

/// A decimal float literal of MLIR's textual format, read as MLIR reads it:
/// correctly rounded to f64 first (`Token::getFloatingPointValue`), then
/// converted to `kind` to nearest-even (`parseFloatFromLiteral`). So an
/// f128 literal has only f64's precision (`0.1 : f128` is the f64 0.1), a
/// value past f64's range is inf, and narrower formats round twice.
pub fn parse_literal(kind: FloatKind, text: &str) -> Result<Float, FloatError> {
    let d = parse_decimal(FloatKind::F64, text)?;
    super::convert(d, kind, Round::NearestEven)
}

fn not_positive(text: &str, kind: FloatKind) -> FloatError {
    FloatError::NotPositive { value: text.to_string(), kind }
}

/// Rounds `(-1)^neg * digits * 10^exp10`.
fn number(
    s: &Semantics,
    kind: FloatKind,
    text: &str,
    neg: bool,
    digits: &[u8],
    exp10: i64,
) -> Result<u128, FloatError> {
    let start = digits.iter().position(|&d| d != b'0').unwrap_or(digits.len());
    let digits = &digits[start..];
    let mag = BigUint::parse_bytes(digits, 10).unwrap_or_default();
    if (mag.is_zero() && !s.has_zero) || (neg && !s.has_sign) {
        return Err(not_positive(text, kind));
    }
    if mag.is_zero() {
        return Ok(s.encode_zero(neg));
    }
    let len = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let x = if len.saturating_add(exp10) > FAR {
        // Larger than any format: a stand-in far beyond every maximum.
        Exact::new(neg, BigUint::from(1u8), 1 << 20)
    } else if len.saturating_add(exp10) < -FAR {
        // Below half of every smallest subnormal: only the sticky bit.
        Exact { neg, mag: BigUint::zero(), exp: -(1 << 20), sticky: true }
    } else if exp10 >= 0 {
        Exact::new(neg, mag * pow10(exp10), 0)
    } else {
        ratio(neg, mag, pow10(-exp10))
    };
    Ok(round(s, &x, Round::NearestEven))
}

fn pow10(n: i64) -> BigUint {
    BigUint::from(10u8).pow(u32::try_from(n).unwrap_or(0))
}

/// `num / den` with 130 quotient bits (more than any precision plus 2) and
/// the remainder as sticky bit.
fn ratio(neg: bool, num: BigUint, den: BigUint) -> Exact {
    let k = (130 + den.bits()).saturating_sub(num.bits());
    let (q, r) = (num << k).div_rem(&den);
    Exact { neg, mag: q, exp: -i64::try_from(k).unwrap_or(0), sticky: !r.is_zero() }
}

/// Splits a literal: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
/// or `[+-]? (inf | infinity | nan)` in any case.
fn lex(text: &str) -> Option<Literal> {
    let (neg, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let lower = rest.to_ascii_lowercase();
    match lower.as_str() {
        "inf" | "infinity" => return Some(Literal::Inf { neg }),
        "nan" => return Some(Literal::Nan { neg }),
        _ => {}
    }
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    if int.len() + frac.len() == 0 || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    let exp10 = exponent.map_or(Some(0), parse_exp)?;
    let frac_len = i64::try_from(frac.len()).ok()?;
    let digits = [int.as_bytes(), frac.as_bytes()].concat();
    Some(Literal::Number { neg, digits, exp10: exp10.saturating_sub(frac_len) })
}

/// A decimal exponent `[+-]? digits`, saturated far beyond any format.
fn parse_exp(t: &str) -> Option<i64> {
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if body.is_empty() || !body.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v = body.bytes().fold(0i64, |acc, c| acc.saturating_mul(10).saturating_add(i64::from(c - b'0')).min(1 << 40));
    Some(if neg { -v } else { v })
}
