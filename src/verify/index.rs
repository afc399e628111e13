//! Verifier rules of the index dialect, with mlir-opt's messages.

use super::*;
use crate::ops::IndexOp;

impl Verifier<'_> {
    /// Checks one op of the index dialect.
    pub(super) fn check_index(&self, op: OpId, kind: OpKind, o: IndexOp) -> VResult {
        match o {
            IndexOp::Casts | IndexOp::Castu => self.check_cast(op, kind),
            IndexOp::Constant => {
                self.inherent(op)?;
                self.index_result(op)
            }
            IndexOp::BoolConstant => {
                self.inherent(op)?;
                match self.res(op, 0) {
                    Some(t) if !self.is_scalar_i1(t) => {
                        self.op_err(op, format!("result #0 must be 1-bit signless integer, but got '{}'", self.ty(t)))
                    }
                    _ => Ok(()),
                }
            }
            IndexOp::Add
            | IndexOp::Sub
            | IndexOp::Mul
            | IndexOp::Divs
            | IndexOp::Divu
            | IndexOp::Ceildivs
            | IndexOp::Ceildivu
            | IndexOp::Floordivs
            | IndexOp::Rems
            | IndexOp::Remu
            | IndexOp::Maxs
            | IndexOp::Maxu
            | IndexOp::Mins
            | IndexOp::Minu
            | IndexOp::Shl
            | IndexOp::Shrs
            | IndexOp::Shru
            | IndexOp::And
            | IndexOp::Or
            | IndexOp::Xor
            | IndexOp::Cmp
            | IndexOp::Sizeof => Ok(()),
        }
    }
}
