//! Which operands an op reads for the last time, decided once at load: the
//! operand is a tensor defined in the op's own block (by an op, or as one
//! of its arguments), every use of it is an op directly in that block (not
//! in a nested region) at or before this one, and this op names it once.
//! Nothing reads such a slot again before the block runs again and
//! redefines it, so the op may take the value out of its slot instead of
//! sharing it (`Engine::take_arg`), and an update that then finds no other
//! owner (`Engine::unique`) happens in place: a loop that inserts into
//! the tensor it carries is linear in its iterations, not quadratic.
//!
//! Block arguments count only where every reader of their slots is an
//! op's operand: blocks other than their region's entry (branches set
//! them), and the entry blocks of functions, `scf.for`, `affine.for` and
//! `scf.while`. (`scf.forall.in_parallel` reads the slots of its loop's
//! shared outputs without naming them, so the body's arguments of
//! `scf.forall`, and of every other op, are left out.)

use mlir_ir::ir::{BlockId, Module, OpId, ValueDef, ValueId};
use mlir_ir::ops::OpKind;
use mlir_ir::types::TypeKind;

/// For every op, by id: bit `i` set when operand `i` (`i < 64`) is the
/// last read of its value in the sense above.
pub fn last_reads(m: &Module) -> Vec<u64> {
    // Per value: the id of the last op reading it, NONE before any read,
    // SHARED once a read (or the value itself) rules it out.
    const NONE: u32 = u32::MAX;
    const SHARED: u32 = u32::MAX - 1;
    let mut last = vec![NONE; m.values.len()];
    for (b, block) in m.blocks.iter().enumerate() {
        let b = BlockId(b as u32);
        // In block order: the last assignment is the last reader.
        for &op in &block.ops {
            for &v in m.operands(op) {
                let Some(l) = last.get_mut(v.0 as usize) else { continue };
                if *l == SHARED {
                    continue;
                }
                *l = if home(m, v) == Some(b) { op.0 } else { SHARED };
            }
        }
    }
    let mut out = vec![0u64; m.ops.len()];
    for (v, &l) in last.iter().enumerate() {
        if l >= SHARED {
            continue;
        }
        let op = OpId(l);
        let v = ValueId(v as u32);
        let at: Vec<usize> = m.operands(op).iter().enumerate().filter(|(_, w)| **w == v).map(|(i, _)| i).collect();
        let group = |i: usize| branch_group(m, op, i);
        let once = at.iter().enumerate().all(|(k, i)| at[..k].iter().all(|j| group(*j) != group(*i)));
        if let (true, Some(bits)) = (once, out.get_mut(l as usize)) {
            for i in at.into_iter().filter(|i| *i < 64) {
                *bits |= 1 << i;
            }
        }
    }
    out
}

/// Which of `op`'s operand lists operand `i` is in, where only one list
/// is read when the op runs: `cf.cond_br` copies its true or its false
/// destination's operands, so a value may go to both. Every other op
/// reads all its operands (one list).
fn branch_group(m: &Module, op: OpId, i: usize) -> usize {
    if m.op(op).name.kind != OpKind::CfCondBr {
        return 0;
    }
    let nt = m.successors(op).first().map_or(0, |t| m.block(*t).args.len as usize);
    match i {
        0 => 0,
        i if i <= nt => 1,
        _ => 2,
    }
}

/// The block whose runs define tensor `v` anew, if its slot is read only
/// as an operand there (see the module's comment); `None` for any other
/// value.
fn home(m: &Module, v: ValueId) -> Option<BlockId> {
    let val = m.value(v);
    if !matches!(m.ctx.type_kind(val.ty), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }) {
        return None;
    }
    match val.def {
        ValueDef::Result(op, _) => m.op(op).parent,
        ValueDef::Arg(b, _) => {
            let r = m.block(b).parent?;
            let entry = m.region(r).blocks.first() == Some(&b);
            let parent = m.region(r).parent.map(|p| m.op(p).name.kind);
            let ok = !entry
                || matches!(parent, Some(OpKind::FuncFunc | OpKind::ScfFor | OpKind::AffineFor | OpKind::ScfWhile));
            ok.then_some(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::last_reads;
    use crate::exec::{Config, Engine, Observer};
    use mlir_ir::diag::Source;
    use mlir_ir::ops::OpKind;

    /// The bits of the ops of kind `k` in `text`, in order.
    fn bits_of(text: &str, k: OpKind) -> Vec<u64> {
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).map_err(|d| d.render(&src)).unwrap();
        let bits = last_reads(&m);
        (0..m.ops.len()).filter(|i| m.ops[*i].name.kind == k).map(|i| bits[i]).collect()
    }

    /// The insert into the carried tensor is its last read; the extract
    /// before it is not, and a tensor read again later, used twice by one
    /// op, read in a nested region or an argument of `scf.forall` is never
    /// taken.
    #[test]
    fn last_reads_in_a_loop() {
        let text = r#"
func.func @f(%t0: tensor<4xi32>, %n: index, %x: i32) -> (tensor<4xi32>, tensor<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t0) -> (tensor<4xi32>) {
    %old = tensor.extract %acc[%c0] : tensor<4xi32>
    %u = tensor.insert %old into %acc[%c1] : tensor<4xi32>
    %w = tensor.insert %x into %u[%c0] : tensor<4xi32>
    %e = tensor.extract %u[%c1] : tensor<4xi32>
    scf.yield %w : tensor<4xi32>
  }
  %s = tensor.insert_slice %r into %r[0] [4] [1] : tensor<4xi32> into tensor<4xi32>
  %g = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (tensor<4xi32>) {
    %v = scf.execute_region -> tensor<4xi32> {
      scf.yield %s : tensor<4xi32>
    }
    scf.yield %v : tensor<4xi32>
  }
  %f = scf.forall (%i) in (4) shared_outs(%o = %g) -> (tensor<4xi32>) {
    %z = tensor.insert %x into %o[%i] : tensor<4xi32>
    scf.forall.in_parallel {
    }
  }
  return %f, %s : tensor<4xi32>, tensor<4xi32>
}
"#;
        // %acc by the first insert; %u is read after the second insert.
        // The insert in scf.forall updates an argument of its body.
        assert_eq!(bits_of(text, OpKind::TensorInsert), vec![1 << 1, 0, 0]);
        // %acc is inserted into after its extract; %u's extract is its last read.
        assert_eq!(bits_of(text, OpKind::TensorExtract), vec![0, 1]);
        // The yield is %w's last read; %v's too.
        assert_eq!(bits_of(text, OpKind::ScfYield), vec![1, 0, 1]);
        // %r twice in one op; %s read in a nested region.
        assert_eq!(bits_of(text, OpKind::TensorInsertSlice), vec![0]);
        assert_eq!(bits_of(text, OpKind::FuncReturn), vec![1]);
    }

    /// Watches nothing, but makes the engine run every op through its
    /// dialect and keep every value in its slot.
    struct Watch;
    impl Observer for Watch {}

    /// Runs `main` of `text`, observed or not: the output and the bytes
    /// of tensors copied for updates.
    fn run(text: &str, observed: bool) -> (String, u64) {
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let mut buf = Vec::new();
        let copied = {
            let mut e = Engine::load(&m, Config::default(), Box::new(&mut buf)).unwrap();
            if observed {
                e.observer = Some(Box::new(Watch));
            }
            e.run_entry("main").unwrap_or_else(|x| panic!("{}", x.render(&m, &src)));
            e.copied_bytes()
        };
        (String::from_utf8(buf).unwrap(), copied)
    }

    /// A loop of blocks whose tensor is a block argument (which
    /// one-shot-bufferize rejects, so no fixture has it): the branches
    /// move the tensor between the arguments (`cf.cond_br` to either
    /// destination) and the insert updates it in place, one copy in all
    /// (of the constant); an observed run copies on every iteration and
    /// prints the same, the initial value unchanged.
    #[test]
    fn branches_move_tensors() {
        let text = r#"
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %t0 = arith.constant dense<0> : tensor<1000xi32>
  cf.br ^loop(%c0, %t0 : index, tensor<1000xi32>)
^loop(%i: index, %acc: tensor<1000xi32>):
  %more = arith.cmpi ult, %i, %n : index
  cf.cond_br %more, ^body(%acc : tensor<1000xi32>), ^done(%acc : tensor<1000xi32>)
^body(%x: tensor<1000xi32>):
  %ii = arith.index_cast %i : index to i32
  %u = tensor.insert %ii into %x[%i] : tensor<1000xi32>
  %next = arith.addi %i, %c1 : index
  cf.br ^loop(%next, %u : index, tensor<1000xi32>)
^done(%r: tensor<1000xi32>):
  %c999 = arith.constant 999 : index
  %a = tensor.extract %r[%c999] : tensor<1000xi32>
  %b = tensor.extract %t0[%c999] : tensor<1000xi32>
  vector.print %a : i32
  vector.print %b : i32
  return
}
"#;
        let (out, copied) = run(text, false);
        assert_eq!(out, "999\n0\n");
        assert_eq!(copied, 4000);
        let (watched, all) = run(text, true);
        assert_eq!(watched, out);
        assert!(all >= 1000 * 4000, "observed: {all} bytes copied");
    }
}
