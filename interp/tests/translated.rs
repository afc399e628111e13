//! The translated fast path changes nothing: every exec, UB and fuzz
//! fixture prints the same bytes, ends with the same result or error and
//! executes the same number of ops whether it runs on the translated code
//! or entirely through the dialects (an observer, even one that does
//! nothing, sends every op through its dialect).

use mlir_interp::exec::{Config, Engine, Observer};
use mlir_ir::diag::Source;
use std::path::{Path, PathBuf};

/// Watches nothing; its presence alone selects the dialect path.
struct Nothing;
impl Observer for Nothing {}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

/// The run options of a fixture's `// ARGS:` line the library can take.
fn config(text: &str) -> Config {
    let mut cfg = Config { max_steps: Some(50_000_000), ..Config::default() };
    for line in text.lines().filter_map(|l| l.strip_prefix("// ARGS:")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let next = || words.get(i + 1).and_then(|v| v.parse().ok());
            match *w {
                "--max-steps" => cfg.max_steps = next(),
                "--vscale" => cfg.vscale = next().map_or(1, |v: u64| v as u32),
                "--check-leaks" => cfg.check_leaks = true,
                _ => {}
            }
        }
    }
    cfg
}

/// Stdout, the outcome (results or rendered error) and the op count.
fn run(path: &Path, text: &str, observed: bool) -> Option<(String, String, u64)> {
    let src = Source::new(path.display().to_string(), text);
    let m = mlir_ir::parse_and_verify(&src).ok()?;
    let entry = text.lines().find_map(|l| l.strip_prefix("// ENTRY:")).map_or("main", str::trim);
    let mut out = Vec::new();
    let (outcome, steps) = {
        let mut e = match Engine::load(&m, config(text), Box::new(&mut out)) {
            Ok(e) => e,
            Err(err) => return Some((String::new(), err.render(&m, &src), 0)),
        };
        if observed {
            e.observer = Some(Box::new(Nothing));
        }
        let r = e.run_entry(entry);
        let outcome = match r {
            Ok(vals) => format!("{vals:?}"),
            Err(err) => err.render(&m, &src),
        };
        (outcome, e.steps())
    };
    Some((String::from_utf8_lossy(&out).into_owned(), outcome, steps))
}

#[test]
fn translated_code_runs_every_fixture_like_the_dialects() {
    // Call-depth fixtures nest 10,000 interpreted calls, as the CLI's
    // engine thread allows.
    let t = std::thread::Builder::new().stack_size(512 << 20).spawn(compare_all).unwrap();
    t.join().unwrap();
}

fn compare_all() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut all = Vec::new();
    for dir in ["exec", "ub", "fuzz", "float", "comb"] {
        files(&root.join(dir), &mut all);
    }
    all.sort();
    let (mut ran, mut diffs) = (0, Vec::new());
    for f in &all {
        let text = std::fs::read_to_string(f).unwrap();
        let (Some(fast), Some(slow)) = (run(f, &text, false), run(f, &text, true)) else { continue };
        ran += 1;
        if fast != slow {
            diffs.push(format!("{}:\n  translated: {fast:?}\n  dialects:   {slow:?}", f.display()));
        }
    }
    assert!(diffs.is_empty(), "{} of {ran} fixtures differ:\n{}", diffs.len(), diffs.join("\n"));
    assert!(ran >= 170, "only {ran} of {} fixtures ran", all.len());
}

/// Loop edges the fixtures may not reach, run both ways: an affine.for
/// stopping where its induction variable would overflow, an unsigned
/// scf.for, a zero-trip loop, iteration arguments swapped every
/// iteration (parallel copies), a branch loop passing block arguments
/// crosswise, and scf.if results.
#[test]
fn loop_edges_run_alike_both_ways() {
    let text = r#"
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %n = affine.for %i = 9223372036854775800 to 9223372036854775807 step 5 iter_args(%k = %c0) -> (index) {
    %k1 = arith.addi %k, %c1 : index
    affine.yield %k1 : index
  }
  vector.print %n : index
  %lo = arith.constant 250 : i8
  %hi = arith.constant 4 : i8
  %st = arith.constant 3 : i8
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %u = scf.for unsigned %i = %hi to %lo step %st iter_args(%a = %z) -> (i32) : i8 {
    %b = arith.addi %a, %one : i32
    scf.yield %b : i32
  }
  vector.print %u : i32
  %e = scf.for %i = %c5 to %c1 step %c1 iter_args(%a = %one) -> (i32) {
    scf.yield %z : i32
  }
  vector.print %e : i32
  %two = arith.constant 2 : i32
  %p:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %one, %y = %two) -> (i32, i32) {
    %s = arith.addi %x, %y : i32
    scf.yield %y, %s : i32, i32
  }
  vector.print %p#0 : i32
  vector.print %p#1 : i32
  cf.br ^bb1(%one, %two, %c0 : i32, i32, index)
^bb1(%a: i32, %b: i32, %i: index):
  %more = arith.cmpi slt, %i, %c5 : index
  %i1 = arith.addi %i, %c1 : index
  cf.cond_br %more, ^bb1(%b, %a, %i1 : i32, i32, index), ^bb2
^bb2:
  vector.print %a : i32
  %t = arith.cmpi eq, %a, %two : i32
  %r = scf.if %t -> (i32) {
    scf.yield %one : i32
  } else {
    scf.yield %two : i32
  }
  vector.print %r : i32
  return
}"#;
    let path = Path::new("loop_edges.mlir");
    let fast = run(path, text, false).expect("runs");
    let slow = run(path, text, true).expect("runs");
    assert_eq!(fast, slow);
    // By hand: 2 affine iterations (…800, …805; …810 would overflow);
    // 4, 7, .., 247: 82 unsigned iterations; no iteration, so 1; five
    // steps (x, y) -> (y, x + y) from (1, 2) give (13, 21); five crosswise
    // swaps of (1, 2) leave a = 2, so the scf.if yields 1.
    assert_eq!(fast.0, "2\n82\n1\n13\n21\n2\n1\n");
}
