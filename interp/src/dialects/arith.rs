//! The `arith` dialect. Integer semantics are pure functions generic over
//! [`Z`] (see `value.rs`), float semantics call `crate::float` for every
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

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame, EXACT, NNEG, NSW, NUW};
use crate::float::{self, Float, Round};
use crate::int_op;
use crate::value::{map1, map2, map2_pair, Int, Poison, Scalar, Value, Z};
use mlir_ir::ir::OpId;
use mlir_ir::ops::ArithOp;
use mlir_ir::types::TypeKind;

/// The outcome of an integer op on one element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// A value.
    Val(Int),
    /// Poison (made by this op).
    Poison,
    /// Immediate undefined behaviour, with its description.
    Ub(String),
}

/// Executes one arith op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: ArithOp) -> Result<Flow> {
    use ArithOp::*;
    let fl = e.aux[op.0 as usize].flags;
    let pred = e.aux[op.0 as usize].pred;
    let pol = e.cfg.float_policy;
    match kind {
        Constant => constant(e, fr, op),
        Addi => int2(e, fr, op, |w, a, b| int_op!(w, addi(a, b, fl))),
        Subi => int2(e, fr, op, |w, a, b| int_op!(w, subi(a, b, fl))),
        Muli => int2(e, fr, op, |w, a, b| int_op!(w, muli(a, b, fl))),
        Divsi => int2(e, fr, op, |w, a, b| int_op!(w, divsi(a, b, fl))),
        Divui => int2(e, fr, op, |w, a, b| int_op!(w, divui(a, b, fl))),
        Ceildivsi => int2(e, fr, op, |w, a, b| int_op!(w, ceildivsi(a, b))),
        Ceildivui => int2(e, fr, op, |w, a, b| int_op!(w, ceildivui(a, b))),
        Floordivsi => int2(e, fr, op, |w, a, b| int_op!(w, floordivsi(a, b))),
        Remsi => int2(e, fr, op, |w, a, b| int_op!(w, remsi(a, b))),
        Remui => int2(e, fr, op, |w, a, b| int_op!(w, remui(a, b))),
        Andi => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x & y, |x, y| x & y)))),
        Ori => int2(e, fr, op, |_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x | y, |x, y| x | y)))),
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
        Cmpf => float2(e, fr, op, |a, b| Ok(Scalar::Int(Int::bool(cmpf(pred, a, b))))),
        Select => select(e, fr, op),
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
        Addf => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::add(a, b, Round::NearestEven)))),
        Subf => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::sub(a, b, Round::NearestEven)))),
        Mulf => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::mul(a, b, Round::NearestEven)))),
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

// ---- integer semantics (pure) ------------------------------------------

fn fits_s<N: Z>(w: u32, v: &N) -> Option<bool> {
    let h = N::pow2(w - 1)?;
    Some(*v >= N::from_i64(0).sub(&h) && *v < h)
}

fn fits_u<N: Z>(w: u32, v: &N) -> Option<bool> {
    Some(!v.is_neg() && *v < N::pow2(w)?)
}

fn smin<N: Z>(w: u32) -> Option<N> {
    Some(N::from_i64(0).sub(&N::pow2(w - 1)?))
}

/// Floor division; `b` nonzero.
fn div_floor<N: Z>(a: &N, b: &N) -> N {
    let q = a.div_t(b);
    if !a.rem_t(b).is_zero() && (a.is_neg() != b.is_neg()) {
        q.sub(&N::from_i64(1))
    } else {
        q
    }
}

/// `addi` with optional `nsw`/`nuw`.
pub fn addi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let r = N::s(a).add(&N::s(b));
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).add(&N::u(b)))? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// `subi` with optional `nsw`/`nuw`.
pub fn subi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let r = N::s(a).sub(&N::s(b));
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).sub(&N::u(b)))? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// `muli` with optional `nsw`/`nuw`.
pub fn muli<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let r = N::s(a).mul(&N::s(b))?;
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).mul(&N::u(b))?)? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// The UB checks of signed division: zero divisor and INT_MIN / -1.
fn signed_div_ub<N: Z>(w: u32, a: &N, b: &N, what: &str) -> Option<Option<String>> {
    let sym = if what.contains("remainder") { '%' } else { '/' };
    if b.is_zero() {
        return Some(Some(format!("{what} by zero: {a} {sym} 0")));
    }
    if *a == smin::<N>(w)? && *b == N::from_i64(-1) {
        return Some(Some(format!("{what} overflow: {a} {sym} -1 does not fit in i{w}")));
    }
    Some(None)
}

/// `divsi` with optional `exact`.
pub fn divsi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed division")? {
        return Some(Out::Ub(m));
    }
    if fl & EXACT != 0 && !a.rem_t(&b).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(a.div_t(&b).wrap(w)))
}

/// `divui` with optional `exact`.
pub fn divui<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let (a, b) = (N::u(a), N::u(b));
    if b.is_zero() {
        return Some(Out::Ub(format!("unsigned division by zero: {a} / 0")));
    }
    if fl & EXACT != 0 && !a.rem_t(&b).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(a.div_t(&b).wrap(w)))
}

/// `ceildivsi`: quotient rounded toward +inf.
pub fn ceildivsi<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed ceiling division")? {
        return Some(Out::Ub(m));
    }
    let q = a.div_t(&b);
    let up = !a.rem_t(&b).is_zero() && a.is_neg() == b.is_neg();
    Some(Out::Val(if up { q.add(&N::from_i64(1)) } else { q }.wrap(w)))
}

/// `ceildivui`.
pub fn ceildivui<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::u(a), N::u(b));
    if b.is_zero() {
        return Some(Out::Ub(format!("unsigned ceiling division by zero: {a} / 0")));
    }
    let q = a.div_t(&b);
    Some(Out::Val(if a.rem_t(&b).is_zero() { q } else { q.add(&N::from_i64(1)) }.wrap(w)))
}

/// `floordivsi`: quotient rounded toward -inf.
pub fn floordivsi<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed floor division")? {
        return Some(Out::Ub(m));
    }
    Some(Out::Val(div_floor(&a, &b).wrap(w)))
}

/// `remsi`: remainder with the dividend's sign.
pub fn remsi<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed remainder")? {
        return Some(Out::Ub(m));
    }
    Some(Out::Val(a.rem_t(&b).wrap(w)))
}

/// `remui`.
pub fn remui<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::u(a), N::u(b));
    if b.is_zero() {
        return Some(Out::Ub(format!("unsigned remainder by zero: {a} % 0")));
    }
    Some(Out::Val(a.rem_t(&b).wrap(w)))
}

/// `andi`/`ori`/`xori` on the encodings.
pub fn bitwise(
    a: &Int,
    b: &Int,
    f: impl Fn(u128, u128) -> u128,
    g: impl Fn(&num_bigint::BigInt, &num_bigint::BigInt) -> num_bigint::BigInt,
) -> Int {
    match (a.bits128(), b.bits128()) {
        (Some(x), Some(y)) => Int::from_u128(a.width(), f(x, y)),
        _ => Int::from_big(a.width(), &g(&a.to_ubig(), &b.to_ubig())),
    }
}

/// The shift amount if it is below the width; `None` means poison.
fn shift_amount<N: Z>(w: u32, b: &Int) -> Option<u32> {
    let s = N::u(b);
    if s >= N::from_i64(i64::from(w)) {
        return None;
    }
    s.to_u32()
}

/// `shli` with optional `nsw`/`nuw`; an amount >= width is poison.
pub fn shli<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let Some(s) = shift_amount::<N>(w, b) else { return Some(Out::Poison) };
    let p = N::pow2(s)?;
    let r = N::s(a).mul(&p)?;
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).mul(&p)?)? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// `shrui` with optional `exact`.
pub fn shrui<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let Some(s) = shift_amount::<N>(w, b) else { return Some(Out::Poison) };
    let (a, p) = (N::u(a), N::pow2(s)?);
    if fl & EXACT != 0 && !a.rem_t(&p).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(a.div_t(&p).wrap(w)))
}

/// `shrsi` with optional `exact`.
pub fn shrsi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let Some(s) = shift_amount::<N>(w, b) else { return Some(Out::Poison) };
    let (a, p) = (N::s(a), N::pow2(s)?);
    if fl & EXACT != 0 && !a.rem_t(&p).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(div_floor(&a, &p).wrap(w)))
}

/// `maxsi`.
pub fn maxsi<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::s(a) >= N::s(b) { a } else { b }.clone()))
}

/// `maxui`.
pub fn maxui<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::u(a) >= N::u(b) { a } else { b }.clone()))
}

/// `minsi`.
pub fn minsi<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::s(a) <= N::s(b) { a } else { b }.clone()))
}

/// `minui`.
pub fn minui<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::u(a) <= N::u(b) { a } else { b }.clone()))
}

/// `addui_extended`: the sum and the carry bit.
pub fn addui_extended<N: Z>(w: u32, a: &Int, b: &Int) -> Option<(Int, Int)> {
    let r = N::u(a).add(&N::u(b));
    Some((r.wrap(w), Int::bool(!fits_u(w, &r)?)))
}

/// `mulsi_extended`: low and high halves of the signed product.
pub fn mulsi_extended<N: Z>(w: u32, a: &Int, b: &Int) -> Option<(Int, Int)> {
    let p = N::s(a).mul(&N::s(b))?;
    Some((p.wrap(w), div_floor(&p, &N::pow2(w)?).wrap(w)))
}

/// `mului_extended`: low and high halves of the unsigned product.
pub fn mului_extended<N: Z>(w: u32, a: &Int, b: &Int) -> Option<(Int, Int)> {
    let p = N::u(a).mul(&N::u(b))?;
    Some((p.wrap(w), p.div_t(&N::pow2(w)?).wrap(w)))
}

/// `cmpi` / `index.cmp` with predicate `p` in enum order
/// (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge); i1 true is -1 when signed.
pub fn cmpi<N: Z>(_w: u32, p: u8, a: &Int, b: &Int) -> Option<bool> {
    let s = || (N::s(a), N::s(b));
    let u = || (N::u(a), N::u(b));
    Some(match p {
        0 => a == b,
        1 => a != b,
        2 => s().0 < s().1,
        3 => s().0 <= s().1,
        4 => s().0 > s().1,
        5 => s().0 >= s().1,
        6 => u().0 < u().1,
        7 => u().0 <= u().1,
        8 => u().0 > u().1,
        _ => u().0 >= u().1,
    })
}

/// `extsi` (also `index_cast`, which sign-extends or truncates).
pub fn extsi<N: Z>(_w: u32, a: &Int, to: u32) -> Option<Out> {
    Some(Out::Val(N::s(a).wrap(to)))
}

/// `extui` with optional `nneg` (also `index_castui`).
pub fn extui<N: Z>(_w: u32, a: &Int, to: u32, fl: u8) -> Option<Out> {
    if fl & NNEG != 0 && N::s(a).is_neg() {
        return Some(Out::Poison);
    }
    Some(Out::Val(N::u(a).wrap(to)))
}

/// `trunci` with optional `nsw`/`nuw`.
pub fn trunci<N: Z>(_w: u32, a: &Int, to: u32, fl: u8) -> Option<Out> {
    if fl & NSW != 0 && !fits_s(to, &N::s(a))? || fl & NUW != 0 && !fits_u(to, &N::u(a))? {
        return Some(Out::Poison);
    }
    Some(Out::Val(N::u(a).wrap(to)))
}

// ---- float semantics (pure, through crate::float) ------------------------

/// `cmpf` with predicate `p` in enum order (false, oeq, ogt, oge, olt, ole,
/// one, ord, ueq, ugt, uge, ult, ule, une, uno, true).
pub fn cmpf(p: u8, a: Float, b: Float) -> bool {
    use float::Ordering::*;
    let o = float::compare(a, b);
    match p {
        0 => false,
        1 => o == Equal,
        2 => o == Greater,
        3 => matches!(o, Greater | Equal),
        4 => o == Less,
        5 => matches!(o, Less | Equal),
        6 => matches!(o, Less | Greater),
        7 => o != Unordered,
        8 => matches!(o, Unordered | Equal),
        9 => matches!(o, Unordered | Greater),
        10 => o != Less,
        11 => matches!(o, Unordered | Less),
        12 => o != Greater,
        13 => o != Equal,
        14 => o == Unordered,
        _ => true,
    }
}

/// `maximumf` (`max`) / `minimumf`: NaN wins; -0 < +0.
pub fn maximumf(a: Float, b: Float, max: bool) -> Float {
    if float::is_nan(a) {
        return a;
    }
    if float::is_nan(b) {
        return b;
    }
    match float::compare(a, b) {
        float::Ordering::Greater => {
            if max {
                a
            } else {
                b
            }
        }
        float::Ordering::Less => {
            if max {
                b
            } else {
                a
            }
        }
        _ => {
            // Equal: only ±0 differ; pick by sign.
            if float::is_negative(a) == max {
                b
            } else {
                a
            }
        }
    }
}

/// `maxnumf` / `minnumf`: a NaN operand loses to a number.
pub fn maxnumf(a: Float, b: Float, max: bool) -> Float {
    match (float::is_nan(a), float::is_nan(b)) {
        (true, _) => b,
        (_, true) => a,
        _ => maximumf(a, b, max),
    }
}

/// The rounding mode of `roundingmode` enum value `p`.
pub fn round_mode(p: u8) -> Round {
    match p {
        1 => Round::Down,
        2 => Round::Up,
        3 => Round::TowardZero,
        4 => Round::NearestAway,
        _ => Round::NearestEven,
    }
}

/// The target of a cast: an integer width or a float format.
#[derive(Clone, Copy, Debug)]
pub enum To {
    /// An integer (or index) of this width.
    Int(u32),
    /// A float format.
    Float(float::FloatKind),
}

fn bitcast(op: OpId, s: &Scalar, to: To) -> Result<Scalar> {
    Ok(match (s, to) {
        (Scalar::Int(i), To::Float(k)) => Scalar::Float(float::from_bits(k, i.bits128().unwrap_or(0))),
        (Scalar::Float(f), To::Int(w)) => Scalar::Int(Int::from_u128(w, f.bits)),
        (Scalar::Float(f), To::Float(k)) => Scalar::Float(float::from_bits(k, f.bits)),
        (Scalar::Int(i), To::Int(w)) => Scalar::Int(Int::from_big(w, &i.to_ubig())),
        (Scalar::Poison(p), _) => Scalar::Poison(*p),
        (Scalar::Complex(..), _) => return Err(bad_types(op)),
    })
}

fn int_to_float(op: OpId, s: &Scalar, to: To, signed: bool, pol: float::Policy) -> Result<Scalar> {
    let (Scalar::Int(i), To::Float(k)) = (s, to) else { return Err(bad_types(op)) };
    let v = if signed { i.to_sbig() } else { i.to_ubig() };
    float::from_int_with(&v, k, Round::NearestEven, pol)
        .map(Scalar::Float)
        .map_err(|e| Error::at(op, ErrorKind::NoDefinedResult(e.to_string())))
}

fn float_to_int(op: OpId, s: &Scalar, to: To, signed: bool) -> Result<Scalar> {
    let (Scalar::Float(f), To::Int(w)) = (s, to) else { return Err(bad_types(op)) };
    Ok(match float::to_int(*f, w, signed) {
        Some(v) => Scalar::Int(Int::from_big(w, &v)),
        None => Scalar::Poison(Poison(op)),
    })
}

fn convert(op: OpId, s: &Scalar, to: To, r: Round, pol: float::Policy) -> Result<Scalar> {
    let (Scalar::Float(f), To::Float(k)) = (s, to) else { return Err(bad_types(op)) };
    float::convert_with(*f, k, r, pol)
        .map(Scalar::Float)
        .map_err(|e| Error::at(op, ErrorKind::NoDefinedResult(e.to_string())))
}

// ---- plumbing ------------------------------------------------------------

fn bad_types(op: OpId) -> Error {
    Error::at(op, ErrorKind::Invalid("operand types do not match the op".into()))
}

fn bad_shape(op: OpId) -> impl Fn() -> Error {
    move || Error::at(op, ErrorKind::Invalid("operand shapes do not match".into()))
}

/// Turns an integer outcome into a scalar (or the UB error).
fn out(e: &Engine, op: OpId, o: Option<Out>) -> Result<Scalar> {
    match o {
        Some(Out::Val(i)) => Ok(Scalar::Int(i)),
        Some(Out::Poison) => Ok(Scalar::Poison(Poison(op))),
        Some(Out::Ub(m)) => Err(Error::at(op, ErrorKind::Ub(format!("{m} in '{}'", e.m.op_name(op))))),
        None => Err(Error::at(op, ErrorKind::Invalid("integer width out of range".into()))),
    }
}

fn operand_width(e: &Engine, op: OpId) -> Result<u32> {
    let t = e.operand_type(op, 0).ok_or_else(|| bad_types(op))?;
    e.int_width(e.elem_type(t)).ok_or_else(|| bad_types(op))
}

fn result_to(e: &Engine, op: OpId) -> Result<To> {
    let t = e.elem_type(e.result_type(op, 0));
    if let TypeKind::Float(k) = e.m.ctx.type_kind(t) {
        return Ok(To::Float(*k));
    }
    e.int_width(t).map(To::Int).ok_or_else(|| bad_types(op))
}

/// A binary integer op, elementwise, poison in gives poison out.
pub fn int2(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(u32, &Int, &Int) -> Option<Out>) -> Result<Flow> {
    let w = operand_width(e, op)?;
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Int(x), Scalar::Int(y)) => out(e, op, f(w, x, y)),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A binary integer op with two results (the extended ops).
pub fn int2x(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(u32, &Int, &Int) -> Option<(Int, Int)>) -> Result<Flow> {
    let w = operand_width(e, op)?;
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let (lo, hi) = map2_pair(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok((Scalar::Poison(*p), Scalar::Poison(*p))),
            (Scalar::Int(x), Scalar::Int(y)) => match f(w, x, y) {
                Some((l, h)) => Ok((Scalar::Int(l), Scalar::Int(h))),
                None => Err(bad_types(op)),
            },
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign_all(fr, op, vec![lo, hi])
}

/// An integer-to-integer cast at the result's width.
pub fn int_cast(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(u32, &Int, u32) -> Option<Out>) -> Result<Flow> {
    let from = operand_width(e, op)?;
    let To::Int(to) = result_to(e, op)? else { return Err(bad_types(op)) };
    let w = from.max(to);
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Int(i) => out(e, op, f(w, i, to)),
            Scalar::Float(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// Any other cast: `f` gets the element and the result element type.
fn cast(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(&Scalar, To) -> Result<Scalar>) -> Result<Flow> {
    let to = result_to(e, op)?;
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            _ => f(x, to),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

/// A binary float op, elementwise.
fn float2(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float, Float) -> Result<Scalar>) -> Result<Flow> {
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let v = map2(
        a,
        b,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(x), Scalar::Float(y)) => f(*x, *y),
            _ => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
}

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

/// A unary float op, elementwise.
fn float1(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(Float) -> Float) -> Result<Flow> {
    let v = map1(
        e.arg(fr, op, 0)?,
        |x| match x {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            Scalar::Float(x) => Ok(Scalar::Float(f(*x))),
            Scalar::Int(_) | Scalar::Complex(..) => Err(bad_types(op)),
        },
        bad_shape(op),
    )?;
    e.assign(fr, op, v)
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

/// `arith.select`: an i1 condition picks whole operands, a shaped one picks
/// elements; a poison condition gives poison, the unpicked operand may be poison.
fn select(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (c, t, f) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?, e.arg(fr, op, 2)?);
    let v = match c {
        Value::Scalar(Scalar::Poison(p)) => match t {
            Value::Array(_) => map1(t, |_| Ok(Scalar::Poison(*p)), bad_shape(op))?,
            _ => Value::Scalar(Scalar::Poison(*p)),
        },
        Value::Scalar(Scalar::Int(i)) => {
            if i.is_nonzero() {
                t.clone()
            } else {
                f.clone()
            }
        }
        Value::Array(cs) => {
            let (Value::Array(ta), Value::Array(fa)) = (t, f) else { return Err(bad_types(op)) };
            if ta.shape() != cs.shape() || fa.shape() != cs.shape() {
                return Err(bad_shape(op)());
            }
            let elems: Vec<Scalar> = cs
                .iter()
                .zip(ta.iter().zip(fa.iter()))
                .map(|(c, (x, y))| match c {
                    Scalar::Poison(p) => Scalar::Poison(*p),
                    Scalar::Int(i) if i.is_nonzero() => x.clone(),
                    _ => y.clone(),
                })
                .collect();
            let arr = ndarray::ArrayD::from_shape_vec(cs.raw_dim(), elems).map_err(|_| bad_shape(op)())?;
            Value::Array(std::rc::Rc::new(arr))
        }
        _ => return Err(bad_types(op)),
    };
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
