//! The `math` dialect, elementwise on scalars, vectors and tensors of every
//! float format. [`exec`] reads operands, calls one pure function, writes
//! results.
//!
//! Accuracy (the book, docs/src/semantics/index.md, "Math"):
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
use crate::float::libm::{self, Fn1, Fn2};
use crate::float::{self, Float, Round as R};
use crate::operands::{
    bad_shape, bad_types, float1_try as float1, float2_try as float2, float3, float_class as class, int1, libm1,
    libm_error,
};
use crate::sem::fp::{clampf, copysign};
use crate::sem::int::{absi, ctlz, ctpop, cttz, ipowi};
use crate::value::{map2, map2_pair, Scalar};
use mlir_ir::ir::OpId;
use mlir_ir::ops::MathOp;

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
