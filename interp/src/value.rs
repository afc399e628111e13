//! Runtime values: integers of any width (inline up to 128 bits, out of line
//! above), floats as `crate::float::Float`, poison as a value recording the
//! op that created it, and vectors/tensors as ndarray arrays of scalars.
//!
//! Integer semantics are written once, generically over [`Z`] (mathematical
//! integers): `i128` serves as the fast number type for widths up to 64 bits
//! (every sum of two such values fits), `BigInt` for everything else. A fast
//! computation that would leave `i128` (a product, a large shift) reports
//! `None` and is redone with `BigInt`; see [`int_op!`].

use crate::float::Float;
use mlir_ir::ir::OpId;
use ndarray::ArrayD;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// An integer of `width` bits, stored as its unsigned encoding: 24 bytes,
/// the width beside the variant tag, so values stay small.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Int(Repr);

/// Storage: inline (two 64-bit halves, so the type needs only 8-byte
/// alignment) for widths up to 128 bits, a shared big integer above.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Inline { width: u32, lo: u64, hi: u64 },
    Wide { width: u32, big: Rc<BigUint> },
}

fn mask128(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl Int {
    /// The inline encoding `v` (already masked) of a `width` <= 128 integer.
    #[inline(always)]
    fn inline(width: u32, v: u128) -> Int {
        Int(Repr::Inline { width, lo: v as u64, hi: (v >> 64) as u64 })
    }

    /// The low `width` bits of `v`.
    pub fn from_u128(width: u32, v: u128) -> Int {
        if width <= 128 {
            return Int::inline(width, v & mask128(width));
        }
        Int(Repr::Wide { width, big: Rc::new(BigUint::from(v)) })
    }

    /// `v` modulo 2^width (two's complement for negatives).
    pub fn from_i128(width: u32, v: i128) -> Int {
        if width <= 128 {
            return Int::from_u128(width, v as u128);
        }
        Int::from_big(width, &BigInt::from(v))
    }

    /// `v` modulo 2^width.
    pub fn from_big(width: u32, v: &BigInt) -> Int {
        let m = (BigInt::one() << width) - 1;
        let r = v & &m;
        let (_, mag) = r.into_parts();
        if width <= 128 {
            return Int::inline(width, mag.to_u128().unwrap_or(0));
        }
        Int(Repr::Wide { width, big: Rc::new(mag) })
    }

    /// A `width`-bit integer (at most 64) from its encoding, which must
    /// already fit (the fast path's results are masked).
    #[inline(always)]
    pub fn from_word(width: u32, bits: u64) -> Int {
        debug_assert!(width <= 64 && (width == 64 || bits >> width == 0));
        Int(Repr::Inline { width, lo: bits, hi: 0 })
    }

    /// The encoding of an integer of at most 64 bits.
    #[inline(always)]
    pub fn word(&self) -> Option<u64> {
        match self.0 {
            Repr::Inline { width, lo, .. } if width <= 64 => Some(lo),
            _ => None,
        }
    }

    /// 0 or 1 of width 1.
    pub fn bool(b: bool) -> Int {
        Int::from_word(1, b as u64)
    }

    /// The bit width.
    #[inline]
    pub fn width(&self) -> u32 {
        match self.0 {
            Repr::Inline { width, .. } | Repr::Wide { width, .. } => width,
        }
    }

    /// True when any bit is set.
    #[inline]
    pub fn is_nonzero(&self) -> bool {
        match &self.0 {
            Repr::Inline { lo, hi, .. } => *lo != 0 || *hi != 0,
            Repr::Wide { big, .. } => !big.is_zero(),
        }
    }

    /// The encoding if the width is at most 128.
    #[inline]
    pub fn bits128(&self) -> Option<u128> {
        match self.0 {
            Repr::Inline { lo, hi, .. } => Some(u128::from(hi) << 64 | u128::from(lo)),
            Repr::Wide { .. } => None,
        }
    }

    /// The unsigned reading.
    pub fn to_ubig(&self) -> BigInt {
        match (&self.0, self.bits128()) {
            (Repr::Wide { big, .. }, _) => BigInt::from_biguint(Sign::Plus, (**big).clone()),
            (_, v) => BigInt::from(v.unwrap_or(0)),
        }
    }

    /// The signed (two's complement) reading.
    pub fn to_sbig(&self) -> BigInt {
        let u = self.to_ubig();
        let width = self.width();
        if width > 0 && u.bit(u64::from(width - 1)) {
            u - (BigInt::one() << width)
        } else {
            u
        }
    }

    /// The unsigned reading if it fits in `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match &self.0 {
            Repr::Inline { lo, hi: 0, .. } => Some(*lo),
            Repr::Inline { .. } => None,
            Repr::Wide { big, .. } => big.to_u64(),
        }
    }

    /// The signed reading if it fits in `i64`.
    #[inline(always)]
    pub fn to_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::Inline { width, lo, .. } if width <= 64 => {
                let sh = 64 - width.max(1);
                Some(((lo << sh) as i64) >> sh)
            }
            _ => self.wide_to_i64(),
        }
    }

    #[cold]
    #[inline(never)]
    fn wide_to_i64(&self) -> Option<i64> {
        self.to_sbig().to_i64()
    }

    /// The signed reading as i128 for widths up to 64 (the fast path).
    fn s128(&self) -> i128 {
        self.to_i64().map_or(0, i128::from)
    }

    /// The unsigned reading as i128 for widths up to 64.
    fn u128v(&self) -> i128 {
        match self.0 {
            Repr::Inline { lo, .. } => i128::from(lo),
            Repr::Wide { .. } => 0,
        }
    }
}

/// Mathematical integers as needed by integer op semantics.
pub trait Z: Clone + Ord + std::fmt::Debug + std::fmt::Display {
    /// A small constant.
    fn from_i64(v: i64) -> Self;
    /// The signed reading of `x`.
    fn s(x: &Int) -> Self;
    /// The unsigned reading of `x`.
    fn u(x: &Int) -> Self;
    /// `self` modulo 2^width.
    fn wrap(&self, width: u32) -> Int;
    /// 2^n, or `None` when it does not fit.
    fn pow2(n: u32) -> Option<Self>;
    /// Sum.
    fn add(&self, o: &Self) -> Self;
    /// Difference.
    fn sub(&self, o: &Self) -> Self;
    /// Product, or `None` when it leaves the number type.
    fn mul(&self, o: &Self) -> Option<Self>;
    /// Quotient rounded toward zero; `o` is nonzero.
    fn div_t(&self, o: &Self) -> Self;
    /// Remainder with the sign of `self`; `o` is nonzero.
    fn rem_t(&self, o: &Self) -> Self;
    /// The value if it fits in `u32`.
    fn to_u32(&self) -> Option<u32>;
    /// True for zero.
    fn is_zero(&self) -> bool {
        *self == Self::from_i64(0)
    }
    /// True below zero.
    fn is_neg(&self) -> bool {
        *self < Self::from_i64(0)
    }
}

impl Z for i128 {
    fn from_i64(v: i64) -> Self {
        v as i128
    }
    fn s(x: &Int) -> Self {
        x.s128()
    }
    fn u(x: &Int) -> Self {
        x.u128v()
    }
    fn wrap(&self, width: u32) -> Int {
        Int::from_i128(width, *self)
    }
    fn to_u32(&self) -> Option<u32> {
        u32::try_from(*self).ok()
    }
    fn pow2(n: u32) -> Option<Self> {
        1i128.checked_shl(n).filter(|v| *v > 0)
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        self.checked_mul(*o)
    }
    fn div_t(&self, o: &Self) -> Self {
        self / o
    }
    fn rem_t(&self, o: &Self) -> Self {
        self % o
    }
}

impl Z for BigInt {
    fn from_i64(v: i64) -> Self {
        BigInt::from(v)
    }
    fn s(x: &Int) -> Self {
        x.to_sbig()
    }
    fn u(x: &Int) -> Self {
        x.to_ubig()
    }
    fn wrap(&self, width: u32) -> Int {
        Int::from_big(width, self)
    }
    fn to_u32(&self) -> Option<u32> {
        ToPrimitive::to_u32(self)
    }
    fn pow2(n: u32) -> Option<Self> {
        Some(BigInt::one() << n)
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        Some(self * o)
    }
    fn div_t(&self, o: &Self) -> Self {
        self / o
    }
    fn rem_t(&self, o: &Self) -> Self {
        self % o
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_neg(&self) -> bool {
        Signed::is_negative(self)
    }
}

/// Runs an integer semantic function generic over [`Z`] at width `$w`:
/// with `i128` when `$w <= 64`, redone with `BigInt` when that returns
/// `None` or the width is larger. Evaluates to the function's `Option`.
#[macro_export]
macro_rules! int_op {
    ($w:expr, $f:ident ( $($arg:expr),* )) => {{
        let w: u32 = $w;
        let fast = if w <= 64 { $f::<i128>(w, $($arg),*) } else { None };
        match fast {
            Some(r) => Some(r),
            None => $f::<num_bigint::BigInt>(w, $($arg),*),
        }
    }};
}

/// A complex number: real and imaginary parts of one float format, inline
/// (16 bytes of encodings) for formats up to 64 bits, shared out of line
/// for wider ones, so a scalar stays small.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Complex(CRepr);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum CRepr {
    Inline { kind: crate::float::FloatKind, re: u64, im: u64 },
    Wide(Rc<[Float; 2]>),
}

impl Complex {
    /// `re + im i`.
    pub fn new(re: Float, im: Float) -> Complex {
        let (k, (r, i)) = (re.kind, (re.bits, im.bits));
        if im.kind == k && k.bit_width() <= 64 {
            return Complex(CRepr::Inline { kind: k, re: r as u64, im: i as u64 });
        }
        Complex(CRepr::Wide(Rc::new([re, im])))
    }

    /// The real and imaginary parts.
    pub fn parts(&self) -> (Float, Float) {
        match &self.0 {
            CRepr::Inline { kind, re, im } => {
                (Float { kind: *kind, bits: u128::from(*re) }, Float { kind: *kind, bits: u128::from(*im) })
            }
            CRepr::Wide(p) => (p[0], p[1]),
        }
    }
}

/// Which op made a poison value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Poison(pub OpId);

/// A scalar: integer (also `index`), float, or poison.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// An integer or index.
    Int(Int),
    /// A float.
    Float(Float),
    /// A complex number.
    Complex(Complex),
    /// Poison made by an op.
    Poison(Poison),
}

impl Scalar {
    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<&Int> {
        match self {
            Scalar::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The float, if this is one.
    pub fn as_float(&self) -> Option<Float> {
        match self {
            Scalar::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The complex number `re + im i`.
    pub fn complex(re: Float, im: Float) -> Scalar {
        Scalar::Complex(Complex::new(re, im))
    }

    /// The poison origin, if this is poison.
    pub fn poison(&self) -> Option<Poison> {
        match self {
            Scalar::Poison(p) => Some(*p),
            _ => None,
        }
    }
}

/// Something a function can call indirectly (`func.constant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncRef(pub u32);

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar.
    Scalar(Scalar),
    /// A vector or tensor: the shape and elements.
    Array(Rc<ArrayD<Scalar>>),
    /// A function reference (index into the engine's function table).
    Func(FuncRef),
    /// A memref: a buffer and a view descriptor on it.
    Memref(Rc<crate::memory::MemRef>),
    /// An `!llvm.ptr`: an allocation (or null) and a byte offset.
    Ptr(crate::memory::Ptr),
    /// A value of a type this engine does not model yet (never read).
    Opaque,
}

impl Value {
    /// An integer value.
    pub fn int(i: Int) -> Value {
        Value::Scalar(Scalar::Int(i))
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
        if let Value::Scalar(Scalar::Int(Int(Repr::Inline { width, lo, hi }))) = self {
            (*width, *lo, *hi) = (w, bits, 0);
            return;
        }
        *self = Value::int(Int::from_word(w, bits));
    }

    /// Overwrites `self` with the float `f`, in place when it holds a float.
    #[inline(always)]
    pub fn set_float(&mut self, f: Float) {
        if let Value::Scalar(Scalar::Float(x)) = self {
            *x = f;
            return;
        }
        *self = Value::float(f);
    }

    /// Overwrites `self` with a copy of `src`, in place for plain scalars
    /// (what block-argument and yield copies move).
    #[inline(always)]
    pub fn copy_from(&mut self, src: &Value) {
        match src {
            Value::Scalar(Scalar::Float(f)) => self.set_float(*f),
            Value::Scalar(Scalar::Int(Int(Repr::Inline { width, lo, hi: 0 }))) if *width <= 64 => {
                self.set_word(*width, *lo)
            }
            _ => *self = src.clone(),
        }
    }

    /// Overwrites `self` with the scalar `s`, in place where it can.
    #[inline(always)]
    pub fn set_scalar(&mut self, s: Scalar) {
        match s {
            Scalar::Float(f) => self.set_float(f),
            Scalar::Int(Int(Repr::Inline { width, lo, hi: 0 })) if width <= 64 => self.set_word(width, lo),
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
            Value::Array(a) => a.iter().find_map(|s| s.poison()),
            Value::Func(_) | Value::Memref(_) | Value::Ptr(_) | Value::Opaque => None,
        }
    }
}

/// Elementwise application of a unary scalar function to a scalar or array.
pub fn map1<E>(a: &Value, mut f: impl FnMut(&Scalar) -> Result<Scalar, E>, bad: impl Fn() -> E) -> Result<Value, E> {
    match a {
        Value::Scalar(s) => Ok(Value::Scalar(f(s)?)),
        Value::Array(arr) => {
            let mut out = Vec::with_capacity(arr.len());
            for s in arr.iter() {
                out.push(f(s)?);
            }
            let shaped = ArrayD::from_shape_vec(arr.raw_dim(), out).map_err(|_| bad())?;
            Ok(Value::Array(Rc::new(shaped)))
        }
        Value::Func(_) | Value::Memref(_) | Value::Ptr(_) | Value::Opaque => Err(bad()),
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
            let mut out = Vec::with_capacity(x.len());
            for (p, q) in x.iter().zip(y.iter()) {
                out.push(f(p, q)?);
            }
            let shaped = ArrayD::from_shape_vec(x.raw_dim(), out).map_err(|_| bad())?;
            Ok(Value::Array(Rc::new(shaped)))
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
    let mut second = Vec::new();
    let first = map2(
        a,
        b,
        |x, y| {
            let (l, h) = f(x, y)?;
            second.push(h);
            Ok(l)
        },
        &bad,
    )?;
    let second = match (&first, second.len()) {
        (Value::Scalar(_), 1) => Value::Scalar(second.pop().ok_or_else(&bad)?),
        (Value::Array(arr), _) => {
            Value::Array(Rc::new(ArrayD::from_shape_vec(arr.raw_dim(), second).map_err(|_| bad())?))
        }
        _ => return Err(bad()),
    };
    Ok((first, second))
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

    #[test]
    fn complex_parts_round_trip() {
        use crate::float::{from_bits, FloatKind};
        for k in [FloatKind::F16, FloatKind::F64, FloatKind::F80, FloatKind::F128] {
            let (re, im) = (from_bits(k, 0x3C00), from_bits(k, 0x8000_0001));
            assert_eq!(Complex::new(re, im).parts(), (re, im), "{}", k.name());
        }
    }

    #[test]
    fn readings() {
        let x = Int::from_i128(8, -1);
        assert_eq!(x.bits128(), Some(255));
        assert_eq!(x.to_i64(), Some(-1));
        assert_eq!(x.to_u64(), Some(255));
        assert_eq!(<i128 as Z>::s(&x), -1);
        assert_eq!(<BigInt as Z>::s(&x), BigInt::from(-1));
        let t = Int::bool(true);
        assert_eq!(t.to_i64(), Some(-1));
    }

    #[test]
    fn wide_ints_wrap() {
        let w = Int::from_big(200, &BigInt::from(-1));
        assert_eq!(w.to_ubig(), (BigInt::one() << 200u32) - 1);
        assert_eq!(w.to_sbig(), BigInt::from(-1));
        let x = Int::from_big(65, &(BigInt::one() << 64u32));
        assert_eq!(x.to_sbig(), -(BigInt::one() << 64u32));
    }
}
