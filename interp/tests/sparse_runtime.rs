//! The sparse tensor runtime library (`interp/src/sparse_runtime.rs`) on
//! the programs LLVM 22's sparsifier makes.
//!
//! `fixtures/sparse_runtime/NAME.mlir` is `src/NAME.mlir` lowered by
//! `mlir-opt --sparsifier` (our parser does not read the sparse_tensor
//! dialect yet), and `NAME.mlir.out` what mlir-runner printed for it; both
//! come from `tools/record_sparse.sh`, never from us. Each runs through
//! `mlir-interp runner` with its `// ENV: VAR=VALUE` lines set (a relative
//! VALUE names a file under `fixtures/sparse_runtime`); stdout must equal
//! the recording (`base@ = 0x...` masked), or, for a fixture with
//! `// EXPECT-ERROR:` lines, the run must exit 1 with each in its stderr.
//! Under CI (`CI=true`) or with `MLIR_INTERP_LIVE_ORACLE=1`, each lowered
//! program is also re-run through mlir-runner, which must still print the
//! recording (or fail, for the error fixtures). The undefined-behaviour
//! fixtures are `fixtures/ub/sparse_*.mlir` (checked with the others).

use mlir_interp::differential;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";
const LIBS: &str =
    "/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sparse_runtime")
}

fn directive<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("// {key}:");
    text.lines().filter_map(|l| l.strip_prefix(prefix.as_str())).map(str::trim).collect()
}

/// The fixture's environment: `TENSOR<n>` variables naming its data files.
fn env_of(text: &str) -> Vec<(String, String)> {
    directive(text, "ENV")
        .into_iter()
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let v =
                if v.is_empty() || v.starts_with('/') { v.to_string() } else { dir().join(v).display().to_string() };
            (k.to_string(), v)
        })
        .collect()
}

/// `cmd` with no `TENSOR<n>` inherited, then the fixture's variables.
fn with_env(mut cmd: Command, text: &str) -> Output {
    for (k, _) in std::env::vars() {
        if k.starts_with("TENSOR") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(env_of(text));
    cmd.output().expect("run")
}

fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("fixtures/sparse_runtime")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    v.sort();
    v
}

/// The recording (bytes: an `int8_t` written by the runtime prints as its
/// character, which need not be UTF-8).
fn golden(f: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(format!("{}.out", f.display())).unwrap_or_default()).into_owned()
}

/// Byte for byte, except the run-dependent `base@ = 0x...` of printed
/// memrefs (masked where the recording has one).
fn same_output(got: &[u8], f: &Path) -> bool {
    let want = std::fs::read(format!("{}.out", f.display())).unwrap_or_default();
    let lossy = |b: &[u8]| differential::normalize(&String::from_utf8_lossy(b), true);
    got == want.as_slice() || (want.windows(6).any(|w| w == b"base@ ") && lossy(got) == lossy(&want))
}

#[test]
fn sparse_runtime_fixtures_match_mlir_runner() {
    let files = fixtures();
    assert!(files.len() >= 8, "expected the sparse runtime fixtures, found {}", files.len());
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let live = ci || std::env::var("MLIR_INTERP_LIVE_ORACLE").is_ok_and(|v| v == "1");
    assert!(!ci || Path::new(RUNNER).exists(), "CI needs {RUNNER} (mlir-22-tools)");
    let live = live && Path::new(RUNNER).exists();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read fixture");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
        cmd.args(["runner", "-e", "main", "-entry-point-result=void"]).arg(f);
        let out = with_env(cmd, &text);
        let (got, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let expected = directive(&text, "EXPECT-ERROR");
        if !expected.is_empty() {
            if out.status.code() != Some(1) {
                failures.push(format!("{}: expected exit 1, got {:?}\n{err}", f.display(), out.status.code()));
            }
            for want in expected {
                if !err.contains(want) {
                    failures.push(format!("{}: stderr lacks `{want}`:\n{err}", f.display()));
                }
            }
        } else {
            let golden = golden(f);
            if !out.status.success() {
                failures.push(format!("{}: exit {:?}\n{err}", f.display(), out.status.code()));
            } else if !same_output(&out.stdout, f) {
                failures.push(format!("{}: stdout differs\n--- expected\n{golden}--- got\n{got}", f.display()));
            }
        }
        if live {
            let mut cmd = Command::new(RUNNER);
            cmd.args(["-e", "main", "-entry-point-result=void", &format!("-shared-libs={LIBS}")]).arg(f);
            let now = with_env(cmd, &text);
            let errs = !directive(&text, "EXPECT-ERROR").is_empty();
            if errs && now.status.success() {
                failures.push(format!("{}: mlir-runner no longer fails", f.display()));
            }
            let golden = golden(f);
            let now = String::from_utf8_lossy(&now.stdout);
            if !errs && differential::normalize(&now, true) != differential::normalize(&golden, true) {
                failures.push(format!("{}: mlir-runner now prints\n{now}", f.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{} sparse runtime fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

/// The sources whose every op runs directly (no sparsifier): run as
/// written, each prints what LLVM 22 printed for its lowered form with the
/// runtime library (`read_files_codegen` is left out on purpose: its file
/// repeats coordinates, and the codegen path keeps another duplicate than
/// the runtime, whose choice direct execution follows).
const DIRECT: &[&str] = &["assemble", "encodings", "formats", "rand", "read_files", "read_types"];

#[test]
fn sources_run_directly_print_the_recording() {
    let mut failures = Vec::new();
    for name in DIRECT {
        let lowered = dir().join(format!("{name}.mlir"));
        let text = std::fs::read_to_string(&lowered).expect("read fixture");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
        cmd.arg("run").arg(dir().join("src").join(format!("{name}.mlir")));
        let out = with_env(cmd, &text);
        if !out.status.success() {
            failures.push(format!("{name}: exit {:?}\n{}", out.status.code(), String::from_utf8_lossy(&out.stderr)));
        } else if !same_output(&out.stdout, &lowered) {
            let got = String::from_utf8_lossy(&out.stdout);
            failures.push(format!("{name}: stdout differs\n--- expected\n{}--- got\n{got}", golden(&lowered)));
        }
    }
    assert!(failures.is_empty(), "{} direct run(s) failed:\n{}", failures.len(), failures.join("\n"));
}
