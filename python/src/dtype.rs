//! MLIR element types as numpy dtypes, both ways. Each element type that
//! numpy or `ml_dtypes` can hold has one dtype, and its bits travel
//! between Python and the library as a *carrier*: the Rust type of the
//! same size whose every bit pattern the library accepts for that element
//! type (`u8` for i1, i4, fp8, fp6 and fp4; `u16` for f16 and bf16; the
//! float and complex types as themselves). An array is viewed as its
//! carrier (`arr.view(carrier)`, no copy), so a memref argument can be
//! lent in place whatever its dtype.

use interp::mlir_ir::types::{FloatKind, Signedness, TypeId, TypeKind};
use interp::mlir_ir::Module;
use pyo3::prelude::*;

/// The Rust type an element's bits travel as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carrier {
    /// One byte: i1, i2, i4, i8, fp8, fp6, fp4.
    U8,
    /// Two bytes: i16, f16, bf16.
    U16,
    /// i32 (the library's `u32` is an integer reading only).
    U32,
    /// i64 and index.
    U64,
    /// f32.
    F32,
    /// f64.
    F64,
    /// complex<f32>.
    C64,
    /// complex<f64>.
    C128,
}

impl Carrier {
    /// The numpy dtype name of the carrier.
    pub fn numpy_name(self) -> &'static str {
        match self {
            Carrier::U8 => "uint8",
            Carrier::U16 => "uint16",
            Carrier::U32 => "uint32",
            Carrier::U64 => "uint64",
            Carrier::F32 => "float32",
            Carrier::F64 => "float64",
            Carrier::C64 => "complex64",
            Carrier::C128 => "complex128",
        }
    }
}

/// An MLIR element type's numpy dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dtype {
    /// The dtype's name (`arr.dtype.name`).
    pub name: &'static str,
    /// `ml_dtypes` defines it (else numpy does).
    pub ml: bool,
    /// How its bits travel.
    pub carrier: Carrier,
    /// An integer type's width below 8 (its bits are the low ones of a byte).
    pub narrow: Option<u32>,
    /// Another dtype an argument may have: the other signedness of an
    /// integer of 8 to 64 bits (the same bits, read either way).
    pub also: Option<&'static str>,
}

const fn np(name: &'static str, carrier: Carrier) -> Dtype {
    Dtype { name, ml: false, carrier, narrow: None, also: None }
}

const fn ml(name: &'static str, carrier: Carrier) -> Dtype {
    Dtype { name, ml: true, carrier, narrow: None, also: None }
}

/// The dtype of integers of `width` bits; `None` where numpy and
/// ml_dtypes have none (i3, i24, i128, ...).
fn int_dtype(width: u32, unsigned: bool) -> Option<Dtype> {
    let (signed, unsigned_name, carrier) = match width {
        1 => return Some(np("bool", Carrier::U8)),
        2 => ("int2", "uint2", Carrier::U8),
        4 => ("int4", "uint4", Carrier::U8),
        8 => ("int8", "uint8", Carrier::U8),
        16 => ("int16", "uint16", Carrier::U16),
        32 => ("int32", "uint32", Carrier::U32),
        64 => ("int64", "uint64", Carrier::U64),
        _ => return None,
    };
    let (name, other) = if unsigned { (unsigned_name, signed) } else { (signed, unsigned_name) };
    Some(if width < 8 {
        Dtype { narrow: Some(width), ..ml(name, carrier) }
    } else {
        Dtype { also: Some(other), ..np(name, carrier) }
    })
}

/// The dtype of a float format; `None` for tf32, f80 and f128.
fn float_dtype(k: FloatKind) -> Option<Dtype> {
    Some(match k {
        FloatKind::F16 => np("float16", Carrier::U16),
        FloatKind::BF16 => ml("bfloat16", Carrier::U16),
        FloatKind::F32 => np("float32", Carrier::F32),
        FloatKind::F64 => np("float64", Carrier::F64),
        FloatKind::F8E5M2 => ml("float8_e5m2", Carrier::U8),
        FloatKind::F8E4M3 => ml("float8_e4m3", Carrier::U8),
        FloatKind::F8E4M3FN => ml("float8_e4m3fn", Carrier::U8),
        FloatKind::F8E5M2FNUZ => ml("float8_e5m2fnuz", Carrier::U8),
        FloatKind::F8E4M3FNUZ => ml("float8_e4m3fnuz", Carrier::U8),
        FloatKind::F8E4M3B11FNUZ => ml("float8_e4m3b11fnuz", Carrier::U8),
        FloatKind::F8E3M4 => ml("float8_e3m4", Carrier::U8),
        FloatKind::F8E8M0FNU => ml("float8_e8m0fnu", Carrier::U8),
        FloatKind::F6E2M3FN => ml("float6_e2m3fn", Carrier::U8),
        FloatKind::F6E3M2FN => ml("float6_e3m2fn", Carrier::U8),
        FloatKind::F4E2M1FN => ml("float4_e2m1fn", Carrier::U8),
        _ => return None,
    })
}

/// The dtype of scalar type `ty` (an element type); `None` if it has none.
pub fn of_scalar(m: &Module, ty: TypeId) -> Option<Dtype> {
    match m.ctx.type_kind(ty) {
        TypeKind::Integer { width, signedness } => int_dtype(*width, *signedness == Signedness::Unsigned),
        TypeKind::Index => int_dtype(64, false),
        TypeKind::Float(k) => float_dtype(*k),
        TypeKind::Complex(t) => match m.ctx.type_kind(*t) {
            TypeKind::Float(FloatKind::F32) => Some(np("complex64", Carrier::C64)),
            TypeKind::Float(FloatKind::F64) => Some(np("complex128", Carrier::C128)),
            _ => None,
        },
        _ => None,
    }
}

/// What a parameter or result of a function is, for conversions.
#[derive(Clone, Debug)]
pub enum Shape {
    /// A scalar of this type.
    Scalar(TypeId),
    /// A tensor or vector (copied) of this element type.
    Array(TypeId),
    /// A memref (lent in place) of this element type.
    Memref(TypeId),
    /// Anything else (a function, a pointer, an unranked memref, ...).
    Other,
}

/// The shape of type `ty`.
pub fn shape_of(m: &Module, ty: TypeId) -> Shape {
    match m.ctx.type_kind(ty) {
        TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) | TypeKind::Complex(_) => Shape::Scalar(ty),
        TypeKind::RankedTensor { elem, .. } | TypeKind::Vector { elem, .. } => Shape::Array(*elem),
        TypeKind::MemRef { elem, .. } => match m.ctx.type_kind(*elem) {
            // A memref of vectors has no dtype of its own.
            TypeKind::Vector { .. } => Shape::Other,
            _ => Shape::Memref(*elem),
        },
        _ => Shape::Other,
    }
}

/// The numpy dtype object of `d` (importing ml_dtypes only when it defines it).
pub fn np_dtype<'py>(py: Python<'py>, d: &Dtype) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let scalar =
        if d.ml { py.import("ml_dtypes")?.getattr(d.name)? } else { numpy.call_method1("dtype", (d.name,))? };
    numpy.call_method1("dtype", (scalar,))
}

/// The dtype of a carrier.
pub fn carrier_dtype<'py>(py: Python<'py>, c: Carrier) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?.call_method1("dtype", (c.numpy_name(),))
}
