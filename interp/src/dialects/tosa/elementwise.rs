//! tosa's elementwise operators: binary ones broadcast their operands
//! (`apply_broadcast`: equal ranks, a size-1 dimension repeats), unary and
//! ternary ones (`select`, `clamp`, `negate`, `cast`) map elements. Integer
//! arithmetic is `apply_add_s` and friends: exact in 64 bits, with a
//! `REQUIRE` that the result fits the element type.

use super::{
    build, build_ints, float_at, ignore_nan, int_at, int_scalar, ints, invalid, operand_elem, require, result_elem,
    scalar_operand, signed_range, Elem,
};
use crate::dense::{Dense, HostCast};
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::host::Bin as HostBin;
use crate::float::libm::{self, Fn1, Fn2};
use crate::float::{self, Float, FloatKind, Ordering, Round};
use crate::operands::{dense, libm_error};
use crate::value::{Scalar, Value};
use mlir_ir::ir::OpId;
use std::rc::Rc;

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bin {
    Add,
    Sub,
    Mul,
    IntDiv,
    Max,
    Min,
    Pow,
    And,
    Or,
    Xor,
    Shl,
    Shru,
    Shrs,
    Equal,
    Greater,
    GreaterEqual,
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Un {
    Abs,
    Not,
    Ceil,
    Floor,
    Clz,
    Exp,
    Log,
    Sin,
    Cos,
    Tanh,
    Erf,
    Sigmoid,
    Reciprocal,
    Rsqrt,
}

/// The runtime shape `broadcast_shape` gives two operand shapes, or the
/// reason there is none (the verifier checks static shapes; dynamic ones
/// meet here).
pub(super) fn broadcast_shape(op: OpId, a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    if a.len() != b.len() {
        return Err(invalid(op, format!("operands of ranks {} and {} do not broadcast", a.len(), b.len())));
    }
    a.iter()
        .zip(b)
        .map(|(&x, &y)| match (x, y) {
            _ if x == y => Ok(x),
            (1, y) => Ok(y),
            (x, 1) => Ok(x),
            _ => Err(Error::at(
                op,
                ErrorKind::Ub(format!("runtime shapes {a:?} and {b:?} do not broadcast (dimension {x} against {y})")),
            )),
        })
        .collect()
}

/// The linear index into an operand of `shape` for each position of `out`
/// in row-major order (`apply_broadcast`).
pub(super) fn broadcast_positions(shape: &[usize], out: &[usize]) -> Vec<usize> {
    let n: usize = out.iter().product();
    if shape == out {
        return (0..n).collect();
    }
    let strides = crate::dense::row_major_strides(shape);
    let mut res = Vec::with_capacity(n);
    let mut idx = vec![0usize; out.len()];
    for _ in 0..n {
        res.push(idx.iter().zip(shape).zip(&strides).map(|((i, d), s)| if *d == 1 { 0 } else { i * s }).sum());
        crate::operands::next_index(&mut idx, out);
    }
    res
}

/// A float of format `k` with value `v` (exact for the small integers used).
fn fconst(k: FloatKind, v: f64) -> Float {
    let f = Float { kind: FloatKind::F64, bits: u128::from(v.to_bits()) };
    float::convert(f, k, Round::NearestEven).unwrap_or(f)
}

const RNE: Round = Round::NearestEven;

/// Runs a binary operator.
pub(super) fn binary(e: &mut Engine, fr: &mut Frame, op: OpId, b: Bin) -> Result<Flow> {
    let (x, y) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    let shape = broadcast_shape(op, x.shape(), y.shape())?;
    let (px, py) = (broadcast_positions(x.shape(), &shape), broadcast_positions(y.shape(), &shape));
    let et = operand_elem(e, op, 0)?;
    let out = result_elem(e, op, 0)?;
    let ignore = ignore_nan(e, op);
    let shift = if b == Bin::Mul && e.m.operands(op).len() > 2 {
        match scalar_operand(e, fr, op, 2)? {
            Scalar::Int(i) => i.to_i64().unwrap_or(0),
            _ => 0,
        }
    } else {
        0
    };
    let round = b == Bin::Shrs && e.flag(op, "round");
    let pol = e.cfg.float_policy;
    e.charge(op, shape.iter().product::<usize>() as u64)?;
    // f32 of one shape: the host's correctly rounded add, sub and mul, the
    // tensor fast path arith's addf/subf/mulf take (a NaN lane is
    // recomputed exactly there, for its canonical encoding).
    let host = match b {
        Bin::Add => Some(HostBin::Add),
        Bin::Sub => Some(HostBin::Sub),
        Bin::Mul => Some(HostBin::Mul),
        _ => None,
    };
    if let (Elem::Float(_), Some(hb)) = (et, host) {
        if x.shape() == shape.as_slice() && y.shape() == shape.as_slice() {
            if let Some(d) = Dense::host2(&x, &y, hb) {
                return e.assign(fr, op, Value::Array(Rc::new(d)));
            }
        }
    }
    // Integers of at most 64 bits: read and written in bulk as i64s, the
    // same int_value per element as below.
    if let (Elem::Int(w), Some(xs), Some(ys)) = (et, x.to_i64s(), y.to_i64s()) {
        let mut vals = Vec::with_capacity(px.len());
        for (&i, &j) in px.iter().zip(&py) {
            vals.push(int_value(op, b, w, xs[i], ys[j], shift, round)?);
        }
        let v = build_ints(e, op, 0, &shape, &vals)?;
        return e.assign(fr, op, v);
    }
    let mut elems = Vec::with_capacity(px.len());
    for (&i, &j) in px.iter().zip(&py) {
        let s = match et {
            Elem::Float(k) => {
                let (u, v) = (float_at(op, &x, i)?, float_at(op, &y, j)?);
                float_bin(e, op, b, k, u, v, ignore, pol)?
            }
            Elem::Bool => {
                let (u, v) = (int_at(op, &x, i)? != 0, int_at(op, &y, j)? != 0);
                let r = match b {
                    Bin::And => u & v,
                    Bin::Or => u | v,
                    Bin::Xor => u ^ v,
                    Bin::Equal => u == v,
                    _ => return Err(invalid(op, "boolean operands")),
                };
                int_scalar(1, i64::from(r))
            }
            Elem::Int(w) => {
                let (u, v) = (int_at(op, &x, i)?, int_at(op, &y, j)?);
                int_bin(op, b, w, out, u, v, shift, round)?
            }
        };
        elems.push(s);
    }
    let v = build(e, op, 0, &shape, elems)?;
    e.assign(fr, op, v)
}

/// One float element of a binary operator.
#[allow(clippy::too_many_arguments)]
fn float_bin(
    e: &Engine,
    op: OpId,
    b: Bin,
    k: FloatKind,
    u: Float,
    v: Float,
    ignore: bool,
    pol: float::Policy,
) -> Result<Scalar> {
    let cmp = float::compare(u, v);
    let bool_of = |c: bool| int_scalar(1, i64::from(c));
    Ok(Scalar::Float(match b {
        Bin::Add => float::add(u, v, RNE),
        Bin::Sub => float::sub(u, v, RNE),
        Bin::Mul => float::mul(u, v, RNE),
        Bin::Max | Bin::Min => {
            if float::is_nan(u) || float::is_nan(v) {
                // `compare_nan`: PROPAGATE gives NaN, IGNORE the other value.
                match (ignore, float::is_nan(u)) {
                    (false, _) => float::nan(k),
                    (true, true) => v,
                    (true, false) => u,
                }
            } else {
                let take_u = if b == Bin::Max { cmp != Ordering::Less } else { cmp == Ordering::Less };
                if take_u {
                    u
                } else {
                    v
                }
            }
        }
        Bin::Pow => {
            let bad = float::is_negative(u) && !float::is_zero(u)
                || float::is_zero(u) && !(float::compare(v, fconst(k, 0.0)) == Ordering::Greater)
                || float::is_nan(u)
                || float::is_nan(v)
                || float::is_inf(u)
                || float::is_inf(v);
            if bad {
                return Err(require(
                    op,
                    format!(
                        "pow needs a finite base >= 0 and a finite exponent, positive when the base is 0; got pow({}, {})",
                        float::to_f64(u),
                        float::to_f64(v)
                    ),
                ));
            }
            libm::binary(Fn2::Pow, u, v, pol).map_err(|err| libm_error(e, op, err))?
        }
        Bin::Equal => return Ok(bool_of(cmp == Ordering::Equal)),
        Bin::Greater => return Ok(bool_of(cmp == Ordering::Greater)),
        Bin::GreaterEqual => return Ok(bool_of(matches!(cmp, Ordering::Greater | Ordering::Equal))),
        Bin::IntDiv | Bin::And | Bin::Or | Bin::Xor | Bin::Shl | Bin::Shru | Bin::Shrs => {
            return Err(invalid(op, "float operands of an integer operator"))
        }
    }))
}

/// One integer element of a binary operator on `w`-bit operands, as a
/// scalar of the result's width.
#[allow(clippy::too_many_arguments)]
fn int_bin(op: OpId, b: Bin, w: u32, out: Elem, u: i64, v: i64, shift: i64, round: bool) -> Result<Scalar> {
    let width = match (b, out) {
        (Bin::Equal | Bin::Greater | Bin::GreaterEqual, _) => 1,
        (Bin::Mul, Elem::Int(ow)) => ow,
        _ => w,
    };
    Ok(int_scalar(width, int_value(op, b, w, u, v, shift, round)?))
}

/// One integer element of a binary operator on `w`-bit operands: the
/// result's value (0 or 1 for a comparison), which the result's width
/// wraps when stored.
#[allow(clippy::too_many_arguments)]
fn int_value(op: OpId, b: Bin, w: u32, u: i64, v: i64, shift: i64, round: bool) -> Result<i64> {
    let (lo, hi) = signed_range(w);
    let fits = |c: i128, what: &str| -> Result<i64> {
        if c < i128::from(lo) || c > i128::from(hi) {
            return Err(require(op, format!("{what} {u} and {v} gives {c}, outside i{w}")));
        }
        Ok(c as i64)
    };
    let shift_ok = |what: &str| -> Result<()> {
        if !(0..i64::from(w.min(64))).contains(&v) {
            return Err(require(op, format!("{what} by {v} on i{w}: the amount must be in 0..={}", w - 1)));
        }
        Ok(())
    };
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let bool_of = |c: bool| i64::from(c);
    match b {
        Bin::Add => fits(i128::from(u) + i128::from(v), "adding"),
        Bin::Sub => fits(i128::from(u) - i128::from(v), "subtracting"),
        Bin::Mul => {
            if w == 32 && shift > 0 {
                if !(0..=63).contains(&shift) {
                    return Err(require(op, format!("mul shift {shift} must be in 0..=63")));
                }
                let p = i128::from(u) * i128::from(v);
                let r = (p + (1i128 << (shift - 1))) >> shift;
                if r < i128::from(i32::MIN) || r > i128::from(i32::MAX) {
                    return Err(require(op, format!("mul of {u} and {v} with shift {shift} gives {r}, outside i32")));
                }
                Ok(r as i64)
            } else {
                if shift != 0 {
                    return Err(require(op, format!("mul shift {shift} is only allowed for i32 operands")));
                }
                // The low bits of the product, in the output width.
                Ok(u.wrapping_mul(v))
            }
        }
        Bin::IntDiv => {
            if v == 0 {
                return Err(require(op, format!("intdiv of {u} by zero")));
            }
            fits(i128::from(u) / i128::from(v), "dividing")
        }
        Bin::Max => Ok(u.max(v)),
        Bin::Min => Ok(u.min(v)),
        Bin::And => Ok(u & v),
        Bin::Or => Ok(u | v),
        Bin::Xor => Ok(u ^ v),
        Bin::Shl => {
            shift_ok("logical_left_shift")?;
            Ok(((u as u64) << v) as i64)
        }
        Bin::Shru => {
            shift_ok("logical_right_shift")?;
            Ok(((u as u64 & mask) >> v) as i64)
        }
        Bin::Shrs => {
            shift_ok("arithmetic_right_shift")?;
            let mut r = u >> v;
            if round && v > 0 && (u >> (v - 1)) & 1 != 0 {
                r += 1;
            }
            Ok(r)
        }
        Bin::Equal => Ok(bool_of(u == v)),
        Bin::Greater => Ok(bool_of(u > v)),
        Bin::GreaterEqual => Ok(bool_of(u >= v)),
        Bin::Pow => Err(invalid(op, "integer operands of pow")),
    }
}

/// Runs a unary operator.
pub(super) fn unary(e: &mut Engine, fr: &mut Frame, op: OpId, u: Un) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let et = operand_elem(e, op, 0)?;
    let pol = e.cfg.float_policy;
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        let s = match et {
            Elem::Float(k) => Scalar::Float(float_un(e, op, u, k, float_at(op, &x, i)?, pol)?),
            Elem::Bool => match u {
                Un::Not => int_scalar(1, i64::from(int_at(op, &x, i)? == 0)),
                _ => return Err(invalid(op, "boolean operand")),
            },
            Elem::Int(w) => {
                let v = int_at(op, &x, i)?;
                match u {
                    Un::Abs => {
                        if v == signed_range(w).0 {
                            return Err(require(op, format!("abs of {v} does not fit i{w}")));
                        }
                        int_scalar(w, v.abs())
                    }
                    Un::Not => int_scalar(w, !v),
                    Un::Clz => {
                        let bits = v as u64 & if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                        int_scalar(w, i64::from(bits.leading_zeros()) - (64 - i64::from(w)))
                    }
                    _ => return Err(invalid(op, "integer operand of a float operator")),
                }
            }
        };
        elems.push(s);
    }
    let v = build(e, op, 0, x.shape(), elems)?;
    e.assign(fr, op, v)
}

/// One float element of a unary operator.
fn float_un(e: &Engine, op: OpId, u: Un, k: FloatKind, x: Float, pol: float::Policy) -> Result<Float> {
    let lib = |f: Fn1, x: Float| libm::unary(f, x, pol).map_err(|err| libm_error(e, op, err));
    let one = fconst(k, 1.0);
    Ok(match u {
        // `ABS`: -0 becomes +0 and negative values are negated; a NaN is
        // left as it is (its sign included).
        Un::Abs => {
            if float::is_nan(x) {
                x
            } else {
                float::abs(x)
            }
        }
        Un::Ceil => float::round_to_integral(x, Round::Up),
        Un::Floor => float::round_to_integral(x, Round::Down),
        Un::Exp => lib(Fn1::Exp, x)?,
        Un::Log => lib(Fn1::Log, x)?,
        Un::Sin => lib(Fn1::Sin, x)?,
        Un::Cos => lib(Fn1::Cos, x)?,
        Un::Tanh => lib(Fn1::Tanh, x)?,
        Un::Erf => lib(Fn1::Erf, x)?,
        // As `tosa-to-linalg` lowers it: 1 / (1 + exp(-x)) in the element type.
        Un::Sigmoid => float::div(one, float::add(one, lib(Fn1::Exp, float::neg(x))?, RNE), RNE),
        Un::Reciprocal => float::div(one, x, RNE),
        Un::Rsqrt => float::rsqrt(x, RNE),
        Un::Not | Un::Clz => return Err(invalid(op, "float operand of an integer operator")),
    })
}

/// `tosa.negate %x, %input_zp, %output_zp`: `output_zp - (x - input_zp)`
/// clipped to the element type for integers; the float negation otherwise.
pub(super) fn negate(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let et = operand_elem(e, op, 0)?;
    let zp = |i| -> Result<i64> {
        match scalar_operand(e, fr, op, i)? {
            Scalar::Int(v) => Ok(v.to_i64().unwrap_or(0)),
            _ => Ok(0),
        }
    };
    let (izp, ozp) = (zp(1)?, zp(2)?);
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        elems.push(match et {
            Elem::Float(_) => Scalar::Float(float::neg(float_at(op, &x, i)?)),
            Elem::Int(w) => {
                let (lo, hi) = signed_range(w);
                // acc_t is i32 for i8, i16 and i32, i64 for i64 (tosa.xml's
                // NEGATE type support); every step fits i128, and only the
                // negation itself can leave acc_t (i32's zero points are 0).
                let v = i128::from(ozp) - (i128::from(int_at(op, &x, i)?) - i128::from(izp));
                let acc = if w <= 32 { 32 } else { 64 };
                let (alo, ahi) = signed_range(acc);
                if v < i128::from(alo) || v > i128::from(ahi) {
                    return Err(require(op, format!("negate gives {v}, outside its i{acc} accumulator")));
                }
                int_scalar(w, (v as i64).clamp(lo, hi))
            }
            Elem::Bool => return Err(invalid(op, "boolean negate")),
        });
    }
    let v = build(e, op, 0, x.shape(), elems)?;
    e.assign(fr, op, v)
}

/// `tosa.clamp`: `apply_clip_s` with the attributes `min_val`, `max_val`
/// (read in the element type).
pub(super) fn clamp(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let et = operand_elem(e, op, 0)?;
    let ignore = ignore_nan(e, op);
    let elem_ty = e.elem_type(e.result_type(op, 0));
    let bound = |name: &str| -> Result<Scalar> {
        let a = e.m.attr(op, name).ok_or_else(|| invalid(op, format!("clamp without '{name}'")))?;
        e.attr_value(op, a, elem_ty)?.scalar().ok_or_else(|| invalid(op, format!("bad '{name}'")))
    };
    let (lo, hi) = (bound("min_val")?, bound("max_val")?);
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(x.len());
    match (et, lo, hi) {
        (Elem::Float(_), Scalar::Float(lo), Scalar::Float(hi)) => {
            for i in 0..x.len() {
                let v = float_at(op, &x, i)?;
                let r = if float::is_nan(v) {
                    if ignore {
                        lo
                    } else {
                        v
                    }
                } else if float::compare(v, lo) == Ordering::Less {
                    lo
                } else if float::compare(v, hi) == Ordering::Greater {
                    hi
                } else {
                    v
                };
                elems.push(Scalar::Float(r));
            }
        }
        (Elem::Int(_), Scalar::Int(lo), Scalar::Int(hi)) => {
            let (lo, hi) = (lo.to_i64().unwrap_or(0), hi.to_i64().unwrap_or(0));
            let mut out = ints(op, &x)?;
            for v in out.iter_mut() {
                *v = (*v).max(lo).min(hi);
            }
            let v = build_ints(e, op, 0, x.shape(), &out)?;
            return e.assign(fr, op, v);
        }
        _ => return Err(invalid(op, "clamp bounds of another kind than the input")),
    }
    let v = build(e, op, 0, x.shape(), elems)?;
    e.assign(fr, op, v)
}

/// `tosa.select %pred, %on_true, %on_false`, broadcasting all three.
pub(super) fn select(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (c, t, f) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let shape = broadcast_shape(op, &broadcast_shape(op, c.shape(), t.shape())?, f.shape())?;
    let (pc, pt, pf) = (
        broadcast_positions(c.shape(), &shape),
        broadcast_positions(t.shape(), &shape),
        broadcast_positions(f.shape(), &shape),
    );
    e.charge(op, pc.len() as u64)?;
    let mut elems = Vec::with_capacity(pc.len());
    for k in 0..pc.len() {
        let s = if int_at(op, &c, pc[k])? != 0 { t.get(pt[k]) } else { f.get(pf[k]) };
        if let Scalar::Poison(p) = s {
            return Err(Error::at(op, ErrorKind::Poison { what: "read by tosa.select".into(), origin: p.0 }));
        }
        elems.push(s);
    }
    let v = build(e, op, 0, &shape, elems)?;
    e.assign(fr, op, v)
}

/// `tosa.cast`, as the CAST pseudocode and its precision rules define it:
/// to bool is `!= 0`; integers sign-extend or truncate; int to float and
/// float to float round to nearest even (overflow gives infinity, or NaN
/// for fp8e4m3, which has none: OCP's non-saturating mode); float to int
/// rounds to nearest even and saturates, and a NaN has no defined result.
pub(super) fn cast(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let (from, to) = (operand_elem(e, op, 0)?, result_elem(e, op, 0)?);
    let unsigned = e.flag(op, "input_unsigned");
    e.charge(op, x.len() as u64)?;
    // 8- to 64-bit integers to f32 on the host's conversion (Rust's `as`
    // rounds to nearest even, as the pseudocode does), arith's fast path.
    if let (Elem::Int(_), Elem::Float(FloatKind::F32)) = (from, to) {
        let how = if unsigned { HostCast::Unsigned } else { HostCast::Signed };
        if let Some(flow) = crate::operands::host_cast(e, fr, op, how, |_| None)? {
            return Ok(flow);
        }
    }
    // Integer to integer in bulk: sign-extended (or, unsigned, masked to
    // the input width) i64s, which the output width truncates when stored.
    if let (Elem::Int(fw), Elem::Int(_), Some(mut xs)) = (from, to, x.to_i64s()) {
        if unsigned {
            let mask = if fw >= 64 { u64::MAX } else { (1u64 << fw) - 1 };
            xs.iter_mut().for_each(|v| *v = (*v as u64 & mask) as i64);
        }
        let v = build_ints(e, op, 0, x.shape(), &xs)?;
        return e.assign(fr, op, v);
    }
    let mut elems = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        let s = match (from, to) {
            (Elem::Float(_), Elem::Bool) => {
                let f = float_at(op, &x, i)?;
                int_scalar(1, i64::from(!float::is_zero(f)))
            }
            (_, Elem::Bool) => int_scalar(1, i64::from(int_at(op, &x, i)? != 0)),
            (Elem::Bool | Elem::Int(_), Elem::Int(w)) => {
                let mut v = int_at(op, &x, i)?;
                if from == Elem::Bool {
                    v &= 1;
                } else if let (true, Elem::Int(fw)) = (unsigned, from) {
                    v = (v as u64 & if fw >= 64 { u64::MAX } else { (1u64 << fw) - 1 }) as i64;
                }
                int_scalar(w, v)
            }
            (Elem::Bool | Elem::Int(_), Elem::Float(k)) => {
                let mut v = int_at(op, &x, i)?;
                if from == Elem::Bool {
                    v &= 1;
                } else if let (true, Elem::Int(fw)) = (unsigned, from) {
                    v = (v as u64 & if fw >= 64 { u64::MAX } else { (1u64 << fw) - 1 }) as i64;
                }
                let f = float::from_int(&num_bigint::BigInt::from(v), k, RNE)
                    .map_err(|err| Error::at(op, ErrorKind::NoDefinedResult(format!("cast of {v}: {err:?}"))))?;
                Scalar::Float(f)
            }
            (Elem::Float(_), Elem::Float(k)) => {
                let f = float_at(op, &x, i)?;
                let r = float::convert(f, k, RNE).map_err(|err| {
                    Error::at(op, ErrorKind::NoDefinedResult(format!("cast of {}: {err:?}", float::to_f64(f))))
                })?;
                Scalar::Float(r)
            }
            (Elem::Float(_), Elem::Int(w)) => {
                let f = float_at(op, &x, i)?;
                if float::is_nan(f) {
                    return Err(require(op, "cast of a NaN to an integer is unpredictable".into()));
                }
                let (lo, hi) = signed_range(w);
                let r = float::round_to_integral(f, RNE);
                // Saturate: an infinity, or a finite value beyond i128
                // (f32's largest is about 2^128), clamps by its sign.
                let sat = if float::is_negative(r) { i128::MIN } else { i128::MAX };
                let v = float::to_int(r, 128, true).and_then(|big| i128::try_from(big).ok()).unwrap_or(sat);
                let v = v.clamp(i128::from(lo), i128::from(hi)) as i64;
                int_scalar(w, v)
            }
        };
        elems.push(s);
    }
    let v = build(e, op, 0, x.shape(), elems)?;
    e.assign(fr, op, v)
}
