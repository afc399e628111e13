//! tosa's image and frequency operators: `resize` (nearest neighbour and
//! bilinear, its scale/offset/border in integer arithmetic) and the
//! complex FFTs `fft2d` / `rfft2d`.

use super::{build, enum_attr, float_at, int_at, int_scalar, invalid, operand_elem, result_elem, shape_operand, Elem};
use crate::error::Result;
use crate::exec::{Engine, Flow, Frame};
use crate::float::{self, Float, FloatKind, Round};
use crate::operands::dense;
use crate::value::Scalar;
use mlir_ir::ir::OpId;

const RNE: Round = Round::NearestEven;

/// The float of format `k` with integer value `v`.
fn from_i64(k: FloatKind, v: i64) -> Float {
    float::from_int(&num_bigint::BigInt::from(v), k, RNE).unwrap_or_else(|_| float::nan(k))
}

/// `tosa.resize %input, %scale, %offset, %border {mode}` on NHWC tensors.
pub(super) fn resize(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let scale = shape_operand(e, fr, op, 1)?;
    let offset = shape_operand(e, fr, op, 2)?;
    let border = shape_operand(e, fr, op, 3)?;
    let (&[n, ih, iw, c], [yn, yd, xn, xd], [oy_off, ox_off], [by, bx]) =
        (x.shape(), scale.as_slice(), offset.as_slice(), border.as_slice())
    else {
        return Err(invalid(op, "resize takes an NHWC input, 4 scale values, 2 offsets and 2 borders"));
    };
    let (yn, yd, xn, xd, oy_off, ox_off, by, bx) = (*yn, *yd, *xn, *xd, *oy_off, *ox_off, *by, *bx);
    let bilinear = match enum_attr(e, op, "mode", "") {
        "BILINEAR" => true,
        "NEAREST_NEIGHBOR" => false,
        m => return Err(invalid(op, format!("resize mode '{m}'"))),
    };
    // The ERROR_IFs on the parameters, then the output size they give.
    let checks = [
        (ih.max(iw) >= 16384, "input height or width >= 16384"),
        (yn <= 0 || yd <= 0 || xn <= 0 || xd <= 0, "a scale value <= 0"),
        (yn > 1 << 11 || xn > 1 << 11, "a scale numerator above 2^11"),
        (yd >= 16 * yn || xd >= 16 * xn, "a scale denominator >= 16 times its numerator"),
        (oy_off < -yn || oy_off >= 16 * yn || ox_off < -xn || ox_off >= 16 * xn, "an offset out of range"),
        (by < -16 * yn || by >= yn || bx < -16 * xn || bx >= xn, "a border out of range"),
    ];
    if let Some((_, msg)) = checks.iter().find(|(bad, _)| *bad) {
        return Err(invalid(op, format!("resize with {msg}")));
    }
    let out_size = |i: usize, num: i64, off: i64, bord: i64, den: i64| -> Result<usize> {
        let t = (i as i64 - 1) * num - off + bord;
        if t % den != 0 {
            return Err(invalid(op, format!("resize: ({i} - 1) * {num} - {off} + {bord} is not a multiple of {den}")));
        }
        usize::try_from(t / den + 1).map_err(|_| invalid(op, "resize gives a negative output size"))
    };
    let (oh, ow) = (out_size(ih, yn, oy_off, by, yd)?, out_size(iw, xn, ox_off, bx, xd)?);
    if oh.max(ow) >= 16384 {
        return Err(invalid(op, "resize output height or width >= 16384"));
    }
    let (ie, oe) = (operand_elem(e, op, 0)?, result_elem(e, op, 0)?);
    e.charge(op, (n * oh * ow * c) as u64)?;
    let at = |b: usize, y: i64, xx: i64, ch: usize| ((b * ih + y as usize) * iw + xx as usize) * c + ch;
    let mut elems = Vec::with_capacity(n * oh * ow * c);
    for b in 0..n {
        for oy in 0..oh {
            let y = oy as i64 * yd + oy_off;
            let iy = y.div_euclid(yn);
            let ry = y - iy * yn;
            let (iy0, iy1) = (iy.max(0), (iy + 1).min(ih as i64 - 1));
            for ox in 0..ow {
                let xx = ox as i64 * xd + ox_off;
                let ix = xx.div_euclid(xn);
                let rx = xx - ix * xn;
                let (ix0, ix1) = (ix.max(0), (ix + 1).min(iw as i64 - 1));
                for ch in 0..c {
                    let s = match (ie, bilinear) {
                        (Elem::Float(k), _) => {
                            let dy = float::div(from_i64(k, ry), from_i64(k, yn), RNE);
                            let dx = float::div(from_i64(k, rx), from_i64(k, xn), RNE);
                            if bilinear {
                                let one = from_i64(k, 1);
                                let (uy, ux) = (float::sub(one, dy, RNE), float::sub(one, dx, RNE));
                                let v = |yy, xx2| float_at(op, &x, at(b, yy, xx2, ch));
                                let term = |v: Float, a: Float, b2: Float| float::mul(float::mul(v, a, RNE), b2, RNE);
                                let mut acc = term(v(iy0, ix0)?, uy, ux);
                                acc = float::add(acc, term(v(iy0, ix1)?, uy, dx), RNE);
                                acc = float::add(acc, term(v(iy1, ix0)?, dy, ux), RNE);
                                acc = float::add(acc, term(v(iy1, ix1)?, dy, dx), RNE);
                                Scalar::Float(acc)
                            } else {
                                let half = float::div(from_i64(k, 1), from_i64(k, 2), RNE);
                                let ge = |d: Float| {
                                    matches!(float::compare(d, half), float::Ordering::Greater | float::Ordering::Equal)
                                };
                                let yy = if ge(dy) { iy1 } else { iy0 };
                                let xx2 = if ge(dx) { ix1 } else { ix0 };
                                x.get(at(b, yy, xx2, ch))
                            }
                        }
                        (Elem::Int(_), true) => {
                            let Elem::Int(ow_bits) = oe else {
                                return Err(invalid(op, "bilinear resize of integers gives integers"));
                            };
                            let v = |yy, xx2| int_at(op, &x, at(b, yy, xx2, ch));
                            let acc = v(iy0, ix0)? * (yn - ry) * (xn - rx)
                                + v(iy0, ix1)? * (yn - ry) * rx
                                + v(iy1, ix0)? * ry * (xn - rx)
                                + v(iy1, ix1)? * ry * rx;
                            int_scalar(ow_bits, acc)
                        }
                        (Elem::Int(_), false) => {
                            let yy = if 2 * ry >= yn { iy1 } else { iy0 };
                            let xx2 = if 2 * rx >= xn { ix1 } else { ix0 };
                            let Elem::Int(ow_bits) = oe else {
                                return Err(invalid(op, "nearest resize of integers gives integers"));
                            };
                            int_scalar(ow_bits, int_at(op, &x, at(b, yy, xx2, ch))?)
                        }
                        (Elem::Bool, _) => return Err(invalid(op, "resize of booleans")),
                    };
                    elems.push(s);
                }
            }
        }
    }
    let v = build(e, op, 0, &[n, oh, ow, c], elems)?;
    e.assign(fr, op, v)
}

/// `tosa.fft2d %re, %im {inverse}` (`rfft2d %re`: real input, `W/2 + 1`
/// output columns): the direct DFT of the pseudocode, every step rounded
/// in the element type, `cos`/`sin` from the host libm as `math` computes
/// them. The specification bounds the error rather than fixing the bits.
pub(super) fn fft(e: &mut Engine, fr: &mut Frame, op: OpId, real_input: bool) -> Result<Flow> {
    let re = dense(e, fr, op, 0)?;
    let im = if real_input { None } else { Some(dense(e, fr, op, 1)?) };
    let &[n, h, w] = re.shape() else { return Err(invalid(op, "the FFT input must have rank 3")) };
    if let Some(im) = &im {
        if im.shape() != re.shape() {
            return Err(invalid(op, "the real and imaginary inputs differ in shape"));
        }
    }
    if !h.is_power_of_two() || !w.is_power_of_two() {
        return Err(invalid(op, format!("FFT sizes {h} x {w} must be powers of two")));
    }
    let Elem::Float(k) = operand_elem(e, op, 0)? else { return Err(invalid(op, "the FFT takes floats")) };
    let sign = if !real_input && e.flag(op, "inverse") { -1 } else { 1 };
    let pol = e.cfg.float_policy;
    let ow = if real_input { w / 2 + 1 } else { w };
    e.charge(op, (n * h * ow * h * w) as u64)?;
    let lib = |f: crate::float::libm::Fn1, a: Float| {
        crate::float::libm::unary(f, a, pol).map_err(|err| crate::operands::libm_error(e, op, err))
    };
    let two_pi = float::mul(from_i64(k, 2), float::convert(pi(), k, RNE).unwrap_or_else(|_| float::nan(k)), RNE);
    let two_pi = if sign < 0 { float::neg(two_pi) } else { two_pi };
    let (fh, fw) = (from_i64(k, h as i64), from_i64(k, w as i64));
    let (mut out_re, mut out_im) = (Vec::with_capacity(n * h * ow), Vec::with_capacity(n * h * ow));
    for b in 0..n {
        for oy in 0..h {
            for ox in 0..ow {
                let (mut sr, mut si) = (from_i64(k, 0), from_i64(k, 0));
                for iy in 0..h {
                    for ix in 0..w {
                        let p = (b * h + iy) * w + ix;
                        let vr = float_at(op, &re, p)?;
                        let (ay, ax) = ((iy * oy) % h, (ix * ox) % w);
                        let frac = float::add(
                            float::div(from_i64(k, ay as i64), fh, RNE),
                            float::div(from_i64(k, ax as i64), fw, RNE),
                            RNE,
                        );
                        let a = float::mul(two_pi, frac, RNE);
                        let (c, s) = (lib(crate::float::libm::Fn1::Cos, a)?, lib(crate::float::libm::Fn1::Sin, a)?);
                        match &im {
                            Some(im) => {
                                let vi = float_at(op, im, p)?;
                                sr = float::add(
                                    sr,
                                    float::add(float::mul(vr, c, RNE), float::mul(vi, s, RNE), RNE),
                                    RNE,
                                );
                                si = float::add(
                                    si,
                                    float::add(float::mul(float::neg(vr), s, RNE), float::mul(vi, c, RNE), RNE),
                                    RNE,
                                );
                            }
                            None => {
                                sr = float::add(sr, float::mul(vr, c, RNE), RNE);
                                let nonzero = (h > 1 && ay % (h / 2) > 0) || (w > 1 && ax % (w / 2) > 0);
                                if nonzero {
                                    si = float::add(si, float::mul(float::neg(vr), s, RNE), RNE);
                                }
                            }
                        }
                    }
                }
                out_re.push(Scalar::Float(sr));
                out_im.push(Scalar::Float(si));
            }
        }
    }
    let (a, b2) = (build(e, op, 0, &[n, h, ow], out_re)?, build(e, op, 1, &[n, h, ow], out_im)?);
    e.assign_all(fr, op, vec![a, b2])
}

/// pi as an f64 float (rounded to the element type by the caller).
fn pi() -> Float {
    Float { kind: FloatKind::F64, bits: u128::from(std::f64::consts::PI.to_bits()) }
}
