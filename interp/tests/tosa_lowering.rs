//! LLVM 22's tosa lowering against the specification: every
//! `fixtures/tosa/X.mlir` (whose results `tosa_ref.rs` checks against ARM's
//! reference model) goes through `mlir-interp passcheck` with the lowering
//! to linalg, arith, tensor and scf, and must keep its meaning. The
//! exceptions are listed with their reasons: a lowering bug (with its
//! reproducer in `fixtures/found/`), a freedom the specification grants
//! that the lowering takes, or an op LLVM 22 does not lower. Skipped without
//! mlir-22-tools, except under CI.

use std::path::{Path, PathBuf};
use std::process::Command;
#[path = "common/toolchain.rs"]
mod tools;

/// The lowering pipeline: tosa-optional-decompositions first (LLVM lowers
/// transpose_conv2d only through it), then tosa-to-scf, so that control
/// flow and scatter become scf before the rest goes to linalg.
const LOWERING: &str = "builtin.module(func.func(tosa-optional-decompositions,tosa-to-scf,\
                        tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor))";

/// Fixtures whose lowering does not keep their meaning, passcheck's exit
/// status for them (1 a miscompile, 2 no check possible), and why.
const KNOWN: &[(&str, i32, &str)] = &[
    (
        "float_elementwise.mlir",
        1,
        "tosa.maximum(-0.0, +0.0) lowers to arith.maximumf, +0.0; the pseudocode gives -0.0, and the spec's \
         precision rules permit a zero of either sign, so this is not a bug",
    ),
    (
        "fft.mlir",
        1,
        "the spec bounds fft2d's error instead of fixing its bits; the lowering's sines, cosines and sums differ \
         from ours within that bound (tosa_ref.rs checks ours against the reference model with a tolerance)",
    ),
    (
        "float_freedoms.mlir",
        1,
        "conv2d's bias added before the cast to f16, another summation order in an f16 transpose_conv2d, \
         multiplies with padding (tosa_extra_multiplies) and max of zeros of either sign: each permitted by \
         the spec for floats, so not a bug",
    ),
    (
        "float_seeds.mlir",
        1,
        "float max/min seeded with the largest finite value, not -inf/+inf/NaN: a lowering bug \
         (fixtures/found/tosa_float_max_min_seed_finite.mlir, llvm#222140)",
    ),
    ("resize.mlir", 1, "llvm#193821: integer bilinear resize with a negative offset (fixtures/found/tosa_resize_*)"),
    ("variables_shapes.mlir", 2, "LLVM 22 has no lowering for tosa.variable_read / variable_write"),
    (
        "shapes.mlir",
        2,
        "LLVM 22 has no lowering for the shape operators (add_shape, ..., slice_shape, dim): \
         tosa-to-tensor reads only tosa.const_shape",
    ),
    ("block_scaled_cast_from.mlir", 2, "LLVM 22 has no lowering for the block-scaled (MX) operators"),
    ("block_scaled_cast_to.mlir", 2, "LLVM 22 has no lowering for the block-scaled (MX) operators"),
    ("block_scaled_matmul.mlir", 2, "LLVM 22 has no lowering for the block-scaled (MX) operators"),
];

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[tools::MLIR_OPT])
}

/// The tosa fixtures, sorted.
fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/tosa");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/tosa")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// Runs `passcheck --passes passes` on every fixture; the failures, where
/// `known` gives each file's expected exit status (0 when not listed).
fn check_all(passes: &str, known: &[(&str, i32, &str)]) -> Vec<String> {
    let mut failures = Vec::new();
    for f in &fixtures() {
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
            .arg("passcheck")
            .arg(f)
            .arg("--passes")
            .arg(passes)
            .output()
            .expect("run passcheck");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let want = known.iter().find(|(k, _, _)| *k == name).map_or(0, |(_, code, _)| *code);
        if out.status.code() != Some(want) {
            failures.push(format!("{name} under {passes}: exit {:?}, expected {want}\n{text}", out.status.code()));
        }
    }
    failures
}

#[test]
fn the_tosa_lowering_keeps_the_fixtures_meaning() {
    if !toolchain() {
        return;
    }
    let failures = check_all(LOWERING, KNOWN);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// tosa's own passes keep the fixtures' meaning too. Every fixture's
/// inputs are constants, so `tosa-layerwise-constant-fold` folds what it
/// can and the folded values are checked against the pseudocode's.
#[test]
fn tosa_passes_keep_the_fixtures_meaning() {
    if !toolchain() {
        return;
    }
    let decompositions: &[(&str, i32, &str)] = &[(
        "float_freedoms.mlir",
        1,
        "the decomposed f16 transpose_conv2d sums in another order, which the spec permits",
    )];
    let mut failures = Vec::new();
    for pass in [
        "tosa-infer-shapes",
        "tosa-layerwise-constant-fold",
        "tosa-optional-decompositions",
        "tosa-make-broadcastable",
        "tosa-reduce-transposes",
        "canonicalize",
    ] {
        let known = if pass == "tosa-optional-decompositions" { decompositions } else { &[] };
        failures.extend(check_all(&format!("builtin.module(func.func({pass}))"), known));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
