//! The TOSA specification's precision check for the operators whose error
//! it bounds instead of fixing their bits (exp, log, sin, cos, tanh, erf,
//! sigmoid, reciprocal, rsqrt, pow): each operator's *Precision
//! Requirements* (chapters `ewise_unary`, `ewise_binary`,
//! `activation_funcs`) with `calcAbsErrorBound`, `tosa_reference_check_fp`
//! and `tosa_reference_check_fp_bnd` of the pseudocode library
//! (`numeric_accuracy_helpers.tosac`, `tosa_reference_check.tosac`),
//! written out for f32, f16 and bf16. `out_ref` is the fp64 result of the
//! operation, from the host's f64 libm, whose error is far below the
//! bounds' fp16/fp32 ulps.

#![allow(dead_code)]

use crate::npy::Npy;

/// A float element format the bounded operators take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    BF16,
}

impl Fmt {
    /// The format of an `.npy` dtype (`<f4`, `<f2`; bf16 as `<u2` here and
    /// `<V2` in the reference model's files).
    pub fn of_descr(descr: &str) -> Option<Fmt> {
        match descr {
            "<f4" => Some(Fmt::F32),
            "<f2" => Some(Fmt::F16),
            "<u2" | "<V2" | "|V2" => Some(Fmt::BF16),
            _ => None,
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        if self == Fmt::F32 {
            4
        } else {
            2
        }
    }

    /// The element at `bytes` as an f64 (exact).
    pub fn decode(self, bytes: &[u8]) -> f64 {
        match self {
            Fmt::F32 => f64::from(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
            Fmt::F16 => f64::from(half::f16::from_bits(u16::from_le_bytes([bytes[0], bytes[1]]))),
            Fmt::BF16 => f64::from(f32::from_bits(u32::from(u16::from_le_bytes([bytes[0], bytes[1]])) << 16)),
        }
    }

    fn normal_min(self) -> f64 {
        match self {
            Fmt::F32 | Fmt::BF16 => 2f64.powi(-126),
            Fmt::F16 => 2f64.powi(-14),
        }
    }

    fn normal_max(self) -> f64 {
        match self {
            Fmt::F32 => 2f64.powi(128) - 2f64.powi(127 - 23),
            Fmt::BF16 => 2f64.powi(128) - 2f64.powi(127 - 7),
            Fmt::F16 => 2f64.powi(16) - 2f64.powi(15 - 10),
        }
    }

    fn normal_frac(self) -> i32 {
        match self {
            Fmt::F32 => 23,
            Fmt::BF16 => 7,
            Fmt::F16 => 10,
        }
    }
}

extern "C" {
    /// glibc's erf (Rust's std has none).
    fn erf(x: f64) -> f64;
}

/// `ilog2` of the pseudocode: floor(log2 v) for finite `v > 0`.
fn ilog2(v: f64) -> i32 {
    let mut n = 0;
    let mut v = v;
    while v >= 2.0 {
        v /= 2.0;
        n += 1;
    }
    while v < 1.0 {
        v *= 2.0;
        n -= 1;
    }
    n
}

/// `calcAbsErrorBound<in_t>`.
fn calc_abs_error_bound(f: Fmt, bound_magnitude: f64, bounds_value: f64, lower_bound: f64, normal_divisor: f64) -> f64 {
    let mut error_bound = 0.0;
    if bounds_value.is_finite() || bound_magnitude.abs() != 0.0 {
        let mut value_bound = bound_magnitude.abs().max(f.normal_min());
        if lower_bound > 0.0 {
            value_bound = (lower_bound / bounds_value).max(value_bound);
        }
        error_bound = 2f64.powf(-f64::from(f.normal_frac()) / normal_divisor) * value_bound;
        error_bound *= bounds_value;
    }
    error_bound
}

/// `tosa_reference_check_fp<in_t>`: within `num_ulp` ulps of `ref_value`.
fn check_fp(f: Fmt, test: f64, ref_value: f64, num_ulp: f64) -> bool {
    let mut val_ulp = 0.0;
    if ref_value.is_finite() && ref_value.abs() != 0.0 {
        let ref_pow2 = 2f64.powi(ilog2(ref_value.abs())).max(f.normal_min());
        val_ulp = ref_pow2 * 2f64.powi(-f.normal_frac());
    }
    check_fp_bnd(f, test, ref_value, val_ulp * num_ulp)
}

/// `tosa_reference_check_fp_bnd<in_t>` (all three formats have NaN and
/// infinities).
fn check_fp_bnd(f: Fmt, test: f64, ref_value: f64, err_bnd: f64) -> bool {
    if ref_value.is_nan() {
        return test.is_nan();
    }
    if !err_bnd.is_finite() {
        return true;
    }
    assert!(err_bnd >= 0.0, "a negative error bound {err_bnd}");
    let (mut r, mut t) = (ref_value, test);
    let high_cap = f.normal_max();
    if r < 0.0 {
        r = -r;
        t = -t;
    }
    let mut ref_max = r + err_bnd;
    let mut ref_min = r - err_bnd;
    if ref_max > high_cap {
        ref_max = f64::INFINITY;
    }
    if ref_min > high_cap {
        ref_min = f64::INFINITY;
    }
    if ref_min < -high_cap {
        ref_min = f64::NEG_INFINITY;
    }
    // Subnormal results may be flushed to zero.
    if test == 0.0 {
        return ref_min < f.normal_min();
    }
    t >= ref_min && t <= ref_max
}

/// The fp64 result of `op` on `x` (and `y`): the specification's `out_ref`.
pub fn reference(op: &str, x: f64, y: f64) -> f64 {
    match op {
        "exp" => x.exp(),
        "log" => x.ln(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tanh" => x.tanh(),
        // SAFETY: erf is a pure C function of a double.
        "erf" => unsafe { erf(x) },
        "sigmoid" => 1.0 / (1.0 + (-x).exp()),
        "reciprocal" => 1.0 / x,
        "rsqrt" => 1.0 / x.sqrt(),
        "pow" => x.powf(y),
        _ => panic!("no precision rule for {op}"),
    }
}

/// Whether `test`, the result of `op` on `x` (and `y`) in format `f`, meets
/// the specification's precision requirement for `op`.
pub fn within(f: Fmt, op: &str, x: f64, y: f64, test: f64) -> bool {
    let out_ref = reference(op, x, y);
    let exp_base = if f == Fmt::F32 { 3.0 } else { 1.0 };
    match op {
        "exp" => check_fp_bnd(f, test, out_ref, calc_abs_error_bound(f, out_ref, exp_base + 2.0 * x.abs(), 0.0, 1.0)),
        "log" => check_fp_bnd(f, test, out_ref, calc_abs_error_bound(f, out_ref, 5.0, 0.5, 1.0)),
        "sin" => {
            let b = calc_abs_error_bound(f, x, 2.0, 0.0, 2.0).max(std::f64::consts::PI * f.normal_min());
            check_fp_bnd(f, test, out_ref, b)
        }
        "cos" => check_fp_bnd(f, test, out_ref, calc_abs_error_bound(f, 1.0 + x.abs(), 1.0, 0.0, 2.0)),
        "tanh" => {
            check_fp_bnd(f, test, out_ref, calc_abs_error_bound(f, out_ref, 4.0 * (exp_base + 2.0 * x.abs()), 0.5, 1.0))
        }
        "erf" => check_fp(f, test, out_ref, 5.0),
        "sigmoid" => {
            // Subnormal results may be flushed to +0.
            if test == 0.0 && out_ref.abs() < f.normal_min() {
                return true;
            }
            check_fp_bnd(f, test, out_ref, calc_abs_error_bound(f, out_ref, 2.0 * (1.0 + x.abs()), 0.0, 1.0))
        }
        "reciprocal" => check_fp(f, test, out_ref, 1.0),
        "rsqrt" => check_fp(f, test, out_ref, 2.0),
        "pow" => {
            if x == 0.0 && y > 0.0 {
                return test == 0.0;
            }
            if x > 0.0 && y == 0.0 {
                return test == 1.0;
            }
            let yl = y * x.ln();
            let mul_err = calc_abs_error_bound(f, yl, 5.5, (0.55 * y).abs(), 1.0);
            let exp_err = calc_abs_error_bound(f, out_ref, exp_base + 2.0 * (yl + mul_err).abs(), 0.0, 1.0);
            check_fp_bnd(f, test, out_ref, out_ref * mul_err.exp_m1() + exp_err)
        }
        _ => panic!("no precision rule for {op}"),
    }
}

/// Whether input `x` is one the spec's behaviour tables fix the result of
/// (an infinity, a NaN or a zero), where results must match exactly.
pub fn special(x: f64) -> bool {
    !x.is_finite() || x == 0.0
}

/// A `// BOUND: R = op(I[, J])` line: result `r` is `op` of results `args`.
pub struct Bound {
    /// The bounded result.
    pub r: usize,
    /// The operator's name.
    pub op: String,
    /// The results holding its inputs.
    pub args: Vec<usize>,
}

/// The `// BOUND:` lines of a fixture's text.
pub fn bounds(text: &str) -> Vec<Bound> {
    text.lines()
        .filter_map(|l| l.strip_prefix("// BOUND:"))
        .map(|l| {
            let (r, call) = l.split_once('=').unwrap_or_else(|| bad_line(l));
            let (op, args) = call.trim().trim_end_matches(')').split_once('(').unwrap_or_else(|| bad_line(l));
            Bound {
                r: r.trim().parse().unwrap_or_else(|_| bad_line(l)),
                op: op.to_owned(),
                args: args.split(',').map(|a| a.trim().parse().unwrap_or_else(|_| bad_line(l))).collect(),
            }
        })
        .collect()
}

fn bad_line(l: &str) -> ! {
    panic!("bad BOUND line: {l}")
}

/// Checks result `b.r`, ours and theirs, against the spec's bound for
/// `b.op`, with inputs read from our results `ins`.
pub fn check_bound(b: &Bound, ours: &Npy, theirs: &Npy, ins: &[Npy]) -> Result<(), String> {
    let f = Fmt::of_descr(&ours.descr).ok_or_else(|| format!("a bound on a {} result", ours.descr))?;
    if ours.shape != theirs.shape || ins.iter().any(|i| i.shape != ours.shape || i.descr != ours.descr) {
        return Err("a bounded result needs inputs of its shape and type".into());
    }
    let n = f.size();
    let at = |v: &Npy, i: usize| f.decode(&v.data[i * n..(i + 1) * n]);
    for i in 0..ours.data.len() / n {
        let x = at(&ins[0], i);
        let y = ins.get(1).map_or(0.0, |v| at(v, i));
        let (o, t) = (at(ours, i), at(theirs, i));
        let exact = special(x) || (ins.len() > 1 && special(y));
        let ok =
            if exact { o.to_bits() == t.to_bits() || (o.is_nan() && t.is_nan()) } else { within(f, &b.op, x, y, o) };
        if !ok {
            return Err(format!("element {i}: {}({x}, {y}) is {o} here, {t} in the reference model", b.op));
        }
        if !exact && !within(f, &b.op, x, y, t) {
            return Err(format!("element {i}: the reference model's {}({x}, {y}) = {t} is outside the bound", b.op));
        }
    }
    Ok(())
}
