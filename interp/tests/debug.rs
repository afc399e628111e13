//! `mlir-interp debug`: scripted sessions (commands on standard input, the
//! transcript on standard output) and one session on a terminal through
//! tmux. Each expected transcript is written by hand from the program: the
//! values in the comments are worked out there, the columns are where the
//! op names start (MLIR's own op locations).

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `debug FILE opts` on `program` with `script` as its input; returns
/// the exit status, stdout and stderr.
fn session(program: &str, opts: &[&str], script: &str) -> (i32, String, String) {
    // A directory per session: the tests run in parallel.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("mlir-interp-debug-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.mlir"), program).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
        .current_dir(&dir)
        .args(["debug", "t.mlir"])
        .args(opts)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mlir-interp");
    // A session refused at startup (bad arguments) exits without reading
    // its input: a broken pipe here is that, not a failure.
    let _ = child.stdin.take().unwrap().write_all(script.as_bytes());
    let out = child.wait_with_output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Compares line by line, so a failure names the first different line.
fn same(got: &str, want: &str) {
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {} differs; whole transcript:\n{got}", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count(), "whole transcript:\n{got}");
}

/// Squares 3 twice in a loop (3, 9, 81), storing each square in row %i,
/// column 1 of %m.
const LOOP: &str = "func.func @sq(%x: i32) -> i32 {
  %y = arith.muli %x, %x : i32
  return %y : i32
}
func.func @main() -> i32 {
  %a = arith.constant 3 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<2x3xi32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %a) -> (i32) {
    %q = func.call @sq(%acc) : (i32) -> i32
    memref.store %q, %m[%i, %c1] : memref<2x3xi32>
    scf.yield %q : i32
  }
  vector.print %r : i32
  memref.dealloc %m : memref<2x3xi32>
  return %r : i32
}
";

/// `next` stays in the region, `step` goes into the loop body and the
/// call, `finish` comes back with the callee's result, `up` shows the
/// caller's values as the call found them.
#[test]
fn stepping_into_and_over() {
    let script =
        "next 5\nstep\nstep\nbt\nup\ninfo locals\ndown\nfinish\np %q\nnext\nnext\np %acc\np %m\ncontinue\nquit\n";
    let (code, out, err) = session(LOOP, &[], script);
    assert_eq!(code, 0, "{err}");
    let want = "\
Stopped at the entry of @main.
@main at t.mlir:6:8
6\t  %a = arith.constant 3 : i32
(mlir-dbg) next 5
@main at t.mlir:11:8
11\t  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %a) -> (i32) {
(mlir-dbg) step
@main at t.mlir:12:10
12\t    %q = func.call @sq(%acc) : (i32) -> i32
(mlir-dbg) step
@sq at t.mlir:2:8
2\t  %y = arith.muli %x, %x : i32
(mlir-dbg) bt
#0  @sq at t.mlir:2:8: arith.muli
#1  @main at t.mlir:12:10: func.call
(mlir-dbg) up
#1  @main at t.mlir:12:10
12\t    %q = func.call @sq(%acc) : (i32) -> i32
(mlir-dbg) info locals
%a = 3 : i32
%c0 = 0 : index
%c1 = 1 : index
%c2 = 2 : index
%m = <at 0x10000000, offset 0, strides [3, 1]> : memref<2x3xi32>
%i = 0 : index
%acc = 3 : i32
(mlir-dbg) down
#0  @sq at t.mlir:2:8
2\t  %y = arith.muli %x, %x : i32
(mlir-dbg) finish
Run till exit from @sq: returned 9 : i32
@main at t.mlir:13:5
13\t    memref.store %q, %m[%i, %c1] : memref<2x3xi32>
(mlir-dbg) p %q
%q = 9 : i32
(mlir-dbg) next
@main at t.mlir:14:5
14\t    scf.yield %q : i32
(mlir-dbg) next
@main at t.mlir:12:10
12\t    %q = func.call @sq(%acc) : (i32) -> i32
(mlir-dbg) p %acc
%acc = 9 : i32
(mlir-dbg) p %m
%m : memref<2x3xi32>  (at 0x10000000, offset 0, strides [3, 1])
          [0]       [1]       [2]
[0]  <poison>         9  <poison>
[1]  <poison>  <poison>  <poison>
(mlir-dbg) continue
81
%0 = 81 : i32
[program exited normally]
(mlir-dbg) quit
";
    same(&out, want);
}

/// Breakpoints on a function, a line and an op name; a watchpoint stops
/// after the store that changes its element and ends with its memref;
/// `run` starts again with the breakpoints and without the watchpoint.
#[test]
fn breakpoints_watchpoints_and_restart() {
    let script = "break @sq\nbreak 13\nbreak arith.muli\nbreak 99\nbreak @nope\nbreak foo.bar\n\
                  c\nc\nwatch %m[1, 1]\nc\ndelete 1\nc\nc\ninfo breakpoints\nc\nc\nrun\nc\nq\n";
    let (code, out, err) = session(LOOP, &[], script);
    assert_eq!(code, 0, "{err}");
    let want = "\
Stopped at the entry of @main.
@main at t.mlir:6:8
6\t  %a = arith.constant 3 : i32
(mlir-dbg) break @sq
Breakpoint 1 at function @sq
(mlir-dbg) break 13
Breakpoint 2 at t.mlir:13: memref.store %q, %m[%i, %c1] : memref<2x3xi32>
(mlir-dbg) break arith.muli
Breakpoint 3 at op arith.muli (1 in the program)
(mlir-dbg) break 99
No op starts on or after line 99 of t.mlir.
(mlir-dbg) break @nope
No function @nope in the program.
(mlir-dbg) break foo.bar
No op named foo.bar in the program.
(mlir-dbg) c
Breakpoint 1, @sq
@sq at t.mlir:2:8
2\t  %y = arith.muli %x, %x : i32
(mlir-dbg) c
Breakpoint 2, @main
@main at t.mlir:13:5
13\t    memref.store %q, %m[%i, %c1] : memref<2x3xi32>
(mlir-dbg) watch %m[1, 1]
Watchpoint 4: %m[1, 1] = <poison>
(mlir-dbg) c
Breakpoint 1, @sq
@sq at t.mlir:2:8
2\t  %y = arith.muli %x, %x : i32
(mlir-dbg) delete 1
(mlir-dbg) c
Breakpoint 2, @main
@main at t.mlir:13:5
13\t    memref.store %q, %m[%i, %c1] : memref<2x3xi32>
(mlir-dbg) c
Watchpoint 4: %m[1, 1]
Old value = <poison>
New value = 81
@main at t.mlir:13:5 (after memref.store)
13\t    memref.store %q, %m[%i, %c1] : memref<2x3xi32>
(mlir-dbg) info breakpoints
Num  What
2    break line 13  (hit 2 times)
3    break op arith.muli
4    watch %m[1, 1] = 81
(mlir-dbg) c
81
Watchpoint 4: %m[1, 1]
Old value = 81
New value = <undefined behavior: use after free: watch through memref<2x3xi32> whose memory was freed by a dealloc>; watchpoint deleted
@main at t.mlir:17:3 (after memref.dealloc)
17\t  memref.dealloc %m : memref<2x3xi32>
(mlir-dbg) c
%0 = 81 : i32
[program exited normally]
(mlir-dbg) run
Starting the program again.
Stopped at the entry of @main.
@main at t.mlir:6:8
6\t  %a = arith.constant 3 : i32
(mlir-dbg) c
Breakpoint 3, @sq
@sq at t.mlir:2:8
2\t  %y = arith.muli %x, %x : i32
(mlir-dbg) q
";
    same(&out, want);
}

/// 7 / 0 is undefined: the run stops at the division with the diagnostic,
/// its operands readable; continuing ends the run, the session goes on.
#[test]
fn undefined_behaviour_stops_at_the_faulting_op() {
    let program = "func.func @main(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %q = arith.divsi %n, %c0 : i32
  return %q : i32
}
";
    let (code, out, err) = session(program, &["--arg", "7"], "c\ninfo locals\nbt\nc\n");
    assert_eq!(code, 0, "{err}");
    let want = "\
Stopped at the entry of @main.
@main at t.mlir:2:9
2\t  %c0 = arith.constant 0 : i32
(mlir-dbg) c
t.mlir:3:8: error: undefined behavior: signed division by zero: 7 / 0 in 'arith.divsi'
  %q = arith.divsi %n, %c0 : i32
       ^
The program stopped at the failing op; its state can be inspected ('run' restarts, 'quit' leaves).
@main at t.mlir:3:8
3\t  %q = arith.divsi %n, %c0 : i32
(mlir-dbg) info locals
%n = 7 : i32
%c0 = 0 : i32
(mlir-dbg) bt
#0  @main at t.mlir:3:8: arith.divsi
(mlir-dbg) c
[program ended: undefined behavior: signed division by zero: 7 / 0 in 'arith.divsi']
(mlir-dbg) 
";
    same(&out, want);
}

/// Tensors and vectors print as tables: a plane per leading index, a row
/// for a single index, multi-result groups by `%r#k`.
#[test]
fn printing_arrays_and_result_groups() {
    // 200 + 200 = 400 = 256 + 144: the i8 sum wraps to 144 (-112) with a carry.
    let program = "func.func @main() {
  %t = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : tensor<2x2x3xi8>
  %v = arith.constant dense<[1.5, -0.25]> : vector<2xf32>
  %b = arith.constant -56 : i8
  %q:2 = arith.addui_extended %b, %b : i8, i1
  return
}
";
    let script =
        "n 4\np %t\np %t[1, :, 1:]\np %t[0, 1]\np %v\np %q#0\np %q#1\np %t[2]\np %t[0:3]\np %v[0, 0]\np %b[0]\nq\n";
    let (code, out, err) = session(program, &[], script);
    assert_eq!(code, 0, "{err}");
    let want = "\
Stopped at the entry of @main.
@main at t.mlir:2:8
2\t  %t = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : tensor<2x2x3xi8>
(mlir-dbg) n 4
@main at t.mlir:6:3
6\t  return
(mlir-dbg) p %t
%t : tensor<2x2x3xi8>
[0, :, :]
     [0]  [1]  [2]
[0]    1    2    3
[1]    4    5    6

[1, :, :]
     [0]  [1]  [2]
[0]    7    8    9
[1]   10   11   12
(mlir-dbg) p %t[1, :, 1:]
%t[1, :, 1:] : tensor<2x2x3xi8>
     [1]  [2]
[0]    8    9
[1]   11   12
(mlir-dbg) p %t[0, 1]
%t[0, 1] : tensor<2x2x3xi8>
  [0]  [1]  [2]
    4    5    6
(mlir-dbg) p %v
%v : vector<2xf32>
  [0]    [1]
  1.5  -0.25
(mlir-dbg) p %q#0
%q#0 = -112 : i8
(mlir-dbg) p %q#1
%q#1 = true : i1
(mlir-dbg) p %t[2]
index 2 is out of bounds for dimension 0 of size 2
(mlir-dbg) p %t[0:3]
0:3 is out of bounds for dimension 0 of size 2
(mlir-dbg) p %v[0, 0]
2 indices for a value of rank 1
(mlir-dbg) p %b[0]
%b is not a memref, tensor or vector; it cannot be sliced
(mlir-dbg) q
";
    same(&out, want);
}

/// Mistakes get a message and the session goes on; unusable input is exit 2.
#[test]
fn mistakes_are_messages_not_crashes() {
    let script =
        "frobnicate\np\np %zz\np x\np %a[1:\nup\ndown\nstep 0\nlist 9999\nwatch %a\ninfo\nframe 7\nb nofile.mlir:3\n\
                  delete 9\nc\np %a\nnext\nq\n";
    let (code, out, err) = session(LOOP, &[], script);
    assert_eq!(code, 0, "{err}");
    let want = "\
Stopped at the entry of @main.
@main at t.mlir:6:8
6\t  %a = arith.constant 3 : i32
(mlir-dbg) frobnicate
Undefined command: 'frobnicate'. Try 'help'.
(mlir-dbg) p
print what? print %v, or %v[1:3, :] for a slice
(mlir-dbg) p %zz
no value %zz in scope here
(mlir-dbg) p x
'x' is not a value: write %name, or %name[1:3, :] for a slice
(mlir-dbg) p %a[1:
'[1:': a slice is [i, a:b, :, ...]
(mlir-dbg) up
No frame 1 (the stack has 1 frame(s)).
(mlir-dbg) down
Bottom (innermost) frame selected; you cannot go down.
(mlir-dbg) step 0
'0' is not a positive count
(mlir-dbg) list 9999
Line 9999 is past the end of t.mlir (19 lines).
(mlir-dbg) watch %a
no value %a in scope here
(mlir-dbg) info
info what? 'info locals' or 'info breakpoints'
(mlir-dbg) frame 7
No frame 7 (the stack has 1 frame(s)).
(mlir-dbg) b nofile.mlir:3
No source file named nofile.mlir (debugging t.mlir).
(mlir-dbg) delete 9
No breakpoint number 9.
(mlir-dbg) c
81
%0 = 81 : i32
[program exited normally]
(mlir-dbg) p %a
The program is not being run ('run' starts it).
(mlir-dbg) next
The program is not being run ('run' starts it).
(mlir-dbg) q
";
    same(&out, want);
    let (code, _, err) = session(LOOP, &["--arg", "1"], "q\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("takes 0 argument(s) (), 1 given"), "{err}");
    let (code, _, err) = session("func.func @main( {", &[], "q\n");
    assert_eq!(code, 2, "{err}");
    // No such entry function: `run`'s diagnostic and exit status, no REPL.
    let (code, out, err) = session(LOOP, &["-e", "nope"], "q\n");
    assert_eq!((code, out.as_str(), err.as_str()), (2, "", "t.mlir: error: entry point not found: 'nope'\n"));
}

/// The parser's implicit `scf.yield` is a stop of its own at the body's
/// `}`, named as such (not shown as the body's first line again); `list`
/// pages on without overlap, as gdb's does.
#[test]
fn implicit_terminator_and_list_paging() {
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
    let (code, out, err) = session(p, &[], "break 6\nc\nn\nbt\nn\nq\n");
    assert_eq!(code, 0, "{err}");
    let want = "\
Stopped at the entry of @main.
@main at t.mlir:2:9
2\t  %c0 = arith.constant 0 : index
(mlir-dbg) break 6
Breakpoint 1 at t.mlir:6: vector.print %i : index
(mlir-dbg) c
Breakpoint 1, @main
@main at t.mlir:6:5
6\t    vector.print %i : index
(mlir-dbg) n
0
@main at t.mlir:7:3 (implicit scf.yield)
7\t  }
(mlir-dbg) bt
#0  @main at t.mlir:7:3: scf.yield
(mlir-dbg) n
Breakpoint 1, @main
@main at t.mlir:6:5
6\t    vector.print %i : index
(mlir-dbg) q
";
    same(&out, want);
    // LOOP has 19 lines: 1-10, then 11-19, then nothing more.
    let (code, out, err) = session(LOOP, &[], "list 1\nlist\n\nq\n");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = LOOP.lines().collect();
    let mut want =
        String::from("Stopped at the entry of @main.\n@main at t.mlir:6:8\n6\t  %a = arith.constant 3 : i32\n");
    want.push_str("(mlir-dbg) list 1\n");
    for n in 1..=10 {
        let mark = if n == 6 { "=>" } else { "  " };
        want.push_str(&format!("{mark}{n:>5}  {}\n", lines[n - 1]));
    }
    want.push_str("(mlir-dbg) list\n");
    for n in 11..=19 {
        want.push_str(&format!("  {n:>5}  {}\n", lines[n - 1]));
    }
    want.push_str("(mlir-dbg) \nLine number 20 out of range; t.mlir has 19 lines.\n(mlir-dbg) q\n");
    same(&out, &want);
}

/// `mlir-interp debug t.mlir` on `program` in a detached tmux session
/// (a terminal); `None` when tmux is missing outside CI (CI installs it,
/// and with CI set its absence fails the test).
struct Terminal {
    name: String,
}

impl Terminal {
    fn start(tag: &str, program: &str) -> Option<Terminal> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(std::env::var_os("CI").is_none(), "tmux is needed for the terminal tests under CI");
            eprintln!("tmux not installed: terminal session not tested");
            return None;
        }
        let dir = std::env::temp_dir().join(format!("mlir-interp-debug-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.mlir"), program).unwrap();
        let name = format!("mlir-dbg-{tag}-{}", std::process::id());
        let cmd = format!("cd {} && {} debug t.mlir", dir.display(), env!("CARGO_BIN_EXE_mlir-interp"));
        let ok = Command::new("tmux").args(["new-session", "-d", "-s", &name, "-x", "100", "-y", "30", &cmd]).output();
        let ok = ok.unwrap();
        assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
        Some(Terminal { name })
    }

    /// What the terminal shows.
    fn screen(&self) -> String {
        let o = Command::new("tmux").args(["capture-pane", "-p", "-t", &self.name]).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Waits (up to 5 s) until the screen shows `text`.
    fn wait_for(&self, text: &str) -> bool {
        (0..100).any(|_| {
            if self.screen().contains(text) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            false
        })
    }

    /// Types `keys` (tmux key names: `Enter`, `Up`, `C-c`, or text).
    fn keys(&self, keys: &[&str]) {
        Command::new("tmux").args(["send-keys", "-t", &self.name]).args(keys).output().unwrap();
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["kill-session", "-t", &self.name]).output();
    }
}

/// On a terminal the REPL edits lines and keeps history: Up recalls
/// `next`.
#[test]
fn terminal_session_has_history() {
    let Some(t) = Terminal::start("tty", LOOP) else { return };
    // (capture-pane drops the prompt's trailing space)
    let prompt_seen = t.wait_for("(mlir-dbg)");
    t.keys(&["next", "Enter"]);
    let first = t.wait_for("@main at t.mlir:7:9");
    // Up recalls `next` from the history; the line is not echoed twice.
    t.keys(&["Up", "Enter"]);
    let second = t.wait_for("@main at t.mlir:8:9");
    let screen = t.screen();
    t.keys(&["quit", "Enter"]);
    assert!(prompt_seen && first && second, "screen:\n{screen}");
    assert_eq!(screen.matches("(mlir-dbg) next").count(), 2, "screen:\n{screen}");
}

/// Ctrl-C pauses a program running under `continue` (here one that never
/// ends); its state can then be read.
#[test]
fn ctrl_c_pauses_a_running_program() {
    let program = "func.func @main() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %n = arith.addi %i, %c1 : i64
  cf.br ^bb1(%n : i64)
}
";
    let Some(t) = Terminal::start("int", program) else { return };
    let started = t.wait_for("(mlir-dbg)");
    t.keys(&["continue", "Enter"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    t.keys(&["C-c"]);
    let paused = t.wait_for("Program interrupted.");
    t.keys(&["info locals", "Enter"]);
    let locals = t.wait_for("%c1 = 1 : i64");
    let screen = t.screen();
    t.keys(&["quit", "Enter"]);
    assert!(started && paused && locals, "screen:\n{screen}");
    // The pause is in the loop's block, at one of its two ops.
    assert!(screen.contains("@main at t.mlir:6:8") || screen.contains("@main at t.mlir:7:3"), "screen:\n{screen}");
}

/// `print`, `info locals` and a watchpoint show `uiN` values unsigned, as
/// MLIR prints them: the `ui8` 255 is 255, not -1; a vector of 200 and 1
/// is `200 1`, not `-56 1`.
#[test]
fn unsigned_types_show_unsigned() {
    let program = "func.func @main() {
  %c = arith.constant 255 : ui8
  %v = arith.constant dense<[200, 1]> : vector<2xui8>
  %m = memref.alloc() : memref<1xui8>
  %i0 = arith.constant 0 : index
  memref.store %c, %m[%i0] : memref<1xui8>
  memref.dealloc %m : memref<1xui8>
  return
}
";
    let (code, out, err) = session(program, &[], "break 7\ncontinue\nprint %c\nprint %v\ninfo locals\nwatch %m[0]\n");
    assert_eq!(code, 0, "{err}");
    for want in ["%c = 255 : ui8", "  200    1", "%v = dense<[200, 1]> : vector<2xui8>", "Watchpoint 2: %m[0] = 255"] {
        assert!(out.lines().any(|l| l.ends_with(want)), "missing {want:?} in\n{out}");
    }
    assert!(!out.contains("-1") && !out.contains("-56"), "{out}");
}

/// One op that changes several watched elements (a `memref.copy`, and two
/// watchpoints on one element) stops once, after that op, reporting each
/// of them; a `break` on a line without an op (blank, comment) moves to
/// the next line that has one.
#[test]
fn every_watchpoint_an_op_changes_is_reported_at_that_op() {
    let program = "func.func @main() {
  %src = memref.alloc() : memref<3xi32>
  %dst = memref.alloc() : memref<3xi32>
  %c7 = arith.constant 7 : i32
  linalg.fill ins(%c7 : i32) outs(%src : memref<3xi32>)
  memref.copy %src, %dst : memref<3xi32> to memref<3xi32>

  // the last element again
  %c5 = arith.constant 5 : i32
  %i2 = arith.constant 2 : index
  memref.store %c5, %dst[%i2] : memref<3xi32>
  return
}
";
    let script = "break 7\ncontinue\nwatch %dst[0]\nwatch %dst[2]\nwatch %dst[2]\ncontinue\ncontinue\ncontinue\n";
    let (code, out, err) = session(program, &[], script);
    assert_eq!(code, 0, "{err}");
    // Line 7 is blank and line 8 a comment: the breakpoint is at line 9.
    let want = "Stopped at the entry of @main.
@main at t.mlir:2:10
2\t  %src = memref.alloc() : memref<3xi32>
(mlir-dbg) break 7
Breakpoint 1 at t.mlir:9: %c5 = arith.constant 5 : i32
(mlir-dbg) continue
Breakpoint 1, @main
@main at t.mlir:9:9
9\t  %c5 = arith.constant 5 : i32
(mlir-dbg) watch %dst[0]
Watchpoint 2: %dst[0] = 7
(mlir-dbg) watch %dst[2]
Watchpoint 3: %dst[2] = 7
(mlir-dbg) watch %dst[2]
Watchpoint 4: %dst[2] = 7
(mlir-dbg) continue
Watchpoint 3: %dst[2]
Old value = 7
New value = 5

Watchpoint 4: %dst[2]
Old value = 7
New value = 5
@main at t.mlir:11:3 (after memref.store)
11\t  memref.store %c5, %dst[%i2] : memref<3xi32>
(mlir-dbg) continue
[program exited normally]
(mlir-dbg) continue
The program is not being run ('run' starts it).
(mlir-dbg) ";
    same(&out, want);

    // The copy itself: watched before it, all three change at it.
    let script = "break 6\ncontinue\nwatch %dst[0]\nwatch %dst[2]\nwatch %dst[2]\ncontinue\n";
    let (code, out, err) = session(program, &[], script);
    assert_eq!(code, 0, "{err}");
    let tail = "(mlir-dbg) continue
Watchpoint 2: %dst[0]
Old value = <poison>
New value = 7

Watchpoint 3: %dst[2]
Old value = <poison>
New value = 7

Watchpoint 4: %dst[2]
Old value = <poison>
New value = 7
@main at t.mlir:6:3 (after memref.copy)";
    assert!(out.contains(tail), "{out}");
}
