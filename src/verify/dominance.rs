//! Dominance in SSACFG regions: each use must be dominated by its
//! definition (graph regions excepted). Linear in the size of the IR: a
//! dominator tree per region with interval queries, and each op's index in
//! its block for same-block checks.

use super::*;

impl<'m> Verifier<'m> {
    /// True when the op's regions may be graph regions (no dominance).
    fn is_graph(&self, op: OpId) -> bool {
        let k = self.kind(op);
        k == OpKind::Unknown || k.has(traits::GRAPH)
    }

    pub(super) fn dominance(&self, top: OpId) -> VResult {
        // Each op's position in its block, so a same-block check is O(1)
        // (a search per use made large blocks quadratic).
        let mut pos = vec![0u32; self.m.ops.len()];
        for b in &self.m.blocks {
            for (i, o) in b.ops.iter().enumerate() {
                pos[o.0 as usize] = i as u32;
            }
        }
        let mut cx = DomCx { regions: FxHashMap::default(), pos };
        self.dominance_op(top, &mut cx)
    }

    fn dominance_op(&self, op: OpId, cache: &mut DomCx) -> VResult {
        for (i, &v) in self.m.operands(op).iter().enumerate() {
            if !self.dominates(v, op, cache) {
                let d = Diagnostic::error(self.m.op(op).span, format!("operand #{i} does not dominate this use"))
                    .with_note(self.m.value(v).span, "operand defined here");
                return Err(d);
            }
        }
        for &r in self.m.regions(op) {
            for &b in &self.m.region(r).blocks {
                for &o in &self.m.block(b).ops {
                    self.dominance_op(o, cache)?;
                }
            }
        }
        Ok(())
    }

    /// The block that holds `v`'s definition and, for op results, the op.
    fn def_site(&self, v: ValueId) -> Option<(BlockId, Option<OpId>)> {
        match self.m.value(v).def {
            ValueDef::Arg(b, _) => Some((b, None)),
            ValueDef::Result(o, _) => {
                let op = self.m.ops.get(o.0 as usize)?;
                Some((op.parent?, Some(o)))
            }
        }
    }

    fn dominates(&self, v: ValueId, user: OpId, cache: &mut DomCx) -> bool {
        let Some((def_block, def_op)) = self.def_site(v) else { return true };
        let Some(def_region) = self.m.block(def_block).parent else { return true };
        if self.m.region(def_region).parent.map(|o| self.is_graph(o)).unwrap_or(true) {
            return true;
        }
        // Walk up from the user to the op whose block is in the def's region.
        let mut cur = user;
        loop {
            let Some(b) = self.m.op(cur).parent else { return false };
            let Some(r) = self.m.block(b).parent else { return false };
            if r == def_region {
                let owner = self.m.region(r).parent;
                if owner.map(|o| self.is_graph(o)).unwrap_or(true) {
                    return true;
                }
                if b == def_block {
                    return match def_op {
                        None => true,
                        Some(d) => cache.pos[d.0 as usize] < cache.pos[cur.0 as usize],
                    };
                }
                let doms = cache.regions.entry(r).or_insert_with(|| Dominators::new(self.m, r));
                return doms.dominates(def_block, b);
            }
            match self.m.region(r).parent {
                Some(p) => {
                    // A use nested in the defining op's own region is not dominated.
                    if Some(p) == def_op {
                        return false;
                    }
                    cur = p;
                }
                None => return false,
            }
        }
    }
}

/// What the dominance check computes once: dominator trees by region and
/// each op's index in its block.
struct DomCx {
    regions: FxHashMap<RegionId, Dominators>,
    pos: Vec<u32>,
}

/// The dominator tree of one region's blocks (Cooper, Harvey and Kennedy's
/// iterative algorithm over reverse postorder), numbered by a depth-first
/// walk so "a dominates b" is an interval test: linear to build and O(1) to
/// ask, where bit sets were quadratic in the number of blocks.
struct Dominators {
    index: FxHashMap<BlockId, usize>,
    /// Preorder and postorder numbers in the dominator tree; `None` for
    /// blocks unreachable from the entry.
    order: Vec<Option<(u32, u32)>>,
}

impl Dominators {
    fn new(m: &Module, r: RegionId) -> Dominators {
        let blocks = &m.region(r).blocks;
        let n = blocks.len();
        let index: FxHashMap<BlockId, usize> = blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let succs: Vec<Vec<usize>> = blocks
            .iter()
            .map(|b| match m.terminator(*b) {
                Some(t) => m.successors(t).iter().filter_map(|s| index.get(s).copied()).collect(),
                None => Vec::new(),
            })
            .collect();
        let rpo = reverse_postorder(&succs);
        let mut rank = vec![usize::MAX; n];
        for (k, &b) in rpo.iter().enumerate() {
            rank[b] = k;
        }
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, ss) in succs.iter().enumerate() {
            for &j in ss {
                preds[j].push(i);
            }
        }
        let mut idom = vec![usize::MAX; n];
        if n > 0 {
            idom[0] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new = usize::MAX;
                for &p in &preds[b] {
                    if idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX { p } else { intersect(&idom, &rank, p, new) };
                }
                if new != idom[b] {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        Dominators { index, order: tree_order(&idom) }
    }

    /// True when block `a` dominates block `b` (uses in unreachable blocks are fine).
    fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (Some(&ia), Some(&ib)) = (self.index.get(&a), self.index.get(&b)) else { return true };
        match (self.order[ia], self.order[ib]) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some((pa, qa)), Some((pb, qb))) => pa <= pb && qb <= qa,
        }
    }
}

/// Blocks reachable from block 0, in reverse postorder (iteratively, so a
/// long chain of blocks cannot overflow the stack).
fn reverse_postorder(succs: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; succs.len()];
    let mut post = Vec::with_capacity(succs.len());
    if succs.is_empty() {
        return post;
    }
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((b, next)) = stack.last_mut() {
        if let Some(&s) = succs[*b].get(*next) {
            *next += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// The nearest common dominator of `a` and `b` (both reachable).
fn intersect(idom: &[usize], rank: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rank[a] > rank[b] {
            a = idom[a];
        }
        while rank[b] > rank[a] {
            b = idom[b];
        }
    }
    a
}

/// Pre- and postorder numbers of the dominator tree given by `idom`.
fn tree_order(idom: &[usize]) -> Vec<Option<(u32, u32)>> {
    let n = idom.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, &d) in idom.iter().enumerate().skip(1) {
        if d != usize::MAX {
            children[d].push(b);
        }
    }
    let mut order = vec![None; n];
    if n == 0 {
        return order;
    }
    let (mut pre, mut post) = (0u32, 0u32);
    let mut stack = vec![(0usize, 0usize)];
    let mut first = vec![0u32; n];
    first[0] = pre;
    pre += 1;
    while let Some((b, next)) = stack.last_mut() {
        if let Some(&c) = children[*b].get(*next) {
            *next += 1;
            first[c] = pre;
            pre += 1;
            stack.push((c, 0));
        } else {
            order[*b] = Some((first[*b], post));
            post += 1;
            stack.pop();
        }
    }
    order
}
