//! The engine: loading (functions, SSA slot numbering, pre-decoded op
//! attributes), frames, block-argument branching, region execution, calls,
//! fuel and the call-depth limit.
//!
//! Loading numbers every SSA value of a function densely, so a frame is a
//! `Vec<Value>` indexed by slot and no op execution hashes anything. Op
//! attributes the hot path needs (predicates, flags, constants, callees) are
//! decoded once into `Aux`, a table indexed by op id, and every block is
//! translated once (`crate::code`) into the instructions `run.rs` executes.
//! The engine defines no op semantics itself: the dialects and the runtime
//! library come in as `Semantics` from the layer above.
//!
//! With an observer attached, regions are walked op by op through the
//! dialects instead (the same results: `tests/translated.rs`).
//!
//! A direct call in translated code runs in the caller's instruction loop,
//! on a stack of calls (`run::Call`) rather than the host's. Other calls
//! (observed, indirect, through a dialect op) recurse on the host stack.
//! Both count against one checked depth (`--max-call-depth`), and the CLI
//! runs the engine on a thread whose stack is sized for that depth.

mod run;

use crate::code::{Code, Slot};
use crate::dense::DenseError;
use crate::error::{Error, ErrorKind, Result};
use crate::value::{Dense, FuncRef, Int, Scalar, Value};
use mlir_ir::attrs::{Attribute, DenseValues, FloatLit, IntVal};
use mlir_ir::ir::{BlockId, Module, OpId, RegionId, ValueId};
use mlir_ir::ops::{DialectOp, OpKind};
use mlir_ir::types::{TypeId, TypeKind};
use rustc_hash::FxHashMap;
use std::io::Write;
use std::rc::Rc;

/// Engine limits and target parameters.
#[derive(Clone, Debug)]
pub struct Config {
    /// Maximum number of executed ops (`None`: unlimited).
    pub max_steps: Option<u64>,
    /// Maximum call depth.
    pub max_call_depth: u32,
    /// Bit width of `index` (64 or 32).
    pub index_bits: u32,
    /// The value of `vector.vscale`: scalable dimensions `[n]` hold `n * vscale` lanes.
    pub vscale: u32,
    /// Memory still allocated at exit is an error rather than a warning.
    pub check_leaks: bool,
    /// Conversions with no defined result: reported or saturated (`--float-policy`).
    pub float_policy: crate::float::Policy,
    /// The budget for run-time storage in bytes: memrefs, vectors, tensors
    /// and call frames (`--max-memory`; 0: half of physical memory).
    pub max_memory: usize,
    /// Wall-clock limit of a run (`--timeout`).
    pub timeout: Option<std::time::Duration>,
    /// `llvm.intr.matrix.*` read and write their flat vectors row by row
    /// (mlir-runner's `-matrix-default-layout=row-major`); LangRef's
    /// default is column by column.
    pub matrix_row_major: bool,
    /// `llvm.intr.matrix.multiply` fuses each multiply-add (mlir-runner's
    /// `-matrix-allow-contract`: LLVM emits `fmuladd`, fused on x86-64).
    pub matrix_contract: bool,
    /// Asked every 2^16 units of fuel (as often as the clock is read):
    /// `true` stops the run with [`ErrorKind::Interrupted`]. An embedder
    /// that runs the engine with its own lock released (Python's GIL)
    /// polls for Ctrl-C here.
    pub interrupt: Option<Interrupt>,
}

/// A poll for "stop now" (see [`Config::interrupt`]).
#[derive(Clone)]
pub struct Interrupt(pub std::sync::Arc<dyn Fn() -> bool + Send + Sync>);

impl std::fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Interrupt(..)")
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_steps: None,
            max_call_depth: 10_000,
            index_bits: 64,
            vscale: 1,
            check_leaks: false,
            float_policy: crate::float::Policy::Strict,
            max_memory: 0,
            timeout: None,
            matrix_row_major: false,
            matrix_contract: false,
            interrupt: None,
        }
    }
}

/// The [`Engine::cost`] bit of an op that reserves memory for its result.
const HEAVY: u64 = 1 << 63;

/// Host stack bytes reserved per level of interpreted call (measured use is
/// well below this; the reservation is virtual memory).
pub const STACK_PER_CALL: usize = 16 * 1024;

/// A frame: one value per SSA slot of the function. A slice, not a `Vec`:
/// nothing that runs an op can change its length, which translated code
/// checks once per run (`code::Code::need`).
pub type Frame = [Value];

/// The bytes a call with a frame of `nslots` slots charges: the frame and
/// the host stack a call nests on.
fn frame_bytes(nslots: u32) -> usize {
    (nslots as usize).saturating_mul(std::mem::size_of::<Value>()) + STACK_PER_CALL
}

/// What executing one op does to control flow.
#[derive(Debug)]
pub(crate) enum Flow {
    /// Continue with the next op.
    Next,
    /// Jump to a block of the same region, passing its arguments.
    Branch(BlockId, Vec<Value>),
    /// Leave the region (return, yield, condition, ...) with these values.
    Exit(Vec<Value>),
}

pub(crate) use crate::code::{Aux, UNSIGNED};
pub(crate) use crate::sem::int::{EXACT, NNEG, NSW, NUW};

/// A function of the module (with a body) or an external declaration.
#[derive(Clone, Debug)]
pub struct Func {
    /// The `func.func` op.
    pub op: OpId,
    /// Symbol name.
    pub name: String,
    /// The body, if defined.
    pub body: Option<RegionId>,
    /// Number of SSA slots of its frame.
    pub(crate) nslots: u32,
    /// Result types.
    pub results: Vec<TypeId>,
    /// Argument types.
    pub inputs: Vec<TypeId>,
    /// Whether it takes variadic arguments after `inputs` (`llvm.func`'s `...`).
    pub(crate) vararg: bool,
    /// The entry block of the body and the slot of its first argument.
    pub(crate) entry: Option<(BlockId, Slot)>,
    /// Slots whose values may own storage (memrefs, vectors, tensors,
    /// pointers, scalars held out of line): cleared when a frame is put
    /// back for reuse, so a call's arguments are copied over nothing.
    pub(crate) owning: Rc<[Slot]>,
    /// Whether its body (at any depth) allocates on the stack or saves the
    /// stack pointer, so a call needs an allocation scope of its own.
    pub(crate) scoped: bool,
    /// What a call from translated code needs, when it may run the body in
    /// the caller's loop: `None` for a declaration, or a body whose
    /// instructions name more slots (`Code::need`) than `nslots`.
    pub(crate) fast: Option<FastEntry>,
}

/// The extra arguments of a call of a variadic function, for
/// `llvm.intr.vastart` in its body.
#[derive(Debug)]
pub(crate) struct VaArgs {
    /// Each extra argument with its type at the call.
    pub(crate) args: Vec<(TypeId, Value)>,
    /// The memory the llvm dialect laid them out in, once a `vastart` did.
    pub(crate) area: Option<Value>,
}

/// All a call from translated code reads of a defined function, in one
/// lookup (see [`Func::fast`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastEntry {
    /// Where the instructions of its entry block start.
    pub(crate) start: u32,
    /// The slot of its first argument.
    pub(crate) arg0: Slot,
    /// [`Func::nslots`].
    pub(crate) nslots: u32,
    /// The bytes [`Engine::enter_frame`] charges a call.
    pub(crate) charge: usize,
    /// [`Func::scoped`].
    pub(crate) scoped: bool,
    /// Whether any slot may own storage ([`Func::owning`]).
    pub(crate) owns: bool,
}

/// The integer attributes of one op, decoded, by name.
type OpInts<'m> = Box<[(&'m str, Box<[i64]>)]>;

/// The loaded program and the state of a run.
pub struct Engine<'m> {
    /// The module.
    pub m: &'m Module,
    /// Limits.
    pub cfg: Config,
    /// Slot of every value, by value id.
    slot: Vec<u32>,
    /// Each op's operand slots (a run of `operand_slots`) and its first
    /// result slot and result count, by op id: what the dialects' operand
    /// plumbing reads without going back to the IR.
    operand_runs: Vec<(u32, u32)>,
    operand_slots: Vec<u32>,
    result_runs: Vec<(u32, u32)>,
    /// Each op's integer attributes (offsets, sizes, strides, positions,
    /// permutations, ...) decoded at load, by name, for `ints_attr`.
    ints: Vec<OpInts<'m>>,
    /// Decoded attributes, by op id.
    pub(crate) aux: Vec<Aux>,
    /// The fuel each op costs (one plus [`Aux::work`]), with [`HEAVY`] set
    /// when it must reserve memory for its result first, by op id.
    cost: Vec<u64>,
    /// Functions by [`FuncRef`].
    pub funcs: Vec<Func>,
    by_name: FxHashMap<String, FuncRef>,
    /// Fuel not spent by an op's first unit (its elements, what `charge`
    /// adds): the number of ops executed is `work - extra`, so light ops
    /// count themselves with the one addition their fuel needs anyway.
    extra: u64,
    /// Fuel units left until `check_at`: the fuel spent (one per op plus
    /// the elements it touches, what `--max-steps` bounds) is `check_at -
    /// left`. Counting down, an instruction spends its unit with one
    /// decrement and a test for zero. At least 1 between ticks.
    left: u64,
    /// When `--timeout` runs out, and how often (in fuel) to look at the clock.
    deadline: Option<std::time::Instant>,
    next_clock: u64,
    /// The fuel total at which [`Engine::tick`] takes its slow path: the
    /// next clock reading or the step limit, whichever comes first (or one
    /// past the fuel spent, once that has reached them).
    check_at: u64,
    depth: u32,
    /// The variadic arguments of the open calls of variadic functions,
    /// each with the call depth its body runs at.
    va: Vec<(u32, VaArgs)>,
    /// Where print functions write.
    pub out: Box<dyn Write + 'm>,
    /// Buffers, allocation scopes, globals.
    pub mem: crate::memory::Memory,
    /// Frame sizes of the initializer regions of `llvm.mlir.global` ops.
    pub(crate) global_slots: FxHashMap<OpId, u32>,
    /// The values of `tosa.variable`s written so far, by declaring op: the
    /// persistent state `tosa.variable_read`/`variable_write` share.
    pub(crate) tosa_variables: FxHashMap<OpId, Value>,
    /// The sparse tensor runtime's objects (tensors, readers, writers,
    /// random generators), by the address of their handle.
    pub(crate) sparse: crate::sparse_runtime::state::Runtime,
    /// The `llvm.mlir.global_ctors` and `global_dtors` ops.
    xtor_ops: Vec<OpId>,
    /// Who watches the run (trace, debugger, pass checking); `None` costs
    /// one check per region entry and per call.
    pub observer: Option<Box<dyn Observer + 'm>>,
    /// The translated module.
    code: Rc<Code>,
    /// The values the last region exit left.
    exits: Vec<Value>,
    /// Where the values of the last region exit are.
    exit_at: run::ExitVals,
    /// A buffer for parallel block-argument copies.
    scratch: Vec<Value>,
    /// Frames of returned calls, kept to be reused, by function.
    frames: Vec<Vec<Vec<Value>>>,
    /// The structures translated code is inside (see `run::Ctl`).
    ctl: Vec<run::Ctl>,
    /// The call stack of translated code between runs (none open), kept
    /// with its frames for the next `run_code` (see `run::Calls`).
    calls: run::Calls,
    /// What executes ops and external functions.
    sem: Semantics,
    /// Bytes of vector and tensor values copied because an op updating
    /// one found it shared (see [`Engine::unique`]).
    copied: std::cell::Cell<u64>,
}

/// True for the ops whose tensor results are operands they update
/// (`Engine::take_arg`, `Engine::unique`): they allocate only when that
/// operand is shared and `Engine::unique` copies it, which reserves the
/// memory then, so an update in place checks no budget (for a large
/// tensor, a reading of the host's resident set per op).
fn updates_operand(kind: OpKind) -> bool {
    use mlir_ir::ops::{LinalgOp as L, TensorOp as T};
    match kind.dialect_op() {
        DialectOp::Tensor(T::Insert | T::InsertSlice | T::Scatter) => true,
        // The structured ops (`dialects::linalg`'s `structured`).
        DialectOp::Linalg(l) => !matches!(l, L::Index | L::Yield | L::Softmax | L::Pack | L::Unpack),
        _ => false,
    }
}

/// A structured op's one-block body, run at every point of its loop nest
/// with no vector of values in or out: the loop writes each argument into
/// its slot and reads the yielded values where the exit left them.
pub(crate) struct Body {
    /// The body's block.
    pub block: BlockId,
    /// The frame slot of each block argument.
    pub args: Vec<usize>,
}

/// Executes one op through its dialect.
pub(crate) type OpFn = for<'a, 'm> fn(&'a mut Engine<'m>, &'a mut Frame, OpId) -> Result<Flow>;

/// Calls an external function (a declaration without body) from an op.
pub(crate) type ExternalFn = for<'a, 'm> fn(&'a mut Engine<'m>, OpId, FuncRef, Vec<Value>) -> Result<Vec<Value>>;

/// The semantics the engine runs but does not define, supplied by the
/// layer above it (`crate::dialects`), so the engine imports no dialect.
#[derive(Clone, Copy)]
pub(crate) struct Semantics {
    /// Executes one op through its dialect.
    pub op: OpFn,
    /// Calls external function `f` (a declaration without body: the
    /// runtime library) from op `at`.
    pub external: ExternalFn,
}

/// Whether a run goes on after an observer has seen an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Stop the run here: it ends with [`ErrorKind::Halted`] at the op.
    Halt,
}

/// A watcher of a run: told before and after every executed op (operands
/// and then results are in the frame; `Engine::get` reads them, and
/// `e.m.op(op).span` is the op's source location), on entering and leaving
/// each region, and on each call of a defined function and its return.
/// Every method does nothing by default.
pub trait Observer {
    /// `op` is about to execute in frame `fr`.
    fn before_op(&mut self, _e: &Engine<'_>, _fr: &Frame, _op: OpId) -> Control {
        Control::Continue
    }
    /// `op` executed; its results are in `fr` (a terminator's values are not).
    fn after_op(&mut self, _e: &Engine<'_>, _fr: &Frame, _op: OpId) -> Control {
        Control::Continue
    }
    /// `op` failed with `err` (undefined behaviour, a limit, ...), in frame
    /// `fr` as the op left it; the run ends with `err` after this returns.
    fn fault(&mut self, _e: &Engine<'_>, _fr: &Frame, _op: OpId, _err: &Error) {}
    /// `region` is about to run in `fr`.
    fn enter_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _region: RegionId) {}
    /// `region` finished (normally or not).
    fn leave_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _region: RegionId) {}
    /// Op `at` calls defined function `f` with `args`.
    fn call(&mut self, _e: &Engine<'_>, _at: OpId, _f: FuncRef, _args: &[Value]) {}
    /// Defined function `f` returns `results`.
    fn ret(&mut self, _e: &Engine<'_>, _f: FuncRef, _results: &[Value]) {}
}

impl<'m> Engine<'m> {
    /// Loads `m` to run with `sem`: numbers slots, builds the function
    /// table, decodes attributes, translates the code. (`Engine::load`,
    /// in `crate::dialects`, supplies every dialect.)
    pub(crate) fn with_semantics(
        m: &'m Module,
        cfg: Config,
        out: Box<dyn Write + 'm>,
        sem: Semantics,
    ) -> Result<Engine<'m>> {
        let mut e = Engine {
            m,
            cfg: cfg.clone(),
            slot: vec![u32::MAX; m.values.len()],
            operand_runs: Vec::new(),
            operand_slots: Vec::new(),
            result_runs: Vec::new(),
            ints: vec![Box::default(); m.ops.len()],
            aux: vec![Aux::default(); m.ops.len()],
            cost: Vec::new(),
            funcs: Vec::new(),
            by_name: FxHashMap::default(),
            extra: 0,
            left: 1,
            deadline: None,
            next_clock: 0,
            check_at: 1,
            depth: 0,
            va: Vec::new(),
            out,
            mem: crate::memory::Memory::with_limit(cfg.max_memory),
            global_slots: FxHashMap::default(),
            tosa_variables: FxHashMap::default(),
            sparse: Default::default(),
            xtor_ops: Vec::new(),
            observer: None,
            code: Rc::new(Code::default()),
            exits: Vec::new(),
            exit_at: run::ExitVals::Owned,
            scratch: Vec::new(),
            frames: Vec::new(),
            ctl: Vec::new(),
            calls: run::Calls::default(),
            sem,
            copied: std::cell::Cell::new(0),
        };
        let top = m.top.ok_or_else(|| Error::global(ErrorKind::Internal("no top-level module".into())))?;
        e.collect_funcs(top);
        for i in 0..e.funcs.len() {
            if let Some(body) = e.funcs[i].body {
                let mut n = 0u32;
                e.number_region(body, &mut n);
                e.funcs[i].nslots = n;
                let entry = m.region(body).blocks[0];
                let arg0 = m.args(entry).next().map_or(0, |v| e.slot[v.0 as usize]);
                e.funcs[i].entry = Some((entry, arg0));
                let mut owning = Vec::new();
                e.owning_slots(body, &mut owning);
                e.funcs[i].owning = owning.into();
                e.funcs[i].scoped = e.uses_stack(body);
            }
        }
        for i in 0..m.ops.len() {
            e.decode(OpId(i as u32))?;
        }
        for (a, last) in e.aux.iter_mut().zip(crate::last_use::last_reads(m)) {
            a.last = last;
        }
        e.resolve_slots();
        e.cost = e
            .aux
            .iter()
            .map(|a| a.work.saturating_add(1).min(HEAVY - 1) | (HEAVY * u64::from(a.result_bytes >= 4096)))
            .collect();
        e.frames = vec![Vec::new(); e.funcs.len()];
        let arity: Vec<usize> = e.funcs.iter().map(|f| f.inputs.len()).collect();
        let inputs = crate::code::Inputs { slot: &e.slot, aux: &e.aux, index_bits: cfg.index_bits, arity: &arity };
        e.code = Rc::new(crate::code::translate(m, &inputs));
        for f in e.funcs.iter_mut() {
            // A variadic function is called through `Engine::call`, which
            // keeps its extra arguments.
            let fits = |b: BlockId| e.code.need(b) <= f.nslots as usize && !f.vararg;
            f.fast = f.entry.filter(|(b, _)| fits(*b)).map(|(b, arg0)| FastEntry {
                start: e.code.start(b) as u32,
                arg0,
                nslots: f.nslots,
                charge: frame_bytes(f.nslots),
                scoped: f.scoped,
                owns: !f.owning.is_empty(),
            });
        }
        Ok(e)
    }

    fn collect_funcs(&mut self, container: OpId) {
        let m = self.m;
        for &r in m.regions(container) {
            for &b in &m.region(r).blocks {
                for &op in &m.block(b).ops {
                    match m.op(op).name.kind {
                        OpKind::FuncFunc | OpKind::LlvmFunc => self.add_func(op),
                        OpKind::BuiltinModule => self.collect_funcs(op),
                        OpKind::LlvmGlobalCtors | OpKind::LlvmGlobalDtors => self.xtor_ops.push(op),
                        OpKind::LlvmGlobal => {
                            if let Some(&r) = m.regions(op).first().filter(|r| !m.region(**r).blocks.is_empty()) {
                                let mut n = 0u32;
                                self.number_region(r, &mut n);
                                self.global_slots.insert(op, n);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn add_func(&mut self, op: OpId) {
        let m = self.m;
        let name = match m.attr(op, "sym_name").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
            _ => return,
        };
        let (inputs, results, vararg) = match m.attr(op, "function_type").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::Type(t)) => match m.ctx.type_kind(*t) {
                TypeKind::Function { inputs, results } => (inputs.clone(), results.clone(), false),
                TypeKind::LlvmFunc { ret, params, vararg } => {
                    let results = if matches!(m.ctx.type_kind(*ret), TypeKind::LlvmVoid) { vec![] } else { vec![*ret] };
                    (params.clone(), results, *vararg)
                }
                _ => (Vec::new(), Vec::new(), false),
            },
            _ => (Vec::new(), Vec::new(), false),
        };
        let body = m.regions(op).first().copied().filter(|r| !m.region(*r).blocks.is_empty());
        let id = FuncRef(self.funcs.len() as u32);
        self.by_name.entry(name.clone()).or_insert(id);
        self.funcs.push(Func {
            op,
            name,
            body,
            nslots: 0,
            results,
            inputs,
            vararg,
            entry: None,
            owning: Rc::new([]),
            scoped: true,
            fast: None,
        });
    }

    fn number_region(&mut self, r: RegionId, n: &mut u32) {
        let m = self.m;
        for &b in &m.region(r).blocks {
            for v in m.args(b) {
                self.slot[v.0 as usize] = *n;
                *n += 1;
            }
            for &op in &m.block(b).ops {
                for v in m.results(op) {
                    self.slot[v.0 as usize] = *n;
                    *n += 1;
                }
                for &inner in m.regions(op) {
                    self.number_region(inner, n);
                }
            }
        }
    }

    /// Resolves every op's operand and result slots once.
    fn resolve_slots(&mut self) {
        let m = self.m;
        for i in 0..m.ops.len() {
            let op = OpId(i as u32);
            let start = self.operand_slots.len() as u32;
            let ops = m.operands(op);
            self.operand_slots.extend(ops.iter().map(|v| self.slot[v.0 as usize]));
            self.operand_runs.push((start, ops.len() as u32));
            let n = m.op(op).results.len;
            let first = if n == 0 { u32::MAX } else { self.slot[m.result(op, 0).0 as usize] };
            self.result_runs.push((first, n));
        }
    }

    /// True when an op in region `r` (at any depth) puts buffers in the
    /// innermost allocation scope or reads its extent (`memref.alloca`,
    /// `llvm.alloca`, `llvm.intr.stacksave`/`stackrestore`).
    fn uses_stack(&self, r: RegionId) -> bool {
        let m = self.m;
        m.region(r).blocks.iter().flat_map(|b| &m.block(*b).ops).any(|&op| {
            matches!(
                m.op(op).name.kind,
                OpKind::MemrefAlloca | OpKind::LlvmAlloca | OpKind::LlvmStacksave | OpKind::LlvmStackrestore
            ) || m.regions(op).iter().any(|r| self.uses_stack(*r))
        })
    }

    /// The slots of values in region `r` (at any depth) whose type is not
    /// a scalar that packs, so a value in them may own storage.
    fn owning_slots(&self, r: RegionId, out: &mut Vec<Slot>) {
        let m = self.m;
        let owning = |v: ValueId| {
            let ty = m.type_of(v);
            let scalar = matches!(
                m.ctx.type_kind(ty),
                TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) | TypeKind::Complex(_)
            );
            !scalar || crate::code::may_be_out_of_line(m, ty)
        };
        for &b in &m.region(r).blocks {
            out.extend(m.args(b).filter(|v| owning(*v)).map(|v| self.slot[v.0 as usize]));
            for &op in &m.block(b).ops {
                out.extend(m.results(op).filter(|v| owning(*v)).map(|v| self.slot[v.0 as usize]));
                for &inner in m.regions(op) {
                    self.owning_slots(inner, out);
                }
            }
        }
    }

    /// The function called `name`.
    pub fn func_by_name(&self, name: &str) -> Option<FuncRef> {
        self.by_name.get(name).copied()
    }

    /// The address of function `f` (`llvm.mlir.addressof @f`, a lowered
    /// `func.constant`): one placeholder allocation per function, made on
    /// first use, so function pointers compare, round-trip through
    /// integers and memory, and are never mistaken for data.
    pub fn func_pointer(&mut self, at: OpId, f: FuncRef) -> Result<crate::memory::Ptr> {
        let fop = self.funcs[f.0 as usize].op;
        let buf = match self.mem.globals.get(&fop) {
            Some(b) => b.clone(),
            None => {
                let b = self.mem.new_buffer(at, 1, crate::memory::AllocKind::Function, 16)?;
                {
                    let mut x = b.borrow_mut();
                    x.origin = fop;
                    x.read_only = Some("a function's code");
                }
                self.mem.globals.insert(fop, b.clone());
                b
            }
        };
        Ok(crate::memory::Ptr { buf: Some(buf), offset: 0 })
    }

    /// The function `p` points to the start of, if any.
    pub fn func_at(&self, p: &crate::memory::Ptr) -> Option<FuncRef> {
        let b = p.buf.as_ref()?.borrow();
        if b.kind != crate::memory::AllocKind::Function || p.offset != 0 {
            return None;
        }
        let Some(Attribute::String { value, .. }) = self.m.attr(b.origin, "sym_name").map(|a| self.m.ctx.attr_kind(a))
        else {
            return None;
        };
        self.func_by_name(std::str::from_utf8(value).ok()?)
    }

    /// Decodes the attributes of `op` the engine reads when it runs.
    fn decode(&mut self, op: OpId) -> Result<()> {
        let (work, result_bytes) = self.decode_work(op);
        let mut aux = Aux {
            flags: self.decode_flags(op),
            pred: self.decode_pred(op)?,
            callee: self.decode_callee(op)?,
            work,
            result_bytes,
            ..Aux::default()
        };
        self.decode_constant(op, &mut aux)?;
        self.decode_maps(op, &mut aux);
        // The verifier has checked the groups (contiguous from 0).
        if let Some(g) = self.m.attr(op, "reassociation").and_then(|a| mlir_ir::attrs::int_arrays(&self.m.ctx, a)) {
            aux.groups =
                g.iter().map(|g| g.iter().map(|d| usize::try_from(*d).unwrap_or(usize::MAX)).collect()).collect();
        }
        self.aux[op.0 as usize] = aux;
        self.ints[op.0 as usize] = self.decode_all_ints(op);
        Ok(())
    }

    /// Every array attribute of `op` that [`Engine::ints_attr`] reads as
    /// integers, decoded (one it would reject is left to fail there).
    fn decode_all_ints(&self, op: OpId) -> OpInts<'m> {
        let m = self.m;
        let o = m.op(op);
        let props = match o.properties.map(|p| m.ctx.attr_kind(p)) {
            Some(Attribute::Dict(entries)) => entries.as_slice(),
            _ => &[],
        };
        let mut out: Vec<(&'m str, Box<[i64]>)> = Vec::new();
        for (id, _) in props.iter().chain(&o.attrs) {
            let name = m.ctx.str(*id);
            // Single integers (every integer constant's value) are cheap to
            // read where used; arrays are what the views and vector ops read.
            // Only arrays `decode_ints` accepts: asking it about another
            // (`in_bounds`, `indexing_maps`) builds an `unverified` error,
            // whose debug assertion fails every debug-build run.
            let array = |a| match m.ctx.attr_kind(a) {
                Attribute::DenseArray { values: DenseValues::Ints(_), .. } => true,
                Attribute::Array(items) => {
                    items.iter().all(|x| matches!(m.ctx.attr_kind(*x), Attribute::Integer { .. }))
                }
                _ => false,
            };
            if out.iter().any(|(n, _)| *n == name) || !m.attr(op, name).is_some_and(array) {
                continue;
            }
            if let Ok(Some(v)) = self.decode_ints(op, name) {
                out.push((name, v.into()));
            }
        }
        out.into()
    }

    /// Compiles the affine maps `op` evaluates as it runs, in this order:
    /// the `map` of `affine.apply`, `min`, `max` and the affine accesses;
    /// the lower then upper bound maps of `affine.for` and
    /// `affine.parallel`; the source, destination and tag maps of
    /// `affine.dma_start`; the indexing maps of a `linalg` structured op
    /// (its operands' order) and of `vector.contract`. The set of `affine.if` goes to `aux.set`. A
    /// missing map is left out, for the verifier has rejected that op.
    fn decode_maps(&self, op: OpId, aux: &mut Aux) {
        let m = self.m;
        let kind = m.op(op).name.kind;
        let names: &[&str] = match kind {
            OpKind::AffineApply
            | OpKind::AffineMin
            | OpKind::AffineMax
            | OpKind::AffineLoad
            | OpKind::AffineStore
            | OpKind::AffineVectorLoad
            | OpKind::AffineVectorStore => &["map"],
            OpKind::AffineFor => &["lowerBoundMap", "upperBoundMap"],
            OpKind::AffineParallel => &["lowerBoundsMap", "upperBoundsMap"],
            OpKind::AffineDmaStart => &["src_map", "dst_map", "tag_map"],
            OpKind::VectorContract => {
                if let Some(Attribute::Array(items)) = m.attr(op, "indexing_maps").map(|a| m.ctx.attr_kind(a)) {
                    let compiled = items.iter().map(|a| match m.ctx.attr_kind(*a) {
                        Attribute::AffineMap(x) => Some(x.compile()),
                        _ => None,
                    });
                    aux.maps = compiled.collect::<Option<Rc<[_]>>>().unwrap_or_default();
                }
                &[]
            }
            OpKind::AffineIf => {
                if let Some(Attribute::IntegerSet(s)) = m.attr(op, "condition").map(|a| m.ctx.attr_kind(a)) {
                    aux.set = Some(Box::new(s.compile()));
                }
                &[]
            }
            _ => {
                use mlir_ir::ops::LinalgOp::{Index, Pack, Softmax, Unpack, Yield};
                if let mlir_ir::ops::DialectOp::Linalg(l) = kind.dialect_op() {
                    let structured = !matches!(l, Index | Yield | Softmax | Pack | Unpack);
                    if let Some(n_in) = mlir_ir::linalg::input_count(m, op, l).filter(|_| structured) {
                        aux.maps = mlir_ir::linalg::maps(m, op, l, n_in).0.iter().map(|x| x.compile()).collect();
                    }
                }
                &[]
            }
        };
        let map = |name| match m.attr(op, name).map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::AffineMap(x)) => Some(x.compile()),
            _ => None,
        };
        if let Some(maps) = names.iter().map(|n| map(*n)).collect::<Option<Rc<[_]>>>().filter(|_| !names.is_empty()) {
            aux.maps = maps;
        }
    }

    /// `overflow<nsw, nuw>`, `isExact`, `nonNeg` and `unsignedCmp` as bits.
    fn decode_flags(&self, op: OpId) -> u8 {
        let m = self.m;
        let mut flags = 0;
        let kind = m.op(op).name.kind;
        // mlir-opt never takes these from the attribute dictionary, where
        // they are discardable: the llvm dialect's `overflowFlags` (an enum
        // property) and arith's `nonNeg` (set by the `nneg` keyword after
        // LLVM 22; 22 itself has no such property).
        let flag = |name: &str| match (kind.dialect_op(), name) {
            (DialectOp::Llvm(_), "overflowFlags") | (DialectOp::Arith(_), "nonNeg") => m.property(op, name),
            _ => m.attr(op, name),
        };
        let overflow = flag("overflowFlags");
        // The llvm dialect's flags are an i32 of bits in the same order.
        if let Some(Attribute::Integer { value, .. }) = overflow.map(|a| m.ctx.attr_kind(a)) {
            flags |= (value.to_i64().unwrap_or(0) & i64::from(NSW | NUW)) as u8;
        }
        if let Some(Attribute::Dialect { body, .. }) = overflow.map(|a| m.ctx.attr_kind(a)) {
            let inner = body.split_once('<').map(|(_, x)| x).unwrap_or("");
            for w in inner.trim_end_matches('>').split(',').map(str::trim) {
                flags |= match w {
                    "nsw" => NSW,
                    "nuw" => NUW,
                    _ => 0,
                };
            }
        }
        for (name, bit) in
            [("isExact", EXACT), ("nonNeg", NNEG), ("unsignedCmp", UNSIGNED), ("isDisjoint", crate::sem::int::DISJOINT)]
        {
            if flag(name).is_some() {
                flags |= bit;
            }
        }
        flags & Self::flags_defined(kind)
    }

    /// The flags `kind` defines (as LLVM 22 does, plus arith's later
    /// `nneg`): the same name on any other op is a discardable attribute
    /// without meaning, so `arith.ori {isDisjoint}` is a plain or.
    fn flags_defined(kind: OpKind) -> u8 {
        use OpKind::*;
        match kind {
            ArithAddi | ArithSubi | ArithMuli | ArithShli | ArithTrunci | LlvmAdd | LlvmSub | LlvmMul | LlvmShl
            | LlvmTrunc => NSW | NUW,
            ArithDivsi | ArithDivui | ArithShrsi | ArithShrui | LlvmSdiv | LlvmUdiv | LlvmLshr | LlvmAshr => EXACT,
            LlvmZext | LlvmUitofp | ArithExtui | ArithUitofp | ArithIndexCastui => NNEG,
            LlvmOr => crate::sem::int::DISJOINT,
            ScfFor => UNSIGNED,
            _ => 0,
        }
    }

    /// A comparison predicate or rounding mode in its enum order.
    fn decode_pred(&self, op: OpId) -> Result<u8> {
        let m = self.m;
        let enum_attr = |a, prefix: &str, names: &[&str], what: &str| -> Result<u8> {
            match m.ctx.attr_kind(a) {
                Attribute::Integer { value, .. } => Ok(value.to_i64().unwrap_or(0) as u8),
                Attribute::Dialect { body, .. } => {
                    let p = body.trim_start_matches('<').trim_end_matches('>').trim_start_matches(prefix).trim();
                    let i = names.iter().position(|x| *x == p);
                    i.map(|i| i as u8).ok_or_else(|| Error::unverified(op, format!("unknown {what} '{p}'")))
                }
                _ => Err(Error::unverified(op, format!("malformed {what} attribute"))),
            }
        };
        // Only the ops that define the attribute read it: on any other op
        // (an unregistered one included) it is a discardable attribute,
        // which may hold anything.
        let (name, prefix, names, what) = match m.op(op).name.kind {
            OpKind::ArithTruncf | OpKind::ArithScalingTruncf => {
                ("roundingmode", "roundingmode", ROUNDING_MODES, "rounding mode")
            }
            OpKind::IndexCmp => ("pred", "cmp_predicate", CMPI_PREDICATES, "predicate"),
            OpKind::ArithCmpi | OpKind::ArithCmpf | OpKind::LlvmIcmp | OpKind::LlvmFcmp | OpKind::CombIcmp => {
                ("predicate", "cmp_predicate", CMPI_PREDICATES, "predicate")
            }
            _ => return Ok(0),
        };
        m.attr(op, name).map_or(Ok(0), |a| enum_attr(a, prefix, names, what))
    }

    /// The elements of `op`'s statically shaped vector and tensor operands
    /// and results (its fuel beyond one), and its results' bytes.
    fn decode_work(&self, op: OpId) -> (u64, usize) {
        let m = self.m;
        let shaped = |v: &ValueId| {
            let k = m.ctx.type_kind(m.type_of(*v));
            match k {
                TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
                    shape.iter().try_fold(1u64, |a, d| a.checked_mul(u64::try_from(*d).ok()?))
                }
                _ => Some(0),
            }
            .unwrap_or(0)
        };
        let results: u64 = m.results(op).map(|v| shaped(&v)).fold(0, u64::saturating_add);
        let operands: u64 = m.operands(op).iter().map(shaped).fold(0, u64::saturating_add);
        let bytes = if updates_operand(m.op(op).name.kind) {
            0
        } else {
            usize::try_from(results).unwrap_or(usize::MAX).saturating_mul(std::mem::size_of::<Scalar>())
        };
        (results.saturating_add(operands), bytes)
    }

    /// The function `func.call`, `llvm.call` or `func.constant` names.
    fn decode_callee(&self, op: OpId) -> Result<Option<FuncRef>> {
        let m = self.m;
        let kind = m.op(op).name.kind;
        if !matches!(kind, OpKind::FuncCall | OpKind::FuncConstant | OpKind::LlvmCall) {
            return Ok(None);
        }
        let attr = if kind == OpKind::FuncConstant { "value" } else { "callee" };
        let Some(Attribute::SymbolRef { root, .. }) = m.attr(op, attr).map(|a| m.ctx.attr_kind(a)) else {
            return Ok(None);
        };
        let name = String::from_utf8_lossy(root);
        let f = self.func_by_name(&name).ok_or_else(|| {
            Error::unverified(op, format!("'{}' does not reference a valid function: @{name}", m.op_name(op)))
        })?;
        Ok(Some(f))
    }

    /// The value of a constant op, or the case values of a switch.
    fn decode_constant(&self, op: OpId, aux: &mut Aux) -> Result<()> {
        let m = self.m;
        let kind = m.op(op).name.kind;
        let first_type = || m.operands(op).first().map(|v| m.type_of(*v));
        let cases = match kind {
            OpKind::CfSwitch | OpKind::LlvmSwitch => m.attr(op, "case_values").zip(first_type()),
            OpKind::ScfIndexSwitch => m.attr(op, "cases").zip(first_type()),
            _ => None,
        };
        if let Some((a, ty)) = cases {
            aux.constant = Some(self.attr_value(op, a, ty)?);
        }
        // A scalar `llvm.mlir.constant`, made as the dialect makes it; one
        // that cannot be made here is left to fail when it runs.
        if kind == OpKind::LlvmConstant && m.op(op).results.len == 1 {
            let ty = m.type_of(m.result(op, 0));
            if matches!(m.ctx.type_kind(ty), TypeKind::Integer { .. } | TypeKind::Float(_)) {
                aux.constant = m.attr(op, "value").and_then(|a| self.attr_value(op, a, ty).ok());
            }
        }
        // `tosa.const` holds a tensor of its result type; `tosa.const_shape`
        // a `tensor<Nxindex>` standing for its `!tosa.shape<N>`.
        if matches!(kind, OpKind::TosaConst | OpKind::TosaConstShape) {
            let a = m.attr(op, "values").ok_or_else(|| Error::unverified(op, "constant without values"))?;
            let ty = match m.ctx.attr_kind(a) {
                Attribute::Dense { ty, .. } if kind == OpKind::TosaConstShape => *ty,
                _ => m.type_of(m.result(op, 0)),
            };
            match self.attr_value(op, a, ty) {
                Ok(v) => aux.constant = Some(v),
                Err(Error { kind: ErrorKind::NoDefinedResult(msg), .. }) => aux.no_result = Some(msg),
                Err(err) => return Err(err),
            }
        }
        if matches!(kind, OpKind::ArithConstant | OpKind::IndexConstant | OpKind::IndexBoolConstant) {
            let a = m.attr(op, "value").ok_or_else(|| Error::unverified(op, "constant without a value"))?;
            if m.op(op).results.len != 1 {
                return Err(Error::unverified(op, "constant must have one result"));
            }
            match self.attr_value(op, a, m.type_of(m.result(op, 0))) {
                Ok(v) => aux.constant = Some(v),
                Err(Error { kind: ErrorKind::NoDefinedResult(msg), .. }) => aux.no_result = Some(msg),
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }

    /// The bit width of an integer or index type.
    pub(crate) fn int_width(&self, ty: TypeId) -> Option<u32> {
        match self.m.ctx.type_kind(ty) {
            TypeKind::Integer { width, .. } => Some(*width),
            TypeKind::Index => Some(self.cfg.index_bits),
            _ => None,
        }
    }

    /// The storage lane of scalar type `ty` (integer, index, float, complex).
    pub(crate) fn lane_of(&self, ty: TypeId) -> Option<crate::lane::Lane> {
        use crate::lane::Lane;
        match self.m.ctx.type_kind(ty) {
            TypeKind::Integer { width, .. } => Some(Lane::Int(*width)),
            TypeKind::Index => Some(Lane::Int(self.cfg.index_bits)),
            TypeKind::Float(k) => Some(Lane::Float(*k)),
            TypeKind::Complex(c) => match self.m.ctx.type_kind(*c) {
                TypeKind::Float(k) => Some(Lane::Complex(*k)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The element type of a shaped type, or the type itself.
    pub(crate) fn elem_type(&self, ty: TypeId) -> TypeId {
        match self.m.ctx.type_kind(ty) {
            TypeKind::Vector { elem, .. } | TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => {
                *elem
            }
            _ => ty,
        }
    }

    /// The elements a dense attribute of type `dty` stores (one for a splat).
    pub(crate) fn dense_elems(&self, op: OpId, dty: TypeId, values: &DenseValues) -> Result<Vec<Scalar>> {
        let et = self.elem_type(dty);
        Ok(match (values, self.m.ctx.type_kind(et)) {
            // Complex elements take two slots: real, imaginary.
            (DenseValues::Floats(v), TypeKind::Complex(part)) => v
                .chunks(2)
                .map(|c| match c {
                    [re, im] => Ok(Scalar::complex(self.float_of(op, re, *part)?, self.float_of(op, im, *part)?)),
                    _ => Err(Error::unverified(op, "complex dense constant with an odd number of parts")),
                })
                .collect::<Result<_>>()?,
            (values, _) => match values {
                DenseValues::Ints(v) => {
                    v.iter().map(|x| self.int_of(op, x, et).map(Scalar::Int)).collect::<Result<_>>()?
                }
                DenseValues::Floats(v) => {
                    v.iter().map(|x| self.float_of(op, x, et).map(Scalar::Float)).collect::<Result<_>>()?
                }
                DenseValues::Hex(data) => self.hex_elements(op, data, et)?,
                _ => return Err(Error::at(op, ErrorKind::Unsupported("this dense constant encoding".into()))),
            },
        })
    }

    /// Decodes a constant attribute as a value of type `ty`.
    pub(crate) fn attr_value(&self, op: OpId, a: mlir_ir::attrs::AttrId, ty: TypeId) -> Result<Value> {
        let m = self.m;
        match m.ctx.attr_kind(a) {
            Attribute::Integer { value, .. } => Ok(Value::int(self.int_of(op, value, ty)?)),
            Attribute::Bool(b) => Ok(Value::int(Int::bool(*b))),
            // A float attribute on an integer result of its width is its
            // bits (`llvm.mlir.constant(-0.0 : f8E4M3) : i8`, as
            // convert-arith-to-apfloat emits small floats).
            Attribute::Float { value, ty: aty } if m.ctx.type_kind(ty).is_integer() => {
                let f = self.float_of(op, value, *aty)?;
                let w = self.int_width(ty).filter(|w| *w == f.kind.bit_width());
                let w = w.ok_or_else(|| Error::unverified(op, "float constant of an integer type of another width"))?;
                Ok(Value::int(Int::from_u128(w, f.bits)))
            }
            Attribute::Float { value, .. } => Ok(Value::float(self.float_of(op, value, ty)?)),
            Attribute::Dense { ty: dty, splat, values } => {
                let shape: Vec<usize> = match m.ctx.type_kind(*dty) {
                    // A scalable vector constant is a splat over `n * vscale` lanes.
                    TypeKind::Vector { shape, scalable, .. } => shape
                        .iter()
                        .zip(scalable.iter().chain(std::iter::repeat(&false)))
                        .map(|(d, s)| usize::try_from(*d).unwrap_or(0) * if *s { self.cfg.vscale as usize } else { 1 })
                        .collect(),
                    k => match k.shape() {
                        Some(s) => s.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect(),
                        None => return Err(Error::unverified(op, "dense constant of unshaped type")),
                    },
                };
                let n = shape.iter().try_fold(1usize, |a, d| a.checked_mul(*d)).unwrap_or(usize::MAX);
                let what = "a dense constant";
                let elems = self.dense_elems(op, *dty, values)?;
                let bad = |e| Error::unverified(op, format!("bad dense constant: {e:?}"));
                if *splat || (elems.len() == 1 && n != 1) {
                    // One element repeated: the value costs its bytes alone.
                    let e = elems.first().ok_or_else(|| Error::unverified(op, "empty splat"))?;
                    let lane = crate::lane::Lane::of(e).map_or(0, |l| l.bytes());
                    self.mem.reserve(op, n.saturating_mul(lane), what)?;
                    return match Dense::splat(&shape, e, None) {
                        Ok(d) => Ok(Value::Array(Rc::new(d))),
                        Err(DenseError::Alloc(bytes)) => Err(Error::at(
                            op,
                            ErrorKind::Resource(format!("the host could not allocate {bytes} bytes for {what}")),
                        )),
                        Err(x) => Err(bad(x)),
                    };
                }
                Value::dense(&shape, &elems).map_err(bad)
            }
            Attribute::DenseArray { values: DenseValues::Ints(v), .. } => {
                let elems = v.iter().map(|x| self.int_of(op, x, ty).map(Scalar::Int)).collect::<Result<Vec<_>>>()?;
                Value::dense(&[elems.len()], &elems)
                    .map_err(|e| Error::unverified(op, format!("bad dense array: {e:?}")))
            }
            Attribute::Sparse { ty: sty, indices, values } => self.sparse_value(op, *sty, *indices, *values),
            _ => Err(Error::at(op, ErrorKind::Unsupported("this constant attribute".into()))),
        }
    }

    /// A `sparse<indices, values>` constant of type `sty`: zeros, but the
    /// listed elements (a later duplicate index wins, as MLIR's own
    /// expansion of the attribute assigns in order).
    fn sparse_value(
        &self,
        op: OpId,
        sty: TypeId,
        indices: mlir_ir::attrs::AttrId,
        values: mlir_ir::attrs::AttrId,
    ) -> Result<Value> {
        let ctx = &self.m.ctx;
        let shape: Vec<usize> = ctx
            .type_kind(sty)
            .shape()
            .ok_or_else(|| Error::unverified(op, "sparse constant of unshaped type"))?
            .iter()
            .map(|d| usize::try_from(*d).unwrap_or(0))
            .collect();
        let lane = self
            .lane_of(self.elem_type(sty))
            .ok_or_else(|| Error::at(op, ErrorKind::Unsupported("a sparse constant of this element type".into())))?;
        let n = shape.iter().try_fold(1usize, |a, d| a.checked_mul(*d)).unwrap_or(usize::MAX);
        self.mem.reserve(op, n.saturating_mul(lane.bytes()), "a sparse constant")?;
        let bad = |e| Error::unverified(op, format!("bad sparse constant: {e:?}"));
        // All-zero bytes are every lane's zero (+0.0 for floats).
        let mut d = Dense::from_le_bytes(&shape, lane, vec![0; n * lane.bytes()]).map_err(bad)?;
        let typed = |a: mlir_ir::attrs::AttrId| match ctx.attr_kind(a) {
            Attribute::Dense { ty, .. } => self.attr_value(op, a, *ty),
            _ => Err(Error::unverified(op, "sparse constant parts that are not dense")),
        };
        let (Value::Array(ix), Value::Array(vals)) = (typed(indices)?, typed(values)?) else {
            return Err(Error::unverified(op, "sparse constant parts that are not arrays"));
        };
        let rank = shape.len().max(1);
        // `sparse<>` lists nothing (its empty indices know no lane).
        let ix = if ix.is_empty() {
            Vec::new()
        } else {
            ix.to_i64s().ok_or_else(|| Error::unverified(op, "sparse constant indices that are not integers"))?
        };
        let count = ix.len() / rank;
        for k in 0..count {
            let idx: Vec<usize> =
                ix[k * rank..(k + 1) * rank].iter().map(|i| usize::try_from(*i).unwrap_or(usize::MAX)).collect();
            let at = d
                .linear(&idx[..shape.len()])
                .ok_or_else(|| Error::unverified(op, "sparse constant index out of the shape"))?;
            // A splat of values gives every listed element the one value.
            let j = if vals.len() == 1 { 0 } else { k };
            if j >= vals.len() {
                return Err(Error::unverified(op, "sparse constant with fewer values than indices"));
            }
            let v = vals.get(j);
            d.set(at, &v).map_err(bad)?;
        }
        Ok(Value::Array(Rc::new(d)))
    }

    fn int_of(&self, op: OpId, v: &IntVal, ty: TypeId) -> Result<Int> {
        let w = self.int_width(ty).ok_or_else(|| Error::unverified(op, "integer constant of non-integer type"))?;
        Ok(match v {
            IntVal::Small(x) => Int::from_i128(w, *x),
            IntVal::Big(b) => Int::from_big(w, b),
        })
    }

    /// The elements of a hex dense literal (`dense<"0x..">`): each element
    /// little-endian in the whole bytes its width needs, as MLIR stores
    /// them; a complex element is its real part, then its imaginary part.
    fn hex_elements(&self, op: OpId, data: &[u8], et: TypeId) -> Result<Vec<Scalar>> {
        use crate::float::FloatKind;
        enum Elem {
            Int(u32),
            Float(FloatKind),
            Complex(FloatKind),
        }
        let elem = match self.m.ctx.type_kind(et) {
            TypeKind::Float(k) => Elem::Float(*k),
            TypeKind::Complex(part) => match self.m.ctx.type_kind(*part) {
                TypeKind::Float(k) => Elem::Complex(*k),
                _ => return Err(Error::at(op, ErrorKind::Unsupported("hex constants of complex integers".into()))),
            },
            _ => Elem::Int(
                self.int_width(et).ok_or_else(|| Error::unverified(op, "hex dense constant of a non-numeric type"))?,
            ),
        };
        let (bytes, parts) = match elem {
            Elem::Int(w) => (w.div_ceil(8).max(1) as usize, 1),
            Elem::Float(k) => (k.bit_width().div_ceil(8) as usize, 1),
            Elem::Complex(k) => (k.bit_width().div_ceil(8) as usize, 2),
        };
        if !data.len().is_multiple_of(bytes * parts) {
            return Err(Error::unverified(op, "hex dense data is not a whole number of elements"));
        }
        let float = |chunk: &[u8], k: FloatKind| {
            let bits = chunk.iter().rev().fold(0u128, |a, b| (a << 8) | u128::from(*b));
            crate::float::from_bits(k, bits)
        };
        let elems = data.chunks(bytes * parts).map(|c| match elem {
            Elem::Int(w) => {
                Scalar::Int(Int::from_big(w, &num_bigint::BigInt::from_bytes_le(num_bigint::Sign::Plus, c)))
            }
            Elem::Float(k) => Scalar::Float(float(c, k)),
            Elem::Complex(k) => Scalar::complex(float(&c[..bytes], k), float(&c[bytes..], k)),
        });
        Ok(elems.collect())
    }

    fn float_of(&self, op: OpId, v: &FloatLit, ty: TypeId) -> Result<crate::float::Float> {
        let TypeKind::Float(k) = self.m.ctx.type_kind(ty) else {
            return Err(Error::unverified(op, "float constant of non-float type"));
        };
        match v {
            FloatLit::Decimal(t) => {
                crate::float::parse_literal_with(*k, t, self.cfg.float_policy).map_err(|e| match e {
                    crate::float::FloatError::BadLiteral { .. } => Error::unverified(op, e.to_string()),
                    _ => Error::at(op, ErrorKind::NoDefinedResult(format!("literal {t}: {e}"))),
                })
            }
            FloatLit::Bits(b) => Ok(crate::float::from_bits(*k, *b)),
        }
    }

    // ---- attributes and regions the dialects read at run time -----------

    /// Region `i` of `op`.
    pub(crate) fn region(&self, op: OpId, i: usize) -> Result<RegionId> {
        self.m.regions(op).get(i).copied().ok_or_else(|| Error::unverified(op, "missing region"))
    }

    /// Attribute `name` of `op` is true: `true`, or `1 : i1`, which is the
    /// same attribute in MLIR (mlir-opt prints it as `true`).
    pub(crate) fn flag(&self, op: OpId, name: &str) -> bool {
        self.m.attr(op, name).is_some_and(|a| self.is_true(a))
    }

    /// `a` is the boolean `true` (`true` or `1 : i1`).
    pub(crate) fn is_true(&self, a: mlir_ir::attrs::AttrId) -> bool {
        match self.m.ctx.attr_kind(a) {
            Attribute::Bool(b) => *b,
            Attribute::Integer { value, .. } => value.to_i64().is_some_and(|v| v != 0),
            _ => false,
        }
    }

    /// The integers of attribute `name`: `array<i64: ..>`, `[1 : i64, ..]`
    /// or a single integer; `None` when `op` has no such attribute.
    pub(crate) fn ints_attr(&self, op: OpId, name: &str) -> Result<Option<Vec<i64>>> {
        if let Some((_, v)) = self.ints[op.0 as usize].iter().find(|(n, _)| *n == name) {
            return Ok(Some(v.to_vec()));
        }
        self.decode_ints(op, name)
    }

    /// [`Engine::ints_attr`] from the attribute itself.
    fn decode_ints(&self, op: OpId, name: &str) -> Result<Option<Vec<i64>>> {
        let one = |v: &IntVal| v.to_i64().ok_or_else(|| Error::unverified(op, format!("'{name}' out of range")));
        let m = self.m;
        match m.attr(op, name).map(|a| m.ctx.attr_kind(a)) {
            None => Ok(None),
            Some(Attribute::DenseArray { values: DenseValues::Ints(v), .. }) => {
                v.iter().map(one).collect::<Result<_>>().map(Some)
            }
            Some(Attribute::Array(items)) => items
                .iter()
                .map(|a| match m.ctx.attr_kind(*a) {
                    Attribute::Integer { value, .. } => one(value),
                    _ => Err(Error::unverified(op, format!("'{name}' must hold integers"))),
                })
                .collect::<Result<_>>()
                .map(Some),
            Some(Attribute::Integer { value, .. }) => Ok(Some(vec![one(value)?])),
            Some(_) => Err(Error::unverified(op, format!("malformed '{name}'"))),
        }
    }

    /// The integers of attribute `name`, which `op` must have.
    pub(crate) fn i64s(&self, op: OpId, name: &str) -> Result<Vec<i64>> {
        self.ints_attr(op, name)?.ok_or_else(|| Error::unverified(op, format!("missing '{name}'")))
    }

    /// The operand counts of an op with `operandSegmentSizes`.
    pub(crate) fn segments(&self, op: OpId) -> Result<Vec<usize>> {
        self.i64s(op, "operandSegmentSizes")?
            .into_iter()
            .map(|x| usize::try_from(x).map_err(|_| Error::unverified(op, "bad operandSegmentSizes")))
            .collect()
    }

    // ---- operand plumbing ----------------------------------------------

    /// Operand `i` of `op`.
    #[inline]
    pub(crate) fn arg<'f>(&self, fr: &'f Frame, op: OpId, i: usize) -> Result<&'f Value> {
        let (start, n) = self.operand_runs[op.0 as usize];
        if i >= n as usize {
            return Err(Error::unverified(op, format!("missing operand #{i}")));
        }
        Ok(&fr[self.operand_slots[start as usize + i] as usize])
    }

    /// The operand slots of `op`.
    #[inline]
    fn operand_slots_of(&self, op: OpId) -> &[u32] {
        let (start, n) = self.operand_runs[op.0 as usize];
        &self.operand_slots[start as usize..(start + n) as usize]
    }

    /// The value in `v`'s slot.
    pub fn get<'f>(&self, fr: &'f Frame, v: ValueId) -> &'f Value {
        &fr[self.slot[v.0 as usize] as usize]
    }

    /// Overwrites the slot of value `v` (an op that updates a value it does
    /// not define: `tensor.parallel_insert_slice` on a loop's shared output).
    pub(crate) fn set(&self, fr: &mut Frame, v: ValueId, val: Value) {
        fr[self.slot[v.0 as usize] as usize] = val;
    }

    /// Executes the single op `op` outside the usual block walk (the ops of
    /// a region without a terminator, like `scf.forall.in_parallel`'s).
    pub(crate) fn exec_op(&mut self, fr: &mut Frame, op: OpId) -> Result<Flow> {
        let r = self.tick(op).and_then(|()| {
            self.ask(op, |o, e| o.before_op(e, fr, op))?;
            self.step(fr, op)
        });
        let flow = match r {
            Ok(flow) => flow,
            Err(err) => {
                // Told once, by the op the error names: its enclosing ops
                // see the same error go by on its way out.
                if err.op == Some(op) && !matches!(err.kind, ErrorKind::Halted) {
                    self.notify(|o, e| o.fault(e, fr, op, &err));
                }
                return Err(err);
            }
        };
        self.ask(op, |o, e| o.after_op(e, fr, op))?;
        Ok(flow)
    }

    /// [`Engine::notify`] for a hook that may halt the run.
    fn ask(&mut self, op: OpId, f: impl FnOnce(&mut dyn Observer, &Engine<'m>) -> Control) -> Result<()> {
        let mut c = Control::Continue;
        self.notify(|o, e| c = f(o, e));
        match c {
            Control::Continue => Ok(()),
            Control::Halt => Err(Error::at(op, ErrorKind::Halted)),
        }
    }

    /// All operands of `op` (cloned: cheap, arrays are shared).
    pub(crate) fn args(&self, fr: &Frame, op: OpId) -> Vec<Value> {
        self.operand_slots_of(op).iter().map(|s| fr[*s as usize].clone()).collect()
    }

    /// Operand `i` of `op` to update: taken out of its slot when `op` is
    /// the last read of that tensor (`crate::last_use`), so that
    /// [`Engine::unique`] finds no other owner; otherwise, or when an
    /// observer watches (a debugger may show the slot later), a clone.
    pub(crate) fn take_arg(&self, fr: &mut Frame, op: OpId, i: usize) -> Result<Value> {
        let (start, n) = self.operand_runs[op.0 as usize];
        if i >= n as usize {
            return Err(Error::unverified(op, format!("missing operand #{i}")));
        }
        let slot = &mut fr[self.operand_slots[start as usize + i] as usize];
        let last = i < 64 && self.aux[op.0 as usize].last & (1 << i) != 0;
        Ok(if last && self.observer.is_none() { std::mem::replace(slot, Value::Opaque) } else { slot.clone() })
    }

    /// `d` for `op` to update in place: copied first if anything else
    /// holds it (value semantics), once the memory budget allows the copy
    /// (these ops reserve nothing before they run, see [`updates_operand`]);
    /// [`Engine::copied_bytes`] counts the copies.
    pub(crate) fn unique<'d>(&self, op: OpId, d: &'d mut Rc<Dense>) -> Result<&'d mut Dense> {
        if Rc::get_mut(d).is_none() {
            let n = d.bytes().len();
            self.mem.reserve(op, n, "a copy of a tensor")?;
            self.copied.set(self.copied.get().saturating_add(n as u64));
        }
        Ok(Rc::make_mut(d))
    }

    /// Bytes of vector and tensor values copied so far because an op
    /// updating one found it shared (`run --stats` reports them).
    pub fn copied_bytes(&self) -> u64 {
        self.copied.get()
    }

    /// Operands `range` of `op`.
    pub(crate) fn args_in(&self, fr: &Frame, op: OpId, range: std::ops::Range<usize>) -> Result<Vec<Value>> {
        let slots = self.operand_slots_of(op);
        let vs = slots.get(range).ok_or_else(|| Error::unverified(op, "operand segments do not match the operands"))?;
        Ok(vs.iter().map(|s| fr[*s as usize].clone()).collect())
    }

    /// Writes result `i` of `op`.
    #[inline]
    pub(crate) fn assign_nth(&self, fr: &mut Frame, op: OpId, i: usize, val: Value) {
        let (first, n) = self.result_runs[op.0 as usize];
        debug_assert!(i < n as usize);
        fr[first as usize + i] = val;
    }

    /// Writes result 0 of `op`.
    pub(crate) fn assign(&self, fr: &mut Frame, op: OpId, val: Value) -> Result<Flow> {
        if self.result_runs[op.0 as usize].1 == 0 {
            return Err(Error::unverified(op, "op has no result"));
        }
        self.assign_nth(fr, op, 0, val);
        Ok(Flow::Next)
    }

    /// Writes all results of `op`.
    pub(crate) fn assign_all(&self, fr: &mut Frame, op: OpId, vals: Vec<Value>) -> Result<Flow> {
        let n = self.result_runs[op.0 as usize].1 as usize;
        if vals.len() != n {
            return Err(Error::unverified(op, format!("{} values for {n} results", vals.len())));
        }
        for (i, v) in vals.into_iter().enumerate() {
            self.assign_nth(fr, op, i, v);
        }
        Ok(Flow::Next)
    }

    fn set_block_args(&self, fr: &mut Frame, b: BlockId, vals: Vec<Value>, at: OpId) -> Result<()> {
        let m = self.m;
        if m.block(b).args.len as usize != vals.len() {
            return Err(Error::unverified(
                at,
                format!("{} values for {} block arguments", vals.len(), m.block(b).args.len),
            ));
        }
        for (a, v) in m.args(b).zip(vals) {
            fr[self.slot[a.0 as usize] as usize] = v;
        }
        Ok(())
    }

    /// The type of result `i` of `op`.
    pub(crate) fn result_type(&self, op: OpId, i: usize) -> TypeId {
        self.m.type_of(self.m.result(op, i))
    }

    /// The type of operand `i` of `op`.
    pub(crate) fn operand_type(&self, op: OpId, i: usize) -> Option<TypeId> {
        self.m.operands(op).get(i).map(|v| self.m.type_of(*v))
    }

    /// Fails with a poison error if `v` holds poison anywhere.
    pub(crate) fn observe(&self, op: OpId, v: &Value, what: &str) -> Result<()> {
        match v.find_poison() {
            Some(p) => Err(Error::at(op, ErrorKind::Poison { what: what.to_string(), origin: p.0 })),
            None => Ok(()),
        }
    }

    /// The boolean of an i1 value, failing on poison.
    pub(crate) fn cond(&self, op: OpId, v: &Value, what: &str) -> Result<bool> {
        self.observe(op, v, what)?;
        match v.as_int() {
            Some(i) => Ok(i.is_nonzero()),
            None => Err(Error::unverified(op, "expected an i1 condition")),
        }
    }

    // ---- execution -------------------------------------------------------

    /// Runs one iteration of a loop body that is an allocation scope
    /// (`scf.for`, `scf.parallel`, `scf.forall`, `affine.for`,
    /// `affine.parallel`: their AutomaticAllocationScope trait), so the
    /// body's allocas die with the iteration.
    pub(crate) fn run_scoped(
        &mut self,
        fr: &mut Frame,
        body: RegionId,
        args: Vec<Value>,
    ) -> Result<(OpId, Vec<Value>)> {
        self.mem.push_scope();
        let r = self.run_region(fr, body, args);
        self.mem.pop_scope();
        r
    }

    /// The body `region` of structured op `op` as a point loop runs it
    /// (see [`Body`]); `None` while an observer watches the run, which
    /// must see every region entered through [`Engine::run_region`].
    pub(crate) fn body(&self, op: OpId, region: RegionId) -> Result<Option<Body>> {
        if self.observer.is_some() {
            return Ok(None);
        }
        let m = self.m;
        let &[block] = &m.region(region).blocks[..] else {
            return Err(Error::unverified(op, "a structured op's body is one block"));
        };
        let args = m.args(block).map(|a| self.slot[a.0 as usize] as usize).collect();
        Ok(Some(Body { block, args }))
    }

    /// Runs `body` once, its arguments already in their slots
    /// ([`Body::args`], found with [`Engine::slot_of`]); what it yields is then
    /// [`Engine::exit_value`]. The body's ops spend their fuel as they
    /// would in [`Engine::run_region`].
    #[inline]
    pub(crate) fn run_body(&mut self, fr: &mut Frame, body: &Body) -> Result<()> {
        self.run_code(fr, body.block).map(|_| ())
    }

    /// Value `i` of the last region exit, read in place.
    #[inline]
    pub(crate) fn exit_value<'f>(&'f self, fr: &'f Frame, i: usize) -> Option<&'f Value> {
        match self.exit_at {
            run::ExitVals::Slots(s) => self.code.slots(s).get(i).and_then(|s| fr.get(*s as usize)),
            run::ExitVals::Copies(c) => self.code.copies(c).get(i).and_then(|(s, _)| fr.get(*s as usize)),
            run::ExitVals::Owned => self.exits.get(i),
        }
    }

    /// The frame slot of value `v`.
    #[inline]
    pub(crate) fn slot_of(&self, v: ValueId) -> usize {
        self.slot[v.0 as usize] as usize
    }

    /// Spends `n` units of fuel at `op` counted as `n` executed ops: what
    /// a kernel that stands in for `n` body ops charges, so the op count
    /// and `--max-steps` see the same run as the body's.
    pub(crate) fn spend_ops(&mut self, op: OpId, n: u64) -> Result<()> {
        self.charge(op, n)?;
        self.extra = self.extra.wrapping_sub(n);
        Ok(())
    }

    /// Whether `n` more units of fuel stay within `--max-steps`: a kernel
    /// runs only then, so a run that hits the limit stops at the body op
    /// where the body's run would.
    pub(crate) fn fuel_for(&self, n: u64) -> bool {
        self.cfg.max_steps.is_none_or(|max| self.work().checked_add(n).is_some_and(|w| w <= max))
    }

    /// Runs `region` in `fr` with entry arguments `args` until a terminator
    /// leaves it; returns that terminator and its values.
    #[inline]
    pub(crate) fn run_region(
        &mut self,
        fr: &mut Frame,
        region: RegionId,
        args: Vec<Value>,
    ) -> Result<(OpId, Vec<Value>)> {
        // Whether anyone observes is decided once per region, so the loop
        // without an observer has no per-op check.
        if self.observer.is_some() {
            return self.run_region_observed(fr, region, args);
        }
        self.run_blocks(fr, region, args)
    }

    /// [`Engine::run_region`] with the observer told of every step (out of
    /// line, so the unobserved path stays small).
    #[cold]
    #[inline(never)]
    fn run_region_observed(
        &mut self,
        fr: &mut Frame,
        region: RegionId,
        args: Vec<Value>,
    ) -> Result<(OpId, Vec<Value>)> {
        self.notify(|o, e| o.enter_region(e, fr, region));
        let r = self.run_blocks_observed(fr, region, args);
        self.notify(|o, e| o.leave_region(e, fr, region));
        r
    }

    /// The op owning `region` and its entry block, whose arguments `args` become.
    #[inline]
    fn enter_region(&self, fr: &mut Frame, region: RegionId, args: Vec<Value>) -> Result<(OpId, BlockId)> {
        let parent = self.m.region(region).parent.unwrap_or(OpId(0));
        let b =
            *self.m.region(region).blocks.first().ok_or_else(|| Error::unverified(parent, "region has no block"))?;
        self.set_block_args(fr, b, args, parent)?;
        Ok((parent, b))
    }

    fn run_blocks(&mut self, fr: &mut Frame, region: RegionId, args: Vec<Value>) -> Result<(OpId, Vec<Value>)> {
        let (_, b) = self.enter_region(fr, region, args)?;
        let op = self.run_code(fr, b)?;
        Ok((op, self.exit_values(fr)))
    }

    /// [`Engine::run_blocks`] telling the observer before and after each op.
    /// A copy rather than a flag on the loop: the unobserved loop compiled
    /// with the flag's branch (or as a const-generic instance) ran 10-20%
    /// slower on the benches.
    fn run_blocks_observed(
        &mut self,
        fr: &mut Frame,
        region: RegionId,
        args: Vec<Value>,
    ) -> Result<(OpId, Vec<Value>)> {
        let m = self.m;
        let (parent, mut b) = self.enter_region(fr, region, args)?;
        'blocks: loop {
            for &op in &m.block(b).ops {
                let flow = self.exec_op(fr, op)?;
                match flow {
                    Flow::Next => {}
                    Flow::Branch(t, vals) => {
                        self.set_block_args(fr, t, vals, op)?;
                        b = t;
                        continue 'blocks;
                    }
                    Flow::Exit(vals) => return Ok((op, vals)),
                }
            }
            return Err(Error::unverified(parent, "block ends without a terminator"));
        }
    }

    /// Hands the observer, if any, to `f` (taken out of the engine meanwhile,
    /// so `f` can read the engine).
    fn notify(&mut self, f: impl FnOnce(&mut dyn Observer, &Engine<'m>)) {
        if let Some(mut o) = self.observer.take() {
            f(&mut *o, self);
            self.observer = Some(o);
        }
    }

    /// Spends the fuel of one op (one unit plus the elements of its static
    /// vector and tensor values), checks the limits, and reserves memory for
    /// large results before the op builds them. One comparison when no
    /// limit is near and the op is light.
    #[inline(always)]
    fn tick(&mut self, op: OpId) -> Result<()> {
        let c = self.cost[op.0 as usize];
        // Most ops (every scalar one) cost one unit: no extra to count.
        if c == 1 {
            return self.tick1(op);
        }
        if c < self.left {
            self.left -= c;
            self.extra = self.extra.wrapping_add(c - 1);
            return Ok(());
        }
        self.tick_slow(op, c)
    }

    /// [`Engine::tick`] for an op translated to an instruction other than
    /// `Inst::Op`: its first unit of fuel (an `Inst::Charge` before the
    /// instruction spent the rest, if any).
    #[inline(always)]
    pub(super) fn tick1(&mut self, op: OpId) -> Result<()> {
        self.left -= 1;
        if self.left != 0 {
            return Ok(());
        }
        self.left = 1;
        self.tick_slow(op, 1)
    }

    /// The fuel of heavy op `op` beyond its first unit, and the memory for
    /// its large results (`Inst::Charge`: the instruction after it spends
    /// the first unit with [`Engine::tick1`]). It spends and checks all of
    /// it as [`Engine::tick`] does, so that an op that fails here counts
    /// as executed in the same way, then gives the first unit back.
    #[cold]
    #[inline(never)]
    pub(super) fn charge_rest(&mut self, op: OpId) -> Result<()> {
        self.tick_slow(op, self.cost[op.0 as usize])?;
        self.left += 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn tick_slow(&mut self, op: OpId, c: u64) -> Result<()> {
        // `charge` counts all of it as extra; the op's first unit is not.
        self.extra = self.extra.wrapping_sub(1);
        self.charge(op, c & !HEAVY)?;
        if c & HEAVY != 0 {
            self.mem.reserve(op, self.aux[op.0 as usize].result_bytes, "the result")?;
        }
        Ok(())
    }

    /// Spends `units` of fuel at `op` (ops that touch elements their static
    /// types do not show, like printing a dynamically sized memref, charge
    /// them here), and looks at the clock when `--timeout` is set.
    pub(crate) fn charge(&mut self, op: OpId, units: u64) -> Result<()> {
        let before = self.work();
        let work = before.saturating_add(units);
        self.extra = self.extra.wrapping_add(work - before);
        let clock = work >= self.next_clock;
        if clock {
            self.next_clock = work.saturating_add(1 << 16);
            self.check_at = self.next_clock.min(self.cfg.max_steps.map_or(u64::MAX, |m| m.saturating_add(1)));
        }
        self.set_work(work);
        if let Some(max) = self.cfg.max_steps {
            if work > max {
                return Err(Error::at(op, ErrorKind::Fuel(max)));
            }
        }
        if clock {
            if let Some(d) = self.deadline {
                if std::time::Instant::now() >= d {
                    let secs = self.cfg.timeout.map_or(0.0, |t| t.as_secs_f64());
                    return Err(Error::at(op, ErrorKind::TimeLimit(format!("{secs} s"))));
                }
            }
            if self.cfg.interrupt.as_ref().is_some_and(|i| (i.0)()) {
                return Err(Error::at(op, ErrorKind::Interrupted));
            }
        }
        Ok(())
    }

    /// Fuel spent so far (what `--max-steps` bounds).
    pub fn work(&self) -> u64 {
        self.check_at - self.left
    }

    /// Makes the fuel spent `work`, keeping `left` at least 1: when `work`
    /// has reached `check_at` (a limit just failed), the check moves to
    /// one past it, so the next tick takes the slow path and checks again.
    fn set_work(&mut self, work: u64) {
        if work >= self.check_at {
            // At `u64::MAX` (never reached by counting) the last unit is lost.
            self.check_at = work.saturating_add(1);
        }
        self.left = (self.check_at - work).max(1);
    }

    /// The variadic arguments of the innermost open call when that is a
    /// call of a variadic function whose body runs now; `None` otherwise
    /// (the running function is not variadic).
    pub(crate) fn va_args(&mut self) -> Option<&mut VaArgs> {
        let depth = self.depth;
        self.va.last_mut().filter(|(d, _)| *d == depth).map(|(_, va)| va)
    }

    /// Number of ops executed so far.
    pub fn steps(&self) -> u64 {
        self.work().wrapping_sub(self.extra)
    }

    /// Calls function `f` with `args` from op `at`.
    pub(crate) fn call(&mut self, at: OpId, f: FuncRef, mut args: Vec<Value>) -> Result<Vec<Value>> {
        let func = self.funcs.get(f.0 as usize).ok_or_else(|| Error::unverified(at, "bad function reference"))?;
        let Some(body) = func.body else {
            return (self.sem.external)(self, at, f, args);
        };
        // A defined variadic function keeps its extra arguments (with the
        // call's operand types) for `llvm.intr.vastart` in its body; the
        // llvm dialect lays them out in memory when it is asked to.
        let va = if func.vararg {
            let extra = args.split_off(func.inputs.len().min(args.len()));
            let first = self.m.operands(at).len().saturating_sub(extra.len());
            let types = (first..).map(|i| self.operand_type(at, i));
            let args = types
                .zip(extra)
                .map(|(t, v)| {
                    t.map(|t| (t, v)).ok_or_else(|| Error::unverified(at, "a variadic argument without a type"))
                })
                .collect::<Result<Vec<_>>>()?;
            Some(VaArgs { args, area: None })
        } else {
            None
        };
        if args.len() != func.inputs.len() {
            return Err(Error::unverified(
                at,
                format!("{} arguments for {} parameters", args.len(), func.inputs.len()),
            ));
        }
        let nslots = func.nslots;
        let frame = self.enter_call(at, nslots)?;
        let mut fr = vec![Value::Opaque; nslots as usize];
        let observed = self.observer.is_some();
        if observed {
            self.notify(|o, e| o.call(e, at, f, &args));
        }
        // A function body is an allocation scope: its allocas die on return.
        self.mem.push_scope();
        if let Some(va) = va {
            self.va.push((self.depth, va));
        }
        let r = self.run_region(&mut fr, body, args);
        if self.va.last().is_some_and(|(d, _)| *d == self.depth) {
            self.va.pop();
        }
        self.mem.pop_scope();
        self.leave_call(frame);
        let results = r?.1;
        if observed {
            self.notify(|o, e| o.ret(e, f, &results));
        }
        Ok(results)
    }

    /// Checks the call depth and charges a frame of `nslots` (and the host
    /// stack the call nests on) to the memory budget; returns the bytes
    /// charged, for [`Engine::leave_call`].
    fn enter_call(&mut self, at: OpId, nslots: u32) -> Result<usize> {
        let frame = frame_bytes(nslots);
        self.enter_frame(at, frame)?;
        Ok(frame)
    }

    /// [`Engine::enter_call`] with the bytes to charge known.
    #[inline(always)]
    fn enter_frame(&mut self, at: OpId, bytes: usize) -> Result<()> {
        if self.depth >= self.cfg.max_call_depth {
            return Err(Error::at(at, ErrorKind::CallDepth(self.cfg.max_call_depth)));
        }
        self.mem.track(at, bytes, "a call frame")?;
        self.depth += 1;
        Ok(())
    }

    /// Ends a call [`Engine::enter_call`] began.
    fn leave_call(&mut self, frame: usize) {
        self.depth -= 1;
        self.mem.untrack(frame);
    }

    /// Calls the defined function `name` with `args` (the library entry
    /// point: values in, values out) and returns its results.
    pub fn invoke(&mut self, name: &str, args: Vec<Value>) -> Result<Vec<Value>> {
        let f = self
            .func_by_name(name)
            .ok_or_else(|| Error::global(ErrorKind::BadInput(format!("function not found: '{name}'"))))?;
        let func = &self.funcs[f.0 as usize];
        if func.body.is_none() || func.inputs.len() != args.len() {
            return Err(Error::at(
                func.op,
                ErrorKind::BadInput(format!(
                    "'{name}' must be a defined function of {} arguments, got {}",
                    func.inputs.len(),
                    args.len()
                )),
            ));
        }
        let op = func.op;
        self.deadline = self.cfg.timeout.map(|t| std::time::Instant::now() + t);
        self.call(op, f, args)
    }

    /// Runs the entry function `name` (no arguments) and returns its results.
    pub fn run_entry(&mut self, name: &str) -> Result<Vec<Value>> {
        self.run_entry_with(name, Vec::new())
    }

    /// The entry function `name`, or the error a run of it reports: no such
    /// function, or one without a body. Front ends check it before a run.
    pub fn entry(&self, name: &str) -> Result<FuncRef> {
        let f = self
            .func_by_name(name)
            .ok_or_else(|| Error::global(ErrorKind::BadInput(format!("entry point not found: '{name}'"))))?;
        let func = &self.funcs[f.0 as usize];
        if func.body.is_none() {
            return Err(Error::at(
                func.op,
                ErrorKind::BadInput(format!("entry point '{name}' must be a defined function (it has no body)")),
            ));
        }
        Ok(f)
    }

    /// Runs the entry function `name` on `args` (one per parameter, of its
    /// types) and returns its results.
    pub fn run_entry_with(&mut self, name: &str, args: Vec<Value>) -> Result<Vec<Value>> {
        self.run_entry_then(name, args, |_, _| Ok(()))
    }

    /// [`Engine::run_entry_with`], calling `after` on the results before
    /// the module's destructors run, as mlir-runner prints a result before
    /// its JIT is torn down.
    pub fn run_entry_then(
        &mut self,
        name: &str,
        args: Vec<Value>,
        after: impl FnOnce(&mut Self, &[Value]) -> Result<()>,
    ) -> Result<Vec<Value>> {
        self.deadline = self.cfg.timeout.map(|t| std::time::Instant::now() + t);
        let f = self.entry(name)?;
        let func = &self.funcs[f.0 as usize];
        if func.inputs.len() != args.len() {
            let msg = format!(
                "entry point '{name}' takes {} argument(s), {} given (pass each with --arg)",
                func.inputs.len(),
                args.len()
            );
            return Err(Error::at(func.op, ErrorKind::BadInput(msg)));
        }
        let op = func.op;
        self.run_xtors(OpKind::LlvmGlobalCtors)?;
        let vals = self.call(op, f, args)?;
        for v in &vals {
            self.observe(op, v, "returned by the entry function")?;
        }
        after(self, &vals)?;
        self.run_xtors(OpKind::LlvmGlobalDtors)?;
        if self.cfg.check_leaks {
            if let Some((alloc, bytes)) = self.mem.leaks().first() {
                let n = self.mem.leaks().len();
                return Err(Error::at(
                    *alloc,
                    ErrorKind::MemUb {
                        msg: format!("memory leak: {bytes} bytes allocated here are never freed ({n} leaked allocation(s) in all)"),
                        alloc: *alloc,
                    },
                ));
            }
        }
        Ok(vals)
    }

    /// Calls the functions of every `kind` op (`llvm.mlir.global_ctors`
    /// or `global_dtors`) by ascending priority, in list order within one
    /// priority: what mlir-runner's JIT does for both lists (LangRef
    /// leaves the order of destructors to the platform).
    fn run_xtors(&mut self, kind: OpKind) -> Result<()> {
        let m = self.m;
        let mut calls = Vec::new();
        for &op in self.xtor_ops.iter().filter(|o| m.op(**o).name.kind == kind) {
            let key = if kind == OpKind::LlvmGlobalCtors { "ctors" } else { "dtors" };
            let list = |k: &str| match m.attr(op, k).map(|a| m.ctx.attr_kind(a)) {
                Some(Attribute::Array(xs)) => Ok(xs.clone()),
                _ => Err(Error::unverified(op, format!("'{}' without a '{k}' array", m.op_name(op)))),
            };
            let (fs, ps) = (list(key)?, list("priorities")?);
            for (f, p) in fs.iter().zip(ps.iter()) {
                let (Attribute::SymbolRef { root, .. }, Attribute::Integer { value, .. }) =
                    (m.ctx.attr_kind(*f), m.ctx.attr_kind(*p))
                else {
                    return Err(Error::unverified(op, "bad constructor list entry"));
                };
                let name = String::from_utf8_lossy(root);
                let fr = self.func_by_name(&name).ok_or_else(|| {
                    Error::unverified(op, format!("'{}' refers to no function @{name}", m.op_name(op)))
                })?;
                if !self.funcs[fr.0 as usize].inputs.is_empty() {
                    // mlir-opt accepts this; the JIT would call it with no
                    // arguments at all, so it cannot run as written.
                    let msg = format!("@{name}, called by '{}', must take no arguments", m.op_name(op));
                    return Err(Error::at(op, ErrorKind::BadInput(msg)));
                }
                calls.push((value.to_i64().unwrap_or(0), op, fr));
            }
        }
        calls.sort_by_key(|c| c.0);
        for (_, op, f) in calls {
            self.call(op, f, Vec::new())?;
        }
        Ok(())
    }

    /// Executes one op through its dialect.
    #[inline]
    fn step(&mut self, fr: &mut Frame, op: OpId) -> Result<Flow> {
        (self.sem.op)(self, fr, op)
    }
}

use mlir_ir::ops::{CMPI_PREDICATES, ROUNDING_MODES};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Inst;
    use mlir_ir::diag::Source;

    /// Runs `main` of `text`; returns the output or the rendered error.
    fn run_with(text: &str, cfg: Config) -> std::result::Result<String, String> {
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).map_err(|d| d.render(&src))?;
        let mut buf = Vec::new();
        let r = {
            let mut e = Engine::load(&m, cfg, Box::new(&mut buf)).map_err(|e| e.render(&m, &src))?;
            e.run_entry("main").map(|_| ()).map_err(|e| e.render(&m, &src))
        };
        r.map(|()| String::from_utf8_lossy(&buf).into_owned())
    }

    fn run(text: &str) -> std::result::Result<String, String> {
        run_with(text, Config::default())
    }

    const P: &str = "<{punctuation = #vector.punctuation<comma>}>";

    #[test]
    fn block_arguments_are_copied_in_parallel() {
        let t = format!(
            r#"func.func @main() {{
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %z = arith.constant false
  cf.br ^bb1(%a, %b, %z : i32, i32, i1)
^bb1(%x: i32, %y: i32, %done: i1):
  "vector.print"(%x) {P} : (i32) -> ()
  "vector.print"(%y) {P} : (i32) -> ()
  %t = arith.constant true
  cf.cond_br %done, ^bb2, ^bb1(%y, %x, %t : i32, i32, i1)
^bb2:
  return
}}"#
        );
        assert_eq!(run(&t).unwrap(), "1, 2, 2, 1, ");
    }

    #[test]
    fn translated_code_names_only_slots_of_its_own_frame() {
        // `run_code` reads the slots instructions name without bounds
        // checks, trusting `Code::need`: it must cover each function's
        // own slots (nested loops, branches and calls included) and no
        // more, or a small function's frame would fail the check.
        let text = "func.func @small(%x: i64) -> i64 {\n  return %x : i64\n}\n\
            func.func @main() {\n  %c0 = arith.constant 0 : index\n  %c4 = arith.constant 4 : index\n\
              %c1 = arith.constant 1 : index\n  %z = arith.constant 0 : i64\n\
              %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %z) -> (i64) {\n\
                %j = arith.index_cast %i : index to i64\n    %s = arith.addi %a, %j : i64\n\
                %t = func.call @small(%s) : (i64) -> i64\n    scf.yield %t : i64\n  }\n\
              cf.br ^bb1(%r : i64)\n^bb1(%v: i64):\n  vector.print %v : i64\n  return\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let mut buf = Vec::new();
        let mut e = Engine::load(&m, Config::default(), Box::new(&mut buf)).unwrap();
        let needs: Vec<(usize, u32)> = e.funcs.iter().map(|f| (e.code.need(f.entry.unwrap().0), f.nslots)).collect();
        // @small has one slot, which its return names; @main has eleven
        // values, and the last (%v) is named by the branch's copy.
        assert_eq!(needs, [(1, 1), (11, 11)]);
        let entry = e.funcs[1].entry.unwrap().0;
        let err = e.run_code(&mut vec![Value::Opaque; 10], entry).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Internal(_)), "{err:?}");
        e.run_entry("main").unwrap();
        drop(e);
        assert_eq!(String::from_utf8(buf).unwrap(), "6\n");
    }

    #[test]
    fn a_wide_integer_slot_is_never_overwritten_as_a_packed_scalar() {
        // An i256 is held out of line (`Value::Wide`) but its poison packs,
        // so a slot may hold either by turns. Copies into such slots go
        // through the buffer, which drops what it overwrites; a call
        // returning one runs through its dialect; and the callee's i256
        // slots are cleared between calls. (A debug build also asserts in
        // `Value::set_packed` that nothing is overwritten unseen.)
        let text = "func.func @id(%x: i256) -> i256 {\n  return %x : i256\n}\n\
            func.func @main() {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n\
              %c6 = arith.constant 6 : index\n  %big = arith.constant 123456789012345678901234567890123456789 : i256\n\
              %p = ub.poison : i256\n  cf.br ^bb1(%c0, %big : index, i256)\n\
            ^bb1(%i: index, %v: i256):\n  %more = arith.cmpi ult, %i, %c6 : index\n\
              cf.cond_br %more, ^bb2, ^bb3\n\
            ^bb2:\n  %b = arith.index_cast %i : index to i1\n  %w = arith.select %b, %p, %big : i256\n\
              %r = func.call @id(%w) : (i256) -> i256\n  %n = arith.addi %i, %c1 : index\n\
              cf.br ^bb1(%n, %r : index, i256)\n\
            ^bb3:\n  vector.print %i : index\n  return\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let mut buf = Vec::new();
        let mut e = Engine::load(&m, Config::default(), Box::new(&mut buf)).unwrap();
        let main = e.code.start(e.funcs[1].entry.unwrap().0);
        let insts = &e.code.insts[main..];
        let br = insts.iter().find_map(|i| match i {
            Inst::Br { copies, .. } => Some(*copies),
            _ => None,
        });
        assert!(br.is_some_and(|c| c.temp), "{insts:?}");
        assert!(!insts.iter().any(|i| matches!(i, Inst::Call { .. })));
        assert!(!e.funcs[0].owning.is_empty());
        e.run_entry("main").unwrap();
        drop(e);
        assert_eq!(String::from_utf8(buf).unwrap(), "6\n");
    }

    #[test]
    fn translated_code_ends_in_range_and_flagless_ops_have_instructions() {
        // `run_insts` fetches without bounds checks, trusting
        // `Code::in_range`: the module's last instruction is the `End`
        // of its last block, whatever that block ends with.
        let text = "func.func @main() -> i32 {\n  %a = arith.constant 7 : i32\n\
              %s = arith.addi %a, %a : i32\n  %t = arith.addi %s, %a overflow<nsw> : i32\n\
              %u = arith.shli %t, %a : i32\n  %v = arith.maxsi %u, %a : i32\n  return %v : i32\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).unwrap();
        assert!(e.code.in_range);
        assert!(matches!(e.code.insts.last(), Some(Inst::End(_))));
        // Flagless `addi` and `shli` dispatch once, on their own
        // instruction; with a flag, or an op without one, `Int2`.
        let at = e.code.start(e.funcs[0].entry.unwrap().0) + 1;
        // An integer constant holds its bits: no table to look in.
        assert!(matches!(e.code.insts[at - 1], Inst::ConstWord { w: 32, bits: 7, .. }));
        let kinds: Vec<&str> = e.code.insts[at..at + 4]
            .iter()
            .map(|i| match i {
                Inst::Add(_) => "add",
                Inst::Shl(_) => "shl",
                Inst::Int2 { .. } => "int2",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["add", "int2", "shl", "int2"]);
    }

    #[test]
    fn an_error_deep_in_calls_unwinds_every_call() {
        // Translated code runs direct calls in the caller's loop: an error
        // four calls down (inside loops whose iterations have allocation
        // scopes) must close every scope, give back every frame's charge
        // and leave the engine ready for the next call.
        let text = "func.func @down(%n: i64) -> i64 {\n  %c0 = arith.constant 0 : i64\n\
              %c1 = arith.constant 1 : i64\n  %z = arith.cmpi eq, %n, %c0 : i64\n\
              %r = scf.if %z -> (i64) {\n    %q = arith.divsi %c1, %n : i64\n    scf.yield %q : i64\n\
              } else {\n    %lb = arith.constant 0 : index\n    %ub = arith.constant 2 : index\n\
                %st = arith.constant 1 : index\n\
                %s = scf.for %i = %lb to %ub step %st iter_args(%a = %c0) -> (i64) {\n\
                  %tmp = memref.alloca() : memref<2xi64>\n      %k = arith.subi %n, %c1 : i64\n\
                  %v = func.call @down(%k) : (i64) -> i64\n      %t = arith.addi %a, %v : i64\n\
                  scf.yield %t : i64\n    }\n    scf.yield %s : i64\n  }\n  return %r : i64\n}\n\
            func.func @main() -> i64 {\n  %m = memref.alloca() : memref<4xi64>\n\
              %n = arith.constant 4 : i64\n  %r = call @down(%n) : (i64) -> i64\n  return %r : i64\n}\n\
            func.func @seven() -> i64 {\n  %c = arith.constant 7 : i64\n  return %c : i64\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let mut e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).unwrap();
        let before = e.mem.balance();
        let err = e.run_entry("main").unwrap_err().render(&m, &src);
        assert!(err.contains("t.mlir:6:10: error: undefined behavior: signed division by zero"), "{err}");
        assert_eq!((e.depth, e.ctl.len(), e.calls.open()), (0, 0, 0));
        assert_eq!(e.mem.balance(), before);
        let r = e.invoke("seven", Vec::new()).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(e.mem.balance(), before);
    }

    #[test]
    fn heavy_ops_charge_their_extra_fuel_before_their_instruction() {
        // Translated instructions charge one unit of fuel without looking
        // the op's cost up; an op with vector values (cost 1 + lanes) gets
        // an `Inst::Charge` of the rest just before its instruction, so a
        // loop carrying a vector stays translated and the fuel is exact.
        let text = "func.func @main() -> vector<4xi32> {\n  %c0 = arith.constant 0 : index\n\
              %c3 = arith.constant 3 : index\n  %c1 = arith.constant 1 : index\n\
              %v = arith.constant dense<1> : vector<4xi32>\n\
              %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %v) -> (vector<4xi32>) {\n\
                %s = arith.addi %a, %a : vector<4xi32>\n    scf.yield %s : vector<4xi32>\n  }\n\
              return %r : vector<4xi32>\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let mut e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).unwrap();
        let kinds: Vec<String> = e.code.insts[..]
            .iter()
            .map(|i| match i {
                Inst::Op(op) => format!("{:?}", m.op(*op).name.kind),
                Inst::Charge(_) => "charge".into(),
                Inst::Const { .. } | Inst::ConstWord { .. } => "const".into(),
                Inst::For { .. } => "for".into(),
                Inst::Next { .. } => "next".into(),
                Inst::Exit { .. } => "exit".into(),
                Inst::End(_) => "end".into(),
                _ => "other".into(),
            })
            .collect();
        // Blocks in order: the module's, the entry, the loop body (whose
        // vector addi has no instruction).
        let want = "FuncFunc end const const const charge const charge for charge exit end \
                    ArithAddi charge next end";
        assert_eq!(kinds.join(" "), want);
        let r = e.invoke("main", Vec::new()).unwrap();
        assert_eq!(format!("{:?}", r[0]).matches('8').count(), 4, "{r:?}");
        // 4 scalar ops, the vector constant (1 + 4), the loop (1 + 4 + 4),
        // three iterations of addi (1 + 12) and yield (1 + 4), the return (1 + 4).
        assert_eq!(e.steps(), 4 + 1 + 3 * 2 + 1);
        assert_eq!(e.work(), 3 + 5 + 9 + 3 * (13 + 5) + 5);
    }

    #[test]
    fn a_run_from_an_if_branch_leaves_at_its_yield() {
        // The scf.if dialect runs a branch as a region of its own when the
        // translated `scf.if` cannot (a condition that is no plain word):
        // the branch's yield must then leave that run, where in the run
        // that entered the branch itself it goes on after the `scf.if`.
        let text = "func.func @main(%c: i1, %x: i64) -> i64 {\n  %r = scf.if %c -> (i64) {\n\
              %y = arith.addi %x, %x : i64\n    scf.yield %y : i64\n  } else {\n    scf.yield %x : i64\n  }\n\
              %s = arith.addi %r, %x : i64\n  return %s : i64\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let mut e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).unwrap();
        let (entry, arg0) = e.funcs[0].entry.unwrap();
        let then = e.code.ifs[0].then;
        let mut fr = vec![Value::Opaque; e.funcs[0].nslots as usize];
        fr[arg0 as usize] = Value::int(Int::from_word(1, 1));
        fr[arg0 as usize + 1] = Value::int(Int::from_word(64, 21));
        let op = e.run_code(&mut fr, then).unwrap();
        assert_eq!(m.op(op).name.kind, OpKind::ScfYield);
        assert_eq!(e.exit_values(&fr).iter().map(Value::word).collect::<Vec<_>>(), [Some(42)]);
        // From the entry, the same yield joins: 42 + 21.
        let op = e.run_code(&mut fr, entry).unwrap();
        assert_eq!(m.op(op).name.kind, OpKind::FuncReturn);
        assert_eq!(e.exit_values(&fr).iter().map(Value::word).collect::<Vec<_>>(), [Some(63)]);
    }

    #[test]
    fn calls_of_different_functions_at_one_depth_keep_their_own_frames() {
        // A call finds the frame left at its depth when the same function
        // ran there last; @a and @b take turns at depth one, so each call
        // swaps the frame there with its function's pool, and the memref
        // @b returns (an owning slot) is dropped from its frame on return.
        let text = "func.func @a(%x: i64) -> i64 {\n  %c = arith.constant 1 : i64\n\
              %r = arith.addi %x, %c : i64\n  return %r : i64\n}\n\
            func.func @b(%m: memref<2xi64>, %x: i64) -> memref<2xi64> {\n  %c0 = arith.constant 0 : index\n\
              memref.store %x, %m[%c0] : memref<2xi64>\n  return %m : memref<2xi64>\n}\n\
            func.func @main() -> i64 {\n  %m = memref.alloca() : memref<2xi64>\n\
              %c0 = arith.constant 0 : index\n  %c3 = arith.constant 3 : index\n  %c1 = arith.constant 1 : index\n\
              %z = arith.constant 0 : i64\n\
              %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %z) -> (i64) {\n\
                %t = func.call @a(%acc) : (i64) -> i64\n\
                %m2 = func.call @b(%m, %t) : (memref<2xi64>, i64) -> memref<2xi64>\n\
                %v = memref.load %m2[%c0] : memref<2xi64>\n    scf.yield %v : i64\n  }\n  return %r : i64\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let mut e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).unwrap();
        let before = e.mem.balance();
        let r = e.invoke("main", Vec::new()).unwrap();
        assert_eq!(r.iter().map(Value::word).collect::<Vec<_>>(), [Some(3)]);
        assert_eq!((e.depth, e.calls.open()), (0, 0));
        assert_eq!(e.mem.balance(), before);
        // One of the two frames is at depth one, the other in its pool, and
        // neither holds the memref any more.
        assert_eq!((e.frames[0].len() + e.frames[1].len(), e.calls.frames().count()), (1, 1));
        let kept = e.frames.iter().flatten().chain(e.calls.frames());
        assert_eq!(kept.flatten().filter(|v| matches!(v, Value::Memref(_))).count(), 0);
    }

    #[test]
    fn fuel_and_call_depth_are_checked() {
        let inf = "func.func @main() {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n}";
        let err = run_with(inf, Config { max_steps: Some(50), ..Config::default() }).unwrap_err();
        assert!(err.contains("execution step limit of 50 reached"), "{err}");
        let rec = "func.func @main() {\n  call @main() : () -> ()\n  return\n}";
        let err = run_with(rec, Config { max_call_depth: 100, ..Config::default() }).unwrap_err();
        assert!(err.contains("call depth limit of 100 exceeded"), "{err}");
    }

    #[test]
    fn a_step_limit_stops_at_the_op_past_it_and_again_on_every_later_run() {
        // 10 ops: 3 constants, the loop, 2 iterations of addi and yield,
        // the cast, the return. With a limit of `max`, the op that makes the fuel
        // exceed it fails and counts as spent; an engine called again
        // after that fails at its first op, one unit later.
        let text = "func.func @main() -> i64 {\n  %c0 = arith.constant 0 : index\n\
              %c2 = arith.constant 2 : index\n  %c1 = arith.constant 1 : index\n\
              %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %c1) -> (index) {\n\
                %s = arith.addi %a, %a : index\n    scf.yield %s : index\n  }\n\
              %x = arith.index_cast %r : index to i64\n  return %x : i64\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap();
        let total = 3 + 1 + 2 * 2 + 1 + 1;
        for max in 0..total + 2 {
            let cfg = Config { max_steps: Some(max), ..Config::default() };
            let mut e = Engine::load(&m, cfg, Box::new(std::io::sink())).unwrap();
            match e.invoke("main", Vec::new()) {
                Ok(r) => {
                    assert!(max >= total, "{max}: {r:?}");
                    assert_eq!((e.work(), e.steps()), (total, total), "{max}");
                }
                Err(err) => {
                    assert!(max < total && matches!(err.kind, ErrorKind::Fuel(m) if m == max), "{max}: {err:?}");
                    assert_eq!((e.work(), e.steps()), (max + 1, max + 1), "{max}");
                    assert!(e.invoke("main", Vec::new()).is_err());
                    assert_eq!(e.work(), max + 2, "{max}");
                }
            }
        }
    }

    #[test]
    fn index_bitwidth_is_a_parameter() {
        // xdsl#2230: div(0x100000002, 2) differs between 64 and 32 bits.
        let t = format!(
            r#"func.func @main() {{
  %a = index.constant 4294967298
  %b = index.constant 2
  %q = index.divu %a, %b
  "vector.print"(%q) {P} : (index) -> ()
  %m = index.constant -1
  "vector.print"(%m) {P} : (index) -> ()
  %s = index.sizeof
  "vector.print"(%s) {P} : (index) -> ()
  return
}}"#
        );
        assert_eq!(run(&t).unwrap(), "2147483649, 18446744073709551615, 64, ");
        let cfg = Config { index_bits: 32, ..Config::default() };
        assert_eq!(run_with(&t, cfg).unwrap(), "1, 4294967295, 32, ");
    }

    #[test]
    fn wide_integers_compute_exactly() {
        let t = format!(
            r#"func.func @main() {{
  %a = arith.constant -1 : i300
  %b = arith.constant 1 : i300
  %s, %c = arith.addui_extended %a, %b : i300, i1
  "vector.print"(%c) {P} : (i1) -> ()
  %m = arith.muli %a, %a : i300
  %t = arith.trunci %m : i300 to i64
  "vector.print"(%t) {P} : (i64) -> ()
  %k = arith.constant 299 : i300
  %h = arith.shrsi %a, %k : i300
  %ht = arith.trunci %h : i300 to i8
  "vector.print"(%ht) {P} : (i8) -> ()
  return
}}"#
        );
        assert_eq!(run(&t).unwrap(), "1, 1, -1, ");
    }
}
