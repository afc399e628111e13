//! The `affine` dialect: maps and integer sets evaluated on index operands
//! (dims first, then symbols), loops and conditionals running their regions
//! in the caller's frame, and memory access through maps.
//!
//! - `floordiv`, `ceildiv` and `mod` are mathematical (`-7 mod 3 = 2`); a
//!   non-positive divisor is undefined behaviour (SEMANTICS 34).
//! - `affine.for`: the lower bound is the max of its map's results, the
//!   upper bound the min; the step is positive (verifier).
//! - `affine.for` and `affine.parallel` are automatic allocation scopes:
//!   an alloca in the body is freed when its iteration ends.
//! - `affine.parallel` runs its iterations in lexicographic order; each
//!   reduction folds the yielded values in that order (zero iterations give
//!   the reduction's identity).
//! - `delinearize_index` with the outer bound given, and `linearize_index
//!   disjoint`, require indices within the basis: out of range is undefined
//!   behaviour and poison respectively.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, FloatKind};
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::affine::{AffineEvalError, Compiled};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::AffineOp;
use mlir_ir::types::{TypeKind, DYNAMIC};

use crate::memory::dma_copy;
use crate::operands::{array, index_args, index_of, index_value, memref_arg};
use crate::sem::atomic::{combine, memory_kind_name};

/// Executes one affine op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: AffineOp) -> Result<Flow> {
    use AffineOp::*;
    match kind {
        Apply => apply(e, fr, op),
        Min => min_max(e, fr, op, false),
        Max => min_max(e, fr, op, true),
        For => for_loop(e, fr, op),
        If => if_op(e, fr, op),
        Load => load(e, fr, op),
        Store => store(e, fr, op),
        VectorLoad => vector_load(e, fr, op),
        VectorStore => vector_store(e, fr, op),
        Parallel => parallel(e, fr, op),
        Yield => Ok(Flow::Exit(e.args(fr, op))),
        DelinearizeIndex => delinearize(e, fr, op),
        LinearizeIndex => linearize(e, fr, op),
        Prefetch | DmaWait => Ok(Flow::Next),
        DmaStart => dma_start(e, fr, op),
    }
}

fn ub(op: OpId, msg: impl Into<String>) -> Error {
    Error::at(op, ErrorKind::Ub(msg.into()))
}

/// The map attribute `name`, for an error message.
fn map_text(e: &Engine, op: OpId, name: &str) -> String {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::AffineMap(m)) => m.to_string(),
        _ => format!("'{name}'"),
    }
}

/// A map evaluation failure as an error at `op`.
fn eval_error(op: OpId, map: &str, err: AffineEvalError) -> Error {
    match err {
        AffineEvalError::NonPositiveDivisor(d) => ub(op, format!("affine map {map}: divisor {d} is not positive")),
        AffineEvalError::Overflow => ub(op, format!("affine map {map}: overflow")),
        AffineEvalError::Unbound => Error::unverified(op, format!("affine map {map}: too few operands")),
    }
}

/// Map `i` of `op` as decoded at load (`Engine::decode_maps` gives the
/// order), named `name` in the op's attributes.
#[inline]
fn compiled<'a>(e: &'a Engine, op: OpId, (i, name): (usize, &str)) -> Result<&'a Compiled> {
    e.aux[op.0 as usize].maps.get(i).ok_or_else(|| Error::unverified(op, format!("missing affine map '{name}'")))
}

/// Evaluates map `(i, name)` of `op` (see [`compiled`]) on `vals`: dims,
/// then symbols.
fn eval_map(e: &Engine, op: OpId, map: (usize, &str), vals: &[i64]) -> Result<Vec<i64>> {
    compiled(e, op, map)?.eval(vals).map_err(|err| eval_error(op, &map_text(e, op, map.1), err))
}

/// The one map of an `affine.apply`, `min`, `max` or access.
const MAP: (usize, &str) = (0, "map");

/// `affine.apply #map(%d)[%s]`.
fn apply(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let vals = index_args(e, fr, op, 0..n, "used as an affine.apply operand")?;
    let r = eval_map(e, op, MAP, &vals)?;
    let v = *r.first().ok_or_else(|| Error::unverified(op, "affine.apply map without results"))?;
    e.assign(fr, op, index_value(e, v))
}

/// `affine.min` / `affine.max`.
fn min_max(e: &mut Engine, fr: &mut Frame, op: OpId, max: bool) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let vals = index_args(e, fr, op, 0..n, "used as an affine.min/max operand")?;
    let r = eval_map(e, op, MAP, &vals)?;
    let v = if max { r.iter().max() } else { r.iter().min() };
    let v = *v.ok_or_else(|| Error::unverified(op, "map without results"))?;
    e.assign(fr, op, index_value(e, v))
}

/// `affine.for %i = max #lb(..) to min #ub(..) step s iter_args(..)`.
fn for_loop(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let seg = e.segments(op)?;
    let (nl, nu) = (seg.first().copied().unwrap_or(0), seg.get(1).copied().unwrap_or(0));
    let lbv = index_args(e, fr, op, 0..nl, "used as an affine.for bound")?;
    let ubv = index_args(e, fr, op, nl..nl + nu, "used as an affine.for bound")?;
    let lbs = eval_map(e, op, (0, "lowerBoundMap"), &lbv)?;
    let ubs = eval_map(e, op, (1, "upperBoundMap"), &ubv)?;
    let lb = *lbs.iter().max().ok_or_else(|| Error::unverified(op, "empty lower bound map"))?;
    let ub_ = *ubs.iter().min().ok_or_else(|| Error::unverified(op, "empty upper bound map"))?;
    let step = match e.m.attr(op, "step").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Integer { value, .. }) => value.to_i64().unwrap_or(1),
        _ => 1,
    };
    if step <= 0 {
        return Err(ub(op, format!("affine.for step {step} is not positive")));
    }
    let body = e.region(op, 0)?;
    let n = e.m.operands(op).len();
    let mut iters = e.args_in(fr, op, nl + nu..n)?;
    let mut iv = lb;
    while iv < ub_ {
        let mut args = Vec::with_capacity(iters.len() + 1);
        args.push(index_value(e, iv));
        args.extend(iters);
        iters = e.run_scoped(fr, body, args)?.1;
        iv = match iv.checked_add(step) {
            Some(v) => v,
            None => break,
        };
    }
    e.assign_all(fr, op, iters)
}

/// `affine.if #set(%d)[%s] { } else { }`.
fn if_op(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = e.m.operands(op).len();
    let vals = index_args(e, fr, op, 0..n, "used as an affine.if operand")?;
    let set =
        e.aux[op.0 as usize].set.as_ref().ok_or_else(|| Error::unverified(op, "affine.if without a condition"))?;
    let holds = set.holds(&vals).map_err(|err| match e.m.attr(op, "condition").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::IntegerSet(s)) => eval_error(op, &s.to_string(), err),
        _ => eval_error(op, "'condition'", err),
    })?;
    let r = e.region(op, if holds { 0 } else { 1 })?;
    if e.m.region(r).blocks.is_empty() {
        return e.assign_all(fr, op, Vec::new());
    }
    let (_, out) = e.run_region(fr, r, Vec::new())?;
    e.assign_all(fr, op, out)
}

/// The memref indices of an affine access: `map` on operands `range`
/// (also what the trace shows the address of).
pub(crate) fn access(
    e: &Engine,
    fr: &Frame,
    op: OpId,
    range: std::ops::Range<usize>,
    map: (usize, &str),
) -> Result<Vec<i64>> {
    let vals = index_args(e, fr, op, range, "used as an affine access index")?;
    eval_map(e, op, map, &vals)
}

/// `affine.load %m[map(%i)]`.
fn load(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let idx = access(e, fr, op, 1..e.m.operands(op).len(), MAP)?;
    let v = m.load(op, &idx, "affine.load")?;
    e.assign(fr, op, v)
}

/// `affine.store %v, %m[map(%i)]`.
fn store(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = e.arg(fr, op, 0)?.clone();
    let m = memref_arg(e, fr, op, 1)?;
    let idx = access(e, fr, op, 2..e.m.operands(op).len(), MAP)?;
    m.store(op, &idx, &v, "affine.store")?;
    Ok(Flow::Next)
}

/// The memref indices of every lane of a vector access at `idx`: the
/// vector's dims run along the memref's trailing dims.
fn lane_indices(op: OpId, idx: &[i64], vshape: &[usize]) -> Result<Vec<Vec<i64>>> {
    if vshape.len() > idx.len() {
        return Err(Error::unverified(op, "vector of higher rank than the memref"));
    }
    let total: usize = vshape.iter().product();
    let base = idx.len() - vshape.len();
    let mut out = Vec::with_capacity(total);
    for k in 0..total {
        let mut at = idx.to_vec();
        let mut rest = k;
        for (d, n) in vshape.iter().enumerate().rev() {
            at[base + d] += (rest % n) as i64;
            rest /= n;
        }
        out.push(at);
    }
    Ok(out)
}

fn vector_shape(e: &Engine, op: OpId, ty: mlir_ir::types::TypeId) -> Result<Vec<usize>> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::Vector { shape, .. } => Ok(shape.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect()),
        _ => Err(Error::unverified(op, "expected a vector type")),
    }
}

/// `affine.vector_load %m[map(%i)] : vector<..>`.
fn vector_load(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let idx = access(e, fr, op, 1..e.m.operands(op).len(), MAP)?;
    let shape = vector_shape(e, op, e.result_type(op, 0))?;
    let mut lanes = Vec::new();
    for at in lane_indices(op, &idx, &shape)? {
        match m.load(op, &at, "affine.vector_load")?.scalar() {
            Some(s) => lanes.push(s),
            None => return Err(Error::unverified(op, "affine.vector_load of non-scalar elements")),
        }
    }
    e.assign(fr, op, array(op, &shape, lanes)?)
}

/// `affine.vector_store %v, %m[map(%i)]`.
fn vector_store(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = e.arg(fr, op, 0)?.clone();
    let m = memref_arg(e, fr, op, 1)?;
    let idx = access(e, fr, op, 2..e.m.operands(op).len(), MAP)?;
    let Value::Array(arr) = v else { return Err(Error::unverified(op, "affine.vector_store of a non-vector")) };
    let lanes = lane_indices(op, &idx, arr.shape())?;
    for (at, s) in lanes.iter().zip(arr.iter()) {
        m.store(op, at, &Value::from_scalar(s.clone()), "affine.vector_store")?;
    }
    Ok(Flow::Next)
}

/// The group sizes attribute `name` (a dense i32 tensor).
fn groups(e: &Engine, op: OpId, name: &str) -> Result<Vec<usize>> {
    // A splat (`dense<1> : tensor<2xi32>`, as mlir-opt prints equal groups)
    // stands for every group.
    let v =
        mlir_ir::linalg::dense_i64s(e.m, op, name).ok_or_else(|| Error::unverified(op, format!("missing '{name}'")))?;
    v.into_iter().map(|x| usize::try_from(x).map_err(|_| Error::unverified(op, "bad groups"))).collect()
}

/// Integer elements of array attribute `name`.
fn int_array(e: &Engine, op: OpId, name: &str) -> Result<Vec<i64>> {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Array(items)) => items
            .iter()
            .map(|a| match e.m.ctx.attr_kind(*a) {
                Attribute::Integer { value, .. } => value.to_i64().ok_or_else(|| Error::unverified(op, "bad integer")),
                _ => Err(Error::unverified(op, format!("bad '{name}'"))),
            })
            .collect(),
        None => Ok(Vec::new()),
        _ => Err(Error::unverified(op, format!("bad '{name}'"))),
    }
}

/// Per-dim bounds of `affine.parallel`: the max (lower) or min (upper) of
/// each group of the map's results.
fn grouped_bounds(op: OpId, results: &[i64], groups: &[usize], lower: bool) -> Result<Vec<i64>> {
    let mut out = Vec::with_capacity(groups.len());
    let mut at = 0;
    for g in groups {
        let part = results.get(at..at + g).ok_or_else(|| Error::unverified(op, "bound groups do not match the map"))?;
        at += g;
        let v = if lower { part.iter().max() } else { part.iter().min() };
        out.push(*v.ok_or_else(|| Error::unverified(op, "empty bound group"))?);
    }
    Ok(out)
}

/// `affine.parallel (%i, ..) = (lbs) to (ubs) step (..) reduce (..)`.
fn parallel(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (lmap, umap) = ((0, "lowerBoundsMap"), (1, "upperBoundsMap"));
    let nl = compiled(e, op, lmap)?.operands();
    let n = e.m.operands(op).len();
    let lvals = index_args(e, fr, op, 0..nl, "used as an affine.parallel bound")?;
    let uvals = index_args(e, fr, op, nl..n, "used as an affine.parallel bound")?;
    let lbs = grouped_bounds(op, &eval_map(e, op, lmap, &lvals)?, &groups(e, op, "lowerBoundsGroups")?, true)?;
    let ubs = grouped_bounds(op, &eval_map(e, op, umap, &uvals)?, &groups(e, op, "upperBoundsGroups")?, false)?;
    let steps = int_array(e, op, "steps")?;
    let kinds = int_array(e, op, "reductions")?;
    if lbs.len() != ubs.len() || steps.len() != lbs.len() || steps.iter().any(|s| *s <= 0) {
        return Err(Error::unverified(op, "affine.parallel bounds and steps do not match"));
    }
    let body = e.region(op, 0)?;
    let mut acc: Vec<Option<Value>> = vec![None; kinds.len()];
    let nd = lbs.len();
    let mut ivs = lbs.clone();
    if (0..nd).any(|d| lbs[d] >= ubs[d]) {
        return finish_parallel(e, fr, op, acc, &kinds);
    }
    loop {
        let args = ivs.iter().map(|v| index_value(e, *v)).collect();
        let (term, vals) = e.run_scoped(fr, body, args)?;
        if vals.len() != kinds.len() {
            return Err(Error::unverified(term, "affine.yield does not match the reductions"));
        }
        for (i, v) in vals.into_iter().enumerate() {
            acc[i] = Some(match acc[i].take() {
                None => v,
                Some(a) => reduce(op, kinds[i], &a, &v)?,
            });
        }
        // Odometer increment, innermost dimension fastest.
        let mut d = nd;
        loop {
            if d == 0 {
                return finish_parallel(e, fr, op, acc, &kinds);
            }
            d -= 1;
            ivs[d] = ivs[d].saturating_add(steps[d]);
            if ivs[d] < ubs[d] {
                break;
            }
            ivs[d] = lbs[d];
        }
    }
}

fn finish_parallel(e: &Engine, fr: &mut Frame, op: OpId, acc: Vec<Option<Value>>, kinds: &[i64]) -> Result<Flow> {
    let mut out = Vec::with_capacity(acc.len());
    for (i, a) in acc.into_iter().enumerate() {
        out.push(match a {
            Some(v) => v,
            None => identity(e, op, kinds[i], e.result_type(op, i))?,
        });
    }
    e.assign_all(fr, op, out)
}

/// One reduction step on scalars or vectors (elementwise).
fn reduce(op: OpId, kind: i64, a: &Value, b: &Value) -> Result<Value> {
    crate::value::map2(a, b, |x, y| combine(op, kind, x, y), || Error::unverified(op, "bad reduction operands"))
}

/// The identity of reduction `kind` for type `ty` (what zero iterations give).
fn identity(e: &Engine, op: OpId, kind: i64, ty: mlir_ir::types::TypeId) -> Result<Value> {
    let et = e.elem_type(ty);
    let name = memory_kind_name(kind);
    let s = match e.m.ctx.type_kind(et) {
        TypeKind::Float(k) => Scalar::Float(float_identity(op, name, *k)?),
        TypeKind::Integer { .. } | TypeKind::Index => {
            let w = e.int_width(et).unwrap_or(64);
            let v: i128 = match name {
                "addi" | "ori" | "xori" | "maxu" => 0,
                "muli" => 1,
                "andi" | "minu" => -1,
                "maxs" => -(1i128 << (w.min(127) - 1)),
                "mins" => (1i128 << (w.min(127) - 1)) - 1,
                _ => return Err(Error::unverified(op, format!("reduction '{name}' on integers"))),
            };
            Scalar::Int(Int::from_i128(w, v))
        }
        _ => {
            return Err(Error::at(
                op,
                ErrorKind::Unsupported(format!("affine.parallel reduction '{name}' of this type")),
            ))
        }
    };
    match e.m.ctx.type_kind(ty) {
        TypeKind::Vector { shape, .. } => {
            let shape: Vec<usize> = shape.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect();
            let d = Dense::splat(&shape, &s, None).map_err(|_| Error::unverified(op, "bad vector"))?;
            Ok(Value::Array(std::rc::Rc::new(d)))
        }
        _ => Ok(Value::from_scalar(s)),
    }
}

fn float_identity(op: OpId, name: &str, k: FloatKind) -> Result<float::Float> {
    let of = |v: num_bigint::BigInt| {
        float::from_int(&v, k, float::Round::NearestEven)
            .map_err(|err| Error::at(op, ErrorKind::NoDefinedResult(err.to_string())))
    };
    // 2^20000 rounds to infinity, or to the largest finite value of formats without one.
    let huge = || of(num_bigint::BigInt::from(1) << 20000u32);
    Ok(match name {
        "addf" => of(0.into())?,
        "mulf" => of(1.into())?,
        "maximumf" | "maxnumf" => float::neg(huge()?),
        "minimumf" | "minnumf" => huge()?,
        _ => return Err(Error::unverified(op, format!("reduction '{name}' on floats"))),
    })
}

/// `static_basis` with each dynamic entry taken from operands `from..`.
fn basis(e: &Engine, fr: &Frame, op: OpId, from: usize) -> Result<Vec<i64>> {
    let mut b = e.i64s(op, "static_basis")?;
    for (next, v) in (from..).zip(b.iter_mut().filter(|v| **v == DYNAMIC)) {
        *v = index_of(e, op, e.arg(fr, op, next)?, "used as a basis element")?;
    }
    if let Some(x) = b.iter().find(|x| **x <= 0) {
        return Err(ub(op, format!("basis element {x} is not positive")));
    }
    Ok(b)
}

/// `affine.delinearize_index %i into (b0, .., bn)`: mixed-radix digits;
/// without the outer bound the first result is unbounded.
fn delinearize(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let i = index_of(e, op, e.arg(fr, op, 0)?, "used as a linear index")?;
    let b = basis(e, fr, op, 1)?;
    let nres = e.m.op(op).results.len as usize;
    if b.len() != nres && b.len() + 1 != nres {
        return Err(Error::unverified(op, format!("basis of {} elements for {nres} results", b.len())));
    }
    let full = b.len() == nres;
    let inner: &[i64] = if full { &b[1..] } else { &b };
    if full {
        let total = b.iter().try_fold(1i64, |a, x| a.checked_mul(*x));
        if i < 0 || total.is_some_and(|t| i >= t) {
            return Err(ub(op, format!("delinearize_index of {i} outside the basis {}", crate::memory::list(&b))));
        }
    }
    let mut out = vec![0i64; nres];
    let mut rest = i;
    for (k, n) in inner.iter().enumerate().rev() {
        out[k + 1] = rest.rem_euclid(*n);
        rest = rest.div_euclid(*n);
    }
    if let Some(first) = out.first_mut() {
        *first = rest;
    }
    let vals = out.into_iter().map(|v| index_value(e, v)).collect();
    e.assign_all(fr, op, vals)
}

/// `affine.linearize_index [%i, ..] by (b0, .., bn)`; with `disjoint`, an
/// index outside its basis element gives poison.
fn linearize(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let seg = e.segments(op)?;
    let nidx = seg.first().copied().unwrap_or(0);
    let idx = index_args(e, fr, op, 0..nidx, "used as a multi-index")?;
    let b = basis(e, fr, op, nidx)?;
    if b.len() != idx.len() && b.len() + 1 != idx.len() {
        return Err(Error::unverified(op, format!("basis of {} elements for {} indices", b.len(), idx.len())));
    }
    let inner: &[i64] = if b.len() == idx.len() { &b[1..] } else { &b };
    let disjoint = e.m.attr(op, "disjoint").is_some();
    if disjoint && idx.iter().skip(idx.len() - inner.len()).zip(inner).any(|(i, n)| *i < 0 || i >= n)
        || disjoint && b.len() == idx.len() && idx.first().zip(b.first()).is_some_and(|(i, n)| *i < 0 || i >= n)
    {
        return e.assign(fr, op, Value::poison(op));
    }
    let mut acc = *idx.first().unwrap_or(&0);
    for (i, n) in idx.iter().skip(1).zip(inner) {
        acc = acc.checked_mul(*n).and_then(|x| x.checked_add(*i)).ok_or_else(|| ub(op, "linearize_index overflows"))?;
    }
    e.assign(fr, op, index_value(e, acc))
}

/// `affine.dma_start %src[..], %dst[..], %tag[..], %n (, %stride, %per)`.
fn dma_start(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (sm, dm, tm) = ((0, "src_map"), (1, "dst_map"), (2, "tag_map"));
    let count_of = |e: &Engine, map| compiled(e, op, map).map(Compiled::operands);
    let (ns, nd, nt) = (count_of(e, sm)?, count_of(e, dm)?, count_of(e, tm)?);
    let src = memref_arg(e, fr, op, 0)?;
    let si = access(e, fr, op, 1..1 + ns, sm)?;
    let dst = memref_arg(e, fr, op, 1 + ns)?;
    let di = access(e, fr, op, 2 + ns..2 + ns + nd, dm)?;
    let tag = memref_arg(e, fr, op, 2 + ns + nd)?;
    let ti = access(e, fr, op, 3 + ns + nd..3 + ns + nd + nt, tm)?;
    tag.locate(op, &ti, "dma tag")?;
    let rest_at = 3 + ns + nd + nt;
    let count = index_of(e, op, e.arg(fr, op, rest_at)?, "used as a dma size")?;
    let stride = index_args(e, fr, op, rest_at + 1..e.m.operands(op).len(), "used as a dma stride")?;
    dma_copy(op, (&src, &si), (&dst, &di), count, &stride)?;
    Ok(Flow::Next)
}
