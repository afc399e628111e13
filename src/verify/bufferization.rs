//! Verifier rules of the bufferization dialect, with mlir-opt's messages.

use super::*;
use crate::ops::BufferizationOp;

impl Verifier<'_> {
    /// Checks one op of the bufferization dialect.
    pub(super) fn check_bufferization(&self, op: OpId, o: BufferizationOp) -> VResult {
        match o {
            BufferizationOp::AllocTensor => self.alloc_tensor(op),
            BufferizationOp::MaterializeInDestination => self.materialize_in_destination(op),
            BufferizationOp::ToBuffer | BufferizationOp::ToMemref | BufferizationOp::ToTensor => {
                self.tensor_buffer_match(op)
            }
            BufferizationOp::DeallocTensor => match self.opnd(op, 0) {
                Some(t)
                    if !matches!(
                        self.m.ctx.type_kind(t),
                        TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }
                    ) =>
                {
                    self.op_err(op, format!("operand #0 must be tensor of any type values, but got '{}'", self.ty(t)))
                }
                _ => Ok(()),
            },
            BufferizationOp::Clone | BufferizationOp::Dealloc => Ok(()),
        }
    }
}
