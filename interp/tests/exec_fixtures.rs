//! End-to-end execution fixtures, run on the built `mlir-interp` binary.
//!
//! - `fixtures/exec/<dialect>/X.mlir`: stdout must equal `X.mlir.out`
//!   byte for byte (`base@ = 0x...` masked). The `.out` files are recorded
//!   from LLVM 22's mlir-runner by `tools/record_exec.sh`, never from us.
//!   Under CI (`CI=true`) or with `MLIR_INTERP_LIVE_ORACLE=1`, each fixture is
//!   also re-run through the real toolchain (the pipeline of
//!   `../shared/tools/oracle.sh`: mlir-opt then mlir-runner of LLVM 22) and
//!   the recording must still match; CI fails if the toolchain is missing.
//! - `fixtures/ub/X.mlir`: the run must exit 1 and stderr must contain every
//!   `// EXPECT-ERROR: <substring>` line.
//!
//! Directives: `// ARGS: <extra run options>`, `// ENTRY: <name>`,
//! `// XFAIL: <reason>` (skipped, reported), and `// NO-ORACLE: <reason>`
//! for a fixture the toolchain cannot lower (its `.out` is hand-derived and
//! explained in the file; the live re-check skips it).
//!
//! `// HOST-LIBM: <functions>` marks a fixture whose output depends on the
//! host's libm: glibc selects its implementation of `sinf`, `expl`, ... by
//! CPU features, and mlir-runner and mlir-interp both call it, so the
//! recording is only exact on the machine that made it. Such a fixture is
//! compared exactly against the live mlir-runner of this machine when the
//! toolchain is there (always under CI), and against its recording within
//! one unit in the last place of every number (see [`within_one_unit`]).

use mlir_interp::cli::EntryResult;
use mlir_interp::differential;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn directive<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("// {key}:");
    text.lines().filter_map(|l| l.trim_start().strip_prefix(prefix.as_str())).map(str::trim).collect()
}

fn run(path: &Path, text: &str) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
    cmd.arg("run");
    for a in directive(text, "ARGS") {
        cmd.args(a.split_whitespace());
    }
    if let Some(e) = directive(text, "ENTRY").first() {
        cmd.args(["-e", e]);
    }
    cmd.arg(path);
    cmd.output().expect("run mlir-interp")
}

/// Replaces the run-dependent pointer in `printMemref` headers (NaN signs
/// still count: recordings are compared byte for byte).
fn mask(s: &str) -> String {
    differential::normalize(s, true)
}

const RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";

/// Runs `path` through mlir-opt and mlir-runner as `oracle.sh` does (the
/// same code as `mlir-interp diff`).
fn oracle(path: &Path, text: &str) -> Result<String, String> {
    let pipeline = directive(text, "PIPELINE").first().map_or(differential::ORACLE_PIPELINE, |s| s);
    let entry = directive(text, "ENTRY").first().copied().unwrap_or("main");
    let tc = differential::Toolchain::default();
    let out = differential::run_reference(
        &tc,
        path,
        pipeline,
        entry,
        EntryResult::Void,
        std::time::Duration::from_secs(120),
    )?;
    if out.status != 0 {
        return Err(out.stderr);
    }
    Ok(out.stdout)
}

#[test]
fn exec_fixtures_match_mlir_runner() {
    let files = fixtures("fixtures/exec");
    assert!(files.len() >= 15, "expected at least 15 execution fixtures, found {}", files.len());
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let live = ci || std::env::var("MLIR_INTERP_LIVE_ORACLE").is_ok_and(|v| v == "1");
    if live && !Path::new(RUNNER).exists() {
        assert!(!ci, "CI needs {RUNNER} (mlir-22-tools) to re-check the recorded outputs");
        eprintln!("skipped live re-check: {RUNNER} not found");
    }
    let live = live && Path::new(RUNNER).exists();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read fixture");
        if let Some(why) = directive(&text, "XFAIL").first() {
            eprintln!("XFAIL {}: {why}", f.display());
            continue;
        }
        let golden_path = PathBuf::from(format!("{}.out", f.display()));
        let Ok(golden) = std::fs::read_to_string(&golden_path) else {
            failures.push(format!("{}: missing {} (run tools/record_exec.sh)", f.display(), golden_path.display()));
            continue;
        };
        let host_libm = !directive(&text, "HOST-LIBM").is_empty();
        let matches =
            |a: &str, b: &str| if host_libm { within_one_unit(&mask(a), &mask(b)) } else { mask(a) == mask(b) };
        let out = run(f, &text);
        let got = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            failures.push(format!(
                "{}: exit {:?}\n{}",
                f.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        } else if !matches(&got, &golden) {
            failures.push(format!("{}: stdout differs\n--- expected\n{golden}--- got\n{got}", f.display()));
        }
        if live && directive(&text, "NO-ORACLE").is_empty() {
            match oracle(f, &text) {
                Ok(now) if host_libm && mask(&now) != mask(&got) => failures.push(format!(
                    "{}: this machine's mlir-runner prints\n{now}--- and mlir-interp prints\n{got}",
                    f.display()
                )),
                Ok(now) if matches(&now, &golden) => {}
                Ok(now) => failures.push(format!("{}: recording is stale; mlir-runner now prints\n{now}", f.display())),
                Err(e) => failures.push(format!("{}: the real toolchain failed: {e}", f.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{} fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

/// A number in printed output, or the text between numbers.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Text(&'a str),
    Int(i128),
    /// The value and the unit of its last printed digit.
    Dec(f64, f64),
}

/// Splits a line into numbers (`-12`, `0.149751`, `8.41471e-01`) and the
/// text around them.
fn tokens(line: &str) -> Vec<Token<'_>> {
    let b = line.as_bytes();
    let (mut out, mut i, mut text) = (Vec::new(), 0, 0);
    while i < b.len() {
        let start = i;
        let digits_at = if b[i] == b'-' { i + 1 } else { i };
        let prev_ok = start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'.');
        if !(prev_ok && digits_at < b.len() && b[digits_at].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let mut j = digits_at;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let mut frac = 0i32;
        if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
                frac += 1;
            }
        }
        let mut exp = 0i32;
        let mut is_dec = frac > 0;
        if j + 2 < b.len() && b[j] == b'e' && (b[j + 1] == b'+' || b[j + 1] == b'-') && b[j + 2].is_ascii_digit() {
            let mut k = j + 2;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            exp = line[j + 1..k].parse().unwrap_or(0);
            is_dec = true;
            j = k;
        }
        let tok = if is_dec {
            line[start..j].parse::<f64>().ok().map(|v| Token::Dec(v, 10f64.powi(exp - frac)))
        } else {
            line[start..j].parse::<i128>().ok().map(Token::Int)
        };
        if let Some(tok) = tok {
            if text < start {
                out.push(Token::Text(&line[text..start]));
            }
            out.push(tok);
            text = j;
        }
        i = j;
    }
    if text < b.len() {
        out.push(Token::Text(&line[text..]));
    }
    out
}

/// Equal but for a difference of one unit in the last place of each number:
/// integers (the bit patterns these fixtures print, where one step is one
/// ulp, and 64-bit halves compared modulo 2^64) within 1, decimals within one
/// unit of their last printed digit. A one-ulp difference in a libm result
/// stays within that; anything else (text, NaN, inf, line count) is exact.
fn within_one_unit(a: &str, b: &str) -> bool {
    let (la, lb): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    la.len() == lb.len()
        && la.iter().zip(&lb).all(|(x, y)| {
            let (tx, ty) = (tokens(x), tokens(y));
            tx.len() == ty.len()
                && tx.iter().zip(&ty).all(|(p, q)| match (p, q) {
                    (Token::Int(p), Token::Int(q)) => {
                        (p - q).abs() <= 1 || ((*p as i64).wrapping_sub(*q as i64)).abs() <= 1
                    }
                    (Token::Dec(p, u), Token::Dec(q, v)) => (p - q).abs() <= u.max(*v) * 1.000001,
                    _ => p == q,
                })
        })
}

#[test]
fn one_unit_tolerance_is_one_unit() {
    assert!(within_one_unit("4611178503362903211, 579546200881654230\n", "4611178503362903211, 579546200881654231\n"));
    assert!(within_one_unit("1, 9223372036854775807\n", "1, -9223372036854775808\n"));
    assert!(!within_one_unit("4611178503362903211, 579546200881654230\n", "4611178503362903211, 579546200881654232\n"));
    assert!(within_one_unit("1, 2\n", "2, 2\n"));
    assert!(within_one_unit("0.149751, -2.1117\n", "0.149752, -2.1118\n"));
    assert!(within_one_unit("8.41471e-01\n", "8.41470e-01\n"));
    assert!(!within_one_unit("8.41471e-01\n", "8.41469e-01\n"));
    assert!(!within_one_unit("0.149751\n", "0.149753\n"));
    assert!(!within_one_unit("nan\n", "-nan\n"));
    assert!(!within_one_unit("( 1, 2 )\n", "( 1, 2, 3 )\n"));
    assert!(!within_one_unit("a\nb\n", "a\n"));
    // Digits inside a word (`f32`, `i64`) are text, compared exactly.
    assert!(!within_one_unit("x1\n", "x2\n"));
    assert_eq!(tokens("f32: -3"), vec![Token::Text("f32: "), Token::Int(-3)]);
}

#[test]
fn ub_fixtures_report_their_error() {
    let files = fixtures("fixtures/ub");
    assert!(!files.is_empty(), "no UB fixtures found");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read fixture");
        if let Some(why) = directive(&text, "XFAIL").first() {
            eprintln!("XFAIL {}: {why}", f.display());
            continue;
        }
        let expected = directive(&text, "EXPECT-ERROR");
        if expected.is_empty() {
            failures.push(format!("{}: no `// EXPECT-ERROR:` line", f.display()));
            continue;
        }
        let out = run(f, &text);
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) {
            failures.push(format!("{}: expected exit 1, got {:?}\n{err}", f.display(), out.status.code()));
        }
        for want in expected {
            if !err.contains(want) {
                failures.push(format!("{}: stderr lacks `{want}`:\n{err}", f.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{} UB fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

/// `--entry-point-result`: the expected bytes were observed from LLVM 22's
/// `mlir-runner -entry-point-result=...` on the same functions (oracle.sh
/// always runs void entries, so these are not recorded by the script).
#[test]
fn entry_point_results_print_like_mlir_runner() {
    let text = "func.func @f() -> f32 {\n  %c = arith.constant 1.5 : f32\n  return %c : f32\n}\n\
                func.func @i() -> i32 {\n  %c = arith.constant -7 : i32\n  return %c : i32\n}\n";
    let path = std::env::temp_dir().join(format!("mlir-interp-entry-{}.mlir", std::process::id()));
    std::fs::write(&path, text).expect("write temp file");
    let go = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("run").args(args).arg(&path).output();
        let out = out.expect("run mlir-interp");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(go(&["-e", "f", "--entry-point-result=f32"]).1, "1.500000e+00\n");
    assert_eq!(go(&["-e", "i", "--entry-point-result=i32"]).1, "-7\n");
    let (code, _, err) = go(&["-e", "i", "--entry-point-result=i64"]);
    assert!(code != Some(0) && err.contains("only single i64 function result supported"), "{err}");
    // Asked for explicitly, void refuses results as mlir-runner does, and
    // says how to get them (without the option they print in MLIR syntax).
    let (code, _, err) = go(&["-e", "f", "--entry-point-result=void"]);
    assert!(code != Some(0) && err.contains("expected void function: --entry-point-result=void"), "{err}");
    assert!(err.contains("--out DIR"), "{err}");
    let (code, _, err) = go(&["-e", "nope"]);
    assert_eq!(code, Some(2), "{err}");
    let _ = std::fs::remove_file(&path);
}
