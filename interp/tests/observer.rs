//! The observer hook: what a watcher of a run is told, in order, and that
//! watching changes nothing. Expectations are derived by hand from the
//! programs below.

use mlir_interp::exec::{Config, Control, Engine, Frame, Observer};
use mlir_interp::value::{FuncRef, Scalar, Value};
use mlir_ir::diag::Source;
use mlir_ir::ir::{OpId, RegionId};
use std::cell::RefCell;
use std::rc::Rc;

/// Records one line per event; ops with their line:col in `src`.
struct Log(Rc<RefCell<Vec<String>>>, Source);

fn show(v: &Value) -> String {
    match v.scalar() {
        Some(Scalar::Int(i)) => i.to_i64().map_or("?".into(), |x| x.to_string()),
        _ => "?".into(),
    }
}

impl Observer for Log {
    fn before_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        let args: Vec<String> = e.m.operands(op).iter().map(|v| show(e.get(fr, *v))).collect();
        let (line, col) = self.1.line_col(e.m.op(op).span.start);
        self.0.borrow_mut().push(format!("before {} ({}) @{line}:{col}", e.m.op_name(op), args.join(", ")));
        Control::Continue
    }
    fn after_op(&mut self, e: &Engine<'_>, fr: &Frame, op: OpId) -> Control {
        let res: Vec<String> = e.m.results(op).map(|v| show(e.get(fr, v))).collect();
        self.0.borrow_mut().push(format!("after {} -> ({})", e.m.op_name(op), res.join(", ")));
        Control::Continue
    }
    fn enter_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _r: RegionId) {
        self.0.borrow_mut().push("enter".into());
    }
    fn leave_region(&mut self, _e: &Engine<'_>, _fr: &Frame, _r: RegionId) {
        self.0.borrow_mut().push("leave".into());
    }
    fn call(&mut self, e: &Engine<'_>, _at: OpId, f: FuncRef, args: &[Value]) {
        let a: Vec<String> = args.iter().map(show).collect();
        self.0.borrow_mut().push(format!("call @{}({})", e.funcs[f.0 as usize].name, a.join(", ")));
    }
    fn ret(&mut self, e: &Engine<'_>, f: FuncRef, results: &[Value]) {
        let r: Vec<String> = results.iter().map(show).collect();
        self.0.borrow_mut().push(format!("return @{} ({})", e.funcs[f.0 as usize].name, r.join(", ")));
    }
}

/// Runs `main` of `text`, observed or not; returns stdout, the event log
/// and the number of executed ops.
fn run(text: &str, observed: bool) -> (String, Vec<String>, u64) {
    let src = Source::new("t.mlir", text);
    let m = mlir_ir::parse_and_verify(&src).expect("valid module");
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut out = Vec::new();
    let steps = {
        let mut e = Engine::load(&m, Config::default(), Box::new(&mut out)).expect("load");
        if observed {
            e.observer = Some(Box::new(Log(log.clone(), src.clone())));
        }
        e.run_entry("main").expect("run");
        e.steps()
    };
    let events = log.borrow().clone();
    (String::from_utf8(out).expect("utf-8"), events, steps)
}

const ADD: &str = "func.func @main() {
  %a = arith.constant 5 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  vector.print %c : i32
  return
}
";

#[test]
fn every_op_is_seen_before_and_after_with_its_values() {
    let (out, log, _) = run(ADD, true);
    assert_eq!(out, "7\n");
    // An op's location is where its name starts, as in mlir-opt's diagnostics.
    let want = [
        "call @main()",
        "enter",
        "before arith.constant () @2:8",
        "after arith.constant -> (5)",
        "before arith.constant () @3:8",
        "after arith.constant -> (2)",
        "before arith.addi (5, 2) @4:8",
        "after arith.addi -> (7)",
        "before vector.print (7) @5:3",
        "after vector.print -> ()",
        "before func.return () @6:3",
        "after func.return -> ()",
        "leave",
        "return @main ()",
    ];
    assert_eq!(log, want);
}

const FIB: &str = "func.func @fib(%n: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %lt = arith.cmpi slt, %n, %c2 : i64
  %r = scf.if %lt -> (i64) {
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
func.func @main() {
  %n = arith.constant 5 : i64
  %r = func.call @fib(%n) : (i64) -> i64
  vector.print %r : i64
  return
}
";

#[test]
fn calls_returns_and_regions_nest() {
    let (out, log, steps) = run(FIB, true);
    assert_eq!(out, "5\n");
    // fib(n) makes 1 + calls(n-1) + calls(n-2) calls, calls(0) = calls(1) = 1:
    // calls(5) = 15, plus the call of main.
    let calls = log.iter().filter(|l| l.starts_with("call ")).count();
    let rets = log.iter().filter(|l| l.starts_with("return ")).count();
    assert_eq!((calls, rets), (16, 16));
    assert_eq!(log.iter().filter(|l| l.starts_with("return @fib (5)")).count(), 1);
    // Events nest: every enter has its leave, every call its return, and
    // an op's after comes after everything its regions did.
    let mut depth = 0i64;
    for l in &log {
        match l.split_whitespace().next() {
            Some("enter") | Some("call") | Some("before") => depth += 1,
            Some("leave") | Some("return") | Some("after") => depth -= 1,
            _ => unreachable!("unexpected event {l}"),
        }
        assert!(depth >= 0, "{l}");
    }
    assert_eq!(depth, 0);
    // Every executed op is seen once before and once after.
    let before = log.iter().filter(|l| l.starts_with("before ")).count() as u64;
    assert_eq!(before, steps);
}

#[test]
fn observing_changes_nothing() {
    for text in [ADD, FIB] {
        let (a, _, sa) = run(text, false);
        let (b, _, sb) = run(text, true);
        assert_eq!((a, sa), (b, sb));
    }
}
