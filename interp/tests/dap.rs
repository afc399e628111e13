//! `mlir-interp dap`: a scripted Debug Adapter Protocol client sends the
//! requests an editor sends and checks the responses and events. Lines and
//! values expected are worked out from the programs by hand.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, Stdio};

/// A client talking to one `mlir-interp dap` process.
struct Client {
    child: Child,
    out: BufReader<ChildStdout>,
    seq: i64,
    /// Everything received, for failure messages.
    log: Vec<Value>,
    /// The directory the server runs in, holding the program as t.mlir.
    dir: std::path::PathBuf,
}

impl Client {
    /// Starts the server in a fresh directory holding `program` as t.mlir.
    fn start(program: &str) -> Client {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("mlir-interp-dap-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.mlir"), program).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
            .current_dir(&dir)
            .arg("dap")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mlir-interp dap");
        let out = BufReader::new(child.stdout.take().unwrap());
        Client { child, out, seq: 0, log: Vec::new(), dir }
    }

    fn send(&mut self, command: &str, arguments: Value) {
        self.seq += 1;
        let body = json!({"seq": self.seq, "type": "request", "command": command, "arguments": arguments}).to_string();
        let stdin = self.child.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next message, or `None` when the server has closed its output.
    fn recv(&mut self) -> Option<Value> {
        let mut len = None;
        loop {
            let mut line = String::new();
            if self.out.read_line(&mut line).unwrap() == 0 {
                return None;
            }
            let line = line.trim();
            if line.is_empty() {
                if len.is_some() {
                    break;
                }
                continue;
            }
            let (k, v) = line.split_once(':').expect("a header");
            assert_eq!(k, "Content-Length");
            len = Some(v.trim().parse::<usize>().unwrap());
        }
        let mut body = vec![0; len.unwrap()];
        self.out.read_exact(&mut body).unwrap();
        let v: Value = serde_json::from_slice(&body).expect("JSON");
        self.log.push(v.clone());
        Some(v)
    }

    /// Messages up to and including the first that `pred` accepts.
    fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut got = Vec::new();
        loop {
            let m = self.recv().unwrap_or_else(|| panic!("server closed before {what}; got {:#?}", self.log));
            let done = pred(&m);
            got.push(m);
            if done {
                return got;
            }
        }
    }

    /// Sends a request and returns its response (events before it are skipped).
    fn request(&mut self, command: &str, arguments: Value) -> Value {
        self.send(command, arguments);
        let seq = self.seq;
        self.until(command, |m| m["type"] == "response" && m["request_seq"] == seq).pop().unwrap()
    }

    /// Sends a request that resumes the run and returns the next `stopped`
    /// event's body (and the events before it).
    fn resume(&mut self, command: &str) -> (Value, Vec<Value>) {
        let r = self.request(command, json!({"threadId": 1}));
        assert_eq!(r["success"], true, "{r}");
        let mut got = self.until("stopped", |m| m["event"] == "stopped" || m["event"] == "terminated");
        let last = got.pop().unwrap();
        (last["body"].clone(), got)
    }

    /// The top frame's (line, column, name).
    fn top(&mut self) -> (i64, i64, String) {
        let r = self.request("stackTrace", json!({"threadId": 1}));
        let f = &r["body"]["stackFrames"][0];
        (f["line"].as_i64().unwrap(), f["column"].as_i64().unwrap(), f["name"].as_str().unwrap().to_string())
    }

    /// initialize and launch, then `configure` (breakpoint requests), then
    /// configurationDone.
    fn launch(&mut self, launch: Value, configure: impl FnOnce(&mut Client)) {
        let r = self
            .request("initialize", json!({"adapterID": "mlir-interp", "linesStartAt1": true, "columnsStartAt1": true}));
        assert_eq!(r["body"]["supportsConfigurationDoneRequest"], true, "{r}");
        let r = self.request("launch", launch);
        assert_eq!(r["success"], true, "{r}");
        self.until("initialized", |m| m["event"] == "initialized");
        configure(self);
        let r = self.request("configurationDone", json!({}));
        assert_eq!(r["success"], true, "{r}");
    }

    /// Disconnects and returns the exit status.
    fn finish(mut self) -> i32 {
        let r = self.request("disconnect", json!({}));
        assert_eq!(r["success"], true, "{r}");
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
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

/// Line and function breakpoints, the stack, scopes and variables (a memref
/// expanding row by row), evaluate, an unknown request, and the end: the
/// program's output as events, exit code 0, terminated.
#[test]
fn breakpoints_stack_and_variables() {
    let mut c = Client::start(LOOP);
    c.launch(json!({"program": "t.mlir", "stopOnEntry": false}), |c| {
        // Line 4 is `}`: the breakpoint moves to line 6, the next op.
        let r = c.request(
            "setBreakpoints",
            json!({"source": {"path": "t.mlir"}, "breakpoints": [{"line": 4}, {"line": 13}, {"line": 99}]}),
        );
        let bps = &r["body"]["breakpoints"];
        assert_eq!((bps[0]["verified"].clone(), bps[0]["line"].clone()), (json!(true), json!(6)), "{r}");
        assert_eq!((bps[1]["verified"].clone(), bps[1]["line"].clone()), (json!(true), json!(13)), "{r}");
        assert_eq!(bps[2]["verified"], false, "{r}");
        let r = c.request("setFunctionBreakpoints", json!({"breakpoints": [{"name": "sq"}, {"name": "nope"}]}));
        assert_eq!(r["body"]["breakpoints"][0]["verified"], true, "{r}");
        assert_eq!(r["body"]["breakpoints"][1]["verified"], false, "{r}");
    });
    let stop = c.until("first stop", |m| m["event"] == "stopped").pop().unwrap();
    assert_eq!(stop["body"]["reason"], "breakpoint", "{stop}");
    assert_eq!(c.top(), (6, 8, "@main".to_string()));
    let (stop, _) = c.resume("continue");
    assert_eq!(stop["reason"], "breakpoint", "{stop}");
    // In @sq, called from line 12 (`%q = func.call` at column 10).
    let r = c.request("stackTrace", json!({"threadId": 1}));
    let frames = r["body"]["stackFrames"].as_array().unwrap().clone();
    let at = |f: &Value| (f["name"].clone(), f["line"].clone(), f["column"].clone());
    assert_eq!(
        frames.iter().map(at).collect::<Vec<_>>(),
        vec![(json!("@sq"), json!(2), json!(8)), (json!("@main"), json!(12), json!(10))]
    );
    assert!(frames[0]["source"]["path"].as_str().unwrap().ends_with("/t.mlir"), "{r}");
    let r = c.request("scopes", json!({"frameId": 0}));
    let locals = r["body"]["scopes"][0]["variablesReference"].clone();
    let r = c.request("variables", json!({"variablesReference": locals}));
    assert_eq!(
        r["body"]["variables"],
        json!([{"name": "%x", "value": "3", "type": "i32", "variablesReference": 0, "evaluateName": "%x"}])
    );
    // The caller's frame as the call found it: %acc is 3, %m expands.
    let r = c.request("scopes", json!({"frameId": 1}));
    let locals = r["body"]["scopes"][0]["variablesReference"].clone();
    let r = c.request("variables", json!({"variablesReference": locals}));
    let vars = r["body"]["variables"].as_array().unwrap().clone();
    let names: Vec<&str> = vars.iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["%a", "%c0", "%c1", "%c2", "%m", "%i", "%acc"]);
    assert_eq!(vars[6]["value"], "3");
    assert_eq!(vars[4]["type"], "memref<2x3xi32>");
    let rows = c.request("variables", json!({"variablesReference": vars[4]["variablesReference"]}));
    let rows = rows["body"]["variables"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[1]["name"].clone(), rows[1]["indexedVariables"].clone()), (json!("[1]"), json!(3)));
    let r = c.request("evaluate", json!({"expression": "%acc", "frameId": 1, "context": "hover"}));
    assert_eq!(r["body"]["result"], "%acc = 3 : i32", "{r}");
    // A hover sends the word under the pointer, without its `%`.
    let r = c.request("evaluate", json!({"expression": "acc", "frameId": 1, "context": "hover"}));
    assert_eq!(r["body"]["result"], "%acc = 3 : i32", "{r}");
    let r = c.request("evaluate", json!({"expression": "%nope", "frameId": 0}));
    assert_eq!((r["success"].clone(), r["message"].clone()), (json!(false), json!("no value %nope in scope here")));
    let r = c.request("readMemory", json!({"memoryReference": "0"}));
    assert_eq!(r["message"], "unsupported request 'readMemory'", "{r}");
    // stepOut returns to @main; line 13 has a breakpoint, so that is the stop.
    let (stop, _) = c.resume("stepOut");
    assert_eq!(stop["reason"], "breakpoint", "{stop}");
    assert_eq!(c.top(), (13, 5, "@main".to_string()));
    // Paused before the store; after it, row 0 holds 9 at column 1.
    c.resume("next");
    assert_eq!(c.top(), (14, 5, "@main".to_string()));
    let r = c.request("scopes", json!({"frameId": 0}));
    let locals = r["body"]["scopes"][0]["variablesReference"].clone();
    let r = c.request("variables", json!({"variablesReference": locals}));
    let m = r["body"]["variables"].as_array().unwrap().iter().find(|v| v["name"] == "%m").unwrap().clone();
    let rows = c.request("variables", json!({"variablesReference": m["variablesReference"]}));
    let row0 = rows["body"]["variables"][0]["variablesReference"].clone();
    let r = c.request("variables", json!({"variablesReference": row0}));
    assert_eq!(r["body"]["variables"][1], json!({"name": "[1]", "value": "9", "variablesReference": 0}));
    // Clear every breakpoint and run to the end.
    c.request("setBreakpoints", json!({"source": {"path": "t.mlir"}, "breakpoints": []}));
    c.request("setFunctionBreakpoints", json!({"breakpoints": []}));
    let (end, before) = c.resume("continue");
    assert_eq!(end, json!({}), "terminated has an empty body");
    let outputs: Vec<(Value, Value)> = before
        .iter()
        .filter(|m| m["event"] == "output")
        .map(|m| (m["body"]["category"].clone(), m["body"]["output"].clone()))
        .collect();
    assert_eq!(outputs, vec![(json!("stdout"), json!("81\n")), (json!("console"), json!("%0 = 81 : i32\n"))]);
    let exited = before.iter().find(|m| m["event"] == "exited").expect("exited event");
    assert_eq!(exited["body"]["exitCode"], 0);
    assert_eq!(c.finish(), 0);
}

/// Stepping: stopOnEntry, next over the loop, stepIn into the body and the
/// call, and restart back to the entry.
#[test]
fn stepping_and_restart() {
    let mut c = Client::start(LOOP);
    c.launch(json!({"program": "t.mlir", "stopOnEntry": true}), |_| {});
    let stop = c.until("entry", |m| m["event"] == "stopped").pop().unwrap();
    assert_eq!(stop["body"]["reason"], "entry");
    assert_eq!(c.top(), (6, 8, "@main".to_string()));
    for line in [7, 8, 9, 10, 11] {
        let (stop, _) = c.resume("next");
        assert_eq!(stop["reason"], "step");
        assert_eq!(c.top().0, line);
    }
    // Over the whole loop: the next op of this region is vector.print, after
    // the loop printed nothing.
    let (_, events) = c.resume("next");
    assert!(events.iter().all(|m| m["event"] != "output"), "{events:?}");
    assert_eq!(c.top(), (16, 3, "@main".to_string()));
    let r = c.request("evaluate", json!({"expression": "%r", "frameId": 0}));
    assert_eq!(r["body"]["result"], "%r = 81 : i32");
    c.request("restart", json!({}));
    let stop = c.until("entry again", |m| m["event"] == "stopped").pop().unwrap();
    assert_eq!(stop["body"]["reason"], "entry");
    assert_eq!(c.top(), (6, 8, "@main".to_string()));
    for (line, name) in
        [(7, "@main"), (8, "@main"), (9, "@main"), (10, "@main"), (11, "@main"), (12, "@main"), (2, "@sq")]
    {
        c.resume("stepIn");
        let top = c.top();
        assert_eq!((top.0, top.2.as_str()), (line, name));
    }
    assert_eq!(c.finish(), 0);
}

/// Undefined behaviour stops with reason `exception`, the diagnostic as
/// stderr output and in exceptionInfo; going on ends the run with exit 1.
#[test]
fn undefined_behaviour_is_an_exception_stop() {
    let program = "func.func @main(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %q = arith.divsi %n, %c0 : i32
  return %q : i32
}
";
    let mut c = Client::start(program);
    c.launch(json!({"program": "t.mlir", "args": ["7"]}), |_| {});
    let mut got = c.until("the fault", |m| m["event"] == "stopped");
    let stop = got.pop().unwrap();
    assert_eq!(stop["body"]["reason"], "exception", "{stop}");
    let msg = "undefined behavior: signed division by zero: 7 / 0 in 'arith.divsi'";
    assert_eq!(stop["body"]["description"], msg);
    let diag = got.iter().find(|m| m["event"] == "output").expect("the diagnostic");
    assert_eq!(diag["body"]["category"], "stderr");
    assert!(diag["body"]["output"].as_str().unwrap().starts_with(&format!("t.mlir:3:8: error: {msg}")), "{diag}");
    assert_eq!(c.top(), (3, 8, "@main".to_string()));
    let r = c.request("exceptionInfo", json!({"threadId": 1}));
    assert_eq!(r["body"]["description"], msg);
    let r = c.request("evaluate", json!({"expression": "%n", "frameId": 0}));
    assert_eq!(r["body"]["result"], "%n = 7 : i32");
    let (_, before) = c.resume("continue");
    let exited = before.iter().find(|m| m["event"] == "exited").expect("exited event");
    assert_eq!(exited["body"]["exitCode"], 1);
    assert_eq!(c.finish(), 0);
}

/// Counts up forever: only a pause or a breakpoint stops it.
const FOREVER: &str = "func.func @main() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %n = arith.addi %i, %c1 : i64
  cf.br ^bb1(%n : i64)
}
";

/// Requests arrive while the program runs: `pause` pauses it, a
/// breakpoint set then is hit, a disconnect ends the server.
#[test]
fn pause_and_breakpoints_while_running() {
    let mut c = Client::start(FOREVER);
    c.launch(json!({"program": "t.mlir"}), |_| {});
    let r = c.request("pause", json!({"threadId": 1}));
    assert_eq!(r["success"], true, "{r}");
    let stop = c.until("the pause", |m| m["event"] == "stopped").pop().unwrap();
    assert_eq!(stop["body"]["reason"], "pause", "{stop}");
    assert_eq!(c.top().2, "@main");
    // Continue, then set a breakpoint on the addition while it runs.
    let r = c.request("continue", json!({"threadId": 1}));
    assert_eq!(r["success"], true, "{r}");
    let r = c.request("setBreakpoints", json!({"source": {"path": "t.mlir"}, "breakpoints": [{"line": 6}]}));
    assert_eq!(r["body"]["breakpoints"][0]["verified"], true, "{r}");
    let stop = c.until("the breakpoint", |m| m["event"] == "stopped").pop().unwrap();
    assert_eq!(stop["body"]["reason"], "breakpoint", "{stop}");
    assert_eq!(c.top(), (6, 8, "@main".to_string()));
    let value = |c: &mut Client| {
        let r = c.request("evaluate", json!({"expression": "%i", "frameId": 0}));
        let text = r["body"]["result"].as_str().unwrap().to_string();
        text.trim_start_matches("%i = ").trim_end_matches(" : i64").parse::<i64>().unwrap()
    };
    // Each continue comes back to the addition one iteration later.
    let first = value(&mut c);
    let (stop, _) = c.resume("continue");
    assert_eq!(stop["reason"], "breakpoint");
    assert_eq!(value(&mut c), first + 1);
    // A request that needs a paused program is refused while running.
    c.request("setBreakpoints", json!({"source": {"path": "t.mlir"}, "breakpoints": []}));
    c.request("continue", json!({"threadId": 1}));
    let r = c.request("stackTrace", json!({"threadId": 1}));
    assert_eq!(r["body"]["stackFrames"], json!([]), "{r}");
    let r = c.request("next", json!({"threadId": 1}));
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(c.finish(), 0);
}

/// A launch without a program, or of a file that does not parse, fails
/// with the reason; input that is not DAP ends the server with exit 2.
#[test]
fn bad_launches_and_bad_input() {
    let mut c = Client::start(LOOP);
    c.request("initialize", json!({"adapterID": "x"}));
    let r = c.request("launch", json!({}));
    assert_eq!(r["success"], false);
    assert_eq!(r["message"], "launch needs 'program': the .mlir file to debug");
    let r = c.request("launch", json!({"program": "t.mlir", "args": [{"x": 1}]}));
    assert!(r["message"].as_str().unwrap().contains("give each argument as a string"), "{r}");
    assert_eq!(c.finish(), 0);

    let mut c = Client::start("func.func @main( {");
    c.request("initialize", json!({"adapterID": "x"}));
    let r = c.request("launch", json!({"program": "t.mlir"}));
    assert_eq!(r["success"], false);
    assert!(r["message"].as_str().unwrap().starts_with("t.mlir:1:"), "{r}");
    c.until("terminated", |m| m["event"] == "terminated");
    // The adapter stays up for the editor's disconnect, and exits 0.
    let r = c.request("threads", json!({}));
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(c.finish(), 0);

    let mut c = Client::start(LOOP);
    let stdin = c.child.stdin.as_mut().unwrap();
    stdin.write_all(b"Content-Length: 5\r\n\r\n{{{{{").unwrap();
    drop(c.child.stdin.take());
    let out = c.child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not JSON"));
}

/// An editor sends one `setBreakpoints` per file with breakpoints: those of
/// another file are unverified with a message and neither stop the program
/// nor replace its own; the program's file matches under another spelling
/// of its path; line 0 is no line.
#[test]
fn breakpoints_of_another_file_never_stop_the_program() {
    let mut c = Client::start(LOOP);
    std::fs::write(c.dir.join("other.mlir"), LOOP).unwrap();
    let spelled = c.dir.join(".").join("t.mlir");
    c.launch(json!({"program": "t.mlir"}), |c| {
        let r = c.request(
            "setBreakpoints",
            json!({"source": {"path": spelled.display().to_string()}, "breakpoints": [{"line": 13}, {"line": 0}]}),
        );
        let bps = &r["body"]["breakpoints"];
        assert_eq!((bps[0]["verified"].clone(), bps[0]["line"].clone()), (json!(true), json!(13)), "{r}");
        assert_eq!(bps[1]["verified"], false, "line 0: {r}");
        // Line 6 of the other file is an op line of the same text: it must
        // not stop this run, nor drop the breakpoint at line 13.
        let r = c.request("setBreakpoints", json!({"source": {"path": "other.mlir"}, "breakpoints": [{"line": 6}]}));
        let bp = &r["body"]["breakpoints"][0];
        assert_eq!(bp["verified"], false, "{r}");
        assert!(bp["message"].as_str().unwrap().contains("not the program being debugged"), "{r}");
        let r = c.request("setBreakpoints", json!({"source": {"name": "t.mlir"}, "breakpoints": [{"line": 6}]}));
        assert_eq!(r["body"]["breakpoints"][0]["verified"], false, "a source without a path: {r}");
    });
    let stop = c.until("the breakpoint", |m| m["event"] == "stopped").pop().unwrap();
    assert_eq!(stop["body"]["reason"], "breakpoint", "{stop}");
    assert_eq!(c.top(), (13, 5, "@main".to_string()));
    assert_eq!(c.finish(), 0);
}

/// A bad argument or entry function fails `launch` with the diagnostic
/// `run` gives, then the session ends (terminated; the adapter answers
/// `disconnect` and exits 0, or exits 0 when its input ends).
#[test]
fn launch_fails_on_a_bad_argument_or_entry() {
    let program = "func.func @main(%n: i32) -> i32 {\n  return %n : i32\n}\n";
    for (launch, want) in [
        (json!({"program": "t.mlir", "args": ["abc"]}), "argument #0 of 'main' (%n: i32)"),
        (json!({"program": "t.mlir"}), "'main' takes 1 argument(s) (i32), 0 given"),
        (json!({"program": "t.mlir", "entry": "nope", "args": ["1"]}), "entry point not found: 'nope'"),
    ] {
        let mut c = Client::start(program);
        c.request("initialize", json!({"adapterID": "x"}));
        let r = c.request("launch", launch.clone());
        assert_eq!(r["success"], false, "{launch}: {r}");
        assert!(r["message"].as_str().unwrap().contains(want), "{launch}: {r}");
        c.until("terminated", |m| m["event"] == "terminated");
        if launch.get("entry").is_some() {
            drop(c.child.stdin.take());
            assert_eq!(c.child.wait().unwrap().code(), Some(0), "{launch}");
        } else {
            assert_eq!(c.finish(), 0, "{launch}");
        }
    }
}

/// Counts down to 0 recursively: @main, then @down at depths 3, 2, 1, 0.
const RECURSE: &str = "func.func @down(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %z -> (i32) {
    scf.yield %c0 : i32
  } else {
    %m = arith.subi %n, %c1 : i32
    %s = func.call @down(%m) : (i32) -> i32
    scf.yield %s : i32
  }
  return %r : i32
}
func.func @main() -> i32 {
  %c3 = arith.constant 3 : i32
  %r = func.call @down(%c3) : (i32) -> i32
  return %r : i32
}
";

/// `stackTrace` pages: `startFrame` and `levels` pick the frames, and
/// `totalFrames` counts them all, so loading more frames repeats none.
#[test]
fn stack_trace_pages_by_start_frame_and_levels() {
    let mut c = Client::start(RECURSE);
    c.launch(json!({"program": "t.mlir"}), |c| {
        // Line 6 (`scf.yield %c0`) runs only in the innermost call, n = 0.
        let r = c.request("setBreakpoints", json!({"source": {"path": "t.mlir"}, "breakpoints": [{"line": 6}]}));
        assert_eq!(r["body"]["breakpoints"][0]["line"], 6, "{r}");
    });
    c.until("the breakpoint", |m| m["event"] == "stopped");
    let lines = |r: &Value| -> Vec<(String, i64)> {
        r["body"]["stackFrames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["name"].as_str().unwrap().to_string(), f["line"].as_i64().unwrap()))
            .collect()
    };
    let all = c.request("stackTrace", json!({"threadId": 1}));
    assert_eq!(all["body"]["totalFrames"], 5, "{all}");
    let down = |l: i64| ("@down".to_string(), l);
    assert_eq!(lines(&all), vec![down(6), down(9), down(9), down(9), ("@main".to_string(), 16)]);
    let r = c.request("stackTrace", json!({"threadId": 1, "startFrame": 0, "levels": 2}));
    assert_eq!((lines(&r), r["body"]["totalFrames"].clone()), (vec![down(6), down(9)], json!(5)), "{r}");
    let r = c.request("stackTrace", json!({"threadId": 1, "startFrame": 2, "levels": 2}));
    assert_eq!(lines(&r), vec![down(9), down(9)], "{r}");
    let r = c.request("stackTrace", json!({"threadId": 1, "startFrame": 4, "levels": 20}));
    assert_eq!(lines(&r), vec![("@main".to_string(), 16)], "{r}");
    // Frame ids stay those of the whole stack.
    assert_eq!(r["body"]["stackFrames"][0]["id"], 4, "{r}");
    let r = c.request("stackTrace", json!({"threadId": 1, "startFrame": 9}));
    assert_eq!(r["body"]["stackFrames"], json!([]), "{r}");
    assert_eq!(c.finish(), 0);
}

/// `terminate` ends the program: the client hears `exited` and
/// `terminated`, then only `disconnect` is answered, and the server exits 0.
#[test]
fn terminate_sends_exited_then_terminated() {
    let mut c = Client::start(LOOP);
    c.launch(json!({"program": "t.mlir", "stopOnEntry": true}), |_| {});
    c.until("entry", |m| m["event"] == "stopped");
    let r = c.request("terminate", json!({}));
    assert_eq!(r["success"], true, "{r}");
    let got = c.until("terminated", |m| m["event"] == "terminated");
    let events: Vec<&str> = got.iter().filter_map(|m| m["event"].as_str()).collect();
    assert_eq!(events, ["exited", "terminated"], "{got:?}");
    let r = c.request("stackTrace", json!({"threadId": 1}));
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(c.finish(), 0);
}

/// Input that stops being DAP after `launch` ends the server with exit 2
/// (as before it), and a void function's stepOut says it returned without
/// a dangling colon.
#[test]
fn broken_input_after_launch_and_a_void_step_out() {
    let program = "func.func @f() {\n  return\n}\nfunc.func @main() {\n  func.call @f() : () -> ()\n  return\n}\n";
    let mut c = Client::start(program);
    c.launch(json!({"program": "t.mlir", "stopOnEntry": true}), |_| {});
    c.until("entry", |m| m["event"] == "stopped");
    let (stop, _) = c.resume("stepIn");
    assert_eq!(stop["reason"], "step", "{stop}");
    assert_eq!(c.top(), (2, 3, "@f".to_string()));
    let (stop, _) = c.resume("stepOut");
    assert_eq!(stop["description"], "Returned from @f", "{stop}");
    let stdin = c.child.stdin.as_mut().unwrap();
    stdin.write_all(b"Content-Length: 5\r\n\r\n{{{{{").unwrap();
    drop(c.child.stdin.take());
    let out = c.child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not JSON"));
}

/// `evaluate` reads one result of a multi-result op as `%r#1`, with or
/// without the `%`.
#[test]
fn evaluate_reads_result_numbers() {
    let program = "func.func @two(%x: i32) -> (i32, i32) {
  %y = arith.addi %x, %x : i32
  return %x, %y : i32, i32
}
func.func @main() -> i32 {
  %a = arith.constant 3 : i32
  %r:2 = func.call @two(%a) : (i32) -> (i32, i32)
  %s = arith.addi %r#0, %r#1 : i32
  return %s : i32
}
";
    let mut c = Client::start(program);
    c.launch(json!({"program": "t.mlir"}), |c| {
        c.request("setBreakpoints", json!({"source": {"path": "t.mlir"}, "breakpoints": [{"line": 9}]}));
    });
    c.until("the breakpoint", |m| m["event"] == "stopped");
    for (expr, want) in [("%r#1", "%r#1 = 6 : i32"), ("r#0", "%r#0 = 3 : i32"), ("s", "%s = 9 : i32")] {
        let r = c.request("evaluate", json!({"expression": expr, "frameId": 0}));
        assert_eq!(r["body"]["result"], want, "{expr}: {r}");
    }
    assert_eq!(c.finish(), 0);
}
