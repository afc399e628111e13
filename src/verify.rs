//! The verifier: structural rules (terminators, successors and their
//! arguments, entry blocks, dominance in SSACFG regions, symbols) and the
//! operand/result types of known ops. Messages and locations follow
//! mlir-opt's so the two can be compared.

use crate::attrs::Attribute;
use crate::diag::{Diagnostic, Span};
use crate::ir::*;
use crate::ops::{traits, OpKind};
use crate::printer::type_to_string;
use crate::types::{Signedness, TypeId, TypeKind};
use rustc_hash::FxHashMap;

mod llvm;

/// Checks `m`; the first violation is returned as a diagnostic.
pub fn verify(m: &Module) -> Result<(), Diagnostic> {
    let Some(top) = m.top else { return Ok(()) };
    let v = Verifier { m, tables: Default::default() };
    v.structure(top)?;
    v.dominance(top)?;
    v.symbols(top)?;
    Ok(())
}

struct Verifier<'m> {
    m: &'m Module,
    /// Symbol tables by their op, built on first lookup (a search per call
    /// made 10^5 calls quadratic).
    tables: std::cell::RefCell<FxHashMap<OpId, FxHashMap<&'m [u8], OpId>>>,
}

type VResult = Result<(), Diagnostic>;

/// How an op's operands split among its successors.
// One range per successor, so a branch with one successor is a one-range list.
#[allow(clippy::single_range_in_vec_init)]
pub fn successor_operands(m: &Module, op: OpId) -> Option<Vec<std::ops::Range<usize>>> {
    let ops = m.operands(op);
    let segs = |name: &str| -> Option<Vec<usize>> {
        match m.ctx.attr_kind(m.attr(op, name)?) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => {
                v.iter().map(|x| x.to_i64().map(|y| y as usize)).collect()
            }
            _ => None,
        }
    };
    match m.op(op).name.kind {
        OpKind::CfBr => Some(vec![0..ops.len()]),
        OpKind::CfCondBr => {
            let s = segs("operandSegmentSizes")?;
            let (t, f) = (*s.get(1)?, *s.get(2)?);
            Some(vec![1..1 + t, 1 + t..1 + t + f])
        }
        OpKind::CfSwitch => {
            let s = segs("operandSegmentSizes")?;
            let nd = *s.get(1)?;
            let mut v = vec![1..1 + nd];
            let mut at = 1 + nd;
            for c in segs("case_operand_segments").unwrap_or_default() {
                v.push(at..at + c);
                at += c;
            }
            Some(v)
        }
        _ => None,
    }
}

impl<'m> Verifier<'m> {
    fn ty(&self, t: TypeId) -> String {
        type_to_string(&self.m.ctx, t)
    }

    fn name(&self, op: OpId) -> &str {
        self.m.op_name(op)
    }

    fn op_err(&self, op: OpId, msg: impl AsRef<str>) -> VResult {
        Err(Diagnostic::error(self.m.op(op).span, format!("'{}' op {}", self.name(op), msg.as_ref())))
    }

    fn err(&self, span: Span, msg: impl Into<String>) -> VResult {
        Err(Diagnostic::error(span, msg))
    }

    fn kind(&self, op: OpId) -> OpKind {
        self.m.op(op).name.kind
    }

    // ---- structure -------------------------------------------------------

    fn structure(&self, op: OpId) -> VResult {
        let kind = self.kind(op);
        if kind != OpKind::Unknown {
            self.check_op(op, kind)?;
        }
        for &r in self.m.regions(op) {
            let blocks = &self.m.region(r).blocks;
            for (bi, &b) in blocks.iter().enumerate() {
                let ops = &self.m.block(b).ops;
                for (i, &o) in ops.iter().enumerate() {
                    let last = i + 1 == ops.len();
                    if !last && self.kind(o).has(traits::TERMINATOR) {
                        return self.op_err(o, "must be the last operation in the parent block");
                    }
                    if !last && !self.m.successors(o).is_empty() {
                        return self
                            .err(self.m.op(o).span, "operation with block successors must terminate its parent block");
                    }
                    for &s in self.m.successors(o) {
                        if blocks.first() == Some(&s) {
                            return self.err(self.m.op(op).span, "entry block of region may not have predecessors");
                        }
                    }
                }
                let needs_terminator = kind != OpKind::Unknown && !kind.has(traits::NO_TERMINATOR);
                if needs_terminator {
                    match ops.last() {
                        None => return self.op_err(op, "empty block: expect at least a terminator"),
                        Some(&l) => {
                            let lk = self.kind(l);
                            if lk != OpKind::Unknown && !lk.has(traits::TERMINATOR) {
                                let text = crate::printer::op_to_string(self.m, l);
                                return self.err(self.m.op(l).span, format!("block with no terminator, has {text}"));
                            }
                        }
                    }
                }
                let _ = bi;
                for &o in ops {
                    self.check_successors(o)?;
                    self.structure(o)?;
                }
            }
        }
        Ok(())
    }

    fn check_successors(&self, op: OpId) -> VResult {
        let Some(ranges) = successor_operands(self.m, op) else { return Ok(()) };
        let ops = self.m.operands(op);
        for (si, (&b, r)) in self.m.successors(op).iter().zip(ranges).enumerate() {
            let args: Vec<ValueId> = self.m.args(b).collect();
            let given = &ops[r];
            if given.len() != args.len() {
                return self.err(
                    self.m.op(op).span,
                    format!(
                        "branch has {} operands for successor #{si}, but target block has {}",
                        given.len(),
                        args.len()
                    ),
                );
            }
            for (i, (g, a)) in given.iter().zip(&args).enumerate() {
                if self.m.type_of(*g) != self.m.type_of(*a) {
                    return self
                        .err(self.m.op(op).span, format!("type mismatch for bb argument #{i} of successor #{si}"));
                }
            }
        }
        Ok(())
    }

    // ---- dominance -------------------------------------------------------

    /// True when the op's regions may be graph regions (no dominance).
    fn is_graph(&self, op: OpId) -> bool {
        let k = self.kind(op);
        k == OpKind::Unknown || k.has(traits::GRAPH)
    }

    fn dominance(&self, top: OpId) -> VResult {
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

    // ---- symbols ---------------------------------------------------------

    fn sym_name(&self, op: OpId) -> Option<&[u8]> {
        match self.m.ctx.attr_kind(self.m.attr(op, "sym_name")?) {
            Attribute::String { value, .. } => Some(value),
            _ => None,
        }
    }

    fn symbols(&self, op: OpId) -> VResult {
        let kind = self.kind(op);
        if kind.has(traits::SYMBOL_TABLE) {
            let mut seen: FxHashMap<&[u8], OpId> = FxHashMap::default();
            for &r in self.m.regions(op) {
                for &b in &self.m.region(r).blocks {
                    for &o in &self.m.block(b).ops {
                        if let Some(n) = self.sym_name(o) {
                            if let Some(prev) = seen.insert(n, o) {
                                let d = Diagnostic::error(
                                    self.m.op(o).span,
                                    format!("redefinition of symbol named '{}'", String::from_utf8_lossy(n)),
                                )
                                .with_note(self.m.op(prev).span, "see existing symbol definition here");
                                return Err(d);
                            }
                        }
                    }
                }
            }
        }
        if kind == OpKind::FuncCall {
            self.check_call(op)?;
        }
        if matches!(kind, OpKind::LlvmAddressof | OpKind::LlvmCall) {
            self.llvm_symbol_uses(op)?;
        }
        if kind == OpKind::MemrefGetGlobal {
            if let Some(a) = self.m.attr(op, "name") {
                if let Attribute::SymbolRef { root, nested } = self.m.ctx.attr_kind(a) {
                    let found = self.lookup_symbol(op, root, nested).filter(|t| self.kind(*t) == OpKind::MemrefGlobal);
                    if found.is_none() {
                        let n = String::from_utf8_lossy(root).into_owned();
                        return self.op_err(op, format!("'{n}' does not reference a valid global memref"));
                    }
                }
            }
        }
        for &r in self.m.regions(op) {
            for &b in &self.m.region(r).blocks {
                for &o in &self.m.block(b).ops {
                    self.symbols(o)?;
                }
            }
        }
        Ok(())
    }

    /// Resolves a symbol reference from `from`'s nearest symbol table.
    pub fn lookup_symbol(&self, from: OpId, root: &[u8], nested: &[Box<[u8]>]) -> Option<OpId> {
        let mut table = self.m.parent_op(from);
        while let Some(t) = table {
            if self.kind(t).has(traits::SYMBOL_TABLE) {
                break;
            }
            table = self.m.parent_op(t);
        }
        let mut cur = self.find_in_table(table?, root)?;
        for n in nested {
            cur = self.find_in_table(cur, n)?;
        }
        Some(cur)
    }

    fn find_in_table(&self, table: OpId, name: &[u8]) -> Option<OpId> {
        let mut tables = self.tables.borrow_mut();
        let m: &'m Module = self.m;
        let symbols = tables.entry(table).or_insert_with(|| {
            let mut map = FxHashMap::default();
            for &r in m.regions(table) {
                for &b in &m.region(r).blocks {
                    for &o in &m.block(b).ops {
                        let name = m.attr(o, "sym_name").map(|a| m.ctx.attr_kind(a));
                        if let Some(Attribute::String { value, .. }) = name {
                            map.entry(&value[..]).or_insert(o);
                        }
                    }
                }
            }
            map
        });
        symbols.get(name).copied()
    }

    fn func_type(&self, op: OpId) -> Option<(&'m [TypeId], &'m [TypeId])> {
        let a = self.m.attr(op, "function_type")?;
        let Attribute::Type(t) = self.m.ctx.attr_kind(a) else { return None };
        match self.m.ctx.type_kind(*t) {
            TypeKind::Function { inputs, results } => Some((inputs, results)),
            _ => None,
        }
    }

    fn check_call(&self, op: OpId) -> VResult {
        let Some(a) = self.m.attr(op, "callee") else { return self.op_err(op, "requires attribute 'callee'") };
        let Attribute::SymbolRef { root, nested } = self.m.ctx.attr_kind(a) else {
            return self.op_err(op, "attribute 'callee' failed to satisfy constraint: flat symbol reference attribute");
        };
        let text = String::from_utf8_lossy(root).into_owned();
        let target = self.lookup_symbol(op, root, nested).filter(|t| self.kind(*t) == OpKind::FuncFunc);
        let Some(f) = target else { return self.op_err(op, format!("'{text}' does not reference a valid function")) };
        let Some((ins, outs)) = self.func_type(f) else { return Ok(()) };
        let args = self.m.operands(op);
        if args.len() != ins.len() {
            return self.op_err(op, "incorrect number of operands for callee");
        }
        for (i, (v, t)) in args.iter().zip(ins).enumerate() {
            let vt = self.m.type_of(*v);
            if vt != *t {
                return self.op_err(
                    op,
                    format!(
                        "operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}",
                        self.ty(*t),
                        self.ty(vt)
                    ),
                );
            }
        }
        let res: Vec<ValueId> = self.m.results(op).collect();
        if res.len() != outs.len() {
            return self.op_err(op, "incorrect number of results for callee");
        }
        for (i, (v, t)) in res.iter().zip(outs).enumerate() {
            if self.m.type_of(*v) != *t {
                return self.op_err(op, format!("result type mismatch at index {i}"));
            }
        }
        Ok(())
    }

    // ---- per-op checks ---------------------------------------------------

    fn elem_kind(&self, t: TypeId) -> &'m TypeKind {
        let k = self.m.ctx.type_kind(t);
        match k {
            TypeKind::Vector { elem, .. } | TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => {
                self.m.ctx.type_kind(*elem)
            }
            _ => k,
        }
    }

    fn is_signless_int_like(&self, t: TypeId) -> bool {
        matches!(self.elem_kind(t), TypeKind::Integer { signedness: Signedness::Signless, .. } | TypeKind::Index)
    }

    fn is_float_like(&self, t: TypeId) -> bool {
        matches!(self.elem_kind(t), TypeKind::Float(_))
    }

    fn expect_counts(&self, op: OpId, operands: usize, results: usize) -> VResult {
        let n = self.m.operands(op).len();
        if n != operands {
            return self.op_err(op, format!("expected {operands} operands, but found {n}"));
        }
        let r = self.m.op(op).results.len as usize;
        if r != results {
            return self.op_err(op, format!("requires {results} result{}", if results == 1 { "" } else { "s" }));
        }
        Ok(())
    }

    /// Types of all operands and results of `op`.
    fn all_types(&self, op: OpId) -> Vec<TypeId> {
        let mut v: Vec<TypeId> = self.m.operands(op).iter().map(|x| self.m.type_of(*x)).collect();
        v.extend(self.m.results(op).map(|x| self.m.type_of(x)));
        v
    }

    fn check_elem(&self, op: OpId, pred: impl Fn(&Self, TypeId) -> bool, what: &str) -> VResult {
        for (i, v) in self.m.operands(op).iter().enumerate() {
            let t = self.m.type_of(*v);
            if !pred(self, t) {
                return self.op_err(op, format!("operand #{i} must be {what}, but got '{}'", self.ty(t)));
            }
        }
        for (i, v) in self.m.results(op).enumerate() {
            let t = self.m.type_of(v);
            if !pred(self, t) {
                return self.op_err(op, format!("result #{i} must be {what}, but got '{}'", self.ty(t)));
            }
        }
        Ok(())
    }

    /// `affine.parallel`: one reduction per result, each of a kind that
    /// fits the result type (mlir-opt's isResultTypeMatchAtomicRMWKind:
    /// float kinds want a float, integer kinds a signless integer, not
    /// `index`; `assign` fits anything; xori, maxnumf, minnumf fit nothing).
    fn affine_parallel(&self, op: OpId) -> VResult {
        let m = self.m;
        let kinds: Vec<i64> = match m.attr(op, "reductions").map(|a| m.ctx.attr_kind(a)) {
            Some(Attribute::Array(items)) => items
                .iter()
                .filter_map(|a| match m.ctx.attr_kind(*a) {
                    Attribute::Integer { value, .. } => value.to_i64(),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let results: Vec<TypeId> = m.results(op).map(|r| m.type_of(r)).collect();
        if kinds.len() != results.len() {
            return self.op_err(op, "a reduction must be specified for each output");
        }
        for (k, t) in kinds.iter().zip(&results) {
            let name = usize::try_from(*k).ok().and_then(|i| crate::ops::ATOMIC_KINDS.get(i)).copied();
            let ty = m.ctx.type_kind(*t);
            let fits = match name {
                Some("addf" | "mulf" | "maximumf" | "minimumf") => matches!(ty, TypeKind::Float(_)),
                Some("addi" | "muli" | "maxs" | "maxu" | "mins" | "minu" | "andi" | "ori") => {
                    matches!(ty, TypeKind::Integer { .. })
                }
                Some("assign") => true,
                _ => false,
            };
            if !fits {
                return self.op_err(op, "result type cannot match reduction attribute");
            }
        }
        Ok(())
    }

    /// True for the scalar type `i1` (signless).
    fn is_scalar_i1(&self, t: TypeId) -> bool {
        self.m.ctx.type_kind(t).is_signless_int(1)
    }

    /// True for the scalar type `i8` (signless).
    fn is_scalar_i8(&self, t: TypeId) -> bool {
        self.m.ctx.type_kind(t).is_signless_int(8)
    }

    /// The single result of `op` must be `i1`.
    fn i1_result(&self, op: OpId) -> VResult {
        match self.m.results(op).next() {
            Some(r) if self.is_scalar_i1(self.m.type_of(r)) => Ok(()),
            _ => self.op_err(op, "result #0 must be 1-bit signless integer"),
        }
    }

    fn same_types(&self, op: OpId) -> VResult {
        let ts = self.all_types(op);
        if ts.windows(2).any(|w| w[0] != w[1]) {
            return self.op_err(op, "requires the same type for all operands and results");
        }
        Ok(())
    }

    fn int_width(&self, t: TypeId) -> Option<u32> {
        match self.elem_kind(t) {
            TypeKind::Integer { width, .. } => Some(*width),
            _ => None,
        }
    }

    fn float_width(&self, t: TypeId) -> Option<u32> {
        match self.elem_kind(t) {
            TypeKind::Float(f) => Some(f.bit_width()),
            _ => None,
        }
    }

    fn shape_of(&self, t: TypeId) -> Option<&'m [i64]> {
        self.m.ctx.type_kind(t).shape()
    }

    fn check_cast(&self, op: OpId, kind: OpKind) -> VResult {
        self.expect_counts(op, 1, 1)?;
        let a = self.m.type_of(self.m.operands(op)[0]);
        let b = self.m.type_of(self.m.result(op, 0));
        // Casts apply elementwise: both scalars, or containers of one shape.
        let container = |t: TypeId| match self.m.ctx.type_kind(t) {
            TypeKind::Vector { .. } => 1,
            TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. } => 2,
            _ => 0,
        };
        let same_shape = self.shape_of(a) == self.shape_of(b) && container(a) == container(b);
        let idx = |t: TypeId| matches!(self.elem_kind(t), TypeKind::Index);
        let ok = same_shape
            && match kind {
                OpKind::ArithExtsi | OpKind::ArithExtui => {
                    matches!((self.int_width(a), self.int_width(b)), (Some(x), Some(y)) if y > x)
                }
                OpKind::ArithTrunci => matches!((self.int_width(a), self.int_width(b)), (Some(x), Some(y)) if y < x),
                OpKind::ArithExtf | OpKind::ArithScalingExtf => {
                    matches!((self.float_width(a), self.float_width(b)), (Some(x), Some(y)) if y > x)
                }
                OpKind::ArithTruncf | OpKind::ArithScalingTruncf => {
                    matches!((self.float_width(a), self.float_width(b)), (Some(x), Some(y)) if y < x)
                }
                OpKind::ArithIndexCast | OpKind::ArithIndexCastui | OpKind::IndexCasts | OpKind::IndexCastu => {
                    (idx(a) && self.int_width(b).is_some()) || (idx(b) && self.int_width(a).is_some())
                }
                OpKind::ArithSitofp | OpKind::ArithUitofp => {
                    self.int_width(a).is_some() && self.float_width(b).is_some()
                }
                OpKind::ArithFptosi | OpKind::ArithFptoui => {
                    self.float_width(a).is_some() && self.int_width(b).is_some()
                }
                OpKind::ArithBitcast => {
                    let w = |t| self.int_width(t).or(self.float_width(t)).or(if idx(t) { Some(64) } else { None });
                    matches!((w(a), w(b)), (Some(x), Some(y)) if x == y) && !idx(a) && !idx(b)
                }
                _ => true,
            };
        if !ok {
            return self.op_err(
                op,
                format!("operand type '{}' and result type '{}' are cast incompatible", self.ty(a), self.ty(b)),
            );
        }
        Ok(())
    }

    /// True when an enclosing op frees `alloca`s when its region exits.
    fn has_allocation_scope(&self, op: OpId) -> bool {
        let mut cur = self.m.parent_op(op);
        while let Some(p) = cur {
            use OpKind::*;
            if matches!(self.kind(p), FuncFunc | MemrefAllocaScope | ScfParallel | ScfForall) {
                return true;
            }
            cur = self.m.parent_op(p);
        }
        false
    }

    /// The two `operandSegmentSizes` entries of alloc-like ops.
    fn segment_pair(&self, op: OpId) -> (usize, usize) {
        let n = self.m.operands(op).len();
        let Some(a) = self.m.attr(op, "operandSegmentSizes") else { return (n, 0) };
        match self.m.ctx.attr_kind(a) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } if v.len() == 2 => {
                (v[0].to_i64().unwrap_or(0) as usize, v[1].to_i64().unwrap_or(0) as usize)
            }
            _ => (n, 0),
        }
    }

    /// `memref.cast` compatibility: same element type and rank (or one side
    /// unranked), static sizes equal where both are static.
    fn memref_cast_compatible(&self, a: TypeId, b: TypeId) -> bool {
        let k = |t| self.m.ctx.type_kind(t);
        match (k(a), k(b)) {
            (TypeKind::MemRef { shape: s1, elem: e1, .. }, TypeKind::MemRef { shape: s2, elem: e2, .. }) => {
                e1 == e2
                    && s1.len() == s2.len()
                    && s1
                        .iter()
                        .zip(s2)
                        .all(|(x, y)| *x == *y || *x == crate::types::DYNAMIC || *y == crate::types::DYNAMIC)
            }
            (TypeKind::MemRef { elem: e1, .. }, TypeKind::UnrankedMemRef { elem: e2, .. })
            | (TypeKind::UnrankedMemRef { elem: e1, .. }, TypeKind::MemRef { elem: e2, .. }) => e1 == e2,
            _ => false,
        }
    }

    fn parent_func(&self, op: OpId) -> Option<OpId> {
        self.m.parent_op(op).filter(|p| self.kind(*p) == OpKind::FuncFunc)
    }

    fn yield_types(&self, region: RegionId) -> Option<Vec<TypeId>> {
        let b = *self.m.region(region).blocks.last()?;
        let t = self.m.terminator(b)?;
        Some(self.m.operands(t).iter().map(|v| self.m.type_of(*v)).collect())
    }

    /// The affine map attribute `name` of `op`.
    fn affine_map(&self, op: OpId, name: &str) -> Option<&'m crate::affine::AffineMap> {
        match self.m.ctx.attr_kind(self.m.attr(op, name)?) {
            Attribute::AffineMap(map) => Some(map),
            _ => None,
        }
    }

    fn check_op(&self, op: OpId, kind: OpKind) -> VResult {
        use OpKind::*;
        let m = self.m;
        match kind {
            LlvmAddressof | LlvmCall | LlvmConstant | LlvmFunc | LlvmGetelementptr | LlvmGlobal | LlvmLoad
            | LlvmReturn | LlvmStore | LlvmZero => self.check_llvm(op, kind),
            FuncFunc => {
                let Some((ins, _)) = self.func_type(op) else {
                    return self.op_err(op, "requires attribute 'function_type'");
                };
                let r = m.regions(op).first().copied();
                let body = r.and_then(|r| m.region(r).blocks.first().copied());
                match body {
                    Some(b) => {
                        let args: Vec<ValueId> = m.args(b).collect();
                        if args.len() != ins.len() {
                            return self.op_err(
                                op,
                                format!("entry block must have {} arguments to match function signature", ins.len()),
                            );
                        }
                        for (i, (a, t)) in args.iter().zip(ins).enumerate() {
                            let at = m.type_of(*a);
                            if at != *t {
                                return self.op_err(op, format!("type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')", self.ty(at), self.ty(*t)));
                            }
                        }
                    }
                    None => {
                        let vis = m.attr(op, "sym_visibility").map(|a| m.ctx.attr_kind(a));
                        let private = matches!(vis, Some(Attribute::String { value, .. }) if &**value != b"public");
                        if !private {
                            return self.op_err(op, "symbol declaration cannot have public visibility");
                        }
                    }
                }
                Ok(())
            }
            FuncReturn => {
                let Some(f) = self.parent_func(op) else { return self.op_err(op, "expects parent op 'func.func'") };
                let Some((_, outs)) = self.func_type(f) else { return Ok(()) };
                let ops = m.operands(op);
                let fname = self.sym_name(f).map(|s| String::from_utf8_lossy(s).into_owned()).unwrap_or_default();
                if ops.len() != outs.len() {
                    return self.op_err(
                        op,
                        format!("has {} operands, but enclosing function (@{fname}) returns {}", ops.len(), outs.len()),
                    );
                }
                for (i, (v, t)) in ops.iter().zip(outs).enumerate() {
                    let vt = m.type_of(*v);
                    if vt != *t {
                        return self.err(m.op(op).span, format!("type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{fname}", self.ty(vt), self.ty(*t)));
                    }
                }
                Ok(())
            }
            ArithAddi | ArithSubi | ArithMuli | ArithDivsi | ArithDivui | ArithCeildivsi | ArithCeildivui
            | ArithFloordivsi | ArithRemsi | ArithRemui | ArithAndi | ArithOri | ArithXori | ArithShli | ArithShrsi
            | ArithShrui | ArithMaxsi | ArithMaxui | ArithMinsi | ArithMinui => {
                self.expect_counts(op, 2, 1)?;
                self.check_elem(op, Self::is_signless_int_like, "signless-integer-like")?;
                self.same_types(op)
            }
            ArithAddf | ArithSubf | ArithMulf | ArithDivf | ArithRemf | ArithMaximumf | ArithMinimumf
            | ArithMaxnumf | ArithMinnumf => {
                self.expect_counts(op, 2, 1)?;
                self.check_elem(op, Self::is_float_like, "floating-point-like")?;
                self.same_types(op)
            }
            ArithNegf => {
                self.expect_counts(op, 1, 1)?;
                self.check_elem(op, Self::is_float_like, "floating-point-like")?;
                self.same_types(op)
            }
            ArithAdduiExtended | ArithMulsiExtended | ArithMuluiExtended => {
                let n = m.operands(op).len();
                if n != 2 {
                    return self.op_err(op, format!("expected 2 operands, but found {n}"));
                }
                let a = m.type_of(m.operands(op)[0]);
                if !self.is_signless_int_like(a) {
                    return self
                        .op_err(op, format!("operand #0 must be signless-integer-like, but got '{}'", self.ty(a)));
                }
                Ok(())
            }
            ArithCmpi | ArithCmpf => {
                self.expect_counts(op, 2, 1)?;
                let (a, b) = (m.type_of(m.operands(op)[0]), m.type_of(m.operands(op)[1]));
                if a != b {
                    return self.op_err(op, "failed to verify that all of {lhs, rhs} have same type");
                }
                let ok = if kind == ArithCmpi { self.is_signless_int_like(a) } else { self.is_float_like(a) };
                if !ok {
                    let what = if kind == ArithCmpi { "signless-integer-like" } else { "floating-point-like" };
                    return self.op_err(op, format!("operand #0 must be {what}, but got '{}'", self.ty(a)));
                }
                Ok(())
            }
            ArithSelect => {
                self.expect_counts(op, 3, 1)?;
                let ts = self.all_types(op);
                if ts[1] != ts[2] || ts[2] != ts[3] {
                    return self
                        .op_err(op, "failed to verify that all of {true_value, false_value, result} have same type");
                }
                Ok(())
            }
            ArithConstant => {
                let Some(v) = m.attr(op, "value") else { return self.op_err(op, "requires attribute 'value'") };
                let vt = match m.ctx.attr_kind(v) {
                    Attribute::Integer { ty, .. } | Attribute::Float { ty, .. } | Attribute::Dense { ty, .. } => {
                        Some(*ty)
                    }
                    Attribute::DenseResource { ty, .. } | Attribute::Sparse { ty, .. } => Some(*ty),
                    _ => None,
                };
                let rt = m.results(op).next().map(|r| m.type_of(r));
                if vt.is_some() && vt != rt {
                    return self.op_err(op, "failed to verify that all of {value, result} have same type");
                }
                Ok(())
            }
            ArithExtsi | ArithExtui | ArithTrunci | ArithIndexCast | ArithIndexCastui | ArithBitcast | ArithSitofp
            | ArithUitofp | ArithFptosi | ArithFptoui | ArithExtf | ArithTruncf | IndexCasts | IndexCastu => {
                self.check_cast(op, kind)
            }
            ScfFor => {
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
            ScfIf => {
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
            ScfYield => {
                let ok = matches!(
                    m.parent_op(op).map(|p| self.kind(p)),
                    Some(ScfExecuteRegion | ScfFor | ScfIf | ScfIndexSwitch | ScfWhile)
                );
                if !ok {
                    return self.op_err(op, "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'");
                }
                Ok(())
            }
            ScfCondition => {
                if m.parent_op(op).map(|p| self.kind(p)) != Some(ScfWhile) {
                    return self.op_err(op, "expects parent op 'scf.while'");
                }
                Ok(())
            }
            MathAbsi | MathCtlz | MathCttz | MathCtpop | MathIpowi => {
                self.check_elem(op, Self::is_signless_int_like, "signless-integer-like")?;
                self.same_types(op)
            }
            MathAbsf | MathCeil | MathFloor | MathRound | MathRoundeven | MathTrunc | MathSqrt | MathRsqrt
            | MathCbrt | MathExp | MathExp2 | MathExpm1 | MathLog | MathLog2 | MathLog10 | MathLog1p | MathSin
            | MathCos | MathTan | MathAsin | MathAcos | MathAtan | MathSinh | MathCosh | MathTanh | MathAsinh
            | MathAcosh | MathAtanh | MathErf | MathErfc | MathAtan2 | MathCopysign | MathPowf | MathFma
            | MathClampf | MathSincos => {
                self.check_elem(op, Self::is_float_like, "floating-point-like")?;
                self.same_types(op)
            }
            MathFpowi | MathIsnan | MathIsinf | MathIsfinite | MathIsnormal => Ok(()),
            ComplexAdd | ComplexSub | ComplexMul | ComplexDiv | ComplexPow | ComplexAtan2 | ComplexNeg
            | ComplexConj | ComplexExp | ComplexExpm1 | ComplexLog | ComplexLog1p | ComplexSqrt | ComplexRsqrt
            | ComplexSin | ComplexCos | ComplexTan | ComplexTanh | ComplexSign => {
                let is_complex = |v: &Self, t: TypeId| matches!(v.m.ctx.type_kind(t), TypeKind::Complex(_));
                self.check_elem(op, is_complex, "complex type with floating-point elements")?;
                self.same_types(op)
            }
            ComplexPowi => self.complex_powi(op),
            ComplexAbs | ComplexAngle | ComplexRe | ComplexIm => self.complex_part(op),
            ComplexCreate => self.complex_create(op),
            ComplexConstant => self.complex_constant(op),
            ComplexEq | ComplexNeq => self.complex_compare(op),
            ComplexBitcast => self.complex_bitcast(op),
            MemrefAlloc | MemrefAlloca => {
                if kind == MemrefAlloca && !self.has_allocation_scope(op) {
                    return self.op_err(op, "requires an ancestor op with AutomaticAllocationScope trait");
                }
                let Some(r) = m.results(op).next() else { return self.op_err(op, "requires 1 result") };
                let t = m.type_of(r);
                let TypeKind::MemRef { shape, layout, .. } = m.ctx.type_kind(t) else {
                    return self.op_err(op, format!("result #0 must be memref, but got '{}'", self.ty(t)));
                };
                let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
                let (ndyn, nsym) = self.segment_pair(op);
                if ndyn != want {
                    return self.op_err(op, format!("incorrect number of dynamic sizes, has {ndyn}, expected {want}"));
                }
                let syms = layout.map(|l| match m.ctx.attr_kind(l) {
                    Attribute::AffineMap(mp) => mp.num_syms as usize,
                    _ => 0,
                });
                if nsym != syms.unwrap_or(0) {
                    return self.op_err(op, "symbol operand count does not equal memref symbol count");
                }
                Ok(())
            }
            MemrefLoad => {
                let ops = m.operands(op);
                let Some(&mv) = ops.first() else { return self.op_err(op, "expected at least 1 operand") };
                if let Some(shape) = self.shape_of(m.type_of(mv)) {
                    if ops.len() - 1 != shape.len() {
                        return self.op_err(
                            op,
                            format!(
                                "incorrect number of indices for load, expected {} but got {}",
                                shape.len(),
                                ops.len() - 1
                            ),
                        );
                    }
                }
                Ok(())
            }
            MemrefStore => {
                let ops = m.operands(op);
                if ops.len() < 2 {
                    return self.op_err(op, "expected at least 2 operands");
                }
                let mt = m.type_of(ops[1]);
                if m.ctx.type_kind(mt).elem() != Some(m.type_of(ops[0])) {
                    return self.op_err(op, "failed to verify that type of 'value' matches element type of 'memref'");
                }
                if let Some(shape) = self.shape_of(mt) {
                    if ops.len() - 2 != shape.len() {
                        return self.op_err(op, "store index operand count not equal to memref rank");
                    }
                }
                Ok(())
            }
            MemrefCast => {
                let (Some(&a), Some(b)) = (m.operands(op).first(), m.results(op).next()) else { return Ok(()) };
                let (a, b) = (m.type_of(a), m.type_of(b));
                if !self.memref_cast_compatible(a, b) {
                    return self.op_err(
                        op,
                        format!("operand type '{}' and result type '{}' are cast incompatible", self.ty(a), self.ty(b)),
                    );
                }
                Ok(())
            }
            AffineLoad | AffineVectorLoad | AffineStore | AffineVectorStore | AffinePrefetch => {
                let store = matches!(kind, AffineStore | AffineVectorStore);
                let ops = m.operands(op);
                let base = usize::from(store);
                let Some(&mv) = ops.get(base) else { return self.op_err(op, "expected a memref operand") };
                let mt = m.type_of(mv);
                if let (Some(map), Some(shape)) = (self.affine_map(op, "map"), self.shape_of(mt)) {
                    if map.results.len() != shape.len() {
                        return self.op_err(op, "affine map num results must equal memref rank");
                    }
                    if (map.num_dims + map.num_syms) as usize != ops.len() - base - 1 {
                        return self.op_err(op, "expects as many subscripts as affine map inputs");
                    }
                }
                let elem = m.ctx.type_kind(mt).elem();
                match kind {
                    AffineLoad if m.results(op).next().map(|r| m.type_of(r)) != elem => {
                        self.op_err(op, "result type must match element type of memref")
                    }
                    AffineStore if Some(m.type_of(ops[0])) != elem => {
                        self.op_err(op, "value to store must have the same type as memref element type")
                    }
                    _ => Ok(()),
                }
            }
            AffineApply | AffineMin | AffineMax => {
                let Some(map) = self.affine_map(op, "map") else { return self.op_err(op, "requires attribute 'map'") };
                if m.operands(op).len() != (map.num_dims + map.num_syms) as usize {
                    return self.op_err(op, "operand count and affine map dimension and symbol count must match");
                }
                if map.results.len() != 1 && kind == AffineApply {
                    return self.op_err(op, "mapping must produce one value");
                }
                if map.results.is_empty() {
                    return self.op_err(op, "affine map expect at least one result");
                }
                Ok(())
            }
            AffineYield => {
                let Some(p) = m.parent_op(op) else { return Ok(()) };
                if !matches!(self.kind(p), AffineFor | AffineIf | AffineParallel) {
                    return self.op_err(op, "only terminates affine.if/for/parallel regions");
                }
                let res: Vec<TypeId> = m.results(p).map(|r| m.type_of(r)).collect();
                let ops = m.operands(op);
                if res.len() != ops.len() {
                    return self.op_err(op, "parent of yield must have same number of results as the yield operands");
                }
                if res.iter().zip(ops).any(|(t, v)| *t != m.type_of(*v)) {
                    return self.op_err(op, "types mismatch between yield op and its parent");
                }
                Ok(())
            }
            TensorExtract | TensorInsert => {
                let ops = m.operands(op);
                let base = usize::from(kind == TensorInsert);
                let Some(&tv) = ops.get(base) else { return self.op_err(op, "expected a tensor operand") };
                if let Some(shape) = self.shape_of(m.type_of(tv)) {
                    if shape.len() != ops.len() - base - 1 {
                        let what = if kind == TensorInsert {
                            "incorrect number of indices"
                        } else {
                            "incorrect number of indices for extract_element"
                        };
                        return self.op_err(op, what);
                    }
                }
                Ok(())
            }
            TensorEmpty => {
                let Some(r) = m.results(op).next() else { return self.op_err(op, "requires 1 result") };
                if let Some(shape) = self.shape_of(m.type_of(r)) {
                    let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
                    let n = m.operands(op).len();
                    if n != want {
                        return self.op_err(op, format!("incorrect number of dynamic sizes, has {n}, expected {want}"));
                    }
                }
                Ok(())
            }
            TensorFromElements => {
                let Some(r) = m.results(op).next() else { return self.op_err(op, "requires 1 result") };
                if let Some(shape) = self.shape_of(m.type_of(r)) {
                    let want = crate::types::num_elements(shape);
                    let n = m.operands(op).len();
                    if Some(n as i64) != want {
                        return self.op_err(
                            op,
                            format!(
                                "number of operands and types do not match: got {n} operands and {} types",
                                want.unwrap_or(-1)
                            ),
                        );
                    }
                }
                Ok(())
            }
            TensorYield => {
                if !matches!(m.parent_op(op).map(|p| self.kind(p)), Some(TensorGenerate | TensorPad)) {
                    return self.op_err(op, "expects parent op to be one of 'tensor.generate, tensor.pad'");
                }
                Ok(())
            }
            TensorBitcast => self.tensor_cast(op, true),
            TensorCast => self.tensor_cast(op, false),
            TensorCollapseShape => self.tensor_reshape_like(op, false),
            TensorConcat => self.tensor_concat(op),
            TensorDim | TensorRank | MemrefDim | MemrefRank => self.index_result(op),
            TensorExpandShape => self.tensor_reshape_like(op, true),
            TensorExtractSlice => self.tensor_extract_slice(op),
            TensorGather => self.tensor_gather_scatter(op, false),
            TensorGenerate => self.tensor_generate(op),
            TensorInsertSlice | TensorParallelInsertSlice => self.tensor_insert_slice(op),
            TensorPad => self.tensor_pad(op),
            TensorReshape => self.reshape(op, "tensor"),
            TensorScatter => self.tensor_gather_scatter(op, true),
            TensorSplat => Ok(()),
            BufferizationAllocTensor => self.alloc_tensor(op),
            BufferizationMaterializeInDestination => self.materialize_in_destination(op),
            BufferizationToBuffer | BufferizationToMemref | BufferizationToTensor => self.tensor_buffer_match(op),
            BufferizationClone | BufferizationDealloc | BufferizationDeallocTensor => Ok(()),
            VectorBitcast => self.vector_bitcast(op),
            VectorBroadcast => self.vector_broadcast(op),
            VectorCompressstore => self.vector_masked_memory(op, true, false),
            VectorConstantMask => self.vector_constant_mask(op),
            VectorContract => self.vector_contract(op),
            VectorCreateMask => self.vector_create_mask(op),
            VectorDeinterleave => self.vector_interleave(op, false),
            VectorExpandload => self.vector_masked_memory(op, false, false),
            VectorExtract => self.vector_extract(op),
            VectorExtractelement => self.vector_element_access(op, false),
            VectorInsertelement => self.vector_element_access(op, true),
            VectorSplat => self.vector_splat(op),
            VectorExtractStridedSlice => self.vector_extract_strided_slice(op),
            VectorFma => self.vector_fma(op),
            VectorFromElements => self.vector_elements(op, true),
            VectorGather => self.vector_masked_memory(op, false, true),
            VectorInsert => self.vector_insert(op),
            VectorInsertStridedSlice => self.vector_insert_strided_slice(op),
            VectorInterleave => self.vector_interleave(op, true),
            VectorLoad => self.vector_load_store(op, false),
            VectorMaskedload => self.vector_masked_memory(op, false, false),
            VectorMaskedstore => self.vector_masked_memory(op, true, false),
            VectorMultiReduction => self.vector_multi_reduction(op),
            VectorOuterproduct => self.vector_outerproduct(op),
            VectorReduction => self.vector_reduction(op),
            VectorScatter => self.vector_masked_memory(op, true, true),
            VectorShapeCast => self.vector_shape_cast(op),
            VectorShuffle => self.vector_shuffle(op),
            VectorStep => self.vector_step(op),
            VectorStore => self.vector_load_store(op, true),
            VectorToElements => self.vector_elements(op, false),
            VectorTransferRead => self.vector_transfer(op, true),
            VectorTransferWrite => self.vector_transfer(op, false),
            VectorTranspose => self.vector_transpose(op),
            VectorMask
            | VectorPrint
            | VectorScalableExtract
            | VectorScalableInsert
            | VectorScan
            | VectorTypeCast
            | VectorVscale
            | VectorYield => Ok(()),
            AffineParallel => self.affine_parallel(op),
            AffineFor
            | AffineIf
            | AffineDmaStart
            | AffineDmaWait
            | AffineDelinearizeIndex
            | AffineLinearizeIndex
            | UbUnreachable => Ok(()),
            MemrefCollapseShape => self.memref_reshape_like(op, false),
            MemrefCopy => self.memref_copy(op),
            MemrefExpandShape => self.memref_reshape_like(op, true),
            MemrefReinterpretCast => self.memref_reinterpret_cast(op),
            MemrefReshape => self.reshape(op, "memref"),
            MemrefSubview => self.memref_subview(op),
            MemrefTranspose => self.memref_transpose(op),
            MemrefAllocaScope
            | MemrefAllocaScopeReturn
            | MemrefAssumeAlignment
            | MemrefAtomicRmw
            | MemrefAtomicYield
            | MemrefDealloc
            | MemrefDmaStart
            | MemrefDmaWait
            | MemrefExtractAlignedPointerAsIndex
            | MemrefExtractStridedMetadata
            | MemrefGenericAtomicRmw
            | MemrefGetGlobal
            | MemrefGlobal
            | MemrefMemorySpaceCast
            | MemrefPrefetch
            | MemrefRealloc
            | MemrefBufferCast
            | MemrefTensorLoad
            | MemrefTensorStore => Ok(()),
            MemrefView => self.memref_view(op),
            CombAdd | CombAnd | CombMul | CombNand | CombNor | CombOr | CombXnor | CombXor => {
                if m.operands(op).is_empty() {
                    return self.op_err(op, "requires at least one operand");
                }
                self.check_elem(op, |v, t| v.m.ctx.type_kind(t).is_integer(), "signless integer")?;
                self.same_types(op)
            }
            CombInv => self.same_types(op),
            CombConcat => {
                let sum: u64 = m.operands(op).iter().filter_map(|v| self.int_width(m.type_of(*v))).map(u64::from).sum();
                let rw = m.results(op).next().and_then(|r| self.int_width(m.type_of(r))).unwrap_or(0);
                if m.operands(op).is_empty() || sum != rw as u64 {
                    return self.op_err(op, format!("result width {rw} is not the sum of the operand widths {sum}"));
                }
                Ok(())
            }
            CombExtract => {
                let iw = m.operands(op).first().and_then(|v| self.int_width(m.type_of(*v))).unwrap_or(0) as i64;
                let rw = m.results(op).next().and_then(|r| self.int_width(m.type_of(r))).unwrap_or(0) as i64;
                let low = m.attr(op, "lowBit").and_then(|a| match m.ctx.attr_kind(a) {
                    Attribute::Integer { value, .. } => value.to_i64(),
                    _ => None,
                });
                let Some(low) = low else { return self.op_err(op, "requires attribute 'lowBit'") };
                if low < 0 || low + rw > iw {
                    return self
                        .op_err(op, format!("from bit too large for input (bits {low}..{} of an i{iw})", low + rw));
                }
                Ok(())
            }
            CombReplicate => {
                let iw = m.operands(op).first().and_then(|v| self.int_width(m.type_of(*v))).unwrap_or(0);
                let rw = m.results(op).next().and_then(|r| self.int_width(m.type_of(r))).unwrap_or(0);
                if iw == 0 || !rw.is_multiple_of(iw) {
                    return self.op_err(op, format!("result width {rw} must be a multiple of the input width {iw}"));
                }
                Ok(())
            }
            CombTruthTable => {
                let n = m.operands(op).len();
                let bits = m.attr(op, "lookupTable").and_then(|a| match m.ctx.attr_kind(a) {
                    Attribute::Integer { ty, .. } => self.int_width(*ty),
                    _ => None,
                });
                let want = 1u64.checked_shl(n as u32).unwrap_or(u64::MAX);
                if bits.map(u64::from) != Some(want) {
                    return self.op_err(op, format!("lookup table must have 2^{n} = {want} bits"));
                }
                Ok(())
            }
            CombIcmp => {
                let ts: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
                if ts.len() != 2 || ts[0] != ts[1] {
                    return self.op_err(op, "requires all operands to have the same type");
                }
                self.i1_result(op)
            }
            CombParity => self.i1_result(op),
            CombMux => {
                let ts = self.all_types(op);
                if ts.len() != 4 || !self.is_scalar_i1(ts[0]) {
                    return self.op_err(op, "operand #0 must be 1-bit signless integer");
                }
                if ts[1] != ts[2] || ts[1] != ts[3] {
                    return self
                        .op_err(op, "failed to verify that all of {trueValue, falseValue, result} have same type");
                }
                Ok(())
            }
            CombLut => {
                self.check_elem(op, |v, t| v.is_scalar_i8(t), "8-bit signless integer")?;
                let count = |name: &str| match m.attr(op, name).map(|a| m.ctx.attr_kind(a)) {
                    Some(Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), elem }) => {
                        (self.int_width(*elem) == Some(8)).then_some(v.len())
                    }
                    _ => None,
                };
                let (Some(nc), Some(_)) = (count("coefficients"), count("lookupTable")) else {
                    return self.op_err(op, "requires i8 dense array attributes 'coefficients' and 'lookupTable'");
                };
                let n = m.operands(op).len();
                if nc != n {
                    return self.op_err(op, format!("has {nc} coefficients for {n} inputs"));
                }
                Ok(())
            }
            BuiltinModule
            | UnrealizedConversionCast
            | FuncCall
            | FuncCallIndirect
            | FuncConstant
            | CfBr
            | CfCondBr
            | CfSwitch
            | CfAssert
            | ArithScalingExtf
            | ArithScalingTruncf
            | IndexConstant
            | IndexBoolConstant
            | IndexAdd
            | IndexSub
            | IndexMul
            | IndexDivs
            | IndexDivu
            | IndexCeildivs
            | IndexCeildivu
            | IndexFloordivs
            | IndexRems
            | IndexRemu
            | IndexMaxs
            | IndexMaxu
            | IndexMins
            | IndexMinu
            | IndexShl
            | IndexShrs
            | IndexShru
            | IndexAnd
            | IndexOr
            | IndexXor
            | IndexCmp
            | IndexSizeof
            | UbPoison
            | ScfWhile
            | ScfExecuteRegion
            | ScfIndexSwitch
            | ScfParallel
            | ScfReduce
            | ScfReduceReturn
            | ScfForall
            | ScfInParallel
            | Unknown => Ok(()),
        }
    }
}

// ---- shaped-type helpers ---------------------------------------------------

/// A vector type's parts: shape, scalable flags, element type.
type VecParts<'m> = (&'m [i64], &'m [bool], TypeId);

/// True when combining kind `kind` (`add`, `maxsi`, ...) applies to `elem`.
fn kind_supports(kind: &str, elem: &TypeKind) -> bool {
    let int = matches!(elem, TypeKind::Integer { .. } | TypeKind::Index);
    let float = matches!(elem, TypeKind::Float(_));
    match kind {
        "add" | "mul" => int || float,
        "minui" | "minsi" | "maxui" | "maxsi" | "and" | "or" | "xor" => int,
        "minnumf" | "maxnumf" | "minimumf" | "maximumf" => float,
        _ => false,
    }
}

impl<'m> Verifier<'m> {
    /// The type of operand `i`, if there is one.
    fn opnd(&self, op: OpId, i: usize) -> Option<TypeId> {
        self.m.operands(op).get(i).map(|v| self.m.type_of(*v))
    }

    /// The type of result `i`, if there is one.
    fn res(&self, op: OpId, i: usize) -> Option<TypeId> {
        self.m.results(op).nth(i).map(|v| self.m.type_of(v))
    }

    /// Shape, scalable flags and element type of a vector type.
    fn vector(&self, t: TypeId) -> Option<VecParts<'m>> {
        match self.m.ctx.type_kind(t) {
            TypeKind::Vector { shape, scalable, elem } => Some((shape, scalable, *elem)),
            _ => None,
        }
    }

    /// An integer list attribute (`array<i64: ..>` or `[1, 2]`).
    fn ints(&self, op: OpId, name: &str) -> Option<Vec<i64>> {
        match self.m.ctx.attr_kind(self.m.attr(op, name)?) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => {
                v.iter().map(|x| x.to_i64()).collect()
            }
            Attribute::Array(items) => items
                .iter()
                .map(|a| match self.m.ctx.attr_kind(*a) {
                    Attribute::Integer { value, .. } => value.to_i64(),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    /// The body of a `#vector.<what><body>` attribute (`add` of `#vector.kind<add>`).
    fn vector_enum(&self, a: crate::attrs::AttrId, what: &str) -> Option<&'m str> {
        match self.m.ctx.attr_kind(a) {
            Attribute::Dialect { body, .. } => body.strip_prefix(what)?.strip_prefix('<')?.strip_suffix('>'),
            _ => None,
        }
    }

    /// The combining kind of a vector op (`kind = #vector.kind<add>`).
    fn combining_kind(&self, op: OpId) -> Option<&'m str> {
        self.vector_enum(self.m.attr(op, "kind")?, ".kind")
    }

    /// Storage width in bits, as the default data layout gives it.
    fn bits(&self, t: TypeId) -> Option<u64> {
        match self.m.ctx.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(u64::from(*width)),
            TypeKind::Float(f) => Some(u64::from(f.bit_width())),
            TypeKind::Index => Some(64),
            _ => None,
        }
    }

    /// `vector<..xT>` as text, for types that are derived rather than interned.
    fn vec_text(&self, shape: &[i64], scalable: &[bool], elem: TypeId) -> String {
        let mut s = String::from("vector<");
        for (i, d) in shape.iter().enumerate() {
            if scalable.get(i).copied().unwrap_or(false) {
                s.push_str(&format!("[{d}]x"));
            } else {
                s.push_str(&format!("{d}x"));
            }
        }
        s.push_str(&self.ty(elem));
        s.push('>');
        s
    }

    /// True when `t` is the vector (or, for rank 0, the scalar) `shape x elem`.
    fn is_vec(&self, t: TypeId, shape: &[i64], scalable: &[bool], elem: TypeId) -> bool {
        match self.vector(t) {
            Some((s, c, e)) => s == shape && c == scalable && e == elem,
            None => false,
        }
    }

    /// The element type of a vector, or the type itself.
    fn scalar_of(&self, t: TypeId) -> TypeId {
        self.vector(t).map(|v| v.2).unwrap_or(t)
    }
}

// ---- vector ----------------------------------------------------------------

impl<'m> Verifier<'m> {
    fn vector_broadcast(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((dshape, _, delem)) = self.vector(d) else { return Ok(()) };
        if self.scalar_of(s) != delem {
            return self.op_err(op, "failed to verify that source operand and result have same element type");
        }
        let Some((sshape, _, _)) = self.vector(s) else { return Ok(()) };
        let Some(lead) = dshape.len().checked_sub(sshape.len()) else {
            return self.op_err(op, "source rank higher than destination rank");
        };
        for (sd, dd) in sshape.iter().zip(&dshape[lead..]) {
            if *sd != 1 && sd != dd {
                return self.op_err(op, format!("dimension mismatch ({sd} vs. {dd})"));
            }
        }
        Ok(())
    }

    /// Checks constant positions against `shape`; `what` names the vector.
    fn positions_in_range(&self, op: OpId, pos: &[i64], shape: &[i64], what: &str) -> VResult {
        for (i, (p, d)) in pos.iter().zip(shape).enumerate() {
            if *p != crate::types::DYNAMIC && *p != -1 && (*p < 0 || p >= d) {
                let poison = if what == "vector" { " or poison (-1)" } else { "" };
                return self.op_err(
                    op,
                    format!("expected position attribute #{} to be a non-negative integer smaller than the corresponding {what} dimension{poison}", i + 1),
                );
            }
        }
        Ok(())
    }

    fn vector_extract(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((shape, scal, elem)), Some(pos)) = (self.vector(s), self.ints(op, "static_position")) else {
            return Ok(());
        };
        if pos.len() > shape.len() {
            return self.op_err(op, "expected position attribute of rank no greater than vector rank");
        }
        self.positions_in_range(op, &pos, shape, "vector")?;
        let (rs, rc) = (&shape[pos.len()..], scal.get(pos.len()..).unwrap_or(&[]));
        let one_elem = crate::types::num_elements(rs) == Some(1);
        let ok = if rs.is_empty() { r == elem } else { self.is_vec(r, rs, rc, elem) || (one_elem && r == elem) };
        if !ok {
            let want = if rs.is_empty() { self.ty(elem) } else { self.vec_text(rs, rc, elem) };
            return self.op_err(
                op,
                format!("inferred type(s) '{want}' are incompatible with return type(s) of operation '{}'", self.ty(r)),
            );
        }
        Ok(())
    }

    /// `vector.extractelement`/`insertelement` (LLVM 21's rules): a 0-D
    /// vector takes no position, a 1-D vector one.
    fn vector_element_access(&self, op: OpId, insert: bool) -> VResult {
        let at = usize::from(insert);
        let (Some(v), Some(r)) = (self.opnd(op, at), self.res(op, 0)) else {
            return self.op_err(op, "expected a vector operand and a result");
        };
        let Some((shape, _, elem)) = self.vector(v) else { return self.op_err(op, "expected a vector operand") };
        let positions = self.m.operands(op).len() - at - 1;
        match (shape.len(), positions) {
            (0, 0) | (1, 1) => {}
            (0, _) => return self.op_err(op, "expected position to be empty with 0-D vector"),
            (1, _) => return self.op_err(op, "expected position for 1-D vector"),
            _ => return self.op_err(op, "unexpected >1 vector rank"),
        }
        if let Some(p) = self.opnd(op, at + 1) {
            if !matches!(self.m.ctx.type_kind(p), TypeKind::Index | TypeKind::Integer { .. }) {
                return self.op_err(op, "position must be of signless integer or index type");
            }
        }
        if insert {
            if self.opnd(op, 0) != Some(elem) || r != v {
                return self.op_err(op, "failed to verify that source operand type matches element type of result");
            }
        } else if r != elem {
            return self.op_err(op, "failed to verify that result type matches element type of vector operand");
        }
        Ok(())
    }

    /// `vector.splat` (removed in LLVM 22): a scalar broadcast to a vector.
    fn vector_splat(&self, op: OpId) -> VResult {
        let (Some(x), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else {
            return self.op_err(op, "expected one operand and one result");
        };
        match self.vector(r) {
            Some((_, _, elem)) if elem == x => Ok(()),
            _ => self.op_err(op, "failed to verify that operand type matches element type of result"),
        }
    }

    fn vector_insert(&self, op: OpId) -> VResult {
        let (Some(v), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (Some((dshape, _, delem)), Some(pos)) = (self.vector(d), self.ints(op, "static_position")) else {
            return Ok(());
        };
        if self.scalar_of(v) != delem {
            return self.op_err(op, "failed to verify that source operand and result have same element type");
        }
        if pos.len() > dshape.len() {
            return self.op_err(op, "expected position attribute of rank no greater than dest vector rank");
        }
        match self.vector(v) {
            Some((vs, _, _)) if vs.len().checked_add(pos.len()) != Some(dshape.len()) => {
                return self.op_err(op, "expected position attribute rank + source rank to match dest vector rank")
            }
            None if pos.len() != dshape.len() => {
                return self.op_err(op, "expected position attribute rank to match the dest vector rank")
            }
            _ => {}
        }
        self.positions_in_range(op, &pos, dshape, "dest vector")
    }

    /// `expected <name> attribute of rank no greater than vector rank`.
    fn attr_rank_le(&self, op: OpId, v: &[i64], shape: &[i64], name: &str) -> VResult {
        if v.len() > shape.len() {
            return self.op_err(op, format!("expected {name} attribute of rank no greater than vector rank"));
        }
        Ok(())
    }

    /// Each `v[i]` in `[min, shape[i] (+1 when closed))`.
    fn confined_to_shape(&self, op: OpId, v: &[i64], shape: &[i64], name: &str, closed: bool, min: i64) -> VResult {
        for (i, (x, d)) in v.iter().zip(shape).enumerate() {
            let max = if closed { d.saturating_add(1) } else { *d };
            if *x < min || *x >= max {
                return self.op_err(op, format!("expected {name} dimension {i} to be confined to [{min}, {max})"));
            }
        }
        Ok(())
    }

    /// Every stride is 1.
    fn unit_strides(&self, op: OpId, strides: &[i64]) -> VResult {
        if strides.iter().any(|s| *s != 1) {
            return self.op_err(op, "expected strides to be confined to [1, 2)");
        }
        Ok(())
    }

    /// `a[i] + b[i]` in `[1, shape[i] + 1)`.
    fn sum_confined(&self, op: OpId, a: &[i64], b: &[i64], shape: &[i64], names: (&str, &str)) -> VResult {
        for (i, ((x, y), d)) in a.iter().zip(b).zip(shape).enumerate() {
            let max = d.saturating_add(1);
            let sum = x.checked_add(*y);
            if !matches!(sum, Some(s) if s >= 1 && s < max) {
                return self.op_err(
                    op,
                    format!("expected sum({}, {}) dimension {i} to be confined to [1, {max})", names.0, names.1),
                );
            }
        }
        Ok(())
    }

    fn vector_extract_strided_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((shape, scal, elem)) = self.vector(s) else { return Ok(()) };
        let (Some(offs), Some(sizes), Some(strides)) =
            (self.ints(op, "offsets"), self.ints(op, "sizes"), self.ints(op, "strides"))
        else {
            return Ok(());
        };
        if offs.len() != sizes.len() || offs.len() != strides.len() {
            return self.op_err(op, "expected offsets, sizes and strides attributes of same size");
        }
        self.attr_rank_le(op, &offs, shape, "offsets")?;
        self.attr_rank_le(op, &sizes, shape, "sizes")?;
        self.attr_rank_le(op, &strides, shape, "strides")?;
        self.confined_to_shape(op, &offs, shape, "offsets", false, 0)?;
        self.confined_to_shape(op, &sizes, shape, "sizes", true, 1)?;
        self.unit_strides(op, &strides)?;
        self.sum_confined(op, &offs, &sizes, shape, ("offsets", "sizes"))?;
        let mut want = sizes.clone();
        want.extend_from_slice(&shape[sizes.len()..]);
        if !self.is_vec(r, &want, scal, elem) {
            return self.op_err(op, format!("expected result type to be '{}'", self.vec_text(&want, scal, elem)));
        }
        Ok(())
    }

    fn vector_insert_strided_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (Some((sshape, _, _)), Some((dshape, _, _))) = (self.vector(s), self.vector(d)) else { return Ok(()) };
        let (Some(offs), Some(strides)) = (self.ints(op, "offsets"), self.ints(op, "strides")) else { return Ok(()) };
        if offs.len() != dshape.len() {
            return self.op_err(op, "expected offsets of same size as destination vector rank");
        }
        if strides.len() != sshape.len() {
            return self.op_err(op, "expected strides of same size as source vector rank");
        }
        let Some(lead) = dshape.len().checked_sub(sshape.len()) else {
            return self.op_err(op, "expected source rank to be no greater than destination rank");
        };
        self.confined_to_shape(op, &offs, dshape, "offsets", false, 0)?;
        self.unit_strides(op, &strides)?;
        let mut src_as_dest = vec![1; lead];
        src_as_dest.extend_from_slice(sshape);
        self.sum_confined(op, &offs, &src_as_dest, dshape, ("offsets", "source vector shape"))
    }

    fn vector_shuffle(&self, op: OpId) -> VResult {
        let (Some(a), Some(b), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else { return Ok(()) };
        let (Some((ash, _, ae)), Some((bsh, _, be)), Some((rsh, _, re))) =
            (self.vector(a), self.vector(b), self.vector(r))
        else {
            return Ok(());
        };
        if ae != re {
            return self.op_err(op, "failed to verify that first operand v1 and result have same element type");
        }
        if be != re {
            return self.op_err(op, "failed to verify that second operand v2 and result have same element type");
        }
        let zero_d = ash.is_empty() && bsh.is_empty() && rsh.len() == 1;
        if !zero_d && (ash.len() != rsh.len() || bsh.len() != rsh.len()) {
            return self.op_err(op, "rank mismatch");
        }
        if (1..ash.len()).any(|i| rsh[i] != ash[i] || ash[i] != bsh[i]) {
            return self.op_err(op, "dimension mismatch");
        }
        let Some(mask) = self.ints(op, "mask") else { return Ok(()) };
        if mask.is_empty() {
            return self.op_err(op, "invalid mask length");
        }
        if rsh.first() != Some(&(mask.len() as i64)) {
            return self.op_err(op, "mask length mismatch");
        }
        let n = ash.first().copied().unwrap_or(1).saturating_add(bsh.first().copied().unwrap_or(1));
        for (i, p) in mask.iter().enumerate() {
            if *p != -1 && (*p < 0 || *p >= n) {
                return self.op_err(op, format!("mask index #{} out of range", i + 1));
            }
        }
        Ok(())
    }

    fn vector_transpose(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, _, _)), Some((rsh, _, _)), Some(perm)) =
            (self.vector(s), self.vector(r), self.ints(op, "permutation"))
        else {
            return Ok(());
        };
        let rank = rsh.len();
        if ssh.len() != rank {
            return self.op_err(op, format!("vector result rank mismatch: {rank}"));
        }
        if perm.len() != rank {
            return self.op_err(op, format!("transposition length mismatch: {}", perm.len()));
        }
        let mut seen = vec![false; rank];
        for (i, p) in perm.iter().enumerate() {
            let Some(pu) = usize::try_from(*p).ok().filter(|x| *x < rank) else {
                return self.op_err(op, format!("transposition index out of range: {p}"));
            };
            if std::mem::replace(&mut seen[pu], true) {
                return self.op_err(op, format!("duplicate position index: {p}"));
            }
            if rsh[i] != ssh[pu] {
                return self.op_err(op, format!("dimension size mismatch at: {p}"));
            }
        }
        Ok(())
    }

    fn vector_shape_cast(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, sc, se)), Some((rsh, rc, re))) = (self.vector(s), self.vector(r)) else { return Ok(()) };
        if se != re {
            return self.op_err(op, "has different source and result element types");
        }
        let (a, b) = (crate::types::num_elements(ssh), crate::types::num_elements(rsh));
        if a != b {
            let show = |n: Option<i64>| n.map(|x| x.to_string()).unwrap_or_else(|| "?".into());
            return self.op_err(
                op,
                format!("has different number of elements at source ({}) and result ({})", show(a), show(b)),
            );
        }
        let (na, nb) = (sc.iter().filter(|x| **x).count(), rc.iter().filter(|x| **x).count());
        if na != nb {
            return self
                .op_err(op, format!("has different number of scalable dims at source ({na}) and result ({nb})"));
        }
        Ok(())
    }

    fn vector_bitcast(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, _, se)), Some((rsh, _, re))) = (self.vector(s), self.vector(r)) else { return Ok(()) };
        if ssh.len() != rsh.len() {
            return self.op_err(op, "failed to verify that all of {source, result} have same rank");
        }
        for i in 0..ssh.len().saturating_sub(1) {
            if ssh[i] != rsh[i] {
                return self.op_err(op, format!("dimension size mismatch at: {i}"));
            }
        }
        let (Some(sb), Some(rb)) = (self.bits(se), self.bits(re)) else { return Ok(()) };
        let minor = |sh: &[i64], b: u64| sh.last().map(|d| (*d as u64).checked_mul(b)).unwrap_or(Some(b));
        if ssh.is_empty() && sb != rb {
            return self.op_err(op, "source/result bitwidth of the 0-D vector element types must be equal");
        }
        if minor(ssh, sb) != minor(rsh, rb) {
            return self.op_err(op, "source/result bitwidth of the minor 1-D vectors must be equal");
        }
        Ok(())
    }

    fn vector_reduction(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((ssh, _, se)) = self.vector(s) else { return Ok(()) };
        if se != r {
            return self.op_err(op, "failed to verify that source operand and result have same element type");
        }
        if ssh.len() > 1 {
            return self.op_err(op, format!("unsupported reduction rank: {}", ssh.len()));
        }
        let Some(k) = self.combining_kind(op) else { return Ok(()) };
        if !kind_supports(k, self.m.ctx.type_kind(r)) {
            return self.op_err(op, format!("unsupported reduction type ''{}'' for kind '{k}'", self.ty(r)));
        }
        Ok(())
    }

    fn vector_multi_reduction(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, sc, se)), Some(dims)) = (self.vector(s), self.ints(op, "reduction_dims")) else {
            return Ok(());
        };
        let keep: Vec<usize> = (0..ssh.len()).filter(|i| !dims.contains(&(*i as i64))).collect();
        let shape: Vec<i64> = keep.iter().map(|i| ssh[*i]).collect();
        let scal: Vec<bool> = keep.iter().map(|i| sc.get(*i).copied().unwrap_or(false)).collect();
        let ok = if shape.is_empty() { r == se } else { self.is_vec(r, &shape, &scal, se) };
        if !ok {
            return self.op_err(
                op,
                format!("destination type '{}' is incompatible with source type '{}'", self.ty(r), self.ty(s)),
            );
        }
        Ok(())
    }

    fn vector_outerproduct(&self, op: OpId) -> VResult {
        let (Some(a), Some(b), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else { return Ok(()) };
        let (Some((ash, _, _)), Some((rsh, _, re))) = (self.vector(a), self.vector(r)) else { return Ok(()) };
        if ash.len() != 1 {
            return self.op_err(op, "expected 1-d vector for operand #1");
        }
        match self.vector(b) {
            Some((bsh, _, _)) => {
                if bsh.len() != 1 {
                    return self.op_err(op, "expected 1-d vector for operand #2");
                }
                if rsh.len() != 2 {
                    return self.op_err(op, "expected 2-d vector result");
                }
                if ash[0] != rsh[0] {
                    return self.op_err(op, "expected #1 operand dim to match result dim #1");
                }
                if bsh[0] != rsh[1] {
                    return self.op_err(op, "expected #2 operand dim to match result dim #2");
                }
            }
            None => {
                if rsh.len() != 1 {
                    return self.op_err(op, "expected 1-d vector result");
                }
                if ash[0] != rsh[0] {
                    return self.op_err(op, "expected #1 operand dim to match result dim #1");
                }
            }
        }
        if matches!(self.opnd(op, 2), Some(c) if c != r) {
            return self.op_err(op, "expected operand #3 of same type as result type");
        }
        match self.combining_kind(op) {
            Some(k) if !kind_supports(k, self.m.ctx.type_kind(re)) => self.op_err(op, "unsupported outerproduct type"),
            _ => Ok(()),
        }
    }

    fn vector_fma(&self, op: OpId) -> VResult {
        let is_fvec = |v: &Self, t: TypeId| matches!(v.vector(t), Some((_, _, e)) if v.float_width(e).is_some());
        self.check_elem(op, is_fvec, "vector of floating-point values")?;
        if self.all_types(op).windows(2).any(|w| w[0] != w[1]) {
            return self.op_err(op, "failed to verify that all of {lhs, rhs, acc, result} have same type");
        }
        Ok(())
    }
}

// ---- vector: memory, transfers, masks, contraction --------------------------

impl<'m> Verifier<'m> {
    /// `requires N indices` unless `n` indices address a `rank`-d base.
    fn index_count(&self, op: OpId, n: usize, rank: usize) -> VResult {
        if n != rank {
            return self.op_err(op, format!("requires {rank} indices"));
        }
        Ok(())
    }

    /// Shape and element type of a memref or ranked tensor.
    fn ranked(&self, t: TypeId) -> Option<(&'m [i64], TypeId)> {
        match self.m.ctx.type_kind(t) {
            TypeKind::MemRef { shape, elem, .. } | TypeKind::RankedTensor { shape, elem, .. } => Some((shape, *elem)),
            _ => None,
        }
    }

    /// Whether a memref's innermost dim has a static unit stride (rank 0:
    /// yes; a layout map that is not a strided form: no), as
    /// `MemRefType::isLastDimUnitStride` decides.
    fn last_dim_unit_stride(&self, t: TypeId) -> bool {
        match crate::layout::strides_and_offset(&self.m.ctx, t) {
            Some((strides, _)) => strides.last().is_none_or(|s| *s == 1),
            None => false,
        }
    }

    /// vector.load / vector.store: `what` is `result` or `valueToStore`.
    fn vector_load_store(&self, op: OpId, store: bool) -> VResult {
        let n = self.m.operands(op).len();
        let (base, vec, nidx) = if store {
            (self.opnd(op, 1), self.opnd(op, 0), n.saturating_sub(2))
        } else {
            (self.opnd(op, 0), self.res(op, 0), n.saturating_sub(1))
        };
        let (Some(b), Some(v)) = (base, vec) else { return Ok(()) };
        let (Some((shape, mut elem)), Some((vshape, scalable, ve))) = (self.ranked(b), self.vector(v)) else {
            return Ok(());
        };
        // A one-element fixed vector is a scalar access: any layout will do.
        let scalar_like = !scalable.iter().any(|s| *s) && vshape.iter().product::<i64>() == 1;
        if !scalar_like && !self.last_dim_unit_stride(b) {
            return self.op_err(op, "most minor memref dim must have unit stride");
        }
        if shape.len() < vshape.len() {
            return self.op_err(
                op,
                if store {
                    "source memref has lower rank than the vector to store"
                } else {
                    "destination memref has lower rank than the result vector"
                },
            );
        }
        let what = if store { "valueToStore" } else { "result" };
        if let Some((_, _, inner)) = self.vector(elem) {
            if elem != v {
                return self.op_err(op, format!("base memref and {what} vector types should match"));
            }
            elem = inner;
        }
        if ve != elem {
            let verb = if store { "type" } else { "types" };
            return self.op_err(op, format!("base and {what} element {verb} should match"));
        }
        self.index_count(op, nidx, shape.len())
    }

    /// maskedload/maskedstore/expandload/compressstore/gather/scatter.
    /// Operands: base, indices.., [index vector,] mask, pass_thru or value.
    fn vector_masked_memory(&self, op: OpId, store: bool, gather: bool) -> VResult {
        let n = self.m.operands(op).len();
        let tail = if gather { 3 } else { 2 };
        let Some(nidx) = n.checked_sub(1 + tail) else { return Ok(()) };
        let (Some(b), Some(mask), Some(last)) = (self.opnd(op, 0), self.opnd(op, n - 2), self.opnd(op, n - 1)) else {
            return Ok(());
        };
        let v = if store { Some(last) } else { self.res(op, 0) };
        let Some(v) = v else { return Ok(()) };
        let (Some((shape, elem)), Some((vsh, _, ve)), Some((msh, _, _))) =
            (self.ranked(b), self.vector(v), self.vector(mask))
        else {
            return Ok(());
        };
        let what = if store { "valueToStore" } else { "result" };
        if ve != elem {
            return self.op_err(op, format!("base and {what} element type should match"));
        }
        self.index_count(op, nidx, shape.len())?;
        let noun =
            if gather || self.kind(op) == OpKind::VectorExpandload || self.kind(op) == OpKind::VectorCompressstore {
                "dim"
            } else {
                "shape"
            };
        if gather {
            let idx = self.opnd(op, n - 3).and_then(|t| self.vector(t)).map(|x| x.0);
            if idx.is_some_and(|s| s != vsh) {
                return self.op_err(op, format!("expected {what} dim to match indices dim"));
            }
        }
        if msh != vsh {
            return self.op_err(op, format!("expected {what} {noun} to match mask {noun}"));
        }
        if !store && last != v {
            return self.op_err(op, "expected pass_thru of same type as result type");
        }
        Ok(())
    }

    /// Operand segment sizes of an op with variadic operand groups.
    fn segments(&self, op: OpId) -> Option<Vec<usize>> {
        match self.m.ctx.attr_kind(self.m.attr(op, "operandSegmentSizes")?) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => {
                v.iter().map(|x| x.to_i64().and_then(|y| usize::try_from(y).ok())).collect()
            }
            _ => None,
        }
    }

    /// vector.transfer_read and vector.transfer_write.
    fn vector_transfer(&self, op: OpId, read: bool) -> VResult {
        let Some(seg) = self.segments(op).filter(|s| s.len() == 4) else { return Ok(()) };
        let (shaped, vector) =
            if read { (self.opnd(op, 0), self.res(op, 0)) } else { (self.opnd(op, 1), self.opnd(op, 0)) };
        let nidx = if read { seg[1] } else { seg[2] };
        let (Some(st), Some(vt)) = (shaped, vector) else { return Ok(()) };
        let Some(map_attr) = self.m.attr(op, "permutation_map") else { return Ok(()) };
        let Attribute::AffineMap(map) = self.m.ctx.attr_kind(map_attr) else { return Ok(()) };
        let (Some((shape, elem)), Some((vsh, _, ve))) = (self.ranked(st), self.vector(vt)) else { return Ok(()) };
        self.index_count(op, nidx, shape.len())?;
        use crate::affine::AffineExpr;
        if !read && map.results.contains(&AffineExpr::Const(0)) {
            return self.op_err(op, "should not have broadcast dimensions");
        }
        if self.vector(elem).is_none() {
            let minor = vsh.last().copied().unwrap_or(1) as u64;
            if let (Some(vb), Some(eb)) = (self.bits(ve), self.bits(elem)) {
                if eb == 0 || vb.saturating_mul(minor) % eb != 0 {
                    return self.op_err(op, "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the source element type");
                }
            }
            if map.results.len() != vsh.len() {
                return self
                    .op_err(op, "requires a permutation_map with result dims of the same rank as the vector type");
            }
        }
        if map.num_syms != 0 {
            return self.op_err(op, "requires permutation_map without symbols");
        }
        if map.num_dims as usize != shape.len() {
            return self.op_err(op, "requires a permutation_map with input dims of the same rank as the source type");
        }
        if let Some(Attribute::Array(ib)) = self.m.attr(op, "in_bounds").map(|a| self.m.ctx.attr_kind(a)) {
            if ib.len() != map.results.len() {
                let text = crate::printer::attr_to_string(&self.m.ctx, map_attr);
                return self.op_err(
                    op,
                    format!(
                        "expects the in_bounds attr of same rank as permutation_map results: {text} vs inBounds of size: {}",
                        ib.len()
                    ),
                );
            }
        }
        if read {
            let pad = seg.get(..2).map(|s| s.iter().sum::<usize>()).and_then(|i| self.opnd(op, i));
            if let Some(p) = pad {
                if self.vector(elem).is_some() && p != elem {
                    return self.op_err(op, "requires source element type and padding type to match.");
                }
                if p != elem {
                    return self.op_err(op, "requires formal padding and source of the same elemental type");
                }
            }
        }
        let mut seen = vec![false; map.num_dims as usize];
        for e in &map.results {
            match e {
                AffineExpr::Const(0) => {}
                AffineExpr::Dim(d) if seen.get(*d as usize) == Some(&true) => {
                    return self.op_err(
                        op,
                        "requires a permutation_map that is a permutation (found one dim used more than once)",
                    )
                }
                AffineExpr::Dim(d) if (*d as usize) < seen.len() => seen[*d as usize] = true,
                _ => {
                    return self.op_err(op, "requires a projected permutation_map (at most one dim or the zero constant can appear in each result)")
                }
            }
        }
        Ok(())
    }

    fn vector_create_mask(&self, op: OpId) -> VResult {
        let Some((shape, _, _)) = self.res(op, 0).and_then(|t| self.vector(t)) else { return Ok(()) };
        let n = self.m.operands(op).len();
        if shape.is_empty() && n != 1 {
            return self.op_err(op, "must specify exactly one operand for 0-D create_mask");
        }
        if !shape.is_empty() && n != shape.len() {
            return self.op_err(op, "must specify an operand for each result vector dimension");
        }
        Ok(())
    }

    fn vector_constant_mask(&self, op: OpId) -> VResult {
        let Some((shape, scal, _)) = self.res(op, 0).and_then(|t| self.vector(t)) else { return Ok(()) };
        let Some(sizes) = self.ints(op, "mask_dim_sizes") else { return Ok(()) };
        if shape.is_empty() {
            return Ok(());
        }
        if sizes.len() != shape.len() {
            return self.op_err(op, "must specify array attr of size equal vector result rank");
        }
        for (i, s) in sizes.iter().enumerate() {
            if *s < 0 || *s > shape[i] {
                return self.op_err(op, "array attr of size out of bounds of vector result dimension size");
            }
            if scal.get(i) == Some(&true) && *s != 0 && *s != shape[i] {
                return self.op_err(op, "only supports 'none set' or 'all set' scalable dimensions");
            }
        }
        if sizes.contains(&0) && sizes.iter().any(|s| *s != 0) {
            return self
                .op_err(op, "expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim");
        }
        Ok(())
    }

    /// from_elements / to_elements: one scalar per element, of the element type.
    fn vector_elements(&self, op: OpId, from: bool) -> VResult {
        let (vec, scalars): (Option<TypeId>, Vec<TypeId>) = if from {
            (self.res(op, 0), self.m.operands(op).iter().map(|v| self.m.type_of(*v)).collect())
        } else {
            (self.opnd(op, 0), self.m.results(op).map(|v| self.m.type_of(v)).collect())
        };
        let Some((shape, _, elem)) = vec.and_then(|t| self.vector(t)) else { return Ok(()) };
        let count = crate::types::num_elements(shape);
        if count != Some(scalars.len() as i64) || scalars.iter().any(|t| *t != elem) {
            let (v, e) = if from { ("dest", "elements") } else { ("source", "elements") };
            return self
                .op_err(op, format!("failed to verify that shaped type '{v}' matches '{e}' element count and types"));
        }
        Ok(())
    }

    fn vector_step(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        let ok = matches!(self.vector(r), Some((s, _, e)) if s.len() == 1 && matches!(self.m.ctx.type_kind(e), TypeKind::Index));
        if !ok {
            return self
                .op_err(op, format!("result #0 must be vector of index values of ranks 1, but got '{}'", self.ty(r)));
        }
        Ok(())
    }

    /// interleave: result = operand with the trailing dim doubled;
    /// deinterleave: results = operand with the trailing dim halved.
    fn vector_interleave(&self, op: OpId, inter: bool) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((ssh, sc, se)) = self.vector(s) else { return Ok(()) };
        let mut want = ssh.to_vec();
        let mut scal = sc.to_vec();
        if inter {
            match want.last_mut() {
                Some(d) => *d = d.saturating_mul(2),
                None => {
                    want.push(2);
                    scal.push(false);
                }
            }
            if !self.is_vec(r, &want, &scal, se) {
                return self.op_err(op, "failed to verify that type of 'result' is double the width of the inputs");
            }
            return Ok(());
        }
        if ssh.last().is_some_and(|d| d % 2 != 0) {
            return self.op_err(
                op,
                "failed to verify that the trailing dimension of the source vector has an even number of elements",
            );
        }
        if let Some(d) = want.last_mut() {
            *d /= 2;
        }
        if !self.is_vec(r, &want, &scal, se) {
            return self.op_err(op, "failed to verify that the trailing dimension of the results is half the width of source trailing dimension");
        }
        Ok(())
    }

    fn vector_contract(&self, op: OpId) -> VResult {
        use crate::affine::{AffineExpr, AffineMap};
        let (Some(a), Some(b), Some(c), Some(r)) =
            (self.opnd(op, 0), self.opnd(op, 1), self.opnd(op, 2), self.res(op, 0))
        else {
            return Ok(());
        };
        let (Some((ash, _, ae)), Some((bsh, _, _))) = (self.vector(a), self.vector(b)) else { return Ok(()) };
        if matches!(self.m.ctx.type_kind(ae), TypeKind::Integer { signedness, .. } if *signedness != Signedness::Signless)
        {
            return self.op_err(op, "only supports signless integer types");
        }
        let Some(Attribute::Array(ms)) = self.m.attr(op, "indexing_maps").map(|x| self.m.ctx.attr_kind(x)) else {
            return Ok(());
        };
        let maps: Vec<&AffineMap> = ms
            .iter()
            .filter_map(|x| match self.m.ctx.attr_kind(*x) {
                Attribute::AffineMap(mp) => Some(mp),
                _ => None,
            })
            .collect();
        if maps.len() != 3 {
            return self.op_err(op, "expected an indexing map for each vector operand");
        }
        let Some(Attribute::Array(its)) = self.m.attr(op, "iterator_types").map(|x| self.m.ctx.attr_kind(x)) else {
            return Ok(());
        };
        let iters: Vec<Option<&str>> = its.iter().map(|x| self.vector_enum(*x, ".iterator_type")).collect();
        let n = iters.len();
        for (i, mp) in maps.iter().enumerate() {
            if mp.num_syms != 0 {
                return self.op_err(op, format!("expected indexing map {i} to have no symbols"));
            }
            let rank = self.opnd(op, i).and_then(|t| self.vector(t)).map(|v| v.0.len()).unwrap_or(0);
            if mp.num_dims as usize != n {
                return self.op_err(op, format!("expected indexing map {i} to have {n} number of inputs"));
            }
            if mp.results.len() != rank {
                return self.op_err(op, format!("expected indexing map {i} to have {rank} number of outputs"));
            }
            let mut seen = vec![false; n];
            let perm = mp.results.iter().all(|e| match e {
                AffineExpr::Dim(d) => seen.get_mut(*d as usize).is_some_and(|s| !std::mem::replace(s, true)),
                _ => false,
            });
            if !perm {
                return self
                    .op_err(op, format!("expected indexing map {i} to be a projected permutation of its inputs"));
            }
        }
        let pos = |mp: &AffineMap, d: usize| mp.results.iter().position(|e| *e == AffineExpr::Dim(d as u32));
        let pairs = |kind: &str| -> Vec<(usize, usize)> {
            (0..n)
                .filter(|d| iters[*d] == Some(kind))
                .filter_map(|d| Some((pos(maps[0], d)?, pos(maps[1], d)?)))
                .collect()
        };
        let (contracting, batch) = (pairs("reduction"), pairs("parallel"));
        if contracting.is_empty() {
            return self.op_err(op, "expected at least one contracting dimension pair");
        }
        let dims_agree =
            |ps: &[(usize, usize)]| ps.iter().all(|(l, r)| ash.get(*l).is_some() && ash.get(*l) == bsh.get(*r));
        if !dims_agree(&contracting) {
            return self.op_err(op, "invalid contracting dimension map");
        }
        if !dims_agree(&batch) {
            return self.op_err(op, "invalid batch dimension map");
        }
        let free_l = (0..ash.len()).filter(|i| !contracting.iter().any(|p| p.0 == *i)).count();
        let free_r = (0..bsh.len()).filter(|i| !contracting.iter().chain(&batch).any(|p| p.1 == *i)).count();
        let (rv, cv) = (self.vector(r), self.vector(c));
        if free_l + free_r == 0 {
            if rv.is_some() || cv.is_some() {
                return self.op_err(op, "invalid accumulator/result vector shape");
            }
        } else {
            let (Some((_, rsc, re)), Some(_)) = (rv, cv) else {
                return self.op_err(op, "invalid accumulator/result vector shape");
            };
            let mut extents: Vec<Option<i64>> = vec![None; n];
            for (sh, mp) in [(ash, maps[0]), (bsh, maps[1])] {
                for (size, e) in sh.iter().zip(&mp.results) {
                    if let AffineExpr::Dim(d) = e {
                        if let Some(x) = extents.get_mut(*d as usize) {
                            x.get_or_insert(*size);
                        }
                    }
                }
            }
            if extents.iter().any(Option::is_none) {
                return self.op_err(op, "expected all dimensions to be either a LHS or a RHS dimension");
            }
            let shape: Vec<i64> = maps[2]
                .results
                .iter()
                .map(|e| match e {
                    AffineExpr::Dim(d) => extents.get(*d as usize).copied().flatten().unwrap_or(0),
                    _ => 0,
                })
                .collect();
            if !self.is_vec(r, &shape, rsc, re) || !self.is_vec(c, &shape, rsc, re) {
                return self.op_err(
                    op,
                    format!("invalid accumulator/result vector shape, expected: '{}'", self.vec_text(&shape, rsc, re)),
                );
            }
        }
        let re = self.scalar_of(r);
        match self.combining_kind(op) {
            Some(k) if !kind_supports(k, self.m.ctx.type_kind(re)) => self.op_err(op, "unsupported contraction type"),
            _ => Ok(()),
        }
    }
}

// ---- tensor and memref views -------------------------------------------------

impl<'m> Verifier<'m> {
    /// `tensor<..xT>` as text, for derived types.
    fn tensor_text(&self, shape: &[i64], elem: TypeId) -> String {
        let mut s = String::from("tensor<");
        for d in shape {
            if *d == crate::types::DYNAMIC {
                s.push_str("?x");
            } else {
                s.push_str(&format!("{d}x"));
            }
        }
        s.push_str(&self.ty(elem));
        s.push('>');
        s
    }

    /// `result #0 must be index, but got 'T'`.
    fn index_result(&self, op: OpId) -> VResult {
        match self.res(op, 0) {
            Some(t) if !matches!(self.m.ctx.type_kind(t), TypeKind::Index) => {
                self.op_err(op, format!("result #0 must be index, but got '{}'", self.ty(t)))
            }
            _ => Ok(()),
        }
    }

    /// The static offset, size and stride lists; their lengths must be `ranks`.
    fn slice_lists(&self, op: OpId, ranks: [usize; 3]) -> Result<Option<[Vec<i64>; 3]>, Diagnostic> {
        let (Some(o), Some(s), Some(t)) =
            (self.ints(op, "static_offsets"), self.ints(op, "static_sizes"), self.ints(op, "static_strides"))
        else {
            return Ok(None);
        };
        let span = self.m.op(op).span;
        for (v, r, what) in [(&o, ranks[0], "offset"), (&s, ranks[1], "size"), (&t, ranks[2], "stride")] {
            if v.len() != r {
                self.err(span, format!("expected {r} {what} values, got {}", v.len()))?;
            }
        }
        for (v, what) in [(&o, "offsets"), (&s, "sizes")] {
            if let Some(x) = v.iter().find(|x| **x < 0 && **x != crate::types::DYNAMIC) {
                self.err(span, format!("expected {what} to be non-negative, but got {x}"))?;
            }
        }
        Ok(Some([o, s, t]))
    }

    /// mlir-opt's `verifyInBoundsSlice` on static entries.
    fn slice_in_bounds(&self, op: OpId, shape: &[i64], l: &[Vec<i64>; 3]) -> VResult {
        let dynamic = |x: i64| x == crate::types::DYNAMIC;
        for (i, d) in shape.iter().enumerate() {
            let (Some(&o), Some(&s), Some(&t)) = (l[0].get(i), l[1].get(i), l[2].get(i)) else { continue };
            if dynamic(*d) || dynamic(o) {
                continue;
            }
            let span = self.m.op(op).span;
            if o >= *d {
                return self.err(span, format!("offset {i} is out-of-bounds: {o} >= {d}"));
            }
            if dynamic(s) || dynamic(t) {
                continue;
            }
            let last = s.checked_sub(1).and_then(|x| x.checked_mul(t)).and_then(|x| x.checked_add(o));
            if let Some(last) = last.filter(|x| x >= d) {
                return self.err(span, format!("slice along dimension {i} runs out-of-bounds: {last} >= {d}"));
            }
        }
        Ok(())
    }

    /// `candidate` is `shape x elem` or a rank-reduced version of it.
    fn rank_reduced(&self, op: OpId, shape: &[i64], elem: TypeId, candidate: TypeId) -> VResult {
        let Some((cshape, celem)) = self.ranked(candidate) else { return Ok(()) };
        let span = self.m.op(op).span;
        if cshape.len() > shape.len() {
            return self.err(span, "expected rank to be smaller or equal to the other rank. ");
        }
        let mut ci = 0;
        for d in shape {
            if cshape.get(ci) == Some(d) {
                ci += 1;
            } else if *d != 1 {
                ci = usize::MAX;
                break;
            }
        }
        if ci != cshape.len() {
            let want = self.tensor_text(shape, elem);
            return self.err(span, format!("expected type to be '{want}' or a rank-reduced version. (size mismatch) "));
        }
        if celem != elem {
            return self.err(span, format!("expected element type to be '{}'", self.ty(elem)));
        }
        Ok(())
    }

    fn tensor_extract_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((shape, elem)) = self.ranked(s) else { return Ok(()) };
        let n = shape.len();
        let Some(l) = self.slice_lists(op, [n, n, n])? else { return Ok(()) };
        self.rank_reduced(op, &l[1], elem, r)?;
        self.slice_in_bounds(op, shape, &l)
    }

    fn tensor_insert_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let Some((shape, elem)) = self.ranked(d) else { return Ok(()) };
        let n = shape.len();
        let Some(l) = self.slice_lists(op, [n, n, n])? else { return Ok(()) };
        self.rank_reduced(op, &l[1], elem, s)?;
        self.slice_in_bounds(op, shape, &l)
    }

    fn memref_subview(&self, op: OpId) -> VResult {
        let Some((shape, _)) = self.opnd(op, 0).and_then(|t| self.ranked(t)) else { return Ok(()) };
        let n = shape.len();
        let Some(l) = self.slice_lists(op, [n, n, n])? else { return Ok(()) };
        self.slice_in_bounds(op, shape, &l)?;
        self.subview_result_type(op, &l)
    }

    /// The result must be the inferred strided type (source strides times
    /// slice strides; offset moved by the slice offsets) or a rank-reduced
    /// version of it, as mlir-opt's `SubViewOp::verify` requires.
    fn subview_result_type(&self, op: OpId, l: &[Vec<i64>]) -> VResult {
        use crate::layout::{dyn_add, dyn_mul, memref_rank_reduction, rank_reduction, strides_and_offset};
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let m = self.m;
        let (TypeKind::MemRef { elem, space, .. }, TypeKind::MemRef { shape: rshape, elem: relem, .. }) =
            (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        let span = m.op(op).span;
        if elem != relem {
            return self.err(
                span,
                format!("expected result element type to be '{}', but got '{}'", self.ty(*elem), self.ty(r)),
            );
        }
        let (Some((sstr, soff)), Some((rstr, roff))) = (strides_and_offset(&m.ctx, s), strides_and_offset(&m.ctx, r))
        else {
            return Ok(());
        };
        let (offs, sizes, steps) = (&l[0], &l[1], &l[2]);
        let mut off = soff;
        for (o, st) in offs.iter().zip(&sstr) {
            off = dyn_add(off, dyn_mul(*o, *st));
        }
        let strides: Vec<i64> = sstr.iter().zip(steps).map(|(a, b)| dyn_mul(*a, *b)).collect();
        let show = |v: i64| if v == crate::types::DYNAMIC { "?".to_string() } else { v.to_string() };
        let dims: String = sizes.iter().map(|d| format!("{}x", show(*d))).collect();
        let st: Vec<String> = strides.iter().map(|v| show(*v)).collect();
        let offset = if off == 0 { String::new() } else { format!(", offset: {}", show(off)) };
        let space = space.map(|a| format!(", {}", crate::printer::attr_to_string(&m.ctx, a))).unwrap_or_default();
        let want = format!("memref<{dims}{}, strided<[{}]{offset}>{space}>", self.ty(*elem), st.join(", "));
        let mismatch = |what: &str| {
            self.err(
                span,
                format!("expected result type to be '{want}' or a rank-reduced version. (mismatch of result {what}), but got '{}'", self.ty(r)),
            )
        };
        if rank_reduction(sizes, rshape).is_none() {
            return mismatch("sizes");
        }
        let Some(kept) = memref_rank_reduction(sizes, &strides, &rstr) else { return mismatch("layout") };
        let kept_strides: Vec<i64> = kept.iter().map(|i| strides[*i]).collect();
        if kept_strides != rstr || off != roff {
            return mismatch("layout");
        }
        Ok(())
    }

    fn memref_reinterpret_cast(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((rshape, relem)) = self.ranked(r) else { return Ok(()) };
        let n = rshape.len();
        let Some(l) = self.slice_lists(op, [1, n, n])? else { return Ok(()) };
        if self.m.ctx.type_kind(s).elem() != Some(relem) {
            return self.err(
                self.m.op(op).span,
                format!(
                    "different element types specified for source type '{}' and result memref type '{}'",
                    self.ty(s),
                    self.ty(r)
                ),
            );
        }
        for (i, (have, want)) in rshape.iter().zip(&l[1]).enumerate() {
            if *have != crate::types::DYNAMIC && have != want {
                let w = if *want == crate::types::DYNAMIC { "dynamic".to_string() } else { want.to_string() };
                return self.err(
                    self.m.op(op).span,
                    format!("expected result type with size = {w} instead of {have} in dim = {i}"),
                );
            }
        }
        Ok(())
    }

    /// The `reassociation` groups (`[[0, 1], [2]]`).
    fn reassociation(&self, op: OpId) -> Option<Vec<Vec<i64>>> {
        let Attribute::Array(groups) = self.m.ctx.attr_kind(self.m.attr(op, "reassociation")?) else { return None };
        groups
            .iter()
            .map(|g| match self.m.ctx.attr_kind(*g) {
                Attribute::Array(items) => items
                    .iter()
                    .map(|a| match self.m.ctx.attr_kind(*a) {
                        Attribute::Integer { value, .. } => value.to_i64(),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            })
            .collect()
    }

    /// tensor.expand_shape / tensor.collapse_shape (mlir-opt's
    /// `verifyReshapeLikeTypes` and `reshapeLikeShapesAreCompatible`).
    fn tensor_reshape_like(&self, op: OpId, expand: bool) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ss, _)), Some((rs, _)), Some(groups)) = (self.ranked(s), self.ranked(r), self.reassociation(op))
        else {
            return Ok(());
        };
        if expand {
            if let Some(out) = self.ints(op, "static_output_shape") {
                if out.len() != rs.len() {
                    return self.op_err(op, format!("expected number of static shape dims to be equal to the output rank ({}) but found {} inputs instead", rs.len(), out.len()));
                }
            }
        }
        let ((et, ex), (ct, co)) = if expand { ((r, rs), (s, ss)) } else { ((s, ss), (r, rs)) };
        if ex.len() < co.len() {
            return self.op_err(
                op,
                format!(
                    "expected the expanded type, '{}' to have a higher (or same) rank than the collapsed type, '{}'.",
                    self.ty(et),
                    self.ty(ct)
                ),
            );
        }
        if co.len() != groups.len() {
            return self.op_err(
                op,
                format!(
                    "expected collapsed rank ({}) to equal the number of reassociation maps ({}).",
                    co.len(),
                    groups.len()
                ),
            );
        }
        let ndims = groups.iter().flatten().map(|d| d.saturating_add(1)).max().unwrap_or(0);
        if let Some(i) = (0..groups.len()).find(|_| ndims != ex.len() as i64) {
            return self.op_err(
                op,
                format!(
                    "expected reassociation map #{i} to have size equal to the expanded rank ({}), but it is  {ndims}.",
                    ex.len()
                ),
            );
        }
        let mut next = 0i64;
        for (i, g) in groups.iter().enumerate() {
            if g.iter().any(|d| {
                let bad = *d != next;
                next += 1;
                bad
            }) {
                return self.op_err(op, format!("expected reassociation map #{i} to be valid and contiguous."));
            }
        }
        if next != ndims {
            let i = groups.len().saturating_sub(1);
            return self.op_err(op, format!("expected reassociation map #{i} to be valid and contiguous."));
        }
        let mut start = 0usize;
        for (i, g) in groups.iter().enumerate() {
            let part = ex.get(start..start + g.len()).unwrap_or(&[]);
            start += g.len();
            if part.contains(&crate::types::DYNAMIC) {
                if co[i] != crate::types::DYNAMIC {
                    return self.op_err(op, format!("expected dimension {i} of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic"));
                }
            } else {
                let p = part.iter().try_fold(1i64, |a, d| a.checked_mul(*d));
                if p != Some(co[i]) {
                    let p = p.map(|x| x.to_string()).unwrap_or_default();
                    return self
                        .op_err(op, format!("expected dimension {i} of collapsed type to be static value of {p}"));
                }
            }
        }
        Ok(())
    }

    /// memref.expand_shape / memref.collapse_shape (`verifyCollapsedShape`).
    fn memref_reshape_like(&self, op: OpId, expand: bool) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ss, _)), Some((rs, _)), Some(groups)) = (self.ranked(s), self.ranked(r), self.reassociation(op))
        else {
            return Ok(());
        };
        let (r0, r1) = (ss.len(), rs.len());
        if expand && r0 > r1 {
            return self.op_err(
                op,
                format!("has source rank {r0} and result rank {r1}. This is not an expansion ({r0} > {r1})."),
            );
        }
        if !expand && r0 < r1 {
            return self.op_err(
                op,
                format!("has source rank {r0} and result rank {r1}. This is not a collapse ({r0} < {r1})."),
            );
        }
        let (co, ex) = if expand { (ss, rs) } else { (rs, ss) };
        if co.len() != groups.len() {
            return self.op_err(
                op,
                format!("invalid number of reassociation groups: found {}, expected {}", groups.len(), co.len()),
            );
        }
        let mut next = 0i64;
        for (ci, g) in groups.iter().enumerate() {
            let mut dynamic = false;
            let mut size = Some(1i64);
            for &d in g {
                if d != next {
                    return self.op_err(op, "reassociation indices must be contiguous");
                }
                next += 1;
                let Some(&e) = usize::try_from(d).ok().and_then(|u| ex.get(u)) else {
                    return self.op_err(op, format!("reassociation index {d} is out of bounds"));
                };
                dynamic |= e == crate::types::DYNAMIC;
                size = size.and_then(|s| s.checked_mul(e));
            }
            if (co[ci] == crate::types::DYNAMIC) != dynamic {
                return self.op_err(
                    op,
                    format!("collapsed dim ({ci}) must be dynamic if and only if reassociation group is dynamic"),
                );
            }
            if !dynamic && size != Some(co[ci]) {
                let s = size.map(|x| x.to_string()).unwrap_or_default();
                return self
                    .op_err(op, format!("collapsed dim size ({}) must equal reassociation group size ({s})", co[ci]));
            }
        }
        if co.is_empty() && ex.iter().any(|d| *d != 1) {
            return self.op_err(op, "rank 0 memrefs can only be extended/collapsed with/from ones");
        }
        if !co.is_empty() && next != ex.len() as i64 {
            return self.op_err(
                op,
                format!("expanded rank ({}) inconsistent with number of reassociation indices ({next})", ex.len()),
            );
        }
        if expand {
            return self.expanded_layout(op, s, r, &groups);
        }
        Ok(())
    }

    /// The result layout of `memref.expand_shape` is the one MLIR's
    /// `computeExpandedType` infers: the identity for an identity source,
    /// else strided, each group's innermost dim taking the source stride and
    /// the others multiplying it by the sizes inside them; dims outside every
    /// group (a rank-0 source) get stride 1.
    fn expanded_layout(&self, op: OpId, s: TypeId, r: TypeId, groups: &[Vec<i64>]) -> VResult {
        use crate::layout::{dyn_mul, strides_and_offset};
        let m = self.m;
        let (TypeKind::MemRef { layout: sl, .. }, TypeKind::MemRef { shape, elem, layout: rl, space }) =
            (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        // MLIR asks the layout's affine map: `strided<[1]>` (offset 0) is the
        // identity map (d0) -> (d0); no other strided layout is.
        let identity = |l: &Option<crate::attrs::AttrId>| match l {
            None => true,
            Some(a) => match m.ctx.attr_kind(*a) {
                Attribute::AffineMap(map) => map.is_identity(),
                Attribute::Strided { strides, offset } => strides.as_slice() == [1] && *offset == 0,
                _ => false,
            },
        };
        let show = |v: i64| if v == crate::types::DYNAMIC { "?".to_string() } else { v.to_string() };
        let space = space.map(|a| format!(", {}", crate::printer::attr_to_string(&m.ctx, a))).unwrap_or_default();
        let dims: String = shape.iter().map(|d| format!("{}x", show(*d))).collect();
        let found = self.ty(r);
        if identity(sl) {
            if identity(rl) {
                return Ok(());
            }
            let want = format!("memref<{dims}{}{space}>", self.ty(*elem));
            return self.op_err(op, format!("expected expanded type to be '{want}' but found '{found}'"));
        }
        let Some((sstr, off)) = strides_and_offset(&m.ctx, s) else {
            return self.op_err(op, "invalid source layout map");
        };
        let mut strides = vec![1i64; shape.len()];
        for (g, stride) in groups.iter().zip(&sstr) {
            let mut cur = *stride;
            for &d in g.iter().rev() {
                let d = d as usize;
                strides[d] = cur;
                cur = dyn_mul(cur, shape[d]);
            }
        }
        let ok = matches!(rl.map(|a| m.ctx.attr_kind(a)), Some(Attribute::Strided { strides: rs, offset }) if *rs == strides && *offset == off);
        if ok {
            return Ok(());
        }
        let st: Vec<String> = strides.iter().map(|v| show(*v)).collect();
        let offset = if off == 0 { String::new() } else { format!(", offset: {}", show(off)) };
        let want = format!("memref<{dims}{}, strided<[{}]{offset}>{space}>", self.ty(*elem), st.join(", "));
        self.op_err(op, format!("expected expanded type to be '{want}' but found '{found}'"))
    }

    /// tensor.reshape / memref.reshape.
    fn reshape(&self, op: OpId, noun: &str) -> VResult {
        let (Some(s), Some(sh), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else { return Ok(()) };
        let (sk, rk) = (self.m.ctx.type_kind(s), self.m.ctx.type_kind(r));
        if sk.elem() != rk.elem() {
            return self.op_err(op, format!("element types of source and destination {noun} types should be the same"));
        }
        let Some(rshape) = rk.shape() else { return Ok(()) };
        if noun == "tensor" {
            if let Some(sshape) = sk.shape() {
                let (a, b) = (crate::types::num_elements(sshape), crate::types::num_elements(rshape));
                if a.is_some() && b.is_some() && a != b {
                    return self.op_err(op, "source and destination tensor should have the same number of elements");
                }
            }
        }
        let len = self.shape_of(sh).and_then(|x| x.first().copied());
        match len {
            Some(crate::types::DYNAMIC) => self.op_err(
                op,
                format!("cannot use shape operand with dynamic length to reshape to statically-ranked {noun} type"),
            ),
            Some(n) if n != rshape.len() as i64 => {
                self.op_err(op, format!("length of shape operand differs from the result's {noun} rank"))
            }
            _ => Ok(()),
        }
    }

    /// Shapes agree where both are static (or a side is unranked).
    fn shapes_compatible(&self, a: TypeId, b: TypeId) -> bool {
        match (self.shape_of(a), self.shape_of(b)) {
            (Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(p, q)| p == q || *p == crate::types::DYNAMIC || *q == crate::types::DYNAMIC)
            }
            _ => true,
        }
    }

    /// tensor.cast (same element type) and tensor.bitcast (same element width).
    fn tensor_cast(&self, op: OpId, bitcast: bool) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (ea, eb) = (self.m.ctx.type_kind(a).elem(), self.m.ctx.type_kind(b).elem());
        let elems_ok = if bitcast { ea.and_then(|t| self.bits(t)) == eb.and_then(|t| self.bits(t)) } else { ea == eb };
        if !elems_ok || !self.shapes_compatible(a, b) {
            return self.op_err(
                op,
                format!("operand type '{}' and result type '{}' are cast incompatible", self.ty(a), self.ty(b)),
            );
        }
        Ok(())
    }

    fn tensor_concat(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        let Some((rs, re)) = self.ranked(r) else { return Ok(()) };
        let ins: Vec<(&[i64], TypeId)> =
            self.m.operands(op).iter().filter_map(|v| self.ranked(self.m.type_of(*v))).collect();
        if ins.is_empty() {
            return self.op_err(op, "requires at least one input");
        }
        if ins.iter().any(|(s, _)| s.len() != rs.len()) {
            return self.op_err(op, "rank of concatenated inputs must match result rank");
        }
        if ins.iter().any(|(_, e)| *e != re) {
            return self.op_err(op, "inputs and result element type must match");
        }
        let Some(dim) = self.m.attr(op, "dim").and_then(|a| match self.m.ctx.attr_kind(a) {
            Attribute::Integer { value, .. } => value.to_i64(),
            _ => None,
        }) else {
            return Ok(());
        };
        let Some(dim) = usize::try_from(dim).ok().filter(|d| *d < rs.len()) else {
            return self.op_err(op, "concatenation dim must be less than the tensor rank");
        };
        const DYN: i64 = crate::types::DYNAMIC;
        let mut sizes = vec![DYN; rs.len()];
        for (i, size) in sizes.iter_mut().enumerate() {
            if i == dim {
                *size = ins
                    .iter()
                    .try_fold(0i64, |a, (s, _)| if s[i] == DYN { None } else { a.checked_add(s[i]) })
                    .unwrap_or(DYN);
                continue;
            }
            for (s, _) in &ins {
                if *size == DYN {
                    *size = s[i];
                } else if s[i] != DYN && s[i] != *size {
                    return self.op_err(
                        op,
                        format!("static concatenation size mismatch along non-concatenated dimension {i}"),
                    );
                }
            }
        }
        if sizes.iter().zip(rs).any(|(a, b)| *a != DYN && *b != DYN && a != b) {
            return self.op_err(
                op,
                format!(
                    "result type '{}'does not match inferred shape '{}' static sizes",
                    self.ty(r),
                    self.tensor_text(&sizes, re)
                ),
            );
        }
        Ok(())
    }

    /// `incorrect number of dynamic sizes, has N, expected M`.
    fn dynamic_sizes(&self, op: OpId, shaped: TypeId, n: usize) -> VResult {
        let Some(shape) = self.shape_of(shaped) else { return Ok(()) };
        let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
        if n != want {
            return self.op_err(op, format!("incorrect number of dynamic sizes, has {n}, expected {want}"));
        }
        Ok(())
    }

    /// The entry block of region 0 and the type its terminator yields.
    fn body_and_yield(&self, op: OpId) -> Option<(BlockId, Option<TypeId>)> {
        let r = *self.m.regions(op).first()?;
        let b = *self.m.region(r).blocks.first()?;
        let y = self.m.terminator(b).and_then(|t| self.m.operands(t).first()).map(|v| self.m.type_of(*v));
        Some((b, y))
    }

    fn tensor_generate(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        self.dynamic_sizes(op, r, self.m.operands(op).len())?;
        let (Some((shape, elem)), Some((b, y))) = (self.ranked(r), self.body_and_yield(op)) else { return Ok(()) };
        let span = self.m.op(op).span;
        if self.m.args(b).any(|a| !matches!(self.m.ctx.type_kind(self.m.type_of(a)), TypeKind::Index)) {
            return self.err(span, "all body arguments must be index");
        }
        if self.m.args(b).len() != shape.len() {
            return self.err(span, "must have one body argument per input dimension");
        }
        if y.is_some_and(|t| t != elem) {
            return self.op_err(op, "body must be terminated with a `yield` operation of the tensor element type");
        }
        Ok(())
    }

    fn tensor_pad(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ss, se)), Some((rs, re))) = (self.ranked(s), self.ranked(r)) else { return Ok(()) };
        let (Some(lo), Some(hi)) = (self.ints(op, "static_low"), self.ints(op, "static_high")) else { return Ok(()) };
        let span = self.m.op(op).span;
        const DYN: i64 = crate::types::DYNAMIC;
        if lo.len() != ss.len() || hi.len() != ss.len() {
            return self.err(
                span,
                format!(
                    "failed to infer expectedType from sourceType '{}', specified resultType is '{}'",
                    self.ty(s),
                    self.ty(r)
                ),
            );
        }
        let want: Vec<i64> = (0..ss.len())
            .map(|i| {
                if ss[i] == DYN || lo[i] == DYN || hi[i] == DYN {
                    DYN
                } else {
                    ss[i].checked_add(lo[i]).and_then(|x| x.checked_add(hi[i])).unwrap_or(DYN)
                }
            })
            .collect();
        if rs.len() != want.len() || rs.iter().zip(&want).any(|(a, b)| a != b && *b != DYN) {
            return self.err(
                span,
                format!(
                    "specified type '{}' does not match the inferred type '{}'",
                    self.ty(r),
                    self.tensor_text(&want, se)
                ),
            );
        }
        let Some((b, y)) = self.body_and_yield(op) else { return Ok(()) };
        if self.m.args(b).len() != rs.len() {
            return self.err(span, format!("expected the block to have {} arguments", rs.len()));
        }
        for (i, a) in self.m.args(b).enumerate() {
            if !matches!(self.m.ctx.type_kind(self.m.type_of(a)), TypeKind::Index) {
                return self.op_err(op, format!("expected block argument {} to be an index", i + 1));
            }
        }
        if y.is_some_and(|t| t != re) {
            return self.op_err(op, "expected yield type to match shape element type");
        }
        Ok(())
    }

    /// tensor.gather / tensor.scatter dims (`verifyGatherOrScatterDims`).
    fn tensor_gather_scatter(&self, op: OpId, scatter: bool) -> VResult {
        let (word, noun, base, idx) = if scatter { ("scatter", "dest", 1, 2) } else { ("gather", "source", 0, 1) };
        let (Some(b), Some(i)) = (self.opnd(op, base), self.opnd(op, idx)) else { return Ok(()) };
        let (Some(bs), Some(is)) = (self.shape_of(b), self.shape_of(i)) else { return Ok(()) };
        let Some(dims) = self.ints(op, &format!("{word}_dims")) else { return Ok(()) };
        let rank = bs.len() as i64;
        if dims.is_empty() {
            return self.op_err(op, format!("{word}_dims must be non-empty"));
        }
        if dims.len() as i64 > rank {
            return self.op_err(op, format!("{word}_dims overflow {noun} rank"));
        }
        if is.last() != Some(&(dims.len() as i64)) {
            return self.op_err(op, format!("{word}_dims length must match the size of last dimension of indices"));
        }
        for d in &dims {
            if *d < 0 {
                return self.op_err(op, format!("{word}_dims value must be non-negative"));
            }
            if *d >= rank {
                return self.op_err(op, format!("{word}_dims value must be smaller than {noun} rank"));
            }
        }
        if dims.windows(2).any(|w| w[0] >= w[1]) {
            return self.op_err(op, format!("{word}_dims values must be strictly increasing"));
        }
        if scatter && self.m.attr(op, "unique").is_none() {
            return self.op_err(op, "requires 'unique' attribute to be set");
        }
        let (got, what) = if scatter { (self.opnd(op, 0), "source") } else { (self.res(op, 0), "result") };
        let (Some(got), Some(elem)) = (got, self.m.ctx.type_kind(b).elem()) else { return Ok(()) };
        let lead = &is[..is.len().saturating_sub(1)];
        let infer = |reduced: bool| -> Vec<i64> {
            let mut v = lead.to_vec();
            for (i, d) in bs.iter().enumerate() {
                if !dims.contains(&(i as i64)) {
                    v.push(*d);
                } else if !reduced {
                    v.push(1);
                }
            }
            v
        };
        let (full, reduced) = (infer(false), infer(true));
        if self.shape_of(got).is_some_and(|g| g != full && g != reduced)
            || self.m.ctx.type_kind(got).elem() != Some(elem)
        {
            return self.op_err(
                op,
                format!(
                    "{what} type mismatch: expected '{}' or its rank-reduced variant '{}' (got: '{}')",
                    self.tensor_text(&full, elem),
                    self.tensor_text(&reduced, elem),
                    self.ty(got)
                ),
            );
        }
        Ok(())
    }

    fn memref_copy(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (ka, kb) = (self.m.ctx.type_kind(a), self.m.ctx.type_kind(b));
        if ka.elem() != kb.elem() {
            return self.op_err(op, "requires the same element type for all operands");
        }
        // SameOperandsShape compares shapes as compatible: `?` matches any size.
        if !self.shapes_compatible(a, b) {
            return self.op_err(op, "requires the same shape for all operands");
        }
        Ok(())
    }

    fn memref_transpose(&self, op: OpId) -> VResult {
        let Some(shape) = self.opnd(op, 0).and_then(|t| self.shape_of(t)) else { return Ok(()) };
        match self.affine_map(op, "permutation") {
            Some(mp) if mp.num_dims as usize != shape.len() => {
                self.op_err(op, "expected a permutation map of same rank as the input")
            }
            _ => Ok(()),
        }
    }

    fn memref_view(&self, op: OpId) -> VResult {
        let Some(s) = self.opnd(op, 0) else { return Ok(()) };
        let ok = match self.m.ctx.type_kind(s) {
            TypeKind::MemRef { shape, elem, .. } => shape.len() == 1 && self.m.ctx.type_kind(*elem).is_signless_int(8),
            _ => false,
        };
        if !ok {
            return self.op_err(
                op,
                format!("operand #0 must be 1D memref of 8-bit signless integer values, but got '{}'", self.ty(s)),
            );
        }
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        self.dynamic_sizes(op, r, self.m.operands(op).len().saturating_sub(2))
    }
}

// ---- complex and bufferization -------------------------------------------------

impl<'m> Verifier<'m> {
    /// The element type of a complex type.
    fn complex_elem(&self, t: TypeId) -> Option<TypeId> {
        match self.m.ctx.type_kind(t) {
            TypeKind::Complex(e) => Some(*e),
            _ => None,
        }
    }

    fn complex_create(&self, op: OpId) -> VResult {
        let (Some(re), Some(im), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else {
            return Ok(());
        };
        let Some(e) = self.complex_elem(r) else { return Ok(()) };
        if e != re {
            return self.op_err(op, "failed to verify that complex element type matches real operand type");
        }
        if e != im {
            return self.op_err(op, "failed to verify that complex element type matches imaginary operand type");
        }
        Ok(())
    }

    /// re, im, abs, angle: the result is the complex element type.
    fn complex_part(&self, op: OpId) -> VResult {
        let (Some(c), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        match self.complex_elem(c) {
            Some(e) if e != r => self.op_err(op, "failed to verify that complex element type matches result type"),
            _ => Ok(()),
        }
    }

    fn complex_compare(&self, op: OpId) -> VResult {
        if let Some(r) = self.res(op, 0) {
            if !self.m.ctx.type_kind(r).is_signless_int(1) {
                return self.op_err(op, format!("result #0 must be 1-bit signless integer, but got '{}'", self.ty(r)));
            }
        }
        if self.opnd(op, 0) != self.opnd(op, 1) {
            return self.op_err(op, "failed to verify that all of {lhs, rhs} have same type");
        }
        Ok(())
    }

    fn complex_constant(&self, op: OpId) -> VResult {
        let Some(v) = self.m.attr(op, "value") else { return Ok(()) };
        let parts = match self.m.ctx.attr_kind(v) {
            Attribute::Array(p) if p.len() == 2 => p,
            _ => {
                return self.op_err(op, "requires 'value' to be a complex constant, represented as array of two values")
            }
        };
        let Some(e) = self.res(op, 0).and_then(|t| self.complex_elem(t)) else { return Ok(()) };
        let ty = |a: crate::attrs::AttrId| match self.m.ctx.attr_kind(a) {
            Attribute::Float { ty, .. } | Attribute::Integer { ty, .. } => Some(*ty),
            _ => None,
        };
        let (Some(a), Some(b)) = (ty(parts[0]), ty(parts[1])) else { return Ok(()) };
        if a != e || b != e {
            return self.op_err(
                op,
                format!(
                    "requires attribute's element types ('{}', '{}') to match the element type of the op's return type ('{}')",
                    self.ty(a),
                    self.ty(b),
                    self.ty(e)
                ),
            );
        }
        Ok(())
    }

    fn complex_powi(&self, op: OpId) -> VResult {
        match self.opnd(op, 1) {
            Some(t)
                if !matches!(self.m.ctx.type_kind(t), TypeKind::Integer { signedness: Signedness::Signless, .. }) =>
            {
                self.op_err(op, format!("operand #1 must be signless integer, but got '{}'", self.ty(t)))
            }
            _ => Ok(()),
        }
    }

    fn complex_bitcast(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        if a == b {
            return Ok(());
        }
        let scalar = |t: TypeId| matches!(self.m.ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_));
        if !scalar(a) && self.complex_elem(a).is_none() {
            return self.op_err(op, "operand must be int/float/complex");
        }
        if !scalar(b) && self.complex_elem(b).is_none() {
            return self.op_err(op, "result must be int/float/complex");
        }
        let (c, other) = match (self.complex_elem(a), self.complex_elem(b)) {
            (Some(e), None) => (e, b),
            (None, Some(e)) => (e, a),
            _ => return self.op_err(op, "requires that either input or output has a complex type"),
        };
        if self.bits(c).map(|x| x * 2) != self.bits(other) {
            return self.op_err(op, "casting bitwidths do not match");
        }
        Ok(())
    }

    /// to_tensor / to_buffer: the tensor and the buffer agree.
    fn tensor_buffer_match(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (ka, kb) = (self.m.ctx.type_kind(a), self.m.ctx.type_kind(b));
        let span = self.m.op(op).span;
        if let (Some(x), Some(y)) = (ka.shape(), kb.shape()) {
            if x != y {
                return self.err(span, "shapes do not match");
            }
        }
        if ka.elem() != kb.elem() {
            return self.err(span, "element types do not match");
        }
        Ok(())
    }

    fn materialize_in_destination(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        if matches!(self.m.ctx.type_kind(d), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. })
            && self.res(op, 0).is_some_and(|r| r != d)
        {
            return self.op_err(op, "result and 'dest' types must match");
        }
        match (self.shape_of(s), self.shape_of(d)) {
            (Some(x), Some(y)) if x.len() != y.len() => {
                self.op_err(op, "rank mismatch between source and destination shape")
            }
            (Some(_), Some(_)) if !self.shapes_compatible(s, d) => {
                self.op_err(op, "source/destination shapes are incompatible")
            }
            (Some(_), None) | (None, Some(_)) => self.op_err(op, "source/destination shapes are incompatible"),
            _ => Ok(()),
        }
    }

    fn alloc_tensor(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        let seg = self.segments(op).unwrap_or_default();
        let (ndyn, ncopy) = (seg.first().copied().unwrap_or(0), seg.get(1).copied().unwrap_or(0));
        let span = self.m.op(op).span;
        if ncopy > 0 && ndyn > 0 {
            return self.err(span, "dynamic sizes not needed when copying a tensor");
        }
        if ncopy == 0 {
            self.dynamic_sizes(op, r, ndyn)?;
        }
        if ncopy > 0 && self.opnd(op, ndyn) != Some(r) {
            return self.err(span, "expected that `copy` and return type match");
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use crate::diag::Source;

    fn check(text: &str) -> Result<(), String> {
        let src = Source::new("t.mlir", text);
        crate::parse_and_verify(&src).map(|_| ()).map_err(|d| d.render(&src))
    }

    /// Shaped-type rules must not reject what mlir-opt 22 accepts: broadcast
    /// of unit dims, dynamic and poison positions, broadcast transfer dims,
    /// batch and scalar contractions, rank-reducing slices, dynamic reshapes.
    #[test]
    fn accepts_valid_shaped_ops() {
        let text = include_str!("../fixtures/roundtrip/custom_vector.mlir");
        check(text).unwrap();
        let text = r#"
#bm = affine_map<(b, i, j, k) -> (b, i, k)>
#bk = affine_map<(b, i, j, k) -> (b, k, j)>
#bn = affine_map<(b, i, j, k) -> (b, i, j)>
#dot = affine_map<(k) -> (k)>
#scalar = affine_map<(k) -> ()>
func.func @ok(%v: vector<1x4xf32>, %w: vector<2x4x8xf32>, %i: index, %m: memref<?x?xf32>, %f: f32,
              %a: vector<2x4x3xf32>, %b: vector<2x3x5xf32>, %c: vector<2x4x5xf32>, %d: vector<3xf32>,
              %t: tensor<8x1x8xf32>, %s: tensor<4x4xf32>, %u: tensor<?x12xf32>, %q: memref<3x?xf32>) {
  %0 = vector.broadcast %v : vector<1x4xf32> to vector<3x2x4xf32>
  %1 = vector.extract %w[%i, 1] : vector<8xf32> from vector<2x4x8xf32>
  %2 = vector.extract %w[-1, 0, 0] : f32 from vector<2x4x8xf32>
  %3 = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<2x4xf32>
  %4 = vector.contract {indexing_maps = [#bm, #bk, #bn], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>} %a, %b, %c : vector<2x4x3xf32>, vector<2x3x5xf32> into vector<2x4x5xf32>
  %5 = vector.contract {indexing_maps = [#dot, #dot, #scalar], iterator_types = ["reduction"]} %d, %d, %f : vector<3xf32>, vector<3xf32> into f32
  %6 = tensor.extract_slice %t[0, 0, 0] [4, 1, 4] [1, 1, 2] : tensor<8x1x8xf32> to tensor<4x4xf32>
  %7 = tensor.insert_slice %s into %t[%i, 0, 0] [4, 1, 4] [1, 1, 1] : tensor<4x4xf32> into tensor<8x1x8xf32>
  %8 = tensor.expand_shape %u [[0], [1, 2]] output_shape [%i, 3, 4] : tensor<?x12xf32> into tensor<?x3x4xf32>
  %9 = tensor.collapse_shape %8 [[0, 1, 2]] : tensor<?x3x4xf32> into tensor<?xf32>
  %10 = tensor.concat dim(1) %s, %s : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x?xf32>
  %11 = memref.collapse_shape %q [[0, 1]] : memref<3x?xf32> into memref<?xf32>
  %12 = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
  %13 = vector.bitcast %w : vector<2x4x8xf32> to vector<2x4x16xf16>
  %14 = vector.shuffle %d, %d [0, -1, 5] : vector<3xf32>, vector<3xf32>
  %15 = vector.extract_strided_slice %w {offsets = [1], sizes = [1], strides = [1]} : vector<2x4x8xf32> to vector<1x4x8xf32>
  %16 = vector.insert_strided_slice %d, %w {offsets = [1, 2, 5], strides = [1]} : vector<3xf32> into vector<2x4x8xf32>
  %17 = vector.outerproduct %d, %f : vector<3xf32>, f32
  %18 = vector.multi_reduction <add>, %w, %f [0, 1, 2] : vector<2x4x8xf32> to f32
  %19 = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  %20 = complex.bitcast %19 : complex<f32> to i64
  %21 = tensor.pad %s low[%i, 1] high[2, 2] {
  ^bb0(%x: index, %y: index):
    tensor.yield %f : f32
  } : tensor<4x4xf32> to tensor<?x7xf32>
  return
}"#;
        check(text).unwrap();
    }

    /// Generic forms with missing operands, attributes or segment sizes that
    /// lie must be judged without panicking.
    #[test]
    fn malformed_generic_forms_do_not_panic() {
        let ops = [
            r#""vector.extract"() : () -> f32"#,
            r#""vector.insert"(%f) : (f32) -> vector<4xf32>"#,
            r#""vector.shuffle"(%v) <{mask = array<i64: 0>}> : (vector<4xf32>) -> vector<1xf32>"#,
            r#""vector.transfer_read"(%m) <{operandSegmentSizes = array<i32: 1, 5, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>, in_bounds = [false]}> : (memref<?xf32>) -> vector<4xf32>"#,
            r#""vector.maskedload"(%m) : (memref<?xf32>) -> vector<4xf32>"#,
            r#""vector.gather"(%m, %v) : (memref<?xf32>, vector<4xf32>) -> vector<4xf32>"#,
            r#""vector.contract"(%v, %v, %v) <{indexing_maps = [], iterator_types = []}> : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>"#,
            r#""vector.transpose"(%v) <{permutation = array<i64: 7>}> : (vector<4xf32>) -> vector<4xf32>"#,
            r#""vector.extract_strided_slice"(%v) <{offsets = [0, 0], sizes = [1], strides = [1]}> : (vector<4xf32>) -> vector<1xf32>"#,
            r#""tensor.extract_slice"(%t) <{static_offsets = array<i64: 0>, static_sizes = array<i64>, static_strides = array<i64>, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (tensor<4xf32>) -> tensor<4xf32>"#,
            r#""tensor.expand_shape"(%t) <{reassociation = [[0, 5]], static_output_shape = array<i64: 2, 2>}> : (tensor<4xf32>) -> tensor<2x2xf32>"#,
            r#""tensor.pad"(%t) <{static_low = array<i64>, static_high = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0>}> ({}) : (tensor<4xf32>) -> tensor<5xf32>"#,
            r#""tensor.concat"() <{dim = 9 : i64}> : () -> tensor<4xf32>"#,
            r#""memref.collapse_shape"(%m) <{reassociation = [[3]]}> : (memref<?xf32>) -> memref<?xf32>"#,
            r#""complex.bitcast"(%f) : (f32) -> i32"#,
            r#""bufferization.alloc_tensor"() <{operandSegmentSizes = array<i32: 4, 1, 0>}> : () -> tensor<?xf32>"#,
        ];
        for o in ops {
            let text = format!(
                "func.func @f(%f: f32, %v: vector<4xf32>, %m: memref<?xf32>, %t: tensor<4xf32>) {{\n  %r = {o}\n  return\n}}"
            );
            let _ = check(&text);
        }
    }

    /// The ops LLVM 22 removed keep LLVM 21's rules: a 0-D vector takes no
    /// position, a 1-D vector one, wider vectors none at all.
    #[test]
    fn legacy_vector_ops_follow_llvm_21() {
        let run = |body: &str| {
            check(&format!(
                "func.func @f(%f: f32, %i: index, %v: vector<4xf32>, %z: vector<f32>, %w: vector<2x2xf32>) {{\n  {body}\n  return\n}}"
            ))
        };
        for ok in [
            "%r = vector.splat %f : vector<4xf32>",
            "%r = vector.extractelement %v[%i : index] : vector<4xf32>",
            "%r = vector.extractelement %z[] : vector<f32>",
            "%r = vector.insertelement %f, %v[%i : index] : vector<4xf32>",
            "%r = vector.insertelement %f, %z[] : vector<f32>",
        ] {
            run(ok).unwrap();
        }
        for (bad, msg) in [
            ("%r = vector.extractelement %v[] : vector<4xf32>", "expected position for 1-D vector"),
            (
                r#"%r = "vector.extractelement"(%z, %i) : (vector<f32>, index) -> f32"#,
                "expected position to be empty with 0-D vector",
            ),
            (r#"%r = "vector.extractelement"(%w, %i) : (vector<2x2xf32>, index) -> f32"#, "unexpected >1 vector rank"),
            (r#"%r = "vector.splat"(%i) : (index) -> vector<4xf32>"#, "operand type matches element type of result"),
        ] {
            let err = run(bad).unwrap_err();
            assert!(err.contains(msg), "{bad}: {err}");
        }
    }
}
