//! The `linalg` dialect's structured ops, all run one way: an iteration
//! space of loops, one indexing map per operand, and a body applied at
//! every point, as `convert-linalg-to-loops` lowers them (loop `d0`
//! outermost, each loop counting up), so a reduction accumulates in the
//! order the lowered code does and float results agree bit for bit.
//!
//! Named ops carry their body as a region (the parser builds it as
//! mlir-opt's region builders do); their inputs, outputs and indexing maps
//! are `mlir_ir::linalg`'s, the same the verifier checked.
//!
//! Tensor outputs are updated copies (value semantics), or the output
//! itself where the op is its last read (`crate::last_use`); memref outputs
//! are written in place, element by element through the memref's own
//! checked accesses, so an out-of-bounds window is memory UB at the op.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::memory::MemRef;
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::affine::Compiled;
use mlir_ir::ir::OpId;
use mlir_ir::ops::{LinalgOp, OpKind};
use std::rc::Rc;

mod points;
mod sparse;

/// Executes one linalg op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: LinalgOp) -> Result<Flow> {
    match kind {
        // Its value at the current point was written by the enclosing
        // structured op before the body ran (see `structured`).
        LinalgOp::Index => Ok(Flow::Next),
        LinalgOp::Yield => Ok(Flow::Exit(e.args(fr, op))),
        LinalgOp::Softmax => softmax(e, fr, op),
        LinalgOp::Pack | LinalgOp::Unpack => relayout(e, fr, op, kind == LinalgOp::Pack),
        _ => structured(e, fr, op, kind),
    }
}

/// One operand of a structured op as the loop nest sees it.
enum Operand {
    /// A scalar (`linalg.fill`'s value): read at every point.
    Scalar(Value),
    /// A tensor: inputs are read; an output is copied before the first
    /// point if anything else holds it (value semantics, `Engine::unique`)
    /// and updated in place.
    Tensor(Rc<Dense>),
    /// A memref: read and written in place.
    Memref(Rc<MemRef>),
}

impl Operand {
    fn shape(&self) -> Vec<i64> {
        match self {
            Operand::Scalar(_) => Vec::new(),
            Operand::Tensor(d) => d.shape().iter().map(|x| *x as i64).collect(),
            Operand::Memref(m) => m.sizes.clone(),
        }
    }

    /// The element at `idx` (in bounds for a tensor: the loop ranges come
    /// from the shapes; a memref checks its own access).
    fn read(&self, op: OpId, idx: &[i64]) -> Result<Value> {
        match self {
            Operand::Scalar(v) => Ok(v.clone()),
            Operand::Tensor(d) => {
                let p: Vec<usize> = idx.iter().map(|x| *x as usize).collect();
                let i = d.linear(&p).ok_or_else(|| out_of_bounds(op, idx, &self.shape()))?;
                Ok(Value::from_scalar(d.get(i)))
            }
            Operand::Memref(m) => m.load(op, idx, "read"),
        }
    }

    fn write(&mut self, op: OpId, idx: &[i64], v: &Value) -> Result<()> {
        match self {
            Operand::Scalar(_) => Err(Error::unverified(op, "a scalar output")),
            Operand::Tensor(d) => {
                let p: Vec<usize> = idx.iter().map(|x| *x as usize).collect();
                let i = d
                    .linear(&p)
                    .ok_or_else(|| out_of_bounds(op, idx, &d.shape().iter().map(|x| *x as i64).collect::<Vec<_>>()))?;
                let s = v.scalar().ok_or_else(|| Error::unverified(op, "a non-scalar yielded"))?;
                Rc::make_mut(d)
                    .set(i, &s)
                    .map_err(|k| Error::unverified(op, format!("yielded value does not fit the output: {k:?}")))
            }
            Operand::Memref(m) => m.store(op, idx, v, "write"),
        }
    }
}

/// An index a map computed outside a tensor operand: only dynamic sizes
/// that disagree can cause it, undefined behaviour.
fn out_of_bounds(op: OpId, idx: &[i64], shape: &[i64]) -> Error {
    Error::at(
        op,
        ErrorKind::Ub(format!("out-of-bounds access: index {idx:?} outside a tensor of shape {shape:?} (its dynamic sizes disagree with the loop ranges)")),
    )
}

/// A value as an operand: a sparse tensor is read as its elements (the
/// result of an op on it is dense; which entries a sparse result stores
/// is the sparsifier's business, not known here yet).
fn operand(e: &Engine, op: OpId, v: Value) -> Result<Operand> {
    Ok(match v {
        Value::Array(d) => Operand::Tensor(d),
        Value::Sparse(s) => Operand::Tensor(crate::operands::sparse_elements(e, op, &s)?),
        Value::Memref(m) => Operand::Memref(m),
        v => Operand::Scalar(v),
    })
}

/// `linalg.generic` and the named ops: every point of the iteration space,
/// in lexicographic order of the loops.
fn structured(e: &mut Engine, fr: &mut Frame, op: OpId, kind: LinalgOp) -> Result<Flow> {
    let n_in = mlir_ir::linalg::input_count(e.m, op, kind).ok_or_else(|| Error::unverified(op, "operand split"))?;
    if sparse::involved(e, fr, op) {
        return sparse::run(e, fr, op, kind, n_in);
    }
    let n_out = e.m.operands(op).len() - n_in;
    let mut operands = Vec::with_capacity(n_in + n_out);
    // An output tensor this op reads last is taken from its slot, so that
    // it is updated in place when nothing else holds it.
    for i in 0..n_in + n_out {
        let v = if i < n_in { e.arg(fr, op, i)?.clone() } else { e.take_arg(fr, op, i)? };
        operands.push(operand(e, op, v)?);
    }
    let shapes: Vec<Vec<i64>> = operands.iter().map(Operand::shape).collect();
    // The indexing maps, decoded at load.
    let code = Rc::clone(&e.aux[op.0 as usize].maps);
    if code.len() != operands.len() {
        return Err(Error::unverified(op, "indexing maps not decoded"));
    }
    let ranges = loop_ranges(op, &code, &shapes)?;
    if ranges.iter().all(|r| *r > 0) {
        check_sizes(op, &code, &shapes, &ranges)?;
    }
    let body = e.region(op, 0)?;
    let block = *e.m.region(body).blocks.first().ok_or_else(|| Error::unverified(op, "no body block"))?;
    // The body's arguments are the first operands' elements: the inputs,
    // then (for every op that has them) the outputs' current elements.
    let nargs = e.m.block(block).args.len as usize;
    debug_assert!(nargs == n_in || nargs == n_in + n_out, "verified block arguments");
    let index_ops: Vec<(OpId, usize)> =
        e.m.block(block)
            .ops
            .iter()
            .filter(|o| e.m.op(**o).name.kind == OpKind::LinalgIndex)
            .map(|o| Ok((*o, e.i64s(*o, "dim")?.first().copied().unwrap_or(0) as usize)))
            .collect::<Result<_>>()?;
    let read_outs: Vec<bool> =
        (n_in..nargs).map(|k| e.m.args(block).nth(k).is_some_and(|a| used_in(e, body, a))).collect();
    let points = ranges.iter().try_fold(1u64, |a, r| a.checked_mul(u64::try_from(*r).unwrap_or(0)));
    e.charge(op, points.unwrap_or(u64::MAX).saturating_sub(1))?;
    if ranges.iter().all(|r| *r > 0) {
        // Either loop writes outputs that are this op's alone.
        for o in &mut operands[n_in..] {
            if let Operand::Tensor(d) = o {
                e.unique(op, d)?;
            }
        }
        if let Some(b) = e.body(op, body)? {
            let used: Vec<bool> = e.m.args(block).map(|a| used_in(e, body, a)).collect();
            let nest = points::Nest {
                used: &used,
                op,
                maps: &code,
                ranges: &ranges,
                n_in,
                read_outs: &read_outs,
                index_ops: &index_ops,
                body: &b,
            };
            if points::run(e, fr, &nest, &mut operands)? {
                return finish(e, fr, op, operands, n_in);
            }
        }
    }
    let mut point = vec![0i64; ranges.len()];
    // A buffer for each map's indices.
    let mut idx: Vec<Vec<i64>> = code.iter().map(|c| vec![0; c.results()]).collect();
    let at = |k: usize, point: &[i64], idx: &mut [Vec<i64>]| -> Result<()> {
        code[k].eval_into(point, &mut idx[k]).map_err(|x| Error::unverified(op, format!("indexing map: {x:?}")))
    };
    if ranges.iter().all(|r| *r > 0) {
        loop {
            let mut args = Vec::with_capacity(nargs);
            for (k, o) in operands.iter().enumerate().take(nargs) {
                at(k, &point, &mut idx)?;
                let v = o.read(op, &idx[k])?;
                if k >= n_in && read_outs[k - n_in] {
                    never_written(e, op, &v)?;
                }
                args.push(v);
            }
            for (iop, d) in &index_ops {
                let v = Value::int(Int::from_u128(e.cfg.index_bits, point[*d] as u128));
                e.assign(fr, *iop, v)?;
            }
            let (_, ys) = e.run_region(fr, body, args)?;
            for (k, y) in ys.iter().enumerate().take(n_out) {
                at(n_in + k, &point, &mut idx)?;
                operands[n_in + k].write(op, &idx[n_in + k], y)?;
            }
            if !next(&mut point, &ranges) {
                break;
            }
        }
    }
    finish(e, fr, op, operands, n_in)
}

/// The op's results: its tensor outputs, as the loop left them.
fn finish(e: &mut Engine, fr: &mut Frame, op: OpId, operands: Vec<Operand>, n_in: usize) -> Result<Flow> {
    let results: Vec<Value> = operands
        .into_iter()
        .skip(n_in)
        .filter_map(|o| match o {
            Operand::Tensor(d) => Some(Value::Array(d)),
            _ => None,
        })
        .collect();
    if results.is_empty() {
        Ok(Flow::Next)
    } else {
        e.assign_all(fr, op, results)
    }
}

/// `linalg.softmax` as mlir-opt decomposes it (`decomposeOperation`), so
/// every rounding agrees: along `dimension`, `m = maxnumf(x, m)` from NaN,
/// then `exp(x - m)`, summed from +0 in index order (`addf(e, sum)`), then
/// each `exp(x - m) / sum`. A poison element makes its whole line poison.
fn softmax(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let dim = crate::operands::i64s(e, op, "dimension")?.first().copied().unwrap_or(0) as usize;
    let mut args = e.args(fr, op).into_iter().map(|v| operand(e, op, v)).collect::<Result<Vec<_>>>()?.into_iter();
    let (Some(input), Some(mut output)) = (args.next(), args.next()) else {
        return Err(Error::unverified(op, "softmax operands"));
    };
    let shape = input.shape();
    if shape != output.shape() {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("softmax input shape {shape:?} differs from output shape {:?}", output.shape())),
        ));
    }
    let n = *shape.get(dim).ok_or_else(|| Error::unverified(op, "softmax dimension"))?;
    let lines: Vec<i64> = shape.iter().enumerate().map(|(d, s)| if d == dim { 1 } else { *s }).collect();
    let points = shape.iter().try_fold(1u64, |a, s| a.checked_mul(u64::try_from(*s).unwrap_or(0)));
    e.charge(op, points.unwrap_or(u64::MAX).saturating_mul(3))?;
    let pol = e.cfg.float_policy;
    let mut p = vec![0i64; shape.len()];
    if n > 0 && lines.iter().all(|s| *s > 0) {
        loop {
            let mut xs = Vec::with_capacity(n as usize);
            for i in 0..n {
                p[dim] = i;
                xs.push(input.read(op, &p)?);
            }
            for (i, y) in softmax_line(e, op, &xs, pol)?.into_iter().enumerate() {
                p[dim] = i as i64;
                output.write(op, &p, &y)?;
            }
            p[dim] = 0;
            if !next(&mut p, &lines) {
                break;
            }
        }
    }
    match output {
        Operand::Tensor(d) => e.assign(fr, op, Value::Array(d)),
        _ => Ok(Flow::Next),
    }
}

/// `linalg.pack` / `unpack`: every element of the destination (shape
/// only) is computed from its index. Pack's index `(outer.., inner..)`
/// reads the source at `outer * tile + inner` along each tiled dimension
/// (outer dimensions permuted by `outer_dims_perm`), or the padding value
/// past the source's end; unpack is the inverse, dropping the padding.
/// What the verifier cannot see with dynamic sizes is undefined behaviour,
/// as the op's documentation says: a destination shape other than the
/// packed one (artificial padding), a partial tile without
/// `padding_value`, and an unpack reading past the packed data.
fn relayout(e: &mut Engine, fr: &mut Frame, op: OpId, pack: bool) -> Result<Flow> {
    let args = e.args(fr, op);
    let tensor = |i: usize| match args.get(i).cloned().map(|v| operand(e, op, v)).transpose()? {
        Some(Operand::Tensor(d)) => Ok(Some(d)),
        _ => Ok(None),
    };
    let (Some(src), Some(dest)) = (tensor(0)?, tensor(1)?) else {
        return Err(Error::unverified(op, "pack operands"));
    };
    let statics = crate::operands::i64s(e, op, "static_inner_tiles")?;
    let pos = crate::operands::i64s(e, op, "inner_dims_pos")?;
    let perm = crate::operands::i64s(e, op, "outer_dims_perm")?;
    let has_pad = pack && crate::operands::i64s(e, op, "operandSegmentSizes")?.get(2) == Some(&1);
    let pad = if has_pad { args.get(2).and_then(Value::scalar) } else { None };
    let mut dynamic = args.iter().skip(if has_pad { 3 } else { 2 });
    let mut tiles = Vec::with_capacity(statics.len());
    for t in &statics {
        let t = if *t == mlir_ir::types::DYNAMIC {
            let v = dynamic.next().ok_or_else(|| Error::unverified(op, "dynamic tile operand"))?;
            crate::operands::index_of(e, op, v, "inner tile")?
        } else {
            *t
        };
        if t <= 0 {
            return Err(Error::at(op, ErrorKind::Ub(format!("inner tile size {t} is not positive"))));
        }
        tiles.push(t);
    }
    let (unpacked, packed) = if pack { (src.shape(), dest.shape()) } else { (dest.shape(), src.shape()) };
    let ushape: Vec<i64> = unpacked.iter().map(|d| *d as i64).collect();
    let pshape: Vec<i64> = packed.iter().map(|d| *d as i64).collect();
    let n = ushape.len();
    let expected = mlir_ir::linalg::packed_shape(&ushape, &tiles, &pos, &perm);
    if pack && expected != pshape {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!(
                "pack into shape {pshape:?}, but the packed shape is {expected:?} (artificial padding)"
            )),
        ));
    }
    if pack && pad.is_none() && pos.iter().zip(&tiles).any(|(p, t)| ushape[*p as usize] % t != 0) {
        return Err(Error::at(op, ErrorKind::Ub("a partial tile without padding_value".into())));
    }
    // outer[d] of unpacked dimension d sits at packed position inv[d].
    let mut inv: Vec<usize> = (0..n).collect();
    if perm.len() == n {
        for (i, p) in perm.iter().enumerate() {
            inv[*p as usize] = i;
        }
    }
    let tile_of: Vec<Option<(usize, i64)>> =
        (0..n).map(|d| pos.iter().position(|p| *p as usize == d).map(|j| (j, tiles[j]))).collect();
    let mut out = dest.clone();
    let total: usize = dest.shape().iter().product();
    e.charge(op, total as u64)?;
    let dshape: Vec<usize> = dest.shape().to_vec();
    let mut idx = vec![0usize; dshape.len()];
    let mut from = vec![0usize; src.shape().len()];
    let outm = Rc::make_mut(&mut out);
    for _ in 0..total {
        let inside = if pack {
            // idx is packed: (outer.., inner..); from is unpacked.
            let mut inside = true;
            for d in 0..n {
                let o = idx[inv[d]] as i64;
                let x = match tile_of[d] {
                    Some((j, t)) => o * t + idx[n + j] as i64,
                    None => o,
                };
                inside &= x < ushape[d];
                from[d] = x as usize;
            }
            inside
        } else {
            // idx is unpacked; from is packed.
            for d in 0..n {
                from[inv[d]] = match tile_of[d] {
                    Some((j, t)) => {
                        from[n + j] = idx[d] % t as usize;
                        idx[d] / t as usize
                    }
                    None => idx[d],
                };
            }
            true
        };
        let v = match (inside, src.linear(&from)) {
            (true, Some(i)) => src.get(i),
            (false, _) => pad.clone().ok_or_else(|| Error::unverified(op, "padding checked above"))?,
            (true, None) => {
                return Err(Error::at(
                    op,
                    ErrorKind::Ub(format!("unpack reads index {from:?} outside the packed tensor of shape {pshape:?}")),
                ))
            }
        };
        let i = outm.linear(&idx).ok_or_else(|| Error::unverified(op, "destination index"))?;
        outm.set(i, &v).map_err(|k| Error::unverified(op, format!("pack element: {k:?}")))?;
        crate::operands::next_index(&mut idx, &dshape);
    }
    e.assign(fr, op, Value::Array(out))
}

/// One line of `softmax` (see there).
fn softmax_line(e: &Engine, op: OpId, xs: &[Value], pol: crate::float::Policy) -> Result<Vec<Value>> {
    use crate::float::{self, Round};
    let floats: Option<Vec<float::Float>> = xs.iter().map(|v| v.scalar().and_then(|s| s.as_float())).collect();
    let Some(floats) = floats else {
        let p = xs.iter().find_map(Value::as_poison);
        return match p {
            Some(p) => Ok(vec![Value::from_scalar(Scalar::Poison(p)); xs.len()]),
            None => Err(Error::unverified(op, "softmax of a non-float")),
        };
    };
    let kind = floats[0].kind;
    let m = floats.iter().fold(float::nan(kind), |m, x| crate::sem::fp::maxnumf(*x, m, true));
    let exps: Vec<float::Float> = floats
        .iter()
        .map(|x| {
            let d = float::sub(*x, m, Round::NearestEven);
            float::libm::unary(float::libm::Fn1::Exp, d, pol).map_err(|err| crate::operands::libm_error(e, op, err))
        })
        .collect::<Result<_>>()?;
    let zero = float::from_bits(kind, 0);
    let sum = exps.iter().fold(zero, |s, x| float::add(*x, s, Round::NearestEven));
    Ok(exps.iter().map(|x| Value::float(float::div(*x, sum, Round::NearestEven))).collect())
}

/// An output element the body reads must have been written: the contents
/// of a fresh allocation or `tensor.empty` are undefined (after lowering,
/// the loop reads whatever memory holds), so reading them is undefined
/// behaviour at the op, reported with where the memory came from.
fn never_written(e: &Engine, op: OpId, v: &Value) -> Result<()> {
    let Some(p) = v.as_poison() else { return Ok(()) };
    let fresh = matches!(
        e.m.op(p.0).name.kind,
        OpKind::MemrefAlloc
            | OpKind::MemrefAlloca
            | OpKind::MemrefRealloc
            | OpKind::TensorEmpty
            | OpKind::BufferizationAllocTensor
    );
    if !fresh {
        return Ok(());
    }
    let what =
        format!("read by '{}' as the current value of an output element that was never written", e.m.op_name(op));
    Err(Error::at(op, ErrorKind::Poison { what, origin: p.0 }))
}

/// `v` is an operand of some op in `region` (at any depth).
fn used_in(e: &Engine, region: mlir_ir::ir::RegionId, v: mlir_ir::ir::ValueId) -> bool {
    e.m.region(region).blocks.iter().any(|b| {
        e.m.block(*b)
            .ops
            .iter()
            .any(|o| e.m.operands(*o).contains(&v) || e.m.regions(*o).iter().any(|r| used_in(e, *r, v)))
    })
}

/// Advances `p` to the next point of `ranges` (last loop fastest); false
/// after the last point.
fn next(p: &mut [i64], ranges: &[i64]) -> bool {
    for d in (0..p.len()).rev() {
        p[d] += 1;
        if p[d] < ranges[d] {
            return true;
        }
        p[d] = 0;
    }
    false
}

/// `map` at `point`.
fn at(op: OpId, map: &Compiled, point: &[i64]) -> Result<Vec<i64>> {
    map.eval(point).map_err(|x| Error::unverified(op, format!("indexing map: {x:?}")))
}

/// The loop ranges: each loop's size is the size of the first operand
/// dimension (inputs, then outputs) its map reads with that loop alone,
/// as `LinalgOp::createLoopRanges` inverts the concatenated maps.
fn loop_ranges(op: OpId, maps: &[Compiled], shapes: &[Vec<i64>]) -> Result<Vec<i64>> {
    let n = maps.first().map_or(0, Compiled::dims);
    let mut ranges = vec![None; n];
    for (map, shape) in maps.iter().zip(shapes) {
        for (r, size) in shape.iter().enumerate().take(map.results()) {
            if let Some(d) = map.result_dim(r) {
                let slot = ranges.get_mut(d).ok_or_else(|| Error::unverified(op, "map dim out of range"))?;
                slot.get_or_insert(*size);
            }
        }
    }
    ranges
        .into_iter()
        .enumerate()
        .map(|(d, r)| {
            r.ok_or_else(|| Error::unverified(op, format!("loop d{d} is read by no operand dimension alone")))
        })
        .collect()
}

/// The shape agreement the verifier checks for static sizes, checked on
/// the dynamic ones before any element is touched, as LLVM's
/// `generate-runtime-verification` does for structured ops: every operand
/// dimension a loop reads alone has that loop's size, and one indexed by
/// a compound expression (a convolution's `d0 + d3`) covers its first
/// and last point. A disagreement is undefined behaviour at the op: the
/// lowered loops read past a shorter operand or leave part of a longer
/// output unwritten. An empty iteration space touches nothing.
fn check_sizes(op: OpId, maps: &[Compiled], shapes: &[Vec<i64>], ranges: &[i64]) -> Result<()> {
    let first = vec![0i64; ranges.len()];
    let last: Vec<i64> = ranges.iter().map(|r| r - 1).collect();
    for (k, (map, shape)) in maps.iter().zip(shapes).enumerate() {
        // A map that overflows i64 at the last point (a huge stride the
        // verifier could not check on dynamic sizes) indexes past any
        // operand: the lowered loops' index arithmetic wraps.
        if let Err(mlir_ir::affine::AffineEvalError::Overflow) = map.eval(&last) {
            let what = format!(
                "the indexing map of input/output operand #{k} overflows i64 at the loops' last point {last:?}"
            );
            return Err(Error::at(op, ErrorKind::Ub(what)));
        }
        let (lo, hi) = (at(op, map, &first)?, at(op, map, &last)?);
        for (d, size) in shape.iter().enumerate().take(map.results()) {
            let (min, max) = (lo[d].min(hi[d]), lo[d].max(hi[d]));
            let need = max.saturating_add(1);
            let fits = if map.result_dim(d).is_some() { need == *size } else { need <= *size };
            // LLVM's two messages, with the numbers.
            let what = if min < 0 {
                format!("unexpected negative result on dimension #{d} of input/output operand #{k}: the loops index it at {min}")
            } else if !fits {
                format!("dimension #{d} of input/output operand #{k} is incompatible with inferred dimension size: its size is {size}, the loop ranges make it {need}")
            } else {
                continue;
            };
            return Err(Error::at(op, ErrorKind::Ub(what)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::next;

    /// The last loop runs fastest; an empty nest has one point.
    #[test]
    fn points_are_lexicographic() {
        let mut p = vec![0, 0];
        let mut seen = vec![p.clone()];
        while next(&mut p, &[2, 3]) {
            seen.push(p.clone());
        }
        assert_eq!(seen, vec![vec![0, 0], vec![0, 1], vec![0, 2], vec![1, 0], vec![1, 1], vec![1, 2]]);
        assert!(!next(&mut [], &[]));
    }
}
