//! Verifier rules of the llvm dialect slice (globals, addresses, GEP,
//! load/store, functions, calls, return), with mlir-opt's messages.

use super::{VResult, Verifier};
use crate::attrs::{Attribute, DenseValues};
use crate::ir::{OpId, ValueId};
use crate::ops::OpKind;
use crate::types::{LlvmStructBody, TypeId, TypeKind};

/// How mlir-opt names the llvm dialect's type constraints.
const LLVM_INT: &str = "signless integer or LLVM dialect-compatible vector of signless integer";
const LLVM_FLOAT: &str = "floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type";
const LLVM_INT_OR_PTR: &str = "signless integer or LLVM dialect-compatible vector of signless integer or LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type";

/// The type at `pos` inside the struct or array type `ty` (what
/// `llvm.extractvalue` gives and `llvm.insertvalue` takes), or mlir-opt's
/// message for a bad position.
pub fn aggregate_element(ctx: &crate::ir::Context, mut ty: TypeId, pos: &[i64]) -> Result<TypeId, String> {
    for &p in pos {
        let t = crate::printer::type_to_string(ctx, ty);
        ty = match ctx.type_kind(ty) {
            &TypeKind::LlvmArray { len, elem } => {
                if p < 0 || p as u64 >= len {
                    return Err(format!("position out of bounds: {p}"));
                }
                elem
            }
            TypeKind::LlvmStruct { body: LlvmStructBody::Fields(fs), .. } => {
                match usize::try_from(p).ok().and_then(|k| fs.get(k)) {
                    Some(f) => *f,
                    None => return Err(format!("position out of bounds: {p}")),
                }
            }
            _ => return Err(format!("expected LLVM IR structure/array type, got: '{t}'")),
        };
    }
    Ok(ty)
}

impl<'m> Verifier<'m> {
    /// Per-op checks of the llvm ops.
    pub(super) fn check_llvm(&self, op: OpId, kind: OpKind) -> VResult {
        match kind {
            OpKind::LlvmGlobal => self.llvm_global(op),
            OpKind::LlvmGlobalCtors | OpKind::LlvmGlobalDtors => self.llvm_xtors(op),
            OpKind::LlvmFunc => self.llvm_func(op),
            OpKind::LlvmGetelementptr => self.llvm_gep(op),
            OpKind::LlvmLoad => self.llvm_ptr_operand(op, 0, "LLVM pointer type"),
            OpKind::LlvmStore => self.llvm_ptr_operand(op, 1, "LLVM pointer type"),
            OpKind::LlvmReturn => self.llvm_return(op),
            OpKind::LlvmVaStart => self.llvm_vastart(op),
            OpKind::LlvmConstant => self.llvm_constant(op),
            OpKind::LlvmInsertvalue | OpKind::LlvmExtractvalue => self.llvm_aggregate_access(op, kind),
            OpKind::LlvmAdd
            | OpKind::LlvmSub
            | OpKind::LlvmMul
            | OpKind::LlvmSdiv
            | OpKind::LlvmUdiv
            | OpKind::LlvmSrem
            | OpKind::LlvmUrem
            | OpKind::LlvmAnd
            | OpKind::LlvmOr
            | OpKind::LlvmXor
            | OpKind::LlvmShl
            | OpKind::LlvmLshr
            | OpKind::LlvmAshr => {
                self.check_elem(op, Self::is_llvm_int, LLVM_INT)?;
                self.same_types(op)
            }
            OpKind::LlvmFadd
            | OpKind::LlvmFsub
            | OpKind::LlvmFmul
            | OpKind::LlvmFdiv
            | OpKind::LlvmFrem
            | OpKind::LlvmFneg => {
                self.check_elem(op, Self::is_float_like, LLVM_FLOAT)?;
                self.same_types(op)
            }
            OpKind::LlvmIcmp => self.llvm_operands(op, |v, t| v.is_llvm_int(t) || v.is_llvm_ptr(t), LLVM_INT_OR_PTR),
            OpKind::LlvmFcmp | OpKind::LlvmFptosi | OpKind::LlvmFptoui | OpKind::LlvmFpext | OpKind::LlvmFptrunc => {
                self.llvm_operands(op, Self::is_float_like, LLVM_FLOAT)
            }
            OpKind::LlvmSitofp | OpKind::LlvmUitofp | OpKind::LlvmTrunc => {
                self.llvm_operands(op, Self::is_llvm_int, LLVM_INT)
            }
            OpKind::LlvmSext | OpKind::LlvmZext => {
                self.llvm_operands(op, Self::is_llvm_int, LLVM_INT)?;
                self.llvm_extension(op)
            }
            OpKind::LlvmMaskedLoad | OpKind::LlvmMaskedStore => {
                self.llvm_alignment(op)?;
                self.llvm_mask_lanes(op, kind)
            }
            OpKind::LlvmMaskedGather | OpKind::LlvmMaskedScatter => {
                self.llvm_gather_scatter(op, kind)?;
                self.llvm_mask_lanes(op, kind)
            }
            OpKind::LlvmMaskedExpandload | OpKind::LlvmMaskedCompressstore => self.llvm_mask_lanes(op, kind),
            OpKind::LlvmVectorInsert | OpKind::LlvmVectorExtract => self.llvm_subvector(op, kind),
            OpKind::LlvmMatrixTranspose | OpKind::LlvmMatrixMultiply => self.llvm_matrix(op, kind),
            OpKind::LlvmBitcast => self.llvm_bitcast(op),
            // Unlike the other integer intrinsics, abs is not
            // SameOperandsAndResultType in ODS, but LLVM's intrinsic is.
            OpKind::LlvmAbs => match (self.opnd(op, 0), self.res(op, 0)) {
                (Some(a), Some(r)) if a != r => self.op_err(
                    op,
                    format!(
                        "result type '{}' differs from the operand's '{}' (mlir-opt accepts this, but LLVM's verifier rejects it)",
                        self.ty(r),
                        self.ty(a)
                    ),
                ),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// `llvm.bitcast`: pointers only to pointers, of one address space and
    /// both scalar or both vectors (mlir-opt's BitcastOp::verify); and,
    /// beyond it, a value of as many bits as the result (mlir-opt accepts a
    /// generic bitcast between sizes; LLVM's IR verifier rejects it).
    fn llvm_bitcast(&self, op: OpId) -> VResult {
        let (Some(a), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let k = |t: TypeId| self.m.ctx.type_kind(self.scalar_of(t));
        let is_vec = |t: TypeId| self.vector(t).is_some();
        match (k(a), k(r)) {
            (TypeKind::LlvmPtr(x), TypeKind::LlvmPtr(y)) => {
                if is_vec(r) && !is_vec(a) {
                    return self.op_err(op, "cannot cast pointer to vector of pointers");
                }
                if !is_vec(r) && is_vec(a) {
                    return self.op_err(op, "cannot cast vector of pointers to pointer");
                }
                if x != y {
                    return self.op_err(
                        op,
                        "cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead",
                    );
                }
                Ok(())
            }
            (TypeKind::LlvmPtr(_), _) | (_, TypeKind::LlvmPtr(_)) => {
                self.op_err(op, "can only cast pointers from and to pointers")
            }
            _ => {
                let size = |t: TypeId| {
                    let lanes = self
                        .vector(t)
                        .map_or(Some(1), |(s, c, _)| (!c.iter().any(|x| *x)).then(|| s.iter().product::<i64>() as u64));
                    Some(lanes? * self.bits(self.scalar_of(t))?)
                };
                match (size(a), size(r)) {
                    (Some(x), Some(y)) if x != y => self.op_err(
                        op,
                        format!(
                            "cannot bitcast '{}' ({x} bits) to '{}' ({y} bits): LLVM requires types of the same size",
                            self.ty(a),
                            self.ty(r)
                        ),
                    ),
                    _ => Ok(()),
                }
            }
        }
    }

    /// `insertvalue`/`extractvalue`: the position exists and the value's
    /// type is the one there.
    fn llvm_aggregate_access(&self, op: OpId, kind: OpKind) -> VResult {
        let m = self.m;
        let pos: Vec<i64> = match m.attr(op, "position").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::DenseArray { values: DenseValues::Ints(v), .. }) => {
                v.iter().map(|x| x.to_i64().unwrap_or(-1)).collect()
            }
            _ => return self.op_err(op, "requires attribute 'position'"),
        };
        let (Some(c), Some(r)) = (m.operands(op).first(), m.results(op).next()) else {
            return self.op_err(op, "expects an aggregate operand and a result");
        };
        let cty = m.type_of(*c);
        let elem = match aggregate_element(&m.ctx, cty, &pos) {
            Ok(t) => t,
            Err(msg) => return self.op_err(op, msg),
        };
        let rty = m.type_of(r);
        if kind == OpKind::LlvmExtractvalue {
            if rty != elem {
                return self.op_err(
                    op,
                    format!(
                        "Type mismatch: extracting from '{}' should produce '{}' but this op returns '{}'",
                        self.ty(cty),
                        self.ty(elem),
                        self.ty(rty)
                    ),
                );
            }
            return Ok(());
        }
        let Some(v) = m.operands(op).get(1) else { return self.op_err(op, "expects a value to insert") };
        let vty = m.type_of(*v);
        if vty != elem {
            return self.op_err(op, format!("Type mismatch: cannot insert '{}' into '{}'", self.ty(vty), self.ty(cty)));
        }
        if rty != cty {
            return self.op_err(op, "failed to verify that all of {container, res} have same type");
        }
        Ok(())
    }

    /// The masked memory intrinsics carry their alignment.
    fn llvm_alignment(&self, op: OpId) -> VResult {
        match self.m.attr(op, "alignment") {
            Some(_) => Ok(()),
            None => self.op_err(op, "requires attribute 'alignment'"),
        }
    }

    /// The masked memory intrinsics: one mask lane per data lane, and a
    /// pass-through of the result's type. mlir-opt checks neither; LLVM's
    /// IR verifier rejects both at translation (its wording for load and
    /// store, the same wording for the others).
    fn llvm_mask_lanes(&self, op: OpId, kind: OpKind) -> VResult {
        let m = self.m;
        let ty = |v: Option<&ValueId>| v.map(|v| m.type_of(*v));
        let lanes = |t: Option<TypeId>| match t.map(|t| m.ctx.type_kind(t)) {
            Some(TypeKind::Vector { shape, scalable, .. }) => Some((shape.clone(), scalable.clone())),
            _ => None,
        };
        let ops = m.operands(op);
        let result = m.results(op).next().map(|r| m.type_of(r));
        // (name, data type, mask operand, pass-through operand)
        let (name, data, mask, pass) = match kind {
            OpKind::LlvmMaskedLoad => ("masked_load", result, ops.get(1), ops.get(2)),
            OpKind::LlvmMaskedGather => ("masked_gather", result, ops.get(1), ops.get(2)),
            OpKind::LlvmMaskedExpandload => ("masked_expandload", result, ops.get(1), ops.get(2)),
            OpKind::LlvmMaskedStore => ("masked_store", ty(ops.first()), ops.get(2), None),
            OpKind::LlvmMaskedScatter => ("masked_scatter", ty(ops.first()), ops.get(2), None),
            _ => ("masked_compressstore", ty(ops.first()), ops.get(2), None),
        };
        let what = if result.is_some() { "return" } else { "value" };
        let data_lanes = lanes(data);
        if data_lanes.is_some() && lanes(ty(mask)) != data_lanes {
            return self.op_err(
                op,
                format!(
                    "{name}: vector mask must be same length as {what} (LLVM's verifier rejects this at translation)"
                ),
            );
        }
        match (ty(pass), data) {
            (Some(p), Some(d)) if p != d => self.op_err(
                op,
                format!(
                    "{name}: pass through and return type must match (LLVM's verifier rejects this at translation)"
                ),
            ),
            _ => Ok(()),
        }
    }

    /// `masked.gather`/`scatter`: a vector of pointers with one pointer
    /// per lane of the data vector (mlir-opt numbers that operand from 1).
    fn llvm_gather_scatter(&self, op: OpId, kind: OpKind) -> VResult {
        self.llvm_alignment(op)?;
        let m = self.m;
        let gather = kind == OpKind::LlvmMaskedGather;
        let (data, ptrs) = if gather {
            let Some(r) = m.results(op).next() else { return self.op_err(op, "expects a result") };
            (m.type_of(r), m.operands(op).first().map(|v| m.type_of(*v)))
        } else {
            let ops = m.operands(op);
            let Some(v) = ops.first() else { return self.op_err(op, "expects a value to store") };
            (m.type_of(*v), ops.get(1).map(|v| m.type_of(*v)))
        };
        let Some(ptrs) = ptrs else { return self.op_err(op, "expects a vector of pointers") };
        let ptr_vec = |t: TypeId| match m.ctx.type_kind(t) {
            TypeKind::Vector { elem, .. } => self.is_llvm_ptr(*elem),
            _ => false,
        };
        if !ptr_vec(ptrs) {
            let which = if gather { "operand #0" } else { "operand #1" };
            let msg = format!(
                "{which} must be LLVM dialect-compatible vector of LLVM pointer type, but got '{}'",
                self.ty(ptrs)
            );
            return self.op_err(op, msg);
        }
        let TypeKind::Vector { shape, scalable, .. } = m.ctx.type_kind(data).clone() else {
            let what = if gather { "result #0" } else { "operand #0" };
            let msg = format!("{what} must be LLVM dialect-compatible vector type, but got '{}'", self.ty(data));
            return self.op_err(op, msg);
        };
        let same_lanes = match m.ctx.type_kind(ptrs) {
            TypeKind::Vector { shape: s, scalable: k, .. } => *s == shape && *k == scalable,
            _ => false,
        };
        if !same_lanes {
            let dims: String = shape
                .iter()
                .zip(scalable.iter().chain(std::iter::repeat(&false)))
                .map(|(d, k)| if *k { format!("[{d}]x") } else { format!("{d}x") })
                .collect();
            let shown = format!("vector<{dims}!llvm.ptr>");
            return self.op_err(op, format!("expected operand #{} type to be '{shown}'", if gather { 1 } else { 2 }));
        }
        Ok(())
    }

    /// `llvm.intr.vector.insert`/`extract`: a fixed-length piece is the
    /// most a fixed-length vector takes or gives.
    fn llvm_subvector(&self, op: OpId, kind: OpKind) -> VResult {
        let m = self.m;
        let scalable = |t: TypeId| match m.ctx.type_kind(t) {
            TypeKind::Vector { scalable, .. } => scalable.iter().any(|s| *s),
            _ => false,
        };
        let (Some(r), Some(first)) = (m.results(op).next(), m.operands(op).first()) else {
            return self.op_err(op, "expects an operand and a result");
        };
        let (rt, ft) = (m.type_of(r), m.type_of(*first));
        let piece =
            if kind == OpKind::LlvmVectorExtract { Some(rt) } else { m.operands(op).get(1).map(|v| m.type_of(*v)) };
        self.llvm_subvector_pos(op, piece)?;
        if kind == OpKind::LlvmVectorExtract {
            if scalable(rt) && !scalable(ft) {
                return self
                    .op_err(op, "failed to verify that it is not extracting scalable from fixed-length vectors.");
            }
            return self.llvm_same_elements(op, rt, ft);
        }
        if rt != ft {
            return self.op_err(op, "failed to verify that all of {dstvec, res} have same type");
        }
        match m.operands(op).get(1) {
            Some(src) if scalable(m.type_of(*src)) && !scalable(rt) => {
                self.op_err(op, "failed to verify that it is not inserting scalable into fixed-length vectors.")
            }
            Some(src) => self.llvm_same_elements(op, m.type_of(*src), rt),
            None => Ok(()),
        }
    }

    /// The piece and the whole of `llvm.intr.vector.insert`/`extract` have
    /// one element type: mlir-opt accepts others, LLVM's verifier does not.
    fn llvm_same_elements(&self, op: OpId, piece: TypeId, whole: TypeId) -> VResult {
        let (p, w) = (self.scalar_of(piece), self.scalar_of(whole));
        if p != w {
            return self.op_err(
                op,
                format!(
                    "element types '{}' and '{}' differ (mlir-opt accepts this, but LLVM's verifier rejects it)",
                    self.ty(p),
                    self.ty(w)
                ),
            );
        }
        Ok(())
    }

    /// `matrix.transpose`/`multiply`: the shape attributes ODS requires,
    /// and the vectors' lengths against them. mlir-opt checks only the
    /// former; LLVM's IR verifier rejects the latter at translation, with
    /// the messages used here.
    fn llvm_matrix(&self, op: OpId, kind: OpKind) -> VResult {
        let m = self.m;
        let names: &[&str] = if kind == OpKind::LlvmMatrixTranspose {
            &["rows", "columns"]
        } else {
            &["lhs_rows", "lhs_columns", "rhs_columns"]
        };
        let mut dims = Vec::new();
        for name in names {
            match m.attr(op, name).map(|a| m.ctx.attr_kind(a)) {
                Some(Attribute::Integer { value, .. }) => dims.push(value.to_i64().unwrap_or(-1)),
                _ => return self.op_err(op, format!("requires attribute '{name}'")),
            }
        }
        let lanes = |t: Option<TypeId>| match t.map(|t| m.ctx.type_kind(t)) {
            Some(TypeKind::Vector { shape, scalable, .. }) if !scalable.iter().any(|s| *s) => {
                Some(shape.iter().product::<i64>())
            }
            _ => None,
        };
        let first = lanes(m.operands(op).first().map(|v| m.type_of(*v)));
        let second = lanes(m.operands(op).get(1).map(|v| m.type_of(*v)));
        let result = lanes(m.results(op).next().map(|v| m.type_of(v)));
        let ok = |n: Option<i64>, a: i64, b: i64| dims.iter().all(|d| *d > 0) && n == a.checked_mul(b);
        let (args_fit, result_fits) = match dims[..] {
            [r, c] => (ok(first, r, c), ok(result, r, c)),
            [r, n, c] => {
                if !ok(first, r, n) {
                    return self.op_err(op, "First argument of a matrix operation does not match specified shape! (LLVM's verifier rejects this at translation)");
                }
                (ok(second, n, c), ok(result, r, c))
            }
            _ => (true, true),
        };
        if !args_fit {
            let which = if kind == OpKind::LlvmMatrixTranspose { "First" } else { "Second" };
            return self.op_err(
                op,
                format!("{which} argument of a matrix operation does not match specified shape! (LLVM's verifier rejects this at translation)"),
            );
        }
        if !result_fits {
            return self.op_err(op, "Result of a matrix operation does not fit in the returned vector! (LLVM's verifier rejects this at translation)");
        }
        Ok(())
    }

    /// The piece's position is a multiple of its (minimum) length. mlir-opt
    /// accepts any position; LLVM's IR verifier rejects these at
    /// translation, so the program could never run.
    fn llvm_subvector_pos(&self, op: OpId, piece: Option<TypeId>) -> VResult {
        let m = self.m;
        let pos = match m.attr(op, "pos").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::Integer { value, .. }) => value.to_i64(),
            _ => return self.op_err(op, "requires attribute 'pos'"),
        };
        let Some(TypeKind::Vector { shape, .. }) = piece.map(|t| m.ctx.type_kind(t)) else { return Ok(()) };
        let len = shape.iter().product::<i64>();
        match pos {
            Some(p) if p >= 0 && (len <= 0 || p % len == 0) => Ok(()),
            _ => self.op_err(
                op,
                format!(
                    "position {} is not a multiple of the piece's {len} lanes (mlir-opt accepts this, but LLVM's verifier rejects it)",
                    pos.map_or_else(|| "out of range".to_string(), |p| p.to_string())
                ),
            ),
        }
    }

    /// A signless integer (or a vector of them), as the llvm dialect admits.
    fn is_llvm_int(&self, t: TypeId) -> bool {
        matches!(self.elem_kind(t), TypeKind::Integer { signedness: crate::types::Signedness::Signless, .. })
    }

    /// Every operand satisfies `pred` (described as `what`).
    fn llvm_operands(&self, op: OpId, pred: impl Fn(&Self, TypeId) -> bool, what: &str) -> VResult {
        for (i, v) in self.m.operands(op).iter().enumerate() {
            let t = self.m.type_of(*v);
            if !pred(self, t) {
                return self.op_err(op, format!("operand #{i} must be {what}, but got '{}'", self.ty(t)));
            }
        }
        Ok(())
    }

    /// `sext`/`zext`: a vector to a vector of as many lanes, a scalar to a
    /// scalar, and wider (mlir-opt's verifyExtOp, which words this without
    /// the op's name).
    fn llvm_extension(&self, op: OpId) -> VResult {
        let (Some(a), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let span = self.m.op(op).span;
        match (self.vector(a), self.vector(r)) {
            (Some(_), None) => return self.err(span, "input type is a vector but output type is an integer"),
            (None, Some(_)) => return self.err(span, "input type is an integer but output type is a vector"),
            (Some((sa, ka, _)), Some((sr, kr, _))) if (sa, ka) != (sr, kr) => {
                return self.err(span, "input and output vectors are of incompatible shape")
            }
            _ => {}
        }
        match (self.int_width(a), self.int_width(r)) {
            (Some(x), Some(y)) if y <= x => self.err(
                self.m.op(op).span,
                "integer width of the output type is smaller or equal to the integer width of the input type",
            ),
            _ => Ok(()),
        }
    }

    /// Symbol uses of the llvm ops (after every op verified, as mlir-opt).
    pub(super) fn llvm_symbol_uses(&self, op: OpId) -> VResult {
        match self.kind(op) {
            OpKind::LlvmAddressof => self.llvm_addressof(op),
            OpKind::LlvmCall => self.llvm_call(op),
            OpKind::LlvmGlobalCtors | OpKind::LlvmGlobalDtors => self.llvm_xtor_targets(op),
            _ => Ok(()),
        }
    }

    pub(super) fn type_attr(&self, op: OpId, name: &str) -> Option<TypeId> {
        match self.m.ctx.attr_kind(self.m.attr(op, name)?) {
            Attribute::Type(t) => Some(*t),
            _ => None,
        }
    }

    fn llvm_global(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(ty) = self.type_attr(op, "global_type") else {
            return self.op_err(op, "requires attribute 'global_type'");
        };
        if matches!(
            m.ctx.type_kind(ty),
            TypeKind::LlvmVoid | TypeKind::LlvmFunc { .. } | TypeKind::Function { .. } | TypeKind::None
        ) {
            return self.op_err(op, "expects type to be a valid element type for an LLVM global");
        }
        let value = m.attr(op, "value");
        if let Some(Attribute::String { value: s, .. }) = value.map(|a| m.ctx.attr_kind(a)) {
            let ok = match m.ctx.type_kind(ty) {
                TypeKind::LlvmArray { len, elem } => {
                    *len == s.len() as u64 && m.ctx.type_kind(*elem).is_signless_int(8)
                }
                _ => false,
            };
            if !ok {
                return self
                    .op_err(op, "requires an i8 array type of the length equal to that of the string attribute");
            }
        }
        if let Some(a) = value {
            self.llvm_global_dense_fits(op, a, ty)?;
        }
        let body = m.regions(op).first().and_then(|r| m.region(*r).blocks.first().copied());
        if let Some(b) = body {
            if value.is_some() {
                return self.op_err(op, "cannot have both initializer value and region");
            }
            if let Some(t) = m.terminator(b) {
                if self.kind(t) == OpKind::LlvmReturn {
                    if let Some(v) = m.operands(t).first() {
                        let rt = m.type_of(*v);
                        if rt != ty {
                            return self.op_err(
                                op,
                                format!(
                                    "initializer region type '{}' does not match global type '{}'",
                                    self.ty(rt),
                                    self.ty(ty)
                                ),
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A non-splat dense initializer must have as many elements as the
    /// global's type (its nest of arrays and vectors) holds. mlir-opt's
    /// verifier does not check this, but LLVM's translation cannot build
    /// such a global: it fails ("Global variable initializer type does not
    /// match global variable type!") or emits a constant of the wrong type
    /// that LLVM's own verifier rejects, so the program can never run.
    fn llvm_global_dense_fits(&self, op: OpId, a: crate::attrs::AttrId, ty: TypeId) -> VResult {
        let m = self.m;
        // A scalar for an aggregate, or a dense array (not an elements
        // attribute), is no constant LLVM's translation can build either.
        let aggregate = matches!(
            m.ctx.type_kind(ty),
            TypeKind::LlvmArray { .. } | TypeKind::Vector { .. } | TypeKind::LlvmStruct { .. }
        );
        let scalar = matches!(m.ctx.attr_kind(a), Attribute::Integer { .. } | Attribute::Float { .. });
        if (scalar && aggregate) || matches!(m.ctx.attr_kind(a), Attribute::DenseArray { .. }) {
            let text = crate::printer::attr_to_string(&m.ctx, a);
            return self.op_err(
                op,
                format!(
                    "initializer {text} cannot initialize a global of type '{}' (LLVM cannot translate it)",
                    self.ty(ty)
                ),
            );
        }
        let Attribute::Dense { ty: dty, splat, .. } = m.ctx.attr_kind(a) else { return Ok(()) };
        self.llvm_global_dense_elements(op, *dty, ty)?;
        if *splat {
            return Ok(());
        }
        let Some(have) = m.ctx.type_kind(*dty).shape().and_then(crate::types::num_elements) else { return Ok(()) };
        let mut holds = Some(1i64);
        let mut t = ty;
        loop {
            match m.ctx.type_kind(t) {
                TypeKind::LlvmArray { len, elem } => {
                    holds = holds.and_then(|h| h.checked_mul(i64::try_from(*len).ok()?));
                    t = *elem;
                }
                TypeKind::Vector { shape, elem, .. } => {
                    holds = holds.and_then(|h| h.checked_mul(crate::types::num_elements(shape)?));
                    t = *elem;
                }
                TypeKind::LlvmStruct { .. } => return Ok(()),
                _ => break,
            }
        }
        match holds {
            Some(n) if n != have => self.op_err(
                op,
                format!(
                    "initializer has {have} elements, but its type '{}' holds {n} (mlir-opt accepts this, but \
                     LLVM's translation cannot: the initializer does not fit the global's type)",
                    self.ty(ty)
                ),
            ),
            _ => Ok(()),
        }
    }

    /// A dense initializer of float elements for a global whose elements
    /// have another width: mlir-opt accepts it, LLVM's translation rejects
    /// it ("FloatAttr does not match expected type of the constant"). Other
    /// element types than the global's run: the same width reinterprets
    /// the bits, as the translation copies the raw data; an integer of
    /// another width is extended or truncated.
    fn llvm_global_dense_elements(&self, op: OpId, dty: TypeId, ty: TypeId) -> VResult {
        let m = self.m;
        let mut leaf = ty;
        while let TypeKind::LlvmArray { elem, .. } | TypeKind::Vector { elem, .. } = m.ctx.type_kind(leaf) {
            leaf = *elem;
        }
        let Some(elem) = m.ctx.type_kind(dty).elem() else { return Ok(()) };
        let width = |t: TypeId| match m.ctx.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(*width),
            TypeKind::Float(k) => Some(k.bit_width()),
            _ => None,
        };
        let float = matches!(m.ctx.type_kind(elem), TypeKind::Float(_));
        match (width(elem), width(leaf)) {
            (Some(a), Some(b)) if float && a != b => self.op_err(
                op,
                format!(
                    "initializer of '{}' elements cannot initialize a global of '{}' elements (mlir-opt accepts \
                     this, but LLVM's translation rejects it: FloatAttr does not match expected type of the constant)",
                    self.ty(elem),
                    self.ty(leaf)
                ),
            ),
            _ => Ok(()),
        }
    }

    fn llvm_func_type(&self, op: OpId) -> Option<(TypeId, &'m [TypeId])> {
        let t = self.type_attr(op, "function_type")?;
        match self.m.ctx.type_kind(t) {
            TypeKind::LlvmFunc { ret, params, .. } => Some((*ret, params)),
            _ => None,
        }
    }

    fn llvm_func(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some((_, params)) = self.llvm_func_type(op) else {
            return self.op_err(op, "requires attribute 'function_type' of LLVM function type");
        };
        let body = m.regions(op).first().and_then(|r| m.region(*r).blocks.first().copied());
        match body {
            Some(b) => {
                let args: Vec<ValueId> = m.args(b).collect();
                if args.len() != params.len() {
                    return self.op_err(
                        op,
                        format!("entry block must have {} arguments to match function signature", params.len()),
                    );
                }
                for (i, (a, t)) in args.iter().zip(params).enumerate() {
                    let at = m.type_of(*a);
                    if at != *t {
                        return self.op_err(
                            op,
                            format!(
                                "entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                                self.ty(at),
                                self.ty(*t)
                            ),
                        );
                    }
                }
            }
            None => {
                let linkage = m.attr(op, "linkage").map(|a| m.ctx.attr_kind(a));
                let ok = match linkage {
                    Some(Attribute::Dialect { body, .. }) => {
                        &**body == ".linkage<external>" || &**body == ".linkage<extern_weak>"
                    }
                    _ => true,
                };
                if !ok {
                    return self.op_err(op, "external functions must have 'external' or 'extern_weak' linkage");
                }
            }
        }
        Ok(())
    }

    fn is_llvm_ptr(&self, t: TypeId) -> bool {
        matches!(self.m.ctx.type_kind(t), TypeKind::LlvmPtr(_))
    }

    fn llvm_ptr_operand(&self, op: OpId, i: usize, what: &str) -> VResult {
        if let Some(v) = self.m.operands(op).get(i) {
            let t = self.m.type_of(*v);
            if !self.is_llvm_ptr(t) {
                return self.op_err(op, format!("operand #{i} must be {what}, but got '{}'", self.ty(t)));
            }
        }
        Ok(())
    }

    fn llvm_return(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(f) = m.parent_op(op).filter(|p| self.kind(*p) == OpKind::LlvmFunc) else { return Ok(()) };
        let Some((ret, _)) = self.llvm_func_type(f) else { return Ok(()) };
        let ops = m.operands(op);
        let void = matches!(m.ctx.type_kind(ret), TypeKind::LlvmVoid);
        match (void, ops.first()) {
            (true, Some(_)) => self.op_err(op, "expected no operands"),
            (false, None) => self.op_err(op, "expected 1 operand"),
            (false, Some(v)) if m.type_of(*v) != ret => self.op_err(op, "mismatching result types"),
            _ => Ok(()),
        }
    }

    /// `llvm.intr.vastart` must be in a variadic function. mlir-opt does not
    /// check it, but LLVM's IR verifier rejects the translated module ("va_start
    /// called in a non-varargs function"), so no run of it exists to match.
    fn llvm_vastart(&self, op: OpId) -> VResult {
        let m = self.m;
        let mut f = m.parent_op(op);
        while let Some(p) = f.filter(|p| !matches!(self.kind(*p), OpKind::LlvmFunc | OpKind::FuncFunc)) {
            f = m.parent_op(p);
        }
        let variadic = f
            .and_then(|f| self.type_attr(f, "function_type"))
            .is_some_and(|t| matches!(m.ctx.type_kind(t), TypeKind::LlvmFunc { vararg: true, .. }));
        if variadic {
            return Ok(());
        }
        self.op_err(op, "is not in a variadic function (LLVM's verifier: va_start called in a non-varargs function)")
    }

    fn llvm_constant(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(v) = m.attr(op, "value") else { return self.op_err(op, "requires attribute 'value'") };
        let Some(r) = m.results(op).next() else { return Ok(()) };
        let rt = m.type_of(r);
        match m.ctx.attr_kind(v) {
            Attribute::String { value, .. } => {
                let ok = matches!(m.ctx.type_kind(rt), TypeKind::LlvmArray { len, elem }
                    if *len == value.len() as u64 && m.ctx.type_kind(*elem).is_signless_int(8));
                if !ok {
                    return self.op_err(
                        op,
                        format!("expected array type of {} i8 elements for the string constant", value.len()),
                    );
                }
                Ok(())
            }
            Attribute::Integer { .. } => {
                if !matches!(m.ctx.type_kind(rt), TypeKind::Integer { .. }) {
                    return self.op_err(op, "expected integer type");
                }
                Ok(())
            }
            Attribute::Dense { ty, .. } | Attribute::DenseResource { ty, .. } => {
                // A fixed vector constant holds exactly the attribute's elements.
                let count = |t: TypeId| match m.ctx.type_kind(t) {
                    TypeKind::Vector { shape, scalable, .. } if !scalable.iter().any(|s| *s) => {
                        Some(shape.iter().product::<i64>())
                    }
                    k => k.shape().filter(|s| s.iter().all(|d| *d >= 0)).map(|s| s.iter().product::<i64>()),
                };
                match (matches!(m.ctx.type_kind(rt), TypeKind::Vector { .. }), count(rt), count(*ty)) {
                    (true, Some(want), Some(got)) if want != got => self.op_err(
                        op,
                        format!("type and attribute have a different number of elements: {want} vs. {got}"),
                    ),
                    _ => Ok(()),
                }
            }
            Attribute::DenseArray { .. }
            | Attribute::Unit
            | Attribute::AffineMap(_)
            | Attribute::IntegerSet(_)
            | Attribute::Dict(_)
            | Attribute::SymbolRef { .. }
            | Attribute::Type(_) => self.op_err(op, "only supports integer, float, string or elements attributes"),
            _ => Ok(()),
        }
    }

    fn llvm_gep(&self, op: OpId) -> VResult {
        let m = self.m;
        let ops = m.operands(op);
        let Some(base) = ops.first() else { return self.op_err(op, "expected a base pointer") };
        let bt = m.type_of(*base);
        let ptr_vector = match m.ctx.type_kind(bt) {
            TypeKind::Vector { elem, shape, .. } => shape.len() == 1 && self.is_llvm_ptr(*elem),
            _ => false,
        };
        if !self.is_llvm_ptr(bt) && !ptr_vector {
            return self.op_err(
                op,
                format!(
                    "operand #0 must be LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type, but got '{}'",
                    self.ty(bt)
                ),
            );
        }
        let raw: Vec<i64> = match m.attr(op, "rawConstantIndices").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::DenseArray { values: DenseValues::Ints(v), .. }) => {
                v.iter().map(|x| x.to_i64().unwrap_or(0)).collect()
            }
            _ => return self.op_err(op, "requires attribute 'rawConstantIndices'"),
        };
        // LLVM's GEP gives a vector of pointers when the base or an index is
        // a vector; mlir-opt accepts a scalar result type then.
        let vector_index = ops[1..].iter().any(|v| self.vector(m.type_of(*v)).is_some());
        if let Some(r) = self.res(op, 0) {
            if (ptr_vector || vector_index) && self.vector(r).is_none() {
                return self.op_err(
                    op,
                    format!(
                        "a vector base or index gives a vector of pointers, not '{}' (mlir-opt accepts this, but LLVM's verifier rejects it)",
                        self.ty(r)
                    ),
                );
            }
        }
        let dynamic = raw.iter().filter(|r| **r == crate::parser::GEP_DYNAMIC).count();
        if dynamic != ops.len() - 1 {
            return self.op_err(op, "expected as many dynamic indices as specified in 'rawConstantIndices'");
        }
        let Some(mut cur) = self.type_attr(op, "elem_type") else {
            return self.op_err(op, "requires attribute 'elem_type'");
        };
        // The first index steps over whole elements; the others go inside.
        for (i, r) in raw.iter().enumerate().skip(1) {
            cur = match m.ctx.type_kind(cur) {
                TypeKind::LlvmArray { elem, .. } | TypeKind::Vector { elem, .. } => *elem,
                TypeKind::LlvmStruct { body: LlvmStructBody::Fields(fs), .. } => {
                    if *r == crate::parser::GEP_DYNAMIC {
                        return self.op_err(op, format!("expected index {i} indexing a struct to be constant"));
                    }
                    match usize::try_from(*r).ok().and_then(|k| fs.get(k)) {
                        Some(f) => *f,
                        None => return self.op_err(op, format!("index {i} indexing a struct is out of bounds")),
                    }
                }
                _ => return self.op_err(op, format!("type '{}' cannot be indexed (index #{i})", self.ty(cur))),
            };
        }
        Ok(())
    }

    /// The function list of a `global_ctors`/`global_dtors` op.
    fn xtor_list(&self, op: OpId) -> &'static str {
        if self.kind(op) == OpKind::LlvmGlobalCtors {
            "ctors"
        } else {
            "dtors"
        }
    }

    /// `global_ctors`/`global_dtors`: three parallel arrays.
    fn llvm_xtors(&self, op: OpId) -> VResult {
        let m = self.m;
        let len = |k: &str| match m.attr(op, k).map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::Array(xs)) => Ok(xs.len()),
            _ => Err(k.to_string()),
        };
        let list = self.xtor_list(op);
        match (len(list), len("priorities"), len("data")) {
            (Ok(a), Ok(b), Ok(c)) if a == b && b == c => {}
            (Ok(_), Ok(_), Ok(_)) => {
                return self
                    .err(m.op(op).span, format!("{list}, priorities, and data must have the same number of elements"))
            }
            (Err(k), _, _) | (_, Err(k), _) | (_, _, Err(k)) => {
                return self.op_err(op, format!("requires attribute '{k}'"))
            }
        }
        Ok(())
    }

    /// Every function a `global_ctors`/`global_dtors` op names is an `llvm.func`.
    fn llvm_xtor_targets(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(Attribute::Array(xs)) = m.attr(op, self.xtor_list(op)).map(|a| m.ctx.attr_kind(a)) else {
            return Ok(());
        };
        for x in xs {
            if let Attribute::SymbolRef { root, nested } = m.ctx.attr_kind(*x) {
                if self.lookup_symbol(op, root, nested).filter(|t| self.kind(*t) == OpKind::LlvmFunc).is_none() {
                    let n = String::from_utf8_lossy(root);
                    return self.op_err(op, format!("'{n}' does not reference a valid LLVM function"));
                }
            }
        }
        Ok(())
    }

    fn llvm_addressof(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(Attribute::SymbolRef { root, nested }) = m.attr(op, "global_name").map(|a| m.ctx.attr_kind(a)) else {
            return self.op_err(op, "requires attribute 'global_name'");
        };
        let target = self
            .lookup_symbol(op, root, nested)
            .filter(|t| matches!(self.kind(*t), OpKind::LlvmGlobal | OpKind::LlvmFunc));
        let Some(t) = target else {
            return self.op_err(
                op,
                "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'",
            );
        };
        let space = match m.results(op).next().map(|r| m.ctx.type_kind(m.type_of(r))) {
            Some(TypeKind::LlvmPtr(s)) => *s,
            _ => return Ok(()),
        };
        if self.kind(t) == OpKind::LlvmGlobal {
            let g = match m.attr(t, "addr_space").map(|a| m.ctx.attr_kind(a)) {
                Some(Attribute::Integer { value, .. }) => value.to_i64().unwrap_or(0),
                _ => 0,
            };
            if g != i64::from(space) {
                return self
                    .op_err(op, "pointer address space must match address space of the referenced global or alias");
            }
        }
        Ok(())
    }

    fn llvm_call(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(Attribute::SymbolRef { root, nested }) = m.attr(op, "callee").map(|a| m.ctx.attr_kind(a)) else {
            // Indirect call: the first operand is the callee pointer.
            let Some(&callee) = m.operands(op).first() else {
                return self.op_err(op, "must have either a `callee` attribute or at least an operand");
            };
            let t = m.type_of(callee);
            if !matches!(m.ctx.type_kind(t), TypeKind::LlvmPtr(_)) {
                return self.op_err(op, format!("indirect call expects a pointer as callee: '{}'", self.ty(t)));
            }
            return Ok(());
        };
        let text = String::from_utf8_lossy(root).into_owned();
        let target = self.lookup_symbol(op, root, nested).filter(|t| self.kind(*t) == OpKind::LlvmFunc);
        let Some(f) = target else {
            return self.op_err(op, format!("'{text}' does not reference a valid LLVM function or IFunc"));
        };
        let Some(ft) = self.type_attr(f, "function_type") else { return Ok(()) };
        let TypeKind::LlvmFunc { ret, params, vararg } = m.ctx.type_kind(ft) else { return Ok(()) };
        let args = m.operands(op);
        if args.len() < params.len() || (!vararg && args.len() != params.len()) {
            return self.op_err(
                op,
                format!("incorrect number of operands ({}) for callee (expecting: {})", args.len(), params.len()),
            );
        }
        for (i, (v, t)) in args.iter().zip(params).enumerate() {
            let vt = m.type_of(*v);
            if vt != *t {
                return self.op_err(
                    op,
                    format!("operand type mismatch for operand {i}: '{}' != '{}'", self.ty(vt), self.ty(*t)),
                );
            }
        }
        let res: Vec<ValueId> = m.results(op).collect();
        let void = matches!(m.ctx.type_kind(*ret), TypeKind::LlvmVoid);
        match (void, res.first()) {
            (true, Some(_)) => self.op_err(op, "calling function with void result must not produce values"),
            (false, None) => self.op_err(op, "expected function call to produce a value"),
            (false, Some(r)) if m.type_of(*r) != *ret => {
                self.op_err(op, format!("result type mismatch: '{}' != '{}'", self.ty(m.type_of(*r)), self.ty(*ret)))
            }
            _ => Ok(()),
        }
    }
}
