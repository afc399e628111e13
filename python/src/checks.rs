//! `passcheck` (does a pass pipeline keep a program's meaning?) and
//! `diff` (does LLVM's lowering and mlir-runner print what this engine
//! prints?) with structured verdicts: the library's judgements, not the
//! CLI's report parsed back. Both run with the GIL released (they wait on
//! mlir-opt and mlir-runner).

use crate::errors::Error;
use interp::differential::{self, Toolchain};
use interp::passcheck::{self as check, Verdict as LibVerdict};
use pyo3::prelude::*;

/// The judgement of the optimized program on one input.
#[pyclass(frozen, get_all, module = "mlir_interp")]
#[derive(Clone, Debug)]
struct Verdict {
    /// `"same"`, `"refines"`, `"miscompile"`, `"inconclusive"` or `"unusable"`.
    kind: String,
    /// Why (empty for `"same"`): for a miscompile, the first differing
    /// output line or result, or how the endings differ.
    reason: String,
    /// The input, as `--arg` texts.
    args: Vec<String>,
    /// What the source program printed on it.
    source_output: String,
}

#[pymethods]
impl Verdict {
    fn __repr__(&self) -> String {
        format!("Verdict({:?}, args={:?})", self.kind, self.args)
    }
}

/// The verdicts of `passcheck`, one per input.
#[pyclass(frozen, get_all, module = "mlir_interp")]
struct PasscheckResult {
    /// One per input.
    verdicts: Vec<Verdict>,
    /// `"3 same, 1 refines"`.
    summary: String,
}

#[pymethods]
impl PasscheckResult {
    /// Whether some input miscompiles.
    #[getter]
    fn miscompiled(&self) -> bool {
        self.verdicts.iter().any(|v| v.kind == "miscompile")
    }

    /// The first miscompiled input's verdict, if any.
    #[getter]
    fn first_miscompile(&self) -> Option<Verdict> {
        self.verdicts.iter().find(|v| v.kind == "miscompile").cloned()
    }

    fn __repr__(&self) -> String {
        format!("<PasscheckResult {}>", self.summary)
    }
}

/// A program's text in a file of its own (mlir-opt reads files), removed on drop.
struct Written(std::path::PathBuf);

impl Written {
    /// `text_or_path` as a file: the path itself, or the text written to one.
    fn new(text_or_path: &Bound<'_, PyAny>) -> PyResult<(Written, String, bool)> {
        let (text, name) = crate::source_of(text_or_path)?;
        if name != "<string>" {
            return Ok((Written(name.into()), text, false));
        }
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("mlir-interp-py-{}-{n}.mlir", std::process::id()));
        std::fs::write(&p, &text)
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("cannot write {}: {e}", p.display())))?;
        Ok((Written(p), text, true))
    }
}

/// The temporary file, when there is one.
struct Temp(Option<std::path::PathBuf>);

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(p) = &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Seconds as a duration.
fn seconds(s: f64) -> PyResult<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(s).map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("{s}: {e}")))
}

/// Checks that `passes` (run by mlir-opt, or by the command `opt`) keep
/// the meaning of the program: its `entry` runs before and after on
/// `args` (or on `inputs` random input sets) and each input gets a
/// verdict by refinement.
#[pyfunction]
#[pyo3(signature = (text_or_path, passes = None, opt = None, *, entry = None, args = None, inputs = 8, seed = 0, nan_exact = false, max_steps = None, timeout = 10.0, opt_timeout = 120.0))]
#[allow(clippy::too_many_arguments)]
fn passcheck(
    py: Python<'_>,
    text_or_path: &Bound<'_, PyAny>,
    passes: Option<String>,
    opt: Option<String>,
    entry: Option<String>,
    args: Option<Vec<String>>,
    inputs: usize,
    seed: u64,
    nan_exact: bool,
    max_steps: Option<u64>,
    timeout: f64,
    opt_timeout: f64,
) -> PyResult<PasscheckResult> {
    let (file, text, temporary) = Written::new(text_or_path)?;
    let _cleanup = Temp(temporary.then(|| file.0.clone()));
    let named = check::file_input(&text).map_err(Error::new_err)?;
    let o = check::Options {
        file: file.0.display().to_string(),
        passes,
        opt,
        entry: entry.or(named.entry).unwrap_or_else(|| "main".to_string()),
        args: args.unwrap_or(named.args),
        inputs: inputs.max(1),
        seed,
        each_pass: false,
        nan_exact,
        ir_dir: None,
        opt_timeout: seconds(opt_timeout)?,
        cfg: interp::Config { max_steps, timeout: Some(seconds(timeout)?), ..interp::Config::default() },
    };
    let checked = py.detach(|| check::run_check(&o)).map_err(|e| Error::new_err(e.trim_end().to_string()))?;
    let verdicts = checked
        .inputs
        .iter()
        .zip(&checked.stage.verdicts)
        .zip(&checked.source)
        .map(|((args, v), s)| {
            let (kind, reason) = match v {
                LibVerdict::Same => ("same", String::new()),
                LibVerdict::Refines(r) => ("refines", r.clone()),
                LibVerdict::Miscompile(r) => ("miscompile", r.clone()),
                LibVerdict::Inconclusive(r) => ("inconclusive", r.clone()),
                LibVerdict::Unusable(r) => ("unusable", r.clone()),
            };
            Verdict { kind: kind.to_string(), reason, args: args.clone(), source_output: s.stdout.clone() }
        })
        .collect();
    Ok(PasscheckResult { verdicts, summary: checked.stage.tally() })
}

/// What `diff` found.
#[pyclass(frozen, get_all, module = "mlir_interp")]
struct DiffResult {
    /// `"same"`, `"differ"`, or `"undefined"` (the program has undefined
    /// behaviour here, so there is nothing to compare).
    verdict: String,
    /// The first differing output line (or how the endings differ).
    first_difference: Option<String>,
    /// What mlir-interp printed.
    interp_output: String,
    /// What mlir-runner printed.
    runner_output: String,
    /// mlir-interp's diagnostic, if its run failed.
    interp_error: String,
}

#[pymethods]
impl DiffResult {
    fn __repr__(&self) -> String {
        format!("<DiffResult {}>", self.verdict)
    }
}

/// Runs `entry` here and through mlir-opt's lowering (`pipeline`, or the
/// file's `// PIPELINE:` line, or the default) and mlir-runner, and
/// compares what they print.
#[pyfunction]
#[pyo3(signature = (text_or_path, entry = "main", pipeline = None, *, nan_exact = false, max_steps = None, timeout = 60.0))]
fn diff(
    py: Python<'_>,
    text_or_path: &Bound<'_, PyAny>,
    entry: &str,
    pipeline: Option<String>,
    nan_exact: bool,
    max_steps: Option<u64>,
    timeout: f64,
) -> PyResult<DiffResult> {
    let (file, text, temporary) = Written::new(text_or_path)?;
    let _cleanup = Temp(temporary.then(|| file.0.clone()));
    let pipeline = pipeline
        .or_else(|| text.lines().find_map(|l| l.trim().strip_prefix("// PIPELINE:").map(|p| p.trim().to_string())))
        .unwrap_or_else(|| differential::DEFAULT_PIPELINE.to_string());
    let cfg = interp::Config { max_steps, ..interp::Config::default() };
    let limit = seconds(timeout)?;
    let src = interp::mlir_ir::diag::Source::new(file.0.display().to_string(), text.as_str());
    let void = interp::cli::EntryResult::Void;
    let ours = py.detach(|| differential::run_ours(&src, cfg, entry, void));
    if ours.status == interp::cli::EXIT_INPUT {
        return Err(crate::errors::InvalidIR::new_err(ours.stderr.trim_end().to_string()));
    }
    let base = |verdict: &str, first: Option<String>, runner: String| DiffResult {
        verdict: verdict.to_string(),
        first_difference: first,
        interp_output: ours.stdout.clone(),
        runner_output: runner,
        interp_error: ours.stderr.clone(),
    };
    if ours.ub {
        return Ok(base("undefined", None, String::new()));
    }
    let theirs = py
        .detach(|| differential::run_reference(&Toolchain::default(), &file.0, &pipeline, entry, void, limit))
        .map_err(Error::new_err)?;
    Ok(match differential::first_difference(&ours, &theirs, nan_exact) {
        None => base("same", None, theirs.stdout),
        Some(d) => base("differ", Some(d), theirs.stdout),
    })
}

/// Adds the functions and their result classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(passcheck, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_class::<Verdict>()?;
    m.add_class::<PasscheckResult>()?;
    m.add_class::<DiffResult>()?;
    Ok(())
}
