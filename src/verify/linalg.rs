//! Verifier rules of the linalg dialect, with mlir-opt's messages: the
//! operand segments and ODS type constraints, the destination-style rules
//! (tensor outputs give the results), each op's own verifier, and, once the
//! body has been verified, the structured-op interface (indexing maps
//! against operands and loops, static loop ranges against shapes, the
//! body's block arguments). The engine runs verified linalg ops without
//! checking any of this again.

use super::*;
use crate::affine::{AffineExpr, AffineMap};
use crate::ops::LinalgOp;
use crate::types::DYNAMIC;

use crate::linalg::segmented;

/// A structured op's operands split into inputs and outputs, with the
/// indexing maps it iterates by and its number of loops.
struct Structured {
    ins: Vec<ValueId>,
    outs: Vec<ValueId>,
    maps: Vec<AffineMap>,
    loops: usize,
}

impl Verifier<'_> {
    /// Checks one op of the linalg dialect, before its body is verified.
    pub(super) fn check_linalg(&self, op: OpId, o: LinalgOp) -> VResult {
        match o {
            LinalgOp::Yield => self.linalg_yield(op),
            LinalgOp::Index => self.linalg_index(op),
            LinalgOp::Pack | LinalgOp::Unpack => self.linalg_relayout(op, o == LinalgOp::Pack),
            _ => {
                let (ins, outs) = self.linalg_split(op, o)?;
                self.linalg_ods(op, o, &ins, &outs)?;
                self.dps(op, self.m.operands(op).len() - outs.len(), &outs)?;
                self.linalg_own(op, o, &ins, &outs)
            }
        }
    }

    /// The structured-op interface, checked after the body's ops as
    /// mlir-opt does (`verifyWithRegions`).
    pub(super) fn check_linalg_regions(&self, op: OpId, o: LinalgOp) -> VResult {
        if matches!(o, LinalgOp::Yield | LinalgOp::Index | LinalgOp::Softmax | LinalgOp::Pack | LinalgOp::Unpack) {
            return Ok(());
        }
        let m = self.m;
        let body = m.regions(op).first().and_then(|r| m.region(*r).blocks.first());
        if let Some(t) = body.and_then(|b| m.terminator(*b)) {
            if self.kind(t) != OpKind::LinalgYield {
                return self
                    .op_err(op, format!("expects regions to end with 'linalg.yield', found '{}'", self.name(t)));
            }
        }
        let s = self.linalg_structured(op, o)?;
        let all: Vec<ValueId> = s.ins.iter().chain(&s.outs).copied().collect();
        let has = |f: fn(&TypeKind) -> bool| all.iter().any(|v| f(m.ctx.type_kind(m.type_of(*v))));
        if has(|k| matches!(k, TypeKind::MemRef { .. })) && has(|k| matches!(k, TypeKind::RankedTensor { .. })) {
            return self.op_err(op, "expected to have pure tensor or buffer semantics");
        }
        if s.maps.len() != all.len() {
            return self.op_err(
                op,
                format!(
                    "expected the number of indexing_map ({}) to be equal to the number of input/output operands ({})",
                    s.maps.len(),
                    all.len()
                ),
            );
        }
        let shapes: Vec<Vec<i64>> = all.iter().map(|v| self.shape_of(m.type_of(*v)).unwrap_or(&[]).to_vec()).collect();
        // The loops-to-shapes map (all results, concatenated) must be
        // invertible: every loop is some operand dimension, unchanged.
        let dims = s.maps.iter().map(|mp| mp.num_dims).max().unwrap_or(0) as usize;
        let concat: Vec<&AffineExpr> = s.maps.iter().flat_map(|mp| mp.results.iter()).collect();
        let flat_sizes: Vec<i64> = shapes.iter().flatten().copied().collect();
        let mut ranges = vec![None; dims];
        for (i, e) in concat.iter().enumerate() {
            if let AffineExpr::Dim(d) = e {
                if let Some(slot) = ranges.get_mut(*d as usize) {
                    if slot.is_none() {
                        *slot = Some(flat_sizes.get(i).copied().unwrap_or(DYNAMIC));
                    }
                }
            }
        }
        if ranges.iter().any(|r| r.is_none()) {
            let nsyms = s.maps.iter().map(|mp| mp.num_syms).sum();
            let whole =
                AffineMap { num_dims: dims as u32, num_syms: nsyms, results: concat.into_iter().cloned().collect() };
            return self.op_err(op, format!("invalid indexing maps are non-invertible: ({whole})"));
        }
        let ranges: Vec<i64> = ranges.into_iter().flatten().collect();
        for (i, mp) in s.maps.iter().enumerate() {
            if mp.num_syms != 0 {
                return self.op_err(op, format!("unexpected symbols in indexing_map #{i}"));
            }
            if mp.results.len() != shapes[i].len() {
                return self.op_err(
                    op,
                    format!(
                        "expected operand #{i} rank ({}) to match the result rank of indexing_map ({})",
                        shapes[i].len(),
                        mp.results.len()
                    ),
                );
            }
        }
        for (i, mp) in s.maps.iter().enumerate() {
            if mp.num_dims as usize != s.loops {
                return self.op_err(
                    op,
                    format!("expected indexing_map #{i} to have {} dim(s) to match the number of loops", s.loops),
                );
            }
        }
        if ranges.iter().all(|r| *r != DYNAMIC) {
            self.linalg_loop_ranges(op, &s.maps, &shapes, &ranges)?;
        }
        let Some(&r) = m.regions(op).first() else { return Ok(()) };
        let Some(&b) = m.region(r).blocks.first() else { return Ok(()) };
        let args: Vec<ValueId> = m.args(b).collect();
        if args.len() != all.len() {
            return self.op_err(
                op,
                "expected as many non-induction variable region arguments as the number of input/output operands",
            );
        }
        for (i, (v, a)) in all.iter().zip(&args).enumerate() {
            let want = self.linalg_elem(m.type_of(*v));
            let got = m.type_of(*a);
            if want != got {
                return self.op_err(
                    op,
                    format!(
                        "expected type of bb argument #{i} ('{}') to match element or self type of the corresponding operand ('{}')",
                        self.ty(got),
                        self.ty(want)
                    ),
                );
            }
        }
        Ok(())
    }

    /// Every operand dimension, evaluated at the first and the last loop
    /// iteration, must stay inside the operand (equal its size when the
    /// dimension is a loop itself).
    fn linalg_loop_ranges(&self, op: OpId, maps: &[AffineMap], shapes: &[Vec<i64>], ranges: &[i64]) -> VResult {
        let start = vec![0; ranges.len()];
        let end: Vec<i64> = ranges.iter().map(|r| r - 1).collect();
        for (i, (mp, shape)) in maps.iter().zip(shapes).enumerate() {
            for (d, e) in mp.results.iter().enumerate() {
                let size = shape[d];
                if size == DYNAMIC || size == 0 {
                    continue;
                }
                // In i128: a huge stride overflows i64 (mlir-opt then
                // prints a garbage bound; the exact one is printed here).
                let (Some(a), Some(z)) = (eval_wide(e, &start), eval_wide(e, &end)) else { continue };
                let size = i128::from(size);
                if a.min(z) < 0 {
                    return self.op_err(op, format!("unexpected result less than 0 at expression #{d} in {mp}"));
                }
                let inferred = a.max(z) + 1;
                if matches!(e, AffineExpr::Dim(_)) {
                    if inferred != size {
                        return self.op_err(
                            op,
                            format!(
                                "inferred input/output operand #{i} has shape's dimension #{d} to be {inferred}, but found {size}"
                            ),
                        );
                    }
                } else if inferred > size {
                    return self.op_err(
                        op,
                        format!(
                            "inferred input/output operand #{i} has shape's dimension #{d} to be greater than or equal to {inferred}, but found {size}"
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// The element type of a tensor or memref, else the type itself.
    fn linalg_elem(&self, t: TypeId) -> TypeId {
        match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::MemRef { elem, .. } => *elem,
            _ => t,
        }
    }

    /// Inputs and outputs: by `operandSegmentSizes` for the ops that have
    /// it, else by each op's fixed layout.
    fn linalg_split(&self, op: OpId, o: LinalgOp) -> Result<(Vec<ValueId>, Vec<ValueId>), Diagnostic> {
        let ops = self.m.operands(op);
        let n = ops.len();
        let fail = |msg: String| Err(Diagnostic::error(self.m.op(op).span, format!("'{}' op {msg}", self.name(op))));
        let n_ins = match o {
            _ if o.kind().fmt() == crate::ops::Fmt::LinalgOpDsl || segmented(o) => {
                // mlir-opt reads a missing attribute as no segments at all.
                let seg = crate::linalg::i64s(self.m, op, "operandSegmentSizes").unwrap_or_else(|| vec![0, 0]);
                let total: i64 = seg.iter().sum();
                if seg.len() != 2 || seg.iter().any(|s| *s < 0) {
                    return fail(
                        "'operandSegmentSizes' attribute for specifying operand segments must have 2 elements".into(),
                    );
                }
                if total != n as i64 {
                    return fail(format!(
                        "operand count ({n}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'"
                    ));
                }
                seg[0] as usize
            }
            LinalgOp::Transpose | LinalgOp::Broadcast | LinalgOp::Softmax => {
                if n != 2 {
                    return fail(format!("expected 2 operands, but found {n}"));
                }
                1
            }
            LinalgOp::Map => {
                if n == 0 {
                    return fail("expected 1 or more operands, but found 0".into());
                }
                n - 1
            }
            LinalgOp::Reduce => {
                if !n.is_multiple_of(2) || n == 0 {
                    return fail(format!("expects as many inputs as inits, but found {n} operands"));
                }
                n / 2
            }
            LinalgOp::Yield | LinalgOp::Index => 0,
            _ => {
                return Err(Diagnostic::error(
                    self.m.op(op).span,
                    format!("internal error: no operand layout for '{}'", self.name(op)),
                ))
            }
        };
        Ok((ops[..n_ins].to_vec(), ops[n_ins..].to_vec()))
    }

    /// The ODS constraints: outputs are shaped (we require ranked tensors
    /// or memrefs, which is all the engine runs), results ranked tensors,
    /// and the inputs of the ops declared on tensors or memrefs likewise.
    fn linalg_ods(&self, op: OpId, o: LinalgOp, ins: &[ValueId], outs: &[ValueId]) -> VResult {
        let m = self.m;
        let ranked = |v: &ValueId| {
            matches!(m.ctx.type_kind(m.type_of(*v)), TypeKind::RankedTensor { .. } | TypeKind::MemRef { .. })
        };
        let shaped_ins = !segmented(o) && crate::linalg::opdsl(o.kind()).is_none();
        for (i, v) in ins.iter().enumerate() {
            if shaped_ins && !ranked(v) {
                let t = self.ty(m.type_of(*v));
                return self.op_err(
                    op,
                    format!("operand #{i} must be variadic of ranked tensor of any type values or memref of any type values, but got '{t}'"),
                );
            }
        }
        for (i, v) in outs.iter().enumerate() {
            if !ranked(v) {
                let t = self.ty(m.type_of(*v));
                let n = ins.len() + i;
                let what = if matches!(
                    m.ctx.type_kind(m.type_of(*v)),
                    TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } | TypeKind::Vector { .. }
                ) {
                    "a ranked tensor or memref"
                } else {
                    "variadic of shaped of any type values"
                };
                return self.op_err(op, format!("operand #{n} must be {what}, but got '{t}'"));
            }
        }
        for (i, r) in m.results(op).enumerate() {
            let t = m.type_of(r);
            if !matches!(m.ctx.type_kind(t), TypeKind::RankedTensor { .. }) {
                return self.op_err(
                    op,
                    format!(
                        "result #{i} must be variadic of ranked tensor of any type values, but got '{}'",
                        self.ty(t)
                    ),
                );
            }
        }
        Ok(())
    }

    /// Destination style (`DestinationStyleOpInterface`, which mlir-opt
    /// verifies after the op's own rules): one result per tensor output, of
    /// its type; the outputs are the operands from `first` on.
    pub(super) fn dps(&self, op: OpId, first: usize, outs: &[ValueId]) -> VResult {
        let m = self.m;
        let tensors: Vec<(usize, ValueId)> = outs
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(m.ctx.type_kind(m.type_of(**v)), TypeKind::RankedTensor { .. }))
            .map(|(i, v)| (i, *v))
            .collect();
        let nres = m.op(op).results.len as usize;
        if nres != tensors.len() {
            return self.op_err(
                op,
                format!(
                    "expected the number of tensor results ({nres}) to be equal to the number of output tensors ({})",
                    tensors.len()
                ),
            );
        }
        for ((i, v), r) in tensors.iter().zip(m.results(op)) {
            let (a, b) = (m.type_of(*v), m.type_of(r));
            if a != b {
                return self.op_err(
                    op,
                    format!(
                        "expected type of operand #{} ('{}') to match type of corresponding result ('{}')",
                        first + i,
                        self.ty(a),
                        self.ty(b)
                    ),
                );
            }
        }
        Ok(())
    }

    /// `SoftmaxOp::verify`: compatible shapes, a dimension within the rank,
    /// and (its trait) one element type.
    fn linalg_softmax(&self, op: OpId, ins: &[ValueId], outs: &[ValueId]) -> VResult {
        let m = self.m;
        let (Some(&i), Some(&o)) = (ins.first(), outs.first()) else { return Ok(()) };
        let (ti, to) = (m.type_of(i), m.type_of(o));
        if self.linalg_elem(ti) != self.linalg_elem(to) {
            return self.op_err(op, "failed to verify that input and output have same element type");
        }
        let (si, so) = (self.shape_of(ti).unwrap_or(&[]), self.shape_of(to).unwrap_or(&[]));
        let compatible =
            si.len() == so.len() && si.iter().zip(so).all(|(a, b)| a == b || *a == DYNAMIC || *b == DYNAMIC);
        if !compatible {
            return self.op_err(op, "incompatible output shape");
        }
        let d = match m.attr(op, "dimension").map(|a| m.ctx.attr_kind(a)) {
            Some(crate::attrs::Attribute::Integer { value, .. }) => value.to_i64(),
            _ => return self.op_err(op, "requires attribute 'dimension'"),
        };
        if d.is_none_or(|d| d < 0 || d >= si.len() as i64) {
            return self.op_err(op, "incorrect dimension specified");
        }
        Ok(())
    }

    /// `linalg.pack`/`unpack`: `commonVerifierPackAndUnPackOp` and
    /// `PackOp::verify`, with their messages and order.
    fn linalg_relayout(&self, op: OpId, pack: bool) -> VResult {
        // ODS first: required attributes and the operand segments.
        self.inherent(op)?;
        let m = self.m;
        let ops = m.operands(op);
        let span = m.op(op).span;
        let bare = |msg: String| Err(Diagnostic::error(span, msg));
        for (i, v) in ops.iter().take(2).enumerate() {
            if !matches!(m.ctx.type_kind(m.type_of(*v)), TypeKind::RankedTensor { .. }) {
                let t = self.ty(m.type_of(*v));
                return self
                    .op_err(op, format!("operand #{i} must be ranked tensor of any type values, but got '{t}'"));
            }
        }
        let (src, dest) = (m.type_of(ops[0]), m.type_of(ops[1]));
        let tiles = crate::linalg::i64s(m, op, "static_inner_tiles").unwrap_or_default();
        let pos = crate::linalg::i64s(m, op, "inner_dims_pos").unwrap_or_default();
        let perm = crate::linalg::i64s(m, op, "outer_dims_perm").unwrap_or_default();
        if tiles.contains(&0) {
            return bare("invalid zero tile factor".into());
        }
        let (unpacked, packed) = if pack { (src, dest) } else { (dest, src) };
        let ushape = self.shape_of(unpacked).unwrap_or(&[]).to_vec();
        let pshape = self.shape_of(packed).unwrap_or(&[]).to_vec();
        let rank = ushape.len();
        let invalid = |v: &[i64]| {
            let mut seen = std::collections::HashSet::new();
            v.len() > rank || !v.iter().all(|d| seen.insert(*d)) || v.iter().any(|d| *d < 0 || *d >= rank as i64)
        };
        if invalid(&pos) {
            return bare("invalid inner_dims_pos vector".into());
        }
        if invalid(&perm) {
            return bare("invalid outer_dims_perm vector".into());
        }
        if !perm.is_empty() && perm.len() != rank {
            return bare("outer_dims_perm must be a permutation or empty".into());
        }
        if tiles.len() > rank {
            return bare(
                "tiling factors must be less than or equal to the input rank for pack or output rank for unpack".into(),
            );
        }
        if tiles.len() != pos.len() {
            return bare("tiling factors must equal the number of dimensions to tile".into());
        }
        let k = tiles.len();
        if pshape.len() != rank + k {
            return bare(format!(
                "packed rank != (unpacked rank + num tiling factors), got {} != {}",
                pshape.len(),
                rank + k
            ));
        }
        if pshape[rank..].iter().zip(&tiles).any(|(s, t)| s != t) {
            return bare(
                "mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type".into(),
            );
        }
        let expected = crate::linalg::packed_shape(&ushape, &tiles, &pos, &perm);
        if expected.iter().zip(&pshape).any(|(a, b)| a != b && *a != DYNAMIC && *b != DYNAMIC) {
            let elem = self.ty(self.linalg_elem(packed));
            let dims: String =
                expected.iter().map(|d| if *d == DYNAMIC { "?x".into() } else { format!("{d}x") }).collect();
            return bare(format!(
                "expected 'tensor<{dims}{elem}>' for the packed domain value, got '{}'",
                self.ty(packed)
            ));
        }
        if pack {
            let elem = self.linalg_elem(src);
            let pad = (crate::linalg::i64s(m, op, "operandSegmentSizes").and_then(|s| s.get(2).copied()) == Some(1))
                .then(|| ops.get(2))
                .flatten();
            if let Some(p) = pad {
                if m.type_of(*p) != elem {
                    let (e, t) = (self.ty(elem), self.ty(m.type_of(*p)));
                    return self.op_err(op, format!("expected padding_value has {e} but got: {t}"));
                }
            } else {
                let partial = pos.iter().zip(&tiles).any(|(p, t)| {
                    let s = ushape[*p as usize];
                    s != DYNAMIC && *t != DYNAMIC && s % t != 0
                });
                if partial {
                    return self.op_err(
                        op,
                        "invalid tile factor or output size provided. Only full tiles are supported when padding_value is not set",
                    );
                }
            }
        }
        Ok(())
    }

    /// Each op's own verifier.
    fn linalg_own(&self, op: OpId, o: LinalgOp, ins: &[ValueId], outs: &[ValueId]) -> VResult {
        let m = self.m;
        let shape = |v: ValueId| self.shape_of(m.type_of(v)).unwrap_or(&[]);
        match o {
            LinalgOp::Generic => self.linalg_generic_attrs(op),
            LinalgOp::Fill => {
                let (Some(&v), Some(&out)) = (ins.first(), outs.first()) else { return Ok(()) };
                let (vt, et) = (m.type_of(v), self.linalg_elem(m.type_of(out)));
                if m.ctx.type_kind(vt).shape().is_some() {
                    return Err(Diagnostic::error(m.op(op).span, "expected op with scalar input"));
                }
                if vt != et {
                    return self.op_err(
                        op,
                        format!(
                            "expected fill value type ('{}') to match output element type ('{}')",
                            self.ty(vt),
                            self.ty(et)
                        ),
                    );
                }
                Ok(())
            }
            LinalgOp::Copy | LinalgOp::Matmul | LinalgOp::BatchMatmul | LinalgOp::BatchReduceMatmul => Ok(()),
            LinalgOp::Contract if m.attr(op, "indexing_maps").is_none() => {
                self.op_err(op, "requires attribute 'indexing_maps'")
            }
            LinalgOp::Contract | LinalgOp::Elementwise => Ok(()),
            LinalgOp::Softmax => self.linalg_softmax(op, ins, outs),
            LinalgOp::Transpose => {
                let Some(perm) = crate::linalg::i64s(self.m, op, "permutation") else {
                    return self.op_err(op, "requires attribute 'permutation'");
                };
                let mut seen = vec![false; perm.len()];
                for p in &perm {
                    match usize::try_from(*p).ok().and_then(|i| seen.get_mut(i)) {
                        Some(s) if !*s => *s = true,
                        _ => return self.op_err(op, "permutation is not valid"),
                    }
                }
                let (a, b) = (shape(ins[0]), shape(outs[0]));
                if a.len() != b.len() {
                    return self.op_err(op, format!("input rank {} does not match init rank {}", a.len(), b.len()));
                }
                if a.len() != perm.len() {
                    return self.op_err(
                        op,
                        format!("size of permutation {} does not match the argument rank {}", perm.len(), a.len()),
                    );
                }
                for (i, p) in perm.iter().enumerate() {
                    let (x, y) = (a[*p as usize], b[i]);
                    if x != y {
                        return self.op_err(
                            op,
                            format!("dim(result, {i}) = {y} doesn't match dim(input, permutation[{i}]) = {x}"),
                        );
                    }
                }
                Ok(())
            }
            LinalgOp::Broadcast => {
                let Some(dims) = crate::linalg::i64s(self.m, op, "dimensions") else {
                    return self.op_err(op, "requires attribute 'dimensions'");
                };
                let (a, b) = (shape(ins[0]), shape(outs[0]));
                if a.len() + dims.len() != b.len() {
                    return self.op_err(
                        op,
                        format!(
                            "input rank plus added dimensions does not match init rank. input rank: {}, dimensions size: {}, init rank: {}",
                            a.len(),
                            dims.len(),
                            b.len()
                        ),
                    );
                }
                for (i, d) in dims.iter().enumerate() {
                    if *d < 0 || *d >= b.len() as i64 {
                        return self.op_err(
                            op,
                            format!(
                                "dimension {i} is out of range. expected range: [0, {}], got: {d}",
                                b.len() as i64 - 1
                            ),
                        );
                    }
                }
                let kept: Vec<usize> = (0..b.len()).filter(|d| !dims.contains(&(*d as i64))).collect();
                // A repeated dimension leaves more init dims than input dims
                // (mlir-opt would read past the input's shape).
                if kept.len() != a.len() {
                    return self.op_err(op, "dimensions must not repeat a dimension");
                }
                for (i, j) in kept.iter().enumerate() {
                    if a[i] != b[*j] {
                        return self.op_err(
                            op,
                            format!("input dim {i} should match init dim {j}. input: {}, init: {}", a[i], b[*j]),
                        );
                    }
                }
                Ok(())
            }
            LinalgOp::Map => {
                let args = self.linalg_block_arg_types(op);
                let n = ins.len() + outs.len();
                if n != args.len() {
                    return self.op_err(
                        op,
                        format!(
                            "expects number of operands to match the arity of mapper, but got: {n} and {}",
                            args.len()
                        ),
                    );
                }
                if let Some((e, t)) = self.linalg_elem_mismatch(ins, &args) {
                    return self.op_err(
                        op,
                        format!("expected element type of input '{}' to match bbArg type '{}'", self.ty(e), self.ty(t)),
                    );
                }
                let out = shape(outs[0]);
                for v in ins {
                    let s = shape(*v);
                    if s != out {
                        return self.op_err(
                            op,
                            format!("expected shape of input ({}) to match shape of output ({})", join(s), join(out)),
                        );
                    }
                }
                Ok(())
            }
            LinalgOp::Reduce => self.linalg_reduce(op, ins, outs),
            LinalgOp::Yield | LinalgOp::Index => Ok(()),
            // OpDSL ops: their attributes are inherent ones (`inherent.rs`).
            _ => Ok(()),
        }
    }

    /// The first operand of `vals` whose element type is not its block
    /// argument's type in `args`: (element type, argument type).
    fn linalg_elem_mismatch(&self, vals: &[ValueId], args: &[TypeId]) -> Option<(TypeId, TypeId)> {
        vals.iter().zip(args).map(|(v, t)| (self.linalg_elem(self.m.type_of(*v)), *t)).find(|(e, t)| e != t)
    }

    fn linalg_reduce(&self, op: OpId, ins: &[ValueId], outs: &[ValueId]) -> VResult {
        let m = self.m;
        let shape = |v: ValueId| self.shape_of(m.type_of(v)).unwrap_or(&[]);
        let Some(dims) = crate::linalg::i64s(self.m, op, "dimensions") else {
            return self.op_err(op, "requires attribute 'dimensions'");
        };
        for (i, v) in ins.iter().enumerate().skip(1) {
            if shape(*v) != shape(ins[0]) {
                return self.op_err(
                    op,
                    format!("expects all inputs to have the same shapes. Shape at input-index {i} is not equal to the shape at input-index 0."),
                );
            }
        }
        for (i, v) in outs.iter().enumerate().skip(1) {
            if shape(*v) != shape(outs[0]) {
                return self.op_err(
                    op,
                    format!("expects all outputs to have the same shapes. Shape at output-index {i} is not equal to the shape at output-index 0."),
                );
            }
        }
        let (a, b) = (shape(ins[0]), shape(outs[0]));
        for d in &dims {
            if *d < 0 || *d >= a.len() as i64 {
                return self.op_err(
                    op,
                    format!("dimensions for reduction should be in the range [0, {}].", a.len() as i64 - 1),
                );
            }
        }
        let kept: Vec<i64> =
            a.iter().enumerate().filter(|(i, _)| !dims.contains(&(*i as i64))).map(|(_, s)| *s).collect();
        if kept.len() != b.len() {
            return self.op_err(
                op,
                format!("number of dimensions after reduction {} doesn't match the init rank {}", kept.len(), b.len()),
            );
        }
        if kept != b {
            return self.op_err(
                op,
                format!(
                    "init dimensions [{}] doesn't match input dimensions after reduction [{}]",
                    join(b),
                    join(&kept)
                ),
            );
        }
        let args = self.linalg_block_arg_types(op);
        if args.len() != ins.len() + outs.len() {
            return self.op_err(op, "mismatching number of operands and block arguments");
        }
        if let Some((e, t)) = self.linalg_elem_mismatch(ins, &args) {
            return self.op_err(
                op,
                format!(
                    "input element type '{}' does not match corresponding block argument type '{}'",
                    self.ty(e),
                    self.ty(t)
                ),
            );
        }
        if let Some((e, t)) = self.linalg_elem_mismatch(outs, &args[ins.len()..]) {
            return self.op_err(
                op,
                format!(
                    "output element type '{}' does not match corresponding block argument type '{}'",
                    self.ty(e),
                    self.ty(t)
                ),
            );
        }
        Ok(())
    }

    /// `linalg.generic`'s required attributes: an array of affine maps and
    /// an array of `#linalg.iterator_type<..>`.
    fn linalg_generic_attrs(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(maps) = m.attr(op, "indexing_maps") else {
            return self.op_err(op, "requires attribute 'indexing_maps'");
        };
        let Some(its) = m.attr(op, "iterator_types") else {
            return self.op_err(op, "requires attribute 'iterator_types'");
        };
        let ok_maps = matches!(m.ctx.attr_kind(maps), Attribute::Array(v) if v.iter().all(|x| matches!(m.ctx.attr_kind(*x), Attribute::AffineMap(_))));
        if !ok_maps {
            return self
                .op_err(op, "attribute 'indexing_maps' failed to satisfy constraint: AffineMap array attribute");
        }
        let ok_its =
            matches!(m.ctx.attr_kind(its), Attribute::Array(v) if v.iter().all(|x| self.linalg_iterator(*x).is_some()));
        if !ok_its {
            return self.op_err(
                op,
                "attribute 'iterator_types' failed to satisfy constraint: Iterator type should be an enum.",
            );
        }
        Ok(())
    }

    /// `parallel` or `reduction` from `#linalg.iterator_type<..>`.
    fn linalg_iterator(&self, a: crate::attrs::AttrId) -> Option<&str> {
        match self.m.ctx.attr_kind(a) {
            Attribute::Dialect { dialect, body } if self.m.ctx.str(*dialect) == "linalg" => {
                let inner = body.strip_prefix(".iterator_type<")?.strip_suffix('>')?.trim();
                matches!(inner, "parallel" | "reduction").then_some(inner)
            }
            _ => None,
        }
    }

    fn linalg_block_arg_types(&self, op: OpId) -> Vec<TypeId> {
        let m = self.m;
        let Some(&r) = m.regions(op).first() else { return Vec::new() };
        let Some(&b) = m.region(r).blocks.first() else { return Vec::new() };
        m.args(b).map(|a| m.type_of(a)).collect()
    }

    /// The indexing maps and loop count of a structured op (named ops
    /// compute theirs from their operands, as mlir-opt does).
    fn linalg_structured(&self, op: OpId, o: LinalgOp) -> Result<Structured, Diagnostic> {
        let (ins, outs) = self.linalg_split(op, o)?;
        let (maps, loops) = crate::linalg::maps(self.m, op, o, ins.len());
        Ok(Structured { ins, outs, maps, loops })
    }

    /// `linalg.yield`: inside a linalg op, one value per output, each of
    /// the output's element type.
    fn linalg_yield(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(p) = m.parent_op(op).filter(|p| self.linalg_structured_kind(*p).is_some()) else {
            return self.op_err(op, "expected parent op with LinalgOp interface");
        };
        let Some(o) = self.linalg_structured_kind(p) else { return Ok(()) };
        let (_, outs) = self.linalg_split(p, o)?;
        let vals = m.operands(op);
        if vals.len() != outs.len() {
            return self.op_err(
                op,
                format!(
                    "expected number of yield values ({}) to match the number of inits / outs operands of the enclosing LinalgOp ({})",
                    vals.len(),
                    outs.len()
                ),
            );
        }
        for (i, (v, out)) in vals.iter().zip(&outs).enumerate() {
            let (t, e) = (m.type_of(*v), self.linalg_elem(m.type_of(*out)));
            if t != e {
                return self.op_err(
                    op,
                    format!(
                        "type of yield operand {} ('{}') doesn't match the element type of the enclosing linalg.generic op ('{}')",
                        i + 1,
                        self.ty(t),
                        self.ty(e)
                    ),
                );
            }
        }
        Ok(())
    }

    /// `linalg.index`: inside a linalg op, naming one of its loops.
    fn linalg_index(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some((p, o)) = m.parent_op(op).and_then(|p| Some((p, self.linalg_structured_kind(p)?))) else {
            return self.op_err(op, "expected parent op with LinalgOp interface");
        };
        let dim = match m.attr(op, "dim").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::Integer { value, ty }) if m.ctx.type_kind(*ty).is_signless_int(64) => value.to_i64(),
            Some(_) => {
                return self.op_err(op, "attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0")
            }
            None => return self.op_err(op, "requires attribute 'dim'"),
        };
        let Some(dim) = dim.filter(|d| *d >= 0) else {
            return self.op_err(op, "attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0");
        };
        if let Some(r) = m.results(op).next() {
            if !matches!(m.ctx.type_kind(m.type_of(r)), TypeKind::Index) {
                return self.op_err(op, format!("result #0 must be index, but got '{}'", self.ty(m.type_of(r))));
            }
        }
        let loops = self.linalg_structured(p, o)?.loops;
        if dim as usize >= loops {
            return self.op_err(
                op,
                format!(
                    "expected dim ({dim}) to be lower than the number of loops ({loops}) of the enclosing LinalgOp"
                ),
            );
        }
        Ok(())
    }

    /// The linalg op kind of `op` when it is a structured op.
    fn linalg_structured_kind(&self, op: OpId) -> Option<LinalgOp> {
        match self.kind(op).dialect_op() {
            DialectOp::Linalg(LinalgOp::Yield | LinalgOp::Index) => None,
            DialectOp::Linalg(o) => Some(o),
            _ => None,
        }
    }
}

/// `4, 8` for mlir-opt's comma-separated shapes (`?` prints as its i64).
fn join(s: &[i64]) -> String {
    s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// `e` at the point `dims`, without overflow for the maps linalg ops use
/// (sums and products of loop indices and constants); `None` when it does
/// not evaluate (a symbol, a non-positive divisor, beyond i128).
fn eval_wide(e: &AffineExpr, dims: &[i64]) -> Option<i128> {
    use AffineExpr::*;
    match e {
        Dim(i) => dims.get(*i as usize).map(|d| i128::from(*d)),
        Sym(_) => None,
        Const(c) => Some(i128::from(*c)),
        Add(a, b) => eval_wide(a, dims)?.checked_add(eval_wide(b, dims)?),
        Mul(a, b) => eval_wide(a, dims)?.checked_mul(eval_wide(b, dims)?),
        Mod(a, b) | FloorDiv(a, b) | CeilDiv(a, b) => {
            let (x, y) = (eval_wide(a, dims)?, eval_wide(b, dims)?);
            if y <= 0 {
                return None;
            }
            Some(match e {
                Mod(..) => x.rem_euclid(y),
                FloorDiv(..) => x.div_euclid(y),
                _ => x.div_euclid(y) + i128::from(x.rem_euclid(y) != 0),
            })
        }
    }
}
