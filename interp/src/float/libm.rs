//! The elementary functions of the math dialect (exp, log, sin, pow, erf,
//! ...), computed the way LLVM 22's lowering computes them on this host, so
//! that results match `mlir-runner` bit for bit:
//!
//! - f64 and f32 call the C library's `sin`/`sinf`, ... (glibc's libm, which
//!   Rust's std links and which `mlir-runner` resolves `llvm.sin.f32` and
//!   the `convert-math-to-libm` calls to). Rust's own `f64::asinh` etc. are
//!   *not* used: they are std's formulas, not libm's, and round differently.
//! - The formats narrower than f32 (f16, bf16, tf32, every f8/f6/f4) are
//!   extended to f32 exactly, computed in f32 and rounded back once to
//!   nearest-even: what `math-extend-to-supported-types` does and what the
//!   x86 backend does when it promotes `llvm.sin.f16`.
//! - f80 and f128 call glibc's `sinl`/`sinf128`, ... (what the x86 backend
//!   calls for `llvm.sin.f80`/`.f128`) through `wide.c`, built on x86-64
//!   glibc only; elsewhere [`unary`] and [`binary`] report them as
//!   [`LibmError::Unsupported`].
//!
//! Accuracy is therefore glibc's (its manual lists at most 1-4 ulp per
//! function and format), not correct rounding; SEMANTICS item 20.
//! NaN results are the format's canonical NaN (the sign of a NaN operand,
//! else positive), as elsewhere in `float/`.

use super::{
    convert, convert_with, format::semantics, from_bits, is_nan, is_negative, Float, FloatError, FloatKind, Policy,
    Round,
};

/// A one-argument function of the math dialect computed through libm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fn1 {
    /// e^x.
    Exp,
    /// 2^x.
    Exp2,
    /// e^x - 1.
    Expm1,
    /// ln x.
    Log,
    /// log2 x.
    Log2,
    /// log10 x.
    Log10,
    /// ln(1 + x).
    Log1p,
    /// sin x.
    Sin,
    /// cos x.
    Cos,
    /// tan x.
    Tan,
    /// asin x.
    Asin,
    /// acos x.
    Acos,
    /// atan x.
    Atan,
    /// sinh x.
    Sinh,
    /// cosh x.
    Cosh,
    /// tanh x.
    Tanh,
    /// asinh x.
    Asinh,
    /// acosh x.
    Acosh,
    /// atanh x.
    Atanh,
    /// The error function.
    Erf,
    /// 1 - erf x.
    Erfc,
    /// The cube root.
    Cbrt,
}

/// A two-argument function of the math dialect computed through libm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fn2 {
    /// x^y.
    Pow,
    /// atan(y / x) with the quadrant of (x, y): `atan2(a, b)` is atan2(y=a, x=b).
    Atan2,
}

/// Why a function has no result here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LibmError {
    /// No implementation for this format (f80, f128).
    #[error("{} on {} (no libm routine for this format)", .0, .1.name())]
    Unsupported(&'static str, FloatKind),
    /// The result has no encoding in the format (NaN into f4/f6, ...).
    #[error(transparent)]
    NoResult(#[from] FloatError),
}

impl Fn1 {
    /// The C name of the f64 routine (also the math op's name without `math.`).
    pub fn name(self) -> &'static str {
        use Fn1::*;
        match self {
            Exp => "exp",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Erf => "erf",
            Erfc => "erfc",
            Cbrt => "cbrt",
        }
    }

    /// Every function, in table order.
    pub const ALL: [Fn1; 22] = {
        use Fn1::*;
        [
            Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh,
            Atanh, Erf, Erfc, Cbrt,
        ]
    };
}

impl Fn2 {
    /// The C name of the f64 routine.
    pub fn name(self) -> &'static str {
        match self {
            Fn2::Pow => "pow",
            Fn2::Atan2 => "atan2",
        }
    }
}

/// glibc's routines, looked up in `libm.so.6` at first use. Declaring them
/// `extern "C"` is not enough: Rust's compiler-builtins defines its own
/// `cbrt`, `cbrtf`, `fma` (ports of musl), which the linker prefers, and
/// musl's cbrt rounds differently from glibc's.
mod sys {
    use super::{Fn1, Fn2};
    use std::ffi::{c_char, c_int, c_void, CString};
    use std::sync::OnceLock;

    extern "C" {
        fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
        fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    }

    const RTLD_NOW: c_int = 2;

    type F64x1 = unsafe extern "C" fn(f64) -> f64;
    type F32x1 = unsafe extern "C" fn(f32) -> f32;
    type F64x2 = unsafe extern "C" fn(f64, f64) -> f64;
    type F32x2 = unsafe extern "C" fn(f32, f32) -> f32;

    /// The routines, by [`Fn1::ALL`] / [`Fn2`] order; `None` where libm
    /// lacks one (or is not glibc's `libm.so.6`).
    struct Table {
        f64x1: Vec<Option<F64x1>>,
        f32x1: Vec<Option<F32x1>>,
        f64x2: [Option<F64x2>; 2],
        f32x2: [Option<F32x2>; 2],
    }

    fn table() -> &'static Table {
        static T: OnceLock<Table> = OnceLock::new();
        T.get_or_init(|| {
            // SAFETY: dlopen/dlsym with NUL-terminated names; a null handle
            // or symbol is turned into None, and each symbol is a libm
            // function of the C type it is transmuted to.
            unsafe {
                let h = dlopen(c"libm.so.6".as_ptr(), RTLD_NOW);
                let sym = |name: String| -> Option<*mut c_void> {
                    if h.is_null() {
                        return None;
                    }
                    let c = CString::new(name).ok()?;
                    let p = dlsym(h, c.as_ptr());
                    (!p.is_null()).then_some(p)
                };
                let bin = [Fn2::Pow, Fn2::Atan2];
                Table {
                    f64x1: Fn1::ALL.iter().map(|f| sym(f.name().into()).map(|p| std::mem::transmute(p))).collect(),
                    f32x1: Fn1::ALL
                        .iter()
                        .map(|f| sym(format!("{}f", f.name())).map(|p| std::mem::transmute(p)))
                        .collect(),
                    f64x2: bin.map(|f| sym(f.name().into()).map(|p| std::mem::transmute::<*mut c_void, F64x2>(p))),
                    f32x2: bin
                        .map(|f| sym(format!("{}f", f.name())).map(|p| std::mem::transmute::<*mut c_void, F32x2>(p))),
                }
            }
        })
    }

    fn index(f: Fn1) -> usize {
        Fn1::ALL.iter().position(|g| *g == f).unwrap_or(0)
    }

    /// `f(x)` by glibc in double precision.
    pub fn f64x1(f: Fn1, x: f64) -> Option<f64> {
        let g = (*table().f64x1.get(index(f))?)?;
        // SAFETY: a libm function of one double, no preconditions.
        Some(unsafe { g(x) })
    }

    /// `f(x)` by glibc in single precision.
    pub fn f32x1(f: Fn1, x: f32) -> Option<f32> {
        let g = (*table().f32x1.get(index(f))?)?;
        // SAFETY: a libm function of one float, no preconditions.
        Some(unsafe { g(x) })
    }

    /// `f(x, y)` by glibc in double precision.
    pub fn f64x2(f: Fn2, x: f64, y: f64) -> Option<f64> {
        let g = table().f64x2[f as usize]?;
        // SAFETY: a libm function of two doubles, no preconditions.
        Some(unsafe { g(x, y) })
    }

    /// `f(x, y)` by glibc in single precision.
    pub fn f32x2(f: Fn2, x: f32, y: f32) -> Option<f32> {
        let g = table().f32x2[f as usize]?;
        // SAFETY: a libm function of two floats, no preconditions.
        Some(unsafe { g(x, y) })
    }
}

/// Where a format is computed.
enum Via {
    F64,
    F32,
    /// Extended to f32 exactly, computed there, rounded back once.
    Widened,
    /// glibc's `long double` or `_Float128` routine (`wide.c`).
    Wide,
}

fn via(kind: FloatKind) -> Via {
    match kind {
        FloatKind::F64 => Via::F64,
        FloatKind::F32 => Via::F32,
        FloatKind::F80 | FloatKind::F128 => Via::Wide,
        _ => Via::Widened,
    }
}

/// The f80/f128 routines of `wide.c`, by encoding.
#[cfg(wide_libm)]
mod wide {
    use super::{Fn1, Fn2};
    use std::ffi::c_int;

    extern "C" {
        fn mlir_interp_f80_unary(f: c_int, x: *const u8, out: *mut u8) -> c_int;
        fn mlir_interp_f128_unary(f: c_int, x: *const u8, out: *mut u8) -> c_int;
        fn mlir_interp_f80_binary(f: c_int, x: *const u8, y: *const u8, out: *mut u8) -> c_int;
        fn mlir_interp_f128_binary(f: c_int, x: *const u8, y: *const u8, out: *mut u8) -> c_int;
    }

    /// `f(x)` on the encoding `x` (f80 when `f80`, else f128).
    pub fn unary(f: Fn1, f80: bool, x: u128) -> Option<u128> {
        let i = c_int::try_from(Fn1::ALL.iter().position(|g| *g == f)?).ok()?;
        let (a, mut out) = (x.to_le_bytes(), [0u8; 16]);
        // SAFETY: both buffers are 16 bytes, as wide.c reads and writes.
        let rc = unsafe {
            if f80 {
                mlir_interp_f80_unary(i, a.as_ptr(), out.as_mut_ptr())
            } else {
                mlir_interp_f128_unary(i, a.as_ptr(), out.as_mut_ptr())
            }
        };
        (rc == 0).then(|| u128::from_le_bytes(out))
    }

    /// `f(x, y)` on encodings.
    pub fn binary(f: Fn2, f80: bool, x: u128, y: u128) -> Option<u128> {
        let (a, b, mut out) = (x.to_le_bytes(), y.to_le_bytes(), [0u8; 16]);
        // SAFETY: all three buffers are 16 bytes, as wide.c reads and writes.
        let rc = unsafe {
            if f80 {
                mlir_interp_f80_binary(f as c_int, a.as_ptr(), b.as_ptr(), out.as_mut_ptr())
            } else {
                mlir_interp_f128_binary(f as c_int, a.as_ptr(), b.as_ptr(), out.as_mut_ptr())
            }
        };
        (rc == 0).then(|| u128::from_le_bytes(out))
    }
}

/// Without `wide.c` (not x86-64 glibc) there are no f80/f128 routines.
#[cfg(not(wide_libm))]
mod wide {
    use super::{Fn1, Fn2};

    /// Always `None`.
    pub fn unary(_f: Fn1, _f80: bool, _x: u128) -> Option<u128> {
        None
    }

    /// Always `None`.
    pub fn binary(_f: Fn2, _f80: bool, _x: u128, _y: u128) -> Option<u128> {
        None
    }
}

/// `f(x)` in `x`'s format; `policy` applies when an f32 result has no
/// encoding in a narrower format (a NaN into f4, ...).
pub fn unary(f: Fn1, x: Float, policy: Policy) -> Result<Float, LibmError> {
    let on_wide = |a: &[Float]| wide::unary(f, a[0].kind == FloatKind::F80, a[0].bits);
    apply(x.kind, f.name(), &[x], policy, |a| sys::f64x1(f, a[0]), |a| sys::f32x1(f, a[0]), on_wide)
}

/// `f(x, y)` in `x`'s format (`y` must have the same format).
pub fn binary(f: Fn2, x: Float, y: Float, policy: Policy) -> Result<Float, LibmError> {
    let on_wide = |a: &[Float]| wide::binary(f, a[0].kind == FloatKind::F80, a[0].bits, a[1].bits);
    apply(x.kind, f.name(), &[x, y], policy, |a| sys::f64x2(f, a[0], a[1]), |a| sys::f32x2(f, a[0], a[1]), on_wide)
}

fn apply(
    kind: FloatKind,
    name: &'static str,
    args: &[Float],
    policy: Policy,
    on_f64: impl Fn(&[f64]) -> Option<f64>,
    on_f32: impl Fn(&[f32]) -> Option<f32>,
    on_wide: impl Fn(&[Float]) -> Option<u128>,
) -> Result<Float, LibmError> {
    let missing = || LibmError::Unsupported(name, kind);
    let out = match via(kind) {
        Via::F64 => {
            let xs: Vec<f64> = args.iter().map(|a| f64::from_bits(a.bits as u64)).collect();
            from_bits(kind, u128::from(on_f64(&xs).ok_or_else(missing)?.to_bits()))
        }
        Via::F32 => from_bits(kind, u128::from(on_f32(&f32_args(args)?).ok_or_else(missing)?.to_bits())),
        Via::Widened => {
            let y = on_f32(&f32_args(args)?).ok_or_else(missing)?;
            let y = from_bits(FloatKind::F32, u128::from(y.to_bits()));
            convert_with(canonical(y, args), kind, Round::NearestEven, policy)?
        }
        Via::Wide => from_bits(kind, on_wide(args).ok_or_else(missing)?),
    };
    Ok(canonical(out, args))
}

/// The operands as host f32 (exact: every narrower format fits in f32).
/// An f32 operand is its own encoding (a NaN's payload differs from the
/// converted canonical NaN's, but only NaN-ness and sign reach a result:
/// `canonical` rewrites a NaN result).
fn f32_args(args: &[Float]) -> Result<Vec<f32>, LibmError> {
    args.iter()
        .map(|a| match a.kind {
            FloatKind::F32 => Ok(f32::from_bits(a.bits as u32)),
            _ => Ok(f32::from_bits(convert(*a, FloatKind::F32, Round::NearestEven)?.bits as u32)),
        })
        .collect()
}

/// `y` unless it is a NaN: then the canonical NaN with the sign of the first
/// NaN operand (positive when the NaN was made by the function), so results
/// do not depend on the host's NaN payloads.
pub fn canonical(y: Float, args: &[Float]) -> Float {
    if !is_nan(y) {
        return y;
    }
    let neg = args.iter().find(|a| is_nan(**a)).is_some_and(|a| is_negative(*a));
    from_bits(y.kind, semantics(y.kind).encode_nan(neg))
}
