//! Verifier rules of the affine dialect: maps, loads and stores, yields, with mlir-opt's messages.

use super::*;
use crate::ops::AffineOp;

impl Verifier<'_> {
    /// Checks one op of the affine dialect.
    pub(super) fn check_affine(&self, op: OpId, kind: OpKind, o: AffineOp) -> VResult {
        use OpKind::*;
        let m = self.m;
        match o {
            AffineOp::Load | AffineOp::VectorLoad | AffineOp::Store | AffineOp::VectorStore | AffineOp::Prefetch => {
                let store = matches!(kind, AffineStore | AffineVectorStore);
                let ops = m.operands(op);
                let base = usize::from(store);
                let Some(&mv) = ops.get(base) else { return self.op_err(op, "expected a memref operand") };
                let mt = m.type_of(mv);
                if let (Some(map), Some(shape)) = (self.affine_map(op, "map"), self.shape_of(mt)) {
                    if map.results.len() != shape.len() {
                        return self.op_err(op, "affine map num results must equal memref rank");
                    }
                    if (map.num_dims + map.num_syms) as usize != ops.len() - base - 1 {
                        return self.op_err(op, "expects as many subscripts as affine map inputs");
                    }
                }
                let elem = m.ctx.type_kind(mt).elem();
                match kind {
                    AffineLoad if m.results(op).next().map(|r| m.type_of(r)) != elem => {
                        self.op_err(op, "result type must match element type of memref")
                    }
                    AffineStore if Some(m.type_of(ops[0])) != elem => {
                        self.op_err(op, "value to store must have the same type as memref element type")
                    }
                    _ => Ok(()),
                }
            }
            AffineOp::Apply | AffineOp::Min | AffineOp::Max => {
                let Some(map) = self.affine_map(op, "map") else { return self.op_err(op, "requires attribute 'map'") };
                if m.operands(op).len() != (map.num_dims + map.num_syms) as usize {
                    return self.op_err(op, "operand count and affine map dimension and symbol count must match");
                }
                if map.results.len() != 1 && kind == AffineApply {
                    return self.op_err(op, "mapping must produce one value");
                }
                if map.results.is_empty() {
                    return self.op_err(op, "affine map expect at least one result");
                }
                Ok(())
            }
            AffineOp::Yield => {
                let Some(p) = m.parent_op(op) else { return Ok(()) };
                if !matches!(self.kind(p), AffineFor | AffineIf | AffineParallel) {
                    return self.op_err(op, "only terminates affine.if/for/parallel regions");
                }
                let res: Vec<TypeId> = m.results(p).map(|r| m.type_of(r)).collect();
                let ops = m.operands(op);
                if res.len() != ops.len() {
                    return self.op_err(op, "parent of yield must have same number of results as the yield operands");
                }
                if res.iter().zip(ops).any(|(t, v)| *t != m.type_of(*v)) {
                    return self.op_err(op, "types mismatch between yield op and its parent");
                }
                Ok(())
            }
            AffineOp::Parallel => self.affine_parallel(op),
            AffineOp::If => {
                // An empty else region yields nothing to the results.
                let n = m.op(op).results.len;
                let no_else = m.regions(op).get(1).is_none_or(|r| m.region(*r).blocks.is_empty());
                if n > 0 && no_else {
                    return self.op_err(
                        op,
                        format!(
                            "along control flow edge from parent to parent: region branch point has 0 operands, but region successor needs {n} inputs"
                        ),
                    );
                }
                Ok(())
            }
            AffineOp::For => self.affine_for(op),
            AffineOp::DelinearizeIndex | AffineOp::LinearizeIndex => self.affine_basis(op, o),
            AffineOp::DmaStart | AffineOp::DmaWait => self.affine_dma(op, o),
        }
    }

    /// `affine.dma_start` / `affine.dma_wait`: the maps split the operands
    /// into memrefs and their index lists, as mlir-opt's verifier reads them.
    /// A missing or non-map attribute is an error here; mlir-opt 22 crashes
    /// on a missing one and miscounts a non-map one.
    fn affine_dma(&self, op: OpId, o: AffineOp) -> VResult {
        let m = self.m;
        let names: &[(&str, &str)] = if o == AffineOp::DmaStart {
            &[("src_map", "source"), ("dst_map", "destination"), ("tag_map", "tag")]
        } else {
            &[("tag_map", "tag")]
        };
        let mut inputs = Vec::with_capacity(names.len());
        for (attr, _) in names {
            let Some(map) = self.affine_map(op, attr) else {
                return self.op_err(op, format!("requires attribute '{attr}' to be an affine map"));
            };
            inputs.push((map.num_dims + map.num_syms) as usize);
        }
        let ops = m.operands(op);
        let is_memref = |i: usize| ops.get(i).is_some_and(|v| matches!(m.ctx.type_kind(m.type_of(*v)), TypeKind::MemRef { .. }));
        let is_index = |v: &ValueId| matches!(m.ctx.type_kind(m.type_of(*v)), TypeKind::Index);
        let mut at = 0;
        for ((_, what), n) in names.iter().zip(&inputs) {
            if !is_memref(at) {
                return self.op_err(op, format!("expected DMA {what} to be of memref type"));
            }
            at += 1 + n;
        }
        let total: usize = inputs.iter().sum();
        let fixed = if o == AffineOp::DmaStart { 4 } else { 2 };
        let counts_ok = ops.len() == total + fixed || (o == AffineOp::DmaStart && ops.len() == total + fixed + 2);
        if !counts_ok {
            return self.op_err(op, "incorrect number of operands");
        }
        let mut at = 0;
        for ((attr, _), n) in names.iter().zip(&inputs) {
            if !ops[at + 1..at + 1 + n].iter().all(is_index) {
                let msg = match (o, *attr) {
                    (AffineOp::DmaWait, _) => "index to dma_wait must have 'index' type".to_string(),
                    (_, a) => format!("{} index to dma_start must have 'index' type", &a[..3]),
                };
                return self.op_err(op, msg);
            }
            at += 1 + n;
        }
        Ok(())
    }

    /// `affine.for`: its inits, iteration arguments and results agree, as
    /// mlir-opt checks them; and, beyond what mlir-opt checks, each bound
    /// map has as many operands as it takes dims and symbols (mlir-opt
    /// accepts a generic op whose segments disagree with its maps, and its
    /// bound then reads operands that are not there).
    fn affine_for(&self, op: OpId) -> VResult {
        let m = self.m;
        let segs = self.ints(op, "operandSegmentSizes").unwrap_or_default();
        let iter_args = m.regions(op).first().and_then(|r| m.region(*r).blocks.first()).map(|b| m.args(*b).count());
        if let (Some(&inits), Some(args)) = (segs.get(2), iter_args) {
            let args = args.saturating_sub(1);
            if inits != args as i64 {
                return self.op_err(op, format!("different number of inits and region iter_args: {inits} != {args}"));
            }
        }
        let (Some(lb), Some(ub)) = (self.affine_map(op, "lowerBoundMap"), self.affine_map(op, "upperBoundMap")) else {
            return Ok(());
        };
        let n = m.operands(op).len();
        let (lin, uin) = ((lb.num_dims + lb.num_syms) as usize, (ub.num_dims + ub.num_syms) as usize);
        if n >= lin + uin && n - lin - uin != m.op(op).results.len as usize {
            return self.op_err(op, "mismatch between the number of loop-carried values and results");
        }
        for (which, want, got) in [("lower", lin, segs.first()), ("upper", uin, segs.get(1))] {
            if got.is_some_and(|g| *g != want as i64) {
                return self.op_err(
                    op,
                    format!(
                        "the {which} bound map takes {want} dims and symbols, but the op has {} {which} bound operands",
                        got.copied().unwrap_or(0)
                    ),
                );
            }
        }
        Ok(())
    }

    /// `affine.delinearize_index` returns, and `affine.linearize_index`
    /// takes, one index per basis element and at most one more; the basis's
    /// dynamic entries are its dynamic operands.
    fn affine_basis(&self, op: OpId, o: AffineOp) -> VResult {
        let m = self.m;
        let Some(basis) = self.ints(op, "static_basis") else { return Ok(()) };
        let (indices, dynamic_operands) = if o == AffineOp::DelinearizeIndex {
            (m.op(op).results.len as usize, m.operands(op).len().saturating_sub(1))
        } else {
            let segs = self.ints(op, "operandSegmentSizes").unwrap_or_default();
            let n = m.operands(op).len();
            let multi = segs.first().map_or(n, |s| usize::try_from(*s).unwrap_or(n));
            (multi, n.saturating_sub(multi))
        };
        if indices != basis.len() && indices != basis.len() + 1 {
            return self.op_err(
                op,
                if o == AffineOp::DelinearizeIndex {
                    "should return an index for each basis element and up to one extra index"
                } else {
                    "should be passed a basis element for each index except possibly the first"
                },
            );
        }
        if basis.iter().filter(|b| **b == crate::types::DYNAMIC).count() != dynamic_operands {
            return self.op_err(
                op,
                "mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite",
            );
        }
        Ok(())
    }
}
