//! The point loop of a structured op, fast: every operand's indexing map
//! compiled to byte strides over the loop nest, the body's block arguments
//! written straight into their frame slots, its yielded values read where
//! its exit left them, and for the commonest bodies a kernel in place of
//! the body. Loops run in the order of the general loop in `mod.rs` (and
//! of `convert-linalg-to-loops`): `d0` outermost, each counting up.
//!
//! It applies when nothing at any point can be undefined behaviour that
//! the general loop would report: every map is linear (`d1 * 2 + d4`),
//! every element the loops touch lies inside its operand, a memref is a
//! live strided view of scalars (writable for an output), and the body is
//! one block of arithmetic (no memory access, call or region), so the
//! buffers it borrows for the loop's length are not touched by the body.
//! Otherwise [`run`] declines and the general loop runs the op. Poison and
//! unwritten elements are read and written as the general loop does
//! (through the same decoders), one element at a time.
//!
//! A kernel ([`Kernel`]) runs a body of one or two float operations on
//! f32 or f64 with the host's instructions, which IEEE 754 makes
//! correctly rounded (a NaN result is recomputed by the exact path for its
//! canonical encoding), in the body's operand order and the loops' order:
//! the bits of the body's run. It runs only on operands without poison or
//! unwritten elements, an output in memory of its own, and fuel enough for
//! the whole op; it spends the fuel and counts the ops the body would.
//! `interp/tests/linalg_points.rs` checks both against the general loop.

use super::{never_written, Operand};
use crate::dense::Dense;
use crate::error::{Error, Result};
use crate::exec::{Body, Engine, Frame};
use crate::float::{self, host, Float, FloatKind, Round};
use crate::lane::{le_u128, put_le, Lane};
use crate::memory::Buffer;
use crate::scalar::Packed;
use crate::value::{Int, Value};
use mlir_ir::affine::Compiled;
use mlir_ir::ir::{BlockId, OpId, ValueId};
use mlir_ir::ops::{ArithOp, DialectOp, OpKind};
use std::cell::{RefCell, RefMut};
use std::rc::Rc;

/// What the op's loop nest is: everything [`run`] reads besides the
/// engine and the frame.
pub(super) struct Nest<'a> {
    /// The op.
    pub op: OpId,
    /// Its indexing maps, one per operand.
    pub maps: &'a [Compiled],
    /// Each loop's trip count (all positive).
    pub ranges: &'a [i64],
    /// The number of inputs (the operands before the outputs).
    pub n_in: usize,
    /// For each output, whether the body reads its current element.
    pub read_outs: &'a [bool],
    /// The body's `linalg.index` ops and the loop each reads.
    pub index_ops: &'a [(OpId, usize)],
    /// The body.
    pub body: &'a Body,
    /// For each block argument, whether an op of the body uses it (the
    /// loop reads no element for the others).
    pub used: &'a [bool],
}

/// Runs the op's every point if it can (see the module doc), updating the
/// outputs in `operands` (tensor outputs made unique first, as the general
/// loop's first write does); `Ok(false)`, having done nothing, when it
/// cannot.
pub(super) fn run(e: &mut Engine, fr: &mut Frame, nest: &Nest<'_>, operands: &mut [Operand]) -> Result<bool> {
    if !pure_body(e, nest.body.block) {
        return Ok(false);
    }
    let Some(mut walks) = plan(nest, operands) else { return Ok(false) };
    if nest.body.args.len() > walks.len() || nest.used.len() != nest.body.args.len() {
        return Ok(false);
    }
    let n_out = operands.len() - nest.n_in;
    // An output every point writes and the body does not read starts
    // without its poison (a `tensor.empty`'s): each element is written.
    let clears: Vec<bool> =
        (0..n_out).map(|j| !nest.read_outs.get(j).copied().unwrap_or(false) && covers(nest, j)).collect();
    // One borrow per buffer, however many operands view it.
    let mut seen: Vec<(*const RefCell<Buffer>, usize)> = Vec::new();
    let mut mems: Vec<Mem<'_>> = Vec::with_capacity(operands.len());
    let (ins, outs) = operands.split_at_mut(nest.n_in);
    for (k, o) in ins.iter().enumerate() {
        walks[k].mem = match o {
            Operand::Scalar(v) => {
                walks[k].scalar = Some(v.clone());
                NONE
            }
            Operand::Tensor(d) => {
                mems.push(Mem::In(d));
                mems.len() - 1
            }
            Operand::Memref(m) => borrow(&mut seen, &mut mems, &m.buf),
        };
    }
    for (j, o) in outs.iter_mut().enumerate() {
        let k = nest.n_in + j;
        walks[k].mem = match o {
            Operand::Scalar(_) => return Err(Error::unverified(nest.op, "a scalar output")),
            Operand::Tensor(d) => {
                // Unique already (`Engine::unique`): this copies nothing.
                let d: &mut Dense = Rc::make_mut(d);
                // (`plan` declined an output without bytes to write into.)
                if clears[j] && d.has_poison() && !d.unpoison_all() {
                    return Ok(false);
                }
                mems.push(Mem::Out(d));
                mems.len() - 1
            }
            Operand::Memref(m) => borrow(&mut seen, &mut mems, &m.buf),
        };
    }
    if let Some(k) = Kernel::of(e, nest, &walks, &mems) {
        let per = k.body_ops();
        let points = nest.ranges.iter().try_fold(1u64, |a, r| a.checked_mul(*r as u64));
        if let Some(units) = points.and_then(|p| p.checked_mul(per)).filter(|u| e.fuel_for(*u)) {
            k.run(nest, &walks, &mut mems)?;
            e.spend_ops(nest.op, units)?;
            return Ok(true);
        }
    }
    body_loop(e, fr, nest, &walks, &mut mems)?;
    Ok(true)
}

/// The mem of buffer `buf`: borrowed once, however many operands view it.
fn borrow<'a>(
    seen: &mut Vec<(*const RefCell<Buffer>, usize)>,
    mems: &mut Vec<Mem<'a>>,
    buf: &'a Rc<RefCell<Buffer>>,
) -> usize {
    if let Some((_, i)) = seen.iter().find(|(p, _)| std::ptr::eq(*p, Rc::as_ptr(buf))) {
        return *i;
    }
    mems.push(Mem::Buf(buf.borrow_mut()));
    seen.push((Rc::as_ptr(buf), mems.len() - 1));
    mems.len() - 1
}

/// No memory: a scalar operand's walk.
const NONE: usize = usize::MAX;

/// Where the operands' elements are while the loop runs.
enum Mem<'a> {
    /// An input tensor.
    In(&'a Dense),
    /// An output tensor, unique to this op.
    Out(&'a mut Dense),
    /// A memref's buffer (one for all the operands that view it).
    Buf(RefMut<'a, Buffer>),
}

/// How one operand's element moves with the loops.
struct Walk {
    /// Its index in the mems, or [`NONE`] for a scalar.
    mem: usize,
    /// A scalar operand's value.
    scalar: Option<Value>,
    /// The byte of the element at the first point.
    at: isize,
    /// Bytes the element moves when each loop steps by one.
    step: Vec<isize>,
    /// The element encoding and its bytes.
    lane: Lane,
    eb: usize,
}

/// The body is one block of scalar arithmetic, `linalg.index` and its
/// yield: nothing that reads or writes memory, calls, or holds a region.
fn pure_body(e: &Engine, block: BlockId) -> bool {
    e.m.block(block).ops.iter().all(|&o| {
        let kind = e.m.op(o).name.kind;
        let plain = matches!(
            kind.dialect_op(),
            DialectOp::Arith(_) | DialectOp::Math(_) | DialectOp::Index(_) | DialectOp::Complex(_) | DialectOp::Ub(_)
        ) || matches!(kind, OpKind::LinalgIndex | OpKind::LinalgYield);
        plain && e.m.regions(o).is_empty()
    })
}

/// Output `j`'s map names distinct loops alone (`(d0, d2)`), so the loops
/// write every one of its elements.
fn covers(nest: &Nest<'_>, j: usize) -> bool {
    let Some(map) = nest.maps.get(nest.n_in + j) else { return false };
    let dims: Option<Vec<usize>> = (0..map.results()).map(|r| map.result_dim(r)).collect();
    dims.is_some_and(|mut d| {
        let n = d.len();
        d.sort_unstable();
        d.dedup();
        d.len() == n
    })
}

/// Every operand's walk, when every map is linear and every element the
/// loops reach is in bounds (see the module doc); `None` otherwise.
fn plan(nest: &Nest<'_>, operands: &[Operand]) -> Option<Vec<Walk>> {
    operands
        .iter()
        .enumerate()
        .map(|(k, o)| {
            let lin = nest.maps.get(k)?.linear()?;
            match o {
                Operand::Scalar(_) => (lin.is_empty()).then(Walk::scalar),
                Operand::Tensor(d) => {
                    let eb = d.lane().bytes();
                    if eb == 0 || d.bytes().len() != d.len().checked_mul(eb)? {
                        return None;
                    }
                    let shape: Vec<i64> = d.shape().iter().map(|x| i64::try_from(*x).ok()).collect::<Option<_>>()?;
                    let strides = crate::dense::row_major_strides(d.shape());
                    let strides: Vec<i64> = strides.iter().map(|x| i64::try_from(*x).ok()).collect::<Option<_>>()?;
                    walk(&lin, &shape, &strides, (0, 0), (d.lane(), eb), d.bytes().len(), nest.ranges)
                }
                Operand::Memref(m) => {
                    let eb = m.elem.scalar_bytes;
                    if m.map.is_some() || !m.elem.vshape.is_empty() || eb == 0 {
                        return None;
                    }
                    let b = m.buf.try_borrow().ok()?;
                    let output = k >= nest.n_in;
                    if b.freed.is_some() || (output && b.read_only.is_some()) {
                        return None;
                    }
                    let base = i64::try_from(m.base).ok()?;
                    walk(&lin, &m.sizes, &m.strides, (m.offset, base), (m.elem.lane, eb), b.len(), nest.ranges)
                }
            }
        })
        .collect()
}

impl Walk {
    fn scalar() -> Walk {
        Walk { mem: NONE, scalar: None, at: 0, step: Vec::new(), lane: Lane::Int(1), eb: 0 }
    }
}

/// The walk of an operand of `sizes` and element `strides` (from element
/// `offset`, whose element 0 is at byte `base`) in `len` bytes, read
/// through the linear map `lin` over loops of `ranges`: `None` unless each
/// index stays in `0..size` and each byte in `0..len` at every point.
fn walk(
    lin: &[mlir_ir::affine::Linear],
    sizes: &[i64],
    strides: &[i64],
    (offset, base): (i64, i64),
    (lane, eb): (Lane, usize),
    len: usize,
    ranges: &[i64],
) -> Option<Walk> {
    if lin.len() != sizes.len() || sizes.len() != strides.len() {
        return None;
    }
    // The extremes of a linear form over the box of points: each loop at
    // 0 or at its last value, whichever lowers or raises it. Checked
    // throughout: a form too large for i128 declines the plan.
    let span = |c: &[i64], k: i128| -> Option<(i128, i128)> {
        c.iter().zip(ranges).try_fold((k, k), |(lo, hi), (c, r)| {
            let v = i128::from(*c).checked_mul(i128::from(r - 1))?;
            Some((lo.checked_add(v.min(0))?, hi.checked_add(v.max(0))?))
        })
    };
    let n = ranges.len();
    let (mut first, mut step) = (i128::from(offset), vec![0i128; n]);
    for ((c, k), (size, stride)) in lin.iter().zip(sizes.iter().zip(strides)) {
        let (lo, hi) = span(c, i128::from(*k))?;
        if lo < 0 || hi >= i128::from(*size) || c.len() != n {
            return None;
        }
        first = first.checked_add(i128::from(*stride).checked_mul(i128::from(*k))?)?;
        for (s, c) in step.iter_mut().zip(c) {
            *s = s.checked_add(i128::from(*stride).checked_mul(i128::from(*c))?)?;
        }
    }
    let (eb128, base) = (eb as i128, i128::from(base));
    let bytes: Vec<i64> = step.iter().map(|s| i64::try_from(s.checked_mul(eb128)?).ok()).collect::<Option<_>>()?;
    let at = base.checked_add(first.checked_mul(eb128)?)?;
    let (lo, hi) = span(&bytes, at)?;
    if lo < 0 || hi.checked_add(eb128)? > len as i128 {
        return None;
    }
    let step = bytes.iter().map(|s| isize::try_from(*s).ok()).collect::<Option<_>>()?;
    Some(Walk { mem: NONE, scalar: None, at: isize::try_from(at).ok()?, step, lane, eb })
}

/// Steps `point` to the next point (last loop fastest) and every walk's
/// byte with it; false after the last point.
#[inline]
fn advance(point: &mut [i64], pos: &mut [isize], walks: &[Walk], ranges: &[i64]) -> bool {
    for d in (0..point.len()).rev() {
        point[d] += 1;
        if point[d] < ranges[d] {
            for (p, w) in pos.iter_mut().zip(walks) {
                *p += w.step.get(d).copied().unwrap_or(0);
            }
            return true;
        }
        for (p, w) in pos.iter_mut().zip(walks) {
            *p -= w.step.get(d).copied().unwrap_or(0) * (ranges[d] - 1) as isize;
        }
        point[d] = 0;
    }
    false
}

/// The general body at every point (see the module doc).
fn body_loop(e: &mut Engine, fr: &mut Frame, nest: &Nest<'_>, walks: &[Walk], mems: &mut [Mem<'_>]) -> Result<()> {
    let op = nest.op;
    let index: Vec<(usize, usize)> = nest.index_ops.iter().map(|(o, d)| (e.slot_of(e.m.result(*o, 0)), *d)).collect();
    let slots = &nest.body.args;
    let n_out = walks.len() - nest.n_in;
    let mut point = vec![0i64; nest.ranges.len()];
    let mut pos: Vec<isize> = walks.iter().map(|w| w.at).collect();
    let bits = e.cfg.index_bits;
    loop {
        for (k, &slot) in slots.iter().enumerate() {
            if !nest.used[k] {
                continue;
            }
            let v = read(op, &walks[k], mems, pos[k])?;
            if k >= nest.n_in && nest.read_outs.get(k - nest.n_in).copied().unwrap_or(false) {
                never_written(e, op, &v)?;
            }
            *fr.get_mut(slot).ok_or_else(|| Error::unverified(op, "body argument slot"))? = v;
        }
        for &(slot, d) in &index {
            // `Value::int` of the index, packed directly (an index of at
            // most 64 bits is one word).
            let v = match bits {
                1..=64 => Value::Scalar(Packed::word(bits, point[d] as u64 & (u64::MAX >> (64 - bits)))),
                _ => Value::int(Int::from_u128(bits, point[d] as u128)),
            };
            *fr.get_mut(slot).ok_or_else(|| Error::unverified(op, "linalg.index slot"))? = v;
        }
        e.run_body(fr, nest.body)?;
        for j in 0..n_out {
            let y = e.exit_value(fr, j).ok_or_else(|| Error::unverified(op, "fewer values yielded than outputs"))?;
            write(op, &walks[nest.n_in + j], mems, pos[nest.n_in + j], y)?;
        }
        if !advance(&mut point, &mut pos, walks, nest.ranges) {
            return Ok(());
        }
    }
}

/// The `eb` bytes at `p` of `bytes`.
#[inline(always)]
fn lane_bytes(op: OpId, bytes: &[u8], p: isize, eb: usize) -> Result<&[u8]> {
    let p = p as usize;
    bytes.get(p..p.wrapping_add(eb)).ok_or_else(|| Error::unverified(op, "a planned element outside its operand"))
}

/// The element at byte `p` of operand walk `w`, as the general loop reads
/// it (poison where it is, or was never written).
#[inline]
fn read(op: OpId, w: &Walk, mems: &[Mem<'_>], p: isize) -> Result<Value> {
    let Some(mem) = mems.get(w.mem) else {
        return w.scalar.clone().ok_or_else(|| Error::unverified(op, "a scalar operand without a value"));
    };
    let (bytes, clean) = match mem {
        Mem::In(d) => (d.bytes(), !d.has_poison()),
        Mem::Out(d) => (d.bytes(), !d.has_poison()),
        Mem::Buf(b) => (&b.data[..], b.poison.is_empty() && b.all_init(p as usize, w.eb)),
    };
    let raw = lane_bytes(op, bytes, p, w.eb)?;
    if clean {
        if w.eb <= 8 {
            if let Some(s) = w.lane.packed(le_u128(raw) as u64) {
                return Ok(Value::Scalar(s));
            }
        }
        return Ok(Value::from_scalar(w.lane.decode(raw)));
    }
    Ok(Value::from_scalar(match mem {
        Mem::In(d) => d.get(p as usize / w.eb),
        Mem::Out(d) => d.get(p as usize / w.eb),
        Mem::Buf(b) => b.read_lane(p as usize, w.lane),
    }))
}

/// The encoding of `s` in `lane`, when it is a plain value of that lane.
#[inline(always)]
fn lane_bits(lane: Lane, s: Packed) -> Option<u128> {
    match (lane, s) {
        (Lane::Int(w), Packed::Int { width, lo, hi }) if w == width => Some(u128::from(hi) << 64 | u128::from(lo)),
        (Lane::Float(k), Packed::Float { kind, lo, hi }) if kind == k => Some(u128::from(hi) << 64 | u128::from(lo)),
        _ => None,
    }
}

/// Writes `y` as the element at byte `p` of output walk `w`.
#[inline]
fn write(op: OpId, w: &Walk, mems: &mut [Mem<'_>], p: isize, y: &Value) -> Result<()> {
    let misfit = || Error::unverified(op, "a yielded value that does not fit its output");
    let scalar = || y.scalar().ok_or_else(|| Error::unverified(op, "a non-scalar yielded"));
    match mems.get_mut(w.mem) {
        Some(Mem::Out(d)) => {
            if let (false, Value::Scalar(s)) = (d.has_poison(), y) {
                if let Some(bits) = lane_bits(w.lane, *s) {
                    let at = p as usize;
                    let out = d.bytes_mut().get_mut(at..at.wrapping_add(w.eb)).ok_or_else(misfit)?;
                    put_le(bits, out);
                    return Ok(());
                }
            }
            d.set(p as usize / w.eb, &scalar()?).map_err(|_| misfit())
        }
        Some(Mem::Buf(b)) => {
            let done = match y {
                Value::Scalar(s) => b.write_packed(p as usize, w.lane, *s),
                _ => b.write_lane(p as usize, w.lane, &scalar()?),
            };
            done.ok_or_else(misfit)
        }
        _ => Err(Error::unverified(op, "an output that is not a tensor or memref")),
    }
}

/// A body computed by host instructions instead of its ops (see the
/// module doc). Operands are block-argument numbers.
#[derive(Clone, Copy, Debug)]
enum Kernel {
    /// `%m = mulf %a, %b; %s = addf %c, %m` (or `addf %m, %c` when not
    /// `acc_first`); `yield %s`: matmul, convolution, dot and their kin.
    MulAdd { kind: FloatKind, a: usize, b: usize, c: usize, acc_first: bool },
    /// `%r = f %x, %y; yield %r`: pooling, sums, elementwise binaries.
    Bin { kind: FloatKind, f: ArithOp, x: usize, y: usize },
    /// `yield %x` of an input: fill, copy, transpose, broadcast, in any
    /// element type (the encoded bytes move).
    Move { x: usize },
}

impl Kernel {
    /// The kernel for the op's body, if it is one and its operands qualify.
    fn of(e: &Engine, nest: &Nest<'_>, walks: &[Walk], mems: &[Mem<'_>]) -> Option<Kernel> {
        let m = e.m;
        let block = nest.body.block;
        let args: Vec<ValueId> = m.args(block).collect();
        if walks.len() != nest.n_in + 1
            || args.len() != walks.len()
            || !nest.index_ops.is_empty()
            || nest.ranges.is_empty()
        {
            return None;
        }
        let arg = |v: ValueId| args.iter().position(|a| *a == v);
        let ops = &m.block(block).ops;
        let kind = |o: OpId| m.op(o).name.kind;
        let yields = |o: OpId, v: ValueId| kind(o) == OpKind::LinalgYield && m.operands(o) == [v];
        let k = match ops[..] {
            [y] => {
                let &[v] = m.operands(y) else { return None };
                let x = arg(v)?;
                return (kind(y) == OpKind::LinalgYield && x < nest.n_in && Kernel::movable(nest, walks, mems, x))
                    .then_some(Kernel::Move { x });
            }
            [mul, add, y] if kind(mul) == OpKind::ArithMulf && kind(add) == OpKind::ArithAddf => {
                let (mv, sv) = (m.result(mul, 0), m.result(add, 0));
                let (&[a, b], &[x, z]) = (m.operands(mul), m.operands(add)) else { return None };
                let (c, acc_first) = if z == mv {
                    (arg(x)?, true)
                } else if x == mv {
                    (arg(z)?, false)
                } else {
                    return None;
                };
                let (a, b) = (arg(a)?, arg(b)?);
                if !yields(y, sv) || c != nest.n_in || a >= nest.n_in || b >= nest.n_in {
                    return None;
                }
                Kernel::MulAdd { kind: FloatKind::F32, a, b, c, acc_first }
            }
            [bin, y] => {
                let DialectOp::Arith(f) = kind(bin).dialect_op() else { return None };
                let &[x, z] = m.operands(bin) else { return None };
                let (x, z) = (arg(x)?, arg(z)?);
                if !yields(y, m.result(bin, 0)) || !binary(f) || (x == nest.n_in && z == nest.n_in) {
                    return None;
                }
                Kernel::Bin { kind: FloatKind::F32, f, x, y: z }
            }
            _ => return None,
        };
        // Every operand one host format, without poison or unwritten
        // elements; the output in memory no input shares.
        let lane = walks[nest.n_in].lane;
        let Lane::Float(fk @ (FloatKind::F32 | FloatKind::F64)) = lane else { return None };
        let out = walks[nest.n_in].mem;
        let used = match k {
            Kernel::MulAdd { a, b, c, .. } => vec![a, b, c],
            Kernel::Bin { x, y, .. } => vec![x, y, nest.n_in],
            Kernel::Move { x } => vec![x, nest.n_in],
        };
        let clean = walks.iter().enumerate().filter(|(i, _)| used.contains(i)).all(|(i, w)| {
            let ok = match mems.get(w.mem) {
                Some(Mem::In(d)) => !d.has_poison(),
                Some(Mem::Out(d)) => !d.has_poison(),
                Some(Mem::Buf(b)) => b.clean(),
                None => false,
            };
            ok && w.lane == lane && (i == nest.n_in || w.mem != out)
        });
        clean.then_some(match k {
            Kernel::MulAdd { a, b, c, acc_first, .. } => Kernel::MulAdd { kind: fk, a, b, c, acc_first },
            Kernel::Bin { f, x, y, .. } => Kernel::Bin { kind: fk, f, x, y },
            Kernel::Move { x } => Kernel::Move { x },
        })
    }

    /// Whether input `x`'s elements can move as bytes into the output: a
    /// scalar of the output's lane, or memory of that lane without poison
    /// or unwritten elements apart from the output's, which must hold no
    /// poison (a memref's no unwritten bytes either: the move marks none).
    fn movable(nest: &Nest<'_>, walks: &[Walk], mems: &[Mem<'_>], x: usize) -> bool {
        let (w, o) = (&walks[x], &walks[nest.n_in]);
        let out_ok = match mems.get(o.mem) {
            Some(Mem::Out(d)) => !d.has_poison(),
            Some(Mem::Buf(b)) => b.clean(),
            _ => false,
        };
        let src_ok = match (&w.scalar, mems.get(w.mem)) {
            (Some(Value::Scalar(p)), _) => lane_bits(o.lane, *p).is_some(),
            (_, Some(Mem::In(d))) => !d.has_poison() && w.lane == o.lane,
            (_, Some(Mem::Buf(b))) => b.clean() && w.lane == o.lane && w.mem != o.mem,
            _ => false,
        };
        out_ok && src_ok
    }

    /// The body ops one point runs (its yield included).
    fn body_ops(self) -> u64 {
        match self {
            Kernel::MulAdd { .. } => 3,
            Kernel::Bin { .. } => 2,
            Kernel::Move { .. } => 1,
        }
    }

    /// Every point.
    fn run(self, nest: &Nest<'_>, walks: &[Walk], mems: &mut [Mem<'_>]) -> Result<()> {
        let o = nest.n_in;
        let out_mem = walks[o].mem;
        // The output's memory apart, so the inputs can be read beside it.
        let mut outs: Vec<&mut [u8]> = Vec::new();
        let mut ins: Vec<(usize, &[u8])> = Vec::new();
        for (i, m) in mems.iter_mut().enumerate() {
            let bytes: &mut [u8] = match m {
                Mem::In(d) => {
                    ins.push((i, d.bytes()));
                    continue;
                }
                Mem::Out(d) => d.bytes_mut(),
                Mem::Buf(b) => &mut b.data[..],
            };
            if i == out_mem {
                outs.push(bytes);
            } else {
                ins.push((i, &*bytes));
            }
        }
        let op = nest.op;
        let src = |k: usize| -> Result<&[u8]> {
            let m = walks[k].mem;
            ins.iter().find(|(i, _)| *i == m).map(|(_, b)| *b).ok_or_else(|| Error::unverified(op, "kernel operand"))
        };
        let Some(out) = outs.pop() else { return Err(Error::unverified(op, "kernel output")) };
        match self {
            Kernel::Move { x } => {
                let enc = match &walks[x].scalar {
                    Some(Value::Scalar(p)) => lane_bits(walks[o].lane, *p),
                    _ => None,
                };
                let from = if enc.is_some() { &[][..] } else { src(x)? };
                move_bytes(nest, walks, (from, x), (out, o), enc)
            }
            Kernel::MulAdd { kind, a, b, c, acc_first } => {
                let f = |acc: u64, x: u64, y: u64| mul_add(kind, acc, x, y, acc_first);
                fold(nest, walks, ((src(a)?, a), Some((src(b)?, b))), (out, c), kind, f)
            }
            Kernel::Bin { kind, f, x, y } => {
                let g = |k: FloatKind, x: u64, y: u64| apply(f, k, x, y);
                // The output's own element is an operand of `f` (a
                // reduction) or the output is written only.
                let at = |k: usize| if k == o { Side::Out } else { Side::In };
                match (at(x), at(y)) {
                    (Side::Out, Side::In) => {
                        fold(nest, walks, ((src(y)?, y), None), (out, o), kind, |acc, v, _| g(kind, acc, v))
                    }
                    (Side::In, Side::Out) => {
                        fold(nest, walks, ((src(x)?, x), None), (out, o), kind, |acc, v, _| g(kind, v, acc))
                    }
                    (Side::In, Side::In) => {
                        map2(nest, walks, [(src(x)?, x), (src(y)?, y)], (out, o), kind, |u, v| g(kind, u, v))
                    }
                    (Side::Out, Side::Out) => Err(Error::unverified(op, "a kernel of the output alone")),
                }
            }
        }
    }
}

/// Which memory a kernel operand is in.
#[derive(Clone, Copy)]
enum Side {
    In,
    Out,
}

/// Whether the kernels compute float binary op `f`.
fn binary(f: ArithOp) -> bool {
    matches!(
        f,
        ArithOp::Addf
            | ArithOp::Subf
            | ArithOp::Mulf
            | ArithOp::Divf
            | ArithOp::Maximumf
            | ArithOp::Minimumf
            | ArithOp::Maxnumf
            | ArithOp::Minnumf
    )
}

/// Float binary op `f` (one [`binary`] takes) on two encodings of format
/// `k`: the host's instruction where IEEE 754 makes it the exact result,
/// else the exact semantics. A match per point, not a call through a
/// pointer, so that it inlines into the kernel's loop.
#[inline(always)]
fn apply(f: ArithOp, k: FloatKind, x: u64, y: u64) -> u64 {
    let wide = k == FloatKind::F64;
    match f {
        ArithOp::Addf => host2(k, host::Bin::Add, x, y),
        ArithOp::Subf => host2(k, host::Bin::Sub, x, y),
        ArithOp::Mulf => host2(k, host::Bin::Mul, x, y),
        ArithOp::Divf => host2(k, host::Bin::Div, x, y),
        ArithOp::Maximumf => host::maximum(x, y, true, wide),
        ArithOp::Minimumf => host::maximum(x, y, false, wide),
        ArithOp::Maxnumf => exact(k, x, y, |a, b| crate::sem::fp::maxnumf(a, b, true)),
        _ => exact(k, x, y, |a, b| crate::sem::fp::maxnumf(a, b, false)),
    }
}

/// `f` on two encodings of format `k`.
#[inline(always)]
fn exact(k: FloatKind, x: u64, y: u64, f: impl Fn(Float, Float) -> Float) -> u64 {
    f(Float { kind: k, bits: u128::from(x) }, Float { kind: k, bits: u128::from(y) }).bits as u64
}

/// `x op y` on the host (f32 or f64), the exact path for a NaN result,
/// as the engine's `Float2` instruction computes it.
#[inline(always)]
fn host2(k: FloatKind, op: host::Bin, x: u64, y: u64) -> u64 {
    let fast = match k {
        FloatKind::F32 => host::bin32(op, x as u32, y as u32).map(u64::from),
        _ => host::bin64(op, x, y),
    };
    fast.unwrap_or_else(|| {
        let f = match op {
            host::Bin::Add => float::add,
            host::Bin::Sub => float::sub,
            host::Bin::Mul => float::mul,
            host::Bin::Div => float::div,
        };
        f(Float { kind: k, bits: u128::from(x) }, Float { kind: k, bits: u128::from(y) }, Round::NearestEven).bits
            as u64
    })
}

/// The body `acc + x * y` (or `x * y + acc`), each op rounded.
#[inline(always)]
fn mul_add(k: FloatKind, acc: u64, x: u64, y: u64, acc_first: bool) -> u64 {
    let m = host2(k, host::Bin::Mul, x, y);
    if acc_first {
        host2(k, host::Bin::Add, acc, m)
    } else {
        host2(k, host::Bin::Add, m, acc)
    }
}

/// The encoding of the float of `kind` at byte `p` of `b`.
#[inline(always)]
fn load(op: OpId, b: &[u8], p: isize, kind: FloatKind) -> Result<u64> {
    let eb = if kind == FloatKind::F32 { 4 } else { 8 };
    Ok(le_u128(lane_bytes(op, b, p, eb)?) as u64)
}

/// Stores float encoding `v` of `kind` at byte `p` of `b`.
#[inline(always)]
fn store(op: OpId, b: &mut [u8], p: isize, kind: FloatKind, v: u64) -> Result<()> {
    let eb = if kind == FloatKind::F32 { 4 } else { 8 };
    let p = p as usize;
    let out = b
        .get_mut(p..p.wrapping_add(eb))
        .ok_or_else(|| Error::unverified(op, "a planned element outside its operand"))?;
    put_le(u128::from(v), out);
    Ok(())
}

/// Every point of `out = f(out, x, y)`, inputs `x` and (for a body that
/// reads two) `y` as (memory, operand), output `(memory, operand)`; `f`
/// gets 0 for a missing `y`. When the output does not move with the
/// innermost loop (a reduction there), its element stays in a register
/// across that loop: nothing else reads or writes it meanwhile.
#[allow(clippy::type_complexity)]
fn fold(
    nest: &Nest<'_>,
    walks: &[Walk],
    ((xb, x), second): ((&[u8], usize), Option<(&[u8], usize)>),
    (out, o): (&mut [u8], usize),
    kind: FloatKind,
    f: impl Fn(u64, u64, u64) -> u64,
) -> Result<()> {
    let op = nest.op;
    let (wx, wo) = (&walks[x], &walks[o]);
    let wy = second.map_or(wx, |(_, y)| &walks[y]);
    let last = nest.ranges.len() - 1;
    let n = nest.ranges[last];
    let (sx, sy, so) = (wx.step[last], wy.step[last], wo.step[last]);
    // The second input's element, or 0 when the body reads one input.
    let at = |py: isize| match second {
        Some((yb, _)) => load(op, yb, py, kind),
        None => Ok(0),
    };
    rows(nest, [wx, wy, wo], |[px, py, po]| {
        let (mut px, mut py) = (px, py);
        if so == 0 {
            let mut acc = load(op, out, po, kind)?;
            for _ in 0..n {
                acc = f(acc, load(op, xb, px, kind)?, at(py)?);
                px += sx;
                py += sy;
            }
            store(op, out, po, kind, acc)
        } else {
            let mut po = po;
            for _ in 0..n {
                let v = f(load(op, out, po, kind)?, load(op, xb, px, kind)?, at(py)?);
                store(op, out, po, kind, v)?;
                px += sx;
                py += sy;
                po += so;
            }
            Ok(())
        }
    })
}

/// Every point of `out = x`: the element's bytes from input `x`'s memory
/// `from`, or the encoding `enc` of a scalar input at every point.
fn move_bytes(
    nest: &Nest<'_>,
    walks: &[Walk],
    (from, x): (&[u8], usize),
    (out, o): (&mut [u8], usize),
    enc: Option<u128>,
) -> Result<()> {
    let op = nest.op;
    let (wx, wo) = (&walks[x], &walks[o]);
    let eb = wo.eb;
    let last = nest.ranges.len() - 1;
    let n = nest.ranges[last];
    let bad = || Error::unverified(op, "a planned element outside its operand");
    if let Some(bits) = enc {
        let mut one = [0u8; 16];
        let one = one.get_mut(..eb).ok_or_else(bad)?;
        put_le(bits, one);
        let so = wo.step[last];
        return rows(nest, [wo, wo, wo], |[_, _, mut po]| {
            for _ in 0..n {
                let p = po as usize;
                out.get_mut(p..p.wrapping_add(eb)).ok_or_else(bad)?.copy_from_slice(one);
                po += so;
            }
            Ok(())
        });
    }
    let (sx, so) = (wx.step.get(last).copied().unwrap_or(0), wo.step[last]);
    rows(nest, [wx, wx, wo], |[mut px, _, mut po]| {
        for _ in 0..n {
            let (p, q) = (po as usize, px as usize);
            let src = from.get(q..q.wrapping_add(eb)).ok_or_else(bad)?;
            out.get_mut(p..p.wrapping_add(eb)).ok_or_else(bad)?.copy_from_slice(src);
            px += sx;
            po += so;
        }
        Ok(())
    })
}

/// Every point of `out = f(x, y)` (the output not read).
fn map2(
    nest: &Nest<'_>,
    walks: &[Walk],
    [(xb, x), (yb, y)]: [(&[u8], usize); 2],
    (out, o): (&mut [u8], usize),
    kind: FloatKind,
    f: impl Fn(u64, u64) -> u64,
) -> Result<()> {
    let op = nest.op;
    let (wx, wy, wo) = (&walks[x], &walks[y], &walks[o]);
    let last = nest.ranges.len() - 1;
    let n = nest.ranges[last];
    let (sx, sy, so) = (wx.step[last], wy.step[last], wo.step[last]);
    rows(nest, [wx, wy, wo], |[mut px, mut py, mut po]| {
        for _ in 0..n {
            store(op, out, po, kind, f(load(op, xb, px, kind)?, load(op, yb, py, kind)?))?;
            px += sx;
            py += sy;
            po += so;
        }
        Ok(())
    })
}

/// Calls `row` with the three walks' bytes at the start of every row of
/// the loop nest (every point of the loops but the innermost, in order).
fn rows(nest: &Nest<'_>, w: [&Walk; 3], mut row: impl FnMut([isize; 3]) -> Result<()>) -> Result<()> {
    let outer = &nest.ranges[..nest.ranges.len() - 1];
    let mut point = vec![0i64; outer.len()];
    let mut pos = [w[0].at, w[1].at, w[2].at];
    loop {
        row(pos)?;
        let mut more = false;
        for d in (0..outer.len()).rev() {
            point[d] += 1;
            if point[d] < outer[d] {
                for (p, w) in pos.iter_mut().zip(w) {
                    *p += w.step[d];
                }
                more = true;
                break;
            }
            for (p, w) in pos.iter_mut().zip(w) {
                *p -= w.step[d] * (outer[d] - 1) as isize;
            }
            point[d] = 0;
        }
        if !more {
            return Ok(());
        }
    }
}
