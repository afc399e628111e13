//! Watches a run with a custom observer: counts executed ops by name and
//! prints every call with its arguments, using the engine's view of the
//! program (`e.m`) and frame (`e.get`).
//!
//! Run: `cargo run --release --example observer`

use mlir_interp::exec::{Engine, Frame};
use mlir_interp::value::{FuncRef, Value};
use mlir_interp::{Control, Data, Interpreter, Observer, Program};
use mlir_ir::ir::OpId;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

const FIB: &str = "
func.func @fib(%n: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi slt, %n, %c2 : i64
  %r = scf.if %small -> (i64) {
    scf.yield %n : i64
  } else {
    %c1 = arith.constant 1 : i64
    %a = arith.subi %n, %c1 : i64
    %b = arith.subi %n, %c2 : i64
    %fa = func.call @fib(%a) : (i64) -> i64
    %fb = func.call @fib(%b) : (i64) -> i64
    %s = arith.addi %fa, %fb : i64
    scf.yield %s : i64
  }
  return %r : i64
}
";

/// Op counts by name, shared with `main` (the interpreter owns the observer).
struct Counter {
    counts: Rc<RefCell<BTreeMap<String, u64>>>,
    depth: usize,
}

impl Observer for Counter {
    fn before_op(&mut self, e: &Engine<'_>, _fr: &Frame, op: OpId) -> Control {
        *self.counts.borrow_mut().entry(e.m.op_name(op).to_string()).or_default() += 1;
        Control::Continue
    }

    fn call(&mut self, e: &Engine<'_>, _at: OpId, f: FuncRef, args: &[Value]) {
        let shown: Vec<String> = args.iter().map(|v| mlir_interp::show::value(v, OpId(0))).collect();
        if self.depth < 3 {
            println!("{}call @{}({})", "  ".repeat(self.depth), e.funcs[f.0 as usize].name, shown.join(", "));
        }
        self.depth += 1;
    }

    fn ret(&mut self, _e: &Engine<'_>, _f: FuncRef, _results: &[Value]) {
        self.depth -= 1;
    }
}

fn main() -> Result<(), mlir_interp::Error> {
    let program = Program::parse("fib.mlir", FIB)?;
    let mut interp = Interpreter::new(&program)?;
    let counts = Rc::new(RefCell::new(BTreeMap::new()));
    interp.observe(Counter { counts: counts.clone(), depth: 0 });
    let r = interp.call("fib", vec![Data::Int(10).into()])?;
    assert_eq!(r, vec![Data::Int(55)]);
    println!("fib(10) = 55; ops executed:");
    for (name, n) in counts.borrow().iter() {
        println!("  {n:>5}  {name}");
    }
    // fib(10) makes 177 calls: 89 leaves (n < 2) and 88 inner ones.
    assert_eq!(counts.borrow()["func.call"], 176);
    assert_eq!(counts.borrow()["arith.addi"], 88);
    Ok(())
}
