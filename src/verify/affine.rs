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
            AffineOp::For
            | AffineOp::DmaStart
            | AffineOp::DmaWait
            | AffineOp::DelinearizeIndex
            | AffineOp::LinearizeIndex => Ok(()),
        }
    }
}
