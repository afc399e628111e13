//! How one scalar lane is laid out in bytes: the encoding memory buffers
//! and dense vector/tensor values share (little-endian, each lane its bit
//! width rounded up to whole bytes), so moving elements between them is a
//! byte copy.

use crate::float::{self, FloatKind};
use crate::scalar::{Int, Packed, Scalar};
use num_bigint::{BigInt, BigUint, Sign};

/// The storage kind of one scalar lane of an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// An integer (or `index`) of this many bits.
    Int(u32),
    /// A float.
    Float(FloatKind),
    /// A complex number of two floats.
    Complex(FloatKind),
}

impl Lane {
    /// The scalar of this lane whose encoding is `bits` (a memory word a
    /// fast path read), packed: for a float or an integer of at most 64
    /// bits, `None` for the rest.
    #[inline(always)]
    pub fn packed(self, bits: u64) -> Option<Packed> {
        match self {
            Lane::Float(k) => Some(Packed::float(float::from_bits(k, u128::from(bits)))),
            Lane::Int(w @ 1..=64) => Some(Packed::word(w, bits & (u64::MAX >> (64 - w)))),
            Lane::Int(_) | Lane::Complex(_) => None,
        }
    }

    /// Bytes one lane occupies: its bit width rounded up to whole bytes.
    #[inline(always)]
    pub fn bytes(self) -> usize {
        // Not recursive for complex lanes, so it inlines into the fast paths.
        match self {
            Lane::Int(w) => w.div_ceil(8) as usize,
            Lane::Float(k) => k.bit_width().div_ceil(8) as usize,
            Lane::Complex(k) => 2 * k.bit_width().div_ceil(8) as usize,
        }
    }

    /// The lane a scalar is stored in; `None` for poison, which has no kind.
    pub fn of(s: &Scalar) -> Option<Lane> {
        match s {
            Scalar::Int(i) => Some(Lane::Int(i.width())),
            Scalar::Float(f) => Some(Lane::Float(f.kind)),
            Scalar::Complex(c) => Some(Lane::Complex(c.parts().0.kind)),
            Scalar::Poison(_) => None,
        }
    }

    /// The scalar encoded in `bytes` (exactly [`Lane::bytes`] of them).
    #[inline]
    pub fn decode(self, bytes: &[u8]) -> Scalar {
        match self {
            Lane::Int(w) => decode_int(w, bytes),
            Lane::Float(k) => Scalar::Float(float::from_bits(k, le_u128(bytes))),
            Lane::Complex(k) => {
                let h = bytes.len() / 2;
                Scalar::complex(float::from_bits(k, le_u128(&bytes[..h])), float::from_bits(k, le_u128(&bytes[h..])))
            }
        }
    }

    /// Encodes `s` into `out` (exactly [`Lane::bytes`] long); `None` when
    /// the scalar is poison or does not fit the lane kind.
    #[inline]
    pub fn encode(self, s: &Scalar, out: &mut [u8]) -> Option<()> {
        match (self, s) {
            (Lane::Int(_), Scalar::Int(i)) => encode_int(i, out),
            (Lane::Float(k), Scalar::Float(f)) if f.kind == k => put_le(f.bits, out),
            (Lane::Complex(k), Scalar::Complex(c)) if c.parts().0.kind == k && c.parts().1.kind == k => {
                let (re, im) = c.parts();
                let h = out.len() / 2;
                put_le(re.bits, &mut out[..h]);
                put_le(im.bits, &mut out[h..]);
            }
            _ => return None,
        }
        Some(())
    }
}

/// The little-endian number in `bytes` (at most 16 of them).
#[inline(always)]
pub(crate) fn le_u128(bytes: &[u8]) -> u128 {
    if let Ok(b) = <[u8; 4]>::try_from(bytes) {
        return u128::from(u32::from_le_bytes(b));
    }
    if let Ok(b) = <[u8; 8]>::try_from(bytes) {
        return u128::from(u64::from_le_bytes(b));
    }
    bytes.iter().rev().take(16).fold(0u128, |acc, b| acc << 8 | u128::from(*b))
}

/// Writes the low bytes of `v` into `out`, little-endian.
#[inline(always)]
pub(crate) fn put_le(v: u128, out: &mut [u8]) {
    // The usual lane sizes get one store of their own width each: a copy
    // of a length known only at run time is a call to memcpy (and copies
    // of fixed lengths in the arms of a `match` on it merge back into one).
    if let Ok(o) = <&mut [u8; 8]>::try_from(&mut *out) {
        *o = (v as u64).to_le_bytes();
    } else if let Ok(o) = <&mut [u8; 4]>::try_from(&mut *out) {
        *o = (v as u32).to_le_bytes();
    } else if let [o] = out {
        *o = v as u8;
    } else {
        let n = out.len().min(16);
        out[..n].copy_from_slice(&v.to_le_bytes()[..n]);
    }
}

fn decode_int(w: u32, bytes: &[u8]) -> Scalar {
    if w <= 128 {
        Scalar::Int(Int::from_u128(w, le_u128(bytes)))
    } else {
        Scalar::Int(Int::from_big(w, &BigInt::from_biguint(Sign::Plus, BigUint::from_bytes_le(bytes))))
    }
}

#[inline]
fn encode_int(i: &Int, out: &mut [u8]) {
    if let (Some(v), 1) = (i.word(), out.len()) {
        out[0] = v as u8;
        return;
    }
    match i.bits128() {
        Some(v) => put_le(v, out),
        None => {
            let (_, mag) = i.to_ubig().into_parts();
            let bytes = mag.to_bytes_le();
            for (k, b) in out.iter_mut().enumerate() {
                *b = bytes.get(k).copied().unwrap_or(0);
            }
        }
    }
}
