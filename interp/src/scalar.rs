//! Scalars: integers of any width (inline up to 128 bits, out of line
//! above), floats as `crate::float::Float`, complex numbers, and poison as
//! a value recording the op that created it. Below memory (which stores
//! scalars in lanes) and values (`crate::value`, which adds arrays,
//! memrefs and pointers). [`Scalar`] is the general form semantics
//! compute on; [`Packed`] the `Copy` form a frame slot holds.
//!
//! Integer semantics are written once, generically over [`Z`] (mathematical
//! integers): `i128` serves as the fast number type for widths up to 64 bits
//! (every sum of two such values fits), `BigInt` for everything else. A fast
//! computation that would leave `i128` (a product, a large shift) reports
//! `None` and is redone with `BigInt`; see [`crate::int_op!`].

use crate::float::Float;
use mlir_ir::ir::OpId;
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

    /// Overwrites `self` with the `w`-bit encoding `bits` when it is stored
    /// inline (no allocation to drop); false otherwise.
    #[inline(always)]
    pub fn overwrite_word(&mut self, w: u32, bits: u64) -> bool {
        if let Repr::Inline { width, lo, hi } = &mut self.0 {
            (*width, *lo, *hi) = (w, bits, 0);
            return true;
        }
        false
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
pub(crate) use int_op;

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

/// The `Copy` form of a scalar that a frame slot holds: 24 bytes, the
/// variant tag beside the width or format, then two words. Integers up to
/// 128 bits, floats of every format, complex numbers with parts of at most
/// 64 bits and poison fit; wider integers and wider complex numbers live
/// out of line (`crate::value::Value::Wide`). Copying one is a plain copy,
/// which is what block arguments, yields and call arguments do most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Packed {
    /// An integer of `width` <= 128 bits: its unsigned encoding.
    Int {
        /// The bit width.
        width: u32,
        /// Bits 0..64.
        lo: u64,
        /// Bits 64..128.
        hi: u64,
    },
    /// A float: its format and encoding.
    Float {
        /// The format.
        kind: crate::float::FloatKind,
        /// Bits 0..64 of the encoding.
        lo: u64,
        /// Bits 64..128 of the encoding.
        hi: u64,
    },
    /// A complex number whose parts have at most 64 bits.
    Complex {
        /// The parts' format.
        kind: crate::float::FloatKind,
        /// The real part's encoding.
        re: u64,
        /// The imaginary part's encoding.
        im: u64,
    },
    /// Poison made by an op.
    Poison(Poison),
}

impl Packed {
    /// The `width`-bit integer (at most 64) whose encoding is `bits`.
    #[inline(always)]
    pub fn word(width: u32, bits: u64) -> Packed {
        debug_assert!(width <= 64 && (width == 64 || bits >> width == 0));
        Packed::Int { width, lo: bits, hi: 0 }
    }

    /// The float of format `kind` (at most 64 bits) whose encoding is `bits`.
    #[inline(always)]
    pub fn float_word(kind: crate::float::FloatKind, bits: u64) -> Packed {
        Packed::Float { kind, lo: bits, hi: 0 }
    }

    /// The float `f`.
    #[inline(always)]
    pub fn float(f: Float) -> Packed {
        let bits = f.bits;
        Packed::Float { kind: f.kind, lo: bits as u64, hi: (bits >> 64) as u64 }
    }

    /// The packed form of `s`, or `None` when it must live out of line.
    #[inline]
    pub fn pack(s: &Scalar) -> Option<Packed> {
        Some(match s {
            Scalar::Int(i) => match i.0 {
                Repr::Inline { width, lo, hi } => Packed::Int { width, lo, hi },
                Repr::Wide { .. } => return None,
            },
            Scalar::Float(f) => Packed::float(*f),
            Scalar::Complex(c) => match c.0 {
                CRepr::Inline { kind, re, im } => Packed::Complex { kind, re, im },
                CRepr::Wide(_) => return None,
            },
            Scalar::Poison(p) => Packed::Poison(*p),
        })
    }

    /// The scalar this packs.
    #[inline]
    pub fn unpack(self) -> Scalar {
        match self {
            Packed::Int { width, lo, hi } => Scalar::Int(Int(Repr::Inline { width, lo, hi })),
            Packed::Float { kind, lo, hi } => {
                Scalar::Float(Float { kind, bits: u128::from(hi) << 64 | u128::from(lo) })
            }
            Packed::Complex { kind, re, im } => Scalar::Complex(Complex(CRepr::Inline { kind, re, im })),
            Packed::Poison(p) => Scalar::Poison(p),
        }
    }

    /// The float, if this is one.
    #[inline(always)]
    pub fn as_float(self) -> Option<Float> {
        match self {
            Packed::Float { kind, lo, hi } => Some(Float { kind, bits: u128::from(hi) << 64 | u128::from(lo) }),
            _ => None,
        }
    }

    /// The poison origin, if this is poison.
    #[inline]
    pub fn poison(self) -> Option<Poison> {
        match self {
            Packed::Poison(p) => Some(p),
            _ => None,
        }
    }
}

/// Something a function can call indirectly (`func.constant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncRef(pub u32);

#[cfg(test)]
mod tests {
    use super::*;

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
