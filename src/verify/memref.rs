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
            MemrefOp::AtomicRmw => self.memref_atomic_rmw(op),
            MemrefOp::Global => self.memref_global(op),
            MemrefOp::GenericAtomicRmw => {
                let entry = m.regions(op).first().and_then(|r| m.region(*r).blocks.first());
                if entry.is_none_or(|b| m.args(*b).count() != 1) {
                    return self.op_err(op, "expected single number of entry block arguments");
                }
                Ok(())
            }
            MemrefOp::DmaStart => self.memref_dma_start(op),
            MemrefOp::DmaWait => {
                let (rank, n) =
                    (self.opnd(op, 0).and_then(|t| self.shape_of(t)).map_or(0, |s| s.len()), m.operands(op).len());
                let indices = n.saturating_sub(2);
                if indices != rank {
                    return self.op_err(
                        op,
                        format!("expected tagIndices to have the same number of elements as the tagMemRef rank, expected {rank}, but got {indices}"),
                    );
                }
                Ok(())
            }
            MemrefOp::Dealloc => match self.opnd(op, 0) {
                Some(t) if !matches!(m.ctx.type_kind(t), TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }) => {
                    self.op_err(
                        op,
                        format!(
                            "operand #0 must be ranked or unranked memref of any type values, but got '{}'",
                            self.ty(t)
                        ),
                    )
                }
                _ => Ok(()),
            },
            MemrefOp::AllocaScope
            | MemrefOp::AllocaScopeReturn
            | MemrefOp::AssumeAlignment
            | MemrefOp::AtomicYield
            | MemrefOp::ExtractAlignedPointerAsIndex
            | MemrefOp::ExtractStridedMetadata
            | MemrefOp::GetGlobal
            | MemrefOp::Prefetch
            | MemrefOp::BufferCast
            | MemrefOp::TensorLoad
            | MemrefOp::TensorStore => Ok(()),
            MemrefOp::Realloc => self.memref_realloc(op),
            MemrefOp::MemorySpaceCast => {
                let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
                // MemorySpaceCastOp::areCastCompatible: the same type but
                // for the memory space, both ranked or both unranked.
                let ok = match (m.ctx.type_kind(a), m.ctx.type_kind(b)) {
                    (
                        TypeKind::MemRef { shape: s1, elem: e1, layout: l1, .. },
                        TypeKind::MemRef { shape: s2, elem: e2, layout: l2, .. },
                    ) => e1 == e2 && l1 == l2 && s1 == s2,
                    (TypeKind::UnrankedMemRef { elem: e1, .. }, TypeKind::UnrankedMemRef { elem: e2, .. }) => e1 == e2,
                    _ => false,
                };
                if !ok {
                    return self.op_err(
                        op,
                        format!("operand type '{}' and result type '{}' are cast incompatible", self.ty(a), self.ty(b)),
                    );
                }
                Ok(())
            }
            MemrefOp::View => self.memref_view(op),
        }
    }
}

impl Verifier<'_> {
    /// `memref.realloc`: identity layouts, one memory space and element
    /// type, and a size operand exactly when the result is dynamic
    /// (mlir-opt's ReallocOp::verify, in its order).
    fn memref_realloc(&self, op: OpId) -> VResult {
        let m = self.m;
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (
            TypeKind::MemRef { elem: se, layout: sl, space: ss, .. },
            TypeKind::MemRef { shape, elem: re, layout: rl, space: rs },
        ) = (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        let span = m.op(op).span;
        let (st, rt) = (self.ty(s), self.ty(r));
        if !self.identity_layout(*sl) {
            return self.err(span, format!("unsupported layout for source memref type '{st}'"));
        }
        if !self.identity_layout(*rl) {
            return self.err(span, format!("unsupported layout for result memref type '{rt}'"));
        }
        if ss != rs {
            return self.err(
                span,
                format!(
                    "different memory spaces specified for source memref type '{st}' and result memref type '{rt}'"
                ),
            );
        }
        if se != re {
            return self.err(
                span,
                format!(
                    "different element types specified for source memref type '{st}' and result memref type '{rt}'"
                ),
            );
        }
        let dynamic = shape.contains(&crate::types::DYNAMIC);
        let sized = m.operands(op).len() > 1;
        if dynamic && !sized {
            return self.err(span, format!("missing dimension operand for result type '{rt}'"));
        }
        if !dynamic && sized {
            return self.err(span, format!("unnecessary dimension operand for result type '{rt}'"));
        }
        Ok(())
    }
}

impl Verifier<'_> {
    /// `memref.dma_start`: source, destination and tag memrefs, each with an
    /// index per dimension, the element count, and the stride pair or
    /// nothing (mlir-opt's DmaStartOp::verify, in its order).
    fn memref_dma_start(&self, op: OpId) -> VResult {
        let m = self.m;
        let ts: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
        let n = ts.len();
        if n < 4 {
            return self.op_err(op, "expected at least 4 operands");
        }
        let index = |t: &TypeId| matches!(m.ctx.type_kind(*t), TypeKind::Index);
        let rank = |t: TypeId| self.shape_of(t).map(|s| s.len());
        // The memref at `at` and its indices; where the next operand starts.
        let memref = |at: usize, what: &str, want: usize| -> Result<usize, Diagnostic> {
            let Some(r) = ts
                .get(at)
                .and_then(|t| rank(*t))
                .filter(|_| matches!(m.ctx.type_kind(ts[at]), TypeKind::MemRef { .. }))
            else {
                return Err(self.op_diag(op, format!("expected {what} to be of memref type")));
            };
            let want = want + r;
            if n < want {
                return Err(self.op_diag(op, format!("expected at least {want} operands")));
            }
            if !ts[at + 1..at + 1 + r].iter().all(index) {
                return Err(self.op_diag(op, format!("expected {what} indices to be of index type")));
            }
            Ok(at + 1 + r)
        };
        let src_rank = ts.first().and_then(|t| rank(*t)).unwrap_or(0);
        let dst_at = memref(0, "source", 4)?;
        let num_at = memref(dst_at, "destination", 4 + src_rank)?;
        if !index(&ts[num_at]) {
            return self.op_err(op, "expected num elements to be of index type");
        }
        let dst_rank = num_at - dst_at - 1;
        let end = memref(num_at + 1, "tag", 4 + src_rank + dst_rank)?;
        if n != end && n != end + 2 {
            return self.op_err(op, "incorrect number of operands");
        }
        if n == end + 2 && !ts[end..].iter().all(index) {
            return self.op_err(op, "expected stride and num elements per stride to be of type index");
        }
        Ok(())
    }

    /// `memref.atomic_rmw`: a known kind; value, memref element and result
    /// of one signless integer or float type; one index per dimension; and a
    /// kind that applies to that type (mlir-opt's AtomicRMWOp::verify).
    /// `maxnumf` and `minnumf` on integers pass mlir-opt's verifier, but
    /// its lowering to `llvm.atomicrmw` rejects them ("expected LLVM IR
    /// floating point type"), so they are rejected here as float kinds.
    fn memref_atomic_rmw(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(a) = m.attr(op, "kind") else { return self.op_err(op, "requires attribute 'kind'") };
        let name = match m.ctx.attr_kind(a) {
            Attribute::Integer { value, ty } if m.ctx.type_kind(*ty).is_signless_int(64) => {
                value.to_i64().and_then(|k| usize::try_from(k).ok()).and_then(|k| crate::ops::ATOMIC_KINDS.get(k))
            }
            _ => None,
        };
        let Some(name) = name else {
            let text = crate::printer::attr_to_string(&m.ctx, a);
            return self.err(
                m.op(op).span,
                format!(
                    "invalid properties {{kind = {text}}} for op memref.atomic_rmw: Invalid attribute `kind` in property conversion: {text}"
                ),
            );
        };
        let (Some(v), Some(mt), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else {
            return Ok(());
        };
        let scalar = |t: TypeId| {
            matches!(
                m.ctx.type_kind(t),
                TypeKind::Integer { signedness: Signedness::Signless, .. } | TypeKind::Float(_)
            )
        };
        if !scalar(v) {
            return self.op_err(
                op,
                format!("operand #0 must be signless integer or floating-point, but got '{}'", self.ty(v)),
            );
        }
        let elem = match m.ctx.type_kind(mt) {
            TypeKind::MemRef { shape, elem, .. } if scalar(*elem) => Some((shape.len(), *elem)),
            _ => None,
        };
        let Some((rank, elem)) = elem else {
            return self.op_err(
                op,
                format!(
                    "operand #1 must be memref of signless integer or floating-point values, but got '{}'",
                    self.ty(mt)
                ),
            );
        };
        for (i, x) in m.operands(op).iter().enumerate().skip(2) {
            let t = m.type_of(*x);
            if !matches!(m.ctx.type_kind(t), TypeKind::Index) {
                return self.op_err(op, format!("operand #{i} must be variadic of index, but got '{}'", self.ty(t)));
            }
        }
        if !scalar(r) {
            return self
                .op_err(op, format!("result #0 must be signless integer or floating-point, but got '{}'", self.ty(r)));
        }
        if v != r {
            return self.op_err(op, "failed to verify that all of {value, result} have same type");
        }
        if v != elem {
            return self.op_err(op, "failed to verify that value type matches element type of memref");
        }
        if m.operands(op).len() - 2 != rank {
            return self.op_err(op, "expects the number of subscripts to be equal to memref rank");
        }
        let float = matches!(m.ctx.type_kind(v), TypeKind::Float(_));
        match *name {
            "addf" | "maximumf" | "minimumf" | "mulf" if !float => {
                self.op_err(op, format!("with kind '{name}' expects a floating-point type"))
            }
            "maxnumf" | "minnumf" if !float => self.op_err(
                op,
                format!(
                    "with kind '{name}' expects a floating-point type (mlir-opt's verifier lets this pass, \
                     its lowering to llvm.atomicrmw does not)"
                ),
            ),
            "addi" | "maxs" | "maxu" | "mins" | "minu" | "muli" | "ori" | "xori" | "andi" if float => {
                self.op_err(op, format!("with kind '{name}' expects an integer type"))
            }
            _ => Ok(()),
        }
    }

    /// `memref.global`: its initial value is `unit` or a tensor of the
    /// memref's element type and shape (mlir-opt's GlobalOp::verify; a
    /// vector initializer crashes mlir-opt 22, and is an error here).
    fn memref_global(&self, op: OpId) -> VResult {
        self.inherent(op)?;
        let m = self.m;
        let Some(init) = m.attr(op, "initial_value") else { return Ok(()) };
        let ty = match m.ctx.attr_kind(init) {
            Attribute::Unit => return Ok(()),
            Attribute::Dense { ty, .. } | Attribute::DenseResource { ty, .. } | Attribute::Sparse { ty, .. } => *ty,
            _ => {
                let text = crate::printer::attr_to_string(&m.ctx, init);
                return self
                    .op_err(op, format!("initial value should be a unit or elements attribute, but got {text}"));
            }
        };
        let Some(mt) = self.type_attr(op, "type") else { return Ok(()) };
        let TypeKind::MemRef { shape, elem, .. } = m.ctx.type_kind(mt) else { return Ok(()) };
        let TypeKind::RankedTensor { shape: ishape, elem: ielem, .. } = m.ctx.type_kind(ty) else {
            return self.op_err(op, format!("initial value must be a tensor, but was of type '{}'", self.ty(ty)));
        };
        if ielem != elem {
            return self.op_err(
                op,
                format!(
                    "initial value element expected to be of type '{}', but was of type '{}'",
                    self.ty(*elem),
                    self.ty(*ielem)
                ),
            );
        }
        if ishape != shape {
            let dims = |s: &[i64]| s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            return self
                .op_err(op, format!("initial value shape expected to be {} but was {}", dims(shape), dims(ishape)));
        }
        Ok(())
    }
}
