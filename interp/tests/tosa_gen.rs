//! `gen --kind tosa` against LLVM 22: generated tosa graphs must be valid
//! for mlir-opt, run cleanly here, and keep their meaning through LLVM 22's
//! tosa lowering under `passcheck`. The generator avoids the freedoms the
//! spec grants floats and the lowering bugs already known (see
//! `interp/src/gen/tosa.rs`), so a failure here is something new: reduce it
//! and check it against ARM's reference model before blaming either side.
//! A third check runs the graphs through ARM's reference model (PyPI
//! tosa-tools in `TOSA_VENV`, default `.tosa-venv`, as `.ci/run` installs
//! it), the specification's executable, and requires the same bytes, or
//! for the operators whose error the spec bounds (the program's `// BOUND:`
//! lines) results within the spec's bound of the fp64 value, ours and the
//! reference model's alike.
//! Skipped without mlir-22-tools or tosa-tools, except under CI.

use std::path::{Path, PathBuf};
use std::process::Command;
#[path = "common/toolchain.rs"]
mod tools;

#[path = "common/npy.rs"]
mod npy;

#[path = "common/tosa_bound.rs"]
mod bound;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// The pipeline `tosa_lowering.rs` checks the fixtures with.
const LOWERING: &str = "builtin.module(func.func(tosa-optional-decompositions,tosa-to-scf,\
                        tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor))";

/// Seeds each check covers: every operator shows up dozens of times, and
/// both checks together take about 15 s in release.
const SEEDS: std::ops::Range<u64> = 0..120;

/// `default`, or the range `TOSA_GEN_SEEDS=START..END` asks for (offline
/// campaigns over more seeds run the same checks).
fn seeds(default: std::ops::Range<u64>) -> std::ops::Range<u64> {
    let Ok(v) = std::env::var("TOSA_GEN_SEEDS") else { return default };
    let (a, b) = v.split_once("..").unwrap_or_else(|| panic!("TOSA_GEN_SEEDS={v}: not START..END"));
    let num = |x: &str| x.trim().parse::<u64>().unwrap_or_else(|_| panic!("TOSA_GEN_SEEDS={v}: not START..END"));
    num(a)..num(b)
}

/// Operators `@f` gets.
const SIZE: &str = "30";

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[tools::MLIR_OPT])
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
    for seed in seeds(SEEDS) {
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
    for seed in seeds(SEEDS) {
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

/// Seeds the reference-model check covers (about 0.6 s each: the model
/// and its serializer start once per graph).
const REF_SEEDS: std::ops::Range<u64> = 0..60;

/// The venv holding tosa-tools, when there is one.
fn reference_model() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let venv = std::env::var_os("TOSA_VENV").map_or_else(|| root.join(".tosa-venv"), PathBuf::from);
    let there = venv.join("bin/tosa_reference_model").exists();
    assert!(there || std::env::var("CI").as_deref() != Ok("true"), "CI needs tosa-tools in {}", venv.display());
    if !there {
        eprintln!("skipped: no tosa-tools in {}", venv.display());
    }
    there.then_some(venv)
}

/// The flatbuffer schema tosa-tools ships (its place varies by release).
fn schema(dir: &Path) -> Option<PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.file_name().is_some_and(|n| n == "tosa.fbs") {
            return Some(p);
        }
        if p.is_dir() && !p.is_symlink() {
            if let Some(found) = schema(&p) {
                return Some(found);
            }
        }
    }
    None
}

/// Runs `cmd`, returning its stderr as the error when it fails.
fn checked(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} exits {:?}:\n{}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// One seed through the reference model and through us: `@f` inlined into
/// `@main` (the serializer takes one function of tosa ops), no other
/// rewriting (an empty inliner pipeline, so nothing is folded first).
fn against_reference(venv: &Path, fbs: &Path, dir: &Path, seed: u64) -> Result<(), String> {
    let gen = generate(dir, seed);
    let text = std::fs::read_to_string(&gen).map_err(|e| e.to_string())?;
    let private = dir.join(format!("seed-{seed}-private.mlir"));
    std::fs::write(&private, text.replace("func.func @f(", "func.func private @f(")).map_err(|e| e.to_string())?;
    let flat = dir.join(format!("seed-{seed}-flat.mlir"));
    checked(
        Command::new(MLIR_OPT).arg(&private).arg("--inline=default-pipeline=").arg("--symbol-dce").arg("-o").arg(&flat),
        "mlir-opt --inline",
    )?;
    let ours = dir.join(format!("seed-{seed}-ours"));
    checked(mlir_interp().arg("run").arg(&flat).arg("--out").arg(&ours), "mlir-interp run --out")?;
    let results = (0..).take_while(|n| ours.join(format!("result{n}.npy")).exists()).count();
    if results == 0 {
        return Err("run --out wrote no results".into());
    }
    let theirs = dir.join(format!("seed-{seed}-ref"));
    std::fs::create_dir_all(&theirs).map_err(|e| e.to_string())?;
    checked(
        Command::new(venv.join("bin/tosa-opt"))
            .arg(&flat)
            .arg("--tosa-serialize=tosa-flatbuffer-filename=graph.tosa")
            .current_dir(&theirs),
        "tosa-opt --tosa-serialize",
    )?;
    // The serializer names a graph's results TosaOutput_N, in order.
    let list =
        |f: &dyn Fn(usize) -> String| (0..results).map(|n| format!("\"{}\"", f(n))).collect::<Vec<_>>().join(", ");
    let desc = format!(
        "{{\"tosa_file\": \"graph.tosa\", \"ifm_name\": [], \"ifm_file\": [], \"ofm_name\": [{}], \"ofm_file\": [{}], \"expected_failure\": false}}",
        list(&|n| format!("TosaOutput_{n}")),
        list(&|n| format!("result_{n}.npy"))
    );
    std::fs::write(theirs.join("desc.json"), desc).map_err(|e| e.to_string())?;
    checked(
        Command::new(venv.join("bin/tosa_reference_model"))
            .arg("--test_desc")
            .arg("desc.json")
            .arg("--operator_fbs")
            .arg(fbs)
            .current_dir(&theirs),
        "tosa_reference_model",
    )?;
    let bounded = bound::bounds(&text);
    for n in 0..results {
        let a = npy::read_npy(&ours.join(format!("result{n}.npy")));
        let b = npy::read_npy(&theirs.join(format!("result_{n}.npy")));
        match bounded.iter().find(|x| x.r == n) {
            Some(x) => {
                let ins: Vec<npy::Npy> =
                    x.args.iter().map(|i| npy::read_npy(&ours.join(format!("result{i}.npy")))).collect();
                bound::check_bound(x, &a, &b, &ins)
            }
            None => npy::compare(&a, &b),
        }
        .map_err(|m| format!("result {n}: {m}"))?;
    }
    Ok(())
}

#[test]
fn generated_graphs_match_the_reference_model() {
    if !toolchain() {
        return;
    }
    let Some(venv) = reference_model() else { return };
    let fbs = schema(&venv).expect("tosa-tools without tosa.fbs");
    let dir = scratch("reference");
    let mut failures = Vec::new();
    for seed in seeds(REF_SEEDS) {
        if let Err(m) = against_reference(&venv, &fbs, &dir, seed) {
            failures.push(format!("seed {seed} (mlir-interp gen --kind tosa --size {SIZE} --seed {seed}): {m}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
