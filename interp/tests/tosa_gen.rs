//! `gen --kind tosa` against LLVM 22: generated tosa graphs must be valid
//! for mlir-opt, run cleanly here, and keep their meaning through LLVM 22's
//! tosa lowering under `passcheck`. The generator avoids the freedoms the
//! spec grants floats and the lowering bugs already known (see
//! `interp/src/gen/tosa.rs`), so a failure here is something new: reduce it
//! and check it against ARM's reference model before blaming either side.
//! Skipped without mlir-22-tools, except under CI.

use std::path::Path;
use std::process::Command;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// The pipeline `tosa_lowering.rs` checks the fixtures with.
const LOWERING: &str = "builtin.module(func.func(tosa-optional-decompositions,tosa-to-scf,\
                        tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor))";

/// Seeds each check covers: every operator shows up dozens of times, and
/// both checks together take about 15 s in release.
const SEEDS: std::ops::Range<u64> = 0..120;

/// Operators `@f` gets.
const SIZE: &str = "30";

fn toolchain() -> bool {
    let there = Path::new(MLIR_OPT).exists();
    assert!(there || std::env::var("CI").as_deref() != Ok("true"), "CI needs mlir-22-tools");
    if !there {
        eprintln!("skipped: mlir-opt not found");
    }
    there
}

fn mlir_interp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
}

/// The program for `seed`, written to a temporary file.
fn generate(dir: &Path, seed: u64) -> std::path::PathBuf {
    let out = mlir_interp()
        .args(["gen", "--kind", "tosa", "--size", SIZE, "--seed", &seed.to_string()])
        .output()
        .expect("run gen");
    assert!(out.status.success(), "gen --seed {seed}: {}", String::from_utf8_lossy(&out.stderr));
    let f = dir.join(format!("seed-{seed}.mlir"));
    std::fs::write(&f, &out.stdout).expect("write program");
    f
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mlir-interp-tosa-gen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

#[test]
fn generated_tosa_graphs_are_valid_and_defined() {
    if !toolchain() {
        return;
    }
    let dir = scratch("valid");
    let mut failures = Vec::new();
    for seed in SEEDS {
        let f = generate(&dir, seed);
        let opt = Command::new(MLIR_OPT).arg(&f).output().expect("run mlir-opt");
        if !opt.status.success() {
            failures.push(format!("seed {seed}: mlir-opt rejects it:\n{}", String::from_utf8_lossy(&opt.stderr)));
            continue;
        }
        let run = mlir_interp().arg("run").arg(&f).output().expect("run mlir-interp");
        if !run.status.success() {
            failures.push(format!(
                "seed {seed}: run exits {:?}:\n{}",
                run.status.code(),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_tosa_lowering_keeps_generated_graphs_meaning() {
    if !toolchain() {
        return;
    }
    let dir = scratch("lowering");
    let mut failures = Vec::new();
    for seed in SEEDS {
        let f = generate(&dir, seed);
        let out = mlir_interp().arg("passcheck").arg(&f).arg("--passes").arg(LOWERING).output().expect("run passcheck");
        if out.status.code() != Some(0) {
            failures.push(format!(
                "seed {seed} (mlir-interp gen --kind tosa --size {SIZE} --seed {seed}): exit {:?}\n{}{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
