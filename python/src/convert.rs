//! Python values to the library's arguments, and its results back to
//! numpy. A scalar parameter takes a Python `bool`/`int`/`float`/`complex`
//! (rounded to the parameter's format as numpy's `astype` rounds: to
//! nearest, ties to even) or a numpy scalar of exactly its dtype; a tensor
//! or vector parameter takes an array (copied); a memref parameter takes
//! an array lent in place (read-only when the array is). Results come
//! back as numpy scalars and arrays of the dtype of their type.

use crate::dtype::{self, Carrier, Dtype, Shape};
use crate::errors::{argument_error, unsupported_error};
use interp::float::{self, FloatKind, Round};
use interp::mlir_ir::printer::type_to_string;
use interp::mlir_ir::types::{TypeId, TypeKind};
use interp::mlir_ir::Module;
use interp::{Arg, Data, Lent, Tensor};
use num_bigint::BigInt;
use num_complex::Complex;
use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt};

/// The bits of one element, as its carrier holds them.
#[derive(Clone, Copy, Debug)]
pub enum Bits {
    /// Integers and real floats: the encoding in the low bits.
    Int(u128),
    /// complex<f32>.
    C64(Complex<f32>),
    /// complex<f64>.
    C128(Complex<f64>),
}

/// A carrier element's bits and back.
trait Carried: Copy + numpy::Element {
    fn bits(self) -> Bits;
    fn of_bits(b: Bits) -> Self;
}

macro_rules! carried_int {
    ($($t:ty),*) => {$(
        impl Carried for $t {
            fn bits(self) -> Bits {
                Bits::Int(u128::from(self))
            }
            fn of_bits(b: Bits) -> Self {
                // The low bits: the caller masked them to the element's width.
                match b { Bits::Int(v) => v as $t, _ => 0 }
            }
        }
    )*};
}
carried_int!(u8, u16, u32, u64);

macro_rules! carried_float {
    ($($t:ty => $u:ty),*) => {$(
        impl Carried for $t {
            fn bits(self) -> Bits {
                Bits::Int(u128::from(self.to_bits()))
            }
            fn of_bits(b: Bits) -> Self {
                match b { Bits::Int(v) => <$t>::from_bits(v as $u), _ => 0.0 }
            }
        }
    )*};
}
carried_float!(f32 => u32, f64 => u64);

macro_rules! carried_complex {
    ($($t:ty => $v:ident),*) => {$(
        impl Carried for Complex<$t> {
            fn bits(self) -> Bits {
                Bits::$v(self)
            }
            fn of_bits(b: Bits) -> Self {
                match b { Bits::$v(c) => c, _ => Complex::new(0.0, 0.0) }
            }
        }
    )*};
}
carried_complex!(f32 => C64, f64 => C128);
/// One argument made ready for a call: a value, or an array borrowed
/// (through rust-numpy's borrow tracking) to be lent.
pub enum Prepared<'py> {
    /// A value the library converts.
    Value(Data),
    /// An array lent for reading and writing.
    Write(WriteLoan<'py>),
    /// A read-only array, lent read-only.
    Read(ReadLoan<'py>),
}

impl Prepared<'_> {
    /// The library's argument (a value is moved out, leaving poison).
    pub fn arg(&mut self) -> Arg<'_> {
        match self {
            Prepared::Value(d) => Arg::Data(std::mem::replace(d, Data::Poison)),
            Prepared::Write(l) => Arg::Lent(l.lend()),
            Prepared::Read(l) => Arg::Lent(l.lend()),
        }
    }
}

macro_rules! carriers {
    ($($v:ident $t:ty),*) => {
        /// A writable array borrowed as its carrier.
        pub enum WriteLoan<'py> { $($v(numpy::PyReadwriteArrayDyn<'py, $t>)),* }
        /// A read-only array borrowed as its carrier.
        pub enum ReadLoan<'py> { $($v(numpy::PyReadonlyArrayDyn<'py, $t>)),* }

        impl WriteLoan<'_> {
            fn lend(&mut self) -> Lent<'_> {
                match self { $(WriteLoan::$v(a) => Lent::from_view_mut(a.as_array_mut())),* }
            }
        }

        impl ReadLoan<'_> {
            fn lend(&self) -> Lent<'_> {
                match self { $(ReadLoan::$v(a) => Lent::from_view(a.as_array())),* }
            }
        }

        /// Borrows `a` (an array of carrier `c`) to lend it.
        fn borrow<'py>(a: &Bound<'py, PyAny>, c: Carrier, write: bool) -> PyResult<Prepared<'py>> {
            match c {
                $(Carrier::$v => {
                    let a = a.cast::<PyArrayDyn<$t>>()?;
                    Ok(if write {
                        let w = a.try_readwrite().map_err(|e| argument_error(format!("the array cannot be lent: {e}")))?;
                        Prepared::Write(WriteLoan::$v(w))
                    } else {
                        Prepared::Read(ReadLoan::$v(a.readonly()))
                    })
                })*
            }
        }

        /// The elements of `a` (an array of carrier `c`), copied.
        fn tensor_of(a: &Bound<'_, PyAny>, c: Carrier) -> PyResult<Tensor> {
            match c { $(Carrier::$v => Ok(Tensor::from_array(&a.cast::<PyArrayDyn<$t>>()?.readonly().as_array()))),* }
        }

        /// The first element of `a` (an array of carrier `c`).
        fn first_bits(a: &Bound<'_, PyAny>, c: Carrier) -> PyResult<Bits> {
            let none = || argument_error("an empty array is not a scalar".to_string());
            match c {
                $(Carrier::$v => a.cast::<PyArrayDyn<$t>>()?.readonly().as_array().iter().next().map(|x| x.bits()).ok_or_else(none)),*
            }
        }

        /// `t` as a new array of carrier `c`.
        fn carrier_array<'py>(py: Python<'py>, t: &Tensor, c: Carrier) -> PyResult<Bound<'py, PyAny>> {
            match c {
                $(Carrier::$v => {
                    let a = t.to_array::<$t>().map_err(|e| unsupported_error(e.message))?;
                    Ok(PyArrayDyn::from_owned_array(py, a).into_any())
                })*
            }
        }

        /// A one-element array of carrier `c` holding `b`.
        fn one<'py>(py: Python<'py>, b: Bits, c: Carrier) -> Bound<'py, PyAny> {
            match c { $(Carrier::$v => numpy::PyArray1::from_vec(py, vec![<$t>::of_bits(b)]).into_any()),* }
        }
    };
}

carriers!(U8 u8, U16 u16, U32 u32, U64 u64, F32 f32, F64 f64, C64 Complex<f32>, C128 Complex<f64>);

/// The type's name as MLIR prints it.
pub fn type_name(m: &Module, ty: TypeId) -> String {
    type_to_string(&m.ctx, ty)
}

/// The dtype of element type `elem` of an array parameter or result.
fn elem_dtype(m: &Module, elem: TypeId, what: &str) -> PyResult<Dtype> {
    dtype::of_scalar(m, elem)
        .ok_or_else(|| unsupported_error(format!("{what}: elements of {} have no numpy dtype", type_name(m, elem))))
}

/// Refuses numpy value `x` for `what` unless its dtype is `d`'s (or the
/// other signedness `d` also takes): a value is never cast.
fn check_dtype(x: &Bound<'_, PyAny>, d: &Dtype, what: &str, kind: &str) -> PyResult<()> {
    let name: String = x.getattr("dtype")?.getattr("name")?.extract()?;
    if name == d.name || d.also == Some(name.as_str()) {
        return Ok(());
    }
    Err(argument_error(format!("{what}: {kind} {name} does not fit (it takes {})", d.name)))
}

/// Argument `x` for parameter `i` (of type `ty`) of function `fname`.
pub fn prepare<'py>(m: &Module, fname: &str, i: usize, ty: TypeId, x: &Bound<'py, PyAny>) -> PyResult<Prepared<'py>> {
    let py = x.py();
    let what = || format!("argument #{i} of '{fname}' ({})", type_name(m, ty));
    let numpy = py.import("numpy")?;
    let is_numpy = x.is_instance(&numpy.getattr("ndarray")?)? || x.is_instance(&numpy.getattr("generic")?)?;
    match dtype::shape_of(m, ty) {
        Shape::Scalar(t) => {
            if is_numpy {
                let d = dtype::of_scalar(m, t).ok_or_else(|| {
                    argument_error(format!("{}: no numpy dtype fits it; pass a Python number", what()))
                })?;
                check_dtype(x, &d, &what(), "a numpy")?;
                let carried = numpy
                    .call_method1("asarray", (x,))?
                    .call_method1("view", (dtype::carrier_dtype(py, d.carrier)?,))?;
                let bits = first_bits(&carried, d.carrier)?;
                return Ok(Prepared::Value(scalar_of_bits(m, t, bits)));
            }
            python_scalar(m, t, x).map(Prepared::Value).map_err(|why| argument_error(format!("{}: {why}", what())))
        }
        Shape::Array(elem) | Shape::Memref(elem) => {
            let d = elem_dtype(m, elem, &what())?;
            let arr = if x.is_instance(&numpy.getattr("ndarray")?)? {
                check_dtype(x, &d, &what(), "an array of")?;
                x.clone()
            } else {
                numpy.call_method1("asarray", (x, dtype::np_dtype(py, &d)?))?
            };
            let carried = arr.call_method1("view", (dtype::carrier_dtype(py, d.carrier)?,))?;
            if matches!(dtype::shape_of(m, ty), Shape::Memref(_)) {
                let write: bool = arr.getattr("flags")?.getattr("writeable")?.extract()?;
                borrow(&carried, d.carrier, write)
            } else {
                Ok(Prepared::Value(Data::Array(tensor_of(&carried, d.carrier)?)))
            }
        }
        Shape::Other => Err(unsupported_error(format!("{}: a parameter of this type takes no Python value", what()))),
    }
}

/// A scalar of type `t` from the bits of a numpy scalar of its dtype.
fn scalar_of_bits(m: &Module, t: TypeId, bits: Bits) -> Data {
    match (m.ctx.type_kind(t), bits) {
        (TypeKind::Integer { width: 1, .. }, Bits::Int(v)) => Data::Bool(v & 1 != 0),
        // An unsigned reading fits every integer parameter of its width.
        (TypeKind::Integer { .. } | TypeKind::Index, Bits::Int(v)) => Data::Int(v as i128),
        (_, Bits::Int(v)) => Data::FloatBits(v),
        (_, Bits::C64(c)) => Data::Complex32(c),
        (_, Bits::C128(c)) => Data::Complex64(c),
    }
}

/// A Python `bool`, `int`, `float` or `complex` as a scalar of type `t`.
fn python_scalar(m: &Module, t: TypeId, x: &Bound<'_, PyAny>) -> Result<Data, String> {
    let kind = m.ctx.type_kind(t);
    let is_int = matches!(kind, TypeKind::Integer { .. } | TypeKind::Index);
    if x.is_instance_of::<PyBool>() {
        let b: bool = x.extract().map_err(|e: PyErr| e.to_string())?;
        return match kind {
            TypeKind::Integer { width: 1, .. } => Ok(Data::Bool(b)),
            _ if is_int => Ok(Data::Int(i128::from(b))),
            _ => Err("a bool does not fit".to_string()),
        };
    }
    if x.is_instance_of::<PyInt>() {
        let v: BigInt = x.extract().map_err(|e: PyErr| e.to_string())?;
        return match kind {
            _ if is_int => Ok(i128::try_from(&v).map_or(Data::Wide(v), Data::Int)),
            TypeKind::Float(k) => float::from_int(&v, *k, Round::NearestEven)
                .map(|f| Data::FloatBits(f.bits))
                .map_err(|e| format!("{v} does not convert to {}: {e:?}", k.name())),
            _ => Err(format!("the integer {v} does not fit")),
        };
    }
    if x.is_instance_of::<PyFloat>() {
        let v: f64 = x.extract().map_err(|e: PyErr| e.to_string())?;
        return match kind {
            TypeKind::Float(k) => round_f64(v, *k).map(Data::FloatBits),
            _ => Err(format!("the float {v} does not fit")),
        };
    }
    if x.is_instance_of::<PyComplex>() {
        let c = x.cast::<PyComplex>().map_err(|e| e.to_string())?;
        let (re, im) = (c.real(), c.imag());
        return match kind {
            TypeKind::Complex(p) => match m.ctx.type_kind(*p) {
                TypeKind::Float(FloatKind::F32) => Ok(Data::Complex32(Complex::new(
                    f32::from_bits(round_f64(re, FloatKind::F32)? as u32),
                    f32::from_bits(round_f64(im, FloatKind::F32)? as u32),
                ))),
                TypeKind::Float(FloatKind::F64) => Ok(Data::Complex64(Complex::new(re, im))),
                _ => Err("complex numbers of this type have no Python form".to_string()),
            },
            _ => Err(format!("the complex {re}{im:+}j does not fit")),
        };
    }
    let tname: String = x.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(format!("a Python {tname} does not fit"))
}

/// `v` rounded to format `k` (to nearest, ties to even), as its bits.
fn round_f64(v: f64, k: FloatKind) -> Result<u128, String> {
    let x = float::from_bits(FloatKind::F64, u128::from(v.to_bits()));
    float::convert(x, k, Round::NearestEven)
        .map(|f| f.bits)
        .map_err(|e| format!("{v} does not convert to {}: {e:?}", k.name()))
}

/// Result `d` of type `ty` as a numpy scalar or array (a Python `int`
/// where an integer has no dtype, `mlir_interp.poison` for poison).
pub fn result<'py>(py: Python<'py>, m: &Module, ty: TypeId, d: Data) -> PyResult<Bound<'py, PyAny>> {
    let what = || format!("a result of type {}", type_name(m, ty));
    let t = match dtype::shape_of(m, ty) {
        Shape::Scalar(t) => t,
        Shape::Array(elem) | Shape::Memref(elem) => {
            let Data::Array(tensor) = d else {
                return Err(unsupported_error(format!("{}: the library gave no array", what())));
            };
            return array_result(py, m, elem, &tensor, &what());
        }
        Shape::Other => return Err(unsupported_error(format!("{} has no Python form", what()))),
    };
    let unsigned = matches!(
        m.ctx.type_kind(t),
        TypeKind::Integer { signedness: interp::mlir_ir::types::Signedness::Unsigned, .. }
    );
    let width = match m.ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    };
    let bits = match d {
        Data::Poison => return Ok(crate::poison(py)?.into_any()),
        Data::Bool(b) => Bits::Int(u128::from(b)),
        Data::Int(v) => match dtype::of_scalar(m, t) {
            Some(_) => Bits::Int(v as u128 & mask(width.unwrap_or(128))),
            None => return big_int(py, BigInt::from(v), width, unsigned),
        },
        Data::Wide(v) => return big_int(py, v, width, unsigned),
        Data::F16(x) => Bits::Int(u128::from(x.to_bits())),
        Data::BF16(x) => Bits::Int(u128::from(x.to_bits())),
        Data::F32(x) => Bits::Int(u128::from(x.to_bits())),
        Data::F64(x) => Bits::Int(u128::from(x.to_bits())),
        Data::FloatBits(b) => Bits::Int(b),
        Data::Complex32(c) => Bits::C64(c),
        Data::Complex64(c) => Bits::C128(c),
        Data::Array(_) => return Err(unsupported_error(format!("{}: the library gave an array", what()))),
    };
    let d = dtype::of_scalar(m, t).ok_or_else(|| unsupported_error(format!("{} has no numpy dtype", what())))?;
    one(py, bits, d.carrier).call_method1("view", (dtype::np_dtype(py, &d)?,))?.get_item(0)
}

/// The low `w` bits.
fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// An integer with no dtype as a Python `int` (read unsigned for `uiN`).
fn big_int<'py>(py: Python<'py>, v: BigInt, width: Option<u32>, unsigned: bool) -> PyResult<Bound<'py, PyAny>> {
    let v = match width {
        Some(w) if unsigned && v < BigInt::from(0) => v + (BigInt::from(1) << w),
        _ => v,
    };
    Ok(v.into_pyobject(py)?.into_any())
}

/// An array result with elements of type `elem`.
fn array_result<'py>(py: Python<'py>, m: &Module, elem: TypeId, t: &Tensor, what: &str) -> PyResult<Bound<'py, PyAny>> {
    let d = elem_dtype(m, elem, what)?;
    let a = carrier_array(py, t, d.carrier)?;
    if let Some(w) = d.narrow {
        // i2/i4 bits are the low ones of each byte, as ml_dtypes keeps them.
        py.import("numpy")?.call_method1("bitwise_and", (&a, (1u8 << w) - 1, &a))?;
    }
    a.call_method1("view", (dtype::np_dtype(py, &d)?,))
}
