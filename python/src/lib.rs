//! `mlir_interp` for Python: the reference interpreter called with numpy
//! arrays. `Program` parses and verifies; `Interpreter` calls functions
//! with Python and numpy values and returns numpy results; `run` returns
//! what a program prints; `passcheck` and `diff` judge a pass pipeline
//! and the real toolchain against it. Every failure is an
//! `mlir_interp.Error` of the library's class (see `errors.rs`).
//!
//! A call releases the GIL while the engine runs. The engine is
//! single-threaded and owns `Rc`s, so an `Interpreter` stays on the
//! thread that made it (`unsendable`), and the released section carries
//! its state across only as [`OnThisThread`]: `Python::detach` runs the
//! closure on the calling thread, so nothing actually moves.

mod checks;
mod convert;
mod dtype;
mod errors;
mod watch;

use convert::Prepared;
use interp::{Config, Data};
use pyo3::prelude::*;
use std::sync::Arc;

/// A value `Python::detach` may take although it is not `Send`: the
/// closure runs on this same thread, and the value (the engine with its
/// `Rc`s, the arrays lent to it) is never reachable from another thread
/// while it runs (the `Interpreter` is `unsendable`, and its `&mut`
/// borrow is held for the whole call).
struct OnThisThread<T>(T);

// SAFETY: see the type's comment: the value never leaves the thread.
unsafe impl<T> Send for OnThisThread<T> {}

impl<T> OnThisThread<T> {
    /// The value (a method, so that a closure captures the wrapper whole).
    fn into_inner(self) -> T {
        self.0
    }
}

/// A parsed and verified MLIR module.
#[pyclass(frozen, module = "mlir_interp")]
struct Program {
    inner: Arc<interp::Program>,
}

#[pymethods]
impl Program {
    /// Parses and verifies `text`; `filename` names it in diagnostics.
    #[staticmethod]
    #[pyo3(signature = (text, filename = "<string>"))]
    fn parse(text: &str, filename: &str) -> PyResult<Program> {
        let p = interp::Program::parse(filename, text).map_err(|e| errors::to_py(&e))?;
        Ok(Program { inner: Arc::new(p) })
    }

    /// Reads, parses and verifies the file at `path`.
    #[staticmethod]
    fn from_file(path: std::path::PathBuf) -> PyResult<Program> {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display())))?;
        Program::parse(&text, &path.display().to_string())
    }

    fn __repr__(&self) -> String {
        format!("<mlir_interp.Program {}>", self.inner.source().name)
    }
}

self_cell::self_cell!(
    /// An interpreter with the program it borrows.
    struct Loaded {
        owner: Arc<interp::Program>,
        #[not_covariant]
        dependent: Engine,
    }
);

/// The library's interpreter, by the name `self_cell` wants.
type Engine<'p> = interp::Interpreter<'p>;

/// An interpreter of a program: call its functions with Python values.
#[pyclass(unsendable, module = "mlir_interp")]
struct Interpreter {
    loaded: Loaded,
    /// The exception the interrupt poll or the observer met.
    pending: watch::Pending,
}

/// The library configuration of the keyword limits.
fn config(
    max_memory: Option<usize>,
    max_steps: Option<u64>,
    timeout: Option<f64>,
    pending: &watch::Pending,
) -> PyResult<Config> {
    let timeout = timeout
        .map(|s| {
            std::time::Duration::try_from_secs_f64(s)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("timeout={s}: {e}")))
        })
        .transpose()?;
    Ok(Config {
        max_steps,
        max_memory: max_memory.unwrap_or(0),
        timeout,
        interrupt: Some(watch::interrupt(pending)),
        ..interp::Interpreter::default_config()
    })
}

#[pymethods]
impl Interpreter {
    /// An interpreter of `program`. `max_memory` (bytes; default half of
    /// physical memory), `max_steps` (executed ops and touched elements)
    /// and `timeout` (seconds per call) raise `LimitExceeded` when
    /// reached; `observer` is called with a dict per executed op.
    #[new]
    #[pyo3(signature = (program, *, max_memory = None, max_steps = None, timeout = None, observer = None))]
    fn new(
        program: &Program,
        max_memory: Option<usize>,
        max_steps: Option<u64>,
        timeout: Option<f64>,
        observer: Option<Py<PyAny>>,
    ) -> PyResult<Interpreter> {
        let pending = watch::Pending::default();
        let cfg = config(max_memory, max_steps, timeout, &pending)?;
        let loaded = Loaded::try_new(program.inner.clone(), |p| interp::Interpreter::with_config(p, cfg))
            .map_err(|e| errors::to_py(&e))?;
        let mut me = Interpreter { loaded, pending };
        if let Some(callback) = observer {
            let o = watch::PyObserver { callback, program: program.inner.clone(), pending: me.pending.clone() };
            me.loaded.with_dependent_mut(|_, i| i.observe(o));
        }
        Ok(me)
    }

    /// Calls function `name` with `args` and returns its results as a
    /// tuple. A numpy array passed for a memref is lent in place: the
    /// function's stores land in it.
    #[pyo3(signature = (name, *args))]
    fn call<'py>(
        &mut self,
        py: Python<'py>,
        name: &str,
        args: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let program = self.loaded.borrow_owner().clone();
        let m = program.module();
        let (inputs, results) = self
            .loaded
            .with_dependent_mut(|_, i| {
                let e = i.engine();
                e.func_by_name(name).map(|f| {
                    let f = &e.funcs[f.0 as usize];
                    (f.inputs.clone(), f.results.clone())
                })
            })
            .ok_or_else(|| errors::argument_error(format!("no function named '{name}'")))?;
        if inputs.len() != args.len() {
            let msg = format!("'{name}' takes {} argument(s), {} given", inputs.len(), args.len());
            return Err(errors::argument_error(msg));
        }
        let mut prepared: Vec<Prepared<'py>> = Vec::with_capacity(args.len());
        for (i, (ty, x)) in inputs.iter().zip(&args).enumerate() {
            prepared.push(convert::prepare(m, name, i, *ty, x)?);
        }
        let lib_args: Vec<interp::Arg<'_>> = prepared.iter_mut().map(Prepared::arg).collect();
        // An exception kept by an earlier call that ended anyway is stale.
        drop(self.pending.take());
        let job = OnThisThread((&mut self.loaded, lib_args));
        let outcome = py
            .detach(move || {
                let (loaded, lib_args) = job.into_inner();
                OnThisThread(loaded.with_dependent_mut(|_, i| i.call(name, lib_args)))
            })
            .into_inner();
        drop(prepared);
        let values = self.outcome(outcome)?;
        let out: Vec<Bound<'py, PyAny>> =
            values.into_iter().zip(&results).map(|(d, ty)| convert::result(py, m, *ty, d)).collect::<PyResult<_>>()?;
        pyo3::types::PyTuple::new(py, out)
    }

    /// What the program printed since the last call of this.
    fn take_printed(&mut self) -> String {
        self.loaded.with_dependent_mut(|_, i| i.take_printed())
    }
}

impl Interpreter {
    /// The results of a call, or the exception it ends with: the one the
    /// interrupt poll or the observer kept, else the library's error with
    /// what the program printed before it as `.output`.
    fn outcome(&mut self, r: Result<Vec<Data>, interp::Error>) -> PyResult<Vec<Data>> {
        match r {
            Ok(v) => Ok(v),
            Err(e) => {
                if let Some(kept) = self.pending.take() {
                    return Err(kept);
                }
                let err = errors::to_py(&e);
                let printed = self.take_printed();
                Python::attach(|py| err.value(py).setattr("output", printed))?;
                Err(err)
            }
        }
    }
}

/// The poison singleton (what a function returns for a poison scalar).
#[pyclass(frozen, module = "mlir_interp")]
struct Poison;

#[pymethods]
impl Poison {
    fn __repr__(&self) -> &'static str {
        "mlir_interp.poison"
    }

    fn __bool__(&self) -> PyResult<bool> {
        Err(errors::unsupported_error("poison has no truth value".to_string()))
    }
}

/// `mlir_interp.poison`.
fn poison(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("mlir_interp")?.getattr("poison")
}

/// Source text and its name: `text_or_path` is a path when it is a
/// `PathLike`, or a string of one line naming an existing file.
fn source_of(text_or_path: &Bound<'_, PyAny>) -> PyResult<(String, String)> {
    let os = text_or_path.py().import("os")?;
    let is_path = text_or_path.is_instance(&os.getattr("PathLike")?)?;
    let s: String = os.call_method1("fspath", (text_or_path,))?.extract()?;
    if is_path || (!s.contains('\n') && std::path::Path::new(&s).is_file()) {
        let text = std::fs::read_to_string(&s)
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("cannot read {s}: {e}")))?;
        return Ok((text, s));
    }
    Ok((s, "<string>".to_string()))
}

/// Runs `entry` of a program (its text, or a path) on `args` and returns
/// what it printed.
#[pyfunction]
#[pyo3(signature = (text_or_path, entry = "main", args = Vec::new(), *, max_memory = None, max_steps = None, timeout = None, observer = None))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    text_or_path: &Bound<'py, PyAny>,
    entry: &str,
    args: Vec<Bound<'py, PyAny>>,
    max_memory: Option<usize>,
    max_steps: Option<u64>,
    timeout: Option<f64>,
    observer: Option<Py<PyAny>>,
) -> PyResult<String> {
    let (text, name) = source_of(text_or_path)?;
    let program = Program::parse(&text, &name)?;
    let mut i = Interpreter::new(&program, max_memory, max_steps, timeout, observer)?;
    i.call(py, entry, args)?;
    Ok(i.take_printed())
}

/// The module.
#[pymodule]
fn mlir_interp(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Program>()?;
    m.add_class::<Interpreter>()?;
    m.add_class::<Poison>()?;
    m.add("poison", Poison)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    errors::register(m)?;
    checks::register(m)?;
    Ok(())
}
