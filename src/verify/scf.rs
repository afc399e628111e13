//! Verifier rules of the scf dialect: loops, ifs and their yields, with mlir-opt's messages.

use super::*;
use crate::ops::ScfOp;

impl Verifier<'_> {
    /// Checks one op of the scf dialect.
    pub(super) fn check_scf(&self, op: OpId, o: ScfOp) -> VResult {
        use OpKind::*;
        let m = self.m;
        match o {
            ScfOp::For => {
                let ops = m.operands(op);
                if ops.len() < 3 {
                    return self.op_err(op, format!("expected at least 3 operands, but found {}", ops.len()));
                }
                for (i, v) in ops[..3].iter().enumerate() {
                    let t = m.type_of(*v);
                    if !matches!(
                        m.ctx.type_kind(t),
                        TypeKind::Integer { signedness: Signedness::Signless, .. } | TypeKind::Index
                    ) {
                        return self.op_err(
                            op,
                            format!("operand #{i} must be signless integer or index, but got '{}'", self.ty(t)),
                        );
                    }
                }
                if let Some(&r) = m.regions(op).first() {
                    if let Some(ys) = self.yield_types(r) {
                        let inits = &ops[3..];
                        for (i, (y, v)) in ys.iter().zip(inits).enumerate() {
                            let it = m.type_of(*v);
                            if *y != it {
                                return self.op_err(op, format!("{i}-th region iter_arg and {i}-th yielded value have different type: '{}' != '{}'", self.ty(it), self.ty(*y)));
                            }
                        }
                    }
                }
                Ok(())
            }
            ScfOp::If => {
                let nres = m.op(op).results.len as usize;
                for &r in m.regions(op) {
                    if m.region(r).blocks.is_empty() {
                        if nres > 0 {
                            return self.op_err(op, "must have an else block if defining values");
                        }
                        continue;
                    }
                    if let Some(ys) = self.yield_types(r) {
                        if ys.len() != nres {
                            return self.op_err(op, format!("along control flow edge from Operation scf.yield to parent: region branch point has {} operands, but region successor needs {nres} inputs", ys.len()));
                        }
                    }
                }
                Ok(())
            }
            ScfOp::Yield => {
                let ok = matches!(
                    m.parent_op(op).map(|p| self.kind(p)),
                    Some(ScfExecuteRegion | ScfFor | ScfIf | ScfIndexSwitch | ScfWhile)
                );
                if !ok {
                    return self.op_err(op, "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'");
                }
                Ok(())
            }
            ScfOp::Condition => {
                if m.parent_op(op).map(|p| self.kind(p)) != Some(ScfWhile) {
                    return self.op_err(op, "expects parent op 'scf.while'");
                }
                Ok(())
            }
            ScfOp::ExecuteRegion => {
                let empty = m.regions(op).first().is_none_or(|r| m.region(*r).blocks.is_empty());
                if empty {
                    return self.op_err(op, "region needs to have at least one block");
                }
                Ok(())
            }
            ScfOp::Parallel => self.scf_parallel(op),
            ScfOp::Reduce => self.scf_reduce(op),
            ScfOp::ReduceReturn => self.scf_reduce_return(op),
            ScfOp::Forall => self.scf_forall(op),
            ScfOp::InParallel => self.scf_in_parallel(op),
            ScfOp::While | ScfOp::IndexSwitch => Ok(()),
        }
    }

    /// `scf.forall.in_parallel`: inside an `scf.forall`, holding only
    /// parallel-combining ops, each inserting into one of the forall's
    /// output block arguments (mlir-opt's InParallelOp::verify, which runs
    /// before the ops it holds are verified).
    fn scf_in_parallel(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(forall) = m.parent_op(op).filter(|p| self.kind(*p) == OpKind::ScfForall) else {
            return self.op_err(op, "expected forall op parent");
        };
        let rank = self.ints(forall, "staticLowerBound").map_or(0, |v| v.len());
        let outs: Vec<ValueId> = m
            .regions(forall)
            .first()
            .and_then(|r| m.region(*r).blocks.first())
            .map(|b| m.args(*b).skip(rank).collect())
            .unwrap_or_default();
        let Some(block) = m.regions(op).first().and_then(|r| m.region(*r).blocks.first()) else { return Ok(()) };
        for &o in &m.block(*block).ops {
            if self.kind(o) != OpKind::TensorParallelInsertSlice {
                return self.op_err(op, "expected only ParallelCombiningOpInterface ops");
            }
            if m.operands(o).get(1).is_some_and(|d| !outs.contains(d)) {
                return self.op_err(o, "may only insert into an output block argument");
            }
        }
        Ok(())
    }

    /// `scf.forall`: one result per output, an index block argument per
    /// loop (the rank is the lower bounds' count) then one per output, and
    /// bound and step lists of the rank whose dynamic entries the operand
    /// segments supply (mlir-opt's ForallOp::verify).
    fn scf_forall(&self, op: OpId) -> VResult {
        let m = self.m;
        let segs = self.ints(op, "operandSegmentSizes").unwrap_or_default();
        let Some(rank) = self.ints(op, "staticLowerBound").map(|v| v.len()) else { return Ok(()) };
        let outputs = segs.get(3).map_or(0, |n| usize::try_from(*n).unwrap_or(0));
        let results = m.op(op).results.len as usize;
        if results != outputs {
            return self.op_err(op, format!("produces {results} results, but has only {outputs} outputs"));
        }
        if let Some(b) = m.regions(op).first().and_then(|r| m.region(*r).blocks.first()) {
            let args: Vec<ValueId> = m.args(*b).collect();
            if args.len() != rank + outputs {
                return self.op_err(op, format!("region expects {rank} arguments"));
            }
            if let Some(i) = (0..rank).find(|i| !matches!(m.ctx.type_kind(m.type_of(args[*i])), TypeKind::Index)) {
                return self.op_err(op, format!("expects {i}-th block argument to be an index"));
            }
        }
        let span = m.op(op).span;
        for (k, (name, attr)) in
            [("lower bound", "staticLowerBound"), ("upper bound", "staticUpperBound"), ("step", "staticStep")]
                .into_iter()
                .enumerate()
        {
            let Some(v) = self.ints(op, attr) else { continue };
            if v.len() != rank {
                return self.err(span, format!("expected {rank} {name} values, got {}", v.len()));
            }
            let dynamic = v.iter().filter(|x| **x == crate::types::DYNAMIC).count();
            if segs.get(k).is_some_and(|n| *n != dynamic as i64) {
                return self.err(span, format!("expected {dynamic} dynamic {name} values"));
            }
        }
        Ok(())
    }

    /// `scf.parallel`: no constant step below 1 (a loop that would never
    /// end, or never start), one result per initial value.
    fn scf_parallel(&self, op: OpId) -> VResult {
        let m = self.m;
        let segs = self.ints(op, "operandSegmentSizes").unwrap_or_default();
        if let [lbs, ubs, steps, ..] = segs[..] {
            let start = usize::try_from(lbs.saturating_add(ubs)).unwrap_or(usize::MAX);
            let n = usize::try_from(steps).unwrap_or(0);
            let steps = m.operands(op).iter().skip(start).take(n);
            if steps.filter_map(|v| self.constant_int(*v)).any(|c| c <= 0) {
                return self.op_err(op, "constant step operand must be positive");
            }
        }
        let results = m.results(op).len();
        let inits = segs.get(3).copied().unwrap_or(0);
        if inits != results as i64 {
            return self.op_err(
                op,
                format!("expects number of results: {results} to be the same as number of initial values: {inits}"),
            );
        }
        Ok(())
    }

    /// The value of `v` when a constant op defines it as an integer (what
    /// MLIR's `getConstantIntValue` sees: `arith.constant`,
    /// `index.constant`, `llvm.mlir.constant`).
    fn constant_int(&self, v: crate::ir::ValueId) -> Option<i128> {
        let m = self.m;
        let crate::ir::ValueDef::Result(d, _) = m.value(v).def else { return None };
        if !matches!(self.kind(d), OpKind::ArithConstant | OpKind::IndexConstant | OpKind::LlvmConstant) {
            return None;
        }
        match m.ctx.attr_kind(m.attr(d, "value")?) {
            Attribute::Integer { value: crate::attrs::IntVal::Small(x), .. } => Some(*x),
            _ => None,
        }
    }

    /// `scf.parallel`, once its body is verified: one result per reduction
    /// of its `scf.reduce` terminator.
    pub(super) fn scf_parallel_regions(&self, op: OpId) -> VResult {
        let m = self.m;
        let results = m.results(op).len();
        let reductions = m
            .regions(op)
            .first()
            .and_then(|r| m.region(*r).blocks.first())
            .and_then(|b| m.terminator(*b))
            .filter(|t| self.kind(*t) == OpKind::ScfReduce)
            .map(|t| m.operands(t).len());
        if let Some(n) = reductions {
            if n != results {
                return self.op_err(
                    op,
                    format!("expects number of results: {results} to be the same as number of reductions: {n}"),
                );
            }
        }
        Ok(())
    }

    /// `scf.reduce`: one region per operand, each taking two values of the
    /// operand's type; inside `scf.parallel`, operand `i` has the type of
    /// the loop's result `i`.
    fn scf_reduce(&self, op: OpId) -> VResult {
        let m = self.m;
        let (ops, regions) = (m.operands(op), m.regions(op));
        if ops.len() != regions.len() {
            return self.op_err(
                op,
                format!(
                    "expects number of reduction regions: {} to be the same as number of reduction operands: {}",
                    regions.len(),
                    ops.len()
                ),
            );
        }
        let parent_results: Vec<TypeId> = match m.parent_op(op) {
            Some(p) if self.kind(p) == OpKind::ScfParallel => m.results(p).map(|r| m.type_of(r)).collect(),
            _ => Vec::new(),
        };
        for (i, (v, r)) in ops.iter().zip(regions).enumerate() {
            let t = m.type_of(*v);
            if let Some(rt) = parent_results.get(i) {
                if *rt != t {
                    return self.op_err(
                        op,
                        format!(
                            "expects type of {i}-th reduction operand: '{}' to be the same as the {i}-th result type: '{}'",
                            self.ty(t),
                            self.ty(*rt)
                        ),
                    );
                }
            }
            let args: Vec<TypeId> = match m.region(*r).blocks.first() {
                Some(b) => m.args(*b).map(|a| m.type_of(a)).collect(),
                None => Vec::new(),
            };
            if args.len() != 2 || args.iter().any(|a| *a != t) {
                return self.op_err(
                    op,
                    format!("expected two block arguments with type '{}' in the {i}-th reduction region", self.ty(t)),
                );
            }
        }
        Ok(())
    }

    /// `scf.reduce.return`: one value of the type its region reduces.
    fn scf_reduce_return(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(block) = m.op(op).parent else { return Ok(()) };
        let Some(want) = m.args(block).next().map(|a| m.type_of(a)) else { return Ok(()) };
        let got: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
        if got != [want] {
            return self.op_err(op, format!("must have type '{}' (the type of the reduction inputs)", self.ty(want)));
        }
        Ok(())
    }
}
