//! `mlir-interp runner` and a link named `mlir-runner`: mlir-runner's
//! command line, checked against the real mlir-runner on the same
//! arguments (stdout, stderr and exit status; the program's path differs
//! in messages, so it is replaced). Needs mlir-22-tools; skipped without
//! it except under CI. The module is in the LLVM dialect, which both run.

use std::path::{Path, PathBuf};
use std::process::Command;
#[path = "common/toolchain.rs"]
mod tools;

const REFERENCE: &str = "/usr/lib/llvm-22/bin/mlir-runner";

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[tools::MLIR_RUNNER])
}

const MODULE: &str = "module {
  llvm.func @main() -> i32 {
    %c = llvm.mlir.constant(7 : i32) : i32
    llvm.return %c : i32
  }
  llvm.func @two(%a: i32) -> i32 {
    llvm.return %a : i32
  }
  llvm.func @v() {
    llvm.return
  }
}
";

/// A directory of `test`'s own with the module as `t.mlir` and a link
/// `mlir-runner` to us (tests run in parallel threads of one process: a
/// shared one had one test rewrite `t.mlir` while another read it).
fn setup(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mlir-interp-runner-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.mlir"), MODULE).unwrap();
    let link = dir.join("mlir-runner");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_mlir-interp"), &link).unwrap();
    dir
}

/// Runs `exe args` in `dir`; the exit status and both outputs, with `exe`
/// replaced by `<prog>` (messages name the program).
fn outcome(dir: &Path, exe: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(exe).current_dir(dir).args(args).output().expect("run");
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(exe, "<prog>");
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

/// The command lines mlir-runner answers itself: a result printed, each
/// entry check, option errors, a missing input file.
#[test]
fn behaves_like_mlir_runner() {
    if !toolchain() {
        return;
    }
    let dir = setup("behaves_like_mlir_runner");
    let ours = dir.join("mlir-runner");
    let cases: &[&[&str]] = &[
        &["t.mlir", "-e", "main", "-entry-point-result=i32"],
        &["t.mlir", "--e=main", "--entry-point-result", "i32", "-O3"],
        &["t.mlir", "-e", "main", "-entry-point-result=i64"],
        &["t.mlir", "-e", "main", "-entry-point-result=void"],
        &["t.mlir", "-e", "nope", "-entry-point-result=i32"],
        &["t.mlir", "-e", "two", "-entry-point-result=void"],
        &["t.mlir", "-e", "v"],
        &["t.mlir", "-e", "v", "-entry-point-result=void"],
        &["t.mlir", "t.mlir"],
        &["t.mlir", "--no-such-option"],
        &["--host-supports-jit"],
        &["missing.mlir"],
    ];
    for args in cases {
        let want = outcome(&dir, REFERENCE, args);
        // LLVM's unknown-option error adds a spelling suggestion we do not make.
        let want = (
            want.0,
            want.1,
            want.2.lines().filter(|l| !l.contains("Did you mean")).map(|l| format!("{l}\n")).collect(),
        );
        let got = outcome(&dir, ours.to_str().unwrap(), args);
        assert_eq!(got, want, "mlir-runner {args:?}");
    }
}

/// Modules mlir-runner refuses, each with its own message: a left-over op
/// of a dialect it does not register (custom and generic form, first in
/// the text), a cast it cannot translate (after the entry checks), and
/// the top level `--no-implicit-module` rejects. Compared with it on the
/// same files, as a lowering that stops short leaves them.
#[test]
fn refuses_what_mlir_runner_refuses() {
    if !toolchain() {
        return;
    }
    let dir = setup("refuses_what_mlir_runner_refuses");
    let ours = dir.join("mlir-runner");
    let files: &[(&str, &str)] = &[
        ("arith.mlir", "module {\n  llvm.func @main() {\n    %0 = llvm.mlir.constant(1 : i32) : i32\n    %1 = arith.addi %0, %0 : i32\n    %2 = vector.broadcast %1 : i32 to vector<2xi32>\n    llvm.return\n  }\n}\n"),
        ("generic.mlir", "llvm.func @main() {\n  %0 = \"ub.poison\"() : () -> i32\n  llvm.return\n}\n"),
        ("func.mlir", "func.func @main() {\n  return\n}\n"),
        ("cast.mlir", "module {\n  llvm.func @main() {\n    %0 = llvm.mlir.constant(1 : i32) : i32\n    %1 = builtin.unrealized_conversion_cast %0 : i32 to index\n    llvm.return\n  }\n}\n"),
        ("bare.mlir", "llvm.func @main() {\n  llvm.return\n}\n"),
        ("two.mlir", "llvm.func @main() {\n  llvm.return\n}\nllvm.func @g() {\n  llvm.return\n}\n"),
        ("nested.mlir", "module {\n  module {\n    llvm.func @main() {\n      llvm.return\n    }\n  }\n}\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let cases: &[&[&str]] = &[
        &["arith.mlir", "-e", "main", "-entry-point-result=void"],
        &["generic.mlir", "-e", "main", "-entry-point-result=void"],
        &["func.mlir", "-e", "main", "-entry-point-result=void", "--no-implicit-module"],
        &["cast.mlir", "-e", "main", "-entry-point-result=void"],
        &["cast.mlir", "-e", "nope", "-entry-point-result=void"],
        &["bare.mlir", "-e", "main", "-entry-point-result=void", "--no-implicit-module"],
        &["bare.mlir", "-e", "main", "-entry-point-result=void"],
        &["two.mlir", "-e", "main", "-entry-point-result=void", "--no-implicit-module"],
        &["nested.mlir", "-e", "main", "-entry-point-result=void"],
        &["nested.mlir", "-e", "main", "-entry-point-result=void", "--no-implicit-module"],
    ];
    for args in cases {
        let want = outcome(&dir, REFERENCE, args);
        let got = outcome(&dir, ours.to_str().unwrap(), args);
        assert_eq!(got, want, "mlir-runner {args:?}");
    }
    // `--allow-unlowered` runs them as the interpreter does.
    let (code, _, err) =
        outcome(&dir, ours.to_str().unwrap(), &["arith.mlir", "-entry-point-result=void", "--allow-unlowered"]);
    assert_eq!(code, Some(0), "{err}");
}

/// `mlir-interp runner` reads the same command line, stdin when no file is
/// named, and with `--allow-unlowered` runs what mlir-runner cannot (the
/// func dialect, unlowered).
#[test]
fn runner_subcommand() {
    let dir = setup("runner_subcommand");
    let exe = env!("CARGO_BIN_EXE_mlir-interp");
    let mut child = Command::new(exe)
        .current_dir(&dir)
        .args(["runner", "-e", "main", "-entry-point-result=i32", "--shared-libs=libmlir_c_runner_utils.so"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(MODULE.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned()), (Some(0), "7\n".to_string()));
    std::fs::write(
        dir.join("f.mlir"),
        "func.func @main() {\n  %c = arith.constant 5 : i32\n  vector.print %c : i32\n  return\n}\n",
    )
    .unwrap();
    let (code, out, err) =
        outcome(&dir, exe, &["runner", "f.mlir", "-e", "main", "-entry-point-result=void", "--allow-unlowered"]);
    assert_eq!((code, out.as_str()), (Some(0), "5\n"), "{err}");
    let (code, out, err) = outcome(&dir, exe, &["runner", "f.mlir", "-e", "main", "-entry-point-result=void"]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        err,
        "loc(\"f.mlir\":1:1): error: Dialect `func' not found for custom op 'func.func' \ncould not parse the input IR\n"
    );
    let (code, _, err) = outcome(
        &dir,
        exe,
        &["runner", "f.mlir", "-entry-point-result=void", "--shared-libs=/x/libfoo.so", "--allow-unlowered"],
    );
    assert_eq!(code, Some(0));
    assert!(err.contains("'/x/libfoo.so' is not built in"), "{err}");
}

/// A lowered failing `cf.assert` calls puts then abort(): mlir-runner dies
/// of SIGABRT, which a shell reports as status 134; so does the runner
/// here, after printing the message and naming the call.
#[test]
fn abort_exits_as_sigabrt_does() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/ub/llvm_lowered_assert.mlir");
    let exe = env!("CARGO_BIN_EXE_mlir-interp");
    let f = file.to_str().unwrap();
    let (code, out, err) = outcome(Path::new("."), exe, &["runner", f, "-e", "main", "-entry-point-result=void"]);
    assert_eq!(code, Some(134), "{err}");
    assert_eq!(out, "no\n");
    assert!(err.contains(":17:5: error: the program called abort()"), "{err}");
    // `run` reports it as any other fault of the program.
    let (code, _, _) = outcome(Path::new("."), exe, &["run", f]);
    assert_eq!(code, Some(1));
}
