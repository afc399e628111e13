//! Blocks of a strided index space: the elements `base + pos` for every
//! position `pos` of a shape laid over the space's trailing dims, which is
//! what `vector.load`, `vector.store` and minor-identity transfers touch.
//! Worked out once per access as rows of evenly spaced elements, so that
//! the vector ops move bytes a row at a time instead of a lane at a time.
//! Pure index arithmetic, below memory and values.

/// The rows of a block, in the row-major order of its positions.
#[derive(Debug, PartialEq, Eq)]
pub struct Block {
    /// The linear element number of each row's first element.
    pub starts: Vec<i64>,
    /// Elements per row (the block's last dim; 1 for a 0-d block).
    pub len: usize,
    /// Elements from one element of a row to the next.
    pub step: i64,
    /// The lowest and highest linear element number the block touches.
    pub lo: i64,
    /// See `lo`.
    pub hi: i64,
}

/// The block at indices `base` of shape `shape` over the trailing dims of
/// a space of `sizes` with element `strides` and `offset`, when every one
/// of its elements is in bounds (each index within its dim) and no
/// address overflows; `None` otherwise, and for an empty block, which the
/// per-element paths handle.
pub fn of(sizes: &[i64], strides: &[i64], offset: i64, base: &[i64], shape: &[usize]) -> Option<Block> {
    let rank = sizes.len();
    if base.len() != rank || strides.len() != rank || shape.len() > rank || shape.contains(&0) {
        return None;
    }
    let lead = rank - shape.len();
    let mut first = offset;
    let (mut lo, mut hi) = (0i64, 0i64);
    for d in 0..rank {
        let extent = if d < lead { 1 } else { i64::try_from(shape[d - lead]).ok()? };
        let end = base[d].checked_add(extent)?;
        if base[d] < 0 || end > sizes[d] {
            return None;
        }
        first = first.checked_add(base[d].checked_mul(strides[d])?)?;
        let span = (extent - 1).checked_mul(strides[d])?;
        if span < 0 {
            lo = lo.checked_add(span)?;
        } else {
            hi = hi.checked_add(span)?;
        }
    }
    let (lo, hi) = (first.checked_add(lo)?, first.checked_add(hi)?);
    let (outer, len, step) = match shape.split_last() {
        Some((&n, outer)) => (outer, n, strides[rank - 1]),
        None => (&[][..], 1, 1),
    };
    let outer_strides = &strides[lead..rank.saturating_sub(1).max(lead)];
    let rows: usize = outer.iter().product();
    let mut starts = Vec::with_capacity(rows);
    let mut pos = vec![0usize; outer.len()];
    for _ in 0..rows {
        // In range: the corners above bound every sum.
        let at = pos.iter().zip(outer_strides).fold(first, |a, (p, s)| a + *p as i64 * s);
        starts.push(at);
        for k in (0..pos.len()).rev() {
            pos[k] += 1;
            if pos[k] < outer[k] {
                break;
            }
            pos[k] = 0;
        }
    }
    Some(Block { starts, len, step, lo, hi })
}

#[cfg(test)]
mod tests {
    use super::{of, Block};

    /// A 2x3 block at [1, 2, 1] of a 4x5x6 row-major space: rows start at
    /// 1*30 + 2*6 + 1 = 43 and 43 + 6 = 49, three apart by one element.
    #[test]
    fn rows_of_a_row_major_block() {
        let b = of(&[4, 5, 6], &[30, 6, 1], 0, &[1, 2, 1], &[2, 3]).unwrap();
        assert_eq!(b, Block { starts: vec![43, 49], len: 3, step: 1, lo: 43, hi: 51 });
    }

    /// Negative and zero strides: the extremes come from the corners.
    #[test]
    fn rows_of_a_reversed_and_broadcast_space() {
        // Elements 10 - j for j in 2..4, each row read twice (stride 0).
        let b = of(&[2, 4], &[0, -1], 10, &[0, 2], &[2, 2]).unwrap();
        assert_eq!(b, Block { starts: vec![8, 8], len: 2, step: -1, lo: 7, hi: 8 });
    }

    /// A lane past a dim's end, a negative index, an empty block, an
    /// overflowing address: no block.
    #[test]
    fn out_of_bounds_blocks_are_refused() {
        assert_eq!(of(&[4], &[1], 0, &[2], &[3]), None);
        assert_eq!(of(&[4], &[1], 0, &[-1], &[1]), None);
        assert_eq!(of(&[4], &[1], 0, &[0], &[0]), None);
        assert_eq!(of(&[4], &[i64::MAX], 0, &[0], &[3]), None);
        assert_eq!(of(&[2, 4], &[4, 1], 0, &[2, 0], &[4]), None);
    }

    /// A 0-d block is one element.
    #[test]
    fn a_zero_d_block_is_its_element() {
        let b = of(&[3, 3], &[3, 1], 2, &[1, 1], &[]).unwrap();
        assert_eq!(b, Block { starts: vec![6], len: 1, step: 1, lo: 6, hi: 6 });
    }
}
