//! The one error type of the engine. Every run-time failure carries the span
//! of the op where it happened; poison errors also name the op that created
//! the poison. Rendering goes through `mlir_ir::diag::Diagnostic`, so errors
//! print as `file:line:col: error: ...` with the source line and a caret.

use mlir_ir::diag::{Diagnostic, Source, Span};
use mlir_ir::ir::{Module, OpId};

/// Exit status for a program that failed at run time.
pub const EXIT_RUNTIME: i32 = 1;
/// Exit status for bad input or usage.
pub const EXIT_INPUT: i32 = 2;
/// Exit status for a bug in mlir-interp (a panic, an internal error), never
/// the program's fault.
pub const EXIT_INTERNAL: i32 = 3;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// Immediate undefined behaviour (division by zero, INT_MIN / -1, ...).
    #[error("undefined behavior: {0}")]
    Ub(String),
    /// Immediate undefined behaviour on memory (out of bounds, use after
    /// free, bad dealloc, ...); `alloc` is the op that allocated it.
    #[error("undefined behavior: {msg}")]
    MemUb {
        /// What happened.
        msg: String,
        /// The allocation (or `memref.global`) concerned.
        alloc: OpId,
    },
    /// A poison value reached a place that observes it.
    #[error("poison value {what}")]
    Poison {
        /// What observed it (`used as a branch condition`, ...).
        what: String,
        /// The op that created the poison.
        origin: OpId,
    },
    /// An op or runtime function this engine does not execute.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A conversion or literal with no defined result (implementation-defined in MLIR).
    #[error("no defined result: {0}")]
    NoDefinedResult(String),
    /// The step limit (`Config::max_steps`) ran out.
    #[error("execution step limit of {0} reached")]
    Fuel(u64),
    /// The call depth limit (`Config::max_call_depth`) was exceeded.
    #[error("call depth limit of {0} exceeded")]
    CallDepth(u32),
    /// The memory limit (`Config::max_memory`) would be exceeded.
    #[error("memory limit: {0}")]
    MemoryLimit(String),
    /// The run's time limit (`Config::timeout`) was reached.
    #[error("time limit of {0} reached")]
    TimeLimit(String),
    /// A failed host allocation or another resource the run could not
    /// have: neither the program's fault nor bad input.
    #[error("resource limit: {0}")]
    Resource(String),
    /// `cf.assert` failed.
    #[error("assertion failed: {0}")]
    Assert(String),
    /// The program called C's `abort()` (a lowered `cf.assert` does).
    #[error("the program called abort()")]
    Abort,
    /// A runtime library's own check failed (the sparse tensor runtime's
    /// `MLIR_SPARSETENSOR_FATAL`: a missing file, a bad header), where
    /// mlir-runner prints the message and exits with status 1.
    #[error("runtime library error: {0}")]
    RuntimeFatal(String),
    /// The runtime library has no implementation for what the lowered
    /// code asks (the sparse runtime's "unsupported combination of types"
    /// for overhead widths and element type): a limit of the target, which
    /// mlir-runner reports as `RuntimeFatal`, not something the program did.
    #[error("runtime library error: {0}")]
    RuntimeUnsupported(String),
    /// The program cannot run as asked, for a reason the verifier cannot
    /// see: no such entry function, an entry whose results do not fit
    /// `--entry-point-result`, a runtime function declared with the wrong
    /// signature (bad input).
    #[error("{0}")]
    BadInput(String),
    /// The engine met IR that verified IR never has: an interpreter bug
    /// (a verifier gap or an engine mistake), never the program's fault.
    #[error("internal error: {0} (verified IR never does this: an interpreter bug, please report it)")]
    Internal(String),
    /// An entry-function argument given on the command line does not fit
    /// its parameter (bad input).
    #[error("bad argument: {0}")]
    BadArgument(String),
    /// An observer stopped the run (a debugger's `quit` or `restart`).
    #[error("run stopped by the debugger")]
    Halted,
    /// [`Config::interrupt`](crate::exec::Config::interrupt) asked the run to stop.
    #[error("run interrupted")]
    Interrupted,
}

/// An engine error at an op.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct Error {
    /// The kind, with its message.
    pub kind: ErrorKind,
    /// The op where it happened, if any (none for whole-module problems).
    pub op: Option<OpId>,
}

/// The result of an engine step.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error of `kind` at `op`.
    pub fn at(op: OpId, kind: ErrorKind) -> Error {
        Error { kind, op: Some(op) }
    }

    /// An error with no op (missing entry function, ...).
    pub fn global(kind: ErrorKind) -> Error {
        Error { kind, op: None }
    }

    /// `op` breaks an invariant the verifier guarantees. The engine trusts
    /// verified IR, so this is an interpreter bug: debug builds stop here
    /// (with a backtrace to the check), release builds report it as an
    /// internal error at the op instead of computing something wrong.
    #[cold]
    #[track_caller]
    pub fn unverified(op: OpId, msg: impl Into<String>) -> Error {
        let msg = msg.into();
        debug_assert!(false, "verified IR broke an engine invariant at {op:?}: {msg}");
        Error::at(op, ErrorKind::Internal(msg))
    }

    /// True for errors that mean bad input (exit 2) rather than a run-time failure.
    pub fn is_input_error(&self) -> bool {
        matches!(self.kind, ErrorKind::BadInput(_) | ErrorKind::BadArgument(_))
    }

    /// The process exit status this error maps to: 2 bad input, 3 an
    /// internal error, 1 anything the program did (UB, limits, ...).
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            ErrorKind::BadInput(_) | ErrorKind::BadArgument(_) => EXIT_INPUT,
            ErrorKind::Internal(_) => EXIT_INTERNAL,
            _ => EXIT_RUNTIME,
        }
    }

    /// The error as a diagnostic; a poison error gets a note at its origin.
    pub fn to_diagnostic(&self, m: &Module) -> Diagnostic {
        let span = self.op.map(|o| m.op(o).span).unwrap_or_default();
        let d = Diagnostic::error(span, self.kind.to_string());
        match &self.kind {
            ErrorKind::Poison { origin, .. } if is_allocation(m, *origin) => d.with_note(
                m.op(*origin).span,
                format!("poison: memory never written, allocated here by '{}'", m.op_name(*origin)),
            ),
            ErrorKind::Poison { origin, .. } => {
                let o = m.op(*origin);
                d.with_note(o.span, format!("poison created here by '{}'", m.op_name(*origin)))
            }
            ErrorKind::MemUb { alloc, .. } => {
                d.with_note(m.op(*alloc).span, format!("memory allocated here by '{}'", m.op_name(*alloc)))
            }
            _ => d,
        }
    }

    /// The allocation this error is about, if any (memory UB, or poison
    /// read from memory never written).
    pub fn allocation(&self, m: &Module) -> Option<OpId> {
        match &self.kind {
            ErrorKind::MemUb { alloc, .. } => Some(*alloc),
            ErrorKind::Poison { origin, .. } if is_allocation(m, *origin) => Some(*origin),
            _ => None,
        }
    }

    /// [`Error::render`] for the command line: a limit's diagnostic ends
    /// with a note naming the option that sets it.
    pub fn render_cli(&self, m: &Module, src: &Source) -> String {
        let mut text = self.render(m, src);
        let flag = match self.kind {
            ErrorKind::Fuel(_) => Some("--max-steps"),
            ErrorKind::CallDepth(_) => Some("--max-call-depth"),
            ErrorKind::MemoryLimit(_) => Some("--max-memory"),
            ErrorKind::TimeLimit(_) => Some("--timeout"),
            _ => None,
        };
        if let Some(flag) = flag {
            text.push_str(&format!("note: {flag} sets this limit\n"));
        }
        text
    }

    /// Renders as `file:line:col: error: message` plus source line and caret;
    /// errors without an op render as `file: error: message`.
    pub fn render(&self, m: &Module, src: &Source) -> String {
        match self.op {
            Some(_) => {
                let mut d = self.to_diagnostic(m);
                if let Some(a) = self.allocation(m) {
                    d.message.push_str(&format!(" (allocated at {})", src.position(m.op(a).span.start)));
                }
                d.render(src)
            }
            None => format!("{}: error: {}\n", src.name, self.kind),
        }
    }
}

/// True for ops that allocate memory: poison they "create" is memory
/// never written.
pub(crate) fn is_allocation(m: &Module, op: OpId) -> bool {
    use mlir_ir::ops::OpKind::*;
    matches!(m.op(op).name.kind, MemrefAlloc | MemrefAlloca | MemrefRealloc | MemrefGlobal)
}

/// The span of `op` (for callers that build their own diagnostics).
pub fn op_span(m: &Module, op: OpId) -> Span {
    m.op(op).span
}
