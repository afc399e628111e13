//! The combining functions of atomic read-modify-write kinds
//! (`arith::AtomicRMWKind`: `memref.atomic_rmw`, `memref.generic_atomic_rmw`
//! and `affine.parallel` reductions), as pure functions on scalars.

use crate::error::{Error, Result};
use crate::float::{self, Round};
use crate::scalar::int_op;
use crate::sem::fp::{maximumf, maxnumf};
use crate::sem::int::{bitwise, maxsi, maxui, minsi, minui, Out};
use crate::value::{Int, Scalar};
use mlir_ir::ir::OpId;

/// The combining function of atomic kind `kind` (the enum order of
/// `arith::AtomicRMWKind`, as the parser stores it): `(current, operand)`.
pub fn combine(op: OpId, kind: i64, cur: &Scalar, v: &Scalar) -> Result<Scalar> {
    if let Some(p) = cur.poison().or(v.poison()) {
        return Ok(Scalar::Poison(p));
    }
    let bad = || Error::unverified(op, format!("atomic kind {kind} does not apply to these operands"));
    let int = |f: &dyn Fn(u32, &Int, &Int) -> Option<Out>| -> Result<Scalar> {
        let (Scalar::Int(a), Scalar::Int(b)) = (cur, v) else { return Err(bad()) };
        match f(a.width(), a, b) {
            Some(Out::Val(r)) => Ok(Scalar::Int(r)),
            _ => Err(bad()),
        }
    };
    let flt = |f: &dyn Fn(float::Float, float::Float) -> float::Float| -> Result<Scalar> {
        let (Scalar::Float(a), Scalar::Float(b)) = (cur, v) else { return Err(bad()) };
        Ok(Scalar::Float(f(*a, *b)))
    };
    match memory_kind_name(kind) {
        "addf" => flt(&|a, b| float::add(a, b, Round::NearestEven)),
        "mulf" => flt(&|a, b| float::mul(a, b, Round::NearestEven)),
        "maximumf" => flt(&|a, b| maximumf(a, b, true)),
        "minimumf" => flt(&|a, b| maximumf(a, b, false)),
        "maxnumf" => flt(&|a, b| maxnumf(a, b, true)),
        "minnumf" => flt(&|a, b| maxnumf(a, b, false)),
        "addi" => int(&|w, a, b| int_op!(w, addi_plain(a, b))),
        "muli" => int(&|w, a, b| int_op!(w, muli_plain(a, b))),
        "maxs" => int(&|w, a, b| int_op!(w, maxsi(a, b))),
        "maxu" => int(&|w, a, b| int_op!(w, maxui(a, b))),
        "mins" => int(&|w, a, b| int_op!(w, minsi(a, b))),
        "minu" => int(&|w, a, b| int_op!(w, minui(a, b))),
        "andi" => int(&|_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x & y, |x, y| x & y)))),
        "ori" => int(&|_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x | y, |x, y| x | y)))),
        "xori" => int(&|_, a, b| Some(Out::Val(bitwise(a, b, |x, y| x ^ y, |x, y| x ^ y)))),
        "assign" => Ok(v.clone()),
        _ => Err(bad()),
    }
}

/// `arith::AtomicRMWKind` in enum order: the parser stores a kind
/// (`atomic_rmw`, `affine.parallel` reductions) as its position here.
pub use mlir_ir::ops::ATOMIC_KINDS;

/// The name of atomic kind `kind`.
pub fn memory_kind_name(kind: i64) -> &'static str {
    usize::try_from(kind).ok().and_then(|k| ATOMIC_KINDS.get(k)).copied().unwrap_or("?")
}

pub(crate) fn addi_plain<N: crate::value::Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    crate::sem::int::addi::<N>(w, a, b, 0)
}

fn muli_plain<N: crate::value::Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    crate::sem::int::muli::<N>(w, a, b, 0)
}
