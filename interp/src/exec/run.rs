//! The block loop over translated code (see `crate::code`): one `match` on
//! the instruction, arms one line long (the integer ops' arms written by
//! `match_inst!`). A specialised instruction computes
//! the plain case from its decoded slots and widths; anything else (poison,
//! a flag or UB consequence, an unusual value) goes to [`Engine::fallback`],
//! which runs the op through its dialect exactly as an [`Inst::Op`].

use super::{Engine, FastEntry, Flow, Frame};
use crate::code::{AffineUse, Code, Copies, FBin, Inst, MapUse, Slot, Span, Word2, MAX_MAP};
use crate::error::{Error, ErrorKind, Result};
use crate::float::{self, host, Round};
use crate::lane::Lane;
use crate::memory::Ptr;
use crate::sem::word::{self, Bin, Cast};
use crate::value::{FuncRef, Int, Packed, Value};
use mlir_ir::ir::{BlockId, OpId};
use mlir_ir::parser::{GEP_INBOUNDS_FLAG, GEP_NUSW};
use mlir_ir::types::FloatKind;
use std::rc::Rc;

/// `match $inst { .., $rest }` with an arm for each flagless integer op
/// and comparison before `$rest`: the fifteen [`Word2`] instructions,
/// each dispatched once as an arm of its own, written out here so that
/// `Engine::run_insts` reads as the control flow it runs.
macro_rules! match_inst {
    ($e:ident, $fr:ident, $inst:expr, { $($rest:tt)* }) => {
        match $inst {
            Inst::Add(i) => $e.word2($fr, Bin::Add, i)?,
            Inst::Sub(i) => $e.word2($fr, Bin::Sub, i)?,
            Inst::Mul(i) => $e.word2($fr, Bin::Mul, i)?,
            Inst::And(i) => $e.word2($fr, Bin::And, i)?,
            Inst::Or(i) => $e.word2($fr, Bin::Or, i)?,
            Inst::Xor(i) => $e.word2($fr, Bin::Xor, i)?,
            Inst::Shl(i) => $e.word2($fr, Bin::Shl, i)?,
            Inst::ShrU(i) => $e.word2($fr, Bin::ShrU, i)?,
            Inst::ShrS(i) => $e.word2($fr, Bin::ShrS, i)?,
            Inst::Eq(i) => $e.cmpi($fr, 0, i)?,
            Inst::Ne(i) => $e.cmpi($fr, 1, i)?,
            Inst::Slt(i) => $e.cmpi($fr, 2, i)?,
            Inst::Sle(i) => $e.cmpi($fr, 3, i)?,
            Inst::Ult(i) => $e.cmpi($fr, 6, i)?,
            Inst::Ule(i) => $e.cmpi($fr, 7, i)?,
            $($rest)*
        }
    };
}

/// Slot `s` of `fr`, which an instruction names directly.
#[inline(always)]
fn at(fr: &Frame, s: Slot) -> &Value {
    debug_assert!((s as usize) < fr.len());
    // SAFETY: translation bounded every slot an instruction names directly
    // by `Code::need` of its blocks (`Code::direct_slots`), and
    // `Engine::run_code` checked that `fr` is at least that long before
    // running any of them. A frame is a slice: nothing changes its length.
    unsafe { fr.get_unchecked(s as usize) }
}

/// Slot `s` of `fr` to write, which an instruction names directly.
#[inline(always)]
fn at_mut(fr: &mut Frame, s: Slot) -> &mut Value {
    debug_assert!((s as usize) < fr.len());
    // SAFETY: as for `at`.
    unsafe { fr.get_unchecked_mut(s as usize) }
}

/// Where `Engine::run_insts` is: a pointer to the next instruction, so
/// that stepping is one add. Every one comes from [`ip_at`] or steps by
/// one from an instruction that is not an `Inst::End`.
type Ip = *const Inst;

/// A pointer to instruction `pc` of `code`, which `Engine::run_insts`
/// reads through unchecked. `Engine::run_code` checked
/// `Code::in_range`: `pc` is a block start, a branch target or a
/// continuation, all in range, and an instruction falls through only when
/// it is not the last one, an `Inst::End` (which returns); so every
/// pointer read is in `code.insts`, which the run holds.
#[inline(always)]
fn ip_at(code: &Code, pc: usize) -> Ip {
    debug_assert!(pc < code.insts.len());
    code.insts.as_ptr().wrapping_add(pc)
}

/// `table[start..start + len]`: a run of one of `Code`'s tables that an
/// instruction or side-table entry of the code running names.
#[inline(always)]
fn run_of<T>(table: &[T], start: u32, len: usize) -> &[T] {
    let (start, end) = (start as usize, start as usize + len);
    debug_assert!(end <= table.len());
    // SAFETY: `Engine::run_code` checked `Code::in_range`.
    unsafe { table.get_unchecked(start..end) }
}

/// The slots of `s` (see [`run_of`]).
#[inline(always)]
fn slots(code: &Code, s: Span) -> &[Slot] {
    run_of(&code.pool, s.start, s.len as usize)
}

/// The pairs of `c` (see [`run_of`]).
#[inline(always)]
fn pairs(code: &Code, c: Copies) -> &[(Slot, Slot)] {
    run_of(&code.pairs, c.start, c.len as usize)
}

/// Copies slot `s` into slot `d`, of the same type, as [`Value::copy_from`]
/// does, but through pointers, as `s` may be `d`: a scalar as its 24
/// bytes, the slot's old value not looked at. The copies of slots that may
/// hold a scalar out of line go through `Engine::copy`'s buffer instead
/// (`Copies::temp`), so that old value is a scalar or nothing yet.
#[inline(always)]
fn copy_slot(fr: &mut Frame, s: Slot, d: Slot) {
    copy_pair(fr, s, d, None);
}

/// [`copy_slot`] for a pair of a branch's copies, `moved` its entry of
/// [`Code::moved`]: a value that is not a scalar is then taken out of
/// `s` (the copy is its last read), so that an op updating it later finds
/// no other owner. Only a pair that is not a scalar looks at `moved`.
#[inline(always)]
fn copy_pair(fr: &mut Frame, s: Slot, d: Slot, moved: Option<&bool>) {
    let src: *const Value = at(fr, s);
    // SAFETY: `src` points into `fr` (see `at`) and no reference to it is
    // live while `at_mut`'s is. A `Value::Scalar` owns nothing, so its
    // bytes are a copy of it; what it overwrites owns nothing either
    // (above); `ptr::copy` allows `s == d`.
    unsafe {
        if matches!(*src, Value::Scalar(_)) {
            std::ptr::copy(src, at_mut(fr, d), 1);
        } else if moved == Some(&true) {
            let v = std::mem::replace(at_mut(fr, s), Value::Opaque);
            *at_mut(fr, d) = v;
        } else {
            *at_mut(fr, d) = (*src).clone();
        }
    }
}

/// Sets slot `v` to the lane of `lane` whose encoding is `bits` (a load's
/// fast path); `false` for a lane that is not a float or an integer of
/// at most 64 bits, which the loads leave to their dialects. `Lane::packed`
/// with the slot written in place: going through it here measured 2%
/// more instructions on `memref_loop`.
#[inline(always)]
fn set_lane(v: &mut Value, lane: Lane, bits: u64) -> bool {
    match lane {
        Lane::Float(k) => v.set_float(float::from_bits(k, u128::from(bits))),
        Lane::Int(w) if (1..=64).contains(&w) => v.set_word(w, bits & word::mask(w)),
        _ => return false,
    }
    true
}

/// Where the values of the last region exit are: slots of the frame that
/// ran the region (read by whoever takes them, so a call's results go
/// from the callee's frame to the caller's with no vector between), or
/// [`Engine::exits`] for a terminator a dialect ran.
#[derive(Clone, Copy, Debug)]
pub(super) enum ExitVals {
    /// The slots of a `func.return`-like exit.
    Slots(Span),
    /// The sources of a yield's copies.
    Copies(Copies),
    /// In `Engine::exits`.
    Owned,
}

/// An `scf.for` translated code entered and has not left: number `k`, with
/// its induction variable, upper bound and step (the slots hold them too;
/// reading them here saves the decoding). A translated `scf.if` needs no
/// entry: its yields know where it goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ctl {
    k: u32,
    iv: u64,
    ub: u64,
    step: u64,
}

/// A call translated code entered in the caller's own instruction loop:
/// what its return, or an error unwinding it, needs.
#[derive(Debug)]
pub(super) struct Call {
    /// The callee's frame. It stays here when the call returns, for the
    /// next call of the same function at this depth.
    frame: Vec<Value>,
    /// The function called.
    f: u32,
    /// What calling `f` needs, kept with its frame: the next call at this
    /// depth is most often of the same function, and looks up nothing.
    fe: FastEntry,
    /// The caller's next instruction.
    ip: Ip,
    /// The caller's slot for the first result.
    res: Slot,
    /// `Engine::ctl`'s length at the call: the callee's structures are above it.
    base: u32,
    /// Where the caller's structures start on `Engine::ctl`.
    caller_base: u32,
}

/// The calls translated code has entered in its own loop and not returned
/// from, `recs[..n]`, innermost last. The records above `n` keep the frames
/// of returned calls: a recursion or a call in a loop enters the same
/// function at the same depth again, and finds its frame in place.
#[derive(Debug, Default)]
pub(super) struct Calls {
    recs: Vec<Call>,
    n: usize,
}

impl Calls {
    /// The frame of the innermost call, or `root` outside any. The
    /// pointer stays valid while that call is open: `root` is borrowed
    /// for the whole run, and nothing resizes, frees or reads a call's
    /// frame otherwise while the call is in `recs[..n]` (moving a `Call`
    /// moves the `Vec`, not its buffer, and only the call's return, or
    /// the unwinding in `Engine::run_code`, touches its frame).
    #[inline(always)]
    fn top(&mut self, root: &mut Frame) -> *mut Frame {
        match self.n.checked_sub(1) {
            Some(i) => &mut self.open_rec(i).frame[..],
            None => root,
        }
    }

    /// Open call `i` (`i < n`).
    #[inline(always)]
    fn open_rec(&mut self, i: usize) -> &mut Call {
        debug_assert!(i < self.n && self.n <= self.recs.len());
        // SAFETY: `n <= recs.len()` always: `n` grows only to one past a
        // record `Engine::call_in_loop` has just used, and nothing
        // shortens `recs`.
        unsafe { self.recs.get_unchecked_mut(i) }
    }

    /// How many calls are open.
    #[cfg(test)]
    pub(super) fn open(&self) -> usize {
        self.n
    }

    /// The frames kept, open calls' or not.
    #[cfg(test)]
    pub(super) fn frames(&self) -> impl Iterator<Item = &Vec<Value>> {
        self.recs.iter().map(|c| &c.frame)
    }
}

impl Engine<'_> {
    /// Runs translated code from block `entry` until a terminator leaves the
    /// region; returns that terminator, its values left in `self.exits`.
    /// Translated `scf.for` and `scf.if` run inside this loop (their yields
    /// jump back or on), tracked on `self.ctl` above its length at entry;
    /// so do direct calls of defined functions, on a stack of [`Call`]s.
    pub(super) fn run_code(&mut self, fr: &mut Frame, entry: BlockId) -> Result<OpId> {
        // What makes the unchecked instruction fetch of `run_insts`, and
        // its unchecked reads of `Code`'s tables, sound.
        if !self.code.in_range {
            return Err(Error::global(ErrorKind::Internal(
                "translated code names an instruction or table entry out of range".into(),
            )));
        }
        // What makes the unchecked slot access of `at` and `at_mut` sound
        // (for the frames of calls, `Func::fast`).
        if fr.len() < self.code.need(entry) {
            return Err(Error::global(ErrorKind::Internal(format!(
                "a frame of {} slots runs code that names {}",
                fr.len(),
                self.code.need(entry)
            ))));
        }
        let base = self.ctl.len();
        let mut calls = std::mem::take(&mut self.calls);
        let r = self.run_insts(fr, entry, base, &mut calls);
        if r.is_err() {
            // Unwind what the error left, innermost first, as returns would.
            while let Some(i) = calls.n.checked_sub(1) {
                calls.n = i;
                let c = &mut calls.recs[i];
                self.close_ctl(c.base as usize);
                self.end_call(c);
                self.clear_owning(c);
            }
            self.close_ctl(base);
        }
        debug_assert!(self.ctl.len() == base && calls.n == 0);
        self.calls = calls;
        r
    }

    /// Leaves the structures entered above `base`, closing the allocation
    /// scopes of their loops.
    fn close_ctl(&mut self, base: usize) {
        for c in self.ctl.drain(base..) {
            if self.code.fors[c.k as usize].scoped {
                self.mem.pop_scope();
            }
        }
    }

    /// The loop of [`Engine::run_code`]: one arm per instruction (those of
    /// the integer ops in `match_inst!`). `frame`
    /// is the running frame, `root` or the innermost call's, whose
    /// structures start at `base` on `self.ctl`; `go!` goes on at `$to`,
    /// or, when it is `None`, leaves by `$op`: the end of the run, or the
    /// return of a call. `fr` is dropped before `frame` changes, as
    /// `Calls::top` requires.
    fn run_insts(&mut self, root: &mut Frame, entry: BlockId, mut base: usize, calls: &mut Calls) -> Result<OpId> {
        let code = Rc::clone(&self.code);
        let mut ip = ip_at(&code, code.start(entry));
        let mut frame = calls.top(root);
        macro_rules! go {
            ($op:expr, $to:expr) => {
                match ($to, $op) {
                    (Some(to), _) => ip = to,
                    (None, op) => match self.ret_open(&code, calls, root) {
                        Some(to) => (frame, base, ip) = to,
                        None => return Ok(op),
                    },
                }
            };
        }
        loop {
            // SAFETY: see `Calls::top`.
            let fr = unsafe { &mut *frame };
            // SAFETY: see `ip_at`.
            let inst = unsafe { &*ip };
            ip = ip.wrapping_add(1);
            match_inst!(self, fr, *inst, {
                Inst::Op(op) => go!(op, self.dialect_op(fr, op, ip)?),
                Inst::End(parent) => return Err(Error::unverified(parent, "block ends without a terminator")),
                Inst::Charge(op) => self.charge_rest(op)?,
                Inst::Nop => {}
                Inst::Const { op, k, d } => self.constant(fr, &code, op, k, d)?,
                Inst::ConstWord { op, w, d, bits } => self.packed(fr, op, d, Packed::word(u32::from(w), bits))?,
                Inst::ConstFloat { op, k, d, bits } => self.packed(fr, op, d, Packed::float_word(k, bits))?,
                Inst::Int2 { op, f, w, fl, a, b, d } => self.int2(fr, op, f, w, fl, [a, b, d])?,
                Inst::Cmpf { op, p, a, b, d } => self.cmpf(fr, op, p, [a, b, d])?,
                Inst::Cast { op, f, fl, from, to, a, d } => self.int_cast(fr, op, f, fl, (from, to), a, d)?,
                Inst::Select { op, c, t, f, d } => self.select(fr, op, [c, t, f, d])?,
                Inst::IntToFloat { op, signed, from, k, a, d } => self.int_to_float(fr, op, (signed, from, k), a, d)?,
                Inst::Float2 { op, f, k, a, b, d } => self.float2(fr, op, f, k, [a, b, d])?,
                Inst::Br { op, to, copies } => ip = self.br(fr, &code, op, to, copies)?,
                Inst::CondBr { op, c, k } => ip = self.cond_br(fr, &code, op, c, k)?,
                Inst::Exit { op, vals } => go!(op, self.exit(op, vals)?),
                Inst::For { op, k } => ip = self.for_enter(fr, &code, op, k, ip)?,
                Inst::Next { op, k, copies } => go!(op, self.for_next(fr, &code, op, (k, copies), base)?),
                Inst::If { op, k } => ip = self.if_enter(fr, &code, op, k, ip)?,
                Inst::Join { op, b, to, copies } => {
                    go!(op, self.if_join(fr, &code, op, (to, copies), b == entry && calls.n == 0)?)
                }
                Inst::Call { op, f, args, res } => {
                    if let Some(start) = self.call_in_loop(fr, &code, calls, op, f, (args, res), (ip, base))? {
                        (frame, base, ip) = (calls.top(root), self.ctl.len(), start);
                    }
                }
                Inst::Load { op, m, idx, d } => self.mem_load(fr, op, m, code.slots(idx), d)?,
                Inst::Load1 { op, m, i, d } => self.mem_load(fr, op, m, &[i], d)?,
                Inst::Load2 { op, m, i, j, d } => self.mem_load(fr, op, m, &[i, j], d)?,
                Inst::Store { op, v, m, idx } => self.mem_store(fr, op, v, m, code.slots(idx))?,
                Inst::Store1 { op, v, m, i } => self.mem_store(fr, op, v, m, &[i])?,
                Inst::Store2 { op, v, m, i, j } => self.mem_store(fr, op, v, m, &[i, j])?,
                Inst::Gep { op, base, i, d, size, w, flags } => self.gep(fr, op, [base, i, d], size, (w, flags))?,
                Inst::PtrLoad { op, p, d, lane, align } => self.ptr_load(fr, op, p, d, (lane, align))?,
                Inst::PtrStore { op, v, p, lane, align } => self.ptr_store(fr, op, v, p, (lane, align))?,
                Inst::Affine { op, k } => self.affine(fr, &code, op, k)?,
            })
        }
    }

    /// True when the innermost structure entered is loop `k`.
    #[inline(always)]
    fn in_loop(&self, k: u32) -> bool {
        matches!(self.ctl.last(), Some(c) if c.k == k)
    }

    /// Ticks and executes `op` (at `ip`, the instruction after it)
    /// through its dialect: where the run goes on, or `None` when `op`
    /// leaves the region (its values in `self.exits`).
    #[inline]
    fn dialect_op(&mut self, fr: &mut Frame, op: OpId, ip: Ip) -> Result<Option<Ip>> {
        self.tick(op)?;
        Ok(match self.step(fr, op)? {
            Flow::Next => Some(ip),
            Flow::Branch(t, vals) => Some(self.jump(fr, op, t, vals)?),
            Flow::Exit(vals) => {
                self.exits = vals;
                self.exit_at = ExitVals::Owned;
                None
            }
        })
    }

    /// Executes a non-terminator through its dialect (already ticked).
    #[inline(never)]
    fn fallback(&mut self, fr: &mut Frame, op: OpId) -> Result<()> {
        match self.step(fr, op)? {
            Flow::Next => Ok(()),
            _ => Err(Error::unverified(op, "a non-terminator changed the control flow")),
        }
    }

    /// Passes `vals` to block `t` and returns where it starts.
    fn jump(&mut self, fr: &mut Frame, op: OpId, t: BlockId, vals: Vec<Value>) -> Result<Ip> {
        self.set_block_args(fr, t, vals, op)?;
        Ok(ip_at(&self.code, self.code.start(t)))
    }

    #[inline(always)]
    fn constant(&mut self, fr: &mut Frame, code: &Code, op: OpId, k: u32, d: Slot) -> Result<()> {
        self.tick1(op)?;
        at_mut(fr, d).copy_from(&code.consts[k as usize]);
        Ok(())
    }

    /// A constant the instruction holds.
    #[inline(always)]
    fn packed(&mut self, fr: &mut Frame, op: OpId, d: Slot, p: Packed) -> Result<()> {
        self.tick1(op)?;
        at_mut(fr, d).set_packed(p);
        Ok(())
    }

    #[inline(always)]
    fn int2(&mut self, fr: &mut Frame, op: OpId, f: Bin, w: u8, fl: u8, [a, b, d]: [Slot; 3]) -> Result<()> {
        self.tick1(op)?;
        let w = u32::from(w);
        match (at(fr, a).word(), at(fr, b).word()) {
            (Some(x), Some(y)) => match word::bin(f, w, fl, x, y) {
                Some(r) => at_mut(fr, d).set_word(w, r),
                None => self.fallback(fr, op)?,
            },
            _ => self.fallback(fr, op)?,
        }
        Ok(())
    }

    /// A flagless integer op: `int2` with `f` and the flags known, so each
    /// instruction's arm compiles to that op alone.
    #[inline(always)]
    fn word2(&mut self, fr: &mut Frame, f: Bin, i: Word2) -> Result<()> {
        self.int2(fr, i.op, f, i.w, 0, [i.a, i.b, i.d])
    }

    /// A comparison with predicate `p` (known in each instruction's arm).
    #[inline(always)]
    fn cmpi(&mut self, fr: &mut Frame, p: u8, i: Word2) -> Result<()> {
        self.tick1(i.op)?;
        match (at(fr, i.a).word(), at(fr, i.b).word()) {
            (Some(x), Some(y)) => at_mut(fr, i.d).set_word(1, u64::from(word::cmp(p, u32::from(i.w), x, y))),
            _ => self.fallback(fr, i.op)?,
        }
        Ok(())
    }

    /// `sitofp`/`uitofp` to f32 or f64 through the host's exact conversion.
    #[inline(always)]
    fn int_to_float(&mut self, fr: &mut Frame, op: OpId, to: (bool, u8, FloatKind), a: Slot, d: Slot) -> Result<()> {
        self.tick1(op)?;
        let (signed, from, k) = to;
        let Some(x) = at(fr, a).word() else { return self.fallback(fr, op) };
        let v = if signed { word::sext(u32::from(from), x) as u64 } else { x };
        match host::from_word(k, v, signed) {
            Some(bits) => at_mut(fr, d).set_float(float::Float { kind: k, bits }),
            None => self.fallback(fr, op)?,
        }
        Ok(())
    }

    #[inline(always)]
    fn cmpf(&mut self, fr: &mut Frame, op: OpId, p: u8, [a, b, d]: [Slot; 3]) -> Result<()> {
        self.tick1(op)?;
        match (at(fr, a), at(fr, b)) {
            (Value::Scalar(x @ Packed::Float { .. }), Value::Scalar(y @ Packed::Float { .. })) => {
                let (Some(x), Some(y)) = (x.as_float(), y.as_float()) else { return self.fallback(fr, op) };
                let c = crate::sem::fp::cmpf(p, x, y);
                at_mut(fr, d).set_word(1, u64::from(c));
            }
            _ => self.fallback(fr, op)?,
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn int_cast(
        &mut self,
        fr: &mut Frame,
        op: OpId,
        f: Cast,
        fl: u8,
        (from, to): (u8, u8),
        a: Slot,
        d: Slot,
    ) -> Result<()> {
        self.tick1(op)?;
        let to = u32::from(to);
        match at(fr, a).word().and_then(|x| word::cast(f, fl, u32::from(from), to, x)) {
            Some(r) => at_mut(fr, d).set_word(to, r),
            None => self.fallback(fr, op)?,
        }
        Ok(())
    }

    #[inline(always)]
    fn select(&mut self, fr: &mut Frame, op: OpId, [c, t, f, d]: [Slot; 4]) -> Result<()> {
        self.tick1(op)?;
        let pick = match at(fr, c) {
            Value::Scalar(Packed::Int { lo, hi, .. }) => {
                if *lo != 0 || *hi != 0 {
                    t
                } else {
                    f
                }
            }
            _ => return self.fallback(fr, op),
        };
        copy_slot(fr, pick, d);
        Ok(())
    }

    /// A float op: f32 and f64 on the host's instructions straight from
    /// the slots' bits (`float::host`), other formats and NaN results
    /// through `crate::float`.
    #[inline(always)]
    fn float2(&mut self, fr: &mut Frame, op: OpId, f: FBin, k: FloatKind, [a, b, d]: [Slot; 3]) -> Result<()> {
        self.tick1(op)?;
        // Only the low bits are read on the host path: copying whole
        // `Float`s straddles the halves a load just wrote, and the CPU
        // stalls on the store forwarding.
        let host = match (at(fr, a), at(fr, b)) {
            (Value::Scalar(Packed::Float { lo: x, .. }), Value::Scalar(Packed::Float { lo: y, .. })) => match k {
                FloatKind::F32 => host::bin32(f, *x as u32, *y as u32).map(u64::from),
                FloatKind::F64 => host::bin64(f, *x, *y),
                _ => None,
            },
            _ => return self.fallback(fr, op),
        };
        if let (Some(lo), Value::Scalar(z)) = (host, at_mut(fr, d)) {
            *z = Packed::Float { kind: k, lo, hi: 0 };
            return Ok(());
        }
        let (Some(x), Some(y)) = (at(fr, a).as_float(), at(fr, b).as_float()) else {
            return self.fallback(fr, op);
        };
        let r = match f {
            FBin::Add => float::add(x, y, Round::NearestEven),
            FBin::Sub => float::sub(x, y, Round::NearestEven),
            FBin::Mul => float::mul(x, y, Round::NearestEven),
            FBin::Div => float::div(x, y, Round::NearestEven),
        };
        at_mut(fr, d).set_float(r);
        Ok(())
    }

    /// Copies block arguments in parallel.
    #[inline(always)]
    fn copy(&mut self, fr: &mut Frame, code: &Code, c: Copies) {
        let pairs = pairs(code, c);
        let moved = |k: u32| code.moved.get(k as usize);
        // One or two values (a yield's, a loop-carried pair of a branch)
        // are the common cases: unrolled, with no loop to set up.
        match *pairs {
            [(s, d)] if !c.temp => copy_pair(fr, s, d, moved(c.start)),
            [(s0, d0), (s1, d1)] if !c.temp => {
                copy_pair(fr, s0, d0, moved(c.start));
                copy_pair(fr, s1, d1, moved(c.start + 1));
            }
            _ if !c.temp => {
                for (k, &(s, d)) in (c.start..).zip(pairs) {
                    copy_pair(fr, s, d, moved(k));
                }
            }
            _ => self.copy_buffered(fr, code, c),
        }
    }

    /// The copies of `c` through the buffer (`c.temp`): every source read
    /// before any destination is written, and a pair that moves its value
    /// (the copy is its last read, `Code::moved`) takes it out of its
    /// slot. Translated code runs only unobserved, so nothing shows the
    /// slot. Out of line, so that the direct copies above stay small where
    /// they are inlined into every branch.
    #[inline(never)]
    fn copy_buffered(&mut self, fr: &mut Frame, code: &Code, c: Copies) {
        let pairs = pairs(code, c);
        let moved = code.moved.get(c.start as usize..).unwrap_or(&[]);
        self.scratch.clear();
        for (k, &(s, _)) in pairs.iter().enumerate() {
            let v = if moved.get(k) == Some(&true) {
                std::mem::replace(at_mut(fr, s), Value::Opaque)
            } else {
                at(fr, s).clone()
            };
            self.scratch.push(v);
        }
        for (&(_, d), v) in pairs.iter().zip(self.scratch.drain(..)) {
            *at_mut(fr, d) = v;
        }
    }

    #[inline(always)]
    fn br(&mut self, fr: &mut Frame, code: &Code, op: OpId, to: u32, c: Copies) -> Result<Ip> {
        self.tick1(op)?;
        self.copy(fr, code, c);
        Ok(ip_at(code, to as usize))
    }

    #[inline(always)]
    fn cond_br(&mut self, fr: &mut Frame, code: &Code, op: OpId, c: Slot, k: u32) -> Result<Ip> {
        self.tick1(op)?;
        let Some(cond) = at(fr, c).word() else {
            // Poison: the dialect reports it.
            return match self.step(fr, op)? {
                Flow::Branch(t, vals) => self.jump(fr, op, t, vals),
                _ => Err(Error::unverified(op, "cf.cond_br did not branch")),
            };
        };
        debug_assert!((k as usize) < code.conds.len());
        // SAFETY: `Engine::run_code` checked `Code::in_range`.
        let targets = unsafe { code.conds.get_unchecked(k as usize) };
        let (to, copies) = if cond != 0 { targets.t } else { targets.f };
        self.copy(fr, code, copies);
        Ok(ip_at(code, to as usize))
    }

    /// A region exit (always `None`, for `go!`).
    #[inline(always)]
    fn exit(&mut self, op: OpId, vals: Span) -> Result<Option<Ip>> {
        self.tick1(op)?;
        self.exit_at = ExitVals::Slots(vals);
        Ok(None)
    }

    /// The values of the last region exit, from `fr`, the frame that ran
    /// the region.
    pub(super) fn exit_values(&mut self, fr: &Frame) -> Vec<Value> {
        let code = &self.code;
        match self.exit_at {
            ExitVals::Slots(s) => code.slots(s).iter().map(|s| fr[*s as usize].clone()).collect(),
            ExitVals::Copies(c) => code.copies(c).iter().map(|(s, _)| fr[*s as usize].clone()).collect(),
            ExitVals::Owned => std::mem::take(&mut self.exits),
        }
    }

    /// Copies the values of the last region exit, which `callee` ran, into
    /// consecutive slots of `fr` from `first`.
    #[inline(always)]
    fn take_exits(&mut self, code: &Code, callee: &Frame, fr: &mut Frame, first: Slot) {
        let first = first as usize;
        match self.exit_at {
            ExitVals::Slots(s) => match *slots(code, s) {
                // One result is the common case.
                [s] => fr[first].copy_from(at(callee, s)),
                ref s => {
                    for (d, s) in fr[first..first + s.len()].iter_mut().zip(s) {
                        d.copy_from(at(callee, *s));
                    }
                }
            },
            ExitVals::Copies(c) => {
                for (i, (s, _)) in code.copies(c).iter().enumerate() {
                    fr[first + i].copy_from(&callee[*s as usize]);
                }
            }
            ExitVals::Owned => {
                for (i, v) in self.exits.drain(..).enumerate() {
                    fr[first + i] = v;
                }
            }
        }
    }

    /// Enters `scf.for` `k` (at `ip`, the instruction after it): its body's
    /// start, or `ip` when it runs no iteration. Each iteration of a body
    /// that allocates on the stack gets its own allocation scope, as
    /// `Engine::run_scoped` gives it.
    #[inline(always)]
    fn for_enter(&mut self, fr: &mut Frame, code: &Code, op: OpId, k: u32, ip: Ip) -> Result<Ip> {
        self.tick1(op)?;
        let l = code.fors[k as usize];
        let (lb, ub, step) = match l.affine {
            Some([lb, ub, step]) => match l.maps {
                None => (lb as u64, ub as u64, step as u64),
                Some(b) => match map_bounds(fr, code, code.bounds[b as usize]) {
                    Some([lb, ub]) => (lb as u64, ub as u64, step as u64),
                    None => {
                        self.fallback(fr, op)?;
                        return Ok(ip);
                    }
                },
            },
            None => {
                let [lb, ub] = [l.bounds[0], l.bounds[1]].map(|s| at(fr, s).word());
                let (Some(lb), Some(ub), Some(step)) = (lb, ub, at(fr, l.bounds[2]).word()) else {
                    self.fallback(fr, op)?;
                    return Ok(ip);
                };
                (lb, ub, step)
            }
        };
        let iters = l.iv as usize + 1;
        for (i, s) in code.slots(l.inits).iter().enumerate() {
            fr[iters + i] = at(fr, *s).clone();
        }
        let w = u32::from(l.w);
        let runs = match l.affine {
            Some(_) => (lb as i64) < (ub as i64),
            None => word::cmp(if l.unsigned { 6 } else { 2 }, w, lb, ub),
        };
        if !runs {
            self.loop_results(fr, l.inits.len as usize, iters, l.res);
            return Ok(ip);
        }
        *at_mut(fr, l.iv) = Value::int(Int::from_word(w, lb & word::mask(w)));
        if l.scoped {
            self.mem.push_scope();
        }
        self.ctl.push(Ctl { k, iv: lb, ub, step });
        Ok(ip_at(code, l.start as usize))
    }

    /// The yield of loop `k`'s body: the next iteration's start, or the
    /// instruction after the loop; `None` when the loop is not the
    /// innermost structure entered above `base` (it ran through its
    /// dialect, and the yield leaves the region).
    #[inline(always)]
    fn for_next(
        &mut self,
        fr: &mut Frame,
        code: &Code,
        op: OpId,
        (k, copies): (u32, Copies),
        base: usize,
    ) -> Result<Option<Ip>> {
        self.tick1(op)?;
        if self.ctl.len() <= base || !self.in_loop(k) {
            return Ok(self.yield_leaves(copies));
        }
        self.copy(fr, code, copies);
        // Fields are read where used: a copy of the whole entry stays live
        // across the copies above and spills.
        let l = &code.fors[k as usize];
        let w = u32::from(l.w);
        let Some(Ctl { iv, ub, step, .. }) = self.ctl.last_mut() else {
            return Err(Error::unverified(op, "scf.yield outside its loop"));
        };
        // scf.for wraps at the width; affine.for counts in i64 and stops
        // where the next value would overflow.
        let (next, more) = match l.affine {
            Some(_) => match (*iv as i64).checked_add(*step as i64) {
                Some(n) => (n as u64, n < *ub as i64),
                None => (*iv, false),
            },
            None => {
                let n = iv.wrapping_add(*step) & word::mask(w);
                (n, word::cmp(if l.unsigned { 6 } else { 2 }, w, n, *ub))
            }
        };
        *iv = next;
        if l.scoped {
            self.mem.pop_scope();
        }
        if more {
            at_mut(fr, l.iv).set_word(w, next & word::mask(w));
            if l.scoped {
                self.mem.push_scope();
            }
            return Ok(Some(ip_at(code, l.start as usize)));
        }
        self.ctl.pop();
        self.loop_results(fr, copies.len as usize, l.iv as usize + 1, l.res);
        Ok(Some(ip_at(code, l.cont as usize)))
    }

    /// A yield whose structure ran through its dialect: it leaves the
    /// region with the sources of its copies (`None`, for `go!`).
    fn yield_leaves(&mut self, copies: Copies) -> Option<Ip> {
        self.exit_at = ExitVals::Copies(copies);
        None
    }

    /// Copies the `n` iteration arguments from slot `iters` to the loop's results.
    #[inline(always)]
    fn loop_results(&mut self, fr: &mut Frame, n: usize, iters: usize, res: Slot) {
        for i in 0..n {
            fr[res as usize + i] = fr[iters + i].clone();
        }
    }

    /// Enters `scf.if` `k` (at `ip`, the instruction after it): the start of
    /// the branch taken, or `ip` when there is none.
    #[inline(always)]
    fn if_enter(&mut self, fr: &mut Frame, code: &Code, op: OpId, k: u32, ip: Ip) -> Result<Ip> {
        self.tick1(op)?;
        let i = &code.ifs[k as usize];
        let Some(c) = at(fr, i.c).word() else {
            self.fallback(fr, op)?;
            return Ok(ip);
        };
        Ok(ip_at(code, if c != 0 { i.then_pc } else { i.els_pc } as usize))
    }

    /// The yield of a branch of a translated `scf.if`: its values become
    /// the results, and the run goes on at `to`, after the `scf.if`;
    /// `None` when the yield `leaves` the region instead (the run started
    /// at its block: the `scf.if` ran through its dialect).
    #[inline(always)]
    fn if_join(
        &mut self,
        fr: &mut Frame,
        code: &Code,
        op: OpId,
        (to, copies): (u32, Copies),
        leaves: bool,
    ) -> Result<Option<Ip>> {
        self.tick1(op)?;
        if leaves {
            return Ok(self.yield_leaves(copies));
        }
        self.copy(fr, code, copies);
        Ok(Some(ip_at(code, to as usize)))
    }

    /// A direct call from the instruction before `ip`, in a frame whose
    /// structures start at `base` on `Engine::ctl`: for a defined function,
    /// enters its [`Call`] (the arguments straight in its entry block's
    /// slots, on the frame `call_frame` keeps at this depth) and
    /// returns where its code starts; otherwise runs the op through its
    /// dialect and returns `None`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn call_in_loop(
        &mut self,
        fr: &mut Frame,
        code: &Code,
        calls: &mut Calls,
        op: OpId,
        f: FuncRef,
        (args, res): (Span, Slot),
        (ip, caller_base): (Ip, usize),
    ) -> Result<Option<Ip>> {
        self.tick1(op)?;
        let d = calls.n;
        if calls.recs.get(d).is_none_or(|c| c.f != f.0) && !self.call_frame(calls, f) {
            self.fallback(fr, op)?;
            return Ok(None);
        }
        debug_assert!(d < calls.recs.len());
        // SAFETY: `recs[d]` exists: it served `f` above, or `call_frame`
        // made it serve `f`.
        let c = unsafe { calls.recs.get_unchecked_mut(d) };
        let fe = c.fe;
        // Charged as a call on the host stack is, though this one is not:
        // a run with an observer (which recurses) meets the same limits.
        self.enter_frame(op, fe.charge)?;
        let arg0 = fe.arg0 as usize;
        match *slots(code, args) {
            [s] => c.frame[arg0].copy_from(at(fr, s)),
            ref args => {
                for (d, s) in c.frame[arg0..arg0 + args.len()].iter_mut().zip(args) {
                    d.copy_from(at(fr, *s));
                }
            }
        }
        if fe.scoped {
            self.mem.push_scope();
        }
        (c.ip, c.res, c.base, c.caller_base) = (ip, res, self.ctl.len() as u32, caller_base as u32);
        calls.n = d + 1;
        Ok(Some(ip_at(code, fe.start as usize)))
    }

    /// Makes the record at the depth of the next call, `calls.n`, serve
    /// `f` (which it does not yet) when `f` has code to call in the loop
    /// (`Func::fast`; `false` when not): a frame from `f`'s pool or a new
    /// one, the record's old frame going back to its function's pool. A
    /// frame serves one function only, so a slot keeps one type, and the
    /// last call's scalars in it are never seen: every slot is written
    /// before it is read (SSA dominance).
    #[inline(never)]
    fn call_frame(&mut self, calls: &mut Calls, f: FuncRef) -> bool {
        let Some(fe) = self.funcs.get(f.0 as usize).and_then(|f| f.fast) else { return false };
        let frame = self.frame_of(f.0, fe.nslots);
        match calls.recs.get_mut(calls.n) {
            Some(c) => {
                let old = std::mem::replace(&mut c.frame, frame);
                self.frames[c.f as usize].push(old);
                (c.f, c.fe) = (f.0, fe);
            }
            None => {
                let (ip, res, base, caller_base) = (std::ptr::null(), 0, 0, 0);
                calls.recs.push(Call { frame, f: f.0, fe, ip, res, base, caller_base });
            }
        }
        true
    }

    /// A frame for function `f` of `nslots` slots from its pool, or a new one.
    #[inline(always)]
    fn frame_of(&mut self, f: u32, nslots: u32) -> Vec<Value> {
        self.frames[f as usize].pop().unwrap_or_else(|| vec![Value::Opaque; nslots as usize])
    }

    /// Returns from the innermost open call: the caller's frame, where
    /// its structures start on `self.ctl`, and where it goes on; `None`
    /// when no call is open, and the run ends.
    #[inline(always)]
    fn ret_open(&mut self, code: &Code, calls: &mut Calls, root: &mut Frame) -> Option<(*mut Frame, usize, Ip)> {
        let i = calls.n.checked_sub(1)?;
        calls.n = i;
        let frame = calls.top(root);
        // SAFETY: call `i` was open a moment ago, so `i < recs.len()` (see
        // `Calls::open_rec`).
        let c = unsafe { calls.recs.get_unchecked_mut(i) };
        // SAFETY: see `Calls::top`; the caller's frame is not the callee's, `c.frame`.
        let ip = self.ret(code, c, unsafe { &mut *frame });
        Some((frame, c.caller_base as usize, ip))
    }

    /// Returns from call `c` to `caller`, its results copied to their
    /// slots; returns where the caller goes on.
    #[inline(always)]
    fn ret(&mut self, code: &Code, c: &mut Call, caller: &mut Frame) -> Ip {
        debug_assert!(self.ctl.len() == c.base as usize);
        self.end_call(c);
        self.take_exits(code, &c.frame, caller, c.res);
        self.clear_owning(c);
        c.ip
    }

    /// Closes call `c`'s allocation scope and returns its charge.
    #[inline(always)]
    fn end_call(&mut self, c: &Call) {
        if c.fe.scoped {
            self.mem.pop_scope();
        }
        self.leave_call(c.fe.charge);
    }

    /// Drops what the slots of ended call `c`'s frame own.
    #[inline(always)]
    fn clear_owning(&mut self, c: &mut Call) {
        if c.fe.owns {
            for &s in self.funcs[c.f as usize].owning.iter() {
                c.frame[s as usize] = Value::Opaque;
            }
        }
    }

    /// `memref.load` at the indices in `slots` (inlined, so that the
    /// rank-1 and rank-2 instructions index with arrays of known length).
    #[inline(always)]
    fn mem_load(&mut self, fr: &mut Frame, op: OpId, m: Slot, slots: &[Slot], d: Slot) -> Result<()> {
        self.tick1(op)?;
        let got = match at(fr, m) {
            // Indices are `index` values: 64 bits, so the word is the number.
            Value::Memref(mr) if slots.len() == mr.sizes.len() => {
                mr.fast_bits(slots.iter().map(|s| at(fr, *s).word().map(|w| w as i64)))
            }
            _ => None,
        };
        match got {
            Some((bits, lane)) if set_lane(at_mut(fr, d), lane, bits) => Ok(()),
            _ => self.fallback(fr, op),
        }
    }

    /// `llvm.getelementptr` of one index (`Inst::Gep`): the base moved by
    /// the index times `size`; a base that is not a pointer, an index that
    /// is not a number, and a result the flags make poison (`inbounds`:
    /// outside the allocation; `nusw`: past 64 bits) go to the dialect.
    #[inline(always)]
    fn gep(
        &mut self,
        fr: &mut Frame,
        op: OpId,
        [base, i, d]: [Slot; 3],
        size: u32,
        (w, flags): (u8, u8),
    ) -> Result<()> {
        self.tick1(op)?;
        let (Value::Ptr(p), Some(x)) = (at(fr, base), at(fr, i).word()) else { return self.fallback(fr, op) };
        let off = i128::from(p.offset) + i128::from(word::sext(u32::from(w), x)) * i128::from(size);
        let len = || p.buf.as_ref().map_or(0, |b| b.borrow().len() as i128);
        let inbounds = flags & GEP_INBOUNDS_FLAG as u8 == 0 || (0..=len()).contains(&off);
        let nusw = flags & GEP_NUSW as u8 == 0 || i64::try_from(off).is_ok();
        if !(inbounds && nusw) {
            return self.fallback(fr, op);
        }
        let q = Value::Ptr(Ptr { buf: p.buf.clone(), offset: off as i64 });
        *at_mut(fr, d) = q;
        Ok(())
    }

    /// `llvm.load` of a scalar (`Inst::PtrLoad`); one that is undefined,
    /// or reads poison or unwritten bytes, goes to the dialect.
    #[inline(always)]
    fn ptr_load(&mut self, fr: &mut Frame, op: OpId, p: Slot, d: Slot, (lane, align): (Lane, u8)) -> Result<()> {
        self.tick1(op)?;
        let n = lane.bytes();
        let bits = match at(fr, p) {
            Value::Ptr(Ptr { buf: Some(buf), offset }) => {
                let b = buf.borrow();
                b.plain_access(*offset, n, align, false).and_then(|at| b.fast_word(at, n))
            }
            _ => None,
        };
        match bits {
            Some(bits) if set_lane(at_mut(fr, d), lane, bits) => Ok(()),
            _ => self.fallback(fr, op),
        }
    }

    /// `llvm.store` of a scalar (`Inst::PtrStore`); one that is undefined
    /// goes to the dialect.
    #[inline(always)]
    fn ptr_store(&mut self, fr: &mut Frame, op: OpId, v: Slot, p: Slot, (lane, align): (Lane, u8)) -> Result<()> {
        self.tick1(op)?;
        let stored = match (at(fr, p), at(fr, v)) {
            (Value::Ptr(Ptr { buf: Some(buf), offset }), Value::Scalar(s)) => {
                let mut b = buf.borrow_mut();
                let at = b.plain_access(*offset, lane.bytes(), align, true);
                at.is_some_and(|at| b.write_packed(at, lane, *s).is_some())
            }
            _ => false,
        };
        if stored {
            Ok(())
        } else {
            self.fallback(fr, op)
        }
    }

    /// `memref.store` at the indices in `slots` (see `mem_load`).
    #[inline(always)]
    fn mem_store(&mut self, fr: &mut Frame, op: OpId, v: Slot, m: Slot, slots: &[Slot]) -> Result<()> {
        self.tick1(op)?;
        let stored = match (at(fr, m), at(fr, v)) {
            (Value::Memref(mr), Value::Scalar(s)) if slots.len() == mr.sizes.len() => {
                mr.fast_store(slots.iter().map(|s| at(fr, *s).word().map(|w| w as i64)), *s)
            }
            _ => false,
        };
        if stored {
            Ok(())
        } else {
            self.fallback(fr, op)
        }
    }

    /// `Inst::Affine`: its map on its index operands, the results used as
    /// the op says. A poison operand, a map that fails (overflow, a
    /// divisor that is not positive) and an access the plain path does not
    /// make go to the dialect, which words the failure.
    #[cold]
    #[inline(never)]
    fn affine(&mut self, fr: &mut Frame, code: &Code, op: OpId, k: u32) -> Result<()> {
        self.tick1(op)?;
        let a = code.affines[k as usize];
        let mut out = [0i64; MAX_MAP];
        let Some(n) = eval_map(fr, code, a.map, &mut out) else { return self.fallback(fr, op) };
        let (r, w) = (&out[..n], u32::from(a.map.w));
        let index = |d: Slot, x: i64, fr: &mut Frame| {
            at_mut(fr, d).set_word(w, x as u64 & word::mask(w));
            true
        };
        let done = match a.what {
            AffineUse::Apply(d) => index(d, r[0], fr),
            AffineUse::Min(d) => index(d, r.iter().fold(i64::MAX, |x, y| x.min(*y)), fr),
            AffineUse::Max(d) => index(d, r.iter().fold(i64::MIN, |x, y| x.max(*y)), fr),
            AffineUse::Load { m, d } => match memref_bits(fr, m, n, r.iter().map(|x| Some(*x))) {
                Some((bits, lane)) => set_lane(at_mut(fr, d), lane, bits),
                None => false,
            },
            AffineUse::Store { v, m } => memref_put(fr, v, m, n, r.iter().map(|x| Some(*x))),
        };
        if done {
            Ok(())
        } else {
            self.fallback(fr, op)
        }
    }
}

/// The bits and lane of the element of the memref in slot `m` at `idx`
/// (of `rank` indices), where the plain load path reads it (see
/// `MemRef::fast_bits`).
#[inline(always)]
fn memref_bits(fr: &Frame, m: Slot, rank: usize, idx: impl Iterator<Item = Option<i64>>) -> Option<(u64, Lane)> {
    match at(fr, m) {
        Value::Memref(mr) if rank == mr.sizes.len() => mr.fast_bits(idx),
        _ => None,
    }
}

/// Stores the scalar in slot `v` into the memref in slot `m` at `idx`
/// where the plain store path can (see `MemRef::fast_store`).
#[inline(always)]
fn memref_put(fr: &Frame, v: Slot, m: Slot, rank: usize, idx: impl Iterator<Item = Option<i64>>) -> bool {
    match (at(fr, m), at(fr, v)) {
        (Value::Memref(mr), Value::Scalar(s)) if rank == mr.sizes.len() => mr.fast_store(idx, *s),
        _ => false,
    }
}

/// The bounds of an `affine.for` from its maps: the greatest result of
/// the lower bound's, the least of the upper bound's (`None` as
/// [`eval_map`] gives it).
#[inline(never)]
fn map_bounds(fr: &Frame, code: &Code, [lo, hi]: [MapUse; 2]) -> Option<[i64; 2]> {
    let mut out = [0i64; MAX_MAP];
    let n = eval_map(fr, code, lo, &mut out)?;
    let lb = out[..n].iter().copied().max()?;
    let n = eval_map(fr, code, hi, &mut out)?;
    Some([lb, out[..n].iter().copied().min()?])
}

/// Evaluates `u` into `out`: its number of results, or `None` when an
/// operand is not a plain integer (poison) or the map fails.
#[inline(always)]
fn eval_map(fr: &Frame, code: &Code, u: MapUse, out: &mut [i64; MAX_MAP]) -> Option<usize> {
    let mut vals = [0i64; MAX_MAP];
    for (v, s) in vals.iter_mut().zip(code.slots(u.args)) {
        *v = word::sext(u32::from(u.w), at(fr, *s).word()?);
    }
    let map = &code.maps[u.map as usize];
    map.eval_into(&vals[..u.args.len as usize], out).ok()?;
    Some(map.results())
}
