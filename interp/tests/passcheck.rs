//! `mlir-interp passcheck` driven as a user would: deliberately wrong
//! optimizers (shell scripts that rewrite the module, so these run on any
//! machine) must be caught, the pass that misbehaves named, and undefined
//! behaviour in the source must excuse whatever the target does. The last
//! tests check real LLVM 22 pipelines on the exec fixtures (skipped without
//! mlir-22-tools, except under CI).

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/scripts.rs"]
mod scripts;
use scripts::{scratch, script};
#[path = "common/toolchain.rs"]
mod tools;

/// Names this suite's scratch directories.
const SUITE: &str = "passcheck";

/// An optimizer that ignores the pipeline and applies `sed` to its input
/// file (the last argument) when the pipeline contains `when`.
fn sed_opt(dir: &Path, name: &str, when: &str, sed: &str) -> String {
    script(
        dir,
        name,
        &format!("for f; do :; done\ncase \"$*\" in\n  *{when}*) sed '{sed}' \"$f\" ;;\n  *) cat \"$f\" ;;\nesac"),
    )
}

const ADD: &str = "func.func @f(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  return %s : i32
}
";

/// Calls `@f` of [`ADD`] on 5 and 2 and prints the sum.
const MAIN: &str = "func.func @main() {
  %a = arith.constant 5 : i32
  %b = arith.constant 2 : i32
  %r = call @f(%a, %b) : (i32, i32) -> i32
  vector.print %r : i32
  return
}
";

fn passcheck(file: &Path, args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("passcheck").arg(file).args(args).output().expect("run");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn an_identity_optimizer_preserves_meaning() {
    let d = scratch(SUITE, "identity");
    let f = write(&d, "add.mlir", ADD);
    let opt = sed_opt(&d, "id.sh", "never", "");
    let (code, out, err) = passcheck(&f, &["-e", "f", "--passes", "cse", "--opt", &opt, "--inputs", "5"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("passcheck: 5 input(s): 5 same\n"), "{out}");
}

#[test]
fn a_wrong_rewrite_is_a_miscompile() {
    let d = scratch(SUITE, "wrong");
    let f = write(&d, "add.mlir", ADD);
    let opt = sed_opt(&d, "bad.sh", "cse", "s/arith.addi/arith.subi/");
    let (code, out, _) = passcheck(&f, &["-e", "f", "--passes", "cse", "--opt", &opt, "--arg", "5", "--arg", "2"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("input 1: --arg '5' --arg '2': MISCOMPILE"), "{out}");
    assert!(out.contains("result %0: 7 in the source, 3 in the target"), "{out}");
}

#[test]
fn each_pass_names_the_pass_that_changes_the_meaning() {
    let d = scratch(SUITE, "each");
    let f = write(&d, "add.mlir", ADD);
    let opt = sed_opt(&d, "bad.sh", "bad-pass", "s/arith.addi/arith.subi/");
    let ir = d.join("ir");
    let (code, out, _) = passcheck(
        &f,
        &[
            "-e",
            "f",
            "--passes",
            "builtin.module(canonicalize,func.func(cse,bad-pass),sccp)",
            "--opt",
            &opt,
            "--each-pass",
            "--ir-dir",
            ir.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("after pass 1/4 'canonicalize': 8 same"), "{out}");
    assert!(out.contains("after pass 2/4 'func.func(cse)': 8 same"), "{out}");
    assert!(out.contains("first pass that changes the meaning: 'func.func(bad-pass)' (pass 3 of 4)"), "{out}");
    assert!(out.contains("-  %s = arith.addi %a, %b : i32\n+  %s = arith.subi %a, %b : i32"), "{out}");
    assert!(ir.join("03-func_func_bad-pass_.mlir").exists() && !ir.join("04-sccp.mlir").exists());
}

#[test]
fn undefined_behaviour_in_the_source_allows_anything() {
    let d = scratch(SUITE, "ub");
    let src = "func.func @f(%a: i32, %b: i32) -> i32 {\n  %q = arith.divsi %a, %b : i32\n  return %q : i32\n}\n";
    let f = write(&d, "div.mlir", src);
    let opt = sed_opt(&d, "bad.sh", "cse", "s/arith.divsi %a, %b/arith.constant 42/; s/: i32$/: i32/");
    let (code, out, _) = passcheck(&f, &["-e", "f", "--passes", "cse", "--opt", &opt, "--arg", "7", "--arg", "0"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("refines\n  the source has undefined behavior here:"), "{out}");
    assert!(out.contains("signed division by zero"), "{out}");
    // Where the source is defined the same rewrite is wrong.
    let (code, out, _) = passcheck(&f, &["-e", "f", "--passes", "cse", "--opt", &opt, "--arg", "7", "--arg", "1"]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn an_nsw_flag_that_does_not_hold_makes_poison() {
    let d = scratch(SUITE, "nsw");
    let f = write(&d, "add.mlir", ADD);
    let opt = sed_opt(&d, "nsw.sh", "canonicalize", "s/arith.addi %a, %b/arith.addi %a, %b overflow<nsw>/");
    let args = ["-e", "f", "--passes", "canonicalize", "--opt", &opt];
    let (code, out, _) = passcheck(&f, &[&args[..], &["--arg", "1", "--arg", "2"]].concat());
    assert_eq!(code, 0, "no overflow, no poison: {out}");
    let (code, out, _) = passcheck(&f, &[&args[..], &["--arg", "2147483647", "--arg", "1"]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the target has undefined behavior where the source has none"), "{out}");
    assert!(out.contains("poison value returned by the entry function"), "{out}");
}

#[test]
fn output_and_aborts_are_compared() {
    let d = scratch(SUITE, "print");
    let src = "func.func @main() {\n  %c = arith.constant 3 : i32\n  vector.print %c : i32\n  return\n}\n";
    let f = write(&d, "print.mlir", src);
    let opt = sed_opt(&d, "bad.sh", "cse", "s/constant 3/constant 4/");
    let (code, out, _) = passcheck(&f, &["--passes", "cse", "--opt", &opt]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("output line 1:\n    source: 3\n    target: 4"), "{out}");
    // An assertion the target drops is a miscompile too.
    let src = "func.func @main() {\n  %f = arith.constant false\n  cf.assert %f, \"no\"\n  return\n}\n";
    let f = write(&d, "assert.mlir", src);
    let opt = sed_opt(&d, "drop.sh", "cse", "/cf.assert/d");
    let (code, out, _) = passcheck(&f, &["--passes", "cse", "--opt", &opt]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the source aborts, the target returns"), "{out}");
}

#[test]
fn an_optimizer_that_fails_makes_the_check_unusable() {
    let d = scratch(SUITE, "fail");
    let f = write(&d, "add.mlir", ADD);
    let opt = script(&d, "fail.sh", "echo 'error: no such pass' >&2; exit 1");
    let (code, _, err) = passcheck(&f, &["-e", "f", "--passes", "nope", "--opt", &opt]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the optimizer failed") && err.contains("error: no such pass"), "{err}");
    let (code, _, err) = passcheck(&f, &["-e", "f"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs --passes"), "{err}");
}

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[tools::MLIR_OPT])
}

/// The lowering to LLVM and LLVM 22's scalar optimizations preserve the
/// meaning of exec fixtures (run on random inputs where they take any).
#[test]
fn real_pipelines_preserve_the_exec_fixtures() {
    if !toolchain() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/exec");
    let lower = mlir_interp::differential::DEFAULT_PIPELINE;
    let cases = [
        ("func/fib_recursive.mlir", lower.to_string()),
        ("scf/while_loops.mlir", format!("canonicalize,cse,{lower}")),
        // normalize-memrefs after canonicalize flattens strided views that
        // reach printMemref (fixtures/found/normalize_memrefs_reinterpret_cast.mlir).
        ("memref/views.mlir", format!("canonicalize,cse,{}", lower.replace("normalize-memrefs,", ""))),
        ("arith/i8_all_pairs.mlir", "canonicalize,int-range-optimizations,arith-expand,cse".to_string()),
    ];
    for (file, passes) in cases {
        let f = root.join(file);
        if !f.exists() {
            panic!("fixture {file} is gone: pick another");
        }
        let (code, out, err) = passcheck(&f, &["--passes", &passes]);
        assert_eq!(code, 0, "{file}\n{out}{err}");
        assert!(!out.contains("MISCOMPILE") && out.contains("1 same"), "{file}\n{out}");
    }
}

/// `--each-pass` follows a program through the lowering to the LLVM
/// dialect: a wrong pass among LLVM 22's real ones (a script that turns
/// `llvm.add` into `llvm.sub` and hands every other pass to mlir-opt) is
/// named, with the LLVM-dialect IR before and after it.
#[test]
fn each_pass_works_through_the_lowering_to_llvm() {
    if !toolchain() {
        return;
    }
    let d = scratch(SUITE, "each-llvm");
    let f = write(&d, "add.mlir", &format!("{ADD}{MAIN}"));
    let opt = script(
        &d,
        "bad.sh",
        "for f; do :; done\ncase \"$*\" in\n  *bad-pass*) sed 's/\"llvm.add\"/\"llvm.sub\"/' \"$f\" ;;\n  *) exec /usr/lib/llvm-22/bin/mlir-opt \"$@\" ;;\nesac",
    );
    let lower =
        mlir_interp::differential::DEFAULT_PIPELINE.replace("convert-func-to-llvm,", "convert-func-to-llvm,bad-pass,");
    let passes = format!("canonicalize,{lower}");
    let (code, out, err) = passcheck(&f, &["--passes", &passes, "--opt", &opt, "--each-pass"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("after pass 16/18 'convert-func-to-llvm': 1 same"), "{out}");
    assert!(out.contains("output line 1:\n    source: 7\n    target: 3"), "{out}");
    assert!(out.contains("first pass that changes the meaning: 'bad-pass' (pass 17 of 18)"), "{out}");
    assert!(out.contains("-    %0 = llvm.add %arg0, %arg1 : i32\n+    %0 = llvm.sub %arg0, %arg1 : i32"), "{out}");
    // The entry with random inputs, on the lowered function's own arguments.
    let (code, out, _) =
        passcheck(&f, &["-e", "f", "--passes", &passes, "--opt", &opt, "--each-pass", "--inputs", "3"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("first pass that changes the meaning: 'bad-pass'"), "{out}");
}

/// `--opt` with placeholders: a plain filter gets the file where `{file}`
/// stands and the pipeline where `{passes}` does, and nothing else; under
/// `--each-pass` the module before the first pass is the source itself
/// (a filter applies itself whatever the pipeline, so its output with no
/// passes would already be the changed program, and the diff empty).
#[test]
fn opt_placeholders_make_a_filter_an_optimizer() {
    let d = scratch(SUITE, "placeholders");
    let f = write(&d, "add.mlir", ADD);
    let log = d.join("passes.log");
    let opt = format!("echo {{passes}} >> '{}'; sed s/arith.addi/arith.subi/ {{file}}", log.display());
    let (code, out, err) = passcheck(&f, &["-e", "f", "--passes", "cse", "--opt", &opt, "--arg", "5", "--arg", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("result %0: 7 in the source, 3 in the target"), "{out}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "builtin.module(cse)\n");
    let opt = "sed s/arith.addi/arith.subi/ {file}";
    let (code, out, err) = passcheck(&f, &["-e", "f", "--passes", "cse,canonicalize", "--opt", opt, "--each-pass"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("first pass that changes the meaning: 'cse' (pass 1 of 2)"), "{out}");
    assert!(out.contains("-  %s = arith.addi %a, %b : i32\n+  %s = arith.subi %a, %b : i32"), "{out}");
}

/// `--each-pass` reads back every intermediate module: they travel in
/// generic form, since LLVM 22 prints `vector.print punctuation <newline>`
/// as a bare `vector.print` that it (and we) then read as printing the
/// next line's value. The modules `--ir-dir` keeps are generic too.
#[test]
fn each_pass_reads_back_what_mlir_opt_prints() {
    if !toolchain() {
        return;
    }
    let d = scratch(SUITE, "generic");
    let src = "func.func @main() {\n  %c = arith.constant 1 : i32\n  vector.print %c : i32 punctuation <comma>\n  vector.print punctuation <newline>\n  %d = arith.constant 2 : i32\n  vector.print %d : i32\n  return\n}\n";
    let f = write(&d, "print.mlir", src);
    let ir = d.join("ir");
    let (code, out, err) =
        passcheck(&f, &["--passes", "canonicalize,cse", "--each-pass", "--ir-dir", ir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("after pass 2/2 'cse': 1 same"), "{out}");
    let kept = std::fs::read_to_string(ir.join("01-canonicalize.mlir")).unwrap();
    assert!(kept.contains("\"vector.print\""), "{kept}");
}

/// A lowering that leaves an op among lowered code (`memref.realloc`,
/// which `finalize-memref-to-llvm` does not lower without
/// `expand-realloc`) gives a module no one can run: unusable, with that
/// reason, and no pass is blamed.
#[test]
fn an_op_left_unlowered_is_unusable_not_a_miscompile() {
    if !toolchain() {
        return;
    }
    let d = scratch(SUITE, "realloc");
    let src = "func.func @main() {\n  %a = memref.alloc() : memref<2xi32>\n  %c = arith.constant 7 : i32\n  %i = arith.constant 0 : index\n  memref.store %c, %a[%i] : memref<2xi32>\n  %b = memref.realloc %a : memref<2xi32> to memref<4xi32>\n  %v = memref.load %b[%i] : memref<4xi32>\n  vector.print %v : i32\n  memref.dealloc %b : memref<4xi32>\n  return\n}\n";
    let f = write(&d, "realloc.mlir", src);
    let lower = mlir_interp::differential::DEFAULT_PIPELINE;
    for each in [&[][..], &["--each-pass"][..]] {
        let (code, out, err) = passcheck(&f, &[&["--passes", lower][..], each].concat());
        assert_eq!(code, 2, "{out}{err}");
        assert!(!out.contains("MISCOMPILE") && out.contains("1 unusable"), "{out}");
        assert!(out.contains("the pipeline left 'memref.realloc' unlowered"), "{out}");
    }
}

/// The words of a PASSCHECK line as a shell splits them, single quotes
/// grouping (pass options such as `one-shot-bufferize{a b}` hold spaces).
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => (cur, any) = (cur + &c.to_string(), true),
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn passcheck_lines_split_like_a_shell() {
    assert_eq!(words(" --passes 'a{b c},d' --nan-exact"), ["--passes", "a{b c},d", "--nan-exact"]);
}

/// Every reproducer under fixtures/found/ still shows its miscompile with
/// LLVM 22 (its `// PASSCHECK:` line gives the options).
#[test]
fn found_miscompiles_still_show() {
    if !toolchain() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/found");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fixtures/found") {
        let f = entry.expect("entry").path();
        if f.extension().is_none_or(|e| e != "mlir") {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("read");
        let line = text.lines().find_map(|l| l.strip_prefix("// PASSCHECK:"));
        let opts = words(line.unwrap_or_else(|| panic!("{} has no PASSCHECK line", f.display())));
        let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
        let (code, out, err) = passcheck(&f, &opts);
        assert_eq!(code, 1, "{}: the miscompile no longer shows\n{out}{err}", f.display());
        n += 1;
    }
    assert!(n >= 1, "no reproducers in {}", dir.display());
}
