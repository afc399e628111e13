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
    #[inline]
    pub fn clear(&mut self, at: usize, n: usize) {
        if self.0.is_empty() {
            return;
        }
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
