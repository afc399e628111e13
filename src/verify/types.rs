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
    /// `I1`.
    I1,
    /// `I8`.
    I8,
    /// `BoolLike`: `i1`, or a vector or tensor of `i1`.
    BoolLike,
    /// `SignlessIntegerLike`: a signless integer or index, or a vector or tensor of them.
    SignlessIntLike,
    /// `FloatLike`: a float, or a vector or tensor of floats.
    FloatLike,
    /// `AnyFloat`.
    Float,
    /// `AnyRankedTensor`.
    RankedTensor,
    /// `AnyStaticShapeTensor`.
    StaticTensor,
    /// `AnyNon0RankedOrUnrankedTensor`.
    Non0RankTensor,
    /// `1DTensorOf<[AnySignlessInteger, Index]>`.
    ShapeTensor,
    /// `AnyVectorOfAnyRank`.
    Vector,
    /// `VectorOfRank<[1]>`.
    Vector1,
    /// `ScalableVectorOfRank<[1]>`.
    ScalableVector1,
    /// `AnyFixedVectorOfAnyRank`.
    FixedVector,
    /// `VectorOfAnyRankOf<[I1]>`.
    VectorI1,
    /// `FixedVectorOfAnyRank<[I1]>`.
    FixedVectorI1,
    /// `VectorOfAnyRankOf<[AnyInteger, Index]>`.
    VectorIntOrIndex,
    /// `AnyMemRef` (ranked).
    MemRef,
    /// `MemRefRankOf<[AnyType], [1]>`.
    MemRef1D,
    /// `AnyStridedMemRef` (every ranked memref this verifier meets; a
    /// layout map that is not strided is judged by the op's own rule).
    StridedMemRef,
    /// `AnyStaticShapeMemRef`.
    StaticMemRef,
    /// `AnyRankedOrUnrankedMemRef`.
    AnyMemRef,
    /// `AnyShaped` ranked tensor or memref (`TensorOrMemRef`).
    TensorOrMemRef,
    /// `AnyTensor`.
    Tensor,
    /// `Bufferization_TensorLikeTypeInterface`: builtin tensors.
    TensorLike,
    /// `Bufferization_BufferLikeTypeInterface`: builtin memrefs.
    BufferLike,
    /// `RankedTensorOf<[AnySignlessInteger, Index]>`.
    IndexTensor,
    /// `AnyShaped`: a vector, tensor or memref.
    Shaped,
    /// `AnyNon0RankedOrUnrankedMemRef`.
    Non0RankMemRef,
    /// `AnyComplex`.
    Complex,
    /// `Complex<AnyFloat>`.
    ComplexFloat,
    /// `AnySignlessInteger`.
    SignlessInt,
    /// `LLVM_Type`: a type LLVM IR has.
    LlvmType,
    /// `LLVM_LoadableType`: an LLVM type with a size.
    LlvmSized,
    /// `LLVM_AnyNonAggregate`.
    LlvmNonAggregate,
    /// `LLVM_AnyStruct`.
    LlvmStruct,
    /// `LLVM_ScalarOrVectorOf<I1>`.
    LlvmI1OrVector,
    /// `LLVM_VectorOf<I1>`.
    LlvmI1Vector,
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
    /// `llvm.atomicrmw`'s value: a float, pointer, integer or fixed vector.
    LlvmAtomic,
}

impl Is {
    /// The constraint's description in mlir-opt's messages.
    fn words(self) -> &'static str {
        match self {
            Is::Any => "any type",
            Is::Index => "index",
            Is::I1 => "1-bit signless integer",
            Is::I8 => "8-bit signless integer",
            Is::BoolLike => "bool-like",
            Is::SignlessIntLike => "signless-integer-like",
            Is::FloatLike => "floating-point-like",
            Is::Float => "floating-point",
            Is::RankedTensor => "ranked tensor of any type values",
            Is::StaticTensor => "statically shaped tensor of any type values",
            Is::Non0RankTensor => "non-0-ranked or unranked tensor",
            Is::ShapeTensor => "1D tensor of signless integer or index values",
            Is::Vector => "vector of any type values",
            Is::FixedVector => "fixed-length vector of any type values",
            Is::Vector1 => "vector of any type values of ranks 1",
            // ODS gives this constraint no summary of its own.
            Is::ScalableVector1 => " of ranks 1",
            Is::VectorI1 => "vector of 1-bit signless integer values",
            Is::FixedVectorI1 => "fixed-length vector of 1-bit signless integer values",
            Is::VectorIntOrIndex => "vector of integer or index values",
            Is::MemRef => "memref of any type values",
            Is::MemRef1D => "1D memref of any type values",
            Is::StridedMemRef => "strided memref of any type values",
            Is::StaticMemRef => "statically shaped memref of any type values",
            Is::AnyMemRef => "ranked or unranked memref of any type values",
            Is::TensorOrMemRef => "Tensor or MemRef of any type values",
            Is::Tensor => "tensor of any type values",
            Is::TensorLike => "TensorLikeType instance",
            Is::BufferLike => "BufferLikeType instance",
            Is::IndexTensor => "ranked tensor of signless integer or index values",
            Is::Shaped => "shaped of any type values",
            Is::Non0RankMemRef => "unranked.memref of any type values or non-0-ranked.memref of any type values",
            Is::Complex => "complex-type",
            Is::ComplexFloat => "complex type with floating-point elements",
            Is::SignlessInt => "signless integer",
            Is::LlvmType => "LLVM dialect-compatible type",
            Is::LlvmSized => "LLVM type with size",
            Is::LlvmNonAggregate => "LLVM-compatible non-aggregate type",
            Is::LlvmStruct => "LLVM structure type",
            Is::LlvmI1OrVector => {
                "1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer"
            }
            Is::LlvmI1Vector => "LLVM dialect-compatible vector of 1-bit signless integer",
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
            Is::LlvmAtomic => {
                "floating point LLVM type or LLVM pointer type or signless integer or LLVM dialect-compatible fixed-length vector type"
            }
        }
    }

    /// Whether `t` satisfies the constraint.
    fn holds(self, ctx: &Context, t: TypeId) -> bool {
        let k = ctx.type_kind(t);
        let vector_of = |f: &dyn Fn(&TypeKind) -> bool| match k {
            TypeKind::Vector { elem, .. } => f(ctx.type_kind(*elem)),
            _ => false,
        };
        let shaped_of = |f: &dyn Fn(&TypeKind) -> bool| match k {
            TypeKind::Vector { elem, .. } | TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => {
                f(ctx.type_kind(*elem))
            }
            _ => false,
        };
        let signless = |k: &TypeKind| matches!(k, TypeKind::Integer { signedness: Signedness::Signless, .. });
        let i1 = |k: &TypeKind| k.is_signless_int(1);
        let int_like = |k: &TypeKind| signless(k) || matches!(k, TypeKind::Index);
        let float = |k: &TypeKind| matches!(k, TypeKind::Float(_));
        let ptr = |k: &TypeKind| matches!(k, TypeKind::LlvmPtr(_));
        let fixed = matches!(k, TypeKind::Vector { scalable, .. } if !scalable.iter().any(|s| *s));
        match self {
            Is::Any => true,
            Is::Index => matches!(k, TypeKind::Index),
            Is::I1 => i1(k),
            Is::I8 => k.is_signless_int(8),
            Is::BoolLike => i1(k) || shaped_of(&i1),
            Is::FloatLike => float(k) || shaped_of(&float),
            Is::SignlessIntLike => int_like(k) || shaped_of(&int_like),
            Is::Float => float(k),
            Is::RankedTensor => matches!(k, TypeKind::RankedTensor { .. }),
            Is::StaticTensor => {
                matches!(k, TypeKind::RankedTensor { shape, .. } if shape.iter().all(|d| *d != crate::types::DYNAMIC))
            }
            Is::Non0RankTensor => {
                matches!(k, TypeKind::UnrankedTensor { .. })
                    || matches!(k, TypeKind::RankedTensor { shape, .. } if !shape.is_empty())
            }
            Is::ShapeTensor => matches!(k, TypeKind::RankedTensor { shape, elem, .. }
                if shape.len() == 1 && (signless(ctx.type_kind(*elem)) || matches!(ctx.type_kind(*elem), TypeKind::Index))),
            Is::Vector => matches!(k, TypeKind::Vector { .. }),
            Is::FixedVector => fixed,
            Is::Vector1 => matches!(k, TypeKind::Vector { shape, .. } if shape.len() == 1),
            Is::ScalableVector1 => matches!(k, TypeKind::Vector { scalable, .. } if scalable.len() == 1 && scalable[0]),
            Is::VectorI1 => vector_of(&i1),
            Is::FixedVectorI1 => fixed && vector_of(&i1),
            Is::VectorIntOrIndex => vector_of(&|k| matches!(k, TypeKind::Integer { .. } | TypeKind::Index)),
            Is::MemRef | Is::StridedMemRef => matches!(k, TypeKind::MemRef { .. }),
            Is::MemRef1D => matches!(k, TypeKind::MemRef { shape, .. } if shape.len() == 1),
            Is::StaticMemRef => {
                matches!(k, TypeKind::MemRef { shape, .. } if shape.iter().all(|d| *d != crate::types::DYNAMIC))
            }
            Is::AnyMemRef => matches!(k, TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }),
            Is::TensorOrMemRef => matches!(
                k,
                TypeKind::MemRef { .. }
                    | TypeKind::UnrankedMemRef { .. }
                    | TypeKind::RankedTensor { .. }
                    | TypeKind::UnrankedTensor { .. }
            ),
            Is::Tensor | Is::TensorLike => matches!(k, TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }),
            Is::BufferLike => matches!(k, TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }),
            Is::IndexTensor => {
                matches!(k, TypeKind::RankedTensor { elem, .. } if int_like(ctx.type_kind(*elem)))
            }
            Is::Shaped => matches!(
                k,
                TypeKind::Vector { .. }
                    | TypeKind::MemRef { .. }
                    | TypeKind::UnrankedMemRef { .. }
                    | TypeKind::RankedTensor { .. }
                    | TypeKind::UnrankedTensor { .. }
            ),
            Is::Non0RankMemRef => {
                matches!(k, TypeKind::UnrankedMemRef { .. })
                    || matches!(k, TypeKind::MemRef { shape, .. } if !shape.is_empty())
            }
            Is::Complex => matches!(k, TypeKind::Complex(_)),
            Is::ComplexFloat => matches!(k, TypeKind::Complex(e) if float(ctx.type_kind(*e))),
            Is::SignlessInt => signless(k),
            Is::LlvmType => llvm_compatible(ctx, t),
            Is::LlvmSized => llvm_compatible(ctx, t) && !matches!(k, TypeKind::LlvmVoid | TypeKind::LlvmFunc { .. }),
            Is::LlvmNonAggregate => {
                llvm_compatible(ctx, t) && !matches!(k, TypeKind::LlvmStruct { .. } | TypeKind::LlvmArray { .. })
            }
            Is::LlvmStruct => matches!(k, TypeKind::LlvmStruct { .. }),
            Is::LlvmI1OrVector => i1(k) || vector_of(&i1),
            Is::LlvmI1Vector => vector_of(&i1),
            Is::LlvmIntOrVector => signless(k) || vector_of(&signless),
            Is::LlvmFloatOrVector => float(k) || vector_of(&float),
            Is::LlvmFloat => float(k),
            Is::LlvmVector => matches!(k, TypeKind::Vector { .. }),
            Is::LlvmIntVector => vector_of(&signless),
            Is::LlvmFloatVector => vector_of(&float),
            Is::LlvmPtr => ptr(k),
            Is::LlvmPtrOrVector => ptr(k) || vector_of(&ptr),
            Is::LlvmAtomic => float(k) || ptr(k) || signless(k) || (fixed && llvm_compatible(ctx, t)),
        }
    }
}

/// mlir-opt's `LLVM::isCompatibleType`: signless integers, the six floats
/// LLVM IR has, 1-D vectors, and the llvm dialect's own types.
fn llvm_compatible(ctx: &Context, t: TypeId) -> bool {
    use crate::types::FloatKind::*;
    match ctx.type_kind(t) {
        TypeKind::Integer { signedness, .. } => *signedness == Signedness::Signless,
        TypeKind::Float(f) => matches!(f, F16 | BF16 | F32 | F64 | F80 | F128),
        TypeKind::Vector { shape, .. } => shape.len() == 1,
        TypeKind::Dialect { dialect, .. } => ctx.str(*dialect) == "llvm",
        k => k.is_llvm(),
    }
}

/// How many values an ODS operand or result stands for.
#[derive(Clone, Copy)]
enum N {
    /// Exactly one.
    One(Is),
    /// `Optional<..>`: none or one.
    Opt(Is),
    /// `Variadic<..>`: any number (its message says "variadic of").
    Many(Is),
}

/// A value an equality rule names: an ODS operand (by its index in the
/// op's definition, not the flattened one) or a result.
#[derive(Clone, Copy)]
enum V {
    /// ODS operand `i` (a single one).
    Opnd(usize),
    /// Result `i`.
    Res(usize),
}

/// An ODS trait relating the types of several values, checked after the
/// type constraints, with mlir-opt's message.
#[derive(Clone, Copy)]
enum Rule {
    /// `SameOperandsAndResultType`.
    SameAll,
    /// `SameTypeOperands`.
    SameOperands,
    /// `SameOperandsAndResultElementType`.
    SameElemAll,
    /// `SameOperandsElementType`.
    SameElemOperands,
    /// `AllTypesMatch`, with the names the message lists (`{a, b}`).
    AllMatch(&'static [V], &'static str),
    /// `TypesMatchWith` where the first value has the second's type; the
    /// message's words.
    Match(V, V, &'static str),
    /// `TypesMatchWith` where the first value has the second's element type.
    ElemOf(V, V, &'static str),
    /// The values have one element type (`AllElementTypesMatch` and
    /// similar predicates); the message's words.
    SameElem(&'static [V], &'static str),
    /// Every operand has the element type of the value (`tensor.from_elements`).
    OperandsElemOf(V, &'static str),
    /// The comparison rule: the result is `i1` in the operand's shape.
    I1Shape(V, V),
}

/// An op's ODS operands and results, each with its constraint, and the
/// traits that relate their types.
struct Sig {
    operands: &'static [N],
    results: &'static [N],
    rules: &'static [Rule],
}

/// The signature of `kind`'s op, from its ODS definition in LLVM 22 (what
/// the dialect rules check themselves is `Any` here).
fn sig(kind: OpKind) -> Sig {
    use Is::*;
    use Rule::*;
    use N::*;
    use V::*;
    const INDEX2: &[N] = &[One(Index), One(Index)];
    const LLVM1: &[N] = &[One(LlvmType)];
    let s = |operands, results, rules| Sig { operands, results, rules };
    let name = kind.name();
    match name {
        // index: integers of the target's width, as `index`.
        "index.add" | "index.sub" | "index.mul" | "index.divs" | "index.divu" | "index.ceildivs" | "index.ceildivu"
        | "index.floordivs" | "index.rems" | "index.remu" | "index.maxs" | "index.maxu" | "index.mins"
        | "index.minu" | "index.shl" | "index.shrs" | "index.shru" | "index.and" | "index.or" | "index.xor" => {
            s(INDEX2, &[One(Index)], &[])
        }
        "index.cmp" => s(INDEX2, &[One(I1)], &[]),
        "index.sizeof" => s(&[], &[One(Index)], &[]),
        // affine
        "affine.apply" | "affine.min" | "affine.max" => s(&[Many(Index)], &[One(Index)], &[]),
        "affine.load" => s(&[One(MemRef), Many(Index)], &[], &[]),
        "affine.store" => s(&[One(Any), One(MemRef), Many(Index)], &[], &[]),
        "affine.vector_load" => s(&[One(MemRef), Many(Index)], &[One(Vector)], &[]),
        "affine.vector_store" => s(&[One(Vector), One(MemRef), Many(Index)], &[], &[]),
        "affine.linearize_index" => s(&[Many(Index), Many(Index)], &[One(Index)], &[]),
        "affine.delinearize_index" => s(&[One(Index), Many(Index)], &[Many(Index)], &[]),
        // arith, math, complex
        "arith.select" => s(&[One(BoolLike), One(Any), One(Any)], &[], &[]),
        "arith.cmpi" | "arith.cmpf" => s(&[One(Any), One(Any)], &[One(BoolLike)], &[I1Shape(Opnd(0), Res(0))]),
        "math.isnan" | "math.isinf" | "math.isfinite" | "math.isnormal" => {
            s(&[One(FloatLike)], &[One(BoolLike)], &[I1Shape(Opnd(0), Res(0))])
        }
        "math.fpowi" => s(
            &[One(FloatLike), One(SignlessIntLike)],
            &[One(FloatLike)],
            &[AllMatch(&[Opnd(0), Res(0)], "{lhs, result}")],
        ),
        "complex.create" => s(&[One(Float), One(Float)], &[One(ComplexFloat)], &[]),
        "complex.powi" => s(
            &[One(ComplexFloat), One(SignlessInt)],
            &[One(ComplexFloat)],
            &[AllMatch(&[Opnd(0), Res(0)], "{lhs, result}")],
        ),
        "complex.constant" => s(&[], &[One(Complex)], &[]),
        "complex.abs" | "complex.re" | "complex.im" | "complex.angle" => s(&[One(ComplexFloat)], &[], &[]),
        // memref
        "memref.load" => s(
            &[One(MemRef), Many(Index)],
            &[],
            &[ElemOf(Res(0), Opnd(0), "result type matches element type of 'memref'")],
        ),
        "memref.store" => s(&[One(Any), One(Any), Many(Index)], &[], &[]),
        "memref.subview" => s(&[One(MemRef), Many(Index), Many(Index), Many(Index)], &[One(MemRef)], &[]),
        "memref.get_global" => s(&[], &[One(StaticMemRef)], &[]),
        "memref.view" => s(&[One(Any), One(Index), Many(Index)], &[One(MemRef)], &[]),
        "memref.reinterpret_cast" => s(&[One(Any), Many(Index), Many(Index), Many(Index)], &[One(MemRef)], &[]),
        "memref.dim" => s(&[One(Non0RankMemRef), One(Index)], &[One(Index)], &[]),
        "memref.rank" => s(&[One(AnyMemRef)], &[One(Index)], &[]),
        "memref.copy" => s(&[One(AnyMemRef), One(AnyMemRef)], &[], &[]),
        "memref.assume_alignment" => s(&[One(MemRef)], &[One(MemRef)], &[SameAll]),
        "memref.memory_space_cast" => s(&[One(AnyMemRef)], &[One(AnyMemRef)], &[]),
        "memref.extract_aligned_pointer_as_index" => s(&[One(AnyMemRef)], &[One(Index)], &[]),
        "memref.transpose" | "memref.expand_shape" | "memref.collapse_shape" => {
            s(&[One(StridedMemRef), Many(Index)], &[One(StridedMemRef)], &[])
        }
        "memref.prefetch" => s(&[One(MemRef), Many(Index)], &[], &[]),
        "memref.dma_wait" => s(&[One(MemRef), Many(Index), One(Index)], &[], &[]),
        "memref.realloc" => s(&[One(MemRef1D), Opt(Index)], &[One(MemRef1D)], &[]),
        "memref.reshape" => s(&[One(AnyMemRef), One(MemRef1D)], &[One(AnyMemRef)], &[]),
        // tensor
        "tensor.extract" => {
            s(&[One(Any), Many(Index)], &[], &[ElemOf(Res(0), Opnd(0), "result type matches element type of tensor")])
        }
        "tensor.insert" => s(
            &[One(Any), One(RankedTensor), Many(Index)],
            &[One(RankedTensor)],
            &[
                Match(Res(0), Opnd(1), "result type matches type of dest"),
                ElemOf(Opnd(0), Opnd(1), "scalar type matches element type of dest"),
            ],
        ),
        "tensor.gather" => s(&[One(RankedTensor), One(IndexTensor)], &[One(RankedTensor)], &[]),
        "tensor.insert_slice" => s(
            &[One(RankedTensor), One(RankedTensor), Many(Index), Many(Index), Many(Index)],
            &[One(RankedTensor)],
            &[Match(Res(0), Opnd(1), "expected result type to match dest type")],
        ),
        "tensor.parallel_insert_slice" => {
            s(&[One(RankedTensor), One(RankedTensor), Many(Index), Many(Index), Many(Index)], &[], &[])
        }
        "tensor.dim" => s(&[One(Non0RankTensor), One(Index)], &[One(Index)], &[]),
        "tensor.rank" => s(&[One(Tensor)], &[One(Index)], &[]),
        "tensor.empty" => s(&[Many(Index)], &[One(RankedTensor)], &[]),
        "tensor.extract_slice" => {
            s(&[One(RankedTensor), Many(Index), Many(Index), Many(Index)], &[One(RankedTensor)], &[])
        }
        "tensor.expand_shape" => s(&[One(Tensor), Many(Index)], &[One(Tensor)], &[]),
        "tensor.collapse_shape" => s(&[One(Tensor)], &[One(Tensor)], &[]),
        "tensor.reshape" => s(&[One(Tensor), One(ShapeTensor)], &[One(Tensor)], &[]),
        "tensor.scatter" => s(&[One(RankedTensor), One(RankedTensor), One(RankedTensor)], &[One(RankedTensor)], &[]),
        "tensor.from_elements" => {
            s(&[Many(Any)], &[One(StaticTensor)], &[OperandsElemOf(Res(0), "operand types match result element type")])
        }
        "linalg.pack" => s(
            &[One(RankedTensor), One(RankedTensor), Opt(Any), Many(Index)],
            &[One(RankedTensor)],
            &[Match(Res(0), Opnd(1), "result type matches type of dest")],
        ),
        "linalg.unpack" => s(
            &[One(RankedTensor), One(RankedTensor), Many(Index)],
            &[One(RankedTensor)],
            &[Match(Res(0), Opnd(1), "result type matches type of dest")],
        ),
        // sparse_tensor (what its own rules leave to ODS)
        "sparse_tensor.concatenate" => s(&[Many(RankedTensor)], &[One(RankedTensor)], &[]),
        "sparse_tensor.lvl" => s(&[One(Any), One(Index)], &[One(Index)], &[]),
        "sparse_tensor.number_of_entries" => s(&[One(Any)], &[One(Index)], &[]),
        "sparse_tensor.assemble" => s(&[Many(IndexTensor), One(RankedTensor)], &[One(Any)], &[]),
        "bufferization.materialize_in_destination" => s(
            &[One(Tensor), One(Shaped)],
            &[Opt(Tensor)],
            &[SameElem(&[Opnd(0), Opnd(1)], "all of {source, dest} have same element type")],
        ),
        "bufferization.to_buffer" => s(&[One(TensorLike)], &[One(BufferLike)], &[]),
        "bufferization.to_tensor" => s(&[One(BufferLike)], &[One(TensorLike)], &[]),
        "bufferization.clone" => s(&[One(AnyMemRef)], &[One(AnyMemRef)], &[]),
        "bufferization.alloc_tensor" => s(&[], &[One(Tensor)], &[]),
        "bufferization.dealloc" => s(&[Many(AnyMemRef), Many(I1), Many(AnyMemRef)], &[Many(I1)], &[]),
        // vector
        "vector.load" | "vector.maskedload" | "vector.expandload" | "vector.gather" => {
            let operands: &[N] = match name {
                "vector.load" => &[One(MemRef), Many(Index)],
                "vector.maskedload" => &[One(MemRef), Many(Index), One(VectorI1), One(Vector)],
                "vector.expandload" => &[One(MemRef), Many(Index), One(FixedVectorI1), One(Vector)],
                _ => &[One(TensorOrMemRef), Many(Index), One(VectorIntOrIndex), One(VectorI1), One(Vector)],
            };
            s(operands, &[One(Vector)], &[])
        }
        "vector.store" => s(&[One(Vector), One(MemRef), Many(Index)], &[], &[]),
        "vector.maskedstore" => s(&[One(MemRef), Many(Index), One(VectorI1), One(Vector)], &[], &[]),
        "vector.compressstore" => s(&[One(MemRef), Many(Index), One(FixedVectorI1), One(Vector)], &[], &[]),
        "vector.scatter" => {
            s(&[One(TensorOrMemRef), Many(Index), One(VectorIntOrIndex), One(VectorI1), One(Vector)], &[], &[])
        }
        "vector.transfer_read" => s(&[One(Shaped), Many(Index), One(Any), Opt(VectorI1)], &[One(Vector)], &[]),
        "vector.transfer_write" => {
            s(&[One(Vector), One(Shaped), Many(Index), Opt(VectorI1)], &[Opt(RankedTensor)], &[])
        }
        "vector.from_elements" => {
            s(&[Many(Any)], &[One(FixedVector)], &[OperandsElemOf(Res(0), "operand types match result element type")])
        }
        "vector.constant_mask" | "vector.create_mask" => s(&[Many(Index)], &[One(VectorI1)], &[]),
        "vector.vscale" => s(&[], &[One(Index)], &[]),
        "vector.transpose" | "vector.outerproduct" | "vector.shape_cast" | "vector.broadcast" | "vector.bitcast" => {
            s(&[], &[One(Vector)], &[])
        }
        "vector.shuffle" => s(&[One(FixedVector), One(FixedVector)], &[One(Vector)], &[]),
        "vector.extract" => s(&[One(Vector), Many(Index)], &[], &[]),
        "vector.insert" => s(
            &[One(Any), One(Vector), Many(Index)],
            &[One(Vector)],
            &[
                SameElem(&[Opnd(0), Res(0)], "source operand and result have same element type"),
                AllMatch(&[Opnd(1), Res(0)], "{dest, result}"),
            ],
        ),
        "vector.scalable.insert" => s(
            &[One(Vector1), One(ScalableVector1)],
            &[One(ScalableVector1)],
            &[
                SameElem(&[Opnd(0), Opnd(1)], "all of {valueToStore, dest} have same element type"),
                AllMatch(&[Opnd(1), Res(0)], "{dest, res}"),
            ],
        ),
        "vector.scalable.extract" => s(
            &[One(ScalableVector1)],
            &[One(Vector1)],
            &[SameElem(&[Opnd(0), Res(0)], "all of {source, result} have same element type")],
        ),
        "vector.insert_strided_slice" => {
            s(&[One(Vector), One(Vector)], &[One(Vector)], &[AllMatch(&[Opnd(1), Res(0)], "{dest, result}")])
        }
        "vector.interleave" => {
            s(&[One(Vector), One(Vector)], &[One(Vector)], &[AllMatch(&[Opnd(0), Opnd(1)], "{lhs, rhs}")])
        }
        "vector.type_cast" => s(&[One(StaticMemRef)], &[One(MemRef)], &[]),
        // llvm
        "llvm.zext" | "llvm.sext" | "llvm.trunc" | "llvm.fptosi" | "llvm.fptoui" => {
            s(&[], &[One(LlvmIntOrVector)], &[])
        }
        "llvm.fptrunc" | "llvm.fpext" | "llvm.sitofp" | "llvm.uitofp" => s(&[], &[One(LlvmFloatOrVector)], &[]),
        "llvm.ptrtoint" => s(&[One(LlvmPtrOrVector)], &[One(LlvmIntOrVector)], &[]),
        "llvm.inttoptr" => s(&[One(LlvmIntOrVector)], &[One(LlvmPtrOrVector)], &[]),
        "llvm.bitcast" => s(&[One(LlvmNonAggregate)], &[One(LlvmNonAggregate)], &[]),
        "llvm.getelementptr" => s(&[One(LlvmPtrOrVector), Many(LlvmIntOrVector)], &[One(LlvmPtrOrVector)], &[]),
        "llvm.alloca" => s(&[One(SignlessInt)], &[One(LlvmPtr)], &[]),
        "llvm.mlir.addressof" => s(&[], &[One(LlvmPtr)], &[]),
        "llvm.mlir.poison" | "llvm.mlir.undef" | "llvm.mlir.zero" | "llvm.intr.stacksave" => s(&[], LLVM1, &[]),
        "llvm.va_arg" => s(&[One(LlvmPtr)], LLVM1, &[]),
        "llvm.load" => s(&[One(Any)], &[One(LlvmSized)], &[]),
        "llvm.store" => s(&[One(LlvmSized), One(Any)], &[], &[]),
        "llvm.icmp" | "llvm.fcmp" => s(&[], &[One(LlvmI1OrVector)], &[SameOperands]),
        "llvm.select" => s(
            &[One(LlvmI1OrVector), One(LlvmType), One(LlvmType)],
            LLVM1,
            &[AllMatch(&[Opnd(1), Opnd(2), Res(0)], "{trueValue, falseValue, res}")],
        ),
        "llvm.extractelement" => s(
            &[One(LlvmVector), One(SignlessInt)],
            LLVM1,
            &[ElemOf(Res(0), Opnd(0), "result type matches vector element type")],
        ),
        "llvm.insertelement" => s(
            &[One(LlvmVector), One(Any), One(SignlessInt)],
            &[One(LlvmVector)],
            &[
                ElemOf(Opnd(1), Opnd(0), "argument type matches vector element type"),
                AllMatch(&[Res(0), Opnd(0)], "{res, vector}"),
            ],
        ),
        "llvm.shufflevector" => {
            s(&[One(LlvmVector), One(LlvmVector)], &[One(LlvmVector)], &[AllMatch(&[Opnd(0), Opnd(1)], "{v1, v2}")])
        }
        "llvm.atomicrmw" => s(
            &[One(LlvmPtr), One(LlvmAtomic)],
            &[One(LlvmAtomic)],
            &[Match(Res(0), Opnd(1), "result #0 and operand #1 have the same type")],
        ),
        "llvm.cmpxchg" => s(
            &[One(LlvmPtr), One(Any), One(Any)],
            &[One(LlvmStruct)],
            &[Match(Opnd(2), Opnd(1), "operand #1 and operand #2 have the same type")],
        ),
        "llvm.intr.vastart" | "llvm.intr.vaend" | "llvm.intr.stackrestore" => s(&[One(LlvmPtr)], &[], &[]),
        "llvm.intr.vacopy" => s(&[One(LlvmPtr), One(LlvmPtr)], &[], &[]),
        "llvm.intr.memcpy" | "llvm.intr.memmove" => s(&[One(LlvmPtr), One(LlvmPtr), One(SignlessInt)], &[], &[]),
        "llvm.intr.memset" => s(&[One(LlvmPtr), One(I8), One(SignlessInt)], &[], &[]),
        "llvm.intr.masked.load" => s(&[One(LlvmPtr), One(LlvmI1Vector), Many(Any)], &[One(LlvmVector)], &[]),
        "llvm.intr.masked.store" => s(&[One(LlvmVector), One(LlvmPtr), One(LlvmI1Vector)], &[], &[]),
        "llvm.intr.masked.gather" => s(&[One(Any), One(LlvmI1Vector), Many(Any)], LLVM1, &[]),
        "llvm.intr.masked.scatter" => s(&[One(Any), One(Any), One(LlvmI1Vector)], &[], &[]),
        "llvm.intr.is.fpclass" => s(&[One(LlvmFloatOrVector)], LLVM1, &[]),
        "llvm.intr.vector.extract" => s(&[One(LlvmVector)], &[One(LlvmVector)], &[]),
        "llvm.intr.vector.insert" => s(&[One(LlvmVector), One(LlvmVector)], &[One(LlvmVector)], &[]),
        "llvm.intr.powi" => s(&[One(LlvmFloatOrVector), One(SignlessInt)], LLVM1, &[]),
        "llvm.intr.stepvector" => s(&[], &[One(LlvmIntVector)], &[]),
        "llvm.intr.vector.reduce.add"
        | "llvm.intr.vector.reduce.mul"
        | "llvm.intr.vector.reduce.and"
        | "llvm.intr.vector.reduce.or"
        | "llvm.intr.vector.reduce.xor"
        | "llvm.intr.vector.reduce.smax"
        | "llvm.intr.vector.reduce.smin"
        | "llvm.intr.vector.reduce.umax"
        | "llvm.intr.vector.reduce.umin" => s(&[One(LlvmIntVector)], LLVM1, &[SameElemAll]),
        "llvm.intr.vector.reduce.fmax"
        | "llvm.intr.vector.reduce.fmin"
        | "llvm.intr.vector.reduce.fmaximum"
        | "llvm.intr.vector.reduce.fminimum" => s(&[One(LlvmFloatVector)], LLVM1, &[SameElemAll]),
        "llvm.intr.vector.reduce.fadd" | "llvm.intr.vector.reduce.fmul" => {
            s(&[One(LlvmFloat), One(LlvmFloatVector)], LLVM1, &[SameElemAll])
        }
        // The elementwise intrinsics: one type throughout.
        "llvm.intr.fabs"
        | "llvm.intr.floor"
        | "llvm.intr.ceil"
        | "llvm.intr.round"
        | "llvm.intr.roundeven"
        | "llvm.intr.trunc"
        | "llvm.intr.sqrt"
        | "llvm.intr.copysign"
        | "llvm.intr.minnum"
        | "llvm.intr.maxnum"
        | "llvm.intr.minimum"
        | "llvm.intr.maximum"
        | "llvm.intr.fma"
        | "llvm.intr.fmuladd"
        | "llvm.intr.smax"
        | "llvm.intr.smin"
        | "llvm.intr.umax"
        | "llvm.intr.umin"
        | "llvm.intr.ctpop"
        | "llvm.intr.ctlz"
        | "llvm.intr.cttz"
        | "llvm.intr.bitreverse"
        | "llvm.intr.bswap"
        | "llvm.intr.fshl"
        | "llvm.intr.fshr"
        | "llvm.intr.exp"
        | "llvm.intr.exp2"
        | "llvm.intr.log"
        | "llvm.intr.log2"
        | "llvm.intr.log10"
        | "llvm.intr.sin"
        | "llvm.intr.cos"
        | "llvm.intr.pow"
        | "llvm.intr.rint"
        | "llvm.intr.nearbyint"
        | "llvm.intr.sadd.sat"
        | "llvm.intr.uadd.sat"
        | "llvm.intr.ssub.sat"
        | "llvm.intr.usub.sat" => s(&[Many(LlvmType)], LLVM1, &[SameAll]),
        "llvm.intr.sadd.with.overflow"
        | "llvm.intr.uadd.with.overflow"
        | "llvm.intr.ssub.with.overflow"
        | "llvm.intr.usub.with.overflow"
        | "llvm.intr.smul.with.overflow"
        | "llvm.intr.umul.with.overflow" => s(&[Many(LlvmType)], LLVM1, &[SameElemOperands]),
        _ if name.starts_with("llvm.intr.") => s(&[], LLVM1, &[]),
        _ => s(&[], &[], &[]),
    }
}

/// Where each ODS value of `ns` starts among `n` values, and how many it
/// has: by `segments` when given, else the one variadic or optional takes
/// what the single ones leave. `None` when the count cannot be split (a
/// count rule reports it).
fn layout(ns: &[N], n: usize, segments: Option<&[usize]>) -> Option<Vec<std::ops::Range<usize>>> {
    let sizes: Vec<usize> = match segments {
        Some(seg) if seg.len() == ns.len() => seg.to_vec(),
        _ => {
            let single = ns.iter().filter(|x| matches!(x, N::One(_))).count();
            let multi = ns.len() - single;
            if multi > 1 || n < single || (multi == 0 && n != single) {
                return None;
            }
            ns.iter().map(|x| if matches!(x, N::One(_)) { 1 } else { n - single }).collect()
        }
    };
    let mut at = 0usize;
    let mut out = Vec::new();
    for k in sizes {
        out.push(at..at.checked_add(k)?);
        at = at.checked_add(k)?;
    }
    (at == n).then_some(out)
}

impl Verifier<'_> {
    /// The first operand or result of `op` that breaks its type constraint,
    /// then the first trait relating their types that fails, as mlir-opt
    /// words them.
    pub(super) fn value_types(&self, op: OpId, kind: OpKind) -> VResult {
        let sig = sig(kind);
        let m = self.m;
        let operands: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
        let results: Vec<TypeId> = m.results(op).map(|v| m.type_of(v)).collect();
        let segs: Option<Vec<usize>> =
            self.ints(op, "operandSegmentSizes").and_then(|v| v.iter().map(|x| usize::try_from(*x).ok()).collect());
        let opnd_at = layout(sig.operands, operands.len(), segs.as_deref());
        let res_at = layout(sig.results, results.len(), None);
        for (what, ns, tys, at) in
            [("operand", sig.operands, &operands, &opnd_at), ("result", sig.results, &results, &res_at)]
        {
            let Some(at) = at else { continue };
            for (n, r) in ns.iter().zip(at) {
                let (is, many) = match *n {
                    N::One(is) | N::Opt(is) => (is, ""),
                    N::Many(is) => (is, "variadic of "),
                };
                for i in r.clone() {
                    if !is.holds(&m.ctx, tys[i]) {
                        let t = self.ty(tys[i]);
                        return self.op_err(op, format!("{what} #{i} must be {many}{}, but got '{t}'", is.words()));
                    }
                }
            }
        }
        let value = |v: V| -> Option<TypeId> {
            match v {
                V::Opnd(k) => opnd_at.as_ref()?.get(k).filter(|r| r.len() == 1).map(|r| operands[r.start]),
                V::Res(k) => results.get(k).copied(),
            }
        };
        let elem =
            |t: TypeId| m.ctx.type_kind(t).elem().filter(|_| !matches!(m.ctx.type_kind(t), TypeKind::Complex(_)));
        let elem_or_self = |t: TypeId| elem(t).unwrap_or(t);
        let all = || operands.iter().chain(&results).copied();
        let differ = |ts: &mut dyn Iterator<Item = TypeId>| {
            let v: Vec<TypeId> = ts.collect();
            v.windows(2).any(|w| w[0] != w[1])
        };
        // Every value of `vs` is there, and their types (or element types) differ.
        let mismatch = |vs: &[V], f: &dyn Fn(TypeId) -> TypeId| {
            let ts: Option<Vec<TypeId>> = vs.iter().map(|v| value(*v).map(f)).collect();
            ts.is_some_and(|ts| ts.windows(2).any(|w| w[0] != w[1]))
        };
        for rule in sig.rules {
            let msg = match *rule {
                Rule::SameAll if differ(&mut all()) => "requires the same type for all operands and results".into(),
                Rule::SameOperands if differ(&mut operands.iter().copied()) => {
                    "requires all operands to have the same type".into()
                }
                Rule::SameElemAll if differ(&mut all().map(elem_or_self)) => {
                    "requires the same element type for all operands and results".into()
                }
                Rule::SameElemOperands if differ(&mut operands.iter().copied().map(elem_or_self)) => {
                    "requires the same element type for all operands".into()
                }
                Rule::AllMatch(vs, names) if mismatch(vs, &|t| t) => {
                    format!("failed to verify that all of {names} have same type")
                }
                Rule::SameElem(vs, words) if mismatch(vs, &elem_or_self) => format!("failed to verify that {words}"),
                Rule::OperandsElemOf(v, words) => match value(v).and_then(elem) {
                    Some(e) if operands.iter().any(|t| *t != e) => format!("failed to verify that {words}"),
                    _ => continue,
                },
                Rule::Match(a, b, words) => match (value(a), value(b)) {
                    (Some(x), Some(y)) if x != y => format!("failed to verify that {words}"),
                    _ => continue,
                },
                Rule::ElemOf(a, b, words) => match (value(a), value(b).and_then(elem)) {
                    (Some(x), Some(y)) if x != y => format!("failed to verify that {words}"),
                    _ => continue,
                },
                Rule::I1Shape(a, r) => {
                    let (Some(a), Some(r)) = (value(a), value(r)) else { continue };
                    let (ka, kr) = (m.ctx.type_kind(a), m.ctx.type_kind(r));
                    let same_shape = match (ka, kr) {
                        (
                            TypeKind::Vector { shape: s1, scalable: c1, .. },
                            TypeKind::Vector { shape: s2, scalable: c2, .. },
                        ) => s1 == s2 && c1 == c2,
                        (TypeKind::RankedTensor { shape: s1, .. }, TypeKind::RankedTensor { shape: s2, .. }) => {
                            s1 == s2
                        }
                        (TypeKind::UnrankedTensor { .. }, TypeKind::UnrankedTensor { .. }) => true,
                        (x, y) => x.elem().is_none() && y.elem().is_none(),
                    };
                    if same_shape && m.ctx.type_kind(elem_or_self(r)).is_signless_int(1) {
                        continue;
                    }
                    "failed to verify that result type has i1 element type and same shape as operands".into()
                }
                _ => continue,
            };
            return self.op_err(op, msg);
        }
        Ok(())
    }
}
