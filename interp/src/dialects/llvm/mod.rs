//! The slice of the `llvm` dialect that programs printing strings use:
//! globals (`llvm.mlir.global`, materialized once per run into a memory
//! buffer laid out as mlir-runner lays it out: LLVM's default data layout,
//! see `mlir_ir::datalayout`), `llvm.mlir.addressof`,
//! `llvm.mlir.constant`, `llvm.mlir.zero`, `llvm.getelementptr`, scalar
//! `llvm.load`/`llvm.store`, `llvm.call` and `llvm.return`.
//!
//! A pointer is a [`Ptr`]: the global's buffer (or none, for null) and a
//! byte offset. GEP only computes offsets (checked arithmetic); an
//! `inbounds` GEP that leaves its allocation gives poison, as LLVM's
//! LangRef says. Dereferencing null, a poison pointer, or bytes outside the
//! allocation is undefined behaviour naming the global; storing into a
//! `constant` global is too.

use crate::dense::IntBin;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::memory::{AllocKind, Buffer, Ptr, CONSTANT_GLOBAL};
use crate::operands::{
    alloc_name, bitcast, cast, cond_branch, convert, filled, float1, float2, float_to_int, host_lanes, int2, int_cast,
    int_to_float, select, successor,
};
use crate::scalar::int_op;
use crate::sem::fp::cmpf;
use crate::sem::int::*;
use crate::value::{Dense, Int, Packed, Poison, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::datalayout;
use mlir_ir::ir::OpId;
use mlir_ir::ops::LlvmOp;
use mlir_ir::parser::{GEP_DYNAMIC, GEP_INBOUNDS_FLAG, GEP_NUSW};
use mlir_ir::types::{LlvmStructBody, TypeId, TypeKind};
use std::cell::RefCell;
use std::rc::Rc;

mod common;
mod intr;
mod mem;
mod va;

use common::{check_default_layout, layout, type_attr, unsupported};

/// Executes one llvm op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    use LlvmOp::*;
    match kind {
        Addressof => {
            let p = addressof(e, op)?;
            e.assign(fr, op, p)
        }
        Call => call(e, fr, op),
        // A scalar constant was made at load (`Aux::constant`).
        Constant => {
            let v = match &e.aux[op.0 as usize].constant {
                Some(v) => v.clone(),
                None => constant(e, op)?,
            };
            e.assign(fr, op, v)
        }
        Func | Global => Ok(Flow::Next),
        Getelementptr => {
            let p = gep(e, op, e.args(fr, op))?;
            e.assign(fr, op, p)
        }
        Load => {
            let v = mem::load(e, op, e.arg(fr, op, 0)?)?;
            e.assign(fr, op, v)
        }
        Return => Ok(Flow::Exit(e.args(fr, op))),
        Store => mem::store(e, op, e.arg(fr, op, 0)?, e.arg(fr, op, 1)?).map(|()| Flow::Next),
        Zero => {
            let v = mem::zero_of(e, op, e.result_type(op, 0))?;
            e.assign(fr, op, v)
        }
        Add | Sub | Mul | Sdiv | Udiv | Srem | Urem | And | Or | Xor | Shl | Lshr | Ashr => int_binary(e, fr, op, kind),
        Fadd | Fsub | Fmul | Fdiv | Frem | Fneg => float_op(e, fr, op, kind),
        Icmp => {
            let p = e.aux[op.0 as usize].pred;
            if let (Value::Ptr(a), Value::Ptr(b)) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?) {
                // Pointers compare as their addresses.
                let (a, b) = (Int::from_u128(64, u128::from(a.addr())), Int::from_u128(64, u128::from(b.addr())));
                let c = int_op!(64, cmpi(p, &a, &b)).ok_or_else(|| Error::unverified(op, "bad icmp predicate"))?;
                return e.assign(fr, op, Value::int(Int::bool(c)));
            }
            int2(e, fr, op, |w, a, b| int_op!(w, cmpi(p, a, b)).map(|c| Out::Val(Int::bool(c))))
        }
        Fcmp => {
            let p = e.aux[op.0 as usize].pred;
            match host_lanes(e, fr, op, |a, b| Dense::host_cmpf(a, b, p))? {
                Some(flow) => Ok(flow),
                None => float2(e, fr, op, |a, b| Ok(Scalar::Int(Int::bool(cmpf(p, a, b))))),
            }
        }
        Select => select(e, fr, op),
        Br => Ok(Flow::Branch(successor(e, op, 0)?, e.args(fr, op))),
        CondBr => cond_branch(e, fr, op),
        Sext | Zext | Trunc | Fptosi | Fptoui | Sitofp | Uitofp | Fpext | Fptrunc | Bitcast => {
            conversion(e, fr, op, kind)
        }
        // `undef` is modelled as poison: reading it is as unreliable, and a
        // use that would make poison UB is reported rather than guessed.
        Undef | Poison => {
            let v = mem::poison_of(e, op, e.result_type(op, 0))?;
            e.assign(fr, op, v)
        }
        Extractelement => extract_element(e, fr, op),
        Insertelement => insert_element(e, fr, op),
        Shufflevector => shuffle(e, fr, op),
        Ptrtoint => {
            let v = mem::ptr_to_int(e, op, e.arg(fr, op, 0)?)?;
            e.assign(fr, op, v)
        }
        Inttoptr => {
            let v = mem::int_to_ptr(e, op, e.arg(fr, op, 0)?)?;
            e.assign(fr, op, v)
        }
        // Address spaces are not modelled: one memory.
        Addrspacecast => {
            let v = e.arg(fr, op, 0)?.clone();
            e.assign(fr, op, v)
        }
        Insertvalue => {
            let v = mem::insert_value(e, op, e.arg(fr, op, 0)?, e.arg(fr, op, 1)?)?;
            e.assign(fr, op, v)
        }
        Extractvalue => {
            let v = mem::extract_value(e, op, e.arg(fr, op, 0)?)?;
            e.assign(fr, op, v)
        }
        Alloca => {
            let n = e.arg(fr, op, 0)?.clone();
            let v = mem::alloca(e, op, &n)?;
            e.assign(fr, op, v)
        }
        Switch => crate::operands::switch(e, fr, op),
        Unreachable => Err(Error::at(op, ErrorKind::Ub("llvm.unreachable was reached".into()))),
        Atomicrmw => intr::atomic_rmw(e, fr, op),
        Cmpxchg => intr::cmpxchg(e, fr, op),
        // One thread: a fence orders nothing.
        Fence => Ok(Flow::Next),
        VaStart => va::start(e, fr, op),
        VaArg => va::arg(e, fr, op),
        VaCopy => va::copy(e, fr, op),
        VaEnd => va::end(e, fr, op),
        _ => intr::exec(e, fr, op, kind),
    }
}

/// A lane position operand: `None` when it is poison or out of range
/// (LangRef: the result is then poison).
fn lane_index(e: &Engine, fr: &Frame, op: OpId, i: usize, lanes: usize) -> Result<Option<usize>> {
    Ok(match e.arg(fr, op, i)?.scalar() {
        Some(Scalar::Int(x)) => x.to_u64().and_then(|x| usize::try_from(x).ok()).filter(|x| *x < lanes),
        _ => None,
    })
}

/// `llvm.extractelement %v[%i]`: lane `i`, poison past the end.
fn extract_element(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    if let Value::Agg(ptrs) = e.arg(fr, op, 0)? {
        let ptrs = ptrs.clone();
        let p = match lane_index(e, fr, op, 1, ptrs.len())? {
            Some(k) => ptrs[k].clone(),
            None => Value::poison(op),
        };
        return e.assign(fr, op, p);
    }
    let Value::Array(v) = e.arg(fr, op, 0)? else { return Err(bad_vector(op)) };
    let v = v.clone();
    let s = match lane_index(e, fr, op, 1, v.len())? {
        Some(k) => v.get(k),
        None => Scalar::Poison(crate::value::Poison(op)),
    };
    e.assign(fr, op, Value::from_scalar(s))
}

/// `llvm.insertelement %x, %v[%i]`: the vector with lane `i` replaced;
/// a position past the end makes the whole result poison.
fn insert_element(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    if let TypeKind::Vector { elem, .. } = e.m.ctx.type_kind(e.result_type(op, 0)) {
        if matches!(e.m.ctx.type_kind(*elem), TypeKind::LlvmPtr(_)) {
            let n = common::vector_dims_of(e, op, e.result_type(op, 0))?.iter().product();
            let mut ptrs = common::ptr_lanes(op, e.arg(fr, op, 0)?, n)?;
            let out = match lane_index(e, fr, op, 2, n)? {
                Some(k) => {
                    ptrs[k] = e.arg(fr, op, 1)?.clone();
                    Value::Agg(ptrs.into())
                }
                None => Value::Agg(vec![Value::poison(op); n].into()),
            };
            return e.assign(fr, op, out);
        }
    }
    let Value::Array(v) = e.arg(fr, op, 0)? else { return Err(bad_vector(op)) };
    let v = v.clone();
    let x = e.arg(fr, op, 1)?.scalar().ok_or_else(|| bad_vector(op))?;
    let out = match lane_index(e, fr, op, 2, v.len())? {
        Some(k) => {
            let mut d = (*v).clone();
            d.set(k, &x).map_err(|err| crate::operands::dense_error(op, err))?;
            Value::Array(Rc::new(d))
        }
        None => filled(e, op, v.shape(), &Scalar::Poison(crate::value::Poison(op)))?,
    };
    e.assign(fr, op, out)
}

/// `llvm.shufflevector %a, %b [mask]`: lane `m` of the concatenation of
/// `%a` and `%b` for each mask entry; -1 gives a poison lane.
fn shuffle(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let mask: Vec<i64> = match e.m.attr(op, "mask").map(|x| e.m.ctx.attr_kind(x)) {
        Some(Attribute::DenseArray { values: mlir_ir::attrs::DenseValues::Ints(v), .. }) => {
            v.iter().map(|x| x.to_i64().unwrap_or(-1)).collect()
        }
        _ => return Err(Error::unverified(op, "llvm.shufflevector without a mask")),
    };
    let ty = e.result_type(op, 0);
    let n_out: usize = common::vector_dims_of(e, op, ty)?.iter().product();
    // A scalable shuffle's mask can only splat lane 0 (LLVM prints the
    // zeroinitializer mask as `[0, 0, ..]`) or be all poison.
    let mask = if n_out != mask.len() {
        match mask.first() {
            Some(&k) if (k == 0 || k == -1) && mask.iter().all(|x| *x == k) => vec![k; n_out],
            _ => {
                return Err(Error::unverified(op, "a scalable llvm.shufflevector whose mask is not a splat of lane 0"))
            }
        }
    } else {
        mask
    };
    let (a, b) = (e.arg(fr, op, 0)?, e.arg(fr, op, 1)?);
    let (n, m) = (e.operand_type(op, 0), e.operand_type(op, 1));
    let count = |t: Option<TypeId>| -> Result<usize> {
        Ok(common::vector_dims_of(e, op, t.ok_or_else(|| bad_vector(op))?)?.iter().product())
    };
    let (n, m) = (count(n)?, count(m)?);
    let pick = |k: i64| -> Result<Value> {
        let lane = match usize::try_from(k) {
            Ok(k) if k < n => common::lane_value(a, k),
            Ok(k) if k < n + m => common::lane_value(b, k - n),
            _ => return Ok(Value::poison(op)),
        };
        lane.ok_or_else(|| bad_vector(op))
    };
    let lanes = mask.iter().map(|&k| pick(k)).collect::<Result<Vec<_>>>()?;
    let v = if lanes.iter().all(|v| matches!(v, Value::Scalar(_) | Value::Wide(_))) {
        let scalars = lanes.into_iter().filter_map(|v| v.scalar()).collect();
        crate::operands::array(op, &[n_out], scalars)?
    } else {
        Value::Agg(lanes.into())
    };
    e.assign(fr, op, v)
}

fn bad_vector(op: OpId) -> Error {
    Error::unverified(op, "expected a vector operand")
}

/// The integer binary ops, with LangRef's flags: `nsw`/`nuw` overflow,
/// `exact` division and shifts, and a shift past the width give poison;
/// division by zero and `INT_MIN / -1` (and `srem` of them) are immediate
/// undefined behaviour; `or disjoint` of overlapping bits is poison.
fn int_binary(e: &Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    use LlvmOp::*;
    let fl = e.aux[op.0 as usize].flags;
    type Big = num_bigint::BigInt;
    let bits = |f: fn(u128, u128) -> u128, g: fn(&Big, &Big) -> Big| {
        move |_: u32, a: &Int, b: &Int| Some(Out::Val(bitwise(a, b, f, g)))
    };
    // Vectors of 8- to 64-bit integers without poison or flags: one host
    // loop, wrapping as the flagless ops do (`Dense::host_int2`).
    let host = match kind {
        Add if fl == 0 => Some(IntBin::Add),
        Sub if fl == 0 => Some(IntBin::Sub),
        Mul if fl == 0 => Some(IntBin::Mul),
        And => Some(IntBin::And),
        Or if fl & DISJOINT == 0 => Some(IntBin::Or),
        Xor => Some(IntBin::Xor),
        _ => None,
    };
    if let Some(b) = host {
        if let Some(flow) = host_lanes(e, fr, op, |x, y| Dense::host_int2(x, y, b))? {
            return Ok(flow);
        }
    }
    match kind {
        Add => int2(e, fr, op, |w, a, b| int_op!(w, addi(a, b, fl))),
        Sub => int2(e, fr, op, |w, a, b| int_op!(w, subi(a, b, fl))),
        Mul => int2(e, fr, op, |w, a, b| int_op!(w, muli(a, b, fl))),
        Sdiv => int2(e, fr, op, |w, a, b| int_op!(w, divsi(a, b, fl))),
        Udiv => int2(e, fr, op, |w, a, b| int_op!(w, divui(a, b, fl))),
        Srem => int2(e, fr, op, |w, a, b| int_op!(w, remsi(a, b))),
        Urem => int2(e, fr, op, |w, a, b| int_op!(w, remui(a, b))),
        And => int2(e, fr, op, bits(|x, y| x & y, |x, y| x & y)),
        Or if fl & DISJOINT != 0 => int2(e, fr, op, |_, a, b| {
            let overlap = bitwise(a, b, |x, y| x & y, |x, y| x & y).is_nonzero();
            Some(if overlap { Out::Poison } else { Out::Val(bitwise(a, b, |x, y| x | y, |x, y| x | y)) })
        }),
        Or => int2(e, fr, op, bits(|x, y| x | y, |x, y| x | y)),
        Xor => int2(e, fr, op, bits(|x, y| x ^ y, |x, y| x ^ y)),
        Shl => int2(e, fr, op, |w, a, b| int_op!(w, shli(a, b, fl))),
        Lshr => int2(e, fr, op, |w, a, b| int_op!(w, shrui(a, b, fl))),
        _ => int2(e, fr, op, |w, a, b| int_op!(w, shrsi(a, b, fl))),
    }
}

/// The float ops: IEEE results in the default environment (fast-math
/// flags are accepted and do not change them).
fn float_op(e: &Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    use crate::float::{self, host::Bin, Round};
    use LlvmOp::*;
    let r = Round::NearestEven;
    // Vectors of f32/f64 without poison: one host loop (the same bits,
    // `Dense::host2`).
    let host = match kind {
        Fadd => Some(Bin::Add),
        Fsub => Some(Bin::Sub),
        Fmul => Some(Bin::Mul),
        Fdiv => Some(Bin::Div),
        _ => None,
    };
    if let Some(b) = host {
        if let Some(flow) = host_lanes(e, fr, op, |x, y| Dense::host2(x, y, b))? {
            return Ok(flow);
        }
    }
    match kind {
        Fadd => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::add(a, b, r)))),
        Fsub => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::sub(a, b, r)))),
        Fmul => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::mul(a, b, r)))),
        Fdiv => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::div(a, b, r)))),
        Frem => float2(e, fr, op, |a, b| Ok(Scalar::Float(float::rem(a, b)))),
        _ => float1(e, fr, op, float::neg),
    }
}

/// The casts: `sext`, `zext` (`nneg`: poison for a negative operand),
/// `trunc` (`nsw`/`nuw`: poison when bits are lost), the float/integer
/// conversions (poison out of range, `uitofp nneg` poison for a negative
/// operand), `fpext`/`fptrunc` (rounding to nearest) and `bitcast`.
fn conversion(e: &Engine, fr: &mut Frame, op: OpId, kind: LlvmOp) -> Result<Flow> {
    use crate::float::Round;
    use LlvmOp::*;
    let fl = e.aux[op.0 as usize].flags;
    let pol = e.cfg.float_policy;
    let nneg_violated =
        |s: &Scalar| matches!(s, Scalar::Int(i) if fl & NNEG != 0 && i.to_sbig().sign() == num_bigint::Sign::Minus);
    match kind {
        Sext => int_cast(e, fr, op, |w, a, to| int_op!(w, extsi(a, to))),
        Zext => int_cast(e, fr, op, |w, a, to| int_op!(w, extui(a, to, fl))),
        Trunc => int_cast(e, fr, op, |w, a, to| int_op!(w, trunci(a, to, fl))),
        Fptosi => cast(e, fr, op, |s, to| float_to_int(op, s, to, true)),
        Fptoui => cast(e, fr, op, |s, to| float_to_int(op, s, to, false)),
        Sitofp => cast(e, fr, op, |s, to| int_to_float(op, s, to, true, pol)),
        Uitofp => cast(e, fr, op, |s, to| {
            if nneg_violated(s) {
                return Ok(Scalar::Poison(crate::value::Poison(op)));
            }
            int_to_float(op, s, to, false, pol)
        }),
        Fpext | Fptrunc => cast(e, fr, op, |s, to| convert(op, s, to, Round::NearestEven, pol)),
        _ if reshapes(e, op) => bitcast_bits(e, fr, op),
        _ => cast(e, fr, op, |s, to| bitcast(op, s, to)),
    }
}

/// Whether a `bitcast` changes the lane count (`vector<2xf32>` to
/// `vector<4xi16>` or `i64`): then it reinterprets the whole value's bits.
fn reshapes(e: &Engine, op: OpId) -> bool {
    let lanes = |t| match e.m.ctx.type_kind(t) {
        TypeKind::Vector { shape, .. } => shape.iter().product::<i64>(),
        _ => -1,
    };
    e.m.operands(op).first().is_some_and(|v| lanes(e.m.type_of(*v)) != lanes(e.result_type(op, 0)))
}

/// A `bitcast` between different lane counts: the bits laid out lane 0
/// lowest (little-endian, and an `i1` vector packed one bit per lane, as
/// LLVM lays vectors out), read back as the result's lanes. A poison
/// source lane makes the whole result poison.
fn bitcast_bits(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let wide = || Error::at(op, ErrorKind::Unsupported("llvm.bitcast of lanes wider than 128 bits".into()));
    let mut bits: Vec<bool> = Vec::new();
    // A poison lane poisons the whole result; its note names the op that
    // made the lane poison, not this cast.
    let mut poison: Option<Poison> = None;
    let mut put = |s: &Scalar| -> Result<()> {
        let (w, v) = match s {
            Scalar::Int(i) => (i.width(), i.bits128().ok_or_else(wide)?),
            Scalar::Float(f) => (f.kind.bit_width(), f.bits),
            Scalar::Poison(p) => {
                poison = poison.or(Some(*p));
                return Ok(());
            }
            Scalar::Complex(..) => return Err(Error::unverified(op, "bitcast of complex lanes")),
        };
        bits.extend((0..w).map(|k| v >> k & 1 == 1));
        Ok(())
    };
    match e.arg(fr, op, 0)? {
        Value::Array(d) => d.iter().try_for_each(|s| put(&s))?,
        v => put(&v.scalar().ok_or_else(|| Error::unverified(op, "bitcast of a non-numeric value"))?)?,
    }
    let rty = e.result_type(op, 0);
    let (dims, elem) = match e.m.ctx.type_kind(rty) {
        TypeKind::Vector { shape, elem, .. } => (shape.iter().map(|n| (*n).max(0) as usize).collect(), *elem),
        _ => (Vec::new(), rty),
    };
    let (w, float) = match e.m.ctx.type_kind(elem) {
        TypeKind::Float(k) => (k.bit_width(), Some(*k)),
        _ => (e.int_width(elem).ok_or_else(|| Error::unverified(op, "bitcast to a non-numeric type"))?, None),
    };
    let n = dims.iter().product::<usize>().max(1);
    if w > 128 {
        return Err(wide());
    }
    if poison.is_none() && bits.len() != n * w as usize {
        return Err(Error::unverified(op, "bitcast between types of different sizes"));
    }
    let lanes: Vec<Scalar> = (0..n)
        .map(|k| {
            if let Some(p) = poison {
                return Scalar::Poison(p);
            }
            let v =
                bits[k * w as usize..(k + 1) * w as usize].iter().rev().fold(0u128, |acc, b| acc << 1 | u128::from(*b));
            match float {
                Some(kind) => Scalar::Float(crate::float::from_bits(kind, v)),
                None => Scalar::Int(Int::from_u128(w, v)),
            }
        })
        .collect();
    let v = if dims.is_empty() {
        Value::from_scalar(lanes.into_iter().next().ok_or_else(|| Error::unverified(op, "empty bitcast"))?)
    } else {
        crate::operands::array(op, &dims, lanes)?
    };
    e.assign(fr, op, v)
}

/// `llvm.call @f(args)`: a function with a body or a runtime function.
fn call(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let mut args = e.args(fr, op);
    let f = match e.aux[op.0 as usize].callee {
        Some(f) => f,
        None => {
            // Indirect: the callee is the first operand.
            if args.is_empty() {
                return Err(Error::unverified(op, "indirect llvm.call without a callee operand"));
            }
            let target = args.remove(0);
            e.observe(op, &target, "called")?;
            let Value::Ptr(p) = &target else {
                return Err(Error::unverified(op, "the callee of llvm.call is not a pointer"));
            };
            let f = e.func_at(p).ok_or_else(|| {
                let what = match &p.buf {
                    Some(b) => match (p.offset, crate::operands::alloc_name(e, b.borrow().origin)) {
                        (0, n) => n,
                        (k, n) => format!("{k} bytes into {n}"),
                    },
                    None => format!("address {:#x} (no allocation)", p.offset),
                };
                Error::at(op, ErrorKind::Ub(format!("llvm.call through a pointer to {what}, which is not a function")))
            })?;
            // The verifier checks a direct call's signature; an indirect
            // one through a function of another type is LLVM's UB.
            let func = &e.funcs[f.0 as usize];
            let same_inputs = func.inputs.len() == args.len()
                && func.inputs.iter().enumerate().all(|(i, t)| e.operand_type(op, i + 1) == Some(*t));
            let same_results = func.results.len() == e.m.results(op).count()
                && func.results.iter().enumerate().all(|(i, t)| e.result_type(op, i) == *t);
            if !same_inputs || !same_results {
                let msg = format!("llvm.call through a pointer to @{}, a function of another type", func.name);
                return Err(Error::at(op, ErrorKind::Ub(msg)));
            }
            f
        }
    };
    let res = e.call(op, f, args)?;
    e.assign_all(fr, op, res)
}

/// `llvm.mlir.constant(attr) : T`: a scalar, a vector, or an aggregate.
fn constant(e: &Engine, op: OpId) -> Result<Value> {
    let a = e.m.attr(op, "value").ok_or_else(|| Error::unverified(op, "llvm.mlir.constant without a value"))?;
    let ty = e.result_type(op, 0);
    match e.m.ctx.type_kind(ty) {
        TypeKind::LlvmStruct { .. } | TypeKind::LlvmArray { .. } => mem::aggregate_constant(e, op, a, ty),
        TypeKind::Vector { elem, shape, .. } => {
            let v = if e.m.ctx.type_kind(*elem).is_integer() {
                // Float elements on an integer vector are their bits, as
                // convert-arith-to-apfloat emits small-float vector constants.
                let w = e.int_width(*elem).ok_or_else(|| Error::unverified(op, "bad vector element type"))?;
                match e.attr_value(op, a, ty)? {
                    Value::Array(d) if d.iter().any(|x| matches!(x, Scalar::Float(_))) => {
                        let lanes = d
                            .iter()
                            .map(|x| match x {
                                Scalar::Float(f) if f.kind.bit_width() == w => {
                                    Ok(Scalar::Int(Int::from_u128(w, f.bits)))
                                }
                                _ => Err(Error::unverified(op, "float constant of an integer type of another width")),
                            })
                            .collect::<Result<Vec<_>>>()?;
                        crate::operands::array(op, d.shape(), lanes)?
                    }
                    v => v,
                }
            } else {
                e.attr_value(op, a, ty)?
            };
            shaped_as(op, v, shape)
        }
        TypeKind::Integer { .. } | TypeKind::Float(_) => e.attr_value(op, a, ty),
        _ => {
            let t = mlir_ir::printer::type_to_string(&e.m.ctx, ty);
            Err(unsupported(op, format!("llvm.mlir.constant of type {t}")))
        }
    }
}

/// A vector constant's value in its result type's shape: the attribute's
/// may differ with the same elements (convert-vector-to-llvm makes a 0-D
/// `dense<0.0> : vector<f32>` the constant of a `vector<1xf32>`). A
/// scalable type's value already has its runtime length (`vscale` times
/// the type's), which is not the static shape, so only a value with the
/// static shape's element count is reshaped.
fn shaped_as(op: OpId, v: Value, shape: &[i64]) -> Result<Value> {
    let count = shape.iter().try_fold(1usize, |a, &n| a.checked_mul(usize::try_from(n).ok()?));
    match v {
        Value::Array(d) if Some(d.len()) == count && d.shape().iter().map(|&n| n as i64).ne(shape.iter().copied()) => {
            let to: Vec<usize> = shape.iter().map(|&n| n as usize).collect();
            crate::operands::array(op, &to, d.iter().collect())
        }
        v => Ok(v),
    }
}

/// The `llvm.mlir.global` or `llvm.func` `op` refers to by `global_name`.
fn symbol_target(e: &Engine, op: OpId) -> Result<OpId> {
    let m = e.m;
    let Some(Attribute::SymbolRef { root, .. }) = m.attr(op, "global_name").map(|a| m.ctx.attr_kind(a)) else {
        return Err(Error::unverified(op, "llvm.mlir.addressof without a symbol"));
    };
    let mut table = m.parent_op(op);
    while let Some(t) = table {
        if m.op(t).name.kind.has(mlir_ir::ops::traits::SYMBOL_TABLE) {
            break;
        }
        table = m.parent_op(t);
    }
    let table = table.ok_or_else(|| Error::unverified(op, "llvm.mlir.addressof outside a symbol table"))?;
    for &r in m.regions(table) {
        for &b in &m.region(r).blocks {
            for &o in &m.block(b).ops {
                if let Some(Attribute::String { value, .. }) = m.attr(o, "sym_name").map(|a| m.ctx.attr_kind(a)) {
                    if value == root {
                        return Ok(o);
                    }
                }
            }
        }
    }
    let n = String::from_utf8_lossy(root).into_owned();
    Err(Error::unverified(op, format!("'@{n}' does not reference a global")))
}

/// `llvm.mlir.addressof @g`: a pointer to the start of global `g`.
fn addressof(e: &mut Engine, op: OpId) -> Result<Value> {
    let target = symbol_target(e, op)?;
    if e.m.op(target).name.kind == mlir_ir::ops::OpKind::LlvmFunc {
        let name = match e.m.attr(target, "sym_name").map(|a| e.m.ctx.attr_kind(a)) {
            Some(Attribute::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
            _ => return Err(Error::unverified(op, "llvm.func without a name")),
        };
        let f = e.func_by_name(&name).ok_or_else(|| Error::unverified(op, format!("no function @{name}")))?;
        return Ok(Value::Ptr(e.func_pointer(op, f)?));
    }
    if e.m.op(target).name.kind != mlir_ir::ops::OpKind::LlvmGlobal {
        return Err(Error::unverified(op, format!("'{}' is not a global or a function", e.m.op_name(target))));
    }
    let buf = global(e, op, target)?;
    Ok(Value::Ptr(Ptr { buf: Some(buf), offset: 0 }))
}

/// The storage of global `g`, made and initialized on first use.
fn global(e: &mut Engine, at: OpId, g: OpId) -> Result<Rc<RefCell<Buffer>>> {
    if let Some(b) = e.mem.globals.get(&g) {
        return Ok(b.clone());
    }
    let m = e.m;
    let ty = type_attr(e, g, "global_type")?;
    let l = layout(e, g, ty)?;
    let align = e.ints_attr(g, "alignment")?.and_then(|v| v.first().copied()).unwrap_or(0);
    let align = u64::try_from(align).unwrap_or(0).max(l.align);
    let size = usize::try_from(l.alloc).map_err(|_| unsupported(g, "a global this large"))?;
    let buf = e.mem.new_buffer(g, size, AllocKind::Global, align)?;
    let value = m.attr(g, "value");
    let region = m.regions(g).first().copied().filter(|r| !m.region(*r).blocks.is_empty());
    match (value, region) {
        (Some(a), _) => init_from_attr(e, g, &buf, a, ty)?,
        (None, Some(r)) if returns_zero(e, r) => {
            // `llvm.mlir.zero` is LLVM's zeroinitializer: every byte 0,
            // padding included, whatever the type (structs too).
            let zeros = vec![0u8; size];
            buf.borrow_mut().write_bytes(0, &zeros);
        }
        (None, Some(r)) => {
            let n = e.global_slots.get(&g).copied().unwrap_or(0);
            let mut fr = vec![Value::Opaque; n as usize];
            let (_, vals) = e.run_region(&mut fr, r, Vec::new())?;
            let v = vals.first().ok_or_else(|| Error::unverified(g, "initializer region returns no value"))?;
            mem::write(e, g, &mut buf.borrow_mut(), 0, ty, v)?;
        }
        (None, None) => {
            let linkage = match m.attr(g, "linkage").map(|a| m.ctx.attr_kind(a)) {
                Some(Attribute::Dialect { body, .. }) => body.to_string(),
                _ => String::new(),
            };
            // An external global is defined elsewhere: mlir-runner would
            // need its definition from a library.
            if linkage.is_empty() || linkage.contains("<external>") || linkage.contains("<extern_weak>") {
                return Err(unsupported(
                    at,
                    format!("{} is an external declaration with no initializer", alloc_name(e, g)),
                ));
            }
        }
    }
    buf.borrow_mut().read_only = m.attr(g, "constant").map(|_| CONSTANT_GLOBAL);
    e.mem.globals.insert(g, buf.clone());
    Ok(buf)
}

/// True when initializer region `r` returns the result of an
/// `llvm.mlir.zero`.
fn returns_zero(e: &Engine, r: mlir_ir::ir::RegionId) -> bool {
    let m = e.m;
    let Some(t) = m.region(r).blocks.last().and_then(|b| m.terminator(*b)) else { return false };
    let Some(v) = m.operands(t).first() else { return false };
    matches!(m.value(*v).def, mlir_ir::ir::ValueDef::Result(d, _) if m.op(d).name.kind == mlir_ir::ops::OpKind::LlvmZero)
}

/// The scalar type at the bottom of nested arrays and vectors, and how
/// many of it there are.
fn innermost(e: &Engine, mut ty: TypeId) -> (TypeId, Option<u64>) {
    let mut n = Some(1u64);
    loop {
        match e.m.ctx.type_kind(ty) {
            TypeKind::LlvmArray { len, elem } => {
                n = n.and_then(|x| x.checked_mul(*len));
                ty = *elem;
            }
            TypeKind::Vector { shape, elem, .. } => {
                for d in shape {
                    n = n.and_then(|x| x.checked_mul(u64::try_from(*d).ok()?));
                }
                ty = *elem;
            }
            _ => return (ty, n),
        }
    }
}

/// Lays out a global's `value` attribute: a string's bytes, a scalar, or a
/// dense attribute's elements in row-major order at the innermost element's
/// allocation size.
fn init_from_attr(e: &Engine, g: OpId, buf: &Rc<RefCell<Buffer>>, a: mlir_ir::attrs::AttrId, ty: TypeId) -> Result<()> {
    let m = e.m;
    if let Attribute::String { value, .. } = m.ctx.attr_kind(a) {
        let mut b = buf.borrow_mut();
        if value.len() > b.len() {
            return Err(Error::unverified(g, "string longer than its global"));
        }
        b.write_bytes(0, value);
        return Ok(());
    }
    let (elem, count) = innermost(e, ty);
    // Writes `n` elements row-major at the element's allocation size.
    let fill = |n: u64, item: &mut dyn FnMut(u64) -> Scalar| -> Result<()> {
        let step = layout(e, g, elem)?.alloc;
        let mut b = buf.borrow_mut();
        for k in 0..n {
            let at = k.checked_mul(step).and_then(|a| usize::try_from(a).ok());
            let at = at.ok_or_else(|| Error::unverified(g, "initializer offset overflows"))?;
            mem::write(e, g, &mut b, at, elem, &Value::from_scalar(mem::recast(e, g, item(k), elem)?))?;
        }
        Ok(())
    };
    // A splat fills the whole global, whatever shape it was written with,
    // `tensor<0xi64>` included (LLVM's translation makes it a splat
    // constant of the global's type).
    if let Attribute::Dense { ty: dty, splat: true, values } = m.ctx.attr_kind(a) {
        let x = e.dense_elems(g, *dty, values)?.into_iter().next();
        let x = x.ok_or_else(|| Error::unverified(g, "an empty splat"))?;
        let n = count.ok_or_else(|| Error::unverified(g, "a splat for a global of unknown size"))?;
        return fill(n, &mut |_| x.clone());
    }
    match e.attr_value(g, a, elem)? {
        Value::Array(arr) => {
            if count != Some(arr.len() as u64) {
                return Err(Error::unverified(
                    g,
                    format!("initializer has {} elements for a global of {} elements", arr.len(), count.unwrap_or(0)),
                ));
            }
            fill(arr.len() as u64, &mut |k| arr.get(k as usize))
        }
        // A scalar for an array type would be a splat; LLVM rejects it.
        v if ty == elem => mem::write(e, g, &mut buf.borrow_mut(), 0, ty, &v),
        _ => Err(unsupported(g, "this initializer for an aggregate global")),
    }
}

/// `llvm.getelementptr`: the base plus each index times the size of what
/// it steps over; struct indices add the field's offset. With a vector
/// base or vector indices the result is a vector of pointers, lane `k`
/// computed from lane `k` of each vector operand (scalars broadcast).
fn gep(e: &Engine, op: OpId, args: Vec<Value>) -> Result<Value> {
    let ty = e.result_type(op, 0);
    if !matches!(e.m.ctx.type_kind(ty), TypeKind::Vector { .. }) {
        return gep_lane(e, op, args);
    }
    let n: usize = common::vector_dims_of(e, op, ty)?.iter().product();
    let lanes = (0..n)
        .map(|k| {
            let lane: Option<Vec<Value>> = args.iter().map(|v| common::lane_value(v, k)).collect();
            gep_lane(e, op, lane.ok_or_else(|| Error::unverified(op, "GEP vector operands of different lengths"))?)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::Agg(lanes.into()))
}

/// One pointer's `llvm.getelementptr`.
fn gep_lane(e: &Engine, op: OpId, args: Vec<Value>) -> Result<Value> {
    let mut args = args.into_iter();
    let base = match args.next() {
        Some(Value::Ptr(p)) => p,
        Some(v @ Value::Scalar(Packed::Poison(_))) => return Ok(v),
        _ => return Err(Error::unverified(op, "the base of llvm.getelementptr is not a pointer")),
    };
    let raw = e.i64s(op, "rawConstantIndices")?;
    let flags = e.ints_attr(op, "noWrapFlags")?.and_then(|v| v.first().copied()).unwrap_or(0);
    let inbounds = flags & GEP_INBOUNDS_FLAG != 0;
    let nusw = flags & GEP_NUSW != 0;
    let mut ty = type_attr(e, op, "elem_type")?;
    let len = base.buf.as_ref().map_or(0, |b| b.borrow().len() as i128);
    let mut offset = i128::from(base.offset);
    let poison = Value::from_scalar(Scalar::Poison(Poison(op)));
    for (i, r) in raw.iter().enumerate() {
        let idx: i128 = if *r == GEP_DYNAMIC {
            let v = args
                .next()
                .ok_or_else(|| Error::unverified(op, "fewer dynamic indices than rawConstantIndices says"))?;
            match v.scalar() {
                Some(Scalar::Int(x)) => {
                    x.to_i64().map(i128::from).ok_or_else(|| unsupported(op, "GEP index wider than 64 bits"))?
                }
                Some(Scalar::Poison(_)) => return Ok(poison),
                _ => return Err(Error::unverified(op, "GEP index is not an integer")),
            }
        } else {
            i128::from(*r)
        };
        // The first index steps over whole elements of `elem_type`.
        let step = if i == 0 {
            i128::from(layout(e, op, ty)?.alloc).checked_mul(idx)
        } else {
            match e.m.ctx.type_kind(ty).clone() {
                TypeKind::LlvmArray { elem, .. } | TypeKind::Vector { elem, .. } => {
                    ty = elem;
                    i128::from(layout(e, op, ty)?.alloc).checked_mul(idx)
                }
                TypeKind::LlvmStruct { packed, body: LlvmStructBody::Fields(fs), .. } => {
                    check_default_layout(e, op)?;
                    let (offs, _, _) = datalayout::struct_layout(&e.m.ctx, &fs, packed, e.cfg.index_bits)
                        .map_err(|msg| unsupported(op, msg))?;
                    let k = usize::try_from(idx).ok().filter(|k| *k < fs.len());
                    let k = k.ok_or_else(|| Error::unverified(op, format!("struct index {idx} out of range")))?;
                    ty = fs[k];
                    Some(i128::from(offs[k]))
                }
                _ => {
                    return Err(Error::unverified(op, format!("GEP index #{i} indexes a type that cannot be indexed")))
                }
            }
        };
        let step = step.ok_or_else(|| Error::unverified(op, "GEP offset overflows"))?;
        offset = offset.checked_add(step).ok_or_else(|| Error::unverified(op, "GEP offset overflows"))?;
        // `inbounds`: every partial address stays inside the allocation
        // (one past the end allowed); null only admits offset 0.
        if inbounds && !(0..=len).contains(&offset) {
            return Ok(poison);
        }
        if nusw && i64::try_from(offset).is_err() {
            return Ok(poison);
        }
    }
    // Without flags the address arithmetic wraps (two's complement, 64 bits).
    let offset = offset as i64;
    Ok(Value::Ptr(Ptr { buf: base.buf, offset }))
}
