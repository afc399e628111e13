//! Verifier rules of the memref dialect: allocation, access, views, with mlir-opt's messages.

use super::*;
use crate::ops::MemrefOp;

impl Verifier<'_> {
    /// Checks one op of the memref dialect.
    pub(super) fn check_memref(&self, op: OpId, kind: OpKind, o: MemrefOp) -> VResult {
        use OpKind::*;
        let m = self.m;
        match o {
            MemrefOp::Alloc | MemrefOp::Alloca => {
                if kind == MemrefAlloca && !self.has_allocation_scope(op) {
                    return self.op_err(op, "requires an ancestor op with AutomaticAllocationScope trait");
                }
                let Some(r) = m.results(op).next() else { return self.op_err(op, "requires 1 result") };
                let t = m.type_of(r);
                let TypeKind::MemRef { shape, layout, .. } = m.ctx.type_kind(t) else {
                    return self.op_err(op, format!("result #0 must be memref, but got '{}'", self.ty(t)));
                };
                let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
                let (ndyn, nsym) = self.segment_pair(op);
                if ndyn != want {
                    return self.op_err(op, format!("incorrect number of dynamic sizes, has {ndyn}, expected {want}"));
                }
                let syms = layout.map(|l| match m.ctx.attr_kind(l) {
                    Attribute::AffineMap(mp) => mp.num_syms as usize,
                    _ => 0,
                });
                if nsym != syms.unwrap_or(0) {
                    return self.op_err(op, "symbol operand count does not equal memref symbol count");
                }
                Ok(())
            }
            MemrefOp::Load => {
                let ops = m.operands(op);
                let Some(&mv) = ops.first() else { return self.op_err(op, "expected at least 1 operand") };
                if let Some(shape) = self.shape_of(m.type_of(mv)) {
                    if ops.len() - 1 != shape.len() {
                        return self.op_err(
                            op,
                            format!(
                                "incorrect number of indices for load, expected {} but got {}",
                                shape.len(),
                                ops.len() - 1
                            ),
                        );
                    }
                }
                Ok(())
            }
            MemrefOp::Store => {
                let ops = m.operands(op);
                if ops.len() < 2 {
                    return self.op_err(op, "expected at least 2 operands");
                }
                let mt = m.type_of(ops[1]);
                if m.ctx.type_kind(mt).elem() != Some(m.type_of(ops[0])) {
                    return self.op_err(op, "failed to verify that type of 'value' matches element type of 'memref'");
                }
                if let Some(shape) = self.shape_of(mt) {
                    if ops.len() - 2 != shape.len() {
                        return self.op_err(op, "store index operand count not equal to memref rank");
                    }
                }
                Ok(())
            }
            MemrefOp::Cast => {
                let (Some(&a), Some(b)) = (m.operands(op).first(), m.results(op).next()) else { return Ok(()) };
                let (a, b) = (m.type_of(a), m.type_of(b));
                if !self.memref_cast_compatible(a, b) {
                    return self.op_err(
                        op,
                        format!("operand type '{}' and result type '{}' are cast incompatible", self.ty(a), self.ty(b)),
                    );
                }
                Ok(())
            }
            MemrefOp::Dim | MemrefOp::Rank => self.index_result(op),
            MemrefOp::CollapseShape => self.memref_reshape_like(op, false),
            MemrefOp::Copy => self.memref_copy(op),
            MemrefOp::ExpandShape => self.memref_reshape_like(op, true),
            MemrefOp::ReinterpretCast => self.memref_reinterpret_cast(op),
            MemrefOp::Reshape => self.reshape(op, "memref"),
            MemrefOp::Subview => self.memref_subview(op),
            MemrefOp::Transpose => self.memref_transpose(op),
            MemrefOp::AllocaScope
            | MemrefOp::AllocaScopeReturn
            | MemrefOp::AssumeAlignment
            | MemrefOp::AtomicRmw
            | MemrefOp::AtomicYield
            | MemrefOp::Dealloc
            | MemrefOp::DmaStart
            | MemrefOp::DmaWait
            | MemrefOp::ExtractAlignedPointerAsIndex
            | MemrefOp::ExtractStridedMetadata
            | MemrefOp::GenericAtomicRmw
            | MemrefOp::GetGlobal
            | MemrefOp::Global
            | MemrefOp::MemorySpaceCast
            | MemrefOp::Prefetch
            | MemrefOp::Realloc
            | MemrefOp::BufferCast
            | MemrefOp::TensorLoad
            | MemrefOp::TensorStore => Ok(()),
            MemrefOp::View => self.memref_view(op),
        }
    }
}
