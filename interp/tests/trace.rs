//! `run --trace`: every executed op's source line with the values it read
//! and wrote, indented by region and call depth; tracing never changes
//! the program's output. Expected traces are written by hand from the
//! programs (each value is worked out in the comment above it).

use std::process::Command;

fn run(name: &str, program: &str, opts: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("mlir-interp-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, program).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
        .current_dir(&dir)
        .arg("run")
        .arg(name)
        .args(opts)
        .output()
        .expect("run mlir-interp");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

const PROGRAM: &str = "func.func @sq(%x: i32) -> i32 {
  %y = arith.muli %x, %x : i32
  return %y : i32
}
func.func @main() {
  %a = arith.constant 3 : i32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %a) -> (i32) {
    %q = func.call @sq(%acc) : (i32) -> i32
    scf.yield %q : i32
  }
  vector.print %r : i32
  return
}
";

/// 3 squared twice is 81. Ops sit one level deeper than their function's
/// call, a loop body one more; a call's result line follows its return.
/// Operands are named as the source names them (the loop reads its
/// bounds, step and initial value %a); an op that reads nothing shows
/// only its results, and one with neither is its line alone.
#[test]
fn trace_of_a_loop_with_calls() {
    let (code, out, err) = run("t.mlir", PROGRAM, &["--trace"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "81\n");
    let want = "\
call @main()
t.mlir:6:     %a = arith.constant 3 : i32   // -> 3
t.mlir:7:     %c0 = arith.constant 0 : index   // -> 0
t.mlir:8:     %c2 = arith.constant 2 : index   // -> 2
t.mlir:9:     %c1 = arith.constant 1 : index   // -> 1
t.mlir:10:     %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %a) -> (i32) {   // %c0 = 0, %c2 = 2, %c1 = 1, %a = 3
t.mlir:11:       %q = func.call @sq(%acc) : (i32) -> i32   // %acc = 3
      call @sq(3)
t.mlir:2:           %y = arith.muli %x, %x : i32   // %x = 3, %x = 3 -> 9
t.mlir:3:           return %y : i32   // %y = 9
      return @sq -> 9
t.mlir:11:       -> 9
t.mlir:12:       scf.yield %q : i32   // %q = 9
t.mlir:11:       %q = func.call @sq(%acc) : (i32) -> i32   // %acc = 9
      call @sq(9)
t.mlir:2:           %y = arith.muli %x, %x : i32   // %x = 9, %x = 9 -> 81
t.mlir:3:           return %y : i32   // %y = 81
      return @sq -> 81
t.mlir:11:       -> 81
t.mlir:12:       scf.yield %q : i32   // %q = 81
t.mlir:10:     -> 81
t.mlir:14:     vector.print %r : i32   // %r = 81
t.mlir:15:     return
return @main
";
    assert_eq!(err, want);
}

/// The trace goes to a file on request and stops at the limit; the
/// program's output is the same with and without it.
#[test]
fn trace_file_and_limit() {
    // Its own file name: the tests run in parallel in one directory.
    let (_, plain, _) = run("limit.mlir", PROGRAM, &[]);
    let (code, out, err) = run("limit.mlir", PROGRAM, &["--trace-file", "t.trace", "--trace-limit", "2"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, plain);
    let dir = std::env::temp_dir().join(format!("mlir-interp-trace-{}", std::process::id()));
    let trace = std::fs::read_to_string(dir.join("t.trace")).unwrap();
    let want = "call @main()\nlimit.mlir:6:     %a = arith.constant 3 : i32   // -> 3\n... trace limit reached (--trace-limit)\n";
    assert_eq!(trace, want);
}

/// An op that fails is traced with its operands and marked, before the
/// error: 7 / 0 is undefined behaviour. In jsonl it is a `fault` event
/// with the error's message, after the op's own event.
#[test]
fn a_failing_op_ends_the_trace() {
    let p = "func.func @main() {\n  %a = arith.constant 7 : i32\n  %z = arith.constant 0 : i32\n  %d = arith.divsi %a, %z : i32\n  return\n}\n";
    let (code, _, err) = run("ub.mlir", p, &["--trace"]);
    assert_eq!(code, 1);
    let marked = "ub.mlir:4:     %d = arith.divsi %a, %z : i32   // %a = 7, %z = 0   !! failed\n\
                  ub.mlir:4:8: error: undefined behavior";
    assert!(err.contains(marked), "{err}");
    let (code, _, err) = run("ub.mlir", p, &["--trace", "--trace-format", "jsonl", "--trace-op", "arith.divsi"]);
    assert_eq!(code, 1);
    let msg = "undefined behavior: signed division by zero: 7 / 0 in 'arith.divsi'";
    let want = format!(
        "{{\"event\": \"op\", \"op\": \"arith.divsi\", \"func\": \"main\", \"loc\": \"ub.mlir:4:8\", \"depth\": 2, \"operands\": [\"7\", \"0\"]}}\n\
         {{\"event\": \"fault\", \"op\": \"arith.divsi\", \"func\": \"main\", \"loc\": \"ub.mlir:4:8\", \"depth\": 2, \"error\": \"{msg}\"}}\n\
         ub.mlir:4:8: error: {msg}"
    );
    // After the call of @main (calls pass an op filter).
    assert!(err.contains(&want), "{err}");
}

/// `--trace-format jsonl`: one object per event with the op, its
/// function, location, depth and values; `--trace-func` keeps the ops of
/// one function (and its calls and returns). By hand: @sq runs twice, on
/// 3 and on 9; `%y = arith.muli` is at 2:8, `return` at 3:3; @sq sits at
/// depth 3 (main's call, its body, the loop body), its ops at 5.
#[test]
fn jsonl_of_one_function() {
    let (code, _, err) = run("j.mlir", PROGRAM, &["--trace", "--trace-format", "jsonl", "--trace-func", "sq"]);
    assert_eq!(code, 0, "{err}");
    let want = r#"{"event": "call", "op": "func.func", "func": "sq", "loc": "j.mlir:1:1", "depth": 3, "args": ["3"]}
{"event": "op", "op": "arith.muli", "func": "sq", "loc": "j.mlir:2:8", "depth": 5, "operands": ["3", "3"]}
{"event": "result", "op": "arith.muli", "func": "sq", "loc": "j.mlir:2:8", "depth": 5, "results": ["9"]}
{"event": "op", "op": "func.return", "func": "sq", "loc": "j.mlir:3:3", "depth": 5, "operands": ["9"]}
{"event": "return", "op": "func.func", "func": "sq", "loc": "j.mlir:1:1", "depth": 3, "results": ["9"]}
{"event": "call", "op": "func.func", "func": "sq", "loc": "j.mlir:1:1", "depth": 3, "args": ["9"]}
{"event": "op", "op": "arith.muli", "func": "sq", "loc": "j.mlir:2:8", "depth": 5, "operands": ["9", "9"]}
{"event": "result", "op": "arith.muli", "func": "sq", "loc": "j.mlir:2:8", "depth": 5, "results": ["81"]}
{"event": "op", "op": "func.return", "func": "sq", "loc": "j.mlir:3:3", "depth": 5, "operands": ["81"]}
{"event": "return", "op": "func.func", "func": "sq", "loc": "j.mlir:1:1", "depth": 3, "results": ["81"]}
"#;
    assert_eq!(err, want);
}

/// `--trace-op` keeps ops by name prefix and `--trace-lines` by source
/// line: the constants of lines 6-8 (line 9's is outside the range).
#[test]
fn op_and_line_filters() {
    let opts = ["--trace", "--trace-func", "main", "--trace-op", "arith.const", "--trace-lines", "6-8"];
    let (code, _, err) = run("f.mlir", PROGRAM, &opts);
    assert_eq!(code, 0, "{err}");
    let want = "call @main()
f.mlir:6:     %a = arith.constant 3 : i32   // -> 3
f.mlir:7:     %c0 = arith.constant 0 : index   // -> 0
f.mlir:8:     %c2 = arith.constant 2 : index   // -> 2
return @main
";
    assert_eq!(err, want);
}

/// A trace file that cannot be created is a usage error (exit 2), before
/// anything runs.
#[test]
fn unwritable_trace_file() {
    let (code, out, err) = run("w.mlir", PROGRAM, &["--trace-file", "no/such/dir/t.trace"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("error: cannot create trace file 'no/such/dir/t.trace'"), "{err}");
}

/// A memref access shows the address of the element it reads or writes:
/// [1, 2] of a row-major 2x3 f32 buffer is element 5, 20 bytes (0x14) past
/// the buffer's start (0x10000000, the first simulated allocation).
#[test]
fn memref_accesses_show_the_element_address() {
    let program = "func.func @main() {
  %m = memref.alloc() : memref<2x3xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = arith.constant 1.5 : f32
  memref.store %v, %m[%c1, %c2] : memref<2x3xf32>
  %x = memref.load %m[%c1, %c2] : memref<2x3xf32>
  memref.dealloc %m : memref<2x3xf32>
  return
}
";
    let (code, _, err) = run("addr.mlir", program, &["--trace", "--trace-op", "memref.load"]);
    assert_eq!(code, 0, "{err}");
    let want = "addr.mlir:7:     %x = memref.load %m[%c1, %c2] : memref<2x3xf32>   // %m = <memref at 0x10000000+0>, %c1 = 1, %c2 = 2 @0x10000014 -> 1.5";
    assert!(err.lines().any(|l| l == want), "{err}");
    let (code, _, err) =
        run("addr.mlir", program, &["--trace", "--trace-format", "jsonl", "--trace-op", "memref.store"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(r#""operands": ["1.5", "<memref at 0x10000000+0>", "1", "2"], "address": "0x10000014"}"#),
        "{err}"
    );
}

/// A loop body without `scf.yield` gets the parser's implicit one: it is
/// traced at the body's `}` (line 7) and named, not shown as another
/// op's line. By hand: %i is 0 then 1, each printed.
#[test]
fn an_implicit_terminator_is_traced_at_its_brace() {
    let p = "func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    vector.print %i : index
  }
  return
}
";
    let (code, out, err) = run("i.mlir", p, &["--trace"]);
    assert_eq!((code, out.as_str()), (0, "0\n1\n"), "{err}");
    let want = "\
call @main()
i.mlir:2:     %c0 = arith.constant 0 : index   // -> 0
i.mlir:3:     %c2 = arith.constant 2 : index   // -> 2
i.mlir:4:     %c1 = arith.constant 1 : index   // -> 1
i.mlir:5:     scf.for %i = %c0 to %c2 step %c1 {   // %c0 = 0, %c2 = 2, %c1 = 1
i.mlir:6:       vector.print %i : index   // %i = 0
i.mlir:7:       (implicit) scf.yield
i.mlir:6:       vector.print %i : index   // %i = 1
i.mlir:7:       (implicit) scf.yield
i.mlir:8:     return
return @main
";
    assert_eq!(err, want);
}

/// affine and vector loads and stores show the address of their (first)
/// element too, through the access map for affine: f32 elements of a
/// buffer at 0x10000000, so index 3 (%c1 + 2, %c1 * 3) is 0x1000000c,
/// index 2 is 0x10000008, index 1 is 0x10000004. The vector load reads
/// elements 2 (never written: poison) and 3 (2.5).
#[test]
fn affine_and_vector_accesses_show_the_element_address() {
    let p = "func.func @main() {
  %m = memref.alloc() : memref<8xf32>
  %f = arith.constant 2.5 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  affine.store %f, %m[%c1 + 2] : memref<8xf32>
  %a = affine.load %m[%c1 * 3] : memref<8xf32>
  %v = vector.load %m[%c2] : memref<8xf32>, vector<2xf32>
  vector.store %v, %m[%c1] : memref<8xf32>, vector<2xf32>
  memref.dealloc %m : memref<8xf32>
  return
}
";
    let (code, _, err) = run("av.mlir", p, &["--trace", "--trace-lines", "6-9"]);
    assert_eq!(code, 0, "{err}");
    let want = "\
call @main()
av.mlir:6:     affine.store %f, %m[%c1 + 2] : memref<8xf32>   // %f = 2.5, %m = <memref at 0x10000000+0>, %c1 = 1 @0x1000000c
av.mlir:7:     %a = affine.load %m[%c1 * 3] : memref<8xf32>   // %m = <memref at 0x10000000+0>, %c1 = 1 @0x1000000c -> 2.5
av.mlir:8:     %v = vector.load %m[%c2] : memref<8xf32>, vector<2xf32>   // %m = <memref at 0x10000000+0>, %c2 = 2 @0x10000008 -> dense<[<poison>, 2.5]>
av.mlir:9:     vector.store %v, %m[%c1] : memref<8xf32>, vector<2xf32>   // %v = dense<[<poison>, 2.5]>, %m = <memref at 0x10000000+0>, %c1 = 1 @0x10000004
return @main
";
    assert_eq!(err, want);
}

/// Trace options that cannot mean anything are usage errors (exit 2)
/// before the run: a reversed line range, a function the program lacks,
/// a filter or format without --trace.
#[test]
fn meaningless_trace_options_are_refused() {
    for (opts, want) in [
        (&["--trace", "--trace-lines", "9-3"][..], "the range 9-3 is empty"),
        (&["--trace", "--trace-func", "nope"][..], "--trace-func: no function @nope in o.mlir"),
        (&["--trace-format", "jsonl"][..], "<--trace|--trace-file <FILE>>"),
        (&["--trace-func", "sq"][..], "<--trace|--trace-file <FILE>>"),
        (&["--trace-limit", "3"][..], "<--trace|--trace-file <FILE>>"),
    ] {
        let (code, out, err) = run("o.mlir", PROGRAM, opts);
        assert_eq!((code, out.as_str()), (2, ""), "{opts:?}: {err}");
        assert!(err.contains(want), "{opts:?}: {err}");
    }
}

/// Unsigned integer types read as MLIR prints them: the `ui8` constant 255
/// is 255 in the op's line, the call's argument and the return, not -1
/// (its bits read as signed). A `vector<2xui8>` of 200 and 1 likewise.
#[test]
fn unsigned_types_show_unsigned() {
    let program = "func.func @f(%x: ui8) -> ui8 {
  return %x : ui8
}
func.func @main() {
  %c = arith.constant 255 : ui8
  %v = arith.constant dense<[200, 1]> : vector<2xui8>
  %r = call @f(%c) : (ui8) -> ui8
  return
}
";
    let (code, _, err) = run("unsigned.mlir", program, &["--trace"]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "unsigned.mlir:5:     %c = arith.constant 255 : ui8   // -> 255",
        "unsigned.mlir:6:     %v = arith.constant dense<[200, 1]> : vector<2xui8>   // -> dense<[200, 1]>",
        "    call @f(255)",
        "    return @f -> 255",
    ] {
        assert!(err.lines().any(|l| l == want), "missing {want:?} in\n{err}");
    }
    assert!(!err.contains("-1") && !err.contains("-56"), "{err}");
}
