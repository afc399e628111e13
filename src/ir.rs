//! The IR: arenas of operations, blocks, regions and values addressed by
//! `u32` ids, plus the [`Context`] that uniques types and attributes. The IR
//! is built once by the parser and read-only afterwards.

use crate::attrs::{AttrId, Attribute, IntVal};
use crate::diag::Span;
use crate::ident::{Ident, Interner};
use crate::ops::OpKind;
use crate::types::{FloatKind, Signedness, TypeId, TypeKind};
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId(pub u32);
/// A block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
/// A region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(pub u32);
/// An SSA value (an op result or a block argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// A `start..start+len` slice of one of the pooled vectors of a [`Module`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Range {
    /// First index.
    pub start: u32,
    /// Number of elements.
    pub len: u32,
}

impl Range {
    /// The indices as a Rust range.
    pub fn indices(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Uniques values of `T`: each distinct value gets one id.
#[derive(Clone, Debug)]
struct Uniquer<T> {
    items: Vec<T>,
    table: rustc_hash::FxHashMap<u64, u32>,
    // Ids whose hash collided with an earlier item, chained by index.
    chain: Vec<u32>,
}

impl<T: Hash + Eq> Uniquer<T> {
    fn new() -> Self {
        Uniquer { items: Vec::new(), table: Default::default(), chain: Vec::new() }
    }

    fn intern(&mut self, v: T) -> u32 {
        let mut h = FxHasher::default();
        v.hash(&mut h);
        let h = h.finish();
        let mut cur = self.table.get(&h).copied();
        while let Some(i) = cur {
            if self.items[i as usize] == v {
                return i;
            }
            cur = match self.chain[i as usize] {
                u32::MAX => None,
                n => Some(n),
            };
        }
        let id = self.items.len() as u32;
        let prev = self.table.insert(h, id).unwrap_or(u32::MAX);
        self.items.push(v);
        self.chain.push(prev);
        id
    }
}

/// Owner of the uniqued types, attributes and strings.
#[derive(Clone, Debug)]
pub struct Context {
    /// Interned strings.
    pub idents: Interner,
    types: Uniquer<TypeKind>,
    attrs: Uniquer<Attribute>,
    /// The encoding inside each sparse_tensor dialect type, which keeps
    /// its body as text.
    sparse_types: rustc_hash::FxHashMap<TypeId, AttrId>,
}

impl Default for Context {
    fn default() -> Self {
        Context {
            idents: Interner::default(),
            types: Uniquer::new(),
            attrs: Uniquer::new(),
            sparse_types: Default::default(),
        }
    }
}

impl Context {
    /// Records that sparse_tensor type `t` carries `encoding`.
    pub fn set_sparse_type_encoding(&mut self, t: TypeId, encoding: AttrId) {
        self.sparse_types.insert(t, encoding);
    }

    /// The encoding attribute recorded for sparse_tensor type `t`.
    pub fn sparse_types_of(&self, t: TypeId) -> Option<AttrId> {
        self.sparse_types.get(&t).copied()
    }

    /// The sparse encoding of a ranked tensor type, if it has one.
    pub fn tensor_encoding(&self, t: TypeId) -> Option<&crate::sparse::SparseEncoding> {
        match self.type_kind(t) {
            crate::types::TypeKind::RankedTensor { encoding: Some(e), .. } => match self.attr_kind(*e) {
                Attribute::SparseEncoding(enc) => Some(enc),
                _ => None,
            },
            _ => None,
        }
    }

    /// The encoding of a `!sparse_tensor.storage_specifier`, `iter_space`
    /// or `iterator` type.
    pub fn sparse_type_encoding(&self, t: TypeId) -> Option<&crate::sparse::SparseEncoding> {
        match self.attr_kind(*self.sparse_types.get(&t)?) {
            Attribute::SparseEncoding(e) => Some(e),
            _ => None,
        }
    }

    /// The id of type `t`.
    pub fn ty(&mut self, mut t: TypeKind) -> TypeId {
        if let TypeKind::MemRef { space, .. } | TypeKind::UnrankedMemRef { space, .. } = &mut t {
            *space = space.filter(|&a| !self.is_default_memory_space(a));
        }
        TypeId(self.types.intern(t))
    }

    /// Whether `a` names the default memory space: an integer 0 of any type,
    /// `false` included (a `BoolAttr` is an i1 `IntegerAttr`). MLIR's
    /// `MemRefType::get` drops such an attribute (`skipDefaultMemorySpace`),
    /// so `memref<4xf32, 0 : i32>` *is* `memref<4xf32>`; interning it without
    /// the space makes the spellings one type everywhere (uses, equality,
    /// printing, lowering).
    fn is_default_memory_space(&self, a: AttrId) -> bool {
        matches!(self.attr_kind(a), Attribute::Integer { value: IntVal::Small(0), .. } | Attribute::Bool(false))
    }

    /// The structure of type `t`.
    pub fn type_kind(&self, t: TypeId) -> &TypeKind {
        &self.types.items[t.0 as usize]
    }

    /// The id of attribute `a`.
    pub fn attr(&mut self, a: Attribute) -> AttrId {
        AttrId(self.attrs.intern(a))
    }

    /// The structure of attribute `a`.
    pub fn attr_kind(&self, a: AttrId) -> &Attribute {
        &self.attrs.items[a.0 as usize]
    }

    /// Interns a string.
    pub fn ident(&mut self, s: &str) -> Ident {
        self.idents.intern(s)
    }

    /// The text of an interned string.
    pub fn str(&self, i: Ident) -> &str {
        self.idents.str(i)
    }

    /// `iN`.
    pub fn int_type(&mut self, width: u32) -> TypeId {
        self.ty(TypeKind::Integer { width, signedness: Signedness::Signless })
    }

    /// `index`.
    pub fn index_type(&mut self) -> TypeId {
        self.ty(TypeKind::Index)
    }

    /// A float type.
    pub fn float_type(&mut self, k: FloatKind) -> TypeId {
        self.ty(TypeKind::Float(k))
    }
}

/// What an operation is: its resolved kind and its full name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpName {
    /// The op, or [`OpKind::Unknown`].
    pub kind: OpKind,
    /// The full name as written (`arith.addi`).
    pub ident: Ident,
}

/// One operation.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Its name.
    pub name: OpName,
    /// Operands, in the module's operand pool.
    pub operands: Range,
    /// Results: consecutive value ids.
    pub results: Range,
    /// Successor blocks, in the module's successor pool.
    pub successors: Range,
    /// Regions, in the module's region pool.
    pub regions: Range,
    /// Properties `<{...}>` (a dictionary attribute) if written.
    pub properties: Option<AttrId>,
    /// Attributes `{...}`, in source order.
    pub attrs: Vec<(Ident, AttrId)>,
    /// Where the op starts in the source (its first result or its name).
    pub span: Span,
    /// The trailing `loc(...)`, if any.
    pub loc: Option<AttrId>,
    /// The block it is in; `None` for the top-level module.
    pub parent: Option<BlockId>,
}

/// One block.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Arguments: consecutive value ids.
    pub args: Range,
    /// Operations in order.
    pub ops: Vec<OpId>,
    /// The region it is in.
    pub parent: Option<RegionId>,
    /// Where its label (or first op) is.
    pub span: Span,
}

/// One region.
#[derive(Clone, Debug, Default)]
pub struct Region {
    /// Blocks in order; the first is the entry block.
    pub blocks: Vec<BlockId>,
    /// The op it belongs to.
    pub parent: Option<OpId>,
    /// Its closing `}` (empty if not parsed from text): where a terminator
    /// the parser adds is placed, so it is not shown as another op's line.
    pub close: Span,
}

/// What defines a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result `n` of an op.
    Result(OpId, u32),
    /// Argument `n` of a block.
    Arg(BlockId, u32),
}

/// One SSA value.
#[derive(Clone, Copy, Debug)]
pub struct Value {
    /// Its type.
    pub ty: TypeId,
    /// Its definition.
    pub def: ValueDef,
    /// Where it is defined in the source.
    pub span: Span,
}

/// A `{-# dialect_resources: ... #-}` or `external_resources` entry.
#[derive(Clone, Debug)]
pub struct Resource {
    /// True for `external_resources` (tool configuration such as
    /// `mlir_reproducer`), false for `dialect_resources`.
    pub external: bool,
    /// Dialect (`builtin` for `dense_resource` blobs), or the external
    /// resource group's name.
    pub dialect: Box<str>,
    /// The key.
    pub key: Box<str>,
    /// The value: a blob (alignment prefix removed), a string, or a bool.
    pub value: ResourceValue,
    /// Where the entry is.
    pub span: Span,
}

/// The value of a resource entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceValue {
    /// A hex blob: alignment and bytes.
    Blob {
        /// Declared alignment.
        align: u32,
        /// The data.
        data: Vec<u8>,
    },
    /// A string.
    String(Vec<u8>),
    /// A bool.
    Bool(bool),
}

/// A parsed file: all ops, blocks, regions and values, plus its context.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Types, attributes, strings.
    pub ctx: Context,
    /// All ops.
    pub ops: Vec<Operation>,
    /// All blocks.
    pub blocks: Vec<Block>,
    /// All regions.
    pub regions: Vec<Region>,
    /// All values.
    pub values: Vec<Value>,
    /// Operand pool.
    pub operand_pool: Vec<ValueId>,
    /// Successor pool.
    pub succ_pool: Vec<BlockId>,
    /// Region pool.
    pub region_pool: Vec<RegionId>,
    /// The top-level `builtin.module` op.
    pub top: Option<OpId>,
    /// Dialect and external resources.
    pub resources: Vec<Resource>,
    /// Attribute aliases `#name = ...` in definition order (kept for printing).
    pub attr_aliases: Vec<(Box<str>, AttrId)>,
    /// Type aliases `!name = ...` in definition order.
    pub type_aliases: Vec<(Box<str>, TypeId)>,
}

impl Module {
    /// The op `id`.
    pub fn op(&self, id: OpId) -> &Operation {
        &self.ops[id.0 as usize]
    }

    /// The block `id`.
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }

    /// Whether `op` is a terminator the parser added (MLIR's implicit
    /// `scf.yield`, `affine.yield`, ...): it stands at its region's `}`.
    pub fn is_implicit(&self, op: OpId) -> bool {
        let o = self.op(op);
        let Some(region) = o.parent.and_then(|b| self.block(b).parent) else { return false };
        let close = self.region(region).close;
        close.end > close.start && o.span == close
    }

    /// Region `id`.
    pub fn region(&self, id: RegionId) -> &Region {
        &self.regions[id.0 as usize]
    }

    /// The value `id`.
    pub fn value(&self, id: ValueId) -> &Value {
        &self.values[id.0 as usize]
    }

    /// The operands of `op`.
    pub fn operands(&self, op: OpId) -> &[ValueId] {
        &self.operand_pool[self.op(op).operands.indices()]
    }

    /// The results of `op`.
    pub fn results(&self, op: OpId) -> impl ExactSizeIterator<Item = ValueId> + '_ {
        self.op(op).results.indices().map(|i| ValueId(i as u32))
    }

    /// Result `i` of `op`.
    pub fn result(&self, op: OpId, i: usize) -> ValueId {
        ValueId(self.op(op).results.start + i as u32)
    }

    /// The successors of `op`.
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        &self.succ_pool[self.op(op).successors.indices()]
    }

    /// The regions of `op`.
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        &self.region_pool[self.op(op).regions.indices()]
    }

    /// The arguments of `block`.
    pub fn args(&self, block: BlockId) -> impl ExactSizeIterator<Item = ValueId> + '_ {
        self.block(block).args.indices().map(|i| ValueId(i as u32))
    }

    /// The full name of `op`.
    pub fn op_name(&self, op: OpId) -> &str {
        self.ctx.str(self.op(op).name.ident)
    }

    /// The type of `v`.
    pub fn type_of(&self, v: ValueId) -> TypeId {
        self.value(v).ty
    }

    /// An inherent or discardable attribute of `op` by name (properties first).
    pub fn attr(&self, op: OpId, name: &str) -> Option<AttrId> {
        let id = self.ctx.idents.get(name)?;
        self.property(op, name).or_else(|| self.op(op).attrs.iter().find(|(n, _)| *n == id).map(|(_, a)| *a))
    }

    /// Property `name` of `op` from its `<{...}>` section alone: for the
    /// properties mlir-opt never takes from the attribute dictionary (the
    /// llvm dialect's `overflowFlags`), where the same name is discardable.
    pub fn property(&self, op: OpId, name: &str) -> Option<AttrId> {
        let id = self.ctx.idents.get(name)?;
        match self.op(op).properties.map(|p| self.ctx.attr_kind(p)) {
            Some(Attribute::Dict(entries)) => entries.iter().find(|(n, _)| *n == id).map(|(_, a)| *a),
            _ => None,
        }
    }

    /// The op that contains `op` (through its block and region).
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.op(op).parent?;
        let r = self.block(b).parent?;
        self.region(r).parent
    }

    /// The last op of `block`, if any.
    pub fn terminator(&self, block: BlockId) -> Option<OpId> {
        self.block(block).ops.last().copied()
    }
}
