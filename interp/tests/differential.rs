//! `mlir-interp diff` against the real toolchain: a program both sides run
//! alike, and one where they differ on purpose (`arith.truncf downward`,
//! whose rounding mode LLVM 22's lowering ignores at run time; the book, "Floats").
//! Needs mlir-22-tools; skipped without it except under CI.

use std::path::Path;
use std::process::Command;
#[path = "common/toolchain.rs"]
mod tools;

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[tools::MLIR_RUNNER])
}

fn diff(file: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("diff").arg(file).output().expect("run");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn same_program_same_output() {
    if !toolchain() {
        return;
    }
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/exec/func/fib_recursive.mlir");
    let (code, out) = diff(&f);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("same output: 2 line(s)"), "{out}");
}

#[test]
fn first_difference_is_reported() {
    if !toolchain() {
        return;
    }
    let f = std::env::temp_dir().join(format!("mlir-interp-diff-test-{}.mlir", std::process::id()));
    std::fs::write(
        &f,
        "func.func @main() {\n  %x = arith.constant 0.1 : f64\n  %t = arith.truncf %x downward : f64 to f32\n  \
         %i = arith.bitcast %t : f32 to i32\n  vector.print %i : i32\n  return\n}\n",
    )
    .unwrap();
    let (code, out) = diff(&f);
    let _ = std::fs::remove_file(&f);
    // 0.1 lies between the f32 values 0x3DCCCCCC and 0x3DCCCCCD (nearest).
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("line 1") && out.contains("mlir-interp: 1036831948") && out.contains("mlir-runner: 1036831949"),
        "{out}"
    );
}

/// Runs `diff` with extra options on a program written to a temp file;
/// exit status, stdout and stderr.
fn diff_with(name: &str, program: &str, opts: &[&str]) -> (Option<i32>, String, String) {
    let f = std::env::temp_dir().join(format!("mlir-interp-diff-{name}-{}.mlir", std::process::id()));
    std::fs::write(&f, program).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("diff").arg(&f).args(opts).output().expect("run");
    let _ = std::fs::remove_file(&f);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A reference that cannot run the lowered module (here: not lowered at
/// all, so mlir-runner cannot parse it) or does not finish in time makes
/// the comparison unusable (exit 2, with why); when our side fails, its
/// diagnostic is shown with the difference.
#[test]
fn unusable_references_and_our_failures() {
    if !toolchain() {
        return;
    }
    let ok = "func.func @main() {\n  %c = arith.constant 5 : i32\n  vector.print %c : i32\n  return\n}\n";
    let (code, _, err) = diff_with("unlowered", ok, &["--pipeline", "canonicalize"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("mlir-runner could not run the lowered module") && err.contains("could not parse"), "{err}");
    let (code, _, err) = diff_with("slow", ok, &["--timeout", "0.001"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("did not finish within 0.001 s (--timeout)"), "{err}");
    let ub = "func.func @main() {\n  %c = arith.constant 0 : i32\n  %d = arith.divsi %c, %c : i32\n  \
              vector.print %d : i32\n  return\n}\n";
    // Undefined behaviour leaves nothing to compare: its own status (4),
    // not a disagreement's (1), and why.
    let (code, out, _) = diff_with("ub", ub, &[]);
    assert_eq!(code, Some(4), "{out}");
    assert!(out.starts_with("no comparison: the program has undefined behavior"), "{out}");
    assert!(out.contains("signed division by zero"), "{out}");
}

/// The default reference lowering leaves out normalize-memrefs, which
/// changes what this UB-free program prints (the strided view escapes to
/// an unranked memref; fixtures/found/normalize_memrefs_reinterpret_cast.mlir):
/// with it the reference would print the whole buffer.
#[test]
fn the_default_reference_does_not_miscompile_views() {
    if !toolchain() {
        return;
    }
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/found/normalize_memrefs_reinterpret_cast.mlir");
    let (code, out) = diff(&f);
    assert_eq!(code, Some(0), "{out}");
}
