//! Hostile input, end to end on the binary: every case ends with a clean
//! diagnostic and exit 1 (a limit or UB at run time) or 2 (bad input), in
//! bounded time and under a 4 GB address-space cap, never with a crash, an
//! abort or an unbounded run. The inputs are generated here (some are
//! megabytes), one per class the issue tracker found; the regression inputs
//! of fuzzing crashes live in `fixtures/fuzz/` and run through the same check.

use std::path::PathBuf;
use std::process::Command;

/// What a run must end with.
struct Expect {
    code: i32,
    stderr: &'static str,
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mlir-interp-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write input");
    p
}

/// Runs the binary with `args` under a 4 GB virtual-memory cap and a 120 s
/// wall-clock guard (a hang fails the test instead of stalling it).
fn run(args: &[&str]) -> (Option<i32>, String) {
    let script = "ulimit -v 4000000; exec timeout 120 \"$0\" \"$@\"";
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_mlir-interp"))
        .args(args)
        .output()
        .expect("run mlir-interp");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn check(name: &str, args: &[&str], text: &str, want: Expect) {
    let p = tmp(name, text);
    let mut all: Vec<&str> = args.to_vec();
    let ps = p.to_string_lossy().into_owned();
    all.push(&ps);
    let (code, err) = run(&all);
    let head: String = err.chars().take(600).collect();
    assert_eq!(code, Some(want.code), "{name}: exit {code:?}, stderr:\n{head}");
    assert!(err.contains(want.stderr), "{name}: stderr lacks `{}`:\n{head}", want.stderr);
    assert!(!err.contains("panicked") && !err.contains("overflowed its stack"), "{name}:\n{head}");
}

fn main_with(body: &str) -> String {
    format!("func.func @main() {{\n{body}\n  return\n}}\n")
}

#[test]
fn deep_function_types_are_a_nesting_error() {
    let n = 60_000;
    let t = "(".repeat(n) + "i32" + &") -> i32".repeat(n);
    let text = format!("func.func private @f(%a: {t})\n");
    check("ftype.mlir", &["print"], &text, Expect { code: 2, stderr: "nesting too deep" });
}

#[test]
fn left_deep_affine_expressions_are_bounded() {
    let terms = vec!["d0"; 150_000].join(" + ");
    let alias = format!("#m = affine_map<(d0) -> ({terms})>\nfunc.func @main() {{ return }}\n");
    let want = "affine expression nested deeper than 1000 levels";
    check("affine_alias.mlir", &["print"], &alias, Expect { code: 2, stderr: want });
    let apply =
        main_with(&format!("  %c = arith.constant 1 : index\n  %r = affine.apply affine_map<(d0) -> ({terms})>(%c)"));
    check("affine_apply.mlir", &["run"], &apply, Expect { code: 2, stderr: want });
    // 1000 levels are fine, and evaluate (the sum of 999 ones plus one).
    let ok = vec!["d0"; 999].join(" + ");
    let p = tmp(
        "affine_ok.mlir",
        &main_with(&format!(
        "  %c = arith.constant 1 : index\n  %r = affine.apply affine_map<(d0) -> ({ok})>(%c)\n  vector.print %r : index"
    )),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("run").arg(&p).output().expect("run");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "999\n");
}

#[test]
fn oversized_values_are_resource_errors() {
    // The memory budget ("memory limit: ...") or a failed host allocation
    // ("resource limit: ..."), whichever comes first on this host.
    let limit = "limit:";
    let cases = [
        ("splat_max.mlir", "  %n = arith.constant 9223372036854775807 : index\n  %c = arith.constant 1.0 : f32\n  %t = tensor.splat %c[%n] : tensor<?xf32>"),
        ("splat_2g.mlir", "  %n = arith.constant 2147483648 : index\n  %c = arith.constant 1.0 : f32\n  %t = tensor.splat %c[%n] : tensor<?xf32>"),
        ("dense.mlir", "  %t = arith.constant dense<1.5> : tensor<1000000000xf32>"),
        ("broadcast.mlir", "  %c = arith.constant 1.0 : f32\n  %t = vector.broadcast %c : f32 to vector<1000000000xf32>"),
        ("empty.mlir", "  %n = arith.constant 4000000000 : index\n  %t = tensor.empty(%n) : tensor<?xi8>"),
        ("alloc.mlir", "  %m = memref.alloc() : memref<7000000000xi8>\n  memref.dealloc %m : memref<7000000000xi8>"),
    ];
    for (name, body) in cases {
        check(name, &["run"], &main_with(body), Expect { code: 1, stderr: limit });
    }
    // Under an explicit budget, a memref that fits the host does not fit.
    let small = main_with("  %m = memref.alloc() : memref<64000000xi8>\n  memref.dealloc %m : memref<64000000xi8>");
    check("budget.mlir", &["run", "--max-memory", "32M"], &small, Expect { code: 1, stderr: "--max-memory" });
    check("budget_ok.mlir", &["run", "--max-memory", "1G"], &small, Expect { code: 0, stderr: "" });
}

#[test]
fn fuel_counts_elements_not_ops() {
    let body = "  %c = arith.constant 1.0 : f32\n  %t = vector.broadcast %c : f32 to vector<50000000xf32>\n  vector.print %t : vector<50000000xf32>";
    let want = Expect { code: 1, stderr: "execution step limit of 1000000 reached" };
    check("print_lanes.mlir", &["run", "--max-steps", "1000000"], &main_with(body), want);
}

#[test]
fn timeout_stops_an_endless_loop() {
    let text = "func.func @main() {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n}\n";
    check("endless.mlir", &["run", "--timeout", "0.5"], text, Expect { code: 1, stderr: "time limit of 0.5 s" });
    // A constant step of 0 is valid IR (mlir-opt 22 accepts it): the loop
    // runs until a limit stops it.
    let zero_step = main_with(
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.for %i = %c0 to %c1 step %c0 {\n  }",
    );
    check("step0.mlir", &["run", "--max-steps", "100000"], &zero_step, Expect { code: 1, stderr: "step limit" });
}

#[test]
fn call_depth_beyond_the_host_says_what_to_do() {
    let text = main_with("");
    let want = Expect { code: 2, stderr: "lower --max-call-depth" };
    check("depth.mlir", &["run", "--max-call-depth", "1000000", "--max-memory", "4G"], &text, want);
    let bad = Expect { code: 2, stderr: "unknown size suffix" };
    check("badsize.mlir", &["run", "--max-memory", "3X"], &text, bad);
}

#[test]
fn leaks_in_a_loop_are_summarized_per_site() {
    let body = "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %n = arith.constant 100000 : index\n  scf.for %i = %c0 to %n step %c1 {\n    %m = memref.alloc() : memref<4xi8>\n  }";
    let p = tmp("leak.mlir", &main_with(body));
    let (code, err) = run(&["run", &p.to_string_lossy()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("memory leak: 100000 allocations (400000 bytes in all) made here"), "{err}");
    assert!(err.lines().count() < 10, "{err}");
}

#[test]
fn an_internal_error_is_not_a_program_failure() {
    let p = tmp("ok.mlir", &main_with(""));
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
        .env("MLIR_INTERP_TEST_INTERNAL_ERROR", "1")
        .arg("run")
        .arg(&p)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("mlir-interp: internal error, please report it"), "{err}");
}

/// Every input that once crashed a fuzz target must now end cleanly.
#[test]
fn fuzz_regressions_end_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fuzz");
    let rd = std::fs::read_dir(&dir).expect("fixtures/fuzz");
    let files: Vec<_> = rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "mlir")).collect();
    assert!(!files.is_empty(), "no regression inputs in {}", dir.display());
    for f in files {
        let ps = f.to_string_lossy().into_owned();
        for cmd in [&["print", "--generic"][..], &["run", "--max-steps", "1000000", "--max-memory", "1G"][..]] {
            let mut args = cmd.to_vec();
            args.push(&ps);
            let (code, err) = run(&args);
            assert!(matches!(code, Some(0..=2)), "{ps} ({cmd:?}): exit {code:?}\n{err}");
        }
        // What prints must print the same again (the roundtrip target).
        let once = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).args(["print", "--generic", &ps]).output();
        let once = once.expect("print");
        if once.status.success() {
            let p = tmp("reprint.mlir", &String::from_utf8_lossy(&once.stdout));
            let twice = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("print").arg("--generic").arg(&p).output();
            let twice = twice.expect("print again");
            assert_eq!(String::from_utf8_lossy(&twice.stdout), String::from_utf8_lossy(&once.stdout), "{ps}");
        }
    }
}

/// mlir-opt accepts integer complex constants; the engine does not model
/// them, and says so (not an internal error, which would blame itself).
#[test]
fn integer_complex_is_unsupported_not_internal() {
    let text = main_with("  %c = complex.constant [1 : i32, 2 : i32] : complex<i32>");
    check(
        "complex_i32.mlir",
        &["run"],
        &text,
        Expect { code: 1, stderr: "unsupported: complex numbers with integer parts" },
    );
}

/// Output into a pipe whose reader has gone (`run F | head -1`) ends the
/// run quietly by SIGPIPE, as it ends mlir-runner: no diagnostic blaming
/// the printing op, no internal error.
#[test]
fn a_closed_output_pipe_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let prog = tmp(
        "many_prints.mlir",
        "func.func @main() {\n  %c = arith.constant 1 : i32\n  %c0 = arith.constant 0 : index\n  \
         %c1 = arith.constant 1 : index\n  %n = arith.constant 1000000 : index\n  \
         scf.for %i = %c0 to %n step %c1 {\n    vector.print %c : i32\n  }\n  return\n}\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
        .arg("run")
        .arg(&prog)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("read");
    assert_eq!(first, "1\n");
    // The reader is dropped here: the pipe closes with output still to come.
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
