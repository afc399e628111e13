//! Verifier rules of the scf dialect: loops, ifs and their yields, with mlir-opt's messages.

use super::*;
use crate::ops::ScfOp;

impl Verifier<'_> {
    /// Checks one op of the scf dialect.
    pub(super) fn check_scf(&self, op: OpId, o: ScfOp) -> VResult {
        use OpKind::*;
        let m = self.m;
        match o {
            ScfOp::For => {
                let ops = m.operands(op);
                if ops.len() < 3 {
                    return self.op_err(op, format!("expected at least 3 operands, but found {}", ops.len()));
                }
                for (i, v) in ops[..3].iter().enumerate() {
                    let t = m.type_of(*v);
                    if !matches!(
                        m.ctx.type_kind(t),
                        TypeKind::Integer { signedness: Signedness::Signless, .. } | TypeKind::Index
                    ) {
                        return self.op_err(
                            op,
                            format!("operand #{i} must be signless integer or index, but got '{}'", self.ty(t)),
                        );
                    }
                }
                if let Some(&r) = m.regions(op).first() {
                    if let Some(ys) = self.yield_types(r) {
                        let inits = &ops[3..];
                        for (i, (y, v)) in ys.iter().zip(inits).enumerate() {
                            let it = m.type_of(*v);
                            if *y != it {
                                return self.op_err(op, format!("{i}-th region iter_arg and {i}-th yielded value have different type: '{}' != '{}'", self.ty(it), self.ty(*y)));
                            }
                        }
                    }
                }
                Ok(())
            }
            ScfOp::If => {
                let nres = m.op(op).results.len as usize;
                for &r in m.regions(op) {
                    if m.region(r).blocks.is_empty() {
                        if nres > 0 {
                            return self.op_err(op, "must have an else block if defining values");
                        }
                        continue;
                    }
                    if let Some(ys) = self.yield_types(r) {
                        if ys.len() != nres {
                            return self.op_err(op, format!("along control flow edge from Operation scf.yield to parent: region branch point has {} operands, but region successor needs {nres} inputs", ys.len()));
                        }
                    }
                }
                Ok(())
            }
            ScfOp::Yield => {
                let ok = matches!(
                    m.parent_op(op).map(|p| self.kind(p)),
                    Some(ScfExecuteRegion | ScfFor | ScfIf | ScfIndexSwitch | ScfWhile)
                );
                if !ok {
                    return self.op_err(op, "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'");
                }
                Ok(())
            }
            ScfOp::Condition => {
                if m.parent_op(op).map(|p| self.kind(p)) != Some(ScfWhile) {
                    return self.op_err(op, "expects parent op 'scf.while'");
                }
                Ok(())
            }
            ScfOp::ExecuteRegion => {
                let empty = m.regions(op).first().is_none_or(|r| m.region(*r).blocks.is_empty());
                if empty {
                    return self.op_err(op, "region needs to have at least one block");
                }
                Ok(())
            }
            ScfOp::While
            | ScfOp::IndexSwitch
            | ScfOp::Parallel
            | ScfOp::Reduce
            | ScfOp::ReduceReturn
            | ScfOp::Forall
            | ScfOp::InParallel => Ok(()),
        }
    }
}
