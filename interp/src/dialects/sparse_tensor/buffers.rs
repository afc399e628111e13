//! The sparse_tensor ops on memref buffers, which the sparsifier's
//! intermediate IR holds between sparsification and its buffer rewriting
//! (`--sparse-buffer-rewrite`): `push_back`, `sort`, `expand`, `compress`.
//! Each is run as that rewriting lowers it, so a program stopped halfway
//! through the sparsifier runs here and compares with its lowering.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::memory::{AllocKind, AllocLayout, MemRef};
use crate::operands::{elem_of, index_args, index_value, memref_arg, sparse_error};
use crate::sparse::SparseTensor;
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::affine::AffineExpr;
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeKind;
use num_bigint::BigInt;
use std::rc::Rc;

/// `%buf, %size = sparse_tensor.push_back %size, %buf, %v [, %n]`: `%v`
/// stored `n` times (1 without `%n`) from `%size`; a buffer too small is
/// first reallocated to twice its capacity, and with `%n` doubled again
/// until the new size fits (`--sparse-buffer-rewrite`). `inbounds`
/// promises it fits (a store past the end is then UB).
pub fn push_back(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let with_n = e.m.operands(op).len() > 3;
    let size = index_args(e, fr, op, 0..1, "used as a buffer size")?[0];
    let n = if with_n { index_args(e, fr, op, 3..4, "used as a push_back count")?[0] } else { 1 };
    let mut buf = memref_arg(e, fr, op, 1)?;
    let v = e.arg(fr, op, 2)?.clone();
    let cap = buf.sizes.first().copied().unwrap_or(0);
    let need = size.checked_add(n).filter(|x| *x >= 0).ok_or_else(|| {
        Error::at(op, ErrorKind::Ub(format!("push_back of {n} elements onto a buffer of size {size}")))
    })?;
    if e.m.attr(op, "inbounds").is_none() && need > cap {
        let mut grown = cap.saturating_mul(2);
        while with_n && need > grown {
            if grown == 0 {
                let what = format!("push_back of {n} elements onto a buffer of capacity 0: doubling never fits them");
                return Err(Error::at(op, ErrorKind::Ub(what)));
            }
            grown = grown.saturating_mul(2);
        }
        let elem = (*buf.elem).clone();
        buf = Rc::new(crate::operands::realloc(e, op, &buf, elem, grown, 0)?);
    }
    for i in size..need {
        buf.store(op, &[i], &v, "sparse_tensor.push_back")?;
    }
    e.assign_all(fr, op, vec![Value::Memref(buf), index_value(e, need)])
}

/// `sparse_tensor.sort ALGORITHM %n, %xy jointly %ys {perm_map, ny}`: the
/// first `n` tuples of `%xy` (each `nx` keys then `ny` values, `nx` the
/// rank of `perm_map`) ordered by their keys compared unsigned in
/// `perm_map`'s result order, each `%ys` buffer permuted with them.
/// `insertion_sort_stable` keeps equal keys in order; the other
/// algorithms leave them in an order of their own, so tuples with equal
/// keys that differ elsewhere are unsupported under them (the order is
/// the implementation's, not the op's).
pub fn sort(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let n = index_args(e, fr, op, 0..1, "used as a sort count")?[0];
    let keys: Vec<usize> = match e.m.attr(op, "perm_map").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::AffineMap(m)) => m
            .results
            .iter()
            .map(|r| match r {
                AffineExpr::Dim(d) => Ok(*d as usize),
                _ => Err(Error::unverified(op, "perm_map is not a permutation")),
            })
            .collect::<Result<_>>()?,
        _ => return Err(Error::unverified(op, "sort without a perm_map")),
    };
    let ny = match e.m.attr(op, "ny").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Integer { value, .. }) => value.to_i64().and_then(|v| usize::try_from(v).ok()).unwrap_or(0),
        _ => 0,
    };
    let stable = matches!(e.m.attr(op, "algorithm").map(|a| e.m.ctx.attr_kind(a)),
        Some(Attribute::Dialect { body, .. }) if body.contains("insertion_sort_stable"));
    let width = keys.len() + ny;
    let bufs: Vec<Rc<MemRef>> = (1..e.m.operands(op).len()).map(|i| memref_arg(e, fr, op, i)).collect::<Result<_>>()?;
    let n = usize::try_from(n).map_err(|_| Error::at(op, ErrorKind::Ub(format!("sort of {n} elements"))))?;
    // Every buffer must hold the tuples (checked before anything is read,
    // so a huge count is UB here, not a huge allocation).
    for (i, b) in bufs.iter().enumerate() {
        let need = if i == 0 { n.checked_mul(width) } else { Some(n) };
        let has = b.sizes.first().and_then(|s| usize::try_from(*s).ok()).unwrap_or(0);
        if need.is_none_or(|need| need > has) {
            let what = format!("sort of {n} tuples past the end of operand #{} (of size {has})", i + 1);
            return Err(Error::at(op, ErrorKind::Ub(what)));
        }
    }
    // Every tuple: its whole xy row, then its element of each ys buffer.
    let mut rows: Vec<(Vec<BigInt>, Vec<Value>)> = Vec::with_capacity(n);
    for i in 0..n {
        let mut vals = Vec::with_capacity(width + bufs.len() - 1);
        for k in 0..width {
            vals.push(bufs[0].load(op, &[(i * width + k) as i64], "sparse_tensor.sort")?);
        }
        for y in &bufs[1..] {
            vals.push(y.load(op, &[i as i64], "sparse_tensor.sort")?);
        }
        let key = keys
            .iter()
            .map(|k| match vals[*k].scalar() {
                Some(Scalar::Int(x)) => Ok(x.to_ubig()),
                Some(Scalar::Poison(p)) => Err(Error::at(
                    op,
                    ErrorKind::Poison { what: format!("key {k} of tuple {i} compared by the sort"), origin: p.0 },
                )),
                _ => Err(Error::unverified(op, "a sort key that is not an integer")),
            })
            .collect::<Result<Vec<_>>>()?;
        rows.push((key, vals));
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    if !stable {
        if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0 && !same(&w[0].1, &w[1].1)) {
            let what = format!(
                "sparse_tensor.sort with an unstable algorithm of tuples with equal keys {:?} that differ elsewhere: \
                 which comes first is the implementation's choice",
                w[0].0
            );
            return Err(Error::at(op, ErrorKind::Unsupported(what)));
        }
    }
    for (i, (_, vals)) in rows.iter().enumerate() {
        for (k, v) in vals[..width].iter().enumerate() {
            bufs[0].store(op, &[(i * width + k) as i64], v, "sparse_tensor.sort")?;
        }
        for (y, v) in bufs[1..].iter().zip(&vals[width..]) {
            y.store(op, &[i as i64], v, "sparse_tensor.sort")?;
        }
    }
    Ok(Flow::Next)
}

/// Whether two tuples hold the same values (scalars compare bit for bit).
fn same(a: &[Value], b: &[Value]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.scalar().is_some() && x.scalar() == y.scalar())
}

/// `%values, %filled, %added, %count = sparse_tensor.expand %t`: the
/// access-pattern expansion buffers for the innermost level of `%t`:
/// values zero, filled false, added uninitialised (poison), count 0.
/// Owned by the program as tensor storage is (the lowering frees them
/// after the compress), so never reported as leaks.
pub fn expand(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let Value::Sparse(t) = e.arg(fr, op, 0)? else {
        return Err(Error::at(
            op,
            ErrorKind::Unsupported("sparse_tensor.expand of a tensor without sparse storage".into()),
        ));
    };
    let size = *t.scheme.lvl_sizes.last().ok_or_else(|| Error::unverified(op, "expand of a rank-0 tensor"))?;
    let size = usize::try_from(size).map_err(|_| Error::unverified(op, "level size"))?;
    let mut out = Vec::with_capacity(4);
    for (r, fill) in [(0, Fill::Zero), (1, Fill::Zero), (2, Fill::Poison)] {
        let ty = e.result_type(op, r);
        let TypeKind::MemRef { elem, .. } = e.m.ctx.type_kind(ty).clone() else {
            return Err(Error::unverified(op, "expand's result is not a memref"));
        };
        let el = elem_of(e, op, elem)?;
        let lane = el.lane;
        let x = match fill {
            Fill::Zero => crate::sparse::zero(lane),
            Fill::Poison => Scalar::Poison(crate::value::Poison(op)),
        };
        let m = e.mem.alloc(op, el, vec![size as i64], AllocLayout::Identity, AllocKind::Tensor, 0)?;
        let d = Dense::splat(&[size], &x, Some(lane)).map_err(|x| crate::operands::dense_error(op, x))?;
        m.write_all(op, &d, "sparse_tensor.expand")?;
        out.push(Value::Memref(Rc::new(m)));
    }
    out.push(index_value(e, 0));
    e.assign_all(fr, op, out)
}

/// How an expansion buffer starts.
#[derive(Clone, Copy)]
enum Fill {
    /// Zero (false for `filled`).
    Zero,
    /// Uninitialised.
    Poison,
}

/// `sparse_tensor.compress %values, %filled, %added, %count into %t[%crd..]`:
/// the first `count` coordinates of `added`, sorted (the sparsifier sorts
/// them for an ordered level), each inserted at `(%crd.., j)` with
/// `values[j]` as `tensor.insert` inserts, and `values[j]` and
/// `filled[j]` reset to zero and false.
pub fn compress(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let values = memref_arg(e, fr, op, 0)?;
    let filled = memref_arg(e, fr, op, 1)?;
    let added = memref_arg(e, fr, op, 2)?;
    let count = index_args(e, fr, op, 3..4, "used as a compress count")?[0];
    let Value::Sparse(s) = e.take_arg(fr, op, 4)? else {
        let what = "sparse_tensor.compress into a tensor without sparse storage".into();
        return Err(Error::at(op, ErrorKind::Unsupported(what)));
    };
    let prefix: Vec<u64> = index_args(e, fr, op, 5..e.m.operands(op).len(), "used as a coordinate")?
        .into_iter()
        .map(|c| u64::try_from(c).map_err(|_| Error::at(op, ErrorKind::Ub(format!("negative coordinate {c}")))))
        .collect::<Result<_>>()?;
    let has = added.sizes.first().copied().unwrap_or(0);
    if count < 0 || count > has {
        let what = format!("compress of {count} added coordinates from a buffer of size {has}");
        return Err(Error::at(op, ErrorKind::Ub(what)));
    }
    let mut js = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for k in 0..count {
        let j = added.load(op, &[k], "sparse_tensor.compress (added)")?;
        js.push(crate::operands::index_of(e, op, &j, "read from added")?);
    }
    let last = s.scheme.lvl_rank().saturating_sub(1);
    if prefix.len() != last {
        return Err(Error::unverified(op, "compress coordinates do not number the levels above the last"));
    }
    if !s.scheme.lvl_type(last).nonordered {
        js.sort_unstable();
    }
    let mut t: SparseTensor = Rc::try_unwrap(s).unwrap_or_else(|s| (*s).clone());
    let lane = values.elem.lane;
    let at = |c: i64| -> Result<u64> {
        u64::try_from(c).map_err(|_| Error::at(op, ErrorKind::Ub(format!("added coordinate {c} is negative"))))
    };
    for j in js {
        let x = values.load(op, &[j], "sparse_tensor.compress (values)")?;
        let x = x.scalar().ok_or_else(|| Error::unverified(op, "values element"))?;
        let mut lvl = prefix.clone();
        lvl.push(at(j)?);
        let dims = t.scheme.to_dim(&lvl).map_err(|k| sparse_error(op, k))?;
        t.insert(&dims, x).map_err(|k| sparse_error(op, k))?;
        values.store(op, &[j], &Value::from_scalar(crate::sparse::zero(lane)), "sparse_tensor.compress (values)")?;
        filled.store(op, &[j], &Value::int(Int::bool(false)), "sparse_tensor.compress (filled)")?;
    }
    e.assign(fr, op, Value::Sparse(Rc::new(t)))
}
