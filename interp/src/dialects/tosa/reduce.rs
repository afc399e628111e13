//! tosa's reductions, `argmax` and `matmul`, folding in the pseudocode's
//! order (increasing index along the reduced axis) in the accumulator type
//! it names: the element type for floats, `i32` for integer sums, the
//! output type for `matmul` (`i32` for i8, `i48` for i16 operands).

use super::{build, float_at, ignore_nan, int_at, int_attr, int_scalar, invalid, operand_elem, require, result_elem};
use super::{scalar_operand, signed_range, Elem};
use crate::error::Result;
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, Float, FloatKind, Ordering, Round};
use crate::operands::dense;
use crate::value::{Dense, Scalar};
use mlir_ir::ir::OpId;
use mlir_ir::ops::TosaOp;

const RNE: Round = Round::NearestEven;

/// The (outer, axis, inner) extents of `shape` around `axis`.
fn split(e: &Engine, op: OpId, shape: &[usize]) -> Result<(usize, usize, usize, usize)> {
    let a = int_attr(e, op, "axis")?;
    let ax = usize::try_from(a)
        .ok()
        .filter(|a| *a < shape.len())
        .ok_or_else(|| invalid(op, format!("axis {a} out of range")))?;
    Ok((ax, shape[..ax].iter().product(), shape[ax], shape[ax + 1..].iter().product()))
}

/// `max`/`min` of two floats as `apply_max_s`/`apply_min_s` define them.
pub(super) fn fmax(a: Float, b: Float, max: bool, ignore: bool) -> Float {
    if float::is_nan(a) || float::is_nan(b) {
        return match (ignore, float::is_nan(a)) {
            (false, _) => float::nan(a.kind),
            (true, true) => b,
            (true, false) => a,
        };
    }
    let c = float::compare(a, b);
    let take_a = if max { c != Ordering::Less } else { c == Ordering::Less };
    if take_a {
        a
    } else {
        b
    }
}

/// The float of format `k` with integer value `v` (0 or 1 here).
fn small(k: FloatKind, v: i64) -> Float {
    float::from_int(&num_bigint::BigInt::from(v), k, RNE).unwrap_or_else(|_| float::nan(k))
}

/// `reduce_all`, `reduce_any`, `reduce_max`, `reduce_min`,
/// `reduce_product`, `reduce_sum`: the axis keeps size 1.
pub(super) fn reduce(e: &mut Engine, fr: &mut Frame, op: OpId, kind: TosaOp) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let (ax, outer, n, inner) = split(e, op, x.shape())?;
    let et = operand_elem(e, op, 0)?;
    let ignore = ignore_nan(e, op);
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let s = match et {
                Elem::Bool => {
                    let mut acc = kind == TosaOp::ReduceAll;
                    for k in 0..n {
                        let v = int_at(op, &x, at(k))? != 0;
                        acc = if kind == TosaOp::ReduceAll { acc & v } else { acc | v };
                    }
                    int_scalar(1, i64::from(acc))
                }
                Elem::Int(w) => {
                    let (lo, hi) = signed_range(w);
                    let mut acc: i64 = match kind {
                        TosaOp::ReduceMax => lo,
                        TosaOp::ReduceMin => hi,
                        TosaOp::ReduceProduct => 1,
                        _ => 0,
                    };
                    for k in 0..n {
                        let v = int_at(op, &x, at(k))?;
                        acc = match kind {
                            TosaOp::ReduceMax => acc.max(v),
                            TosaOp::ReduceMin => acc.min(v),
                            TosaOp::ReduceProduct => acc.wrapping_mul(v),
                            _ => {
                                // acc_t is i32 (i64 for i64 input).
                                let (alo, ahi) = signed_range(w.max(32));
                                let c = i128::from(acc) + i128::from(v);
                                if c < i128::from(alo) || c > i128::from(ahi) {
                                    return Err(require(
                                        op,
                                        format!("reduce_sum overflows i{}: {acc} + {v}", w.max(32)),
                                    ));
                                }
                                c as i64
                            }
                        };
                    }
                    int_scalar(w, acc)
                }
                Elem::Float(k) => {
                    let mut acc = match kind {
                        TosaOp::ReduceMax | TosaOp::ReduceMin if ignore => float::nan(k),
                        TosaOp::ReduceMax => float::neg(inf(k)),
                        TosaOp::ReduceMin => inf(k),
                        TosaOp::ReduceProduct => small(k, 1),
                        _ => small(k, 0),
                    };
                    for j in 0..n {
                        let v = float_at(op, &x, at(j))?;
                        acc = match kind {
                            TosaOp::ReduceMax => fmax(acc, v, true, ignore),
                            TosaOp::ReduceMin => fmax(acc, v, false, ignore),
                            TosaOp::ReduceProduct => float::mul(acc, v, RNE),
                            _ => float::add(acc, v, RNE),
                        };
                    }
                    Scalar::Float(acc)
                }
            };
            elems.push(s);
        }
    }
    let mut shape = x.shape().to_vec();
    shape[ax] = 1;
    let v = build(e, op, 0, &shape, elems)?;
    e.assign(fr, op, v)
}

/// `minimum_s` of float format `k`: minus infinity, or the most negative
/// value where the format has no infinity.
pub(super) fn lowest(k: FloatKind) -> Float {
    float::neg(inf(k))
}

/// The infinity of format `k`, or its largest value where it has none
/// (the spec's `minimum_s`/`maximum_s` of a float).
fn inf(k: FloatKind) -> Float {
    let f64_of = |v: f64| Float { kind: FloatKind::F64, bits: u128::from(v.to_bits()) };
    if float::has_inf(k) {
        return float::convert(f64_of(f64::INFINITY), k, RNE).unwrap_or_else(|_| float::nan(k));
    }
    float::convert(f64_of(f64::MAX), k, Round::TowardZero).unwrap_or_else(|_| float::nan(k))
}

/// `tosa.argmax %x {axis, nan_mode}`: the first index of the largest value
/// (of the first NaN under PROPAGATE); the axis is dropped.
pub(super) fn argmax(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let (ax, outer, n, inner) = split(e, op, x.shape())?;
    let et = operand_elem(e, op, 0)?;
    let ow = match result_elem(e, op, 0)? {
        Elem::Int(w) => w,
        _ => return Err(invalid(op, "argmax result must be integer")),
    };
    let ignore = ignore_nan(e, op);
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let mut best = 0usize;
            match et {
                Elem::Float(k) => {
                    let mut m = if ignore { float::nan(k) } else { float::neg(inf(k)) };
                    for j in 0..n {
                        let r = fmax(float_at(op, &x, at(j))?, m, true, ignore);
                        if float::compare(r, m) != Ordering::Equal && !(float::is_nan(r) && float::is_nan(m)) {
                            m = r;
                            best = j;
                        }
                    }
                }
                Elem::Int(w) => {
                    let mut m = signed_range(w).0;
                    for j in 0..n {
                        let v = int_at(op, &x, at(j))?;
                        if v > m {
                            m = v;
                            best = j;
                        }
                    }
                }
                Elem::Bool => return Err(invalid(op, "argmax of booleans")),
            }
            if best as u64 > signed_range(ow).1 as u64 {
                return Err(require(op, format!("argmax index {best} does not fit i{ow}")));
            }
            elems.push(int_scalar(ow, best as i64));
        }
    }
    let mut shape = x.shape().to_vec();
    shape.remove(ax);
    let v = build(e, op, 0, &shape, elems)?;
    e.assign(fr, op, v)
}

/// A zero-point operand's value (0 for floats: the verifier checks it).
fn zero_point(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<i64> {
    Ok(match scalar_operand(e, fr, op, i)? {
        Scalar::Int(v) => v.to_i64().unwrap_or(0),
        _ => 0,
    })
}

/// `tosa.matmul %a, %b, %a_zp, %b_zp`: `[N,H,C] x [N,C,W] -> [N,H,W]`.
pub(super) fn matmul(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (a, b) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    let (&[na, h, c], &[nb, cb, w]) = (a.shape(), b.shape()) else {
        return Err(invalid(op, "matmul operands must have rank 3"));
    };
    if na != nb || c != cb {
        return Err(invalid(op, format!("matmul of shapes {:?} and {:?}", a.shape(), b.shape())));
    }
    let (azp, bzp) = (zero_point(e, fr, op, 2)?, zero_point(e, fr, op, 3)?);
    let out = result_elem(e, op, 0)?;
    e.charge(op, (na * h * w * c.max(1)) as u64)?;
    let mut elems = Vec::with_capacity(na * h * w);
    for n in 0..na {
        for i in 0..h {
            for j in 0..w {
                let ai = |k: usize| (n * h + i) * c + k;
                let bi = |k: usize| (n * c + k) * w + j;
                elems.push(dot(op, out, &a, &b, c, ai, bi, azp, bzp)?);
            }
        }
    }
    let v = build(e, op, 0, &[na, h, w], elems)?;
    e.assign(fr, op, v)
}

/// One dot product of `c` terms in the output type `out`.
#[allow(clippy::too_many_arguments)]
fn dot(
    op: OpId,
    out: Elem,
    a: &Dense,
    b: &Dense,
    c: usize,
    ai: impl Fn(usize) -> usize,
    bi: impl Fn(usize) -> usize,
    azp: i64,
    bzp: i64,
) -> Result<Scalar> {
    match out {
        Elem::Float(k) => {
            let mut acc = small(k, 0);
            for t in 0..c {
                let cv = |f: Float| float::convert(f, k, RNE).unwrap_or_else(|_| float::nan(k));
                let (u, v) = (cv(float_at(op, a, ai(t))?), cv(float_at(op, b, bi(t))?));
                acc = float::add(acc, float::mul(u, v, RNE), RNE);
            }
            Ok(Scalar::Float(acc))
        }
        Elem::Int(w) => {
            let (lo, hi) = signed_range(w);
            let mut acc: i64 = 0;
            for t in 0..c {
                let u = int_at(op, a, ai(t))? - azp;
                let v = int_at(op, b, bi(t))? - bzp;
                let p = int_scalar(w, u.wrapping_mul(v));
                let p = match p {
                    Scalar::Int(p) => p.to_i64().unwrap_or(0),
                    _ => 0,
                };
                let s = i128::from(acc) + i128::from(p);
                if s < i128::from(lo) || s > i128::from(hi) {
                    return Err(require(op, format!("the accumulator overflows i{w}: {acc} + {p}")));
                }
                acc = s as i64;
            }
            Ok(int_scalar(w, acc))
        }
        Elem::Bool => Err(invalid(op, "boolean matmul")),
    }
}
