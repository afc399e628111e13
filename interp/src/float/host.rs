//! Fast paths on the host FPU for f32 and f64 under nearest-even rounding,
//! where IEEE 754 makes add/sub/mul/div/sqrt/fma correctly rounded and so
//! identical to the exact path. A NaN result returns `None` so the generic
//! path builds the canonical NaN (the host's NaN sign and payload differ).

use super::{Float, FloatKind, Round};

/// A binary operation with a host instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

macro_rules! host_bin {
    ($(#[$doc:meta])* $name:ident, $f:ty, $u:ty) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(op: Bin, a: $u, b: $u) -> Option<$u> {
            let (x, y) = (<$f>::from_bits(a), <$f>::from_bits(b));
            let r = match op {
                Bin::Add => x + y,
                Bin::Sub => x - y,
                Bin::Mul => x * y,
                Bin::Div => x / y,
            };
            (!r.is_nan()).then_some(r.to_bits())
        }
    };
}

host_bin!(
    /// `a op b` on f32 encodings, rounded to nearest-even; `None` for a NaN
    /// result (the generic path builds the canonical NaN). The engine's fast
    /// path calls this with the bits straight from its slots.
    bin32, f32, u32
);
host_bin!(
    /// [`bin32`] for f64 encodings.
    bin64, f64, u64
);

/// `maximumf` (`max`) / `minimumf` on f32 (`wide` false) or f64
/// encodings on the host's comparisons, as `sem::fp::maximumf` computes
/// it: a NaN operand is the result (the first, if both are), and -0 is
/// below +0.
#[inline(always)]
pub fn maximum(a: u64, b: u64, max: bool, wide: bool) -> u64 {
    let (x, y, neg) = if wide {
        (f64::from_bits(a), f64::from_bits(b), a >> 63 == 1)
    } else {
        (f64::from(f32::from_bits(a as u32)), f64::from(f32::from_bits(b as u32)), a >> 31 & 1 == 1)
    };
    if x.is_nan() {
        a
    } else if y.is_nan() {
        b
    } else if x > y {
        if max {
            a
        } else {
            b
        }
    } else if x < y {
        if max {
            b
        } else {
            a
        }
    } else if neg == max {
        b
    } else {
        a
    }
}

/// The two host formats.
#[derive(Clone, Copy)]
enum Host {
    F32,
    F64,
}

#[inline]
fn host(kind: FloatKind, r: Round) -> Option<Host> {
    match (kind, r) {
        (FloatKind::F32, Round::NearestEven) => Some(Host::F32),
        (FloatKind::F64, Round::NearestEven) => Some(Host::F64),
        _ => None,
    }
}

/// Applies `f32_op` or `f64_op` to the operands as host floats (unused
/// slots repeat an operand).
#[inline]
fn apply(
    kind: FloatKind,
    r: Round,
    args: [Float; 3],
    f32_op: fn([f32; 3]) -> f32,
    f64_op: fn([f64; 3]) -> f64,
) -> Option<Float> {
    let bits = match host(kind, r)? {
        Host::F32 => {
            let xs = args.map(|a| f32::from_bits(a.bits as u32));
            let y = f32_op(xs);
            (!y.is_nan()).then_some(u128::from(y.to_bits()))?
        }
        Host::F64 => {
            let xs = args.map(|a| f64::from_bits(a.bits as u64));
            let y = f64_op(xs);
            (!y.is_nan()).then_some(u128::from(y.to_bits()))?
        }
    };
    Some(Float { kind, bits })
}

/// `a + b` or `a - b`.
#[inline]
pub fn add_sub(a: Float, b: Float, r: Round, subtract: bool) -> Option<Float> {
    if subtract {
        apply(a.kind, r, [a, b, b], |x| x[0] - x[1], |x| x[0] - x[1])
    } else {
        apply(a.kind, r, [a, b, b], |x| x[0] + x[1], |x| x[0] + x[1])
    }
}

/// `a * b`.
#[inline]
pub fn mul(a: Float, b: Float, r: Round) -> Option<Float> {
    apply(a.kind, r, [a, b, b], |x| x[0] * x[1], |x| x[0] * x[1])
}

/// `a / b`.
#[inline]
pub fn div(a: Float, b: Float, r: Round) -> Option<Float> {
    apply(a.kind, r, [a, b, b], |x| x[0] / x[1], |x| x[0] / x[1])
}

/// `a * b + c`, fused.
#[inline]
pub fn fma(a: Float, b: Float, c: Float, r: Round) -> Option<Float> {
    apply(a.kind, r, [a, b, c], |x| x[0].mul_add(x[1], x[2]), |x| x[0].mul_add(x[1], x[2]))
}

/// `sqrt(a)`.
#[inline]
pub fn sqrt(a: Float, r: Round) -> Option<Float> {
    apply(a.kind, r, [a, a, a], |x| x[0].sqrt(), |x| x[0].sqrt())
}

/// `a` as a host f64 when its format is f32 or f64 (exactly: every f32 is
/// an f64), for comparisons and classification without decoding.
#[inline(always)]
pub fn as_f64(a: Float) -> Option<f64> {
    match a.kind {
        FloatKind::F32 => Some(f64::from(f32::from_bits(a.bits as u32))),
        FloatKind::F64 => Some(f64::from_bits(a.bits as u64)),
        _ => None,
    }
}

/// The encoding and width of an f32 or f64, for classification by bits.
#[inline(always)]
pub fn word(a: Float) -> Option<(u64, u32)> {
    match a.kind {
        FloatKind::F32 => Some((a.bits as u64 & 0xFFFF_FFFF, 32)),
        FloatKind::F64 => Some((a.bits as u64, 64)),
        _ => None,
    }
}

/// The encoding of +infinity in the `w`-bit host format (32 or 64): the
/// largest encoding below the NaNs once the sign is cleared.
#[inline(always)]
pub fn inf_bits(w: u32) -> u64 {
    if w == 32 {
        0x7F80_0000
    } else {
        0x7FF0_0000_0000_0000
    }
}

/// The f32 or f64 nearest (ties to even) to the integer `v` (signed when
/// `signed`, else the unsigned reading of its 64 bits), as `kind`'s
/// encoding: every 64-bit integer is finite in both, and the host's
/// conversion rounds exactly so. `None` for other formats.
#[inline(always)]
pub fn from_word(kind: FloatKind, v: u64, signed: bool) -> Option<u128> {
    Some(match (kind, signed) {
        (FloatKind::F32, true) => u128::from((v as i64 as f32).to_bits()),
        (FloatKind::F32, false) => u128::from((v as f32).to_bits()),
        (FloatKind::F64, true) => u128::from((v as i64 as f64).to_bits()),
        (FloatKind::F64, false) => u128::from((v as f64).to_bits()),
        _ => return None,
    })
}
