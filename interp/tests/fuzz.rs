//! `mlir-interp fuzz` campaigns against deliberately wrong optimizers
//! (shell scripts, so no LLVM is needed): failures are found, kept with
//! their seed and report, reduced and bucketed; a correct optimizer gives
//! none; shards of a seed range merge into one summary.

use std::path::Path;
use std::process::Command;

#[path = "common/scripts.rs"]
mod scripts;
use scripts::{scratch, script};

/// Names this suite's scratch directories.
const SUITE: &str = "fuzz";

fn fuzz(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("fuzz").args(args).output().expect("run");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_wrong_optimizer_is_caught_reduced_and_bucketed() {
    let d = scratch(SUITE, "wrong");
    // Turns every xori into ori: wrong whenever both operands have a 1 bit
    // in common.
    let opt = script(&d, "bad.sh", "for f; do :; done\nsed 's/arith.xori/arith.ori/g' \"$f\"");
    let out = d.join("results");
    let (code, stdout, stderr) = fuzz(&[
        "--passes",
        "cse",
        "--opt",
        &opt,
        "--seeds",
        "0..24",
        "--kind",
        "int",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.starts_with("fuzz: 24 programs in "), "{stdout}");
    let summary = std::fs::read_to_string(out.join("summary-0-24.tsv")).expect("summary");
    let rows: Vec<&str> = summary.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!rows.is_empty(), "{summary}");
    for row in &rows {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols[2], "MISCOMPILE", "{row}");
        assert_eq!(cols[3], "cse", "the only pass: {row}");
        assert!(cols[4].contains("arith.xori"), "the reduced program still has the xori: {row}");
        let seed = cols[0];
        let reduced = std::fs::read_to_string(out.join(format!("seed-{seed}.reduced.mlir"))).expect("reduced");
        let original = std::fs::read_to_string(out.join(format!("seed-{seed}.mlir"))).expect("original");
        assert!(reduced.lines().count() < original.lines().count(), "{reduced}");
        // It carries its entry and failing input: it re-checks alone.
        let path = out.join(format!("seed-{seed}.reduced.mlir"));
        let again = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
            .args(["passcheck", path.to_str().unwrap(), "--passes", "cse", "--opt", &opt])
            .output()
            .expect("run");
        assert_eq!(again.status.code(), Some(1), "{reduced}\n{}", String::from_utf8_lossy(&again.stdout));
        let report = std::fs::read_to_string(out.join(format!("seed-{seed}.txt"))).expect("report");
        assert!(report.contains(&format!("mlir-interp gen --seed {seed} --kind int")) && report.contains("MISCOMPILE"));
    }
    assert!(summary.contains("# programs\t24\t"), "{summary}");
    assert!(!out.join("work").exists(), "the work directory is cleaned up");
}

#[test]
fn a_correct_optimizer_gives_no_failures_and_shards_merge() {
    let d = scratch(SUITE, "ok");
    let opt = script(&d, "id.sh", "for f; do :; done\ncat \"$f\"");
    let (a, b) = (d.join("a"), d.join("b"));
    for (dir, seeds) in [(&a, "0..10"), (&b, "10..20")] {
        let (code, stdout, stderr) =
            fuzz(&["--passes", "cse", "--opt", &opt, "--seeds", seeds, "--out", dir.to_str().unwrap(), "--jobs", "2"]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("0 failures"), "{stdout}");
    }
    let (code, stdout, _) = fuzz(&["--merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("fuzz: 2 shard(s), 20 programs"), "{stdout}");
    let (code, _, stderr) = fuzz(&["--passes", "cse", "--seeds", "5..5"]);
    assert_eq!(code, 2, "{stderr}");
}

/// An optimizer that fails on a valid program is a compiler bug: kept as
/// `OPT-FAIL`, bucketed by its first error.
#[test]
fn optimizer_failures_are_kept() {
    let d = scratch(SUITE, "crash");
    let opt = script(&d, "fail.sh", "for f; do :; done\nif grep -q arith.divsi \"$f\"; then echo \"$f:3:4: error: cannot fold 42\" >&2; exit 1; fi\ncat \"$f\"");
    let out = d.join("r");
    let (code, stdout, _) =
        fuzz(&["--passes", "cse", "--opt", &opt, "--seeds", "0..16", "--kind", "int", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("OPT-FAIL  pass -  error: cannot fold #"), "{stdout}");
}

/// On a terminal a progress line shows programs, failures and the rate
/// (run under util-linux `script`, which gives it a pseudo-terminal;
/// skipped without it, except under CI).
#[test]
fn progress_shows_on_a_terminal() {
    let there = Command::new("script").arg("--version").output().is_ok_and(|o| o.status.success());
    if !there {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI needs util-linux's script");
        eprintln!("skipped: script not found");
        return;
    }
    let d = scratch(SUITE, "tty");
    let opt = script(&d, "id.sh", "for f; do :; done\ncat \"$f\"");
    let bin = env!("CARGO_BIN_EXE_mlir-interp");
    let out = d.join("r");
    let cmd = format!("{bin} fuzz --passes cse --opt {opt} --seeds 0..6 --kind int --jobs 1 --out {}", out.display());
    let st = Command::new("script").args(["-qec", &cmd, "/dev/null"]).output().expect("script");
    let text = String::from_utf8_lossy(&st.stdout);
    assert!(st.status.success(), "{text}");
    assert!(text.contains("fuzz: 6/6 programs, 0 failures, ") && text.contains(" programs/s"), "{text}");
    // Without a terminal there is only the summary.
    let quiet = d.join("q");
    let (_, stdout, _) = fuzz(&[
        "--passes",
        "cse",
        "--opt",
        &opt,
        "--seeds",
        "0..2",
        "--kind",
        "int",
        "--jobs",
        "1",
        "--out",
        quiet.to_str().unwrap(),
    ]);
    assert!(!stdout.contains("/2 programs"), "{stdout}");
}

/// Shards under GNU parallel, as the book documents (docs/src/guide/fuzz.md), merge into one
/// campaign (skipped without `parallel`, except under CI).
#[test]
fn shards_run_under_gnu_parallel() {
    let there = Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    if !there {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI needs GNU parallel");
        eprintln!("skipped: GNU parallel not found");
        return;
    }
    let d = scratch(SUITE, "parallel");
    let opt = script(&d, "bad.sh", "for f; do :; done\nsed 's/arith.xori/arith.ori/g' \"$f\"");
    let bin = env!("CARGO_BIN_EXE_mlir-interp");
    let results = d.join("results");
    // The book's command: one shard of 8 seeds per job, each its own directory.
    let cmd = format!(
        "parallel --jobs 2 '{bin} fuzz --passes cse --opt {opt} --kind int --jobs 1 --seeds {{}}..$(({{}}+8)) --out {}/shard-{{}}' ::: 0 8 16",
        results.display()
    );
    let st = Command::new("bash").arg("-c").arg(&cmd).output().expect("parallel");
    // A shard with failures exits 1, so parallel reports how many did.
    assert!(st.status.code().is_some_and(|c| c <= 3), "{}", String::from_utf8_lossy(&st.stderr));
    let shards: Vec<String> =
        ["0", "8", "16"].iter().map(|s| results.join(format!("shard-{s}")).display().to_string()).collect();
    let (code, stdout, stderr) =
        fuzz(&[&["--merge"], &shards.iter().map(String::as_str).collect::<Vec<_>>()[..]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("fuzz: 3 shard(s), 24 programs"), "{stdout}");
    assert!(stdout.contains("MISCOMPILE  pass cse"), "{stdout}");
}

/// `--diff` against mlir-runner with several jobs: each lowering gets its
/// own file (two jobs once shared one and compared each other's programs).
/// Skipped without mlir-22-tools, except under CI.
#[test]
fn diff_runs_in_parallel() {
    if !Path::new("/usr/lib/llvm-22/bin/mlir-runner").exists() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI needs mlir-22-tools");
        eprintln!("skipped: mlir-runner not found");
        return;
    }
    let d = scratch(SUITE, "diff");
    let opt = script(&d, "id.sh", "for f; do :; done\ncat \"$f\"");
    let out = d.join("r");
    let (code, stdout, stderr) = fuzz(&[
        "--passes",
        "cse",
        "--opt",
        &opt,
        "--seeds",
        "0..12",
        "--kind",
        "int",
        "--diff",
        "--jobs",
        "2",
        "--inputs",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("12 programs") && stdout.contains("0 failures"), "{stdout}");
}
