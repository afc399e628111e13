//! The `complex` dialect on `complex<f16|bf16|f32|f64>`, as
//! `Scalar::Complex` (see `value::Complex`).
//!
//! The reference is LLVM 22's `convert-complex-to-standard` lowering: every
//! op is computed with the same formula, step for step, in the same order,
//! so results match bit for bit. Arithmetic steps go through the exact
//! float layer (`crate::float`); transcendental steps (`math.exp`, `sin`,
//! `cos`, `log`, `log1p`, `expm1`, `atan2`, `powf`) call the host's libm
//! through Rust's `f32`/`f64` methods, as mlir-runner does after
//! `convert-math-to-llvm`/`-libm`. f16 and bf16 compute those in f32 and
//! round back, as the x86 backend promotes them. `convert-math-to-llvm`
//! runs before `-libm` in the reference pipeline, so `math.expm1` is
//! `exp(x) - 1`, `math.log1p` is `log(1 + x)` and `math.rsqrt` is
//! `1 / sqrt(x)` (not the libm functions); `math.fma` is fused.
//!
//! NaN results carry the float layer's canonical (positive) NaN, where x86
//! makes a negative one for invalid operations (the book, "Floats":
//! NaNs compare as a class), so a NaN part may print `nan` where mlir-runner prints `-nan`.
//!
//! `complex.div` is the default "improved" range-reduction algorithm
//! (Smith's method with the lowering's special cases), and `complex.abs`
//! scales by the larger part, so neither overflows spuriously.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, Float, FloatKind, Round};
use crate::value::{map1, map2, Int, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::ComplexOp;
use mlir_ir::types::TypeKind;

use crate::sem::fp::{maximumf, To};

/// Executes one complex op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: ComplexOp) -> Result<Flow> {
    use ComplexOp::*;
    match kind {
        Create => create(e, fr, op),
        Constant => constant(e, fr, op),
        Re => to_real(e, fr, op, |_, (re, _)| re),
        Im => to_real(e, fr, op, |_, (_, im)| im),
        Abs => to_real(e, fr, op, |c, (re, im)| c.abs(re, im, AbsFn::Abs)),
        Angle => to_real(e, fr, op, |c, (re, im)| c.atan2(im, re)),
        Add => binary(e, fr, op, |c, a, b| (c.add(a.0, b.0), c.add(a.1, b.1))),
        Sub => binary(e, fr, op, |c, a, b| (c.sub(a.0, b.0), c.sub(a.1, b.1))),
        Mul => binary(e, fr, op, C::mul),
        Div => binary(e, fr, op, C::div),
        Pow => binary(e, fr, op, |c, a, b| c.pow(a, b.0, b.1)),
        Atan2 => binary(e, fr, op, C::atan2_complex),
        Powi => powi(e, fr, op),
        Neg => unary(e, fr, op, |_, (re, im)| (float::neg(re), float::neg(im))),
        Conj => unary(e, fr, op, |_, (re, im)| (re, float::neg(im))),
        Exp => unary(e, fr, op, C::exp),
        Expm1 => unary(e, fr, op, C::expm1),
        Log => unary(e, fr, op, C::log),
        Log1p => unary(e, fr, op, C::log1p),
        Sqrt => unary(e, fr, op, C::sqrt),
        Rsqrt => unary(e, fr, op, C::rsqrt),
        Sin => unary(e, fr, op, |c, z| c.trig(z, true)),
        Cos => unary(e, fr, op, |c, z| c.trig(z, false)),
        Tan => unary(e, fr, op, |c, z| c.tan_tanh(z, true)),
        Tanh => unary(e, fr, op, |c, z| c.tan_tanh(z, false)),
        Sign => unary(e, fr, op, C::sign),
        Eq => compare(e, fr, op, true),
        Neq => compare(e, fr, op, false),
        Bitcast => bitcast(e, fr, op),
    }
}

type Z = (Float, Float);

/// Which quantity [`C::abs`] computes (`computeAbs` in the lowering).
#[derive(Clone, Copy, PartialEq, Eq)]
enum AbsFn {
    Abs,
    Sqrt,
    Rsqrt,
}

/// The arithmetic of one element format, in the lowering's vocabulary.
#[derive(Clone, Copy)]
struct C {
    k: FloatKind,
}

const NE: Round = Round::NearestEven;

impl C {
    /// The constant `x` of this format (`getFloatAttr(type, double)`).
    fn cst(self, x: f64) -> Float {
        let d = float::from_bits(FloatKind::F64, u128::from(x.to_bits()));
        float::convert(d, self.k, NE).unwrap_or_else(|_| float::nan(self.k))
    }
    fn zero(self) -> Float {
        float::from_bits(self.k, 0)
    }
    fn inf(self) -> Float {
        self.cst(f64::INFINITY)
    }
    fn nan(self) -> Float {
        float::nan(self.k)
    }
    fn add(self, a: Float, b: Float) -> Float {
        float::add(a, b, NE)
    }
    fn sub(self, a: Float, b: Float) -> Float {
        float::sub(a, b, NE)
    }
    fn fmul(self, a: Float, b: Float) -> Float {
        float::mul(a, b, NE)
    }
    fn fdiv(self, a: Float, b: Float) -> Float {
        float::div(a, b, NE)
    }
    fn sqrt_r(self, a: Float) -> Float {
        float::sqrt(a, NE)
    }
    /// `math.rsqrt`, lowered to `1 / sqrt(x)`.
    fn rsqrt_r(self, a: Float) -> Float {
        self.fdiv(self.cst(1.0), self.sqrt_r(a))
    }
    /// `math.fma`: fused in f32/f64; f16/bf16 are promoted to f32.
    fn fma(self, a: Float, b: Float, c: Float) -> Float {
        match self.k {
            FloatKind::F16 | FloatKind::BF16 => {
                let up =
                    |x: Float| float::convert(x, FloatKind::F32, NE).unwrap_or_else(|_| float::nan(FloatKind::F32));
                let r = float::fma(up(a), up(b), up(c), NE);
                float::convert(r, self.k, NE).unwrap_or_else(|_| self.nan())
            }
            _ => float::fma(a, b, c, NE),
        }
    }
    fn copysign(self, mag: Float, sign: Float) -> Float {
        let m = float::abs(mag);
        if float::is_negative(sign) {
            float::neg(m)
        } else {
            m
        }
    }
    fn oeq(self, a: Float, b: Float) -> bool {
        float::compare(a, b) == float::Ordering::Equal
    }
    fn uno(self, a: Float) -> bool {
        float::is_nan(a)
    }
    fn sel(c: bool, a: Float, b: Float) -> Float {
        if c {
            a
        } else {
            b
        }
    }

    /// A libm function of one argument, in the host format that mlir-runner
    /// calls (f16/bf16 go through f32).
    fn host1(self, a: Float, f32f: fn(f32) -> f32, f64f: fn(f64) -> f64) -> Float {
        match self.k {
            FloatKind::F64 => float::from_bits(self.k, u128::from(f64f(float::to_f64(a)).to_bits())),
            _ => {
                let x = float::to_f64(a) as f32;
                let r = float::from_bits(FloatKind::F32, u128::from(f32f(x).to_bits()));
                float::convert(r, self.k, NE).unwrap_or_else(|_| self.nan())
            }
        }
    }
    fn host2(self, a: Float, b: Float, f32f: fn(f32, f32) -> f32, f64f: fn(f64, f64) -> f64) -> Float {
        match self.k {
            FloatKind::F64 => float::from_bits(self.k, u128::from(f64f(float::to_f64(a), float::to_f64(b)).to_bits())),
            _ => {
                let (x, y) = (float::to_f64(a) as f32, float::to_f64(b) as f32);
                let r = float::from_bits(FloatKind::F32, u128::from(f32f(x, y).to_bits()));
                float::convert(r, self.k, NE).unwrap_or_else(|_| self.nan())
            }
        }
    }
    fn exp_f(self, a: Float) -> Float {
        self.host1(a, f32::exp, f64::exp)
    }
    /// `math.expm1`, which `convert-math-to-llvm` expands to `exp(x) - 1`.
    fn expm1_f(self, a: Float) -> Float {
        self.sub(self.exp_f(a), self.cst(1.0))
    }
    fn log_f(self, a: Float) -> Float {
        self.host1(a, f32::ln, f64::ln)
    }
    /// `math.log1p`, which `convert-math-to-llvm` expands to `log(1 + x)`.
    fn log1p_f(self, a: Float) -> Float {
        self.log_f(self.add(self.cst(1.0), a))
    }
    fn sin(self, a: Float) -> Float {
        self.host1(a, f32::sin, f64::sin)
    }
    fn cos(self, a: Float) -> Float {
        self.host1(a, f32::cos, f64::cos)
    }
    fn atan2(self, y: Float, x: Float) -> Float {
        self.host2(y, x, f32::atan2, f64::atan2)
    }
    fn powf(self, a: Float, b: Float) -> Float {
        self.host2(a, b, f32::powf, f64::powf)
    }

    /// `computeAbs`: `max * sqrt(1 + (min/max)^2)` (or its square root or
    /// reciprocal square root), `min` when that is NaN.
    fn abs(self, re: Float, im: Float, f: AbsFn) -> Float {
        let one = self.cst(1.0);
        let (ar, ai) = (float::abs(re), float::abs(im));
        let mut max = maximumf(ar, ai, true);
        let mut min = maximumf(ar, ai, false);
        let ratio = self.fdiv(min, max);
        let mut rsp1 = self.add(self.fmul(ratio, ratio), one);
        if f == AbsFn::Rsqrt {
            rsp1 = self.rsqrt_r(rsp1);
            min = self.rsqrt_r(min);
            max = self.rsqrt_r(max);
        }
        let result = if f == AbsFn::Sqrt {
            let s = self.sqrt_r(max);
            let p025 = self.powf(rsp1, self.cst(0.25));
            self.fmul(s, p025)
        } else {
            self.fmul(max, self.sqrt_r(rsp1))
        };
        Self::sel(self.uno(result), min, result)
    }

    /// `(a + bi)(c + di) = (ac - bd) + (bc + ad)i`.
    fn mul(self, l: Z, r: Z) -> Z {
        let re = self.sub(self.fmul(l.0, r.0), self.fmul(l.1, r.1));
        let im = self.add(self.fmul(l.1, r.0), self.fmul(l.0, r.1));
        (re, im)
    }

    /// Smith's division with the lowering's special cases.
    fn div(self, l: Z, r: Z) -> Z {
        let (lr, li, rr, ri) = (l.0, l.1, r.0, r.1);
        let ratio1 = self.fdiv(rr, ri);
        let denom1 = self.add(ri, self.fmul(ratio1, rr));
        let re1 = self.fdiv(self.add(self.fmul(lr, ratio1), li), denom1);
        let im1 = self.fdiv(self.sub(self.fmul(li, ratio1), lr), denom1);
        let ratio2 = self.fdiv(ri, rr);
        let denom2 = self.add(rr, self.fmul(ratio2, ri));
        let re2 = self.fdiv(self.add(lr, self.fmul(li, ratio2)), denom2);
        let im2 = self.fdiv(self.sub(li, self.fmul(lr, ratio2)), denom2);

        let (zero, one, inf) = (self.zero(), self.cst(1.0), self.inf());
        let ord = |x: Float| !self.uno(x);
        let one_ = |x: Float, y: Float| {
            float::compare(x, y) == float::Ordering::Less || float::compare(x, y) == float::Ordering::Greater
        };
        let (rra, ria) = (float::abs(rr), float::abs(ri));
        let (lra, lia) = (float::abs(lr), float::abs(li));
        // Case 1: zero denominator, numerator not all NaN.
        let is_inf_result = (ord(lr) || ord(li)) && self.oeq(rra, zero) && self.oeq(ria, zero);
        let inf_sign = self.copysign(inf, rr);
        let re_c1 = self.fmul(inf_sign, lr);
        let im_c1 = self.fmul(inf_sign, li);
        // Case 2: infinite numerator, finite denominator.
        let rhs_finite = one_(rra, inf) && one_(ria, inf);
        let (lr_inf, li_inf) = (self.oeq(lra, inf), self.oeq(lia, inf));
        let inf_num = (lr_inf || li_inf) && rhs_finite;
        let lrs = self.copysign(Self::sel(lr_inf, one, zero), lr);
        let lis = self.copysign(Self::sel(li_inf, one, zero), li);
        let re_c2 = self.fmul(inf, self.add(self.fmul(lrs, rr), self.fmul(lis, ri)));
        let im_c2 = self.fmul(inf, self.sub(self.fmul(lis, rr), self.fmul(lrs, ri)));
        // Case 3: finite numerator, infinite denominator.
        let lhs_finite = one_(lra, inf) && one_(lia, inf);
        let (rr_inf, ri_inf) = (self.oeq(rra, inf), self.oeq(ria, inf));
        let inf_den = lhs_finite && (rr_inf || ri_inf);
        let rrs = self.copysign(Self::sel(rr_inf, one, zero), rr);
        let ris = self.copysign(Self::sel(ri_inf, one, zero), ri);
        let re_c3 = self.fmul(zero, self.add(self.fmul(lr, rrs), self.fmul(li, ris)));
        let im_c3 = self.fmul(zero, self.sub(self.fmul(li, rrs), self.fmul(lr, ris)));

        let small_re = float::compare(rra, ria) == float::Ordering::Less;
        let re5 = Self::sel(small_re, re1, re2);
        let im5 = Self::sel(small_re, im1, im2);
        let re_s3 = Self::sel(inf_den, re_c3, re5);
        let im_s3 = Self::sel(inf_den, im_c3, im5);
        let re_s2 = Self::sel(inf_num, re_c2, re_s3);
        let im_s2 = Self::sel(inf_num, im_c2, im_s3);
        let re_s1 = Self::sel(is_inf_result, re_c1, re_s2);
        let im_s1 = Self::sel(is_inf_result, im_c1, im_s2);
        let is_nan = self.uno(re5) && self.uno(im5);
        (Self::sel(is_nan, re_s1, re5), Self::sel(is_nan, im_s1, im5))
    }

    /// `exp(x)cos(y) + exp(x)sin(y)i`; where `exp(x)` overflows, each part
    /// is `(exp(x/2) * trig(y)) * exp(x/2)`, and a zero `y` gives a +0
    /// imaginary part (so `exp(huge + 0i)` is `inf + 0i`, not `inf + NaN i`).
    fn exp(self, z: Z) -> Z {
        let (re, im) = z;
        let e = self.exp_f(re);
        let e_half = self.exp_f(self.fmul(re, self.cst(0.5)));
        let (c, s) = (self.cos(im), self.sin(im));
        let overflow = self.oeq(e, self.inf());
        let part = |t: Float| Self::sel(overflow, self.fmul(self.fmul(e_half, t), e_half), self.fmul(e, t));
        (part(c), Self::sel(self.oeq(im, self.zero()), self.zero(), part(s)))
    }

    /// `cos(x) - 1` with the cephes polynomial for small arguments.
    fn cosm1(self, x: Float) -> Float {
        // The digits of the lowering's source: parsed to the same doubles.
        #[allow(clippy::excessive_precision)]
        const K: [f64; 7] = [
            4.7377507964246204691685E-14,
            -1.1470284843425359765671E-11,
            2.0876754287081521758361E-9,
            -2.7557319214999787979814E-7,
            2.4801587301570552304991E-5,
            -1.3888888888888872993737E-3,
            4.1666666666666666609054E-2,
        ];
        let large = self.add(self.cos(x), self.cst(-1.0));
        let x2 = self.fmul(x, x);
        let x4 = self.fmul(x2, x2);
        let mut poly = self.cst(K[0]);
        for c in &K[1..] {
            poly = self.fma(poly, x2, self.cst(*c));
        }
        let small = self.add(self.fmul(x4, poly), self.fmul(self.cst(-0.5), x2));
        let ge = matches!(float::compare(x2, self.cst(0.61685)), float::Ordering::Greater | float::Ordering::Equal);
        Self::sel(ge, large, small)
    }

    /// `expm1(x)cos(y) + cosm1(y)` and `exp(x)sin(y)` (0 when `y == 0`).
    fn expm1(self, z: Z) -> Z {
        let (re, im) = z;
        let one = self.cst(1.0);
        let em1 = self.expm1_f(re);
        let er = self.add(em1, one);
        let s = self.sin(im);
        let cm1 = self.cosm1(im);
        let c = self.add(cm1, one);
        let r = self.add(self.fmul(em1, c), cm1);
        let i = Self::sel(self.oeq(im, self.zero()), self.zero(), self.fmul(er, s));
        (r, i)
    }

    /// `log|z| + atan2(y, x)i`.
    fn log(self, z: Z) -> Z {
        let a = self.abs(z.0, z.1, AbsFn::Abs);
        (self.log_f(a), self.atan2(z.1, z.0))
    }

    /// `log1p`, scaled by the larger of `|x + 1|` and `|y|`.
    fn log1p(self, z: Z) -> Z {
        let (re, im) = z;
        let (half, one) = (self.cst(0.5), self.cst(1.0));
        let rp1 = self.add(re, one);
        let (a, b) = (float::abs(rp1), float::abs(im));
        let max = maximumf(a, b, true);
        let min = maximumf(a, b, false);
        let use_real = float::compare(rp1, b) == float::Ordering::Greater;
        let m = Self::sel(use_real, re, self.sub(max, one));
        let ratio = self.fdiv(min, max);
        let log_max = self.log1p_f(m);
        let log_sqrt = self.log1p_f(self.fmul(ratio, ratio));
        let r = self.add(self.fmul(half, log_sqrt), log_max);
        (Self::sel(self.uno(r), min, r), self.atan2(im, rp1))
    }

    /// Principal square root (the ACM 363717 algorithm of the lowering).
    fn sqrt(self, z: Z) -> Z {
        let (re, im) = z;
        let (zero, half, inf) = (self.zero(), self.cst(0.5), self.inf());
        let abs_sqrt = self.abs(re, im, AbsFn::Sqrt);
        let arg = self.fmul(self.atan2(im, re), half);
        let (c, s) = (self.cos(arg), self.sin(arg));
        let mut r = self.fmul(abs_sqrt, c);
        let mut i = Self::sel(self.oeq(s, zero), zero, self.fmul(abs_sqrt, s));
        let ai = float::abs(im);
        let ai_inf = self.oeq(ai, inf);
        let ai_not_inf = !self.uno(ai) && !self.oeq(ai, inf);
        let re_inf = self.oeq(re, inf);
        let re_neg_inf = self.oeq(re, float::neg(inf));
        r = Self::sel(re_neg_inf && ai_not_inf, zero, r);
        r = Self::sel(ai_inf || re_inf, inf, r);
        i = Self::sel(self.uno(abs_sqrt), self.nan(), i);
        i = Self::sel(ai_inf || re_neg_inf, self.copysign(inf, im), i);
        let is_zero = self.oeq(abs_sqrt, zero);
        (Self::sel(is_zero, zero, r), Self::sel(is_zero, zero, i))
    }

    /// `1 / sqrt(z)`.
    fn rsqrt(self, z: Z) -> Z {
        let (re, im) = z;
        let (zero, inf, nan) = (self.zero(), self.inf(), self.nan());
        let abs_rsqrt = self.abs(re, im, AbsFn::Rsqrt);
        let arg = self.fmul(self.atan2(im, re), self.cst(-0.5));
        let (c, s) = (self.cos(arg), self.sin(arg));
        let mut r = self.fmul(abs_rsqrt, c);
        let mut i = self.fmul(abs_rsqrt, s);
        let re_sz = self.copysign(zero, re);
        let neg_im_sz = self.fmul(self.cst(-1.0), self.copysign(zero, im));
        let ai_inf = self.oeq(float::abs(im), inf);
        let re_inf = self.oeq(float::abs(re), inf);
        let result_zero = (ai_inf && self.uno(re)) || re_inf;
        r = Self::sel(result_zero, re_sz, r);
        i = Self::sel(result_zero, neg_im_sz, i);
        let is_zero = self.oeq(re, zero) && self.oeq(im, zero);
        (Self::sel(is_zero, inf, r), Self::sel(is_zero, nan, i))
    }

    /// `sin` (`is_sin`) or `cos` through `t = exp(y)`.
    fn trig(self, z: Z, is_sin: bool) -> Z {
        let half = self.cst(0.5);
        let e = self.exp_f(z.1);
        let scaled = self.fmul(half, e);
        let recip = self.fdiv(half, e);
        let (s, c) = (self.sin(z.0), self.cos(z.0));
        if is_sin {
            (self.fmul(self.add(scaled, recip), s), self.fmul(self.sub(scaled, recip), c))
        } else {
            (self.fmul(self.add(recip, scaled), c), self.fmul(self.sub(recip, scaled), s))
        }
    }

    /// `tanh` via `expm1`; `tan(x + yi) = -i tanh(-y + xi)`.
    fn tan_tanh(self, z: Z, is_tan: bool) -> Z {
        let neg_one = self.cst(-1.0);
        let (real, imag) = if is_tan { (self.fmul(z.1, neg_one), z.0) } else { z };
        let (inf, four) = (self.inf(), self.cst(4.0));
        let two_real = self.add(real, real);
        let neg_two_real = self.fmul(neg_one, two_real);
        let e1 = self.expm1_f(two_real);
        let e2 = self.expm1_f(neg_two_real);
        let real_num = self.sub(e1, e2);
        let ci = self.cos(imag);
        let two_cos = self.fmul(self.fmul(ci, ci), four);
        let si = self.sin(imag);
        let imag_num = self.fmul(four, self.fmul(ci, si));
        let esum = self.add(e1, e2);
        let denom = self.add(esum, two_cos);
        let is_inf = self.oeq(esum, inf);
        let limit = self.copysign(neg_one, real);
        let mut r = Self::sel(is_inf, limit, self.fdiv(real_num, denom));
        let mut i = self.fdiv(imag_num, denom);
        let ar_inf = self.oeq(float::abs(real), inf);
        let imag_zero = self.oeq(imag, self.zero());
        let num_nan = self.uno(imag_num);
        r = Self::sel(num_nan && !ar_inf, self.nan(), r);
        i = Self::sel(imag_zero || (ar_inf && num_nan), self.zero(), i);
        if is_tan {
            (i, self.fmul(r, neg_one))
        } else {
            (r, i)
        }
    }

    /// `z / |z|`, or `z` itself when it is zero.
    fn sign(self, z: Z) -> Z {
        let zero = self.zero();
        if self.oeq(z.0, zero) && self.oeq(z.1, zero) {
            return z;
        }
        let a = self.abs(z.0, z.1, AbsFn::Abs);
        (self.fdiv(z.0, a), self.fdiv(z.1, a))
    }

    /// `(a + bi)^(c + di)` with the lowering's cut-offs for 0, 1 and inf.
    fn pow(self, l: Z, c: Float, d: Float) -> Z {
        let (a, b) = l;
        let (zero, one, inf) = (self.zero(), self.cst(1.0), self.inf());
        let abs = self.abs(a, b, AbsFn::Abs);
        let abs_to_c = self.powf(abs, c);
        let arg = self.atan2(b, a);
        let exp_neg_d_arg = self.exp_f(self.fmul(float::neg(d), arg));
        let coeff = self.fmul(abs_to_c, exp_neg_d_arg);
        let ln_abs = self.log_f(abs);
        let q = self.add(self.fmul(c, arg), self.fmul(d, ln_abs));
        let (cq, sq) = (self.cos(q), self.sin(q));
        let (abs0, d0, c0, b0) = (self.oeq(abs, zero), self.oeq(d, zero), self.oeq(c, zero), self.oeq(b, zero));
        let zero_le_c = matches!(float::compare(zero, c), float::Ordering::Less | float::Ordering::Equal);
        let one_or_zero = if c0 { (one, zero) } else { (zero, zero) };
        let mut out = if abs0 && d0 && zero_le_c { one_or_zero } else { (self.fmul(coeff, cq), self.fmul(coeff, sq)) };
        if c0 && d0 {
            out = (one, zero);
        }
        if self.oeq(a, one) && b0 {
            out = (one, zero);
        }
        let lhs_inf = self.oeq(a, inf) && b0;
        if lhs_inf && d0 && float::compare(c, zero) == float::Ordering::Greater {
            out = (inf, zero);
        }
        if lhs_inf && d0 && float::compare(c, zero) == float::Ordering::Less {
            out = (zero, zero);
        }
        out
    }

    /// `atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2))`, in complex ops.
    fn atan2_complex(self, y: Z, x: Z) -> Z {
        let (zero, one) = (self.zero(), self.cst(1.0));
        let x2 = self.mul(x, x);
        let y2 = self.mul(y, y);
        let s = self.sqrt((self.add(x2.0, y2.0), self.add(x2.1, y2.1)));
        let iy = self.mul((zero, one), y);
        let num = (self.add(x.0, iy.0), self.add(x.1, iy.1));
        let lg = self.log(self.div(num, s));
        self.mul((zero, self.cst(-1.0)), lg)
    }
}

// ---- plumbing ------------------------------------------------------------

/// The element format of the op's complex operand (or result).
fn fmt(e: &Engine, op: OpId) -> Result<C> {
    let ty = e.operand_type(op, 0).filter(|t| matches!(e.m.ctx.type_kind(*t), TypeKind::Complex(_)));
    let ty = ty.unwrap_or_else(|| e.result_type(op, 0));
    let elem = match e.m.ctx.type_kind(e.elem_type(ty)) {
        TypeKind::Complex(el) => *el,
        _ => return Err(Error::unverified(op, "expected a complex type")),
    };
    match e.m.ctx.type_kind(elem) {
        TypeKind::Float(k @ (FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64)) => Ok(C { k: *k }),
        _ => Err(Error::at(
            op,
            ErrorKind::Unsupported(format!(
                "complex element type {} (only f16, bf16, f32 and f64)",
                mlir_ir::printer::type_to_string(&e.m.ctx, elem)
            )),
        )),
    }
}

fn parts(op: OpId, s: &Scalar) -> Result<Z> {
    match s {
        Scalar::Complex(c) => Ok(c.parts()),
        _ => Err(Error::unverified(op, "expected a complex value")),
    }
}

fn bad(op: OpId) -> impl Fn() -> Error {
    move || Error::unverified(op, "operand shapes do not match")
}

fn unary(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(C, Z) -> Z) -> Result<Flow> {
    let c = fmt(e, op)?;
    let v = map1(
        e.arg(fr, op, 0)?,
        |s| match s {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            _ => {
                let (re, im) = f(c, parts(op, s)?);
                Ok(Scalar::complex(re, im))
            }
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

fn binary(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(C, Z, Z) -> Z) -> Result<Flow> {
    let c = fmt(e, op)?;
    let v = map2(
        e.arg(fr, op, 0)?,
        e.arg(fr, op, 1)?,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            _ => {
                let (re, im) = f(c, parts(op, x)?, parts(op, y)?);
                Ok(Scalar::complex(re, im))
            }
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

fn to_real(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(C, Z) -> Float) -> Result<Flow> {
    let c = fmt(e, op)?;
    let v = map1(
        e.arg(fr, op, 0)?,
        |s| match s {
            Scalar::Poison(p) => Ok(Scalar::Poison(*p)),
            _ => Ok(Scalar::Float(f(c, parts(op, s)?))),
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

/// `complex.eq` (both parts `oeq`) and `complex.neq` (either part `une`).
fn compare(e: &Engine, fr: &mut Frame, op: OpId, eq: bool) -> Result<Flow> {
    let v = map2(
        e.arg(fr, op, 0)?,
        e.arg(fr, op, 1)?,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            _ => {
                let (a, b) = (parts(op, x)?, parts(op, y)?);
                let same = |p: Float, q: Float| float::compare(p, q) == float::Ordering::Equal;
                let r = if eq { same(a.0, b.0) && same(a.1, b.1) } else { !same(a.0, b.0) || !same(a.1, b.1) };
                Ok(Scalar::Int(Int::bool(r)))
            }
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

/// `complex.create %re, %im`.
fn create(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = map2(
        e.arg(fr, op, 0)?,
        e.arg(fr, op, 1)?,
        |x, y| match (x, y) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (Scalar::Float(a), Scalar::Float(b)) => Ok(Scalar::complex(*a, *b)),
            _ => Err(Error::unverified(op, "complex.create of non-float parts")),
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

/// `complex.constant [re, im]`.
fn constant(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let elem = match e.m.ctx.type_kind(e.result_type(op, 0)) {
        TypeKind::Complex(el) => *el,
        _ => return Err(Error::unverified(op, "complex.constant of a non-complex type")),
    };
    let Some(Attribute::Array(items)) = e.m.attr(op, "value").map(|a| e.m.ctx.attr_kind(a)) else {
        return Err(Error::unverified(op, "complex.constant needs [re, im]"));
    };
    let [re, im] = items.as_slice() else { return Err(Error::unverified(op, "complex.constant needs [re, im]")) };
    let part = |a| match e.attr_value(op, a, elem)?.scalar() {
        Some(Scalar::Float(f)) => Ok(f),
        // mlir-opt accepts `complex<i32>` constants; no complex op computes
        // on integer parts, so this engine does not model them.
        Some(Scalar::Int(_)) => Err(Error::at(
            op,
            ErrorKind::Unsupported(
                "complex numbers with integer parts (complex.constant of an integer complex type)".into(),
            ),
        )),
        _ => Err(Error::unverified(op, "complex.constant parts must be floats")),
    };
    let v = Scalar::complex(part(*re)?, part(*im)?);
    e.assign(fr, op, Value::from_scalar(v))
}

/// `complex.powi %z, %n`: `pow(z, sitofp(n) + 0i)`.
fn powi(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let c = fmt(e, op)?;
    let v = map2(
        e.arg(fr, op, 0)?,
        e.arg(fr, op, 1)?,
        |x, n| match (x, n) {
            (Scalar::Poison(p), _) | (_, Scalar::Poison(p)) => Ok(Scalar::Poison(*p)),
            (_, Scalar::Int(n)) => {
                let f = float::from_int(&n.to_sbig(), c.k, NE)
                    .map_err(|x| Error::at(op, ErrorKind::NoDefinedResult(x.to_string())))?;
                let (re, im) = c.pow(parts(op, x)?, f, c.zero());
                Ok(Scalar::complex(re, im))
            }
            _ => Err(Error::unverified(op, "complex.powi exponent must be an integer")),
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

/// `complex.bitcast`: a complex's bits are its real part (low) then its
/// imaginary part (high), as in memory on a little-endian target.
fn bitcast(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let rty = e.result_type(op, 0);
    let to = match e.m.ctx.type_kind(rty) {
        TypeKind::Complex(el) => match e.m.ctx.type_kind(*el) {
            TypeKind::Float(k) => Some(*k),
            _ => None,
        },
        _ => None,
    };
    let to_scalar = match e.m.ctx.type_kind(rty) {
        TypeKind::Float(k) => Some(To::Float(*k)),
        _ => e.int_width(rty).map(To::Int),
    };
    let v = map1(
        e.arg(fr, op, 0)?,
        |s| {
            let bits: u128 = match s {
                Scalar::Poison(p) => return Ok(Scalar::Poison(*p)),
                Scalar::Complex(c) => {
                    let (re, im) = c.parts();
                    re.bits | (im.bits << re.kind.bit_width())
                }
                Scalar::Float(f) => f.bits,
                Scalar::Int(i) => i.bits128().unwrap_or(0),
            };
            match (to, to_scalar) {
                (Some(k), _) => {
                    let w = k.bit_width();
                    let lo = bits & ((1u128 << w) - 1);
                    Ok(Scalar::complex(float::from_bits(k, lo), float::from_bits(k, bits >> w)))
                }
                (None, Some(To::Float(k))) => Ok(Scalar::Float(float::from_bits(k, bits))),
                (None, Some(To::Int(w))) => Ok(Scalar::Int(Int::from_u128(w, bits))),
                _ => Err(Error::unverified(op, "unsupported complex.bitcast types")),
            }
        },
        bad(op),
    )?;
    e.assign(fr, op, v)
}

#[cfg(test)]
mod tests {
    use crate::exec::{Config, Engine};
    use mlir_ir::diag::Source;

    fn run(text: &str) -> String {
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let mut buf = Vec::new();
        {
            let mut e = Engine::load(&m, Config::default(), Box::new(&mut buf)).unwrap();
            e.run_entry("main").unwrap_or_else(|x| panic!("{}", x.render(&m, &src)));
        }
        String::from_utf8(buf).unwrap()
    }

    /// complex.bitcast has no LLVM 22 lowering (it fails to legalize), so
    /// this is hand-derived from the memory layout of `{re, im}` on a
    /// little-endian target: 1.0f (0x3F800000) low, -2.0f (0xC0000000) high.
    #[test]
    fn bitcast_puts_the_real_part_low() {
        let t = r#"func.func @main() {
  %c = complex.constant [1.0 : f32, -2.0 : f32] : complex<f32>
  %bits = complex.bitcast %c : complex<f32> to i64
  vector.print %bits : i64
  %back = complex.bitcast %bits : i64 to complex<f32>
  %bi = complex.im %back : complex<f32>
  vector.print %bi : f32
  return
}"#;
        assert_eq!(run(t), format!("{}\n-2\n", 0xC000_0000_3F80_0000u64 as i64));
    }

    /// vector.print of a complex value (rejected by mlir-opt 22) prints like
    /// a printMemrefC32 element: `(re,im)`.
    #[test]
    fn print_like_a_memref_element() {
        let t = r#"func.func @main() {
  %c = complex.constant [1.5 : f32, -0.25 : f32] : complex<f32>
  vector.print %c : complex<f32>
  return
}"#;
        assert_eq!(run(t), "(1.5,-0.25)\n");
    }
}
