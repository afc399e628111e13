//! ODS type constraints on operands and results, for the ops whose dialect
//! rules do not check them: mlir-opt verifies them before the op's own
//! verifier, operand by operand and then result by result, with the
//! constraint's description in its message.

use super::*;
use crate::types::Signedness;

/// A type constraint, with the words mlir-opt's message uses for it.
#[derive(Clone, Copy)]
enum Is {
    /// Any type (an operand whose constraint a dialect rule checks).
    Any,
    /// `Index`.
    Index,
    /// `Variadic<Index>`.
    Indices,
    /// `AnyRankedTensor`.
    RankedTensor,
    /// `AnyVectorOfAnyRank`.
    Vector,
    /// `AnyMemRef` (ranked).
    MemRef,
    /// `AnyStaticShapeMemRef`.
    StaticMemRef,
    /// `AnyRankedOrUnrankedMemRef`.
    AnyMemRef,
    /// `AnyTensor`.
    Tensor,
    /// `AnyComplex`.
    Complex,
    /// `Complex<AnyFloat>`.
    ComplexFloat,
    /// `AnySignlessInteger`.
    SignlessInt,
    /// `LLVM_ScalarOrVectorOf<AnySignlessInteger>`.
    LlvmIntOrVector,
    /// `LLVM_ScalarOrVectorOf<LLVM_AnyFloat>`.
    LlvmFloatOrVector,
    /// `LLVM_AnyFloat`.
    LlvmFloat,
    /// `LLVM_AnyVector`.
    LlvmVector,
    /// `LLVM_VectorOf<AnySignlessInteger>`.
    LlvmIntVector,
    /// `LLVM_VectorOf<LLVM_AnyFloat>`.
    LlvmFloatVector,
    /// `LLVM_AnyPointer`.
    LlvmPtr,
    /// `LLVM_ScalarOrVectorOf<LLVM_AnyPointer>`.
    LlvmPtrOrVector,
}

impl Is {
    /// The constraint's description in mlir-opt's messages.
    fn words(self) -> &'static str {
        match self {
            Is::Any => "any type",
            Is::Index => "index",
            Is::Indices => "variadic of index",
            Is::RankedTensor => "ranked tensor of any type values",
            Is::Vector => "vector of any type values",
            Is::MemRef => "memref of any type values",
            Is::StaticMemRef => "statically shaped memref of any type values",
            Is::AnyMemRef => "ranked or unranked memref of any type values",
            Is::Tensor => "tensor of any type values",
            Is::Complex => "complex-type",
            Is::ComplexFloat => "complex type with floating-point elements",
            Is::SignlessInt => "signless integer",
            Is::LlvmIntOrVector => "signless integer or LLVM dialect-compatible vector of signless integer",
            Is::LlvmFloatOrVector => {
                "floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type"
            }
            Is::LlvmFloat => "floating point LLVM type",
            Is::LlvmVector => "LLVM dialect-compatible vector type",
            Is::LlvmIntVector => "LLVM dialect-compatible vector of signless integer",
            Is::LlvmFloatVector => "LLVM dialect-compatible vector of floating-point",
            Is::LlvmPtr => "LLVM pointer type",
            Is::LlvmPtrOrVector => "LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type",
        }
    }

    /// Whether `t` satisfies the constraint.
    fn holds(self, ctx: &Context, t: TypeId) -> bool {
        let k = ctx.type_kind(t);
        let vector_of = |f: &dyn Fn(&TypeKind) -> bool| match k {
            TypeKind::Vector { elem, .. } => f(ctx.type_kind(*elem)),
            _ => false,
        };
        let signless = |k: &TypeKind| matches!(k, TypeKind::Integer { signedness: Signedness::Signless, .. });
        let float = |k: &TypeKind| matches!(k, TypeKind::Float(_));
        let ptr = |k: &TypeKind| matches!(k, TypeKind::LlvmPtr(_));
        match self {
            Is::Any => true,
            Is::Index | Is::Indices => matches!(k, TypeKind::Index),
            Is::RankedTensor => matches!(k, TypeKind::RankedTensor { .. }),
            Is::Vector => matches!(k, TypeKind::Vector { .. }),
            Is::MemRef => matches!(k, TypeKind::MemRef { .. }),
            Is::StaticMemRef => {
                matches!(k, TypeKind::MemRef { shape, .. } if shape.iter().all(|d| *d != crate::types::DYNAMIC))
            }
            Is::AnyMemRef => matches!(k, TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }),
            Is::Tensor => matches!(k, TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }),
            Is::Complex => matches!(k, TypeKind::Complex(_)),
            Is::ComplexFloat => matches!(k, TypeKind::Complex(e) if float(ctx.type_kind(*e))),
            Is::SignlessInt => signless(k),
            Is::LlvmIntOrVector => signless(k) || vector_of(&signless),
            Is::LlvmFloatOrVector => float(k) || vector_of(&float),
            Is::LlvmFloat => float(k),
            Is::LlvmVector => matches!(k, TypeKind::Vector { .. }),
            Is::LlvmIntVector => vector_of(&signless),
            Is::LlvmFloatVector => vector_of(&float),
            Is::LlvmPtr => ptr(k),
            Is::LlvmPtrOrVector => ptr(k) || vector_of(&ptr),
        }
    }
}

/// The constraints of `kind`'s operands (`(from, constraint)`: operands
/// `from..` up to the next entry's `from`, or to the end) and of its first
/// result.
fn rules(kind: OpKind) -> (&'static [(usize, Is)], Option<Is>) {
    use Is::*;
    match kind.name() {
        "memref.load" | "affine.load" | "tensor.extract" => (&[(0, Any), (1, Indices)], None),
        "affine.vector_load" => (&[(0, Any), (1, Indices)], Some(Vector)),
        "vector.load" => (&[(0, MemRef), (1, Indices)], None),
        "memref.store" | "affine.store" | "tensor.insert" => (&[(0, Any), (2, Indices)], None),
        "affine.vector_store" => (&[(0, Vector), (1, Any), (2, Indices)], None),
        "vector.store" => (&[(0, Vector), (1, MemRef), (2, Indices)], None),
        "affine.linearize_index" => (&[(0, Indices)], Some(Index)),
        "memref.subview" => (&[(0, MemRef), (1, Indices)], Some(MemRef)),
        "memref.get_global" => (&[], Some(StaticMemRef)),
        "memref.view" => (&[(0, Any), (1, Index), (2, Indices)], Some(MemRef)),
        "memref.reinterpret_cast" => (&[(0, Any), (1, Indices)], Some(MemRef)),
        "memref.dim" | "tensor.dim" => (&[(0, Any), (1, Index)], Some(Index)),
        "tensor.empty" => (&[(0, Indices)], Some(RankedTensor)),
        "tensor.extract_slice" => (&[(0, RankedTensor), (1, Indices)], Some(RankedTensor)),
        "tensor.expand_shape" | "tensor.collapse_shape" => (&[], Some(Tensor)),
        "vector.shuffle" | "vector.shape_cast" | "vector.broadcast" | "vector.bitcast" => (&[], Some(Vector)),
        "vector.type_cast" => (&[], Some(MemRef)),
        "bufferization.clone" => (&[(0, AnyMemRef)], Some(AnyMemRef)),
        "bufferization.alloc_tensor" => (&[], Some(Tensor)),
        "complex.constant" => (&[], Some(Complex)),
        "complex.abs" | "complex.re" | "complex.im" | "complex.angle" => (&[(0, ComplexFloat)], None),
        "vector.transfer_read" => (&[], Some(Vector)),
        "llvm.zext" | "llvm.sext" | "llvm.trunc" | "llvm.fptosi" | "llvm.fptoui" => (&[], Some(LlvmIntOrVector)),
        "llvm.fptrunc" | "llvm.fpext" | "llvm.sitofp" | "llvm.uitofp" => (&[], Some(LlvmFloatOrVector)),
        "llvm.getelementptr" => (&[], Some(LlvmPtrOrVector)),
        "llvm.shufflevector" => (&[(0, LlvmVector), (1, LlvmVector)], Some(LlvmVector)),
        "llvm.insertelement" => (&[(0, LlvmVector), (1, Any)], Some(LlvmVector)),
        "llvm.extractelement" => (&[(0, LlvmVector), (1, Any)], None),
        "llvm.intr.vector.extract" => (&[], Some(LlvmVector)),
        "llvm.intr.stepvector" => (&[], Some(LlvmIntVector)),
        "llvm.alloca" => (&[(0, SignlessInt)], None),
        "llvm.atomicrmw" | "llvm.cmpxchg" => (&[(0, LlvmPtr), (1, Any)], None),
        "llvm.intr.vastart" | "llvm.intr.vaend" | "llvm.va_arg" => (&[(0, LlvmPtr)], None),
        "llvm.intr.vacopy" => (&[(0, LlvmPtr), (1, LlvmPtr)], None),
        "llvm.intr.memcpy" | "llvm.intr.memmove" => (&[(0, LlvmPtr), (2, Any)], None),
        "llvm.intr.memset" => (&[(0, LlvmPtr), (1, Any)], None),
        "llvm.intr.masked.load" => (&[(0, LlvmPtr), (1, Any)], None),
        "llvm.intr.masked.store" => (&[(0, LlvmVector), (1, LlvmPtr), (2, Any)], None),
        "llvm.intr.is.fpclass" => (&[(0, LlvmFloatOrVector)], None),
        "llvm.intr.vector.reduce.add"
        | "llvm.intr.vector.reduce.mul"
        | "llvm.intr.vector.reduce.and"
        | "llvm.intr.vector.reduce.or"
        | "llvm.intr.vector.reduce.xor"
        | "llvm.intr.vector.reduce.smax"
        | "llvm.intr.vector.reduce.smin"
        | "llvm.intr.vector.reduce.umax"
        | "llvm.intr.vector.reduce.umin" => (&[(0, LlvmIntVector)], None),
        "llvm.intr.vector.reduce.fmax"
        | "llvm.intr.vector.reduce.fmin"
        | "llvm.intr.vector.reduce.fmaximum"
        | "llvm.intr.vector.reduce.fminimum" => (&[(0, LlvmFloatVector)], None),
        "llvm.intr.vector.reduce.fadd" | "llvm.intr.vector.reduce.fmul" => {
            (&[(0, LlvmFloat), (1, LlvmFloatVector)], None)
        }
        _ => (&[], None),
    }
}

impl Verifier<'_> {
    /// The first operand or result of `op` that breaks its type constraint,
    /// as mlir-opt words it.
    pub(super) fn value_types(&self, op: OpId, kind: OpKind) -> VResult {
        let (operands, result) = rules(kind);
        let m = self.m;
        let n = m.operands(op).len();
        for (g, (from, is)) in operands.iter().enumerate() {
            let to = operands.get(g + 1).map_or(n, |(f, _)| *f).min(n);
            for i in *from..to {
                let t = m.type_of(m.operands(op)[i]);
                if !is.holds(&m.ctx, t) {
                    return self.op_err(op, format!("operand #{i} must be {}, but got '{}'", is.words(), self.ty(t)));
                }
            }
        }
        if let (Some(is), Some(t)) = (result, self.res(op, 0)) {
            if !is.holds(&m.ctx, t) {
                return self.op_err(op, format!("result #0 must be {}, but got '{}'", is.words(), self.ty(t)));
            }
        }
        Ok(())
    }
}
