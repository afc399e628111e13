//! The steps the generator tests take for each seed: generate the
//! program, write it, have LLVM 22's mlir-opt verify it, and passcheck it
//! through a pipeline.

use std::path::{Path, PathBuf};
use std::process::Command;

/// This package's binary (not every test that reads this file calls it).
#[allow(dead_code)]
pub fn mlir_interp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
}

/// `gen --kind KIND --size SIZE --seed SEED` written to `dir` and verified
/// by mlir-opt (`mlir_opt`); `Err` says which step failed, naming the seed.
pub fn generated(kind: &str, size: u32, seed: u64, dir: &Path, mlir_opt: &str) -> Result<PathBuf, String> {
    let what = format!("seed {seed} (mlir-interp gen --kind {kind} --size {size} --seed {seed})");
    let out = mlir_interp()
        .args(["gen", "--kind", kind, "--size", &size.to_string(), "--seed", &seed.to_string()])
        .output()
        .expect("run gen");
    if !out.status.success() {
        return Err(format!("{what}: gen fails:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    let f = dir.join(format!("seed-{seed}.mlir"));
    std::fs::write(&f, &out.stdout).expect("write program");
    let opt = Command::new(mlir_opt).arg(&f).output().expect("run mlir-opt");
    if !opt.status.success() {
        return Err(format!("{what}: mlir-opt rejects it:\n{}", String::from_utf8_lossy(&opt.stderr)));
    }
    Ok(f)
}

/// [`generated`], then run here: `Err` also when the run fails or prints
/// nothing (every generated program prints its results).
#[allow(dead_code)]
pub fn generated_and_run(kind: &str, size: u32, seed: u64, dir: &Path, mlir_opt: &str) -> Result<PathBuf, String> {
    let f = generated(kind, size, seed, dir, mlir_opt)?;
    let run = mlir_interp().arg("run").arg(&f).output().expect("run mlir-interp");
    if !run.status.success() || run.stdout.is_empty() {
        return Err(format!(
            "seed {seed} (mlir-interp gen --kind {kind} --size {size} --seed {seed}): run exits {:?}:\n{}",
            run.status.code(),
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    Ok(f)
}

/// `passcheck FILE --passes PASSES`: its exit status, and its output for
/// a failure's message.
pub fn passcheck(file: &Path, passes: &str) -> (Option<i32>, String) {
    let pc = mlir_interp().arg("passcheck").arg(file).args(["--passes", passes]).output().expect("run passcheck");
    let text = format!("{}{}", String::from_utf8_lossy(&pc.stdout), String::from_utf8_lossy(&pc.stderr));
    (pc.status.code(), text)
}
