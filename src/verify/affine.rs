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
                    AffineVectorLoad | AffineVectorStore => {
                        let v = if store { self.opnd(op, 0) } else { self.res(op, 0) };
                        match v.and_then(|v| self.vector(v)) {
                            Some((_, _, e)) if Some(e) != elem => {
                                self.op_err(op, "requires memref and vector types of the same elemental type")
                            }
                            _ => Ok(()),
                        }
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
            AffineOp::DmaStart => self.affine_dma(op, &[("src", "source"), ("dst", "destination"), ("tag", "tag")]),
            AffineOp::DmaWait => self.affine_dma(op, &[("tag", "tag")]),
        }
    }

    /// `affine.dma_start` (source, destination, tag) and `affine.dma_wait`
    /// (tag): each memref followed by its map's inputs, then the element
    /// count (and, for a start, an optional stride pair). mlir-opt's rules
    /// first, in its order; then, beyond them, each map has a result per
    /// dimension of its memref and the counts are `index` (mlir-opt accepts
    /// a generic op that breaks them, and its lowering then reads past the
    /// indices or takes a memref for a count).
    fn affine_dma(&self, op: OpId, parts: &[(&str, &str)]) -> VResult {
        let m = self.m;
        let ts: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
        let start = parts.len() == 3;
        let mut maps = Vec::new();
        for (key, _) in parts {
            // mlir-opt 22 crashes on a missing map and miscounts a non-map.
            let Some(map) = self.affine_map(op, &format!("{key}_map")) else {
                return self.op_err(op, format!("requires attribute '{key}_map' to be an affine map"));
            };
            maps.push(map);
        }
        // Where each memref sits.
        let mut at = Vec::new();
        let mut next = 0usize;
        for map in &maps {
            at.push(next);
            next += 1 + (map.num_dims + map.num_syms) as usize;
        }
        let is_memref = |i: usize| ts.get(i).is_some_and(|t| matches!(m.ctx.type_kind(*t), TypeKind::MemRef { .. }));
        for ((_, what), &i) in parts.iter().zip(&at) {
            if !is_memref(i) {
                let what = if start { format!("DMA {what}") } else { "DMA tag".into() };
                return self.op_err(op, format!("expected {what} to be of memref type"));
            }
        }
        if start && ts.len() != next + 1 && ts.len() != next + 3 {
            return self.op_err(op, "incorrect number of operands");
        }
        if !start && ts.len() != next + 1 {
            return self.op_err(op, "incorrect number of operands");
        }
        let index = |t: &TypeId| matches!(m.ctx.type_kind(*t), TypeKind::Index);
        for (((key, _), &i), map) in parts.iter().zip(&at).zip(&maps) {
            let n = (map.num_dims + map.num_syms) as usize;
            if !ts[i + 1..i + 1 + n].iter().all(index) {
                let who = if start { format!("{key} index to dma_start") } else { "index to dma_wait".into() };
                return self.op_err(op, format!("{who} must have 'index' type"));
            }
        }
        for (((_, what), &i), map) in parts.iter().zip(&at).zip(&maps) {
            let rank = self.shape_of(ts[i]).map_or(0, |s| s.len());
            if map.results.len() != rank {
                return self.op_err(
                    op,
                    format!("the {what} map has {} results, but the memref has rank {rank}", map.results.len()),
                );
            }
        }
        if let Some(t) = ts[next..].iter().find(|t| !index(t)) {
            return self.op_err(op, format!("the element count and strides must be index, but got '{}'", self.ty(*t)));
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
