//! What a call does while the GIL is released: it polls for Ctrl-C
//! through the library's interrupt hook, and an `observer=` callback sees
//! one small dict per executed op. Either one keeps the Python exception
//! it met (the `KeyboardInterrupt`, or what the callback raised) in a
//! [`Pending`] slot and stops the run; the call raises it afterwards.

use interp::exec::{Engine, Frame};
use interp::{Control, Interrupt, Observer, OpId, Program};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};

/// A Python exception met while the engine ran, raised when the call ends.
#[derive(Clone, Default)]
pub struct Pending(Arc<Mutex<Option<PyErr>>>);

impl Pending {
    /// Keeps `e` (the first one wins).
    fn keep(&self, e: PyErr) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(e);
        }
    }

    /// The kept exception, if any.
    pub fn take(&self) -> Option<PyErr> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// The interrupt hook: takes the GIL and runs Python's signal handlers
/// (SIGINT's raises `KeyboardInterrupt`), as pyo3 advises long-running
/// code to do.
pub fn interrupt(pending: &Pending) -> Interrupt {
    let pending = pending.clone();
    Interrupt(Arc::new(move || {
        Python::attach(|py| match py.check_signals() {
            Ok(()) => false,
            Err(e) => {
                pending.keep(e);
                true
            }
        })
    }))
}

/// Calls a Python callback after every executed op.
pub struct PyObserver {
    /// The callback.
    pub callback: Py<PyAny>,
    /// The program, for line and column.
    pub program: Arc<Program>,
    /// Where an exception of the callback goes.
    pub pending: Pending,
}

impl Observer for PyObserver {
    fn after_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        let m = e.m;
        let (line, column) = self.program.source().line_col(m.op(op).span.start);
        let results: Vec<String> = m.results(op).map(|v| interp::show::value(e.get(fr, v), op)).collect();
        let told = Python::attach(|py| -> PyResult<()> {
            let d = PyDict::new(py);
            d.set_item("op", m.op_name(op))?;
            d.set_item("line", line)?;
            d.set_item("column", column)?;
            d.set_item("results", results)?;
            self.callback.call1(py, (d,))?;
            Ok(())
        });
        match told {
            Ok(()) => Control::Continue,
            Err(err) => {
                self.pending.keep(err);
                Control::Halt
            }
        }
    }
}
