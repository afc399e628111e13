//! The `arith` dialect. Integer semantics are pure functions generic over
//! [`crate::value::Z`] (see `value.rs`), float semantics call `crate::float` for every
//! operation; [`exec`] only reads operands, calls one, writes results.
//!
//! Choices the sources leave open:
//! - Immediate UB (`divsi`/`divui`/`ceildiv*`/`floordivsi`/`remsi`/`remui` by
//!   zero; `divsi`/`ceildivsi`/`floordivsi` INT_MIN / -1) stops the run. For a
//!   vector, the first bad element stops it. `remsi(INT_MIN, -1)` is reported
//!   as UB too, as it is after lowering to `llvm.srem` (SEMANTICS item 3).
//! - A poison operand gives a poison result element by element (also for a
//!   poison divisor), keeping the op that created the poison.
//! - Fast-math flags are accepted and ignored: results are IEEE results.
//! - `maximumf`/`minimumf` return the NaN operand when one is NaN;
//!   `maxnumf`/`minnumf` order -0 below +0 like `maximumf`.
//! - `fptosi`/`fptoui` of NaN, inf or an out-of-range value give poison.

use crate::dense::{HostCast, IntBin};
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, host::Bin as FBin, Float, Round};
use crate::operands::{
    bad_shape, bad_types, bitcast, cast, convert, float1, float2, float_to_int, host_cast, host_lanes, int2, int2x,
    int_cast, int_to_float, result_to, select,
};
use crate::scalar::int_op;
use crate::sem::fp::*;
use crate::sem::int::*;
use crate::value::{map2, Dense, Int, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::ops::ArithOp;

/// Executes one arith op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: ArithOp) -> Result<Flow> {
    use ArithOp::*;
    let fl = e.aux[op.0 as usize].flags;
    let pred = e.aux[op.0 as usize].pred;
    let pol = e.cfg.float_policy;
    match kind {
        Constant => constant(e, fr, op),
        Addi if fl == 0 && host_lanes(e, fr, op, |a, b| Dense::host_int2(a, b, IntBin::Add))?.is_some() => {
            Ok(Flow::Next)
        }
        Addi => int2(e, fr, op, |w, a, b| int_op!(w, addi(a, b, fl))),
        Subi if fl == 0 && host_lanes(e, fr, op, |a, b| Dense::host_int2(a, b, IntBin::Sub))?.is_some() => {
            Ok(Flow::Next)
        }
        Subi => int2(e, fr, op, |w, a, b| int_op!(w, subi(a, b, fl))),
        Muli if fl == 0 && host_lanes(e, fr, op, |a, b| Dense::host_int2(a, b, IntBin::Mul))?.is_some() => {
            Ok(Flow::Next)
        }
        Muli => int2(e, fr, op, |w, a, b| int_op!(w, muli(a, b, fl))),
        Divsi => int2(e, fr, op, |w, a, b| int_op!(w, divsi(a, b, fl))),
        Divui => int2(e, fr, op, |w, a, b| int_op!(w, divui(a, b, fl))),
        Ceildivsi => int2(e, fr, op, |w, a, b| int_op!(w, ceildivsi(a, b))),
        Ceildivui => int2(e, fr, op, |w, a, b| int_op!(w, ceildivui(a, b))),
        Floordivsi => int2(e, fr, op, |w, a, b| int_op!(w, floordivsi(a, b))),
        Remsi => int2(e, fr, op, |w, a, b| int_op!(w, remsi(a, b))),
        Remui => int2(e, fr, op, |w, a, b| int_op!(w, remui(a, b))),
        Andi if host_lanes(e, fr, op, |a, b| Dense::host_int2(a, b, IntBin::And))?.is_some() => Ok(Flow::Next),
        Andi => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x & y, |x, y| x & y)))),
        Ori if host_lanes(e, fr, op, |a, b| Dense::host_int2(a, b, IntBin::Or))?.is_some() => Ok(Flow::Next),
        Ori => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x | y, |x, y| x | y)))),
        Xori if host_lanes(e, fr, op, |a, b| Dense::host_int2(a, b, IntBin::Xor))?.is_some() => Ok(Flow::Next),
        Xori => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x ^ y, |x, y| x ^ y)))),
        Shli => int2(e, fr, op, |w, a, b| int_op!(w, shli(a, b, fl))),
        Shrsi => int2(e, fr, op, |w, a, b| int_op!(w, shrsi(a, b, fl))),
        Shrui => int2(e, fr, op, |w, a, b| int_op!(w, shrui(a, b, fl))),
        Maxsi => int2(e, fr, op, |w, a, b| int_op!(w, maxsi(a, b))),
        Maxui => int2(e, fr, op, |w, a, b| int_op!(w, maxui(a, b))),
        Minsi => int2(e, fr, op, |w, a, b| int_op!(w, minsi(a, b))),
        Minui => int2(e, fr, op, |w, a, b| int_op!(w, minui(a, b))),
        AdduiExtended => int2x(e, fr, op, |w, a, b| int_op!(w, addui_extended(a, b))),
        MulsiExtended => int2x(e, fr, op, |w, a, b| int_op!(w, mulsi_extended(a, b))),
        MuluiExtended => int2x(e, fr, op, |w, a, b| int_op!(w, mului_extended(a, b))),
        Cmpi => int2(e, fr, op, |w, a, b| int_op!(w, cmpi(pred, a, b)).map(|c| Out::Val(Int::bool(c)))),
        Cmpf => match host_lanes(e, fr, op, |a, b| Dense::host_cmpf(a, b, pred))? {
            Some(flow) => Ok(flow),
            None => float2(e, fr, op, |a, b| Ok(Scalar::Int(Int::bool(cmpf(pred, a, b))))),
        },
        Select => select(e, fr, op),
        // Flagless casts of arrays: one host loop (`Dense::host_cast`).
        Extsi | IndexCast | Trunci | Sitofp
            if fl == 0 && host_cast(e, fr, op, HostCast::Signed, |_| None)?.is_some() =>
        {
            Ok(Flow::Next)
        }
        Extui | IndexCastui | Uitofp if fl == 0 && host_cast(e, fr, op, HostCast::Unsigned, |_| None)?.is_some() => {
            Ok(Flow::Next)
        }
        Extf | Truncf
            if (kind == Extf || round_mode(pred) == Round::NearestEven)
                && host_cast(e, fr, op, HostCast::Float, |f| {
                    let To::Float(k) = result_to(e, op).ok()? else { return None };
                    float::convert_with(f, k, Round::NearestEven, pol).ok()
                })?
                .is_some() =>
        {
            Ok(Flow::Next)
        }
        Extsi => int_cast(e, fr, op, |w, a, to| int_op!(w, extsi(a, to))),
        Extui => int_cast(e, fr, op, |w, a, to| int_op!(w, extui(a, to, fl))),
        Trunci => int_cast(e, fr, op, |w, a, to| int_op!(w, trunci(a, to, fl))),
        IndexCast => int_cast(e, fr, op, |w, a, to| int_op!(w, extsi(a, to))),
        IndexCastui => int_cast(e, fr, op, |w, a, to| int_op!(w, extui(a, to, fl))),
        Bitcast => cast(e, fr, op, |s, to| bitcast(op, s, to)),
        Sitofp => cast(e, fr, op, |s, to| int_to_float(op, s, to, true, pol)),
        Uitofp => cast(e, fr, op, |s, to| int_to_float(op, s, to, false, pol)),
        Fptosi => cast(e, fr, op, |s, to| float_to_int(op, s, to, true)),
        Fptoui => cast(e, fr, op, |s, to| float_to_int(op, s, to, false)),
        Extf => cast(e, fr, op, |s, to| convert(op, s, to, Round::NearestEven, pol)),
        Truncf => cast(e, fr, op, |s, to| convert(op, s, to, round_mode(pred), pol)),
        ScalingExtf => scaling(e, fr, op, false, Round::NearestEven, pol),
        ScalingTruncf => scaling(e, fr, op, true, round_mode(pred), pol),
        Addf => match host_lanes(e, fr, op, |a, b| Dense::host2(a, b, FBin::Add))? {
            Some(flow) => Ok(flow),
            None => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::add(a, b, Round::NearestEven)))),
        },
        Subf => match host_lanes(e, fr, op, |a, b| Dense::host2(a, b, FBin::Sub))? {
            Some(flow) => Ok(flow),
            None => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::sub(a, b, Round::NearestEven)))),
        },
        Mulf => match host_lanes(e, fr, op, |a, b| Dense::host2(a, b, FBin::Mul))? {
            Some(flow) => Ok(flow),
            None => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::mul(a, b, Round::NearestEven)))),
        },
        Divf if e.arg(fr, op, 0).is_ok_and(|v| matches!(v, Value::Array(_))) => {
            match host_lanes(e, fr, op, |a, b| Dense::host2(a, b, FBin::Div))? {
                Some(flow) => Ok(flow),
                None => float2(e, fr, op, |a, b| {
                    nan_free(op, a, b, pol, "divf")?;
                    Ok(Scalar::Float(float::div(a, b, Round::NearestEven)))
                }),
            }
        }
        Divf => float2(e, fr, op, |a, b| {
            nan_free(op, a, b, pol, "divf")?;
            Ok(Scalar::Float(float::div(a, b, Round::NearestEven)))
        }),
        Remf => float2(e, fr, op, |a, b| {
            nan_free(op, a, b, pol, "remf")?;
            Ok(Scalar::Float(float::rem(a, b)))
        }),
        Negf => float1(e, fr, op, float::neg),
        Maximumf => float2(e, fr, op, |a, b| Ok(Scalar::Float(maximumf(a, b, true)))),
        Minimumf => float2(e, fr, op, |a, b| Ok(Scalar::Float(maximumf(a, b, false)))),
        Maxnumf => float2(e, fr, op, |a, b| Ok(Scalar::Float(maxnumf(a, b, true)))),
        Minnumf => float2(e, fr, op, |a, b| Ok(Scalar::Float(maxnumf(a, b, false)))),
    }
}

// ---- plumbing ------------------------------------------------------------

/// Reports (under `--float-policy strict`) a `divf`/`remf` by zero in a
/// finite-only format (f4E2M1FN, f6E2M3FN, f6E3M2FN), whose IEEE result
/// (NaN for `0 / 0` and `x rem 0`, an infinity for `x / 0`) the format
/// cannot hold: APFloat has no value for it (its `makeNaN` is unreachable
/// there, and LLVM 22 builds an infinity the format lacks). `saturate` keeps
/// the ml_dtypes result (NaN mapped to -0, infinity to the largest value).
fn nan_free(op: OpId, a: Float, b: Float, pol: float::Policy, what: &str) -> Result<()> {
    let finite_only = !float::has_inf(b.kind) && !float::has_nan(b.kind);
    if pol != float::Policy::Strict || !float::is_zero(b) || !finite_only {
        return Ok(());
    }
    let name = b.kind.name();
    let msg = match what {
        "divf" if !float::is_zero(a) => {
            format!("{} / 0 is an infinity, which {name} cannot represent", float::to_f64(a))
        }
        "divf" => format!("0 / 0 is NaN, which {name} cannot represent"),
        _ => format!("{} rem 0 is NaN, which {name} cannot represent", float::to_f64(a)),
    };
    Err(Error::at(op, ErrorKind::NoDefinedResult(msg)))
}

/// `scaling_extf` (`extf(in) * extf(scale)`) and `scaling_truncf`
/// (`truncf(in / extf(scale))`), elementwise.
fn scaling(e: &Engine, fr: &mut Frame, op: OpId, trunc: bool, r: Round, pol: float::Policy) -> Result<Flow> {
    let To::Float(to) = result_to(e, op)? else { return Err(bad_types(op)) };
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let nd = |x: float::FloatError| Error::at(op, ErrorKind::NoDefinedResult(x.to_string()));
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(x), Scalar::Float(s)) if trunc => {
                let s = float::convert_with(*s, x.kind, Round::NearestEven, pol).map_err(nd)?;
                let q = float::div(*x, s, Round::NearestEven);
                float::convert_with(q, to, r, pol).map(Scalar::Float).map_err(nd)
            }
            (Scalar::Float(x), Scalar::Float(s)) => {
                let x = float::convert_with(*x, to, Round::NearestEven, pol).map_err(nd)?;
                let s = float::convert_with(*s, to, Round::NearestEven, pol).map_err(nd)?;
                Ok(Scalar::Float(float::mul(x, s, Round::NearestEven)))
            }
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// `arith.constant`: the value decoded at load time (or the literal with no
/// defined result found then, reported when the constant runs).
fn constant(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let aux = &e.aux[op.0 as usize];
    if let Some(m) = &aux.no_result {
        return Err(Error::at(op, ErrorKind::NoDefinedResult(m.clone())));
    }
    let v = aux.constant.clone().ok_or_else(|| bad_types(op))?;
    e.assign(fr, op, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn i(w: u32, v: i128) -> Int {
        Int::from_i128(w, v)
    }

    fn val(o: Option<Out>) -> i64 {
        match o {
            Some(Out::Val(x)) => x.to_i64().unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ceildivsi_reference_values() {
        let c = |a: i128, b: i128| val(int_op!(32, ceildivsi(&i(32, a), &i(32, b))));
        let (max, min) = (i32::MAX as i128, i32::MIN as i128);
        assert_eq!(c(max, -1), -2147483647);
        assert_eq!(c(min, 2), -1073741824);
        assert_eq!(c(min, -2), 1073741824);
        assert_eq!(c(min, max), -1);
        assert_eq!(c(min, min), 1);
        assert_eq!(c(max, min), 0);
        assert_eq!(val(int_op!(8, ceildivsi(&i(8, -128), &i(8, 7)))), -18);
        assert_eq!(val(int_op!(8, floordivsi(&i(8, 5), &i(8, -2)))), -3);
    }

    #[test]
    fn division_ub() {
        assert!(matches!(int_op!(8, divsi(&i(8, -128), &i(8, -1), 0)), Some(Out::Ub(_))));
        assert!(matches!(int_op!(8, remsi(&i(8, -128), &i(8, -1))), Some(Out::Ub(_))));
        assert!(matches!(int_op!(8, divui(&i(8, 3), &i(8, 0), 0)), Some(Out::Ub(_))));
        assert_eq!(val(int_op!(64, floordivsi(&i(64, -(i64::MAX as i128)), &i(64, -1)))), i64::MAX);
    }

    #[test]
    fn extended_multiplication() {
        let (l, h) = int_op!(1, mulsi_extended(&i(1, -1), &i(1, -1))).unwrap();
        assert_eq!((l.bits128(), h.bits128()), (Some(1), Some(0)));
        let (l, h) = int_op!(8, mulsi_extended(&i(8, -100), &i(8, -100))).unwrap();
        assert_eq!((l.to_i64(), h.to_i64()), (Some(16), Some(39)));
        let (l, h) = int_op!(8, mului_extended(&i(8, -100), &i(8, -100))).unwrap();
        assert_eq!((l.to_u64(), h.to_u64()), (Some(16), Some(95)));
        let (l, h) = int_op!(64, mului_extended(&i(64, -1), &i(64, -1))).unwrap();
        assert_eq!((l.to_u64(), h.to_u64()), (Some(1), Some(u64::MAX - 1)));
    }

    #[test]
    fn i1_is_minus_one_when_signed() {
        let (t, f) = (Int::bool(true), Int::bool(false));
        assert_eq!(int_op!(1, cmpi(2, &t, &f)), Some(true)); // slt
        assert_eq!(int_op!(1, cmpi(5, &f, &t)), Some(true)); // sge
        assert_eq!(int_op!(1, extui(&t, 8, NNEG)), Some(Out::Poison));
    }

    #[test]
    fn shifts_and_flags() {
        assert_eq!(int_op!(64, shli(&i(64, 1), &i(64, 64), 0)), Some(Out::Poison));
        assert_eq!(val(int_op!(64, shrui(&i(64, 4), &i(64, 32), 0))), 0);
        assert_eq!(val(int_op!(8, shrsi(&i(8, -7), &i(8, 1), 0))), -4);
        assert_eq!(int_op!(8, shrsi(&i(8, -7), &i(8, 1), EXACT)), Some(Out::Poison));
        assert_eq!(int_op!(8, shli(&i(8, 64), &i(8, 1), NSW)), Some(Out::Poison));
        assert_eq!(val(int_op!(8, shli(&i(8, 64), &i(8, 1), NUW))), -128);
        assert_eq!(int_op!(8, addi(&i(8, 127), &i(8, 1), NSW)), Some(Out::Poison));
        assert_eq!(val(int_op!(8, addi(&i(8, 127), &i(8, 1), NUW))), -128);
        assert_eq!(int_op!(8, addi(&i(8, -1), &i(8, 1), NUW)), Some(Out::Poison));
        assert_eq!(int_op!(64, muli(&i(64, -1), &i(64, 2), NUW)), Some(Out::Poison));
        assert_eq!(int_op!(16, trunci(&i(16, 200), 8, NSW)), Some(Out::Poison));
        assert_eq!(val(int_op!(16, trunci(&i(16, 200), 8, NUW))), -56);
        assert_eq!(int_op!(16, trunci(&i(16, 256), 8, NUW)), Some(Out::Poison));
    }

    /// Every i8 pair of the division family, against plain i16 arithmetic.
    #[test]
    fn all_i8_pairs_divisions() {
        for a in -128i128..128 {
            for b in -128i128..128 {
                let (x, y) = (i(8, a), i(8, b));
                let ub = b == 0 || (a == -128 && b == -1);
                match int_op!(8, divsi(&x, &y, 0)) {
                    Some(Out::Ub(_)) => assert!(ub),
                    Some(Out::Val(v)) => assert_eq!(v.to_i64(), Some((a / b) as i64)),
                    o => panic!("{o:?}"),
                }
                let big = int_op!(200, addi(&Int::from_i128(200, a), &Int::from_i128(200, b), 0));
                assert_eq!(big, Some(Out::Val(Int::from_big(200, &BigInt::from(a + b)))));
                let ua = a as u8 as i128;
                let ub_ = b as u8 as i128;
                if ub_ != 0 {
                    assert_eq!(val(int_op!(8, remui(&x, &y))) as u8 as i128, ua % ub_);
                }
            }
        }
    }
}
