//! Property test of the memref view descriptors: random chains of
//! subview (with strides and rank reduction), transpose, expand_shape and
//! collapse_shape over one buffer must read the same elements as the same
//! chain applied to an ndarray reference (slicing, axis permutation and
//! row-major reshape of the logical array). A collapse the engine refuses
//! must really be of a non-contiguous group. Reinterpret casts (any
//! offset, sizes and strides inside the buffer, negative strides too)
//! are checked against the flat buffer. After every step the memref's
//! ndarray view (`MemRef::with_view`) shows the same elements, starting
//! at the memref's own storage (no copy), and a write through its mutable
//! view is what the engine then loads.

use mlir_interp::memory::{AllocKind, AllocLayout, Elem, Lane, MemRef, Memory};
use mlir_interp::value::{Int, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeId;
use ndarray::{ArrayD, Axis, Dimension, IxDyn, Slice};
use proptest::prelude::*;

/// A small deterministic generator driven by proptest's seeds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: i64) -> i64 {
        if n <= 0 {
            0
        } else {
            (self.next() % n as u64) as i64
        }
    }
}

fn elem() -> Elem {
    Elem::scalar(Lane::Int(64), "i64".into(), TypeId(0))
}

fn value_at(m: &MemRef, idx: &[i64]) -> i64 {
    match m.load(OpId(0), idx, "test load").map(|v| v.scalar()) {
        Ok(Some(Scalar::Int(i))) => i.to_i64().unwrap_or(i64::MIN),
        other => panic!("load {idx:?} failed: {other:?}"),
    }
}

/// Applies one random view op to both; returns false if it was skipped.
fn step(rng: &mut Rng, m: &mut MemRef, r: &mut ArrayD<i64>) -> Result<(), TestCaseError> {
    let rank = m.rank();
    match rng.below(5) {
        0 => {
            // subview with strides; maybe drop unit dims.
            let (mut offs, mut sizes, mut strides) = (Vec::new(), Vec::new(), Vec::new());
            for d in 0..rank {
                let n = m.sizes[d];
                let o = rng.below(n + 1);
                let s = 1 + rng.below(3);
                let room = n - o;
                let max_k = if room == 0 { 0 } else { (room - 1) / s + 1 };
                let k = rng.below(max_k + 1);
                offs.push(o);
                sizes.push(k);
                strides.push(s);
            }
            let keep: Vec<usize> = (0..rank).filter(|d| sizes[*d] != 1 || rng.below(2) == 0).collect();
            let v = m.subview(&offs, &sizes, &strides, &keep).map_err(TestCaseError::fail)?;
            let mut sliced = r
                .slice_each_axis(|ax| {
                    let d = ax.axis.index();
                    let end = offs[d] + (sizes[d] - 1).max(0) * strides[d] + 1;
                    let end = if sizes[d] == 0 { offs[d] } else { end };
                    Slice::new(offs[d] as isize, Some(end as isize), strides[d] as isize)
                })
                .to_owned();
            for d in (0..rank).rev() {
                if !keep.contains(&d) {
                    sliced = sliced.index_axis_move(Axis(d), 0);
                }
            }
            *m = v;
            *r = sliced;
        }
        1 => {
            let mut perm: Vec<usize> = (0..rank).collect();
            for i in (1..rank).rev() {
                perm.swap(i, rng.below(i as i64 + 1) as usize);
            }
            *m = m.transposed(&perm);
            *r = r.clone().permuted_axes(IxDyn(&perm)).to_owned();
        }
        2 if rank > 0 && rank < 4 => {
            let g = rng.below(rank as i64) as usize;
            let n = m.sizes[g];
            let divisors: Vec<i64> = (1..=n.max(1)).filter(|a| n == 0 && *a == 1 || n > 0 && n % a == 0).collect();
            let a = divisors[rng.below(divisors.len() as i64) as usize];
            let b = if n == 0 { 0 } else { n / a };
            let mut out = m.sizes[..g].to_vec();
            out.extend([a, b]);
            out.extend_from_slice(&m.sizes[g + 1..]);
            let groups: Vec<Vec<usize>> = (0..rank)
                .map(|d| match d.cmp(&g) {
                    std::cmp::Ordering::Less => vec![d],
                    std::cmp::Ordering::Equal => vec![d, d + 1],
                    std::cmp::Ordering::Greater => vec![d + 1],
                })
                .collect();
            let v = m.expanded(&groups, &out).map_err(TestCaseError::fail)?;
            let shape: Vec<usize> = out.iter().map(|x| *x as usize).collect();
            let flat: Vec<i64> = r.iter().copied().collect();
            *r = ArrayD::from_shape_vec(IxDyn(&shape), flat).map_err(|e| TestCaseError::fail(e.to_string()))?;
            *m = v;
        }
        _ if rank >= 2 => {
            let g = rng.below(rank as i64 - 1) as usize;
            let groups: Vec<Vec<usize>> = (0..rank - 1)
                .map(|d| match d.cmp(&g) {
                    std::cmp::Ordering::Less => vec![d],
                    std::cmp::Ordering::Equal => vec![d, d + 1],
                    std::cmp::Ordering::Greater => vec![d + 1],
                })
                .collect();
            match m.collapsed(&groups, &[], &[]) {
                Ok(v) => {
                    let shape: Vec<usize> = v.sizes.iter().map(|x| *x as usize).collect();
                    let flat: Vec<i64> = r.iter().copied().collect();
                    *r = ArrayD::from_shape_vec(IxDyn(&shape), flat).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    *m = v;
                }
                Err(_) => {
                    // Refused: both dims have more than one element and the
                    // outer stride is not the inner stride times its size.
                    let (a, b) = (g, g + 1);
                    prop_assert!(m.sizes[a] > 1 && m.sizes[b] > 1 && m.strides[a] != m.strides[b] * m.sizes[b]);
                }
            }
        }
        4 => {
            // reinterpret_cast of the whole buffer (`n` elements, filled
            // with their linear index) to any in-bounds descriptor.
            let n = m.buf.borrow().len() as i64 / 8;
            let rank = 1 + rng.below(3) as usize;
            let sizes: Vec<i64> = (0..rank).map(|_| 1 + rng.below(4)).collect();
            let strides: Vec<i64> = (0..rank).map(|_| rng.below(9) - 4).collect();
            let (lo, hi) = sizes.iter().zip(&strides).fold((0i64, 0i64), |(lo, hi), (k, s)| {
                let reach = (k - 1) * s;
                (lo + reach.min(0), hi + reach.max(0))
            });
            if hi - lo >= n {
                return Ok(());
            }
            let offset = -lo + rng.below(n - (hi - lo));
            let v = m.derived(offset, sizes.clone(), strides.clone());
            let shape: Vec<usize> = sizes.iter().map(|x| *x as usize).collect();
            *r = ArrayD::from_shape_fn(IxDyn(&shape), |ix| {
                offset + ix.as_array_view().iter().zip(&strides).map(|(i, s)| *i as i64 * s).sum::<i64>()
            });
            *m = v;
        }
        _ => {}
    }
    Ok(())
}

/// The memref's ndarray view equals `r` and starts at element 0 of the
/// memref in its buffer's own storage.
fn view_matches(m: &MemRef, r: &ArrayD<i64>) -> Result<(), TestCaseError> {
    let at = (m.storage_ptr() as isize).wrapping_add(m.base as isize).wrapping_add((m.offset as isize).wrapping_mul(8))
        as usize;
    let (same, ptr) = m
        .with_view::<i64, _>(|v| (v == r.view(), v.as_ptr() as usize))
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(same, "view differs from the reference for {:?}", m);
    if !r.is_empty() {
        prop_assert_eq!(ptr, at, "the view is not on the memref's storage");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn view_chains_match_ndarray(shape in prop::collection::vec(1i64..5, 1..4), seeds in prop::collection::vec(any::<u64>(), 0..6)) {
        let mut mem = Memory::default();
        let mut m = mem.alloc(OpId(0), elem(), shape.clone(), AllocLayout::Identity, AllocKind::Heap, 0).unwrap();
        let ushape: Vec<usize> = shape.iter().map(|x| *x as usize).collect();
        let mut r = ArrayD::from_shape_fn(IxDyn(&ushape), |ix| {
            ix.as_array_view().iter().zip(&ushape).fold(0i64, |acc, (i, n)| acc * *n as i64 + *i as i64)
        });
        for idx in m.indices().collect::<Vec<_>>() {
            let lin = idx.iter().zip(&shape).fold(0i64, |acc, (i, n)| acc * n + i);
            m.store(OpId(0), &idx, &Value::int(Int::from_i128(64, i128::from(lin))), "fill").unwrap();
        }
        for s in seeds {
            let mut rng = Rng(s);
            step(&mut rng, &mut m, &mut r)?;
            let ms: Vec<usize> = m.sizes.iter().map(|x| *x as usize).collect();
            prop_assert_eq!(ms.as_slice(), r.shape());
            view_matches(&m, &r)?;
            for idx in m.indices() {
                let ui: Vec<usize> = idx.iter().map(|x| *x as usize).collect();
                prop_assert_eq!(value_at(&m, &idx), r[IxDyn(&ui)], "at {:?} of {:?}", idx, m);
            }
        }
    }
}
