//! `mlir-interp reduce` and `run --reduce-mode` as a user drives them:
//! a generated program miscompiled by a deliberately wrong optimizer (a
//! shell script, so no LLVM is needed) shrinks to a few ops that still
//! miscompile; an interestingness test keeps its property without the
//! reducer ever introducing undefined behaviour.

use std::process::Command;

#[path = "common/scripts.rs"]
mod scripts;
use scripts::{scratch, script};

/// Names this suite's scratch directories.
const SUITE: &str = "reduce";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mlir-interp")
}

fn mlir_interp(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).output().expect("run");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The number of ops in `text` (lines with an op name), roughly.
fn ops(text: &str) -> usize {
    text.lines().filter(|l| l.contains(" = ") || l.trim_start().starts_with("vector.print")).count()
}

#[test]
fn a_miscompile_reduces_to_a_few_ops() {
    let d = scratch(SUITE, "miscompile");
    // The wrong optimizer turns every multiplication into an addition.
    let opt = script(&d, "bad.sh", "for f; do :; done\nsed 's/arith.muli/arith.addi/g' \"$f\"");
    // A generated program with multiplications among many other ops.
    let (code, program, _) = mlir_interp(&["gen", "--seed", "1", "--kind", "int", "--size", "60"]);
    assert_eq!(code, 0);
    let f = d.join("prog.mlir");
    std::fs::write(&f, &program).expect("write");
    let file = f.to_str().unwrap();
    let (code, out, _) = mlir_interp(&["passcheck", file, "--passes", "cse", "--opt", &opt]);
    assert_eq!(code, 1, "the starting program must miscompile:\n{out}");
    let reduced = d.join("reduced.mlir");
    let (code, _, err) =
        mlir_interp(&["reduce", file, "--passes", "cse", "--opt", &opt, "-o", reduced.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&reduced).expect("reduced");
    assert!(err.contains("reduce: ") && err.contains("candidates tried"), "{err}");
    assert!(ops(&text) * 5 < ops(&program), "{} ops left of {}:\n{text}", ops(&text), ops(&program));
    assert!(text.contains("arith.muli"), "{text}");
    // Still a miscompile, and still defined behaviour.
    let (code, out, _) = mlir_interp(&["passcheck", reduced.to_str().unwrap(), "--passes", "cse", "--opt", &opt]);
    assert_eq!(code, 1, "{out}\n{text}");
    let (code, _, err) = mlir_interp(&["run", "--reduce-mode", reduced.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
}

/// The second wrong optimizer: a pass that puts `nsw` on every
/// `arith.addi` without checking that the sum cannot overflow. Passcheck
/// names it among correct passes, and the program reduces to the overflow.
#[test]
fn an_optimizer_that_skips_the_nsw_check_is_named_and_reduced() {
    let d = scratch(SUITE, "nsw");
    let opt = script(
        &d,
        "nsw.sh",
        "for f; do :; done\ncase \"$*\" in\n  *bad-nsw*) sed '/overflow/!s/\\(arith\\.addi [^:]*\\) :/\\1 overflow<nsw> :/' \"$f\" ;;\n  *) cat \"$f\" ;;\nesac",
    );
    let (code, program, _) = mlir_interp(&["gen", "--seed", "4", "--kind", "int", "--size", "60"]);
    assert_eq!(code, 0);
    let f = d.join("prog.mlir");
    std::fs::write(&f, &program).expect("write");
    let file = f.to_str().unwrap();
    let (code, out, _) =
        mlir_interp(&["passcheck", file, "--passes", "canonicalize,bad-nsw,cse", "--opt", &opt, "--each-pass"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the target has undefined behavior where the source has none"), "{out}");
    assert!(out.contains("first pass that changes the meaning: 'bad-nsw' (pass 2 of 3)"), "{out}");
    let reduced = d.join("reduced.mlir");
    let (code, _, err) =
        mlir_interp(&["reduce", file, "--passes", "bad-nsw", "--opt", &opt, "-o", reduced.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&reduced).expect("reduced");
    // Constants, the additions that overflow, the print: a handful of ops.
    assert!(ops(&text) <= 6 && text.contains("arith.addi"), "{} ops:\n{text}", ops(&text));
    let (code, _, err) = mlir_interp(&["run", "--reduce-mode", reduced.to_str().unwrap()]);
    assert_eq!(code, 0, "the reduced program has UB:\n{err}\n{text}");
}

#[test]
fn a_test_keeps_its_property_and_never_gets_undefined_behaviour() {
    let d = scratch(SUITE, "test");
    // Interesting: the program still divides. Replacing the divisor by the
    // constant 0 would keep that, but is undefined: the reducer must not.
    let src = "func.func @main() {
  %a = arith.constant 84 : i32
  %b = arith.constant 2 : i32
  %c = arith.constant 3 : i32
  %s = arith.addi %b, %c : i32
  %m = arith.muli %s, %a : i32
  %q = arith.divsi %m, %s : i32
  vector.print %q : i32
  vector.print %m : i32
  return
}
";
    let f = d.join("div.mlir");
    std::fs::write(&f, src).expect("write");
    let test = script(&d, "divides.sh", "grep -q arith.divsi \"$1\"");
    let (code, text, err) = mlir_interp(&["reduce", f.to_str().unwrap(), "--test", &test]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("arith.divsi") && ops(&text) < ops(src), "{text}");
    let out = d.join("out.mlir");
    std::fs::write(&out, &text).expect("write");
    let (code, _, err) = mlir_interp(&["run", "--reduce-mode", out.to_str().unwrap()]);
    assert_eq!(code, 0, "the reduced program has UB:\n{err}\n{text}");
}

/// A reduced program carries the entry and the input it miscompiles on
/// (`// ENTRY:` and `// ARGS:` lines), so `passcheck` re-checks it with
/// no `-e` or `--arg`: the wrong optimizer turns `muli` into `addi`,
/// which 3 * 3 against 3 + 3 shows and 2 * 2 against 2 + 2 does not.
#[test]
fn a_reduced_program_re_checks_alone() {
    let d = scratch(SUITE, "alone");
    let opt = script(&d, "bad.sh", "for f; do :; done\nsed 's/arith.muli/arith.addi/g' \"$f\"");
    let src = "func.func @f(%a: i32, %b: i32) -> i32 {
  %m = arith.muli %a, %b : i32
  %c = arith.constant 1 : i32
  %s = arith.subi %m, %c : i32
  %t = arith.addi %s, %c : i32
  return %t : i32
}
func.func @main() {
  %x = arith.constant 2 : i32
  %r = call @f(%x, %x) : (i32, i32) -> i32
  vector.print %r : i32
  return
}
";
    let f = d.join("p.mlir");
    std::fs::write(&f, src).expect("write");
    let reduced = d.join("reduced.mlir");
    let (code, _, err) = mlir_interp(&[
        "reduce",
        f.to_str().unwrap(),
        "--passes",
        "cse",
        "--opt",
        &opt,
        "-e",
        "f",
        "--arg",
        "3",
        "--arg",
        "3",
        "-o",
        reduced.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&reduced).expect("reduced");
    assert!(text.starts_with("// ENTRY: f\n// ARGS: --arg '3' --arg '3'\n"), "{text}");
    let (code, out, err) = mlir_interp(&["passcheck", reduced.to_str().unwrap(), "--passes", "cse", "--opt", &opt]);
    assert_eq!(code, 1, "{out}{err}\n{text}");
    assert!(out.contains("input 1: --arg '3' --arg '3': MISCOMPILE"), "{out}");
    // The command line still wins: on 2 and 2 the rewrite happens to agree.
    let (code, out, _) = mlir_interp(&[
        "passcheck",
        reduced.to_str().unwrap(),
        "--passes",
        "cse",
        "--opt",
        &opt,
        "--arg",
        "2",
        "--arg",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    // Reducing the reduced program again keeps one pair of lines.
    let again = d.join("again.mlir");
    let (code, _, err) = mlir_interp(&[
        "reduce",
        reduced.to_str().unwrap(),
        "--passes",
        "cse",
        "--opt",
        &opt,
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let twice = std::fs::read_to_string(&again).expect("again");
    assert_eq!(twice.matches("// ARGS:").count(), 1, "{twice}");
}

#[test]
fn nothing_to_keep_is_an_error() {
    let d = scratch(SUITE, "none");
    let f = d.join("p.mlir");
    std::fs::write(&f, "func.func @main() {\n  return\n}\n").expect("write");
    let opt = script(&d, "id.sh", "for f; do :; done\ncat \"$f\"");
    let (code, _, err) = mlir_interp(&["reduce", f.to_str().unwrap(), "--passes", "cse", "--opt", &opt]);
    assert_eq!(code, 2);
    assert!(err.contains("finds no miscompile"), "{err}");
    let (code, _, err) = mlir_interp(&["reduce", f.to_str().unwrap(), "--test", "false"]);
    assert_eq!(code, 2);
    assert!(err.contains("not interesting to start with"), "{err}");
    let (code, _, err) = mlir_interp(&["reduce", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --passes"), "{err}");
}

#[test]
fn reduce_mode_exit_statuses() {
    let d = scratch(SUITE, "mode");
    let write = |name: &str, text: &str| {
        let p = d.join(name);
        std::fs::write(&p, text).expect("write");
        p.display().to_string()
    };
    let ok = write("ok.mlir", "func.func @main() {\n  return\n}\n");
    let ub = write(
        "ub.mlir",
        "func.func @main() {\n  %a = arith.constant 1 : i32\n  %z = arith.constant 0 : i32\n  %q = arith.divui %a, %z : i32\n  return\n}\n",
    );
    let assert =
        write("assert.mlir", "func.func @main() {\n  %f = arith.constant false\n  cf.assert %f, \"no\"\n  return\n}\n");
    let endless = write("loop.mlir", "func.func @main() {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n}\n");
    let bad = write("bad.mlir", "func.func @main() {\n");
    let status = |f: &str, extra: &[&str]| mlir_interp(&[&["run", "--reduce-mode"], extra, &[f]].concat()).0;
    assert_eq!(status(&ok, &[]), 0);
    assert_eq!(status(&ub, &[]), 1);
    assert_eq!(status(&assert, &[]), 0, "a failed assertion is defined behaviour");
    assert_eq!(status(&endless, &["--max-steps", "1000"]), 4);
    assert_eq!(status(&bad, &[]), 2);
}

/// A program that declares an external function (as generated tensor
/// programs declare `printMemrefI32`) reduces: a declaration has a region
/// with no block, and no parameter to drop (the reducer used to index its
/// missing entry block and stop with an internal error).
#[test]
fn a_declared_function_is_left_alone() {
    let d = scratch(SUITE, "declared");
    let src = "func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }
func.func @f(%x: i32, %unused: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  %m = arith.muli %a, %x : i32
  return %m : i32
}
func.func @main() {
  %c = arith.constant 3 : i32
  %r = call @f(%c, %c) : (i32, i32) -> i32
  vector.print %r : i32
  return
}
";
    let f = d.join("declared.mlir");
    std::fs::write(&f, src).expect("write");
    let test = script(&d, "multiplies.sh", "grep -q arith.muli \"$1\"");
    let (code, text, err) = mlir_interp(&["reduce", f.to_str().unwrap(), "--test", &test]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("arith.muli") && !text.contains("%unused"), "{text}");
}
