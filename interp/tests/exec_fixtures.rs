//! End-to-end execution fixtures, run on the built `mlir-interp` binary.
//!
//! - `fixtures/exec/<dialect>/X.mlir`: stdout must equal `X.mlir.out`
//!   byte for byte (`base@ = 0x...` masked). The `.out` files are recorded
//!   from LLVM 22's mlir-runner by `tools/record_exec.sh`, never from us.
//!   Under CI (`CI=true`) or with `MLIR_INTERP_LIVE_ORACLE=1`, each fixture is
//!   also re-run through the real toolchain (the pipeline of
//!   `../shared/tools/oracle.sh`: mlir-opt then mlir-runner of LLVM 22) and
//!   the recording must still match; CI fails if the toolchain is missing.
//! - `fixtures/ub/X.mlir`: the run must exit 1 and stderr must contain every
//!   `// EXPECT-ERROR: <substring>` line.
//!
//! Directives: `// ARGS: <extra run options>`, `// ENTRY: <name>`,
//! `// XFAIL: <reason>` (skipped, reported), and `// NO-ORACLE: <reason>`
//! for a fixture the toolchain cannot lower (its `.out` is hand-derived and
//! explained in the file; the live re-check skips it).

use mlir_interp::cli::EntryResult;
use mlir_interp::differential;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn directive<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("// {key}:");
    text.lines().filter_map(|l| l.trim_start().strip_prefix(prefix.as_str())).map(str::trim).collect()
}

fn run(path: &Path, text: &str) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
    cmd.arg("run");
    for a in directive(text, "ARGS") {
        cmd.args(a.split_whitespace());
    }
    if let Some(e) = directive(text, "ENTRY").first() {
        cmd.args(["-e", e]);
    }
    cmd.arg(path);
    cmd.output().expect("run mlir-interp")
}

/// Replaces the run-dependent pointer in `printMemref` headers (NaN signs
/// still count: recordings are compared byte for byte).
fn mask(s: &str) -> String {
    differential::normalize(s, true)
}

const RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";

/// Runs `path` through mlir-opt and mlir-runner as `oracle.sh` does (the
/// same code as `mlir-interp diff`).
fn oracle(path: &Path, text: &str) -> Result<String, String> {
    let pipeline = directive(text, "PIPELINE").first().map_or(differential::DEFAULT_PIPELINE, |s| s);
    let entry = directive(text, "ENTRY").first().copied().unwrap_or("main");
    let tc = differential::Toolchain::default();
    let out = differential::run_reference(&tc, path, pipeline, entry, EntryResult::Void)?;
    if out.status != 0 {
        return Err(out.stderr);
    }
    Ok(out.stdout)
}

#[test]
fn exec_fixtures_match_mlir_runner() {
    let files = fixtures("fixtures/exec");
    assert!(files.len() >= 15, "expected at least 15 execution fixtures, found {}", files.len());
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let live = ci || std::env::var("MLIR_INTERP_LIVE_ORACLE").is_ok_and(|v| v == "1");
    if live && !Path::new(RUNNER).exists() {
        assert!(!ci, "CI needs {RUNNER} (mlir-22-tools) to re-check the recorded outputs");
        eprintln!("skipped live re-check: {RUNNER} not found");
    }
    let live = live && Path::new(RUNNER).exists();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read fixture");
        if let Some(why) = directive(&text, "XFAIL").first() {
            eprintln!("XFAIL {}: {why}", f.display());
            continue;
        }
        let golden_path = PathBuf::from(format!("{}.out", f.display()));
        let Ok(golden) = std::fs::read_to_string(&golden_path) else {
            failures.push(format!("{}: missing {} (run tools/record_exec.sh)", f.display(), golden_path.display()));
            continue;
        };
        let out = run(f, &text);
        let got = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            failures.push(format!(
                "{}: exit {:?}\n{}",
                f.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        } else if mask(&got) != mask(&golden) {
            failures.push(format!("{}: stdout differs\n--- expected\n{golden}--- got\n{got}", f.display()));
        }
        if live && directive(&text, "NO-ORACLE").is_empty() {
            match oracle(f, &text) {
                Ok(now) if mask(&now) == mask(&golden) => {}
                Ok(now) => failures.push(format!("{}: recording is stale; mlir-runner now prints\n{now}", f.display())),
                Err(e) => failures.push(format!("{}: the real toolchain failed: {e}", f.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{} fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn ub_fixtures_report_their_error() {
    let files = fixtures("fixtures/ub");
    assert!(!files.is_empty(), "no UB fixtures found");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read fixture");
        if let Some(why) = directive(&text, "XFAIL").first() {
            eprintln!("XFAIL {}: {why}", f.display());
            continue;
        }
        let expected = directive(&text, "EXPECT-ERROR");
        if expected.is_empty() {
            failures.push(format!("{}: no `// EXPECT-ERROR:` line", f.display()));
            continue;
        }
        let out = run(f, &text);
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) {
            failures.push(format!("{}: expected exit 1, got {:?}\n{err}", f.display(), out.status.code()));
        }
        for want in expected {
            if !err.contains(want) {
                failures.push(format!("{}: stderr lacks `{want}`:\n{err}", f.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{} UB fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

/// `--entry-point-result`: the expected bytes were observed from LLVM 22's
/// `mlir-runner -entry-point-result=...` on the same functions (oracle.sh
/// always runs void entries, so these are not recorded by the script).
#[test]
fn entry_point_results_print_like_mlir_runner() {
    let text = "func.func @f() -> f32 {\n  %c = arith.constant 1.5 : f32\n  return %c : f32\n}\n\
                func.func @i() -> i32 {\n  %c = arith.constant -7 : i32\n  return %c : i32\n}\n";
    let path = std::env::temp_dir().join(format!("mlir-interp-entry-{}.mlir", std::process::id()));
    std::fs::write(&path, text).expect("write temp file");
    let go = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("run").args(args).arg(&path).output();
        let out = out.expect("run mlir-interp");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(go(&["-e", "f", "--entry-point-result=f32"]).1, "1.500000e+00\n");
    assert_eq!(go(&["-e", "i", "--entry-point-result=i32"]).1, "-7\n");
    let (code, _, err) = go(&["-e", "i", "--entry-point-result=i64"]);
    assert!(code != Some(0) && err.contains("only single i64 function result supported"), "{err}");
    let (code, _, err) = go(&["-e", "f"]);
    assert!(code != Some(0) && err.contains("expected void function"), "{err}");
    let (code, _, err) = go(&["-e", "nope"]);
    assert_eq!(code, Some(2), "{err}");
    let _ = std::fs::remove_file(&path);
}
