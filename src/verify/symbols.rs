//! Symbols: unique names in symbol tables, references that resolve, and
//! calls whose callee's signature matches.

use super::*;

impl<'m> Verifier<'m> {
    pub(super) fn sym_name(&self, op: OpId) -> Option<&[u8]> {
        match self.m.ctx.attr_kind(self.m.attr(op, "sym_name")?) {
            Attribute::String { value, .. } => Some(value),
            _ => None,
        }
    }

    pub(super) fn symbols(&self, op: OpId) -> VResult {
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
        if kind == OpKind::FuncConstant {
            self.check_func_constant(op)?;
        }
        if matches!(kind, OpKind::LlvmAddressof | OpKind::LlvmCall | OpKind::LlvmGlobalCtors | OpKind::LlvmGlobalDtors)
        {
            self.llvm_symbol_uses(op)?;
        }
        if kind == OpKind::MemrefGetGlobal {
            if let Some(a) = self.m.attr(op, "name") {
                if let Attribute::SymbolRef { root, nested } = self.m.ctx.attr_kind(a) {
                    let found = self.lookup_symbol(op, root, nested).filter(|t| self.kind(*t) == OpKind::MemrefGlobal);
                    let n = String::from_utf8_lossy(root).into_owned();
                    let Some(g) = found else {
                        return self.op_err(op, format!("'{n}' does not reference a valid global memref"));
                    };
                    // The engine reads the global's storage as the result's
                    // type, so the two must be one type (mlir-opt's
                    // GetGlobalOp::verifySymbolUses).
                    let global = self.m.attr(g, "type").map(|a| self.m.ctx.attr_kind(a));
                    let result = self.m.results(op).next().map(|r| self.m.type_of(r));
                    if let (Some(Attribute::Type(gt)), Some(rt)) = (global, result) {
                        if *gt != rt {
                            return self.op_err(
                                op,
                                format!(
                                    "result type '{}' does not match type '{}' of the global memref @{n}",
                                    self.ty(rt),
                                    self.ty(*gt)
                                ),
                            );
                        }
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

    pub(super) fn func_type(&self, op: OpId) -> Option<(&'m [TypeId], &'m [TypeId])> {
        let a = self.m.attr(op, "function_type")?;
        let Attribute::Type(t) = self.m.ctx.attr_kind(a) else { return None };
        match self.m.ctx.type_kind(*t) {
            TypeKind::Function { inputs, results } => Some((inputs, results)),
            _ => None,
        }
    }

    /// `func.constant @f`: `@f` is a `func.func` of the result's type
    /// (mlir-opt's ConstantOp::verifySymbolUses).
    fn check_func_constant(&self, op: OpId) -> VResult {
        let Some(Attribute::SymbolRef { root, nested }) = self.m.attr(op, "value").map(|a| self.m.ctx.attr_kind(a))
        else {
            return Ok(());
        };
        let target = self.lookup_symbol(op, root, nested).filter(|t| self.kind(*t) == OpKind::FuncFunc);
        let Some(f) = target else {
            let name = String::from_utf8_lossy(root);
            return self.op_err(op, format!("reference to undefined function '{name}'"));
        };
        let fty = self.m.attr(f, "function_type").map(|a| self.m.ctx.attr_kind(a));
        let rty = self.m.results(op).next().map(|r| self.m.type_of(r));
        match (fty, rty) {
            (Some(Attribute::Type(t)), Some(r)) if *t == r => Ok(()),
            _ => self.op_err(op, "reference to function with mismatched type"),
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
}
