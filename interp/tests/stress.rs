//! Very large modules run end to end: `print` and `run` finish (a 300 s
//! guard catches a hang; the times themselves are measured by
//! `cargo bench --bench stress`) without a stack overflow, and `run` prints
//! the value each module computes.

use std::process::Command;

#[path = "common/stress.rs"]
mod stress;

#[test]
fn large_modules_print_and_run() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, (what, text, want)) in stress::all().into_iter().enumerate() {
        let p = dir.join(format!("stress{i}.mlir"));
        std::fs::write(&p, &text).expect("write module");
        for cmd in ["print", "run"] {
            let out = Command::new("timeout")
                .arg("300")
                .arg(env!("CARGO_BIN_EXE_mlir-interp"))
                .arg(cmd)
                .arg(&p)
                .output()
                .expect("run mlir-interp");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{what}, {cmd}: exit {:?}\n{err}", out.status.code());
            if cmd == "run" {
                assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{what}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
