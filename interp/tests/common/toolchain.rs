//! Whether LLVM 22's tools are installed, for the tests that compare this
//! engine with them: absent, such a test is skipped with a note, except
//! under CI (`CI=true`), where a missing tool must fail rather than let the
//! comparison pass unseen.

use std::path::Path;
use std::process::Command;

/// LLVM 22's optimizer.
#[allow(dead_code)]
pub const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";
/// LLVM 22's JIT runner.
#[allow(dead_code)]
pub const MLIR_RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";

/// Whether every one of `tools` is here: a path must exist, a bare name
/// (`python3`) must run with `--version`. Panics under CI when one is not.
pub fn toolchain(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !found(t)).collect();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(missing.is_empty() || !ci, "CI needs mlir-22-tools; missing: {}", missing.join(", "));
    if !missing.is_empty() {
        eprintln!("skipped: {} not found", missing.join(", "));
    }
    missing.is_empty()
}

fn found(tool: &str) -> bool {
    if tool.contains('/') {
        Path::new(tool).exists()
    } else {
        Command::new(tool).arg("--version").output().is_ok()
    }
}
