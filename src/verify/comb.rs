//! Verifier rules of the comb dialect: widths of operands and results, with mlir-opt's messages.

use super::*;
use crate::ops::CombOp;

impl Verifier<'_> {
    /// Checks one op of the comb dialect.
    pub(super) fn check_comb(&self, op: OpId, o: CombOp) -> VResult {
        let m = self.m;
        match o {
            CombOp::Add
            | CombOp::And
            | CombOp::Mul
            | CombOp::Nand
            | CombOp::Nor
            | CombOp::Or
            | CombOp::Xnor
            | CombOp::Xor => {
                if m.operands(op).is_empty() {
                    return self.op_err(op, "requires at least one operand");
                }
                self.check_elem(op, |v, t| v.m.ctx.type_kind(t).is_integer(), "signless integer")?;
                self.same_types(op)
            }
            CombOp::Inv => self.same_types(op),
            CombOp::Concat => {
                let sum: u64 = m.operands(op).iter().filter_map(|v| self.int_width(m.type_of(*v))).map(u64::from).sum();
                let rw = m.results(op).next().and_then(|r| self.int_width(m.type_of(r))).unwrap_or(0);
                if m.operands(op).is_empty() || sum != rw as u64 {
                    return self.op_err(op, format!("result width {rw} is not the sum of the operand widths {sum}"));
                }
                Ok(())
            }
            CombOp::Extract => {
                let iw = m.operands(op).first().and_then(|v| self.int_width(m.type_of(*v))).unwrap_or(0) as i64;
                let rw = m.results(op).next().and_then(|r| self.int_width(m.type_of(r))).unwrap_or(0) as i64;
                let low = m.attr(op, "lowBit").and_then(|a| match m.ctx.attr_kind(a) {
                    Attribute::Integer { value, .. } => value.to_i64(),
                    _ => None,
                });
                let Some(low) = low else { return self.op_err(op, "requires attribute 'lowBit'") };
                if low < 0 || low + rw > iw {
                    return self
                        .op_err(op, format!("from bit too large for input (bits {low}..{} of an i{iw})", low + rw));
                }
                Ok(())
            }
            CombOp::Replicate => {
                let iw = m.operands(op).first().and_then(|v| self.int_width(m.type_of(*v))).unwrap_or(0);
                let rw = m.results(op).next().and_then(|r| self.int_width(m.type_of(r))).unwrap_or(0);
                if iw == 0 || !rw.is_multiple_of(iw) {
                    return self.op_err(op, format!("result width {rw} must be a multiple of the input width {iw}"));
                }
                Ok(())
            }
            CombOp::TruthTable => {
                let n = m.operands(op).len();
                let bits = m.attr(op, "lookupTable").and_then(|a| match m.ctx.attr_kind(a) {
                    Attribute::Integer { ty, .. } => self.int_width(*ty),
                    _ => None,
                });
                let want = 1u64.checked_shl(n as u32).unwrap_or(u64::MAX);
                if bits.map(u64::from) != Some(want) {
                    return self.op_err(op, format!("lookup table must have 2^{n} = {want} bits"));
                }
                Ok(())
            }
            CombOp::Icmp => {
                let ts: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
                if ts.len() != 2 || ts[0] != ts[1] {
                    return self.op_err(op, "requires all operands to have the same type");
                }
                self.i1_result(op)
            }
            CombOp::Parity => self.i1_result(op),
            CombOp::Mux => {
                let ts = self.all_types(op);
                if ts.len() != 4 || !self.is_scalar_i1(ts[0]) {
                    return self.op_err(op, "operand #0 must be 1-bit signless integer");
                }
                if ts[1] != ts[2] || ts[1] != ts[3] {
                    return self
                        .op_err(op, "failed to verify that all of {trueValue, falseValue, result} have same type");
                }
                Ok(())
            }
            CombOp::Lut => {
                self.check_elem(op, |v, t| v.is_scalar_i8(t), "8-bit signless integer")?;
                let count = |name: &str| match m.attr(op, name).map(|a| m.ctx.attr_kind(a)) {
                    Some(Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), elem }) => {
                        (self.int_width(*elem) == Some(8)).then_some(v.len())
                    }
                    _ => None,
                };
                let (Some(nc), Some(_)) = (count("coefficients"), count("lookupTable")) else {
                    return self.op_err(op, "requires i8 dense array attributes 'coefficients' and 'lookupTable'");
                };
                let n = m.operands(op).len();
                if nc != n {
                    return self.op_err(op, format!("has {nc} coefficients for {n} inputs"));
                }
                Ok(())
            }
        }
    }
}
