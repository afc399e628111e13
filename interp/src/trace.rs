//! `run --trace`: every executed op as its source line, with the values it
//! read and wrote, indented by region and call depth:
//!
//! ```text
//! t.mlir:4:   %s = arith.addi %a, %b : i32   // (5, 2) -> 7
//! ```
//!
//! Built on the engine's observer hook, so tracing cannot change what the
//! program prints; it writes to its own sink (stderr or `--trace-file`).
//! Arrays longer than [`SHOWN`] elements are cut short; memrefs show their
//! buffer and offset rather than their contents.

use crate::exec::{Engine, Frame, Observer};
use crate::show;
use crate::value::{FuncRef, Value};
use mlir_ir::diag::Source;
use mlir_ir::ir::{OpId, RegionId};
use std::io::Write;

/// Elements of a vector or tensor shown before `...`.
pub const SHOWN: usize = 8;

/// The trace observer.
pub struct Trace<'s> {
    src: &'s Source,
    out: Box<dyn Write + 's>,
    /// Region and call nesting, for indentation.
    depth: usize,
    /// Events left before the trace stops (`--trace-limit`).
    left: u64,
    /// The line of an op without regions, written once its results exist.
    pending: Option<String>,
}

impl<'s> Trace<'s> {
    /// A trace of a run of `src`'s module into `out`, stopping after
    /// `limit` events (ops, calls and returns).
    pub fn new(src: &'s Source, out: Box<dyn Write + 's>, limit: u64) -> Trace<'s> {
        Trace { src, out, depth: 0, left: limit, pending: None }
    }

    fn emit(&mut self, line: String) {
        if self.left == 0 {
            return;
        }
        self.left -= 1;
        let _ = writeln!(self.out, "{line}");
        if self.left == 0 {
            let _ = writeln!(self.out, "... trace limit reached (--trace-limit)");
        }
    }

    /// `file:line:` and the op's first source line, indented.
    fn head(&self, e: &Engine<'_>, op: OpId) -> String {
        let (line, _) = self.src.line_col(e.m.op(op).span.start);
        let text = self.src.line_text(line).trim();
        format!("{}:{line}: {}{text}", self.src.name, "  ".repeat(self.depth))
    }
}

/// A value, briefly: scalars as literals, short arrays in full, long ones
/// cut, memrefs as their place.
fn brief(v: &Value) -> String {
    match v {
        Value::Array(d) if d.len() > SHOWN => {
            let first: Vec<String> = (0..SHOWN).map(|i| show::scalar(&d.get(i))).collect();
            format!("[{}, ...] ({} elements)", first.join(", "), d.len())
        }
        Value::Memref(m) => format!("<memref at {:#x}+{}>", m.buf.borrow().addr, m.offset),
        v => show::value(v, OpId(0)),
    }
}

fn list(vals: impl Iterator<Item = String>) -> String {
    vals.collect::<Vec<_>>().join(", ")
}

impl Drop for Trace<'_> {
    /// Writes the line of an op that did not finish (it failed), if any.
    fn drop(&mut self) {
        if let Some(l) = self.pending.take() {
            let _ = writeln!(self.out, "{l}   !! failed");
        }
        let _ = self.out.flush();
    }
}

impl Observer for Trace<'_> {
    fn before_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) {
        let args = list(e.m.operands(op).iter().map(|v| brief(e.get(fr, *v))));
        let line = format!("{}   // ({args})", self.head(e, op));
        if e.m.regions(op).is_empty() && e.m.op(op).results.len > 0 {
            self.pending = Some(line);
        } else {
            self.emit(line);
        }
    }

    fn after_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) {
        let res = list(e.m.results(op).map(|v| brief(e.get(fr, v))));
        match self.pending.take() {
            Some(line) => self.emit(format!("{line} -> {res}")),
            None if e.m.op(op).results.len > 0 => {
                let (line, _) = self.src.line_col(e.m.op(op).span.start);
                let pad = "  ".repeat(self.depth);
                self.emit(format!("{}:{line}: {pad}-> {res}", self.src.name));
            }
            None => {}
        }
    }

    fn enter_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _region: RegionId) {
        self.depth += 1;
    }

    fn leave_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _region: RegionId) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn call(&mut self, e: &Engine<'_>, _at: OpId, f: FuncRef, args: &[Value]) {
        // The calling op's line goes first; its results follow the return.
        if let Some(l) = self.pending.take() {
            self.emit(l);
        }
        let name = &e.funcs[f.0 as usize].name;
        let line = format!("{}call @{name}({})", "  ".repeat(self.depth), list(args.iter().map(brief)));
        self.emit(line);
        self.depth += 1;
    }

    fn ret(&mut self, e: &Engine<'_>, f: FuncRef, results: &[Value]) {
        self.depth = self.depth.saturating_sub(1);
        let name = &e.funcs[f.0 as usize].name;
        let pad = "  ".repeat(self.depth);
        let line = match results {
            [] => format!("{pad}return @{name}"),
            _ => format!("{pad}return @{name} -> {}", list(results.iter().map(brief))),
        };
        self.emit(line);
    }
}
