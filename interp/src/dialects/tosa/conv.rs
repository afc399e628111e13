//! tosa's convolutions (`conv2d`, `conv3d`, `depthwise_conv2d`,
//! `transpose_conv2d`) and 2-D pooling (`avg_pool2d`, `max_pool2d`), each
//! as its pseudocode in the TOSA specification reads
//! (`pseudocode/operators/CONV2D.tosac` and its siblings).
//!
//! A convolution reads each input and weight element as `acc_t` and
//! subtracts its zero point (`tensor_read<in_t, acc_t>`, `apply_sub_s`),
//! then folds `acc = apply_add_s(acc, apply_mul_s(value, weight))` in the
//! pseudocode's loop order (kernel depth, rows, columns, then input
//! channels), casts the sum to `out_t` and adds the bias in `out_t`. An
//! integer accumulator REQUIRE()s that no partial sum overflows it; a float
//! one rounds to nearest even after every multiply and every add. The
//! pseudocode lets an implementation multiply the padding's zeros too
//! (`tosa_extra_multiplies`); here, as in ARM's reference model, it does
//! not, so a padding position contributes no operation at all (where that
//! shows: an infinite weight over the padding, `fixtures/tosa/conv2d.mlir`).
//! `local_bound` only changes the compliance bound of a float result.
//!
//! A float result is exact here, but TOSA asks only that it meet the dot
//! product accuracy bound, and the reference model may sum f32 products
//! more precisely; the fixtures hold exact sums, and the general case is
//! the compliance checker's.

use super::reduce::{fmax, lowest};
use super::{
    array_attr, build, build_ints, float_at, ignore_nan, int_scalar, ints, invalid, operand_elem, require, result_elem,
};
use super::{scalar_operand, signed_range, Elem};
use crate::error::Result;
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, Float, FloatKind, Round};
use crate::operands::dense;
use crate::value::{Dense, Scalar};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeKind;
use std::rc::Rc;

const RNE: Round = Round::NearestEven;

/// The type a convolution or `avg_pool2d` accumulates in (`acc_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Acc {
    /// A signed integer of this width (i32, i48).
    Int(u32),
    /// A float format (f16, bf16, f32).
    Float(FloatKind),
}

/// The `acc_type` attribute.
fn acc_type(e: &Engine, op: OpId) -> Result<Acc> {
    let Some(Attribute::Type(t)) = e.m.attr(op, "acc_type").map(|a| e.m.ctx.attr_kind(a)) else {
        return Err(invalid(op, "missing type attribute 'acc_type'"));
    };
    match e.m.ctx.type_kind(*t) {
        TypeKind::Integer { width, .. } => Ok(Acc::Int(*width)),
        TypeKind::Float(k) => Ok(Acc::Float(*k)),
        _ => Err(invalid(op, "acc_type is neither an integer nor a float type")),
    }
}

/// True for the float formats TOSA defines (fp8e4m3, fp8e5m2, fp16, bf16, fp32).
fn tosa_float(k: FloatKind) -> bool {
    matches!(k, FloatKind::F8E4M3FN | FloatKind::F8E5M2 | FloatKind::F16 | FloatKind::BF16 | FloatKind::F32)
}

/// Elements decoded once: integers sign-extended, floats in one format.
enum Vals {
    /// Signed integers.
    Int(Vec<i64>),
    /// Floats.
    Float(Vec<Float>),
}

/// `v` wrapped to `w` signed bits, as `static_cast<int_t>` truncates.
fn wrap(w: u32, v: i64) -> i64 {
    if w >= 64 {
        v
    } else {
        let s = 64 - w;
        (v << s) >> s
    }
}

/// `apply_add_s<int_t>(a, b)` for `w`-bit `int_t`: the sum, which must fit.
fn add_s(op: OpId, w: u32, a: i64, b: i64, what: &str) -> Result<i64> {
    let (lo, hi) = signed_range(w);
    match a.checked_add(b).filter(|c| (lo..=hi).contains(c)) {
        Some(c) => Ok(c),
        None => Err(require(op, format!("{what} overflows i{w}: {a} + {b}"))),
    }
}

/// `a` converted to format `k`, rounded to nearest even (`static_cast`).
fn to_format(op: OpId, a: Float, k: FloatKind) -> Result<Float> {
    float::convert(a, k, RNE).map_err(|err| invalid(op, format!("{err}")))
}

/// Operand `i` read as `acc_t` less the zero point `zp`
/// (`apply_sub_s<acc_t>(tensor_read<in_t, acc_t>(..), static_cast<acc_t>(zp))`).
fn minus_zp(op: OpId, d: &Dense, acc: Acc, zp: &Scalar) -> Result<Vals> {
    match (acc, zp) {
        (Acc::Int(w), Scalar::Int(z)) => {
            let z = z.to_i64().ok_or_else(|| invalid(op, "zero point wider than 64 bits"))?;
            let (lo, hi) = signed_range(w);
            let mut out = ints(op, d)?;
            for v in out.iter_mut() {
                match v.checked_sub(z).filter(|c| (lo..=hi).contains(c)) {
                    Some(c) => *v = c,
                    None => return Err(require(op, format!("subtracting the zero point overflows i{w}: {v} - {z}"))),
                }
            }
            Ok(Vals::Int(out))
        }
        (Acc::Float(k), Scalar::Float(z)) => {
            let z = to_format(op, *z, k)?;
            let mut out = Vec::with_capacity(d.len());
            for i in 0..d.len() {
                out.push(float::sub(to_format(op, float_at(op, d, i)?, k)?, z, RNE));
            }
            Ok(Vals::Float(out))
        }
        (_, Scalar::Poison(p)) => Err(crate::error::Error::at(
            op,
            crate::error::ErrorKind::Poison { what: "used as a tosa zero point".into(), origin: p.0 },
        )),
        _ => Err(invalid(op, "the zero point's type does not match the accumulator's")),
    }
}

/// The elements of `d` as they are (a bias in `out_t`).
fn decode(op: OpId, d: &Dense, as_float: bool) -> Result<Vals> {
    if as_float {
        (0..d.len()).map(|i| float_at(op, d, i)).collect::<Result<_>>().map(Vals::Float)
    } else {
        ints(op, d).map(Vals::Int)
    }
}

/// `ERROR_IF(!is_same<in_t, i8_t>() && zp != 0)`: only i8 data (and an i8
/// weight) has a zero point; operand `which` names it in the message.
fn check_zp(op: OpId, data: Elem, zp: &Scalar, which: &str) -> Result<()> {
    let zero = match zp {
        Scalar::Int(z) => !z.is_nonzero(),
        Scalar::Float(f) => float::is_zero(*f),
        _ => true,
    };
    if data != Elem::Int(8) && !zero {
        return Err(invalid(op, format!("{which} must be zero for {data:?} elements")));
    }
    Ok(())
}

/// One convolution's operands decoded, and the types it computes in.
struct Conv {
    /// The accumulator type.
    acc: Acc,
    /// The output element type.
    out: Elem,
    /// Input elements in `acc_t` less the input zero point.
    x: Vals,
    /// Weight elements in `acc_t` less the weight zero point.
    w: Vals,
    /// The bias, in `out_t`.
    bias: Vals,
}

impl Conv {
    /// Decodes operands input, weight, bias, input_zp, weight_zp after
    /// checking their element types against the type-support table.
    fn new(e: &Engine, fr: &Frame, op: OpId, x: &Dense, w: &Dense, b: &Dense) -> Result<Conv> {
        let acc = acc_type(e, op)?;
        let (xe, we, be, out) =
            (operand_elem(e, op, 0)?, operand_elem(e, op, 1)?, operand_elem(e, op, 2)?, result_elem(e, op, 0)?);
        let ints = matches!(
            (xe, we, acc, out),
            (Elem::Int(8), Elem::Int(8 | 4), Acc::Int(32), Elem::Int(32))
                | (Elem::Int(16), Elem::Int(8), Acc::Int(48), Elem::Int(48))
        );
        let floats = match (xe, we, acc, out) {
            (Elem::Float(a), Elem::Float(b), Acc::Float(c), Elem::Float(d)) => {
                [a, b, d].into_iter().all(tosa_float) && matches!(c, FloatKind::F16 | FloatKind::BF16 | FloatKind::F32)
            }
            _ => false,
        };
        if !(ints || floats) || be != out {
            return Err(invalid(
                op,
                format!(
                    "no type support for input {xe:?}, weight {we:?}, bias {be:?}, accumulator {acc:?}, output {out:?}"
                ),
            ));
        }
        let (xzp, wzp) = (scalar_operand(e, fr, op, 3)?, scalar_operand(e, fr, op, 4)?);
        check_zp(op, xe, &xzp, "input_zp")?;
        check_zp(op, we, &wzp, "weight_zp")?;
        Ok(Conv {
            acc,
            out,
            x: minus_zp(op, x, acc, &xzp)?,
            w: minus_zp(op, w, acc, &wzp)?,
            bias: decode(op, b, floats)?,
        })
    }

    /// One output: `acc` folds `x[i] * w[j]` over the `(i, j)` of `terms`,
    /// is cast to `out_t`, and bias element `b` (or the only one) is added;
    /// it goes onto `outs`.
    fn output(&self, op: OpId, terms: impl Iterator<Item = (usize, usize)>, b: usize, outs: &mut Outs) -> Result<()> {
        match (&self.x, &self.w, &self.bias, self.acc, self.out, outs) {
            (Vals::Int(x), Vals::Int(w), Vals::Int(bias), Acc::Int(aw), Elem::Int(ow), Outs::Int(outs)) => {
                let (lo, hi) = signed_range(aw);
                let mut acc = 0i64;
                for (i, j) in terms {
                    // apply_mul_s truncates to acc_t; apply_add_s REQUIRE()s.
                    let t = wrap(aw, x[i].wrapping_mul(w[j]));
                    acc = match acc.checked_add(t).filter(|c| (lo..=hi).contains(c)) {
                        Some(c) => c,
                        None => return Err(require(op, format!("the accumulator overflows i{aw}: {acc} + {t}"))),
                    };
                }
                // out_t is acc_t for every integer convolution: the cast keeps it.
                let bv = if bias.len() == 1 { bias[0] } else { bias[b] };
                outs.push(add_s(op, ow, wrap(ow, acc), bv, "adding the bias")?);
                Ok(())
            }
            (Vals::Float(x), Vals::Float(w), Vals::Float(bias), Acc::Float(k), Elem::Float(ok), Outs::Scalar(outs)) => {
                let mut acc = float::from_bits(k, 0);
                for (i, j) in terms {
                    acc = float::add(acc, float::mul(x[i], w[j], RNE), RNE);
                }
                let bv = if bias.len() == 1 { bias[0] } else { bias[b] };
                outs.push(Scalar::Float(float::add(to_format(op, acc, ok)?, bv, RNE)));
                Ok(())
            }
            _ => Err(invalid(op, "mixed integer and float operands")),
        }
    }

    /// Room for the outputs of a result of `shape`, checked against the
    /// memory limit before any is computed.
    fn outs(&self, e: &Engine, op: OpId, shape: &[usize]) -> Result<Outs> {
        let total = shape
            .iter()
            .try_fold(1usize, |a, d| a.checked_mul(*d))
            .ok_or_else(|| invalid(op, format!("the output shape {shape:?} overflows")))?;
        Ok(match self.x {
            Vals::Int(_) => {
                e.mem.reserve(op, total.saturating_mul(8), "a tensor")?;
                Outs::Int(Vec::with_capacity(total))
            }
            Vals::Float(_) => {
                e.mem.reserve(op, total.saturating_mul(std::mem::size_of::<Scalar>()), "a tensor")?;
                Outs::Scalar(Vec::with_capacity(total))
            }
        })
    }
}

/// A convolution's outputs as they are computed: integers (written in
/// bulk at the end), or float scalars.
enum Outs {
    /// Integer outputs.
    Int(Vec<i64>),
    /// Float outputs.
    Scalar(Vec<Scalar>),
}

impl Outs {
    /// How many outputs there is room for.
    fn capacity(&self) -> usize {
        match self {
            Outs::Int(v) => v.capacity(),
            Outs::Scalar(v) => v.capacity(),
        }
    }

    /// Result 0 of `op`, of `shape`.
    fn finish(self, e: &Engine, op: OpId, shape: &[usize]) -> Result<crate::value::Value> {
        match self {
            Outs::Int(v) => build_ints(e, op, 0, shape, &v),
            Outs::Scalar(v) => build(e, op, 0, shape, v),
        }
    }
}

/// `idiv_check(num, s) + 1` along axis `axis`: an output size, which the
/// ERROR_IFs require to be exact.
fn exact_out(op: OpId, axis: &str, num: Option<i64>, s: i64) -> Result<usize> {
    let num = num.ok_or_else(|| invalid(op, format!("the {axis} window arithmetic overflows i64")))?;
    if s < 1 {
        return Err(invalid(op, format!("stride {s} along {axis} is below 1")));
    }
    if num % s != 0 {
        return Err(invalid(op, format!("the {axis} extent {num} is not a multiple of stride {s}")));
    }
    usize::try_from(num / s + 1).map_err(|_| invalid(op, format!("the {axis} window does not fit the input")))
}

/// A convolution's output size: `idiv_check(I - 1 + pa + pb - (K - 1) * d, s) + 1`.
#[allow(clippy::too_many_arguments)]
fn conv_out(op: OpId, axis: &str, i: usize, k: usize, pa: i64, pb: i64, s: i64, d: i64) -> Result<usize> {
    if pa < 0 || pb < 0 || d < 1 {
        return Err(invalid(op, format!("{axis}: padding {pa}, {pb} must be >= 0 and dilation {d} >= 1")));
    }
    let (i, k) = (i as i64, k as i64);
    let num =
        (i - 1).checked_add(pa).and_then(|v| v.checked_add(pb)).and_then(|v| v.checked_sub((k - 1).checked_mul(d)?));
    exact_out(op, axis, num, s)
}

/// The integers of attribute `name`, which must have `n` of them.
fn ints_n(e: &Engine, op: OpId, name: &str, n: usize) -> Result<Vec<i64>> {
    let v = array_attr(e, op, name)?;
    if v.len() != n {
        return Err(invalid(op, format!("'{name}' must hold {n} values, it holds {}", v.len())));
    }
    Ok(v)
}

/// The row-major index of `idx` in `shape` (in range by construction).
fn flat(shape: &[usize], idx: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |a, (i, s)| a * s + i)
}

/// Splits row-major index `f` of `dims` into `out`.
fn unflatten(mut f: usize, dims: &[usize], out: &mut [usize]) {
    for (o, d) in out.iter_mut().zip(dims).rev() {
        *o = f % d;
        f /= d;
    }
}

/// `tosa.conv2d` (`sp` = 2) and `tosa.conv3d` (`sp` = 3): input
/// `[N, (ID,) IH, IW, IC]`, weight `[OC, (KD,) KH, KW, IC]`, bias `[BC]`.
pub(super) fn conv(e: &mut Engine, fr: &mut Frame, op: OpId, sp: usize) -> Result<Flow> {
    let (x, w, b) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let (xs, ws) = (x.shape().to_vec(), w.shape().to_vec());
    if xs.len() != sp + 2 || ws.len() != sp + 2 || b.shape().len() != 1 {
        return Err(invalid(op, format!("operand shapes {xs:?}, {ws:?}, {:?} do not fit the operator", b.shape())));
    }
    let (pad, stride, dil) =
        (ints_n(e, op, "pad", 2 * sp)?, ints_n(e, op, "stride", sp)?, ints_n(e, op, "dilation", sp)?);
    let (n, ic, oc) = (xs[0], xs[sp + 1], ws[0]);
    if ws[sp + 1] != ic {
        return Err(invalid(op, format!("the weight has {} input channels, the input {ic}", ws[sp + 1])));
    }
    let names = ["depth", "height", "width"];
    let mut out_shape = vec![n];
    for a in 0..sp {
        let axis = names[3 - sp + a];
        out_shape.push(conv_out(op, axis, xs[1 + a], ws[1 + a], pad[2 * a], pad[2 * a + 1], stride[a], dil[a])?);
    }
    out_shape.push(oc);
    check_bias(op, b.len(), oc)?;
    let c = Conv::new(e, fr, op, &x, &w, &b)?;
    let mut elems = c.outs(e, op, &out_shape)?;
    let ksize: usize = ws[1..=sp].iter().product();
    e.charge(op, elems.capacity().saturating_mul(ksize.saturating_mul(ic).max(1)) as u64)?;
    let (osp, ksp, isp) = (&out_shape[1..=sp], &ws[1..=sp], &xs[1..=sp]);
    let (mut o, mut k, mut at) = ([0usize; 3], [0usize; 3], [0usize; 3]);
    // (input offset, weight offset within one output channel) per in-bounds kernel tap.
    let mut taps: Vec<(usize, usize)> = Vec::with_capacity(ksize);
    for nn in 0..n {
        for of in 0..osp.iter().product() {
            unflatten(of, osp, &mut o[..sp]);
            taps.clear();
            for kf in 0..ksize {
                unflatten(kf, ksp, &mut k[..sp]);
                // (O - 1) * s + (K - 1) * d fits i64: conv_out computed it.
                let inside = (0..sp).all(|a| {
                    let v = o[a] as i64 * stride[a] - pad[2 * a] + k[a] as i64 * dil[a];
                    at[a] = v as usize;
                    (0..isp[a] as i64).contains(&v)
                });
                if inside {
                    let xi = flat(isp, &at[..sp]) + nn * isp.iter().product::<usize>();
                    taps.push((xi * ic, kf * ic));
                }
            }
            for ocn in 0..oc {
                let wb = ocn * ksize * ic;
                let terms = taps.iter().flat_map(|&(xb, kb)| (0..ic).map(move |cc| (xb + cc, wb + kb + cc)));
                c.output(op, terms, ocn, &mut elems)?;
            }
        }
    }
    let v = elems.finish(e, op, &out_shape)?;
    e.assign(fr, op, v)
}

/// An empty vector for the elements of an output of `shape`, whose
/// size is checked against the memory limit before any is computed.
fn output(e: &Engine, op: OpId, shape: &[usize]) -> Result<Vec<Scalar>> {
    let total = shape
        .iter()
        .try_fold(1usize, |a, d| a.checked_mul(*d))
        .ok_or_else(|| invalid(op, format!("the output shape {shape:?} overflows")))?;
    e.mem.reserve(op, total.saturating_mul(std::mem::size_of::<Scalar>()), "a tensor")?;
    Ok(Vec::with_capacity(total))
}

/// `ERROR_IF(BC != OC && BC != 1)`.
fn check_bias(op: OpId, bc: usize, oc: usize) -> Result<()> {
    if bc != oc && bc != 1 {
        return Err(invalid(op, format!("the bias has {bc} channels, the output {oc}")));
    }
    Ok(())
}

/// The input, weight and bias of a 2-D convolution, with the input's and
/// the weight's four dimensions; the bias is rank 1.
type Operands2d = (Rc<Dense>, Rc<Dense>, Rc<Dense>, [usize; 4], [usize; 4]);

/// Reads the operands of a depthwise or transpose 2-D convolution.
fn operands_2d(e: &Engine, fr: &Frame, op: OpId) -> Result<Operands2d> {
    let (x, w, b) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let (Ok(xs), Ok(ws), 1) = (<[usize; 4]>::try_from(x.shape()), <[usize; 4]>::try_from(w.shape()), b.shape().len())
    else {
        return Err(invalid(
            op,
            format!("operand shapes {:?}, {:?}, {:?} do not fit the operator", x.shape(), w.shape(), b.shape()),
        ));
    };
    Ok((x, w, b, xs, ws))
}

/// `tosa.depthwise_conv2d`: input `[N, IH, IW, C]`, weight `[KH, KW, C, M]`,
/// output channel `c * M + m` from input channel `c` and multiplier `m`.
pub(super) fn depthwise(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (x, w, b, [n, ih, iw, ch], [kh, kw, wc, m]) = operands_2d(e, fr, op)?;
    if wc != ch {
        return Err(invalid(op, format!("the weight has {wc} channels, the input {ch}")));
    }
    let (pad, stride, dil) = (ints_n(e, op, "pad", 4)?, ints_n(e, op, "stride", 2)?, ints_n(e, op, "dilation", 2)?);
    let oh = conv_out(op, "height", ih, kh, pad[0], pad[1], stride[0], dil[0])?;
    let ow = conv_out(op, "width", iw, kw, pad[2], pad[3], stride[1], dil[1])?;
    let oc = ch.checked_mul(m).ok_or_else(|| invalid(op, "C * M overflows"))?;
    check_bias(op, b.len(), oc)?;
    let c = Conv::new(e, fr, op, &x, &w, &b)?;
    let mut elems = c.outs(e, op, &[n, oh, ow, oc])?;
    e.charge(op, elems.capacity().saturating_mul((kh * kw).max(1)) as u64)?;
    let mut taps: Vec<(usize, usize)> = Vec::with_capacity(kh * kw);
    for nn in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                taps.clear();
                for ky in 0..kh {
                    for kx in 0..kw {
                        // In i64 range: conv_out computed the extremes.
                        let y = oy as i64 * stride[0] - pad[0] + ky as i64 * dil[0];
                        let xx = ox as i64 * stride[1] - pad[2] + kx as i64 * dil[1];
                        if (0..ih as i64).contains(&y) && (0..iw as i64).contains(&xx) {
                            taps.push((((nn * ih + y as usize) * iw + xx as usize) * ch, (ky * kw + kx) * ch * m));
                        }
                    }
                }
                for cc in 0..ch {
                    for mm in 0..m {
                        let terms = taps.iter().map(|&(xb, wb)| (xb + cc, wb + cc * m + mm));
                        c.output(op, terms, cc * m + mm, &mut elems)?;
                    }
                }
            }
        }
    }
    let v = elems.finish(e, op, &[n, oh, ow, oc])?;
    e.assign(fr, op, v)
}

/// `tosa.transpose_conv2d`: input `[N, IH, IW, IC]`, weight `[OC, KH, KW,
/// IC]`; output `(oy, ox)` gathers input `((oy - out_pad_top - ky) /
/// stride_y, ..)` where that divides exactly.
pub(super) fn transpose(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (x, w, b, [n, ih, iw, ic], [oc, kh, kw, wic]) = operands_2d(e, fr, op)?;
    if wic != ic {
        return Err(invalid(op, format!("the weight has {wic} input channels, the input {ic}")));
    }
    let (pad, stride) = (ints_n(e, op, "out_pad", 4)?, ints_n(e, op, "stride", 2)?);
    let oh = transpose_out(op, "height", ih, kh, pad[0], pad[1], stride[0])?;
    let ow = transpose_out(op, "width", iw, kw, pad[2], pad[3], stride[1])?;
    check_bias(op, b.len(), oc)?;
    let c = Conv::new(e, fr, op, &x, &w, &b)?;
    let mut elems = c.outs(e, op, &[n, oh, ow, oc])?;
    e.charge(op, elems.capacity().saturating_mul((kh * kw * ic).max(1)) as u64)?;
    let span = |i: usize, s: i64| (i as i64).checked_mul(s).ok_or_else(|| invalid(op, "IH * stride overflows i64"));
    let (yh, xw) = (span(ih, stride[0])?, span(iw, stride[1])?);
    let mut taps: Vec<(usize, usize)> = Vec::with_capacity(kh * kw);
    for nn in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                taps.clear();
                for ky in 0..kh {
                    for kx in 0..kw {
                        let y = oy as i64 - pad[0] - ky as i64;
                        let xx = ox as i64 - pad[2] - kx as i64;
                        if (0..yh).contains(&y) && (0..xw).contains(&xx) && y % stride[0] == 0 && xx % stride[1] == 0 {
                            let (iy, ix) = ((y / stride[0]) as usize, (xx / stride[1]) as usize);
                            taps.push((((nn * ih + iy) * iw + ix) * ic, (ky * kw + kx) * ic));
                        }
                    }
                }
                for ocn in 0..oc {
                    let wb = ocn * kh * kw * ic;
                    let terms = taps.iter().flat_map(|&(xb, kb)| (0..ic).map(move |cc| (xb + cc, wb + kb + cc)));
                    c.output(op, terms, ocn, &mut elems)?;
                }
            }
        }
    }
    let v = elems.finish(e, op, &[n, oh, ow, oc])?;
    e.assign(fr, op, v)
}

/// A transposed convolution's output size: `(I - 1) * s + pa + pb + K`,
/// with `pa, pb > -K` and `s >= 1`.
fn transpose_out(op: OpId, axis: &str, i: usize, k: usize, pa: i64, pb: i64, s: i64) -> Result<usize> {
    let k = k as i64;
    if pa <= -k || pb <= -k || s < 1 {
        return Err(invalid(op, format!("{axis}: out_pad {pa}, {pb} must exceed -{k} and stride {s} be >= 1")));
    }
    (i as i64 - 1)
        .checked_mul(s)
        .and_then(|v| v.checked_add(pa)?.checked_add(pb)?.checked_add(k))
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| invalid(op, format!("the {axis} output size is out of range")))
}

/// The geometry of a 2-D pooling over input `[N, IH, IW, C]`, its
/// attributes checked against the ERROR_IFs.
struct Pool {
    /// Input sizes `[N, IH, IW, C]`.
    shape: [usize; 4],
    /// Output height and width.
    out: [usize; 2],
    /// `[kernel_y, kernel_x]`.
    kernel: [usize; 2],
    /// `[stride_y, stride_x]`.
    stride: [i64; 2],
    /// `[pad_top, pad_left]` (the after-pads only shape the output).
    pad: [i64; 2],
}

impl Pool {
    /// Reads the attributes of pooling `op` over `x`.
    fn new(e: &Engine, op: OpId, x: &Dense) -> Result<Pool> {
        let &[n, ih, iw, c] = x.shape() else {
            return Err(invalid(op, format!("input shape {:?} is not [N, IH, IW, C]", x.shape())));
        };
        let (k, s, p) = (ints_n(e, op, "kernel", 2)?, ints_n(e, op, "stride", 2)?, ints_n(e, op, "pad", 4)?);
        let mut out = [0usize; 2];
        let mut kernel = [0usize; 2];
        for (a, (axis, i)) in [("height", ih), ("width", iw)].into_iter().enumerate() {
            let (pa, pb) = (p[2 * a], p[2 * a + 1]);
            if k[a] < 1 || pa < 0 || pb < 0 || pa >= k[a] || pb >= k[a] {
                return Err(invalid(
                    op,
                    format!("{axis}: kernel {} must be >= 1 and the padding {pa}, {pb} in 0..kernel", k[a]),
                ));
            }
            let num = (i as i64).checked_add(pa).and_then(|v| v.checked_add(pb)?.checked_sub(k[a]));
            out[a] = exact_out(op, axis, num, s[a])?;
            kernel[a] = usize::try_from(k[a]).map_err(|_| invalid(op, "kernel too large"))?;
        }
        Ok(Pool { shape: [n, ih, iw, c], out, kernel, stride: [s[0], s[1]], pad: [p[0], p[2]] })
    }

    /// The fuel the pooling costs: a unit per input a window may read.
    fn work(&self) -> u64 {
        let window = self.kernel[0].min(self.shape[1]).saturating_mul(self.kernel[1].min(self.shape[2]));
        self.out_shape().iter().fold(window.max(1) as u64, |a, d| a.saturating_mul(*d as u64))
    }

    /// The output shape `[N, OH, OW, C]`.
    fn out_shape(&self) -> [usize; 4] {
        [self.shape[0], self.out[0], self.out[1], self.shape[3]]
    }

    /// Fills `taps` with the input positions of output `(n, oy, ox, c)`
    /// that lie inside the input, in the pseudocode's order (rows, columns).
    fn taps(&self, n: usize, oy: usize, ox: usize, c: usize, taps: &mut Vec<usize>) {
        let [_, ih, iw, ch] = self.shape;
        taps.clear();
        // (OH - 1) * s + K fits i64: Pool::new computed it. The kernel
        // offsets run only over those inside the input, in order.
        let (iy, ix) = (oy as i64 * self.stride[0] - self.pad[0], ox as i64 * self.stride[1] - self.pad[1]);
        let inside = |i: i64, k: usize, size: usize| (-i).max(0)..(size as i64 - i).min(k as i64);
        for ky in inside(iy, self.kernel[0], ih) {
            for kx in inside(ix, self.kernel[1], iw) {
                taps.push(((n * ih + (iy + ky) as usize) * iw + (ix + kx) as usize) * ch + c);
            }
        }
    }

    /// Calls `f` with each output position's taps, in output order.
    fn each(&self, e: &Engine, op: OpId, mut f: impl FnMut(&[usize]) -> Result<Scalar>) -> Result<Vec<Scalar>> {
        let [n, oh, ow, c] = self.out_shape();
        let mut elems = output(e, op, &[n, oh, ow, c])?;
        // At most the input's positions are inside a window, however large the kernel.
        let mut taps = Vec::with_capacity(self.kernel[0].min(self.shape[1]) * self.kernel[1].min(self.shape[2]));
        for nn in 0..n {
            for oy in 0..oh {
                for ox in 0..ow {
                    for cc in 0..c {
                        self.taps(nn, oy, ox, cc, &mut taps);
                        elems.push(f(&taps)?);
                    }
                }
            }
        }
        Ok(elems)
    }
}

/// `reciprocal_scale(count)`: the `(multiplier, shift)` with which
/// `apply_scale_32` divides by `count`.
fn reciprocal_scale(op: OpId, count: u32) -> Result<(i64, u32)> {
    if count == 0 {
        return Err(require(op, "reciprocal_scale of 0".into()));
    }
    let k = 32 - (count - 1).leading_zeros();
    let numerator = ((1i64 << 30) + 1) << k;
    Ok((numerator / i64::from(count), 30 + k))
}

/// `apply_scale_32(value, multiplier, shift, false)`.
fn apply_scale_32(op: OpId, value: i64, multiplier: i64, shift: u32) -> Result<i64> {
    let half = 1i64 << (shift - 1);
    if multiplier < 0 || !(2..=62).contains(&shift) || value < -half || value >= half {
        return Err(require(
            op,
            format!(
                "apply_scale_32 of {value} by {multiplier} >> {shift}: the value must be in -2^{0}..2^{0}",
                shift - 1
            ),
        ));
    }
    // value is an i32 (acc_t) and multiplier below 2^31: the product fits i64.
    Ok((value * multiplier + half) >> shift)
}

/// `tosa.avg_pool2d %x, %input_zp, %output_zp`: the mean of each window's
/// inputs (padding not counted), in `acc_t`; integers divide by
/// `apply_scale_32` with `reciprocal_scale(count)`, add the output zero
/// point and clip to the element type.
pub(super) fn avg_pool(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let pool = Pool::new(e, op, &x)?;
    let (et, acc, out) = (operand_elem(e, op, 0)?, acc_type(e, op)?, result_elem(e, op, 0)?);
    let ok = match (et, acc) {
        (Elem::Int(8 | 16), Acc::Int(32)) => true,
        (Elem::Float(k), Acc::Float(a)) => tosa_float(k) && matches!(a, FloatKind::F16 | FloatKind::F32),
        _ => false,
    };
    if !ok || out != et {
        return Err(invalid(op, format!("no type support for {et:?} input, {acc:?} accumulator, {out:?} output")));
    }
    let (izp, ozp) = (scalar_operand(e, fr, op, 1)?, scalar_operand(e, fr, op, 2)?);
    check_zp(op, et, &izp, "input_zp")?;
    check_zp(op, et, &ozp, "output_zp")?;
    let vals = minus_zp(op, &x, acc, &izp)?;
    e.charge(op, pool.work())?;
    let elems = match (vals, acc, et) {
        (Vals::Int(v), Acc::Int(aw), Elem::Int(w)) => {
            let oz = match ozp {
                Scalar::Int(z) => z.to_i64().unwrap_or(0),
                _ => 0,
            };
            let (lo, hi) = signed_range(w);
            pool.each(e, op, |taps| {
                let mut acc = 0i64;
                for &i in taps {
                    acc = add_s(op, aw, acc, v[i], "the accumulator")?;
                }
                let count = u32::try_from(taps.len()).map_err(|_| invalid(op, "a window of over 2^32 inputs"))?;
                let (mul, shift) = reciprocal_scale(op, count)?;
                let scaled = apply_scale_32(op, acc, mul, shift)?;
                let r = add_s(op, aw, scaled, oz, "adding the output zero point")?;
                Ok(int_scalar(w, r.clamp(lo, hi)))
            })?
        }
        (Vals::Float(v), Acc::Float(k), Elem::Float(ok)) => pool.each(e, op, |taps| {
            let mut acc = float::from_bits(k, 0);
            for &i in taps {
                acc = float::add(acc, v[i], RNE);
            }
            let count = float::from_int(&num_bigint::BigInt::from(taps.len()), k, RNE)
                .map_err(|err| invalid(op, format!("{err}")))?;
            Ok(Scalar::Float(to_format(op, float::div(acc, count, RNE), ok)?))
        })?,
        _ => return Err(invalid(op, "mixed integer and float operands")),
    };
    let v = build(e, op, 0, &pool.out_shape(), elems)?;
    e.assign(fr, op, v)
}

/// `tosa.max_pool2d %x {nan_mode}`: the largest input of each window
/// (`apply_max_s` from `minimum_s`, or from NaN under IGNORE).
pub(super) fn max_pool(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let pool = Pool::new(e, op, &x)?;
    let (et, out) = (operand_elem(e, op, 0)?, result_elem(e, op, 0)?);
    let ignore = ignore_nan(e, op);
    e.charge(op, pool.work())?;
    let elems = match et {
        Elem::Int(w @ (8 | 16)) if out == et => {
            let v = decode(op, &x, false)?;
            let Vals::Int(v) = v else { return Err(invalid(op, "integer input")) };
            pool.each(e, op, |taps| Ok(int_scalar(w, taps.iter().fold(signed_range(w).0, |m, &i| m.max(v[i])))))?
        }
        Elem::Float(k) if out == et && tosa_float(k) => {
            let Vals::Float(v) = decode(op, &x, true)? else { return Err(invalid(op, "float input")) };
            let start = if ignore { float::nan(k) } else { lowest(k) };
            pool.each(e, op, |taps| Ok(Scalar::Float(taps.iter().fold(start, |m, &i| fmax(m, v[i], true, ignore)))))?
        }
        _ => return Err(invalid(op, format!("no type support for {et:?} input and {out:?} output"))),
    };
    let v = build(e, op, 0, &pool.out_shape(), elems)?;
    e.assign(fr, op, v)
}
