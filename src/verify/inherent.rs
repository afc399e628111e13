//! ODS constraints on inherent attributes, declared once as data and read
//! by both the parser and the verifier. mlir-opt checks them in two places:
//! an op parsed from its declarative custom form checks the attributes of
//! its attribute dictionary right after parsing it (`verifyInherentAttrs`,
//! reported at the `{`), and every op checks them again when verified
//! (required ones first, then each one's constraint, in name order).

use crate::attrs::{AttrId, Attribute, DenseValues};
use crate::ir::Context;
use crate::ops::OpKind;

/// What an inherent attribute must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Constraint {
    /// `I64Attr`: an integer attribute of type `i64`.
    I64,
    /// `BoolAttr`.
    Bool,
    /// `I64ArrayAttr`: an array of `i64` integer attributes.
    I64Array,
    /// `DenseI64ArrayAttr`: `array<i64: ..>`.
    DenseI64Array,
    /// `Vector_CombiningKindAttr`: `#vector.kind<..>`.
    CombiningKind,
    /// `AffineMapArrayAttr`: an array of affine maps.
    AffineMapArray,
    /// An array of `#vector.iterator_type<..>`.
    IteratorTypes,
    /// `StrAttr`: a string attribute.
    Str,
    /// `MemRefTypeAttr`: a memref type used as an attribute.
    MemRefType,
    /// `IndexAttr`: an integer attribute of type `index`.
    Index,
    /// `RankedI64ElementsAttr<[n]>`: `dense<..> : tensor<nxi64>` (linalg's
    /// `strides` and `dilations`).
    I64Elements(usize),
    /// `AffineMapAttr`.
    AffineMap,
    /// `IntegerSetAttr`.
    IntegerSet,
    /// `FlatSymbolRefAttr`.
    FlatSymbol,
    /// `ArrayAttr`.
    Array,
    /// An array of `I64ArrayAttr`s (`reassociation`).
    I64ArrayArray,
    /// `I32ElementsAttr`: `dense<..> : tensor<nxi32>` (affine.parallel's groups).
    I32Elements,
    /// An `I64EnumAttr` with cases `0..n` (arith's comparison predicates).
    IntCases(u8),
    /// Anything: an attribute whose presence alone is checked here.
    Any,
}

impl Constraint {
    /// The ODS description mlir-opt prints when `a` fails the constraint.
    pub(crate) fn description(self) -> &'static str {
        match self {
            Constraint::I64 => "64-bit signless integer attribute",
            Constraint::Bool => "bool attribute",
            Constraint::I64Array => "64-bit integer array attribute",
            Constraint::DenseI64Array => "i64 dense array attribute",
            Constraint::CombiningKind => "Kind of combining function for contractions and reductions",
            Constraint::AffineMapArray => "AffineMap array attribute",
            Constraint::IteratorTypes => "Iterator type should be an enum.",
            Constraint::Str => "string attribute",
            Constraint::MemRefType => "memref type attribute",
            Constraint::Index => "index attribute",
            Constraint::I64Elements(1) => "64-bit signless int elements attribute of shape [1]",
            Constraint::I64Elements(2) => "64-bit signless int elements attribute of shape [2]",
            Constraint::I64Elements(_) => "64-bit signless int elements attribute of shape [3]",
            Constraint::AffineMap => "AffineMap attribute",
            Constraint::IntegerSet => "IntegerSet attribute",
            Constraint::FlatSymbol => "flat symbol reference attribute",
            Constraint::Array => "array attribute",
            Constraint::I64ArrayArray => "Array of 64-bit integer array attributes",
            Constraint::I32Elements => "32-bit signless integer elements attribute",
            Constraint::IntCases(10) => "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
            Constraint::Any => "attribute",
            Constraint::IntCases(_) => {
                "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15"
            }
        }
    }

    /// True when `a` satisfies the constraint.
    pub(crate) fn holds(self, ctx: &Context, a: AttrId) -> bool {
        let is_i64 = |a: AttrId| matches!(ctx.attr_kind(a), Attribute::Integer { ty, .. } if ctx.type_kind(*ty).is_signless_int(64));
        let vector_enum = |a: AttrId, mnemonic: &str| match ctx.attr_kind(a) {
            // The parser has checked the value and normalised the spelling.
            Attribute::Dialect { dialect, body } => {
                ctx.str(*dialect) == "vector"
                    && body.strip_prefix('.').and_then(|b| b.strip_prefix(mnemonic)).is_some_and(|b| b.starts_with('<'))
            }
            _ => false,
        };
        match self {
            Constraint::I64 => is_i64(a),
            // `BoolAttr` is an `i1` integer attribute; `true` spells one.
            Constraint::Bool => match ctx.attr_kind(a) {
                Attribute::Bool(_) => true,
                Attribute::Integer { ty, .. } => ctx.type_kind(*ty).is_signless_int(1),
                _ => false,
            },
            Constraint::I64Array => matches!(ctx.attr_kind(a), Attribute::Array(v) if v.iter().all(|x| is_i64(*x))),
            Constraint::I64ArrayArray => matches!(
                ctx.attr_kind(a),
                Attribute::Array(v) if v.iter().all(|x| Constraint::I64Array.holds(ctx, *x))
            ),
            Constraint::AffineMap => matches!(ctx.attr_kind(a), Attribute::AffineMap(_)),
            Constraint::IntegerSet => matches!(ctx.attr_kind(a), Attribute::IntegerSet(_)),
            Constraint::FlatSymbol => {
                matches!(ctx.attr_kind(a), Attribute::SymbolRef { nested, .. } if nested.is_empty())
            }
            Constraint::Array => matches!(ctx.attr_kind(a), Attribute::Array(_)),
            Constraint::I32Elements => match ctx.attr_kind(a) {
                Attribute::Dense { ty, values: DenseValues::Ints(_), .. } => {
                    ctx.type_kind(*ty).elem().is_some_and(|e| ctx.type_kind(e).is_signless_int(32))
                }
                _ => false,
            },
            Constraint::Any => true,
            Constraint::IntCases(n) => match ctx.attr_kind(a) {
                Attribute::Integer { value, ty } => {
                    ctx.type_kind(*ty).is_signless_int(64)
                        && value.to_i64().is_some_and(|v| (0..i64::from(n)).contains(&v))
                }
                _ => false,
            },
            Constraint::DenseI64Array => matches!(
                ctx.attr_kind(a),
                Attribute::DenseArray { elem, values: DenseValues::Ints(_) } if ctx.type_kind(*elem).is_signless_int(64)
            ),
            Constraint::CombiningKind => vector_enum(a, "kind"),
            Constraint::AffineMapArray => matches!(
                ctx.attr_kind(a),
                Attribute::Array(v) if v.iter().all(|x| matches!(ctx.attr_kind(*x), Attribute::AffineMap(_)))
            ),
            Constraint::IteratorTypes => {
                matches!(ctx.attr_kind(a), Attribute::Array(v) if v.iter().all(|x| vector_enum(*x, "iterator_type")))
            }
            Constraint::Index => matches!(
                ctx.attr_kind(a),
                Attribute::Integer { ty, .. } if matches!(ctx.type_kind(*ty), crate::types::TypeKind::Index)
            ),
            Constraint::Str => matches!(ctx.attr_kind(a), Attribute::String { ty: None, .. }),
            Constraint::MemRefType => matches!(
                ctx.attr_kind(a),
                Attribute::Type(t) if matches!(ctx.type_kind(*t), crate::types::TypeKind::MemRef { .. })
            ),
            Constraint::I64Elements(n) => match ctx.attr_kind(a) {
                Attribute::Dense { ty, values: DenseValues::Ints(_), .. } => match ctx.type_kind(*ty) {
                    // Any shaped type: mlir-opt prints the lowering's
                    // `dense<1> : vector<2xi64>` this way.
                    crate::types::TypeKind::RankedTensor { shape, elem, .. }
                    | crate::types::TypeKind::Vector { shape, elem, .. } => {
                        shape[..] == [n as i64] && ctx.type_kind(*elem).is_signless_int(64)
                    }
                    _ => false,
                },
                _ => false,
            },
        }
    }
}

/// One inherent attribute: name, constraint, and whether it is required.
pub(crate) type Inherent = (&'static str, Constraint, bool);

/// The constrained inherent attributes of `kind`, in name order, and whether
/// its custom form checks them when parsed (ops with a declarative assembly
/// format do; hand-written parsers such as `vector.contract`'s do not).
pub(crate) fn inherent_attrs(kind: OpKind) -> (&'static [Inherent], bool) {
    use Constraint::*;
    match kind {
        OpKind::VectorExtractStridedSlice => {
            (&[("offsets", I64Array, true), ("sizes", I64Array, true), ("strides", I64Array, true)], true)
        }
        OpKind::VectorInsertStridedSlice => (&[("offsets", I64Array, true), ("strides", I64Array, true)], true),
        OpKind::VectorScan => {
            (&[("inclusive", Bool, true), ("kind", CombiningKind, true), ("reduction_dim", I64, true)], true)
        }
        OpKind::VectorReduction => (&[("kind", CombiningKind, true)], true),
        OpKind::VectorMultiReduction => {
            (&[("kind", CombiningKind, true), ("reduction_dims", DenseI64Array, true)], true)
        }
        // `kind` has a default; the op's verifier words its own message.
        OpKind::VectorContract => {
            (&[("indexing_maps", AffineMapArray, true), ("iterator_types", IteratorTypes, true)], false)
        }
        OpKind::IndexConstant => (&[("value", Index, true)], true),
        OpKind::IndexBoolConstant => (&[("value", Bool, true)], true),
        OpKind::TensorConcat => (&[("dim", I64, true)], true),
        OpKind::MemrefGlobal => (&[("sym_name", Str, true), ("type", MemRefType, true)], false),
        k => match by_name(k.name()) {
            Some(list) => (list, false),
            None => linalg_windows(k),
        },
    }
}

/// The required attributes of ops whose hand-written or generic forms can
/// leave them out, by op name.
fn by_name(name: &str) -> Option<&'static [Inherent]> {
    use Constraint::*;
    const MAP: &[Inherent] = &[("map", AffineMap, true)];
    const SLICE: &[Inherent] = &[
        ("static_offsets", DenseI64Array, true),
        ("static_sizes", DenseI64Array, true),
        ("static_strides", DenseI64Array, true),
    ];
    const RESHAPE: &[Inherent] =
        &[("reassociation", I64ArrayArray, true), ("static_output_shape", DenseI64Array, true)];
    Some(match name {
        n if super::properties::MAP_OPS.contains(&n) => MAP,
        "affine.for" => {
            &[("lowerBoundMap", AffineMap, true), ("step", Index, true), ("upperBoundMap", AffineMap, true)]
        }
        "affine.if" => &[("condition", IntegerSet, true)],
        "affine.parallel" => &[
            ("lowerBoundsGroups", I32Elements, true),
            ("lowerBoundsMap", AffineMap, true),
            ("reductions", Array, true),
            ("steps", I64Array, true),
            ("upperBoundsGroups", I32Elements, true),
            ("upperBoundsMap", AffineMap, true),
        ],
        "affine.linearize_index" | "affine.delinearize_index" => &[("static_basis", DenseI64Array, true)],
        "arith.cmpi" => &[("predicate", IntCases(10), true)],
        "arith.cmpf" => &[("predicate", IntCases(16), true)],
        "complex.constant" => &[("value", Array, true)],
        "memref.subview"
        | "memref.reinterpret_cast"
        | "tensor.extract_slice"
        | "tensor.insert_slice"
        | "tensor.parallel_insert_slice" => SLICE,
        "memref.expand_shape" | "tensor.expand_shape" => RESHAPE,
        "memref.collapse_shape" | "tensor.collapse_shape" => &RESHAPE[..1],
        "memref.get_global" => &[("name", FlatSymbol, true)],
        // tosa: the required attributes of LLVM 22's ODS (those with
        // defaults, such as nan_mode, are optional); the engine checks
        // their kinds when it runs.
        "tosa.argmax"
        | "tosa.concat"
        | "tosa.reverse"
        | "tosa.reduce_all"
        | "tosa.reduce_any"
        | "tosa.reduce_max"
        | "tosa.reduce_min"
        | "tosa.reduce_product"
        | "tosa.reduce_sum" => &[("axis", Any, true)],
        "tosa.arithmetic_right_shift" => &[("round", Any, true)],
        "tosa.avg_pool2d" => {
            &[("acc_type", Any, true), ("kernel", Any, true), ("pad", Any, true), ("stride", Any, true)]
        }
        "tosa.max_pool2d" => &[("kernel", Any, true), ("pad", Any, true), ("stride", Any, true)],
        "tosa.clamp" => &[("max_val", Any, true), ("min_val", Any, true)],
        "tosa.const" | "tosa.const_shape" => &[("values", Any, true)],
        "tosa.conv2d" | "tosa.conv3d" | "tosa.depthwise_conv2d" => {
            &[("acc_type", Any, true), ("dilation", Any, true), ("pad", Any, true), ("stride", Any, true)]
        }
        "tosa.transpose_conv2d" => &[("acc_type", Any, true), ("out_pad", Any, true), ("stride", Any, true)],
        "tosa.fft2d" => &[("inverse", Any, true)],
        "tosa.rescale" => &[
            ("input_unsigned", Any, true),
            ("output_unsigned", Any, true),
            ("per_channel", Any, true),
            ("rounding_mode", Any, true),
            ("scale32", Any, true),
        ],
        "tosa.apply_scale" => &[("rounding_mode", Any, true)],
        "tosa.cast_from_block_scaled" | "tosa.cast_to_block_scaled" | "tosa.matmul_t_block_scaled" => {
            &[("block_size", Any, true)]
        }
        "tosa.resize" => &[("mode", Any, true)],
        "tosa.transpose" => &[("perms", Any, true)],
        "tosa.variable" => &[("sym_name", Any, true), ("type", Any, true), ("var_shape", Any, true)],
        "tosa.variable_read" | "tosa.variable_write" => &[("name", Any, true)],
        "tosa.custom" => {
            &[("domain_name", Any, true), ("implementation_attrs", Any, true), ("operator_name", Any, true)]
        }
        "memref.transpose" => &[("permutation", AffineMap, true)],
        "scf.forall" => &[
            ("staticLowerBound", DenseI64Array, true),
            ("staticStep", DenseI64Array, true),
            ("staticUpperBound", DenseI64Array, true),
        ],
        "tensor.gather" => &[("gather_dims", DenseI64Array, true)],
        "tensor.scatter" => &[("scatter_dims", DenseI64Array, true)],
        "tensor.pad" => &[("static_high", DenseI64Array, true), ("static_low", DenseI64Array, true)],
        "vector.transfer_read" | "vector.transfer_write" => {
            &[("in_bounds", Any, true), ("permutation_map", AffineMap, true)]
        }
        "vector.transpose" => &[("permutation", DenseI64Array, true)],
        "vector.shuffle" => &[("mask", DenseI64Array, true)],
        "vector.insert" | "vector.extract" => &[("static_position", DenseI64Array, true)],
        "vector.constant_mask" => &[("mask_dim_sizes", DenseI64Array, true)],
        "llvm.alloca" => &[("alignment", I64, false), ("elem_type", Any, true)],
        "llvm.load" | "llvm.store" | "llvm.cmpxchg" => &[("alignment", I64, false)],
        "llvm.shufflevector" => &[("mask", Any, true)],
        "llvm.atomicrmw" => &[("alignment", I64, false), ("bin_op", Any, true), ("ordering", Any, true)],
        "llvm.call" => &[("op_bundle_sizes", Any, true)],
        "llvm.mlir.global" => &[("linkage", Any, true)],
        "llvm.intr.memcpy" | "llvm.intr.memmove" | "llvm.intr.memset" => &[("isVolatile", Any, true)],
        "func.func" => &[("function_type", Any, true), ("sym_name", Str, true)],
        "index.cmp" => &[("pred", Any, true)],
        "llvm.icmp" | "llvm.fcmp" => &[("predicate", Any, true)],
        "llvm.intr.is.fpclass" => &[("bit", Any, true)],
        _ => return None,
    })
}

/// linalg's convolutions and pooling: `dilations` and `strides`, both with
/// a default.
fn linalg_windows(k: OpKind) -> (&'static [Inherent], bool) {
    use Constraint::*;
    match crate::linalg::opdsl(k).and_then(|d| d.attrs.first()) {
        Some((_, 1)) => (&[("dilations", I64Elements(1), false), ("strides", I64Elements(1), false)], true),
        Some((_, 2)) => (&[("dilations", I64Elements(2), false), ("strides", I64Elements(2), false)], true),
        Some(_) => (&[("dilations", I64Elements(3), false), ("strides", I64Elements(3), false)], true),
        None => (&[], false),
    }
}

/// The first violated constraint among the attributes `attr` finds, as
/// mlir-opt words it after `'<op>' op `; `required` also reports missing
/// required attributes (first, as mlir-opt's verifier does).
pub(crate) fn violation(
    ctx: &Context,
    kind: OpKind,
    required: bool,
    attr: impl Fn(&str) -> Option<AttrId>,
) -> Option<String> {
    let (list, _) = inherent_attrs(kind);
    if required {
        if let Some((name, _, _)) = list.iter().find(|(n, _, req)| *req && attr(n).is_none()) {
            return Some(format!("requires attribute '{name}'"));
        }
    }
    list.iter().find_map(|(name, c, _)| {
        let a = attr(name)?;
        (!c.holds(ctx, a)).then(|| format!("attribute '{name}' failed to satisfy constraint: {}", c.description()))
    })
}
