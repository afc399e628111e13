//! tosa's data layout operators: each output element is one input element
//! (or the pad value), so they move encoded elements without decoding them.

use super::{array_attr, build, int_at, int_attr, invalid, require, scalar_operand, shape_operand};
use crate::dense::{positions, row_major_strides};
use crate::error::{Error, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::operands::{dense, dense_error, next_index};
use crate::value::{Dense, Value};
use mlir_ir::ir::OpId;
use std::rc::Rc;

/// Assigns the elements of `x` at row-major positions `src` in `shape`.
fn gathered(e: &mut Engine, fr: &mut Frame, op: OpId, x: &Dense, shape: &[usize], src: Vec<usize>) -> Result<Flow> {
    e.charge(op, src.len() as u64)?;
    e.mem.reserve(op, src.len().saturating_mul(x.lane().bytes()), "a tensor")?;
    let d = x.gather(shape, src).map_err(|err| dense_error(op, err))?;
    e.assign(fr, op, Value::Array(Rc::new(d)))
}

/// A rank-checked axis attribute.
fn axis(e: &Engine, op: OpId, rank: usize) -> Result<usize> {
    let a = int_attr(e, op, "axis")?;
    usize::try_from(a).ok().filter(|a| *a < rank).ok_or_else(|| invalid(op, format!("axis {a} out of range")))
}

/// Sizes from a shape operand, each checked non-negative.
fn sizes(e: &Engine, fr: &Frame, op: OpId, i: usize, what: &str) -> Result<Vec<usize>> {
    shape_operand(e, fr, op, i)?
        .into_iter()
        .map(|v| usize::try_from(v).map_err(|_| invalid(op, format!("{what} {v} is negative"))))
        .collect()
}

/// `tosa.reshape %x, %shape`: the same elements under the new shape (one
/// size may be -1, inferred from the element count).
pub(super) fn reshape(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let want = shape_operand(e, fr, op, 1)?;
    let known: i64 = want.iter().filter(|d| **d != -1).product();
    let shape: Vec<usize> = want
        .iter()
        .map(|&d| match d {
            -1 if known > 0 => Ok(x.len() / known as usize),
            d => usize::try_from(d).map_err(|_| invalid(op, format!("reshape to a size of {d}"))),
        })
        .collect::<Result<_>>()?;
    let d = x
        .reshape(&shape)
        .map_err(|_| invalid(op, format!("reshape of {:?} ({} elements) to {want:?}", x.shape(), x.len())))?;
    e.assign(fr, op, Value::Array(Rc::new(d)))
}

/// `tosa.transpose %x {perms}`: output dim `d` is input dim `perms[d]`.
pub(super) fn transpose(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let perms: Vec<usize> = array_attr(e, op, "perms")?
        .into_iter()
        .map(|p| usize::try_from(p).map_err(|_| invalid(op, "negative perm")))
        .collect::<Result<_>>()?;
    e.charge(op, x.len() as u64)?;
    let d = x.transpose(&perms).map_err(|_| invalid(op, "perms is not a permutation of the dims"))?;
    e.assign(fr, op, Value::Array(Rc::new(d)))
}

/// `tosa.slice %x, %start, %size`.
pub(super) fn slice(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let start = sizes(e, fr, op, 1, "slice start")?;
    let size = sizes(e, fr, op, 2, "slice size")?;
    let rank = x.shape().len();
    if start.len() != rank || size.len() != rank {
        return Err(invalid(op, "slice start and size must have the input's rank"));
    }
    for d in 0..rank {
        if start[d].checked_add(size[d]).is_none_or(|end| end > x.shape()[d]) {
            return Err(invalid(
                op,
                format!("slice start {start:?} size {size:?} exceeds the input shape {:?} in dim {d}", x.shape()),
            ));
        }
    }
    let strides = row_major_strides(x.shape());
    let base: usize = start.iter().zip(&strides).map(|(a, s)| a * s).sum();
    let src = positions(&size, &strides).map(|p| base + p).collect();
    gathered(e, fr, op, &x, &size, src)
}

/// `tosa.concat %a, %b, .. {axis}`.
pub(super) fn concat(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let parts: Vec<Rc<Dense>> = (0..e.m.operands(op).len()).map(|i| dense(e, fr, op, i)).collect::<Result<_>>()?;
    let first = parts.first().ok_or_else(|| invalid(op, "concat of nothing"))?;
    let rank = first.shape().len();
    let ax = axis(e, op, rank)?;
    let mut shape = first.shape().to_vec();
    shape[ax] = 0;
    for p in &parts {
        let s = p.shape();
        if s.len() != rank || (0..rank).any(|d| d != ax && s[d] != shape[d]) {
            return Err(invalid(
                op,
                format!("concat operands of shapes {:?} and {s:?} differ off the axis", first.shape()),
            ));
        }
        shape[ax] += s[ax];
    }
    // Each output position names a part and a position in it.
    let outer: usize = shape[..ax].iter().product();
    let mut bytes = Vec::new();
    let n = first.lane().bytes();
    e.charge(op, shape.iter().product::<usize>() as u64)?;
    e.mem.reserve(op, shape.iter().product::<usize>().saturating_mul(n), "a tensor")?;
    for o in 0..outer {
        for p in &parts {
            let row: usize = p.shape()[ax..].iter().product();
            bytes.extend_from_slice(&p.bytes()[o * row * n..(o + 1) * row * n]);
        }
    }
    let has_poison = parts.iter().any(|p| p.has_poison());
    if has_poison {
        return Err(Error::at(
            op,
            crate::error::ErrorKind::Poison { what: "read by tosa.concat".into(), origin: poison_origin(&parts) },
        ));
    }
    let d = Dense::from_le_bytes(&shape, first.lane(), bytes).map_err(|err| dense_error(op, err))?;
    e.assign(fr, op, Value::Array(Rc::new(d)))
}

fn poison_origin(parts: &[Rc<Dense>]) -> OpId {
    parts.iter().find_map(|p| p.first_poison()).map_or(OpId(0), |p| p.0)
}

/// `tosa.pad %x, %padding, %pad_const`: `padding` holds (before, after)
/// per dim.
pub(super) fn pad(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let padding = shape_operand(e, fr, op, 1)?;
    let value = scalar_operand(e, fr, op, 2)?;
    let rank = x.shape().len();
    if padding.len() != 2 * rank {
        return Err(invalid(op, "padding must hold two sizes per dim"));
    }
    let mut shape = Vec::with_capacity(rank);
    for d in 0..rank {
        let (lo, hi) = (padding[2 * d], padding[2 * d + 1]);
        if lo < 0 || hi < 0 {
            return Err(invalid(op, format!("negative padding {lo}, {hi} in dim {d}")));
        }
        shape.push(x.shape()[d] + lo as usize + hi as usize);
    }
    let n: usize = shape.iter().product();
    e.charge(op, n as u64)?;
    let strides = row_major_strides(x.shape());
    let mut idx = vec![0usize; rank];
    let mut elems = Vec::with_capacity(n);
    for _ in 0..n {
        let mut src = Some(0usize);
        for d in 0..rank {
            let lo = padding[2 * d] as usize;
            match idx[d].checked_sub(lo).filter(|i| *i < x.shape()[d]) {
                Some(i) => src = src.map(|s| s + i * strides[d]),
                None => src = None,
            }
        }
        elems.push(match src {
            Some(s) => x.get(s),
            None => value.clone(),
        });
        next_index(&mut idx, &shape);
    }
    let v = build(e, op, 0, &shape, elems)?;
    e.assign(fr, op, v)
}

/// `tosa.tile %x, %multiples`: the input repeated along each dim.
pub(super) fn tile(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let m = sizes(e, fr, op, 1, "tile multiple")?;
    if m.len() != x.shape().len() {
        return Err(invalid(op, "multiples must have the input's rank"));
    }
    let shape: Vec<usize> = x.shape().iter().zip(&m).map(|(d, k)| d * k).collect();
    let strides = row_major_strides(x.shape());
    let n: usize = shape.iter().product();
    let mut idx = vec![0usize; shape.len()];
    let mut src = Vec::with_capacity(n);
    for _ in 0..n {
        src.push(idx.iter().zip(x.shape()).zip(&strides).map(|((i, d), s)| (i % d) * s).sum());
        next_index(&mut idx, &shape);
    }
    gathered(e, fr, op, &x, &shape, src)
}

/// `tosa.reverse %x {axis}`.
pub(super) fn reverse(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let shape = x.shape().to_vec();
    let ax = axis(e, op, shape.len())?;
    let strides = row_major_strides(&shape);
    let mut idx = vec![0usize; shape.len()];
    let mut src = Vec::with_capacity(x.len());
    for _ in 0..x.len() {
        src.push(idx.iter().enumerate().map(|(d, i)| if d == ax { shape[d] - 1 - i } else { *i } * strides[d]).sum());
        next_index(&mut idx, &shape);
    }
    gathered(e, fr, op, &x, &shape, src)
}

/// `tosa.gather %values, %indices`: `[N,K,C]` values, `[N,W]` indices,
/// `[N,W,C]` result; an index outside `0..K` fails a REQUIRE.
pub(super) fn gather(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (v, ix) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    let (&[n, k, c], &[ni, w]) = (v.shape(), ix.shape()) else {
        return Err(invalid(op, "gather takes [N,K,C] values and [N,W] indices"));
    };
    if n != ni {
        return Err(invalid(op, format!("gather batch sizes {n} and {ni} differ")));
    }
    let mut src = Vec::with_capacity(n * w * c);
    for b in 0..n {
        for j in 0..w {
            let at = int_at(op, &ix, b * w + j)?;
            let kk = usize::try_from(at)
                .ok()
                .filter(|x| *x < k)
                .ok_or_else(|| require(op, format!("gather index {at} at [{b}, {j}] is outside 0..{k}")))?;
            src.extend((0..c).map(|ch| (b * k + kk) * c + ch));
        }
    }
    gathered(e, fr, op, &v, &[n, w, c], src)
}

/// `tosa.scatter %values_in, %indices, %input`: `[N,K,C]` values updated
/// at `[N,W]` indices from `[N,W,C]` input; writing one position twice or
/// an index outside `0..K` fails a REQUIRE.
pub(super) fn scatter(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (v, ix, x) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let (&[n, k, c], &[ni, w], &[nx, wx, cx]) = (v.shape(), ix.shape(), x.shape()) else {
        return Err(invalid(op, "scatter takes [N,K,C] values, [N,W] indices and [N,W,C] input"));
    };
    if n != ni || n != nx || w != wx || c != cx {
        return Err(invalid(
            op,
            format!("scatter shapes {:?}, {:?} and {:?} disagree", v.shape(), ix.shape(), x.shape()),
        ));
    }
    let mut src: Vec<Option<usize>> = vec![None; n * k * c];
    for b in 0..n {
        for j in 0..w {
            let at = int_at(op, &ix, b * w + j)?;
            let kk = usize::try_from(at)
                .ok()
                .filter(|y| *y < k)
                .ok_or_else(|| require(op, format!("scatter index {at} at [{b}, {j}] is outside 0..{k}")))?;
            for ch in 0..c {
                let slot = &mut src[(b * k + kk) * c + ch];
                if slot.is_some() {
                    return Err(require(op, format!("scatter writes position [{b}, {kk}, {ch}] twice")));
                }
                *slot = Some((b * w + j) * c + ch);
            }
        }
    }
    e.charge(op, src.len() as u64)?;
    let elems = src.iter().enumerate().map(|(p, s)| match s {
        Some(q) => x.get(*q),
        None => v.get(p),
    });
    let v = build(e, op, 0, &[n, k, c], elems.collect())?;
    e.assign(fr, op, v)
}
