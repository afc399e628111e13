//! `mlir-interp lit` and `mlir-interp filecheck` driven as a user drives
//! them: test files on disk, RUN lines naming mlir-runner and FileCheck.
//! Expected outputs are derived by hand: `printI64(42)` prints `42`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mlir-interp")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mlir-interp-lit-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A program in the LLVM dialect, which mlir-runner runs as it is.
const PROGRAM: &str = "llvm.func @printI64(i64)
llvm.func @printNewline()
llvm.func @main() {
  %c = llvm.mlir.constant(42 : i64) : i64
  llvm.call @printI64(%c) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}
";

/// The same program before lowering, which mlir-runner refuses.
const UNLOWERED: &str = "func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 42 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
";

fn write(d: &Path, name: &str, header: &str) -> PathBuf {
    write_program(d, name, header, PROGRAM)
}

fn write_program(d: &Path, name: &str, header: &str, program: &str) -> PathBuf {
    let p = d.join(name);
    std::fs::write(&p, format!("{header}{program}")).unwrap();
    p
}

/// `mlir-interp lit FLAGS FILES` on a machine without mlir-opt.
fn lit_with(flags: &[&str], files: &[&Path]) -> (i32, String) {
    let out = Command::new(bin()).arg("lit").args(flags).args(files).env("MLIR_OPT", "/nonexistent").output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn lit(files: &[&Path]) -> (i32, String) {
    lit_with(&[], files)
}

#[test]
fn a_passing_test_a_failing_one_and_an_unsupported_one() {
    let d = dir("verdicts");
    let run = "// RUN: mlir-runner %s -e main -entry-point-result=void \\\n// RUN:   -shared-libs=%mlir_c_runner_utils | FileCheck %s\n";
    let pass = write(&d, "pass.mlir", &format!("{run}// CHECK: 42\n"));
    let fail = write(&d, "fail.mlir", &format!("{run}// CHECK: 43\n"));
    let unsup = write(&d, "unsup.mlir", &format!("// REQUIRES: arm-emulator\n{run}// CHECK: 42\n"));
    let (code, out) = lit(&[&pass]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with(&format!("PASS: {} (1 of 1)", pass.display())), "{out}");
    let (code, out) = lit(&[&pass, &fail, &unsup]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("FAIL: {}", fail.display())), "{out}");
    assert!(out.contains("error: CHECK: expected string not found in input"), "{out}");
    assert!(out.contains(&format!("UNSUPPORTED: {}", unsup.display())), "{out}");
    assert!(out.contains("  FAIL: 1\n  PASS: 1\n  UNSUPPORTED: 1"), "{out}");
}

#[test]
fn lines_needing_a_missing_mlir_opt_are_skipped_and_named() {
    let d = dir("skip");
    let t = write(
        &d,
        "t.mlir",
        "// RUN: mlir-opt %s --convert-arith-to-llvm | mlir-runner -e main -entry-point-result=void | FileCheck %s\n\
         // RUN: mlir-runner %s -e main -entry-point-result=void | FileCheck %s\n// CHECK: 42\n",
    );
    let (code, out) = lit_with(&["-v"], &[&t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("line 1: skipped (needs mlir-opt)"), "{out}");
    // With every line skipped the test is unsupported, not passed.
    let only = write(&d, "only.mlir", "// RUN: mlir-opt %s | FileCheck %s\n// CHECK: 42\n");
    let (code, out) = lit(&[&only]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("UNSUPPORTED:"), "{out}");
}

#[test]
fn xfail_and_not() {
    let d = dir("xfail");
    let x = write(
        &d,
        "x.mlir",
        "// XFAIL: *\n// RUN: mlir-runner %s -e main -entry-point-result=void | FileCheck %s\n// CHECK: 7\n",
    );
    let n = write(
        &d,
        "n.mlir",
        "// RUN: mlir-runner %s -e main -entry-point-result=void | not FileCheck %s\n// CHECK: 7\n",
    );
    let (code, out) = lit(&[&x, &n]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("XFAIL:") && out.contains("PASS:"), "{out}");
}

#[test]
fn filecheck_through_a_link_named_filecheck() {
    let d = dir("link");
    let link = d.join("FileCheck");
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    let checks = d.join("c.txt");
    std::fs::write(&checks, "CHECK: 42\n").unwrap();
    let input = d.join("in.txt");
    std::fs::write(&input, "x 42 y\n").unwrap();
    let ok = Command::new(&link).arg(&checks).arg("-input-file").arg(&input).status().unwrap();
    assert_eq!(ok.code(), Some(0));
    std::fs::write(&input, "x 41 y\n").unwrap();
    let out =
        Command::new(&link).arg(&checks).arg("--input-file=".to_string() + input.to_str().unwrap()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("note: scanning from here"));
}

/// The lit tests in `fixtures/lit` (hand-derived CHECK lines) pass here,
/// and, where LLVM 22's tools are installed, with them too: that checks
/// the derivations against the reference. Their `mlir-opt` stages need
/// mlir-22-tools, and the reference run LLVM's FileCheck (llvm-22-tools,
/// a separate package); CI has both.
#[test]
fn lit_fixtures_pass_here_and_with_llvm() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/lit");
    let ci = std::env::var("CI").as_deref() == Ok("true");
    let llvm = Path::new("/usr/lib/llvm-22/bin/mlir-runner").exists();
    let filecheck = Path::new("/usr/lib/llvm-22/bin/FileCheck").exists();
    assert!((llvm && filecheck) || !ci, "CI needs mlir-22-tools and llvm-22-tools");
    if !llvm {
        eprintln!("skipped: mlir-22-tools not installed");
        return;
    }
    let run = |flags: &[&str]| {
        let out = Command::new(bin()).arg("lit").args(flags).arg(&fixtures).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, out) = run(&["-v"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("skipped"), "{out}");
    // -matrix-allow-contract fuses through `fmuladd`, which LLVM makes an
    // fma only on hosts that have one.
    let fma = std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|c| c.split_whitespace().any(|w| w == "fma"));
    if !filecheck {
        eprintln!("skipped the reference run: LLVM's FileCheck (llvm-22-tools) not installed");
    } else if fma {
        let (code, out) = run(&["-v", "--llvm"]);
        assert_eq!(code, Some(0), "{out}");
    }
}

/// `--direct` runs a lowering test without mlir-opt: the test file itself
/// goes to the runner, which executes the func and arith ops the
/// lowering would have turned into llvm ones.
#[test]
fn direct_runs_the_source_without_mlir_opt() {
    let d = dir("direct");
    let run = "// RUN: mlir-opt %s -test-lower-to-llvm | mlir-runner -e main -entry-point-result=void \\\n// RUN:   -shared-libs=%mlir_c_runner_utils | FileCheck %s\n// RUN: mlir-opt %s -canonicalize | FileCheck %s --check-prefix=IR\n";
    let t = write_program(&d, "direct.mlir", &format!("{run}// CHECK: 42\n// IR: func.func\n"), UNLOWERED);
    let (code, out) = lit(&[&t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("UNSUPPORTED:"), "{out}");
    let (code, out) = lit_with(&["--direct", "-v"], &[&t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("PASS:"), "{out}");
    assert!(out.contains("line 3: skipped (checks compiler output, not execution)"), "{out}");
    let (code, _) = lit_with(&["--direct", "--llvm"], &[&t]);
    assert_eq!(code, 2);
}

/// A line that substitutes to nothing (a false `%if`, as the sparse tests'
/// Arm SVE lines) runs nothing: with every other line skipped under
/// `--direct` the test is UNSUPPORTED, not a vacuous PASS.
#[test]
fn an_empty_line_runs_nothing() {
    let d = dir("empty");
    let run = "// RUN: mlir-opt %s -transform-interpreter | mlir-runner -e main -entry-point-result=void | FileCheck %s
               // RUN: %if no_such_feature %{ mlir-runner %s -e main | FileCheck %s %}
// CHECK: 42
";
    let t = write_program(&d, "t.mlir", run, UNLOWERED);
    let (code, out) = lit_with(&["--direct", "-v"], &[&t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("UNSUPPORTED:"), "{out}");
}

/// Without `--direct` the runner is a drop-in for mlir-runner: a RUN line
/// that hands it the unlowered program fails, with mlir-runner's message.
#[test]
fn an_unlowered_program_fails_as_with_mlir_runner() {
    let d = dir("unlowered");
    let run = "// RUN: mlir-runner %s -e main -entry-point-result=void | FileCheck %s\n// CHECK: 42\n";
    let t = write_program(&d, "t.mlir", run, UNLOWERED);
    let (code, out) = lit_with(&["-v"], &[&t]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error: Dialect `func' not found for custom op 'func.func'"), "{out}");
}

/// lit's conditions, evaluated against this host's features as lit does
/// with MLIR's configuration (verdicts checked with LLVM 22's lit on the
/// same files and those features): `%if`/`%else` pick a branch, a
/// `REQUIRES:` the host meets runs, an `UNSUPPORTED:` it meets does not,
/// an `XFAIL:` expression that holds expects failure, a malformed `%if` is
/// UNRESOLVED; and a tool after `env VAR=...` is ours too.
#[test]
fn features_if_else_and_env_as_lit() {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        return;
    }
    let d = dir("features");
    let run = "// RUN: env FOO=1 mlir-runner %s -e main -entry-point-result=void \\\n// RUN:   %if x86-native-target %{ | FileCheck %s %} %else %{ | FileCheck %s --check-prefix=NO %}\n";
    let ok = write(
        &d,
        "ok.mlir",
        &format!("// REQUIRES: system-linux, host-supports-jit\n// UNSUPPORTED: target=aarch64{{{{.*}}}}\n{run}// CHECK: 42\n// NO: 43\n"),
    );
    let unsup = write(&d, "unsup.mlir", "// UNSUPPORTED: system-linux && !asan\n// RUN: false\n");
    let xfail = write(&d, "xfail.mlir", "// XFAIL: target={{.*}}-linux{{.*}}\n// RUN: false\n");
    let bad = write(&d, "bad.mlir", "// RUN: %if system-linux %{ true\n");
    let env = write_program(
        &d,
        "env.mlir",
        "// RUN: env FOO=1 not mlir-runner %s -e main 2>&1 | FileCheck %s\n// CHECK: Dialect `func' not found\n",
        UNLOWERED,
    );
    let (code, out) = lit(&[&ok, &unsup, &xfail, &bad, &env]);
    assert_eq!(code, 1, "{out}");
    for (v, f) in [("PASS", &ok), ("UNSUPPORTED", &unsup), ("XFAIL", &xfail), ("UNRESOLVED", &bad), ("PASS", &env)] {
        assert!(out.contains(&format!("{v}: {}", f.display())), "{v} {}: {out}", f.display());
    }
    assert!(out.contains("'%}' is missing for %if substitution"), "{out}");
    assert!(
        out.contains("Test does not support the following features and/or targets: system-linux && !asan"),
        "{out}"
    );
}
