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
            BufferizationOp::Clone | BufferizationOp::Dealloc | BufferizationOp::DeallocTensor => Ok(()),
        }
    }
}
