//! The `llvm.intr.*` intrinsics that MLIR's lowerings emit, and the
//! atomics (`llvm.atomicrmw`, `llvm.cmpxchg`) of a single-threaded run.
//!
//! Semantics follow LLVM's LangRef; where the result depends on the code
//! LLVM generates, the choice is the one mlir-runner makes on x86-64:
//! - transcendental functions are glibc's (as `math` computes them);
//! - `powi` multiplies in the operand's format as compiler-rt's
//!   `__powisf2`/`__powidf2` do (f16/bf16 through f32), rounding each step;
//! - `fmuladd` is fused (one rounding), like `fma`;
//! - `vector.reduce.fadd`/`fmul` are ordered (start value, then lane 0
//!   on) unless the op carries `reassoc`; then the lanes are halved
//!   pairwise as LLVM's shuffle reduction does for power-of-two lane
//!   counts, and the start value is combined with the result.

use super::common::{ptr_lanes, unsupported, vector_dims_of};
use super::mem;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::libm::{self, Fn1, Fn2};
use crate::float::{self, Float, FloatKind, Round};
use crate::memory::{Lane, Ptr};
use crate::operands::{
    bad_shape, bad_types, float1_try, float2_try, float3, float_class, int1, int2, libm1, libm_error, place,
};
use crate::scalar::int_op;
use crate::sem::fp::{copysign, maximumf, maxnumf};
use crate::sem::int::*;
use crate::value::{map1, map2_pair, Int, Packed, Poison, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::LlvmOp;
use mlir_ir::parser::ATOMIC_BIN_OPS;
use std::rc::Rc;

const R: Round = Round::NearestEven;

/// Executes one intrinsic.
pub(super) fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    use LlvmOp::*;
    let pol = e.cfg.float_policy;
    match kind {
        Fabs => float1_try(e, fr, op, |x| Ok(float::abs(x))),
        Sqrt => float1_try(e, fr, op, |x| Ok(float::sqrt(x, R))),
        Ceil => float1_try(e, fr, op, |x| Ok(float::round_to_integral(x, float::Round::Up))),
        Floor => float1_try(e, fr, op, |x| Ok(float::round_to_integral(x, float::Round::Down))),
        Round => float1_try(e, fr, op, |x| Ok(float::round_to_integral(x, float::Round::NearestAway))),
        // `rint`/`nearbyint` round in the current mode: the default one.
        Roundeven | Rint | Nearbyint => float1_try(e, fr, op, |x| Ok(float::round_to_integral(x, R))),
        Truncf => float1_try(e, fr, op, |x| Ok(float::round_to_integral(x, float::Round::TowardZero))),
        Sin => libm1(e, fr, op, Fn1::Sin),
        Cos => libm1(e, fr, op, Fn1::Cos),
        Tan => libm1(e, fr, op, Fn1::Tan),
        Asin => libm1(e, fr, op, Fn1::Asin),
        Acos => libm1(e, fr, op, Fn1::Acos),
        Atan => libm1(e, fr, op, Fn1::Atan),
        Sinh => libm1(e, fr, op, Fn1::Sinh),
        Cosh => libm1(e, fr, op, Fn1::Cosh),
        Tanh => libm1(e, fr, op, Fn1::Tanh),
        Exp => libm1(e, fr, op, Fn1::Exp),
        Exp2 => libm1(e, fr, op, Fn1::Exp2),
        Log => libm1(e, fr, op, Fn1::Log),
        Log2 => libm1(e, fr, op, Fn1::Log2),
        Log10 => libm1(e, fr, op, Fn1::Log10),
        Exp10 => float1_try(e, fr, op, |x| {
            let ten = float::convert_with(float::from_bits(FloatKind::F64, 10f64.to_bits().into()), x.kind, R, pol)
                .map_err(|_| unsupported(op, "exp10 in this format"))?;
            libm::binary(Fn2::Pow, ten, x, pol).map_err(|err| libm_error(e, op, err))
        }),
        Pow => float2_try(e, fr, op, |x, y| libm::binary(Fn2::Pow, x, y, pol).map_err(|err| libm_error(e, op, err))),
        Atan2 => {
            float2_try(e, fr, op, |y, x| libm::binary(Fn2::Atan2, y, x, pol).map_err(|err| libm_error(e, op, err)))
        }
        Powi => powi(e, fr, op),
        Copysign => float2_try(e, fr, op, |x, y| Ok(copysign(x, y))),
        Minnum => float2_try(e, fr, op, |x, y| Ok(maxnumf(x, y, false))),
        Maxnum => float2_try(e, fr, op, |x, y| Ok(maxnumf(x, y, true))),
        Minimum => float2_try(e, fr, op, |x, y| Ok(maximumf(x, y, false))),
        Maximum => float2_try(e, fr, op, |x, y| Ok(maximumf(x, y, true))),
        Fma | Fmuladd => float3(e, fr, op, |a, b, c| Ok(float::fma(a, b, c, R))),
        Sincos => sincos(e, fr, op),
        Smax => int2(e, fr, op, |w, a, b| int_op!(w, maxsi(a, b))),
        Smin => int2(e, fr, op, |w, a, b| int_op!(w, minsi(a, b))),
        Umax => int2(e, fr, op, |w, a, b| int_op!(w, maxui(a, b))),
        Umin => int2(e, fr, op, |w, a, b| int_op!(w, minui(a, b))),
        Ctpop => int1(e, fr, op, ctpop),
        Bitreverse => int1(e, fr, op, bitreverse),
        Bswap => int1(e, fr, op, bswap),
        Ctlz | Cttz | Abs => poisoning_unary(e, fr, op, kind),
        IsFpclass => {
            let mask = e.ints_attr(op, "bit")?.and_then(|v| v.first().copied()).unwrap_or(0);
            float_class(e, fr, op, |x| fp_class(x) & mask != 0)
        }
        SaddWithOverflow | UaddWithOverflow | SsubWithOverflow | UsubWithOverflow | SmulWithOverflow
        | UmulWithOverflow => with_overflow(e, fr, op, kind),
        Memcpy | Memmove => mem_copy(e, fr, op, kind == Memcpy),
        Memset => mem_set(e, fr, op),
        MaskedLoad | MaskedExpandload => masked_load(e, fr, op, kind == MaskedExpandload),
        MaskedStore | MaskedCompressstore => masked_store(e, fr, op, kind == MaskedCompressstore),
        MaskedGather => masked_gather(e, fr, op),
        MaskedScatter => masked_scatter(e, fr, op),
        VectorInsert | VectorExtract => subvector(e, fr, op, kind == VectorInsert),
        MatrixTranspose => matrix_transpose(e, fr, op),
        MatrixMultiply => matrix_multiply(e, fr, op),
        Stacksave => {
            let mark = e.mem.stack_mark();
            e.assign(fr, op, Value::Ptr(Ptr { buf: None, offset: mark as i64 }))
        }
        Stackrestore => {
            let Value::Ptr(Ptr { buf: None, offset }) = e.arg(fr, op, 0)? else {
                return Err(Error::at(
                    op,
                    ErrorKind::Ub("llvm.intr.stackrestore of a pointer stacksave did not make".into()),
                ));
            };
            let mark = usize::try_from(*offset).map_err(|_| Error::unverified(op, "bad stack mark"))?;
            e.mem.stack_restore(mark);
            Ok(Flow::Next)
        }
        Assume => assume(e, fr, op),
        // A hint: no effect on what the program computes.
        Prefetch => Ok(Flow::Next),
        Vscale => {
            let w = e.int_width(e.result_type(op, 0)).ok_or_else(|| bad_types(op))?;
            e.assign(fr, op, Value::int(Int::from_u128(w, u128::from(e.cfg.vscale))))
        }
        Stepvector => {
            let ty = e.result_type(op, 0);
            let dims = vector_dims_of(e, op, ty)?;
            let elem = match e.m.ctx.type_kind(ty) {
                mlir_ir::types::TypeKind::Vector { elem, .. } => *elem,
                _ => return Err(bad_types(op)),
            };
            let w = e.int_width(elem).ok_or_else(|| bad_types(op))?;
            let n: usize = dims.iter().product();
            let lanes = (0..n).map(|k| Scalar::Int(Int::from_u128(w, k as u128))).collect();
            let v = crate::operands::array(op, &dims, lanes)?;
            e.assign(fr, op, v)
        }
        _ => match reduction(kind) {
            Some((r, vp)) => reduce(e, fr, op, r, vp),
            None => Err(unsupported(op, format!("operation '{}'", e.m.op_name(op)))),
        },
    }
}

/// Bits reversed.
fn bitreverse(a: &Int) -> Int {
    let w = a.width();
    let u = a.to_ubig();
    let mut r = num_bigint::BigUint::default();
    for k in 0..u64::from(w) {
        if u.bit(k) {
            r.set_bit(u64::from(w) - 1 - k, true);
        }
    }
    Int::from_big(w, &num_bigint::BigInt::from(r))
}

/// Bytes reversed (the verifier admits widths that are multiples of 16).
fn bswap(a: &Int) -> Int {
    let w = a.width();
    let mut bytes = a.to_ubig().magnitude().to_bytes_le();
    bytes.resize(w.div_ceil(8) as usize, 0);
    bytes.reverse();
    Int::from_big(w, &num_bigint::BigInt::from(num_bigint::BigUint::from_bytes_le(&bytes)))
}

/// `ctlz`/`cttz` (poison for 0 with `is_zero_poison`) and `abs` (poison
/// for the most negative value with `is_int_min_poison`).
fn poisoning_unary(e: &Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    let flag = |name: &str| e.flag(op, name);
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Int(i) => Ok(match kind {
                LlvmOp::Ctlz | LlvmOp::Cttz if flag("is_zero_poison") && !i.is_nonzero() => Scalar::Poison(Poison(op)),
                LlvmOp::Ctlz => Scalar::Int(ctlz(i)),
                LlvmOp::Cttz => Scalar::Int(cttz(i)),
                _ if flag("is_int_min_poison") && i.width() > 0 && absi(i) == *i && i.is_nonzero() => {
                    Scalar::Poison(Poison(op))
                }
                _ => Scalar::Int(absi(i)),
            }),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// The `is.fpclass` bit of `x`: 0 signaling NaN, 1 quiet NaN, 2 -inf,
/// 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf.
fn fp_class(x: Float) -> i64 {
    let neg = float::is_negative(x);
    let bit = if float::is_nan(x) {
        // The quiet bit is the top stored significand bit of the IEEE
        // formats; the small formats have no signaling NaN.
        let quiet_bit = match x.kind {
            FloatKind::F16 => Some(9),
            FloatKind::BF16 => Some(6),
            FloatKind::F32 => Some(22),
            FloatKind::F64 => Some(51),
            FloatKind::F80 => Some(62),
            FloatKind::F128 => Some(111),
            _ => None,
        };
        match quiet_bit {
            Some(b) if x.bits >> b & 1 == 0 => 0,
            _ => 1,
        }
    } else if float::is_inf(x) {
        if neg {
            2
        } else {
            9
        }
    } else if float::is_zero(x) {
        if neg {
            5
        } else {
            6
        }
    } else if float::is_normal(x) {
        if neg {
            3
        } else {
            8
        }
    } else if neg {
        4
    } else {
        7
    };
    1 << bit
}

/// `powi(x, n)` as compiler-rt computes it: square-and-multiply in the
/// operand's format (f16 and bf16 promoted to f32), then `1 / r` for a
/// negative exponent.
fn powi(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let pol = e.cfg.float_policy;
    let conv = |x: Float, k: FloatKind| float::convert_with(x, k, R, pol).map_err(|_| bad_types(op));
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let (v, _) = map2_pair(
        a,
        b,
        |x, n| match (x, n) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok((Scalar::Poison(*p), Scalar::Poison(*p))),
            (Scalar::Float(x), Scalar::Int(n)) => {
                let n = n.to_i64().ok_or_else(|| bad_types(op))?;
                let work = match x.kind {
                    FloatKind::F16 | FloatKind::BF16 => FloatKind::F32,
                    k => k,
                };
                let mut a = conv(*x, work)?;
                let mut r = conv(float::from_bits(FloatKind::F64, 1f64.to_bits().into()), work)?;
                let mut m = n.unsigned_abs();
                loop {
                    if m & 1 == 1 {
                        r = float::mul(r, a, R);
                    }
                    m /= 2;
                    if m == 0 {
                        break;
                    }
                    a = float::mul(a, a, R);
                }
                if n < 0 {
                    let one = conv(float::from_bits(FloatKind::F64, 1f64.to_bits().into()), work)?;
                    r = float::div(one, r, R);
                }
                let r = Scalar::Float(conv(r, x.kind)?);
                Ok((r.clone(), r))
            }
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// `sincos(x)`: the struct `{sin x, cos x}`.
fn sincos(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let pol = e.cfg.float_policy;
    let a = e.arg(fr, op, 0)?;
    let f = |x: Float, g: Fn1| libm::unary(g, x, pol).map(Scalar::Float).map_err(|err| libm_error(e, op, err));
    let (s, c) = map2_pair(
        a,
        a,
        |x, _| match x {
            Scalar::Poison(p) => Ok((Scalar::Poison(*p), Scalar::Poison(*p))),
            Scalar::Float(x) => Ok((f(*x, Fn1::Sin)?, f(*x, Fn1::Cos)?)),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, Value::Agg(Rc::from(vec![s, c])))
}

/// `{s,u}{add,sub,mul}.with.overflow`: the struct `{wrapped result,
/// overflowed}`.
fn with_overflow(e: &Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    use LlvmOp::*;
    let w = crate::operands::operand_width(e, op)?;
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let (signed_fl, plain) = match kind {
        SaddWithOverflow | SsubWithOverflow | SmulWithOverflow => (NSW, 0),
        _ => (NUW, 0),
    };
    let f = |fl: u8, x: &Int, y: &Int| -> Option<Out> {
        match kind {
            SaddWithOverflow | UaddWithOverflow => int_op!(w, addi(x, y, fl)),
            SsubWithOverflow | UsubWithOverflow => int_op!(w, subi(x, y, fl)),
            _ => int_op!(w, muli(x, y, fl)),
        }
    };
    let (r, o) = map2_pair(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok((Scalar::Poison(*p), Scalar::Poison(*p))),
            (Scalar::Int(x), Scalar::Int(y)) => {
                let Some(Out::Val(v)) = f(plain, x, y) else { return Err(bad_types(op)) };
                // The flagged op gives poison exactly when the result overflows.
                let over = matches!(f(signed_fl, x, y), Some(Out::Poison));
                Ok((Scalar::Int(v), Scalar::Int(Int::bool(over))))
            }
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, Value::Agg(Rc::from(vec![r, o])))
}

/// The lanes of vector operand `i`.
fn lanes(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Vec<Scalar>> {
    match e.arg(fr, op, i)? {
        Value::Array(d) => Ok(d.iter().collect()),
        Value::Scalar(Packed::Poison(p)) => Ok(vec![Scalar::Poison(*p)]),
        _ => Err(Error::unverified(op, "expected a vector operand")),
    }
}

/// The combining operation of a reduction intrinsic.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Red {
    Add,
    Mul,
    And,
    Or,
    Xor,
    Smax,
    Smin,
    Umax,
    Umin,
    Fadd,
    Fmul,
    Fmax,
    Fmin,
    Fmaximum,
    Fminimum,
}

/// The reduction `kind` performs, and whether it is a `vp.` one (start,
/// vector, mask, explicit vector length) or takes a start value (`fadd`,
/// `fmul`: start, vector) or not (the rest: vector).
fn reduction(kind: LlvmOp) -> Option<(Red, bool)> {
    use LlvmOp::*;
    Some(match kind {
        ReduceAdd => (Red::Add, false),
        ReduceMul => (Red::Mul, false),
        ReduceAnd => (Red::And, false),
        ReduceOr => (Red::Or, false),
        ReduceXor => (Red::Xor, false),
        ReduceSmax => (Red::Smax, false),
        ReduceSmin => (Red::Smin, false),
        ReduceUmax => (Red::Umax, false),
        ReduceUmin => (Red::Umin, false),
        ReduceFadd => (Red::Fadd, false),
        ReduceFmul => (Red::Fmul, false),
        ReduceFmax => (Red::Fmax, false),
        ReduceFmin => (Red::Fmin, false),
        ReduceFmaximum => (Red::Fmaximum, false),
        ReduceFminimum => (Red::Fminimum, false),
        VpReduceAdd => (Red::Add, true),
        VpReduceMul => (Red::Mul, true),
        VpReduceAnd => (Red::And, true),
        VpReduceOr => (Red::Or, true),
        VpReduceXor => (Red::Xor, true),
        VpReduceSmax => (Red::Smax, true),
        VpReduceSmin => (Red::Smin, true),
        VpReduceUmax => (Red::Umax, true),
        VpReduceUmin => (Red::Umin, true),
        VpReduceFadd => (Red::Fadd, true),
        VpReduceFmul => (Red::Fmul, true),
        VpReduceFmax => (Red::Fmax, true),
        VpReduceFmin => (Red::Fmin, true),
        VpReduceFmaximum => (Red::Fmaximum, true),
        VpReduceFminimum => (Red::Fminimum, true),
        _ => return None,
    })
}

/// One step of reduction `r` (integers wrap; poison in gives poison).
fn combine(op: OpId, r: Red, a: &Scalar, b: &Scalar) -> Result<Scalar> {
    let bits = |f: fn(u128, u128) -> u128,
                g: fn(&num_bigint::BigInt, &num_bigint::BigInt) -> num_bigint::BigInt,
                x,
                y| { Some(Out::Val(bitwise(x, y, f, g))) };
    Ok(match (a, b) {
        (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Scalar::Poison(*p),
        (Scalar::Int(x), Scalar::Int(y)) => {
            let w = x.width();
            let out = match r {
                Red::Add => int_op!(w, addi(x, y, 0)),
                Red::Mul => int_op!(w, muli(x, y, 0)),
                Red::And => bits(|p, q| p & q, |p, q| p & q, x, y),
                Red::Or => bits(|p, q| p | q, |p, q| p | q, x, y),
                Red::Xor => bits(|p, q| p ^ q, |p, q| p ^ q, x, y),
                Red::Smax => int_op!(w, maxsi(x, y)),
                Red::Smin => int_op!(w, minsi(x, y)),
                Red::Umax => int_op!(w, maxui(x, y)),
                Red::Umin => int_op!(w, minui(x, y)),
                _ => None,
            };
            match out {
                Some(Out::Val(v)) => Scalar::Int(v),
                _ => return Err(bad_types(op)),
            }
        }
        (Scalar::Float(x), Scalar::Float(y)) => Scalar::Float(match r {
            Red::Fadd => float::add(*x, *y, R),
            Red::Fmul => float::mul(*x, *y, R),
            Red::Fmax => maxnumf(*x, *y, true),
            Red::Fmin => maxnumf(*x, *y, false),
            Red::Fmaximum => maximumf(*x, *y, true),
            Red::Fminimum => maximumf(*x, *y, false),
            _ => return Err(bad_types(op)),
        }),
        _ => return Err(bad_types(op)),
    })
}

/// `vector.reduce.*(v)`, `vector.reduce.fadd/fmul(start, v)` and
/// `vp.reduce.*(start, v, mask, evl)` (only lanes below `evl` whose mask
/// bit is set take part; the start value comes first). Float `fadd` and
/// `fmul` are ordered, or halved pairwise with `reassoc` (see the module
/// documentation).
fn reduce(e: &Engine, fr: &mut Frame, op: OpId, r: Red, vp: bool) -> Result<Flow> {
    let has_start = vp || matches!(r, Red::Fadd | Red::Fmul);
    let start = if has_start { Some(e.arg(fr, op, 0)?.scalar().ok_or_else(|| bad_types(op))?) } else { None };
    let mut xs = lanes(e, fr, op, usize::from(has_start))?;
    if vp {
        let on = mask(e, fr, op, 2, xs.len())?;
        let evl = match e.arg(fr, op, 3)?.scalar() {
            Some(Scalar::Int(n)) => n.to_u64().unwrap_or(u64::MAX),
            Some(Scalar::Poison(p)) => return e.assign(fr, op, Value::from_scalar(Scalar::Poison(p))),
            _ => return Err(bad_types(op)),
        };
        if evl > xs.len() as u64 {
            // LangRef: an explicit vector length past the vector's is UB.
            return Err(Error::at(
                op,
                ErrorKind::Ub(format!("explicit vector length {evl} exceeds the vector's {} lanes", xs.len())),
            ));
        }
        xs = xs.into_iter().zip(on).take(evl as usize).filter(|(_, m)| *m).map(|(x, _)| x).collect();
    }
    let tree = matches!(r, Red::Fadd | Red::Fmul) && reassoc(e, op) && xs.len().is_power_of_two() && xs.len() > 1;
    if tree {
        while xs.len() > 1 {
            let h = xs.len() / 2;
            xs = (0..h).map(|k| combine(op, r, &xs[k], &xs[k + h])).collect::<Result<_>>()?;
        }
    }
    let mut acc = start;
    for x in xs {
        acc = Some(match acc {
            None => x,
            Some(a) => combine(op, r, &a, &x)?,
        });
    }
    let v = acc.ok_or_else(|| unsupported(op, "a reduction of an empty vector"))?;
    e.assign(fr, op, Value::from_scalar(v))
}

/// Whether the op's fast-math flags allow reassociation.
fn reassoc(e: &Engine, op: OpId) -> bool {
    match e.m.attr(op, "fastmathFlags").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Dialect { body, .. }) => {
            let flags = body.split_once('<').map_or("", |(_, f)| f.trim_end_matches('>'));
            flags.split(',').any(|f| matches!(f.trim(), "reassoc" | "fast"))
        }
        _ => false,
    }
}

/// The byte count operand `i` of a memory intrinsic.
fn byte_count(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<usize> {
    let v = e.arg(fr, op, i)?;
    e.observe(op, v, "used as a byte count")?;
    match v.scalar() {
        Some(Scalar::Int(n)) => n
            .to_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| Error::at(op, ErrorKind::Resource(format!("a memory intrinsic of {} bytes", n.to_ubig())))),
        _ => Err(bad_types(op)),
    }
}

/// `memcpy(dst, src, n)` / `memmove`: bytes with their defined or poison
/// state; ranges that overlap without being equal are undefined behaviour
/// for `memcpy` (LangRef: "which must either be equal or non-overlapping";
/// finalize-memref-to-llvm lowers a `memref.copy` of a buffer onto itself
/// to exactly that).
fn mem_copy(e: &Engine, fr: &mut Frame, op: OpId, memcpy: bool) -> Result<Flow> {
    let n = byte_count(e, fr, op, 2)?;
    if n == 0 {
        return Ok(Flow::Next);
    }
    let what = if memcpy { "llvm.intr.memcpy" } else { "llvm.intr.memmove" };
    let (dst, d) = place(e, op, e.arg(fr, op, 0)?, n, what)?;
    let (src, s) = place(e, op, e.arg(fr, op, 1)?, n, what)?;
    if memcpy && Rc::ptr_eq(&dst, &src) && d != s && d < s + n && s < d + n {
        let origin = src.borrow().origin;
        return Err(crate::memory::mem_ub(
            op,
            origin,
            format!("llvm.intr.memcpy of overlapping ranges ({n} bytes from offset {s} to offset {d})"),
        ));
    }
    let bytes: Vec<std::result::Result<u8, Poison>> = {
        let b = src.borrow();
        (s..s + n).map(|i| b.byte(i)).collect()
    };
    let mut b = dst.borrow_mut();
    check_writable(e, op, &b)?;
    for (k, x) in bytes.into_iter().enumerate() {
        match x {
            Ok(v) => b.write_bytes(d + k, &[v]),
            Err(p) => {
                b.write_lane(d + k, Lane::Int(8), &Scalar::Poison(p));
            }
        }
    }
    Ok(Flow::Next)
}

/// Fails on memory that must not be stored into.
fn check_writable(e: &Engine, op: OpId, b: &crate::memory::Buffer) -> Result<()> {
    match b.read_only {
        Some(why) => Err(crate::memory::mem_ub(
            op,
            b.origin,
            format!("{} writes into {why} ({})", e.m.op_name(op), crate::operands::alloc_name(e, b.origin)),
        )),
        None => Ok(()),
    }
}

/// `memset(dst, byte, n)`.
fn mem_set(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = byte_count(e, fr, op, 2)?;
    let x = e.arg(fr, op, 1)?.scalar().ok_or_else(|| bad_types(op))?;
    if n == 0 {
        return Ok(Flow::Next);
    }
    let (dst, d) = place(e, op, e.arg(fr, op, 0)?, n, "llvm.intr.memset")?;
    let mut b = dst.borrow_mut();
    check_writable(e, op, &b)?;
    for k in 0..n {
        b.write_lane(d + k, Lane::Int(8), &x).ok_or_else(|| bad_types(op))?;
    }
    Ok(Flow::Next)
}

/// The enabled lanes of mask operand `i`, which has `n` lanes (a poison
/// mask lane is UB to rely on: reported).
fn mask(e: &Engine, fr: &Frame, op: OpId, i: usize, n: usize) -> Result<Vec<bool>> {
    let m = lanes(e, fr, op, i)?;
    if m.len() != n {
        return Err(Error::unverified(op, format!("a mask of {} lanes for {n} lanes of data", m.len())));
    }
    m.into_iter()
        .map(|s| match s {
            Scalar::Int(b) => Ok(b.is_nonzero()),
            Scalar::Poison(origin) => {
                Err(Error::at(op, ErrorKind::Poison { what: "used as a mask lane".into(), origin: origin.0 }))
            }
            _ => Err(bad_types(op)),
        })
        .collect()
}

/// The pointer `p` moved by `bytes`.
fn offset_ptr(p: &Value, bytes: usize) -> Value {
    match p {
        Value::Ptr(p) => Value::Ptr(Ptr { buf: p.buf.clone(), offset: p.offset.wrapping_add(bytes as i64) }),
        v => v.clone(),
    }
}

/// The lane kind of vector type `ty`'s elements.
fn elem_lane(e: &Engine, op: OpId, ty: mlir_ir::types::TypeId) -> Result<Lane> {
    match e.m.ctx.type_kind(ty) {
        mlir_ir::types::TypeKind::Vector { elem, .. } => {
            crate::operands::lane_of(e, *elem).ok_or_else(|| unsupported(op, "masked accesses of this element type"))
        }
        _ => Err(bad_types(op)),
    }
}

/// The alignment the masked memory intrinsics assume for every lane
/// (`expandload`/`compressstore` carry none: byte-aligned).
fn lane_align(e: &Engine, op: OpId) -> Result<u64> {
    Ok(e.ints_attr(op, "alignment")?.and_then(|v| v.first().copied()).map_or(1, |a| a.max(1) as u64))
}

/// The lanes of the passthru operand `i`, if there is one.
fn passthru(e: &Engine, fr: &Frame, op: OpId, i: usize, n: usize) -> Result<Option<Vec<Scalar>>> {
    if e.m.operands(op).len() <= i {
        return Ok(None);
    }
    let pass = lanes(e, fr, op, i)?;
    match pass.len() {
        1 if n != 1 => Ok(Some(vec![pass[0].clone(); n])),
        k if k == n => Ok(Some(pass)),
        _ => Err(bad_shape(op)()),
    }
}

/// The loaded vector of a masked load or gather: lane `k` read through
/// `at(k)` (a lane's address, asked only for enabled lanes, in order)
/// where the mask is set, else from the passthru operand (poison without
/// one); the reads assume the op's alignment.
fn load_lanes(
    e: &Engine,
    fr: &mut Frame,
    op: OpId,
    what: &str,
    mut at: impl FnMut(usize) -> Result<Value>,
) -> Result<Flow> {
    let ty = e.result_type(op, 0);
    let lane = elem_lane(e, op, ty)?;
    let dims = vector_dims_of(e, op, ty)?;
    let on = mask(e, fr, op, 1, dims.iter().product())?;
    let pass = passthru(e, fr, op, 2, on.len())?;
    let align = lane_align(e, op)?;
    let mut out = Vec::with_capacity(on.len());
    for (k, enabled) in on.iter().enumerate() {
        if !enabled {
            out.push(pass.as_ref().map_or(Scalar::Poison(Poison(op)), |v| v[k].clone()));
            continue;
        }
        let (buf, i) = mem::access_bytes(e, op, &at(k)?, lane.bytes(), align, what)?;
        let s = buf.borrow().read_lane(i, lane);
        out.push(s);
    }
    let v = crate::operands::array(op, &dims, out)?;
    e.assign(fr, op, v)
}

/// A masked store or scatter: lane `k` of operand 0 written through
/// `at(k)` where mask operand 2 is set, in lane order (a later lane wins
/// where addresses alias).
fn store_lanes(
    e: &Engine,
    fr: &Frame,
    op: OpId,
    what: &str,
    mut at: impl FnMut(usize) -> Result<Value>,
) -> Result<Flow> {
    let ty = e.operand_type(op, 0).ok_or_else(|| bad_types(op))?;
    let lane = elem_lane(e, op, ty)?;
    let vals = lanes(e, fr, op, 0)?;
    let on = mask(e, fr, op, 2, vals.len())?;
    let align = lane_align(e, op)?;
    for (k, enabled) in on.iter().enumerate() {
        if !enabled {
            continue;
        }
        let (buf, i) = mem::access_bytes(e, op, &at(k)?, lane.bytes(), align, what)?;
        let mut b = buf.borrow_mut();
        check_writable(e, op, &b)?;
        b.write_lane(i, lane, &vals[k]).ok_or_else(|| bad_types(op))?;
    }
    Ok(Flow::Next)
}

/// Lane `k`'s address in a masked access of `p`: element `k`, or for
/// `expandload`/`compressstore` the next element after the enabled lanes
/// before it.
fn consecutive(
    e: &Engine,
    op: OpId,
    p: Value,
    ty: mlir_ir::types::TypeId,
    packed: bool,
) -> Result<impl FnMut(usize) -> Result<Value>> {
    let bytes = elem_lane(e, op, ty)?.bytes();
    let mut next = 0;
    Ok(move |k| {
        let at = if packed { next } else { k };
        next += 1;
        Ok(offset_ptr(&p, at * bytes))
    })
}

/// `masked.load(p, mask, passthru)`: lane `k` from `p + k` where the mask
/// is set (only those lanes must be in bounds and aligned), else from
/// `passthru`. `expandload` reads consecutive elements into the enabled lanes.
fn masked_load(e: &Engine, fr: &mut Frame, op: OpId, expand: bool) -> Result<Flow> {
    let what = if expand { "llvm.intr.masked.expandload" } else { "llvm.intr.masked.load" };
    let at = consecutive(e, op, e.arg(fr, op, 0)?.clone(), e.result_type(op, 0), expand)?;
    load_lanes(e, fr, op, what, at)
}

/// `masked.store(v, p, mask)` / `compressstore(v, p, mask)`.
fn masked_store(e: &Engine, fr: &mut Frame, op: OpId, compress: bool) -> Result<Flow> {
    let what = if compress { "llvm.intr.masked.compressstore" } else { "llvm.intr.masked.store" };
    let ty = e.operand_type(op, 0).ok_or_else(|| bad_types(op))?;
    let at = consecutive(e, op, e.arg(fr, op, 1)?.clone(), ty, compress)?;
    store_lanes(e, fr, op, what, at)
}

/// `masked.gather(ptrs, mask, passthru)`: lane `k` loaded through pointer
/// `k` where the mask is set (only those pointers must be valid), else
/// from `passthru`.
fn masked_gather(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = vector_dims_of(e, op, e.result_type(op, 0))?.iter().product();
    let ptrs = ptr_lanes(op, e.arg(fr, op, 0)?, n)?;
    load_lanes(e, fr, op, "llvm.intr.masked.gather", |k| Ok(ptrs[k].clone()))
}

/// `masked.scatter(v, ptrs, mask)`: lane `k` stored through pointer `k`.
fn masked_scatter(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let ty = e.operand_type(op, 0).ok_or_else(|| bad_types(op))?;
    let ptrs = ptr_lanes(op, e.arg(fr, op, 1)?, vector_dims_of(e, op, ty)?.iter().product())?;
    store_lanes(e, fr, op, "llvm.intr.masked.scatter", |k| Ok(ptrs[k].clone()))
}

/// `llvm.intr.vector.insert %sub, %v[pos]` / `vector.extract %v[pos]`: a
/// piece of a 1-D vector at lane `pos` (times vscale for a scalable piece).
/// A piece reaching past the end makes the result poison (LangRef).
fn subvector(e: &Engine, fr: &mut Frame, op: OpId, insert: bool) -> Result<Flow> {
    let ty = e.result_type(op, 0);
    let (whole, piece_ty) = if insert {
        (lanes(e, fr, op, 0)?, e.operand_type(op, 1).ok_or_else(|| bad_types(op))?)
    } else {
        (lanes(e, fr, op, 0)?, ty)
    };
    let mlir_ir::types::TypeKind::Vector { shape, scalable, .. } = e.m.ctx.type_kind(piece_ty) else {
        return Err(bad_types(op));
    };
    let min_len = shape.iter().product::<i64>().max(0) as usize;
    let piece_dims = vector_dims_of(e, op, piece_ty)?;
    let len: usize = piece_dims.iter().product();
    let pos = e.i64s(op, "pos")?.first().copied().unwrap_or(0);
    // The verifier admits only non-negative multiples of the piece's length.
    let pos = usize::try_from(pos).map_err(|_| Error::unverified(op, format!("negative position {pos}")))?;
    debug_assert!(min_len == 0 || pos % min_len == 0, "verified position {pos} of a {min_len}-lane piece");
    let start = if scalable.iter().any(|s| *s) { pos * e.cfg.vscale as usize } else { pos };
    let fits = start.checked_add(len).is_some_and(|end| end <= whole.len());
    let out_dims = vector_dims_of(e, op, ty)?;
    let out: Vec<Scalar> = match (fits, insert) {
        (false, _) => vec![Scalar::Poison(Poison(op)); out_dims.iter().product()],
        (true, true) => {
            let piece = lanes(e, fr, op, 1)?;
            let mut v = whole;
            v[start..start + len].clone_from_slice(
                piece.get(..len).ok_or_else(|| Error::unverified(op, "a piece shorter than its type"))?,
            );
            v
        }
        (true, false) => whole[start..start + len].to_vec(),
    };
    let v = crate::operands::array(op, &out_dims, out)?;
    e.assign(fr, op, v)
}

/// The `i32` attribute `name` of a matrix intrinsic, a dimension.
fn matrix_dim(e: &Engine, op: OpId, name: &str) -> Result<usize> {
    let d = e.ints_attr(op, name)?.and_then(|v| v.first().copied());
    d.and_then(|d| usize::try_from(d).ok())
        .ok_or_else(|| Error::unverified(op, format!("missing or negative '{name}'")))
}

/// Where element (`i`, `j`) of a `rows` x `cols` matrix sits in its flat
/// vector: column by column (LangRef), or row by row under mlir-runner's
/// `-matrix-default-layout=row-major`.
fn matrix_at(e: &Engine, i: usize, j: usize, rows: usize, cols: usize) -> usize {
    if e.cfg.matrix_row_major {
        i * cols + j
    } else {
        j * rows + i
    }
}

/// `llvm.intr.matrix.transpose %m {rows, columns}`: the `columns` x `rows`
/// transpose.
fn matrix_transpose(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (rows, cols) = (matrix_dim(e, op, "rows")?, matrix_dim(e, op, "columns")?);
    let m = lanes(e, fr, op, 0)?;
    if rows.checked_mul(cols) != Some(m.len()) {
        return Err(Error::unverified(op, format!("a {rows} x {cols} matrix in a vector of {} lanes", m.len())));
    }
    let mut out = m.clone();
    for i in 0..rows {
        for j in 0..cols {
            out[matrix_at(e, j, i, cols, rows)] = m[matrix_at(e, i, j, rows, cols)].clone();
        }
    }
    let v = crate::operands::array(op, &[out.len()], out)?;
    e.assign(fr, op, v)
}

/// `llvm.intr.matrix.multiply %a, %b {lhs_rows, lhs_columns, rhs_columns}`:
/// each result element sums its products in ascending order as LLVM's
/// lowering does (integers wrap; floats round each step, or fuse each
/// multiply-add after the first product under `-matrix-allow-contract`).
fn matrix_multiply(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (m, n, k) =
        (matrix_dim(e, op, "lhs_rows")?, matrix_dim(e, op, "lhs_columns")?, matrix_dim(e, op, "rhs_columns")?);
    let (a, b) = (lanes(e, fr, op, 0)?, lanes(e, fr, op, 1)?);
    if m.checked_mul(n) != Some(a.len()) || n.checked_mul(k) != Some(b.len()) {
        let msg = format!("{m} x {n} times {n} x {k} matrices in vectors of {} and {} lanes", a.len(), b.len());
        return Err(Error::unverified(op, msg));
    }
    let mut out = vec![Scalar::Poison(Poison(op)); m * k];
    for i in 0..m {
        for j in 0..k {
            let mut sum: Option<Scalar> = None;
            for t in 0..n {
                let (x, y) = (&a[matrix_at(e, i, t, m, n)], &b[matrix_at(e, t, j, n, k)]);
                let (mul, add) =
                    if matches!(x, Scalar::Float(_)) { (Red::Fmul, Red::Fadd) } else { (Red::Mul, Red::Add) };
                sum = Some(match sum {
                    None => combine(op, mul, x, y)?,
                    Some(Scalar::Float(s)) if e.cfg.matrix_contract => match (x, y) {
                        (Scalar::Float(x), Scalar::Float(y)) => Scalar::Float(float::fma(*x, *y, s, R)),
                        _ => combine(op, add, &Scalar::Float(s), &combine(op, mul, x, y)?)?,
                    },
                    Some(s) => combine(op, add, &s, &combine(op, mul, x, y)?)?,
                });
            }
            out[matrix_at(e, i, j, m, k)] =
                sum.ok_or_else(|| Error::unverified(op, "a matrix product over 0 columns"))?;
        }
    }
    let v = crate::operands::array(op, &[out.len()], out)?;
    e.assign(fr, op, v)
}

/// `llvm.intr.assume %c ["align"(%p, %n)]`: a false condition, or a
/// pointer without the alignment a bundle claims, is undefined behaviour.
fn assume(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    if !e.cond(op, e.arg(fr, op, 0)?, "used as an llvm.intr.assume condition")? {
        return Err(Error::at(op, ErrorKind::Ub("llvm.intr.assume of a false condition".into())));
    }
    let sizes = e.i64s(op, "op_bundle_sizes").unwrap_or_default();
    let tags: Vec<String> = match e.m.attr(op, "op_bundle_tags").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Array(items)) => items
            .iter()
            .map(|a| match e.m.ctx.attr_kind(*a) {
                Attribute::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
                _ => String::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut at = 1;
    for (tag, n) in tags.iter().zip(sizes) {
        let n = n.max(0) as usize;
        if tag == "align" && n >= 2 {
            let (p, a) = (e.arg(fr, op, at)?, e.arg(fr, op, at + 1)?);
            if let (Value::Ptr(p), Some(Scalar::Int(a))) = (p, a.scalar()) {
                let a = a.to_u64().unwrap_or(1).max(1);
                if p.addr() % a != 0 {
                    let msg = format!("llvm.intr.assume claims address {:#x} is {a}-byte aligned", p.addr());
                    return Err(Error::at(op, ErrorKind::Ub(msg)));
                }
            }
        }
        at += n;
    }
    Ok(Flow::Next)
}

/// `llvm.atomicrmw op %p, %v`: the old value; memory gets `old op v`.
pub(super) fn atomic_rmw(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let bin = e.ints_attr(op, "bin_op")?.and_then(|v| v.first().copied()).unwrap_or(-1);
    let name = usize::try_from(bin).ok().and_then(|k| ATOMIC_BIN_OPS.get(k).copied()).unwrap_or("");
    let (p, v) = (e.arg(fr, op, 0)?.clone(), e.arg(fr, op, 1)?.clone());
    let old = mem::load_typed(e, op, &p, e.result_type(op, 0), "llvm.atomicrmw")?;
    let new = match (old.scalar(), v.scalar()) {
        (Some(Scalar::Poison(x)), _) | (_, Some(Scalar::Poison(x))) => Value::from_scalar(Scalar::Poison(x)),
        (Some(Scalar::Int(a)), Some(Scalar::Int(b))) => Value::int(rmw_int(op, name, &a, &b)?),
        (Some(Scalar::Float(a)), Some(Scalar::Float(b))) => Value::float(match name {
            "xchg" => b,
            "fadd" => float::add(a, b, R),
            "fsub" => float::sub(a, b, R),
            "fmax" => maxnumf(a, b, true),
            "fmin" => maxnumf(a, b, false),
            "fmaximum" => maximumf(a, b, true),
            "fminimum" => maximumf(a, b, false),
            _ => return Err(bad_types(op)),
        }),
        _ if name == "xchg" => v.clone(),
        _ => return Err(bad_types(op)),
    };
    mem::store_typed(e, op, &p, e.result_type(op, 0), &new, "llvm.atomicrmw")?;
    e.assign(fr, op, old)
}

/// The integer `atomicrmw` operations.
fn rmw_int(op: OpId, name: &str, a: &Int, b: &Int) -> Result<Int> {
    let w = a.width();
    let val = |o: Option<Out>| match o {
        Some(Out::Val(v)) => Ok(v),
        _ => Err(bad_types(op)),
    };
    let ge = int_op!(w, cmpi(9, a, b)).ok_or_else(|| bad_types(op))?;
    let zero = Int::from_u128(w, 0);
    let one = Int::from_u128(w, 1);
    Ok(match name {
        "xchg" => b.clone(),
        "add" => val(int_op!(w, addi(a, b, 0)))?,
        "sub" => val(int_op!(w, subi(a, b, 0)))?,
        "_and" => bitwise(a, b, |x, y| x & y, |x, y| x & y),
        "nand" => {
            let and = bitwise(a, b, |x, y| x & y, |x, y| x & y);
            bitwise(&and, &Int::from_i128(w, -1), |x, y| x ^ y, |x, y| x ^ y)
        }
        "_or" => bitwise(a, b, |x, y| x | y, |x, y| x | y),
        "_xor" => bitwise(a, b, |x, y| x ^ y, |x, y| x ^ y),
        "max" => val(int_op!(w, maxsi(a, b)))?,
        "min" => val(int_op!(w, minsi(a, b)))?,
        "umax" => val(int_op!(w, maxui(a, b)))?,
        "umin" => val(int_op!(w, minui(a, b)))?,
        // (old >= v) ? 0 : old + 1
        "uinc_wrap" => {
            if ge {
                zero
            } else {
                val(int_op!(w, addi(a, &one, 0)))?
            }
        }
        // (old == 0 || old > v) ? v : old - 1
        "udec_wrap" => {
            let gt = int_op!(w, cmpi(8, a, b)).ok_or_else(|| bad_types(op))?;
            if !a.is_nonzero() || gt {
                b.clone()
            } else {
                val(int_op!(w, subi(a, &one, 0)))?
            }
        }
        "usub_cond" => {
            if ge {
                val(int_op!(w, subi(a, b, 0)))?
            } else {
                a.clone()
            }
        }
        "usub_sat" => {
            if ge {
                val(int_op!(w, subi(a, b, 0)))?
            } else {
                zero
            }
        }
        _ => return Err(bad_types(op)),
    })
}

/// `llvm.cmpxchg %p, %cmp, %new`: `{old, old == cmp}`; memory gets `new`
/// when they are equal.
pub(super) fn cmpxchg(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let ty = e.operand_type(op, 1).ok_or_else(|| bad_types(op))?;
    let (p, cmp, new) = (e.arg(fr, op, 0)?.clone(), e.arg(fr, op, 1)?.clone(), e.arg(fr, op, 2)?.clone());
    let old = mem::load_typed(e, op, &p, ty, "llvm.cmpxchg")?;
    e.observe(op, &old, "compared by llvm.cmpxchg")?;
    e.observe(op, &cmp, "compared by llvm.cmpxchg")?;
    let same = match (&old, &cmp) {
        (Value::Ptr(a), Value::Ptr(b)) => a.addr() == b.addr(),
        (a, b) if a.as_int().is_some() && b.as_int().is_some() => a.as_int() == b.as_int(),
        _ => return Err(bad_types(op)),
    };
    if same {
        mem::store_typed(e, op, &p, ty, &new, "llvm.cmpxchg")?;
    }
    e.assign(fr, op, Value::Agg(Rc::from(vec![old, Value::int(Int::bool(same))])))
}
