//! The structure of linalg's structured ops: which operands are inputs and
//! which outputs, and the indexing maps the op iterates by (its
//! `indexing_maps` attribute, or the maps its definition implies, as
//! mlir-opt computes them for the named ops that do not print theirs).
//! The verifier checks IR against this; the engine runs by it.

use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::{Attribute, DenseValues};
use crate::ir::{Module, OpId, ValueId};
use crate::ops::LinalgOp;

/// How many of `op`'s operands are inputs (the rest are outputs): by
/// `operandSegmentSizes` where the op has it, else by the op's fixed
/// layout. `None` when the operands do not fit that layout (the verifier
/// words the mistake).
pub fn input_count(m: &Module, op: OpId, o: LinalgOp) -> Option<usize> {
    let n = m.operands(op).len();
    match o {
        LinalgOp::Generic | LinalgOp::Fill | LinalgOp::Copy | LinalgOp::Matmul => {
            match i64s(m, op, "operandSegmentSizes")?[..] {
                [i, o] if i >= 0 && o >= 0 && (i + o) as usize == n => Some(i as usize),
                _ => None,
            }
        }
        LinalgOp::Transpose | LinalgOp::Broadcast => (n == 2).then_some(1),
        LinalgOp::Map => n.checked_sub(1),
        LinalgOp::Reduce => (n > 0 && n.is_multiple_of(2)).then_some(n / 2),
        LinalgOp::Yield | LinalgOp::Index => Some(0),
    }
}

/// The indexing maps of structured op `op` (one per operand, inputs first)
/// and its number of loops, given `inputs` (see [`input_count`]). Ranks
/// come from the operands' static types, so this is fixed per op.
pub fn maps(m: &Module, op: OpId, o: LinalgOp, inputs: usize) -> (Vec<AffineMap>, usize) {
    let operands = m.operands(op);
    let (ins, outs) = operands.split_at(inputs.min(operands.len()));
    let rank = |v: Option<&ValueId>| v.and_then(|v| m.ctx.type_kind(m.type_of(*v)).shape()).map_or(0, <[i64]>::len);
    let id = |n: usize| AffineMap::identity(n as u32);
    let select = |n: usize, dims: &mut dyn Iterator<Item = u32>| AffineMap {
        num_dims: n as u32,
        num_syms: 0,
        results: dims.map(AffineExpr::Dim).collect(),
    };
    let dims = |name: &str| i64s(m, op, name).unwrap_or_default();
    match o {
        LinalgOp::Generic => {
            let loops = match m.attr(op, "iterator_types").map(|a| m.ctx.attr_kind(a)) {
                Some(Attribute::Array(v)) => v.len(),
                _ => 0,
            };
            (attr_maps(m, op).unwrap_or_default(), loops)
        }
        // The value is read at every point (no results).
        LinalgOp::Fill => {
            let n = rank(outs.first());
            (vec![select(n, &mut std::iter::empty()), id(n)], n)
        }
        LinalgOp::Copy | LinalgOp::Map => {
            let n = rank(outs.first());
            (vec![id(n); operands.len()], n)
        }
        LinalgOp::Matmul => {
            let maps = attr_maps(m, op).unwrap_or_else(|| {
                [[0, 2], [2, 1], [0, 1]].iter().map(|d| select(3, &mut d.iter().copied())).collect()
            });
            let loops = maps.first().map_or(3, |mp| mp.num_dims as usize);
            (maps, loops)
        }
        // out[.., i, ..] = in[.., perm[i], ..]: input dim `perm[i]` reads
        // loop `i` (the inverse permutation).
        LinalgOp::Transpose => {
            let n = rank(outs.first());
            let perm = dims("permutation");
            let mut inv = vec![AffineExpr::Const(0); perm.len()];
            for (i, p) in perm.iter().enumerate() {
                if let Some(slot) = usize::try_from(*p).ok().and_then(|p| inv.get_mut(p)) {
                    *slot = AffineExpr::Dim(i as u32);
                }
            }
            (vec![AffineMap { num_dims: n as u32, num_syms: 0, results: inv }, id(n)], n)
        }
        // The input lacks the output dims in `dimensions`.
        LinalgOp::Broadcast => {
            let n = rank(outs.first());
            let added = dims("dimensions");
            (vec![select(n, &mut (0..n as u32).filter(|d| !added.contains(&i64::from(*d)))), id(n)], n)
        }
        // Inputs span every loop; the inits lack the reduced ones.
        LinalgOp::Reduce => {
            let n = rank(ins.first());
            let reduced = dims("dimensions");
            let init = select(n, &mut (0..n as u32).filter(|d| !reduced.contains(&i64::from(*d))));
            let mut maps = vec![id(n); ins.len()];
            maps.extend(std::iter::repeat_n(init, outs.len()));
            (maps, n)
        }
        LinalgOp::Yield | LinalgOp::Index => (Vec::new(), 0),
    }
}

/// The `indexing_maps` attribute, when it is a list of affine maps.
fn attr_maps(m: &Module, op: OpId) -> Option<Vec<AffineMap>> {
    match m.ctx.attr_kind(m.attr(op, "indexing_maps")?) {
        Attribute::Array(v) => v
            .iter()
            .map(|x| match m.ctx.attr_kind(*x) {
                Attribute::AffineMap(mp) => Some(mp.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// The entries of a dense `i64`/`i32` array attribute.
pub fn i64s(m: &Module, op: OpId, name: &str) -> Option<Vec<i64>> {
    match m.ctx.attr_kind(m.attr(op, name)?) {
        Attribute::DenseArray { values: DenseValues::Ints(v), .. } => v.iter().map(|x| x.to_i64()).collect(),
        _ => None,
    }
}
