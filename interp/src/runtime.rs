//! The runtime functions of `mlir-runner` (LLVM 22's `CRunnerUtils.cpp` and
//! `Float16bits.cpp`) and the formatting `vector.print` lowers to, byte for
//! byte: `%g` floats (`nan`, `-nan`, `inf`), signed `printI64`, unsigned
//! `printU64`, `( a, b )` vectors. External `func.func` declarations bind to
//! these by name; an unknown name fails when called.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::float::{self, Float, FloatKind, Round};
use crate::value::{Int, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::types::{Signedness, TypeId, TypeKind};
use std::io::Write;

/// A runtime function an external declaration binds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtFn {
    /// `printI64(i64)`: signed decimal.
    PrintI64,
    /// `printU64(i64)`: unsigned decimal.
    PrintU64,
    /// `printF16(i16 bits)`.
    PrintF16,
    /// `printBF16(i16 bits)`.
    PrintBF16,
    /// `printF32(f32)`: `%g`.
    PrintF32,
    /// `printF64(f64)`: `%lg`.
    PrintF64,
    /// `printString(ptr)`: needs pointers, not supported.
    PrintString,
    /// `printOpen()`: `( `.
    PrintOpen,
    /// `printClose()`: ` )`.
    PrintClose,
    /// `printComma()`: `, `.
    PrintComma,
    /// `printNewline()`.
    PrintNewline,
    /// `printFlops(f64)`: `%lf GFLOPS` on stderr.
    PrintFlops,
    /// `rtclock() -> f64`: seconds since the epoch.
    Rtclock,
    /// Any other external function.
    Unknown,
}

impl RtFn {
    /// The runtime function called `name`.
    pub fn from_name(name: &str) -> RtFn {
        match name {
            "printI64" => RtFn::PrintI64,
            "printU64" => RtFn::PrintU64,
            "printF16" => RtFn::PrintF16,
            "printBF16" => RtFn::PrintBF16,
            "printF32" => RtFn::PrintF32,
            "printF64" => RtFn::PrintF64,
            "printString" => RtFn::PrintString,
            "printOpen" => RtFn::PrintOpen,
            "printClose" => RtFn::PrintClose,
            "printComma" => RtFn::PrintComma,
            "printNewline" => RtFn::PrintNewline,
            "printFlops" => RtFn::PrintFlops,
            "rtclock" => RtFn::Rtclock,
            _ => RtFn::Unknown,
        }
    }
}

fn io(op: OpId) -> impl Fn(std::io::Error) -> Error {
    move |e| Error::at(op, ErrorKind::Unsupported(format!("cannot write output: {e}")))
}

fn bad_arg(op: OpId, name: &str) -> Error {
    Error::at(op, ErrorKind::Invalid(format!("bad argument for @{name}")))
}

/// Calls runtime function `rt` (declared as `name` with parameter types `ins`).
pub fn call(e: &mut Engine, op: OpId, rt: RtFn, name: &str, ins: &[TypeId], args: Vec<Value>) -> Result<Vec<Value>> {
    for a in &args {
        e.observe(op, a, &format!("passed to @{name}"))?;
    }
    let int = |i: usize| args.get(i).and_then(Value::scalar).and_then(Scalar::as_int).cloned();
    let flt = |i: usize, k: FloatKind| match args.get(i).and_then(Value::scalar) {
        Some(Scalar::Float(f)) => Some(*f),
        Some(Scalar::Int(b)) => b.bits128().map(|b| float::from_bits(k, b)),
        _ => None,
    };
    let text = match rt {
        RtFn::PrintI64 => int(0).and_then(|i| i.to_i64()).map(|v| v.to_string()),
        RtFn::PrintU64 => int(0).map(|i| u64_of(&i).to_string()),
        RtFn::PrintF16 => flt(0, FloatKind::F16).map(format_g),
        RtFn::PrintBF16 => flt(0, FloatKind::BF16).map(format_g),
        RtFn::PrintF32 => flt(0, FloatKind::F32).map(format_g),
        RtFn::PrintF64 => flt(0, FloatKind::F64).map(format_g),
        RtFn::PrintOpen => Some("( ".to_string()),
        RtFn::PrintClose => Some(" )".to_string()),
        RtFn::PrintComma => Some(", ".to_string()),
        RtFn::PrintNewline => Some("\n".to_string()),
        RtFn::PrintFlops => {
            let f = flt(0, FloatKind::F64).ok_or_else(|| bad_arg(op, name))?;
            let giga = float::div(f, float::from_bits(FloatKind::F64, 1e9f64.to_bits() as u128), Round::NearestEven);
            e.out.flush().map_err(io(op))?;
            eprintln!("{:.6} GFLOPS", float::to_f64(giga));
            return Ok(Vec::new());
        }
        RtFn::Rtclock => {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64());
            let bits = t.unwrap_or(0.0).to_bits();
            return Ok(vec![Value::float(float::from_bits(FloatKind::F64, u128::from(bits)))]);
        }
        RtFn::PrintString => {
            return Err(Error::at(op, ErrorKind::Unsupported("@printString (pointers are not modelled yet)".into())))
        }
        RtFn::Unknown => {
            return Err(Error::at(op, ErrorKind::Unsupported(format!("call to unknown external function @{name}"))))
        }
    };
    let _ = ins;
    let text = text.ok_or_else(|| bad_arg(op, name))?;
    e.out.write_all(text.as_bytes()).map_err(io(op))?;
    Ok(Vec::new())
}

/// The low 64 bits, unsigned.
fn u64_of(i: &Int) -> u64 {
    match i.bits128() {
        Some(b) => b as u64,
        None => i.to_u64().unwrap_or(0),
    }
}

/// Formats a float as C's `%g` (precision 6) does; f16/bf16 go through
/// `float` and print the same way (`std::ostream` defaults to `%g`).
pub fn format_g(f: Float) -> String {
    let neg = float::is_negative(f);
    if float::is_nan(f) {
        return if neg { "-nan" } else { "nan" }.to_string();
    }
    if float::is_inf(f) {
        return if neg { "-inf" } else { "inf" }.to_string();
    }
    if float::is_zero(f) {
        return if neg { "-0" } else { "0" }.to_string();
    }
    g_of_f64(float::to_f64(f), 6)
}

/// `%.{p}g` of a finite nonzero double.
pub fn g_of_f64(x: f64, p: usize) -> String {
    let sci = format!("{:.*e}", p - 1, x);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i64 {
        let mant = strip_zeros(mant);
        format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        let prec = (p as i64 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{x:.prec$}")).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// `%e` as LLVM's `raw_ostream` prints a double (the f32 entry result).
pub fn format_e(f: Float) -> String {
    let neg = float::is_negative(f);
    if float::is_nan(f) {
        return "nan".to_string();
    }
    if float::is_inf(f) {
        return if neg { "-INF" } else { "INF" }.to_string();
    }
    let x = float::to_f64(f);
    let sci = format!("{x:.6e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// How `vector.print` ends its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Punct {
    None,
    Newline,
    Comma,
    Open,
    Close,
}

fn punctuation(e: &Engine, op: OpId) -> Punct {
    let body = match e.m.attr(op, "punctuation").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Dialect { body, .. }) => body.to_string(),
        _ => return Punct::Newline,
    };
    let word = body.rsplit('<').next().unwrap_or("").trim_end_matches('>').trim();
    match word {
        "no_punctuation" => Punct::None,
        "comma" => Punct::Comma,
        "open" => Punct::Open,
        "close" => Punct::Close,
        _ => Punct::Newline,
    }
}

/// `vector.print`: a string literal (printed alone: the lowering ignores the
/// punctuation then), or a scalar or vector value followed by the
/// punctuation (a newline by default).
pub fn vector_print(e: &mut Engine, op: OpId, args: Vec<Value>) -> Result<()> {
    let mut text = String::new();
    if let Some(Attribute::String { value, .. }) = e.m.attr(op, "stringLiteral").map(|a| e.m.ctx.attr_kind(a)) {
        text.push_str(&String::from_utf8_lossy(value));
        return e.out.write_all(text.as_bytes()).map_err(io(op));
    } else if let Some(v) = args.first() {
        e.observe(op, v, "printed by vector.print")?;
        let ty = e.operand_type(op, 0).ok_or_else(|| bad_arg(op, "vector.print"))?;
        let et = e.elem_type(ty);
        match v {
            Value::Scalar(s) => text.push_str(&scalar_text(e, op, s, et)?),
            Value::Array(a) => {
                let shape = a.shape().to_vec();
                let elems: Vec<&Scalar> = a.iter().collect();
                nested(e, op, &shape, &elems, et, &mut text)?;
            }
            _ => return Err(bad_arg(op, "vector.print")),
        }
    }
    text.push_str(match punctuation(e, op) {
        Punct::None => "",
        Punct::Newline => "\n",
        Punct::Comma => ", ",
        Punct::Open => "( ",
        Punct::Close => " )",
    });
    e.out.write_all(text.as_bytes()).map_err(io(op))
}

fn nested(e: &Engine, op: OpId, shape: &[usize], elems: &[&Scalar], et: TypeId, out: &mut String) -> Result<()> {
    out.push_str("( ");
    let (n, inner) = match shape.split_first() {
        Some((n, inner)) => (*n, inner),
        None => (1, &[][..]),
    };
    let chunk = inner.iter().product::<usize>().max(1);
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        let part = elems.get(i * chunk..(i + 1) * chunk).ok_or_else(|| bad_arg(op, "vector.print"))?;
        if inner.is_empty() {
            out.push_str(&scalar_text(e, op, part[0], et)?);
        } else {
            nested(e, op, inner, part, et, out)?;
        }
    }
    out.push_str(" )");
    Ok(())
}

/// One element as the runtime prints it for element type `et`.
fn scalar_text(e: &Engine, op: OpId, s: &Scalar, et: TypeId) -> Result<String> {
    let unsupported = |t: &str| Error::at(op, ErrorKind::Unsupported(format!("vector.print of {t}")));
    match (s, e.m.ctx.type_kind(et)) {
        (Scalar::Int(i), TypeKind::Index) => Ok(u64_of(i).to_string()),
        (Scalar::Int(i), TypeKind::Integer { width, signedness }) if *width <= 64 => {
            if *width == 1 || *signedness == Signedness::Unsigned {
                Ok(u64_of(i).to_string())
            } else {
                Ok(i.to_i64().unwrap_or(0).to_string())
            }
        }
        (Scalar::Float(f), TypeKind::Float(FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64)) => {
            Ok(format_g(*f))
        }
        // mlir-opt 22 rejects vector.print of complex; we print it as
        // printMemrefC32/C64 print an element (`std::complex` through
        // `std::ostream`: `(re,im)`, each part `%g`).
        (Scalar::Complex(re, im), TypeKind::Complex(_)) => Ok(format!("({},{})", format_g(*re), format_g(*im))),
        _ => Err(unsupported(&mlir_ir::printer::type_to_string(&e.m.ctx, et))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64v(x: f64) -> Float {
        float::from_bits(FloatKind::F64, u128::from(x.to_bits()))
    }

    #[test]
    fn percent_g() {
        let cases = [
            (1.0, "1"),
            (0.1, "0.1"),
            (123456789.0, "1.23457e+08"),
            (1e-7, "1e-07"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5, "-2.5"),
            (1.23456789, "1.23457"),
            (1e300, "1e+300"),
            (999999.5, "1e+06"),
        ];
        for (x, s) in cases {
            assert_eq!(format_g(f64v(x)), s, "{x}");
        }
        assert_eq!(format_g(f64v(-0.0)), "-0");
        assert_eq!(format_g(f64v(f64::INFINITY)), "inf");
        assert_eq!(format_g(f64v(f64::NEG_INFINITY)), "-inf");
        assert_eq!(format_e(f64v(1.5)), "1.500000e+00");
    }
}
