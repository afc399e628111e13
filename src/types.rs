//! Builtin and dialect types. Types are hash-consed in a [`crate::ir::Context`],
//! so a [`TypeId`] compares equal exactly when the types are equal.

use crate::attrs::AttrId;
use crate::ident::Ident;

/// An interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// The signedness of an integer type (`i8`, `si8`, `ui8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`: bits without a sign; ops decide.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

macro_rules! float_kinds {
    ($($v:ident = $name:literal, $bits:literal;)*) => {
        /// Every builtin floating-point format.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum FloatKind { $(#[doc = $name] $v,)* }

        impl FloatKind {
            /// All formats, in declaration order.
            pub const ALL: &'static [FloatKind] = &[$(FloatKind::$v,)*];

            /// The keyword of the type (`f32`, `f8E4M3FN`, ...).
            pub fn name(self) -> &'static str {
                match self { $(FloatKind::$v => $name,)* }
            }

            /// The storage width in bits.
            #[inline(always)]
            pub fn bit_width(self) -> u32 {
                match self { $(FloatKind::$v => $bits,)* }
            }

            /// The format named by keyword `s`.
            pub fn from_name(s: &str) -> Option<FloatKind> {
                match s { $($name => Some(FloatKind::$v),)* _ => None }
            }
        }
    };
}

float_kinds! {
    F4E2M1FN = "f4E2M1FN", 4;
    F6E2M3FN = "f6E2M3FN", 6;
    F6E3M2FN = "f6E3M2FN", 6;
    F8E5M2 = "f8E5M2", 8;
    F8E4M3 = "f8E4M3", 8;
    F8E4M3FN = "f8E4M3FN", 8;
    F8E5M2FNUZ = "f8E5M2FNUZ", 8;
    F8E4M3FNUZ = "f8E4M3FNUZ", 8;
    F8E4M3B11FNUZ = "f8E4M3B11FNUZ", 8;
    F8E3M4 = "f8E3M4", 8;
    F8E8M0FNU = "f8E8M0FNU", 8;
    BF16 = "bf16", 16;
    F16 = "f16", 16;
    TF32 = "tf32", 19;
    F32 = "f32", 32;
    F64 = "f64", 64;
    F80 = "f80", 80;
    F128 = "f128", 128;
}

/// The marker MLIR uses for a dynamic size, stride or offset (`?`).
pub const DYNAMIC: i64 = i64::MIN;

/// The element count of a static shape; `None` when a dimension is
/// dynamic or negative, or the product overflows `i64`.
pub fn num_elements(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |acc, d| if *d < 0 { None } else { acc.checked_mul(*d) })
}

/// The structure of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// `iN`, `siN`, `uiN` with 1 <= N <= 16777215.
    Integer {
        /// Number of bits.
        width: u32,
        /// Signless, signed or unsigned.
        signedness: Signedness,
    },
    /// `index`.
    Index,
    /// A float format.
    Float(FloatKind),
    /// `none`.
    None,
    /// `complex<T>`.
    Complex(TypeId),
    /// `vector<[4]x8xT>`: `scalable[i]` marks `[n]` dims.
    Vector {
        /// Static sizes.
        shape: Vec<i64>,
        /// Which dims are scalable.
        scalable: Vec<bool>,
        /// Element type.
        elem: TypeId,
    },
    /// `tensor<?x4xT, #enc>`.
    RankedTensor {
        /// Sizes; [`DYNAMIC`] for `?`.
        shape: Vec<i64>,
        /// Element type.
        elem: TypeId,
        /// Optional encoding attribute.
        encoding: Option<AttrId>,
    },
    /// `tensor<*xT>`.
    UnrankedTensor {
        /// Element type.
        elem: TypeId,
    },
    /// `memref<4x?xT, layout, space>`.
    MemRef {
        /// Sizes; [`DYNAMIC`] for `?`.
        shape: Vec<i64>,
        /// Element type.
        elem: TypeId,
        /// Layout (a strided or affine-map attribute); `None` is the identity.
        layout: Option<AttrId>,
        /// Memory space attribute.
        space: Option<AttrId>,
    },
    /// `memref<*xT, space>`.
    UnrankedMemRef {
        /// Element type.
        elem: TypeId,
        /// Memory space attribute.
        space: Option<AttrId>,
    },
    /// `tuple<...>`.
    Tuple(Vec<TypeId>),
    /// `(inputs) -> results`.
    Function {
        /// Argument types.
        inputs: Vec<TypeId>,
        /// Result types.
        results: Vec<TypeId>,
    },
    /// `!llvm.ptr` or `!llvm.ptr<N>`: an opaque pointer into address space N.
    LlvmPtr(u32),
    /// `!llvm.array<N x T>`.
    LlvmArray {
        /// Number of elements.
        len: u64,
        /// Element type.
        elem: TypeId,
    },
    /// `!llvm.struct<"name", packed (T, ..)>` and its literal, opaque and
    /// self-referencing forms.
    LlvmStruct {
        /// The name of an identified struct; `None` for a literal one.
        name: Option<Box<str>>,
        /// `packed`: no padding between fields, alignment 1.
        packed: bool,
        /// The fields, or why there are none.
        body: LlvmStructBody,
    },
    /// `!llvm.void`: the result of a function returning nothing.
    LlvmVoid,
    /// `!llvm.func<R (T, .., ...)>`.
    LlvmFunc {
        /// Result type (`!llvm.void` for none).
        ret: TypeId,
        /// Parameter types.
        params: Vec<TypeId>,
        /// Trailing `...`.
        vararg: bool,
    },
    /// `!dialect<"data">`, `!dialect.name<body>` or `!dialect.name`: kept as text.
    Dialect {
        /// Dialect namespace.
        dialect: Ident,
        /// Everything after the namespace, verbatim (`.ptr`, `<"x">`, `.foo<3>`).
        body: Box<str>,
    },
}

/// What an `!llvm.struct` holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LlvmStructBody {
    /// `(T, ..)`.
    Fields(Vec<TypeId>),
    /// `opaque`: an identified struct whose body is not known.
    Opaque,
    /// `struct<"name">` inside the body of struct `name`: a reference back
    /// to the struct being defined.
    Recursive,
}

impl TypeKind {
    /// The shape of a shaped type with a rank.
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } | TypeKind::MemRef { shape, .. } => {
                Some(shape)
            }
            _ => None,
        }
    }

    /// The element type of a shaped or complex type.
    pub fn elem(&self) -> Option<TypeId> {
        match self {
            TypeKind::Vector { elem, .. }
            | TypeKind::RankedTensor { elem, .. }
            | TypeKind::UnrankedTensor { elem }
            | TypeKind::MemRef { elem, .. }
            | TypeKind::UnrankedMemRef { elem, .. }
            | TypeKind::Complex(elem) => Some(*elem),
            _ => None,
        }
    }

    /// True for the types of the llvm dialect that have a structure here
    /// (pointers, arrays, structs, void, functions).
    pub fn is_llvm(&self) -> bool {
        matches!(
            self,
            TypeKind::LlvmPtr(_)
                | TypeKind::LlvmArray { .. }
                | TypeKind::LlvmStruct { .. }
                | TypeKind::LlvmVoid
                | TypeKind::LlvmFunc { .. }
        )
    }

    /// True for integer types of any signedness.
    pub fn is_integer(&self) -> bool {
        matches!(self, TypeKind::Integer { .. })
    }

    /// True for `iN` (signless) with the given width.
    pub fn is_signless_int(&self, w: u32) -> bool {
        matches!(self, TypeKind::Integer { width, signedness: Signedness::Signless } if *width == w)
    }
}
