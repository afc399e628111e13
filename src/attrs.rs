//! Builtin attributes, locations and dialect attributes. Attributes are
//! hash-consed in a [`crate::ir::Context`] like types, because types contain
//! attributes (layouts, encodings) and type equality must be structural.

use crate::affine::{AffineMap, IntegerSet};
use crate::ident::Ident;
use crate::types::TypeId;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// An interned attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrId(pub u32);

/// An integer of any size: inline when it fits in `i128`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntVal {
    /// Fits in 128 bits.
    Small(i128),
    /// Does not fit in 128 bits.
    Big(Box<BigInt>),
}

impl IntVal {
    /// Normalises a big integer to the inline form when it fits.
    pub fn from_big(b: BigInt) -> IntVal {
        match b.to_i128() {
            Some(v) => IntVal::Small(v),
            None => IntVal::Big(Box::new(b)),
        }
    }

    /// The value as a big integer.
    pub fn to_big(&self) -> BigInt {
        match self {
            IntVal::Small(v) => BigInt::from(*v),
            IntVal::Big(b) => (**b).clone(),
        }
    }

    /// The value if it fits in `i64`.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            IntVal::Small(v) => i64::try_from(*v).ok(),
            IntVal::Big(_) => None,
        }
    }
}

impl std::fmt::Display for IntVal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntVal::Small(v) => write!(f, "{v}"),
            IntVal::Big(b) => write!(f, "{b}"),
        }
    }
}

/// A float literal as written: decimal text (rounded to the type exactly by
/// the float layer, never through a host float) or a hex bit pattern.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatLit {
    /// Decimal spelling with optional leading `-`, e.g. `-1.5e-3` or `7`.
    Decimal(Box<str>),
    /// The raw bits, from a `0x...` literal.
    Bits(u128),
}

/// The element values of a `dense<...>` attribute, flattened in row-major
/// order; complex elements take two slots (real, imaginary).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DenseValues {
    /// Integer (and `i1`/bool) elements.
    Ints(Vec<IntVal>),
    /// Float elements.
    Floats(Vec<FloatLit>),
    /// String elements (for dialect element types).
    Strings(Vec<Box<[u8]>>),
    /// A raw little-endian blob from a hex string.
    Hex(Box<[u8]>),
}

/// A source location attribute (`loc(...)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// `unknown`.
    Unknown,
    /// `"file":line:col`, optionally a range `to line:col`.
    File {
        /// File name.
        file: Box<[u8]>,
        /// Start line.
        line: u32,
        /// Start column.
        col: u32,
        /// End line and column of a range.
        end: Option<(Option<u32>, u32)>,
    },
    /// `"name"` or `"name"(child)`.
    Name {
        /// The name.
        name: Box<[u8]>,
        /// The nested location.
        child: Option<AttrId>,
    },
    /// `callsite(callee at caller)`.
    CallSite {
        /// Where the callee is.
        callee: AttrId,
        /// Where it was called from.
        caller: AttrId,
    },
    /// `fused<meta>[locs]`.
    Fused {
        /// Optional metadata attribute.
        metadata: Option<AttrId>,
        /// The fused locations.
        locs: Vec<AttrId>,
    },
}

/// The structure of an attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// `unit`.
    Unit,
    /// `true` / `false`.
    Bool(bool),
    /// `42 : i32`; the value is canonical for the type (signed for signless
    /// and signed types, non-negative for unsigned ones, in range).
    Integer {
        /// The value.
        value: IntVal,
        /// Integer or index type.
        ty: TypeId,
    },
    /// `1.5 : f32`.
    Float {
        /// The literal.
        value: FloatLit,
        /// Float type.
        ty: TypeId,
    },
    /// `"text"` with optional `: type`.
    String {
        /// The decoded bytes.
        value: Box<[u8]>,
        /// Optional type.
        ty: Option<TypeId>,
    },
    /// A type used as an attribute.
    Type(TypeId),
    /// `[a, b]`.
    Array(Vec<AttrId>),
    /// `{a = 1, b}`; names in source order.
    Dict(Vec<(Ident, AttrId)>),
    /// `@a::@b::@c`.
    SymbolRef {
        /// Root symbol.
        root: Box<[u8]>,
        /// Nested references.
        nested: Vec<Box<[u8]>>,
    },
    /// `affine_map<...>`.
    AffineMap(AffineMap),
    /// `affine_set<...>`.
    IntegerSet(IntegerSet),
    /// `dense<...> : type`.
    Dense {
        /// Shaped type.
        ty: TypeId,
        /// True when one value stands for all elements.
        splat: bool,
        /// The values.
        values: DenseValues,
    },
    /// `dense_resource<name> : type`.
    DenseResource {
        /// Resource key in the `builtin` resource dictionary.
        handle: Box<[u8]>,
        /// Shaped type.
        ty: TypeId,
    },
    /// `array<i32: 1, 2>`.
    DenseArray {
        /// Element type.
        elem: TypeId,
        /// Values (ints or floats).
        values: DenseValues,
    },
    /// `sparse<indices, values> : type`.
    Sparse {
        /// Shaped type.
        ty: TypeId,
        /// Dense i64 attribute of indices.
        indices: AttrId,
        /// Dense attribute of values.
        values: AttrId,
    },
    /// `strided<[s..], offset: o>`.
    Strided {
        /// Strides; [`crate::types::DYNAMIC`] for `?`.
        strides: Vec<i64>,
        /// Offset; [`crate::types::DYNAMIC`] for `?`.
        offset: i64,
    },
    /// `loc(...)`.
    Location(Location),
    /// `distinct[id]<attr>`: a unique wrapper around `attr`.
    Distinct {
        /// The id written in the source, unique per distinct attribute.
        id: u64,
        /// The wrapped attribute.
        inner: AttrId,
    },
    /// `#sparse_tensor.encoding<{..}>`, structured.
    SparseEncoding(Box<crate::sparse::SparseEncoding>),
    /// `#dialect<"...">`, `#dialect.name<body>`, `#dialect.name`: kept as text.
    Dialect {
        /// Dialect namespace.
        dialect: Ident,
        /// Everything after the namespace, verbatim.
        body: Box<str>,
    },
}

/// The integers of an array of integer arrays (`[[0, 1], [2]]`, the
/// `reassociation` of the reshape ops), if `a` is one whose integers all
/// fit `i64`.
pub fn int_arrays(ctx: &crate::ir::Context, a: AttrId) -> Option<Vec<Vec<i64>>> {
    let Attribute::Array(groups) = ctx.attr_kind(a) else { return None };
    groups
        .iter()
        .map(|g| match ctx.attr_kind(*g) {
            Attribute::Array(items) => items
                .iter()
                .map(|x| match ctx.attr_kind(*x) {
                    Attribute::Integer { value, .. } => value.to_i64(),
                    _ => None,
                })
                .collect(),
            _ => None,
        })
        .collect()
}
