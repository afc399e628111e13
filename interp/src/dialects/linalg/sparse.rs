//! Structured ops with a sparse operand or a sparse result, run as LLVM
//! 22's sparsifier runs them, so that which entries a sparse result
//! stores, and what an implicit zero contributes, are the sparsifier's.
//!
//! The sparsifier (`Merger`) reads the body as an expression over the
//! operands and gives each op a rule on the entries it visits: a product
//! (`mulf`, `andi`, a division or shift by an invariant) visits where both
//! operands are stored, a sum (`addf`, `subf`, `ori`, `xori`) where either
//! is, and computes only what is there (`a + b` with `b` absent is `a`,
//! not `a + 0`: `-0.0` stays `-0.0`; `a - b` with `a` absent is `-b`); a
//! comparison reads an absent operand as zero; the zero-preserving unary
//! ops map stored entries; `sparse_tensor.unary`/`binary`/`select`/
//! `reduce` say in their regions what each case computes. A lattice point
//! whose value is the output's own value passed through is dropped (a
//! reduction `x += a(i, j)` stores nothing for a row without entries).
//!
//! Here that rule is applied point by point: every point of the iteration
//! space is visited in the sparsifier's loop order (the iteration graph's
//! topological sort), each body value is present, absent or the output
//! passed through, and the body's result is stored where it is present.
//! A dense output starts from zeros unless the body reads it (as the
//! sparsifier zero-fills it); a sparse output made by `tensor.empty` or
//! `bufferization.alloc_tensor` stores exactly the points written (reading
//! it gives zero until written), and any other sparse output keeps its
//! structure, as the sparsifier only accepts such a kernel when its values
//! change in place. An op with no sparsifier rule on a value that depends on
//! a sparse operand is unsupported (the sparsifier rejects that kernel).

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::sparse::{Entry, SparseTensor};
use crate::value::{Complex, Dense, Int, Scalar, Value};
use mlir_ir::affine::{AffineExpr, AffineMap};
use mlir_ir::ir::{OpId, RegionId, ValueDef, ValueId};
use mlir_ir::ops::{LinalgOp, OpKind};
use mlir_ir::sparse::LevelFormat;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Whether `op` has a sparse operand or a sparse result.
pub(super) fn involved(e: &Engine, fr: &Frame, op: OpId) -> bool {
    (0..e.m.operands(op).len()).any(|i| matches!(e.arg(fr, op, i), Ok(Value::Sparse(_))))
        || e.m.results(op).any(|r| e.m.ctx.tensor_encoding(e.m.type_of(r)).is_some())
}

/// The state of a body value at one point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    /// An implicit zero of a sparse operand, or computed from one where the
    /// rule says nothing is computed: the sparsifier's loops skip it.
    Absent,
    /// The output's current value passed through unchanged.
    Copy,
    /// Computed.
    Present,
}

/// How a body op combines the states of its operands: the Merger's kinds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rule {
    /// No operand depends on a sparse one: run as written.
    Dense,
    /// `linalg.index`: assigned before the body runs.
    Index,
    /// Present where every operand is (`mulf`, `andi`, ...).
    Conj,
    /// Present where either operand is; the lone one passes through.
    Disj,
    /// As `Disj`, but a lone right operand is negated (`subf`, `subi`).
    Sub,
    /// Present where either operand is; an absent one reads as zero.
    Cmp,
    /// A zero-preserving unary op: present where its operand is.
    Map,
    /// `arith.select` of two block arguments on a condition from a dense
    /// input or an invariant, which the sparsifier rewrites to a
    /// `sparse_tensor.binary` (`GenSemiRingSelect`): present where either
    /// is, an absent one reading as zero.
    Choose,
    /// `sparse_tensor.unary`.
    Unary,
    /// `sparse_tensor.binary`.
    Binary,
    /// `sparse_tensor.select`.
    Select,
    /// `sparse_tensor.reduce`.
    Reduce,
}

/// A tensor input as the points read it.
enum Input {
    /// Every element is there.
    Dense(Rc<Dense>),
    /// The stored entries by dimension coordinates, and the value of the
    /// others (read only by a comparison).
    Sparse(FxHashMap<Vec<i64>, Scalar>, Scalar, Rc<crate::sparse::Scheme>),
    /// A scalar operand (`linalg.fill`'s value).
    Scalar(Value),
}

/// The output as the points write it.
enum Output {
    /// A dense tensor, updated in place.
    Dense(Rc<Dense>),
    /// A sparse tensor: its entries so far by dimension coordinates, and
    /// whether new coordinates may be stored (made by `tensor.empty`).
    Sparse { tensor: Rc<SparseTensor>, entries: FxHashMap<Vec<i64>, Scalar>, grows: bool },
}

/// Where a value the body reads comes from.
#[derive(Clone, Copy)]
enum Local {
    /// Block argument `k`.
    Arg(usize),
    /// The result of body op `j`.
    Op(usize),
}

/// Runs structured op `op` (`n_in` inputs) with the sparsifier's semantics.
pub(super) fn run(e: &mut Engine, fr: &mut Frame, op: OpId, kind: LinalgOp, n_in: usize) -> Result<Flow> {
    let unsupported = |what: String| Error::at(op, ErrorKind::Unsupported(what));
    let n_out = e.m.operands(op).len() - n_in;
    if n_out != 1 {
        return Err(unsupported(format!(
            "'{}' with sparse tensors and {n_out} outputs (the sparsifier takes one)",
            e.m.op_name(op)
        )));
    }
    let mut inputs = Vec::with_capacity(n_in);
    let mut shapes = Vec::with_capacity(n_in + 1);
    for i in 0..n_in {
        let (input, shape) = match e.arg(fr, op, i)? {
            Value::Sparse(s) => {
                (Input::Sparse(by_coordinates(op, s)?, s.scheme.implicit.clone(), Rc::clone(&s.scheme)), dims(s))
            }
            Value::Array(d) => (Input::Dense(d.clone()), d.shape().iter().map(|x| *x as i64).collect()),
            Value::Memref(_) => return Err(unsupported("a memref operand beside sparse tensors".into())),
            v => (Input::Scalar(v.clone()), Vec::new()),
        };
        inputs.push(input);
        shapes.push(shape);
    }
    let body = e.region(op, 0)?;
    let block = *e.m.region(body).blocks.first().ok_or_else(|| Error::unverified(op, "no body block"))?;
    let args: Vec<ValueId> = e.m.args(block).collect();
    let reads_out = args.get(n_in).is_some_and(|a| super::used_in(e, body, *a));
    let init = e.m.operands(op)[n_in];
    let materializing = matches!(
        e.m.value(init).def,
        ValueDef::Result(d, _) if matches!(e.m.op(d).name.kind, OpKind::TensorEmpty | OpKind::BufferizationAllocTensor)
    );
    let mut output = match e.take_arg(fr, op, n_in)? {
        Value::Sparse(s) => {
            shapes.push(dims(&s));
            let entries = if materializing { FxHashMap::default() } else { by_coordinates(op, &s)? };
            Output::Sparse { tensor: s, entries, grows: materializing }
        }
        Value::Array(mut d) => {
            shapes.push(d.shape().iter().map(|x| *x as i64).collect());
            let dm = e.unique(op, &mut d)?;
            if !reads_out {
                // The sparsifier zero-fills an output the body does not read.
                let lane = crate::operands::lane_of(e, e.elem_type(e.m.type_of(init)))
                    .ok_or_else(|| unsupported("this output element type".into()))?;
                let n = dm.len();
                let zero = crate::sparse::zero(lane);
                for i in 0..n {
                    dm.set(i, &zero).map_err(|k| Error::unverified(op, format!("zero fill: {k:?}")))?;
                }
            }
            Output::Dense(d)
        }
        _ => return Err(unsupported("a memref output beside sparse tensors".into())),
    };
    let (maps, _) = mlir_ir::linalg::maps(e.m, op, kind, n_in);
    let code = Rc::clone(&e.aux[op.0 as usize].maps);
    if code.len() != shapes.len() || maps.len() != shapes.len() {
        return Err(Error::unverified(op, "indexing maps not decoded"));
    }
    let ranges = super::loop_ranges(op, &code, &shapes)?;
    if ranges.iter().all(|r| *r > 0) {
        super::check_sizes(op, &code, &shapes, &ranges)?;
    }
    let points = ranges.iter().try_fold(1u64, |a, r| a.checked_mul(u64::try_from(*r).unwrap_or(0)));
    e.charge(op, points.unwrap_or(u64::MAX).saturating_sub(1))?;

    // The body: where each value comes from, and each op's rule.
    let ops: Vec<OpId> = e.m.block(block).ops.clone();
    let mut local: FxHashMap<ValueId, Local> = FxHashMap::default();
    for (k, a) in args.iter().enumerate() {
        local.insert(*a, Local::Arg(k));
    }
    let arg_sparse: Vec<bool> = (0..args.len()).map(|k| k < n_in && matches!(inputs[k], Input::Sparse(..))).collect();
    let densify = semiring_reduction(e, &ops, &args, &arg_sparse, &shapes, n_in, &output);
    let mut sparse_dep: FxHashSet<ValueId> = FxHashSet::default();
    for (k, a) in args.iter().enumerate().take(n_in) {
        if arg_sparse[k] && !densify {
            sparse_dep.insert(*a);
        }
    }
    // A sparse output updated in place is a sparse operand too.
    let in_place = matches!(output, Output::Sparse { grows: false, .. });
    if in_place {
        sparse_dep.extend(args.get(n_in));
    }
    let mut rules = Vec::with_capacity(ops.len());
    for (j, o) in ops.iter().enumerate() {
        let operands = e.m.operands(*o);
        let dep = operands.iter().any(|v| sparse_dep.contains(v)) || uses_in_regions(e, *o, &sparse_dep);
        let rule = rule_of(e, *o, dep, &local, &arg_sparse)?;
        if dep && rule != Rule::Dense {
            sparse_dep.extend(e.m.results(*o));
        }
        for r in e.m.results(*o) {
            local.insert(r, Local::Op(j));
        }
        rules.push(rule);
    }
    let yield_op = *ops.last().ok_or_else(|| Error::unverified(op, "empty body"))?;
    let yielded = *e.m.operands(yield_op).first().ok_or_else(|| Error::unverified(op, "nothing yielded"))?;
    // Before the sparsifier runs, a kernel that yields a zero constant into
    // a new sparse tensor is folded to that (empty) tensor.
    if let (true, Output::Sparse { tensor, .. }) = (materializing, &output) {
        if zero_constant(e, yielded) {
            let t = Value::Sparse(Rc::clone(tensor));
            return e.assign(fr, op, t);
        }
    }
    let n_loops = maps.first().map_or(0, |m| m.num_dims as usize);
    if !densify && (0..n_loops).any(|d| !out_map_uses(&maps[n_in], d)) {
        let red = match e.m.value(yielded).def {
            ValueDef::Result(d, _) => e.m.op(d).name.kind,
            ValueDef::Arg(..) => OpKind::Unknown,
        };
        use OpKind as K;
        if !matches!(
            red,
            K::ArithAddf
                | K::ArithAddi
                | K::ArithSubf
                | K::ArithSubi
                | K::ArithOri
                | K::ArithXori
                | K::ComplexAdd
                | K::ComplexSub
                | K::SparseReduce
        ) {
            return Err(unsupported(
                "a reduction other than add, sub, or, xor or sparse_tensor.reduce over sparse tensors: \
                 LLVM 22's sparsifier rejects it (whether implicit zeros take part is not defined)"
                    .into(),
            ));
        }
    }
    // Without a sparse input the kernel's result is converted to the
    // sparse output as a dense tensor is: its zeros are not stored.
    let nonzeros_only = materializing && !inputs.iter().any(|i| matches!(i, Input::Sparse(..)));
    let index_ops: Vec<(OpId, usize)> = ops
        .iter()
        .filter(|o| e.m.op(**o).name.kind == OpKind::LinalgIndex)
        .map(|o| Ok((*o, e.i64s(*o, "dim")?.first().copied().unwrap_or(0) as usize)))
        .collect::<Result<_>>()?;
    let reduce_ids: Vec<Option<ValueId>> = ops
        .iter()
        .zip(&rules)
        .map(|(o, r)| (*r == Rule::Reduce).then(|| e.m.operands(*o).get(2).copied()).flatten())
        .collect();

    let order = loop_order(op, &maps, &inputs, &output, n_in)?;
    // A custom reduction starts from its identity; where the output's own
    // loops are all dense, every output element gets one.
    let sparse_loops = sparse_loops(&maps, &inputs);
    let out_loops_dense =
        (0..ranges.len()).filter(|d| out_map_uses(&maps[n_in], *d)).all(|d| !sparse_loops.contains(&d));
    let mut started: FxHashSet<Vec<i64>> = FxHashSet::default();
    let has_reduce = reduce_ids.iter().any(Option::is_some);
    let mut states: Vec<St> = vec![St::Present; ops.len()];
    let mut arg_states: Vec<St> = vec![St::Present; args.len()];
    let state_of = |v: ValueId, states: &[St], arg_states: &[St]| match local.get(&v) {
        Some(Local::Arg(k)) => arg_states[*k],
        Some(Local::Op(j)) => states[*j],
        None => St::Present,
    };
    let zero_of = |e: &Engine, v: ValueId| -> Result<Value> {
        let lane = crate::operands::lane_of(e, e.m.type_of(v))
            .ok_or_else(|| Error::at(op, ErrorKind::Unsupported("this element type in a sparse kernel".into())))?;
        Ok(Value::from_scalar(crate::sparse::zero(lane)))
    };

    let n = ranges.len();
    let mut point = vec![0i64; n];
    let mut idx: Vec<Vec<i64>> = code.iter().map(|c| vec![0; c.results()]).collect();
    let mut counter = vec![0i64; n];
    let empty = ranges.iter().any(|r| *r <= 0);
    // (A sparse output stores an element only where its reduction visited
    // something: the sparsifier's `validLexInsert`.)
    if has_reduce && out_loops_dense && !empty && matches!(output, Output::Dense(_)) {
        // Every output coordinate's reduction starts, whatever it visits.
        let out_ranges: Vec<i64> = (0..idx[n_in].len()).map(|r| shapes[n_in][r]).collect();
        let mut c = vec![0i64; out_ranges.len()];
        loop {
            started.insert(c.clone());
            if !super::next(&mut c, &out_ranges) {
                break;
            }
        }
        if let Some(id) = reduce_ids.iter().flatten().next() {
            let v = e.get(fr, *id).scalar().ok_or_else(|| Error::unverified(op, "reduce identity"))?;
            for c in &started {
                write(op, &mut output, c, &v)?;
            }
        }
    }
    let ordered_ranges: Vec<i64> = order.iter().map(|d| ranges[*d]).collect();
    let mut more = !empty;
    while more {
        for (k, d) in order.iter().enumerate() {
            point[*d] = counter[k];
        }
        for (k, c) in code.iter().enumerate() {
            c.eval_into(&point, &mut idx[k]).map_err(|x| Error::unverified(op, format!("indexing map: {x:?}")))?;
        }
        // The block arguments.
        for (k, a) in args.iter().enumerate() {
            let (v, s) = if k < n_in {
                match &inputs[k] {
                    Input::Dense(d) => (Value::from_scalar(read_dense(op, d, &idx[k])?), St::Present),
                    Input::Sparse(m, zero, _) => match m.get(&idx[k]) {
                        Some(x) => (Value::from_scalar(x.clone()), St::Present),
                        None => (Value::from_scalar(zero.clone()), if densify { St::Present } else { St::Absent }),
                    },
                    Input::Scalar(v) => (v.clone(), St::Present),
                }
            } else if in_place && !stored(&output, &idx[n_in]) {
                (Value::from_scalar(read(op, &output, &idx[n_in])?), St::Absent)
            } else {
                let v = Value::from_scalar(read(op, &output, &idx[n_in])?);
                if reads_out {
                    super::never_written(e, op, &v)?;
                }
                (v, St::Copy)
            };
            e.set(fr, *a, v);
            arg_states[k] = s;
        }
        for (iop, d) in &index_ops {
            let v = Value::int(Int::from_u128(e.cfg.index_bits, point[*d] as u128));
            e.assign(fr, *iop, v)?;
        }
        let first = !started.contains(&idx[n_in]);
        for (j, o) in ops.iter().enumerate().take(ops.len() - 1) {
            let st = |v: &ValueId| state_of(*v, &states, &arg_states);
            let s = apply(e, fr, *o, rules[j], &st, first)?;
            if s == St::Absent {
                for r in e.m.results(*o) {
                    let z = zero_of(e, r)?;
                    e.set(fr, r, z);
                }
            }
            states[j] = s;
        }
        if state_of(yielded, &states, &arg_states) == St::Present {
            let y = e.get(fr, yielded).scalar().ok_or_else(|| Error::unverified(op, "a non-scalar yielded"))?;
            if !nonzeros_only || crate::sparse::is_nonzero(&y) {
                write(op, &mut output, &idx[n_in], &y)?;
            }
            if has_reduce {
                started.insert(idx[n_in].clone());
            }
        }
        more = super::next(&mut counter, &ordered_ranges);
    }
    let result = match output {
        Output::Dense(d) => Value::Array(d),
        Output::Sparse { tensor, entries, .. } => {
            let scheme = Rc::clone(&tensor.scheme);
            let mut lvl: Vec<Entry> = entries
                .into_iter()
                .map(|(c, x)| {
                    let dims: Vec<u64> = c.iter().map(|v| *v as u64).collect();
                    Ok((scheme.to_lvl(&dims).map_err(|k| crate::operands::sparse_error(op, k))?.into_boxed_slice(), x))
                })
                .collect::<Result<_>>()?;
            lvl.sort_by(|a, b| a.0.cmp(&b.0));
            let t = SparseTensor::from_entries(scheme, &lvl).map_err(|k| crate::operands::sparse_error(op, k))?;
            Value::Sparse(Rc::new(t))
        }
    };
    e.assign(fr, op, result)
}

/// The state of body op `o`'s result at this point under `rule`, given
/// its operands' states (`st`); computes the result where it is present.
/// `first`: the output element has no reduction started yet.
fn apply(e: &mut Engine, fr: &mut Frame, o: OpId, rule: Rule, st: &dyn Fn(&ValueId) -> St, first: bool) -> Result<St> {
    let operands = e.m.operands(o);
    Ok(match rule {
        Rule::Dense => {
            e.exec_op(fr, o)?;
            St::Present
        }
        Rule::Index => St::Present,
        Rule::Conj => {
            if operands.iter().any(|v| st(v) == St::Absent) {
                St::Absent
            } else {
                e.exec_op(fr, o)?;
                St::Present
            }
        }
        Rule::Disj | Rule::Sub => match (st(&operands[0]), st(&operands[1])) {
            (St::Absent, St::Absent) => St::Absent,
            (a, St::Absent) => {
                let v = e.get(fr, operands[0]).clone();
                e.assign(fr, o, v)?;
                a
            }
            (St::Absent, b) if rule == Rule::Disj => {
                let v = e.get(fr, operands[1]).clone();
                e.assign(fr, o, v)?;
                b
            }
            (St::Absent, _) => {
                let b = e.get(fr, operands[1]).clone();
                match negate(&b) {
                    Some(v) => {
                        e.assign(fr, o, v)?;
                    }
                    // An integer: `0 - b`, the absent left reading zero.
                    None => {
                        e.exec_op(fr, o)?;
                    }
                }
                St::Present
            }
            _ => {
                e.exec_op(fr, o)?;
                St::Present
            }
        },
        Rule::Choose => {
            if st(&operands[1]) == St::Absent && st(&operands[2]) == St::Absent {
                St::Absent
            } else {
                e.exec_op(fr, o)?;
                St::Present
            }
        }
        Rule::Cmp => {
            if operands.iter().all(|v| st(v) == St::Absent) {
                St::Absent
            } else {
                e.exec_op(fr, o)?;
                St::Present
            }
        }
        Rule::Map => {
            if st(&operands[0]) == St::Absent {
                St::Absent
            } else {
                e.exec_op(fr, o)?;
                St::Present
            }
        }
        Rule::Unary => {
            let (present, absent) = (e.region(o, 0)?, e.region(o, 1)?);
            if st(&operands[0]) == St::Absent {
                semiring(e, fr, o, absent, Vec::new())?
            } else {
                let x = e.get(fr, operands[0]).clone();
                semiring(e, fr, o, present, vec![x])?
            }
        }
        Rule::Binary => {
            let (x, y) = (e.get(fr, operands[0]).clone(), e.get(fr, operands[1]).clone());
            match (st(&operands[0]), st(&operands[1])) {
                (St::Absent, St::Absent) => St::Absent,
                (St::Absent, b) => one_side(e, fr, o, 2, "right_identity", y, b)?,
                (a, St::Absent) => one_side(e, fr, o, 1, "left_identity", x, a)?,
                _ => {
                    let r = e.region(o, 0)?;
                    semiring(e, fr, o, r, vec![x, y])?
                }
            }
        }
        Rule::Select => {
            if st(&operands[0]) == St::Absent {
                St::Absent
            } else {
                let x = e.get(fr, operands[0]).clone();
                let r = e.region(o, 0)?;
                let (_, ys) = e.run_region(fr, r, vec![x.clone()])?;
                let keep = e.cond(o, ys.first().ok_or_else(|| Error::unverified(o, "select yields"))?, "select")?;
                if keep {
                    e.assign(fr, o, x)?;
                    St::Present
                } else {
                    St::Absent
                }
            }
        }
        Rule::Reduce => {
            if st(&operands[0]) == St::Absent {
                St::Absent
            } else {
                let x = e.get(fr, operands[0]).clone();
                // The reduction starts from the identity.
                let y = if first { e.get(fr, operands[2]).clone() } else { e.get(fr, operands[1]).clone() };
                let r = e.region(o, 0)?;
                semiring(e, fr, o, r, vec![x, y])?
            }
        }
    })
}

/// Runs a semiring op's region `r` on `args`: an empty region means
/// nothing is computed (absent), otherwise its yield is the op's result.
fn semiring(e: &mut Engine, fr: &mut Frame, o: OpId, r: RegionId, args: Vec<Value>) -> Result<St> {
    if e.m.region(r).blocks.is_empty() {
        return Ok(St::Absent);
    }
    let (_, ys) = e.run_region(fr, r, args)?;
    let y = ys.into_iter().next().ok_or_else(|| Error::unverified(o, "nothing yielded"))?;
    e.assign(fr, o, y)?;
    Ok(St::Present)
}

/// `sparse_tensor.binary` `o` where only one operand (`v`, in state
/// `st`) is present: its region `region` if it has one, else the operand
/// itself under `identity`, else nothing.
fn one_side(e: &mut Engine, fr: &mut Frame, o: OpId, region: usize, identity: &str, v: Value, st: St) -> Result<St> {
    let r = e.region(o, region)?;
    if !e.m.region(r).blocks.is_empty() {
        semiring(e, fr, o, r, vec![v])
    } else if e.m.attr(o, identity).is_some() {
        e.assign(fr, o, v)?;
        Ok(st)
    } else {
        Ok(St::Absent)
    }
}

/// `-x` for a float or complex value (sign flipped, as `negf` does);
/// `None` for an integer.
fn negate(v: &Value) -> Option<Value> {
    match v.scalar()? {
        Scalar::Float(f) => Some(Value::float(crate::float::neg(f))),
        Scalar::Complex(c) => {
            let (re, im) = c.parts();
            Some(Value::from_scalar(Scalar::Complex(Complex::new(crate::float::neg(re), crate::float::neg(im)))))
        }
        _ => None,
    }
}

/// The rule of body op `o`; `dep`: an operand depends on a sparse one.
fn rule_of(e: &Engine, o: OpId, dep: bool, local: &FxHashMap<ValueId, Local>, arg_sparse: &[bool]) -> Result<Rule> {
    use OpKind as K;
    let kind = e.m.op(o).name.kind;
    if kind == K::LinalgIndex {
        return Ok(Rule::Index);
    }
    if !dep {
        return Ok(Rule::Dense);
    }
    // A value defined outside the body (or a constant) is invariant.
    let invariant = |v: ValueId| match local.get(&v) {
        None => true,
        Some(Local::Op(_)) => matches!(
            e.m.value(v).def,
            ValueDef::Result(d, _) if e.m.op(d).name.kind == K::ArithConstant
        ),
        Some(Local::Arg(_)) => false,
    };
    // A nonzero constant (the Merger's `!maybeZero`).
    let nonzero = |v: ValueId| {
        let ValueDef::Result(d, _) = e.m.value(v).def else { return false };
        if e.m.op(d).name.kind != K::ArithConstant {
            return false;
        }
        let Some(a) = e.m.attr(d, "value") else { return false };
        e.attr_value(d, a, e.m.type_of(v)).ok().and_then(|x| x.scalar()).is_some_and(|x| crate::sparse::is_nonzero(&x))
    };
    let operands = e.m.operands(o);
    let rhs = operands.get(1).copied();
    Ok(match kind {
        K::ArithMulf | K::ArithMuli | K::ArithAndi | K::ComplexMul => Rule::Conj,
        K::ArithDivf | K::ArithDivsi | K::ArithDivui | K::ComplexDiv if rhs.is_some_and(nonzero) => Rule::Conj,
        K::ArithShli | K::ArithShrsi | K::ArithShrui if rhs.is_some_and(invariant) => Rule::Conj,
        K::ArithAddf | K::ArithAddi | K::ArithOri | K::ArithXori | K::ComplexAdd => Rule::Disj,
        K::ArithSubf | K::ArithSubi | K::ComplexSub => Rule::Sub,
        K::ArithCmpf | K::ArithCmpi => Rule::Cmp,
        K::MathAbsf
        | K::MathAbsi
        | K::MathCeil
        | K::MathFloor
        | K::MathSqrt
        | K::MathExpm1
        | K::MathLog1p
        | K::MathSin
        | K::MathTanh
        | K::ArithNegf
        | K::ComplexAbs
        | K::ComplexSqrt
        | K::ComplexExpm1
        | K::ComplexLog1p
        | K::ComplexSin
        | K::ComplexTanh
        | K::ComplexNeg
        | K::ComplexRe
        | K::ComplexIm
        | K::ArithTruncf
        | K::ArithExtf
        | K::ArithFptosi
        | K::ArithFptoui
        | K::ArithSitofp
        | K::ArithUitofp
        | K::ArithExtsi
        | K::ArithExtui
        | K::ArithIndexCast
        | K::ArithTrunci
        | K::ArithBitcast => Rule::Map,
        K::ArithSelect if choice(e, o, local, arg_sparse) => Rule::Choose,
        K::SparseUnary => Rule::Unary,
        K::SparseBinary => Rule::Binary,
        K::SparseSelect => Rule::Select,
        K::SparseReduce => Rule::Reduce,
        K::LinalgYield => Rule::Dense,
        _ => {
            return Err(Error::at(
                o,
                ErrorKind::Unsupported(format!(
                    "'{}' on a value computed from a sparse tensor: LLVM 22's sparsifier has no rule for it \
                     (it rejects this kernel)",
                    e.m.op_name(o)
                )),
            ))
        }
    })
}

/// Whether `arith.select` `o` is one the sparsifier rewrites to a
/// semiring `binary` (`GenSemiRingSelect`): both values are block
/// arguments, and the condition is a dense input's element or an
/// invariant, or a comparison with one such operand.
fn choice(e: &Engine, o: OpId, local: &FxHashMap<ValueId, Local>, arg_sparse: &[bool]) -> bool {
    let ops = e.m.operands(o);
    let arg = |v: ValueId| matches!(local.get(&v), Some(Local::Arg(_)));
    let dense_or_invariant = |v: ValueId| match local.get(&v) {
        Some(Local::Arg(k)) => !arg_sparse.get(*k).copied().unwrap_or(true),
        Some(Local::Op(_)) => false,
        None => true,
    };
    if ops.len() != 3 || !arg(ops[1]) || !arg(ops[2]) {
        return false;
    }
    if dense_or_invariant(ops[0]) {
        return true;
    }
    match e.m.value(ops[0]).def {
        ValueDef::Result(d, _) if matches!(e.m.op(d).name.kind, OpKind::ArithCmpi | OpKind::ArithCmpf) => {
            e.m.operands(d).iter().any(|v| dense_or_invariant(*v))
        }
        _ => false,
    }
}

/// Whether the kernel is a reduction the sparsifier rewrites to a
/// semiring reduction over every element, implicit zeros included
/// (`GenSemiRingReduction`): one sparse input, a rank-0 output, and a body
/// `x = x op y` with `op` a product, `andi`, or a min or max.
fn semiring_reduction(
    e: &Engine,
    ops: &[OpId],
    args: &[ValueId],
    arg_sparse: &[bool],
    shapes: &[Vec<i64>],
    n_in: usize,
    output: &Output,
) -> bool {
    use OpKind as K;
    if n_in != 1 || !arg_sparse.first().copied().unwrap_or(false) || args.len() != 2 {
        return false;
    }
    if !shapes.get(n_in).is_some_and(|s| s.is_empty()) || !matches!(output, Output::Dense(_)) {
        return false;
    }
    let Some(y) = ops.last().and_then(|y| e.m.operands(*y).first().copied()) else { return false };
    let ValueDef::Result(red, _) = e.m.value(y).def else { return false };
    let kinds = [
        K::ArithAndi,
        K::ArithMuli,
        K::ArithMulf,
        K::ArithMinimumf,
        K::ArithMinsi,
        K::ArithMinui,
        K::ArithMaximumf,
        K::ArithMaxsi,
        K::ArithMaxui,
    ];
    let r = e.m.operands(red);
    kinds.contains(&e.m.op(red).name.kind)
        && r.len() == 2
        && ((r[0] == args[0] && r[1] == args[1]) || (r[0] == args[1] && r[1] == args[0]))
}

/// Whether a region of `o` reads a value in `dep` (a value the regions
/// capture from the body).
fn uses_in_regions(e: &Engine, o: OpId, dep: &FxHashSet<ValueId>) -> bool {
    e.m.regions(o).iter().any(|r| dep.iter().any(|v| super::used_in(e, *r, *v)))
}

/// Whether `v` is an `arith.constant` zero (+0 or -0).
fn zero_constant(e: &Engine, v: ValueId) -> bool {
    let ValueDef::Result(d, _) = e.m.value(v).def else { return false };
    if e.m.op(d).name.kind != OpKind::ArithConstant {
        return false;
    }
    let Some(a) = e.m.attr(d, "value") else { return false };
    e.attr_value(d, a, e.m.type_of(v)).ok().and_then(|x| x.scalar()).is_some_and(|x| !crate::sparse::is_nonzero(&x))
}

/// The stored entries of `s` by dimension coordinates.
fn by_coordinates(op: OpId, s: &SparseTensor) -> Result<FxHashMap<Vec<i64>, Scalar>> {
    let mut m = FxHashMap::default();
    for (lvl, x) in s.entries() {
        let d = s.scheme.to_dim(&lvl).map_err(|k| crate::operands::sparse_error(op, k))?;
        m.insert(d.iter().map(|c| *c as i64).collect(), x);
    }
    Ok(m)
}

/// The dimension sizes of `s`.
fn dims(s: &SparseTensor) -> Vec<i64> {
    s.scheme.dim_sizes.iter().map(|d| *d as i64).collect()
}

/// The element of `d` at `idx` (in bounds: the sizes were checked).
fn read_dense(op: OpId, d: &Dense, idx: &[i64]) -> Result<Scalar> {
    let p: Vec<usize> = idx.iter().map(|x| *x as usize).collect();
    let i = d.linear(&p).ok_or_else(|| Error::unverified(op, "index outside a checked operand"))?;
    Ok(d.get(i))
}

/// The output's current element at `idx`: a sparse output reads zero
/// where nothing is stored (the sparsifier's insertion load).
fn read(op: OpId, out: &Output, idx: &[i64]) -> Result<Scalar> {
    match out {
        Output::Dense(d) => read_dense(op, d, idx),
        Output::Sparse { tensor, entries, .. } => {
            Ok(entries.get(idx).cloned().unwrap_or_else(|| crate::sparse::zero(tensor.scheme.lane)))
        }
    }
}

/// Whether the output stores an entry at `idx` (a dense one, everywhere).
fn stored(out: &Output, idx: &[i64]) -> bool {
    match out {
        Output::Dense(_) => true,
        Output::Sparse { entries, .. } => entries.contains_key(idx),
    }
}

/// Stores `v` at `idx` of the output.
fn write(op: OpId, out: &mut Output, idx: &[i64], v: &Scalar) -> Result<()> {
    match out {
        Output::Dense(d) => {
            let p: Vec<usize> = idx.iter().map(|x| *x as usize).collect();
            let dm = Rc::make_mut(d);
            let i = dm.linear(&p).ok_or_else(|| Error::unverified(op, "index outside a checked output"))?;
            dm.set(i, v).map_err(|k| Error::unverified(op, format!("yielded value does not fit the output: {k:?}")))
        }
        Output::Sparse { entries, grows, .. } => {
            if !*grows && !entries.contains_key(idx) {
                return Err(Error::at(
                    op,
                    ErrorKind::Unsupported(format!(
                        "storing at {idx:?}, where the sparse output stores nothing: LLVM 22's sparsifier \
                         only changes the structure of an output made by tensor.empty or \
                         bufferization.alloc_tensor (it rejects this kernel)"
                    )),
                ));
            }
            entries.insert(idx.to_vec(), v.clone());
            Ok(())
        }
    }
}

/// The loops that index a compressed, singleton or n:m level of a sparse
/// input (the loops the sparsifier runs over stored coordinates only).
fn sparse_loops(maps: &[AffineMap], inputs: &[Input]) -> Vec<usize> {
    let mut out = Vec::new();
    for (map, input) in maps.iter().zip(inputs) {
        let Input::Sparse(_, _, s) = input else { continue };
        for (l, r) in s.enc.dim_to_lvl.results.iter().enumerate() {
            if let (false, AffineExpr::Dim(d)) = (s.lvl_type(l).format == LevelFormat::Dense, r) {
                out.extend(map.results.get(*d as usize).map(dims_of).unwrap_or_default());
            }
        }
    }
    out
}

/// Whether `map` reads loop `d` in a result.
fn out_map_uses(map: &AffineMap, d: usize) -> bool {
    map.results.iter().any(|r| dims_of(r).contains(&d))
}

/// The loops an affine expression reads.
fn dims_of(x: &AffineExpr) -> Vec<usize> {
    match x {
        AffineExpr::Dim(d) => vec![*d as usize],
        AffineExpr::Add(a, b)
        | AffineExpr::Mul(a, b)
        | AffineExpr::Mod(a, b)
        | AffineExpr::FloorDiv(a, b)
        | AffineExpr::CeilDiv(a, b) => {
            let mut v = dims_of(a);
            v.extend(dims_of(b));
            v
        }
        _ => Vec::new(),
    }
}

/// The sparsifier's loop order (`IterationGraphSorter`): each operand's
/// levels, in storage order, order the loops they read; a loop on a
/// sparse level comes before the loops its tensor does not read; of the
/// loops free to come next, a parallel one is taken before a reduction,
/// the last found first. The constraints are relaxed (dense outputs, dense
/// inputs, then everything dense) until the graph has no cycle.
fn loop_order(op: OpId, maps: &[AffineMap], inputs: &[Input], output: &Output, n_in: usize) -> Result<Vec<usize>> {
    let n = maps.first().map_or(0, |m| m.num_dims as usize);
    let reduction: Vec<bool> = (0..n).map(|d| !out_map_uses(&maps[n_in], d)).collect();
    // Per operand: its levels' expressions in storage order, and whether
    // each level is sparse; `None` for a dense operand.
    let mut levels: Vec<(Vec<&AffineExpr>, Vec<bool>, bool)> = Vec::new();
    for (k, map) in maps.iter().enumerate() {
        let sparse = if k < n_in {
            match &inputs[k] {
                Input::Sparse(_, _, s) => Some(Rc::clone(s)),
                _ => None,
            }
        } else {
            match output {
                Output::Sparse { tensor, .. } => Some(Rc::clone(&tensor.scheme)),
                Output::Dense(_) => None,
            }
        };
        match sparse {
            Some(s) => {
                let mut exprs = Vec::new();
                let mut sp = Vec::new();
                for (l, r) in s.enc.dim_to_lvl.results.iter().enumerate() {
                    let AffineExpr::Dim(d) = r else {
                        return Err(Error::at(
                            op,
                            ErrorKind::Unsupported("a linalg op on a sparse tensor with a non-permutation map".into()),
                        ));
                    };
                    exprs.push(map.results.get(*d as usize).ok_or_else(|| Error::unverified(op, "map rank"))?);
                    sp.push(s.lvl_type(l).format != LevelFormat::Dense);
                }
                levels.push((exprs, sp, true));
            }
            None => levels.push((map.results.iter().collect(), vec![false; map.results.len()], false)),
        }
    }
    // Masks: dense outputs, dense inputs, loops a sparse tensor skips.
    for (dense_out, dense_in, undef) in
        [(true, true, true), (true, true, false), (false, true, false), (true, false, false), (false, false, false)]
    {
        let mut adj = vec![vec![false; n]; n];
        let mut indeg = vec![0usize; n];
        let edge = |a: usize, b: usize, adj: &mut Vec<Vec<bool>>, indeg: &mut Vec<usize>| {
            if a != b && !adj[a][b] {
                adj[a][b] = true;
                indeg[b] += 1;
            }
        };
        for (k, (exprs, sp, is_sparse)) in levels.iter().enumerate() {
            let include = *is_sparse || if k < n_in { dense_in } else { dense_out };
            if !include {
                continue;
            }
            for w in exprs.windows(2) {
                for a in dims_of(w[0]) {
                    for b in dims_of(w[1]) {
                        edge(a, b, &mut adj, &mut indeg);
                    }
                }
            }
            if undef && *is_sparse {
                let used: Vec<usize> = exprs.iter().flat_map(|x| dims_of(x)).collect();
                for (x, s) in exprs.iter().zip(sp) {
                    if let (true, AffineExpr::Dim(i)) = (*s, x) {
                        for j in (0..n).filter(|j| !used.contains(j)) {
                            edge(*i as usize, j, &mut adj, &mut indeg);
                        }
                    }
                }
            }
        }
        let (mut par, mut red): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for i in (0..n).filter(|i| indeg[*i] == 0) {
            if reduction[i] {
                red.push(i)
            } else {
                par.push(i)
            }
        }
        let mut order = Vec::with_capacity(n);
        while let Some(src) = if par.is_empty() { red.pop() } else { par.pop() } {
            order.push(src);
            for dst in 0..n {
                if adj[src][dst] {
                    indeg[dst] -= 1;
                    if indeg[dst] == 0 {
                        if reduction[dst] {
                            red.push(dst)
                        } else {
                            par.push(dst)
                        }
                    }
                }
            }
        }
        if order.len() == n {
            return Ok(order);
        }
    }
    Ok((0..n).collect())
}
