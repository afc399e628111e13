//! Runtime values: a scalar (`crate::scalar`), a vector or tensor in the
//! dense encoding of `crate::dense`, a function reference, a memref (a view on a
//! buffer of `crate::memory`), an `!llvm.ptr`, and the elementwise
//! combinators dialects build vector semantics from.

pub use crate::dense::{Builder, Dense};
use crate::float::Float;
pub use crate::scalar::{Complex, FuncRef, Int, Poison, Scalar, Z};
use mlir_ir::ir::OpId;
use std::rc::Rc;

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar.
    Scalar(Scalar),
    /// A vector or tensor: the shape and the encoded elements.
    Array(Rc<Dense>),
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
        Value::Scalar(Scalar::Int(i))
    }

    /// The array value of shape `shape` holding `elems` in row-major order
    /// (its lane taken from the elements).
    pub fn dense(shape: &[usize], elems: &[Scalar]) -> Result<Value, crate::dense::DenseError> {
        Ok(Value::Array(Rc::new(Dense::new(shape, elems, None)?)))
    }

    /// The array value of an ndarray of scalars (its lane taken from the
    /// elements).
    pub fn from_array(a: &ndarray::ArrayD<Scalar>) -> Result<Value, crate::dense::DenseError> {
        Ok(Value::Array(Rc::new(Dense::from_array(a, None)?)))
    }

    /// A float value.
    pub fn float(f: Float) -> Value {
        Value::Scalar(Scalar::Float(f))
    }

    /// Poison made by `op`.
    pub fn poison(op: OpId) -> Value {
        Value::Scalar(Scalar::Poison(Poison(op)))
    }

    /// The encoding of an integer scalar of at most 64 bits; `None` for
    /// anything else, poison included.
    #[inline(always)]
    pub fn word(&self) -> Option<u64> {
        match self {
            Value::Scalar(Scalar::Int(i)) => i.word(),
            _ => None,
        }
    }

    /// Overwrites `self` with the `w`-bit integer `bits` (masked already),
    /// in place when it holds an inline integer: the fast path's results
    /// land in slots that held the previous iteration's value.
    #[inline(always)]
    pub fn set_word(&mut self, w: u32, bits: u64) {
        if let Value::Scalar(Scalar::Int(i)) = self {
            if i.overwrite_word(w, bits) {
                return;
            }
        }
        *self = Value::int(Int::from_word(w, bits));
    }

    /// Overwrites `self` with the float `f`, in place when it holds a float.
    #[inline(always)]
    pub fn set_float(&mut self, f: Float) {
        if let Value::Scalar(Scalar::Float(x)) = self {
            // Field by field: a whole-struct copy moves 16 bytes across the
            // kind and the low bits, which defeats store forwarding when
            // the bits were just written on their own.
            x.kind = f.kind;
            x.bits = f.bits;
            return;
        }
        *self = Value::float(f);
    }

    /// Overwrites `self` with a copy of `src`, in place for plain scalars
    /// (what block-argument and yield copies move).
    #[inline(always)]
    pub fn copy_from(&mut self, src: &Value) {
        match src {
            Value::Scalar(Scalar::Float(f)) => self.set_float(Float { kind: f.kind, bits: f.bits }),
            Value::Scalar(Scalar::Int(i)) => match i.word() {
                Some(bits) => self.set_word(i.width(), bits),
                None => *self = src.clone(),
            },
            _ => *self = src.clone(),
        }
    }

    /// Overwrites `self` with the scalar `s`, in place where it can.
    #[inline(always)]
    pub fn set_scalar(&mut self, s: Scalar) {
        match s {
            Scalar::Float(f) => self.set_float(f),
            Scalar::Int(ref i) if i.word().is_some() => self.set_word(i.width(), i.word().unwrap_or(0)),
            s => *self = Value::Scalar(s),
        }
    }

    /// The scalar, if this is one.
    pub fn scalar(&self) -> Option<&Scalar> {
        match self {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The first poison element of a scalar or array, if any.
    pub fn find_poison(&self) -> Option<Poison> {
        match self {
            Value::Scalar(s) => s.poison(),
            Value::Array(a) => a.first_poison(),
            Value::Func(_) | Value::Memref(_) | Value::Ptr(_) | Value::Agg(_) | Value::Opaque => None,
        }
    }
}

/// Elementwise application of a unary scalar function to a scalar or array.
pub fn map1<E>(a: &Value, mut f: impl FnMut(&Scalar) -> Result<Scalar, E>, bad: impl Fn() -> E) -> Result<Value, E> {
    match a {
        Value::Scalar(s) => Ok(Value::Scalar(f(s)?)),
        Value::Array(arr) => {
            let mut out = Builder::new(arr.shape(), None).map_err(|_| bad())?;
            for x in arr.iter() {
                out.push(&f(&x)?).map_err(|_| bad())?;
            }
            Ok(Value::Array(Rc::new(out.finish().map_err(|_| bad())?)))
        }
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
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => Ok(Value::Scalar(f(x, y)?)),
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
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => {
            let (l, h) = f(x, y)?;
            Ok((Value::Scalar(l), Value::Scalar(h)))
        }
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
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }
}
