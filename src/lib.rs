//! `mlir-ir`: the IR of mlir-interp. Parses the whole MLIR textual format
//! into an arena IR, verifies it, and prints it back in generic form.
//!
//! ```
//! let src = mlir_ir::diag::Source::new("x.mlir", "func.func @f() { return }");
//! let m = mlir_ir::parse_and_verify(&src).unwrap();
//! assert!(mlir_ir::printer::print_generic(&m).contains("\"func.return\""));
//! ```

pub mod affine;
pub mod attrs;
pub mod datalayout;
pub mod diag;
pub mod ident;
pub mod ir;
pub mod layout;
pub mod lexer;
pub mod linalg;
pub mod ops;
pub mod parser;
pub mod printer;
pub mod sparse;
pub mod types;
pub mod verify;

pub use diag::{Diagnostic, Source, Span};
pub use ir::Module;

/// Dialects that LLVM 22's mlir-opt registers, plus HEIR's `comb` (which
/// mlir-interp adds): a custom op of any other dialect is "not found", as
/// in mlir-opt.
pub const KNOWN_DIALECTS: &[&str] = &[
    "comb",
    "acc",
    "affine",
    "amdgpu",
    "amx",
    "arith",
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "async",
    "bufferization",
    "builtin",
    "cf",
    "complex",
    "dlti",
    "emitc",
    "func",
    "gpu",
    "index",
    "irdl",
    "linalg",
    "llvm",
    "math",
    "memref",
    "mesh",
    "ml_program",
    "mpi",
    "nvgpu",
    "nvvm",
    "omp",
    "pdl",
    "pdl_interp",
    "ptr",
    "quant",
    "rocdl",
    "scf",
    "shape",
    "shard",
    "smt",
    "sparse_tensor",
    "spirv",
    "tensor",
    "tosa",
    "transform",
    "ub",
    "vcix",
    "vector",
    "wasmssa",
    "x86vector",
    "xegpu",
    "xevm",
];

/// Dialects of [`KNOWN_DIALECTS`] that define no types: mlir-opt rejects a
/// dialect type of theirs (`!tensor<..>`, `!builtin.x`) as "dialect 'tensor'
/// provides no type parsing hook" rather than keep it opaque.
pub const TYPELESS_DIALECTS: &[&str] = &[
    "affine",
    "arith",
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "bufferization",
    "builtin",
    "cf",
    "complex",
    "dlti",
    "func",
    "index",
    "linalg",
    "math",
    "memref",
    "nvvm",
    "pdl_interp",
    "rocdl",
    "scf",
    "tensor",
    "ub",
    "vector",
    "x86vector",
    "xevm",
];

/// Parses `src` and verifies the result.
pub fn parse_and_verify(src: &Source) -> Result<Module, Diagnostic> {
    parse_and_verify_with(src, &Limits::default())
}

/// Parses and verifies `src` within `limits`.
pub fn parse_and_verify_with(src: &Source, limits: &Limits) -> Result<Module, Diagnostic> {
    let m = parser::parse_with(&src.text, limits.max_nesting)?;
    verify::verify(&m)?;
    Ok(m)
}

/// The language a file is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// Today's MLIR syntax (what mlir-opt 22 reads).
    #[default]
    Modern,
    /// The 2019 MLIR specification's syntax (`func @f`, `for`, `if`, bare
    /// affine maps, unprefixed standard ops), mapped onto today's ops.
    Y2019,
}

/// Parses `src` written in `lang` and verifies the result.
pub fn parse_and_verify_lang(src: &Source, limits: &Limits, lang: Lang) -> Result<Module, Diagnostic> {
    let m = parser::parse_lang(&src.text, limits.max_nesting, lang)?;
    verify::verify(&m)?;
    Ok(m)
}

/// Bounds on parsed input. Parsing, verifying and printing recurse once per
/// level of nesting, so the bound is what keeps hostile input from
/// overflowing the stack: deeper input is a "nesting too deep" diagnostic.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Levels of nesting of ops in regions (two per region), types and
    /// attributes. The default, 500, is safe on a 2 MiB thread stack; a
    /// caller with a bigger stack may allow about one level per 4 KiB of it.
    pub max_nesting: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_nesting: 500 }
    }
}
