//! `mlir-interp dap`: a Debug Adapter Protocol server on standard input
//! and output, so an editor (VS Code, or any DAP client) debugs .mlir
//! files. One thread: the server answers requests inside the debugger's
//! pauses, and the program's output travels as `output` events, never on
//! the protocol's stream.
//!
//! Requests: `initialize`, `launch` (`program`, `entry`, `args`,
//! `stopOnEntry`, `cwd`; fails when any cannot be used), `setBreakpoints`
//! (lines of the program's file, moved to the next line with an op; other
//! files' are unverified), `setFunctionBreakpoints`, `setExceptionBreakpoints` (faults
//! always stop), `configurationDone`, `threads` (one), `stackTrace` (paged),
//! `scopes` (one per frame: its values in scope), `variables` (arrays and
//! memrefs expand by their leading index), `evaluate` (the REPL's `print`
//! expressions), `continue`, `next`, `stepIn`, `stepOut`, `exceptionInfo`,
//! `restart`, `terminate`, `disconnect`. Others get an error response
//! naming them.

use super::{op_line_from, Ended, Points, Reason, Resume, Stopped, Ui, Where};
use crate::value::Value;
use mlir_ir::diag::Source;
use mlir_ir::ir::{Module, OpId, ValueId};
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::rc::Rc;

/// The thread every frame belongs to.
const THREAD: i64 = 1;

/// Children a `variables` answer holds at most (arrays page beyond it).
const CHILDREN_MAX: usize = 1000;

/// The writing half of the connection: numbers and frames messages.
pub struct Wire {
    w: Box<dyn Write>,
    seq: i64,
}

impl Wire {
    /// A connection writing to `w`.
    pub fn new(w: Box<dyn Write>) -> Wire {
        Wire { w, seq: 0 }
    }

    fn send(&mut self, mut msg: Json) {
        self.seq += 1;
        msg["seq"] = json!(self.seq);
        let body = msg.to_string();
        // A client that went away is noticed when its input ends.
        let _ = write!(self.w, "Content-Length: {}\r\n\r\n{body}", body.len());
        let _ = self.w.flush();
    }

    /// Sends event `event`.
    pub fn event(&mut self, event: &str, body: Json) {
        self.send(json!({"type": "event", "event": event, "body": body}));
    }

    /// Answers `req` with success.
    pub fn reply(&mut self, req: &Json, body: Json) {
        let cmd = req["command"].clone();
        self.send(
            json!({"type": "response", "request_seq": req["seq"], "success": true, "command": cmd, "body": body}),
        );
    }

    /// Answers `req` with failure.
    pub fn fail(&mut self, req: &Json, message: &str) {
        let cmd = req["command"].clone();
        self.send(json!({
            "type": "response", "request_seq": req["seq"], "success": false, "command": cmd,
            "message": message, "body": {"error": {"id": 1, "format": message, "showUser": true}}
        }));
    }
}

/// Reads one message: headers up to an empty line, then `Content-Length`
/// bytes of JSON. `Ok(None)` at the end of input.
pub fn read_message(r: &mut dyn BufRead) -> Result<Option<Json>, String> {
    let mut len = None;
    loop {
        let mut line = String::new();
        match r.read_line(&mut line) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(format!("cannot read a message: {e}")),
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if len.is_some() {
                break;
            }
            continue;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                len = Some(v.trim().parse::<usize>().map_err(|_| format!("bad Content-Length header: '{line}'"))?);
            }
        }
    }
    let n = len.unwrap_or(0);
    if n > 64 << 20 {
        return Err(format!("a {n}-byte message is too large"));
    }
    let mut body = vec![0u8; n];
    r.read_exact(&mut body).map_err(|e| format!("cannot read a {n}-byte message: {e}"))?;
    serde_json::from_slice(&body).map(Some).map_err(|e| format!("a message is not JSON: {e}"))
}

/// Program output as `output` events, a line at a time.
struct Output {
    wire: Rc<RefCell<Wire>>,
    buf: Vec<u8>,
}

impl Write for Output {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        if let Some(i) = self.buf.iter().rposition(|c| *c == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line).into_owned();
            self.wire.borrow_mut().event("output", json!({"category": "stdout", "output": text}));
        }
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            let text = String::from_utf8_lossy(&std::mem::take(&mut self.buf)).into_owned();
            self.wire.borrow_mut().event("output", json!({"category": "stdout", "output": text}));
        }
        Ok(())
    }
}

/// What `launch` asked for.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The .mlir file.
    pub program: String,
    /// The entry function.
    pub entry: String,
    /// Entry arguments as `--arg` texts.
    pub args: Vec<String>,
    /// Pause before the first op.
    pub stop_on_entry: bool,
    /// What relative paths (the program's, breakpoints' sources) are relative to.
    pub cwd: Option<String>,
}

/// An expandable array in a `variables` answer: a value of frame `frame`
/// and the leading indices already chosen.
#[derive(Clone, Debug)]
struct Child {
    frame: usize,
    value: ValueId,
    prefix: Vec<usize>,
}

/// The DAP front end.
pub struct Dap<'a> {
    wire: Rc<RefCell<Wire>>,
    input: Requests,
    m: &'a Module,
    src: &'a Source,
    /// The program's path, canonical when the file system allows, so a
    /// breakpoint's source can be compared with it.
    path: String,
    /// What a relative breakpoint source is relative to (`launch`'s `cwd`).
    cwd: Option<String>,
    funcs: Vec<String>,
    /// Lines and columns count from 1 (the client's `linesStartAt1`).
    base: (i64, i64),
    /// Expandable arrays of the current pause, by reference - [`CHILD_BASE`].
    children: Vec<Child>,
    /// The last fault's message, for `exceptionInfo`.
    fault: Option<String>,
    /// The client disconnected (or the input ended).
    gone: bool,
    /// What a request that came while running asked for, done at the pause.
    pending: Option<Resume>,
    /// `exited` and `terminated` were sent (the run ended or was terminated).
    over: bool,
    /// The input stopped being DAP (a broken message): the session ends
    /// with exit status 2, as before `launch`. Shared with [`main`], which
    /// gives the status after the debugger has taken the front end.
    broken: Rc<std::cell::Cell<bool>>,
}

/// Requests as a reader thread parses them from the input (so they can
/// arrive while the program runs): a message, the end (`None`), or why
/// the input is not DAP.
pub type Requests = std::sync::mpsc::Receiver<Result<Option<Json>, String>>;

/// Starts the thread that reads `input`'s messages into [`Requests`].
pub fn reader(mut input: Box<dyn BufRead + Send>) -> Requests {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || loop {
        let m = read_message(&mut *input);
        let last = !matches!(m, Ok(Some(_)));
        if tx.send(m).is_err() || last {
            break;
        }
    });
    rx
}

/// Variable references of frames' scopes are `1 + frame`; arrays' start here.
const CHILD_BASE: usize = 1_000_000;

/// What a request asks of the session.
enum Act {
    /// Keep reading requests.
    Stay,
    /// Let the run go on (or start it).
    Go(Resume),
}

impl<'a> Dap<'a> {
    /// A front end for `m` (from `src`, launched as `path`) on `wire`,
    /// taking requests from `input`; `base` is where lines and columns start.
    pub fn new(
        m: &'a Module,
        src: &'a Source,
        path: String,
        wire: Rc<RefCell<Wire>>,
        input: Requests,
        base: (i64, i64),
    ) -> Dap<'a> {
        Dap {
            wire,
            input,
            m,
            src,
            path,
            cwd: None,
            funcs: Vec::new(),
            base,
            children: Vec::new(),
            fault: None,
            gone: false,
            pending: None,
            over: false,
            broken: Rc::default(),
        }
    }

    /// Reads and answers requests until one lets the run go on.
    pub fn serve(&mut self, s: Option<&Stopped<'_, '_>>, points: &mut Points) -> Resume {
        loop {
            if self.gone {
                return Resume::Quit;
            }
            let Some(req) = self.next_request(true) else {
                self.gone = true;
                return Resume::Quit;
            };
            if req["type"] != "request" {
                continue;
            }
            match self.request(&req, s, points) {
                Ok(Act::Stay) => {}
                Ok(Act::Go(r)) => return r,
                Err(msg) => self.wire.borrow_mut().fail(&req, &msg),
            }
        }
    }

    /// The next request: waiting for one, or only one already there. The
    /// end of input or a broken message is `None` (the session ends).
    fn next_request(&mut self, wait: bool) -> Option<Json> {
        let msg = if wait { self.input.recv().ok()? } else { self.input.try_recv().ok()? };
        match msg {
            Ok(Some(r)) => Some(r),
            Ok(None) => {
                self.gone = true;
                None
            }
            Err(msg) => {
                eprintln!("mlir-interp dap: {msg}");
                self.gone = true;
                self.broken.set(true);
                None
            }
        }
    }

    /// Answers one request.
    fn request(&mut self, req: &Json, s: Option<&Stopped<'_, '_>>, points: &mut Points) -> Result<Act, String> {
        let args = &req["arguments"];
        let cmd = req["command"].as_str().unwrap_or("");
        let running = || s.ok_or_else(|| format!("'{cmd}' needs a paused program; it is not running"));
        let reply = |this: &mut Self, body: Json| this.wire.borrow_mut().reply(req, body);
        match cmd {
            "setBreakpoints" => {
                let body = self.set_breakpoints(args, points);
                reply(self, body);
            }
            "setFunctionBreakpoints" => {
                points.breaks.retain(|b| !matches!(b.at, Where::Func(_)));
                let mut out = Vec::new();
                for bp in args["breakpoints"].as_array().into_iter().flatten() {
                    let name = bp["name"].as_str().unwrap_or("");
                    let name = name.strip_prefix('@').unwrap_or(name).to_string();
                    if self.funcs.contains(&name) {
                        let id = points.add_break(Where::Func(name));
                        out.push(json!({"id": id, "verified": true}));
                    } else {
                        out.push(json!({"verified": false, "message": format!("no function @{name} in the program")}));
                    }
                }
                reply(self, json!({"breakpoints": out}));
            }
            "setExceptionBreakpoints" => reply(self, json!({})),
            "configurationDone" => {
                reply(self, json!({}));
                if s.is_none() {
                    return Ok(Act::Go(Resume::Continue));
                }
            }
            "threads" => reply(self, json!({"threads": [{"id": THREAD, "name": "main"}]})),
            "stackTrace" => {
                let body = match s {
                    Some(s) => self.stack_trace(s, args),
                    None => json!({"stackFrames": [], "totalFrames": 0}),
                };
                reply(self, body);
            }
            "scopes" => {
                let k = args["frameId"].as_u64().unwrap_or(0) as usize;
                let s = running()?;
                let (op, _) = s.frame(k).ok_or_else(|| format!("no frame {k}"))?;
                let (line, col) = self.src.line_col(self.m.op(op).span.start);
                reply(
                    self,
                    json!({"scopes": [{
                        "name": "Locals", "presentationHint": "locals", "variablesReference": 1 + k,
                        "expensive": false, "line": line as i64 + self.base.0 - 1, "column": col as i64 + self.base.1 - 1,
                    }]}),
                );
            }
            "variables" => {
                let s = running()?;
                let body = self.variables(s, args)?;
                reply(self, body);
            }
            "evaluate" => {
                let s = running()?;
                let k = args["frameId"].as_u64().unwrap_or(0) as usize;
                let expr = args["expression"].as_str().unwrap_or("").trim();
                // An editor's hover sends the word under the pointer, which
                // leaves out the `%` of `%acc`.
                let named = if expr.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                    format!("%{expr}")
                } else {
                    expr.to_string()
                };
                let text = s.print(k, &named)?;
                reply(self, json!({"result": text, "variablesReference": 0}));
            }
            "exceptionInfo" => {
                let msg = self.fault.clone().ok_or("no fault to describe")?;
                reply(self, json!({"exceptionId": "fault", "description": msg, "breakMode": "always"}));
            }
            "continue" | "next" | "stepIn" | "stepOut" => {
                running()?;
                let how = match cmd {
                    "continue" => Resume::Continue,
                    "next" => Resume::Next,
                    "stepIn" => Resume::Step,
                    _ => Resume::Finish,
                };
                reply(self, if cmd == "continue" { json!({"allThreadsContinued": true}) } else { json!({}) });
                return Ok(Act::Go(how));
            }
            "pause" => {
                // Requests are read only while paused, so this one finds the
                // program paused already.
                reply(self, json!({}));
            }
            "restart" => {
                reply(self, json!({}));
                return Ok(Act::Go(Resume::Restart));
            }
            "disconnect" => {
                reply(self, json!({}));
                self.gone = true;
                return Ok(Act::Go(Resume::Quit));
            }
            "terminate" => {
                reply(self, json!({}));
                self.terminate();
                return Ok(Act::Go(Resume::Quit));
            }
            "initialize" | "launch" => return Err(format!("'{cmd}' was already done")),
            _ => return Err(format!("unsupported request '{cmd}'")),
        }
        Ok(Act::Stay)
    }

    /// `terminate`: the program ends as if killed, so the client hears
    /// `exited` and `terminated` (the spec's order) and then disconnects;
    /// until it does, other requests are refused.
    fn terminate(&mut self) {
        if !self.over {
            let mut w = self.wire.borrow_mut();
            w.event("exited", json!({"exitCode": 1}));
            w.event("terminated", json!({}));
            self.over = true;
        }
        while let Some(req) = self.next_request(true) {
            if req["type"] != "request" {
                continue;
            }
            if req["command"] == "disconnect" {
                self.wire.borrow_mut().reply(&req, json!({}));
                break;
            }
            self.wire.borrow_mut().fail(&req, "the program was terminated; only 'disconnect' is left");
        }
        self.gone = true;
    }

    /// Whether the client's `source` is the program: their canonical paths
    /// are equal (a relative one is taken from `launch`'s `cwd`, else the
    /// server's). An editor sends one `setBreakpoints` per file that has
    /// breakpoints, and those of other files must not stop this program.
    fn is_program(&self, source: &Json) -> bool {
        let Some(p) = source["path"].as_str() else { return false };
        let p = match &self.cwd {
            Some(cwd) if !std::path::Path::new(p).is_absolute() => std::path::Path::new(cwd).join(p),
            _ => std::path::PathBuf::from(p),
        };
        let canonical = std::fs::canonicalize(&p).unwrap_or(p);
        canonical == std::path::Path::new(&self.path)
    }

    /// `setBreakpoints`: the source's line breakpoints replaced, each moved
    /// to the first line at or after it where an op starts. Breakpoints in
    /// another file are unverified and leave the program's alone.
    fn set_breakpoints(&mut self, args: &Json, points: &mut Points) -> Json {
        let asked = args["breakpoints"].as_array().into_iter().flatten();
        if !self.is_program(&args["source"]) {
            let msg =
                format!("not the program being debugged ({}): breakpoints in another file never stop it", self.path);
            let out: Vec<Json> = asked.map(|_| json!({"verified": false, "message": msg})).collect();
            return json!({"breakpoints": out});
        }
        points.breaks.retain(|b| !matches!(b.at, Where::Line(_)));
        let mut out = Vec::new();
        for bp in args["breakpoints"].as_array().into_iter().flatten() {
            let asked = bp["line"].as_i64().unwrap_or(0) - self.base.0 + 1;
            // Line 0 (or below the client's first line) is no line at all.
            let at = usize::try_from(asked).ok().filter(|l| *l >= 1).and_then(|l| op_line_from(self.src, self.m, l));
            match at {
                Some(line) => {
                    let id = points.add_break(Where::Line(line));
                    out.push(json!({"id": id, "verified": true, "line": line as i64 + self.base.0 - 1, "source": self.source()}));
                }
                None => out.push(json!({"verified": false, "message": "no op starts on or after this line"})),
            }
        }
        json!({"breakpoints": out})
    }

    /// The program as a DAP `Source`.
    fn source(&self) -> Json {
        let name = self.path.rsplit('/').next().unwrap_or(&self.path);
        json!({"name": name, "path": self.path})
    }

    /// `stackTrace`: frames from `startFrame`, at most `levels` of them (0
    /// or absent: all), and how many there are in all, so a client that
    /// loads frames page by page gets each once.
    fn stack_trace(&self, s: &Stopped<'_, '_>, args: &Json) -> Json {
        let frames: Vec<Json> = (0..s.depth())
            .filter_map(|k| {
                let op = if k == 0 { Some(s.op) } else { s.stack.get(s.stack.len() - k)?.site };
                let (line, col) = self.src.line_col(self.m.op(op?).span.start);
                Some(json!({
                    "id": k, "name": format!("@{}", s.func_name(k)), "source": self.source(),
                    "line": line as i64 + self.base.0 - 1, "column": col as i64 + self.base.1 - 1,
                }))
            })
            .collect();
        let total = frames.len();
        let start = args["startFrame"].as_u64().map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let levels = match args["levels"].as_u64() {
            Some(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
            _ => usize::MAX,
        };
        let page: Vec<Json> = frames.into_iter().skip(start).take(levels).collect();
        json!({"totalFrames": total, "stackFrames": page})
    }

    /// `variables`: a frame's values in scope, or the next level of an array.
    fn variables(&mut self, s: &Stopped<'_, '_>, args: &Json) -> Result<Json, String> {
        let r = args["variablesReference"].as_u64().unwrap_or(0) as usize;
        if (1..CHILD_BASE).contains(&r) {
            let k = r - 1;
            let (_, fr) = s.frame(k).ok_or_else(|| format!("no frame {k}"))?;
            let mut out = Vec::new();
            for (name, v) in s.scope(k) {
                let val = s.e.get(fr, v);
                let child = self.expandable(val, Child { frame: k, value: v, prefix: Vec::new() });
                out.push(json!({
                    "name": name, "value": super::brief(val, s.unsigned(v)), "type": s.type_of(v),
                    "variablesReference": child, "evaluateName": name,
                }));
            }
            return Ok(json!({"variables": out}));
        }
        let c = self.children.get(r.wrapping_sub(CHILD_BASE)).cloned().ok_or("stale variable reference")?;
        let (_, fr) = s.frame(c.frame).ok_or("stale variable reference")?;
        let val = s.e.get(fr, c.value);
        let shape = shape_of(val);
        let depth = c.prefix.len();
        let n = shape.get(depth).copied().unwrap_or(0);
        let start = args["start"].as_u64().unwrap_or(0) as usize;
        let count = args["count"].as_u64().map_or(CHILDREN_MAX, |c| c as usize).min(CHILDREN_MAX);
        let mut out = Vec::new();
        for i in (start..n).take(count) {
            let mut idx = c.prefix.clone();
            idx.push(i);
            if depth + 1 < shape.len() {
                let child = self.push_child(Child { frame: c.frame, value: c.value, prefix: idx });
                out.push(json!({
                    "name": format!("[{i}]"), "value": format!("{} elements", shape[depth + 1..].iter().product::<usize>()),
                    "variablesReference": child, "indexedVariables": shape[depth + 1],
                }));
            } else {
                out.push(json!({"name": format!("[{i}]"), "value": element(val, &idx, s.unsigned(c.value)), "variablesReference": 0}));
            }
        }
        Ok(json!({"variables": out}))
    }

    /// A reference for an array's elements (0 for a scalar).
    fn expandable(&mut self, v: &Value, c: Child) -> usize {
        if shape_of(v).is_empty() {
            return 0;
        }
        self.push_child(c)
    }

    fn push_child(&mut self, c: Child) -> usize {
        self.children.push(c);
        CHILD_BASE + self.children.len() - 1
    }

    /// Tells the client the run paused.
    fn stopped(&mut self, s: &Stopped<'_, '_>) {
        let mut w = self.wire.borrow_mut();
        let (reason, description, ids) = match s.reason {
            Reason::Entry => ("entry", "Paused on entry".to_string(), vec![]),
            Reason::Step => ("step", "Paused after a step".to_string(), vec![]),
            Reason::Returned(f, vals) if vals.is_empty() => ("step", format!("Returned from @{f}"), vec![]),
            Reason::Returned(f, vals) => ("step", format!("Returned from @{f}: {}", vals.join(", ")), vec![]),
            Reason::Breakpoint(id) => ("breakpoint", format!("Paused on breakpoint {id}"), vec![*id]),
            Reason::Watch(hits) => {
                let text: Vec<String> = hits
                    .iter()
                    .map(|h| format!("Watchpoint {}: {} changed from {} to {}", h.id, h.expr, h.old, h.new))
                    .collect();
                ("data breakpoint", text.join("; "), hits.iter().map(|h| h.id).collect())
            }
            Reason::Interrupted => ("pause", "Paused".to_string(), vec![]),
            Reason::Fault(err) => {
                let text = err.render(self.m, self.src);
                w.event("output", json!({"category": "stderr", "output": text}));
                self.fault = Some(err.kind.to_string());
                ("exception", err.kind.to_string(), vec![])
            }
        };
        w.event(
            "stopped",
            json!({
                "reason": reason, "description": description, "text": description, "threadId": THREAD,
                "allThreadsStopped": true, "hitBreakpointIds": ids,
            }),
        );
    }
}

/// The dimensions `variables` expands: an array's shape, a memref's sizes.
fn shape_of(v: &Value) -> Vec<usize> {
    match v {
        Value::Array(d) => d.shape().to_vec(),
        Value::Memref(m) => m.sizes.iter().map(|s| usize::try_from(*s).unwrap_or(0)).collect(),
        _ => Vec::new(),
    }
}

/// The element of an array or memref at `idx`, as text.
fn element(v: &Value, idx: &[usize], unsigned: bool) -> String {
    match v {
        Value::Array(d) => {
            let strides = crate::dense::row_major_strides(d.shape());
            let lin: usize = idx.iter().zip(&strides).map(|(i, s)| i * s).sum();
            crate::show::scalar_as(&d.get(lin), unsigned)
        }
        Value::Memref(m) => {
            let idx: Vec<i64> = idx.iter().map(|i| *i as i64).collect();
            match m.load(OpId(0), &idx, "inspect") {
                Ok(x) => crate::show::value_as(&x, OpId(0), unsigned),
                Err(e) => format!("<{}>", e.kind),
            }
        }
        _ => String::new(),
    }
}

impl Ui for Dap<'_> {
    fn stop(&mut self, s: &Stopped<'_, '_>, points: &mut Points) -> Resume {
        if let Some(r) = self.pending.take() {
            return r;
        }
        self.children.clear();
        let _ = std::io::stdout().flush();
        self.stopped(s);
        self.serve(Some(s), points)
    }

    fn ended(&mut self, end: &Ended, points: &mut Points) -> Resume {
        let code = match end {
            Ended::Exited(results) => {
                if !results.is_empty() {
                    self.wire.borrow_mut().event("output", json!({"category": "console", "output": results}));
                }
                0
            }
            Ended::Failed { text, seen, .. } => {
                if !seen {
                    self.wire.borrow_mut().event("output", json!({"category": "stderr", "output": text}));
                }
                1
            }
        };
        {
            let mut w = self.wire.borrow_mut();
            w.event("exited", json!({"exitCode": code}));
            w.event("terminated", json!({}));
        }
        self.over = true;
        // The client may restart, or disconnect.
        self.children.clear();
        self.serve(None, points)
    }

    fn say(&mut self, msg: &str) {
        self.wire.borrow_mut().event("output", json!({"category": "console", "output": format!("{msg}\n")}));
    }

    fn program_output(&mut self) -> Box<dyn Write> {
        Box::new(Output { wire: self.wire.clone(), buf: Vec::new() })
    }

    fn loaded(&mut self, funcs: Vec<String>) {
        self.funcs = funcs;
        // A restarted run has not ended yet.
        self.over = false;
    }

    /// Requests that arrive while the program runs: `pause` pauses it,
    /// breakpoint changes take effect at once, a disconnect ends the run;
    /// what needs a paused program is refused.
    fn poll(&mut self, points: &mut Points) -> bool {
        loop {
            if self.gone {
                return true;
            }
            let Some(req) = self.next_request(false) else { return self.gone };
            if req["type"] != "request" {
                continue;
            }
            if req["command"] == "pause" {
                self.wire.borrow_mut().reply(&req, json!({}));
                return true;
            }
            match self.request(&req, None, points) {
                Ok(Act::Stay) => {}
                // Restart, terminate, disconnect: pause to act on them.
                Ok(Act::Go(r)) => {
                    self.pending = Some(r);
                    return true;
                }
                Err(msg) => self.wire.borrow_mut().fail(&req, &msg),
            }
        }
    }
}

/// The capabilities `initialize` answers with.
fn capabilities() -> Json {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsFunctionBreakpoints": true,
        "supportsEvaluateForHovers": true,
        "supportsExceptionInfoRequest": true,
        "supportsRestartRequest": true,
        "supportsTerminateRequest": true,
        "exceptionBreakpointFilters": [],
    })
}

/// Serves one debugging session on `input`/`output` (the `dap` command):
/// the handshake up to `launch`, then runs under [`Dap`]. Returns the exit
/// status: 0 when the client disconnects (or its input ends), 2 when the
/// input is not DAP, before or after `launch`.
pub fn main(input: Box<dyn BufRead + Send>, output: Box<dyn Write>, cfg: crate::exec::Config) -> i32 {
    let wire = Rc::new(RefCell::new(Wire::new(output)));
    let input = reader(input);
    let mut base = (1, 1);
    let mut early = Vec::new();
    // Until `launch`: only the handshake; breakpoints wait for the program.
    let (launch, req) = loop {
        let req = match next_request(&input) {
            Ok(r) => r,
            Err(status) => return status,
        };
        let args = &req["arguments"];
        match req["command"].as_str().unwrap_or("") {
            "initialize" => {
                base = (
                    i64::from(args["linesStartAt1"].as_bool() != Some(false)),
                    i64::from(args["columnsStartAt1"].as_bool() != Some(false)),
                );
                wire.borrow_mut().reply(&req, capabilities());
            }
            "launch" => match launch_args(args) {
                Ok(l) => break (l, req),
                Err(msg) => wire.borrow_mut().fail(&req, &msg),
            },
            "disconnect" => {
                wire.borrow_mut().reply(&req, json!({}));
                return 0;
            }
            "setBreakpoints" | "setFunctionBreakpoints" | "setExceptionBreakpoints" | "configurationDone" => {
                early.push(req)
            }
            cmd => wire.borrow_mut().fail(&req, &format!("'{cmd}' before 'launch'")),
        }
    };
    let loaded = std::fs::read_to_string(&launch.program)
        .map_err(|e| format!("cannot read {}: {e}", launch.program))
        .map(|text| Source::new(launch.program.clone(), text))
        .and_then(|src| {
            // A 2019-language program is detected as `run` detects it.
            let (lang, _) = crate::driver::language(&src, None);
            match mlir_ir::parse_and_verify_lang(&src, &crate::driver::limits(), lang) {
                Ok(m) => Ok((src, m)),
                Err(d) => Err(d.render(&src)),
            }
        });
    let (src, m) = match loaded {
        Ok(x) => x,
        Err(msg) => return failed_launch(&wire, &input, &req, &msg),
    };
    let sess = super::Session { m: &m, src: &src, cfg, entry: launch.entry, args: launch.args };
    // A bad entry or argument fails `launch` itself, as a bad program
    // does, so the editor shows why instead of a session that ends at once.
    if let Err(msg) = sess.check() {
        return failed_launch(&wire, &input, &req, msg.trim_end());
    }
    wire.borrow_mut().reply(&req, json!({}));
    wire.borrow_mut().event("initialized", json!({}));
    let path = std::fs::canonicalize(&launch.program).map_or(launch.program.clone(), |p| p.display().to_string());
    let mut dap = Dap::new(&m, &src, path, wire.clone(), input, base);
    dap.cwd = launch.cwd.clone();
    let broken = dap.broken.clone();
    let status = move || if broken.get() { crate::driver::EXIT_INPUT } else { 0 };
    // Function names before the first run, for `setFunctionBreakpoints`.
    dap.funcs = function_names(&m);
    let mut points = Points::default();
    let mut go = false;
    for req in &early {
        go |= matches!(dap.request(req, None, &mut points), Ok(Act::Go(_)));
    }
    if !go && dap.serve(None, &mut points) == Resume::Quit {
        return status();
    }
    match super::run_session_with(&sess, dap, points, launch.stop_on_entry) {
        Ok(()) => status(),
        Err(msg) => {
            let mut w = wire.borrow_mut();
            w.event("output", json!({"category": "stderr", "output": msg}));
            w.event("exited", json!({"exitCode": crate::driver::EXIT_INPUT}));
            w.event("terminated", json!({}));
            crate::driver::EXIT_INPUT
        }
    }
}

/// The next request before a program runs, or the exit status the
/// session ends with: 0 when the input ends, 2 when it is not DAP.
fn next_request(input: &Requests) -> std::result::Result<Json, i32> {
    match input.recv().unwrap_or(Ok(None)) {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err(0),
        Err(msg) => {
            eprintln!("mlir-interp dap: {msg}");
            Err(crate::driver::EXIT_INPUT)
        }
    }
}

/// Answers a `launch` that failed (`msg` says why) and ends the session
/// as an editor expects: `terminated`, then the adapter stays up to answer
/// `disconnect` and exits 0 (an editor takes any other exit for a crash).
/// Other requests are refused; input that is not DAP still exits 2.
fn failed_launch(wire: &Rc<RefCell<Wire>>, input: &Requests, req: &Json, msg: &str) -> i32 {
    wire.borrow_mut().fail(req, msg);
    wire.borrow_mut().event("terminated", json!({}));
    loop {
        let req = match next_request(input) {
            Ok(r) => r,
            Err(status) => return status,
        };
        if req["command"] == "disconnect" {
            wire.borrow_mut().reply(&req, json!({}));
            return 0;
        }
        wire.borrow_mut().fail(&req, "the launch failed; only 'disconnect' is left");
    }
}

/// The symbol names of the module's functions.
fn function_names(m: &Module) -> Vec<String> {
    (0..m.ops.len() as u32)
        .map(OpId)
        .filter(|op| matches!(m.op_name(*op), "func.func" | "llvm.func"))
        .filter_map(|op| match m.attr(op, "sym_name").map(|a| m.ctx.attr_kind(a)) {
            Some(mlir_ir::attrs::Attribute::String { value, .. }) => Some(String::from_utf8_lossy(value).into_owned()),
            _ => None,
        })
        .collect()
}

/// `launch`'s arguments: `program` (required), `entry`, `args`,
/// `stopOnEntry`, `cwd` (what a relative `program` is relative to).
fn launch_args(a: &Json) -> Result<Launch, String> {
    let program = a["program"].as_str().ok_or("launch needs 'program': the .mlir file to debug")?;
    let program = match a["cwd"].as_str() {
        Some(cwd) if !program.starts_with('/') => format!("{}/{program}", cwd.trim_end_matches('/')),
        _ => program.to_string(),
    };
    let args = match &a["args"] {
        Json::Null => Vec::new(),
        Json::Array(v) => v
            .iter()
            .map(|x| match x {
                Json::String(s) => Ok(s.clone()),
                Json::Number(n) => Ok(n.to_string()),
                Json::Bool(b) => Ok(b.to_string()),
                other => Err(format!("'args' holds {other}: give each argument as a string, as --arg takes it")),
            })
            .collect::<Result<_, _>>()?,
        other => return Err(format!("'args' must be an array of strings, not {other}")),
    };
    Ok(Launch {
        program,
        entry: a["entry"].as_str().unwrap_or("main").to_string(),
        args,
        stop_on_entry: a["stopOnEntry"].as_bool().unwrap_or(false),
        cwd: a["cwd"].as_str().map(str::to_string),
    })
}
