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

/// Checks `m`; the first violation is returned as a diagnostic.
pub fn verify(m: &Module) -> Result<(), Diagnostic> {
    let Some(top) = m.top else { return Ok(()) };
    let v = Verifier { m };
    v.structure(top)?;
    v.dominance(top)?;
    v.symbols(top)?;
    Ok(())
}

struct Verifier<'m> {
    m: &'m Module,
}

type VResult = Result<(), Diagnostic>;

/// How an op's operands split among its successors.
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
        let mut dom_cache: FxHashMap<RegionId, Dominators> = FxHashMap::default();
        self.dominance_op(top, &mut dom_cache)
    }

    fn dominance_op(&self, op: OpId, cache: &mut FxHashMap<RegionId, Dominators>) -> VResult {
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

    fn dominates(&self, v: ValueId, user: OpId, cache: &mut FxHashMap<RegionId, Dominators>) -> bool {
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
                        Some(d) => {
                            let ops = &self.m.block(b).ops;
                            let pd = ops.iter().position(|x| *x == d);
                            let pu = ops.iter().position(|x| *x == cur);
                            matches!((pd, pu), (Some(a), Some(c)) if a < c)
                        }
                    };
                }
                let doms = cache.entry(r).or_insert_with(|| Dominators::new(self.m, r));
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
        for &r in self.m.regions(table) {
            for &b in &self.m.region(r).blocks {
                for &o in &self.m.block(b).ops {
                    if self.sym_name(o) == Some(name) {
                        return Some(o);
                    }
                }
            }
        }
        None
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
                            return self.op_err(op, format!("must have an else block if defining values"));
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
            ComplexPowi | ComplexAbs | ComplexAngle | ComplexRe | ComplexIm | ComplexCreate | ComplexConstant
            | ComplexEq | ComplexNeq | ComplexBitcast => Ok(()),
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
                        return self.op_err(op, format!("store index operand count not equal to memref rank"));
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
            TensorBitcast
            | TensorCast
            | TensorCollapseShape
            | TensorConcat
            | TensorDim
            | TensorExpandShape
            | TensorExtractSlice
            | TensorGather
            | TensorGenerate
            | TensorInsertSlice
            | TensorPad
            | TensorParallelInsertSlice
            | TensorRank
            | TensorReshape
            | TensorScatter
            | TensorSplat => Ok(()),
            BufferizationAllocTensor
            | BufferizationClone
            | BufferizationDealloc
            | BufferizationDeallocTensor
            | BufferizationMaterializeInDestination
            | BufferizationToBuffer
            | BufferizationToTensor => Ok(()),
            VectorBitcast
            | VectorBroadcast
            | VectorCompressstore
            | VectorConstantMask
            | VectorContract
            | VectorCreateMask
            | VectorDeinterleave
            | VectorExpandload
            | VectorExtract
            | VectorExtractStridedSlice
            | VectorFma
            | VectorFromElements
            | VectorGather
            | VectorInsert
            | VectorInsertStridedSlice
            | VectorInterleave
            | VectorLoad
            | VectorMask
            | VectorMaskedload
            | VectorMaskedstore
            | VectorMultiReduction
            | VectorOuterproduct
            | VectorPrint
            | VectorReduction
            | VectorScalableExtract
            | VectorScalableInsert
            | VectorScan
            | VectorScatter
            | VectorShapeCast
            | VectorShuffle
            | VectorStep
            | VectorStore
            | VectorToElements
            | VectorTransferRead
            | VectorTransferWrite
            | VectorTranspose
            | VectorTypeCast
            | VectorVscale
            | VectorYield => Ok(()),
            AffineFor
            | AffineIf
            | AffineParallel
            | AffineDmaStart
            | AffineDmaWait
            | AffineDelinearizeIndex
            | AffineLinearizeIndex
            | UbUnreachable => Ok(()),
            MemrefAllocaScope
            | MemrefAllocaScopeReturn
            | MemrefAssumeAlignment
            | MemrefAtomicRmw
            | MemrefAtomicYield
            | MemrefCollapseShape
            | MemrefCopy
            | MemrefDealloc
            | MemrefDim
            | MemrefDmaStart
            | MemrefDmaWait
            | MemrefExpandShape
            | MemrefExtractAlignedPointerAsIndex
            | MemrefExtractStridedMetadata
            | MemrefGenericAtomicRmw
            | MemrefGetGlobal
            | MemrefGlobal
            | MemrefMemorySpaceCast
            | MemrefPrefetch
            | MemrefRank
            | MemrefRealloc
            | MemrefReinterpretCast
            | MemrefReshape
            | MemrefSubview
            | MemrefTranspose
            | MemrefView => Ok(()),
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
                if iw == 0 || rw % iw != 0 {
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
            CombIcmp | CombMux | CombParity | CombLut => Ok(()),
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

/// Block dominators of one region (iterative data-flow; regions are small).
struct Dominators {
    index: FxHashMap<BlockId, usize>,
    /// dom[i] = set of blocks dominating block i (as a bit vector); None if unreachable.
    dom: Vec<Option<Vec<bool>>>,
}

impl Dominators {
    fn new(m: &Module, r: RegionId) -> Dominators {
        let blocks = &m.region(r).blocks;
        let n = blocks.len();
        let index: FxHashMap<BlockId, usize> = blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, b) in blocks.iter().enumerate() {
            if let Some(t) = m.terminator(*b) {
                for s in m.successors(t) {
                    if let Some(&j) = index.get(s) {
                        preds[j].push(i);
                    }
                }
            }
        }
        // Reachability from the entry block.
        let mut reach = vec![false; n];
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            if n == 0 || reach[i] {
                continue;
            }
            reach[i] = true;
            if let Some(t) = m.terminator(blocks[i]) {
                for s in m.successors(t) {
                    if let Some(&j) = index.get(s) {
                        stack.push(j);
                    }
                }
            }
        }
        let mut dom: Vec<Option<Vec<bool>>> =
            (0..n).map(|i| if reach[i] { Some(vec![i != 0 || n == 0; n]) } else { None }).collect();
        if n > 0 {
            let mut e = vec![false; n];
            e[0] = true;
            dom[0] = Some(e);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for i in 1..n {
                if !reach[i] {
                    continue;
                }
                let mut new = vec![true; n];
                for &p in &preds[i] {
                    if let Some(pd) = &dom[p] {
                        for k in 0..n {
                            new[k] &= pd[k];
                        }
                    }
                }
                new[i] = true;
                if dom[i].as_ref() != Some(&new) {
                    dom[i] = Some(new);
                    changed = true;
                }
            }
        }
        Dominators { index, dom }
    }

    /// True when block `a` dominates block `b` (uses in unreachable blocks are fine).
    fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (Some(&ia), Some(&ib)) = (self.index.get(&a), self.index.get(&b)) else { return true };
        match &self.dom[ib] {
            None => true,
            Some(d) => d[ia],
        }
    }
}
