//! The mutation campaigns of `tools/` hold the verifier to mlir-opt 22:
//! `type_mutants.py` (an op's copy with a result or operand of another
//! type) must find no internal error and no mutant accepted here that
//! mlir-opt rejects; `discardable_attrs.py` (attributes that must mean
//! nothing) no changed output. Each runs on a fixed sample here (about a
//! minute together); `MLIR_INTERP_FULL_CAMPAIGNS=1` runs them in full
//! (several minutes on two cores). The property campaign is
//! `mutants.rs`. Skipped without mlir-opt or python3, except under CI.

use std::path::Path;
use std::process::Command;
#[path = "common/toolchain.rs"]
mod tools;

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[&std::env::var("MLIR_OPT").unwrap_or_else(|_| tools::MLIR_OPT.into()), "python3"])
}

/// `every` in the quick run, every mutant in the full one.
fn sample(every: usize) -> String {
    let full = std::env::var("MLIR_INTERP_FULL_CAMPAIGNS").as_deref() == Ok("1");
    if full { 1 } else { every }.to_string()
}

/// Runs `tools/<tool>` with our binary; panics with its report unless it passes.
fn campaign(tool: &str, every: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::env::temp_dir().join(format!("mlir-interp-{}-{}", tool.trim_end_matches(".py"), std::process::id()));
    let r = Command::new("python3")
        .arg(root.join("tools").join(tool))
        .args(["--bin", env!("CARGO_BIN_EXE_mlir-interp"), "--jobs", "2", "--sample", &sample(every)])
        .env("OUT", &out)
        .output()
        .expect("python3");
    let report = String::from_utf8_lossy(&r.stdout);
    let tail: Vec<&str> = report.lines().rev().take(60).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    assert!(
        r.status.success(),
        "{tool} found disagreements (mutants in {}):\n{}\n{}",
        out.display(),
        tail.join("\n"),
        String::from_utf8_lossy(&r.stderr)
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// No type mutant is an internal error, or accepted while mlir-opt rejects it.
#[test]
fn type_mutants_agree_with_mlir_opt() {
    if toolchain() {
        campaign("type_mutants.py", 50);
    }
}

/// Attributes mlir-opt leaves discardable change no program's output.
#[test]
fn discardable_attributes_mean_nothing() {
    if toolchain() {
        // Not a multiple of the four kinds of value, so each kind is sampled.
        campaign("discardable_attrs.py", 19);
    }
}
