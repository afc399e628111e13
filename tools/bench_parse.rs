//! Parse benchmark: generates a large module (~50 MB by default: many
//! `func.func` with arith and scf ops, scalar and dense constants, calls),
//! then times, in the same run and on the same file, our `parse_and_verify`
//! (library call, file read included) and `mlir-opt -o /dev/null FILE`.
//! Prints MB/s for both and the ratio.
//!
//! ```text
//! cargo bench --bench parse                 # 50 MB, best of 3
//! BENCH_MB=5 BENCH_RUNS=1 cargo bench --bench parse
//! ```
//!
//! Declared with `harness = false`, so it is a plain `main` and never runs
//! under `cargo test`. mlir-opt is `$MLIR_OPT` or
//! `/usr/lib/llvm-22/bin/mlir-opt`; without it only our side is timed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One function of the benchmark module; `i` varies names and constants.
fn function(out: &mut String, i: usize) {
    let k = i % 97;
    let _ = write!(
        out,
        r#"func.func @f{i}(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: index, %arg4: tensor<8xf32>) -> (i32, f32) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant {k} : i32
  %h = arith.constant 0x{i:08X} : i64
  %fc = arith.constant {k}.5 : f32
  %d = arith.constant dense<[1.0, 2.5, -3.0, 4.0e-2, 5.0, 6.0, 7.0, {k}.0]> : tensor<8xf32>
  %di = arith.constant dense<{k}> : tensor<4x4xi32>
  %t = arith.addf %arg4, %d : tensor<8xf32>
  %a = arith.addi %arg0, %arg1 : i32
  %b = arith.muli %a, %k overflow<nsw> : i32
  %c = arith.subi %b, %arg0 : i32
  %p = arith.cmpi slt, %c, %k : i32
  %s = arith.select %p, %a, %b : i32
  %r:2 = scf.for %iv = %c0 to %arg3 step %c1 iter_args(%acc = %s, %facc = %arg2) -> (i32, f32) {{
    %x = arith.addi %acc, %k : i32
    %y = arith.mulf %facc, %fc fastmath<fast> : f32
    %q = arith.cmpf olt, %y, %fc : f32
    %z = scf.if %q -> (f32) {{
      %n = arith.negf %y : f32
      scf.yield %n : f32
    }} else {{
      scf.yield %y : f32
    }}
    scf.yield %x, %z : i32, f32
  }}
  %e = arith.extsi %r#0 : i32 to i64
  %g = arith.addi %e, %h : i64
  %tr = arith.trunci %g : i64 to i32
  %call:2 = call @leaf(%tr, %r#1) : (i32, f32) -> (i32, f32)
  return %call#0, %call#1 : i32, f32
}}
"#
    );
}

/// Writes a module of about `mb` megabytes to `path`.
fn generate(path: &Path, mb: usize) -> usize {
    let target = mb * 1_000_000;
    let mut out = String::with_capacity(target + 4096);
    out.push_str("func.func private @leaf(%a: i32, %b: f32) -> (i32, f32) {\n  return %a, %b : i32, f32\n}\n");
    let mut i = 0;
    while out.len() < target {
        function(&mut out, i);
        i += 1;
    }
    std::fs::write(path, &out).expect("write benchmark module");
    out.len()
}

fn best_of(runs: usize, mut f: impl FnMut() -> Result<(), String>) -> Result<Duration, String> {
    let mut best = Duration::MAX;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed());
    }
    Ok(best)
}

fn mlir_opt() -> Option<PathBuf> {
    let p = std::env::var_os("MLIR_OPT").map(PathBuf::from).unwrap_or_else(|| "/usr/lib/llvm-22/bin/mlir-opt".into());
    p.is_file().then_some(p)
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let mb = env_num("BENCH_MB", 50);
    let runs = env_num("BENCH_RUNS", 3);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("bench_parse_{mb}mb.mlir"));
    let t = Instant::now();
    let bytes = generate(&path, mb);
    let size_mb = bytes as f64 / 1e6;
    println!("generated {} ({size_mb:.1} MB) in {:.2?}", path.display(), t.elapsed());

    let ours = best_of(runs, || {
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let src = mlir_ir::diag::Source::new(path.display().to_string(), text);
        mlir_ir::parse_and_verify(&src).map(drop).map_err(|d| d.render(&src))
    });
    let ours = match ours {
        Ok(d) => d,
        Err(e) => {
            eprintln!("mlir-interp rejects the benchmark module:\n{e}");
            std::process::exit(1);
        }
    };
    let ours_rate = size_mb / ours.as_secs_f64();
    println!("mlir-interp parse_and_verify: {:>8.3} s  {ours_rate:>8.1} MB/s  (best of {runs})", ours.as_secs_f64());

    let Some(opt) = mlir_opt() else {
        println!("mlir-opt not found: no comparison");
        return;
    };
    let theirs = best_of(runs, || {
        let st = Command::new(&opt)
            .arg(&path)
            .args(["-o", "/dev/null"])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .status()
            .map_err(|e| e.to_string())?;
        if st.success() {
            Ok(())
        } else {
            Err(format!("mlir-opt exited with {st}"))
        }
    });
    match theirs {
        Ok(d) => {
            let rate = size_mb / d.as_secs_f64();
            println!("mlir-opt -o /dev/null:        {:>8.3} s  {rate:>8.1} MB/s  (best of {runs})", d.as_secs_f64());
            println!("ratio (mlir-interp / mlir-opt throughput): {:.2}x", ours_rate / rate);
        }
        Err(e) => {
            eprintln!("mlir-opt rejects the benchmark module: {e}");
            std::process::exit(1);
        }
    }
}
