//! Verifier rules of the complex and bufferization dialects.

use super::*;
use crate::ops::ComplexOp;

impl<'m> Verifier<'m> {
    /// The element type of a complex type.
    fn complex_elem(&self, t: TypeId) -> Option<TypeId> {
        match self.m.ctx.type_kind(t) {
            TypeKind::Complex(e) => Some(*e),
            _ => None,
        }
    }

    pub(super) fn complex_create(&self, op: OpId) -> VResult {
        let (Some(re), Some(im), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else {
            return Ok(());
        };
        let Some(e) = self.complex_elem(r) else { return Ok(()) };
        if e != re {
            return self.op_err(op, "failed to verify that complex element type matches real operand type");
        }
        if e != im {
            return self.op_err(op, "failed to verify that complex element type matches imaginary operand type");
        }
        Ok(())
    }

    /// re, im, abs, angle: the result is the complex element type.
    pub(super) fn complex_part(&self, op: OpId) -> VResult {
        let (Some(c), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        match self.complex_elem(c) {
            Some(e) if e != r => self.op_err(op, "failed to verify that complex element type matches result type"),
            _ => Ok(()),
        }
    }

    pub(super) fn complex_compare(&self, op: OpId) -> VResult {
        if let Some(r) = self.res(op, 0) {
            if !self.m.ctx.type_kind(r).is_signless_int(1) {
                return self.op_err(op, format!("result #0 must be 1-bit signless integer, but got '{}'", self.ty(r)));
            }
        }
        if self.opnd(op, 0) != self.opnd(op, 1) {
            return self.op_err(op, "failed to verify that all of {lhs, rhs} have same type");
        }
        Ok(())
    }

    pub(super) fn complex_constant(&self, op: OpId) -> VResult {
        let Some(v) = self.m.attr(op, "value") else { return Ok(()) };
        let parts = match self.m.ctx.attr_kind(v) {
            Attribute::Array(p) if p.len() == 2 => p,
            _ => {
                return self.op_err(op, "requires 'value' to be a complex constant, represented as array of two values")
            }
        };
        let Some(e) = self.res(op, 0).and_then(|t| self.complex_elem(t)) else { return Ok(()) };
        let ty = |a: crate::attrs::AttrId| match self.m.ctx.attr_kind(a) {
            Attribute::Float { ty, .. } | Attribute::Integer { ty, .. } => Some(*ty),
            _ => None,
        };
        let (Some(a), Some(b)) = (ty(parts[0]), ty(parts[1])) else { return Ok(()) };
        if a != e || b != e {
            return self.op_err(
                op,
                format!(
                    "requires attribute's element types ('{}', '{}') to match the element type of the op's return type ('{}')",
                    self.ty(a),
                    self.ty(b),
                    self.ty(e)
                ),
            );
        }
        Ok(())
    }

    pub(super) fn complex_powi(&self, op: OpId) -> VResult {
        match self.opnd(op, 1) {
            Some(t)
                if !matches!(self.m.ctx.type_kind(t), TypeKind::Integer { signedness: Signedness::Signless, .. }) =>
            {
                self.op_err(op, format!("operand #1 must be signless integer, but got '{}'", self.ty(t)))
            }
            _ => Ok(()),
        }
    }

    pub(super) fn complex_bitcast(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        if a == b {
            return Ok(());
        }
        let scalar = |t: TypeId| matches!(self.m.ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_));
        if !scalar(a) && self.complex_elem(a).is_none() {
            return self.op_err(op, "operand must be int/float/complex");
        }
        if !scalar(b) && self.complex_elem(b).is_none() {
            return self.op_err(op, "result must be int/float/complex");
        }
        let (c, other) = match (self.complex_elem(a), self.complex_elem(b)) {
            (Some(e), None) => (e, b),
            (None, Some(e)) => (e, a),
            _ => return self.op_err(op, "requires that either input or output has a complex type"),
        };
        if self.bits(c).map(|x| x * 2) != self.bits(other) {
            return self.op_err(op, "casting bitwidths do not match");
        }
        Ok(())
    }

    /// to_tensor / to_buffer: the tensor and the buffer agree.
    pub(super) fn tensor_buffer_match(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (ka, kb) = (self.m.ctx.type_kind(a), self.m.ctx.type_kind(b));
        let span = self.m.op(op).span;
        // mlir-opt compares `getShape()`, which is empty for an unranked
        // type: `tensor<*xf32>` matches `memref<f32>` but not `memref<4xf32>`.
        if ka.shape().unwrap_or(&[]) != kb.shape().unwrap_or(&[]) {
            return self.err(span, "shapes do not match");
        }
        if ka.elem() != kb.elem() {
            return self.err(span, "element types do not match");
        }
        Ok(())
    }

    /// `bufferization.materialize_in_destination`: a tensor destination
    /// gives one result of its type, a memref one none and is `writable`;
    /// the shapes agree (mlir-opt's MaterializeInDestinationOp::verify, in
    /// its order).
    pub(super) fn materialize_in_destination(&self, op: OpId) -> VResult {
        let m = self.m;
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (tensor, memref) = match m.ctx.type_kind(d) {
            TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. } => (true, false),
            TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. } => (false, true),
            _ => return self.op_err(op, "'dest' must be a tensor or a memref"),
        };
        let nres = m.op(op).results.len;
        if tensor && nres != 1 {
            return self.op_err(op, "tensor 'dest' implies exactly one tensor result");
        }
        if tensor && self.res(op, 0) != Some(d) {
            return self.op_err(op, "result and 'dest' types must match");
        }
        if memref && nres != 0 {
            return self.op_err(op, "memref 'dest' implies zero results");
        }
        if m.attr(op, "restrict").is_some() && !memref {
            return self.op_err(op, "'restrict' is valid only for memref destinations");
        }
        if m.attr(op, "writable").is_some() != memref {
            return self.op_err(op, "'writable' must be specified if and only if the destination is of memref type");
        }
        match (self.shape_of(s), self.shape_of(d)) {
            (Some(x), Some(y)) if x.len() != y.len() => {
                self.op_err(op, "rank mismatch between source and destination shape")
            }
            (Some(_), Some(_)) if !self.shapes_compatible(s, d) => {
                self.op_err(op, "source/destination shapes are incompatible")
            }
            (Some(_), None) | (None, Some(_)) => self.op_err(op, "source/destination shapes are incompatible"),
            _ => Ok(()),
        }
    }

    pub(super) fn alloc_tensor(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        let seg = self.segments(op).unwrap_or_default();
        let (ndyn, ncopy) = (seg.first().copied().unwrap_or(0), seg.get(1).copied().unwrap_or(0));
        let span = self.m.op(op).span;
        if ncopy > 0 && ndyn > 0 {
            return self.err(span, "dynamic sizes not needed when copying a tensor");
        }
        if ncopy == 0 {
            // mlir-opt accepts an unranked result with nothing to copy; it
            // has no shape to allocate (bufferization then fails on it).
            if matches!(self.m.ctx.type_kind(r), TypeKind::UnrankedTensor { .. }) {
                return self.err(span, "an unranked tensor can only be allocated as a copy (mlir-opt accepts it)");
            }
            self.dynamic_sizes(op, r, ndyn)?;
        }
        if ncopy > 0 && self.opnd(op, ndyn) != Some(r) {
            return self.err(span, "expected that `copy` and return type match");
        }
        Ok(())
    }
}

impl Verifier<'_> {
    /// Checks one op of the complex dialect.
    pub(super) fn check_complex(&self, op: OpId, o: ComplexOp) -> VResult {
        match o {
            ComplexOp::Add
            | ComplexOp::Sub
            | ComplexOp::Mul
            | ComplexOp::Div
            | ComplexOp::Pow
            | ComplexOp::Atan2
            | ComplexOp::Neg
            | ComplexOp::Conj
            | ComplexOp::Exp
            | ComplexOp::Expm1
            | ComplexOp::Log
            | ComplexOp::Log1p
            | ComplexOp::Sqrt
            | ComplexOp::Rsqrt
            | ComplexOp::Sin
            | ComplexOp::Cos
            | ComplexOp::Tan
            | ComplexOp::Tanh
            | ComplexOp::Sign => {
                let is_complex = |v: &Self, t: TypeId| matches!(v.m.ctx.type_kind(t), TypeKind::Complex(_));
                self.check_elem(op, is_complex, "complex type with floating-point elements")?;
                self.same_types(op)
            }
            ComplexOp::Powi => self.complex_powi(op),
            ComplexOp::Abs | ComplexOp::Angle | ComplexOp::Re | ComplexOp::Im => self.complex_part(op),
            ComplexOp::Create => self.complex_create(op),
            ComplexOp::Constant => self.complex_constant(op),
            ComplexOp::Eq | ComplexOp::Neq => self.complex_compare(op),
            ComplexOp::Bitcast => self.complex_bitcast(op),
        }
    }
}
