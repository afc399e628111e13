//! Runtime values as MLIR attribute text (`42 : i32`, `2.5 : f32`,
//! `dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>`), for `run --print-results`:
//! what a reader can paste back into a constant or an `--arg`. Floats are
//! exact: the shortest decimal that reads back to the same value as an f32
//! (an f64 for f64; so it reads back in narrower formats too), or the
//! bits in hex (NaN, infinities, formats wider than f64), as MLIR spells
//! them. Poison has no literal and prints as `<poison>`.

use crate::float::{self, Float, FloatKind};
use crate::scalar::{Int, Scalar};
use crate::value::{Dense, Value};
use mlir_ir::ir::OpId;

/// The attribute text of one scalar element (no type suffix).
pub fn scalar(s: &Scalar) -> String {
    scalar_as(s, false)
}

/// [`scalar`], integers read as unsigned when `unsigned` (a `uiN` type's
/// elements: MLIR prints 255, not -1, for `ui8`).
pub fn scalar_as(s: &Scalar, unsigned: bool) -> String {
    match s {
        Scalar::Int(i) if unsigned && i.width() > 1 => i.to_ubig().to_string(),
        Scalar::Int(i) => int(i),
        Scalar::Float(f) => float_lit(*f),
        Scalar::Complex(c) => {
            let (re, im) = c.parts();
            format!("({}, {})", float_lit(re), float_lit(im))
        }
        Scalar::Poison(_) => "<poison>".to_string(),
    }
}

/// True when `ty`'s scalars (through shaped types and a memref's vector
/// elements) are unsigned integers, which MLIR prints and NumPy stores as
/// unsigned.
pub fn unsigned(ctx: &mlir_ir::ir::Context, mut ty: mlir_ir::types::TypeId) -> bool {
    use mlir_ir::types::{Signedness, TypeKind};
    loop {
        match ctx.type_kind(ty) {
            TypeKind::Integer { signedness: Signedness::Unsigned, .. } => return true,
            TypeKind::Complex(_) => return false,
            k => match k.elem() {
                Some(inner) => ty = inner,
                None => return false,
            },
        }
    }
}

/// An integer as MLIR prints attributes: `true`/`false` for i1, signed
/// decimal otherwise.
fn int(i: &Int) -> String {
    if i.width() == 1 {
        return if i.is_nonzero() { "true" } else { "false" }.to_string();
    }
    i.to_sbig().to_string()
}

/// A float literal that reads back to exactly `f`.
pub fn float_lit(f: Float) -> String {
    let exact = !matches!(f.kind, FloatKind::F80 | FloatKind::F128);
    if float::is_nan(f) || float::is_inf(f) || !exact {
        let digits = f.kind.bit_width().div_ceil(4) as usize;
        return format!("0x{:0digits$X}", { f.bits });
    }
    // Every value of a format up to 32 bits is an f32 (of one up to 64 bits
    // an f64), and the shortest text that reads back to it there lies
    // inside the format's own rounding interval, so it reads back too.
    // MLIR wants a `.` before any exponent.
    let x = float::to_f64(f);
    let text = if f.kind.bit_width() <= 32 { format!("{:?}", x as f32) } else { format!("{x:?}") };
    match text.split_once('e') {
        Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
        _ => text,
    }
}

/// The elements of `d` as a `dense<...>` body: a splat when all are equal.
pub fn dense(d: &Dense) -> String {
    dense_as(d, false)
}

/// [`dense`] with [`scalar_as`]'s elements.
fn dense_as(d: &Dense, unsigned: bool) -> String {
    let elems: Vec<String> = d.iter().map(|s| scalar_as(&s, unsigned)).collect();
    if !elems.is_empty() && elems.iter().all(|e| *e == elems[0]) {
        return format!("dense<{}>", elems[0]);
    }
    let mut out = String::from("dense<");
    nest(&mut out, d.shape(), &elems);
    out.push('>');
    out
}

/// Nested `[...]` lists of `elems` (row-major) in `shape`.
pub(crate) fn nest(out: &mut String, shape: &[usize], elems: &[String]) {
    let Some((&n, rest)) = shape.split_first() else {
        out.push_str(elems.first().map_or("", String::as_str));
        return;
    };
    let step: usize = rest.iter().product();
    out.push('[');
    for k in 0..n {
        if k > 0 {
            out.push_str(", ");
        }
        nest(out, rest, &elems[k * step..(k + 1) * step]);
    }
    out.push(']');
}

/// The text of a value (without its type): a scalar literal, a
/// `dense<...>` for vectors, tensors and memrefs (their current contents,
/// read as op `at` would), and `<function>`, `<pointer>` for what has no
/// literal.
pub fn value(v: &Value, at: OpId) -> String {
    value_as(v, at, false)
}

/// [`value`] of a value whose integers are unsigned when `unsigned` (its
/// type is `uiN` or a shaped type of `uiN`).
pub fn value_as(v: &Value, at: OpId, unsigned: bool) -> String {
    match v {
        Value::Scalar(_) | Value::Wide(_) => v.scalar().map_or_else(String::new, |s| scalar_as(&s, unsigned)),
        Value::Array(d) => dense_as(d, unsigned),
        Value::Sparse(s) => match s.dense() {
            Ok(d) => dense_as(&d, unsigned),
            Err(e) => format!("<{e:?}>"),
        },
        Value::Memref(m) => match m.read_all(at, "print") {
            Ok(d) => dense_as(&d, unsigned),
            Err(e) => format!("<{}>", e.kind),
        },
        Value::Func(_) => "<function>".to_string(),
        Value::Ptr(_) => "<pointer>".to_string(),
        // LLVM IR's own aggregate literal syntax.
        Value::Agg(fs) => {
            let inner: Vec<String> = fs.iter().map(|f| value(f, at)).collect();
            format!("{{{}}}", inner.join(", "))
        }
        Value::Opaque => "<opaque>".to_string(),
    }
}

/// A value briefly, as traces and the debugger list them: scalars in full
/// (integers unsigned when `unsigned`), arrays up to `max` elements and
/// then their count, memrefs as `place` describes them.
pub fn brief(v: &Value, unsigned: bool, max: usize, place: impl Fn(&crate::memory::MemRef) -> String) -> String {
    match v {
        Value::Array(d) if d.len() > max => {
            let first: Vec<String> = (0..max).map(|i| scalar_as(&d.get(i), unsigned)).collect();
            format!("[{}, ...] ({} elements)", first.join(", "), d.len())
        }
        Value::Memref(m) => place(m),
        v => value_as(v, OpId(0), unsigned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32v(x: f32) -> Float {
        Float { kind: FloatKind::F32, bits: u128::from(x.to_bits()) }
    }

    /// Float literals read back exactly and follow MLIR's grammar.
    #[test]
    fn floats() {
        assert_eq!(float_lit(f32v(2.5)), "2.5");
        assert_eq!(float_lit(f32v(0.1)), "0.1");
        assert_eq!(float_lit(f32v(1e-7)), "1.0e-7");
        // bf16 0x3DCD is 0.10009765625; as an f32 it needs nine digits
        // ("0.10009766" is 3.75e-9 away, over half an f32 ulp there).
        assert_eq!(float_lit(Float { kind: FloatKind::BF16, bits: 0x3DCD }), "0.100097656");
        assert_eq!(float_lit(f32v(-0.0)), "-0.0");
        assert_eq!(float_lit(f32v(f32::INFINITY)), "0x7F800000");
        assert_eq!(float_lit(Float { kind: FloatKind::F16, bits: 0x7E00 }), "0x7E00");
        assert_eq!(float_lit(Float { kind: FloatKind::F64, bits: u128::from(1e300f64.to_bits()) }), "1.0e300");
    }

    /// Nested lists, splats, booleans and poison.
    #[test]
    fn arrays() {
        let ints: Vec<Scalar> = (1..=4).map(|i| Scalar::Int(Int::from_i128(32, i))).collect();
        assert_eq!(dense(&Dense::new(&[2, 2], &ints, None).unwrap()), "dense<[[1, 2], [3, 4]]>");
        let same = vec![Scalar::Int(Int::from_i128(1, 1)); 3];
        assert_eq!(dense(&Dense::new(&[3], &same, None).unwrap()), "dense<true>");
        let p = Scalar::Poison(crate::scalar::Poison(mlir_ir::ir::OpId(0)));
        assert_eq!(dense(&Dense::new(&[2], &[ints[0].clone(), p], None).unwrap()), "dense<[1, <poison>]>");
        assert_eq!(dense(&Dense::new(&[], &ints[..1], None).unwrap()), "dense<1>");
        // One element is a splat too, as mlir-opt prints `dense<[1]> : tensor<1xi32>`.
        assert_eq!(dense(&Dense::new(&[1], &ints[..1], None).unwrap()), "dense<1>");
    }
}
