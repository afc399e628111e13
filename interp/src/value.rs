//! Runtime values: a scalar (`crate::scalar`), a vector or tensor in the
//! dense encoding of `crate::dense`, a function reference, a memref (a view on a
//! buffer of `crate::memory`), an `!llvm.ptr`, and the elementwise
//! combinators dialects build vector semantics from.

pub use crate::dense::{Builder, Dense};
use crate::float::Float;
pub use crate::scalar::{Complex, FuncRef, Int, Packed, Poison, Scalar, Z};
use mlir_ir::ir::OpId;
use std::rc::Rc;

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar that packs into 24 `Copy` bytes: integers up to 128 bits,
    /// floats, complex numbers of parts up to 64 bits, poison.
    Scalar(Packed),
    /// Any other scalar (a wider integer or complex number), out of line
    /// so values stay small. Never holds a scalar that packs.
    Wide(Rc<Scalar>),
    /// A vector or tensor: the shape and the encoded elements.
    Array(Rc<Dense>),
    /// A tensor whose type has a sparse encoding: its storage and elements.
    Sparse(Rc<crate::sparse::SparseTensor>),
    /// A function reference (index into the engine's function table).
    Func(FuncRef),
    /// A memref: a buffer and a view descriptor on it.
    Memref(Rc<crate::memory::MemRef>),
    /// An `!llvm.ptr`: an allocation (or null) and a byte offset.
    Ptr(crate::memory::Ptr),
    /// An `!llvm.struct` or `!llvm.array` value (a memref descriptor, an
    /// intrinsic's result pair): its fields or elements, in order.
    Agg(Rc<[Value]>),
    /// A value of a type this engine does not model yet (never read).
    Opaque,
}

impl Value {
    /// An integer value.
    pub fn int(i: Int) -> Value {
        Value::from_scalar(Scalar::Int(i))
    }

    /// The value holding scalar `s`: packed when it fits, else out of line.
    #[inline]
    pub fn from_scalar(s: Scalar) -> Value {
        match Packed::pack(&s) {
            Some(p) => Value::Scalar(p),
            None => Value::Wide(Rc::new(s)),
        }
    }

    /// The array value of shape `shape` holding `elems` in row-major order
    /// (its lane taken from the elements).
    pub fn dense(shape: &[usize], elems: &[Scalar]) -> Result<Value, crate::dense::DenseError> {
        Ok(Value::Array(Rc::new(Dense::new(shape, elems, None)?)))
    }

    /// A float value.
    pub fn float(f: Float) -> Value {
        Value::Scalar(Packed::float(f))
    }

    /// Poison made by `op`.
    pub fn poison(op: OpId) -> Value {
        Value::Scalar(Packed::Poison(Poison(op)))
    }

    /// The encoding of a value of an integer type of at most 64 bits (the
    /// type says the width, so it is not checked); `None` for poison.
    #[inline(always)]
    pub(crate) fn word(&self) -> Option<u64> {
        match self {
            Value::Scalar(Packed::Int { width, lo, .. }) => {
                debug_assert!(*width <= 64);
                Some(*lo)
            }
            _ => None,
        }
    }

    /// Overwrites `self`, the slot of a value of an integer type of at
    /// most `w` bits, with `bits` (masked already), as [`Value::set_packed`].
    #[inline(always)]
    pub(crate) fn set_word(&mut self, w: u32, bits: u64) {
        self.set_packed(Packed::word(w, bits));
    }

    /// Overwrites `self`, the slot of a value of a scalar type that packs,
    /// with `p`: like [`Value::set_word`], the old value is a scalar or
    /// nothing yet and is not looked at.
    #[inline(always)]
    pub(crate) fn set_packed(&mut self, p: Packed) {
        let old = std::mem::replace(self, Value::Scalar(p));
        debug_assert!(matches!(old, Value::Scalar(_) | Value::Opaque));
        std::mem::forget(old);
    }

    /// Overwrites `self` with the float `f`.
    #[inline(always)]
    pub fn set_float(&mut self, f: Float) {
        match self {
            Value::Scalar(p) => *p = Packed::float(f),
            _ => *self = Value::float(f),
        }
    }

    /// Overwrites `self`, a slot of `src`'s type, with a copy of `src`: a
    /// scalar as its 24 bytes, the old value not looked at, as for
    /// [`Value::set_packed`] (what call arguments and results copy: a
    /// callee's frame has its slots that may own storage cleared, and a
    /// call whose results may be held out of line is not translated, see
    /// `code::may_be_out_of_line`).
    #[inline(always)]
    pub(crate) fn copy_from(&mut self, src: &Value) {
        match src {
            Value::Scalar(p) => self.set_packed(*p),
            _ => *self = src.clone(),
        }
    }

    /// Overwrites `self` with the scalar `s`.
    #[inline(always)]
    pub fn set_scalar(&mut self, s: Scalar) {
        match (Packed::pack(&s), &mut *self) {
            (Some(p), Value::Scalar(d)) => *d = p,
            _ => *self = Value::from_scalar(s),
        }
    }

    /// The scalar, if this is one.
    #[inline]
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Value::Scalar(p) => Some(p.unpack()),
            Value::Wide(s) => Some((**s).clone()),
            _ => None,
        }
    }

    /// The integer, if this is an integer scalar.
    #[inline]
    pub fn as_int(&self) -> Option<Int> {
        match self.scalar() {
            Some(Scalar::Int(i)) => Some(i),
            _ => None,
        }
    }

    /// The float, if this is a float scalar.
    #[inline]
    pub fn as_float(&self) -> Option<Float> {
        match self {
            Value::Scalar(p) => p.as_float(),
            _ => None,
        }
    }

    /// The poison origin, if this is a poison scalar.
    #[inline]
    pub fn as_poison(&self) -> Option<Poison> {
        match self {
            Value::Scalar(p) => p.poison(),
            _ => None,
        }
    }

    /// The first poison element of a scalar or array, if any.
    pub fn find_poison(&self) -> Option<Poison> {
        match self {
            Value::Scalar(s) => s.poison(),
            Value::Array(a) => a.first_poison(),
            Value::Sparse(s) => s.dense().ok().and_then(|d| d.first_poison()),
            Value::Wide(_) | Value::Func(_) | Value::Memref(_) | Value::Ptr(_) | Value::Agg(_) | Value::Opaque => None,
        }
    }
}

/// Elementwise application of a unary scalar function to a scalar or array.
pub fn map1<E>(a: &Value, mut f: impl FnMut(&Scalar) -> Result<Scalar, E>, bad: impl Fn() -> E) -> Result<Value, E> {
    match a {
        Value::Scalar(_) | Value::Wide(_) => Ok(Value::from_scalar(f(&a.scalar().ok_or_else(&bad)?)?)),
        Value::Array(arr) => {
            let mut out = Builder::new(arr.shape(), None).map_err(|_| bad())?;
            for x in arr.iter() {
                out.push(&f(&x)?).map_err(|_| bad())?;
            }
            Ok(Value::Array(Rc::new(out.finish().map_err(|_| bad())?)))
        }
        Value::Sparse(s) => map1(&Value::Array(s.dense().map_err(|_| bad())?), f, bad),
        Value::Func(_) | Value::Memref(_) | Value::Ptr(_) | Value::Agg(_) | Value::Opaque => Err(bad()),
    }
}

/// Elementwise application of a binary scalar function; shapes must match.
pub fn map2<E>(
    a: &Value,
    b: &Value,
    mut f: impl FnMut(&Scalar, &Scalar) -> Result<Scalar, E>,
    bad: impl Fn() -> E,
) -> Result<Value, E> {
    match (a.scalar(), b.scalar()) {
        (Some(x), Some(y)) => return Ok(Value::from_scalar(f(&x, &y)?)),
        (None, None) => {}
        _ => return Err(bad()),
    }
    if let Value::Sparse(s) = a {
        return map2(&Value::Array(s.dense().map_err(|_| bad())?), b, f, bad);
    }
    if let Value::Sparse(s) = b {
        return map2(a, &Value::Array(s.dense().map_err(|_| bad())?), f, bad);
    }
    match (a, b) {
        (Value::Array(x), Value::Array(y)) if x.shape() == y.shape() => {
            let mut out = Builder::new(x.shape(), None).map_err(|_| bad())?;
            for (p, q) in x.iter().zip(y.iter()) {
                out.push(&f(&p, &q)?).map_err(|_| bad())?;
            }
            Ok(Value::Array(Rc::new(out.finish().map_err(|_| bad())?)))
        }
        _ => Err(bad()),
    }
}

/// Elementwise application of a scalar function with two results.
pub fn map2_pair<E>(
    a: &Value,
    b: &Value,
    mut f: impl FnMut(&Scalar, &Scalar) -> Result<(Scalar, Scalar), E>,
    bad: impl Fn() -> E,
) -> Result<(Value, Value), E> {
    match (a.scalar(), b.scalar()) {
        (Some(x), Some(y)) => {
            let (l, h) = f(&x, &y)?;
            return Ok((Value::from_scalar(l), Value::from_scalar(h)));
        }
        (None, None) => {}
        _ => return Err(bad()),
    }
    match (a, b) {
        (Value::Array(x), Value::Array(y)) if x.shape() == y.shape() => {
            let (mut first, mut second) = (Vec::with_capacity(x.len()), Vec::with_capacity(x.len()));
            for (p, q) in x.iter().zip(y.iter()) {
                let (l, h) = f(&p, &q)?;
                first.push(l);
                second.push(h);
            }
            let dense = |elems: &[Scalar]| Value::dense(x.shape(), elems).map_err(|_| bad());
            Ok((dense(&first)?, dense(&second)?))
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames are vectors of values and every op copies a few, so the
    /// layouts that keep them small are part of the design.
    #[test]
    fn values_stay_small() {
        assert_eq!(std::mem::size_of::<Int>(), 24);
        assert_eq!(std::mem::size_of::<Float>(), 24);
        assert_eq!(std::mem::size_of::<Scalar>(), 32);
        assert_eq!(std::mem::size_of::<Packed>(), 24);
        assert_eq!(std::mem::size_of::<Value>(), 24);
    }

    /// A scalar packs when it fits 24 bytes and lives out of line when it
    /// does not; either way it reads back as itself.
    #[test]
    fn scalars_pack_or_live_out_of_line() {
        use crate::float::{from_bits, FloatKind};
        let packs = [
            Scalar::Int(Int::from_i128(1, 1)),
            Scalar::Int(Int::from_i128(128, -1)),
            Scalar::Float(from_bits(FloatKind::F128, 0x3FFF << 112)),
            Scalar::Float(from_bits(FloatKind::F8E4M3FN, 0x7F)),
            Scalar::complex(from_bits(FloatKind::F64, 1), from_bits(FloatKind::F64, 2)),
            Scalar::Poison(Poison(OpId(7))),
        ];
        for s in packs {
            let v = Value::from_scalar(s.clone());
            assert!(matches!(v, Value::Scalar(_)), "{s:?} should pack");
            assert_eq!(v.scalar(), Some(s));
        }
        let wide = [
            Scalar::Int(Int::from_i128(129, -1)),
            Scalar::complex(from_bits(FloatKind::F80, 1), from_bits(FloatKind::F80, 2)),
        ];
        for s in wide {
            let v = Value::from_scalar(s.clone());
            assert!(matches!(v, Value::Wide(_)), "{s:?} should live out of line");
            assert_eq!(v.scalar(), Some(s));
        }
    }
}
