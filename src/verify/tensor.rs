//! Verifier rules of the tensor dialect: shapes, slices, reshapes, with mlir-opt's messages.

use super::*;
use crate::ops::TensorOp;

impl Verifier<'_> {
    /// Checks one op of the tensor dialect.
    pub(super) fn check_tensor(&self, op: OpId, kind: OpKind, o: TensorOp) -> VResult {
        use OpKind::*;
        let m = self.m;
        match o {
            TensorOp::Extract | TensorOp::Insert => {
                let ops = m.operands(op);
                let base = usize::from(kind == TensorInsert);
                let Some(&tv) = ops.get(base) else { return self.op_err(op, "expected a tensor operand") };
                if !matches!(m.ctx.type_kind(m.type_of(tv)), TypeKind::RankedTensor { .. }) {
                    let what = if kind == TensorInsert { "operand #1" } else { "operand #0" };
                    let t = self.ty(m.type_of(tv));
                    return self.op_err(op, format!("{what} must be ranked tensor of any type values, but got '{t}'"));
                }
                if let Some(shape) = self.shape_of(m.type_of(tv)) {
                    if shape.len() != ops.len() - base - 1 {
                        let what = if kind == TensorInsert {
                            "incorrect number of indices"
                        } else {
                            "incorrect number of indices for extract_element"
                        };
                        return self.op_err(op, what);
                    }
                }
                Ok(())
            }
            TensorOp::Empty => {
                let Some(r) = m.results(op).next() else { return self.op_err(op, "requires 1 result") };
                if let Some(shape) = self.shape_of(m.type_of(r)) {
                    let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
                    let n = m.operands(op).len();
                    if n != want {
                        return self.op_err(op, format!("incorrect number of dynamic sizes, has {n}, expected {want}"));
                    }
                }
                Ok(())
            }
            TensorOp::FromElements => {
                let Some(r) = m.results(op).next() else { return self.op_err(op, "requires 1 result") };
                if let Some(shape) = self.shape_of(m.type_of(r)) {
                    let want = crate::types::num_elements(shape);
                    let n = m.operands(op).len();
                    if Some(n as i64) != want {
                        return self.op_err(
                            op,
                            format!(
                                "number of operands and types do not match: got {n} operands and {} types",
                                want.unwrap_or(-1)
                            ),
                        );
                    }
                }
                Ok(())
            }
            TensorOp::Yield => {
                if !matches!(m.parent_op(op).map(|p| self.kind(p)), Some(TensorGenerate | TensorPad)) {
                    return self.op_err(op, "expects parent op to be one of 'tensor.generate, tensor.pad'");
                }
                Ok(())
            }
            TensorOp::Bitcast => self.tensor_cast(op, true),
            TensorOp::Cast => self.tensor_cast(op, false),
            TensorOp::CollapseShape => self.tensor_reshape_like(op, false),
            TensorOp::Concat => self.tensor_concat(op),
            TensorOp::Dim | TensorOp::Rank => self.index_result(op),
            TensorOp::ExpandShape => self.tensor_reshape_like(op, true),
            TensorOp::ExtractSlice => self.tensor_extract_slice(op),
            TensorOp::Gather => self.tensor_gather_scatter(op, false),
            TensorOp::Generate => self.tensor_generate(op),
            TensorOp::InsertSlice | TensorOp::ParallelInsertSlice => self.tensor_insert_slice(op),
            TensorOp::Pad => self.tensor_pad(op),
            TensorOp::Reshape => self.reshape(op, "tensor"),
            TensorOp::Scatter => self.tensor_gather_scatter(op, true),
            TensorOp::Splat => self.tensor_splat(op),
        }
    }
}
