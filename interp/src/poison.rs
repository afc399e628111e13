//! Where poison is: runs of positions with the op that made them, shared
//! by memory buffers (bytes) and dense values (elements).

use crate::scalar::Poison;
use std::collections::BTreeMap;

/// The positions (bytes of a buffer, elements of a dense value) that hold
/// poison, as runs (`start -> (end, origin)`, disjoint, adjacent runs of
/// one origin joined): poison in every element costs one run, not an
/// entry per position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoisonRuns(BTreeMap<usize, (usize, Poison)>);

impl PoisonRuns {
    /// True when no byte holds poison (the common case, one check).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The origin of the first poisoned byte of `at..at + n`, if any.
    #[inline]
    pub fn first_in(&self, at: usize, n: usize) -> Option<Poison> {
        if self.0.is_empty() {
            return None;
        }
        let mut first = None;
        for (_, (end, p)) in self.0.range(..at + n).rev() {
            if *end <= at {
                break;
            }
            first = Some(*p);
        }
        first
    }

    /// Marks `at..at + n` poison made by `p`, joining a run of the same
    /// origin that ends where this one starts.
    pub fn set(&mut self, at: usize, n: usize, p: Poison) {
        self.clear(at, n);
        let mut start = at;
        if let Some((&s, &(end, q))) = self.0.range(..at).next_back() {
            if end == at && q == p {
                start = s;
            }
        }
        let mut end = at + n;
        if let Some(&(e, q)) = self.0.get(&end) {
            if q == p {
                self.0.remove(&end);
                end = e;
            }
        }
        self.0.insert(start, (end, p));
    }

    /// Marks `at..at + n` free of poison (a defined value was stored).
    #[inline(always)]
    pub fn clear(&mut self, at: usize, n: usize) {
        // Most buffers never hold poison: every store asks, so the answer
        // is inline and the work out of line.
        if !self.0.is_empty() {
            self.clear_runs(at, n);
        }
    }

    #[inline(never)]
    fn clear_runs(&mut self, at: usize, n: usize) {
        let end = at + n;
        let hit: Vec<(usize, usize, Poison)> =
            self.0.range(..end).rev().take_while(|(_, (e, _))| *e > at).map(|(s, (e, p))| (*s, *e, *p)).collect();
        for (s, e, p) in hit {
            self.0.remove(&s);
            if s < at {
                self.0.insert(s, (at, p));
            }
            if e > end {
                self.0.insert(end, (e, p));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlir_ir::ir::OpId;

    /// Poison runs behave like one origin per position: random stores of
    /// poison and of values, checked against that model byte by byte.
    #[test]
    fn poison_runs_match_a_per_byte_model() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let mut runs = PoisonRuns::default();
            let mut model: Vec<Option<Poison>> = vec![None; 64];
            for _ in 0..40 {
                let at = next(60) as usize;
                let n = 1 + next(4) as usize;
                if next(2) == 0 {
                    let p = Poison(OpId(next(3) as u32));
                    runs.set(at, n, p);
                    model[at..at + n].iter_mut().for_each(|b| *b = Some(p));
                } else {
                    runs.clear(at, n);
                    model[at..at + n].iter_mut().for_each(|b| *b = None);
                }
                for q in 0..60 {
                    for len in 1..5 {
                        let want = model[q..q + len].iter().find_map(|b| *b);
                        assert_eq!(runs.first_in(q, len), want, "positions {q}..{}", q + len);
                    }
                }
                let keys: Vec<_> = runs.0.iter().map(|(s, (e, _))| (*s, *e)).collect();
                assert!(keys.windows(2).all(|w| w[0].1 <= w[1].0), "runs overlap: {keys:?}");
            }
            assert_eq!(runs.is_empty(), model.iter().all(Option::is_none));
            // Runs are joined, so equal poison maps compare equal.
            let mut rebuilt = PoisonRuns::default();
            for (q, b) in model.iter().enumerate() {
                if let Some(p) = b {
                    rebuilt.set(q, 1, *p);
                }
            }
            assert_eq!(rebuilt, runs);
        }
    }
}
