//! Differential mode (`mlir-interp diff FILE`): runs FILE through this
//! engine and through the real toolchain (mlir-opt's lowering, then
//! mlir-runner) and reports the first line where their outputs differ, or a
//! difference in how they ended.
//!
//! The comparison ignores what legitimately varies between runs or hosts:
//! the `base@ = 0x…` pointer of `printMemref*` headers, and the sign of a
//! printed NaN (x86 prints `-nan` for computed NaNs; see the book, "Floats") unless
//! `--nan-exact` is given.

use crate::driver::{print_result, EntryResult};
use crate::exec::{Config, Engine};
use mlir_ir::diag::Source;
use std::path::Path;
use std::process::Command;

/// The reference lowering of `diff` and `fuzz --diff` when a file has no
/// `// PIPELINE:` line: every dialect this engine runs, down to LLVM.
/// It leaves out `normalize-memrefs`, which miscompiles strided views
/// that escape to unranked memrefs
/// (`fixtures/found/normalize_memrefs_reinterpret_cast.mlir`): a
/// reference must not change what the program means.
pub const DEFAULT_PIPELINE: &str = "lower-affine,convert-complex-to-standard,\
convert-vector-to-scf,convert-scf-to-cf,expand-strided-metadata,convert-vector-to-llvm,\
finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-complex-to-llvm,\
convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,\
reconcile-unrealized-casts";

/// The lowering `../shared/tools/oracle.sh` uses, with which the exec
/// fixtures' expected outputs were recorded: [`DEFAULT_PIPELINE`] after
/// `normalize-memrefs` (which those fixtures with non-strided layout maps
/// need to lower at all).
pub const ORACLE_PIPELINE: &str = "normalize-memrefs,lower-affine,convert-complex-to-standard,\
convert-vector-to-scf,convert-scf-to-cf,expand-strided-metadata,convert-vector-to-llvm,\
finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-complex-to-llvm,\
convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,\
reconcile-unrealized-casts";

/// `diff`'s exit status when the program has undefined behaviour here:
/// its output is not defined, so no comparison is possible (neither
/// "same" nor a disagreement).
pub const EXIT_SOURCE_UB: i32 = 4;

/// Where the reference toolchain lives.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// `mlir-opt`.
    pub mlir_opt: String,
    /// `mlir-runner`.
    pub mlir_runner: String,
    /// The runtime libraries, comma-separated, for `-shared-libs`.
    pub shared_libs: String,
}

impl Default for Toolchain {
    /// LLVM 22 as Debian's `mlir-22-tools` installs it; `$MLIR_OPT`,
    /// `$MLIR_RUNNER` and `$MLIR_RUNNER_LIBS` override the paths.
    fn default() -> Self {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let lib = "/usr/lib/llvm-22/lib";
        Toolchain {
            mlir_opt: env("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt"),
            mlir_runner: env("MLIR_RUNNER", "/usr/lib/llvm-22/bin/mlir-runner"),
            shared_libs: env(
                "MLIR_RUNNER_LIBS",
                &format!("{lib}/libmlir_runner_utils.so.22.1,{lib}/libmlir_c_runner_utils.so.22.1"),
            ),
        }
    }
}

/// How one side of the comparison ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Standard output.
    pub stdout: String,
    /// Exit status (0 success).
    pub status: i32,
    /// Diagnostics, for the report.
    pub stderr: String,
    /// The run ended in undefined behaviour (ours only: the reference
    /// cannot tell).
    pub ub: bool,
}

/// Runs `entry` of `src` in this engine, capturing what it prints.
pub fn run_ours(src: &Source, cfg: Config, entry: &str, res: EntryResult) -> Outcome {
    run_ours_lang(src, mlir_ir::Lang::Modern, cfg, entry, res)
}

/// [`run_ours`] of `src` written in `lang`.
pub fn run_ours_lang(src: &Source, lang: mlir_ir::Lang, cfg: Config, entry: &str, res: EntryResult) -> Outcome {
    let m = match mlir_ir::parse_and_verify_lang(src, &crate::driver::limits(), lang) {
        Ok(m) => m,
        Err(d) => return Outcome { stdout: String::new(), status: 2, stderr: d.render(src), ub: false },
    };
    let c = cfg.clone();
    let go = || {
        let mut buf = Vec::new();
        let r = match Engine::load(&m, cfg, Box::new(&mut buf)) {
            Ok(mut e) => {
                let r = e.run_entry(entry).and_then(|vals| print_result(&mut e, entry, &vals, res));
                drop(e);
                r
            }
            Err(err) => Err(err),
        };
        let stdout = String::from_utf8_lossy(&buf).into_owned();
        match r {
            Ok(()) => Outcome { stdout, status: 0, stderr: String::new(), ub: false },
            Err(err) => {
                use crate::error::ErrorKind as K;
                let ub = matches!(err.kind, K::Ub(_) | K::MemUb { .. } | K::Poison { .. } | K::NoDefinedResult(_));
                Outcome { stdout, status: err.exit_code(), stderr: err.render(&m, src), ub }
            }
        }
    };
    crate::driver::on_engine_thread(&c, go).unwrap_or_else(|e| {
        let (status, stderr) = e.report();
        Outcome { stdout: String::new(), status, stderr, ub: false }
    })
}

/// Lowers `file` with `pipeline` into `out` with mlir-opt; `Err` says why
/// it could not (mlir-opt missing, or it rejected the file).
pub fn lower(tc: &Toolchain, file: &Path, pipeline: &str, out: &Path) -> Result<(), String> {
    let opt = Command::new(&tc.mlir_opt)
        .arg(file)
        .arg(format!("--pass-pipeline=builtin.module({pipeline})"))
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tc.mlir_opt))?;
    if !opt.status.success() {
        let _ = std::fs::remove_file(out);
        return Err(format!("mlir-opt failed to lower the file:\n{}", String::from_utf8_lossy(&opt.stderr)));
    }
    Ok(())
}

/// Lowers `file` with `pipeline` and runs it with mlir-runner. `Err` means
/// the toolchain itself could not be used (missing, or it rejected the file).
pub fn run_reference(
    tc: &Toolchain,
    file: &Path,
    pipeline: &str,
    entry: &str,
    res: EntryResult,
    timeout: std::time::Duration,
) -> Result<Outcome, String> {
    // Unique per call: a fuzz campaign lowers several programs at once.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let lowered = std::env::temp_dir().join(format!("mlir-interp-diff-{}-{n}.mlir", std::process::id()));
    lower(tc, file, pipeline, &lowered)?;
    let result = match res {
        EntryResult::Void => "void",
        EntryResult::I32 => "i32",
        EntryResult::I64 => "i64",
        EntryResult::F32 => "f32",
    };
    let mut cmd = Command::new(&tc.mlir_runner);
    cmd.args(["-e", entry, &format!("-entry-point-result={result}")])
        .arg(format!("-shared-libs={}", tc.shared_libs))
        .arg(&lowered);
    let run = run_bounded(cmd, timeout).map_err(|e| format!("{}: {e}; the comparison is unusable", tc.mlir_runner));
    let _ = std::fs::remove_file(&lowered);
    let (status, stdout, stderr) = run?;
    // mlir-runner's own failures (the JIT could not compile or link the
    // module) say nothing about the program: the comparison is unusable.
    let refused = status.is_some_and(|c| c != 0)
        && stderr.lines().any(|l| l.starts_with("Error:") || l.contains("could not parse the input IR"));
    if refused {
        return Err(format!("mlir-runner could not run the lowered module:\n{stderr}"));
    }
    Ok(Outcome { stdout, status: status.unwrap_or(1), stderr, ub: false })
}

/// Runs `cmd` to its end or for at most `timeout` (a lowered program with
/// undefined behaviour can hang, even in the JIT's crash handler); returns
/// its exit code (`None` when a signal ended it), stdout and stderr.
pub(crate) fn run_bounded(
    mut cmd: Command,
    timeout: std::time::Duration,
) -> Result<(Option<i32>, String, String), String> {
    use std::io::Read;
    use std::process::Stdio;
    let mut child =
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| format!("cannot run: {e}"))?;
    // Both pipes drain on their own threads, so a chatty program cannot
    // block on a full pipe while we wait.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = drain(child.stdout.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let deadline = std::time::Instant::now() + timeout;
    let status = loop {
        match child.try_wait().map_err(|e| format!("cannot wait: {e}"))? {
            Some(st) => break st,
            None if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("did not finish within {} s (--timeout)", timeout.as_secs_f64()));
            }
            None => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    };
    let (stdout, stderr) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    Ok((status.code(), stdout, stderr))
}

/// The line as compared: pointer masked, NaN sign dropped unless `nan_exact`.
pub fn normalize(line: &str, nan_exact: bool) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("base@ = 0x") {
        out.push_str(&rest[..i + "base@ = 0x".len()]);
        rest = rest[i + "base@ = 0x".len()..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
        out.push_str("<ptr>");
    }
    out.push_str(rest);
    if nan_exact {
        out
    } else {
        out.replace("-nan", "nan")
    }
}

/// The first difference between two outcomes, described; `None` if they agree.
pub fn first_difference(ours: &Outcome, theirs: &Outcome, nan_exact: bool) -> Option<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.stdout.lines().collect(), theirs.stdout.lines().collect());
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i), b.get(i));
        if x.map(|l| normalize(l, nan_exact)) != y.map(|l| normalize(l, nan_exact)) {
            let show = |l: Option<&&str>| l.map_or("<no more output>".to_string(), |l| l.to_string());
            return Some(format!(
                "first difference at output line {}:\n  mlir-interp: {}\n  mlir-runner: {}\n",
                i + 1,
                show(x),
                show(y)
            ));
        }
    }
    if (ours.status == 0) != (theirs.status == 0) {
        return Some(format!(
            "same output, but mlir-interp exited {} and mlir-runner exited {}\n{}{}",
            ours.status, theirs.status, ours.stderr, theirs.stderr
        ));
    }
    None
}

/// `mlir-interp diff`: exit 0 when both agree, 1 on a difference, 2 when
/// the file or the toolchain cannot be used, [`EXIT_SOURCE_UB`] when the
/// program has undefined behaviour (there is nothing to compare). A file in the 2019 language
/// (`lang`, or detected) runs here as written and in LLVM as the modern
/// form `print --lang 2019` makes of it.
#[allow(clippy::too_many_arguments)]
pub fn main(
    file: &str,
    lang: Option<mlir_ir::Lang>,
    pipeline: Option<String>,
    entry: &str,
    res: EntryResult,
    nan_exact: bool,
    cfg: Config,
    timeout: std::time::Duration,
) -> i32 {
    let src = match crate::driver::read_source(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if file == "-" {
        eprintln!("error: diff needs a file: mlir-opt reads it too");
        return 2;
    }
    let pipeline = pipeline
        .or_else(|| src.text.lines().find_map(|l| l.trim().strip_prefix("// PIPELINE:").map(|p| p.trim().to_string())))
        .unwrap_or_else(|| DEFAULT_PIPELINE.to_string());
    let (lang, note) = crate::driver::language(&src, lang);
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let ours = run_ours_lang(&src, lang, cfg, entry, res);
    if ours.status == 2 {
        eprint!("{}", ours.stderr);
        return 2;
    }
    if ours.ub {
        println!(
            "no comparison: the program has undefined behavior, so its output is not defined \
             (mlir-runner may print anything; mlir-interp printed {} line(s) before it):",
            ours.stdout.lines().count()
        );
        print!("{}", ours.stderr);
        return EXIT_SOURCE_UB;
    }
    // mlir-opt reads today's syntax: give it the translation of a 2019 file.
    let modern = (lang == mlir_ir::Lang::Y2019).then(|| {
        let m = mlir_ir::parse_and_verify_lang(&src, &crate::driver::limits(), lang).ok()?;
        let path = std::env::temp_dir().join(format!("mlir-interp-diff-2019-{}.mlir", std::process::id()));
        std::fs::write(&path, mlir_ir::printer::GenericPrinter::new(&m).print()).ok()?;
        Some(path)
    });
    let reference_input = match &modern {
        Some(Some(p)) => p.clone(),
        Some(None) => {
            eprintln!("error: cannot write the modern form of {file} for mlir-opt");
            return 2;
        }
        None => Path::new(file).to_path_buf(),
    };
    let theirs = run_reference(&Toolchain::default(), &reference_input, &pipeline, entry, res, timeout);
    if let Some(Some(p)) = &modern {
        let _ = std::fs::remove_file(p);
    }
    let theirs = match theirs {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let report = first_difference(&ours, &theirs, nan_exact);
    let r = match &report {
        None => {
            println!(
                "same output: {} line(s); both exited {}",
                ours.stdout.lines().count(),
                if ours.status == 0 { "successfully" } else { "with an error" }
            );
            0
        }
        Some(d) => {
            print!("{d}");
            1
        }
    };
    // Where our side failed, say why (unless the report quoted it).
    if ours.status != 0 && !report.is_some_and(|d| d.contains(&ours.stderr)) {
        print!("mlir-interp's run ended with:\n{}", ours.stderr);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(s: &str, status: i32) -> Outcome {
        Outcome { stdout: s.into(), status, stderr: String::new(), ub: false }
    }

    #[test]
    fn reports_the_first_differing_line() {
        let d = first_difference(&out("1\n2\n3\n", 0), &out("1\n2\n4\n", 0), false).unwrap();
        assert!(d.contains("line 3") && d.contains("mlir-interp: 3") && d.contains("mlir-runner: 4"), "{d}");
        let d = first_difference(&out("1\n", 0), &out("1\n2\n", 0), false).unwrap();
        assert!(d.contains("line 2") && d.contains("<no more output>"), "{d}");
    }

    #[test]
    fn pointers_and_nan_signs_are_not_differences() {
        let a = out("Unranked Memref base@ = 0x55d0 rank = 0\n( nan, 1 )\n", 0);
        let b = out("Unranked Memref base@ = 0x7fff rank = 0\n( -nan, 1 )\n", 0);
        assert_eq!(first_difference(&a, &b, false), None);
        assert!(first_difference(&a, &b, true).is_some());
    }

    #[test]
    fn exit_status_counts() {
        assert!(first_difference(&out("", 1), &out("", 0), false).unwrap().contains("exited 1"));
    }
}
