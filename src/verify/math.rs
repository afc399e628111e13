//! Verifier rules of the math dialect: operand types, with mlir-opt's messages.

use super::*;
use crate::ops::MathOp;

impl Verifier<'_> {
    /// Checks one op of the math dialect.
    pub(super) fn check_math(&self, op: OpId, o: MathOp) -> VResult {
        match o {
            MathOp::Absi | MathOp::Ctlz | MathOp::Cttz | MathOp::Ctpop | MathOp::Ipowi => {
                self.check_elem(op, Self::is_signless_int_like, "signless-integer-like")?;
                self.same_types(op)
            }
            MathOp::Absf
            | MathOp::Ceil
            | MathOp::Floor
            | MathOp::Round
            | MathOp::Roundeven
            | MathOp::Trunc
            | MathOp::Sqrt
            | MathOp::Rsqrt
            | MathOp::Cbrt
            | MathOp::Exp
            | MathOp::Exp2
            | MathOp::Expm1
            | MathOp::Log
            | MathOp::Log2
            | MathOp::Log10
            | MathOp::Log1p
            | MathOp::Sin
            | MathOp::Cos
            | MathOp::Tan
            | MathOp::Asin
            | MathOp::Acos
            | MathOp::Atan
            | MathOp::Sinh
            | MathOp::Cosh
            | MathOp::Tanh
            | MathOp::Asinh
            | MathOp::Acosh
            | MathOp::Atanh
            | MathOp::Erf
            | MathOp::Erfc
            | MathOp::Atan2
            | MathOp::Copysign
            | MathOp::Powf
            | MathOp::Fma
            | MathOp::Clampf
            | MathOp::Sincos => {
                self.check_elem(op, Self::is_float_like, "floating-point-like")?;
                self.same_types(op)
            }
            MathOp::Fpowi | MathOp::Isnan | MathOp::Isinf | MathOp::Isfinite | MathOp::Isnormal => Ok(()),
        }
    }
}
