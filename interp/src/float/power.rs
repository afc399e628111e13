//! Correctly rounded `x^n` for an integer `n` (IEEE 754 `pown`, the math
//! dialect's `fpowi`) and `1/sqrt(x)` (`rsqrt`), in every format.
//!
//! `x^n` is exact when the odd part of `x`'s significand raised to `|n|` is
//! small enough to build (up to [`EXACT_BITS`] bits); otherwise the result is
//! enclosed between a lower and an upper bound computed by repeated squaring
//! with directed truncation, and the working precision doubles until both
//! bounds round to the same value (Ziv's strategy). That always terminates:
//! with an odd factor of 3 or more and so many bits, `x^n` can be neither
//! representable nor a rounding midpoint.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::format::{semantics, Semantics, Val};
use super::round::{round, Exact};
use super::{val, Float, Round};

/// Largest exact power built as a big integer.
const EXACT_BITS: u64 = 1 << 15;

/// Past this binary exponent every format has over- or underflowed
/// (f128's range is about 2^-16494 .. 2^16384).
const FAR: i64 = 1 << 20;

/// `x^n` rounded once with `r` (IEEE 754 `pown`: `x^0` is 1 even for NaN;
/// `0^-n` is an infinity, odd `n` keeping the sign of the zero).
pub fn powi(x: Float, n: &BigInt, r: Round) -> Float {
    let s = semantics(x.kind);
    let odd = n.is_odd();
    let one = || Float { kind: x.kind, bits: round(s, &Exact::new(false, BigUint::one(), 0), r) };
    if n.is_zero() {
        return one();
    }
    let bits = match val(x) {
        Val::Nan { neg } => s.encode_nan(neg),
        Val::Zero { neg } if n.is_positive() => s.encode_zero(neg && odd),
        Val::Zero { neg } => s.encode_inf(neg && odd),
        Val::Inf { neg } if n.is_positive() => s.encode_inf(neg && odd),
        Val::Inf { neg } => s.encode_zero(neg && odd),
        Val::Fin { neg, sig, exp } => magnitude(s, neg && odd, sig, i64::from(exp), n, r),
    };
    Float { kind: x.kind, bits }
}

/// `(-1)^neg * (sig * 2^exp)^n` rounded, for `n != 0`.
fn magnitude(s: &Semantics, neg: bool, sig: u128, exp: i64, n: &BigInt, r: Round) -> u128 {
    let tz = sig.trailing_zeros();
    let (m, e) = (BigUint::from(sig >> tz), exp + i64::from(tz));
    let k = n.magnitude();
    // log2 of the result, roughly; far outside every range means certain
    // overflow or underflow (the estimate is good to many digits).
    let log2 = n.to_f64().unwrap_or(f64::INFINITY) * (m.to_f64().unwrap_or(f64::MAX).log2() + e as f64);
    if log2 > (2 * FAR) as f64 {
        return round(s, &Exact::new(neg, BigUint::one(), 2 * FAR), r);
    }
    if log2 < -(2 * FAR) as f64 {
        return round(s, &Exact { neg, mag: BigUint::zero(), exp: -2 * FAR, sticky: true }, r);
    }
    // |log2| < 2^21 here, so |e * n| stays far inside i64.
    let en = BigInt::from(e) * n;
    let en = en.to_i64().unwrap_or(0);
    if m.is_one() {
        return round(s, &Exact::new(neg, BigUint::one(), en), r);
    }
    if m.bits().saturating_mul(k.to_u64().unwrap_or(u64::MAX)) <= EXACT_BITS {
        let p = m.pow(k.to_u32().unwrap_or(0));
        return if n.sign() == Sign::Plus {
            round(s, &Exact::new(neg, p, en), r)
        } else {
            round(s, &reciprocal(neg, &p, en, s.precision), r)
        };
    }
    enclose(s, neg, &m, en, n, r)
}

/// `2^e / p` with `precision + 3` quotient bits and a sticky remainder.
fn reciprocal(neg: bool, p: &BigUint, e: i64, precision: u32) -> Exact {
    let k = p.bits() + u64::from(precision) + 3;
    let (q, rem) = (BigUint::one() << k).div_rem(p);
    Exact { neg, mag: q, exp: e - i64::try_from(k).unwrap_or(0), sticky: !rem.is_zero() }
}

/// A positive bound `mag * 2^exp`.
#[derive(Clone)]
struct Bound {
    mag: BigUint,
    exp: i64,
}

impl Bound {
    /// Keeps `w` bits, rounding down or up.
    fn cut(mut self, w: u64, up: bool) -> Bound {
        let len = self.mag.bits();
        if len > w {
            let drop = len - w;
            let lost = self.mag.trailing_zeros().is_some_and(|z| z < drop);
            self.mag >>= drop;
            if up && lost {
                self.mag += 1u32;
            }
            self.exp += i64::try_from(drop).unwrap_or(0);
        }
        self
    }

    fn mul(&self, o: &Bound, w: u64, up: bool) -> Bound {
        Bound { mag: &self.mag * &o.mag, exp: self.exp + o.exp }.cut(w, up)
    }
}

/// `m^n * 2^en` (`m` odd, large) between bounds of growing precision.
fn enclose(s: &Semantics, neg: bool, m: &BigUint, en: i64, n: &BigInt, r: Round) -> u128 {
    let k = n.magnitude();
    let mut w = u64::from(s.precision) + 2 * k.bits() + 64;
    loop {
        let base = Bound { mag: m.clone(), exp: 0 };
        let (lo, hi) = (power(&base, k, w, false), power(&base, k, w, true));
        let (lo, hi) = if n.sign() == Sign::Plus {
            (Exact::new(neg, lo.mag, lo.exp + en), Exact::new(neg, hi.mag, hi.exp + en))
        } else {
            // 1/hi <= 1/x^k <= 1/lo, each quotient kept exact by its
            // sticky bit.
            let down = reciprocal(neg, &hi.mag, en - hi.exp, s.precision + 64);
            let up = reciprocal(neg, &lo.mag, en - lo.exp, s.precision + 64);
            (down, up)
        };
        let (a, b) = (round(s, &lo, r), round(s, &hi, r));
        if a == b || w > 1 << 16 {
            return a;
        }
        w *= 2;
    }
}

/// `base^k` by repeated squaring, each product truncated to `w` bits toward
/// zero (`up` false) or away from it.
fn power(base: &Bound, k: &BigUint, w: u64, up: bool) -> Bound {
    let mut acc = Bound { mag: BigUint::one(), exp: 0 };
    let mut sq = base.clone();
    for i in 0..k.bits() {
        if k.bit(i) {
            acc = acc.mul(&sq, w, up);
        }
        if i + 1 < k.bits() {
            sq = sq.mul(&sq, w, up);
        }
    }
    acc
}

/// `1 / sqrt(x)` rounded once with `r`: +inf for +0, -inf for -0 (as
/// `1 / sqrt(-0)`), NaN for negative numbers, +0 for +inf.
pub fn rsqrt(x: Float, r: Round) -> Float {
    let s = semantics(x.kind);
    let bits = match val(x) {
        Val::Nan { neg } => s.encode_nan(neg),
        Val::Zero { neg } => s.encode_inf(neg),
        Val::Inf { neg: false } => s.encode_zero(false),
        Val::Inf { neg: true } | Val::Fin { neg: true, .. } => s.encode_nan(false),
        Val::Fin { sig, exp, .. } => round(s, &inverse_root(s, sig, i64::from(exp)), r),
    };
    Float { kind: x.kind, bits }
}

/// `(sig * 2^exp)^(-1/2)` with at least `precision + 2` bits and a sticky
/// bit: `floor(sqrt(floor(2^(2K) / sig)))` is `floor(2^K / sqrt(sig))`.
fn inverse_root(s: &Semantics, sig: u128, exp: i64) -> Exact {
    let (sig, exp) = if exp % 2 != 0 { (BigUint::from(sig) << 1u32, exp - 1) } else { (BigUint::from(sig), exp) };
    let k = u64::from(s.precision) + 4 + sig.bits() / 2;
    let (n, rem) = (BigUint::one() << (2 * k)).div_rem(&sig);
    let q = n.sqrt();
    let sticky = !rem.is_zero() || &q * &q != n;
    Exact { neg: false, mag: q, exp: -i64::try_from(k).unwrap_or(0) - exp / 2, sticky }
}
