//! The exceptions: one class per error class of the library, all under
//! `mlir_interp.Error`, each carrying where it happened (`.location`),
//! the op (`.op`), the places that explain it (`.notes`), the message and
//! the diagnostic as `mlir-interp run` prints it. An interpreter bug is
//! `InternalError`, never confused with the program's undefined behaviour.

use interp::ErrorClass;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(mlir_interp, Error, PyException, "Any failure of mlir_interp (the base class).");
create_exception!(
    mlir_interp,
    UndefinedBehavior,
    Error,
    "The program has undefined behaviour: division by zero, an out-of-bounds access, use after free, poison where it is observed, a failed cf.assert."
);
create_exception!(
    mlir_interp,
    InvalidIR,
    Error,
    "The program does not parse or verify (mlir-opt's message and location), or cannot be read."
);
create_exception!(mlir_interp, Unsupported, Error, "An op, type or value the interpreter does not execute or convert.");
create_exception!(
    mlir_interp,
    LimitExceeded,
    Error,
    "A limit was reached: max_steps, max_memory, timeout, or the call depth."
);
create_exception!(
    mlir_interp,
    InternalError,
    Error,
    "An interpreter bug: the engine met something verified IR never has. Never the program's fault; please report it."
);
create_exception!(
    mlir_interp,
    ArgumentError,
    Error,
    "An argument does not fit its parameter, or there is no such function."
);

/// Where in the program something happened.
#[pyclass(frozen, eq, get_all, module = "mlir_interp")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The source's name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

#[pymethods]
impl Location {
    fn __repr__(&self) -> String {
        format!("Location({:?}, line={}, column={})", self.file, self.line, self.column)
    }

    fn __str__(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

impl From<&interp::Location> for Location {
    fn from(l: &interp::Location) -> Self {
        Location { file: l.file.clone(), line: l.line, column: l.column }
    }
}

/// A place that explains an error: where the memory was allocated, where
/// a poison was made.
#[pyclass(frozen, get_all, module = "mlir_interp")]
#[derive(Clone, Debug)]
pub struct Note {
    /// Where.
    pub location: Location,
    /// What happened there.
    pub message: String,
}

#[pymethods]
impl Note {
    fn __repr__(&self) -> String {
        format!("Note({}, {:?})", self.location.__str__(), self.message)
    }
}

/// The exception for library error `e`.
pub fn to_py(e: &interp::Error) -> PyErr {
    let text = e.diagnostic.trim_end().to_string();
    let err = match e.class {
        ErrorClass::BadProgram => InvalidIR::new_err(text),
        ErrorClass::BadArgument => ArgumentError::new_err(text),
        ErrorClass::UndefinedBehavior => UndefinedBehavior::new_err(text),
        ErrorClass::Unsupported | ErrorClass::NoLibraryForm => Unsupported::new_err(text),
        ErrorClass::Limit => LimitExceeded::new_err(text),
        ErrorClass::Internal => InternalError::new_err(text),
    };
    let notes = e.detail.notes.iter().map(|(l, m)| Note { location: l.into(), message: m.clone() }).collect();
    describe(err, &e.message, e.location.as_ref().map(Location::from), e.detail.op.clone(), notes)
}

/// `err` with its attributes set (an exception made without a location
/// still has them, as `None` and `[]`).
fn describe(err: PyErr, message: &str, location: Option<Location>, op: Option<String>, notes: Vec<Note>) -> PyErr {
    Python::attach(|py| {
        let v = err.value(py);
        let set = || -> PyResult<()> {
            v.setattr("message", message)?;
            v.setattr("location", location)?;
            v.setattr("op", op)?;
            v.setattr("notes", notes)?;
            v.setattr("output", "")
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// An [`ArgumentError`] without a location.
pub fn argument_error(message: String) -> PyErr {
    describe(ArgumentError::new_err(message.clone()), &message, None, None, Vec::new())
}

/// An [`Unsupported`] without a location.
pub fn unsupported_error(message: String) -> PyErr {
    describe(Unsupported::new_err(message.clone()), &message, None, None, Vec::new())
}

/// Adds the module's exception classes and their attribute types.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("UndefinedBehavior", py.get_type::<UndefinedBehavior>())?;
    m.add("InvalidIR", py.get_type::<InvalidIR>())?;
    m.add("Unsupported", py.get_type::<Unsupported>())?;
    m.add("LimitExceeded", py.get_type::<LimitExceeded>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add_class::<Location>()?;
    m.add_class::<Note>()?;
    Ok(())
}
