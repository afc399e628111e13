//! What each property of a generic op's `<{...}>` must be stored as.
//! mlir-opt converts that dictionary into the op's typed property storage
//! when it builds the op (`setPropertiesFromAttr`), so a property of the
//! wrong attribute class is a parse error at the op, reported before any
//! verifier runs: `invalid properties {..} for op NAME: Invalid attribute
//! `KEY` in property conversion: VALUE`. What the storage accepts is only
//! the attribute's class (an `ArrayAttr` for `steps`, whatever it holds);
//! the ODS constraint on its contents is the verifier's.

use crate::attrs::{AttrId, Attribute, DenseValues};
use crate::ident::Ident;
use crate::ir::Context;
use crate::ops::{DialectOp, OpKind};

/// The attribute class a property is stored as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Storage {
    /// `AffineMapAttr`.
    AffineMap,
    /// `IntegerSetAttr`.
    IntegerSet,
    /// `IntegerAttr` (any integer type).
    Int,
    /// An integer enum stored as `IntegerAttr`: its value must be a case,
    /// `0..cases`.
    IntEnum(u64),
    /// `DenseI64ArrayAttr`.
    DenseI64,
    /// `DenseI32ArrayAttr`.
    DenseI32,
    /// `ArrayAttr`.
    Array,
    /// `DenseIntElementsAttr`.
    DenseInts,
    /// A dialect enum attribute, `#dialect` + the body's prefix
    /// (`#arith.fastmath<..>`: `("arith", ".fastmath<")`).
    Enum(&'static str, &'static str),
    /// `FlatSymbolRefAttr`.
    FlatSymbol,
    /// `StringAttr`.
    Str,
    /// `TypeAttr`.
    Type,
    /// `UnitAttr`.
    Unit,
    /// `TypedAttr`: anything with a type (`arith.constant`'s `value`).
    Typed,
    /// `operandSegmentSizes` of this many segments: a `DenseI32ArrayAttr`,
    /// with its own message.
    Segments(u8),
    /// `llvm.getelementptr`'s `noWrapFlags`: an integer, with its own message.
    GepFlags,
}

use Storage::*;

/// The affine ops whose one map is their `map` attribute.
pub(crate) const MAP_OPS: &[&str] = &[
    "affine.apply",
    "affine.min",
    "affine.max",
    "affine.load",
    "affine.store",
    "affine.vector_load",
    "affine.vector_store",
    "affine.prefetch",
];

/// The properties of `kind` ops that conversion checks, with their storage.
fn storage(kind: OpKind) -> &'static [(&'static str, Storage)] {
    const SLICE: &[(&str, Storage)] = &[
        ("operandSegmentSizes", Segments(4)),
        ("static_offsets", DenseI64),
        ("static_sizes", DenseI64),
        ("static_strides", DenseI64),
    ];
    const INSERT_SLICE: &[(&str, Storage)] = &[
        ("operandSegmentSizes", Segments(5)),
        ("static_offsets", DenseI64),
        ("static_sizes", DenseI64),
        ("static_strides", DenseI64),
    ];
    const ARITH_FLAGS: &[(&str, Storage)] =
        &[("fastmath", Enum("arith", ".fastmath<")), ("overflowFlags", Enum("arith", ".overflow<"))];
    const MAP: &[(&str, Storage)] = &[("map", AffineMap)];
    const RESHAPE: &[(&str, Storage)] = &[("reassociation", Array), ("static_output_shape", DenseI64)];
    const KIND: &[(&str, Storage)] = &[("kind", Enum("vector", ".kind<"))];
    match kind.name() {
        n if MAP_OPS.contains(&n) => MAP,
        "affine.for" => &[
            ("lowerBoundMap", AffineMap),
            ("operandSegmentSizes", Segments(3)),
            ("step", Int),
            ("upperBoundMap", AffineMap),
        ],
        "affine.parallel" => &[
            ("lowerBoundsGroups", DenseInts),
            ("lowerBoundsMap", AffineMap),
            ("reductions", Array),
            ("steps", Array),
            ("upperBoundsGroups", DenseInts),
            ("upperBoundsMap", AffineMap),
        ],
        "affine.if" => &[("condition", IntegerSet)],
        "affine.linearize_index" => &[("operandSegmentSizes", Segments(2)), ("static_basis", DenseI64)],
        "affine.delinearize_index" => &[("static_basis", DenseI64)],
        "arith.cmpi" => &[("predicate", IntEnum(10))],
        "arith.cmpf" => &[("fastmath", Enum("arith", ".fastmath<")), ("predicate", IntEnum(16))],
        "arith.constant" => &[("value", Typed)],
        "index.cmp" => &[("pred", Enum("index", "<cmp_predicate "))],
        "memref.subview" | "memref.reinterpret_cast" | "tensor.extract_slice" => SLICE,
        "tensor.insert_slice" | "tensor.parallel_insert_slice" => INSERT_SLICE,
        "memref.expand_shape" | "tensor.expand_shape" => RESHAPE,
        "memref.collapse_shape" | "tensor.collapse_shape" => &RESHAPE[..1],
        "memref.alloc" | "memref.alloca" => &[("alignment", Int), ("operandSegmentSizes", Segments(2))],
        "memref.get_global" => &[("name", FlatSymbol)],
        "memref.global" => &[("alignment", Int), ("constant", Unit), ("sym_name", Str), ("type", Type)],
        "memref.transpose" => &[("permutation", AffineMap)],
        "bufferization.alloc_tensor" | "bufferization.dealloc" | "cf.cond_br" | "llvm.cond_br" => {
            &[("operandSegmentSizes", Segments(3))]
        }
        "scf.parallel" => &SLICE[..1],
        "linalg.pack" => &[
            ("inner_dims_pos", DenseI64),
            ("operandSegmentSizes", Segments(4)),
            ("outer_dims_perm", DenseI64),
            ("static_inner_tiles", DenseI64),
        ],
        "linalg.unpack" => {
            &[("inner_dims_pos", DenseI64), ("outer_dims_perm", DenseI64), ("static_inner_tiles", DenseI64)]
        }
        "scf.forall" => &[
            ("operandSegmentSizes", Segments(4)),
            ("staticLowerBound", DenseI64),
            ("staticStep", DenseI64),
            ("staticUpperBound", DenseI64),
        ],
        "tensor.gather" => &[("gather_dims", DenseI64)],
        "tensor.scatter" => &[("scatter_dims", DenseI64)],
        "tensor.pad" => &[("operandSegmentSizes", Segments(3)), ("static_high", DenseI64), ("static_low", DenseI64)],
        "tensor.concat" => &[("dim", Int)],
        "vector.transfer_read" | "vector.transfer_write" => {
            &[("in_bounds", Array), ("operandSegmentSizes", Segments(4)), ("permutation_map", AffineMap)]
        }
        "vector.transpose" => &[("permutation", DenseI64)],
        "vector.shuffle" => &[("mask", DenseI64)],
        "vector.insert" | "vector.extract" => &[("static_position", DenseI64)],
        "vector.constant_mask" => &[("mask_dim_sizes", DenseI64)],
        "vector.scalable.insert" | "vector.scalable.extract" => &[("pos", Int)],
        "vector.extract_strided_slice" => &[("offsets", Array), ("sizes", Array), ("strides", Array)],
        "vector.insert_strided_slice" => &[("offsets", Array), ("strides", Array)],
        "vector.print" => &[("punctuation", Enum("vector", ".punctuation<"))],
        "vector.reduction" => KIND,
        "vector.multi_reduction" => &[("kind", Enum("vector", ".kind<")), ("reduction_dims", DenseI64)],
        "vector.contract" => &[("indexing_maps", Array), ("iterator_types", Array), ("kind", Enum("vector", ".kind<"))],
        "func.call" => &[("callee", FlatSymbol)],
        "func.func" => &[("function_type", Type), ("sym_name", Str)],
        "llvm.call" => &[
            ("CConv", Enum("llvm", ".cconv<")),
            ("TailCallKind", Enum("llvm", ".tailcallkind<")),
            ("callee", FlatSymbol),
            ("fastmathFlags", Enum("llvm", ".fastmath<")),
            ("op_bundle_sizes", DenseI32),
            ("operandSegmentSizes", Segments(2)),
        ],
        "llvm.func" => &[
            ("CConv", Enum("llvm", ".cconv<")),
            ("function_type", Type),
            ("linkage", Enum("llvm", ".linkage<")),
            ("sym_name", Str),
            ("unnamed_addr", Int),
            ("visibility_", Int),
        ],
        "llvm.mlir.global" => &[
            ("addr_space", Int),
            ("global_type", Type),
            ("linkage", Enum("llvm", ".linkage<")),
            ("sym_name", Str),
            ("unnamed_addr", Int),
            ("visibility_", Int),
        ],
        "llvm.mlir.addressof" => &[("global_name", FlatSymbol)],
        "llvm.getelementptr" => &[("elem_type", Type), ("noWrapFlags", GepFlags)],
        "llvm.load" | "llvm.store" => &[("alignment", Int), ("ordering", Int)],
        "llvm.intr.masked.load" | "llvm.intr.masked.store" | "llvm.intr.masked.gather" | "llvm.intr.masked.scatter" => {
            &[("alignment", Int)]
        }
        "llvm.alloca" => &[("alignment", Int), ("elem_type", Type)],
        "llvm.icmp" => &[("predicate", IntEnum(10))],
        "llvm.fcmp" => &[("predicate", IntEnum(16))],
        "llvm.shufflevector" => &[("mask", DenseI32)],
        "llvm.atomicrmw" => &[("alignment", Int), ("bin_op", Int)],
        "llvm.cmpxchg" => &[("alignment", Int), ("failure_ordering", Int), ("success_ordering", Int)],
        "llvm.intr.is.fpclass" => &[("bit", Int)],
        "linalg.generic" => {
            &[("indexing_maps", Array), ("iterator_types", Array), ("operandSegmentSizes", Segments(2))]
        }
        _ => match kind.dialect_op() {
            DialectOp::Linalg(o) if crate::linalg::segmented(o) || o.kind().fmt() == crate::ops::Fmt::LinalgOpDsl => {
                &[("operandSegmentSizes", Segments(2))]
            }
            DialectOp::Arith(_) | DialectOp::Math(_) => ARITH_FLAGS,
            _ => &[],
        },
    }
}

impl Storage {
    /// True when `a` converts into this storage.
    fn converts(self, ctx: &Context, a: AttrId) -> bool {
        match (self, ctx.attr_kind(a)) {
            (AffineMap, Attribute::AffineMap(_)) | (IntegerSet, Attribute::IntegerSet(_)) => true,
            (Int | GepFlags, Attribute::Integer { .. } | Attribute::Bool(_)) => true,
            (IntEnum(cases), Attribute::Integer { value, .. }) => {
                value.to_i64().is_some_and(|v| (0..cases as i64).contains(&v))
            }
            (DenseI64, Attribute::DenseArray { elem, values: DenseValues::Ints(_) }) => {
                ctx.type_kind(*elem).is_signless_int(64)
            }
            (DenseI32 | Segments(_), Attribute::DenseArray { elem, values: DenseValues::Ints(_) }) => {
                ctx.type_kind(*elem).is_signless_int(32)
            }
            (Array, Attribute::Array(_)) => true,
            (DenseInts, Attribute::Dense { values: DenseValues::Ints(_), .. }) => true,
            (Enum(dialect, prefix), Attribute::Dialect { dialect: d, body }) => {
                ctx.str(*d) == dialect && body.starts_with(prefix)
            }
            (FlatSymbol, Attribute::SymbolRef { nested, .. }) => nested.is_empty(),
            (Str, Attribute::String { .. }) | (Type, Attribute::Type(_)) | (Unit, Attribute::Unit) => true,
            (
                Typed,
                Attribute::Integer { .. }
                | Attribute::Float { .. }
                | Attribute::Bool(_)
                | Attribute::String { .. }
                | Attribute::Dense { .. }
                | Attribute::DenseResource { .. }
                | Attribute::Sparse { .. }
                | Attribute::Dialect { .. },
            ) => true,
            _ => false,
        }
    }
}

/// The message mlir-opt gives for the first property of `props` (a
/// dictionary) that does not convert into `kind`'s storage, if one does not.
pub(crate) fn conversion_error(ctx: &Context, kind: OpKind, props: AttrId) -> Option<String> {
    let Attribute::Dict(entries) = ctx.attr_kind(props) else { return None };
    let table = storage(kind);
    let (key, storage, value) = entries.iter().find_map(|(k, v)| {
        let key = ctx.str(*k);
        let (_, s) = table.iter().find(|(n, _)| *n == key)?;
        (!s.converts(ctx, *v)).then_some((key, *s, *v))
    })?;
    // mlir-opt prints the dictionary sorted, as its DictionaryAttr keeps it.
    let mut sorted = entries.clone();
    sorted.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    let dict = crate::printer::dict_to_string(ctx, &sorted);
    let why = match storage {
        Segments(_) => "expected DenseI32ArrayAttr for key `value`".to_string(),
        GepFlags => "expected IntegerAttr storage for ::mlir::LLVM::GEPNoWrapFlags".to_string(),
        _ => {
            format!("Invalid attribute `{key}` in property conversion: {}", crate::printer::attr_to_string(ctx, value))
        }
    };
    Some(format!("invalid properties {dict} for op {}: {why}", kind.name()))
}

/// Settles the attribute-dictionary entries of a generic op that also
/// wrote `<{...}>` (`props`) and that are named as one of `kind`'s
/// properties, as mlir-opt does when it builds the op: an entry the
/// properties already hold is dropped, one that converts into the storage
/// becomes a property, and one that does not is dropped too (silently:
/// without `<{...}>` the verifier would reject it instead). Returns the
/// new property dictionary.
pub(crate) fn settle(ctx: &mut Context, kind: OpKind, props: AttrId, attrs: &mut Vec<(Ident, AttrId)>) -> AttrId {
    match settled(ctx, kind, props, attrs) {
        Some((entries, rest)) => {
            *attrs = rest;
            ctx.attr(Attribute::Dict(entries))
        }
        None => props,
    }
}

/// Named attributes, in order.
pub(crate) type Entries = Vec<(Ident, AttrId)>;

/// What [`settle`] makes of `props` and `attrs`, without interning: the
/// property entries and the attributes left, or `None` when it changes
/// nothing. The generic printer prints this, so its output reads back as
/// the same op.
pub(crate) fn settled(
    ctx: &Context,
    kind: OpKind,
    props: AttrId,
    attrs: &[(Ident, AttrId)],
) -> Option<(Entries, Entries)> {
    let table = storage(kind);
    let Attribute::Dict(entries) = ctx.attr_kind(props) else { return None };
    if !attrs.iter().any(|(k, _)| table.iter().any(|(n, _)| *n == ctx.str(*k))) {
        return None;
    }
    let mut entries = entries.clone();
    let mut rest = Vec::new();
    for (k, v) in attrs {
        match table.iter().find(|(n, _)| *n == ctx.str(*k)) {
            None => rest.push((*k, *v)),
            Some((_, s)) if !entries.iter().any(|(n, _)| n == k) && s.converts(ctx, *v) => entries.push((*k, *v)),
            Some(_) => {}
        }
    }
    Some((entries, rest))
}

/// How many operand segments a `kind` op has, for the ops whose
/// `operandSegmentSizes` mlir-opt keeps as a property: one a generic form
/// leaves out is all zeros there.
pub(crate) fn segment_count(kind: OpKind) -> Option<usize> {
    storage(kind).iter().find_map(|(_, s)| match s {
        Segments(n) => Some(usize::from(*n)),
        _ => None,
    })
}
