//! Property tests: the vector shuffling ops (`extract_strided_slice`,
//! `insert_strided_slice`, `transpose`, `shape_cast`, `shuffle`) agree with
//! a direct ndarray model on random shapes, offsets and permutations. Each
//! case builds a small MLIR function returning the op's result, runs it on
//! the engine and compares the returned array element by element.

use ndarray::{ArrayD, Axis, IxDyn, Slice};
use proptest::prelude::*;

mod common;
use common::run_int_array as run;

/// The element values `0..n` in row-major order, as i32.
fn iota(shape: &[usize], base: i64) -> ArrayD<i64> {
    let n: usize = shape.iter().product();
    ArrayD::from_shape_vec(IxDyn(shape), (0..n as i64).map(|x| x + base).collect()).unwrap()
}

fn vty(shape: &[usize]) -> String {
    if shape.is_empty() {
        return "vector<i32>".into();
    }
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("vector<{}xi32>", dims.join("x"))
}

/// `dense<...>` nesting for `a`.
fn literal(a: &ArrayD<i64>) -> String {
    fn go(a: ndarray::ArrayViewD<i64>) -> String {
        if a.ndim() == 0 {
            return a.iter().next().unwrap().to_string();
        }
        let parts: Vec<String> = a.outer_iter().map(go).collect();
        format!("[{}]", parts.join(", "))
    }
    if a.ndim() == 0 {
        return go(a.view());
    }
    go(a.view())
}

fn constant(name: &str, a: &ArrayD<i64>) -> String {
    format!("  %{name} = arith.constant dense<{}> : {}\n", literal(a), vty(a.shape()))
}

fn shape(max_rank: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..5, 1..=max_rank)
}

fn list(v: &[usize]) -> String {
    let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    s.join(", ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn extract_strided_slice_is_a_slice(
        (shape, k, seeds) in shape(3).prop_flat_map(|s| {
            let r = s.len();
            (Just(s), 1..=r, prop::collection::vec((0usize..100, 0usize..100), r))
        })
    ) {
        let src = iota(&shape, 0);
        let mut offsets = Vec::new();
        let mut sizes = Vec::new();
        for d in 0..k {
            let off = seeds[d].0 % shape[d];
            let size = 1 + seeds[d].1 % (shape[d] - off);
            offsets.push(off);
            sizes.push(size);
        }
        let mut model = src.view();
        for d in 0..k {
            model.slice_axis_inplace(Axis(d), Slice::from(offsets[d]..offsets[d] + sizes[d]));
        }
        let model = model.to_owned();
        let rshape: Vec<usize> = model.shape().to_vec();
        let body = format!(
            "{}  %r = vector.extract_strided_slice %a {{offsets = [{}], sizes = [{}], strides = [{}]}} : {} to {}\n",
            constant("a", &src), list(&offsets), list(&sizes), list(&vec![1; k]), vty(&shape), vty(&rshape)
        );
        prop_assert_eq!(run(&body, &vty(&rshape)), model);
    }

    #[test]
    fn insert_strided_slice_overwrites_a_slice(
        (shape, k, seeds) in shape(3).prop_flat_map(|s| {
            let r = s.len();
            (Just(s), 0..r, prop::collection::vec((0usize..100, 0usize..100), r))
        })
    ) {
        // The source covers the trailing `rank - k` dims, with sizes that fit.
        let dest = iota(&shape, 0);
        let mut offsets = Vec::new();
        let mut sshape = Vec::new();
        for d in 0..shape.len() {
            let off = seeds[d].0 % shape[d];
            offsets.push(off);
            if d >= k {
                sshape.push(1 + seeds[d].1 % (shape[d] - off));
            }
        }
        let src = iota(&sshape, 1000);
        let mut model = dest.clone();
        {
            let mut view = model.view_mut();
            for d in 0..shape.len() {
                let len = if d < k { 1 } else { sshape[d - k] };
                view.slice_axis_inplace(Axis(d), Slice::from(offsets[d]..offsets[d] + len));
            }
            let src_shaped = src.clone().into_shape_with_order(view.raw_dim()).unwrap();
            view.assign(&src_shaped);
        }
        let body = format!(
            "{}{}  %r = vector.insert_strided_slice %s, %d {{offsets = [{}], strides = [{}]}} : {} into {}\n",
            constant("s", &src), constant("d", &dest), list(&offsets), list(&vec![1; sshape.len()]),
            vty(&sshape), vty(&shape)
        );
        prop_assert_eq!(run(&body, &vty(&shape)), model);
    }

    #[test]
    fn transpose_permutes_axes(
        (shape, perm) in shape(4).prop_flat_map(|s| {
            let r = s.len();
            (Just(s), Just((0..r).collect::<Vec<usize>>()).prop_shuffle())
        })
    ) {
        let src = iota(&shape, 0);
        let model = src.view().permuted_axes(IxDyn(&perm)).to_owned();
        let rshape = model.shape().to_vec();
        let model = ArrayD::from_shape_vec(IxDyn(&rshape), model.iter().copied().collect()).unwrap();
        let body = format!(
            "{}  %r = vector.transpose %a, [{}] : {} to {}\n",
            constant("a", &src), list(&perm), vty(&shape), vty(&rshape)
        );
        prop_assert_eq!(run(&body, &vty(&rshape)), model);
    }

    #[test]
    fn shape_cast_keeps_row_major_order(shape in shape(3), split in 0usize..4) {
        let src = iota(&shape, 0);
        let n: usize = shape.iter().product();
        // Target: n split into (d, n / d) for a divisor d, or flat.
        let divisors: Vec<usize> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
        let d = divisors[split % divisors.len()];
        let target = if split == 0 { vec![n] } else { vec![d, n / d] };
        let model = src.clone().into_shape_with_order(IxDyn(&target)).unwrap();
        let body = format!(
            "{}  %r = vector.shape_cast %a : {} to {}\n",
            constant("a", &src), vty(&shape), vty(&target)
        );
        prop_assert_eq!(run(&body, &vty(&target)), model);
    }

    #[test]
    fn shuffle_picks_leading_slices(
        (a_shape, b_lead, mask) in shape(2).prop_flat_map(|s| {
            (Just(s.clone()), 1usize..4, prop::collection::vec(0usize..1000, 1..6))
        })
    ) {
        let a = iota(&a_shape, 0);
        let mut b_shape = a_shape.clone();
        b_shape[0] = b_lead;
        let b = iota(&b_shape, 500);
        let total = a_shape[0] + b_lead;
        let mask: Vec<usize> = mask.into_iter().map(|m| m % total).collect();
        let both = ndarray::concatenate(Axis(0), &[a.view(), b.view()]).unwrap();
        let rows: Vec<_> = mask.iter().map(|m| both.index_axis(Axis(0), *m).insert_axis(Axis(0))).collect();
        let model = ndarray::concatenate(Axis(0), &rows).unwrap();
        let rshape = model.shape().to_vec();
        let model = ArrayD::from_shape_vec(IxDyn(&rshape), model.iter().copied().collect()).unwrap();
        let body = format!(
            "{}{}  %r = vector.shuffle %a, %b [{}] : {}, {}\n",
            constant("a", &a), constant("b", &b), list(&mask), vty(&a_shape), vty(&b_shape)
        );
        prop_assert_eq!(run(&body, &vty(&rshape)), model);
    }
}
