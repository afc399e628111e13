//! `cargo bench --bench stress`: times `print` and `run` of the very large
//! modules of `interp/tests/common/stress.rs` on the release binary and
//! prints a table (seconds, wall clock; the 2-core CI machine is the
//! reference). Not part of `cargo test`.

#[path = "../interp/tests/common/stress.rs"]
mod stress;

use std::process::Command;
use std::time::Instant;

fn main() {
    let bin = env!("CARGO_BIN_EXE_mlir-interp");
    let dir = std::env::temp_dir().join(format!("mlir-interp-bench-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    println!("| module | size | print (s) | run (s) |");
    println!("|---|---:|---:|---:|");
    for (i, (what, text, want)) in stress::all().into_iter().enumerate() {
        let p = dir.join(format!("stress{i}.mlir"));
        std::fs::write(&p, &text).expect("write module");
        let mut times = Vec::new();
        for cmd in ["print", "run"] {
            let t = Instant::now();
            let out = Command::new(bin).arg(cmd).arg(&p).output().expect("run mlir-interp");
            times.push(t.elapsed().as_secs_f64());
            assert!(out.status.success(), "{what} {cmd}: {}", String::from_utf8_lossy(&out.stderr));
            if cmd == "run" {
                assert_eq!(String::from_utf8_lossy(&out.stdout), want);
            }
        }
        println!("| {what} | {:.1} MB | {:.2} | {:.2} |", text.len() as f64 / 1e6, times[0], times[1]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
