//! The debugger's core, shared by its front ends (the `debug` REPL in
//! `debug/repl.rs`, the DAP server in `debug/dap.rs`): breakpoints and
//! watchpoints, stepping, the call stack, and reading a paused program's
//! state (values in scope, memref and tensor slices as tables, source
//! lines, the backtrace).
//!
//! It is an [`Observer`]: a front end's [`Ui::stop`] runs inside the
//! engine's hook, with the engine and the frame borrowed, and returns how
//! the run goes on. Nothing here can change what the program computes; a
//! restart or quit halts the run ([`Control::Halt`]) and the driver loads
//! a fresh engine.

pub mod dap;
pub mod repl;

use crate::error::Error;
use crate::exec::{Control, Engine, Frame, Observer};
use crate::names::{is_name_char, value_name};
use crate::show;
use crate::value::{Dense, FuncRef, Value};
use mlir_ir::diag::Source;
use mlir_ir::ir::{Module, OpId, RegionId, ValueId};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// Elements a table shows before it stops (print a slice for more).
pub const TABLE_MAX: usize = 2048;

/// Where a breakpoint stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Where {
    /// Before the first op that starts on this source line, each time the
    /// run comes to the line.
    Line(usize),
    /// Before the first op of this function's body, on every call.
    Func(String),
    /// Before every op of this name (`arith.divsi`).
    Op(String),
}

impl std::fmt::Display for Where {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Where::Line(n) => write!(f, "line {n}"),
            Where::Func(n) => write!(f, "function @{n}"),
            Where::Op(n) => write!(f, "op {n}"),
        }
    }
}

/// A breakpoint.
#[derive(Clone, Debug)]
pub struct Breakpoint {
    /// Its number (shared with watchpoints).
    pub id: usize,
    /// Where it stops.
    pub at: Where,
    /// How often it stopped the run.
    pub hits: u64,
}

/// A watchpoint: one memref element, compared after every op.
#[derive(Clone, Debug)]
pub struct Watchpoint {
    /// Its number (shared with breakpoints).
    pub id: usize,
    /// The expression as written (`%m[1, 2]`).
    pub expr: String,
    /// The memref.
    mem: Value,
    /// The element's indices.
    idx: Vec<i64>,
    /// The element's text when last compared.
    last: String,
    /// Whether the elements are `uiN`, shown unsigned.
    unsigned: bool,
}

/// Breakpoints and watchpoints; breakpoints outlive a restart, watchpoints
/// (on one run's memrefs) do not.
#[derive(Clone, Debug, Default)]
pub struct Points {
    /// Breakpoints, by number.
    pub breaks: Vec<Breakpoint>,
    /// Watchpoints, by number.
    pub watches: Vec<Watchpoint>,
    next_id: usize,
}

impl Points {
    /// Adds a breakpoint at `at`; returns its number.
    pub fn add_break(&mut self, at: Where) -> usize {
        self.next_id += 1;
        self.breaks.push(Breakpoint { id: self.next_id, at, hits: 0 });
        self.next_id
    }

    /// Adds watchpoint `w`; returns its number.
    pub fn add_watch(&mut self, w: Watchpoint) -> usize {
        self.next_id += 1;
        self.watches.push(Watchpoint { id: self.next_id, ..w });
        self.next_id
    }

    /// Deletes point `id`; false if there is none.
    pub fn delete(&mut self, id: usize) -> bool {
        let n = self.breaks.len() + self.watches.len();
        self.breaks.retain(|b| b.id != id);
        self.watches.retain(|w| w.id != id);
        n != self.breaks.len() + self.watches.len()
    }

    /// Deletes every point.
    pub fn clear(&mut self) {
        self.breaks.clear();
        self.watches.clear();
    }
}

/// Why the run paused.
#[derive(Clone, Debug)]
pub enum Reason {
    /// Before the entry function's first op.
    Entry,
    /// A `step`, `next` or `finish` ended.
    Step,
    /// `finish` ended: the function returned these values (as text).
    Returned(String, Vec<String>),
    /// Breakpoint `id`.
    Breakpoint(usize),
    /// Watched elements changed (paused after the op): every watchpoint
    /// the op changed, in the order they were set.
    Watch(Vec<WatchHit>),
    /// The op failed; the run ends with this error when the pause ends.
    Fault(Error),
    /// The user interrupted the run (Ctrl-C, a DAP `pause`).
    Interrupted,
}

/// One watchpoint's element changed by an op.
#[derive(Clone, Debug)]
pub struct WatchHit {
    /// The watchpoint.
    pub id: usize,
    /// Its expression.
    pub expr: String,
    /// The element before the op.
    pub old: String,
    /// After it.
    pub new: String,
}

/// How the run goes on after a pause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Pause before the next op, wherever it is (into regions and calls).
    Step,
    /// Pause at the next op of this region or an outer one (over regions and calls).
    Next,
    /// Pause when the current function has returned.
    Finish,
    /// Run until a breakpoint, a watchpoint or the end.
    Continue,
    /// Stop this run and start again (breakpoints kept).
    Restart,
    /// Stop this run and leave.
    Quit,
}

/// One call level of the paused run.
#[derive(Clone, Debug)]
pub struct Level {
    /// The function.
    pub func: FuncRef,
    /// The op that called it (`None` for the entry function).
    pub site: Option<OpId>,
    /// The caller's frame as the call found it (its values cannot change
    /// while the callee runs; memref contents are read live).
    pub caller: Option<Rc<Frame>>,
    /// Regions entered inside this call, counting the body.
    pub regions: usize,
}

/// A front end: shown every pause, asked how to go on.
pub trait Ui {
    /// The run paused; `points` may be edited. Returns how to go on.
    fn stop(&mut self, s: &Stopped<'_, '_>, points: &mut Points) -> Resume;
    /// The run ended; returns [`Resume::Restart`] or [`Resume::Quit`].
    fn ended(&mut self, end: &Ended, points: &mut Points) -> Resume;
    /// A message for the user (a watchpoint that did not survive a restart).
    fn say(&mut self, msg: &str);
    /// Where the program's own output goes.
    fn program_output(&mut self) -> Box<dyn std::io::Write>;
    /// A run is about to start; these are the program's functions.
    fn loaded(&mut self, funcs: Vec<String>);
    /// Asked now and then while the run goes on: true to pause it (the
    /// user interrupted); may edit `points` (breakpoints set while running).
    fn poll(&mut self, _points: &mut Points) -> bool {
        false
    }
}

/// Ops between two [`Ui::poll`]s: often enough to answer within
/// milliseconds, rarely enough to cost nothing.
const POLL_EVERY: u32 = 4096;

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Ended {
    /// The entry function returned; its results as `%i = <literal> : <type>` lines.
    Exited(String),
    /// It failed with this error (rendered); `seen` if a pause showed it already.
    Failed {
        /// The error.
        err: Error,
        /// Its diagnostic.
        text: String,
        /// A [`Reason::Fault`] pause showed it.
        seen: bool,
    },
}

/// What a debugging session runs.
pub struct Session<'a> {
    /// The module.
    pub m: &'a Module,
    /// Its source.
    pub src: &'a Source,
    /// Engine limits.
    pub cfg: crate::exec::Config,
    /// The entry function.
    pub entry: String,
    /// Entry arguments, as `--arg` texts.
    pub args: Vec<String>,
}

impl Session<'_> {
    /// Whether the entry function exists and takes these arguments: the
    /// diagnostic `run` gives otherwise, so a front end refuses to start
    /// (the REPL exits 2, DAP's `launch` fails) rather than start a run
    /// that cannot begin.
    pub fn check(&self) -> Result<(), String> {
        let mut e = Engine::load(self.m, self.cfg.clone(), Box::new(std::io::sink()))
            .map_err(|err| err.render(self.m, self.src))?;
        e.entry(&self.entry)
            .and_then(|_| crate::args::entry_args(&mut e, self.src, &self.entry, &self.args))
            .map(|_| ())
            .map_err(|err| err.render(self.m, self.src))
    }
}

/// Runs `sess` under `ui` until it quits, restarting when asked; an error
/// is the diagnostic of a program or arguments that cannot be used.
pub fn run_session<U: Ui>(sess: &Session<'_>, ui: U, stop_on_entry: bool) -> Result<(), String> {
    run_session_with(sess, ui, Points::default(), stop_on_entry)
}

/// [`run_session`] starting with breakpoints `points`.
pub fn run_session_with<U: Ui>(sess: &Session<'_>, ui: U, points: Points, stop_on_entry: bool) -> Result<(), String> {
    let (m, src) = (sess.m, sess.src);
    sess.check()?;
    let mut dbg = Debugger::new(src, ui);
    dbg.stop_on_entry = stop_on_entry;
    dbg.points = points;
    let dbg = Rc::new(RefCell::new(dbg));
    loop {
        let dropped = dbg.borrow_mut().begin_run();
        for w in dropped {
            dbg.borrow_mut().ui.say(&format!("Watchpoint {} deleted: {} belonged to the last run.", w.id, w.expr));
        }
        let out = dbg.borrow_mut().ui.program_output();
        let mut e = Engine::load(m, sess.cfg.clone(), out).map_err(|err| err.render(m, src))?;
        dbg.borrow_mut().ui.loaded(e.funcs.iter().map(|f| f.name.clone()).collect());
        let args = crate::args::entry_args(&mut e, src, &sess.entry, &sess.args).map_err(|err| err.render(m, src))?;
        e.observer = Some(Box::new(Hook(dbg.clone())));
        let r = e.run_entry_with(&sess.entry, args);
        drop(e.observer.take());
        let _ = e.out.flush();
        let (outcome, seen) = {
            let mut d = dbg.borrow_mut();
            (d.outcome.take(), d.faulted)
        };
        let end = match (outcome, r) {
            (Some(Resume::Quit), _) => return Ok(()),
            (Some(_), _) => continue,
            (None, Ok(vals)) => Ended::Exited(crate::driver::results_text(&e, &sess.entry, &vals)),
            (None, Err(err)) => Ended::Failed { text: err.render(m, src), err, seen },
        };
        drop(e);
        let mut d = dbg.borrow_mut();
        let d = &mut *d;
        if d.ui.ended(&end, &mut d.points) == Resume::Quit {
            return Ok(());
        }
    }
}

/// The paused run as a front end sees it: the engine, the innermost frame,
/// the op, the call stack, and what can be read from them.
pub struct Stopped<'a, 'm> {
    /// The engine (memory, functions, the module).
    pub e: &'a Engine<'m>,
    /// The innermost frame.
    pub fr: &'a Frame,
    /// The op paused at.
    pub op: OpId,
    /// Paused after `op` ran (a watchpoint) rather than before.
    pub after: bool,
    /// Why.
    pub reason: &'a Reason,
    /// Call levels, outermost first.
    pub stack: &'a [Level],
    /// The program's source.
    pub src: &'a Source,
}

/// Every op inside a function body (what runs; not functions or globals).
pub fn body_ops(m: &Module) -> impl Iterator<Item = OpId> + '_ {
    (0..m.ops.len() as u32).map(OpId).filter(|op| m.parent_op(*op).and_then(|p| m.parent_op(p)).is_some())
}

/// The first line at or after `line` where an op of a function body
/// starts: where a breakpoint on `line` stops (gdb and editors move a
/// breakpoint on a blank or comment line to the next statement).
pub fn op_line_from(src: &Source, m: &Module, line: usize) -> Option<usize> {
    body_ops(m).map(|op| line_of(src, m, op)).filter(|l| *l >= line.max(1)).min()
}

/// The source line of `op`.
pub fn line_of(src: &Source, m: &Module, op: OpId) -> usize {
    src.line_col(m.op(op).span.start).0
}

impl<'a> Stopped<'a, '_> {
    /// How many call levels there are.
    pub fn depth(&self) -> usize {
        self.stack.len().max(1)
    }

    /// Frame `k` (0: innermost): its op (the pause's, or the call's) and
    /// its values, if the debugger saw them.
    pub fn frame(&self, k: usize) -> Option<(OpId, &'a Frame)> {
        if k == 0 {
            return Some((self.op, self.fr));
        }
        let lvl = self.stack.get(self.stack.len().checked_sub(k)?)?;
        Some((lvl.site?, lvl.caller.as_deref()?))
    }

    /// The function of frame `k`.
    pub fn func_name(&self, k: usize) -> &'a str {
        let n = self.stack.len();
        match n.checked_sub(k + 1).and_then(|i| self.stack.get(i)) {
            Some(l) => self.e.funcs.get(l.func.0 as usize).map_or("?", |f| f.name.as_str()),
            None => "?",
        }
    }

    /// `file:line:col` of `op`.
    pub fn loc(&self, op: OpId) -> String {
        let (line, col) = self.src.line_col(self.e.m.op(op).span.start);
        format!("{}:{line}:{col}", self.src.name)
    }

    /// The values in scope at frame `k`'s op that have been computed, outer
    /// scopes first, with their names.
    pub fn scope(&self, k: usize) -> Vec<(String, ValueId)> {
        let Some((op, fr)) = self.frame(k) else { return Vec::new() };
        let m = self.e.m;
        let func_op = self
            .stack
            .len()
            .checked_sub(k + 1)
            .and_then(|i| self.stack.get(i))
            .map(|l| self.e.funcs[l.func.0 as usize].op);
        let mut levels: Vec<Vec<ValueId>> = Vec::new();
        let mut at = op;
        let mut include_at = k == 0 && self.after;
        while let Some(b) = m.op(at).parent {
            let Some(region) = m.block(b).parent else { break };
            let mut vals = Vec::new();
            for &bb in &m.region(region).blocks {
                let here = bb == b;
                let set = |v: ValueId| !matches!(self.e.get(fr, v), Value::Opaque);
                vals.extend(m.args(bb).filter(|v| here || set(*v)));
                for &o in &m.block(bb).ops {
                    if here && o == at && !include_at {
                        break;
                    }
                    vals.extend(m.results(o).filter(|v| here || set(*v)));
                    if here && o == at {
                        break;
                    }
                }
            }
            levels.push(vals);
            include_at = false;
            match m.region(region).parent {
                Some(p) if Some(p) != func_op && m.op(p).parent.is_some() => at = p,
                _ => break,
            }
        }
        levels.reverse();
        levels.into_iter().flatten().map(|v| (value_name(self.src, m, v), v)).collect()
    }

    /// The value named `name` (`%x`, `%r#1`, `%arg0`) in scope at frame `k`.
    pub fn lookup(&self, k: usize, name: &str) -> Option<(ValueId, &'a Value)> {
        let (_, fr) = self.frame(k)?;
        let v = self.scope(k).into_iter().rev().find(|(n, _)| n == name)?.1;
        Some((v, self.e.get(fr, v)))
    }

    /// The type of `v` as MLIR writes it.
    pub fn type_of(&self, v: ValueId) -> String {
        mlir_ir::printer::type_to_string(&self.e.m.ctx, self.e.m.type_of(v))
    }

    /// Whether value `v`'s integers are `uiN`, shown unsigned.
    pub fn unsigned(&self, v: ValueId) -> bool {
        show::unsigned(&self.e.m.ctx, self.e.m.type_of(v))
    }

    /// `print EXPR`: a value, or a slice of a memref, tensor or vector, as
    /// text (tables for arrays).
    pub fn print(&self, k: usize, expr: &str) -> Result<String, String> {
        let (name, slices) = parse_expr(expr)?;
        let (v, val) = self.lookup(k, &name).ok_or_else(|| format!("no value {name} in scope here"))?;
        let (ty, unsigned) = (self.type_of(v), self.unsigned(v));
        match val {
            Value::Scalar(_) | Value::Wide(_) if slices.is_none() => Ok(format!(
                "{name} = {} : {ty}",
                val.scalar().map_or_else(String::new, |s| show::scalar_as(&s, unsigned))
            )),
            Value::Array(d) => {
                let table = Table::of_dense(d, slices.as_deref(), unsigned)?;
                Ok(format!("{expr} : {ty}\n{}", table.render()))
            }
            Value::Memref(mr) => {
                let shape: Vec<usize> = mr.sizes.iter().map(|s| usize::try_from(*s).unwrap_or(0)).collect();
                let at = self.frame(k).map_or(self.op, |f| f.0);
                let read = |idx: &[i64]| match mr.load(at, idx, "print") {
                    Ok(v) => show::value_as(&v, at, unsigned),
                    Err(e) => format!("<{}>", e.kind),
                };
                let table = Table::build(&shape, slices.as_deref(), &read)?;
                Ok(format!("{expr} : {ty}  ({})\n{}", place(mr), table.render()))
            }
            _ if slices.is_some() => Err(format!("{name} is not a memref, tensor or vector; it cannot be sliced")),
            other => Ok(format!("{name} = {} : {ty}", show::value_as(other, self.op, unsigned))),
        }
    }

    /// One line per value in scope at frame `k`: `%x = 5 : i32`; arrays
    /// cut short, memrefs as their place.
    pub fn locals(&self, k: usize) -> Vec<String> {
        let Some((_, fr)) = self.frame(k) else { return Vec::new() };
        self.scope(k)
            .into_iter()
            .map(|(n, v)| format!("{n} = {} : {}", brief(self.e.get(fr, v), self.unsigned(v)), self.type_of(v)))
            .collect()
    }

    /// `#k  @func at file:line:col: op.name`, innermost first.
    pub fn backtrace(&self) -> Vec<String> {
        (0..self.depth())
            .filter_map(|k| {
                let op = if k == 0 { Some(self.op) } else { self.stack.get(self.stack.len() - k)?.site };
                let op = op?;
                Some(format!("#{k}  @{} at {}: {}", self.func_name(k), self.loc(op), self.e.m.op_name(op)))
            })
            .collect()
    }

    /// Resolves `watch EXPR` (`%m[i, j]`, a memref element) at frame `k`.
    pub fn watch(&self, k: usize, expr: &str) -> Result<Watchpoint, String> {
        let (name, slices) = parse_expr(expr)?;
        let (v, val) = self.lookup(k, &name).ok_or_else(|| format!("no value {name} in scope here"))?;
        let unsigned = self.unsigned(v);
        let Value::Memref(mr) = val else {
            return Err(format!("{name} is not a memref: only memref elements change, so only they can be watched"));
        };
        let slices = slices.unwrap_or_default();
        let idx: Option<Vec<i64>> =
            slices.iter().map(|s| if let Slice::At(i) = s { Some(*i as i64) } else { None }).collect();
        match idx {
            Some(idx) if idx.len() == mr.rank() => {
                let mem = val.clone();
                let last = read_element(&mem, &idx, unsigned).map_err(|e| format!("{expr}: {e}"))?;
                Ok(Watchpoint { id: 0, expr: expr.to_string(), mem, idx, last, unsigned })
            }
            _ => Err(format!(
                "watch one element: give all {} indices, as in {name}[{}]",
                mr.rank(),
                vec!["0"; mr.rank()].join(", ")
            )),
        }
    }
}

/// A watched element's text now, or why it cannot be read (freed).
fn read_element(mem: &Value, idx: &[i64], unsigned: bool) -> Result<String, String> {
    match mem {
        Value::Memref(mr) => match mr.load(OpId(0), idx, "watch") {
            Ok(v) => Ok(show::value_as(&v, OpId(0), unsigned)),
            Err(e) => Err(e.kind.to_string()),
        },
        _ => Err("not a memref".to_string()),
    }
}

/// A value briefly: scalars in full (integers unsigned when `unsigned`,
/// for a `uiN` type), arrays up to 8 elements, memrefs by place.
pub fn brief(v: &Value, unsigned: bool) -> String {
    show::brief(v, unsigned, 8, |m| format!("<{}>", place(m)))
}

/// Where a memref's view is: its aligned address, offset and strides.
fn place(m: &crate::memory::MemRef) -> String {
    let strides = if m.map.is_some() {
        "an affine map layout".to_string()
    } else {
        format!("strides {}", crate::memory::list(&m.strides))
    };
    format!("at {:#x}, offset {}, {strides}", m.aligned_addr(), m.offset)
}

/// One dimension of a slice expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slice {
    /// One index (the dimension is dropped).
    At(usize),
    /// `a:b` (either end may be left out).
    Range(Option<usize>, Option<usize>),
}

/// `%name` or `%name[1:3, :, 2]`.
fn parse_expr(expr: &str) -> Result<(String, Option<Vec<Slice>>), String> {
    let expr = expr.trim();
    if !expr.starts_with('%') {
        return Err(format!("'{expr}' is not a value: write %name, or %name[1:3, :] for a slice"));
    }
    let (name, rest) = match expr.find('[') {
        Some(i) => (expr[..i].trim(), Some(&expr[i..])),
        None => (expr, None),
    };
    if name.len() < 2 || !name.chars().all(|c| is_name_char(c) || c == '#') {
        return Err(format!("'{name}' is not a value name"));
    }
    let Some(rest) = rest else { return Ok((name.to_string(), None)) };
    let inner = rest
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("'{rest}': a slice is [i, a:b, :, ...]"))?;
    let num = |t: &str| -> Result<Option<usize>, String> {
        let t = t.trim();
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<usize>().map(Some).map_err(|_| format!("'{t}' is not an index"))
    };
    let mut dims = Vec::new();
    for part in inner.split(',') {
        match part.split_once(':') {
            Some((a, b)) => dims.push(Slice::Range(num(a)?, num(b)?)),
            None => dims.push(Slice::At(num(part)?.ok_or_else(|| "an empty index".to_string())?)),
        }
    }
    Ok((name.to_string(), Some(dims)))
}

/// Elements laid out for printing: 2-d planes of aligned columns labelled
/// with their indices in the whole value.
struct Table {
    /// For each kept dimension: its original indices.
    axes: Vec<Vec<usize>>,
    /// The cells, row-major over the kept dimensions.
    cells: Vec<String>,
    /// Elements not shown (over [`TABLE_MAX`]).
    cut: usize,
    /// Dimensions fixed by a single index, for the heading.
    fixed: Vec<Option<usize>>,
}

impl Table {
    fn of_dense(d: &Dense, slices: Option<&[Slice]>, unsigned: bool) -> Result<Table, String> {
        let strides = crate::dense::row_major_strides(d.shape());
        let read = |idx: &[i64]| {
            let lin: usize = idx.iter().zip(&strides).map(|(i, s)| *i as usize * s).sum();
            show::scalar_as(&d.get(lin), unsigned)
        };
        Table::build(d.shape(), slices, &read)
    }

    /// Reads the elements `slices` selects of a value of `shape`.
    fn build(shape: &[usize], slices: Option<&[Slice]>, read: &dyn Fn(&[i64]) -> String) -> Result<Table, String> {
        let slices = slices.unwrap_or(&[]);
        if slices.len() > shape.len() {
            return Err(format!("{} indices for a value of rank {}", slices.len(), shape.len()));
        }
        let mut axes = Vec::new();
        let mut fixed = Vec::new();
        let mut picks: Vec<Vec<usize>> = Vec::new();
        for (d, &n) in shape.iter().enumerate() {
            match slices.get(d).copied().unwrap_or(Slice::Range(None, None)) {
                Slice::At(i) if i < n => {
                    picks.push(vec![i]);
                    fixed.push(Some(i));
                }
                Slice::At(i) => return Err(format!("index {i} is out of bounds for dimension {d} of size {n}")),
                Slice::Range(a, b) => {
                    let (a, b) = (a.unwrap_or(0), b.unwrap_or(n));
                    if a > b || b > n {
                        return Err(format!("{a}:{b} is out of bounds for dimension {d} of size {n}"));
                    }
                    picks.push((a..b).collect());
                    axes.push((a..b).collect());
                    fixed.push(None);
                }
            }
        }
        let total: usize = picks.iter().map(Vec::len).product();
        let shown = total.min(TABLE_MAX);
        let mut cells = Vec::with_capacity(shown);
        let mut pos = vec![0usize; picks.len()];
        for _ in 0..shown {
            let idx: Vec<i64> = pos.iter().zip(&picks).map(|(p, v)| v[*p] as i64).collect();
            cells.push(read(&idx));
            for d in (0..pos.len()).rev() {
                pos[d] += 1;
                if pos[d] < picks[d].len() {
                    break;
                }
                pos[d] = 0;
            }
        }
        Ok(Table { axes, cells, cut: total - shown, fixed })
    }

    /// The text: a value, a row, or planes of rows and columns.
    fn render(&self) -> String {
        let mut out = String::new();
        match self.axes.len() {
            0 => out.push_str(self.cells.first().map_or("", String::as_str)),
            1 => self.plane(&mut out, &[], &self.axes[0], &self.cells),
            r => {
                let (rows, cols) = (&self.axes[r - 2], &self.axes[r - 1]);
                let per = rows.len() * cols.len();
                let outer: Vec<&Vec<usize>> = self.axes[..r - 2].iter().collect();
                let mut pos = vec![0usize; outer.len()];
                for (p, chunk) in self.cells.chunks(per.max(1)).enumerate() {
                    if p > 0 {
                        out.push_str("\n\n");
                    }
                    if !outer.is_empty() {
                        out.push_str(&self.heading(&outer, &pos));
                        out.push('\n');
                    }
                    self.plane(&mut out, rows, cols, chunk);
                    for d in (0..pos.len()).rev() {
                        pos[d] += 1;
                        if pos[d] < outer[d].len() {
                            break;
                        }
                        pos[d] = 0;
                    }
                }
            }
        }
        if self.cut > 0 {
            out.push_str(&format!("\n... {} more elements (print a slice to see them)", self.cut));
        }
        out
    }

    /// `[i, j, :, :]` for a plane of a value of rank over 2.
    fn heading(&self, outer: &[&Vec<usize>], pos: &[usize]) -> String {
        let mut k = 0;
        let parts: Vec<String> = self
            .fixed
            .iter()
            .map(|f| match f {
                Some(i) => i.to_string(),
                None if k < outer.len() => {
                    k += 1;
                    outer[k - 1][pos[k - 1]].to_string()
                }
                None => ":".to_string(),
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }

    /// One plane: a header of column indices, then rows labelled with theirs
    /// (`rows` empty: a single unlabelled row).
    fn plane(&self, out: &mut String, rows: &[usize], cols: &[usize], cells: &[String]) {
        let nrows = rows.len().max(1);
        let width = |c: usize| {
            let head = format!("[{}]", cols[c]).len();
            (0..nrows).filter_map(|r| cells.get(r * cols.len() + c)).map(String::len).max().unwrap_or(0).max(head)
        };
        let widths: Vec<usize> = (0..cols.len()).map(width).collect();
        let label = rows.iter().map(|r| format!("[{r}]").len()).max().unwrap_or(0);
        out.push_str(&" ".repeat(label));
        for (c, w) in widths.iter().enumerate() {
            out.push_str(&format!("  {:>w$}", format!("[{}]", cols[c])));
        }
        for r in 0..nrows {
            if r * cols.len() >= cells.len() && !cells.is_empty() {
                break;
            }
            out.push('\n');
            let l = rows.get(r).map_or(String::new(), |i| format!("[{i}]"));
            out.push_str(&format!("{l:>label$}"));
            for (c, w) in widths.iter().enumerate() {
                let cell = cells.get(r * cols.len() + c).map_or("", String::as_str);
                out.push_str(&format!("  {cell:>w$}"));
            }
        }
    }
}

/// How far the run goes before the next pause.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Step,
    /// Pause at call depth at most `calls` and region depth at most `regions`.
    Next {
        calls: usize,
        regions: usize,
    },
    /// Pause at call depth below `calls`.
    Finish {
        calls: usize,
    },
    Continue,
}

/// The debugger: points, the stepping mode and the call stack, and the
/// front end it pauses into.
pub struct Debugger<'s, U: Ui> {
    src: &'s Source,
    /// The front end.
    pub ui: U,
    /// Breakpoints and watchpoints.
    pub points: Points,
    /// Pause before the first op of a run.
    pub stop_on_entry: bool,
    mode: Mode,
    stack: Vec<Level>,
    /// The caller's frame, taken before an op that may call.
    pending_caller: Option<Rc<Frame>>,
    /// A function breakpoint whose function was just called.
    pending_func: Option<usize>,
    /// What `finish` brought back, shown at the next pause.
    returned: Option<(String, Vec<String>)>,
    first: bool,
    last_line: usize,
    /// Ops until the next [`Ui::poll`].
    until_poll: u32,
    /// What ended the run early (restart or quit), if anything did.
    pub outcome: Option<Resume>,
    /// The run stopped at a fault and the front end has seen it.
    pub faulted: bool,
}

impl<'s, U: Ui> Debugger<'s, U> {
    /// A debugger of `src`'s program with front end `ui`.
    pub fn new(src: &'s Source, ui: U) -> Debugger<'s, U> {
        Debugger {
            src,
            ui,
            points: Points::default(),
            stop_on_entry: true,
            mode: Mode::Continue,
            stack: Vec::new(),
            pending_caller: None,
            pending_func: None,
            returned: None,
            first: true,
            last_line: 0,
            until_poll: POLL_EVERY,
            outcome: None,
            faulted: false,
        }
    }

    /// Readies a new run: no stack, no watchpoints (their memrefs are gone).
    pub fn begin_run(&mut self) -> Vec<Watchpoint> {
        self.mode = Mode::Continue;
        self.stack.clear();
        self.pending_caller = None;
        self.pending_func = None;
        self.returned = None;
        self.first = true;
        self.last_line = 0;
        self.outcome = None;
        self.faulted = false;
        std::mem::take(&mut self.points.watches)
    }

    /// Why to pause before `op`, if at all.
    fn pause_reason(&mut self, e: &Engine<'_>, op: OpId) -> Option<Reason> {
        let m = e.m;
        let line = line_of(self.src, m, op);
        let last_line = std::mem::replace(&mut self.last_line, line);
        if std::mem::take(&mut self.first) && self.stop_on_entry {
            return Some(Reason::Entry);
        }
        self.until_poll -= 1;
        if self.until_poll == 0 {
            self.until_poll = POLL_EVERY;
            if self.ui.poll(&mut self.points) {
                return Some(Reason::Interrupted);
            }
        }
        let mut hit = self.pending_func.take();
        if hit.is_none() {
            let name = m.op_name(op);
            hit = self
                .points
                .breaks
                .iter()
                .find(|b| match &b.at {
                    Where::Line(n) => *n == line && last_line != line,
                    Where::Op(n) => n == name,
                    Where::Func(_) => false,
                })
                .map(|b| b.id);
        }
        if let Some(id) = hit {
            if let Some(b) = self.points.breaks.iter_mut().find(|b| b.id == id) {
                b.hits += 1;
            }
            return Some(Reason::Breakpoint(id));
        }
        let calls = self.stack.len();
        let regions = self.stack.last().map_or(0, |l| l.regions);
        let stop = match self.mode {
            Mode::Step => true,
            Mode::Next { calls: c, regions: r } => calls < c || (calls == c && regions <= r),
            Mode::Finish { calls: c } => calls < c,
            Mode::Continue => false,
        };
        if !stop {
            return None;
        }
        Some(match self.returned.take() {
            Some((f, vals)) => Reason::Returned(f, vals),
            None => Reason::Step,
        })
    }

    /// Hands the pause to the front end and sets up what comes next.
    fn pause(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId, after: bool, reason: Reason) -> Control {
        let s = Stopped { e, fr, op, after, reason: &reason, stack: &self.stack, src: self.src };
        let how = self.ui.stop(&s, &mut self.points);
        let calls = self.stack.len();
        let regions = self.stack.last().map_or(0, |l| l.regions);
        self.mode = match how {
            Resume::Step => Mode::Step,
            Resume::Next => Mode::Next { calls, regions },
            Resume::Finish => Mode::Finish { calls },
            Resume::Continue => Mode::Continue,
            Resume::Restart | Resume::Quit => {
                self.outcome = Some(how);
                return Control::Halt;
            }
        };
        Control::Continue
    }
}

/// The [`Observer`] of a run: the debugger, shared with the driver that
/// restarts runs.
pub struct Hook<'s, U: Ui>(pub Rc<RefCell<Debugger<'s, U>>>);

impl<U: Ui> Observer for Hook<'_, U> {
    fn before_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        let mut d = self.0.borrow_mut();
        // The frame a call leaves behind, for `frame N` above the callee.
        let name = e.m.op_name(op);
        d.pending_caller = (name.ends_with("call") || name.ends_with("call_indirect")).then(|| Rc::from(fr));
        match d.pause_reason(e, op) {
            Some(r) => d.pause(e, fr, op, false, r),
            None => Control::Continue,
        }
    }

    fn after_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        let mut d = self.0.borrow_mut();
        if d.points.watches.is_empty() {
            return Control::Continue;
        }
        // Every watchpoint is compared, so that all the elements one op
        // changes are reported at that op, not one of them at a later stop.
        let mut hits = Vec::new();
        let mut gone = Vec::new();
        for w in &mut d.points.watches {
            let now = read_element(&w.mem, &w.idx, w.unsigned);
            if now.as_ref() != Ok(&w.last) {
                // An element that cannot be read any more (its memref was
                // freed) ends the watchpoint, as a local's does in gdb.
                let new = now.unwrap_or_else(|e| {
                    gone.push(w.id);
                    format!("<{e}>; watchpoint deleted")
                });
                let old = std::mem::replace(&mut w.last, new.clone());
                hits.push(WatchHit { id: w.id, expr: w.expr.clone(), old, new });
            }
        }
        for id in gone {
            d.points.delete(id);
        }
        if hits.is_empty() {
            Control::Continue
        } else {
            d.pause(e, fr, op, true, Reason::Watch(hits))
        }
    }

    fn fault(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId, err: &Error) {
        let mut d = self.0.borrow_mut();
        d.faulted = true;
        // Whatever the front end answers, the run ends with `err`; a
        // restart or quit is still remembered for the driver.
        let _ = d.pause(e, fr, op, false, Reason::Fault(err.clone()));
    }

    fn enter_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _region: RegionId) {
        if let Some(l) = self.0.borrow_mut().stack.last_mut() {
            l.regions += 1;
        }
    }

    fn leave_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _region: RegionId) {
        if let Some(l) = self.0.borrow_mut().stack.last_mut() {
            l.regions = l.regions.saturating_sub(1);
        }
    }

    fn call(&mut self, e: &Engine<'_>, at: OpId, f: FuncRef, _args: &[Value]) {
        let mut d = self.0.borrow_mut();
        let entry = d.stack.is_empty();
        let caller = d.pending_caller.take();
        d.stack.push(Level { func: f, site: (!entry).then_some(at), caller, regions: 0 });
        let name = &e.funcs[f.0 as usize].name;
        d.pending_func = d.points.breaks.iter().find(|b| b.at == Where::Func(name.clone())).map(|b| b.id);
        if entry && d.stop_on_entry {
            // The entry pause comes first; a breakpoint on the entry function is the same place.
            d.pending_func = None;
        }
    }

    fn ret(&mut self, e: &Engine<'_>, f: FuncRef, results: &[Value]) {
        let mut d = self.0.borrow_mut();
        if let Mode::Finish { calls } = d.mode {
            if d.stack.len() == calls {
                let types = &e.funcs[f.0 as usize].results;
                let vals = results
                    .iter()
                    .zip(types)
                    .map(|(v, t)| {
                        format!(
                            "{} : {}",
                            brief(v, show::unsigned(&e.m.ctx, *t)),
                            mlir_ir::printer::type_to_string(&e.m.ctx, *t)
                        )
                    })
                    .collect();
                d.returned = Some((e.funcs[f.0 as usize].name.clone(), vals));
            }
        }
        d.stack.pop();
    }
}
