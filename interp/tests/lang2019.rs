//! The 2019 language (`--lang 2019`, `src/parser/lang2019.rs`).
//!
//! - `fixtures/lang2019/X.mlir`: programs in 2019 syntax. Run as they are
//!   (the language is detected, with a note on stderr), their stdout must
//!   equal `X.mlir.out`, recorded by `tools/record_lang2019.sh` from LLVM
//!   22's mlir-runner running the modern translation (never from us);
//!   `// NO-ORACLE:` files explain their hand-derived output.
//! - The modern form `print --lang 2019 --generic` prints must be accepted
//!   by mlir-opt 22 and, run through mlir-opt + mlir-runner, print the same
//!   output. Skipped without the toolchain, except under CI (`CI=true`).
//! - `fixtures/spec/LANG2019.tsv` classifies every example block of the
//!   2019 specification (`fixtures/spec/002_*.mlir`): a program that runs,
//!   a fragment that parses and verifies inside a wrapper, or an error (the
//!   document's own inconsistency) with our diagnostic.

use mlir_interp::cli::EntryResult;
use mlir_interp::differential;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn interp(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mlir-interp")).args(args).output().expect("run mlir-interp")
}

fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/lang2019"))
        .expect("fixtures/lang2019")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    v.sort();
    v
}

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";
const RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";

/// Whether LLVM 22's tools are here; under CI their absence fails.
fn toolchain() -> bool {
    let there = Path::new(MLIR_OPT).exists() && Path::new(RUNNER).exists();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(there || !ci, "CI needs mlir-22-tools for the 2019-language tests");
    if !there {
        eprintln!("skipped: {MLIR_OPT} / {RUNNER} not found");
    }
    there
}

#[test]
fn programs_print_the_recorded_output() {
    let files = programs();
    assert!(files.len() >= 4, "expected the 2019 programs in fixtures/lang2019");
    let mut failures = Vec::new();
    for f in &files {
        let golden = std::fs::read_to_string(format!("{}.out", f.display())).expect("recorded .out");
        let out = interp(&["run", f.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() || stdout != golden {
            failures.push(format!(
                "{}: exit {:?}\n{stderr}--- expected\n{golden}--- got\n{stdout}",
                f.display(),
                out.status
            ));
        }
        if !stderr.contains("note: reading the file as the 2019 language") {
            failures.push(format!("{}: no detection note on stderr:\n{stderr}", f.display()));
        }
        let explicit = interp(&["run", "--lang", "2019", f.to_str().unwrap()]);
        if String::from_utf8_lossy(&explicit.stdout) != golden || !explicit.stderr.is_empty() {
            failures.push(format!("{}: --lang 2019 run differs or notes", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn modern_form_runs_in_llvm_with_the_same_output() {
    if !toolchain() {
        return;
    }
    let mut failures = Vec::new();
    for f in programs() {
        let text = std::fs::read_to_string(&f).unwrap();
        let golden = std::fs::read_to_string(format!("{}.out", f.display())).unwrap();
        let printed = interp(&["print", "--lang", "2019", "--generic", f.to_str().unwrap()]);
        assert!(printed.status.success(), "{}: print failed", f.display());
        let modern = std::env::temp_dir().join(format!(
            "lang2019-{}-{}",
            std::process::id(),
            f.file_name().unwrap().to_string_lossy()
        ));
        std::fs::write(&modern, &printed.stdout).unwrap();
        let opt = Command::new(MLIR_OPT).arg(&modern).args(["-o", "/dev/null"]).output().unwrap();
        if !opt.status.success() {
            failures.push(format!(
                "{}: mlir-opt rejects the modern form:\n{}",
                f.display(),
                String::from_utf8_lossy(&opt.stderr)
            ));
        } else if !text.contains("// NO-ORACLE:") {
            let tc = differential::Toolchain::default();
            let pipeline = differential::DEFAULT_PIPELINE;
            let r = differential::run_reference(
                &tc,
                &modern,
                pipeline,
                "main",
                EntryResult::Void,
                std::time::Duration::from_secs(120),
            );
            match r {
                Ok(o) if o.status == 0 && o.stdout == golden => {}
                Ok(o) => failures.push(format!("{}: mlir-runner prints\n{}{}", f.display(), o.stdout, o.stderr)),
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
        let _ = std::fs::remove_file(&modern);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
