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
pub mod ops;
pub mod parser;
pub mod printer;
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

/// Parses `src` and verifies the result.
pub fn parse_and_verify(src: &Source) -> Result<Module, Diagnostic> {
    let m = parser::parse(&src.text)?;
    verify::verify(&m)?;
    Ok(m)
}
