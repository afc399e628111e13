//! `gen --kind linalg-transform` against LLVM 22: each program, with its
//! transform schedule, must be valid for mlir-opt and run cleanly here (the
//! nested schedule module is parsed and never executed), and `passcheck`
//! through `transform-interpreter,symbol-dce` and the campaign's lowering
//! must never call it a miscompile. mlir-opt may fail on a seed (LLVM 22's
//! transformations have bugs the campaign counts as OPT-FAIL,
//! `docs/src/tensor_campaign.md`), but most seeds must go through.
//! Skipped without mlir-22-tools, except under CI.

#[path = "common/gen_check.rs"]
mod gen_check;
#[path = "common/toolchain.rs"]
mod tools;

use gen_check::mlir_interp;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// The campaign's pipeline: apply the schedule, drop it, then lower as the
/// other tensor campaigns do (with `scf.forall` and `vector.mask` lowered).
const PIPELINE: &str = "transform-interpreter,symbol-dce,func.func(convert-elementwise-to-linalg),\
one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
func.func(scf-forall-to-for,lower-vector-mask,convert-linalg-to-loops),convert-vector-to-scf,expand-strided-metadata,\
lower-affine,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-math-to-llvm,\
convert-math-to-libm,convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,convert-cf-to-llvm,\
convert-func-to-llvm,reconcile-unrealized-casts";

#[test]
fn scheduled_programs_are_valid_defined_and_keep_their_meaning() {
    if !tools::toolchain(&[tools::MLIR_OPT]) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("mlir-interp-linalg-transform-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let (mut failures, mut same, mut opt_fail) = (Vec::new(), 0, 0);
    let seeds = 0..30;
    for seed in seeds.clone() {
        let f = match gen_check::generated_and_run("linalg-transform", 20, seed, &dir, MLIR_OPT) {
            Ok(f) => f,
            Err(why) => {
                failures.push(why);
                continue;
            }
        };
        match gen_check::passcheck(&f, PIPELINE) {
            (Some(0), _) => same += 1,
            (Some(2), out) if out.starts_with("the optimizer failed") => opt_fail += 1,
            (code, out) => failures.push(format!("seed {seed}: passcheck exits {code:?}\n{out}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(same >= 2 * opt_fail, "{same} seeds kept their meaning, mlir-opt failed on {opt_fail}");
}

#[test]
fn the_schedule_is_deterministic_and_per_seed() {
    let gen = |seed: &str| {
        mlir_interp().args(["gen", "--kind", "linalg-transform", "--seed", seed]).output().expect("gen").stdout
    };
    let a = String::from_utf8(gen("5")).expect("utf-8");
    assert_eq!(a.as_bytes(), gen("5"));
    assert_ne!(a.as_bytes(), gen("6"));
    assert!(a.contains("\"transform.named_sequence\"") && a.contains("{transform.with_named_sequence}"), "{a}");
}
