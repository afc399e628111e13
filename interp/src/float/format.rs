//! The table of float formats, as data (LLVM's `fltSemantics`), and the
//! encoding and decoding of bit patterns against it.
//!
//! Every format is described by its precision, exponent range and how it
//! spells the non-finite values; nothing else in `float/` matches on a
//! particular [`FloatKind`].

use super::FloatKind;

/// How a format represents infinities and NaNs (`fltNonfiniteBehavior`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonFinite {
    /// IEEE 754: exponent all ones means inf (mantissa 0) or NaN.
    Ieee,
    /// No infinity; what would be inf becomes NaN.
    NanOnly,
    /// Neither infinity nor NaN (f4/f6): overflow saturates.
    FiniteOnly,
}

/// Which bit patterns are NaN (`fltNanEncoding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NanEncoding {
    /// Exponent all ones, mantissa non-zero.
    Ieee,
    /// Exponent and mantissa all ones (f8E4M3FN, f8E8M0FNU).
    AllOnes,
    /// The negative-zero pattern `1000...0` (the FNUZ formats).
    NegativeZero,
}

/// One float format (LLVM `fltSemantics` plus the x87 explicit integer bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semantics {
    /// Storage width in bits.
    pub bits: u32,
    /// Significand bits, including the integer bit.
    pub precision: u32,
    /// Smallest exponent of a normal number.
    pub min_exp: i32,
    /// Largest exponent of a finite number.
    pub max_exp: i32,
    /// Infinity/NaN behaviour.
    pub non_finite: NonFinite,
    /// NaN bit patterns.
    pub nan_encoding: NanEncoding,
    /// Whether zero is representable (false only for f8E8M0FNU).
    pub has_zero: bool,
    /// Whether there is a sign bit (false only for f8E8M0FNU).
    pub has_sign: bool,
    /// Whether the integer bit is stored (x87 f80).
    pub explicit_int: bool,
}

const fn sem(bits: u32, precision: u32, min_exp: i32, max_exp: i32) -> Semantics {
    Semantics {
        bits,
        precision,
        min_exp,
        max_exp,
        non_finite: NonFinite::Ieee,
        nan_encoding: NanEncoding::Ieee,
        has_zero: true,
        has_sign: true,
        explicit_int: false,
    }
}

const fn nan_only(s: Semantics, nan_encoding: NanEncoding) -> Semantics {
    Semantics { non_finite: NonFinite::NanOnly, nan_encoding, ..s }
}

const fn finite_only(s: Semantics) -> Semantics {
    Semantics { non_finite: NonFinite::FiniteOnly, ..s }
}

const F8E4M3FN: Semantics = nan_only(sem(8, 4, -6, 8), NanEncoding::AllOnes);
const F8E5M2FNUZ: Semantics = nan_only(sem(8, 3, -15, 15), NanEncoding::NegativeZero);
const F8E4M3FNUZ: Semantics = nan_only(sem(8, 4, -7, 7), NanEncoding::NegativeZero);
const F8E4M3B11FNUZ: Semantics = nan_only(sem(8, 4, -10, 4), NanEncoding::NegativeZero);
const F8E8M0FNU: Semantics =
    Semantics { has_zero: false, has_sign: false, ..nan_only(sem(8, 1, -127, 127), NanEncoding::AllOnes) };
const F80: Semantics = Semantics { explicit_int: true, ..sem(80, 64, -16382, 16383) };

/// The semantics of `kind` (values from LLVM's `APFloat.cpp`).
pub fn semantics(kind: FloatKind) -> &'static Semantics {
    use FloatKind as K;
    const F4: Semantics = finite_only(sem(4, 2, 0, 2));
    const F6E2M3: Semantics = finite_only(sem(6, 4, 0, 2));
    const F6E3M2: Semantics = finite_only(sem(6, 3, -2, 4));
    const F8E5M2: Semantics = sem(8, 3, -14, 15);
    const F8E4M3: Semantics = sem(8, 4, -6, 7);
    const F8E3M4: Semantics = sem(8, 5, -2, 3);
    const BF16: Semantics = sem(16, 8, -126, 127);
    const F16: Semantics = sem(16, 11, -14, 15);
    const TF32: Semantics = sem(19, 11, -126, 127);
    const F32: Semantics = sem(32, 24, -126, 127);
    const F64: Semantics = sem(64, 53, -1022, 1023);
    const F128: Semantics = sem(128, 113, -16382, 16383);
    match kind {
        K::F4E2M1FN => &F4,
        K::F6E2M3FN => &F6E2M3,
        K::F6E3M2FN => &F6E3M2,
        K::F8E5M2 => &F8E5M2,
        K::F8E4M3 => &F8E4M3,
        K::F8E4M3FN => &F8E4M3FN,
        K::F8E5M2FNUZ => &F8E5M2FNUZ,
        K::F8E4M3FNUZ => &F8E4M3FNUZ,
        K::F8E4M3B11FNUZ => &F8E4M3B11FNUZ,
        K::F8E3M4 => &F8E3M4,
        K::F8E8M0FNU => &F8E8M0FNU,
        K::BF16 => &BF16,
        K::F16 => &F16,
        K::TF32 => &TF32,
        K::F32 => &F32,
        K::F64 => &F64,
        K::F80 => &F80,
        K::F128 => &F128,
    }
}

/// A decoded value: `Fin` is `(-1)^neg * sig * 2^exp` with `sig > 0`;
/// `neg` is the sign bit in every variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // the fields, named above
pub enum Val {
    /// Not a number (payload dropped).
    Nan { neg: bool },
    /// Infinity.
    Inf { neg: bool },
    /// A zero.
    Zero { neg: bool },
    /// A finite non-zero value.
    Fin { neg: bool, sig: u128, exp: i32 },
}

impl Semantics {
    /// Width of the stored mantissa field.
    pub fn man_bits(&self) -> u32 {
        self.precision - 1 + u32::from(self.explicit_int)
    }

    /// Width of the exponent field.
    pub fn exp_bits(&self) -> u32 {
        self.bits - u32::from(self.has_sign) - self.man_bits()
    }

    /// Exponent of the unit in the last place of subnormals (and of the
    /// smallest normal binade).
    pub fn min_lsb(&self) -> i32 {
        self.min_exp - (self.precision as i32 - 1)
    }

    /// The mask of all storage bits.
    pub fn mask(&self) -> u128 {
        low_ones(self.bits)
    }

    fn exp_all_ones(&self) -> u128 {
        low_ones(self.exp_bits())
    }

    /// The exponent field value of a normal number with exponent `e`:
    /// with no zero there are no subnormals and field 0 is `min_exp`.
    fn biased(&self, e: i32) -> u128 {
        let bias = if self.has_zero { 1 - self.min_exp } else { -self.min_exp };
        u128::try_from(e.saturating_add(bias)).unwrap_or(0)
    }

    fn sign_bit(&self, neg: bool) -> u128 {
        if neg && self.has_sign {
            1u128 << (self.bits - 1)
        } else {
            0
        }
    }

    fn pack(&self, neg: bool, field: u128, man: u128) -> u128 {
        self.sign_bit(neg) | (field << self.man_bits()) | man
    }

    /// Decodes a bit pattern (bits above the width are ignored).
    pub fn decode(&self, bits: u128) -> Val {
        let bits = bits & self.mask();
        let neg = self.has_sign && (bits >> (self.bits - 1)) & 1 == 1;
        let field = (bits >> self.man_bits()) & self.exp_all_ones();
        let man = bits & low_ones(self.man_bits());
        if self.is_nan_pattern(neg, field, man) {
            return Val::Nan { neg };
        }
        if self.explicit_int {
            return self.decode_x87(neg, field, man);
        }
        let top = field == self.exp_all_ones();
        if self.non_finite == NonFinite::Ieee && top {
            return Val::Inf { neg };
        }
        if field == 0 && self.has_zero {
            return if man == 0 { Val::Zero { neg } } else { self.fin(neg, man, self.min_lsb()) };
        }
        let e = self.unbias(field);
        self.fin(neg, man | (1u128 << (self.precision - 1)), e - (self.precision as i32 - 1))
    }

    fn unbias(&self, field: u128) -> i32 {
        let bias = if self.has_zero { 1 - self.min_exp } else { -self.min_exp };
        i32::try_from(field).unwrap_or(i32::MAX).saturating_sub(bias)
    }

    fn fin(&self, neg: bool, sig: u128, exp: i32) -> Val {
        Val::Fin { neg, sig, exp }
    }

    fn is_nan_pattern(&self, neg: bool, field: u128, man: u128) -> bool {
        let top = field == self.exp_all_ones();
        match (self.non_finite, self.nan_encoding) {
            (NonFinite::FiniteOnly, _) => false,
            (NonFinite::Ieee, _) if self.explicit_int => {
                top && man != 1u128 << 63 || !top && field != 0 && man >> 63 == 0
            }
            (NonFinite::Ieee, _) => top && man != 0,
            (NonFinite::NanOnly, NanEncoding::NegativeZero) => neg && field == 0 && man == 0,
            (NonFinite::NanOnly, _) => top && man == low_ones(self.man_bits()),
        }
    }

    /// x87: explicit integer bit; exponent field 0 is `min_exp` whatever
    /// the integer bit says (pseudo-denormals decode to their value).
    fn decode_x87(&self, neg: bool, field: u128, man: u128) -> Val {
        if field == self.exp_all_ones() {
            return Val::Inf { neg };
        }
        if field == 0 && man == 0 {
            return Val::Zero { neg };
        }
        let e = if field == 0 { self.min_exp } else { self.unbias(field) };
        self.fin(neg, man, e - 63)
    }

    /// Encodes a finite value `sig * 2^exp`, `0 < sig < 2^precision`, that
    /// is already in range: either normal, or subnormal with `exp ==
    /// min_lsb()`.
    pub fn encode_fin(&self, neg: bool, sig: u128, exp: i32) -> u128 {
        let p = self.precision;
        let normal = sig >> (p - 1) != 0;
        let field = if normal { self.biased(exp + (p as i32 - 1)) } else { 0 };
        let man = if self.explicit_int { sig } else { sig & low_ones(p - 1) };
        self.pack(neg, field, man)
    }

    /// A zero; FNUZ zeros are always positive and a format without zero
    /// gives its smallest value, as APFloat's `normalize` does.
    pub fn encode_zero(&self, neg: bool) -> u128 {
        if !self.has_zero {
            return self.encode_fin(false, 1, self.min_exp);
        }
        self.pack(neg && self.nan_encoding != NanEncoding::NegativeZero, 0, 0)
    }

    /// The canonical quiet NaN with sign `neg` (ignored where the format has
    /// a single NaN). FiniteOnly formats have no NaN: they get the
    /// negative-zero pattern, as XLA and ml_dtypes map NaN (see `mod.rs`).
    pub fn encode_nan(&self, neg: bool) -> u128 {
        let p = self.precision;
        match (self.non_finite, self.nan_encoding) {
            (NonFinite::FiniteOnly, _) => self.pack(true, 0, 0),
            (_, NanEncoding::NegativeZero) => self.pack(true, 0, 0),
            (NonFinite::NanOnly, _) => self.pack(neg, self.exp_all_ones(), low_ones(self.man_bits())),
            (NonFinite::Ieee, _) if self.explicit_int => self.pack(neg, self.exp_all_ones(), 3u128 << 62),
            (NonFinite::Ieee, _) => self.pack(neg, self.exp_all_ones(), 1u128 << (p - 2)),
        }
    }

    /// Infinity; NaN where there is none, the largest finite value where
    /// there is no NaN either.
    pub fn encode_inf(&self, neg: bool) -> u128 {
        match self.non_finite {
            NonFinite::Ieee if self.explicit_int => self.pack(neg, self.exp_all_ones(), 1u128 << 63),
            NonFinite::Ieee => self.pack(neg, self.exp_all_ones(), 0),
            NonFinite::NanOnly => self.encode_nan(neg),
            NonFinite::FiniteOnly => self.encode_max(neg),
        }
    }

    /// The largest finite significand (`makeLargest`).
    pub fn max_sig(&self) -> u128 {
        let all = low_ones(self.precision);
        let nan_takes_top =
            self.non_finite == NonFinite::NanOnly && self.nan_encoding == NanEncoding::AllOnes && self.precision > 1;
        if nan_takes_top {
            all - 1
        } else {
            all
        }
    }

    /// The largest finite value with sign `neg`.
    pub fn encode_max(&self, neg: bool) -> u128 {
        self.encode_fin(neg, self.max_sig(), self.max_exp - (self.precision as i32 - 1))
    }
}

/// `n` low bits set (`n` up to 128).
#[inline(always)]
pub fn low_ones(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}
