//! Verifier rules of the arith dialect: operand and result types, casts, constants, with mlir-opt's messages.

use super::*;
use crate::ops::ArithOp;

impl Verifier<'_> {
    /// Checks one op of the arith dialect.
    pub(super) fn check_arith(&self, op: OpId, kind: OpKind, o: ArithOp) -> VResult {
        use OpKind::*;
        let m = self.m;
        match o {
            ArithOp::Addi
            | ArithOp::Subi
            | ArithOp::Muli
            | ArithOp::Divsi
            | ArithOp::Divui
            | ArithOp::Ceildivsi
            | ArithOp::Ceildivui
            | ArithOp::Floordivsi
            | ArithOp::Remsi
            | ArithOp::Remui
            | ArithOp::Andi
            | ArithOp::Ori
            | ArithOp::Xori
            | ArithOp::Shli
            | ArithOp::Shrsi
            | ArithOp::Shrui
            | ArithOp::Maxsi
            | ArithOp::Maxui
            | ArithOp::Minsi
            | ArithOp::Minui => {
                self.expect_counts(op, 2, 1)?;
                self.check_elem(op, Self::is_signless_int_like, "signless-integer-like")?;
                self.same_types(op)
            }
            ArithOp::Addf
            | ArithOp::Subf
            | ArithOp::Mulf
            | ArithOp::Divf
            | ArithOp::Remf
            | ArithOp::Maximumf
            | ArithOp::Minimumf
            | ArithOp::Maxnumf
            | ArithOp::Minnumf => {
                self.expect_counts(op, 2, 1)?;
                self.check_elem(op, Self::is_float_like, "floating-point-like")?;
                self.same_types(op)
            }
            ArithOp::Negf => {
                self.expect_counts(op, 1, 1)?;
                self.check_elem(op, Self::is_float_like, "floating-point-like")?;
                self.same_types(op)
            }
            ArithOp::AdduiExtended | ArithOp::MulsiExtended | ArithOp::MuluiExtended => {
                let n = m.operands(op).len();
                if n != 2 {
                    return self.op_err(op, format!("expected 2 operands, but found {n}"));
                }
                let a = m.type_of(m.operands(op)[0]);
                if !self.is_signless_int_like(a) {
                    return self
                        .op_err(op, format!("operand #0 must be signless-integer-like, but got '{}'", self.ty(a)));
                }
                Ok(())
            }
            ArithOp::Cmpi | ArithOp::Cmpf => {
                self.expect_counts(op, 2, 1)?;
                let (a, b) = (m.type_of(m.operands(op)[0]), m.type_of(m.operands(op)[1]));
                if a != b {
                    return self.op_err(op, "failed to verify that all of {lhs, rhs} have same type");
                }
                let ok = if kind == ArithCmpi { self.is_signless_int_like(a) } else { self.is_float_like(a) };
                if !ok {
                    let what = if kind == ArithCmpi { "signless-integer-like" } else { "floating-point-like" };
                    return self.op_err(op, format!("operand #0 must be {what}, but got '{}'", self.ty(a)));
                }
                Ok(())
            }
            ArithOp::Select => {
                self.expect_counts(op, 3, 1)?;
                let ts = self.all_types(op);
                if ts[1] != ts[2] || ts[2] != ts[3] {
                    return self
                        .op_err(op, "failed to verify that all of {true_value, false_value, result} have same type");
                }
                Ok(())
            }
            ArithOp::Constant => {
                let Some(v) = m.attr(op, "value") else { return self.op_err(op, "requires attribute 'value'") };
                let vt = match m.ctx.attr_kind(v) {
                    Attribute::Integer { ty, .. } | Attribute::Float { ty, .. } | Attribute::Dense { ty, .. } => {
                        Some(*ty)
                    }
                    Attribute::DenseResource { ty, .. } | Attribute::Sparse { ty, .. } => Some(*ty),
                    _ => None,
                };
                let rt = m.results(op).next().map(|r| m.type_of(r));
                if vt.is_some() && vt != rt {
                    return self.op_err(op, "failed to verify that all of {value, result} have same type");
                }
                Ok(())
            }
            ArithOp::Extsi
            | ArithOp::Extui
            | ArithOp::Trunci
            | ArithOp::IndexCast
            | ArithOp::IndexCastui
            | ArithOp::Bitcast
            | ArithOp::Sitofp
            | ArithOp::Uitofp
            | ArithOp::Fptosi
            | ArithOp::Fptoui
            | ArithOp::Extf
            | ArithOp::Truncf => self.check_cast(op, kind),
            ArithOp::ScalingExtf | ArithOp::ScalingTruncf => Ok(()),
        }
    }
}
