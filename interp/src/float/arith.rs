//! Arithmetic: each operation handles the special operands as APFloat does
//! (`addOrSubtractSpecials`, `multiplySpecials`, `divideSpecials`,
//! `modSpecials`), computes the exact result of finite operands with big
//! integers, and rounds it once.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;

use super::format::{semantics, Semantics, Val};
use super::round::{round, round_parts, Exact};
use super::{convert, host, nan, val, Float, FloatKind, Round};

/// `b` in format `kind`: operands must share a format; a mismatched one is
/// converted rather than trusted (the engine's verifier should prevent it).
#[inline]
fn same_kind(kind: FloatKind, b: Float) -> Float {
    if b.kind == kind {
        return b;
    }
    convert(b, kind, Round::NearestEven).unwrap_or_else(|_| nan(kind))
}

fn big(sig: u128) -> BigUint {
    BigUint::from(sig)
}

/// `a + b` rounded with `r`.
#[inline]
pub fn add(a: Float, b: Float, r: Round) -> Float {
    add_sub(a, same_kind(a.kind, b), r, false)
}

/// `a - b` rounded with `r`.
#[inline]
pub fn sub(a: Float, b: Float, r: Round) -> Float {
    add_sub(a, same_kind(a.kind, b), r, true)
}

#[inline]
fn add_sub(a: Float, b: Float, r: Round, subtract: bool) -> Float {
    host::add_sub(a, b, r, subtract).unwrap_or_else(|| add_sub_exact(a, b, r, subtract))
}

/// `a + b` or `a - b` without the host fast path.
pub fn add_sub_exact(a: Float, b: Float, r: Round, subtract: bool) -> Float {
    let b = same_kind(a.kind, b);
    let s = semantics(a.kind);
    let bits = match (val(a), val(b)) {
        (Val::Nan { neg }, _) | (_, Val::Nan { neg }) => s.encode_nan(neg),
        (x, y) => add_vals(s, x, negate_if(y, subtract), r),
    };
    Float { kind: a.kind, bits }
}

fn negate_if(v: Val, flip: bool) -> Val {
    match v {
        Val::Nan { neg } => Val::Nan { neg: neg ^ flip },
        Val::Inf { neg } => Val::Inf { neg: neg ^ flip },
        Val::Zero { neg } => Val::Zero { neg: neg ^ flip },
        Val::Fin { neg, sig, exp } => Val::Fin { neg: neg ^ flip, sig, exp },
    }
}

/// Sum of two non-NaN values. An exact zero sum of non-zero or unlike
/// zeros is +0, or -0 when rounding down (IEEE 754 6.3).
fn add_vals(s: &Semantics, x: Val, y: Val, r: Round) -> u128 {
    match (x, y) {
        (Val::Inf { neg: p }, Val::Inf { neg: q }) if p != q => s.encode_nan(false),
        (Val::Inf { neg }, _) | (_, Val::Inf { neg }) => s.encode_inf(neg),
        (Val::Zero { neg: p }, Val::Zero { neg: q }) => s.encode_zero(if p == q { p } else { r == Round::Down }),
        _ => round_sum(s, x, y, r),
    }
}

/// Rounds the exact sum of two finite values, not both zero.
fn round_sum(s: &Semantics, x: Val, y: Val, r: Round) -> u128 {
    let zero = s.encode_zero(r == Round::Down);
    match small_sum(x, y) {
        Some((_, 0, _)) => zero,
        Some((neg, m, e)) => round_parts(s, neg, m, e, false, r),
        None => {
            let e = exact_sum(x, y);
            if e.is_zero() {
                zero
            } else {
                round(s, &e, r)
            }
        }
    }
}

/// A finite value as (sign, significand, exponent); zero has significand 0.
fn parts(v: Val) -> Option<(bool, u128, i32)> {
    match v {
        Val::Fin { neg, sig, exp } => Some((neg, sig, exp)),
        Val::Zero { neg } => Some((neg, 0, i32::MAX)),
        _ => None,
    }
}

/// The exact sum in machine words, when both aligned significands fit in
/// 126 bits (`None` otherwise: use [`exact_sum`]).
fn small_sum(x: Val, y: Val) -> Option<(bool, u128, i64)> {
    let ((nx, mx, ex), (ny, my, ey)) = (parts(x)?, parts(y)?);
    let e = ex.min(ey);
    let align = |m: u128, ex: i32| {
        let d = u32::try_from(i64::from(ex) - i64::from(e)).ok()?;
        let fits = m == 0 || d.checked_add(128 - m.leading_zeros())? <= 126;
        fits.then(|| i128::try_from(m.checked_shl(d).unwrap_or(0)).unwrap_or(0))
    };
    let (ax, ay) = (align(mx, ex)?, align(my, ey)?);
    let v = (if nx { -ax } else { ax }) + (if ny { -ay } else { ay });
    Some((v < 0, v.unsigned_abs(), i64::from(e)))
}

/// A finite value as a signed integer times a power of two.
fn signed(v: Val) -> Option<(BigInt, i64)> {
    match v {
        Val::Fin { neg, sig, exp } => {
            let sign = if neg { Sign::Minus } else { Sign::Plus };
            Some((BigInt::from_biguint(sign, big(sig)), i64::from(exp)))
        }
        _ => None,
    }
}

/// The exact sum of finite values, at least one of them non-zero.
fn exact_sum(x: Val, y: Val) -> Exact {
    let (sx, sy) = (signed(x), signed(y));
    let e = match (&sx, &sy) {
        (Some((_, a)), Some((_, b))) => *a.min(b),
        (Some((_, a)), None) | (None, Some((_, a))) => *a,
        (None, None) => 0,
    };
    let aligned = |t: Option<(BigInt, i64)>| t.map_or(BigInt::default(), |(m, ex)| m << shift_amount(ex - e));
    let sum = aligned(sx) + aligned(sy);
    Exact::new(sum.sign() == Sign::Minus, sum.magnitude().clone(), e)
}

/// A non-negative exponent difference as a shift amount.
fn shift_amount(d: i64) -> usize {
    usize::try_from(d).unwrap_or(0)
}

/// `a * b` rounded with `r`.
#[inline]
pub fn mul(a: Float, b: Float, r: Round) -> Float {
    let b = same_kind(a.kind, b);
    host::mul(a, b, r).unwrap_or_else(|| mul_exact(a, b, r))
}

/// `a * b` without the host fast path.
pub fn mul_exact(a: Float, b: Float, r: Round) -> Float {
    let b = same_kind(a.kind, b);
    let s = semantics(a.kind);
    let neg = super::is_negative(a) ^ super::is_negative(b);
    let bits = match (val(a), val(b)) {
        (Val::Nan { neg }, _) | (_, Val::Nan { neg }) => s.encode_nan(neg),
        (Val::Inf { .. }, Val::Zero { .. }) | (Val::Zero { .. }, Val::Inf { .. }) => s.encode_nan(false),
        (Val::Inf { .. }, _) | (_, Val::Inf { .. }) => s.encode_inf(neg),
        (Val::Fin { sig: x, exp: ex, .. }, Val::Fin { sig: y, exp: ey, .. }) => {
            let e = i64::from(ex) + i64::from(ey);
            match x.checked_mul(y) {
                Some(m) => round_parts(s, neg, m, e, false, r),
                None => round(s, &Exact::new(neg, big(x) * big(y), e), r),
            }
        }
        _ => s.encode_zero(neg),
    };
    Float { kind: a.kind, bits }
}

/// `a / b` rounded with `r`.
#[inline]
pub fn div(a: Float, b: Float, r: Round) -> Float {
    let b = same_kind(a.kind, b);
    host::div(a, b, r).unwrap_or_else(|| div_exact(a, b, r))
}

/// `a / b` without the host fast path.
pub fn div_exact(a: Float, b: Float, r: Round) -> Float {
    let b = same_kind(a.kind, b);
    let s = semantics(a.kind);
    let neg = super::is_negative(a) ^ super::is_negative(b);
    let bits = match (val(a), val(b)) {
        (Val::Nan { neg }, _) | (_, Val::Nan { neg }) => s.encode_nan(neg),
        (Val::Inf { .. }, Val::Inf { .. }) | (Val::Zero { .. }, Val::Zero { .. }) => s.encode_nan(false),
        (Val::Inf { .. }, _) | (_, Val::Zero { .. }) => s.encode_inf(neg),
        (Val::Fin { sig: x, exp: ex, .. }, Val::Fin { sig: y, exp: ey, .. }) => {
            let e = i64::from(ex) - i64::from(ey);
            match small_quotient(s, x, e, y) {
                Some((q, e, sticky)) => round_parts(s, neg, q, e, sticky, r),
                None => round(s, &quotient(s, neg, x, e, y), r),
            }
        }
        _ => s.encode_zero(neg),
    };
    Float { kind: a.kind, bits }
}

/// [`quotient`] in machine words when `x` shifted fits in 126 bits.
fn small_quotient(s: &Semantics, x: u128, e: i64, y: u128) -> Option<(u128, i64, bool)> {
    let bits = |m: u128| 128 - m.leading_zeros();
    let k = (s.precision + 3 + bits(y)).saturating_sub(bits(x));
    if bits(x) + k > 126 {
        return None;
    }
    let n = x << k;
    let q = n / y;
    // q * y <= n: a remainder is left exactly when they differ.
    Some((q, e - i64::from(k), q * y != n))
}

/// `x / y * 2^e` with at least `precision + 2` quotient bits and the
/// remainder as sticky bit.
fn quotient(s: &Semantics, neg: bool, x: u128, e: i64, y: u128) -> Exact {
    let bits = |m: u128| i64::from(128 - m.leading_zeros());
    let k = (i64::from(s.precision) + 3 + bits(y) - bits(x)).max(0);
    let (q, rem) = (big(x) << shift_amount(k)).div_rem(&big(y));
    Exact { neg, mag: q, exp: e - k, sticky: rem.bits() != 0 }
}

/// `a * b + c` with a single rounding.
pub fn fma(a: Float, b: Float, c: Float, r: Round) -> Float {
    let (b, c) = (same_kind(a.kind, b), same_kind(a.kind, c));
    host::fma(a, b, c, r).unwrap_or_else(|| fma_exact(a, b, c, r))
}

/// `a * b + c` without the host fast path.
pub fn fma_exact(a: Float, b: Float, c: Float, r: Round) -> Float {
    let (b, c) = (same_kind(a.kind, b), same_kind(a.kind, c));
    let s = semantics(a.kind);
    let neg = super::is_negative(a) ^ super::is_negative(b);
    let bits = match (val(a), val(b), val(c)) {
        (Val::Nan { neg }, _, _) | (_, Val::Nan { neg }, _) => s.encode_nan(neg),
        (Val::Inf { .. }, Val::Zero { .. }, _) | (Val::Zero { .. }, Val::Inf { .. }, _) => s.encode_nan(false),
        (_, _, Val::Nan { neg }) => s.encode_nan(neg),
        (Val::Inf { .. }, _, z) | (_, Val::Inf { .. }, z) => add_vals(s, Val::Inf { neg }, z, r),
        (_, _, Val::Inf { neg }) => s.encode_inf(neg),
        (Val::Fin { sig: x, exp: ex, .. }, Val::Fin { sig: y, exp: ey, .. }, z) => {
            fused(s, neg, big(x) * big(y), i64::from(ex) + i64::from(ey), z, r)
        }
        (_, _, z) => add_vals(s, Val::Zero { neg }, z, r),
    };
    Float { kind: a.kind, bits }
}

/// Rounds `(-1)^neg * prod * 2^pe + z` (finite `z`) once.
fn fused(s: &Semantics, neg: bool, prod: BigUint, pe: i64, z: Val, r: Round) -> u128 {
    let p = BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, prod);
    let sum = match signed(z) {
        None => Exact::new(neg, p.magnitude().clone(), pe),
        Some((m, ze)) => {
            let e = pe.min(ze);
            let total = (p << shift_amount(pe - e)) + (m << shift_amount(ze - e));
            Exact::new(total.sign() == Sign::Minus, total.magnitude().clone(), e)
        }
    };
    if sum.is_zero() {
        return s.encode_zero(r == Round::Down);
    }
    round(s, &sum, r)
}

/// The square root rounded with `r`; NaN for negative operands.
pub fn sqrt(a: Float, r: Round) -> Float {
    host::sqrt(a, r).unwrap_or_else(|| sqrt_exact(a, r))
}

/// The square root without the host fast path.
pub fn sqrt_exact(a: Float, r: Round) -> Float {
    let s = semantics(a.kind);
    let bits = match val(a) {
        Val::Nan { neg } => s.encode_nan(neg),
        Val::Zero { neg } => s.encode_zero(neg),
        Val::Inf { neg: false } => s.encode_inf(false),
        Val::Inf { neg: true } | Val::Fin { neg: true, .. } => s.encode_nan(false),
        Val::Fin { sig, exp, .. } => round(s, &root(s, sig, i64::from(exp)), r),
    };
    Float { kind: a.kind, bits }
}

/// `sqrt(sig * 2^exp)` with at least `precision + 2` bits and a sticky bit.
fn root(s: &Semantics, sig: u128, exp: i64) -> Exact {
    let want = 2 * (i64::from(s.precision) + 3);
    let mut k = (want - i64::from(128 - sig.leading_zeros())).max(0);
    if (exp - k) % 2 != 0 {
        k += 1;
    }
    let m = big(sig) << shift_amount(k);
    let q = m.sqrt();
    let sticky = &q * &q != m;
    Exact { neg: false, mag: q, exp: (exp - k) / 2, sticky }
}

/// C `fmod`: `a - trunc(a / b) * b`, exact, with the sign of `a`.
pub fn rem(a: Float, b: Float) -> Float {
    let b = same_kind(a.kind, b);
    let s = semantics(a.kind);
    let bits = match (val(a), val(b)) {
        (Val::Nan { neg }, _) | (_, Val::Nan { neg }) => s.encode_nan(neg),
        (Val::Inf { .. }, _) | (_, Val::Zero { .. }) => s.encode_nan(false),
        (Val::Zero { neg }, _) => s.encode_zero(neg),
        (Val::Fin { neg, sig, exp }, Val::Inf { .. }) => s.encode_fin(neg, sig, exp),
        (Val::Fin { neg, sig: x, exp: ex }, Val::Fin { sig: y, exp: ey, .. }) => {
            let m = fmod(x, i64::from(ex), y, i64::from(ey));
            round(s, &Exact::new(neg, m.0, m.1), Round::NearestEven)
        }
    };
    Float { kind: a.kind, bits }
}

/// `(x * 2^ex) mod (y * 2^ey)` as `(m, e)` meaning `m * 2^e`.
fn fmod(x: u128, ex: i64, y: u128, ey: i64) -> (BigUint, i64) {
    if ex >= ey {
        let scale = BigUint::from(2u32).modpow(&BigUint::from(shift_amount(ex - ey)), &big(y));
        ((big(x) * scale) % big(y), ey)
    } else {
        (big(x) % (big(y) << shift_amount(ey - ex)), ex)
    }
}
