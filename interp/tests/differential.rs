//! `mlir-interp diff` against the real toolchain: a program both sides run
//! alike, and one where they differ on purpose (`arith.truncf downward`,
//! whose rounding mode LLVM 22's lowering ignores at run time; README).
//! Needs mlir-22-tools; skipped without it except under CI.

use std::path::Path;
use std::process::Command;

fn toolchain() -> bool {
    let there = Path::new("/usr/lib/llvm-22/bin/mlir-runner").exists();
    assert!(there || std::env::var("CI").as_deref() != Ok("true"), "CI needs mlir-22-tools");
    if !there {
        eprintln!("skipped: mlir-runner not found");
    }
    there
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
