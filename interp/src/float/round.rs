//! The one rounding routine: an exact real number (sign, big-integer
//! significand, binary exponent, sticky bit) rounded once to any format
//! under any rounding mode, with APFloat's overflow rules
//! (`IEEEFloat::normalize` and `handleOverflow`).
//!
//! Every conversion and arithmetic operation computes its exact result and
//! calls [`round`]; nothing rounds twice.

use num_bigint::BigUint;

use super::format::{NanEncoding, NonFinite, Semantics};
use super::Round;

/// An exact real number `(-1)^neg * (mag + d) * 2^exp`, where `d` is 0 when
/// `sticky` is false and some value strictly between 0 and 1 otherwise.
///
/// When `sticky` is set the producer must supply at least `precision + 2`
/// significant bits in `mag`, or make `mag` zero with `2^exp` below half the
/// smallest subnormal, so the sticky bit lies below the rounding point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// Sign.
    pub neg: bool,
    /// Integer significand.
    pub mag: BigUint,
    /// Binary exponent of `mag`'s unit.
    pub exp: i64,
    /// Something non-zero lies below `mag`'s last bit.
    pub sticky: bool,
}

impl Exact {
    /// `(-1)^neg * mag * 2^exp` exactly.
    pub fn new(neg: bool, mag: BigUint, exp: i64) -> Exact {
        Exact { neg, mag, exp, sticky: false }
    }

    /// Whether the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.mag.bits() == 0 && !self.sticky
    }
}

/// What was cut off, relative to half a unit of the kept last place
/// (LLVM's `lostFraction`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    /// Nothing.
    Zero,
    /// Less than half.
    Less,
    /// Exactly half.
    Half,
    /// More than half.
    More,
}

/// Whether rounding mode `r` moves a magnitude with lost fraction `lost`
/// away from zero (`roundAwayFromZero`); `odd` is the kept last bit.
pub fn rounds_up(r: Round, neg: bool, lost: Lost, odd: bool) -> bool {
    match (r, lost) {
        (_, Lost::Zero) => false,
        (Round::NearestEven, Lost::Half) => odd,
        (Round::NearestEven | Round::NearestAway, Lost::More | Lost::Half) => true,
        (Round::NearestEven | Round::NearestAway, Lost::Less) => false,
        (Round::TowardZero, _) => false,
        (Round::Up, _) => !neg,
        (Round::Down, _) => neg,
    }
}

/// Splits `m` at bit `shift`: the kept high part and what the low `shift`
/// bits plus `sticky` amount to.
pub fn split(m: u128, shift: u32, sticky: bool) -> (u128, Lost) {
    if shift == 0 {
        return (m, if sticky { Lost::Less } else { Lost::Zero });
    }
    if shift > 127 {
        let lost = if m != 0 || sticky { Lost::Less } else { Lost::Zero };
        return (0, lost);
    }
    let rem = m & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let lost = match rem.cmp(&half) {
        std::cmp::Ordering::Greater => Lost::More,
        std::cmp::Ordering::Equal if sticky => Lost::More,
        std::cmp::Ordering::Equal => Lost::Half,
        std::cmp::Ordering::Less if rem == 0 && !sticky => Lost::Zero,
        std::cmp::Ordering::Less => Lost::Less,
    };
    (m >> shift, lost)
}

/// Rounds `x` to format `s` under mode `r`, returning the bit pattern.
///
/// Zero keeps `x.neg` (cleared for FNUZ; the smallest value where there is no
/// zero). Negative values in a format without sign become NaN.
pub fn round(s: &Semantics, x: &Exact, r: Round) -> u128 {
    let (m, exp, sticky) = compress(x);
    round_parts(s, x.neg, m, exp, sticky, r)
}

/// [`round`] for `(-1)^neg * (m + d) * 2^exp` with a machine-word
/// significand (same contract on `sticky` as [`Exact`]); the fast path for
/// values that need no big integer.
pub fn round_parts(s: &Semantics, neg: bool, m: u128, exp: i64, sticky: bool, r: Round) -> u128 {
    if neg && !s.has_sign && (m != 0 || sticky) {
        return s.encode_nan(false);
    }
    // Keep at most 126 bits so that `split` sees the half bit below bit 127.
    let cut = (128 - m.leading_zeros()).saturating_sub(126);
    let lost_low = m & ((1u128 << cut) - 1) != 0;
    round_small(s, neg, m >> cut, exp.saturating_add(i64::from(cut)), sticky || lost_low, r)
}

/// Shortens `x.mag` to at most 126 bits, folding the rest into the sticky
/// bit; 126 bits exceed every precision (113 at most) by more than 2.
fn compress(x: &Exact) -> (u128, i64, bool) {
    let len = x.mag.bits();
    let cut = len.saturating_sub(126);
    let low_nonzero = cut > 0 && x.mag.trailing_zeros().is_some_and(|z| z < cut);
    let top = &x.mag >> cut;
    let m = top.iter_u64_digits().rev().fold(0u128, |acc, d| (acc << 64) | u128::from(d));
    let exp = x.exp.saturating_add(i64::try_from(cut).unwrap_or(i64::MAX));
    (m, exp, x.sticky || low_nonzero)
}

/// The rounding proper, on a magnitude of at most 126 bits.
fn round_small(s: &Semantics, neg: bool, m: u128, exp: i64, sticky: bool, r: Round) -> u128 {
    if m == 0 && !sticky {
        return s.encode_zero(neg);
    }
    let p = i64::from(s.precision);
    // Exponent of the leading bit (an upper bound when only sticky is left).
    let top = if m == 0 { exp - 1 } else { exp + i64::from(128 - m.leading_zeros()) - 1 };
    let lsb = (top - (p - 1)).max(i64::from(s.min_lsb()));
    let shift = lsb - exp;
    let (mut kept, lost) = if shift >= 0 {
        split(m, u32::try_from(shift).unwrap_or(u32::MAX), sticky)
    } else {
        // Only exact values can need a left shift (see `Exact`).
        (m << (-shift), Lost::Zero)
    };
    let mut lsb = lsb;
    if rounds_up(r, neg, lost, kept & 1 == 1) {
        kept += 1;
        if kept >> p != 0 {
            kept >>= 1;
            lsb += 1;
        }
    }
    if kept == 0 {
        return s.encode_zero(neg);
    }
    if overflows(s, kept, lsb) {
        return overflow(s, neg, r);
    }
    // In range, so the exponent fits in i32.
    s.encode_fin(neg, kept, i32::try_from(lsb).unwrap_or(i32::MAX))
}

/// Whether the rounded `kept * 2^lsb` exceeds the largest finite value:
/// beyond the top binade, or the all-ones pattern that is NaN in E4M3FN.
fn overflows(s: &Semantics, kept: u128, lsb: i64) -> bool {
    let e = lsb + i64::from(s.precision) - 1;
    let max_exp = i64::from(s.max_exp);
    e > max_exp || (e == max_exp && kept > s.max_sig())
}

/// `handleOverflow`: infinity (NaN where there is none) under nearest
/// rounding or rounding away from zero, else the largest finite value;
/// FiniteOnly formats always saturate.
pub fn overflow(s: &Semantics, neg: bool, r: Round) -> u128 {
    let away = match r {
        Round::NearestEven | Round::NearestAway => true,
        Round::Up => !neg,
        Round::Down => neg,
        Round::TowardZero => false,
    };
    match s.non_finite {
        NonFinite::FiniteOnly => s.encode_max(neg),
        _ if !away => s.encode_max(neg),
        NonFinite::NanOnly => s.encode_nan(neg && s.nan_encoding != NanEncoding::NegativeZero),
        NonFinite::Ieee => s.encode_inf(neg),
    }
}
