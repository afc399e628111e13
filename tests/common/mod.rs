//! Helpers shared by the end-to-end tests: where the fixtures are, how to
//! find and run the reference `mlir-opt`, and whether we run in CI (where a
//! missing reference toolchain is a failure, never a skip).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where Debian's `mlir-22-tools` installs the reference toolchain.
pub const MLIR_OPT_DEFAULT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// The repository root (the root package's manifest directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `*.mlir` files directly inside `fixtures/<dir>`, sorted by name.
pub fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(&root().join("fixtures").join(dir), false, &mut out);
    out.sort();
    out
}

/// `*.mlir` files anywhere below `fixtures/<dir>`, sorted by path.
pub fn fixtures_recursive(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(&root().join("fixtures").join(dir), true, &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, recurse: bool, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if recurse {
                collect(&p, true, out);
            }
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

/// The path relative to the repository root, for reports.
pub fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// True when the environment says we run in CI (`CI=true`, as GitHub,
/// GitLab and `.ci/run` set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The reference `mlir-opt`: `$MLIR_OPT` if set, else the Debian path.
/// `None` when absent; the caller then skips, except in CI where it panics.
pub fn mlir_opt() -> Option<PathBuf> {
    let cand = std::env::var_os("MLIR_OPT").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(MLIR_OPT_DEFAULT));
    if cand.is_file() {
        return Some(cand);
    }
    if in_ci() {
        panic!(
            "mlir-opt not found at {} and CI=true: tests against the reference toolchain never skip in CI",
            cand.display()
        );
    }
    println!("skipped: mlir-opt not found");
    None
}

/// What a process printed and how it ended.
pub struct Output {
    /// Exit status was zero.
    pub ok: bool,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `mlir-opt ARGS`, feeding `stdin` if given.
pub fn run_mlir_opt(opt: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(opt);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {}: {e}", opt.display()));
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let text = text.to_owned();
        // Write from a thread so a large input cannot deadlock against a full stdout pipe.
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(text.as_bytes());
        });
        let out = child.wait_with_output().expect("mlir-opt runs");
        let _ = writer.join();
        return Output {
            ok: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
    }
    let out = child.wait_with_output().expect("mlir-opt runs");
    Output {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Removes trailing whitespace of every line and of the whole text: the only
/// normalisation the mlir-opt comparisons allow.
pub fn trim_trailing(s: &str) -> String {
    let mut out: String = s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    let len = out.trim_end().len();
    out.truncate(len);
    out
}

/// The first line of a multi-line message, for one-line report cells.
pub fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Shortens `s` to at most `n` characters for a table cell.
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}
