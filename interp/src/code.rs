//! The translated form of a module: every block becomes a run of compact
//! instructions whose operands and results are frame slots, resolved once
//! at load. The region tree stays (a structured op still runs its regions),
//! but the hot ops — integer and float arithmetic of scalars, comparisons,
//! casts, selects, constants, branches with their block-argument copies,
//! `scf.for`/`scf.if` and their yields, direct calls and returns, memref
//! loads and stores — are instructions of their own with decoded widths,
//! predicates and flags, in the arith, index and func forms and in the
//! llvm-dialect forms MLIR's lowerings leave (with one-index
//! `getelementptr` and scalar `llvm.load`/`llvm.store`, their element
//! sizes and alignments from the default data layout). Every other op is
//! [`Inst::Op`], which its dialect executes.
//!
//! A specialised instruction computes only the plain case (scalar operands,
//! no poison, no flag or UB consequence, see `sem::word`); on anything else
//! the engine runs the op through its dialect, so the dialect files stay
//! the one statement of each op's semantics.

use crate::lane::Lane;
use crate::sem::int::{DISJOINT, NNEG};
use crate::sem::word::{Bin, Cast};
use crate::value::{FuncRef, Packed, Value};
use mlir_ir::affine::{AffineExpr, Compiled, CompiledSet};
use mlir_ir::attrs::{Attribute, DenseValues};
use mlir_ir::datalayout;
use mlir_ir::ir::{BlockId, Module, OpId, ValueId};
use mlir_ir::ops::{DialectOp, OpKind};
use mlir_ir::parser::GEP_DYNAMIC;
use mlir_ir::types::{FloatKind, TypeId, TypeKind};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// An index into a frame.
pub type Slot = u32;

/// `unsignedCmp` on scf.for (an [`Aux::flags`] bit beside `sem::int`'s).
pub const UNSIGNED: u8 = 16;

/// Attributes of an op decoded at load time.
#[derive(Clone, Debug, Default)]
pub struct Aux {
    /// `NSW`, `NUW`, `EXACT`, `NNEG` (see `sem::int`) and [`UNSIGNED`] bits.
    pub flags: u8,
    /// Comparison predicate (cmpi/cmpf/index.cmp enum order) or rounding mode.
    pub pred: u8,
    /// Callee of `func.call` / `func.constant`.
    pub callee: Option<FuncRef>,
    /// Decoded constant of `arith.constant`, `index.constant`, ...
    pub constant: Option<Value>,
    /// A float literal of the constant with no defined result in its format
    /// (reported when the constant executes, under `--float-policy strict`).
    pub no_result: Option<String>,
    /// Fuel the op costs beyond its first unit: the elements of its
    /// statically shaped vector and tensor operands and results.
    pub work: u64,
    /// Bytes its statically shaped vector and tensor results occupy,
    /// checked against the memory budget before it runs.
    pub result_bytes: usize,
    /// Its affine maps compiled (see `Engine::decode_maps` for which, in
    /// what order).
    pub maps: Rc<[Compiled]>,
    /// The integer set of `affine.if`, compiled.
    pub set: Option<Box<CompiledSet>>,
    /// The `reassociation` groups of the expand and collapse ops.
    pub groups: Rc<[Vec<usize>]>,
    /// Bit `i`: operand `i` is the last read of its tensor, which the op
    /// may take out of its slot (`crate::last_use`).
    pub last: u64,
}

/// A run of slots in [`Code::pool`] (operand lists).
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// First entry.
    pub start: u32,
    /// Number of entries.
    pub len: u32,
}

/// The block-argument copies of a branch: `(from, to)` slot pairs in
/// [`Code::pairs`]; `temp` when a later copy reads a slot an earlier one
/// writes, so the copies go through a buffer to stay parallel, or when a
/// slot may hold a scalar out of line (which the buffer's assignments
/// drop, where the direct copy of a scalar would not). A pair may move
/// its value instead of copying it ([`Code::moved`]).
#[derive(Clone, Copy, Debug)]
pub struct Copies {
    /// First pair.
    pub start: u32,
    /// Number of pairs.
    pub len: u16,
    /// The copies need a buffer.
    pub temp: bool,
}

/// A float operation the fast path computes: `addf`, `subf`, `mulf`, `divf`.
pub use crate::float::host::Bin as FBin;

/// One translated instruction. Fields follow one naming: `op` is the op
/// (for fuel, errors and the fallback to its dialect); `a`, `b`, `c`, `t`,
/// `f`, `m`, `v` are operand slots; `d` and `res` the (first) result slot;
/// `w`, `from`, `to` bit widths; `fl` flags; `p` a predicate; `k` an index
/// into a side table of [`Code`]; `to` in a branch its target block.
#[derive(Clone, Copy, Debug)]
#[allow(missing_docs)] // the fields, named by the convention above
pub enum Inst {
    /// Any op: its dialect executes it.
    Op(OpId),
    /// The end of a block without a terminator (the op owning the region).
    End(OpId),
    /// The fuel of the next instruction's op beyond its first unit (the
    /// elements of its vector and tensor values), and the memory for its
    /// large results: every other instruction charges one unit and does
    /// not look its op's cost up.
    Charge(OpId),
    /// Nothing: what a `Charge` becomes when the structure after it goes
    /// back to its dialect (as `Inst::Op`, which charges all its fuel).
    Nop,
    /// A constant: [`Code::consts`] entry `k` into `d`.
    Const { op: OpId, k: u32, d: Slot },
    /// An integer constant of `w` <= 64 bits, `bits`, into `d` (most
    /// constants: no table to look in).
    ConstWord { op: OpId, w: u8, d: Slot, bits: u64 },
    /// A float constant of format `k` whose encoding is `bits` (at most 64
    /// bits), into `d`.
    ConstFloat { op: OpId, k: FloatKind, d: Slot, bits: u64 },
    /// An integer binary op on `w`-bit scalars with flags `fl` (those the
    /// instructions below do not cover).
    Int2 { op: OpId, f: Bin, w: u8, fl: u8, a: Slot, b: Slot, d: Slot },
    /// The flagless integer ops of most programs, each an instruction of
    /// its own so that running one dispatches once, not again on its [`Bin`].
    Add(Word2),
    /// See [`Inst::Add`].
    Sub(Word2),
    /// See [`Inst::Add`].
    Mul(Word2),
    /// See [`Inst::Add`].
    And(Word2),
    /// See [`Inst::Add`].
    Or(Word2),
    /// See [`Inst::Add`].
    Xor(Word2),
    /// See [`Inst::Add`].
    Shl(Word2),
    /// See [`Inst::Add`].
    ShrU(Word2),
    /// See [`Inst::Add`].
    ShrS(Word2),
    /// `cmpi` (or `index.cmp`) `eq` on `w`-bit scalars; the comparisons
    /// each have an instruction of their own, as the integer ops do, and
    /// `sgt`, `sge`, `ugt`, `uge` are `slt`, `sle`, `ult`, `ule` with the
    /// operands swapped.
    Eq(Word2),
    /// See [`Inst::Eq`].
    Ne(Word2),
    /// See [`Inst::Eq`].
    Slt(Word2),
    /// See [`Inst::Eq`].
    Sle(Word2),
    /// See [`Inst::Eq`].
    Ult(Word2),
    /// See [`Inst::Eq`].
    Ule(Word2),
    /// `cmpf` with predicate `p` on scalars.
    Cmpf { op: OpId, p: u8, a: Slot, b: Slot, d: Slot },
    /// An integer cast from `from` to `to` bits.
    Cast { op: OpId, f: Cast, fl: u8, from: u8, to: u8, a: Slot, d: Slot },
    /// `sitofp` (`signed`) or `uitofp` from a `from`-bit scalar to f32 or f64.
    IntToFloat { op: OpId, signed: bool, from: u8, k: FloatKind, a: Slot, d: Slot },
    /// `select` with a scalar condition.
    Select { op: OpId, c: Slot, t: Slot, f: Slot, d: Slot },
    /// A float binary op on scalars of format `k`.
    Float2 { op: OpId, f: FBin, k: FloatKind, a: Slot, b: Slot, d: Slot },
    /// `cf.br` to the block whose instructions start at `to`.
    Br { op: OpId, to: u32, copies: Copies },
    /// `cf.cond_br`: [`Code::conds`] entry `k`.
    CondBr { op: OpId, c: Slot, k: u32 },
    /// A terminator leaving its region with the values of `vals`.
    Exit { op: OpId, vals: Span },
    /// `scf.for`: [`Code::fors`] entry `k`.
    For { op: OpId, k: u32 },
    /// The `scf.yield` ending the body of loop `k`: the yielded values go
    /// to the iteration arguments and the next iteration starts, or the
    /// loop ends. (When the loop was entered through its dialect, an
    /// [`Inst::Exit`].)
    Next { op: OpId, k: u32, copies: Copies },
    /// `scf.if`: [`Code::ifs`] entry `k`.
    If { op: OpId, k: u32 },
    /// The `scf.yield` ending block `b`, a branch of a translated `scf.if`:
    /// the values become its results and the run goes on at `to`. (A run
    /// that started at `b`, the `scf.if` having run through its dialect,
    /// leaves the region there instead.)
    Join { op: OpId, b: BlockId, to: u32, copies: Copies },
    /// A direct call of `f` with `args`, results into `res..`.
    Call { op: OpId, f: FuncRef, args: Span, res: Slot },
    /// `memref.load %m[idx]` into `d`.
    Load { op: OpId, m: Slot, idx: Span, d: Slot },
    /// `memref.load %m[i]` into `d`: [`Inst::Load`] of rank 1, its index
    /// in the instruction.
    Load1 { op: OpId, m: Slot, i: Slot, d: Slot },
    /// `memref.load %m[i, j]` into `d`.
    Load2 { op: OpId, m: Slot, i: Slot, j: Slot, d: Slot },
    /// `memref.store %v, %m[idx]`.
    Store { op: OpId, v: Slot, m: Slot, idx: Span },
    /// `memref.store %v, %m[i]`.
    Store1 { op: OpId, v: Slot, m: Slot, i: Slot },
    /// `memref.store %v, %m[i, j]`.
    Store2 { op: OpId, v: Slot, m: Slot, i: Slot, j: Slot },
    /// `llvm.getelementptr %base[%i]` into `d`: one dynamic index of `w`
    /// bits stepping over `size`-byte elements, under `noWrapFlags` `flags`.
    Gep { op: OpId, base: Slot, i: Slot, d: Slot, size: u32, w: u8, flags: u8 },
    /// `llvm.load` of a `lane` through the pointer in `p` into `d`, which
    /// assumes an alignment of `1 << align` bytes.
    PtrLoad { op: OpId, p: Slot, d: Slot, lane: Lane, align: u8 },
    /// `llvm.store` of `v`, a `lane`, through the pointer in `p`.
    PtrStore { op: OpId, v: Slot, p: Slot, lane: Lane, align: u8 },
    /// An affine map evaluated on index slots (`affine.apply`, `min`,
    /// `max`, a load or store through a map): [`Code::affines`] entry `k`.
    Affine { op: OpId, k: u32 },
}

/// The pattern of every [`Word2`] instruction (integer ops and
/// comparisons), its fields matching `$i`.
macro_rules! word2 {
    ($i:pat) => {
        Inst::Add($i)
            | Inst::Sub($i)
            | Inst::Mul($i)
            | Inst::And($i)
            | Inst::Or($i)
            | Inst::Xor($i)
            | Inst::Shl($i)
            | Inst::ShrU($i)
            | Inst::ShrS($i)
            | Inst::Eq($i)
            | Inst::Ne($i)
            | Inst::Slt($i)
            | Inst::Sle($i)
            | Inst::Ult($i)
            | Inst::Ule($i)
    };
}

/// The fields of a flagless integer binary op or a comparison on `w`-bit
/// scalars.
#[derive(Clone, Copy, Debug)]
#[allow(missing_docs)] // named as in `Inst`
pub struct Word2 {
    pub op: OpId,
    pub w: u8,
    pub a: Slot,
    pub b: Slot,
    pub d: Slot,
}

impl Inst {
    /// The flagless integer op `f` on `i`, if it has an instruction of its
    /// own.
    fn flagless(f: Bin, i: Word2) -> Option<Inst> {
        Some(match f {
            Bin::Add => Inst::Add(i),
            Bin::Sub => Inst::Sub(i),
            Bin::Mul => Inst::Mul(i),
            Bin::And => Inst::And(i),
            Bin::Or => Inst::Or(i),
            Bin::Xor => Inst::Xor(i),
            Bin::Shl => Inst::Shl(i),
            Bin::ShrU => Inst::ShrU(i),
            Bin::ShrS => Inst::ShrS(i),
            _ => return None,
        })
    }
}

// Instructions stay three words: the executor walks arrays of them.
const _: () = assert!(std::mem::size_of::<Inst>() == 24);

/// The targets of a `cf.cond_br`: where each block's instructions start,
/// with its copies.
#[derive(Clone, Copy, Debug)]
pub struct CondTargets {
    /// Taken when true.
    pub t: (u32, Copies),
    /// Taken when false.
    pub f: (u32, Copies),
}

/// A decoded `scf.for`.
#[derive(Clone, Copy, Debug)]
pub struct ForLoop {
    /// Lower bound, upper bound and step.
    pub bounds: [Slot; 3],
    /// Width of the induction variable.
    pub w: u8,
    /// `unsignedCmp`.
    pub unsigned: bool,
    /// The body's block.
    pub body: BlockId,
    /// The body's first instruction (known once every block is translated).
    pub start: u32,
    /// The induction variable; the iteration arguments follow it.
    pub iv: Slot,
    /// Initial values of the iteration arguments.
    pub inits: Span,
    /// The first result (results are consecutive slots).
    pub res: Slot,
    /// The instruction after the loop.
    pub cont: u32,
    /// Iterations need an allocation scope (the body allocates on the stack).
    pub scoped: bool,
    /// An `affine.for` with constant bounds: lower bound, upper bound and
    /// step as signed 64-bit numbers (its iteration stops where the
    /// induction variable would overflow, rather than wrapping); `bounds`
    /// is unused.
    pub affine: Option<[i64; 3]>,
    /// An `affine.for` whose bounds are maps of its operands: the lower
    /// bound is the greatest result of the first, the upper bound the least
    /// of the second, evaluated on entry (the bounds in `affine` are then
    /// unused, its step is the step): [`Code::bounds`] entry `k`.
    pub maps: Option<u32>,
}

/// A decoded `scf.if`.
#[derive(Clone, Copy, Debug)]
pub struct IfThen {
    /// The condition.
    pub c: Slot,
    /// The then block.
    pub then: BlockId,
    /// The else block, if the region has one.
    pub els: Option<BlockId>,
    /// The first result and the number of results.
    pub res: (Slot, u32),
    /// The instruction after the `scf.if`.
    pub cont: u32,
    /// Where the then block's instructions start.
    pub then_pc: u32,
    /// Where the else block's instructions start, or `cont` without one.
    pub els_pc: u32,
}

/// The most operands and results a translated affine map has: the executor
/// evaluates it in arrays of this length on its stack.
pub const MAX_MAP: usize = 8;

/// What an [`Inst::Affine`] does with its map's results.
#[derive(Clone, Copy, Debug)]
pub enum AffineUse {
    /// `affine.apply`: the one result into `d`.
    Apply(Slot),
    /// `affine.min`: the least result into `d`.
    Min(Slot),
    /// `affine.max`: the greatest result into `d`.
    Max(Slot),
    /// `affine.load` of memref `m` at the results, into `d`.
    Load { m: Slot, d: Slot },
    /// `affine.store` of `v` into memref `m` at the results.
    Store { v: Slot, m: Slot },
}

/// A map applied to index operands: map `map` of [`Code::maps`] on the
/// `w`-bit index slots `args` (dims, then symbols).
#[derive(Clone, Copy, Debug)]
pub struct MapUse {
    /// The map.
    pub map: u32,
    /// Its operands.
    pub args: Span,
    /// The width of `index`.
    pub w: u8,
}

/// A decoded [`Inst::Affine`].
#[derive(Clone, Copy, Debug)]
pub struct AffineInst {
    /// The map and its operands.
    pub map: MapUse,
    /// What becomes of the results.
    pub what: AffineUse,
}

/// The translated module.
#[derive(Debug, Default)]
pub struct Code {
    /// All instructions; each block's run ends with its terminator or an [`Inst::End`].
    pub insts: Vec<Inst>,
    /// Where each block's run starts, by block id.
    starts: Vec<u32>,
    /// Operand slot lists.
    pub pool: Vec<Slot>,
    /// Block-argument copy pairs.
    pub pairs: Vec<(Slot, Slot)>,
    /// For each of [`Code::pairs`]: the copy takes its source's value out
    /// of its slot (the branch or yield is the tensor's last read).
    pub moved: Vec<bool>,
    /// Constants.
    pub consts: Vec<Value>,
    /// `cf.cond_br` targets.
    pub conds: Vec<CondTargets>,
    /// `scf.for` loops.
    pub fors: Vec<ForLoop>,
    /// `scf.if`s.
    pub ifs: Vec<IfThen>,
    /// Affine maps, compiled.
    pub maps: Vec<Compiled>,
    /// [`Inst::Affine`]s.
    pub affines: Vec<AffineInst>,
    /// The bound maps of `affine.for` loops ([`ForLoop::maps`]).
    pub bounds: Vec<[MapUse; 2]>,
    /// By block id: the frame length a run from the block needs, one more
    /// than every slot the instructions of its function (or global
    /// initializer) name directly. The executor checks a frame against it
    /// once per run and then reads those slots without bounds checks.
    need: Vec<u32>,
    /// Every index the executor follows is in range: the last instruction
    /// is an [`Inst::End`] (so every other one has a successor to fall
    /// through to); every block start, branch target, loop body start and
    /// loop or `scf.if` continuation is in `insts`; and every side-table
    /// entry, [`Span`] and [`Copies`] an instruction or a side-table entry
    /// names is in its table. The executor reads these without bounds
    /// checks when this holds, and refuses to run otherwise.
    pub in_range: bool,
}

impl Code {
    /// The first instruction of block `b`.
    #[inline(always)]
    pub fn start(&self, b: BlockId) -> usize {
        self.starts[b.0 as usize] as usize
    }

    /// See [`Code::in_range`] (the field).
    fn in_range(&self) -> bool {
        let n = self.insts.len();
        let pc = |p: u32| (p as usize) < n;
        let span = |s: Span| (s.start as usize).checked_add(s.len as usize).is_some_and(|e| e <= self.pool.len());
        let pairs = |c: Copies| c.start as usize + c.len as usize <= self.pairs.len();
        let target = |(p, c): (u32, Copies)| pc(p) && pairs(c);
        let map = |u: MapUse| (u.map as usize) < self.maps.len() && span(u.args);
        let bounds = |k: u32| self.bounds.get(k as usize).is_some_and(|[a, b]| map(*a) && map(*b));
        matches!(self.insts.last(), Some(Inst::End(_)))
            && self.starts.iter().all(|&s| pc(s))
            && self.conds.iter().all(|t| target(t.t) && target(t.f))
            && self.fors.iter().all(|l| pc(l.cont) && pc(l.start) && span(l.inits) && l.maps.is_none_or(bounds))
            && self.ifs.iter().all(|i| [i.cont, i.then_pc, i.els_pc].into_iter().all(pc))
            && self.insts.iter().all(|i| match *i {
                Inst::Const { k, .. } => (k as usize) < self.consts.len(),
                Inst::Br { to, copies, .. } => target((to, copies)),
                Inst::CondBr { k, .. } => (k as usize) < self.conds.len(),
                Inst::For { k, .. } => (k as usize) < self.fors.len(),
                Inst::If { k, .. } => (k as usize) < self.ifs.len(),
                Inst::Next { k, copies, .. } => (k as usize) < self.fors.len() && pairs(copies),
                Inst::Join { to, copies, .. } => pc(to) && pairs(copies),
                Inst::Exit { vals: s, .. } | Inst::Call { args: s, .. } => span(s),
                Inst::Load { idx: s, .. } | Inst::Store { idx: s, .. } => span(s),
                Inst::Affine { k, .. } => self.affines.get(k as usize).is_some_and(|a| map(a.map)),
                _ => true,
            })
    }

    /// The frame length a run from block `b` needs (see `need`).
    #[inline(always)]
    pub fn need(&self, b: BlockId) -> usize {
        self.need[b.0 as usize] as usize
    }

    /// Calls `f` on every slot `inst` names directly (through its fields,
    /// spans, copies and side-table entry): the slots the executor reads
    /// and writes unchecked.
    pub fn direct_slots(&self, inst: &Inst, f: &mut impl FnMut(Slot)) {
        let pairs = |c: Copies, f: &mut dyn FnMut(Slot)| {
            for &(s, d) in self.copies(c) {
                f(s);
                f(d);
            }
        };
        match *inst {
            word2!(i) => [i.a, i.b, i.d].into_iter().for_each(f),
            Inst::Op(_) | Inst::End(_) | Inst::Charge(_) | Inst::Nop => {}
            Inst::Const { d, .. } | Inst::ConstWord { d, .. } | Inst::ConstFloat { d, .. } => f(d),
            Inst::Int2 { a, b, d, .. } | Inst::Cmpf { a, b, d, .. } | Inst::Float2 { a, b, d, .. } => {
                [a, b, d].into_iter().for_each(f)
            }
            Inst::Cast { a, d, .. } | Inst::IntToFloat { a, d, .. } => [a, d].into_iter().for_each(f),
            Inst::Select { c, t, f: e, d, .. } => [c, t, e, d].into_iter().for_each(f),
            Inst::Br { copies, .. } | Inst::Join { copies, .. } => pairs(copies, f),
            Inst::CondBr { c, k, .. } => {
                f(c);
                let t = self.conds[k as usize];
                pairs(t.t.1, f);
                pairs(t.f.1, f);
            }
            Inst::For { k, .. } => {
                let l = self.fors[k as usize];
                let maps = l.maps.into_iter().flat_map(|k| self.bounds[k as usize]);
                let maps = maps.flat_map(|u| self.slots(u.args).iter().copied());
                l.bounds.into_iter().chain([l.iv]).chain(self.slots(l.inits).iter().copied()).chain(maps).for_each(f)
            }
            Inst::Next { k, copies, .. } => {
                f(self.fors[k as usize].iv);
                pairs(copies, f);
            }
            Inst::If { k, .. } => f(self.ifs[k as usize].c),
            Inst::Call { args: s, .. } | Inst::Exit { vals: s, .. } => self.slots(s).iter().copied().for_each(f),
            Inst::Load { m, idx, d, .. } => [m, d].into_iter().chain(self.slots(idx).iter().copied()).for_each(f),
            Inst::Store { v, m, idx, .. } => [v, m].into_iter().chain(self.slots(idx).iter().copied()).for_each(f),
            Inst::Load1 { m, i, d, .. } | Inst::Store1 { v: d, m, i, .. } => [m, i, d].into_iter().for_each(f),
            Inst::Load2 { m, i, j, d, .. } | Inst::Store2 { v: d, m, i, j, .. } => [m, i, j, d].into_iter().for_each(f),
            Inst::Gep { base, i, d, .. } => [base, i, d].into_iter().for_each(f),
            Inst::PtrLoad { p, d, .. } | Inst::PtrStore { v: d, p, .. } => [p, d].into_iter().for_each(f),
            Inst::Affine { k, .. } => {
                let a = self.affines[k as usize];
                let out = match a.what {
                    AffineUse::Apply(d) | AffineUse::Min(d) | AffineUse::Max(d) => [d, d],
                    AffineUse::Load { m, d } | AffineUse::Store { v: d, m } => [m, d],
                };
                out.into_iter().chain(self.slots(a.map.args).iter().copied()).for_each(f)
            }
        }
    }

    /// The slots of `s`.
    #[inline(always)]
    pub fn slots(&self, s: Span) -> &[Slot] {
        &self.pool[s.start as usize..(s.start + s.len) as usize]
    }

    /// The pairs of `c`.
    #[inline(always)]
    pub fn copies(&self, c: Copies) -> &[(Slot, Slot)] {
        &self.pairs[c.start as usize..c.start as usize + c.len as usize]
    }
}

/// What translation reads besides the module.
pub struct Inputs<'a> {
    /// Slot of every value (`u32::MAX` outside functions).
    pub slot: &'a [u32],
    /// Decoded attributes by op id.
    pub aux: &'a [Aux],
    /// Width of `index`.
    pub index_bits: u32,
    /// The number of parameters of every function, by [`FuncRef`].
    pub arity: &'a [usize],
}

/// Whether a value of type `ty` may be a scalar held out of line
/// (`Value::Wide`: an integer of more than 128 bits, a complex number of
/// parts wider than 64) and, by turns, packed (poison): a copy of a scalar
/// into such a slot must drop what the slot holds.
pub fn may_be_out_of_line(m: &Module, ty: TypeId) -> bool {
    match m.ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => *width > 128,
        TypeKind::Complex(e) => !matches!(m.ctx.type_kind(*e), TypeKind::Float(k) if k.bit_width() <= 64),
        _ => false,
    }
}

/// Translates every block of `m`.
pub fn translate(m: &Module, inp: &Inputs<'_>) -> Code {
    let mut t = Translator { m, inp, code: Code::default() };
    t.code.starts = vec![u32::MAX; m.blocks.len()];
    for b in 0..m.blocks.len() {
        t.block(BlockId(b as u32));
    }
    t.link_branches();
    t.link_yields();
    t.frame_needs();
    t.code.in_range = t.code.in_range();
    t.code
}

struct Translator<'a> {
    m: &'a Module,
    inp: &'a Inputs<'a>,
    code: Code,
}

impl Translator<'_> {
    fn block(&mut self, b: BlockId) {
        self.code.starts[b.0 as usize] = self.code.insts.len() as u32;
        for &op in &self.m.block(b).ops {
            let aux = &self.inp.aux[op.0 as usize];
            let light = aux.work == 0 && aux.result_bytes < 4096;
            let inst = self.inst(op).unwrap_or(Inst::Op(op));
            if !light && !matches!(inst, Inst::Op(_)) {
                self.code.insts.push(Inst::Charge(op));
            }
            self.code.insts.push(inst);
            let cont = self.code.insts.len() as u32;
            match inst {
                Inst::For { k, .. } => self.code.fors[k as usize].cont = cont,
                Inst::If { k, .. } => self.code.ifs[k as usize].cont = cont,
                _ => {}
            }
        }
        let parent = self.m.block(b).parent.and_then(|r| self.m.region(r).parent).unwrap_or(OpId(0));
        self.code.insts.push(Inst::End(parent));
    }

    fn slot(&self, v: ValueId) -> Option<Slot> {
        let s = *self.inp.slot.get(v.0 as usize)?;
        (s != u32::MAX).then_some(s)
    }

    fn operand(&self, op: OpId, i: usize) -> Option<Slot> {
        self.slot(*self.m.operands(op).get(i)?)
    }

    fn result(&self, op: OpId) -> Option<Slot> {
        if self.m.op(op).results.len == 0 {
            return None;
        }
        self.slot(self.m.result(op, 0))
    }

    /// A list of operand slots in the pool.
    fn span(&mut self, vals: &[ValueId]) -> Option<Span> {
        let slots: Vec<Slot> = vals.iter().map(|v| self.slot(*v)).collect::<Option<_>>()?;
        let start = self.code.pool.len() as u32;
        self.code.pool.extend(slots);
        Some(Span { start, len: vals.len() as u32 })
    }

    /// The width of a scalar integer or index type of at most 64 bits.
    fn word(&self, ty: TypeId) -> Option<u8> {
        let w = match self.m.ctx.type_kind(ty) {
            TypeKind::Integer { width, .. } => *width,
            TypeKind::Index => self.inp.index_bits,
            _ => return None,
        };
        (1..=64).contains(&w).then_some(w as u8)
    }

    fn operand_word(&self, op: OpId, i: usize) -> Option<u8> {
        self.word(self.m.type_of(*self.m.operands(op).get(i)?))
    }

    fn result_type(&self, op: OpId) -> Option<TypeId> {
        (self.m.op(op).results.len == 1).then(|| self.m.type_of(self.m.result(op, 0)))
    }

    fn inst(&mut self, op: OpId) -> Option<Inst> {
        let aux = &self.inp.aux[op.0 as usize];
        let (fl, pred) = (aux.flags, aux.pred);
        let kind = self.m.op(op).name.kind;
        if let Some(f) = int_bin(kind) {
            // `or disjoint` is poison where the bits overlap, which the
            // instructions do not check.
            if fl & DISJOINT != 0 {
                return None;
            }
            let w = self.word(self.result_type(op)?)?;
            let fl = if is_index(kind) { 0 } else { fl };
            let (a, b, d) = (self.operand(op, 0)?, self.operand(op, 1)?, self.result(op)?);
            let plain = if fl == 0 { Inst::flagless(f, Word2 { op, w, a, b, d }) } else { None };
            return Some(plain.unwrap_or(Inst::Int2 { op, f, w, fl, a, b, d }));
        }
        if let Some(f) = float_bin(kind) {
            let TypeKind::Float(k) = self.m.ctx.type_kind(self.result_type(op)?) else { return None };
            if f == FBin::Div && !plain_float(*k) {
                return None;
            }
            let (a, b, d) = (self.operand(op, 0)?, self.operand(op, 1)?, self.result(op)?);
            return Some(Inst::Float2 { op, f, k: *k, a, b, d });
        }
        if let Some(f) = int_cast(kind) {
            let (from, to) = (self.operand_word(op, 0)?, self.word(self.result_type(op)?)?);
            return Some(Inst::Cast { op, f, fl, from, to, a: self.operand(op, 0)?, d: self.result(op)? });
        }
        match kind {
            OpKind::ArithConstant | OpKind::IndexConstant | OpKind::IndexBoolConstant | OpKind::LlvmConstant => {
                let v = aux.constant.clone().filter(|_| aux.no_result.is_none())?;
                let d = self.result(op)?;
                match v {
                    Value::Scalar(Packed::Int { width, lo, hi: 0 }) if width <= 64 => {
                        return Some(Inst::ConstWord { op, w: width as u8, d, bits: lo });
                    }
                    Value::Scalar(Packed::Float { kind, lo, hi: 0 }) => {
                        return Some(Inst::ConstFloat { op, k: kind, d, bits: lo });
                    }
                    _ => {}
                }
                self.code.consts.push(v);
                Some(Inst::Const { op, k: self.code.consts.len() as u32 - 1, d })
            }
            // `uitofp nneg` is poison for a negative operand.
            OpKind::ArithSitofp | OpKind::ArithUitofp | OpKind::LlvmSitofp | OpKind::LlvmUitofp if fl & NNEG == 0 => {
                let from = self.operand_word(op, 0)?;
                let k = match self.m.ctx.type_kind(self.result_type(op)?) {
                    TypeKind::Float(k @ (FloatKind::F32 | FloatKind::F64)) => *k,
                    _ => return None,
                };
                let signed = matches!(kind, OpKind::ArithSitofp | OpKind::LlvmSitofp);
                Some(Inst::IntToFloat { op, signed, from, k, a: self.operand(op, 0)?, d: self.result(op)? })
            }
            OpKind::ArithCmpf | OpKind::LlvmFcmp => {
                let TypeKind::Float(_) = self.m.ctx.type_kind(self.m.type_of(*self.m.operands(op).first()?)) else {
                    return None;
                };
                Some(Inst::Cmpf { op, p: pred, a: self.operand(op, 0)?, b: self.operand(op, 1)?, d: self.result(op)? })
            }
            OpKind::ArithCmpi | OpKind::IndexCmp | OpKind::LlvmIcmp => {
                let w = self.operand_word(op, 0)?;
                let (a, b, d) = (self.operand(op, 0)?, self.operand(op, 1)?, self.result(op)?);
                let (i, swapped) = (Word2 { op, w, a, b, d }, Word2 { op, w, a: b, b: a, d });
                // The predicates in their enum order (see `word::cmp`).
                Some(match pred {
                    0 => Inst::Eq(i),
                    1 => Inst::Ne(i),
                    2 => Inst::Slt(i),
                    3 => Inst::Sle(i),
                    4 => Inst::Slt(swapped),
                    5 => Inst::Sle(swapped),
                    6 => Inst::Ult(i),
                    7 => Inst::Ule(i),
                    8 => Inst::Ult(swapped),
                    9 => Inst::Ule(swapped),
                    _ => return None,
                })
            }
            OpKind::ArithSelect | OpKind::LlvmSelect => {
                self.operand_word(op, 0)?;
                let (c, t, f) = (self.operand(op, 0)?, self.operand(op, 1)?, self.operand(op, 2)?);
                Some(Inst::Select { op, c, t, f, d: self.result(op)? })
            }
            OpKind::CfBr | OpKind::LlvmBr => {
                let to = *self.m.successors(op).first()?;
                let copies = self.copies(op, 0..self.m.operands(op).len(), to)?;
                // Where `to` starts is known once every block is translated.
                Some(Inst::Br { op, to: u32::MAX, copies })
            }
            OpKind::CfCondBr | OpKind::LlvmCondBr => self.cond_br(op),
            OpKind::FuncReturn
            | OpKind::ScfYield
            | OpKind::ScfCondition
            | OpKind::AffineYield
            | OpKind::LlvmReturn
            | OpKind::TensorYield
            | OpKind::LinalgYield
            | OpKind::VectorYield => Some(Inst::Exit { op, vals: self.span(self.m.operands(op))? }),
            OpKind::ScfFor => self.for_loop(op),
            OpKind::AffineFor => self.affine_for(op),
            OpKind::ScfIf => self.if_then(op),
            OpKind::FuncCall | OpKind::LlvmCall => {
                let f = aux.callee?;
                // An `llvm.call` passing variadic arguments or operand
                // bundles runs through its dialect.
                if self.m.operands(op).len() != *self.inp.arity.get(f.0 as usize)? {
                    return None;
                }
                let args = self.span(self.m.operands(op))?;
                let res = if self.m.op(op).results.len == 0 { 0 } else { self.result(op)? };
                // Results are copied as scalars over what their slots hold
                // (`Value::copy_from`).
                if self.m.results(op).any(|v| may_be_out_of_line(self.m, self.m.type_of(v))) {
                    return None;
                }
                Some(Inst::Call { op, f, args, res })
            }
            // An identity access map makes the affine access a plain one
            // (a failure still goes to the affine dialect, with its words).
            OpKind::AffineLoad if self.identity_map(op, 1) => {
                let idx = self.span(self.m.operands(op).get(1..)?)?;
                Some(Inst::Load { op, m: self.operand(op, 0)?, idx, d: self.result(op)? })
            }
            OpKind::AffineStore if self.identity_map(op, 2) => {
                let idx = self.span(self.m.operands(op).get(2..)?)?;
                Some(Inst::Store { op, v: self.operand(op, 0)?, m: self.operand(op, 1)?, idx })
            }
            OpKind::AffineApply | OpKind::AffineMin | OpKind::AffineMax => {
                let d = self.result(op)?;
                let what = match kind {
                    OpKind::AffineApply => AffineUse::Apply(d),
                    OpKind::AffineMin => AffineUse::Min(d),
                    _ => AffineUse::Max(d),
                };
                self.affine(op, 0, what)
            }
            OpKind::AffineLoad if self.scalar_result(op) => {
                let (m, d) = (self.operand(op, 0)?, self.result(op)?);
                self.affine(op, 1, AffineUse::Load { m, d })
            }
            OpKind::AffineStore => {
                let (v, m) = (self.operand(op, 0)?, self.operand(op, 1)?);
                self.affine(op, 2, AffineUse::Store { v, m })
            }
            OpKind::MemrefLoad => {
                let (m, d) = (self.operand(op, 0)?, self.result(op)?);
                Some(match self.m.operands(op).len() {
                    2 => Inst::Load1 { op, m, i: self.operand(op, 1)?, d },
                    3 => Inst::Load2 { op, m, i: self.operand(op, 1)?, j: self.operand(op, 2)?, d },
                    _ => Inst::Load { op, m, idx: self.span(self.m.operands(op).get(1..)?)?, d },
                })
            }
            OpKind::MemrefStore => {
                let (v, m) = (self.operand(op, 0)?, self.operand(op, 1)?);
                Some(match self.m.operands(op).len() {
                    3 => Inst::Store1 { op, v, m, i: self.operand(op, 2)? },
                    4 => Inst::Store2 { op, v, m, i: self.operand(op, 2)?, j: self.operand(op, 3)? },
                    _ => Inst::Store { op, v, m, idx: self.span(self.m.operands(op).get(2..)?)? },
                })
            }
            OpKind::LlvmGetelementptr => self.gep(op),
            OpKind::LlvmLoad => {
                let (lane, align) = self.plain_access(op, self.result_type(op)?)?;
                Some(Inst::PtrLoad { op, p: self.operand(op, 0)?, d: self.result(op)?, lane, align })
            }
            OpKind::LlvmStore => {
                let (lane, align) = self.plain_access(op, self.m.type_of(*self.m.operands(op).first()?))?;
                Some(Inst::PtrStore { op, v: self.operand(op, 0)?, p: self.operand(op, 1)?, lane, align })
            }
            _ => None,
        }
    }

    /// The copies of operands `range` of `op` into the arguments of block `to`.
    fn copies(&mut self, op: OpId, range: std::ops::Range<usize>, to: BlockId) -> Option<Copies> {
        let dsts: Vec<Slot> = self.m.args(to).map(|v| self.slot(v)).collect::<Option<_>>()?;
        self.copies_to(op, range, &dsts)
    }

    /// The parallel copies of operands `range` of `op` into slots `dsts`;
    /// an operand that is its tensor's last read moves.
    fn copies_to(&mut self, op: OpId, range: std::ops::Range<usize>, dsts: &[Slot]) -> Option<Copies> {
        let vals = self.m.operands(op).get(range.clone())?;
        if dsts.len() != vals.len() {
            return None;
        }
        let pairs: Vec<(Slot, Slot)> =
            vals.iter().zip(dsts).map(|(s, d)| Some((self.slot(*s)?, *d))).collect::<Option<_>>()?;
        let last = self.inp.aux[op.0 as usize].last;
        let moved: Vec<bool> = range.map(|i| i < 64 && last & (1 << i) != 0).collect();
        let overlap = pairs.iter().enumerate().any(|(i, (_, d))| pairs[i + 1..].iter().any(|(s, _)| s == d));
        let temp = overlap || vals.iter().any(|v| may_be_out_of_line(self.m, self.m.type_of(*v)));
        let start = self.code.pairs.len() as u32;
        self.code.pairs.extend(pairs);
        self.code.moved.extend(moved);
        Some(Copies { start, len: u16::try_from(vals.len()).ok()?, temp })
    }

    fn cond_br(&mut self, op: OpId) -> Option<Inst> {
        let (&t, &f) = (self.m.successors(op).first()?, self.m.successors(op).get(1)?);
        let n = self.m.operands(op).len();
        let nt = self.m.block(t).args.len as usize;
        let tc = self.copies(op, 1..1 + nt, t)?;
        let fc = self.copies(op, 1 + nt..n, f)?;
        self.operand_word(op, 0)?;
        self.code.conds.push(CondTargets { t: (u32::MAX, tc), f: (u32::MAX, fc) });
        Some(Inst::CondBr { op, c: self.operand(op, 0)?, k: self.code.conds.len() as u32 - 1 })
    }

    fn for_loop(&mut self, op: OpId) -> Option<Inst> {
        let w = self.operand_word(op, 0)?;
        let bounds = [self.operand(op, 0)?, self.operand(op, 1)?, self.operand(op, 2)?];
        let unsigned = self.inp.aux[op.0 as usize].flags & UNSIGNED != 0;
        self.push_loop(op, 3, w, bounds, unsigned, (None, None))
    }

    /// Records loop `op` (scf.for or affine.for) whose iteration arguments'
    /// initial values are its operands from `first_init` on.
    fn push_loop(
        &mut self,
        op: OpId,
        first_init: usize,
        w: u8,
        bounds: [Slot; 3],
        unsigned: bool,
        (affine, maps): (Option<[i64; 3]>, Option<u32>),
    ) -> Option<Inst> {
        let m = self.m;
        let &r = m.regions(op).first()?;
        let &body = m.region(r).blocks.first()?;
        let iv = self.slot(m.args(body).next()?)?;
        let n = m.operands(op).len().checked_sub(first_init)?;
        if m.block(body).args.len as usize != n + 1 || m.op(op).results.len as usize != n {
            return None;
        }
        let inits = self.span(m.operands(op).get(first_init..)?)?;
        let res = if n == 0 { 0 } else { self.result(op)? };
        // `block` sets `cont` once the instruction is in place.
        let (cont, scoped) = (u32::MAX, self.allocates(r));
        self.code.fors.push(ForLoop {
            bounds,
            w,
            unsigned,
            body,
            start: u32::MAX,
            iv,
            inits,
            res,
            cont,
            scoped,
            affine,
            maps,
        });
        Some(Inst::For { op, k: self.code.fors.len() as u32 - 1 })
    }

    /// `llvm.getelementptr` of one dynamic index on a pointer (as MLIR
    /// lowers `memref.load` and `memref.store`); other forms stay with the
    /// dialect.
    fn gep(&self, op: OpId) -> Option<Inst> {
        let (m, at) = (self.m, |name| self.m.attr(op, name).map(|a| self.m.ctx.attr_kind(a)));
        let Some(Attribute::DenseArray { values: DenseValues::Ints(raw), .. }) = at("rawConstantIndices") else {
            return None;
        };
        let Some(Attribute::Type(elem)) = at("elem_type") else { return None };
        let flags = match at("noWrapFlags") {
            None => 0,
            Some(Attribute::Integer { value, .. }) => u8::try_from(value.to_i64()?).ok()?,
            Some(_) => return None,
        };
        let [r] = raw.as_slice() else { return None };
        let ptr = |t| matches!(m.ctx.type_kind(t), TypeKind::LlvmPtr(_));
        if r.to_i64()? != GEP_DYNAMIC || !ptr(self.result_type(op)?) || !ptr(m.type_of(*m.operands(op).first()?)) {
            return None;
        }
        if datalayout::custom_layout(m).is_some() {
            return None;
        }
        let size = u32::try_from(datalayout::layout(&m.ctx, *elem, self.inp.index_bits).ok()?.alloc).ok()?;
        let (base, i, d) = (self.operand(op, 0)?, self.operand(op, 1)?, self.result(op)?);
        Some(Inst::Gep { op, base, i, d, size, w: self.operand_word(op, 1)?, flags })
    }

    /// The lane and log2 alignment of an `llvm.load` or `llvm.store` of
    /// `ty` that [`Inst::PtrLoad`] and [`Inst::PtrStore`] can do: a
    /// byte-multiple integer up to 64 bits or an f16, bf16, f32 or f64,
    /// aligned as its `alignment` says or else as LLVM's default layout.
    fn plain_access(&self, op: OpId, ty: TypeId) -> Option<(Lane, u8)> {
        let m = self.m;
        let lane = match m.ctx.type_kind(ty) {
            TypeKind::Integer { width: w @ (8 | 16 | 32 | 64), .. } => Lane::Int(*w),
            TypeKind::Float(k @ (FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64)) => {
                Lane::Float(*k)
            }
            _ => return None,
        };
        if datalayout::custom_layout(m).is_some() {
            return None;
        }
        let l = datalayout::layout(&m.ctx, ty, self.inp.index_bits).ok()?;
        let align = match m.attr(op, "alignment").map(|a| m.ctx.attr_kind(a)) {
            None => l.align,
            Some(Attribute::Integer { value, .. }) => match value.to_i64()? {
                a if a > 0 => u64::try_from(a).ok()?,
                _ => l.align,
            },
            Some(_) => return None,
        };
        (l.store == lane.bytes() as u64 && align.is_power_of_two()).then(|| (lane, align.trailing_zeros() as u8))
    }

    /// Map `i` of `op` (its order in [`Aux::maps`]) applied to the index
    /// operands in `operands`, if the executor can evaluate it: at most
    /// [`MAX_MAP`] operands and results, and an `index` of at most 64 bits.
    fn map_use(&mut self, op: OpId, i: usize, operands: std::ops::Range<usize>) -> Option<MapUse> {
        let map = self.inp.aux.get(op.0 as usize)?.maps.get(i)?;
        let w = u8::try_from(self.inp.index_bits).ok().filter(|w| *w <= 64)?;
        let ok = operands.len() == map.operands() && map.operands() <= MAX_MAP;
        if !ok || map.results() == 0 || map.results() > MAX_MAP {
            return None;
        }
        let map = map.clone();
        let args = self.span(self.m.operands(op).get(operands)?)?;
        self.code.maps.push(map);
        Some(MapUse { map: self.code.maps.len() as u32 - 1, args, w })
    }

    /// [`Inst::Affine`] for `op`, whose map operands start at `first`.
    fn affine(&mut self, op: OpId, first: usize, what: AffineUse) -> Option<Inst> {
        let map = self.map_use(op, 0, first..self.m.operands(op).len())?;
        self.code.affines.push(AffineInst { map, what });
        Some(Inst::Affine { op, k: self.code.affines.len() as u32 - 1 })
    }

    /// True when `op`'s one result is not a vector or tensor.
    fn scalar_result(&self, op: OpId) -> bool {
        self.result_type(op).is_some_and(|t| {
            !matches!(self.m.ctx.type_kind(t), TypeKind::Vector { .. } | TypeKind::RankedTensor { .. })
        })
    }

    /// True when `op`'s `map` is the identity on its operands from `first` on.
    fn identity_map(&self, op: OpId, first: usize) -> bool {
        let n = self.m.operands(op).len().saturating_sub(first);
        match self.m.attr(op, "map").map(|a| self.m.ctx.attr_kind(a)) {
            Some(Attribute::AffineMap(map)) => map.is_identity() && map.num_dims as usize == n,
            _ => false,
        }
    }

    /// `affine.for` whose bound maps are constants (the common case); other
    /// bounds stay with the dialect.
    fn affine_for(&mut self, op: OpId) -> Option<Inst> {
        let m = self.m;
        let constant = |name: &str, pick: fn(i64, i64) -> i64| match m.attr(op, name).map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::AffineMap(map)) if map.num_dims == 0 && map.num_syms == 0 => map
                .results
                .iter()
                .map(|e| match e {
                    AffineExpr::Const(c) => Some(*c),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>()?
                .into_iter()
                .reduce(pick),
            _ => None,
        };
        let step = match m.attr(op, "step").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::Integer { value, .. }) => value.to_i64()?,
            None => 1,
            _ => return None,
        };
        if step <= 0 {
            return None;
        }
        let w = u8::try_from(self.inp.index_bits).ok()?;
        if let (Some(lb), Some(ub)) = (constant("lowerBoundMap", i64::max), constant("upperBoundMap", i64::min)) {
            return self.push_loop(op, 0, w, [0; 3], false, (Some([lb, ub, step]), None));
        }
        let Some(Attribute::DenseArray { values: DenseValues::Ints(seg), .. }) =
            m.attr(op, "operandSegmentSizes").map(|a| m.ctx.attr_kind(a))
        else {
            return None;
        };
        let (nl, nu) = (usize::try_from(seg.first()?.to_i64()?).ok()?, usize::try_from(seg.get(1)?.to_i64()?).ok()?);
        let maps = [self.map_use(op, 0, 0..nl)?, self.map_use(op, 1, nl..nl.checked_add(nu)?)?];
        self.code.bounds.push(maps);
        let k = self.code.bounds.len() as u32 - 1;
        self.push_loop(op, nl + nu, w, [0; 3], false, (Some([0, 0, step]), Some(k)))
    }

    fn if_then(&mut self, op: OpId) -> Option<Inst> {
        self.operand_word(op, 0)?;
        let regions = self.m.regions(op);
        let then = *self.m.region(*regions.first()?).blocks.first()?;
        let els = match regions.get(1) {
            Some(r) => self.m.region(*r).blocks.first().copied(),
            None => None,
        };
        let n = self.m.op(op).results.len;
        let res = (if n == 0 { 0 } else { self.result(op)? }, n);
        // `block` sets `cont` once the instruction is in place.
        let cont = u32::MAX;
        // `link_yields` sets the branches' starts once every block is in place.
        let (then_pc, els_pc) = (u32::MAX, u32::MAX);
        self.code.ifs.push(IfThen { c: self.operand(op, 0)?, then, els, res, cont, then_pc, els_pc });
        Some(Inst::If { op, k: self.code.ifs.len() as u32 - 1 })
    }
}

impl Translator<'_> {
    /// True when an op in region `r` (at any depth) allocates on the stack.
    fn allocates(&self, r: mlir_ir::ir::RegionId) -> bool {
        let m = self.m;
        m.region(r)
            .blocks
            .iter()
            .flat_map(|b| &m.block(*b).ops)
            .any(|&op| m.op(op).name.kind == OpKind::MemrefAlloca || m.regions(op).iter().any(|r| self.allocates(*r)))
    }

    /// Points every branch at where its targets' instructions start
    /// (`u32::MAX`, out of range, for a target that is missing).
    fn link_branches(&mut self) {
        let (m, code) = (self.m, &mut self.code);
        let starts = &code.starts;
        let at = |op: OpId, n: usize| m.successors(op).get(n).map_or(u32::MAX, |b| starts[b.0 as usize]);
        for inst in &mut code.insts {
            match inst {
                Inst::Br { op, to, .. } => *to = at(*op, 0),
                Inst::CondBr { op, k, .. } => {
                    let c = &mut code.conds[*k as usize];
                    (c.t.0, c.f.0) = (at(*op, 0), at(*op, 1));
                }
                _ => {}
            }
        }
    }

    /// Turns the `scf.yield`s ending the bodies of translated loops and
    /// `scf.if`s into [`Inst::Next`] and [`Inst::Join`]. A structure with a
    /// yield that cannot be linked (see `relink`) runs through its dialect:
    /// translated, it would leave the region at that yield.
    fn link_yields(&mut self) {
        for k in 0..self.code.fors.len() {
            let l = self.code.fors[k];
            self.code.fors[k].start = self.code.starts[l.body.0 as usize];
            let n = self.m.block(l.body).args.len.saturating_sub(1);
            let dsts: Vec<Slot> = (0..n).map(|i| l.iv + 1 + i).collect();
            if !self.relink(l.body, &dsts, |op, copies| Inst::Next { op, k: k as u32, copies }) {
                self.untranslate(l.cont);
            }
        }
        for k in 0..self.code.ifs.len() {
            let i = self.code.ifs[k];
            self.code.ifs[k].then_pc = self.code.starts[i.then.0 as usize];
            self.code.ifs[k].els_pc = i.els.map_or(i.cont, |b| self.code.starts[b.0 as usize]);
            let dsts: Vec<Slot> = (0..i.res.1).map(|j| i.res.0 + j).collect();
            for b in [Some(i.then), i.els].into_iter().flatten() {
                if !self.relink(b, &dsts, |op, copies| Inst::Join { op, b, to: i.cont, copies }) {
                    self.untranslate(i.cont);
                }
            }
        }
    }

    /// Hands the structure whose instruction precedes `cont` to its dialect.
    fn untranslate(&mut self, cont: u32) {
        let at = cont as usize - 1;
        if let Inst::For { op, .. } | Inst::If { op, .. } = self.code.insts[at] {
            self.code.insts[at] = Inst::Op(op);
            if at > 0 && matches!(self.code.insts[at - 1], Inst::Charge(c) if c == op) {
                self.code.insts[at - 1] = Inst::Nop;
            }
        }
    }

    /// Where block `b`'s [`Inst::End`] is (an op may have two instructions).
    fn end(&self, b: BlockId) -> usize {
        let start = self.code.start(b);
        start + self.code.insts[start..].iter().position(|i| matches!(i, Inst::End(_))).unwrap_or(0)
    }

    /// Fills [`Code::need`]: a run from a block stays in its function (or
    /// global initializer), so each block needs what the whole of it names.
    fn frame_needs(&mut self) {
        let m = self.m;
        let mut most: FxHashMap<Option<OpId>, u32> = FxHashMap::default();
        let mut roots = Vec::with_capacity(m.blocks.len());
        for b in 0..m.blocks.len() {
            let root = self.root(BlockId(b as u32));
            let start = self.code.starts[b] as usize;
            let mut n = 0u32;
            for inst in &self.code.insts[start..=self.end(BlockId(b as u32))] {
                self.code.direct_slots(inst, &mut |s| n = n.max(s.saturating_add(1)));
            }
            let e = most.entry(root).or_insert(0);
            *e = (*e).max(n);
            roots.push(root);
        }
        self.code.need = roots.iter().map(|r| most[r]).collect();
    }

    /// The function or global whose body holds block `b` (the outermost op
    /// below a module), `None` for a block of no op.
    fn root(&self, b: BlockId) -> Option<OpId> {
        let m = self.m;
        let mut op = m.region(m.block(b).parent?).parent?;
        loop {
            let Some(up) = m.op(op).parent.and_then(|b| m.block(b).parent).and_then(|r| m.region(r).parent) else {
                return Some(op);
            };
            if m.op(up).name.kind == OpKind::BuiltinModule {
                return Some(op);
            }
            op = up;
        }
    }

    /// Makes the yield ending block `b` an instruction `make` builds with
    /// the copies to `dsts`; false when it cannot (the block does not end
    /// with a translated yield, or a value has no slot).
    fn relink(&mut self, b: BlockId, dsts: &[Slot], make: impl Fn(OpId, Copies) -> Inst) -> bool {
        let m = self.m;
        let Some(&last) = m.block(b).ops.last() else { return false };
        let at = self.end(b) - 1;
        let yields = matches!(m.op(last).name.kind, OpKind::ScfYield | OpKind::AffineYield);
        if !yields || !matches!(self.code.insts[at], Inst::Exit { .. }) {
            return false;
        }
        match self.copies_to(last, 0..m.operands(last).len(), dsts) {
            Some(copies) => {
                self.code.insts[at] = make(last, copies);
                true
            }
            None => false,
        }
    }
}

/// Formats whose `divf` needs no policy decision (they have NaN and infinity).
fn plain_float(k: FloatKind) -> bool {
    matches!(k, FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64)
}

fn int_bin(k: OpKind) -> Option<Bin> {
    Some(match k {
        OpKind::ArithAddi => Bin::Add,
        OpKind::ArithSubi => Bin::Sub,
        OpKind::ArithMuli => Bin::Mul,
        OpKind::ArithDivui => Bin::DivU,
        OpKind::ArithDivsi => Bin::DivS,
        OpKind::ArithRemui => Bin::RemU,
        OpKind::ArithRemsi => Bin::RemS,
        OpKind::ArithAndi => Bin::And,
        OpKind::ArithOri => Bin::Or,
        OpKind::ArithXori => Bin::Xor,
        OpKind::ArithShli => Bin::Shl,
        OpKind::ArithShrui => Bin::ShrU,
        OpKind::ArithShrsi => Bin::ShrS,
        OpKind::ArithMaxsi => Bin::MaxS,
        OpKind::ArithMaxui => Bin::MaxU,
        OpKind::ArithMinsi => Bin::MinS,
        OpKind::ArithMinui => Bin::MinU,
        // The index dialect: arith's semantics at the index width, no flags.
        OpKind::IndexAdd => Bin::Add,
        OpKind::IndexSub => Bin::Sub,
        OpKind::IndexMul => Bin::Mul,
        OpKind::IndexDivu => Bin::DivU,
        OpKind::IndexDivs => Bin::DivS,
        OpKind::IndexRemu => Bin::RemU,
        OpKind::IndexRems => Bin::RemS,
        OpKind::IndexAnd => Bin::And,
        OpKind::IndexOr => Bin::Or,
        OpKind::IndexXor => Bin::Xor,
        OpKind::IndexShl => Bin::Shl,
        OpKind::IndexShru => Bin::ShrU,
        OpKind::IndexShrs => Bin::ShrS,
        OpKind::IndexMaxs => Bin::MaxS,
        OpKind::IndexMaxu => Bin::MaxU,
        OpKind::IndexMins => Bin::MinS,
        OpKind::IndexMinu => Bin::MinU,
        // The llvm dialect: the same semantics (`sem::int`), LangRef's flags.
        OpKind::LlvmAdd => Bin::Add,
        OpKind::LlvmSub => Bin::Sub,
        OpKind::LlvmMul => Bin::Mul,
        OpKind::LlvmUdiv => Bin::DivU,
        OpKind::LlvmSdiv => Bin::DivS,
        OpKind::LlvmUrem => Bin::RemU,
        OpKind::LlvmSrem => Bin::RemS,
        OpKind::LlvmAnd => Bin::And,
        OpKind::LlvmOr => Bin::Or,
        OpKind::LlvmXor => Bin::Xor,
        OpKind::LlvmShl => Bin::Shl,
        OpKind::LlvmLshr => Bin::ShrU,
        OpKind::LlvmAshr => Bin::ShrS,
        OpKind::LlvmSmax => Bin::MaxS,
        OpKind::LlvmUmax => Bin::MaxU,
        OpKind::LlvmSmin => Bin::MinS,
        OpKind::LlvmUmin => Bin::MinU,
        _ => return None,
    })
}

/// True for an op of the index dialect.
fn is_index(k: OpKind) -> bool {
    matches!(k.dialect_op(), DialectOp::Index(_))
}

fn float_bin(k: OpKind) -> Option<FBin> {
    Some(match k {
        OpKind::ArithAddf => FBin::Add,
        OpKind::ArithSubf => FBin::Sub,
        OpKind::ArithMulf => FBin::Mul,
        OpKind::ArithDivf => FBin::Div,
        OpKind::LlvmFadd => FBin::Add,
        OpKind::LlvmFsub => FBin::Sub,
        OpKind::LlvmFmul => FBin::Mul,
        OpKind::LlvmFdiv => FBin::Div,
        _ => return None,
    })
}

fn int_cast(k: OpKind) -> Option<Cast> {
    Some(match k {
        OpKind::ArithExtsi | OpKind::ArithIndexCast => Cast::Signed,
        OpKind::ArithExtui | OpKind::ArithIndexCastui => Cast::Unsigned,
        OpKind::ArithTrunci => Cast::Trunc,
        OpKind::LlvmSext => Cast::Signed,
        OpKind::LlvmZext => Cast::Unsigned,
        OpKind::LlvmTrunc => Cast::Trunc,
        _ => return None,
    })
}
