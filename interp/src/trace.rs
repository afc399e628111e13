//! `run --trace`: every executed op as its source line, with the values it
//! read and wrote, indented by region and call depth:
//!
//! ```text
//! t.mlir:4:   %s = arith.addi %a, %b : i32   // %a = 5, %b = 2 -> 7
//! ```
//!
//! Built on the engine's observer hook, so tracing cannot change what the
//! program prints; it writes to its own sink (stderr or `--trace-file`).
//! Arrays longer than [`SHOWN`] elements are cut short; memrefs show their
//! buffer and offset rather than their contents.

use crate::error::Error;
use crate::exec::{Control, Engine, Frame, Observer};
use crate::show;
use crate::value::{FuncRef, Value};
use mlir_ir::diag::Source;
use mlir_ir::ir::{OpId, RegionId, ValueId};
use rustc_hash::FxHashMap;
use std::io::Write;

/// Elements of a vector or tensor shown before `...`.
pub const SHOWN: usize = 8;

/// How trace events are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Source lines with values, for reading.
    Text,
    /// One JSON object per line, for scripts (see the book, docs/src/guide/run.md).
    Jsonl,
}

/// Which ops are traced (calls and returns are traced when their
/// function passes the function filter).
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Only ops inside this function (by symbol name, no `@`).
    pub func: Option<String>,
    /// Only ops whose name starts with this (`arith.`, `memref.load`).
    pub op: Option<String>,
    /// Only ops on these source lines (inclusive).
    pub lines: Option<(usize, usize)>,
}

/// The trace observer.
pub struct Trace<'s> {
    src: &'s Source,
    out: Box<dyn Write + 's>,
    format: Format,
    filter: Filter,
    /// Region and call nesting, for indentation.
    depth: usize,
    /// Events left before the trace stops (`--trace-limit`).
    left: u64,
    /// The line of an op without regions, written once its results exist.
    pending: Option<String>,
    /// Function ops to their index in the engine's table (filled on first
    /// use), so finding an op's function is a walk up, not a search.
    funcs: FxHashMap<OpId, usize>,
}

impl<'s> Trace<'s> {
    /// A trace of a run of `src`'s module into `out`, stopping after
    /// `limit` events (ops, calls and returns).
    pub fn new(src: &'s Source, out: Box<dyn Write + 's>, limit: u64) -> Trace<'s> {
        let filter = Filter::default();
        Trace {
            src,
            out,
            format: Format::Text,
            filter,
            depth: 0,
            left: limit,
            pending: None,
            funcs: FxHashMap::default(),
        }
    }

    /// The same trace written as `format`, of the ops `filter` keeps.
    pub fn with(mut self, format: Format, filter: Filter) -> Trace<'s> {
        self.format = format;
        self.filter = filter;
        self
    }

    /// Whether `op` passes the filter.
    fn keeps(&mut self, e: &Engine<'_>, op: OpId) -> bool {
        let f = &self.filter;
        if let Some(p) = &f.op {
            if !e.m.op_name(op).starts_with(p.as_str()) {
                return false;
            }
        }
        if let Some((a, b)) = f.lines {
            let (line, _) = self.src.line_col(e.m.op(op).span.start);
            if line < a || line > b {
                return false;
            }
        }
        match &f.func {
            Some(name) => {
                let name = name.clone();
                self.func_of(e, op).is_some_and(|n| n == name)
            }
            None => true,
        }
    }

    /// One JSON event line: the event, the op (for calls and returns, the
    /// callee's `func.func` and its name), where, how deep, and the values.
    fn json(&mut self, e: &Engine<'_>, op: OpId, event: &str, vals: (&str, &[String])) -> String {
        let (line, col) = self.src.line_col(e.m.op(op).span.start);
        let items: Vec<String> = vals.1.iter().map(|v| quote(v)).collect();
        let func = match event {
            "call" | "return" => self.index(e).get(&op).map(|i| e.funcs[*i].name.as_str()),
            _ => self.func_of(e, op),
        };
        format!(
            "{{\"event\": \"{event}\", \"op\": {}, \"func\": {}, \"loc\": {}, \"depth\": {}, \"{}\": [{}]}}",
            quote(e.m.op_name(op)),
            func.map_or("null".to_string(), quote),
            quote(&format!("{}:{line}:{col}", self.src.name)),
            self.depth,
            vals.0,
            items.join(", ")
        )
    }

    /// The function table by op.
    fn index(&mut self, e: &Engine<'_>) -> &FxHashMap<OpId, usize> {
        if self.funcs.is_empty() {
            self.funcs = e.funcs.iter().enumerate().map(|(i, f)| (f.op, i)).collect();
        }
        &self.funcs
    }

    /// The symbol name of the function around `op`.
    fn func_of<'e>(&mut self, e: &'e Engine<'_>, op: OpId) -> Option<&'e str> {
        let mut at = op;
        while let Some(p) = e.m.parent_op(at) {
            if let Some(i) = self.index(e).get(&p) {
                return Some(&e.funcs[*i].name);
            }
            at = p;
        }
        None
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
        let pad = "  ".repeat(self.depth);
        if e.m.is_implicit(op) {
            // At the region's `}`: the op is not in the text, so name it.
            return format!("{}:{line}: {pad}(implicit) {}", self.src.name, e.m.op_name(op));
        }
        let text = self.src.line_text(line).trim();
        format!("{}:{line}: {pad}{text}", self.src.name)
    }
}

/// `s` as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Value `v` of frame `fr`, briefly: scalars as literals (`uiN` ones
/// unsigned, as MLIR prints them), short arrays in full, long ones cut,
/// memrefs as their place.
fn brief(e: &Engine<'_>, fr: &Frame, v: ValueId) -> String {
    brief_as(e.get(fr, v), show::unsigned(&e.m.ctx, e.m.type_of(v)))
}

/// [`brief`] of a value whose integers are `uiN` when `unsigned`.
fn brief_as(v: &Value, unsigned: bool) -> String {
    show::brief(v, unsigned, SHOWN, |m| format!("<memref at {:#x}+{}>", m.buf.borrow().addr, m.offset))
}

/// The address of the (first) element a load or store reads or writes
/// (`memref.`, `affine.` and `vector.load`/`store`: its memref's aligned
/// address plus the element's offset), if its indices are known integers.
fn element_address(e: &Engine<'_>, fr: &Frame, op: OpId) -> Option<u64> {
    let name = e.m.op_name(op);
    let first = match name {
        "memref.load" | "affine.load" | "vector.load" | "affine.vector_load" => 0,
        "memref.store" | "affine.store" | "vector.store" | "affine.vector_store" => 1,
        _ => return None,
    };
    let vals = e.m.operands(op);
    let Value::Memref(m) = e.get(fr, *vals.get(first)?) else { return None };
    let idx: Option<Vec<i64>> = if name.starts_with("affine.") {
        // Through the access map; an index the map cannot take gets none.
        crate::dialects::affine::access(e, fr, op, first + 1..vals.len(), (0, "map")).ok()
    } else {
        vals[first + 1..].iter().map(|v| e.get(fr, *v).scalar()?.as_int()?.to_i64()).collect()
    };
    let lin = m.linear(&idx?)?;
    let bytes = i64::try_from(m.elem.bytes()).ok()?;
    m.aligned_addr().checked_add_signed(lin.checked_mul(bytes)?)
}

fn list(vals: impl Iterator<Item = String>) -> String {
    vals.collect::<Vec<_>>().join(", ")
}

/// `%a = 5, %b = 2`: an op's operands by their source names, with values.
fn named_operands(src: &Source, e: &Engine<'_>, fr: &Frame, op: OpId) -> String {
    let named = e.m.operands(op).iter().map(|v| {
        // The parser's implicit ops have no text to name their operands by.
        let name = crate::names::value_name(src, e.m, *v);
        format!("{name} = {}", brief(e, fr, *v))
    });
    list(named)
}

impl Drop for Trace<'_> {
    /// Writes the line of an op that did not finish, if any (the run was
    /// halted inside it; a failure was marked by [`Observer::fault`]).
    fn drop(&mut self) {
        if let Some(l) = self.pending.take() {
            let _ = writeln!(self.out, "{l}   !! failed");
        }
        let _ = self.out.flush();
    }
}

impl Trace<'_> {
    /// The line of an op about to run (held back until its results exist).
    fn before(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) {
        if !self.keeps(e, op) {
            return;
        }
        let at = element_address(e, fr, op);
        if self.format == Format::Jsonl {
            let args: Vec<String> = e.m.operands(op).iter().map(|v| brief(e, fr, *v)).collect();
            let mut line = self.json(e, op, "op", ("operands", &args));
            if let Some(a) = at {
                line.insert_str(line.len() - 1, &format!(", \"address\": \"{a:#x}\""));
            }
            self.emit(line);
            return;
        }
        let args = named_operands(self.src, e, fr, op);
        let at = at.map_or(String::new(), |a| format!(" @{a:#x}"));
        let line = match (args.is_empty() && at.is_empty(), e.m.op(op).results.len) {
            // Nothing read and nothing to come: the line alone.
            (true, 0) => self.head(e, op),
            // Only results to come: `// -> 3` once they exist.
            (true, _) => format!("{}   //", self.head(e, op)),
            _ => format!("{}   // {args}{at}", self.head(e, op)),
        };
        if e.m.regions(op).is_empty() && e.m.op(op).results.len > 0 {
            self.pending = Some(line);
        } else {
            self.emit(line);
        }
    }

    /// The line of an op that finished (for most ops, the pending line with its results).
    fn after(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) {
        if !self.keeps(e, op) {
            return;
        }
        if self.format == Format::Jsonl {
            if e.m.op(op).results.len > 0 {
                let res: Vec<String> = e.m.results(op).map(|v| brief(e, fr, v)).collect();
                let line = self.json(e, op, "result", ("results", &res));
                self.emit(line);
            }
            return;
        }
        let res = list(e.m.results(op).map(|v| brief(e, fr, v)));
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
}

impl Observer for Trace<'_> {
    fn before_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        self.before(e, fr, op);
        Control::Continue
    }

    fn after_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        self.after(e, fr, op);
        Control::Continue
    }

    /// The failing op: its text line is marked `!! failed`; jsonl gets a
    /// `fault` event with the error's message, so a script sees where the
    /// run ended without reading the diagnostic.
    fn fault(&mut self, e: &Engine<'_>, _fr: &Frame, op: OpId, err: &Error) {
        if !self.keeps(e, op) {
            return;
        }
        let line = match self.format {
            Format::Text => match self.pending.take() {
                Some(l) => format!("{l}   !! failed"),
                None => format!("{}   !! failed", self.head(e, op)),
            },
            Format::Jsonl => {
                let (l, col) = self.src.line_col(e.m.op(op).span.start);
                let func = self.func_of(e, op).map_or("null".to_string(), quote);
                format!(
                    "{{\"event\": \"fault\", \"op\": {}, \"func\": {func}, \"loc\": {}, \"depth\": {}, \"error\": {}}}",
                    quote(e.m.op_name(op)),
                    quote(&format!("{}:{l}:{col}", self.src.name)),
                    self.depth,
                    quote(&err.kind.to_string())
                )
            }
        };
        // Past the limit too: the run's last event says how it ended.
        let _ = writeln!(self.out, "{line}");
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
        let func = &e.funcs[f.0 as usize];
        if self.filter.func.as_ref().is_none_or(|n| *n == func.name) {
            let a = args.iter().zip(&func.inputs).map(|(v, t)| brief_as(v, show::unsigned(&e.m.ctx, *t)));
            let line = match self.format {
                Format::Text => format!("{}call @{}({})", "  ".repeat(self.depth), func.name, list(a)),
                Format::Jsonl => {
                    let a: Vec<String> = a.collect();
                    self.json(e, func.op, "call", ("args", &a))
                }
            };
            self.emit(line);
        }
        self.depth += 1;
    }

    fn ret(&mut self, e: &Engine<'_>, f: FuncRef, results: &[Value]) {
        self.depth = self.depth.saturating_sub(1);
        let func = &e.funcs[f.0 as usize];
        if self.filter.func.as_ref().is_some_and(|n| *n != func.name) {
            return;
        }
        let (name, pad) = (&func.name, "  ".repeat(self.depth));
        let r = results.iter().zip(&func.results).map(|(v, t)| brief_as(v, show::unsigned(&e.m.ctx, *t)));
        let line = match (self.format, results) {
            (Format::Jsonl, _) => {
                let r: Vec<String> = r.collect();
                self.json(e, func.op, "return", ("results", &r))
            }
            (Format::Text, []) => format!("{pad}return @{name}"),
            (Format::Text, _) => format!("{pad}return @{name} -> {}", list(r)),
        };
        self.emit(line);
    }
}
