//! The runtime functions of `mlir-runner` (LLVM 22's `CRunnerUtils.cpp` and
//! `Float16bits.cpp`) and the formatting `vector.print` lowers to, byte for
//! byte: `%g` floats (`nan`, `-nan`, `inf`), signed `printI64`, unsigned
//! `printU64`, `( a, b )` vectors, `printString`'s `fputs`; the sparse
//! tensor runtime is `crate::sparse_runtime`. External
//! `func.func` and `llvm.func` declarations bind to these by name; an
//! unknown name fails when called.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::float::libm::{Fn1, Fn2};
use crate::float::{self, Float, FloatKind, Round};
use crate::memory::{self, MemRef};
use crate::value::{Dense, FuncRef, Int, Packed, Scalar, Value};
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
    /// `printString(ptr)`: the bytes up to the first NUL (`fputs`).
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
    /// `printMemref*`, `printMemrefShape*`, `verifyMemRef*` (RunnerUtils).
    Memref(MemrefFn),
    /// `malloc(size)`.
    Malloc,
    /// `aligned_alloc(alignment, size)`.
    AlignedAlloc,
    /// `free(ptr)`.
    Free,
    /// A libm function of one argument (`sinf`, `erf`, ...), for
    /// `convert-math-to-libm`.
    Libm1(Fn1, FloatKind),
    /// A libm function of two arguments (`powf`, `atan2`, ...).
    Libm2(Fn2, FloatKind),
    /// `_mlir_apfloat_*` (LLVM 22's `APFloatWrappers.cpp`, what
    /// `convert-arith-to-apfloat` calls for the small float formats).
    ApFloat(ApFn),
    /// `printApFloat(semantics, bits)`: the value as a double, `%lg`.
    PrintApFloat,
    /// `memrefCopy(elemSize, src, dst)`: element-wise copy between two
    /// strided memrefs given as unranked descriptors (what `memref.copy`
    /// lowers to when a layout is not contiguous).
    MemrefCopy,
    /// `puts(ptr)`: the C string and a newline on stdout.
    Puts,
    /// `abort()`: the run stops with an error (mlir-runner dies of SIGABRT).
    Abort,
    /// The sparse tensor runtime (`crate::sparse_runtime`).
    Sparse(crate::sparse_runtime::SpFn),
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
            "puts" => RtFn::Puts,
            "abort" => RtFn::Abort,
            "printOpen" => RtFn::PrintOpen,
            "printClose" => RtFn::PrintClose,
            "printComma" => RtFn::PrintComma,
            "printNewline" => RtFn::PrintNewline,
            "printFlops" => RtFn::PrintFlops,
            "rtclock" => RtFn::Rtclock,
            "malloc" => RtFn::Malloc,
            "aligned_alloc" => RtFn::AlignedAlloc,
            "free" => RtFn::Free,
            "printApFloat" => RtFn::PrintApFloat,
            "memrefCopy" => RtFn::MemrefCopy,
            _ => libm_fn(name)
                .or_else(|| ApFn::from_name(name).map(RtFn::ApFloat))
                .or_else(|| MemrefFn::from_name(name).map(RtFn::Memref))
                .or_else(|| crate::sparse_runtime::SpFn::from_name(name).map(RtFn::Sparse))
                .unwrap_or(RtFn::Unknown),
        }
    }
}

/// An `_mlir_apfloat_*` function: operands are float bit patterns in
/// `i64`s with the format given by an `APFloatBase::Semantics` number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApFn {
    /// `add`, `subtract`, `multiply`, `divide` (nearest-even).
    Arith(u8),
    /// `remainder`: IEEE remainder (the quotient rounded to nearest-even).
    Remainder,
    /// `convert(in, out, a)`.
    Convert,
    /// `convert_to_int(sem, width, unsigned, a)`: nearest-even, saturating.
    ToInt,
    /// `convert_from_int(sem, width, unsigned, a)`.
    FromInt,
    /// `compare(sem, a, b)`: 0 less, 1 equal, 2 greater, 3 unordered.
    Compare,
    /// `neg`, `abs`.
    Sign(bool),
    /// `isfinite`, `isinfinite`, `isnormal`, `isnan`.
    Class(u8),
    /// `fused_multiply_add(sem, a, b, c)`.
    Fma,
    /// `minimum`, `maximum`, `minnum`, `maxnum`.
    MinMax(bool, bool),
}

impl ApFn {
    fn from_name(name: &str) -> Option<ApFn> {
        Some(match name.strip_prefix("_mlir_apfloat_")? {
            "add" => ApFn::Arith(0),
            "subtract" => ApFn::Arith(1),
            "multiply" => ApFn::Arith(2),
            "divide" => ApFn::Arith(3),
            "remainder" => ApFn::Remainder,
            "convert" => ApFn::Convert,
            "convert_to_int" => ApFn::ToInt,
            "convert_from_int" => ApFn::FromInt,
            "compare" => ApFn::Compare,
            "neg" => ApFn::Sign(true),
            "abs" => ApFn::Sign(false),
            "isfinite" => ApFn::Class(0),
            "isinfinite" => ApFn::Class(1),
            "isnormal" => ApFn::Class(2),
            "isnan" => ApFn::Class(3),
            "fused_multiply_add" => ApFn::Fma,
            "minimum" => ApFn::MinMax(false, false),
            "maximum" => ApFn::MinMax(true, false),
            "minnum" => ApFn::MinMax(false, true),
            "maxnum" => ApFn::MinMax(true, true),
            _ => return None,
        })
    }
}

/// The format of `APFloatBase::Semantics` number `n` (LLVM 22's order,
/// read from what convert-arith-to-apfloat emits for each type).
fn ap_semantics(n: i64) -> Option<FloatKind> {
    use FloatKind as K;
    Some(match n {
        0 => K::F16,
        1 => K::BF16,
        2 => K::F32,
        3 => K::F64,
        7 => K::F8E5M2,
        8 => K::F8E5M2FNUZ,
        9 => K::F8E4M3,
        10 => K::F8E4M3FN,
        11 => K::F8E4M3FNUZ,
        12 => K::F8E4M3B11FNUZ,
        13 => K::F8E3M4,
        14 => K::TF32,
        15 => K::F8E8M0FNU,
        16 => K::F6E3M2FN,
        17 => K::F6E2M3FN,
        18 => K::F4E2M1FN,
        _ => return None,
    })
}

/// Calls `_mlir_apfloat_*` function `f`; `ret` is the declared result type.
fn apfloat_call(e: &Engine, op: OpId, f: ApFn, name: &str, args: &[Value], ret: Option<TypeId>) -> Result<Vec<Value>> {
    let bad = || bad_arg(op, name);
    let int = |i: usize| match args.get(i).and_then(Value::scalar) {
        Some(Scalar::Int(x)) => Ok(x.clone()),
        Some(Scalar::Poison(p)) => {
            Err(Error::at(op, ErrorKind::Poison { what: format!("passed to @{name}"), origin: p.0 }))
        }
        _ => Err(bad()),
    };
    let word = |i: usize| int(i).map(|x| u64_of(&x));
    let kind = |i: usize| int(i).ok().and_then(|x| x.to_i64()).and_then(ap_semantics).ok_or_else(bad);
    // An operand: the low bits of its i64 (the wrappers build the APFloat
    // from exactly the format's width).
    let flt = |k: FloatKind, i: usize| -> Result<Float> {
        let w = k.bit_width();
        Ok(float::from_bits(k, u128::from(word(i)?) & ((1u128 << w) - 1)))
    };
    // An integer width operand of convert_to_int/convert_from_int.
    let width = |i: usize| -> Result<u32> {
        int(i)?.to_u64().and_then(|w| u32::try_from(w).ok()).filter(|w| (1..=64).contains(w)).ok_or_else(bad)
    };
    let pol = e.cfg.float_policy;
    let no_result = |x: float::FloatError| Error::at(op, ErrorKind::NoDefinedResult(format!("@{name}: {x}")));
    let r = Round::NearestEven;
    let bits: u128 = match f {
        ApFn::Arith(k) => {
            let s = kind(0)?;
            let (a, b) = (flt(s, 1)?, flt(s, 2)?);
            match k {
                0 => float::add(a, b, r),
                1 => float::sub(a, b, r),
                2 => float::mul(a, b, r),
                _ => float::div(a, b, r),
            }
            .bits
        }
        ApFn::Remainder => {
            let s = kind(0)?;
            crate::sem::fp::ieee_remainder(flt(s, 1)?, flt(s, 2)?).bits
        }
        ApFn::Convert => {
            let (from, to) = (kind(0)?, kind(1)?);
            float::convert_with(flt(from, 2)?, to, r, pol).map_err(no_result)?.bits
        }
        ApFn::ToInt => {
            let s = kind(0)?;
            let w = width(1)?;
            let unsigned = int(2)?.is_nonzero();
            let x = flt(s, 3)?;
            // APFloat's convertToInteger: NaN gives 0, out of range saturates.
            let v = if float::is_nan(x) {
                num_bigint::BigInt::from(0)
            } else {
                let y = float::round_to_integral(x, r);
                match float::to_int(y, w, !unsigned) {
                    Some(v) => v,
                    None if float::is_negative(y) => {
                        if unsigned {
                            0.into()
                        } else {
                            -(num_bigint::BigInt::from(1) << (w - 1))
                        }
                    }
                    None => {
                        let one = num_bigint::BigInt::from(1);
                        if unsigned {
                            (one << w) - 1
                        } else {
                            (one << (w - 1)) - 1
                        }
                    }
                }
            };
            u128::from(u64_of(&Int::from_big(w, &v)))
        }
        ApFn::FromInt => {
            let s = kind(0)?;
            let w = width(1)?;
            let unsigned = int(2)?.is_nonzero();
            let x = Scalar::Int(Int::from_u128(w, u128::from(word(3)?)));
            match crate::operands::int_to_float(op, &x, crate::sem::fp::To::Float(s), !unsigned, pol)? {
                Scalar::Float(f) => f.bits,
                _ => return Err(bad()),
            }
        }
        ApFn::Compare => {
            let s = kind(0)?;
            match float::compare(flt(s, 1)?, flt(s, 2)?) {
                float::Ordering::Less => 0,
                float::Ordering::Equal => 1,
                float::Ordering::Greater => 2,
                float::Ordering::Unordered => 3,
            }
        }
        ApFn::Sign(neg) => {
            let s = kind(0)?;
            let x = flt(s, 1)?;
            if neg { float::neg(x) } else { float::abs(x) }.bits
        }
        ApFn::Class(c) => {
            let s = kind(0)?;
            let x = flt(s, 1)?;
            u128::from(match c {
                0 => !float::is_nan(x) && !float::is_inf(x),
                1 => float::is_inf(x),
                2 => float::is_normal(x),
                _ => float::is_nan(x),
            })
        }
        ApFn::Fma => {
            let s = kind(0)?;
            float::fma(flt(s, 1)?, flt(s, 2)?, flt(s, 3)?, r).bits
        }
        ApFn::MinMax(max, num) => {
            let s = kind(0)?;
            let (a, b) = (flt(s, 1)?, flt(s, 2)?);
            if num { crate::sem::fp::maxnumf(a, b, max) } else { crate::sem::fp::maximumf(a, b, max) }.bits
        }
    };
    let w = ret.and_then(|t| e.int_width(t)).ok_or_else(bad)?;
    Ok(vec![Value::int(Int::from_u128(w, bits))])
}

/// The libm function called `name` (`sinf` for f32, `sin` for f64).
fn libm_fn(name: &str) -> Option<RtFn> {
    // `erf` is the one double function whose name ends in `f`.
    let (base, kind) = match name.strip_suffix('f') {
        Some(b) if name != "erf" => (b, FloatKind::F32),
        _ => (name, FloatKind::F64),
    };
    let one = |f| Some(RtFn::Libm1(f, kind));
    let two = |f| Some(RtFn::Libm2(f, kind));
    match base {
        "exp" => one(Fn1::Exp),
        "exp2" => one(Fn1::Exp2),
        "expm1" => one(Fn1::Expm1),
        "log" => one(Fn1::Log),
        "log2" => one(Fn1::Log2),
        "log10" => one(Fn1::Log10),
        "log1p" => one(Fn1::Log1p),
        "sin" => one(Fn1::Sin),
        "cos" => one(Fn1::Cos),
        "tan" => one(Fn1::Tan),
        "asin" => one(Fn1::Asin),
        "acos" => one(Fn1::Acos),
        "atan" => one(Fn1::Atan),
        "sinh" => one(Fn1::Sinh),
        "cosh" => one(Fn1::Cosh),
        "tanh" => one(Fn1::Tanh),
        "asinh" => one(Fn1::Asinh),
        "acosh" => one(Fn1::Acosh),
        "atanh" => one(Fn1::Atanh),
        "erf" => one(Fn1::Erf),
        "erfc" => one(Fn1::Erfc),
        "cbrt" => one(Fn1::Cbrt),
        "pow" => two(Fn2::Pow),
        "atan2" => two(Fn2::Atan2),
        _ => None,
    }
}

fn io(op: OpId) -> impl Fn(std::io::Error) -> Error {
    move |e| Error::at(op, ErrorKind::Unsupported(format!("cannot write output: {e}")))
}

/// A runtime function declared with parameters its C definition does not
/// take: the verifier cannot know the C signature, so this is bad input.
fn bad_arg(op: OpId, name: &str) -> Error {
    Error::at(
        op,
        ErrorKind::BadInput(format!("@{name} is declared with parameters its runtime definition does not take")),
    )
}

/// Calls the external function `f` (a declaration: the runtime function
/// its name binds to) from `op`.
pub fn call(e: &mut Engine, op: OpId, f: FuncRef, args: Vec<Value>) -> Result<Vec<Value>> {
    let func = e.funcs.get(f.0 as usize).ok_or_else(|| Error::unverified(op, "bad function reference"))?;
    let (name, ins, ret) = (func.name.clone(), func.inputs.clone(), func.results.first().copied());
    call_as(e, op, RtFn::from_name(&name), &name, &ins, ret, args)
}

/// Calls runtime function `rt` (declared as `name` with parameter types `ins`).
fn call_as(
    e: &mut Engine,
    op: OpId,
    rt: RtFn,
    name: &str,
    ins: &[TypeId],
    ret: Option<TypeId>,
    args: Vec<Value>,
) -> Result<Vec<Value>> {
    // The message is built only for poison: this runs on every call.
    if let Some(a) = args.iter().find(|a| a.find_poison().is_some()) {
        e.observe(op, a, &format!("passed to @{name}"))?;
    }
    let int = |i: usize| args.get(i).and_then(Value::as_int);
    let flt = |i: usize, k: FloatKind| match args.get(i).and_then(Value::scalar) {
        Some(Scalar::Float(f)) => Some(f),
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
        RtFn::Memref(f) => {
            let args = if args.iter().any(|a| matches!(a, Value::Ptr(_))) {
                descriptor_args(e, op, f, name, &args, ins)?
            } else {
                args.into_iter()
                    .enumerate()
                    .map(|(i, a)| tensor_as_memref(e, op, name, ins.get(i).copied(), a))
                    .collect::<Result<Vec<_>>>()?
            };
            // Printing and verifying touch every element: fuel for each.
            let n = args
                .iter()
                .map(|a| if let Value::Memref(m) = a { m.num_elements().unwrap_or(0) as u64 } else { 0 })
                .sum();
            e.charge(op, n)?;
            return memref_call(e, op, f, name, args);
        }
        RtFn::PrintString => {
            let p = args.first().ok_or_else(|| bad_arg(op, name))?;
            let bytes = crate::operands::c_string(e, op, p)?;
            e.out.write_all(&bytes).map_err(io(op))?;
            return Ok(Vec::new());
        }
        RtFn::Puts => {
            let p = args.first().ok_or_else(|| bad_arg(op, name))?;
            let bytes = crate::operands::c_string(e, op, p)?;
            e.out.write_all(&bytes).and_then(|()| e.out.write_all(b"\n")).map_err(io(op))?;
            // glibc returns the bytes written, newline included.
            return Ok(match ret.and_then(|t| e.int_width(t)) {
                Some(w) => vec![Value::int(Int::from_u128(w, bytes.len() as u128 + 1))],
                None => Vec::new(),
            });
        }
        RtFn::Abort => {
            e.out.flush().map_err(io(op))?;
            return Err(Error::at(op, ErrorKind::Abort));
        }
        RtFn::Malloc | RtFn::AlignedAlloc => {
            let (align, size) =
                if rt == RtFn::Malloc { (16, int(0)) } else { (int(0).and_then(|a| a.to_u64()).unwrap_or(0), int(1)) };
            let size = size.ok_or_else(|| bad_arg(op, name))?;
            // glibc rejects (null) what no host could allocate; the budget
            // refuses the rest with a resource error.
            let Some(n) = size.to_u64().and_then(|n| usize::try_from(n).ok()).filter(|n| *n < 1 << 48) else {
                return Ok(vec![Value::Ptr(memory::Ptr::null())]);
            };
            if rt == RtFn::AlignedAlloc && !align.is_power_of_two() {
                return Ok(vec![Value::Ptr(memory::Ptr::null())]);
            }
            let buf = e.mem.malloc(op, n, align)?;
            return Ok(vec![Value::Ptr(memory::Ptr { buf: Some(buf), offset: 0 })]);
        }
        RtFn::Free => {
            let Some(Value::Ptr(p)) = args.first() else { return Err(bad_arg(op, name)) };
            e.mem.free(op, p)?;
            return Ok(Vec::new());
        }
        RtFn::Libm1(f, k) => {
            let x = flt(0, k).ok_or_else(|| bad_arg(op, name))?;
            let r =
                float::libm::unary(f, x, e.cfg.float_policy).map_err(|err| crate::operands::libm_error(e, op, err))?;
            return Ok(vec![Value::float(r)]);
        }
        RtFn::Libm2(f, k) => {
            let (x, y) = (flt(0, k).ok_or_else(|| bad_arg(op, name))?, flt(1, k).ok_or_else(|| bad_arg(op, name))?);
            let r = float::libm::binary(f, x, y, e.cfg.float_policy)
                .map_err(|err| crate::operands::libm_error(e, op, err))?;
            return Ok(vec![Value::float(r)]);
        }
        RtFn::ApFloat(f) => return apfloat_call(e, op, f, name, &args, ret),
        RtFn::Sparse(f) => return crate::sparse_runtime::call(e, op, f, name, &args, ins, format_g),
        RtFn::MemrefCopy => {
            let n =
                int(0).and_then(|x| x.to_u64()).filter(|n| (1..=64).contains(n)).ok_or_else(|| bad_arg(op, name))?;
            let (Some(Value::Ptr(src)), Some(Value::Ptr(dst))) = (args.get(1), args.get(2)) else {
                return Err(bad_arg(op, name));
            };
            memref_copy(e, op, name, n as usize, src, dst, ins)?;
            return Ok(Vec::new());
        }
        RtFn::PrintApFloat => {
            let k = int(0).and_then(|x| x.to_i64()).and_then(ap_semantics).ok_or_else(|| bad_arg(op, name))?;
            let b = int(1)
                .map(|x| u128::from(u64_of(&x)) & ((1u128 << k.bit_width()) - 1))
                .ok_or_else(|| bad_arg(op, name))?;
            Some(format_apfloat(float::from_bits(k, b)))
        }
        RtFn::Unknown => {
            return Err(Error::at(op, ErrorKind::Unsupported(format!("call to unknown external function @{name}"))))
        }
    };
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
    let mut out = Vec::new();
    push_g(f, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`format_g`] appended to `out`, with no allocation of its own: the
/// printers call it once per element of values of any size.
pub fn push_g(f: Float, out: &mut Vec<u8>) {
    // The host converts the formats inside f64 exactly and quickly.
    let x = match f.kind {
        FloatKind::F32 => f64::from(f32::from_bits({ f.bits } as u32)),
        FloatKind::F16 => f64::from(half::f16::from_bits({ f.bits } as u16)),
        FloatKind::BF16 => f64::from(half::bf16::from_bits({ f.bits } as u16)),
        FloatKind::F64 => f64::from_bits({ f.bits } as u64),
        _ => float::to_f64(f),
    };
    push_g_f64(x, out)
}

/// What LLVM 22's `printApFloat` prints for an fp8/fp6/fp4 value (the
/// lowering of `vector.print` for them): the value converted to double,
/// printed with `%lg`. APFloat gives the NaN of the FNUZ formats no sign,
/// and converts f8E8M0FNU's NaN to infinity (both checked against
/// mlir-runner: `fixtures/exec/vector/print_small_floats.mlir`).
pub fn format_apfloat(f: Float) -> String {
    let mut out = Vec::new();
    push_apfloat(f, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`format_apfloat`] appended to `out`.
fn push_apfloat(f: Float, out: &mut Vec<u8>) {
    use FloatKind as K;
    if float::is_nan(f) {
        match f.kind {
            K::F8E5M2FNUZ | K::F8E4M3FNUZ | K::F8E4M3B11FNUZ => return out.extend_from_slice(b"nan"),
            K::F8E8M0FNU => return out.extend_from_slice(b"inf"),
            _ => {}
        }
    }
    push_g(f, out)
}

/// Text of at most 40 bytes formatted on the stack (`write!` into it
/// fails when the text would not fit).
struct Stack {
    buf: [u8; 40],
    len: usize,
}

impl std::fmt::Write for Stack {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len.checked_add(s.len()).filter(|e| *e <= self.buf.len()).ok_or(std::fmt::Error)?;
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// C's `%g` (precision 6) of `x`, appended to `out`: `nan`, `-nan`,
/// `inf`, `-0` as glibc prints them, else the value rounded correctly to
/// six significant digits in `%e` or `%f` form.
fn push_g_f64(x: f64, out: &mut Vec<u8>) {
    let special: &[u8] = match () {
        _ if x.is_nan() => b"nan",
        _ if x.is_infinite() => b"inf",
        _ if x == 0.0 => b"0",
        _ => b"",
    };
    if !special.is_empty() {
        if x.is_sign_negative() {
            out.push(b'-');
        }
        return out.extend_from_slice(special);
    }
    let Some((n, exp)) = six_digits(x.abs()) else { return push_g_exact(x, out) };
    // `n` has six digits: the first, then the rest without trailing zeros.
    let mut d = [0u8; 6];
    let mut m = n;
    for c in d.iter_mut().rev() {
        *c = b'0' + (m % 10) as u8;
        m /= 10;
    }
    let mut rest = &d[1..];
    while let Some((b'0', r)) = rest.split_last() {
        rest = r;
    }
    Sci { neg: x.is_sign_negative(), first: d[0], rest, exp: i64::from(exp) }.push_g(6, out)
}

/// 10^0 to 10^22: the powers of ten a double holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// `x · 10^k` with at most two roundings (relative error below 2^-52),
/// for `|k| <= 44`.
fn scale10(x: f64, k: i32) -> Option<f64> {
    let p = |i: u32| POW10.get(i as usize).copied();
    let a = k.unsigned_abs();
    let (hi, lo) = if a > 22 { (p(22)?, p(a - 22)?) } else { (p(a)?, 1.0) };
    Some(if k >= 0 { x * hi * lo } else { x / hi / lo })
}

/// The positive normal `x` rounded correctly (to nearest, ties to even,
/// as glibc) to six significant digits: `(n, e)` with `n` in
/// `100000..=999999` and `x ≈ n · 10^(e-5)`; `None` when a double's
/// arithmetic cannot decide it (a tie, or near enough to one; or `x` out
/// of the range the scaling covers), which [`push_g_exact`] then does.
///
/// `y = x · 10^(5-e)` is computed with a relative error below 2^-52, so
/// under 2.3·10^-10 for `y < 10^6`: unless the fraction of `y` is within
/// 10^-9 of one half, rounding the computed `y` rounds the exact one the
/// same way. A `y` just off the range's ends by that error rounds to the
/// same power of ten either way.
fn six_digits(x: f64) -> Option<(u32, i32)> {
    if !x.is_normal() {
        return None;
    }
    // floor(log10(2^e2)): the decimal exponent or one below it.
    let e2 = i32::try_from((x.to_bits() >> 52) & 0x7ff).ok()? - 1023;
    let mut e = (e2 * 78913) >> 18;
    let mut y = scale10(x, 5 - e)?;
    if y >= 1e6 {
        e += 1;
        y = scale10(x, 5 - e)?;
    } else if y < 1e5 {
        e -= 1;
        y = scale10(x, 5 - e)?;
    }
    let whole = y.floor();
    let frac = y - whole;
    if (frac - 0.5).abs() < 1e-9 || !(99_999.0..=1e6).contains(&whole) {
        return None;
    }
    let mut n = whole as u32 + u32::from(frac > 0.5);
    if n >= 1_000_000 {
        // Rounded up to the next power of ten.
        n = 100_000;
        e += 1;
    } else if n < 100_000 {
        return None;
    }
    Some((n, e))
}

/// [`push_g_f64`]'s digits by the standard library's exact formatting
/// (`{:.5e}`, correctly rounded as glibc's): for what [`six_digits`]
/// leaves.
fn push_g_exact(x: f64, out: &mut Vec<u8>) {
    use std::fmt::Write as _;
    let mut s = Stack { buf: [0; 40], len: 0 };
    match write!(s, "{x:.5e}") {
        Ok(()) => Sci::parse(&s.buf[..s.len]).push_g(6, out),
        Err(_) => Sci::parse(format!("{x:.5e}").as_bytes()).push_g(6, out),
    }
}

/// A decimal in scientific notation as Rust prints it (`-1.2345e-5`):
/// sign, significant digits, power of ten of the first digit.
struct Sci<'a> {
    neg: bool,
    /// The first digit.
    first: u8,
    /// The digits after the point, trailing zeros removed.
    rest: &'a [u8],
    exp: i64,
}

impl<'a> Sci<'a> {
    fn parse(text: &'a [u8]) -> Sci<'a> {
        let (neg, text) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        let e = text.iter().position(|c| *c == b'e').unwrap_or(text.len());
        let (mant, exp) = text.split_at(e);
        let first = mant.first().copied().unwrap_or(b'0');
        let mut rest = mant.get(2..).unwrap_or(&[]);
        while let Some((b'0', r)) = rest.split_last() {
            rest = r;
        }
        let exp = exp.get(1..).unwrap_or(&[]);
        let (exp_neg, digits) = match exp.split_first() {
            Some((b'-', d)) => (true, d),
            _ => (false, exp),
        };
        let e =
            digits.iter().fold(0i64, |acc, c| acc.saturating_mul(10).saturating_add(i64::from(c.wrapping_sub(b'0'))));
        Sci { neg, first, rest, exp: if exp_neg { -e } else { e } }
    }

    /// C's `%.{p}g` of this decimal (which has at most `p` digits): `%e`
    /// when the exponent is below -4 or at least `p`, else `%f`; trailing
    /// zeros of the fraction removed, and a bare point.
    fn push_g(&self, p: usize, out: &mut Vec<u8>) {
        let (first, rest) = (self.first, self.rest);
        if self.neg {
            out.push(b'-');
        }
        if self.exp < -4 || self.exp >= i64::try_from(p).unwrap_or(i64::MAX) {
            out.push(first);
            if !rest.is_empty() {
                out.push(b'.');
                out.extend_from_slice(rest);
            }
            out.push(b'e');
            out.push(if self.exp < 0 { b'-' } else { b'+' });
            let e = self.exp.unsigned_abs();
            if e < 10 {
                out.push(b'0');
            }
            let _ = write!(out, "{e}");
        } else if self.exp >= 0 {
            // `exp + 1` digits before the point, zeros past the last one.
            let more = usize::try_from(self.exp).unwrap_or(0);
            out.push(first);
            out.extend_from_slice(&rest[..more.min(rest.len())]);
            out.extend(std::iter::repeat_n(b'0', more.saturating_sub(rest.len())));
            if rest.len() > more {
                out.push(b'.');
                out.extend_from_slice(&rest[more..]);
            }
        } else {
            out.extend_from_slice(b"0.");
            out.extend(std::iter::repeat_n(b'0', usize::try_from(-self.exp - 1).unwrap_or(0)));
            out.push(first);
            out.extend_from_slice(rest);
        }
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

/// Printed text on its way to the engine's writer in chunks of about
/// [`Sink::CHUNK`] bytes, so that a value prints element by element and
/// its whole text is never in memory. Text not yet handed over when an
/// error ends the print is dropped.
struct Sink<'w> {
    w: &'w mut dyn Write,
    buf: Vec<u8>,
    op: OpId,
}

impl<'w> Sink<'w> {
    /// Bytes gathered before they go to the writer.
    const CHUNK: usize = 1 << 16;

    fn new(w: &'w mut dyn Write, op: OpId) -> Sink<'w> {
        // Room for the last element past a full chunk.
        Sink { w, buf: Vec::with_capacity(Self::CHUNK + 256), op }
    }

    /// Hands the text over once a chunk is full (after each element).
    #[inline]
    fn spill(&mut self) -> Result<()> {
        if self.buf.len() >= Self::CHUNK {
            self.w.write_all(&self.buf).map_err(io(self.op))?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Hands the rest of the text over.
    fn finish(self) -> Result<()> {
        self.w.write_all(&self.buf).map_err(io(self.op))
    }
}

/// How `vector.print` prints an element of a type: decided once per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// `index`, `i1` and unsigned integers: `printU64`.
    Unsigned,
    /// Other integers of at most 64 bits: `printI64`.
    Signed,
    /// f16, bf16, f32, f64: `%g`.
    G,
    /// The 8-bit and smaller float formats: `printApFloat`.
    ApFloat,
    /// Complex numbers, as printMemrefC32/C64 print an element.
    Complex,
    /// A type the runtime cannot print.
    Unsupported,
}

impl Style {
    fn of(e: &Engine, et: TypeId) -> Style {
        match e.m.ctx.type_kind(et) {
            TypeKind::Index => Style::Unsigned,
            TypeKind::Integer { width, signedness } if *width <= 64 => {
                if *width == 1 || *signedness == Signedness::Unsigned {
                    Style::Unsigned
                } else {
                    Style::Signed
                }
            }
            TypeKind::Float(FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64) => Style::G,
            TypeKind::Float(k) if k.bit_width() <= 8 => Style::ApFloat,
            // mlir-opt 22 rejects vector.print of complex; we print it as
            // printMemrefC32/C64 print an element (`std::complex` through
            // `std::ostream`: `(re,im)`, each part `%g`).
            TypeKind::Complex(_) => Style::Complex,
            _ => Style::Unsupported,
        }
    }
}

/// `vector.print`: a string literal (printed alone: the lowering ignores the
/// punctuation then), or a scalar or vector value followed by the
/// punctuation (a newline by default). A vector's text streams to the
/// output element by element.
pub fn vector_print(e: &mut Engine, op: OpId, args: Vec<Value>) -> Result<()> {
    if let Some(Attribute::String { value, .. }) = e.m.attr(op, "stringLiteral").map(|a| e.m.ctx.attr_kind(a)) {
        return e.out.write_all(String::from_utf8_lossy(value).as_bytes()).map_err(io(op));
    }
    let punct: &[u8] = match punctuation(e, op) {
        Punct::None => b"",
        Punct::Newline => b"\n",
        Punct::Comma => b", ",
        Punct::Open => b"( ",
        Punct::Close => b" )",
    };
    let Some(v) = args.first() else { return e.out.write_all(punct).map_err(io(op)) };
    e.observe(op, v, "printed by vector.print")?;
    let ty = e.operand_type(op, 0).ok_or_else(|| bad_arg(op, "vector.print"))?;
    let et = e.elem_type(ty);
    let style = Style::of(e, et);
    let m = e.m;
    let unsupported = || {
        Error::at(
            op,
            ErrorKind::Unsupported(format!("vector.print of {}", mlir_ir::printer::type_to_string(&m.ctx, et))),
        )
    };
    if style == Style::Unsupported {
        return Err(unsupported());
    }
    let mut out = Sink::new(&mut *e.out, op);
    match v {
        Value::Scalar(_) | Value::Wide(_) => {
            let s = v.scalar().ok_or_else(|| bad_arg(op, "vector.print"))?;
            push_scalar(style, &s, &mut out.buf).ok_or_else(unsupported)?;
        }
        Value::Array(a) => {
            let shape = a.shape();
            nested(a, shape, 0, (style, &unsupported), &mut out)?;
        }
        _ => return Err(bad_arg(op, "vector.print")),
    }
    out.buf.extend_from_slice(punct);
    out.finish()
}

/// Scalar `s` of type `ty` as `vector.print` prints it.
pub fn scalar_text(e: &Engine, op: OpId, ty: TypeId, s: &Scalar) -> Result<String> {
    let mut buf = Vec::new();
    push_scalar(Style::of(e, ty), s, &mut buf).ok_or_else(|| {
        let t = mlir_ir::printer::type_to_string(&e.m.ctx, ty);
        Error::at(op, ErrorKind::Unsupported(format!("printing a {t} element")))
    })?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Writes `text` to the program's output.
pub fn write_out(e: &mut Engine, op: OpId, text: &str) -> Result<()> {
    e.out.write_all(text.as_bytes()).map_err(io(op))
}

/// The elements of `a` from row-major position `first` under `shape` (the
/// trailing dims of its shape) as nested `( a, b )`; a rank-0 value prints
/// as `( a )`. An element of the wrong kind fails with `bad()`.
fn nested(
    a: &Dense,
    shape: &[usize],
    first: usize,
    (style, bad): (Style, &dyn Fn() -> Error),
    out: &mut Sink,
) -> Result<()> {
    out.buf.extend_from_slice(b"( ");
    let (n, inner) = shape.split_first().map_or((1, &[][..]), |(n, inner)| (*n, inner));
    let chunk: usize = inner.iter().product();
    for i in 0..n {
        if i > 0 {
            out.buf.extend_from_slice(b", ");
        }
        let at =
            i.checked_mul(chunk).and_then(|x| x.checked_add(first)).filter(|x| *x < a.len().max(1)).ok_or_else(bad)?;
        if inner.is_empty() {
            push_scalar(style, &a.get(at), &mut out.buf).ok_or_else(bad)?;
            out.spill()?;
        } else {
            nested(a, inner, at, (style, bad), out)?;
        }
    }
    out.buf.extend_from_slice(b" )");
    Ok(())
}

/// One element as the runtime prints it in `style`; `None` for a scalar
/// of another kind.
#[inline]
fn push_scalar(style: Style, s: &Scalar, out: &mut Vec<u8>) -> Option<()> {
    match (s, style) {
        (Scalar::Float(f), Style::G) => push_g(*f, out),
        (Scalar::Int(i), Style::Unsigned) => {
            let _ = write!(out, "{}", u64_of(i));
        }
        (Scalar::Int(i), Style::Signed) => {
            let _ = write!(out, "{}", i.to_i64().unwrap_or(0));
        }
        (Scalar::Float(f), Style::ApFloat) => push_apfloat(*f, out),
        (Scalar::Complex(c), Style::Complex) => {
            let (re, im) = c.parts();
            out.push(b'(');
            push_g(re, out);
            out.push(b',');
            push_g(im, out);
            out.push(b')');
        }
        _ => return None,
    }
    Some(())
}

/// What a RunnerUtils memref function does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemrefAction {
    /// Header and data.
    Print,
    /// Header only (`printMemrefShape*`).
    Shape,
    /// Compare two memrefs, return the number of differing elements (`verifyMemRef*`).
    Verify,
}

/// The C++ element type a RunnerUtils function is instantiated for: it,
/// not the memref's element type, decides how elements print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CElem {
    /// `int8_t`: printed as a character.
    I8,
    /// `int16_t`.
    I16,
    /// `int32_t`.
    I32,
    /// `int64_t`.
    I64,
    /// `f16` (printed through `float`).
    F16,
    /// `bf16` (printed through `float`).
    BF16,
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// `uint64_t` (`index`).
    Ind,
    /// `std::complex<float>`.
    C32,
    /// `std::complex<double>`.
    C64,
}

/// A RunnerUtils memref function (also under its `_mlir_ciface_` name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemrefFn {
    /// Print, shape or verify.
    pub action: MemrefAction,
    /// The element instantiation.
    pub elem: CElem,
    /// `Some(rank)` for the ranked `printMemref1dF32`-style functions
    /// (their header says `Memref`, not `Unranked Memref`).
    pub rank: Option<usize>,
}

impl MemrefFn {
    /// The function called `name`, if it is one of RunnerUtils' memref functions.
    pub fn from_name(name: &str) -> Option<MemrefFn> {
        let name = name.strip_prefix("_mlir_ciface_").unwrap_or(name);
        let (action, rest) = if let Some(r) = name.strip_prefix("printMemrefShape") {
            (MemrefAction::Shape, r)
        } else if let Some(r) = name.strip_prefix("printMemref") {
            (MemrefAction::Print, r)
        } else if let Some(r) = name.strip_prefix("verifyMemRef") {
            (MemrefAction::Verify, r)
        } else {
            return None;
        };
        let (rank, rest) = match rest.as_bytes() {
            [d @ b'0'..=b'4', b'd', ..] if action == MemrefAction::Print => (Some((d - b'0') as usize), &rest[2..]),
            _ => (None, rest),
        };
        let elem = match rest {
            "I8" => CElem::I8,
            "I16" => CElem::I16,
            "I32" => CElem::I32,
            "I64" => CElem::I64,
            "F16" => CElem::F16,
            "BF16" => CElem::BF16,
            "F32" => CElem::F32,
            "F64" => CElem::F64,
            "Ind" => CElem::Ind,
            "C32" => CElem::C32,
            "C64" => CElem::C64,
            _ => return None,
        };
        Some(MemrefFn { action, elem, rank })
    }
}

/// A tensor passed to a memref function declared with a tensor parameter
/// (`func.func private @printMemrefF32(tensor<*xf32>)`, as LLVM's
/// `print-memref.mlir` does) reaches it as the memref bufferization makes:
/// fresh identity-layout storage holding the tensor, owned by the tensor.
fn tensor_as_memref(e: &mut Engine, op: OpId, name: &str, ty: Option<TypeId>, v: Value) -> Result<Value> {
    let Value::Array(t) = &v else { return Ok(v) };
    let elem_ty = match ty.map(|ty| e.m.ctx.type_kind(ty)) {
        Some(TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem }) => *elem,
        _ => return Err(bad_arg(op, name)),
    };
    let m = crate::operands::tensor_storage(e, op, elem_ty, memory::AllocLayout::Identity, t, name)?;
    Ok(Value::Memref(std::rc::Rc::new(m)))
}

/// The memrefs a RunnerUtils function receives as the lowered code
/// passes them: `_mlir_ciface_` functions and the ranked ones get a
/// pointer to a descriptor (an unranked `{rank, descriptor pointer}` pair
/// for the unranked ones); the unranked C functions get the pair's two
/// fields as arguments.
fn descriptor_args(
    e: &Engine,
    op: OpId,
    f: MemrefFn,
    name: &str,
    args: &[Value],
    ins: &[TypeId],
) -> Result<Vec<Value>> {
    let ty = ins.first().copied().ok_or_else(|| bad_arg(op, name))?;
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (rank, desc) = match (a, f.rank) {
            (Value::Ptr(p), Some(r)) => (r as i64, p.clone()),
            (Value::Ptr(p), None) => {
                let what = format!("@{name}");
                (crate::descriptor::read_rank(e, op, p, &what)?, crate::descriptor::read_ptr(e, op, p, 8, &what)?)
            }
            (Value::Scalar(Packed::Int { .. }), None) => {
                let r = a.as_int().ok_or_else(|| bad_arg(op, name))?;
                let Some(Value::Ptr(d)) = it.next() else { return Err(bad_arg(op, name)) };
                (r.to_i64().ok_or_else(|| bad_arg(op, name))?, d.clone())
            }
            _ => return Err(bad_arg(op, name)),
        };
        out.push(Value::Memref(std::rc::Rc::new(descriptor(e, op, f.elem, rank, &desc, name, ty)?)));
    }
    Ok(out)
}

/// `memrefCopy`: every element of the source view (row-major) to the same
/// index of the destination view, byte by byte with its defined or poison
/// state; the shapes must match (the C++ code assumes they do).
fn memref_copy(
    e: &mut Engine,
    op: OpId,
    name: &str,
    size: usize,
    src: &memory::Ptr,
    dst: &memory::Ptr,
    ins: &[TypeId],
) -> Result<()> {
    let what = format!("@{name}");
    let ty = ins.first().copied().ok_or_else(|| bad_arg(op, name))?;
    let view = |p: &memory::Ptr| -> Result<MemRef> {
        let rank = crate::descriptor::read_rank(e, op, p, &what)?;
        let d = crate::descriptor::read_ptr(e, op, p, 8, &what)?;
        let elem = memory::Elem::scalar(memory::Lane::Int(8 * size as u32), "i8".into(), ty);
        crate::descriptor::read_ranked(e, op, rank, &d, elem, &what)
    };
    let (s, d) = (view(src)?, view(dst)?);
    if s.sizes != d.sizes {
        return Err(Error::at(
            op,
            ErrorKind::Ub(format!("{what} between memrefs of shapes {:?} and {:?}", s.sizes, d.sizes)),
        ));
    }
    if let Some(why) = d.buf.borrow().read_only {
        return Err(memory::mem_ub(op, d.buf.borrow().origin, format!("{what} writes into {why}")));
    }
    e.charge(op, s.num_elements().unwrap_or(0) as u64)?;
    for idx in s.indices() {
        let from = s.locate(op, &idx, &what)?;
        let to = d.locate(op, &idx, &what)?;
        let bytes: Vec<std::result::Result<u8, crate::scalar::Poison>> = {
            let b = s.buf.borrow();
            (from..from + size).map(|i| b.byte(i)).collect()
        };
        let mut b = d.buf.borrow_mut();
        for (k, x) in bytes.into_iter().enumerate() {
            match x {
                Ok(v) => b.write_bytes(to + k, &[v]),
                Err(p) => {
                    b.write_lane(to + k, memory::Lane::Int(8), &Scalar::Poison(p));
                }
            }
        }
    }
    Ok(())
}

/// The memref of a C++ instantiation's element type `ce` described at `d`.
fn descriptor(e: &Engine, op: OpId, ce: CElem, rank: i64, d: &memory::Ptr, name: &str, ty: TypeId) -> Result<MemRef> {
    let lane = match ce {
        CElem::I8 => memory::Lane::Int(8),
        CElem::I16 => memory::Lane::Int(16),
        CElem::I32 => memory::Lane::Int(32),
        CElem::I64 | CElem::Ind => memory::Lane::Int(64),
        CElem::F16 => memory::Lane::Float(FloatKind::F16),
        CElem::BF16 => memory::Lane::Float(FloatKind::BF16),
        CElem::F32 => memory::Lane::Float(FloatKind::F32),
        CElem::F64 => memory::Lane::Float(FloatKind::F64),
        CElem::C32 => memory::Lane::Complex(FloatKind::F32),
        CElem::C64 => memory::Lane::Complex(FloatKind::F64),
    };
    // The element type is the C++ instantiation's; `ty` only fills the
    // field (nothing reads it for a runtime view).
    let elem = memory::Elem::scalar(lane, format!("{ce:?}").into(), ty);
    crate::descriptor::read_ranked(e, op, rank, d, elem, &format!("@{name}"))
}

/// Calls a RunnerUtils memref function.
fn memref_call(e: &mut Engine, op: OpId, f: MemrefFn, name: &str, args: Vec<Value>) -> Result<Vec<Value>> {
    let mref = |i: usize| match args.get(i) {
        Some(Value::Memref(m)) => Ok(storage_view(m)),
        _ => Err(bad_arg(op, name)),
    };
    let m = mref(0)?;
    if let Some(r) = f.rank {
        if m.rank() != r {
            return Err(bad_arg(op, name));
        }
    }
    let prefix = if f.rank.is_some() { "Memref " } else { "Unranked Memref " };
    match f.action {
        MemrefAction::Shape => {
            let text = format!("{prefix}{}\n", memref_header(&m));
            e.out.write_all(text.as_bytes()).map_err(io(op))?;
            Ok(Vec::new())
        }
        MemrefAction::Print => {
            let mut out = Sink::new(&mut *e.out, op);
            out.buf.extend_from_slice(prefix.as_bytes());
            out.buf.extend_from_slice(memref_header(&m).as_bytes());
            out.buf.extend_from_slice(b" data = \n");
            if m.rank() == 0 {
                out.buf.push(b'[');
            }
            let p = DataPrinter { op, name, ce: f.elem, m: &m };
            p.print(0, m.offset, &mut out)?;
            if m.rank() == 0 {
                out.buf.push(b']');
            }
            out.buf.push(b'\n');
            out.finish()?;
            Ok(Vec::new())
        }
        MemrefAction::Verify => {
            let expected = mref(1)?;
            let n = verify_memref(e, op, name, f.elem, &m, &expected)?;
            Ok(vec![Value::int(Int::from_i128(64, i128::from(n)))])
        }
    }
}

/// The view the runtime sees: for an affine-map layout, the storage as
/// `normalize-memrefs` lays it out (sizes = the map's extents, row-major).
fn storage_view(m: &std::rc::Rc<MemRef>) -> MemRef {
    match &m.map {
        None => (**m).clone(),
        Some(l) => MemRef {
            sizes: l.extents.clone(),
            strides: mlir_ir::layout::canonical_strides(&l.extents),
            offset: 0,
            map: None,
            ..(**m).clone()
        },
    }
}

/// `base@ = 0x.. rank = R offset = O sizes = [..] strides = [..]`.
fn memref_header(m: &MemRef) -> String {
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    format!(
        "base@ = {:#x} rank = {} offset = {} sizes = [{}] strides = [{}]",
        m.aligned_addr(),
        m.rank(),
        m.offset,
        join(&m.sizes),
        join(&m.strides)
    )
}

/// One element as `std::ostream << T` prints it.
fn c_elem_text(op: OpId, name: &str, ce: CElem, v: &Value, out: &mut Vec<u8>) -> Result<()> {
    let bad = || bad_arg(op, name);
    let s = v.scalar().ok_or_else(bad)?;
    match (ce, &s) {
        (CElem::I8, Scalar::Int(i)) => out.push(u64_of(i) as u8),
        (CElem::I16 | CElem::I32 | CElem::I64, Scalar::Int(i)) => {
            let _ = write!(out, "{}", i.to_i64().ok_or_else(bad)?);
        }
        (CElem::Ind, Scalar::Int(i)) => {
            let _ = write!(out, "{}", u64_of(i));
        }
        (CElem::F16 | CElem::BF16 | CElem::F32 | CElem::F64, Scalar::Float(f)) => push_g(*f, out),
        (CElem::C32 | CElem::C64, Scalar::Complex(c)) => {
            let (re, im) = c.parts();
            out.push(b'(');
            push_g(re, out);
            out.push(b',');
            push_g(im, out);
            out.push(b')');
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// `MemRefDataPrinter::print` of RunnerUtils.h for one print: the memref
/// `m` as the C++ instantiation for `ce` prints it, called `name`.
struct DataPrinter<'a> {
    op: OpId,
    name: &'a str,
    ce: CElem,
    m: &'a MemRef,
}

impl DataPrinter<'_> {
    /// Dims `d..` from element `offset`: nested brackets, `, ` plus
    /// indentation, a newline between rows of rank >= 2, streamed into
    /// `out`. Like the C++ code it reads the first element of every
    /// dimension even when its size is 0.
    fn print(&self, d: usize, offset: i64, out: &mut Sink) -> Result<()> {
        let (op, name, m) = (self.op, self.name, self.m);
        let rank = m.rank();
        if d == rank {
            let v = m.element_at(op, offset, name)?;
            if let Some(p) = v.find_poison() {
                let what = format!("printed by @{name}");
                return Err(Error::at(op, ErrorKind::Poison { what, origin: p.0 }));
            }
            c_elem_text(op, name, self.ce, &v, &mut out.buf)?;
            return out.spill();
        }
        let dim = rank - d;
        let (n, stride) = (m.sizes[d], m.strides[d]);
        let at = |i: i64| i.checked_mul(stride).and_then(|x| x.checked_add(offset)).ok_or_else(|| bad_arg(op, name));
        let space = |out: &mut Sink| out.buf.extend(std::iter::repeat_n(b' ', rank - dim + 1));
        out.buf.push(b'[');
        self.print(d + 1, offset, out)?;
        if n <= 1 {
            out.buf.push(b']');
            return Ok(());
        }
        out.buf.extend_from_slice(b", ");
        if dim > 1 {
            out.buf.push(b'\n');
        }
        for i in 1..n - 1 {
            space(out);
            self.print(d + 1, at(i)?, out)?;
            out.buf.extend_from_slice(b", ");
            if dim > 1 {
                out.buf.push(b'\n');
            }
        }
        space(out);
        self.print(d + 1, at(n - 1)?, out)?;
        out.buf.push(b']');
        Ok(())
    }
}

/// `verifyMemRef`: -1 (and both headers on stderr) if offset, sizes or
/// strides differ; else the number of differing elements, the first ten
/// reported on stderr. Floats compare with a relative tolerance (1e-6 for
/// f32, 1e-12 for f64; a non-finite value never matches), others exactly.
fn verify_memref(e: &mut Engine, op: OpId, name: &str, ce: CElem, a: &MemRef, x: &MemRef) -> Result<i64> {
    let same = (0..a.rank()).all(|i| {
        x.rank() == a.rank() && a.offset == x.offset && a.sizes[i] == x.sizes[i] && a.strides[i] == x.strides[i]
    });
    if !same {
        e.out.flush().map_err(io(op))?;
        eprint!("{}{}", memref_header(a), memref_header(x));
        return Ok(-1);
    }
    let mut errors = 0i64;
    let mut printed = 0;
    for idx in a.indices() {
        let lin = idx.iter().zip(&a.strides).fold(a.offset, |acc, (i, s)| acc + i * s);
        let (va, vx) = (a.element_at(op, lin, name)?, x.element_at(op, lin, name)?);
        e.observe(op, &va, &format!("compared by @{name}"))?;
        e.observe(op, &vx, &format!("compared by @{name}"))?;
        if !elems_match(ce, &va, &vx) {
            if printed < 10 {
                let (mut ta, mut tx) = (Vec::new(), Vec::new());
                c_elem_text(op, name, ce, &va, &mut ta)?;
                c_elem_text(op, name, ce, &vx, &mut tx)?;
                e.out.flush().map_err(io(op))?;
                eprintln!("{} != {} offset = {lin}", String::from_utf8_lossy(&ta), String::from_utf8_lossy(&tx));
                printed += 1;
            }
            errors += 1;
        }
    }
    Ok(errors)
}

fn elems_match(ce: CElem, a: &Value, x: &Value) -> bool {
    match (ce, a.scalar(), x.scalar()) {
        (CElem::F32, Some(Scalar::Float(p)), Some(Scalar::Float(q))) => {
            let (p, q) = (float::to_f64(p) as f32, float::to_f64(q) as f32);
            p.is_finite() && q.is_finite() && (p - q).abs() <= 1e-6f32 * q.abs()
        }
        (CElem::F64, Some(Scalar::Float(p)), Some(Scalar::Float(q))) => {
            let (p, q) = (float::to_f64(p), float::to_f64(q));
            p.is_finite() && q.is_finite() && (p - q).abs() <= 1e-12 * q.abs()
        }
        (CElem::F16 | CElem::BF16, Some(Scalar::Float(p)), Some(Scalar::Float(q))) => {
            float::to_f64(p) == float::to_f64(q)
        }
        _ => a == x,
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

    /// The host C library's `%g` of `x` (glibc rounds exactly).
    fn c_g(x: f64) -> String {
        let mut buf = [0u8; 64];
        // SAFETY: the buffer is 64 bytes and `snprintf` writes at most that.
        let n = unsafe { libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), c"%g".as_ptr(), x) };
        String::from_utf8_lossy(&buf[..n as usize]).into_owned()
    }

    /// `format_g` agrees with C's `printf("%g")` on every f16 and bf16,
    /// on f32 and f64 bit patterns from a fixed generator, on short
    /// decimals and on the values on either side of each rounding and
    /// notation boundary.
    #[test]
    fn percent_g_matches_printf() {
        let check = |f: Float, x: f64| assert_eq!(format_g(f), c_g(x), "{:?} {x:e}", f.kind);
        for b in 0..=u16::MAX {
            let h = half::f16::from_bits(b);
            check(float::from_bits(FloatKind::F16, u128::from(b)), f64::from(h.to_f32()));
            let h = half::bf16::from_bits(b);
            check(float::from_bits(FloatKind::BF16, u128::from(b)), f64::from(h.to_f32()));
        }
        let f32v = |x: f32| (float::from_bits(FloatKind::F32, u128::from(x.to_bits())), f64::from(x));
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let r = next();
            let (f, x) = f32v(f32::from_bits(r as u32));
            check(f, x);
            let x = f64::from_bits(r);
            check(f64v(x), x);
            // Doubles of magnitude 2^-100 to 2^100, where `six_digits` works.
            let x = f64::from_bits((r & 0x800f_ffff_ffff_ffff) | ((924 + (r >> 52) % 200) << 52));
            check(f64v(x), x);
            // Values with few digits, where the exact mode is slowest.
            let short = (r % 2_000_001) as f64 / 10f64.powi((r >> 40) as i32 % 12);
            check(f64v(short), short);
            let (f, x) = f32v(short as f32);
            check(f, x);
        }
        for e in -40..40 {
            // Exact ties at the seventh digit (1234565 is 1.23456e+06,
            // to even) and values next to the notation boundaries.
            let ties = [1234565.0, 1234575.0, 9999995.0, 1000005.0, 2.5, 0.15625, 1.0000005];
            for m in ties.into_iter().chain([1.0, 9.999995, 9.9999949, 9.99999, 5.000005, 9.5, 999999.5, 0.99999949]) {
                let x = m * 10f64.powi(e);
                for y in [x, x.next_up(), x.next_down(), -x] {
                    check(f64v(y), y);
                    let (f, z) = f32v(y as f32);
                    check(f, z);
                }
            }
        }
        // The fast path decides the usual values and leaves ties.
        assert_eq!(six_digits(0.37), Some((370_000, -1)));
        assert_eq!(six_digits(999_999.7), Some((100_000, 6)));
        assert_eq!(six_digits(1_234_565.0), None);
    }
}
