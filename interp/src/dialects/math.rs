//! The `math` dialect, elementwise on scalars, vectors and tensors of every
//! float format. [`exec`] reads operands, calls one pure function, writes
//! results.
//!
//! Accuracy (README, "Semantic choices"):
//! - Exact, correctly rounded in every format: `absf`, `copysign`, `ceil`,
//!   `floor`, `round` (ties away), `roundeven`, `trunc`, `sqrt`, `rsqrt`,
//!   `fma`, `fpowi` (IEEE `pown`), `clampf`, the class tests, and the integer
//!   ops `absi`, `ctlz`, `cttz`, `ctpop`, `ipowi`.
//! - Through libm (`float::libm`): the transcendental functions, computed as
//!   LLVM 22's lowering computes them on this host (glibc for f32/f64,
//!   f32 and back for narrower formats); f80/f128 are unsupported.
//!
//! Choices the sources leave open or that differ from the default lowering:
//! - `expm1`, `log1p` are the functions themselves (libm `expm1`, `log1p`);
//!   `convert-math-to-llvm` expands them to `exp(x) - 1` and `log(1 + x)`,
//!   which lose all precision near 0.
//! - `rsqrt` and `fpowi` are rounded once; the lowerings compute
//!   `1 / sqrt(x)` and repeated squaring, rounding every step.
//! - `clampf(x, lo, hi)` is `maximumf(minimumf(x, lo), hi)`, exactly as
//!   `MathOps.td` defines it and `math-expand-ops` expands it.
//! - `ipowi(0, n < 0)` is undefined behaviour (the reference expansion in
//!   `convert-math-to-funcs` divides by zero there); other results wrap.
//! - `ctlz`/`cttz` of 0 give the bit width (LLVM's `is_zero_poison` false).

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::libm::{self, Fn1, Fn2, LibmError};
use crate::float::{self, Float, Round as R};
use crate::value::{map1, map2, map2_pair, Int, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::ops::MathOp;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// Executes one math op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, o: MathOp) -> Result<Flow> {
    use MathOp::*;
    let pol = e.cfg.float_policy;
    match o {
        Absf => float1(e, fr, op, |x| Ok(float::abs(x))),
        Copysign => float2(e, fr, op, |x, y| Ok(copysign(x, y))),
        Ceil => float1(e, fr, op, |x| Ok(float::round_to_integral(x, R::Up))),
        Floor => float1(e, fr, op, |x| Ok(float::round_to_integral(x, R::Down))),
        Round => float1(e, fr, op, |x| Ok(float::round_to_integral(x, R::NearestAway))),
        Roundeven => float1(e, fr, op, |x| Ok(float::round_to_integral(x, R::NearestEven))),
        Trunc => float1(e, fr, op, |x| Ok(float::round_to_integral(x, R::TowardZero))),
        Sqrt => float1(e, fr, op, |x| Ok(float::sqrt(x, R::NearestEven))),
        Rsqrt => float1(e, fr, op, |x| Ok(float::rsqrt(x, R::NearestEven))),
        Fma => float3(e, fr, op, |a, b, c| Ok(float::fma(a, b, c, R::NearestEven))),
        Clampf => float3(e, fr, op, |x, lo, hi| Ok(clampf(x, lo, hi))),
        Fpowi => powi_float(e, fr, op),
        Ipowi => powi_int(e, fr, op),
        Cbrt => libm1(e, fr, op, Fn1::Cbrt),
        Exp => libm1(e, fr, op, Fn1::Exp),
        Exp2 => libm1(e, fr, op, Fn1::Exp2),
        Expm1 => libm1(e, fr, op, Fn1::Expm1),
        Log => libm1(e, fr, op, Fn1::Log),
        Log2 => libm1(e, fr, op, Fn1::Log2),
        Log10 => libm1(e, fr, op, Fn1::Log10),
        Log1p => libm1(e, fr, op, Fn1::Log1p),
        Sin => libm1(e, fr, op, Fn1::Sin),
        Cos => libm1(e, fr, op, Fn1::Cos),
        Tan => libm1(e, fr, op, Fn1::Tan),
        Asin => libm1(e, fr, op, Fn1::Asin),
        Acos => libm1(e, fr, op, Fn1::Acos),
        Atan => libm1(e, fr, op, Fn1::Atan),
        Sinh => libm1(e, fr, op, Fn1::Sinh),
        Cosh => libm1(e, fr, op, Fn1::Cosh),
        Tanh => libm1(e, fr, op, Fn1::Tanh),
        Asinh => libm1(e, fr, op, Fn1::Asinh),
        Acosh => libm1(e, fr, op, Fn1::Acosh),
        Atanh => libm1(e, fr, op, Fn1::Atanh),
        Erf => libm1(e, fr, op, Fn1::Erf),
        Erfc => libm1(e, fr, op, Fn1::Erfc),
        Powf => float2(e, fr, op, |x, y| libm::binary(Fn2::Pow, x, y, pol).map_err(|err| libm_error(e, op, err))),
        Atan2 => float2(e, fr, op, |y, x| libm::binary(Fn2::Atan2, y, x, pol).map_err(|err| libm_error(e, op, err))),
        Sincos => sincos(e, fr, op),
        Isnan => class(e, fr, op, float::is_nan),
        Isinf => class(e, fr, op, float::is_inf),
        Isfinite => class(e, fr, op, |x| !float::is_nan(x) && !float::is_inf(x)),
        Isnormal => class(e, fr, op, float::is_normal),
        Absi => int1(e, fr, op, absi),
        Ctlz => int1(e, fr, op, ctlz),
        Cttz => int1(e, fr, op, cttz),
        Ctpop => int1(e, fr, op, ctpop),
    }
}

// ---- semantics (pure) ------------------------------------------------------

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
    let m = crate::sem::fp::maximumf(x, lo, false);
    crate::sem::fp::maximumf(m, hi, true)
}

/// `absi`: wraps, so the most negative value is its own absolute value.
pub fn absi(a: &Int) -> Int {
    let v = a.to_sbig();
    Int::from_big(a.width(), &v.abs())
}

/// Leading zero bits; the width for 0.
pub fn ctlz(a: &Int) -> Int {
    let len = a.to_ubig().bits();
    Int::from_u128(a.width(), u128::from(u64::from(a.width()).saturating_sub(len)))
}

/// Trailing zero bits; the width for 0.
pub fn cttz(a: &Int) -> Int {
    let n = a.to_ubig().trailing_zeros().unwrap_or(u64::from(a.width()));
    Int::from_u128(a.width(), u128::from(n))
}

/// Set bits.
pub fn ctpop(a: &Int) -> Int {
    let n: u64 = a.to_ubig().magnitude().iter_u64_digits().map(|d| u64::from(d.count_ones())).sum();
    Int::from_u128(a.width(), u128::from(n))
}

/// `ipowi(a, b)` on `w`-bit integers: `a^b` modulo 2^w for `b >= 0`
/// (`a^0` is 1); for `b < 0`, 1 and -1 give `1/a^|b|`, any other
/// non-zero `a` gives 0 and `a = 0` is a division by zero (`None`).
pub fn ipowi(a: &Int, b: &Int) -> Option<Int> {
    let w = a.width();
    let (x, n) = (a.to_sbig(), b.to_sbig());
    if !n.is_negative() {
        let m = BigInt::one() << w;
        return Some(Int::from_big(w, &x.modpow(&n, &m)));
    }
    if x.is_zero() {
        return None;
    }
    let r = if x.is_one() {
        BigInt::one()
    } else if x == -BigInt::one() {
        if n.bit(0) {
            -BigInt::one()
        } else {
            BigInt::one()
        }
    } else {
        BigInt::zero()
    };
    Some(Int::from_big(w, &r))
}

// ---- plumbing ----------------------------------------------------------------

fn bad_types(op: OpId) -> Error {
    Error::at(op, ErrorKind::Invalid("operand types do not match the op".into()))
}

fn bad_shape(op: OpId) -> impl Fn() -> Error {
    move || Error::at(op, ErrorKind::Invalid("operand shapes do not match".into()))
}

/// A libm failure as an engine error at `op`.
fn libm_error(e: &Engine, op: OpId, err: LibmError) -> Error {
    let name = e.m.op_name(op);
    match err {
        LibmError::Unsupported(_, kind) => Error::at(
            op,
            ErrorKind::Unsupported(format!("'{name}' on {}: no libm routine for this format", kind.name())),
        ),
        LibmError::NoResult(f) => Error::at(op, ErrorKind::NoDefinedResult(format!("'{name}': {f}"))),
    }
}

fn libm1(e: &Engine, fr: &mut Frame, op: OpId, f: Fn1) -> Result<Flow> {
    let pol = e.cfg.float_policy;
    float1(e, fr, op, |x| libm::unary(f, x, pol).map_err(|err| libm_error(e, op, err)))
}

/// A unary float op, elementwise; poison in gives poison out.
fn float1(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float) -> Result<Float>) -> Result<Flow> {
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Float(x) => f(*x).map(Scalar::Float),
            Scalar::Int(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A binary float op, elementwise.
fn float2(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float, Float) -> Result<Float>) -> Result<Flow> {
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(x), Scalar::Float(y)) => f(*x, *y).map(Scalar::Float),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A ternary float op (`fma`, `clampf`), elementwise.
fn float3(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float, Float, Float) -> Result<Float>) -> Result<Flow> {
    let args = [e.arg(fr, op, 0)?, e.arg(fr, op, 1)?, e.arg(fr, op, 2)?];
    let one = |xs: [&Scalar; 3]| match xs {
        [Scalar::Poison(p), _, _] | [_, Scalar::Poison(p), _] | [_, _, Scalar::Poison(p)] => Ok(Scalar::Poison(*p)),
        [Scalar::Float(a), Scalar::Float(b), Scalar::Float(c)] => f(*a, *b, *c).map(Scalar::Float),
        _ => Err(bad_types(op)),
    };
    let v = match args {
        [Value::Scalar(a), Value::Scalar(b), Value::Scalar(c)] => Value::Scalar(one([a, b, c])?),
        [Value::Array(a), Value::Array(b), Value::Array(c)] if a.shape() == b.shape() && a.shape() == c.shape() => {
            let elems = a.iter().zip(b.iter()).zip(c.iter()).map(|((x, y), z)| one([&x, &y, &z]));
            let elems = elems.collect::<Result<Vec<_>>>()?;
            crate::operands::array(op, a.shape(), elems)?
        }
        _ => return Err(bad_shape(op)()),
    };
    e.assign(fr, op, v)
}

/// A class test (`isnan`, ...): float in, i1 out.
fn class(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float) -> bool) -> Result<Flow> {
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Float(x) => Ok(Scalar::Int(Int::bool(f(*x)))),
            Scalar::Int(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A unary integer op, elementwise.
fn int1(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(&Int) -> Int) -> Result<Flow> {
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Int(i) => Ok(Scalar::Int(f(i))),
            Scalar::Float(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// `fpowi`: float base, signed integer exponent, rounded once.
fn powi_float(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, n| match (x, n) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(x), Scalar::Int(n)) => Ok(Scalar::Float(float::powi(*x, &n.to_sbig(), R::NearestEven))),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// `ipowi`, elementwise; `0^negative` stops the run.
fn powi_int(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, n| match (x, n) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Int(x), Scalar::Int(n)) => ipowi(x, n).map(Scalar::Int).ok_or_else(|| {
                let msg = format!("division by zero: 0 raised to the negative power {} in 'math.ipowi'", n.to_sbig());
                Error::at(op, ErrorKind::Ub(msg))
            }),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// `sincos`: both results of one operand.
fn sincos(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let a = e.arg(fr, op, 0)?;
    let pol = e.cfg.float_policy;
    let f = |x: Float, g: Fn1| libm::unary(g, x, pol).map(Scalar::Float).map_err(|err| libm_error(e, op, err));
    let (s, c) = map2_pair(
        a,
        a,
        |x, _| match x {
            Scalar::Poison(p) => Ok((Scalar::Poison(*p), Scalar::Poison(*p))),
            Scalar::Float(x) => Ok((f(*x, Fn1::Sin)?, f(*x, Fn1::Cos)?)),
            Scalar::Int(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign_all(fr, op, vec![s, c])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(w: u32, v: i128) -> Int {
        Int::from_i128(w, v)
    }

    #[test]
    fn integer_ops() {
        assert_eq!(absi(&i(8, -128)), i(8, -128));
        assert_eq!(absi(&i(8, -5)), i(8, 5));
        assert_eq!(ctlz(&i(8, 0)), i(8, 8));
        assert_eq!(ctlz(&i(8, 1)), i(8, 7));
        assert_eq!(ctlz(&i(200, 1)), i(200, 199));
        assert_eq!(cttz(&i(8, 0)), i(8, 8));
        assert_eq!(cttz(&i(8, -128)), i(8, 7));
        assert_eq!(ctpop(&i(8, -1)), i(8, 8));
        assert_eq!(ctpop(&i(300, -1)), i(300, 300));
    }

    #[test]
    fn ipowi_rules() {
        assert_eq!(ipowi(&i(8, 3), &i(8, 5)), Some(i(8, 243 - 256)));
        assert_eq!(ipowi(&i(8, 0), &i(8, 0)), Some(i(8, 1)));
        assert_eq!(ipowi(&i(8, 0), &i(8, -1)), None);
        assert_eq!(ipowi(&i(8, -1), &i(8, -3)), Some(i(8, -1)));
        assert_eq!(ipowi(&i(8, -1), &i(8, -4)), Some(i(8, 1)));
        assert_eq!(ipowi(&i(8, 1), &i(8, -4)), Some(i(8, 1)));
        assert_eq!(ipowi(&i(8, 2), &i(8, -1)), Some(i(8, 0)));
        assert_eq!(ipowi(&i(1, -1), &i(1, 0)), Some(i(1, 1)));
    }
}
