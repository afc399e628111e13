//! The structure of linalg's structured ops: which operands are inputs and
//! which outputs, and the indexing maps the op iterates by (its
//! `indexing_maps` attribute, or the maps its definition implies, as
//! mlir-opt computes them for the named ops that do not print theirs).
//! The verifier checks IR against this; the engine runs by it.

use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::{Attribute, DenseValues};
use crate::ir::{Module, OpId, ValueId};
use crate::ops::{LinalgOp, OpKind};

pub mod opdsl;

/// One OpDSL named op as LLVM 22 defines it (`opdsl::OPS` has them all).
#[derive(Debug)]
pub struct OpDsl {
    /// The full op name.
    pub name: &'static str,
    /// Region arguments: one per input, then one per output.
    pub args: usize,
    /// Iterator types, `p`arallel or `r`eduction per loop; empty for the
    /// rank-polymorphic elementwise ops (all parallel, as many loops as
    /// the output has dimensions).
    pub iters: &'static str,
    /// Per operand, per result: a sum of loop dimensions, each scaled.
    pub maps: &'static [&'static [&'static [(u32, Scale)]]],
    /// Attributes the op reads (`strides`, `dilations`) and their length.
    pub attrs: &'static [(&'static str, usize)],
    /// The region builder's steps, in order.
    pub body: &'static [Step],
    /// What the body yields.
    pub yields: &'static [Ref],
}

/// The factor of one loop dimension in an indexing map result.
#[derive(Clone, Copy, Debug)]
pub enum Scale {
    /// The dimension itself.
    One,
    /// Times entry `i` of the `strides` attribute (default 1).
    Stride(usize),
    /// Times entry `i` of the `dilations` attribute (default 1).
    Dilation(usize),
}

/// A value a region builder step reads.
#[derive(Clone, Copy, Debug)]
pub enum Ref {
    /// The block argument.
    Arg(usize),
    /// The result of an earlier step.
    Val(usize),
}

/// The type a cast step converts to.
#[derive(Clone, Copy, Debug)]
pub enum To {
    /// The type of a block argument.
    ArgType(usize),
    /// `iN`.
    Int(u32),
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

/// OpDSL's unary functions (`UnaryFn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Unary {
    Exp,
    Log,
    Abs,
    Ceil,
    Floor,
    Negf,
    Reciprocal,
    Round,
    Sqrt,
    Rsqrt,
    Square,
    Tanh,
    Erf,
}

/// OpDSL's binary functions (`BinaryFn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    DivUnsigned,
    MaxSigned,
    MinSigned,
    MaxUnsigned,
    MinUnsigned,
    Powf,
}

/// One statement of an OpDSL region builder.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// `TypeFn::cast_signed` / `cast_unsigned` of `x` to `to`.
    Cast {
        /// `cast_unsigned`.
        unsigned: bool,
        /// The target type.
        to: To,
        /// The value converted.
        x: Ref,
    },
    /// A unary function.
    Unary(Unary, Ref),
    /// A binary function.
    Binary(Binary, Ref, Ref),
    /// `TernaryFn::select`.
    Select(Ref, Ref, Ref),
    /// An `i64` constant.
    ConstI64(i64),
    /// An `f64` constant.
    ConstF64(f64),
    /// `linalg.index` of a loop.
    Index(u32),
}

/// The OpDSL definition of `kind`, if it is an OpDSL op.
pub fn opdsl(kind: OpKind) -> Option<&'static OpDsl> {
    if kind.fmt() != crate::ops::Fmt::LinalgOpDsl {
        return None;
    }
    opdsl::OPS.iter().find(|d| d.name == kind.name())
}

/// The structured ops whose operands are split by `operandSegmentSizes`
/// (besides the OpDSL ops, which [`input_count`] checks against their
/// definition too).
pub fn segmented(o: LinalgOp) -> bool {
    matches!(
        o,
        LinalgOp::Generic
            | LinalgOp::Fill
            | LinalgOp::Copy
            | LinalgOp::Matmul
            | LinalgOp::BatchMatmul
            | LinalgOp::BatchReduceMatmul
            | LinalgOp::Contract
            | LinalgOp::Elementwise
    )
}

/// How many of `op`'s operands are inputs (the rest are outputs): by
/// `operandSegmentSizes` where the op has it, else by the op's fixed
/// layout. `None` when the operands do not fit that layout (the verifier
/// words the mistake).
pub fn input_count(m: &Module, op: OpId, o: LinalgOp) -> Option<usize> {
    let n = m.operands(op).len();
    match o {
        _ if segmented(o) => match i64s(m, op, "operandSegmentSizes")?[..] {
            [i, o] if i >= 0 && o >= 0 && (i + o) as usize == n => Some(i as usize),
            _ => None,
        },
        LinalgOp::Transpose | LinalgOp::Broadcast | LinalgOp::Softmax => (n == 2).then_some(1),
        LinalgOp::Map => n.checked_sub(1),
        LinalgOp::Reduce => (n > 0 && n.is_multiple_of(2)).then_some(n / 2),
        LinalgOp::Yield | LinalgOp::Index => Some(0),
        _ => {
            let d = opdsl(o.kind())?;
            match i64s(m, op, "operandSegmentSizes")?[..] {
                [i, o] if i >= 0 && o >= 0 && (i + o) as usize == n && n == d.args => Some(i as usize),
                _ => None,
            }
        }
    }
}

/// What `linalg.elementwise`'s `kind` names: an OpDSL function and its
/// arity (`#linalg.elementwise_kind<add>` is `Binary::Add`, 2).
pub fn elementwise_kind(name: &str) -> Option<(Step, usize)> {
    let (a, b, c) = (Ref::Arg(0), Ref::Arg(1), Ref::Arg(2));
    let unary = |f| Some((Step::Unary(f, a), 1));
    let binary = |f| Some((Step::Binary(f, a, b), 2));
    match name {
        "exp" => unary(Unary::Exp),
        "log" => unary(Unary::Log),
        "abs" => unary(Unary::Abs),
        "ceil" => unary(Unary::Ceil),
        "floor" => unary(Unary::Floor),
        "negf" => unary(Unary::Negf),
        "reciprocal" => unary(Unary::Reciprocal),
        "round" => unary(Unary::Round),
        "sqrt" => unary(Unary::Sqrt),
        "rsqrt" => unary(Unary::Rsqrt),
        "square" => unary(Unary::Square),
        "tanh" => unary(Unary::Tanh),
        "erf" => unary(Unary::Erf),
        "add" => binary(Binary::Add),
        "sub" => binary(Binary::Sub),
        "mul" => binary(Binary::Mul),
        "div" => binary(Binary::Div),
        "div_unsigned" => binary(Binary::DivUnsigned),
        "max_signed" => binary(Binary::MaxSigned),
        "min_signed" => binary(Binary::MinSigned),
        "max_unsigned" => binary(Binary::MaxUnsigned),
        "min_unsigned" => binary(Binary::MinUnsigned),
        "powf" => binary(Binary::Powf),
        "select" => Some((Step::Select(a, b, c), 3)),
        _ => None,
    }
}

/// `linalg.pack`'s packed shape for an unpacked `shape`: each tiled
/// dimension ceil-divided by its tile (dynamic if either is), the outer
/// dimensions permuted by `perm` (`result[i] = outer[perm[i]]`), then the
/// tiles. `DYNAMIC` stands for `?` throughout.
pub fn packed_shape(shape: &[i64], tiles: &[i64], pos: &[i64], perm: &[i64]) -> Vec<i64> {
    use crate::types::DYNAMIC;
    let mut outer = shape.to_vec();
    for (p, t) in pos.iter().zip(tiles) {
        let Some(d) = usize::try_from(*p).ok().and_then(|p| outer.get_mut(p)) else { continue };
        if *d != DYNAMIC {
            *d = if *t == DYNAMIC || *t <= 0 { DYNAMIC } else { (*d + t - 1) / t };
        }
    }
    let mut out: Vec<i64> = if perm.len() == outer.len() {
        perm.iter().map(|p| outer.get(*p as usize).copied().unwrap_or(DYNAMIC)).collect()
    } else {
        outer
    };
    out.extend_from_slice(tiles);
    out
}

/// The default indexing maps of the matmul-like ops, as loop count and
/// the loops each operand's dimensions read (`contract` has none: its maps
/// are required).
pub fn contraction_maps(o: LinalgOp) -> Option<(usize, &'static [&'static [u32]])> {
    match o {
        LinalgOp::Matmul => Some((3, &[&[0, 2], &[2, 1], &[0, 1]])),
        LinalgOp::BatchMatmul => Some((4, &[&[0, 1, 3], &[0, 3, 2], &[0, 1, 2]])),
        LinalgOp::BatchReduceMatmul => Some((4, &[&[0, 1, 3], &[0, 3, 2], &[1, 2]])),
        _ => None,
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
        // Identity maps over the output's rank unless written.
        LinalgOp::Elementwise => {
            let n = rank(outs.first());
            match attr_maps(m, op) {
                Some(maps) if !maps.is_empty() => (maps, n),
                _ => (vec![id(n); operands.len()], n),
            }
        }
        LinalgOp::Copy | LinalgOp::Map => {
            let n = rank(outs.first());
            (vec![id(n); operands.len()], n)
        }
        LinalgOp::Matmul | LinalgOp::BatchMatmul | LinalgOp::BatchReduceMatmul | LinalgOp::Contract => {
            let maps = attr_maps(m, op).unwrap_or_else(|| {
                let (n, dims) = contraction_maps(o).unwrap_or((0, &[]));
                dims.iter().map(|d| select(n, &mut d.iter().copied())).collect()
            });
            let loops = maps.first().map_or(0, |mp| mp.num_dims as usize);
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
        // Not a structured op: it runs as its decomposition (the engine's
        // `softmax`).
        LinalgOp::Yield | LinalgOp::Index | LinalgOp::Softmax => (Vec::new(), 0),
        _ => match opdsl(o.kind()) {
            Some(d) if d.iters.is_empty() => {
                // Elementwise: identity maps over the output's rank, the
                // empty map for a rank-0 operand.
                let n = rank(outs.first());
                let maps =
                    operands
                        .iter()
                        .map(|v| if rank(Some(v)) == 0 { select(n, &mut std::iter::empty()) } else { id(n) });
                (maps.collect(), n)
            }
            Some(d) => (opdsl_maps(m, op, d), d.iters.len()),
            None => (Vec::new(), 0),
        },
    }
}

/// An OpDSL op's indexing maps with its `strides` and `dilations` (each
/// entry 1 when the attribute is absent) multiplied in, as
/// `getSymbolBindings` substitutes them.
fn opdsl_maps(m: &Module, op: OpId, d: &OpDsl) -> Vec<AffineMap> {
    let strides = dense_i64s(m, op, "strides");
    let dilations = dense_i64s(m, op, "dilations");
    let factor = |v: &Option<Vec<i64>>, i: usize| v.as_ref().and_then(|v| v.get(i).copied()).unwrap_or(1);
    d.maps
        .iter()
        .map(|results| AffineMap {
            num_dims: d.iters.len() as u32,
            num_syms: 0,
            results: results
                .iter()
                .map(|terms| {
                    let term = |(dim, scale): &(u32, Scale)| {
                        let k = match scale {
                            Scale::One => 1,
                            Scale::Stride(i) => factor(&strides, *i),
                            Scale::Dilation(i) => factor(&dilations, *i),
                        };
                        let e = AffineExpr::Dim(*dim);
                        if k == 1 {
                            e
                        } else {
                            AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Const(k)))
                        }
                    };
                    let mut it = terms.iter().map(term);
                    let first = it.next().unwrap_or(AffineExpr::Const(0));
                    it.fold(first, |a, b| AffineExpr::Add(Box::new(a), Box::new(b)))
                })
                .collect(),
        })
        .collect()
}

/// The entries of a dense integer elements attribute (`strides =
/// dense<2> : tensor<2xi64>`), a splat repeated to its length.
pub fn dense_i64s(m: &Module, op: OpId, name: &str) -> Option<Vec<i64>> {
    let Attribute::Dense { ty, splat, values: DenseValues::Ints(v) } = m.ctx.attr_kind(m.attr(op, name)?) else {
        return None;
    };
    let n = usize::try_from(m.ctx.type_kind(*ty).shape()?.iter().product::<i64>()).ok()?;
    let v: Option<Vec<i64>> = v.iter().map(|x| x.to_i64()).collect();
    match (*splat, v?) {
        (true, v) if v.len() == 1 => Some(vec![v[0]; n]),
        (_, v) => Some(v),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated table and the op registry name the same ops.
    #[test]
    fn every_opdsl_row_is_a_registered_op_and_back() {
        for d in opdsl::OPS {
            let k = OpKind::from_name(d.name).unwrap_or_else(|| panic!("{} is not in ops.rs", d.name));
            assert!(opdsl(k).is_some(), "{} is not LinalgOpDsl in ops.rs", d.name);
            assert_eq!(d.maps.len(), if d.iters.is_empty() { 0 } else { d.args }, "{}", d.name);
        }
        let registered = OpKind::ALL.iter().filter(|k| k.fmt() == crate::ops::Fmt::LinalgOpDsl).count();
        assert_eq!(registered, opdsl::OPS.len());
    }

    /// `linalg.conv_1d_nwc_wcf`'s input map reads `d1 * stride + d3 * dilation`.
    #[test]
    fn strides_and_dilations_scale_the_window() {
        let d = opdsl::OPS.iter().find(|d| d.name == "linalg.conv_1d_nwc_wcf").expect("row");
        assert_eq!(d.iters, "ppprr");
        let input = d.maps[0];
        assert!(matches!(input[1], [(1, Scale::Stride(0)), (3, Scale::Dilation(0))]));
        assert_eq!(d.attrs, &[("strides", 1), ("dilations", 1)]);
    }
}
