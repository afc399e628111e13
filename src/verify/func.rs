//! Verifier rules of the func dialect: function signatures and returns, with mlir-opt's messages.

use super::*;
use crate::ops::FuncOp;

impl Verifier<'_> {
    /// Checks one op of the func dialect.
    pub(super) fn check_func(&self, op: OpId, o: FuncOp) -> VResult {
        let m = self.m;
        match o {
            FuncOp::Func => {
                let Some((ins, _)) = self.func_type(op) else {
                    return self.op_err(op, "requires attribute 'function_type'");
                };
                let r = m.regions(op).first().copied();
                let body = r.and_then(|r| m.region(r).blocks.first().copied());
                match body {
                    Some(b) => {
                        let args: Vec<ValueId> = m.args(b).collect();
                        if args.len() != ins.len() {
                            return self.op_err(
                                op,
                                format!("entry block must have {} arguments to match function signature", ins.len()),
                            );
                        }
                        for (i, (a, t)) in args.iter().zip(ins).enumerate() {
                            let at = m.type_of(*a);
                            if at != *t {
                                return self.op_err(op, format!("type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')", self.ty(at), self.ty(*t)));
                            }
                        }
                    }
                    None => {
                        let vis = m.attr(op, "sym_visibility").map(|a| m.ctx.attr_kind(a));
                        let private = matches!(vis, Some(Attribute::String { value, .. }) if &**value != b"public");
                        if !private {
                            return self.op_err(op, "symbol declaration cannot have public visibility");
                        }
                    }
                }
                Ok(())
            }
            FuncOp::Return => {
                let Some(f) = self.parent_func(op) else { return self.op_err(op, "expects parent op 'func.func'") };
                let Some((_, outs)) = self.func_type(f) else { return Ok(()) };
                let ops = m.operands(op);
                let fname = self.sym_name(f).map(|s| String::from_utf8_lossy(s).into_owned()).unwrap_or_default();
                if ops.len() != outs.len() {
                    return self.op_err(
                        op,
                        format!("has {} operands, but enclosing function (@{fname}) returns {}", ops.len(), outs.len()),
                    );
                }
                for (i, (v, t)) in ops.iter().zip(outs).enumerate() {
                    let vt = m.type_of(*v);
                    if vt != *t {
                        return self.err(m.op(op).span, format!("type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{fname}", self.ty(vt), self.ty(*t)));
                    }
                }
                Ok(())
            }
            FuncOp::Constant => match m.attr(op, "value").map(|a| m.ctx.attr_kind(a)) {
                None => self.op_err(op, "requires attribute 'value'"),
                Some(Attribute::SymbolRef { nested, .. }) if nested.is_empty() => Ok(()),
                Some(_) => {
                    self.op_err(op, "attribute 'value' failed to satisfy constraint: flat symbol reference attribute")
                }
            },
            FuncOp::Call | FuncOp::CallIndirect => Ok(()),
        }
    }
}
