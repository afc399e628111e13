//! tosa's block-scaled (MX) operators, as the specification's pseudocode
//! defines them (`CAST_FROM_BLOCK_SCALED.tosac`, `CAST_TO_BLOCK_SCALED.tosac`,
//! `MATMUL_T_BLOCK_SCALED.tosac`, `calc_block_scale` in
//! `numeric_conversion_helpers.tosac`). A tensor of values (fp4e2m1,
//! fp6e2m3, fp6e3m2, fp8e4m3 or fp8e5m2) goes with a tensor of scales
//! (fp8ue8m0, a power of two or NaN): one scale per block of 32
//! consecutive elements of the innermost dimension.
//!
//! The pseudocode has no `REQUIRE` here. What it leaves undefined is a
//! NaN (a block holding a NaN or an infinity gets the NaN scale, and
//! every value of it becomes NaN) written to fp4/fp6, which have no NaN:
//! that has no defined result (the reference model writes 0x6, 4.0, for
//! fp4). The element types the spec's tables do not list for an operator
//! (mlir-opt accepts any output type) are bad input.

use super::{invalid, operand_elem, result_elem, Elem};
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, Float, FloatKind, Round};
use crate::operands::dense;
use crate::value::{Dense, Scalar, Value};
use mlir_ir::ir::OpId;

const RNE: Round = Round::NearestEven;

/// The block size: LLVM 22's `#tosa.block_size` has only `BLOCK_SIZE_32`.
const BLOCK: usize = 32;

/// The f64 value `x` as a float of format f64.
fn f64_float(x: f64) -> Float {
    float::from_bits(FloatKind::F64, u128::from(x.to_bits()))
}

/// `x` rounded to nearest even into format `k`; `what` names the
/// conversion when the format cannot hold the result (NaN into fp4/fp6).
fn round_to(op: OpId, x: Float, k: FloatKind, what: &str) -> Result<Float> {
    float::convert(x, k, RNE).map_err(|err| {
        let v = float::to_f64(x);
        let v = if v.is_nan() { "NaN".to_owned() } else { v.to_string() };
        Error::at(op, ErrorKind::NoDefinedResult(format!("{what}: {v} into {} ({err})", k.name())))
    })
}

/// The float element `i` of `d` (poison is reported).
fn at(op: OpId, d: &Dense, i: usize) -> Result<Float> {
    super::float_at(op, d, i)
}

/// The float format of operand (`true`) or result `i`, which must be one
/// of `allowed` (the spec's type tables).
fn format_of(e: &Engine, op: OpId, operand: bool, i: usize, allowed: &[FloatKind]) -> Result<FloatKind> {
    let el = if operand { operand_elem(e, op, i)? } else { result_elem(e, op, i)? };
    match el {
        Elem::Float(k) if allowed.contains(&k) => Ok(k),
        other => {
            let names: Vec<&str> = allowed.iter().map(|k| k.name()).collect();
            let side = if operand { "operand" } else { "result" };
            let held = match other {
                Elem::Float(k) => k.name().to_owned(),
                Elem::Int(w) => format!("i{w}"),
                Elem::Bool => "i1".to_owned(),
            };
            Err(invalid(op, format!("{side} #{i} holds {held}; the specification allows {}", names.join(", "))))
        }
    }
}

/// The value formats of the MX operators.
const VALUES: &[FloatKind] =
    &[FloatKind::F4E2M1FN, FloatKind::F6E2M3FN, FloatKind::F6E3M2FN, FloatKind::F8E4M3FN, FloatKind::F8E5M2];

/// A dense tensor of `shape` holding `elems` of format `k`.
fn tensor(e: &Engine, op: OpId, res: usize, shape: &[usize], elems: Vec<Scalar>) -> Result<Value> {
    super::build(e, op, res, shape, elems)
}

/// The `block_size` attribute must be `#tosa.block_size<BLOCK_SIZE_32>`:
/// the verifier checks that it is there, the engine what it is (as for
/// tosa's other enum attributes), since mlir-opt rejects any other kind.
fn check_block_size(e: &Engine, op: OpId) -> Result<()> {
    match super::enum_attr(e, op, "block_size", "") {
        "BLOCK_SIZE_32" => Ok(()),
        _ => Err(invalid(op, "'block_size' must be #tosa.block_size<BLOCK_SIZE_32>")),
    }
}

/// The shapes of data and scale agree: the scale is the data with the
/// innermost dimension divided by the block size (the `ERROR_IF`s that
/// mlir-opt leaves to the run when shapes are dynamic).
fn check_blocks(op: OpId, data: &[usize], scale: &[usize]) -> Result<()> {
    let n = data.len();
    let fits = n > 0
        && data[n - 1].is_multiple_of(BLOCK)
        && scale.len() == n
        && data[..n - 1] == scale[..n - 1]
        && scale[n - 1] == data[n - 1] / BLOCK;
    if fits {
        Ok(())
    } else {
        Err(invalid(op, format!("data of shape {data:?} and scales of shape {scale:?} for blocks of {BLOCK}")))
    }
}

/// `cast_from_block_scaled %data, %scale`: each value times its block's
/// scale in fp32 (`apply_mul_s<fp32_t>`), rounded to the output type.
pub(super) fn cast_from(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    check_block_size(e, op)?;
    let (x, s) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    format_of(e, op, true, 0, VALUES)?;
    let out = format_of(e, op, false, 0, &[FloatKind::F32, FloatKind::BF16])?;
    check_blocks(op, x.shape(), s.shape())?;
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        let acc = round_to(op, at(op, &x, i)?, FloatKind::F32, "a value")?;
        let scale = round_to(op, at(op, &s, i / BLOCK)?, FloatKind::F32, "a scale")?;
        let prod = float::mul(acc, scale, RNE);
        elems.push(Scalar::Float(round_to(op, prod, out, "cast_from_block_scaled")?));
    }
    let v = tensor(e, op, 0, x.shape(), elems)?;
    e.assign(fr, op, v)
}

/// `get_largest_value_rounding_to_normal_max<out_t>()`: the format's
/// largest normal value plus half its ulp there.
fn out_max(k: FloatKind) -> f64 {
    match k {
        FloatKind::F4E2M1FN => 6.0 + 1.0,
        FloatKind::F6E2M3FN => 7.5 + 0.25,
        FloatKind::F6E3M2FN => 28.0 + 2.0,
        FloatKind::F8E4M3FN => 448.0 + 16.0,
        // F8E5M2
        _ => 57344.0 + 4096.0,
    }
}

/// `calc_block_scale<in_t, fp8ue8m0_t, out_t>(max_abs)` as its encoding:
/// the smallest scale 2^-127 for a zero block, NaN (0xFF) for a NaN or an
/// infinity, else `2^scale_exp` clipped to [2^-127, 2^127], where
/// `scale_exp` is `ceil(log2(q))` for fp8e4m3 and `floor(log2(q)) + 1`
/// otherwise, `q = max_abs / out_max` divided in `in_t`. The logarithm
/// of a float is taken exactly from its exponent (the pseudocode's fp64
/// `log2` is exact at the powers of two, where floor and ceil change).
fn block_scale(max_abs: Float, out: FloatKind) -> u128 {
    if float::is_zero(max_abs) {
        return 0;
    }
    if float::is_nan(max_abs) || float::is_inf(max_abs) {
        return 0xFF;
    }
    let limit = float::convert(f64_float(out_max(out)), max_abs.kind, RNE).unwrap_or(max_abs);
    let q = float::to_f64(float::div(max_abs, limit, RNE));
    let exp = if q == 0.0 {
        // log2(0) is -inf: the scale clips to its smallest value.
        i64::MIN
    } else {
        let bits = q.to_bits();
        // q comes from fp32 or narrower: a normal f64, never subnormal.
        let e = ((bits >> 52) & 0x7FF) as i64 - 1023;
        let pow2 = bits & ((1u64 << 52) - 1) == 0;
        if out == FloatKind::F8E4M3FN {
            if pow2 {
                e
            } else {
                e + 1
            }
        } else {
            e + 1
        }
    };
    (exp.clamp(-127, 127) + 127) as u128
}

/// `cast_to_block_scaled %input`: per block, the scale from the largest
/// magnitude (`tensor_block_maxabs`, NaN propagating), and each value
/// divided by it in the input type, then rounded to the value format.
pub(super) fn cast_to(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    check_block_size(e, op)?;
    let x = dense(e, fr, op, 0)?;
    let input = format_of(e, op, true, 0, &[FloatKind::F32, FloatKind::BF16])?;
    let out = format_of(e, op, false, 0, VALUES)?;
    format_of(e, op, false, 1, &[FloatKind::F8E8M0FNU])?;
    let shape = x.shape().to_vec();
    let last = shape.last().copied().unwrap_or(0);
    if shape.is_empty() || last % BLOCK != 0 {
        return Err(invalid(op, format!("input of shape {shape:?} in blocks of {BLOCK}")));
    }
    e.charge(op, x.len() as u64)?;
    let (mut values, mut scales) = (Vec::with_capacity(x.len()), Vec::with_capacity(x.len() / BLOCK));
    for b in 0..x.len() / BLOCK {
        let block: Vec<Float> = (b * BLOCK..(b + 1) * BLOCK).map(|i| at(op, &x, i)).collect::<Result<_>>()?;
        let max_abs =
            block.iter().fold(float::from_bits(input, 0), |m, v| super::reduce::fmax(m, float::abs(*v), true, false));
        let bits = block_scale(max_abs, out);
        let scale = float::from_bits(FloatKind::F8E8M0FNU, bits);
        // The quotient in in_t: a division by a power of two, exact in
        // f64, then rounded once to in_t.
        let by = float::to_f64(scale);
        for v in block {
            let q = round_to(op, f64_float(float::to_f64(v) / by), input, "a scaled value")?;
            values.push(Scalar::Float(round_to(op, q, out, "cast_to_block_scaled")?));
        }
        scales.push(Scalar::Float(scale));
    }
    let mut scale_shape = shape.clone();
    if let Some(l) = scale_shape.last_mut() {
        *l /= BLOCK;
    }
    let v = tensor(e, op, 0, &shape, values)?;
    let s = tensor(e, op, 1, &scale_shape, scales)?;
    e.assign_all(fr, op, vec![v, s])
}

/// `matmul_t_block_scaled %a, %a_scale, %b, %b_scale`:
/// `[N,H,C] x [D,W,C] -> [N,H,W]` in fp32, block by block in the
/// pseudocode's order: each block's dot product, times the product of its
/// two scales, added to the accumulator (B broadcast when D is 1). The
/// pseudocode's `0 <= b <= C/block_size` reads one block past the end;
/// the blocks are `0 <= b < C/block_size`, as the scale shapes say.
pub(super) fn matmul(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    check_block_size(e, op)?;
    let (a, sa, b, sb) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?, dense(e, fr, op, 3)?);
    format_of(e, op, true, 0, VALUES)?;
    format_of(e, op, true, 2, VALUES)?;
    format_of(e, op, false, 0, &[FloatKind::F32])?;
    let (&[n, h, c], &[d, w, cb]) = (a.shape(), b.shape()) else {
        return Err(invalid(op, "matmul_t_block_scaled operands must have rank 3"));
    };
    if cb != c || (d != n && d != 1) {
        return Err(invalid(op, format!("matmul_t_block_scaled of shapes {:?} and {:?}", a.shape(), b.shape())));
    }
    check_blocks(op, a.shape(), sa.shape())?;
    check_blocks(op, b.shape(), sb.shape())?;
    let k = FloatKind::F32;
    let f32_of = |x: Float| round_to(op, x, k, "an operand");
    let blocks = c / BLOCK;
    e.charge(op, (n * h * w * c.max(1)) as u64)?;
    let mut elems = Vec::with_capacity(n * h * w);
    for ni in 0..n {
        let di = if d == 1 { 0 } else { ni };
        for hi in 0..h {
            for wi in 0..w {
                let mut acc = float::from_bits(k, 0);
                for bl in 0..blocks {
                    let scale_a = f32_of(at(op, &sa, (ni * h + hi) * blocks + bl)?)?;
                    let scale_b = f32_of(at(op, &sb, (di * w + wi) * blocks + bl)?)?;
                    let mut block_acc = float::from_bits(k, 0);
                    for i in 0..BLOCK {
                        let t = bl * BLOCK + i;
                        let va = f32_of(at(op, &a, (ni * h + hi) * c + t)?)?;
                        let vb = f32_of(at(op, &b, (di * w + wi) * c + t)?)?;
                        block_acc = float::add(block_acc, float::mul(va, vb, RNE), RNE);
                    }
                    block_acc = float::mul(block_acc, float::mul(scale_a, scale_b, RNE), RNE);
                    acc = float::add(acc, block_acc, RNE);
                }
                elems.push(Scalar::Float(acc));
            }
        }
    }
    let v = tensor(e, op, 0, &[n, h, w], elems)?;
    e.assign(fr, op, v)
}
