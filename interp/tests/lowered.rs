//! Every execution fixture at every stage of its lowering to LLVM: the
//! fixture's pipeline (its `// PIPELINE:` line, or `mlir-interp diff`'s
//! default) is applied one pass at a time with the real mlir-opt, and each
//! stage's module is run here. Its output must be the fixture's `.out`
//! (recorded from mlir-runner): a pass may not change what the program
//! prints, and neither may our execution of its output. A stage that uses
//! an op this engine does not execute yet (the LLVM dialect is partial) is
//! counted, not failed; a wrong output always fails. Needs mlir-22-tools;
//! skipped without it except under CI.

use std::path::{Path, PathBuf};
use std::process::Command;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The top-level passes of a pipeline (commas inside `(...)` or `{...}`
/// belong to a nested pipeline or an option list).
fn passes(pipeline: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in pipeline.chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// How one stage ran.
enum Stage {
    /// It printed this (and ended as it did).
    Ran(String),
    /// It uses something not executed (or parsed) yet.
    Unsupported,
    /// It does not parse here (the diagnostic).
    Unreadable(String),
}

/// Runs `entry` of the module in `file` with the binary (its engine thread
/// has the stack deep recursion needs), as a `void` entry.
fn run_here(file: &Path, entry: &str, args: &[&str]) -> Stage {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
    let o = cmd.arg("run").arg(file).args(["-e", entry]).args(args).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    match o.status.code() {
        Some(0) => Stage::Ran(out),
        // The llvm dialect's ops not executed, or custom forms not parsed, yet.
        _ if err.contains("unsupported:") || err.contains("custom syntax of") => Stage::Unsupported,
        Some(2) => Stage::Unreadable(err),
        _ => Stage::Ran(format!("{out}<error: {err}>")),
    }
}

fn directive<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let prefix = format!("// {key}:");
    text.lines().find_map(|l| l.trim_start().strip_prefix(prefix.as_str())).map(str::trim)
}

#[test]
fn every_stage_of_every_lowering_prints_the_same() {
    let there = Path::new(MLIR_OPT).exists();
    assert!(there || std::env::var("CI").as_deref() != Ok("true"), "CI needs mlir-22-tools");
    if !there {
        eprintln!("skipped: mlir-opt not found");
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![root().join("fixtures/exec")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir") {
                files.push(p);
            }
        }
    }
    files.sort();
    let dir = std::env::temp_dir().join(format!("mlir-interp-lowered-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut stages, mut unsupported, mut complete, mut wrong) = (0, Vec::new(), 0, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(want) = std::fs::read_to_string(f.with_extension("mlir.out")) else { continue };
        // Host-dependent output: the fixtures test compares it live.
        if ["HOST-LIBM", "XFAIL"].iter().any(|k| directive(&text, k).is_some()) {
            continue;
        }
        // Expectations derived by hand may be for programs mlir-opt cannot
        // lower (comb, removed ops): those are skipped at their first stage.
        let by_hand = directive(&text, "NO-ORACLE").is_some();
        let args: Vec<&str> = directive(&text, "ARGS").map(|a| a.split_whitespace().collect()).unwrap_or_default();
        let pipeline = directive(&text, "PIPELINE").unwrap_or(mlir_interp::differential::ORACLE_PIPELINE);
        let entry = directive(&text, "ENTRY").unwrap_or("main");
        let mut all_ran = true;
        let list = passes(pipeline);
        for (k, pass) in list.iter().enumerate() {
            // Each stage is the pipeline's prefix run on the fixture (mlir-opt
            // does not always read back what one pass printed).
            let next = dir.join(format!("stage{k}.mlir"));
            let prefix = list[..=k].join(",");
            let o = Command::new(MLIR_OPT)
                .arg(f)
                .arg(format!("--pass-pipeline=builtin.module({prefix})"))
                .arg("-o")
                .arg(&next)
                .output()
                .unwrap();
            if by_hand && !o.status.success() {
                all_ran = false;
                break;
            }
            assert!(o.status.success(), "{} after {pass}: {}", f.display(), String::from_utf8_lossy(&o.stderr));
            stages += 1;
            let mut stage = run_here(&next, entry, &args);
            if let Stage::Unreadable(err) = &stage {
                // mlir-opt does not always read back what it printed (a bare
                // `vector.print` takes the next line's `%0` as its operand):
                // then the stage is run in generic form. If mlir-opt reads
                // it, the fault is our parser's.
                let reread = Command::new(MLIR_OPT).arg(&next).arg("-o").arg("/dev/null").output().unwrap();
                if reread.status.success() {
                    wrong.push(format!("{} after {pass}: mlir-opt reads it, we do not:\n{err}", f.display()));
                    continue;
                }
                let o = Command::new(MLIR_OPT)
                    .arg(f)
                    .arg(format!("--pass-pipeline=builtin.module({prefix})"))
                    .args(["--mlir-print-op-generic", "-o"])
                    .arg(&next)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                stage = run_here(&next, entry, &args);
            }
            match stage {
                Stage::Ran(got) => {
                    let same = mlir_interp::differential::normalize(&got, true)
                        == mlir_interp::differential::normalize(&want, true);
                    if !same {
                        wrong.push(format!("{} after {pass}:\n{got}", f.display()));
                    }
                }
                Stage::Unsupported => {
                    unsupported.push(format!("{} after {pass}", f.display()));
                    all_ran = false;
                }
                Stage::Unreadable(err) => wrong.push(format!("{} after {pass} (generic form):\n{err}", f.display())),
            }
        }
        complete += usize::from(all_ran);
    }
    eprintln!("{stages} stages: {} not executable yet; {complete} fixtures run at every stage", unsupported.len());
    for u in &unsupported {
        eprintln!("  not executable: {u}");
    }
    assert!(wrong.is_empty(), "stages printing something else:\n{}", wrong.join("\n"));
    // The fixtures the llvm slice runs all the way down must stay runnable.
    assert!(complete >= 83, "only {complete} fixtures run at every stage");
}
